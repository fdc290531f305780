//! Classifying a provider's refusal from its status, headers and body, and finding errors inside streams.
//!
//! Status codes mislead (a 413 can be a rate limit, a 429 a billing quota, an error can arrive inside an HTTP 200
//! stream), so [`classify`] reads the body and headers first and uses the status only as a last hint. It
//! understands the body shapes of OpenAI, Azure OpenAI, Groq, DeepSeek, Together, Mistral, Cohere, xAI,
//! Fireworks, Cerebras and OpenRouter (`{"error": {...}}` or `{"message": ...}`), Anthropic
//! (`{"type": "error", "error": {...}}`), Gemini and Vertex (`RESOURCE_EXHAUSTED` with `RetryInfo` and
//! `QuotaFailure` details, sometimes in an array or nested as a JSON string), Bedrock, bare string errors,
//! problem-details JSON and plain text.
//!
//! Parsing is bounded: serde_json refuses nesting deeper than 128, the walk over the parsed value is limited in
//! depth and node count, nested JSON strings are unwrapped at most a few levels deep, and only the first
//! [`MAX_TEXT_BYTES`] of a body that is not JSON are read. Garbage gives [`RefusalKind::Other`], never a panic.
//!
//! ```
//! use llm_preflight::{classify, RefusalKind};
//! let body = r#"{"error": {"message": "Rate limit reached for gpt-4o-mini in organization org-xxx on tokens per min (TPM): Limit 10000, Used 9840, Requested 1210. Please try again in 6.3s.", "type": "tokens", "code": "rate_limit_exceeded"}}"#;
//! let r = classify(Some(429), [("retry-after", "6")], body, 0);
//! assert_eq!(r.kind, RefusalKind::RateLimitTokens);
//! assert!(r.retryable);
//! assert_eq!(r.retry_after_ms, Some(6000));
//! assert_eq!((r.limit, r.used, r.requested), (Some(10000), Some(9840), Some(1210)));
//! ```

mod pylit;
mod rules;
mod stream;

use crate::dimension::Dimension;
use crate::headers::RateLimitSnapshot;
use crate::time::parse_duration_ms;
use rules::{Said, Signal};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
pub(crate) use stream::inspect_frame_value;
pub use stream::MAX_TEXT_BYTES;
use stream::{cut, looks_like_stream};
pub use stream::{find_stream_error, StreamError};

/// How many levels of JSON nested inside JSON strings are unwrapped.
const MAX_NESTED_JSON: u32 = 3;
/// How deep the walk over a parsed body goes.
const MAX_WALK_DEPTH: u32 = 24;
/// How many JSON nodes the walk visits at most.
const MAX_WALK_NODES: usize = 4096;

/// What kind of refusal a response is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKind {
    /// A rate limit on requests per window.
    RateLimitRequests,
    /// A rate limit on tokens per window (input, output or both).
    RateLimitTokens,
    /// A rate limit whose dimension the response does not reveal.
    RateLimitOther,
    /// The request can never fit the limit it hit (requested > limit of a per-window budget, or a payload byte
    /// cap): it must shrink.
    TooLarge,
    /// Billing, credit, plan or monthly caps, a free tier with `limit: 0`: no short wait clears it.
    QuotaExhausted,
    /// Provider capacity: 529, 503 overloaded, "slow down", shared capacity exhausted.
    Overloaded,
    /// The prompt plus the output reservation exceeds the model's context window.
    ContextLength,
    /// Anything else, including bodies that could not be read.
    Other,
}

impl RefusalKind {
    /// The snake_case name used in JSON output.
    pub const fn name(self) -> &'static str {
        match self {
            RefusalKind::RateLimitRequests => "rate_limit_requests",
            RefusalKind::RateLimitTokens => "rate_limit_tokens",
            RefusalKind::RateLimitOther => "rate_limit_other",
            RefusalKind::TooLarge => "too_large",
            RefusalKind::QuotaExhausted => "quota_exhausted",
            RefusalKind::Overloaded => "overloaded",
            RefusalKind::ContextLength => "context_length",
            RefusalKind::Other => "other",
        }
    }

    /// Whether this is one of the three rate-limit kinds.
    pub const fn is_rate_limit(self) -> bool {
        matches!(
            self,
            RefusalKind::RateLimitRequests
                | RefusalKind::RateLimitTokens
                | RefusalKind::RateLimitOther
        )
    }
}

impl fmt::Display for RefusalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The window of the budget a refusal names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Window {
    /// Per minute.
    Minute,
    /// Per day.
    Day,
    /// Per month.
    Month,
}

/// The longest wait still "short": a cap whose stated wait is longer is not retried.
const SHORT_WAIT_MS: u64 = 3_600_000;

/// What an unreadable or unlimited refusal says: nothing here is a limit, and retrying the same request will not help.
const REASON_OTHER: &str =
    "no limit, cap or capacity signal: sending the same request again will not help";

/// What a payload cap says.
const REASON_PAYLOAD: &str = "the body is larger than the API accepts: shrink it";

/// A classified refusal. The first eight fields are the `explain-response` contract.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// What happened.
    pub kind: RefusalKind,
    /// Whether waiting and sending the same request again can succeed.
    pub retryable: bool,
    /// The wait the response states (headers first, then the body), in milliseconds.
    pub retry_after_ms: Option<u64>,
    /// The budget that was hit, when stated ("Limit 8000", `quotaValue`, a context window).
    pub limit: Option<u64>,
    /// What the request asked for, when stated ("Requested 1210").
    pub requested: Option<u64>,
    /// What was already used in the window, when stated ("Used 7920").
    pub used: Option<u64>,
    /// Which budget, when stated.
    pub dimension: Option<Dimension>,
    /// Over which window, when stated.
    pub window: Option<Window>,
    /// The HTTP status, if any (for a stream error, the one the error frame states, if any).
    pub status: Option<u16>,
    /// The provider's own message, cut to 500 characters.
    pub message: Option<String>,
    /// For a refusal found inside a stream: whether output had already been delivered before it.
    pub output_delivered: bool,
    /// Why the kind and `retryable` are what they are, in a sentence (the `explain-response` output's `reason`).
    pub reason: &'static str,
}

impl Refusal {
    fn other(status: Option<u16>) -> Self {
        Refusal {
            kind: RefusalKind::Other,
            retryable: false,
            retry_after_ms: None,
            limit: None,
            requested: None,
            used: None,
            dimension: None,
            window: None,
            status,
            message: None,
            output_delivered: false,
            reason: REASON_OTHER,
        }
    }

    /// By how many tokens the request must shrink, when the response says both what it asked for and the limit.
    pub fn excess(&self) -> Option<u64> {
        match (self.requested, self.limit) {
            (Some(r), Some(l)) if r > l => Some(r - l),
            _ => None,
        }
    }
}

/// Classifies a response from its status (if any), its headers as `(name, value)` pairs and its raw body.
/// `now_ms` (Unix milliseconds) converts an HTTP-date `retry-after` and Anthropic's reset timestamps into waits.
///
/// A streamed body (SSE `data:` lines) is searched for an error frame with [`find_stream_error`] first.
pub fn classify<I, N, V>(status: Option<u16>, headers: I, body: &str, now_ms: u64) -> Refusal
where
    I: IntoIterator<Item = (N, V)>,
    N: AsRef<str>,
    V: AsRef<str>,
{
    let parsed = RateLimitSnapshot::from_headers(headers, now_ms);
    classify_with_snapshot(status, &parsed.snapshot, body)
}

/// Like [`classify`], with the headers already read into a snapshot.
pub fn classify_with_snapshot(
    status: Option<u16>,
    snapshot: &RateLimitSnapshot,
    body: &str,
) -> Refusal {
    if looks_like_stream(body) {
        if let Some(se) = find_stream_error(body) {
            let mut r = classify_body(status, snapshot, &se.payload);
            r.output_delivered = se.output_delivered;
            return r;
        }
    }
    classify_body(status, snapshot, body)
}

// ---------------------------------------------------------------------------------------------------------------
// Evidence gathered from a body.

#[derive(Default)]
struct Evidence {
    /// Human messages, in order met.
    messages: Vec<String>,
    /// Machine codes (type, code, status, reason, ...), lowercased.
    codes: Vec<String>,
    /// Gemini quota ids and metrics, lowercased.
    quota_ids: Vec<String>,
    /// Gemini `quotaValue`.
    quota_value: Option<u64>,
    /// Gemini `RetryInfo.retryDelay`.
    retry_delay_ms: Option<u64>,
    /// A numeric `code` or `status` that looks like an HTTP status.
    status: Option<u16>,
    /// llama.cpp server's `n_ctx` and `n_prompt_tokens` beside its `exceed_context_size_error`.
    n_ctx: Option<u64>,
    n_prompt_tokens: Option<u64>,
    /// OpenRouter's `limit_source` etc.
    text_bytes: usize,
    nodes: usize,
}

impl Evidence {
    fn push_message(&mut self, s: &str) {
        let s = s.trim();
        if s.is_empty() || self.text_bytes >= MAX_TEXT_BYTES {
            return;
        }
        let s = cut(s, MAX_TEXT_BYTES - self.text_bytes);
        self.text_bytes += s.len();
        self.messages.push(s.to_string());
    }

    fn push_code(&mut self, s: &str) {
        let s = s.trim();
        if !s.is_empty() && s.len() <= 200 && self.codes.len() < 64 {
            self.codes.push(s.to_ascii_lowercase());
        }
    }

    /// Reads a string that may itself be JSON (OpenRouter `metadata.raw`, Gemini errors nested in messages).
    fn read_string(&mut self, s: &str, nested: u32, depth: u32) {
        let t = s.trim();
        if nested < MAX_NESTED_JSON
            && (t.starts_with('{') || t.starts_with('['))
            && t.len() <= 4 * MAX_TEXT_BYTES
        {
            if let Ok(v) = serde_json::from_str::<Value>(t) {
                self.walk(&v, nested + 1, depth + 1);
                return;
            }
        }
        if nested < MAX_NESTED_JSON
            && (self.read_embedded(t, nested, depth) || self.read_literal(t, nested, depth))
        {
            return;
        }
        self.push_message(t);
    }

    /// Reads a JSON object embedded in text (`429 {"error": ...}`, `Stream error at URL: 503 - {\n "error": ...}`,
    /// a proxy's report with the upstream's body in its middle): the first brace that opens an object which parses.
    /// The whole text stays a message too (a field the walk does not read may hold the wording). False when there is
    /// none.
    fn read_embedded(&mut self, t: &str, nested: u32, depth: u32) -> bool {
        if t.len() > 4 * MAX_TEXT_BYTES {
            return false;
        }
        for (i, _) in t
            .match_indices('{')
            .skip(usize::from(t.starts_with('{')))
            .take(8)
        {
            if !t[i + 1..].trim_start().starts_with('"') {
                continue;
            }
            let mut values = serde_json::Deserializer::from_str(&t[i..]).into_iter::<Value>();
            if let Some(Ok(v @ Value::Object(_))) = values.next() {
                self.push_message(t);
                self.walk(&v, nested + 1, depth + 1);
                return true;
            }
        }
        false
    }

    /// Reads a Python literal in `t` (`Error code: 429 - {'error': {...}}`, what `str()` of an SDK's exception
    /// prints; see [`pylit`]), the text before it as a message. False when there is none.
    fn read_literal(&mut self, t: &str, nested: u32, depth: u32) -> bool {
        let Some(i) = t.find("{'") else {
            return false;
        };
        if t.len() - i > 4 * MAX_TEXT_BYTES {
            return false;
        }
        let Some(v) = pylit::to_json(&t[i..]).and_then(|j| serde_json::from_str::<Value>(&j).ok())
        else {
            return false;
        };
        self.push_message(&t[..i]);
        self.walk(&v, nested + 1, depth + 1);
        true
    }

    fn walk(&mut self, v: &Value, nested: u32, depth: u32) {
        self.nodes += 1;
        if depth > MAX_WALK_DEPTH || self.nodes > MAX_WALK_NODES {
            return;
        }
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    self.walk_member(k, x, nested, depth);
                }
            }
            Value::Array(a) => {
                for x in a {
                    if self.nodes > MAX_WALK_NODES {
                        break;
                    }
                    self.walk(x, nested, depth + 1);
                }
            }
            Value::String(s) => self.read_string(s, nested, depth),
            _ => {}
        }
    }

    fn walk_member(&mut self, k: &str, x: &Value, nested: u32, depth: u32) {
        let lk = k.to_ascii_lowercase();
        match lk.as_str() {
            // (`text`: Poe's `{"allow_retry": true, "text": "..."}`.)
            // (`errorDescription`: n8n's wrapping of the provider's words, github.com/n8n-io/n8n/issues/19117.)
            "message" | "detail" | "title" | "error_description" | "raw" | "msg" | "text"
            | "error_message" | "errormessage" | "remedy_hint" | "error_msg"
            | "errordescription" | "description" => match x {
                Value::String(s) => self.read_string(s, nested, depth),
                _ => self.walk(x, nested, depth + 1),
            },
            // (`$error`: Coze's workflow output wrapping the provider's error.)
            "error" | "errors" | "details" | "violations" | "metadata" | "data" | "body"
            | "response" | "cause" | "$error" => match x {
                Value::String(s) => self.read_string(s, nested, depth),
                _ => self.walk(x, nested, depth + 1),
            },
            "type" | "code" | "status" | "reason" | "error_type" | "errortype" | "__type"
            | "limit_source" | "object" | "error_code" | "domain" => match x {
                Value::String(s) => {
                    if lk != "object" || s == "error" {
                        self.push_code(s)
                    }
                }
                Value::Number(n) => {
                    if let Some(c) = n.as_u64().filter(|c| (100..=599).contains(c)) {
                        self.status.get_or_insert(c as u16);
                    }
                    self.push_code(&n.to_string());
                }
                _ => self.walk(x, nested, depth + 1),
            },
            // Seconds: Replicate's `retry_after`, Hugging Face's `estimated_time` while a model loads.
            "retry_after" | "estimated_time" => {
                if let Some(s) = x
                    .as_f64()
                    .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
                {
                    self.retry_delay_ms
                        .get_or_insert((s * 1000.0).ceil() as u64);
                }
            }
            "retrydelay" | "retry_delay" => {
                if let Some(ms) = x.as_str().and_then(|s| parse_duration_ms(s).ok()) {
                    self.retry_delay_ms.get_or_insert(ms);
                } else if let Some(obj) = x.as_object() {
                    // protobuf-JSON {"seconds": 37, "nanos": 0}
                    let s = obj.get("seconds").and_then(Value::as_u64).unwrap_or(0);
                    let n = obj.get("nanos").and_then(Value::as_u64).unwrap_or(0);
                    self.retry_delay_ms
                        .get_or_insert(s.saturating_mul(1000) + n.div_ceil(1_000_000));
                }
            }
            "quotaid" | "quotametric" | "quota_id" | "quota_metric" | "subject" | "quota_limit" => {
                if let Some(s) = x.as_str() {
                    if self.quota_ids.len() < 32 {
                        self.quota_ids.push(s.to_ascii_lowercase());
                    }
                }
            }
            "quotavalue" | "quota_value" | "quota_limit_value" => {
                let n = match x {
                    Value::String(s) => s.trim().parse::<u64>().ok(),
                    Value::Number(n) => n.as_u64(),
                    _ => None,
                };
                if n.is_some() && self.quota_value.is_none() {
                    self.quota_value = n;
                }
            }
            // {"type":"exceed_context_size_error","n_prompt_tokens":14429,"n_ctx":8192} (llama.cpp server)
            "n_ctx" => self.n_ctx = self.n_ctx.or(x.as_u64()),
            "n_prompt_tokens" => self.n_prompt_tokens = self.n_prompt_tokens.or(x.as_u64()),
            // A `param` that is a sentence is a message (a relay's "Param Incorrect" with the provider's words in
            // `param`); a parameter's name is not.
            "param" => {
                if let Some(s) = x.as_str().filter(|s| s.trim().contains(' ')) {
                    self.read_string(s, nested, depth);
                }
            }
            "request_id" | "@type" | "links" | "url" | "help" => {}
            _ => {
                if matches!(x, Value::Object(_) | Value::Array(_)) {
                    self.walk(x, nested, depth + 1);
                }
            }
        }
    }
}

fn gather(body: &str) -> Evidence {
    let mut ev = Evidence::default();
    let t = body.trim_start_matches('\u{feff}').trim();
    if t.is_empty() {
        return ev;
    }
    if t.starts_with('{') || t.starts_with('[') || t.starts_with('"') {
        if let Ok(v) = serde_json::from_str::<Value>(t) {
            match &v {
                Value::String(s) => ev.read_string(s, 1, 0),
                _ => ev.walk(&v, 0, 0),
            }
            return ev;
        }
    }
    // JSON after a prefix, a Python literal (an SDK's exception printed), or not JSON at all: read the text itself,
    // bounded.
    if ev.read_embedded(t, 0, 0) || ev.read_literal(t, 0, 0) {
        return ev;
    }
    ev.read_string(cut(t, MAX_TEXT_BYTES), MAX_NESTED_JSON, 0);
    ev
}

// ---------------------------------------------------------------------------------------------------------------
// Text analysis (ASCII-lowercased, bounded).

/// Parses a number at `i` (skipping spaces, `~`, `:`), with `,` thousands separators and a fraction that is
/// dropped (`10000.000000`). Returns it and where it ends.
fn number_at(b: &[u8], mut i: usize) -> Option<(u64, usize)> {
    while i < b.len() && matches!(b[i], b' ' | b'~' | b':' | b'=' | b'(' | b'\t' | b'`') {
        i += 1;
    }
    if i >= b.len() || !b[i].is_ascii_digit() {
        return None;
    }
    let mut n: u64 = 0;
    let mut digits = 0;
    while i < b.len() {
        match b[i] {
            c @ b'0'..=b'9' => {
                n = n.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
                digits += 1;
                i += 1;
            }
            b',' if i + 3 < b.len() + 1
                && b[i + 1..].iter().take(3).all(u8::is_ascii_digit)
                && digits > 0 =>
            {
                // A thousands separator only when exactly three digits follow.
                if b.get(i + 4).is_some_and(u8::is_ascii_digit) {
                    break;
                }
                i += 1;
            }
            _ => break,
        }
    }
    if i < b.len() && b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    Some((n, i))
}

/// The first number following one of `keys` (optionally after "of " or "is ").
fn number_after(text: &str, keys: &[&str]) -> Option<u64> {
    let b = text.as_bytes();
    let mut best: Option<(usize, u64)> = None;
    for key in keys {
        for (pos, _) in text.match_indices(key) {
            if best.is_some_and(|(p, _)| p < pos) {
                break;
            }
            let mut j = pos + key.len();
            for filler in ["of ", "is ", "to "] {
                let k = j + b[j..].iter().take_while(|c| **c == b' ').count();
                if text[k..].starts_with(filler) {
                    j = k + filler.len();
                    break;
                }
            }
            if let Some((n, _)) = number_at(b, j) {
                best = Some((pos, n));
                break;
            }
        }
    }
    best.map(|(_, n)| n)
}

/// A wait stated in text: "try again in 4.77s", "retry in 28.02s", "retry after 86400 seconds", "1m0.36s".
fn wait_in_text(text: &str) -> Option<u64> {
    const KEYS: [&str; 9] = [
        "try again in ",
        "retry in ",
        "retry after ",
        "try again after ",
        "retrying in ",
        "please wait ",
        "reset after ",
        "resets in ",
        "reset in ",
    ];
    let b = text.as_bytes();
    let mut best: Option<(usize, u64)> = None;
    for key in KEYS {
        for (pos, _) in text.match_indices(key) {
            if best.is_some_and(|(p, _)| p < pos) {
                break;
            }
            let start = pos + key.len();
            let mut end = start;
            while end < b.len()
                && (b[end].is_ascii_alphanumeric() || b[end] == b'.')
                && end - start < 40
            {
                end += 1;
            }
            let token = text[start..end].trim_end_matches('.');
            if token.is_empty() || !token.as_bytes()[0].is_ascii_digit() {
                continue;
            }
            let ms = if token.bytes().all(|c| c.is_ascii_digit() || c == b'.') {
                let rest = text[end..].trim_start();
                let unit = if rest.starts_with("ms") || rest.starts_with("millisecond") {
                    "ms"
                } else if rest.starts_with("min") {
                    "m"
                } else if rest.starts_with("hour") || rest.starts_with("hr") {
                    "h"
                } else {
                    "s"
                };
                let first = parse_duration_ms(&format!("{token}{unit}")).ok();
                // "8 hours 24 minutes": a second part in a smaller unit.
                let more = (unit == "h").then(|| {
                    let after = rest
                        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                        .trim_start();
                    let n: String = after.chars().take_while(char::is_ascii_digit).collect();
                    let tail = after[n.len()..].trim_start();
                    (!n.is_empty() && tail.starts_with("min"))
                        .then(|| parse_duration_ms(&format!("{n}m")).ok())
                        .flatten()
                });
                first.map(|f| f + more.flatten().unwrap_or(0))
            } else {
                parse_duration_ms(token).ok().or_else(|| {
                    // "20seconds"-like tokens: keep the leading number.
                    let n: String = token
                        .chars()
                        .take_while(|c| c.is_ascii_digit() || *c == '.')
                        .collect();
                    let unit = &token[n.len()..];
                    let u = if unit.starts_with("ms") || unit.starts_with("milli") {
                        "ms"
                    } else if unit.starts_with("sec") {
                        "s"
                    } else if unit.starts_with("min") {
                        "m"
                    } else {
                        return None;
                    };
                    parse_duration_ms(&format!("{n}{u}")).ok()
                })
            };
            if let Some(ms) = ms {
                best = Some((pos, ms));
                break;
            }
        }
    }
    best.map(|(_, ms)| ms)
}

fn has_any(text: &str, needles: &[&str]) -> bool {
    needles.iter().any(|n| text.contains(n))
}

fn dimension_in(text: &str) -> Option<Dimension> {
    let tokens = has_any(
        text,
        &[
            "tokens per min",
            "tokens per day",
            "tokens per hour",
            "(tpm)",
            "(tpd)",
            "input tokens per",
            "output tokens per",
            "too many tokens",
            "token rate limit",
            "tokens processed",
            "token_count",
            "inputtokens",
            "outputtokens",
            "tokens_per_",
            "tokenspermin",
            "tokens limit",
            "request tokens",
            "tpm limit",
            "token limit (",
            "tpd rate limit",
            "tpm rate limit",
            "number of tokens allowed",
            // Anthropic's older wording: "Number of tokens has exceeded your per-minute rate limit".
            "number of tokens has exceeded",
            // OpenAI's 2022 wording: "Rate limit reached for tokens. Limit: 150000.000000 / min."
            "rate limit reached for tokens",
            "minutetokens",
            "token usage",
            " tpm (",
            "tokens per request",
            "for tpm",
        ],
    );
    let requests = has_any(
        text,
        &[
            "requests per min",
            "requests per day",
            "requests per hour",
            "requests per second",
            "(rpm)",
            "(rpd)",
            "queries per minute",
            "queries per second",
            "api calls",
            "call rate limit",
            "request rate",
            "requests rate limit",
            "requestsper",
            "_requests",
            "requests_per_",
            "requests limit",
            "too many requests in",
            "too many requests, please wait",
            "max rpm",
            "for rpm",
            "rpm rate limit",
            "rpm_rate_limit",
            "limit_rpd",
            "free-models-per",
            "requests per day",
            "requests list",
            "每秒请求",
            "qps",
            "rate limit reached for requests",
            "requests per 1s",
            "request per minute",
            "daily request limit",
            "requests you can make",
            " rpm (",
            "rph limit",
            "rpm limit",
            "requests allowed",
            "请求频率",
            "max request:",
        ],
    );
    match (tokens, requests) {
        (true, false) => Some(Dimension::Tokens),
        (false, true) => Some(Dimension::Requests),
        _ => None,
    }
}

fn window_in(text: &str) -> Option<Window> {
    let minute = has_any(
        text,
        &[
            "per min",
            "/ min",
            "/min",
            "(tpm)",
            "(rpm)",
            "perminute",
            "per_minute",
            "/ minute",
            "a minute",
            "each minute",
            "per-minute",
            "-per-min",
            "time:1 minute",
            "tpm limit",
            "tpm rate limit",
            "rpm rate limit",
            "max rpm",
            "for rpm",
            "for tpm",
            "per 60s",
            "per 1 minute",
            " rpm ",
            " tpm ",
            "byminute",
            " rpm (",
            " tpm (",
        ],
    );
    let day = has_any(
        text,
        &[
            "per day",
            "(tpd)",
            "(rpd)",
            "perday",
            "per_day",
            "daily",
            "/ day",
            "/day",
            "-per-day",
            "limit_rpd",
            "tpd rate limit",
            "today",
            "for the day",
            // GitHub Models: "Rate limit of 50 per 86400s exceeded for UserByModelByDay".
            "per 86400s",
            "bymodelbyday",
        ],
    );
    let month = has_any(
        text,
        &["per month", "monthly", "permonth", "per_month", "/ month"],
    );
    if minute {
        Some(Window::Minute)
    } else if day {
        Some(Window::Day)
    } else if month {
        Some(Window::Month)
    } else {
        None
    }
}

pub(crate) fn classify_body(status: Option<u16>, snap: &RateLimitSnapshot, body: &str) -> Refusal {
    let ev = gather(body);
    // An error inside a 2xx response (a stream, OpenRouter's `error` in a completion) states its own code.
    let status_or = match status {
        Some(s) if (200..300).contains(&s) => ev.status.or(status),
        None => ev.status,
        s => s,
    };
    let mut r = Refusal::other(status_or);
    // Each message with its runs of blanks and line breaks as one space (a log wrapped "Please try\nagain in
    // 5.448s"), the messages apart.
    let msg_text = ev
        .messages
        .iter()
        .map(|m| m.split_ascii_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(" \n ")
        .to_ascii_lowercase();
    let quota = ev.quota_ids.join(" ");
    let code_is = |c: &str| ev.codes.iter().any(|x| x == c);

    r.message = ev.messages.iter().find(|m| !m.is_empty()).map(|m| {
        let mut s: String = m.chars().take(500).collect();
        if s.len() < m.len() {
            s.push('…');
        }
        s
    });

    // Numbers the text states.
    r.limit = number_after(
        &msg_text,
        &[
            "limit",
            "limited to ",
            "maximum context length is ",
            "limit is ",
            "reduced to ",
            "max rpm",
            "max size: ",
            "allocation of ",
            "concurrency: ",
            "less than or equal to ",
            "max request: ",
            "limit exceed: allowed ",
            "per submitted batch is ",
            "per minute reached: ",
            "can contain at most ",
        ],
    )
    .or_else(|| {
        // "rate limit for your organization (…) of 30,000 input tokens per minute"
        let i = msg_text.find("rate limit")?;
        let window = cut(&msg_text[i..], 120);
        number_after(window, &[" of "])
    });
    r.used = number_after(
        &msg_text,
        &["used ", "used: ", "current: ", "concurrency is "],
    );
    r.requested = number_after(
        &msg_text,
        &[
            "requested about ",
            "requested ",
            "requested: ",
            "resulted in over ",
            "resulted in ",
        ],
    );
    // "Your batch has 121138 tokens" (Voyage); "Too many tokens in batch. Max is 16384 got 17555" (Mistral)
    if let Some(n) = number_after(&msg_text, &["your batch has "]) {
        r.requested = Some(n);
    }
    if let Some(i) = msg_text.find("too many tokens in batch") {
        let tail = &msg_text[i..];
        r.limit = number_after(tail, &["max is "]).or(r.limit);
        r.requested = number_after(tail, &[" got "]).or(r.requested);
    }
    // "String value length (20054016) exceeds the maximum allowed (20000000" (a JSON parser's limit, DashScope)
    if let Some(n) = number_after(&msg_text, &["string value length ("]) {
        r.requested = Some(n);
        r.limit = number_after(&msg_text, &["exceeds the maximum allowed ("]).or(r.limit);
    }
    // "50 per 1 minute" (the limits library's wording, as Flask-Limiter sends it): the limit stands before it.
    if let Some(i) = msg_text.find(" per 1 minute") {
        let head = &msg_text[..i];
        let j = head
            .rfind(|c: char| !c.is_ascii_digit())
            .map_or(0, |j| j + 1);
        r.limit = number_at(head.as_bytes(), j).map(|(n, _)| n).or(r.limit);
    }
    if r.limit.is_none() {
        r.limit = ev.quota_value;
    }
    r.dimension = dimension_in(&msg_text)
        .or_else(|| dimension_in(&quota))
        .or_else(|| {
            if code_is("tokens") {
                Some(Dimension::Tokens)
            } else if code_is("requests") {
                Some(Dimension::Requests)
            } else {
                None
            }
        });
    r.window = window_in(&msg_text).or_else(|| window_in(&quota));
    // "current rpm: 1, rpm limit: 15, current tpm: 12260, tpm limit: 5000" (LiteLLM's limiter names every counter):
    // the one at or over its limit is the one that refused.
    if let Some((dimension, limit, used)) = crossed_counter(&msg_text) {
        r.dimension = Some(dimension);
        r.limit = limit;
        r.used = Some(used);
    }
    // A limit of zero stated in gRPC text details (`key: "quota_limit_value" value: "0"`): a free tier without it.
    if let Some(i) = msg_text.find("quota_limit_value") {
        if cut(&msg_text[i..], 60).contains("value: \"0\"") {
            r.limit = Some(0);
        }
    }
    // "Tokens per Minute (actual/limit): 65605/16000" (xAI): what was used over the limit.
    if let Some(i) = msg_text.find("(actual/limit)") {
        let b = msg_text.as_bytes();
        if let Some((used, j)) = number_at(b, i + "(actual/limit)".len()) {
            r.used = Some(used);
            if b.get(j) == Some(&b'/') {
                r.limit = number_at(b, j + 1).map(|(l, _)| l).or(r.limit);
            }
        }
    }
    // "Maximum request body size 1048576 exceeded, actual body size 1056562" (Gemini); "The file size of `...` is
    // 47688287, which exceeds max allowed file size of 31457280" (Vertex AI): a byte cap and the body's bytes.
    if let Some(n) = number_after(
        &msg_text,
        &["maximum request body size ", "max allowed file size of "],
    ) {
        r.limit = Some(n);
        r.requested = number_after(&msg_text, &["actual body size ", "` is "]).or(r.requested);
    }
    // "grpc: received message larger than max (400000002 vs. 4194304)" (LocalAI): the message's bytes, the cap.
    if let Some(n) = number_after(&msg_text, &["larger than max ("]) {
        r.requested = Some(n);
        if let Some(i) = msg_text.find("larger than max (") {
            r.limit = number_after(&msg_text[i..], &[" vs. "]).or(r.limit);
        }
    }
    // "Prompt tokens limit exceeded: 23229 > 14796" (OpenRouter's credit check on the prompt), "max_tokens limit
    // exceeded: 100000 > 9577" (its key's limit on the output cap).
    let over = [
        "prompt tokens limit exceeded: ",
        "max_tokens limit exceeded: ",
    ]
    .iter()
    .find_map(|key| over_after(&msg_text, key));
    if let Some((q, l)) = over {
        r.requested = Some(q);
        r.limit = Some(l);
    }
    // "Requested 319487 tokens, max 300000 tokens per request" (OpenAI embeddings).
    if msg_text.contains("tokens per request") {
        r.limit = number_after(&msg_text, &["max "]).or(r.limit);
    }
    // "您当前每秒请求 `6` 次，超过了每秒频率上限 `5`" (Tencent Cloud: 6 requests this second, over the cap of 5).
    if let Some(n) = number_after(&msg_text, &["频率上限"]) {
        r.limit = Some(n);
        r.used = number_after(&msg_text, &["每秒请求"]).or(r.used);
    }
    // OpenRouter's credit check: "You requested up to 65536 tokens, but can only afford 10114".
    if msg_text.contains("can only afford ") {
        r.requested = number_after(&msg_text, &["requested up to "]).or(r.requested);
        r.limit = number_after(&msg_text, &["can only afford "]);
        r.dimension = Some(Dimension::OutputTokens);
    }
    let stated_wait = ev.retry_delay_ms.or_else(|| wait_in_text(&msg_text));

    // 1. The context window.
    let said = Said {
        codes: &ev.codes,
        text: &msg_text,
        status: status_or,
    };
    let context = said.signals(Signal::Context);
    if context {
        r.kind = RefusalKind::ContextLength;
        r.retryable = false;
        r.reason = "the prompt and its output cap do not fit the model's context window: shrink it; no wait helps";
        r.dimension = Some(Dimension::Tokens);
        r.window = None;
        // "prompt is too long: 210436 tokens > 200000 maximum"
        if let Some(i) = msg_text.find("prompt is too long") {
            let tail = &msg_text[i..];
            r.requested = number_after(tail, &["long"]).or(r.requested);
            r.limit = number_after(tail, &["> "]).or(r.limit);
        }
        // "The input token count (1234567) exceeds the maximum number of tokens allowed (1048576)"
        if let Some(i) = msg_text.find("input token count") {
            let tail = &msg_text[i..];
            r.requested = number_after(tail, &["count"]).or(r.requested);
            r.limit = number_after(tail, &["allowed"]).or(r.limit);
        }
        if let Some(i) = msg_text.find("maximum context length is ") {
            r.limit = number_after(&msg_text[i..], &["is "]).or(r.limit);
        }
        context_numbers(&msg_text, &mut r);
        r.limit = r.limit.or(ev.n_ctx);
        r.requested = r.requested.or(ev.n_prompt_tokens);
        // "context window exceeds limit (2013)": an error code in brackets, not the limit (MiniMax).
        if msg_text.contains("exceeds limit (")
            && r.limit
                .is_some_and(|l| msg_text.contains(&format!("limit ({l})")))
        {
            r.limit = None;
        }
        r.used = None;
        r.retry_after_ms = None;
        return r;
    }

    // 2. Billing and credit: no wait clears it.
    let hard_quota = said.signals(Signal::HardQuota);
    let soft_quota = said.signals(Signal::SoftQuota);
    let per_day_only = !ev.quota_ids.is_empty()
        && ev
            .quota_ids
            .iter()
            .any(|q| q.contains("perday") || q.contains("per_day"))
        && !ev
            .quota_ids
            .iter()
            .any(|q| q.contains("perminute") || q.contains("per_minute"));

    // 3. Rate-limit signals.
    let rate_signal = said.signals(Signal::RateLimit);

    // 4. Capacity.
    let overloaded = said.signals(Signal::Overloaded);
    let payload_cap = said.signals(Signal::PayloadCap);
    // A payload cap said in words (not only a 413, which some providers send for rate limits) outranks the rate
    // words it may share ("too many tokens in batch", "length limit exceeded").
    let payload_words = said.signals_in_body(Signal::PayloadCap);

    // The wait the response states, headers first. One of an hour or less is short: a daily cap that states one
    // (Groq's tokens per day, "try again in 23m58s") clears by waiting; "resets in 12h 34m" is a cap for the day.
    let wait = snap.retry_after_ms.or(stated_wait);
    let short_wait = wait.is_some_and(|ms| ms <= SHORT_WAIT_MS);

    // Order: billing (a credit or key cap, even one that states numbers), then a per-window budget the request can
    // never fit, then capacity, then rate limits.
    // A 402 (payment required) is the credit's limit, not a window's: "Prompt tokens limit exceeded: 23229 > 14796.
    // To increase, visit .../credits" (OpenRouter) is billing.
    let too_large_for_window = r
        .requested
        .zip(r.limit)
        .is_some_and(|(q, l)| q > l && l > 0)
        && (rate_signal || msg_text.contains("request too large"))
        && status_or != Some(402)
        && !hard_quota;

    if hard_quota {
        r.kind = RefusalKind::QuotaExhausted;
        r.retryable = false;
        r.reason = "a billing, credit or plan cap: no short wait clears it";
        if r.window.is_none() && has_any(&msg_text, &["monthly", "month"]) {
            r.window = Some(Window::Month);
        }
    } else if too_large_for_window
        || (msg_text.contains("request too large") && r.requested.is_some())
    {
        r.kind = RefusalKind::TooLarge;
        r.retryable = false;
        r.reason = "the request needs more than the whole window's budget: shrink it or route it elsewhere";
        if r.dimension.is_none() {
            r.dimension = Some(Dimension::Tokens);
        }
    } else if r.limit == Some(0) && (rate_signal || soft_quota) {
        // A free tier with `limit: 0`: nothing to wait for.
        r.kind = RefusalKind::QuotaExhausted;
        r.retryable = false;
        r.reason = "a limit of 0 (a free tier without this model): nothing to wait for";
    } else if soft_quota && wait.is_none() && r.window.is_none() {
        // "You exceeded your current quota, please check your plan and billing details" with nothing that says
        // a short window is involved: billing.
        r.kind = RefusalKind::QuotaExhausted;
        r.retryable = false;
        r.reason = "'exceeded your quota' with no wait and no short window stated: read as billing, not retried";
    } else if (per_day_only || (r.window == Some(Window::Day) && !short_wait))
        && (rate_signal || soft_quota)
    {
        // A daily limit with no short wait stated (Gemini's per-day quota ids, a gateway's free-model daily cap,
        // a tokens-per-day cap): only the day's end clears it, so it is not retried; the next target may serve.
        r.kind = RefusalKind::QuotaExhausted;
        r.retryable = false;
        r.window = Some(Window::Day);
        r.reason =
            "a daily cap with no wait of an hour or less stated: only the day's end clears it";
    } else if payload_words && status_or != Some(429) {
        r.kind = RefusalKind::TooLarge;
        r.retryable = false;
        r.window = None;
        r.reason = REASON_PAYLOAD;
    } else if overloaded && (r.dimension.is_none() || code_is("upstream_provider_shared_pool")) {
        r.kind = RefusalKind::Overloaded;
        r.retryable = true;
        r.reason = "the provider is over capacity: retry with backoff, or another target";
        // Capacity has no window of the caller's ("daily" in a host name is none).
        r.window = None;
    } else if rate_signal || soft_quota {
        r.retryable = true;
        r.reason = "a rate limit: wait and send again";
        r.kind = match r.dimension.or_else(|| exhausted_dimension(snap)) {
            Some(d) if d.counts_tokens() => RefusalKind::RateLimitTokens,
            Some(Dimension::Requests | Dimension::RequestsPerDay) => RefusalKind::RateLimitRequests,
            _ => RefusalKind::RateLimitOther,
        };
        if r.dimension.is_none() {
            r.dimension = match r.kind {
                RefusalKind::RateLimitTokens => Some(Dimension::Tokens),
                RefusalKind::RateLimitRequests => Some(Dimension::Requests),
                _ => None,
            };
        }
    } else if payload_cap {
        r.kind = RefusalKind::TooLarge;
        r.retryable = false;
        r.reason = REASON_PAYLOAD;
    } else {
        r.kind = RefusalKind::Other;
        // A server-side failure is worth another try, whether its status says so or it arrived as an error frame
        // inside a 200 stream (`{"type": "server_error"}`, Anthropic's `api_error`).
        r.retryable = said.signals(Signal::ServerError);
        if r.retryable {
            r.reason = "a server-side failure: worth another try";
        }
    }

    // The wait: headers first, then the body, then the reset of the exhausted dimension.
    r.retry_after_ms = wait.or_else(|| {
        if r.kind.is_rate_limit() {
            reset_for(snap, r.dimension)
        } else {
            None
        }
    });
    // When a rate limit might be a cap (its words are a balance's, a plan's, a week's or a month's) and the response
    // states no wait and names no short window, the answer leans safe: not retried.
    if r.kind.is_rate_limit()
        && !short_wait
        && r.window != Some(Window::Minute)
        && !has_any(
            &msg_text,
            &[
                "try again later",
                "retry later",
                "please wait",
                "concurren",
                "parallel",
            ],
        )
        && said.signals(Signal::CapWords)
    {
        r.kind = RefusalKind::QuotaExhausted;
        r.retryable = false;
        r.reason = "worded like a cap (balance, billing, plan, a week or a month) with no wait of an hour or \
                    less and no short window stated: it might be a quota, so it is not retried (leans safe)";
        if r.window.is_none()
            && has_any(
                &msg_text,
                &["monthly", "month", "billing period", "billing cycle"],
            )
        {
            r.window = Some(Window::Month);
        }
    }
    // A window longer than a minute that the headers say is spent (`x-ratelimit-remaining-requests-day: 0`, an
    // hour's, a month's) while the response states no wait: its reset is the wait, and one not stated or further
    // than an hour away is not waited out.
    if r.kind.is_rate_limit() && wait.is_none() {
        let spent = [
            (snap.requests_per_day, Some(Dimension::RequestsPerDay)),
            (snap.tokens_per_day, Some(Dimension::TokensPerDay)),
            (snap.long_window, None),
        ]
        .into_iter()
        .filter(|(d, _)| d.remaining == Some(0))
        .max_by_key(|(d, _)| d.reset_ms.unwrap_or(u64::MAX));
        if let Some((d, dimension)) = spent {
            r.retry_after_ms = r.retry_after_ms.max(d.reset_ms);
            if let Some(dim) = dimension {
                (r.dimension, r.window, r.limit) =
                    (dimension, Some(Window::Day), d.limit.or(r.limit));
                r.kind = match dim {
                    Dimension::RequestsPerDay => RefusalKind::RateLimitRequests,
                    _ => RefusalKind::RateLimitTokens,
                };
            }
            if d.reset_ms.is_none_or(|w| w > SHORT_WAIT_MS) {
                // A shorter window's reset is no wait for this one.
                r.retry_after_ms = d.reset_ms;
                r.kind = RefusalKind::QuotaExhausted;
                r.retryable = false;
                r.reason = "the headers say a window longer than a minute is spent, with no reset within the hour: \
                            not waited out";
            }
        }
    }
    // A daily window counts in the per-day dimensions.
    if r.window == Some(Window::Day) {
        r.dimension = match r.dimension {
            Some(Dimension::Tokens) => Some(Dimension::TokensPerDay),
            Some(Dimension::Requests) => Some(Dimension::RequestsPerDay),
            d => d,
        };
    }
    // An unset limit written as the largest integer (LiteLLM's 9223372036854775807) is no limit.
    if r.limit.is_some_and(|l| l >= UNSET_LIMIT) {
        r.limit = None;
    }
    if r.limit.is_none() && r.kind.is_rate_limit() {
        r.limit = match r.dimension {
            // The token bucket that ran out (Anthropic's input tokens at 0 while the combined count has room),
            // else the combined one.
            Some(Dimension::Tokens) => [snap.input_tokens, snap.output_tokens, snap.tokens]
                .into_iter()
                .find(|d| d.remaining == Some(0) && d.limit.is_some())
                .map_or(snap.tokens.limit.or(snap.input_tokens.limit), |d| d.limit),
            Some(Dimension::Requests) => snap.requests.limit,
            _ => None,
        };
    }
    r
}

/// Limits at or above this are a sentinel for "unset" (2^53: no provider's budget comes near it).
const UNSET_LIMIT: u64 = 1 << 53;

/// The counter a limiter that names all of them says is at or over its limit (`current tpm: 12260, tpm limit:
/// 5000`): its dimension, its limit (none when the limit is negative, a misconfiguration) and its count. None when no
/// counter, or more than one, is over.
fn crossed_counter(text: &str) -> Option<(Dimension, Option<u64>, u64)> {
    let mut crossed = None;
    for (current, key, dimension) in [
        ("current tpm: ", "tpm limit: ", Dimension::Tokens),
        ("current rpm: ", "rpm limit: ", Dimension::Requests),
    ] {
        let Some(used) = number_after(text, &[current]) else {
            continue;
        };
        let Some(at) = text.find(key).map(|i| i + key.len()) else {
            continue;
        };
        let limit = if text[at..].starts_with('-') {
            None
        } else {
            match number_at(text.as_bytes(), at) {
                Some((l, _)) => Some(l),
                None => continue,
            }
        };
        if limit.is_none_or(|l| used >= l && l < UNSET_LIMIT) {
            if crossed.is_some() {
                return None;
            }
            crossed = Some((dimension, limit, used));
        }
    }
    crossed
}

/// `N > M` right after the first `key` in `text`: what was asked and the limit.
fn over_after(text: &str, key: &str) -> Option<(u64, u64)> {
    let b = text.as_bytes();
    let (q, j) = number_at(b, text.find(key)? + key.len())?;
    if !text[j..].starts_with(" > ") {
        return None;
    }
    Some((q, number_at(b, j + 3)?.0))
}

/// Context errors that state the window's size after one phrase and what was asked after another: `(limit after,
/// requested after)`, read in this order by [`context_numbers`], a later match winning.
const CONTEXT_PAIRS: &[(&[&str], &[&str])] = &[
    // "expected a value <= 32768, but got 64000 instead" (Volcengine Ark)
    (&["expected a value <= "], &["but got "]),
    // "Input length 1048826 exceeds the maximum length 1048566" (Volcengine Ark)
    (&["exceeds the maximum length "], &["input length "]),
    // "Requested tokens (2285) exceed context window of 2048" (llama-cpp-python); "Prompt too long: 41911 tokens
    // exceeds max context window of 32768 tokens" (oMLX)
    (
        &[
            "exceed context window of ",
            "exceeds max context window of ",
            "model's context window of ",
        ],
        &["requested tokens (", "prompt too long: "],
    ),
    // "number of input tokens (167594) has exceeded max_prompt_tokens (163840) limit" (SiliconFlow)
    (
        &["has exceeded max_prompt_tokens ("],
        &["number of input tokens ("],
    ),
    // "The prompt is too long: 264613, model maximum context length: 262141" (Fireworks)
    (
        &["model maximum context length: "],
        &["prompt is too long: "],
    ),
    // "Input length (160062 tokens) exceeds the maximum allowed length (59862 tokens)." (SGLang)
    (&["maximum allowed length ("], &["input length ("]),
    // "trying to keep the first 111490 tokens ... loaded with context length of only 32768 tokens" (LM Studio)
    (&["context length of only "], &["keep the first "]),
    // "cannot truncate prompt with n_keep (15028) >= n_ctx (7424)" (llama.cpp)
    // "max_tokens=131072 cannot be greater than max_model_len=max_total_tokens=28672" (vLLM)
    (&["max_model_len=", "max_total_tokens="], &["max_tokens="]),
    // "(n_keep: 13055>= n_ctx: 4096)" (LM Studio)
    (&["n_ctx ", "n_ctx: "], &["n_keep ", "n_keep: "]),
    // "request (355724 tokens) exceeds the available context size (262144 tokens)" (llama.cpp server)
    (&["available context size "], &["request "]),
    // "expected maxlength: 42000, actual: 46735" (Bedrock's schema check, in characters)
    (&["expected maxlength"], &["actual"]),
];

/// The numbers of a context-window refusal worded as token counts: what the request needs (`requested`) and what the
/// model holds (`limit`).
fn context_numbers(text: &str, r: &mut Refusal) {
    // "max_tokens is too large: 6000. This model supports at most 4096 completion tokens" (OpenAI)
    if let Some(n) = number_after(text, &["max_tokens is too large: "]) {
        r.requested = Some(n);
        r.limit = number_after(text, &["supports at most "]).or(r.limit);
    }
    // "max_tokens: 128001 > 64000, which is the maximum allowed number of output tokens" (Anthropic)
    if let Some((q, l)) = over_after(text, "max_tokens: ") {
        r.requested = Some(q);
        r.limit = Some(l);
    }
    // "exceeds the model limit of 4096" (Bedrock); "the valid range of max_tokens is [1, 8192]" (DeepSeek), "Range
    // of max_tokens should be [1, 8192]" (DashScope); "less than or equal to `16384`", "must be less than or equal to
    // 8000" (Groq); "max length:8192" (Moonshot)
    if let Some(n) = number_after(
        text,
        &[
            "the model limit ",
            "max_tokens is [1, ",
            "max_tokens should be [1, ",
            "less than or equal to `",
            "must be less than or equal to ",
            "max length:",
        ],
    ) {
        r.limit = Some(n);
    }
    // A window's size after one phrase and what was asked after another (`CONTEXT_PAIRS`).
    for (limit_after, requested_after) in CONTEXT_PAIRS {
        if let Some(n) = number_after(text, limit_after) {
            r.limit = Some(n);
            r.requested = number_after(text, requested_after).or(r.requested);
        }
    }
    // "max_tokens (10000) cannot exceed 8192" (Databricks)
    if let Some(n) = number_after(text, &["max_tokens ("]) {
        if let Some(l) = text
            .find("max_tokens (")
            .and_then(|i| number_after(&text[i..], &[") cannot exceed "]))
        {
            r.requested = Some(n);
            r.limit = Some(l);
        }
    }
    // "Range of input length should be [1, 204800]" (DashScope)
    if let Some(n) = number_after(text, &["range of input length should be [1, "]) {
        r.limit = Some(n);
    }
    // "The maximum context length of DeepSeek-V3-0324 is 32768. However, answering your request will take 39732
    // tokens" (SambaNova): the model's name stands between the phrase and its number.
    if let Some(n) = number_after(text, &["answering your request will take "]) {
        r.requested = Some(n);
        if let Some(i) = text.find("maximum context length of ") {
            r.limit = number_after(&text[i..], &[" is "]).or(r.limit);
        }
    }
    // "...for a total of at least 262145 tokens" (vLLM, OpenAI): the total, not the output it requested.
    if let Some(n) = number_after(text, &["for a total of at least ", "for a total of "]) {
        r.requested = Some(n);
    }
    // "maximum prompt length is 500000 but the request contains 907154 tokens" (xAI)
    if let Some(n) = number_after(text, &["request contains "]) {
        r.requested = Some(n);
        r.limit = number_after(text, &["prompt length is "]).or(r.limit);
    }
    // "Current length is 42328 while limit is 40000" (Cerebras)
    if let Some(n) = number_after(text, &["current length is "]) {
        r.requested = Some(n);
    }
    if r.limit.is_none() {
        r.limit = number_after(text, &["cannot exceed ", "less than or equal to "]);
    }
    // "total number of tokens in the prompt cannot exceed 4081 - received 4292" (Cohere); "must be less than or
    // equal to 4096, the maximum output for this model - received 8192"
    if let Some(i) = text.find(" - received ") {
        let head = &text[..i];
        if let Some(j) = head.rfind(|c: char| !c.is_ascii_digit() && c != ',') {
            r.limit = number_at(head.as_bytes(), j + 1)
                .map(|(n, _)| n)
                .or(r.limit);
        }
        r.requested = number_after(&text[i..], &["received "]).or(r.requested);
    }
    // "your request has 24235 input tokens (64000 > 64001 - 24235)" (vLLM: the output cap, the context, the input)
    if let Some(i) = text.find(" input tokens (") {
        let b = text.as_bytes();
        if let Some((out, j)) = number_at(b, i + " input tokens (".len()) {
            if text[j..].starts_with(" > ") {
                if let Some((ctx, m)) = number_at(b, j + 3) {
                    if text[m..].starts_with(" - ") {
                        if let Some((input, _)) = number_at(b, m + 3) {
                            r.requested = Some(out.saturating_add(input));
                            r.limit = Some(ctx);
                        }
                    }
                }
            }
        }
    }
    // "Token sequence length is longer than the specified maximum sequence length for this model (1336 > 512)"
    // (watsonx)
    if let Some((q, l)) = over_after(text, "maximum sequence length for this model (") {
        r.requested = Some(q);
        r.limit = Some(l);
    }
    // "exceed context limit: 199759 + 8192 > 200000" (Anthropic)
    if let Some(i) = text.find("context limit: ") {
        let b = text.as_bytes();
        if let Some((a, j)) = number_at(b, i + "context limit: ".len()) {
            let rest = &text[j..];
            if let Some(k) = rest.find("+ ") {
                if let Some((o, m)) = number_at(b, j + k + 2) {
                    r.requested = Some(a.saturating_add(o));
                    r.limit = number_after(&text[m..], &["> "]).or(r.limit);
                }
            }
        }
    }
    // "must be <= 2048. given: 2019 `inputs` tokens and 30 `max_new_tokens`" (text-generation-inference)
    if let Some(i) = text.find("must be <= ") {
        let tail = &text[i..];
        r.limit = number_after(tail, &["<= "]).or(r.limit);
        if let Some(g) = tail.find("given: ") {
            let b = tail.as_bytes();
            if let Some((a, j)) = number_at(b, g + "given: ".len()) {
                let and = tail[j..].find(" and ").map(|k| j + k + " and ".len());
                let o = and.and_then(|k| number_at(b, k)).map_or(0, |(o, _)| o);
                r.requested = Some(a.saturating_add(o));
            }
        }
    }
    // "`inputs` must have less than 4096 tokens. given: 4545"
    if let Some(i) = text.find("must have less than ") {
        let tail = &text[i..];
        r.limit = number_after(tail, &["than "]).or(r.limit);
        r.requested = number_after(tail, &["given: "]).or(r.requested);
    }
    // "input length 6491 exceeds context length 1500" (LM Studio); "the prompt (total length 25938) is too long to
    // fit into the model (context length 4096)" (vLLM)
    if text.contains("context length ") {
        if let Some(n) = number_after(text, &["input length ", "total length "]) {
            r.requested = Some(n);
            r.limit = number_after(text, &["context length "]).or(r.limit);
        }
    }
    // "the input (61709 tokens) is longer than the model's context length (40960 tokens)" (SGLang); "the decoder
    // prompt (length 10127) is longer than the maximum model length of 8192" (vLLM)
    if text.contains("is longer than the") {
        r.requested = number_after(text, &["the input ", "prompt (length "]).or(r.requested);
        r.limit = number_after(text, &["context length ", "maximum model length "]).or(r.limit);
    }
    // "prompt token count of 93854 exceeds the limit of 90000" (GitHub Copilot)
    if let Some(n) = number_after(text, &["prompt token count "]) {
        r.requested = Some(n);
    }
    // "length of prompt_tokens (68957) must be less than max_seq_len (65536)"
    if let Some(i) = text.find("of prompt_tokens (") {
        let tail = &text[i..];
        r.requested = number_after(tail, &["prompt_tokens ("]).or(r.requested);
        r.limit = number_after(tail, &["max_seq_len ("]).or(r.limit);
    }
}

/// The dimension whose `remaining` header is zero while the other's is not.
fn exhausted_dimension(snap: &RateLimitSnapshot) -> Option<Dimension> {
    let tok = [
        snap.tokens.remaining,
        snap.input_tokens.remaining,
        snap.output_tokens.remaining,
    ]
    .contains(&Some(0));
    let req = snap.requests.remaining == Some(0);
    match (tok, req) {
        (true, false) => Some(Dimension::Tokens),
        (false, true) => Some(Dimension::Requests),
        _ => None,
    }
}

fn reset_for(snap: &RateLimitSnapshot, dim: Option<Dimension>) -> Option<u64> {
    // Without a stated dimension, any dimension not known to have room left may be the one that refused.
    let candidate = |remaining: Option<u64>, this: Dimension| {
        dim == Some(this) || remaining == Some(0) || (dim.is_none() && remaining.is_none())
    };
    let tokens = [snap.tokens, snap.input_tokens, snap.output_tokens]
        .iter()
        .filter(|d| candidate(d.remaining, Dimension::Tokens))
        .filter_map(|d| d.reset_ms)
        .max();
    let requests = if candidate(snap.requests.remaining, Dimension::Requests) {
        snap.requests.reset_ms
    } else {
        None
    };
    let named = match dim {
        Some(Dimension::Tokens) => tokens,
        Some(Dimension::Requests) => requests,
        // A refusal names tokens or requests per window, or nothing.
        _ => tokens.max(requests),
    };
    // A window whose headers do not say what it counts (`x-ratelimit-reset`, `ratelimit-reset`): its reset when
    // nothing named gave one and it is the one that ran out (or may be).
    let unnamed = &snap.unnamed;
    named.or(match unnamed.remaining {
        Some(0) => unnamed.reset_ms,
        None if dim.is_none() => unnamed.reset_ms,
        _ => None,
    })
}
