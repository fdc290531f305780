//! What a drill recorded: every request's path, the counts per time bin, the assertions the library must meet,
//! and the chart.

use crate::svg;
use serde::Serialize;
use std::collections::BTreeMap;

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
    /// Sends of a request to a provider that had refused it with a quota, context-length or too-large refusal
    /// (without a shrink since) (must be 0).
    pub hard_refusals_resent: u64,
    /// Sends of a request after one of its answers had delivered output (must be 0).
    pub resent_after_output: u64,
    /// Tokens and reservations the guard still held once every call had ended (must be 0).
    pub held_at_end: u64,
    /// What the guard learned of each provider's counting from the usage it settled: answers, and the ratio of
    /// reported to estimated prompt tokens.
    pub learned: BTreeMap<String, serde_json::Value>,
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
