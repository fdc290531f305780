//! Reading providers' rate-limit headers into one [`RateLimitSnapshot`].
//!
//! Understood, with names matched case-insensitively:
//! - OpenAI, Azure OpenAI, Groq, Cerebras, DeepSeek and most OpenAI-compatible APIs:
//!   `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` (also spelled `x-rate-limit-...`, and Cerebras'
//!   `...-tokens-minute` / `...-requests-minute`). Resets are durations: `1s`, `20ms`, `577ms`, `5.94s`, `6m0s`,
//!   `2m59.56s`, `1m0.363142857s`, or plain seconds (see [`parse_duration_ms`]).
//! - Anthropic: `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}`, the
//!   resets as RFC 3339 timestamps.
//! - `retry-after` (delay-seconds, possibly fractional, or an HTTP-date in any of the three RFC 9110 forms),
//!   `retry-after-ms` and `x-ms-retry-after-ms` (milliseconds).
//! - Azure's `-1` sentinel (`x-ratelimit-limit-tokens: -1`, `x-ratelimit-remaining-tokens: -1`, with
//!   `x-ratelimit-reset-tokens: 0`): unknown, not a value.
//!
//! An absent header is unknown (`None`), never zero. Dates are converted with the caller's `now_ms`; a date in the
//! past or implausibly far ahead (clock skew, a reset at the Unix epoch) gives `None` and a [`HeaderError`], never a
//! negative wait. A malformed value is reported and the other headers are still read.
//!
//! ```
//! use llm_preflight::headers::RateLimitSnapshot;
//! let parsed = RateLimitSnapshot::from_headers(
//!     [("x-ratelimit-remaining-tokens", "7923"), ("X-RateLimit-Reset-Tokens", "577ms"), ("retry-after", "6")],
//!     0,
//! );
//! assert_eq!(parsed.snapshot.tokens.remaining, Some(7923));
//! assert_eq!(parsed.snapshot.tokens.reset_ms, Some(577));
//! assert_eq!(parsed.snapshot.retry_after_ms, Some(6000));
//! assert!(parsed.malformed.is_empty());
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

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
        let mut sentinel = [false; 4];
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
                                sentinel[d as usize] = true;
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
        snap.retry_after_ms = retry_after_ms.or(retry_after_s);
        ParsedHeaders {
            snapshot: snap,
            malformed,
        }
    }

    /// The state of one dimension.
    pub fn dimension(&self, d: HeaderDimension) -> &DimensionState {
        match d {
            HeaderDimension::Requests => &self.requests,
            HeaderDimension::Tokens => &self.tokens,
            HeaderDimension::InputTokens => &self.input_tokens,
            HeaderDimension::OutputTokens => &self.output_tokens,
        }
    }

    fn dim_mut(&mut self, d: HeaderDimension) -> &mut DimensionState {
        match d {
            HeaderDimension::Requests => &mut self.requests,
            HeaderDimension::Tokens => &mut self.tokens,
            HeaderDimension::InputTokens => &mut self.input_tokens,
            HeaderDimension::OutputTokens => &mut self.output_tokens,
        }
    }
}

/// A rate-limit dimension as headers name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HeaderDimension {
    /// Requests per window.
    Requests = 0,
    /// Tokens per window.
    Tokens = 1,
    /// Input tokens per window.
    InputTokens = 2,
    /// Output tokens per window.
    OutputTokens = 3,
}

const DIMS: [HeaderDimension; 4] = [
    HeaderDimension::Requests,
    HeaderDimension::Tokens,
    HeaderDimension::InputTokens,
    HeaderDimension::OutputTokens,
];

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

#[derive(Debug, Clone, Copy)]
enum Field {
    RetryAfter,
    RetryAfterMs,
    Dim(HeaderDimension, What, Style),
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
            _ => {}
        }
        if let Some(rest) = n.strip_prefix("anthropic-ratelimit-") {
            let (dim, what) = rest.rsplit_once('-')?;
            let d = match dim {
                "requests" => HeaderDimension::Requests,
                "tokens" => HeaderDimension::Tokens,
                "input-tokens" => HeaderDimension::InputTokens,
                "output-tokens" => HeaderDimension::OutputTokens,
                _ => return None,
            };
            let w = match what {
                "limit" => What::Limit,
                "remaining" => What::Remaining,
                "reset" => What::Reset,
                _ => return None,
            };
            return Some(Field::Dim(d, w, Style::Timestamp));
        }
        let rest = n
            .strip_prefix("x-ratelimit-")
            .or_else(|| n.strip_prefix("x-rate-limit-"))?;
        let (what, dim) = rest.split_once('-')?;
        let w = match what {
            "limit" => What::Limit,
            "remaining" => What::Remaining,
            "reset" => What::Reset,
            _ => return None,
        };
        let d = match dim {
            "requests" | "requests-minute" => HeaderDimension::Requests,
            "tokens" | "tokens-minute" => HeaderDimension::Tokens,
            _ => return None,
        };
        Some(Field::Dim(d, w, Style::Duration))
    }
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

/// `digits[.digits]` times `scale`, exactly, as u128. None when not that shape or absurdly long.
fn parse_decimal_scaled(v: &str, scale: u128) -> Option<u128> {
    let (int, frac) = match v.split_once('.') {
        Some((i, f)) => (i, f),
        None => (v, ""),
    };
    if (int.is_empty() && frac.is_empty()) || int.len() > 20 || frac.len() > 30 {
        return None;
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if v.contains('.') && frac.is_empty() && int.is_empty() {
        return None;
    }
    let mut total: u128 = 0;
    for b in int.bytes() {
        total = total.checked_mul(10)?.checked_add(u128::from(b - b'0'))?;
    }
    total = total.checked_mul(scale)?;
    // The fraction: digits beyond the scale's resolution are rounded up.
    let mut unit = scale;
    let mut rest_nonzero = false;
    for b in frac.bytes() {
        if unit >= 10 {
            unit /= 10;
            total = total.checked_add(u128::from(b - b'0') * unit)?;
        } else if b != b'0' {
            rest_nonzero = true;
        }
    }
    if rest_nonzero {
        total += 1;
    }
    Some(total)
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
        // Up to one second behind is rounding between the server's and our clocks: the reset is now.
        if d > -1000 {
            return Ok(0);
        }
        return Err(HeaderProblem::InThePast);
    }
    let d = u64::try_from(d).map_err(|_| HeaderProblem::Implausible)?;
    check_plausible(d)
}

/// Why a duration could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DurationError {
    /// Nothing (or only spaces) was given.
    Empty,
    /// A character that is neither a digit, a `.` nor a unit, at this byte offset.
    Unexpected(usize),
    /// A number with no unit after it, in a duration that has units elsewhere (`1m30`).
    MissingUnit,
    /// A unit that is not one of `h`, `m`, `s`, `ms`, `us`/`µs`, `ns`.
    UnknownUnit,
    /// A negative duration.
    Negative,
    /// Longer than `u64::MAX` milliseconds.
    Overflow,
}

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DurationError::Empty => f.write_str("empty duration"),
            DurationError::Unexpected(at) => write!(f, "unexpected character at byte {at}"),
            DurationError::MissingUnit => {
                f.write_str("a number without a unit (h, m, s, ms, us, ns)")
            }
            DurationError::UnknownUnit => {
                f.write_str("unknown unit (expected h, m, s, ms, us or ns)")
            }
            DurationError::Negative => f.write_str("negative duration"),
            DurationError::Overflow => f.write_str("duration too long"),
        }
    }
}

impl std::error::Error for DurationError {}

/// Parses a duration as rate-limit headers write it, into milliseconds, rounded up (a wait is never shortened).
///
/// Accepts Go-style durations (`1s`, `20ms`, `577ms`, `5.94s`, `6m0s`, `2m59.56s`, `1m0.363142857s`, `1h2m`,
/// `250us`, `10ns`) and plain seconds (`6`, `0.5`). Fractions are exact: `5.94s` is 5940 ms.
///
/// ```
/// use llm_preflight::headers::parse_duration_ms;
/// assert_eq!(parse_duration_ms("5.94s"), Ok(5940));
/// assert_eq!(parse_duration_ms("2m59.56s"), Ok(179_560));
/// assert_eq!(parse_duration_ms("1m0.363142857s"), Ok(60_364));
/// assert_eq!(parse_duration_ms("6"), Ok(6000));
/// assert!(parse_duration_ms("soon").is_err());
/// ```
pub fn parse_duration_ms(s: &str) -> Result<u64, DurationError> {
    let s = s.trim();
    if s.is_empty() {
        return Err(DurationError::Empty);
    }
    if s.starts_with('-') {
        return Err(DurationError::Negative);
    }
    let s = s.strip_prefix('+').unwrap_or(s);
    // Plain seconds.
    if s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        let ns = parse_decimal_scaled(s, 1_000_000_000).ok_or_else(|| decimal_error(s, 0))?;
        // Beyond u64::MAX milliseconds is an overflow here too, as with units (not saturated to u64::MAX).
        return u64::try_from(ns.div_ceil(1_000_000)).map_err(|_| DurationError::Overflow);
    }
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut total_ns: u128 = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        if i == start {
            return Err(DurationError::Unexpected(i));
        }
        let num = &s[start..i];
        let ustart = i;
        while i < bytes.len() && !(bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let unit = &s[ustart..i];
        let scale: u128 = match unit {
            "" => return Err(DurationError::MissingUnit),
            "h" => 3_600_000_000_000,
            "m" => 60_000_000_000,
            "s" => 1_000_000_000,
            "ms" => 1_000_000,
            "us" | "µs" | "μs" => 1_000,
            "ns" => 1,
            _ => {
                if unit.chars().all(|c| c.is_alphabetic()) {
                    return Err(DurationError::UnknownUnit);
                }
                let off = unit
                    .char_indices()
                    .find(|(_, c)| !c.is_alphabetic())
                    .map_or(0, |(o, _)| o);
                return Err(DurationError::Unexpected(ustart + off));
            }
        };
        let v = parse_decimal_scaled(num, scale).ok_or_else(|| decimal_error(num, start))?;
        total_ns = total_ns.checked_add(v).ok_or(DurationError::Overflow)?;
    }
    let ms = total_ns.div_ceil(1_000_000);
    u64::try_from(ms).map_err(|_| DurationError::Overflow)
}

/// Why `digits[.digits]` did not parse: too long a well-formed number overflows, anything else is unexpected.
fn decimal_error(num: &str, at: usize) -> DurationError {
    let well_formed =
        num.bytes().filter(|b| *b == b'.').count() <= 1 && num.bytes().any(|b| b.is_ascii_digit());
    if well_formed {
        DurationError::Overflow
    } else {
        DurationError::Unexpected(at)
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Dates. Written here (no date crate) so the core stays small and builds for wasm32.

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ => {
            if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 {
                29
            } else {
                28
            }
        }
    }
}

/// Unix milliseconds of a UTC civil time, validating every field (a leap second 60 is accepted as 59.999).
fn civil_ms(y: i64, mo: u32, d: u32, h: u32, mi: u32, s: u32, frac_ms: u32) -> Option<i128> {
    if !(1..=12).contains(&mo) || d == 0 || d > days_in_month(y, mo) || h > 23 || mi > 59 || s > 60
    {
        return None;
    }
    let (s, frac_ms) = if s == 60 { (59, 999) } else { (s, frac_ms) };
    let days = i128::from(days_from_civil(y, mo, d));
    Some(
        ((days * 24 + i128::from(h)) * 60 + i128::from(mi)) * 60_000
            + i128::from(s) * 1000
            + i128::from(frac_ms),
    )
}

fn digits(s: &str, n: usize) -> Option<u32> {
    if s.len() != n || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `HH:MM:SS` into its parts.
fn hms(s: &str) -> Option<(u32, u32, u32)> {
    let mut it = s.split(':');
    let h = digits(it.next()?, 2)?;
    let m = digits(it.next()?, 2)?;
    let sec = digits(it.next()?, 2)?;
    if it.next().is_some() {
        return None;
    }
    Some((h, m, sec))
}

/// Parses an RFC 3339 timestamp (`2024-03-13T18:31:10Z`, `2024-03-13T18:31:10.123456+02:00`) into Unix
/// milliseconds (fractions rounded up). `None` when it is not one.
pub fn parse_rfc3339_ms(s: &str) -> Option<i128> {
    let s = s.trim();
    if !s.is_ascii() || s.len() < 20 || s.len() > 64 {
        return None;
    }
    let b = s.as_bytes();
    if b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let y = i64::from(digits(&s[0..4], 4)?);
    let mo = digits(&s[5..7], 2)?;
    let d = digits(&s[8..10], 2)?;
    let (h, mi, sec) = hms(&s[11..19])?;
    let mut rest = &s[19..];
    let mut frac_ms = 0u32;
    if let Some(r) = rest.strip_prefix('.') {
        let n = r.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        let ns = parse_decimal_scaled(&format!("0.{}", &r[..n]), 1000)?;
        frac_ms = u32::try_from(ns).ok()?;
        rest = &r[n..];
    }
    let offset_min: i64 = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let (oh, om) = rest[1..].split_once(':')?;
            let (oh, om) = (digits(oh, 2)?, digits(om, 2)?);
            if oh > 23 || om > 59 {
                return None;
            }
            sign * i64::from(oh * 60 + om)
        }
    };
    let ms = civil_ms(y, mo, d, h, mi, sec, 0)?;
    Some(ms + i128::from(frac_ms) - i128::from(offset_min) * 60_000)
}

fn month_of(s: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let l = s.to_ascii_lowercase();
    MONTHS.iter().position(|m| *m == l).map(|i| i as u32 + 1)
}

fn is_day_name(s: &str, long: bool) -> bool {
    const SHORT: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
    const LONG: [&str; 7] = [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ];
    let l = s.to_ascii_lowercase();
    if long {
        LONG.contains(&l.as_str())
    } else {
        SHORT.contains(&l.as_str())
    }
}

/// Parses an HTTP-date (RFC 9110 §5.6.7) into Unix milliseconds: the IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`,
/// and the obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994` forms. A
/// two-digit RFC 850 year that would lie more than 50 years after `now_ms` is taken to be in the past century,
/// as RFC 9110 asks. `None` when it is none of these.
pub fn parse_http_date_ms(s: &str, now_ms: u64) -> Option<i128> {
    let s = s.trim();
    if !s.is_ascii() || s.len() > 64 {
        return None;
    }
    let parts: Vec<&str> = s.split_ascii_whitespace().collect();
    match parts.as_slice() {
        // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
        [day, dd, mon, yyyy, t, "GMT"]
            if day.ends_with(',') && is_day_name(&day[..day.len() - 1], false) =>
        {
            let d = digits(dd, 2)?;
            let mo = month_of(mon)?;
            let y = i64::from(digits(yyyy, 4)?);
            let (h, mi, sec) = hms(t)?;
            civil_ms(y, mo, d, h, mi, sec, 0)
        }
        // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
        [day, date, t, "GMT"] if day.ends_with(',') && is_day_name(&day[..day.len() - 1], true) => {
            let mut it = date.split('-');
            let d = digits(it.next()?, 2)?;
            let mo = month_of(it.next()?)?;
            let yy = i64::from(digits(it.next()?, 2)?);
            if it.next().is_some() {
                return None;
            }
            let (h, mi, sec) = hms(t)?;
            let now_year = 1970 + i64::try_from(now_ms / 31_556_952_000).ok()?;
            let mut y = (now_year / 100) * 100 + yy;
            if y > now_year + 50 {
                y -= 100;
            }
            civil_ms(y, mo, d, h, mi, sec, 0)
        }
        // asctime: Sun Nov  6 08:49:37 1994
        [day, mon, d, t, yyyy] if is_day_name(day, false) => {
            let mo = month_of(mon)?;
            let d: u32 = if d.len() <= 2 && d.bytes().all(|b| b.is_ascii_digit()) {
                d.parse().ok()?
            } else {
                return None;
            };
            let y = i64::from(digits(yyyy, 4)?);
            let (h, mi, sec) = hms(t)?;
            civil_ms(y, mo, d, h, mi, sec, 0)
        }
        _ => None,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_ms(1970, 1, 1, 0, 0, 0, 0), Some(0));
        assert_eq!(civil_ms(1994, 11, 6, 8, 49, 37, 0), Some(784_111_777_000));
        assert_eq!(civil_ms(2024, 2, 30, 0, 0, 0, 0), None);
        assert_eq!(civil_ms(2000, 2, 29, 0, 0, 0, 0), Some(951_782_400_000));
    }
}
