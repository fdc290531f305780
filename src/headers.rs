//! Reading providers' rate-limit headers into one [`RateLimitSnapshot`].
//!
//! Understood, with names matched case-insensitively:
//! - OpenAI, Azure OpenAI, Groq, Cerebras, DeepSeek and most OpenAI-compatible APIs:
//!   `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` (also spelled `x-rate-limit-...`, and Cerebras'
//!   `...-tokens-minute` / `...-requests-minute`, Mistral's `...-req-minute`). Resets are durations: `1s`, `20ms`,
//!   `577ms`, `5.94s`, `6m0s`, `2m59.56s`, `1m0.363142857s`, or plain seconds (see [`parse_duration_ms`]).
//!   Windows of a day (`...-requests-day`, `...-tokens-day`) go to the per-day dimensions; of an hour or a month
//!   (`...-requests-1h`, Mistral's `...-tokens-month`) to [`RateLimitSnapshot::long_window`].
//! - Anthropic: `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}`, the
//!   resets as RFC 3339 timestamps.
//! - `retry-after` (delay-seconds, possibly fractional, or an HTTP-date in any of the three RFC 9110 forms),
//!   `retry-after-ms` and `x-ms-retry-after-ms` (milliseconds).
//! - Azure's `-1` sentinel (`x-ratelimit-limit-tokens: -1`, `x-ratelimit-remaining-tokens: -1`, with
//!   `x-ratelimit-reset-tokens: 0`): unknown, not a value.
//! - Headers that do not name what they count: `x-ratelimit-{limit,remaining,reset}` (OpenRouter, Together,
//!   API gateways), `ratelimit-{limit,remaining,reset}` (the IETF draft's fields, Kong, Envoy) and the draft's
//!   single `ratelimit` field (`limit=100, remaining=0, reset=30`, or the later `"default";r=0;t=30`); a
//!   `ratelimit-limit` listing quota policies after its limit (`5000, 1000;w=3600`) gives that limit. These go to
//!   [`RateLimitSnapshot::unnamed`], never to requests or tokens: which one they count is the provider's to say.
//!   Their resets may be seconds, a duration, or a Unix timestamp in seconds or milliseconds.
//!
//! An absent header is unknown (`None`), never zero. Dates are converted with the caller's `now_ms`; a date up to a
//! minute past is a wait of zero (the reset has happened); further past or implausibly far ahead (clock skew, a reset
//! at the Unix epoch) gives `None` and a [`HeaderError`], never a negative wait. A malformed value is reported and
//! the other headers are still read.
//!
//! ```
//! use llm_preflight::RateLimitSnapshot;
//! let parsed = RateLimitSnapshot::from_headers(
//!     [("x-ratelimit-remaining-tokens", "7923"), ("X-RateLimit-Reset-Tokens", "577ms"), ("retry-after", "6")],
//!     0,
//! );
//! assert_eq!(parsed.snapshot.tokens.remaining, Some(7923));
//! assert_eq!(parsed.snapshot.tokens.reset_ms, Some(577));
//! assert_eq!(parsed.snapshot.retry_after_ms, Some(6000));
//! assert!(parsed.malformed.is_empty());
//! ```

use crate::dimension::Dimension;
use crate::time::{parse_decimal_scaled, parse_http_date_ms, parse_rfc3339_ms};
use crate::time::{parse_duration_ms, DurationError};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How far behind `now` a reset or retry date may lie and still read as a wait of zero (a minute: one window).
const PAST_RESET_MS: i128 = 60_000;

/// The longest wait a header may state before it is treated as implausible (32 days: monthly windows fit).
pub const MAX_PLAUSIBLE_WAIT_MS: u64 = 32 * 24 * 3600 * 1000;

/// What one rate-limit dimension (requests, tokens, input or output tokens) says. Each field is `None` when the
/// response did not say (or said the `-1` "unknown" sentinel).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DimensionState {
    /// The budget per window (for example 8000 tokens per minute).
    pub limit: Option<u64>,
    /// What is left of it now.
    pub remaining: Option<u64>,
    /// Milliseconds from the response until the budget is fully replenished (OpenAI's meaning) or resets
    /// (Anthropic's). Never negative.
    pub reset_ms: Option<u64>,
}

impl DimensionState {
    /// Whether the response said nothing about this dimension.
    pub fn is_unknown(&self) -> bool {
        self.limit.is_none() && self.remaining.is_none() && self.reset_ms.is_none()
    }
}

/// Everything a response's headers say about rate limits, at the moment the response was received.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RateLimitSnapshot {
    /// Requests per window (`x-ratelimit-*-requests`, `anthropic-ratelimit-requests-*`).
    pub requests: DimensionState,
    /// Tokens per window, input and output together (`x-ratelimit-*-tokens`, `anthropic-ratelimit-tokens-*`).
    pub tokens: DimensionState,
    /// Input tokens per window, where the provider meters them apart (`anthropic-ratelimit-input-tokens-*`).
    pub input_tokens: DimensionState,
    /// Output tokens per window, where the provider meters them apart (`anthropic-ratelimit-output-tokens-*`).
    pub output_tokens: DimensionState,
    /// A window whose headers do not say what it counts (`x-ratelimit-remaining`, `ratelimit-reset`, the
    /// `ratelimit` field): requests at most providers that send them, but not stated, so never read as requests.
    /// A refusal's wait may come from its reset when it is the window that ran out.
    #[serde(default)]
    pub unnamed: DimensionState,
    /// Requests per day (Cerebras' `x-ratelimit-*-requests-day`).
    #[serde(default)]
    pub requests_per_day: DimensionState,
    /// Tokens per day (Cerebras' `x-ratelimit-*-tokens-day`).
    #[serde(default)]
    pub tokens_per_day: DimensionState,
    /// Of the windows that are neither a minute's nor a day's (an hour's, `x-ratelimit-remaining-requests-1h`; a
    /// month's, Mistral's `x-ratelimit-remaining-tokens-month`): of those spent, the one that resets last (an
    /// unstated reset counting as last), else the one with least remaining. When it is spent and its reset is
    /// stated, nothing is admitted on the key before that reset; a refusal it explains waits for the reset, or,
    /// with none stated or none within the hour, is not retried.
    #[serde(default)]
    pub long_window: DimensionState,
    /// The wait the response asks for, in milliseconds (`retry-after-ms`, `x-ms-retry-after-ms`, else
    /// `retry-after`). Never negative; `None` when absent or implausible.
    pub retry_after_ms: Option<u64>,
}

impl RateLimitSnapshot {
    /// Whether no rate-limit header was understood at all.
    pub fn is_empty(&self) -> bool {
        self.requests.is_unknown()
            && self.tokens.is_unknown()
            && self.input_tokens.is_unknown()
            && self.output_tokens.is_unknown()
            && self.unnamed.is_unknown()
            && self.requests_per_day.is_unknown()
            && self.tokens_per_day.is_unknown()
            && self.long_window.is_unknown()
            && self.retry_after_ms.is_none()
    }

    /// Reads a snapshot from `(name, value)` pairs: anything that iterates over pairs of strings, such as
    /// `&[(&str, &str)]`, a `HashMap<String, String>` or a [`Headers`]. `now_ms` (Unix milliseconds) converts
    /// dates into waits. Malformed values are skipped and listed in [`ParsedHeaders::malformed`].
    pub fn from_headers<I, N, V>(headers: I, now_ms: u64) -> ParsedHeaders
    where
        I: IntoIterator<Item = (N, V)>,
        N: AsRef<str>,
        V: AsRef<str>,
    {
        let mut snap = RateLimitSnapshot::default();
        let mut malformed = Vec::new();
        let mut retry_after_s: Option<u64> = None;
        let mut retry_after_ms: Option<u64> = None;
        // Dimensions on which a `-1` sentinel was seen: their `0` reset means "unknown" too.
        let mut sentinel = [false; DIMS.len()];
        // The windows longer than a minute that are not a day's, by header suffix (`requests-1h`, `tokens-month`).
        let mut long: Vec<(String, DimensionState)> = Vec::new();
        for (name, value) in headers {
            let (name, value) = (name.as_ref(), value.as_ref());
            let Some(field) = Field::of(name) else {
                continue;
            };
            let value_t = value.trim();
            let res = match field {
                Field::RetryAfter => {
                    parse_retry_after_ms(value_t, now_ms).map(|v| retry_after_s = Some(v))
                }
                Field::RetryAfterMs => parse_ms_value(value_t).map(|v| retry_after_ms = Some(v)),
                Field::Combined => parse_combined(value_t, now_ms).map(|d| snap.unnamed = d),
                Field::Long(what, key) => {
                    let i = match long.iter().position(|(k, _)| *k == key) {
                        Some(i) => i,
                        None => {
                            long.push((key, DimensionState::default()));
                            long.len() - 1
                        }
                    };
                    read_window(&mut long[i].1, what, value_t, now_ms)
                }
                Field::Unnamed(what) => {
                    // The IETF draft's first form lists the quota policies after the limit in force:
                    // `RateLimit-Limit: 5000, 1000;w=3600, 5000;w=86400`.
                    let v = if what == What::Limit {
                        first_item(value_t)
                    } else {
                        value_t
                    };
                    read_window(&mut snap.unnamed, what, v, now_ms)
                }
                Field::Dim(d, what, style) => {
                    let dim = snap.dim_mut(d);
                    match what {
                        What::Limit | What::Remaining => match parse_count(value_t) {
                            Ok(Some(n)) => {
                                if what == What::Limit {
                                    dim.limit = Some(n);
                                } else {
                                    dim.remaining = Some(n);
                                }
                                Ok(())
                            }
                            Ok(None) => {
                                sentinel[header_slot(d)] = true;
                                if what == What::Limit {
                                    dim.limit = None;
                                } else {
                                    dim.remaining = None;
                                }
                                Ok(())
                            }
                            Err(p) => Err(p),
                        },
                        What::Reset => {
                            let r = match style {
                                Style::Duration => parse_reset_duration(value_t, now_ms),
                                Style::Timestamp => parse_rfc3339_ms(value_t)
                                    .ok_or(HeaderProblem::BadDate)
                                    .and_then(|at| wait_until(at, now_ms)),
                            };
                            r.map(|ms| dim.reset_ms = Some(ms))
                        }
                    }
                }
            };
            if let Err(problem) = res {
                malformed.push(HeaderError::new(name, value, problem));
            }
        }
        for (i, seen) in sentinel.iter().enumerate() {
            let dim = snap.dim_mut(DIMS[i]);
            if *seen && dim.reset_ms == Some(0) {
                dim.reset_ms = None;
            }
        }
        // Of the spent windows, the one that resets last (an unstated reset counts as last); else the one with
        // least remaining.
        let spent = long
            .iter()
            .map(|(_, d)| *d)
            .filter(|d| d.remaining == Some(0))
            .max_by_key(|d| d.reset_ms.unwrap_or(u64::MAX));
        snap.long_window = spent
            .or_else(|| {
                long.iter()
                    .map(|(_, d)| *d)
                    .min_by_key(|d| d.remaining.unwrap_or(u64::MAX))
            })
            .unwrap_or_default();
        snap.retry_after_ms = retry_after_ms.or(retry_after_s);
        ParsedHeaders {
            snapshot: snap,
            malformed,
        }
    }

    /// The state of one dimension, for the six that headers report (requests, tokens, input and output tokens per
    /// minute, requests and tokens per day); `None` for the context window.
    pub fn dimension(&self, d: Dimension) -> Option<&DimensionState> {
        match d {
            Dimension::Requests => Some(&self.requests),
            Dimension::Tokens => Some(&self.tokens),
            Dimension::InputTokens => Some(&self.input_tokens),
            Dimension::OutputTokens => Some(&self.output_tokens),
            Dimension::RequestsPerDay => Some(&self.requests_per_day),
            Dimension::TokensPerDay => Some(&self.tokens_per_day),
            Dimension::Context => None,
        }
    }

    fn dim_mut(&mut self, d: Dimension) -> &mut DimensionState {
        match d {
            Dimension::Requests => &mut self.requests,
            Dimension::InputTokens => &mut self.input_tokens,
            Dimension::OutputTokens => &mut self.output_tokens,
            Dimension::RequestsPerDay => &mut self.requests_per_day,
            Dimension::TokensPerDay => &mut self.tokens_per_day,
            // Headers name only the dimensions of `DIMS`.
            _ => &mut self.tokens,
        }
    }
}

/// The dimensions rate-limit headers name, in the order [`RateLimitSnapshot`] holds them.
const DIMS: [Dimension; 6] = [
    Dimension::Requests,
    Dimension::Tokens,
    Dimension::InputTokens,
    Dimension::OutputTokens,
    Dimension::RequestsPerDay,
    Dimension::TokensPerDay,
];

/// Where a header's dimension sits in `DIMS` (headers name no other dimension).
fn header_slot(d: Dimension) -> usize {
    DIMS.iter().position(|x| *x == d).unwrap_or(1)
}

/// A snapshot and the headers that could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParsedHeaders {
    /// What the well-formed headers say.
    pub snapshot: RateLimitSnapshot,
    /// One entry per rate-limit header whose value could not be used, in the order met.
    pub malformed: Vec<HeaderError>,
}

/// Why a rate-limit header's value could not be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderProblem {
    /// Not a non-negative whole number (and not the `-1` sentinel).
    NotANumber,
    /// Not a duration such as `577ms`, `5.94s`, `1m0.363142857s` or plain seconds.
    BadDuration(DurationError),
    /// Not an RFC 3339 timestamp or HTTP-date.
    BadDate,
    /// A date that lies before `now` (clock skew, a reset at the epoch): no wait is derived from it.
    InThePast,
    /// A wait longer than [`MAX_PLAUSIBLE_WAIT_MS`].
    Implausible,
}

impl fmt::Display for HeaderProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderProblem::NotANumber => f.write_str("is not a non-negative whole number"),
            HeaderProblem::BadDuration(e) => write!(f, "is not a duration ({e})"),
            HeaderProblem::BadDate => {
                f.write_str("is not a date (expected RFC 3339 or an HTTP-date such as Sun, 06 Nov 1994 08:49:37 GMT)")
            }
            HeaderProblem::InThePast => f.write_str("is a date in the past (clock skew?); ignored"),
            HeaderProblem::Implausible => f.write_str("is a wait longer than 32 days; ignored as implausible"),
        }
    }
}

/// A rate-limit header whose value could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderError {
    /// The header's name as received.
    pub name: String,
    /// Its value as received (cut to 120 characters).
    pub value: String,
    /// What is wrong with it.
    pub problem: HeaderProblem,
}

impl HeaderError {
    fn new(name: &str, value: &str, problem: HeaderProblem) -> Self {
        HeaderError {
            name: name.to_string(),
            value: value.chars().take(120).collect(),
            problem,
        }
    }
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "header {}: {:?} {}", self.name, self.value, self.problem)
    }
}

impl std::error::Error for HeaderError {}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum What {
    Limit,
    Remaining,
    Reset,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Duration,
    Timestamp,
}

#[derive(Debug, Clone)]
enum Field {
    RetryAfter,
    RetryAfterMs,
    Dim(Dimension, What, Style),
    /// `x-ratelimit-limit` and the like: a window that does not say what it counts.
    Unnamed(What),
    /// The IETF draft's one `ratelimit` field.
    Combined,
    /// A window of an hour or a month (`x-ratelimit-remaining-requests-1h`, `...-tokens-month`), keyed by what
    /// follows `limit-`, `remaining-` or `reset-`.
    Long(What, String),
}

impl Field {
    fn of(name: &str) -> Option<Field> {
        let name = name.trim();
        if name.len() > 64 {
            return None;
        }
        let lower = name.to_ascii_lowercase();
        let n = lower.as_str();
        match n {
            "retry-after" => return Some(Field::RetryAfter),
            "retry-after-ms" | "x-ms-retry-after-ms" => return Some(Field::RetryAfterMs),
            "ratelimit" => return Some(Field::Combined),
            _ => {}
        }
        if let Some(rest) = n.strip_prefix("anthropic-ratelimit-") {
            let (dim, what) = rest.rsplit_once('-')?;
            let d = match dim {
                "requests" => Dimension::Requests,
                "tokens" => Dimension::Tokens,
                "input-tokens" => Dimension::InputTokens,
                "output-tokens" => Dimension::OutputTokens,
                _ => return None,
            };
            return Some(Field::Dim(d, what_of(what)?, Style::Timestamp));
        }
        if let Some(what) = n.strip_prefix("ratelimit-") {
            return what_of(what).map(Field::Unnamed);
        }
        let rest = n
            .strip_prefix("x-ratelimit-")
            .or_else(|| n.strip_prefix("x-rate-limit-"))?;
        let Some((what, dim)) = rest.split_once('-') else {
            return what_of(rest).map(Field::Unnamed);
        };
        let w = what_of(what)?;
        let d = match dim {
            // Mistral abbreviates: `x-ratelimit-remaining-req-minute`.
            "requests" | "requests-minute" | "req-minute" => Dimension::Requests,
            "tokens" | "tokens-minute" => Dimension::Tokens,
            "requests-day" | "req-day" => Dimension::RequestsPerDay,
            "tokens-day" => Dimension::TokensPerDay,
            _ => {
                let (counts, window) = dim.split_once('-')?;
                let long = ["hour", "1h", "month"].contains(&window)
                    && ["requests", "req", "tokens"].contains(&counts);
                return long.then(|| Field::Long(w, dim.to_string()));
            }
        };
        Some(Field::Dim(d, w, Style::Duration))
    }
}

/// One value of a window that is not one of the named dimensions (an unnamed or a long one): a count, or a reset as
/// [`parse_reset_duration`] reads it.
fn read_window(
    dim: &mut DimensionState,
    what: What,
    v: &str,
    now_ms: u64,
) -> Result<(), HeaderProblem> {
    match what {
        What::Limit => parse_count(v).map(|n| dim.limit = n),
        What::Remaining => parse_count(v).map(|n| dim.remaining = n),
        What::Reset => parse_reset_duration(v, now_ms).map(|ms| dim.reset_ms = Some(ms)),
    }
}

/// A list's first item without its parameters: `5000` of `5000, 1000;w=3600`.
fn first_item(v: &str) -> &str {
    v.split([',', ';']).next().unwrap_or(v).trim()
}

fn what_of(s: &str) -> Option<What> {
    match s {
        "limit" => Some(What::Limit),
        "remaining" => Some(What::Remaining),
        "reset" => Some(What::Reset),
        _ => None,
    }
}

/// The IETF draft's `ratelimit` field: `limit=100, remaining=50, reset=5` (draft 6 and before; `reset` in
/// seconds), or one quota's `"name";r=50;t=5` (later drafts: `r` remaining, `t` seconds to reset; of several
/// quotas, the one with least remaining). Unknown parameters are skipped.
fn parse_combined(v: &str, now_ms: u64) -> Result<DimensionState, HeaderProblem> {
    let mut best: Option<DimensionState> = None;
    let mut cur = DimensionState::default();
    // Items of the later form are separated by commas, each a quota's name then `;` parameters; the earlier form is
    // comma-separated `key=value` pairs of one quota. Both read as `key=value` pairs; a name starts a new quota.
    let flush = |best: &mut Option<DimensionState>, cur: DimensionState| {
        if cur.is_unknown() {
            return;
        }
        let keep = match best {
            Some(b) => cur.remaining.unwrap_or(u64::MAX) < b.remaining.unwrap_or(u64::MAX),
            None => true,
        };
        if keep {
            *best = Some(cur);
        }
    };
    for item in v.split(',') {
        let mut params = item.split(';').map(str::trim);
        // A later-draft item starts with its quota's name (a quoted string or a token without `=`).
        let first = params.next().unwrap_or("");
        let later = !first.contains('=');
        if later {
            flush(&mut best, cur);
            cur = DimensionState::default();
        }
        for kv in std::iter::once(first)
            .chain(params)
            .filter(|p| p.contains('='))
        {
            let (k, val) = kv.split_once('=').unwrap_or((kv, ""));
            let val = val.trim().trim_matches('"');
            match k.trim().to_ascii_lowercase().as_str() {
                "limit" | "l" | "q" => cur.limit = parse_count(val)?,
                "remaining" | "r" => cur.remaining = parse_count(val)?,
                "reset" | "t" => cur.reset_ms = Some(parse_reset_duration(val, now_ms)?),
                _ => {}
            }
        }
    }
    flush(&mut best, cur);
    best.ok_or(HeaderProblem::NotANumber)
}

/// A count: a non-negative whole number (a `.0` fraction is tolerated), or `-1` meaning unknown (`Ok(None)`).
fn parse_count(v: &str) -> Result<Option<u64>, HeaderProblem> {
    if v == "-1" {
        return Ok(None);
    }
    let int = match v.split_once('.') {
        Some((i, f)) if !f.is_empty() && f.bytes().all(|b| b == b'0') => i,
        Some(_) => return Err(HeaderProblem::NotANumber),
        None => v,
    };
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
        return Err(HeaderProblem::NotANumber);
    }
    int.parse::<u64>()
        .map(Some)
        .map_err(|_| HeaderProblem::NotANumber)
}

/// A millisecond count (`retry-after-ms`), possibly fractional (rounded up).
fn parse_ms_value(v: &str) -> Result<u64, HeaderProblem> {
    let ns = parse_decimal_scaled(v, 1_000_000).ok_or(HeaderProblem::NotANumber)?;
    check_plausible(ceil_div(ns, 1_000_000))
}

fn check_plausible(ms: u64) -> Result<u64, HeaderProblem> {
    if ms > MAX_PLAUSIBLE_WAIT_MS {
        Err(HeaderProblem::Implausible)
    } else {
        Ok(ms)
    }
}

fn ceil_div(a: u128, b: u128) -> u64 {
    u64::try_from(a.div_ceil(b)).unwrap_or(u64::MAX)
}

/// `retry-after`: delay-seconds (fractional tolerated) or an HTTP-date, as a wait in milliseconds.
fn parse_retry_after_ms(v: &str, now_ms: u64) -> Result<u64, HeaderProblem> {
    if v.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        let ns = parse_decimal_scaled(v, 1_000_000_000).ok_or(HeaderProblem::NotANumber)?;
        return check_plausible(ceil_div(ns, 1_000_000));
    }
    if v.starts_with('-') {
        return Err(HeaderProblem::NotANumber);
    }
    let at = parse_http_date_ms(v, now_ms).ok_or(HeaderProblem::BadDate)?;
    wait_until(at, now_ms)
}

/// A reset header of the `x-ratelimit-reset-*` family: a duration, or (when a plain number too large to be a
/// wait) a Unix timestamp in seconds or milliseconds.
fn parse_reset_duration(v: &str, now_ms: u64) -> Result<u64, HeaderProblem> {
    if !v.is_empty() && v.len() <= 16 && v.bytes().all(|b| b.is_ascii_digit()) {
        let n: u64 = v.parse().map_err(|_| HeaderProblem::NotANumber)?;
        if n >= 1_000_000_000_000 {
            return wait_until(i128::from(n), now_ms);
        }
        if n >= 1_000_000_000 {
            return wait_until(i128::from(n) * 1000, now_ms);
        }
    }
    let ms = parse_duration_ms(v).map_err(HeaderProblem::BadDuration)?;
    check_plausible(ms)
}

fn wait_until(at_ms: i128, now_ms: u64) -> Result<u64, HeaderProblem> {
    let d = at_ms - i128::from(now_ms);
    if d < 0 {
        // A reset up to a minute behind has happened (Anthropic's, "fully replenished" at a time already passed; a
        // second or two is rounding between clocks): the wait is none. Further behind is a clock that is wrong.
        if d > -PAST_RESET_MS {
            return Ok(0);
        }
        return Err(HeaderProblem::InThePast);
    }
    let d = u64::try_from(d).map_err(|_| HeaderProblem::Implausible)?;
    check_plausible(d)
}

// ---------------------------------------------------------------------------------------------------------------
// Header input.

/// A list of response headers, in the order received; names keep their spelling and are matched
/// case-insensitively. Built from pairs, from raw `Name: value` lines, or from a JSON object.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers {
    pairs: Vec<(String, String)>,
}

/// Why a block of headers could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadersInputError {
    /// Not valid JSON: serde_json's message.
    Json(String),
    /// JSON, but not an object of names to values.
    NotAnObject,
    /// A header whose JSON value is neither a string, a number, nor an array of those.
    BadValue(String),
    /// A raw line (1-based number) that is not `Name: value`.
    BadLine(usize),
}

impl fmt::Display for HeadersInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeadersInputError::Json(e) => write!(f, "headers are not valid JSON: {e}"),
            HeadersInputError::NotAnObject => {
                f.write_str("headers JSON must be an object of names to values")
            }
            HeadersInputError::BadValue(n) => {
                write!(
                    f,
                    "header {n:?} must be a string, a number or an array of them"
                )
            }
            HeadersInputError::BadLine(n) => {
                write!(f, "header line {n} is not of the form `Name: value`")
            }
        }
    }
}

impl std::error::Error for HeadersInputError {}

impl Headers {
    /// No headers.
    pub fn new() -> Self {
        Headers::default()
    }

    /// Appends one header.
    pub fn push(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.pairs.push((name.into(), value.into()));
    }

    /// The first value of a header, by case-insensitive name.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n.trim().eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The headers as `(name, value)` pairs, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// How many headers there are.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Reads either a JSON object (when the text starts with `{`) or raw lines.
    pub fn parse(text: &str) -> Result<Self, HeadersInputError> {
        if text.trim_start().starts_with('{') {
            Headers::from_json(text)
        } else {
            Headers::from_lines(text)
        }
    }

    /// Reads raw `Name: value` lines as `curl -i` or a proxy log prints them. A leading status line
    /// (`HTTP/1.1 429 Too Many Requests`) is skipped, a blank line after the headers ends them (a body may
    /// follow), CRLF is accepted, and a line starting with a space continues the previous value.
    pub fn from_lines(text: &str) -> Result<Self, HeadersInputError> {
        let mut h = Headers::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.trim().is_empty() {
                if h.is_empty() {
                    continue;
                }
                break;
            }
            if h.is_empty() && line.starts_with("HTTP/") {
                continue;
            }
            if line.starts_with([' ', '\t']) {
                if let Some(last) = h.pairs.last_mut() {
                    last.1.push(' ');
                    last.1.push_str(line.trim());
                    continue;
                }
                return Err(HeadersInputError::BadLine(i + 1));
            }
            let Some((name, value)) = line.split_once(':') else {
                return Err(HeadersInputError::BadLine(i + 1));
            };
            let name = name.trim();
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(HeadersInputError::BadLine(i + 1));
            }
            h.push(name, value.trim());
        }
        Ok(h)
    }

    /// Reads a JSON object of headers: `{"retry-after": "6", "x-ratelimit-remaining-tokens": 0}`. Values may be
    /// strings, numbers or arrays of them (one header per element); `null` is skipped.
    pub fn from_json(text: &str) -> Result<Self, HeadersInputError> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| HeadersInputError::Json(e.to_string()))?;
        Headers::from_json_value(&v)
    }

    /// Like [`Headers::from_json`], from an already parsed value.
    pub fn from_json_value(v: &serde_json::Value) -> Result<Self, HeadersInputError> {
        use serde_json::Value;
        let obj = v.as_object().ok_or(HeadersInputError::NotAnObject)?;
        let mut h = Headers::new();
        for (name, value) in obj {
            match value {
                Value::Null => {}
                Value::String(s) => h.push(name.clone(), s.clone()),
                Value::Number(n) => h.push(name.clone(), n.to_string()),
                Value::Array(items) => {
                    for item in items {
                        match item {
                            Value::String(s) => h.push(name.clone(), s.clone()),
                            Value::Number(n) => h.push(name.clone(), n.to_string()),
                            _ => return Err(HeadersInputError::BadValue(name.clone())),
                        }
                    }
                }
                _ => return Err(HeadersInputError::BadValue(name.clone())),
            }
        }
        Ok(h)
    }
}

impl<N: Into<String>, V: Into<String>> FromIterator<(N, V)> for Headers {
    fn from_iter<T: IntoIterator<Item = (N, V)>>(iter: T) -> Self {
        Headers {
            pairs: iter
                .into_iter()
                .map(|(n, v)| (n.into(), v.into()))
                .collect(),
        }
    }
}

impl<'a> IntoIterator for &'a Headers {
    type Item = (&'a str, &'a str);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, String)>,
        fn(&'a (String, String)) -> (&'a str, &'a str),
    >;
    fn into_iter(self) -> Self::IntoIter {
        fn pair(p: &(String, String)) -> (&str, &str) {
            (p.0.as_str(), p.1.as_str())
        }
        self.pairs
            .iter()
            .map(pair as fn(&'a (String, String)) -> (&'a str, &'a str))
    }
}
