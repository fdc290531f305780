//! `llm-preflight check`: one prompt or request body against a key's per-minute budgets.
//!
//! Prints one JSON object on one line, keys in this order:
//! `{"verdict","wait_ms","dimension","needed","limit","excess","estimate"}`. Bad input: a message on stderr and
//! exit status 2.

use llm_preflight::{
    check_request, estimate, estimate_request_priced, parse_duration_ms, Budget, CheckInput, Cost,
    Dimension, Estimate, Headers, Policy, PreflightError, Provider, Summary, UnknownName,
};
use std::io::Read;
use std::num::NonZeroU64;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

#[derive(clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    which: super::estimate::Which,
    /// The key's tokens-per-minute limit.
    #[arg(long)]
    tpm: u64,
    /// The provider whose admission rules and headers apply: open_ai_compatible (default), open_ai, azure_open_ai,
    /// groq (its `x-ratelimit-*-requests` headers count the day), cerebras, anthropic, gemini, bedrock.
    #[arg(long, default_value = "open_ai_compatible")]
    provider: String,
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
    /// The input is a request body (OpenAI chat or Responses, Anthropic Messages, Gemini generateContent, Bedrock
    /// Converse, legacy completions, embeddings, Ollama's chat or generate, Cohere's chat JSON, or one request of a
    /// batch file, a Bedrock batch record or CountTokens body, or a DashScope or Replicate body, read as the body
    /// inside).
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

/// A limit from a flag: zero admits nothing, so it is an error (leave the flag out for no limit).
fn limit(dimension: Dimension, n: u64) -> Result<NonZeroU64, String> {
    NonZeroU64::new(n).ok_or_else(|| PreflightError::ZeroLimit { dimension }.to_string())
}

fn decide(a: CheckArgs) -> Result<serde_json::Value, String> {
    let policy: Policy = a.policy.parse().map_err(|e: UnknownName| e.to_string())?;
    let provider: Provider = a.provider.parse().map_err(|e: UnknownName| e.to_string())?;
    let mut budget = Budget::new(provider).tokens_per_minute(limit(Dimension::Tokens, a.tpm)?);
    if let Some(rpm) = a.rpm {
        budget = budget.requests_per_minute(limit(Dimension::Requests, rpm)?);
    }
    let given = a.which.given();
    let chosen = a.which.load()?;
    let tables = chosen.tables();
    let input = CheckInput {
        remaining_tokens: a.remaining_tokens,
        remaining_requests: a.remaining_requests,
        reset_tokens_ms: duration("reset-tokens", &a.reset_tokens)?,
        reset_requests_ms: duration("reset-requests", &a.reset_requests)?,
        max_tokens: a.max_tokens,
        policy,
        ..CheckInput::new(budget)
    };
    let headers = match &a.headers {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            Headers::parse(&text).map_err(|e| format!("{path}: {e}"))?
        }
        None => Headers::new(),
    };

    let source = a.file.clone().unwrap_or_else(|| "-".to_string());
    let text = read_source(&source)?;
    let mut media = serde_json::Value::Array(Vec::new());
    let mut unpriced: Vec<String> = Vec::new();
    let (est, cost): (Estimate, Cost) = if a.request {
        let body: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| format!("{source}: {}", PreflightError::NotJson(e.to_string())))?;
        let r = estimate_request_priced(&body, None, given.then_some(tables))
            .map_err(|e| format!("{source}: {e}"))?;
        if r.incomplete {
            eprintln!(
                "llm-preflight: {source}: not all of the request could be measured ({}): media at their rules' \
                 documented bands, anything else (context the provider holds or adds, tools it defines) at 0",
                r.unpriced.join(", ")
            );
        }
        media = serde_json::to_value(&r.media).map_err(|e| e.to_string())?;
        unpriced = r.unpriced.clone();
        (r.estimate.clone(), r.cost())
    } else {
        let e = estimate(&text, tables);
        let c = Cost::estimated(&e);
        (e, c)
    };
    let out = check_request(&input, &headers, cost, now_ms())
        .map_err(|bad| format!("{}: {bad}", a.headers.as_deref().unwrap_or("headers")))?;
    let Summary {
        verdict,
        wait_ms,
        dimension,
        limit,
        excess,
    } = out.summary;
    Ok(serde_json::json!({
        "verdict": verdict,
        "wait_ms": wait_ms,
        "dimension": dimension,
        "needed": out.check.needed,
        "limit": limit,
        "excess": excess,
        "incomplete": out.check.incomplete,
        "unpriced": unpriced,
        "media": media,
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
