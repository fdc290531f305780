//! The next move after a refusal: retry with jitter, fall back, shrink or give up; a circuit breaker per provider;
//! a retry budget across requests.
//!
//! Everything here is a pure function of its inputs: the time (`now_ms`) and the random draw (`random`, uniform
//! in `[0, 1)`) are parameters, so a policy can be tested by feeding it fixed values.
//!
//! ```
//! use llm_preflight::classify;
//! use llm_preflight::{next_action, Action, RetryPolicy};
//! let r = classify(Some(429), [("retry-after", "2")], r#"{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached for requests"}}"#, 0);
//! match next_action(&r, 0, &RetryPolicy::default(), 0, 0.3) {
//!     Action::Retry { after_ms } => assert!((2000..=20_000).contains(&after_ms)),
//!     other => panic!("expected a retry, got {other:?}"),
//! }
//! ```

use crate::refusal::{Refusal, RefusalKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Send the same request again to the same provider after this many milliseconds.
    Retry {
        /// The wait before the retry.
        after_ms: u64,
    },
    /// Send it to the next provider or key instead.
    Fallback {
        /// Why not wait here.
        reason: FallbackReason,
    },
    /// The request can never fit as it is: make it smaller. Never resend it unchanged.
    Shrink {
        /// By how many tokens, when the refusal says both what was requested and the limit.
        by_tokens: Option<u64>,
    },
    /// Stop: nothing short of a human (or a day) fixes it, or resending is unsafe.
    GiveUp {
        /// Why.
        reason: GiveUpReason,
    },
}

/// Why an [`Action::Fallback`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FallbackReason {
    /// The stated wait, or the rest of the retry plan at its worst, does not fit in what the deadline leaves.
    DeadlineTooShort,
    /// The stated wait is longer than the policy's cap.
    WaitExceedsCap,
    /// The attempts this policy allows are spent.
    AttemptsExhausted,
    /// The provider said it is overloaded again.
    RepeatedOverload,
    /// The retry budget shared by all requests is empty (see [`RetryBudget`]).
    RetryBudgetExhausted,
    /// The provider's circuit breaker is open (see [`CircuitBreaker`]).
    CircuitOpen,
}

/// Why an [`Action::GiveUp`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GiveUpReason {
    /// Billing, credit or plan caps: waiting does not help.
    QuotaExhausted,
    /// The refusal is not one that waiting fixes (authentication, a bad request, an unreadable response).
    NotRetryable,
    /// Output was already streamed to the user, or a tool with side effects already ran, and the request has no
    /// idempotency key: resending anywhere would repeat them.
    UnsafeToResend,
}

/// The retry policy and what is known about one request.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RetryPolicy {
    /// The first backoff step, in milliseconds (default 500).
    pub base_ms: u64,
    /// No wait is ever longer than this (default 20 000).
    pub cap_ms: u64,
    /// Retries allowed on the same provider before falling back (default 3).
    pub max_attempts: u32,
    /// Retries allowed after `overloaded` before falling back (default 1: the second overload falls back).
    pub max_overloaded_attempts: u32,
    /// When the request must be answered by, in the caller's `now_ms` clock; `None` for no deadline.
    pub deadline_ms: Option<u64>,
    /// Whether the request carries an idempotency key, which makes resending safe.
    pub idempotency_key: bool,
    /// Whether a tool with side effects already ran for this request.
    pub side_effects_ran: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            base_ms: 500,
            cap_ms: 20_000,
            max_attempts: 3,
            max_overloaded_attempts: 1,
            deadline_ms: None,
            idempotency_key: false,
            side_effects_ran: false,
        }
    }
}

impl RetryPolicy {
    /// The default policy with a deadline `within_ms` after `now_ms` (a conversational turn: 3 000).
    pub fn with_deadline(now_ms: u64, within_ms: u64) -> Self {
        RetryPolicy {
            deadline_ms: Some(now_ms.saturating_add(within_ms)),
            ..RetryPolicy::default()
        }
    }

    /// The backoff ceiling for an attempt: `min(cap, base · 2^attempt)`.
    pub fn backoff_ms(&self, attempt: u32) -> u64 {
        let f = 1u64.checked_shl(attempt.min(63)).unwrap_or(u64::MAX);
        self.base_ms.saturating_mul(f).min(self.cap_ms)
    }

    /// The longest the rest of the retry plan can take from `attempt` on, waits only: the worst case of this
    /// attempt's wait (at least `first_wait_ms`) plus the worst backoff of every later allowed attempt.
    pub fn worst_plan_ms(&self, attempt: u32, first_wait_ms: u64) -> u64 {
        let mut total = first_wait_ms;
        let mut a = attempt.saturating_add(1);
        while a < self.max_attempts {
            let step = self.backoff_ms(a);
            // From the cap on (or with no base at all) every later step is the same: add them at once rather than
            // loop up to `u32::MAX` times.
            if step >= self.cap_ms || self.base_ms == 0 {
                let rest = u64::from(self.max_attempts - a);
                return total.saturating_add(step.saturating_mul(rest));
            }
            total = total.saturating_add(step);
            a += 1;
        }
        total
    }
}

fn clamp_unit(random: f64) -> f64 {
    if random.is_nan() || random < 0.0 {
        0.0
    } else if random >= 1.0 {
        // [0, 1): treat 1.0 and beyond as the top of the range.
        1.0 - f64::EPSILON
    } else {
        random
    }
}

/// Decides the next move after `refusal` on attempt `attempt` (0 for the first refusal), at `now_ms`, with the
/// uniform draw `random` in `[0, 1)`.
///
/// - `too_large` and `context_length`: [`Action::Shrink`], by `requested − limit` when both are known.
/// - `quota_exhausted`: [`Action::GiveUp`]; anything else waiting cannot fix: `GiveUp { not_retryable }`.
/// - Output already delivered or side effects ran, without an idempotency key: `GiveUp { unsafe_to_resend }`.
/// - Attempts spent, a second `overloaded`, a stated wait beyond the cap, or a deadline that cannot hold the rest
///   of the retry plan at its worst (with a 3-second budget that is the first 429): [`Action::Fallback`].
/// - Otherwise [`Action::Retry`]. With a stated wait `w`, the delay is `w + U·min(base·2^attempt, cap − w)`: never
///   earlier than stated, never beyond the cap, and spread so that workers refused together do not return
///   together. Without one, it is uniform in `[base, min(cap, base·2^(attempt+1))]`: exponential, jittered, never
///   immediate.
pub fn next_action(
    refusal: &Refusal,
    attempt: u32,
    budget: &RetryPolicy,
    now_ms: u64,
    random: f64,
) -> Action {
    let u = clamp_unit(random);
    match refusal.kind {
        RefusalKind::TooLarge | RefusalKind::ContextLength => {
            return Action::Shrink {
                by_tokens: refusal.excess(),
            }
        }
        RefusalKind::QuotaExhausted => {
            return Action::GiveUp {
                reason: GiveUpReason::QuotaExhausted,
            }
        }
        _ => {}
    }
    if !refusal.retryable {
        return Action::GiveUp {
            reason: GiveUpReason::NotRetryable,
        };
    }
    if (refusal.output_delivered || budget.side_effects_ran) && !budget.idempotency_key {
        return Action::GiveUp {
            reason: GiveUpReason::UnsafeToResend,
        };
    }
    if attempt >= budget.max_attempts {
        return Action::Fallback {
            reason: FallbackReason::AttemptsExhausted,
        };
    }
    if refusal.kind == RefusalKind::Overloaded && attempt >= budget.max_overloaded_attempts {
        return Action::Fallback {
            reason: FallbackReason::RepeatedOverload,
        };
    }
    let (delay, worst) = match refusal.retry_after_ms {
        Some(w) => {
            if w > budget.cap_ms {
                return Action::Fallback {
                    reason: FallbackReason::WaitExceedsCap,
                };
            }
            let spread = budget.backoff_ms(attempt).min(budget.cap_ms - w);
            (w + (u * spread as f64) as u64, w + spread)
        }
        None => {
            let lo = budget.base_ms.min(budget.cap_ms).max(1);
            let hi = budget.backoff_ms(attempt.saturating_add(1)).max(lo);
            (lo + (u * (hi - lo) as f64) as u64, hi)
        }
    };
    if let Some(deadline) = budget.deadline_ms {
        let left = deadline.saturating_sub(now_ms);
        if budget.worst_plan_ms(attempt, worst) > left || delay > left {
            return Action::Fallback {
                reason: FallbackReason::DeadlineTooShort,
            };
        }
    }
    Action::Retry { after_ms: delay }
}

// ---------------------------------------------------------------------------------------------------------------
// Circuit breaker.

/// A circuit breaker's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BreakerState {
    /// Requests flow.
    Closed,
    /// The provider is skipped without a round trip until the cool-down ends.
    Open,
    /// The cool-down ended: one probe is let through; its outcome closes or reopens the breaker.
    HalfOpen,
}

/// When a breaker opens and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreakerConfig {
    /// Consecutive provider-side failures that open the breaker (default 5).
    pub failure_threshold: u32,
    /// How long it stays open before a probe, in milliseconds (default 30 000).
    pub open_ms: u64,
}

impl Default for BreakerConfig {
    fn default() -> Self {
        BreakerConfig {
            failure_threshold: 5,
            open_ms: 30_000,
        }
    }
}

/// A circuit breaker for one provider (or key), driven by the outcomes the caller reports and by `now_ms`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CircuitBreaker {
    config: BreakerConfig,
    state: BreakerState,
    failures: u32,
    opened_at_ms: u64,
    probe_in_flight: bool,
}

impl CircuitBreaker {
    /// A closed breaker.
    pub fn new(config: BreakerConfig) -> Self {
        CircuitBreaker {
            config,
            state: BreakerState::Closed,
            failures: 0,
            opened_at_ms: 0,
            probe_in_flight: false,
        }
    }

    /// The state at `now_ms` (an open breaker whose cool-down has ended reads as half-open).
    pub fn state(&self, now_ms: u64) -> BreakerState {
        if self.state == BreakerState::Open
            && now_ms >= self.opened_at_ms.saturating_add(self.config.open_ms)
        {
            BreakerState::HalfOpen
        } else {
            self.state
        }
    }

    /// Asks to send a request at `now_ms`. Closed: yes. Open: no, until the cool-down ends. Half-open: yes for
    /// one probe at a time; the others are refused until its outcome is reported.
    pub fn allow(&mut self, now_ms: u64) -> bool {
        match self.state(now_ms) {
            BreakerState::Closed => true,
            BreakerState::Open => false,
            BreakerState::HalfOpen => {
                self.state = BreakerState::HalfOpen;
                if self.probe_in_flight {
                    false
                } else {
                    self.probe_in_flight = true;
                    true
                }
            }
        }
    }

    /// Reports a success: closes the breaker.
    pub fn on_success(&mut self, _now_ms: u64) {
        self.state = BreakerState::Closed;
        self.failures = 0;
        self.probe_in_flight = false;
    }

    /// Reports a provider-side failure (rate limit, overload, server error, timeout). A failed probe reopens
    /// the breaker; enough consecutive failures open a closed one.
    pub fn on_failure(&mut self, now_ms: u64) {
        self.probe_in_flight = false;
        match self.state(now_ms) {
            BreakerState::HalfOpen => self.open(now_ms),
            BreakerState::Open => {}
            BreakerState::Closed => {
                self.failures = self.failures.saturating_add(1);
                if self.failures >= self.config.failure_threshold {
                    self.open(now_ms);
                }
            }
        }
    }

    /// Reports a refusal: provider-side ones (rate limits, overload, retryable errors) count as failures; the
    /// request's own faults (too large, context length) and billing do not say the provider is unhealthy, and
    /// count as neither.
    pub fn on_refusal(&mut self, refusal: &Refusal, now_ms: u64) {
        let provider_side = refusal.kind.is_rate_limit()
            || refusal.kind == RefusalKind::Overloaded
            || (refusal.kind == RefusalKind::Other && refusal.retryable);
        if provider_side {
            self.on_failure(now_ms);
        } else {
            self.probe_in_flight = false;
        }
    }

    fn open(&mut self, now_ms: u64) {
        self.state = BreakerState::Open;
        self.opened_at_ms = now_ms;
        self.failures = 0;
    }
}

impl Default for CircuitBreaker {
    fn default() -> Self {
        CircuitBreaker::new(BreakerConfig::default())
    }
}

/// One breaker per provider name, all with the same configuration. Owned by the caller: no global state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CircuitBreakers {
    config: BreakerConfig,
    by_provider: BTreeMap<String, CircuitBreaker>,
}

impl CircuitBreakers {
    /// No breakers yet; each provider gets a closed one when first named.
    pub fn new(config: BreakerConfig) -> Self {
        CircuitBreakers {
            config,
            by_provider: BTreeMap::new(),
        }
    }

    /// The breaker for `provider`.
    pub fn get(&mut self, provider: &str) -> &mut CircuitBreaker {
        let config = self.config;
        self.by_provider
            .entry(provider.to_string())
            .or_insert_with(|| CircuitBreaker::new(config))
    }

    /// The state of `provider`'s breaker at `now_ms` (closed if never named).
    pub fn state(&self, provider: &str, now_ms: u64) -> BreakerState {
        self.by_provider
            .get(provider)
            .map_or(BreakerState::Closed, |b| b.state(now_ms))
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Retry budget.

/// A token bucket of retries shared by all requests, so that a fleet does not multiply an outage: each request
/// deposits `ratio` of a retry (0.1: at most 10% extra load), each retry withdraws one, and a small floor of
/// `min_per_sec` retries per second keeps a quiet service able to retry at all.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RetryBudget {
    /// Retries earned per request sent (default 0.1).
    pub ratio: f64,
    /// Retries per second always available, earned with time (default 1.0).
    pub min_per_sec: f64,
    /// The most retries that can be saved up (default 100).
    pub max_tokens: f64,
    tokens: f64,
    last_ms: Option<u64>,
}

impl Default for RetryBudget {
    fn default() -> Self {
        RetryBudget::new(0.1, 1.0, 100.0)
    }
}

impl RetryBudget {
    /// A budget with these parameters, holding one second of its floor (so a service that just started can retry
    /// its first failure, as one that has been quiet for a second can). Non-finite or negative values are read as 0.
    pub fn new(ratio: f64, min_per_sec: f64, max_tokens: f64) -> Self {
        let clean = |x: f64| if x.is_finite() && x > 0.0 { x } else { 0.0 };
        RetryBudget {
            ratio: clean(ratio),
            min_per_sec: clean(min_per_sec),
            max_tokens: clean(max_tokens),
            tokens: clean(min_per_sec).min(clean(max_tokens)),
            last_ms: None,
        }
    }

    fn refill(&mut self, now_ms: u64) {
        if let Some(last) = self.last_ms {
            let dt = now_ms.saturating_sub(last) as f64 / 1000.0;
            self.tokens = (self.tokens + dt * self.min_per_sec).min(self.max_tokens);
        }
        self.last_ms = Some(self.last_ms.map_or(now_ms, |l| l.max(now_ms)));
    }

    /// Records a first attempt (not a retry) sent at `now_ms`.
    pub fn on_request(&mut self, now_ms: u64) {
        self.refill(now_ms);
        self.tokens = (self.tokens + self.ratio).min(self.max_tokens);
    }

    /// Takes one retry from the budget at `now_ms`, if there is one.
    pub fn try_retry(&mut self, now_ms: u64) -> bool {
        self.refill(now_ms);
        // A small tolerance: ten deposits of 0.1 make one retry despite binary rounding.
        if self.tokens >= 1.0 - 1e-9 {
            self.tokens = (self.tokens - 1.0).max(0.0);
            true
        } else {
            false
        }
    }

    /// The retries available now (without refilling).
    pub fn available(&self) -> f64 {
        self.tokens
    }

    /// Passes `action` through, except that a [`Action::Retry`] with no retry left in the budget becomes
    /// [`Action::Fallback`] with [`FallbackReason::RetryBudgetExhausted`].
    pub fn gate(&mut self, action: Action, now_ms: u64) -> Action {
        match action {
            Action::Retry { .. } if !self.try_retry(now_ms) => Action::Fallback {
                reason: FallbackReason::RetryBudgetExhausted,
            },
            a => a,
        }
    }
}
