//! One request checked against one key, from what a person or a script knows: the key's limits, a response's
//! rate-limit headers, what is left and when it resets. The CLI's `check` and the npm package's `check` both run
//! this, so the order (a fresh state at `now_ms`, then the headers, then the stated levels, which override them,
//! then the output cap, then the verdict) is written once.

use super::budget::Budget;
use super::policy::Policy;
use super::state::State;
use super::verdict::{Check, Cost, Summary};
use crate::headers::{DimensionState, HeaderError, RateLimitSnapshot};

/// What is known of a key and of the request beyond its cost. Every field but `budget` is optional.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckInput {
    /// The key's limits and reservation rules.
    pub budget: Budget,
    /// Tokens left now (as `x-ratelimit-remaining-tokens` reports).
    pub remaining_tokens: Option<u64>,
    /// Requests left now.
    pub remaining_requests: Option<u64>,
    /// Milliseconds until the token budget is full again.
    pub reset_tokens_ms: Option<u64>,
    /// Milliseconds until the request budget is full again.
    pub reset_requests_ms: Option<u64>,
    /// The output cap reserved at admission, overriding the request's own.
    pub max_tokens: Option<u64>,
    /// Which end of the estimate's band to decide on.
    pub policy: Policy,
}

impl CheckInput {
    /// Nothing known but the key's limits: a full budget, the request's own output cap, the median.
    pub fn new(budget: Budget) -> CheckInput {
        CheckInput {
            budget,
            remaining_tokens: None,
            remaining_requests: None,
            reset_tokens_ms: None,
            reset_requests_ms: None,
            max_tokens: None,
            policy: Policy::Median,
        }
    }
}

/// A check and what it was decided against.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckOutcome {
    /// The verdict at the policy's point of the band, and at both ends.
    pub check: Check,
    /// The flat view the CLI prints and the npm package returns.
    pub summary: Summary,
    /// The key's state the check was made against.
    pub state: State,
}

/// Checks a request of `cost` against a key at `now_ms`: the state starts full, takes what `headers` (name, value
/// pairs, as received) say, then the levels `input` states, and decides under `input.policy` with
/// `input.max_tokens` as the output cap when given. A header whose value cannot be read is an error (a person
/// typed it), not skipped as a gateway would.
///
/// ```
/// use llm_preflight::{check_request, Budget, CheckInput, Cost, Provider, VerdictKind};
/// let budget = Budget::new(Provider::OpenAi).tokens_per_minute(8_000.try_into().unwrap());
/// let input = CheckInput { remaining_tokens: Some(500), ..CheckInput::new(budget) };
/// let out = check_request(&input, [("x-ratelimit-reset-tokens", "6s")], Cost::exact(1_200), 0).unwrap();
/// // 500 tokens left, full again in 6 s: 1,200 fit once the bucket has refilled part of the way.
/// assert_eq!(out.check.verdict.kind(), VerdictKind::Queueable);
/// assert!(out.summary.wait_ms.is_some_and(|w| w > 0 && w < 6_000));
/// ```
pub fn check_request<I, N, V>(
    input: &CheckInput,
    headers: I,
    mut cost: Cost,
    now_ms: u64,
) -> Result<CheckOutcome, HeaderError>
where
    I: IntoIterator<Item = (N, V)>,
    N: AsRef<str>,
    V: AsRef<str>,
{
    let mut state = State::new(input.budget.clone(), now_ms);
    let parsed = RateLimitSnapshot::from_headers(headers, now_ms);
    if let Some(bad) = parsed.malformed.into_iter().next() {
        return Err(bad);
    }
    state.observe(&parsed.snapshot, now_ms);
    let stated = RateLimitSnapshot {
        tokens: DimensionState {
            limit: None,
            remaining: input.remaining_tokens,
            reset_ms: input.reset_tokens_ms,
        },
        requests: DimensionState {
            limit: None,
            remaining: input.remaining_requests,
            reset_ms: input.reset_requests_ms,
        },
        ..RateLimitSnapshot::default()
    };
    state.observe_stated(&stated, now_ms);
    if let Some(m) = input.max_tokens {
        cost.max_output = Some(m);
    }
    let check = state.check(&cost, input.policy, now_ms);
    let summary = check.summary(&state);
    Ok(CheckOutcome {
        check,
        summary,
        state,
    })
}
