//! `explain-response`: one response read the whole way (headers → refusal → retry) into the JSON object the CLI
//! prints and the npm package returns.

use crate::headers::{Headers, RateLimitSnapshot};
use crate::refusal::{classify_body, classify_with_snapshot, find_stream_error};
use crate::retry::{next_action, RetryPolicy};
use crate::time::parse_http_date_ms;
use serde_json::Value;
use std::fmt;

/// Why an `explain-response` input could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExplainError {
    /// Not valid JSON: serde_json's message.
    Json(String),
    /// Valid JSON, but not an object.
    NotAnObject,
    /// A field of the wrong type: which, and what it must be.
    Field(&'static str, &'static str),
    /// The `headers` object could not be read.
    Headers(String),
}

impl fmt::Display for ExplainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExplainError::Json(e) => write!(f, "input is not valid JSON: {e}"),
            ExplainError::NotAnObject => f.write_str(
                "input must be one JSON object {\"status\": N|null, \"headers\": {...}, \"body\": \"...\"|null, \"stream\": bool}",
            ),
            ExplainError::Field(name, what) => write!(f, "field {name:?} must be {what}"),
            ExplainError::Headers(e) => write!(f, "field \"headers\": {e}"),
        }
    }
}

impl std::error::Error for ExplainError {}

/// Implements `llm-preflight explain-response`: reads `{"status": N|null, "headers": {...}, "body": "<raw
/// text>"|null, "stream": bool}` (other fields ignored, `stream` optional) and returns
/// `{"kind", "retryable", "retry_after_ms", "limit", "requested", "used", "dimension", "window", "reason", "action"}`, in
/// that order, with `action` from [`next_action`] for attempt 0, no deadline and the default policy.
///
/// There is no clock here: an HTTP-date `retry-after` or an Anthropic reset timestamp is measured from the
/// optional input field `now_ms` (Unix milliseconds), else from the response's own `date` header; without
/// either it is not converted. The jitter draw is fixed at 0.5 so the output is reproducible.
pub fn explain(input_json: &str) -> Result<Value, ExplainError> {
    let v: Value =
        serde_json::from_str(input_json).map_err(|e| ExplainError::Json(e.to_string()))?;
    let obj = v.as_object().ok_or(ExplainError::NotAnObject)?;
    let status = match obj.get("status") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(s) if (100..=999).contains(&s) => Some(s as u16),
            _ => {
                return Err(ExplainError::Field(
                    "status",
                    "an HTTP status code (100-999) or null",
                ))
            }
        },
        Some(_) => {
            return Err(ExplainError::Field(
                "status",
                "an HTTP status code (100-999) or null",
            ))
        }
    };
    let headers = match obj.get("headers") {
        None | Some(Value::Null) => Headers::new(),
        Some(h @ Value::Object(_)) => {
            Headers::from_json_value(h).map_err(|e| ExplainError::Headers(e.to_string()))?
        }
        Some(_) => {
            return Err(ExplainError::Field(
                "headers",
                "an object of header names to values",
            ))
        }
    };
    let body = match obj.get("body") {
        None | Some(Value::Null) => "",
        Some(Value::String(s)) => s.as_str(),
        Some(_) => {
            return Err(ExplainError::Field(
                "body",
                "a string (the raw body) or null",
            ))
        }
    };
    let stream = match obj.get("stream") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ExplainError::Field("stream", "true or false")),
    };
    let now_ms = match obj.get("now_ms") {
        None | Some(Value::Null) => headers
            .get("date")
            .and_then(|d| parse_http_date_ms(d, 0))
            .and_then(|ms| u64::try_from(ms).ok()),
        Some(Value::Number(n)) => Some(
            n.as_u64()
                .ok_or(ExplainError::Field("now_ms", "Unix milliseconds"))?,
        ),
        Some(_) => return Err(ExplainError::Field("now_ms", "Unix milliseconds")),
    };
    // Without a reference time, date-valued headers are left out rather than measured from the epoch.
    let pairs: Vec<(&str, &str)> = headers
        .iter()
        .filter(|(n, v)| now_ms.is_some() || !is_date_valued(n, v))
        .collect();
    let now = now_ms.unwrap_or(0);
    let snap = RateLimitSnapshot::from_headers(pairs, now).snapshot;
    let refusal = if stream {
        match find_stream_error(body) {
            Some(se) => {
                let mut r = classify_body(status.filter(|s| *s != 200), &snap, &se.payload);
                r.output_delivered = se.output_delivered;
                r
            }
            None => classify_with_snapshot(status, &snap, body),
        }
    } else {
        classify_with_snapshot(status, &snap, body)
    };
    let action = next_action(&refusal, 0, &RetryPolicy::default(), now, 0.5);
    Ok(serde_json::json!({
        "kind": refusal.kind,
        "retryable": refusal.retryable,
        "retry_after_ms": refusal.retry_after_ms,
        "limit": refusal.limit,
        "requested": refusal.requested,
        "used": refusal.used,
        "dimension": refusal.dimension,
        "window": refusal.window,
        "reason": refusal.reason,
        "action": action,
    }))
}

fn is_date_valued(name: &str, value: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    (n == "retry-after" && !value.trim().starts_with(|c: char| c.is_ascii_digit()))
        || (n.starts_with("anthropic-ratelimit-") && n.ends_with("-reset"))
}
