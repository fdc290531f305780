//! The ceiling drill: drive load well past a small budget and record what the library decided, response by
//! response.
//!
//! Every mechanism in the core's admission and retry paths has branches that only run past the ceiling: the
//! admission queue's shedding, retries after a `retry-after`, the circuit breaker, the retry budget, routing to a
//! fallback, shrinking a request that is too large. A drill makes them run: Poisson arrivals (exponential
//! inter-arrival times, thinned to ramp the rate up to `load ×` the ceiling and hold it there), request sizes drawn
//! from a log-normal distribution (with a tail of requests larger than the whole budget) or replayed from a log,
//! streamed or not.
//!
//! The driver is sans-I/O like the rest of the crate. Time is an event queue in milliseconds; it asks a [`Clock`]
//! to reach each event's time (the simulated clock jumps there, a real one sleeps) and an [`Upstream`] to answer
//! each request (the built-in [`sim::SimProvider`]s, or the CLI's HTTP client). Randomness is a seeded
//! [`SplitMix64`]. The decisions are the library's own, made by one [`Guard`](llm_preflight::Guard): each
//! request is a [`Call`](llm_preflight::Call) that the driver polls and feeds (routing, the admission queues,
//! the rate-limit headers, refusal classification, retries gated by the retry budget, fallbacks, shrinking, a
//! circuit breaker per provider, settling and releasing, learning each provider's count). The driver only does
//! what each call asks, records its events, and checks the guard independently: no never-sendable request sent,
//! no send before a stated wait, no resend after a refusal no wait clears or after output was delivered, nothing
//! held once every call has ended.
//!
//! ```
//! use llm_preflight_drill::{simulate, DrillConfig, SimSettings};
//! let cfg = DrillConfig::simulated(10_000, None, Some(2_500), 3.0, 5.0, 42);
//! let report = simulate(&cfg, &SimSettings::default()).unwrap();
//! assert_eq!(report.retries_before_retry_after, 0);
//! assert_eq!(report.never_sendable_sent, 0);
//! assert_eq!(report.offered, report.succeeded + report.shed + report.failed + report.abandoned);
//! ```

#![deny(missing_docs)]

pub mod canary;
pub mod sim;
mod svg;

/// The seeded generator the drill draws arrivals and sizes from (the core's, shared with its traffic sampling).
pub use llm_preflight::internals::SplitMix64;

mod config;
mod driver;
mod report;
mod upstream;

pub use config::{
    parse_size_log, DrillConfig, DrillError, ProviderSpec, SimSettings, Sizes,
    MAX_EXPECTED_REQUESTS, MAX_PROMPT_TOKENS,
};
pub use driver::{run, simulate, usage_of};
pub use report::{histogram, Assertion, Bar, Crossover, MidStream, Record, Report, Series, Spread};
pub use upstream::{Clock, Reply, SimClock, Simulated, Upstream};
