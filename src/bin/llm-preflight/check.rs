//! `llm-preflight check`: one prompt or request body against a key's per-minute budgets.
//!
//! Prints one JSON object on one line, keys in this order:
//! `{"verdict","wait_ms","dimension","needed","limit","excess","estimate"}`. Bad input: a message on stderr and
//! exit status 2.

use llm_preflight::headers::{parse_duration_ms, Headers, RateLimitSnapshot};
use llm_preflight::preflight::{
    estimate_request_priced, Budget, Cost, Dimension, Observation, Observed, Policy, Provider,
    State, Summary,
};
use llm_preflight::{estimate, Estimate};
use std::io::Read;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

#[derive(clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    which: super::estimate::Which,
    /// The key's tokens-per-minute limit.
    #[arg(long)]
    tpm: u64,
    /// The key's requests-per-minute limit.
    #[arg(long)]
    rpm: Option<u64>,
    /// Tokens left now (as `x-ratelimit-remaining-tokens` reports).
    #[arg(long)]
    remaining_tokens: Option<u64>,
    /// Requests left now.
    #[arg(long)]
    remaining_requests: Option<u64>,
    /// Time until the token budget is full again: `577ms`, `5.94s`, `6m0s`, `1m0.363142857s` or plain seconds.
    #[arg(long)]
    reset_tokens: Option<String>,
    /// Time until the request budget is full again (same formats).
    #[arg(long)]
    reset_requests: Option<String>,
    /// A file of response headers: a JSON object or raw `Name: value` lines.
    #[arg(long)]
    headers: Option<String>,
    /// The output cap reserved at admission (overrides the request body's).
    #[arg(long)]
    max_tokens: Option<u64>,
    /// Which end of the estimate's band to decide on: median (default), conservative (p95), optimistic (p5).
    #[arg(long, default_value = "median")]
    policy: String,
    /// The input is a request body (OpenAI chat or Responses, Anthropic Messages, Gemini generateContent JSON).
    #[arg(long)]
    request: bool,
    /// The prompt or request body; stdin when absent or `-`.
    file: Option<String>,
}

fn read_source(source: &str) -> Result<String, String> {
    let mut bytes = Vec::new();
    let res = if source == "-" {
        std::io::stdin().lock().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(source).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    res.map_err(|e| format!("cannot read {source}: {e}"))?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            eprintln!(
                "llm-preflight: {source}: invalid UTF-8, estimated with replacement characters"
            );
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    })
}

fn duration(flag: &str, v: &Option<String>) -> Result<Option<u64>, String> {
    match v {
        None => Ok(None),
        Some(s) => parse_duration_ms(s)
            .map(Some)
            .map_err(|e| format!("--{flag} {s:?}: {e}")),
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

fn decide(a: CheckArgs) -> Result<serde_json::Value, String> {
    let policy = Policy::from_name(&a.policy).map_err(|e| e.to_string())?;
    if a.tpm == 0 {
        return Err(llm_preflight::preflight::Error::ZeroLimit {
            dimension: Dimension::Tokens,
        }
        .to_string());
    }
    if a.rpm == Some(0) {
        return Err(llm_preflight::preflight::Error::ZeroLimit {
            dimension: Dimension::Requests,
        }
        .to_string());
    }
    let given = a.which.given();
    let chosen = a.which.load()?;
    let tables = chosen.tables();
    let reset_tokens = duration("reset-tokens", &a.reset_tokens)?;
    let reset_requests = duration("reset-requests", &a.reset_requests)?;
    let now = now_ms();

    let mut budget = Budget::new(Provider::OpenAiCompatible).tokens_per_minute(a.tpm);
    if let Some(rpm) = a.rpm {
        budget = budget.requests_per_minute(rpm);
    }
    let mut state = State::new(budget, now);
    if let Some(path) = &a.headers {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let headers = Headers::parse(&text).map_err(|e| format!("{path}: {e}"))?;
        let parsed = RateLimitSnapshot::from_headers(headers.iter(), now);
        if let Some(bad) = parsed.malformed.first() {
            return Err(format!("{path}: {bad}"));
        }
        state.observe(&Observation::from(&parsed.snapshot), now);
    }
    let flags = Observation {
        tokens: Observed {
            limit: None,
            remaining: a.remaining_tokens,
            reset_ms: reset_tokens,
        },
        requests: Observed {
            limit: None,
            remaining: a.remaining_requests,
            reset_ms: reset_requests,
        },
        ..Observation::default()
    };
    state.observe(&flags, now);

    let source = a.file.clone().unwrap_or_else(|| "-".to_string());
    let text = read_source(&source)?;
    let (est, mut cost): (Estimate, Cost) = if a.request {
        let body: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{source}: {}",
                llm_preflight::preflight::Error::NotJson(e.to_string())
            )
        })?;
        let r = estimate_request_priced(&body, None, given.then_some(tables))
            .map_err(|e| format!("{source}: {e}"))?;
        if r.incomplete {
            eprintln!(
                "llm-preflight: {source}: not all of the request could be priced ({}); the estimate is a lower bound",
                r.unpriced.join(", ")
            );
        }
        (r.estimate.clone(), r.cost())
    } else {
        let e = estimate(&text, tables);
        let c = Cost::estimated(&e);
        (e, c)
    };
    if let Some(m) = a.max_tokens {
        cost.max_output = Some(m);
    }
    let check = state.check(&cost, policy, now);
    let Summary {
        verdict,
        wait_ms,
        dimension,
        limit,
        excess,
    } = check.summary(&state);
    Ok(serde_json::json!({
        "verdict": verdict,
        "wait_ms": wait_ms,
        "dimension": dimension,
        "needed": check.needed,
        "limit": limit,
        "excess": excess,
        "estimate": {
            "source": source,
            "chars": est.chars,
            "tokens": est.tokens,
            "low": est.low,
            "high": est.high,
            "content": est.content.kind.name(),
            "profile": if given { tables.name() } else { est.profile.name() },
        },
    }))
}

pub fn run(a: CheckArgs) -> ExitCode {
    match decide(a) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("llm-preflight check: {e}");
            ExitCode::from(2)
        }
    }
}
