//! The verdict: sendable now, queueable (a wait), or never sendable (a size), at a caller-supplied `now_ms`.
//!
//! Like `governor`'s split between "not yet" and "insufficient capacity", the two refusals are different types
//! of answer: a [`Verdict::Queueable`] clears by waiting `wait_ms`; a [`Verdict::NeverSendable`] never clears, and
//! says by how many tokens the request must shrink.

use super::policy::Policy;
use super::state::State;
use crate::dimension::{Dimension, PerDimension};
use crate::estimate::Estimate;
use serde::Serialize;

/// A token count with its p5–p95 band. Exact counts have `low == tokens == high`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Band {
    /// The p5 end.
    pub low: u64,
    /// The median.
    pub tokens: u64,
    /// The p95 end.
    pub high: u64,
}

impl Band {
    /// An exact count.
    pub const fn exact(n: u64) -> Band {
        Band {
            low: n,
            tokens: n,
            high: n,
        }
    }

    /// The point a policy decides on.
    pub const fn at(&self, policy: Policy) -> u64 {
        match policy {
            Policy::Median => self.tokens,
            Policy::Conservative => self.high,
            Policy::Optimistic => self.low,
        }
    }

    /// Adds a fixed overhead to every point.
    pub const fn plus(self, n: u64) -> Band {
        Band {
            low: self.low.saturating_add(n),
            tokens: self.tokens.saturating_add(n),
            high: self.high.saturating_add(n),
        }
    }
}

impl From<&Estimate> for Band {
    fn from(e: &Estimate) -> Band {
        Band {
            low: e.low,
            tokens: e.tokens,
            high: e.high,
        }
    }
}

/// What a request costs before the provider's reservation rules are applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cost {
    /// Prompt (input) tokens, with their band.
    pub input: Band,
    /// The request's output cap (`max_tokens`, `max_output_tokens`, `maxOutputTokens`), if it sets one.
    pub max_output: Option<u64>,
    /// Some of the input (an image by URL, a file id) could not be measured: it is priced as its documented band.
    pub incomplete: bool,
}

impl Cost {
    /// An exact prompt count (from the caller's own tokenizer or a count-tokens API), no output cap.
    pub const fn exact(input: u64) -> Cost {
        Cost {
            input: Band::exact(input),
            max_output: None,
            incomplete: false,
        }
    }

    /// An estimated prompt, no output cap.
    pub fn estimated(e: &Estimate) -> Cost {
        Cost {
            input: Band::from(e),
            max_output: None,
            incomplete: false,
        }
    }

    /// The same cost with an output cap.
    pub const fn with_max_output(mut self, max_output: u64) -> Cost {
        self.max_output = Some(max_output);
        self
    }

    /// What the request needs in every rate dimension (indexed by slot), with `input` prompt tokens.
    #[doc(hidden)]
    pub fn needs(&self, state: &State, input: u64) -> PerDimension<u64> {
        PerDimension::from_fn(|d| match d {
            Dimension::Context => 0,
            _ => state.budget.needed(d, input, self.max_output),
        })
    }
}

/// The answer. Serialized with a `verdict` tag: `{"verdict":"queueable","wait_ms":4210,"dimension":"tokens"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Fits what is left in every dimension now.
    Sendable,
    /// Fits a full bucket but not what is left: send after `wait_ms`.
    Queueable {
        /// Milliseconds from `now_ms` until it fits in every dimension.
        wait_ms: u64,
        /// The dimension that takes longest to refill.
        dimension: Dimension,
    },
    /// Exceeds a whole per-window limit or the context window by itself: no wait helps.
    NeverSendable {
        /// Which limit.
        dimension: Dimension,
        /// The limit.
        limit: u64,
        /// What the request needs in that dimension.
        needed: u64,
        /// By how many tokens it must shrink: `needed - limit`.
        excess: u64,
    },
}

/// The verdict without its numbers, for comparing across the band.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictKind {
    /// [`Verdict::Sendable`].
    Sendable,
    /// [`Verdict::Queueable`].
    Queueable,
    /// [`Verdict::NeverSendable`].
    NeverSendable,
}

impl Verdict {
    /// The verdict's kind.
    pub const fn kind(&self) -> VerdictKind {
        match self {
            Verdict::Sendable => VerdictKind::Sendable,
            Verdict::Queueable { .. } => VerdictKind::Queueable,
            Verdict::NeverSendable { .. } => VerdictKind::NeverSendable,
        }
    }

    /// `Some(wait)` when sendable now (0) or after a wait; `None` when never.
    pub const fn wait_ms(&self) -> Option<u64> {
        match self {
            Verdict::Sendable => Some(0),
            Verdict::Queueable { wait_ms, .. } => Some(*wait_ms),
            Verdict::NeverSendable { .. } => None,
        }
    }

    /// Whether it can go now.
    pub const fn is_sendable(&self) -> bool {
        matches!(self, Verdict::Sendable)
    }
}

/// A verdict and what it was decided on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// The verdict at the policy's point of the band.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The policy it was decided under.
    pub policy: Policy,
    /// Prompt tokens at the policy's point.
    pub input_tokens: u64,
    /// Output tokens reserved at admission under the provider's rules.
    pub reserved_output: u64,
    /// Tokens needed in the deciding dimension (the never-sendable one, else the binding token dimension).
    pub needed: u64,
    /// The verdict at the band's p5 end.
    pub at_low: VerdictKind,
    /// The verdict at the band's p95 end.
    pub at_high: VerdictKind,
    /// The same kind of verdict at both ends of the band: "never sendable even at p5" is a far stronger statement
    /// than at the median.
    pub holds_across_band: bool,
    /// Some input could not be measured (an image by URL, a file id): it is priced as its documented band, floor to ceiling.
    pub incomplete: bool,
}

/// The flat view of a [`Check`] that the CLI's `check` JSON and the JS API print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// `sendable`, `queueable` or `never_sendable`.
    pub verdict: &'static str,
    /// 0 when sendable, the wait when queueable, none when never sendable.
    pub wait_ms: Option<u64>,
    /// The deciding dimension (none when sendable).
    pub dimension: Option<&'static str>,
    /// The limit of the deciding dimension (the token limit when sendable).
    pub limit: Option<u64>,
    /// By how many tokens a never-sendable request must shrink.
    pub excess: Option<u64>,
}

impl Check {
    /// The flat view printed by the CLI and the JS API; `state` supplies the limit of a queueable dimension.
    pub fn summary(&self, state: &State) -> Summary {
        let limit_of = |d: Dimension| state.bucket(d).map(|b| b.limit);
        match self.verdict {
            Verdict::Sendable => Summary {
                verdict: "sendable",
                wait_ms: Some(0),
                dimension: None,
                limit: limit_of(Dimension::Tokens),
                excess: None,
            },
            Verdict::Queueable { wait_ms, dimension } => Summary {
                verdict: "queueable",
                wait_ms: Some(wait_ms),
                dimension: Some(dimension.name()),
                limit: limit_of(dimension),
                excess: None,
            },
            Verdict::NeverSendable {
                dimension,
                limit,
                excess,
                ..
            } => Summary {
                verdict: "never_sendable",
                wait_ms: None,
                dimension: Some(dimension.name()),
                limit: Some(limit),
                excess: Some(excess),
            },
        }
    }
}

/// The verdict for `cost` against `state` at `now_ms`, with prompt tokens taken at `input` exactly.
pub fn verdict_at(state: &State, cost: &Cost, input: u64, now_ms: u64) -> (Verdict, u64) {
    let budget = &state.budget;
    // Never: context first, then every rate limit in order.
    if let Some(window) = budget.limit(Dimension::Context) {
        let needed = budget.needed(Dimension::Context, input, cost.max_output);
        if needed > window {
            return never(Dimension::Context, window, needed);
        }
    }
    let needs = cost.needs(state, input);
    for d in Dimension::RATES {
        if let Some(b) = state.bucket(d) {
            let needed = needs[d];
            if needed > b.limit {
                return never(d, b.limit, needed);
            }
        }
    }
    // Not yet: the longest wait over every bucket, and any retry-after.
    let mut wait = 0u64;
    let mut dim = None;
    let mut token_dim = None;
    for d in Dimension::RATES {
        if let Some(b) = state.bucket(d) {
            if token_dim.is_none() && d != Dimension::Requests && d != Dimension::RequestsPerDay {
                token_dim = Some(d);
            }
            let w = b.wait_ms(needs[d], now_ms).unwrap_or(u64::MAX);
            if w > wait {
                wait = w;
                dim = Some(d);
            }
        }
    }
    let needed = match dim
        .filter(|d| *d != Dimension::Requests && *d != Dimension::RequestsPerDay)
        .or(token_dim)
    {
        Some(d) => needs[d],
        None => needs[Dimension::Tokens],
    };
    let blocked = state.blocked_until_ms.saturating_sub(now_ms);
    if blocked > wait {
        wait = blocked;
        dim = Some(dim.or(token_dim).unwrap_or(Dimension::Tokens));
    }
    match dim {
        Some(dimension) if wait > 0 => (
            Verdict::Queueable {
                wait_ms: wait,
                dimension,
            },
            needed,
        ),
        _ => (Verdict::Sendable, needed),
    }
}

fn never(dimension: Dimension, limit: u64, needed: u64) -> (Verdict, u64) {
    (
        Verdict::NeverSendable {
            dimension,
            limit,
            needed,
            excess: needed - limit,
        },
        needed,
    )
}

impl State {
    /// Checks a request's cost against this key's state at `now_ms`, deciding on the policy's point of the band
    /// and saying whether the same kind of verdict holds at both ends.
    pub fn check(&self, cost: &Cost, policy: Policy, now_ms: u64) -> Check {
        check(self, cost, policy, now_ms)
    }
}

/// Checks a request's cost against a key's state at `now_ms` ([`State::check`]).
pub(crate) fn check(state: &State, cost: &Cost, policy: Policy, now_ms: u64) -> Check {
    let input = cost.input.at(policy);
    let (verdict, needed) = verdict_at(state, cost, input, now_ms);
    let kind_at = |n: u64| {
        if n == input {
            verdict.kind()
        } else {
            verdict_at(state, cost, n, now_ms).0.kind()
        }
    };
    let at_low = kind_at(cost.input.low);
    let at_high = kind_at(cost.input.high);
    let budget = &state.budget;
    Check {
        verdict,
        policy,
        input_tokens: input,
        reserved_output: budget.reservation.reserved_output(
            cost.max_output,
            input,
            budget.limit(Dimension::Context),
        ),
        needed,
        at_low,
        at_high,
        holds_across_band: at_low == verdict.kind() && at_high == verdict.kind(),
        incomplete: cost.incomplete,
    }
}
