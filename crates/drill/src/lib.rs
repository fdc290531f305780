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
//! [`SplitMix64`]. The decisions are the library's own: [`route()`], [`AdmissionQueue`] over a [`Ledger`], the
//! rate-limit headers read by [`RateLimitSnapshot::from_headers`], refusals classified by
//! [`classify_with_snapshot`], the next move from [`next_action`] gated by a [`RetryBudget`], and a
//! [`CircuitBreakers`] per provider. Nothing is re-implemented here; the driver only records.
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

use llm_preflight::{
    classify_with_snapshot, estimate_request, find_stream_error, next_action, route, Action,
    AdmissionQueue, BreakerConfig, Budget, Candidate, CircuitBreakers, Cost, Ledger, Offer, Policy,
    Profile, Provider, RateLimitSnapshot, RefusalKind, Reservation, RetryBudget, RetryPolicy,
    ShedReason, State, Usage, Verdict,
};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::fmt;
use std::num::NonZeroU64;

/// A provider's raw answer: what came back over the wire, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The response headers, as received.
    pub headers: Vec<(String, String)>,
    /// The raw body (a JSON object, or a whole SSE stream).
    pub body: String,
    /// Milliseconds from sending to the first token (or first byte), when known.
    pub ttft_ms: Option<u64>,
    /// Milliseconds from sending to the end of the answer.
    pub latency_ms: u64,
}

/// Where the drill's requests go: provider `provider` (an index into [`DrillConfig::providers`]).
pub trait Upstream {
    /// Sends one OpenAI chat request body at `now_ms`. `Err` when nothing came back at all (connection refused,
    /// timeout, an unreadable answer), with a message.
    fn send(&mut self, provider: usize, body: &str, now_ms: u64) -> Result<Reply, String>;
}

/// The drill's clock: brings the caller to `at_ms` and says what time it is then (never earlier than `at_ms`).
pub trait Clock {
    /// Waits (or jumps) until `at_ms`; returns the time reached.
    fn wait_until(&mut self, at_ms: u64) -> u64;
}

/// A simulated clock: every wait takes no time.
#[derive(Debug, Clone, Copy, Default)]
pub struct SimClock;

impl Clock for SimClock {
    fn wait_until(&mut self, at_ms: u64) -> u64 {
        at_ms
    }
}

/// The simulated providers as an [`Upstream`].
#[derive(Debug, Clone)]
pub struct Simulated {
    /// One per configured provider, in the same order.
    pub providers: Vec<sim::SimProvider>,
}

impl Upstream for Simulated {
    fn send(&mut self, provider: usize, body: &str, now_ms: u64) -> Result<Reply, String> {
        match self.providers.get_mut(provider) {
            Some(p) => Ok(p.respond(body, now_ms)),
            None => Err(format!("no simulated provider {provider}")),
        }
    }
}

/// A limit that [`DrillConfig::validate`] has checked is not zero.
fn nonzero(n: u64) -> NonZeroU64 {
    NonZeroU64::new(n).unwrap_or(NonZeroU64::MIN)
}

/// One provider (or key) the drill may send to, in preference order: the first is the primary.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderSpec {
    /// A name for reports.
    pub name: String,
    /// Tokens per minute.
    pub tpm: u64,
    /// Requests per minute, if limited.
    pub rpm: Option<u64>,
}

/// Where request sizes come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Sizes {
    /// Prompts log-normal around a median; output caps of half, once or twice `max_tokens`; a share of requests
    /// sized around the primary's whole budget (prompt plus cap 0.9–1.3 × its TPM): most can never be admitted,
    /// some fit the estimate but not the provider's own count.
    Distribution {
        /// Median prompt tokens.
        prompt_median: u64,
        /// Log-spread of prompt sizes.
        prompt_sigma: f64,
        /// The typical output cap.
        max_tokens: u64,
        /// The share of oversized requests.
        oversize_fraction: f64,
    },
    /// `(prompt tokens, output cap)` pairs replayed in order, cycling.
    Replay(Vec<(u64, u64)>),
}

/// Everything a drill needs to know.
#[derive(Debug, Clone, PartialEq)]
pub struct DrillConfig {
    /// The providers in preference order (the first is the primary; the others are fallbacks).
    pub providers: Vec<ProviderSpec>,
    /// Offered load as a multiple of the primary's ceiling (3 = three times what it admits per minute).
    pub load: f64,
    /// How long arrivals last, in milliseconds.
    pub duration_ms: u64,
    /// How long the arrival rate takes to ramp from 0 to its full value.
    pub ramp_ms: u64,
    /// The seed of every random draw.
    pub seed: u64,
    /// Request sizes.
    pub sizes: Sizes,
    /// The share of requests that are streamed.
    pub stream_fraction: f64,
    /// How long after its arrival a request must have started (queue deadline; retries and fallbacks inside it).
    pub deadline_ms: u64,
    /// The admission queue's bound in milliseconds of work.
    pub queue_max_work_ms: u64,
    /// Which end of the estimate's band to decide on.
    pub policy: Policy,
    /// The model named in the request bodies.
    pub model: String,
    /// At most this many requests are offered (a real target's bound); `None` for no bound but time.
    pub max_requests: Option<u64>,
    /// The time of the drill's start on the clock (0 simulated; Unix milliseconds against a real target).
    pub start_ms: u64,
}

impl DrillConfig {
    /// A simulated drill with the defaults: a primary of `tpm` (and `rpm`), an optional fallback of
    /// `fallback_tpm`, `load ×` the ceiling for `minutes`, from `seed`.
    pub fn simulated(
        tpm: u64,
        rpm: Option<u64>,
        fallback_tpm: Option<u64>,
        load: f64,
        minutes: f64,
        seed: u64,
    ) -> DrillConfig {
        let mut providers = vec![ProviderSpec {
            name: "primary".into(),
            tpm,
            rpm,
        }];
        if let Some(f) = fallback_tpm {
            providers.push(ProviderSpec {
                name: "fallback".into(),
                tpm: f,
                rpm: None,
            });
        }
        let duration_ms = if minutes.is_finite() && minutes > 0.0 {
            (minutes * 60_000.0) as u64
        } else {
            0
        };
        DrillConfig {
            providers,
            load,
            duration_ms,
            ramp_ms: (duration_ms / 4).min(300_000),
            seed,
            sizes: Sizes::Distribution {
                prompt_median: 600,
                prompt_sigma: 0.9,
                max_tokens: 256,
                oversize_fraction: 0.03,
            },
            stream_fraction: 0.5,
            deadline_ms: 10_000,
            queue_max_work_ms: 20_000,
            policy: Policy::Median,
            model: "gpt-4o-mini".into(),
            max_requests: None,
            start_ms: 0,
        }
    }

    /// Checks every number: a typed error for anything a drill cannot run with.
    pub fn validate(&self) -> Result<(), DrillError> {
        let bad = |what: &str, value: String| {
            Err(DrillError::Invalid {
                what: what.to_string(),
                value,
            })
        };
        if self.providers.is_empty() {
            return Err(DrillError::NoProvider);
        }
        for p in &self.providers {
            if p.tpm == 0 {
                return bad("tokens-per-minute limit", "0".into());
            }
            if p.rpm == Some(0) {
                return bad("requests-per-minute limit", "0".into());
            }
        }
        if !self.load.is_finite() || self.load <= 0.0 || self.load > 1_000.0 {
            return bad(
                "load (a multiple of the ceiling, above 0, at most 1000)",
                self.load.to_string(),
            );
        }
        if self.duration_ms == 0 {
            return bad("duration (above 0)", "0".into());
        }
        if self.duration_ms > 7 * 24 * 3_600_000 {
            return bad(
                "duration (at most a week)",
                format!("{} ms", self.duration_ms),
            );
        }
        if !self.stream_fraction.is_finite() || !(0.0..=1.0).contains(&self.stream_fraction) {
            return bad("stream fraction (0 to 1)", self.stream_fraction.to_string());
        }
        match &self.sizes {
            Sizes::Distribution {
                prompt_median,
                prompt_sigma,
                oversize_fraction,
                ..
            } => {
                if *prompt_median == 0 || *prompt_median > 10_000_000 {
                    return bad(
                        "median prompt tokens (1 to 10,000,000)",
                        prompt_median.to_string(),
                    );
                }
                if !prompt_sigma.is_finite() || !(0.0..=3.0).contains(prompt_sigma) {
                    return bad("prompt spread (0 to 3)", prompt_sigma.to_string());
                }
                if !oversize_fraction.is_finite() || !(0.0..=1.0).contains(oversize_fraction) {
                    return bad("oversize fraction (0 to 1)", oversize_fraction.to_string());
                }
            }
            Sizes::Replay(v) => {
                if v.is_empty() {
                    return Err(DrillError::EmptyReplay);
                }
                if v.iter().any(|(p, _)| *p == 0 || *p > 10_000_000) {
                    return bad(
                        "replayed prompt tokens (1 to 10,000,000)",
                        "out of range".into(),
                    );
                }
            }
        }
        if self.max_requests == Some(0) {
            return bad("max requests", "0".into());
        }
        // One drill holds every request's record in memory: bound the expected count.
        let expected = self.arrivals_per_minute() * self.duration_ms as f64 / 60_000.0;
        let expected = match self.max_requests {
            Some(m) => expected.min(m as f64),
            None => expected,
        };
        if expected > MAX_EXPECTED_REQUESTS as f64 {
            return bad(
                "drill size (expected requests; lower the load or the minutes)",
                format!("{expected:.0} > {MAX_EXPECTED_REQUESTS}"),
            );
        }
        Ok(())
    }

    /// The mean tokens charged at admission per request (prompt plus cap), from the size source.
    pub fn mean_charge(&self) -> f64 {
        match &self.sizes {
            Sizes::Distribution {
                prompt_median,
                prompt_sigma,
                max_tokens,
                oversize_fraction,
            } => {
                let normal = *prompt_median as f64 * (prompt_sigma * prompt_sigma / 2.0).exp()
                    + *max_tokens as f64 * 7.0 / 6.0;
                let over = self.providers[0].tpm as f64 * 1.1;
                (1.0 - oversize_fraction) * normal + oversize_fraction * over
            }
            Sizes::Replay(v) => {
                v.iter().map(|(p, c)| (p + c) as f64).sum::<f64>() / v.len().max(1) as f64
            }
        }
    }

    /// Arrivals per minute at full load: `load ×` the primary's ceiling (its TPM over the mean charge, or its RPM
    /// if lower).
    pub fn arrivals_per_minute(&self) -> f64 {
        let p = &self.providers[0];
        let mut ceiling = p.tpm as f64 / self.mean_charge().max(1.0);
        if let Some(r) = p.rpm {
            ceiling = ceiling.min(r as f64);
        }
        self.load * ceiling
    }
}

/// The most requests one drill is expected to offer (each keeps its record in memory).
pub const MAX_EXPECTED_REQUESTS: u64 = 2_000_000;

/// The largest prompt a drill generates, in tokens: larger sizes (a huge TPM's oversized tail, a replayed size) are
/// cut to it, so that one request's text stays a few megabytes.
pub const MAX_PROMPT_TOKENS: u64 = 1_000_000;

/// Settings of the simulated providers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimSettings {
    /// The providers' tokenizer skew against the library's estimate (0.04: they count 4% more, ± noise).
    pub skew: f64,
    /// The share of streamed answers that fail inside the 200.
    pub mid_stream_error_rate: f64,
    /// The share of admitted requests answered 503 overloaded.
    pub overload_rate: f64,
    /// Other callers on the same keys take this share of each TPM, unseen by the drill's ledgers.
    pub shared_fraction: f64,
}

impl Default for SimSettings {
    fn default() -> Self {
        SimSettings {
            skew: 0.04,
            mid_stream_error_rate: 0.03,
            overload_rate: 0.01,
            shared_fraction: 0.15,
        }
    }
}

/// A drill that cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrillError {
    /// A number out of range (NaN, negative, zero where it must not be).
    Invalid {
        /// What the number is.
        what: String,
        /// The value as given.
        value: String,
    },
    /// No provider to send to.
    NoProvider,
    /// A replay log with no sizes in it.
    EmptyReplay,
}

impl fmt::Display for DrillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrillError::Invalid { what, value } => write!(f, "invalid {what}: {value}"),
            DrillError::NoProvider => f.write_str("a drill needs at least one provider"),
            DrillError::EmptyReplay => f.write_str("the size log holds no sizes"),
        }
    }
}

impl std::error::Error for DrillError {}

/// Reads a size log for [`Sizes::Replay`]: one request a line, `PROMPT_TOKENS [MAX_TOKENS]` separated by spaces,
/// a comma or a tab, or a JSON object with `prompt_tokens`/`input_tokens` and `max_tokens`. Blank lines and `#`
/// comments are skipped. A bad line is an error naming it.
pub fn parse_size_log(text: &str) -> Result<Vec<(u64, u64)>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let bad = || {
            format!(
                "line {}: expected `PROMPT_TOKENS [MAX_TOKENS]`, got {:?}",
                i + 1,
                cut(l, 80)
            )
        };
        if l.starts_with('{') {
            let v: serde_json::Value = serde_json::from_str(l).map_err(|_| bad())?;
            let p = v
                .get("prompt_tokens")
                .or_else(|| v.get("input_tokens"))
                .and_then(serde_json::Value::as_u64)
                .ok_or_else(bad)?;
            let c = match v.get("max_tokens") {
                None | Some(serde_json::Value::Null) => 0,
                Some(x) => x.as_u64().ok_or_else(bad)?,
            };
            out.push((p, c));
            continue;
        }
        let mut parts = l
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty());
        let p: u64 = parts.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
        let c: u64 = match parts.next() {
            None => 0,
            Some(s) => s.parse().map_err(|_| bad())?,
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        out.push((p, c));
    }
    Ok(out)
}

fn cut(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

// ---------------------------------------------------------------------------------------------------------------
// The report.

/// Percentiles of a set of durations (nearest rank), in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Spread {
    /// How many values.
    pub count: u64,
    /// The smallest.
    pub min: Option<u64>,
    /// The median.
    pub p50: Option<u64>,
    /// The 90th percentile.
    pub p90: Option<u64>,
    /// The 99th percentile.
    pub p99: Option<u64>,
    /// The largest.
    pub max: Option<u64>,
}

impl Spread {
    /// The spread of `values`.
    pub fn of(values: &[u64]) -> Spread {
        let mut v = values.to_vec();
        v.sort_unstable();
        let at = |q: f64| -> Option<u64> {
            if v.is_empty() {
                return None;
            }
            let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
            Some(v[rank - 1])
        };
        Spread {
            count: v.len() as u64,
            min: v.first().copied(),
            p50: at(0.5),
            p90: at(0.9),
            p99: at(0.99),
            max: v.last().copied(),
        }
    }
}

/// One bar of a histogram of durations: values in `[from_ms, to_ms)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bar {
    /// The lower bound (inclusive).
    pub from_ms: u64,
    /// The upper bound (exclusive).
    pub to_ms: u64,
    /// How many values.
    pub count: u64,
}

/// A histogram of `values` in bars of `width_ms`, from 0 to the largest value.
pub fn histogram(values: &[u64], width_ms: u64) -> Vec<Bar> {
    let w = width_ms.max(1);
    let Some(max) = values.iter().max() else {
        return Vec::new();
    };
    let mut bars: Vec<Bar> = (0..=max / w)
        .map(|i| Bar {
            from_ms: i * w,
            to_ms: (i + 1) * w,
            count: 0,
        })
        .collect();
    for v in values {
        bars[(v / w) as usize].count += 1;
    }
    bars
}

/// One assertion of the drill and whether it held.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Assertion {
    /// Its name.
    pub name: &'static str,
    /// Whether it held.
    pub held: bool,
    /// What was counted.
    pub detail: String,
}

/// What the headers said at the moment of each rate-limit refusal: which budget ran out first, and how much of the
/// other was left (the crossover).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Crossover {
    /// Refusals on tokens.
    pub token_refusals: u64,
    /// `x-ratelimit-remaining-requests` at those refusals.
    pub remaining_requests_at_token_refusal: Spread,
    /// Refusals on requests.
    pub request_refusals: u64,
    /// `x-ratelimit-remaining-tokens` at those refusals.
    pub remaining_tokens_at_request_refusal: Spread,
}

/// A refusal that arrived inside a 200 stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MidStream {
    /// Milliseconds since the drill's start.
    pub t_ms: u64,
    /// The request.
    pub id: u64,
    /// The provider.
    pub provider: String,
    /// How it was classified.
    pub kind: &'static str,
    /// Whether content had been delivered before it (then resending is unsafe).
    pub output_delivered: bool,
    /// What the library decided.
    pub decision: &'static str,
}

/// Counts per time bin, for the chart.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Series {
    /// The width of a bin in milliseconds.
    pub bin_ms: u64,
    /// Requests arriving.
    pub offered: Vec<u64>,
    /// Requests sent for the first time.
    pub admitted: Vec<u64>,
    /// Requests put in a queue.
    pub queued: Vec<u64>,
    /// Requests shed.
    pub shed: Vec<u64>,
    /// Requests that succeeded.
    pub succeeded: Vec<u64>,
    /// Rate-limit refusals (requests, tokens, other).
    pub refused_rate_limit: Vec<u64>,
    /// Too-large and context-length refusals.
    pub refused_too_large: Vec<u64>,
    /// Overloads before generation.
    pub refused_overloaded: Vec<u64>,
    /// Refusals inside a 200 stream.
    pub refused_mid_stream: Vec<u64>,
    /// Anything else, transport errors included.
    pub refused_other: Vec<u64>,
}

/// One thing that happened, as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Record {
    /// Milliseconds since the drill's start.
    pub t_ms: u64,
    /// The request.
    pub id: u64,
    /// `arrived`, `queued`, `sent`, `response`, `succeeded`, `shed`, `retried`, `fell_back`, `shrunk`, `failed`.
    pub event: &'static str,
    /// The provider concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// The HTTP status of a response.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// How a refusal was classified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// Whether the refusal came inside a 200 stream.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub mid_stream: bool,
    /// The wait the refusal stated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    /// `x-ratelimit-remaining-tokens`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining_tokens: Option<u64>,
    /// `x-ratelimit-remaining-requests`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining_requests: Option<u64>,
    /// Time to first token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttft_ms: Option<u64>,
    /// Latency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// Anything else: a shed reason, a retry delay, the tokens a shrink removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// The drill's report. Counts are of requests unless named otherwise. Serialized as the CLI's `--json` object.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// `simulate` or `target`.
    pub mode: &'static str,
    /// The seed.
    pub seed: u64,
    /// The offered load, a multiple of the primary's ceiling.
    pub load: f64,
    /// Arrival time span in minutes.
    pub minutes: f64,
    /// The providers: name, TPM, RPM.
    pub providers: Vec<serde_json::Value>,
    /// Mean arrivals per minute at full load.
    pub arrivals_per_minute: f64,
    /// Requests that arrived.
    pub offered: u64,
    /// Requests sent at least once.
    pub sent: u64,
    /// Sends in all (first attempts, retries, fallbacks).
    pub attempts: u64,
    /// Requests answered with success.
    pub succeeded: u64,
    /// Requests queued at least once.
    pub queued: u64,
    /// Requests shed (final): never sendable anywhere, queue full, deadline unreachable.
    pub shed: u64,
    /// Requests sent to a fallback provider at least once.
    pub fell_back: u64,
    /// Requests retried at least once.
    pub retried: u64,
    /// Retries in all.
    pub retries: u64,
    /// Requests shrunk after a too-large refusal.
    pub shrunk: u64,
    /// Requests that failed after being sent (given up, unsafe to resend, no fallback left).
    pub failed: u64,
    /// Requests with no outcome when the drill's time ran out (must be 0).
    pub abandoned: u64,
    /// Refusals by kind (responses, not requests), mid-stream ones included.
    pub refused: BTreeMap<String, u64>,
    /// Refusals that arrived inside a 200 stream.
    pub refused_mid_stream: u64,
    /// Final sheds by reason.
    pub shed_by_reason: BTreeMap<String, u64>,
    /// Final failures by reason.
    pub failed_by_reason: BTreeMap<String, u64>,
    /// Retries sent earlier than the refusal's stated wait (must be 0).
    pub retries_before_retry_after: u64,
    /// Sends of a request that exceeds the whole budget of the provider it went to (must be 0).
    pub never_sendable_sent: u64,
    /// Requests admitted from a queue after their deadline, or still queued at the end (must be 0).
    pub queue_timeouts: u64,
    /// First sends to a fallback after the request's deadline (must be 0).
    pub fallback_after_deadline: u64,
    /// The assertions, held or broken.
    pub assertions: Vec<Assertion>,
    /// From arrival to the first time a fallback was asked anything.
    pub fallback_delay_ms: Spread,
    /// The same delays in one-second bars.
    pub fallback_delay_histogram: Vec<Bar>,
    /// From arrival to the first send.
    pub start_delay_ms: Spread,
    /// Time to first token of successes.
    pub ttft_ms: Spread,
    /// Latency of successes (from the send).
    pub latency_ms: Spread,
    /// Headers at the moment of rate-limit refusals, per provider.
    pub crossover: BTreeMap<String, Crossover>,
    /// Every refusal that arrived inside a 200 stream.
    pub mid_stream: Vec<MidStream>,
    /// Counts over time.
    pub series: Series,
    /// Every event, in order (not in the JSON; the CLI writes them with `--records`).
    #[serde(skip)]
    pub records: Vec<Record>,
}

impl Report {
    /// Whether every assertion held.
    pub fn all_held(&self) -> bool {
        self.assertions.iter().all(|a| a.held)
    }

    /// The outcomes over time as a small SVG chart.
    pub fn svg(&self) -> String {
        svg::chart(self)
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The driver.

const WORDS: [&str; 64] = [
    "the",
    "report",
    "shows",
    "that",
    "our",
    "team",
    "will",
    "review",
    "each",
    "change",
    "before",
    "it",
    "ships",
    "to",
    "users",
    "and",
    "we",
    "need",
    "a",
    "short",
    "summary",
    "of",
    "what",
    "was",
    "done",
    "this",
    "week",
    "please",
    "list",
    "open",
    "questions",
    "about",
    "budget",
    "time",
    "and",
    "risk",
    "in",
    "plain",
    "words",
    "then",
    "suggest",
    "next",
    "steps",
    "for",
    "people",
    "who",
    "read",
    "notes",
    "later",
    "with",
    "clear",
    "owners",
    "dates",
    "goals",
    "keep",
    "answer",
    "brief",
    "because",
    "meeting",
    "runs",
    "long",
    "every",
    "friday",
    "morning",
];

#[derive(Debug, Clone, PartialEq, Eq)]
enum Final {
    Succeeded,
    Shed(String),
    Failed(String),
    Abandoned,
}

#[derive(Debug)]
struct Req {
    arrival_ms: u64,
    deadline_ms: u64,
    prompt_words: u64,
    max_tokens: u64,
    stream: bool,
    body: String,
    cost: Cost,
    attempt: u32,
    tried: Vec<bool>,
    sent: bool,
    queued: bool,
    retried: bool,
    shrunk: bool,
    first_fallback_ms: Option<u64>,
    /// The provider, time and stated wait of the last refusal that led to a retry.
    last_refusal: Option<(usize, u64, Option<u64>)>,
    done: Option<Final>,
}

enum Ev {
    Arrival,
    Wake(usize),
    Reoffer(u64, usize),
    Complete {
        id: u64,
        provider: usize,
        reply: Result<Reply, String>,
    },
}

struct Driver<'a, U: Upstream> {
    cfg: &'a DrillConfig,
    upstream: &'a mut U,
    rng: SplitMix64,
    arrivals: SplitMix64,
    heap: BinaryHeap<Reverse<(u64, u64)>>,
    events: BTreeMap<u64, Ev>,
    seq: u64,
    wakes: BTreeSet<(usize, u64)>,
    next_arrival: f64,
    queues: Vec<AdmissionQueue<u64>>,
    budgets: Vec<Budget>,
    breakers: CircuitBreakers,
    retry_budget: RetryBudget,
    reqs: Vec<Req>,
    held: BTreeMap<u64, Reservation>,
    replay_at: usize,
    end_ms: u64,
    report: Report,
    fallback_delays: Vec<u64>,
    start_delays: Vec<u64>,
    ttfts: Vec<u64>,
    latencies: Vec<u64>,
    rem_req_at_tokens: Vec<Vec<u64>>,
    rem_tok_at_requests: Vec<Vec<u64>>,
}

/// Runs a drill against the built-in simulated providers on a simulated clock: repeatable from the seed.
pub fn simulate(cfg: &DrillConfig, settings: &SimSettings) -> Result<Report, DrillError> {
    cfg.validate()?;
    let mut seeds = SplitMix64::new(cfg.seed ^ 0x005E_ED0F_5100_u64);
    let providers = cfg
        .providers
        .iter()
        .map(|p| {
            sim::SimProvider::new(
                sim::SimProviderConfig {
                    name: p.name.clone(),
                    model: cfg.model.clone(),
                    tpm: p.tpm,
                    rpm: p.rpm,
                    skew: settings.skew,
                    mid_stream_error_rate: settings.mid_stream_error_rate,
                    overload_rate: settings.overload_rate,
                    shared_fraction: settings.shared_fraction,
                },
                seeds.next_u64(),
                cfg.start_ms,
            )
        })
        .collect();
    let mut upstream = Simulated { providers };
    run_with(cfg, "simulate", &mut upstream, &mut SimClock)
}

/// Runs a drill against any [`Upstream`] on any [`Clock`] (the CLI's `--target` passes an HTTP client and the wall
/// clock, with `start_ms` in Unix milliseconds).
pub fn run<U: Upstream, C: Clock>(
    cfg: &DrillConfig,
    upstream: &mut U,
    clock: &mut C,
) -> Result<Report, DrillError> {
    cfg.validate()?;
    run_with(cfg, "target", upstream, clock)
}

fn run_with<U: Upstream, C: Clock>(
    cfg: &DrillConfig,
    mode: &'static str,
    upstream: &mut U,
    clock: &mut C,
) -> Result<Report, DrillError> {
    let mut root = SplitMix64::new(cfg.seed);
    let rng = root.split();
    let arrivals = root.split();
    let budgets: Vec<Budget> = cfg
        .providers
        .iter()
        .map(|p| {
            let b = Budget::new(Provider::OpenAiCompatible).tokens_per_minute(nonzero(p.tpm));
            match p.rpm {
                Some(r) => b.requests_per_minute(nonzero(r)),
                None => b,
            }
        })
        .collect();
    let queues = budgets
        .iter()
        .map(|b| {
            AdmissionQueue::new(
                Ledger::new(State::new(b.clone(), cfg.start_ms)),
                cfg.policy,
                cfg.queue_max_work_ms,
            )
        })
        .collect();
    // About forty bins: enough to see the ramp and the plateau, few enough that Poisson noise does not hide them.
    let bin_ms = (cfg.duration_ms / 40).max(1_000);
    let end_ms = cfg.start_ms + cfg.duration_ms;
    let mut d = Driver {
        cfg,
        upstream,
        rng,
        arrivals,
        heap: BinaryHeap::new(),
        events: BTreeMap::new(),
        seq: 0,
        wakes: BTreeSet::new(),
        next_arrival: cfg.start_ms as f64,
        queues,
        budgets,
        breakers: CircuitBreakers::new(BreakerConfig::default()),
        retry_budget: RetryBudget::new(0.2, 1.0, 20.0),
        reqs: Vec::new(),
        held: BTreeMap::new(),
        replay_at: 0,
        end_ms,
        report: empty_report(cfg, mode, bin_ms),
        fallback_delays: Vec::new(),
        start_delays: Vec::new(),
        ttfts: Vec::new(),
        latencies: Vec::new(),
        rem_req_at_tokens: vec![Vec::new(); cfg.providers.len()],
        rem_tok_at_requests: vec![Vec::new(); cfg.providers.len()],
    };
    d.schedule_next_arrival();
    // Past the last arrival, requests still in flight get their deadline, the longest retry wait and a latency.
    let hard_stop = end_ms + cfg.deadline_ms + 120_000;
    while let Some(Reverse((t, seq))) = d.heap.pop() {
        if t > hard_stop {
            break;
        }
        let now = clock.wait_until(t).max(t);
        // A real clock can run past the bound while sends block (slow answers, timeouts): stop there too; whatever
        // is unfinished is reported abandoned.
        if now > hard_stop {
            break;
        }
        let Some(ev) = d.events.remove(&seq) else {
            continue;
        };
        match ev {
            Ev::Arrival => d.arrive(now),
            Ev::Wake(p) => {
                d.wakes.remove(&(p, t));
                d.process_queue(p, now);
            }
            Ev::Reoffer(id, p) => d.offer_to(id, p, now),
            Ev::Complete {
                id,
                provider,
                reply,
            } => d.complete(id, provider, reply, now),
        }
    }
    Ok(d.finish())
}

fn empty_report(cfg: &DrillConfig, mode: &'static str, bin_ms: u64) -> Report {
    Report {
        mode,
        seed: cfg.seed,
        load: cfg.load,
        minutes: cfg.duration_ms as f64 / 60_000.0,
        providers: cfg
            .providers
            .iter()
            .map(|p| serde_json::json!({"name": p.name, "tpm": p.tpm, "rpm": p.rpm}))
            .collect(),
        arrivals_per_minute: (cfg.arrivals_per_minute() * 1000.0).round() / 1000.0,
        offered: 0,
        sent: 0,
        attempts: 0,
        succeeded: 0,
        queued: 0,
        shed: 0,
        fell_back: 0,
        retried: 0,
        retries: 0,
        shrunk: 0,
        failed: 0,
        abandoned: 0,
        refused: BTreeMap::new(),
        refused_mid_stream: 0,
        shed_by_reason: BTreeMap::new(),
        failed_by_reason: BTreeMap::new(),
        retries_before_retry_after: 0,
        never_sendable_sent: 0,
        queue_timeouts: 0,
        fallback_after_deadline: 0,
        assertions: Vec::new(),
        fallback_delay_ms: Spread::default(),
        fallback_delay_histogram: Vec::new(),
        start_delay_ms: Spread::default(),
        ttft_ms: Spread::default(),
        latency_ms: Spread::default(),
        crossover: cfg
            .providers
            .iter()
            .map(|p| (p.name.clone(), Crossover::default()))
            .collect(),
        mid_stream: Vec::new(),
        series: Series {
            bin_ms,
            ..Series::default()
        },
        records: Vec::new(),
    }
}

fn bump(v: &mut Vec<u64>, i: usize) {
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] += 1;
}

fn shed_reason_name(r: &ShedReason) -> &'static str {
    match r {
        ShedReason::NeverSendable { .. } => "never_sendable",
        ShedReason::DeadlineUnreachable { .. } => "deadline_unreachable",
        ShedReason::QueueFull { .. } => "queue_full",
    }
}

impl<U: Upstream> Driver<'_, U> {
    fn at(&mut self, t: u64, ev: Ev) {
        self.seq += 1;
        self.events.insert(self.seq, ev);
        self.heap.push(Reverse((t, self.seq)));
    }

    fn rel(&self, now: u64) -> u64 {
        now.saturating_sub(self.cfg.start_ms)
    }

    fn bin(&self, now: u64) -> usize {
        (self.rel(now) / self.report.series.bin_ms) as usize
    }

    fn record(
        &mut self,
        now: u64,
        id: u64,
        event: &'static str,
        provider: Option<usize>,
    ) -> &mut Record {
        let r = Record {
            t_ms: self.rel(now),
            id,
            event,
            provider: provider.map(|p| self.cfg.providers[p].name.clone()),
            status: None,
            kind: None,
            mid_stream: false,
            retry_after_ms: None,
            remaining_tokens: None,
            remaining_requests: None,
            ttft_ms: None,
            latency_ms: None,
            detail: None,
        };
        self.report.records.push(r);
        let last = self.report.records.len() - 1;
        &mut self.report.records[last]
    }

    /// The arrival rate (per ms) at `t`: ramping linearly to full, then held.
    fn rate_at(&self, t: f64) -> f64 {
        let full = self.cfg.arrivals_per_minute() / 60_000.0;
        let since = t - self.cfg.start_ms as f64;
        if self.cfg.ramp_ms == 0 || since >= self.cfg.ramp_ms as f64 {
            full
        } else {
            full * (since / self.cfg.ramp_ms as f64).max(0.0)
        }
    }

    /// Poisson arrivals with a time-varying rate, by thinning: candidate gaps are exponential at the full rate,
    /// each kept with probability rate(t) / full.
    fn schedule_next_arrival(&mut self) {
        let full = self.cfg.arrivals_per_minute() / 60_000.0;
        if full <= 0.0 || !full.is_finite() {
            return;
        }
        if self
            .cfg
            .max_requests
            .is_some_and(|m| self.reqs.len() as u64 >= m)
        {
            return;
        }
        loop {
            self.next_arrival += self.arrivals.exponential(1.0 / full);
            if self.next_arrival >= self.end_ms as f64 {
                return;
            }
            let keep = self.rate_at(self.next_arrival) / full;
            if self.arrivals.next_f64() < keep {
                let t = self.next_arrival.ceil() as u64;
                self.at(t, Ev::Arrival);
                return;
            }
        }
    }

    fn draw_size(&mut self) -> (u64, u64) {
        match &self.cfg.sizes {
            Sizes::Replay(v) => {
                let s = v[self.replay_at % v.len()];
                self.replay_at += 1;
                s
            }
            Sizes::Distribution {
                prompt_median,
                prompt_sigma,
                max_tokens,
                oversize_fraction,
            } => {
                let cap = match self.rng.below(3) {
                    0 => (max_tokens / 2).max(1),
                    1 => *max_tokens,
                    _ => max_tokens.saturating_mul(2),
                };
                let prompt = if self.rng.next_f64() < *oversize_fraction {
                    let f = 0.9 + 0.4 * self.rng.next_f64();
                    ((self.cfg.providers[0].tpm as f64 * f) as u64).saturating_sub(cap)
                } else {
                    self.rng
                        .log_normal(*prompt_median as f64, *prompt_sigma)
                        .round()
                        .clamp(1.0, 10_000_000.0) as u64
                };
                (prompt.max(1), cap)
            }
        }
    }

    fn draw_size_bounded(&mut self) -> (u64, u64) {
        let (p, c) = self.draw_size();
        (p.min(MAX_PROMPT_TOKENS), c)
    }

    fn text(&mut self, words: u64) -> String {
        let mut s = String::with_capacity(words as usize * 7);
        for i in 0..words {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(WORDS[self.rng.below(WORDS.len() as u64) as usize]);
        }
        s
    }

    /// Builds the OpenAI chat body and its cost, as the library estimates it.
    fn build(&mut self, words: u64, max_tokens: u64, stream: bool) -> (String, Cost) {
        let text = self.text(words);
        let mut body = serde_json::json!({
            "model": self.cfg.model,
            "messages": [{"role": "user", "content": text}],
            "max_tokens": max_tokens,
        });
        if stream {
            body["stream"] = serde_json::Value::Bool(true);
            body["stream_options"] = serde_json::json!({"include_usage": true});
        }
        let body = body.to_string();
        let cost = match estimate_request(&body, None, Some(Profile::O200k)) {
            Ok(e) => e.cost(),
            // The body is built here and always parses; price it by its words if it ever did not.
            Err(_) => Cost::exact(words).with_max_output(max_tokens),
        };
        (body, cost)
    }

    fn arrive(&mut self, now: u64) {
        let id = self.reqs.len() as u64;
        let (prompt, max_tokens) = self.draw_size_bounded();
        let stream = self.rng.next_f64() < self.cfg.stream_fraction;
        // The library prices these common words at about 1.1 tokens each (plus the message overhead).
        let words = ((prompt.saturating_sub(7) as f64 / 1.1).round() as u64).max(1);
        let (body, cost) = self.build(words, max_tokens, stream);
        self.reqs.push(Req {
            arrival_ms: now,
            deadline_ms: now + self.cfg.deadline_ms,
            prompt_words: words,
            max_tokens,
            stream,
            body,
            cost,
            attempt: 0,
            tried: vec![false; self.cfg.providers.len()],
            sent: false,
            queued: false,
            retried: false,
            shrunk: false,
            first_fallback_ms: None,
            last_refusal: None,
            done: None,
        });
        self.report.offered += 1;
        let b = self.bin(now);
        bump(&mut self.report.series.offered, b);
        let detail = format!("prompt≈{prompt} max_tokens={max_tokens} stream={stream}");
        self.record(now, id, "arrived", None).detail = Some(detail);
        self.schedule_next_arrival();
        self.route_new(id, now);
    }

    /// The first decision: the library's router over every provider's current state.
    fn route_new(&mut self, id: u64, now: u64) {
        let states: Vec<State> = self.queues.iter().map(|q| q.ledger().snapshot()).collect();
        let cost = self.reqs[id as usize].cost.clone();
        let names: Vec<String> = self.cfg.providers.iter().map(|p| p.name.clone()).collect();
        let candidates: Vec<Candidate<'_>> = states
            .iter()
            .zip(&names)
            .map(|(s, n)| Candidate {
                name: n,
                state: s,
                cost: &cost,
            })
            .collect();
        let r = route(&candidates, self.cfg.policy, now);
        match r.chosen {
            None => {
                let detail = r
                    .passed_over
                    .first()
                    .map(|p| serde_json::to_string(&p.reason).unwrap_or_default())
                    .unwrap_or_default();
                self.finish_req(
                    id,
                    now,
                    Final::Shed("never_sendable".into()),
                    None,
                    Some(detail),
                );
            }
            Some(0) => self.offer_to(id, 0, now),
            Some(p) => {
                self.record(now, id, "fell_back", Some(p)).detail =
                    Some("route: the primary must wait".into());
                self.offer_to(id, p, now);
            }
        }
    }

    fn offer_to(&mut self, id: u64, p: usize, now: u64) {
        if self.reqs[id as usize].done.is_some() {
            return;
        }
        self.reqs[id as usize].tried[p] = true;
        let (cost, deadline) = {
            let r = &self.reqs[id as usize];
            (r.cost.clone(), r.deadline_ms)
        };
        match self.queues[p].offer(id, cost, deadline, now) {
            Offer::Admitted { reservation, .. } => self.send(id, p, reservation, now),
            Offer::Queued { eta_ms, position } => {
                if !self.reqs[id as usize].queued {
                    self.reqs[id as usize].queued = true;
                    self.report.queued += 1;
                }
                let b = self.bin(now);
                bump(&mut self.report.series.queued, b);
                let wait = eta_ms.saturating_sub(now);
                self.record(now, id, "queued", Some(p)).detail =
                    Some(format!("eta in {wait} ms, position {position}"));
                self.process_queue(p, now);
            }
            Offer::Shed { shed, .. } => {
                let reason = shed_reason_name(&shed.reason);
                self.shed_or_fall_back(id, p, reason, shed.message, now);
            }
        }
    }

    /// A request shed by provider `p`: the next untried provider, else a final shed.
    fn shed_or_fall_back(&mut self, id: u64, p: usize, reason: &str, message: String, now: u64) {
        match self.untried(id) {
            Some(next) => {
                self.record(now, id, "fell_back", Some(next)).detail =
                    Some(format!("shed by {}: {message}", self.cfg.providers[p].name));
                self.reqs[id as usize].attempt = 0;
                self.offer_to(id, next, now);
            }
            None => self.finish_req(
                id,
                now,
                Final::Shed(reason.to_string()),
                Some(p),
                Some(message),
            ),
        }
    }

    /// The next provider not yet tried that could ever hold the request (its verdict against a full budget is not
    /// never-sendable).
    fn untried(&self, id: u64) -> Option<usize> {
        let r = &self.reqs[id as usize];
        (0..r.tried.len()).find(|&p| {
            !r.tried[p]
                && !matches!(
                    State::new(self.budgets[p].clone(), 0)
                        .check(&r.cost, self.cfg.policy, 0)
                        .verdict,
                    Verdict::NeverSendable { .. }
                )
        })
    }

    fn process_queue(&mut self, p: usize, now: u64) {
        let poll = self.queues[p].poll(now);
        for (id, reservation) in poll.admitted {
            if now > self.reqs[id as usize].deadline_ms {
                self.report.queue_timeouts += 1;
            }
            self.send(id, p, reservation, now);
        }
        for (id, shed) in poll.shed {
            let reason = shed_reason_name(&shed.reason);
            self.shed_or_fall_back(id, p, reason, shed.message, now);
        }
        if let Some(w) = poll.wake_at_ms {
            let w = w.max(now + 1);
            if self.wakes.insert((p, w)) {
                self.at(w, Ev::Wake(p));
            }
        }
    }

    fn send(&mut self, id: u64, p: usize, reservation: Reservation, now: u64) {
        let name = self.cfg.providers[p].name.clone();
        if !self.breakers.get(&name).allow(now) {
            reservation.release();
            match self.untried(id) {
                Some(next) => {
                    self.record(now, id, "fell_back", Some(next)).detail =
                        Some(format!("circuit open on {name}"));
                    self.reqs[id as usize].attempt = 0;
                    self.offer_to(id, next, now);
                }
                None => {
                    self.finish_req(id, now, Final::Failed("circuit_open".into()), Some(p), None)
                }
            }
            return;
        }
        // Independent checks of what the queue admitted.
        let fresh = State::new(self.budgets[p].clone(), now);
        let r = &self.reqs[id as usize];
        if matches!(
            fresh.check(&r.cost, self.cfg.policy, now).verdict,
            Verdict::NeverSendable { .. }
        ) {
            self.report.never_sendable_sent += 1;
        }
        if let Some((rp, t, Some(wait))) = r.last_refusal {
            if rp == p && now < t + wait {
                self.report.retries_before_retry_after += 1;
            }
        }
        let (arrival, deadline, first_send) = (r.arrival_ms, r.deadline_ms, !r.sent);
        if p > 0 && r.first_fallback_ms.is_none() {
            self.reqs[id as usize].first_fallback_ms = Some(now);
            self.report.fell_back += 1;
            self.fallback_delays.push(now - arrival);
            if now > deadline {
                self.report.fallback_after_deadline += 1;
            }
        }
        if first_send {
            self.reqs[id as usize].sent = true;
            self.report.sent += 1;
            self.start_delays.push(now - arrival);
            let b = self.bin(now);
            bump(&mut self.report.series.admitted, b);
            self.retry_budget.on_request(now);
        }
        self.report.attempts += 1;
        self.record(now, id, "sent", Some(p)).detail =
            Some(format!("attempt {}", self.reqs[id as usize].attempt));
        let body = self.reqs[id as usize].body.clone();
        let reply = self.upstream.send(p, &body, now);
        let latency = reply.as_ref().map_or(0, |r| r.latency_ms);
        self.held.insert(id, reservation);
        self.at(
            now + latency,
            Ev::Complete {
                id,
                provider: p,
                reply,
            },
        );
    }

    fn complete(&mut self, id: u64, p: usize, reply: Result<Reply, String>, now: u64) {
        let reservation = self.held.remove(&id);
        let name = self.cfg.providers[p].name.clone();
        let reply = match reply {
            Ok(r) => r,
            Err(msg) => {
                if let Some(r) = reservation {
                    r.release();
                }
                self.breakers.get(&name).on_failure(now);
                *self.report.refused.entry("transport".into()).or_default() += 1;
                let b = self.bin(now);
                bump(&mut self.report.series.refused_other, b);
                self.record(now, id, "response", Some(p)).detail = Some(msg.clone());
                match self.untried(id) {
                    Some(next) => {
                        self.record(now, id, "fell_back", Some(next)).detail =
                            Some("transport error".into());
                        self.reqs[id as usize].attempt = 0;
                        self.offer_to(id, next, now);
                    }
                    None => self.finish_req(
                        id,
                        now,
                        Final::Failed("transport".into()),
                        Some(p),
                        Some(msg),
                    ),
                }
                self.process_queue(p, now);
                return;
            }
        };
        let parsed = RateLimitSnapshot::from_headers(
            reply.headers.iter().map(|(a, b)| (a.as_str(), b.as_str())),
            now,
        );
        let snap = parsed.snapshot;
        self.queues[p].ledger().observe(&snap, now);
        let stream_error = if (200..300).contains(&reply.status) {
            find_stream_error(&reply.body)
        } else {
            None
        };
        let ok = (200..300).contains(&reply.status) && stream_error.is_none();
        let rec_base = |r: &mut Record| {
            r.status = Some(reply.status);
            r.remaining_tokens = snap.tokens.remaining;
            r.remaining_requests = snap.requests.remaining;
            r.retry_after_ms = snap.retry_after_ms;
            r.ttft_ms = reply.ttft_ms;
            r.latency_ms = Some(reply.latency_ms);
        };
        if ok {
            let usage = usage_of(&reply.body);
            if let Some(r) = reservation {
                let u = usage.unwrap_or(Usage {
                    input_tokens: self.reqs[id as usize].cost.input.tokens,
                    output_tokens: 0,
                });
                let _ = r.settle(u, now);
            }
            self.breakers.get(&name).on_success(now);
            rec_base(self.record(now, id, "response", Some(p)));
            if let Some(t) = reply.ttft_ms {
                self.ttfts.push(t);
            }
            self.latencies.push(reply.latency_ms);
            self.finish_req(id, now, Final::Succeeded, Some(p), None);
            self.process_queue(p, now);
            return;
        }
        let mid_stream = stream_error.is_some();
        let refusal = classify_with_snapshot(Some(reply.status), &snap, &reply.body);
        if let Some(r) = reservation {
            if mid_stream {
                // Admitted and counted by the provider: settle with what the prompt cost.
                let u = Usage {
                    input_tokens: self.reqs[id as usize].cost.input.tokens,
                    output_tokens: 0,
                };
                let _ = r.settle(u, now);
            } else {
                r.release();
            }
        }
        let kind = refusal.kind;
        *self.report.refused.entry(kind.name().into()).or_default() += 1;
        let b = self.bin(now);
        if mid_stream {
            self.report.refused_mid_stream += 1;
            bump(&mut self.report.series.refused_mid_stream, b);
        } else if kind.is_rate_limit() {
            bump(&mut self.report.series.refused_rate_limit, b);
        } else if matches!(kind, RefusalKind::TooLarge | RefusalKind::ContextLength) {
            bump(&mut self.report.series.refused_too_large, b);
        } else if kind == RefusalKind::Overloaded {
            bump(&mut self.report.series.refused_overloaded, b);
        } else {
            bump(&mut self.report.series.refused_other, b);
        }
        if let Some(cross) = self.report.crossover.get_mut(&name) {
            match kind {
                RefusalKind::RateLimitTokens => {
                    cross.token_refusals += 1;
                    if let Some(r) = snap.requests.remaining {
                        self.rem_req_at_tokens[p].push(r);
                    }
                }
                RefusalKind::RateLimitRequests => {
                    cross.request_refusals += 1;
                    if let Some(t) = snap.tokens.remaining {
                        self.rem_tok_at_requests[p].push(t);
                    }
                }
                _ => {}
            }
        }
        self.breakers.get(&name).on_refusal(&refusal, now);
        let r = &self.reqs[id as usize];
        let budget = RetryPolicy {
            deadline_ms: Some(r.deadline_ms),
            ..RetryPolicy::default()
        };
        let draw = self.rng.next_f64();
        let action = self
            .retry_budget
            .gate(next_action(&refusal, r.attempt, &budget, now, draw), now);
        {
            let rec = self.record(now, id, "response", Some(p));
            rec_base(rec);
            rec.kind = Some(kind.name());
            rec.mid_stream = mid_stream;
            rec.retry_after_ms = refusal.retry_after_ms;
        }
        let decision = match action {
            Action::Retry { .. } => "retried",
            Action::Fallback { .. } => "fell_back",
            Action::Shrink { .. } => "shrunk",
            Action::GiveUp { .. } => "failed",
        };
        if mid_stream {
            self.report.mid_stream.push(MidStream {
                t_ms: self.rel(now),
                id,
                provider: name.clone(),
                kind: kind.name(),
                output_delivered: refusal.output_delivered,
                decision,
            });
        }
        match action {
            Action::Retry { after_ms } => {
                let r = &mut self.reqs[id as usize];
                r.attempt += 1;
                r.last_refusal = Some((p, now, refusal.retry_after_ms));
                if !r.retried {
                    r.retried = true;
                    self.report.retried += 1;
                }
                self.report.retries += 1;
                self.record(now, id, "retried", Some(p)).detail =
                    Some(format!("after {after_ms} ms"));
                self.at(now + after_ms, Ev::Reoffer(id, p));
            }
            Action::Fallback { reason } => match self.untried(id) {
                Some(next) => {
                    self.record(now, id, "fell_back", Some(next)).detail =
                        Some(format!("{reason:?}"));
                    self.reqs[id as usize].attempt = 0;
                    self.offer_to(id, next, now);
                }
                None => self.finish_req(
                    id,
                    now,
                    Final::Failed(format!(
                        "no_fallback_left ({})",
                        snake(&format!("{reason:?}"))
                    )),
                    Some(p),
                    None,
                ),
            },
            Action::Shrink { by_tokens } => {
                let r = &self.reqs[id as usize];
                // Shrink the output cap by the excess and a margin for the tokenizer's disagreement.
                let cut = by_tokens.map(|b| b + b / 10 + 16);
                match cut.filter(|c| *c < r.max_tokens) {
                    Some(c) if r.attempt < 4 => {
                        let (words, stream, new_cap) = (r.prompt_words, r.stream, r.max_tokens - c);
                        let (body, cost) = self.build(words, new_cap, stream);
                        let r = &mut self.reqs[id as usize];
                        r.body = body;
                        r.cost = cost;
                        r.max_tokens = new_cap;
                        if !r.shrunk {
                            r.shrunk = true;
                            self.report.shrunk += 1;
                        }
                        r.attempt += 1;
                        r.tried[p] = false;
                        self.record(now, id, "shrunk", Some(p)).detail =
                            Some(format!("max_tokens cut by {c} to {new_cap}"));
                        self.offer_to(id, p, now);
                    }
                    _ => self.finish_req(
                        id,
                        now,
                        Final::Failed(kind.name().into()),
                        Some(p),
                        Some("cannot shrink enough".into()),
                    ),
                }
            }
            Action::GiveUp { reason } => self.finish_req(
                id,
                now,
                Final::Failed(snake(&format!("{reason:?}"))),
                Some(p),
                None,
            ),
        }
        self.process_queue(p, now);
    }

    fn finish_req(
        &mut self,
        id: u64,
        now: u64,
        f: Final,
        p: Option<usize>,
        detail: Option<String>,
    ) {
        if self.reqs[id as usize].done.is_some() {
            return;
        }
        let b = self.bin(now);
        let event = match &f {
            Final::Succeeded => {
                self.report.succeeded += 1;
                bump(&mut self.report.series.succeeded, b);
                "succeeded"
            }
            Final::Shed(reason) => {
                self.report.shed += 1;
                *self
                    .report
                    .shed_by_reason
                    .entry(reason.clone())
                    .or_default() += 1;
                bump(&mut self.report.series.shed, b);
                "shed"
            }
            Final::Failed(reason) => {
                self.report.failed += 1;
                *self
                    .report
                    .failed_by_reason
                    .entry(reason.clone())
                    .or_default() += 1;
                "failed"
            }
            Final::Abandoned => {
                self.report.abandoned += 1;
                "abandoned"
            }
        };
        let why = match &f {
            Final::Shed(r) | Final::Failed(r) => Some(r.clone()),
            _ => None,
        };
        self.record(now, id, event, p).detail = match (why, detail) {
            (Some(w), Some(d)) => Some(format!("{w}: {d}")),
            (w, d) => w.or(d),
        };
        self.reqs[id as usize].done = Some(f);
    }

    fn finish(mut self) -> Report {
        let last = self.end_ms.max(
            self.report
                .records
                .last()
                .map_or(0, |r| r.t_ms + self.cfg.start_ms),
        );
        // Whatever a queue still holds when time runs out was left to time out there.
        self.report.queue_timeouts += self.queues.iter().map(|q| q.len() as u64).sum::<u64>();
        for id in 0..self.reqs.len() as u64 {
            if self.reqs[id as usize].done.is_none() {
                self.finish_req(id, last, Final::Abandoned, None, None);
            }
        }
        let r = &mut self.report;
        r.fallback_delay_ms = Spread::of(&self.fallback_delays);
        r.fallback_delay_histogram = histogram(&self.fallback_delays, 1_000);
        r.start_delay_ms = Spread::of(&self.start_delays);
        r.ttft_ms = Spread::of(&self.ttfts);
        r.latency_ms = Spread::of(&self.latencies);
        for (i, p) in self.cfg.providers.iter().enumerate() {
            if let Some(c) = r.crossover.get_mut(&p.name) {
                c.remaining_requests_at_token_refusal = Spread::of(&self.rem_req_at_tokens[i]);
                c.remaining_tokens_at_request_refusal = Spread::of(&self.rem_tok_at_requests[i]);
            }
        }
        // Every series as long as the longest.
        let s = &mut r.series;
        let n = [
            s.offered.len(),
            s.admitted.len(),
            s.queued.len(),
            s.shed.len(),
            s.succeeded.len(),
            s.refused_rate_limit.len(),
            s.refused_too_large.len(),
            s.refused_overloaded.len(),
            s.refused_mid_stream.len(),
            s.refused_other.len(),
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        for v in [
            &mut s.offered,
            &mut s.admitted,
            &mut s.queued,
            &mut s.shed,
            &mut s.succeeded,
            &mut s.refused_rate_limit,
            &mut s.refused_too_large,
            &mut s.refused_overloaded,
            &mut s.refused_mid_stream,
            &mut s.refused_other,
        ] {
            v.resize(n, 0);
        }
        let outcomes = r.succeeded + r.shed + r.failed + r.abandoned;
        r.assertions = vec![
            Assertion {
                name: "no_retry_before_retry_after",
                held: r.retries_before_retry_after == 0,
                detail: format!(
                    "{} of {} retries sent before the stated wait",
                    r.retries_before_retry_after, r.retries
                ),
            },
            Assertion {
                name: "no_never_sendable_sent",
                held: r.never_sendable_sent == 0,
                detail: format!(
                    "{} of {} sends exceeded the whole budget they went to",
                    r.never_sendable_sent, r.attempts
                ),
            },
            Assertion {
                name: "no_request_timed_out_in_queue",
                held: r.queue_timeouts == 0,
                detail: format!(
                    "{} admitted after their deadline or left queued",
                    r.queue_timeouts
                ),
            },
            Assertion {
                name: "fallback_inside_deadline",
                held: r.fallback_after_deadline == 0,
                detail: format!(
                    "{} of {} fallbacks first asked after the deadline",
                    r.fallback_after_deadline, r.fell_back
                ),
            },
            Assertion {
                name: "one_outcome_per_request",
                held: outcomes == r.offered && r.abandoned == 0,
                detail: format!(
                    "offered {} = succeeded {} + shed {} + failed {} + abandoned {}",
                    r.offered, r.succeeded, r.shed, r.failed, r.abandoned
                ),
            },
        ];
        self.report
    }
}

fn snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The usage block of a response: a JSON body, or the last SSE frame that carries one.
pub fn usage_of(body: &str) -> Option<Usage> {
    let t = body.trim_start();
    if t.starts_with('{') {
        let v: serde_json::Value = serde_json::from_str(t).ok()?;
        return Usage::from_response(&v).ok().flatten();
    }
    let mut found = None;
    for line in body.lines() {
        if let Some(d) = line.strip_prefix("data:") {
            let d = d.trim();
            if d.starts_with('{') {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(d) {
                    if let Ok(Some(u)) = Usage::from_response(&v) {
                        found = Some(u);
                    }
                }
            }
        }
    }
    found
}
