//! The canary: a few small scripted requests that trip a tiny per-route budget on purpose, and a verdict on
//! whether the answers still have the shape the classifier expects. For a scheduler to run hourly; any mismatch
//! names what changed.
//!
//! 1. `small`: a one-word prompt with `max_tokens: 1`. Expected: a 200 with a usage block and `x-ratelimit-*`
//!    token headers (or, if the budget is already spent, a refusal the classifier reads as a rate limit).
//! 2. `too_large`: the same prompt with an output cap one token above the route's TPM. Expected: refused before
//!    generation, classified `too_large` (or `context_length`), not retryable, and the retry policy says shrink.
//! 3. `rate_limit`: prompts of about half the budget each (`max_tokens: 1`), sent back to back (at most `burst`),
//!    until one is refused.
//!    Expected: a rate-limit kind, retryable, with a stated wait; headers that make the library's own ledger hold
//!    the same request back (queueable, not sendable); and the retry policy never earlier than the stated wait.

use crate::driver::usage_of;
use crate::upstream::{Clock, Reply, Upstream};
use llm_preflight::{
    classify_with_snapshot, estimate_request, next_action, Action, Budget, Cost, Ledger, Policy,
    Profile, Provider, RateLimitSnapshot, RefusalKind, RetryPolicy, State, Verdict,
};
use serde::Serialize;
use std::num::NonZeroU64;

/// One step's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CanaryStep {
    /// `small`, `too_large` or `rate_limit`.
    pub step: &'static str,
    /// Requests sent in this step.
    pub requests: u32,
    /// The status of the answer judged.
    pub status: Option<u16>,
    /// How the classifier read it (`ok` for a success).
    pub kind: String,
    /// Whether it matched.
    pub matched: bool,
    /// What was expected and what came instead.
    pub detail: String,
}

/// The canary's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CanaryReport {
    /// Every step matched.
    pub ok: bool,
    /// The steps in order.
    pub steps: Vec<CanaryStep>,
    /// One line per mismatch, naming what changed.
    pub changed: Vec<String>,
}

fn body(model: &str, prompt: &str, max_tokens: u64) -> String {
    serde_json::json!({"model": model, "messages": [{"role": "user", "content": prompt}], "max_tokens": max_tokens})
        .to_string()
}

/// About `n` tokens of ordinary English words (one token each for most tokenizers, about five bytes each).
fn words(n: u64) -> String {
    let list = [
        "team", "notes", "budget", "review", "plan", "ships", "users", "week", "risk", "steps",
        "owner", "goal",
    ];
    let mut s = String::new();
    for i in 0..n.max(1) as usize {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(list[i % list.len()]);
    }
    s
}

fn snapshot(reply: &Reply, now: u64) -> RateLimitSnapshot {
    RateLimitSnapshot::from_headers(
        reply.headers.iter().map(|(a, b)| (a.as_str(), b.as_str())),
        now,
    )
    .snapshot
}

/// Runs the canary against provider 0 of `upstream`, whose route budget is `tpm` tokens per minute.
pub fn run_canary<U: Upstream, C: Clock>(
    upstream: &mut U,
    clock: &mut C,
    model: &str,
    tpm: u64,
    burst: u32,
) -> CanaryReport {
    let mut steps = Vec::new();
    let tpm = tpm.max(1);
    // 1. small
    let now = clock.wait_until(0);
    let small = body(model, "ping", 1);
    steps.push(match upstream.send(0, &small, now) {
        Err(e) => fail(
            "small",
            1,
            None,
            "transport".into(),
            format!("no answer: {e}"),
        ),
        Ok(r) => judge_small(&r, now),
    });
    // 2. too large
    let now = clock.wait_until(0);
    let big = body(model, "ping", tpm + 1);
    steps.push(match upstream.send(0, &big, now) {
        Err(e) => fail(
            "too_large",
            1,
            None,
            "transport".into(),
            format!("no answer: {e}"),
        ),
        Ok(r) => judge_too_large(&r, now),
    });
    // 3. rate limit
    let half = body(model, &words(tpm / 2), 1);
    let mut sent = 0;
    let mut judged = None;
    while sent < burst.max(1) {
        let now = clock.wait_until(0);
        sent += 1;
        match upstream.send(0, &half, now) {
            Err(e) => {
                judged = Some(fail(
                    "rate_limit",
                    sent,
                    None,
                    "transport".into(),
                    format!("no answer: {e}"),
                ));
                break;
            }
            Ok(r) if r.status == 200 && llm_preflight::find_stream_error(&r.body).is_none() => {
                continue
            }
            Ok(r) => {
                judged = Some(judge_rate_limit(&r, &half, tpm, sent, now));
                break;
            }
        }
    }
    steps.push(judged.unwrap_or_else(|| {
        fail(
            "rate_limit",
            sent,
            Some(200),
            "ok".into(),
            format!("expected a rate-limit refusal within {sent} requests of {} tokens against a {tpm} TPM budget; every one succeeded (is the budget larger than --tpm?)", tpm / 2),
        )
    }));
    let changed: Vec<String> = steps
        .iter()
        .filter(|s| !s.matched)
        .map(|s| format!("{}: {}", s.step, s.detail))
        .collect();
    CanaryReport {
        ok: changed.is_empty(),
        steps,
        changed,
    }
}

fn fail(
    step: &'static str,
    requests: u32,
    status: Option<u16>,
    kind: String,
    detail: String,
) -> CanaryStep {
    CanaryStep {
        step,
        requests,
        status,
        kind,
        matched: false,
        detail,
    }
}

fn pass(
    step: &'static str,
    requests: u32,
    status: u16,
    kind: String,
    detail: String,
) -> CanaryStep {
    CanaryStep {
        step,
        requests,
        status: Some(status),
        kind,
        matched: true,
        detail,
    }
}

fn judge_small(r: &Reply, now: u64) -> CanaryStep {
    let snap = snapshot(r, now);
    if r.status == 200 {
        if llm_preflight::find_stream_error(&r.body).is_some() {
            return fail(
                "small",
                1,
                Some(200),
                "mid_stream".into(),
                "a 200 carrying an error".into(),
            );
        }
        if usage_of(&r.body).is_none() {
            return fail(
                "small",
                1,
                Some(200),
                "ok".into(),
                "the success body has no usage block (prompt_tokens/completion_tokens)".into(),
            );
        }
        if snap.tokens.limit.is_none() && snap.tokens.remaining.is_none() {
            return fail(
                "small",
                1,
                Some(200),
                "ok".into(),
                "no x-ratelimit-*-tokens headers on a success".into(),
            );
        }
        return pass(
            "small",
            1,
            200,
            "ok".into(),
            format!(
                "usage and token headers (limit {:?}, remaining {:?})",
                snap.tokens.limit, snap.tokens.remaining
            ),
        );
    }
    let c = classify_with_snapshot(Some(r.status), &snap, &r.body);
    if c.kind.is_rate_limit() && c.retryable {
        return pass(
            "small",
            1,
            r.status,
            c.kind.name().into(),
            "budget already spent: a rate limit, as expected".into(),
        );
    }
    fail(
        "small",
        1,
        Some(r.status),
        c.kind.name().into(),
        format!(
            "expected 200 with usage, got {} classified {}",
            r.status,
            c.kind.name()
        ),
    )
}

fn judge_too_large(r: &Reply, now: u64) -> CanaryStep {
    let snap = snapshot(r, now);
    let c = classify_with_snapshot(Some(r.status), &snap, &r.body);
    let kind = c.kind.name().to_string();
    if r.status == 200 && llm_preflight::find_stream_error(&r.body).is_none() {
        return fail(
            "too_large",
            1,
            Some(200),
            "ok".into(),
            "expected a refusal for an output cap above the whole budget, got a success".into(),
        );
    }
    if !matches!(c.kind, RefusalKind::TooLarge | RefusalKind::ContextLength) {
        return fail(
            "too_large",
            1,
            Some(r.status),
            kind.clone(),
            format!("expected too_large or context_length, got {kind}"),
        );
    }
    if c.retryable {
        return fail(
            "too_large",
            1,
            Some(r.status),
            kind,
            "classified retryable: waiting would be advised for a request that never fits".into(),
        );
    }
    match next_action(&c, 0, &RetryPolicy::default(), now, 0.5) {
        Action::Shrink { by_tokens } => pass(
            "too_large",
            1,
            r.status,
            kind,
            format!(
                "shrink by {by_tokens:?} (limit {:?}, requested {:?})",
                c.limit, c.requested
            ),
        ),
        other => fail(
            "too_large",
            1,
            Some(r.status),
            kind,
            format!("the retry policy said {other:?}, expected shrink"),
        ),
    }
}

fn judge_rate_limit(r: &Reply, body: &str, tpm: u64, sent: u32, now: u64) -> CanaryStep {
    let snap = snapshot(r, now);
    let c = classify_with_snapshot(Some(r.status), &snap, &r.body);
    let kind = c.kind.name().to_string();
    if !c.kind.is_rate_limit() {
        return fail(
            "rate_limit",
            sent,
            Some(r.status),
            kind.clone(),
            format!("expected a rate-limit kind, got {kind}"),
        );
    }
    if !c.retryable {
        return fail(
            "rate_limit",
            sent,
            Some(r.status),
            kind,
            "a rate limit classified not retryable".into(),
        );
    }
    let Some(wait) = c.retry_after_ms else {
        return fail(
            "rate_limit",
            sent,
            Some(r.status),
            kind,
            "no stated wait (retry-after header or \"try again in\")".into(),
        );
    };
    if snap.tokens.remaining.is_none() && snap.requests.remaining.is_none() {
        return fail(
            "rate_limit",
            sent,
            Some(r.status),
            kind,
            "no x-ratelimit-remaining-* headers on the refusal".into(),
        );
    }
    // The library's own ledger, fed these headers, must hold the same request back: at the size the provider said
    // it counted ("Requested R"), else at the library's estimate.
    let ledger = Ledger::new(State::new(
        Budget::new(Provider::OpenAiCompatible)
            .tokens_per_minute(NonZeroU64::new(tpm).unwrap_or(NonZeroU64::MIN)),
        now,
    ));
    ledger.observe(&snap, now);
    let cost = match (
        c.requested,
        estimate_request(body, None, Some(Profile::O200k)),
    ) {
        (Some(n), _) => Cost::exact(n),
        (None, Ok(e)) => e.cost(),
        (None, Err(e)) => {
            return fail(
                "rate_limit",
                sent,
                Some(r.status),
                kind,
                format!("the canary's own body did not estimate: {e}"),
            )
        }
    };
    let verdict = ledger.check(&cost, Policy::Median, now).verdict;
    if !matches!(verdict, Verdict::Queueable { .. }) {
        return fail(
            "rate_limit",
            sent,
            Some(r.status),
            kind,
            format!(
                "after the refusal's headers the ledger says {:?}, expected queueable",
                verdict.kind()
            ),
        );
    }
    match next_action(&c, 0, &RetryPolicy::default(), now, 0.0) {
        Action::Retry { after_ms } if after_ms >= wait => pass(
            "rate_limit",
            sent,
            r.status,
            kind,
            format!("after {sent} requests: wait {wait} ms stated, retry after {after_ms} ms, ledger queueable"),
        ),
        Action::Fallback { .. } => pass(
            "rate_limit",
            sent,
            r.status,
            kind,
            format!("after {sent} requests: wait {wait} ms stated is beyond the retry cap: fall back"),
        ),
        other => fail("rate_limit", sent, Some(r.status), kind, format!("the retry policy said {other:?} for a stated wait of {wait} ms")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{SimProvider, SimProviderConfig};
    use crate::{SimClock, Simulated};

    #[test]
    fn the_simulator_passes_the_canary() {
        let p = SimProvider::new(
            SimProviderConfig {
                name: "route".into(),
                model: "gpt-4o-mini".into(),
                tpm: 300,
                rpm: None,
                skew: 0.0,
                mid_stream_error_rate: 0.0,
                overload_rate: 0.0,
                shared_fraction: 0.0,
            },
            3,
            0,
        );
        let mut up = Simulated { providers: vec![p] };
        let r = run_canary(&mut up, &mut SimClock, "gpt-4o-mini", 300, 6);
        assert!(r.ok, "{r:?}");
        assert_eq!(r.steps.len(), 3);
    }
}
