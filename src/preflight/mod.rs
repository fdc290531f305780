//! Checking a request against the provider's per-minute budgets: sendable, queueable or never sendable.
//!
//! Data flows one way: a request body or a text ([`request`]) → its [`Cost`] (prompt tokens with their band, plus
//! the output the provider reserves at admission, per [`ReservationProfile`]) → a [`Check`] against a key's
//! [`State`] (continuous token buckets per [`Dimension`], refilled at the budget's rate, with header resets taking
//! precedence) at a caller-supplied `now_ms`. On top of that sit a thread-safe reservation [`Ledger`], an
//! [`AdmissionQueue`] bounded in seconds of work, and [`route()`] across several providers or keys.
//!
//! Like the rest of the crate this module is sans-I/O: it never reads a clock; `now_ms` (milliseconds on any
//! monotonic or wall clock the caller chooses, the same one throughout) is always a parameter.
//!
//! ```
//! use llm_preflight::preflight::{Budget, Cost, Policy, Provider, State, Verdict};
//! // 8,478 prompt tokens against a key with 8,000 tokens per minute: no wait ever makes it fit.
//! let state = State::new(Budget::new(Provider::Groq).tokens_per_minute(8_000), 0);
//! let check = state.check(&Cost::exact(8_478), Policy::Median, 0);
//! assert!(matches!(check.verdict, Verdict::NeverSendable { excess: 478, .. }));
//! ```

use serde::Serialize;
use std::fmt;

pub mod budget;
pub mod ledger;
pub mod queue;
#[cfg(all(feature = "redis", not(target_arch = "wasm32")))]
pub mod redis_ledger;
pub mod request;
pub mod route;
pub mod state;
pub mod verdict;

pub use budget::{AbsentCap, Budget, Provider, ReservationProfile};
pub use ledger::{Ledger, Refused, Reservation, Settled, Usage};
pub use queue::{AdmissionQueue, Offer, Poll, Shed, ShedReason};
#[cfg(all(feature = "redis", not(target_arch = "wasm32")))]
pub use redis_ledger::{
    Decision, Denied, Folded, LedgerStats, Mode, OnUnavailable, RedisLedger, RedisLedgerError,
    RedisOptions, RedisReservation, RedisSettled, SharedSnapshot, TimeSource,
};
pub use request::{
    estimate_request, estimate_request_priced, estimate_request_value, Api, RequestEstimate,
};
pub use route::{route, Candidate, PassReason, PassedOver, Route};
pub use state::{Bucket, Observation, Observed, State};
pub use verdict::{check, Band, Check, Cost, Summary, Verdict, VerdictKind};

/// One limit a request is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    /// Requests per minute.
    Requests,
    /// Tokens per minute (input plus whatever output the provider reserves at admission).
    Tokens,
    /// Input tokens per minute (Anthropic's ITPM, Groq's ITPM where an organization has one).
    InputTokens,
    /// Output tokens per minute (Anthropic's OTPM).
    OutputTokens,
    /// Requests per day.
    RequestsPerDay,
    /// Tokens per day.
    TokensPerDay,
    /// The model's context window: not a rate, a size. Only ever never-sendable.
    Context,
}

impl Dimension {
    /// The dimensions that are rates (have a bucket), in the order they are checked.
    pub const RATES: [Dimension; 6] = [
        Dimension::Tokens,
        Dimension::InputTokens,
        Dimension::OutputTokens,
        Dimension::Requests,
        Dimension::TokensPerDay,
        Dimension::RequestsPerDay,
    ];

    /// The name used in JSON output (`tokens`, `input_tokens`, `context`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Dimension::Requests => "requests",
            Dimension::Tokens => "tokens",
            Dimension::InputTokens => "input_tokens",
            Dimension::OutputTokens => "output_tokens",
            Dimension::RequestsPerDay => "requests_per_day",
            Dimension::TokensPerDay => "tokens_per_day",
            Dimension::Context => "context",
        }
    }

    /// The refill window: one minute, one day, or none for the context window.
    pub const fn window_ms(self) -> u64 {
        match self {
            Dimension::RequestsPerDay | Dimension::TokensPerDay => 86_400_000,
            Dimension::Context => 0,
            _ => 60_000,
        }
    }

    pub(crate) const fn slot(self) -> usize {
        match self {
            Dimension::Tokens => 0,
            Dimension::InputTokens => 1,
            Dimension::OutputTokens => 2,
            Dimension::Requests => 3,
            Dimension::TokensPerDay => 4,
            Dimension::RequestsPerDay => 5,
            Dimension::Context => 6,
        }
    }
}

impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which end of the estimate's band to decide on: which way the caller prefers to be wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// The median estimate (the default): wrong either way about equally often.
    #[default]
    Median,
    /// The p95 end: rarely admits a request that the provider will refuse, sometimes holds one back needlessly.
    Conservative,
    /// The p5 end: rarely holds a request back needlessly, sometimes admits one the provider will refuse.
    Optimistic,
}

impl Policy {
    /// Parses `median`, `conservative` (or `p95`), `optimistic` (or `p5`).
    pub fn from_name(name: &str) -> Result<Policy, Error> {
        match name.trim().to_ascii_lowercase().as_str() {
            "median" | "p50" => Ok(Policy::Median),
            "conservative" | "p95" => Ok(Policy::Conservative),
            "optimistic" | "p5" => Ok(Policy::Optimistic),
            _ => Err(Error::InvalidPolicy(name.to_string())),
        }
    }

    /// The policy's name.
    pub const fn name(self) -> &'static str {
        match self {
            Policy::Median => "median",
            Policy::Conservative => "conservative",
            Policy::Optimistic => "optimistic",
        }
    }
}

impl std::str::FromStr for Policy {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Policy::from_name(s)
    }
}

/// Everything that can be wrong with the input to a preflight check. Never a panic.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum Error {
    /// A limit that is negative, not a number, infinite or fractional.
    InvalidLimit {
        /// Which limit.
        dimension: Dimension,
        /// The value as given.
        value: String,
    },
    /// A limit of zero: nothing could ever be sent (say "no limit" by leaving it out).
    ZeroLimit {
        /// Which limit.
        dimension: Dimension,
    },
    /// A remaining count or token count that is not a non-negative integer.
    InvalidCount {
        /// What the number was for.
        what: String,
        /// The value as given.
        value: String,
    },
    /// A policy name other than median, conservative or optimistic.
    InvalidPolicy(String),
    /// The request body is not JSON.
    NotJson(String),
    /// The request body is JSON of the wrong shape.
    WrongShape {
        /// Where in the body (a JSON pointer such as `/messages/2/content`).
        path: String,
        /// What was expected there.
        expected: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidLimit { dimension, value } => write!(
                f,
                "invalid {dimension} limit {value:?}: a limit must be a whole number of at least 1 (leave it out for no limit)"
            ),
            Error::ZeroLimit { dimension } => write!(
                f,
                "a {dimension} limit of 0 admits nothing: leave the limit out if there is none"
            ),
            Error::InvalidCount { what, value } => {
                write!(f, "invalid {what} {value:?}: expected a whole number of at least 0")
            }
            Error::InvalidPolicy(p) => {
                write!(f, "unknown policy {p:?}: the policies are median, conservative (p95), optimistic (p5)")
            }
            Error::NotJson(e) => write!(f, "the request body is not JSON: {e}"),
            Error::WrongShape { path, expected } => {
                write!(f, "the request body has the wrong shape at {path}: expected {expected}")
            }
        }
    }
}

impl std::error::Error for Error {}

/// Whether a float is a whole number from 0 to 9·10^15 (exact in an f64): the rule every count and limit from
/// JSON or JavaScript must meet. Bindings check it before formatting a rejected value their own way.
pub fn is_whole_count(value: f64) -> bool {
    value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= 9.0e15
}

/// Validates a limit given as a float (from JSON, JavaScript or a config file): a whole number ≥ 1.
pub fn limit_from_f64(dimension: Dimension, value: f64) -> Result<u64, Error> {
    if !is_whole_count(value) {
        return Err(Error::InvalidLimit {
            dimension,
            value: value.to_string(),
        });
    }
    if value == 0.0 {
        return Err(Error::ZeroLimit { dimension });
    }
    Ok(value as u64)
}

/// Validates a count given as a float (remaining tokens, reported usage): a whole number ≥ 0.
pub fn count_from_f64(what: &str, value: f64) -> Result<u64, Error> {
    if !is_whole_count(value) {
        return Err(Error::InvalidCount {
            what: what.to_string(),
            value: value.to_string(),
        });
    }
    Ok(value as u64)
}
