//! # llm-preflight
//!
//! Decide, before sending, whether an LLM request can succeed against the provider's per-minute budgets:
//! **sendable** now, **queueable** (wait this long), or **never sendable** (it needs more than the whole
//! per-minute limit: shrink it or route it elsewhere).
//!
//! The core is a token estimator that needs no vocabulary: one streaming pass over the text counts what drives
//! tokenizers (letter runs by script, digits, punctuation, whitespace runs, CJK, emoji, long repeats, encoded
//! blobs), and rates measured per tokenizer family turn those counts into a median estimate and a p5–p95 band.
//!
//! ```
//! use llm_preflight::{estimate, Profile};
//! let est = estimate("fn main() { println!(\"hello\"); }", Profile::for_model("gpt-4o").unwrap());
//! println!("{} tokens (90% band {}..={}), mostly {}", est.tokens, est.low, est.high, est.content.kind);
//! ```
//!
//! Character counting is good enough to decide whether to send, not to bill on: use the exact counters (feature
//! `exact`) or the provider's reported usage for that.
//!
//! The crate is sans-I/O: it never reads a clock, draws randomness or touches the network; time (`now_ms`) and
//! random draws are parameters, so one core serves a Rust router, a Node gateway (the npm package) and a browser
//! page. The I/O lives in other crates: `llm-preflight-redis` (a ledger shared by a gateway's replicas),
//! `llm-preflight-cli` (the `llm-preflight` command) and `llm-preflight-drill` (load past the ceiling).
//!
//! The API, as the items below are grouped:
//! - **Estimate**: [`estimate`], [`Estimator`] (streaming), [`estimate_chars`], [`Profile`], [`Estimate`] with its
//!   [`Content`] and [`ContentKind`].
//! - **Request bodies and verdicts**: [`estimate_request`] (OpenAI chat and Responses, Anthropic, Gemini, Bedrock
//!   Converse, legacy completions and embeddings bodies → [`RequestEstimate`] and its [`Cost`]), [`Budget`] (a
//!   key's limits, per [`Provider`]), [`State`] and [`State::check`] → [`Check`] with its [`Verdict`],
//!   [`check_request`] (the whole pipeline from flags and headers, as the CLI and the npm package run it).
//! - **Ledger, queue and routing**: [`Ledger`] (reserve, settle, release), [`AdmissionQueue`], [`route()`].
//! - **Headers**: [`RateLimitSnapshot::from_headers`], [`Headers`], [`parse_duration_ms`].
//! - **Refusals and retries**: [`classify`], [`find_stream_error`], [`explain`], [`next_action`] under a
//!   [`RetryPolicy`], [`CircuitBreakers`], [`RetryBudget`].
//! - **The guarded call**: [`Guard`] (the targets, their ledgers and queues, breakers, the retry budget) and
//!   [`Call`], one request's whole path as a sans-I/O state machine ([`Call::poll`] → [`Step`]).
//! - **Traffic and profile files**: [`parse_row`], [`Calibration`] and [`Backtest`] over an operator's own log;
//!   [`CustomProfile`] and [`Tables`] (profile files as JSON).
//! - **Names**: every name the CLI and the npm package accept (profiles, providers, APIs, policies, dimensions)
//!   parses through [`std::str::FromStr`] with one error, [`UnknownName`], that lists the valid names.

// One `unsafe` call in the crate: the scanner's block loop compiled with `popcnt`, behind runtime detection
// (`scan::Scanner::blocks`).
#![deny(unsafe_code)]
#![deny(missing_docs)]

// The modules, in the order data flows through them: text → scan → content kind → profile tables → estimate →
// cost → state → verdict; response → headers → refusal → retry. No module imports one that imports it back.
mod content;
mod dimension;
mod names;
mod profile;
mod profile_file;
mod rng;
mod scan;
#[rustfmt::skip]
mod tables;
mod estimate;
#[cfg(feature = "exact")]
mod exact;
mod explain;
mod guard;
mod headers;
mod media;
#[rustfmt::skip]
mod periodic_rates;
mod preflight;
mod refusal;
mod retry;
mod svg;
mod time;
mod traffic;

// Estimate.
pub use content::ContentKind;
pub use estimate::{estimate, estimate_chars, Content, Estimate, Estimator, MixPart};
#[cfg(feature = "exact")]
pub use exact::{ExactCounter, ExactError};
pub use profile::Profile;
pub use scan::Class;

// Request bodies, costs and verdicts.
pub use dimension::{Dimension, PerDimension};
pub use media::{ImageFormat, ImageRule, MediaKind, MediaPart};
pub use names::UnknownName;
pub use preflight::budget::{AbsentCap, Budget, Provider, ReservationProfile};
pub use preflight::check::{check_request, CheckInput, CheckOutcome};
pub use preflight::error::PreflightError;
pub use preflight::policy::Policy;
pub use preflight::request::{
    estimate_request, estimate_request_priced, estimate_request_value, Api, RequestEstimate,
};
pub use preflight::state::{Bucket, State};
pub use preflight::verdict::{Band, Check, Cost, Summary, Verdict, VerdictKind};

// Ledger, queue and routing.
pub use preflight::ledger::{Ledger, Refused, Reservation, Settled, Usage};
pub use preflight::queue::{AdmissionQueue, Offer, Poll, Shed, ShedReason};
pub use preflight::route::{route, Candidate, PassReason, PassedOver, Route};
pub use preflight::shared::{
    LedgerFailure, LedgerMode, SharedAdmission, SharedLedger, SharedTicket,
};

// Headers.
pub use headers::{
    DimensionState, HeaderError, HeaderProblem, Headers, HeadersInputError, ParsedHeaders,
    RateLimitSnapshot,
};
pub use time::{parse_duration_ms, DurationError};

// Refusals and retries.
pub use explain::{explain, ExplainError};
pub use refusal::{
    classify, classify_with_snapshot, find_stream_error, Refusal, RefusalKind, StreamError, Window,
};
pub use retry::{
    next_action, Action, BreakerConfig, BreakerState, CircuitBreaker, CircuitBreakers,
    FallbackReason, GiveUpReason, RetryBudget, RetryPolicy,
};

// The guarded call.
pub use guard::{
    Answer, Call, CallEvent, Disposition, Guard, GuardConfig, GuardError, Outcome, Step, Target,
};

// Traffic and profile files.
pub use profile_file::{CustomProfile, ProfileFileError, Tables};
pub use traffic::{
    parse_row, Backtest, BacktestReport, Calibration, CalibrationReport, CapReport, FittedBand,
    Histogram, KindReport, LogRow, RowError, RuleTally, TrendPoint,
};

/// The internals that this project's own tools reach: the calibration generator, the fuzz targets, the scanner's
/// oracle tests, the sibling crates (CLI, drill, Redis ledger) and the bindings. Not part of the API: anything here
/// may change in any release.
#[doc(hidden)]
pub mod internals {
    /// The scanner: counts, their names, the character kinds.
    pub mod scan {
        pub use crate::scan::kind;
        pub use crate::scan::{
            f, scan, Class, Features, Runs, Scanner, Signals, ARMENIAN_LEADS, ASCII_PUNCT,
            BYTE_TALLY_RANGES, FEATURE_NAMES, LONG_RUN, NF, RUN_WIDE_KINDS,
        };
    }
    /// The media header readers (for the fuzz targets and the benchmark).
    pub use crate::media::probe as media;
    /// Pricing counted features, and the pieces of the band.
    pub mod estimate {
        pub use crate::content::repeat_share;
        pub use crate::estimate::{
            additive_high, from_features, from_features_with, high_inputs, least_run_rate, linear,
            price, run_price, sigma, HighInputs, HIGH_TERMS,
        };
    }
    /// The 16-bit codes the shipped rates are stored as.
    pub mod profile_file {
        pub use crate::profile_file::{decode_rate, encode_rate, FORMAT, MAX_PROFILE_BYTES};
    }
    /// Preflight pieces the bindings and the Redis ledger share with the core.
    pub mod preflight {
        pub use crate::preflight::error::{count_from_f64, is_whole_count, limit_from_f64};
        pub use crate::preflight::request::*;
        pub use crate::preflight::verdict::verdict_at;
    }
    /// Header and date parsing below the snapshot.
    pub mod headers {
        pub use crate::headers::MAX_PLAUSIBLE_WAIT_MS;
        pub use crate::time::{iso_hour, parse_http_date_ms, parse_rfc3339_ms};
    }
    /// Refusal parsing limits.
    pub mod refusal {
        pub use crate::refusal::MAX_TEXT_BYTES;
    }
    /// Traffic-log limits and helpers.
    pub mod traffic {
        pub use crate::traffic::{parse_ts, MAX_ROUTES, MIN_ROWS, OWN_WIDTH_ROWS, RESERVOIR};
    }
    pub use crate::rng::SplitMix64;
    /// The charts' shared SVG pieces.
    pub mod svg {
        pub use crate::svg::{escape, open};
    }
}
