//! Errors inside streamed bodies: an SSE `data:` frame or `event: error`, an Anthropic `{"type": "error"}` frame,
//! newline-delimited JSON with an `error` member, and whether output had been delivered before it.

use serde_json::Value;

/// How much of a non-JSON body (or of one message) is read for text analysis.
pub const MAX_TEXT_BYTES: usize = 64 * 1024;

/// The longest prefix of `s` of at most `max` bytes that ends on a character boundary.
pub(super) fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

pub(super) fn looks_like_stream(body: &str) -> bool {
    let head = cut(body.trim_start(), 4096);
    head.starts_with("data:")
        || head.starts_with("event:")
        || head.contains("\ndata:")
        || head.starts_with(':')
}

/// An error found inside a streamed body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamError {
    /// The error frame's payload (usually JSON), ready for [`classify`](crate::classify).
    pub payload: String,
    /// Whether content had been delivered before the error (a retry would repeat it).
    pub output_delivered: bool,
    /// The SSE event name of the error frame, if it had one (`error`).
    pub event: Option<String>,
}

/// Finds an error inside a streamed body: SSE `data: {"error": ...}`, `event: error` followed by data, an
/// Anthropic `{"type": "error", ...}` frame, or newline-delimited JSON with an `error` member. Reports whether
/// content had already been delivered before it. One pass, linear in the body's length; `None` when the stream
/// carries no error.
pub fn find_stream_error(body: &str) -> Option<StreamError> {
    let mut event: Option<&str> = None;
    let mut delivered = false;
    let mut data = String::new();
    let mut event_for_data: Option<&str> = None;
    // SSE: an event is a group of lines ended by a blank line; `data:` lines concatenate.
    let mut lines = body.split('\n').peekable();
    loop {
        let line = lines.next();
        let line = line.map(|l| l.strip_suffix('\r').unwrap_or(l));
        let end_of_event = match line {
            None => true,
            Some(l) => l.is_empty(),
        };
        if let Some(l) = line {
            if let Some(v) = l.strip_prefix("event:") {
                event = Some(v.trim());
            } else if let Some(v) = l.strip_prefix("data:") {
                if !data.is_empty() {
                    data.push('\n');
                }
                if data.len() < 4 * MAX_TEXT_BYTES {
                    data.push_str(v.strip_prefix(' ').unwrap_or(v));
                }
                event_for_data = event;
            } else if !l.starts_with(':')
                && !l.trim().is_empty()
                && data.is_empty()
                && event.is_none()
            {
                // Newline-delimited JSON (no SSE framing): each line is one frame.
                let t = l
                    .trim()
                    .trim_start_matches('[')
                    .trim_start_matches(',')
                    .trim_end_matches([',', ']']);
                if t.starts_with('{') {
                    if let Some(found) = inspect_frame(t, None, &mut delivered) {
                        return Some(found);
                    }
                }
                if lines.peek().is_none() {
                    break;
                }
                continue;
            }
        }
        if end_of_event && (!data.is_empty() || event_for_data.is_some() || event.is_some()) {
            let ev = event_for_data.or(event);
            if !data.is_empty() || ev == Some("error") {
                if let Some(found) = inspect_frame(&data, ev, &mut delivered) {
                    return Some(found);
                }
            }
            data.clear();
            event = None;
            event_for_data = None;
        }
        if line.is_none() {
            break;
        }
    }
    None
}

/// Looks at one frame: returns the error it carries, or notes whether it delivered content.
pub(crate) fn inspect_frame(
    data: &str,
    event: Option<&str>,
    delivered: &mut bool,
) -> Option<StreamError> {
    inspect_frame_value(data, event, delivered).0
}

/// [`inspect_frame`], handing back the frame's JSON too (a caller reading the usage need not parse it again).
pub(crate) fn inspect_frame_value(
    data: &str,
    event: Option<&str>,
    delivered: &mut bool,
) -> (Option<StreamError>, Option<Value>) {
    let d = data.trim();
    if d == "[DONE]" {
        return (None, None);
    }
    let is_error_event = event.is_some_and(|e| e.eq_ignore_ascii_case("error"));
    let v: Option<Value> = if d.starts_with('{') || d.starts_with('[') {
        serde_json::from_str(d).ok()
    } else {
        None
    };
    let found = |delivered: bool| StreamError {
        payload: d.to_string(),
        output_delivered: delivered,
        event: event.map(str::to_string),
    };
    if is_error_event {
        return (Some(found(*delivered)), v);
    }
    let Some(v) = v else {
        return (None, None);
    };
    let obj = match &v {
        Value::Object(o) => o,
        Value::Array(a) => match a.first() {
            Some(Value::Object(o)) => o,
            _ => return (None, Some(v)),
        },
        _ => return (None, Some(v)),
    };
    let is_error = obj.get("error").is_some_and(|e| !e.is_null())
        || obj.get("type").and_then(Value::as_str) == Some("error")
        || obj.get("object").and_then(Value::as_str) == Some("error");
    if is_error {
        return (Some(found(*delivered)), Some(v));
    }
    if frame_has_output(&v) {
        *delivered = true;
    }
    (None, Some(v))
}

/// Whether a streamed frame carries content for the user (text or a tool call).
fn frame_has_output(v: &Value) -> bool {
    let nonempty = |x: Option<&Value>| match x {
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(_)) => true,
        _ => false,
    };
    // OpenAI-compatible chat completions.
    if let Some(choices) = v.get("choices").and_then(Value::as_array) {
        for c in choices.iter().take(16) {
            let delta = c.get("delta").or_else(|| c.get("message"));
            if let Some(d) = delta {
                if nonempty(d.get("content"))
                    || nonempty(d.get("tool_calls"))
                    || nonempty(d.get("reasoning_content"))
                {
                    return true;
                }
            }
            if nonempty(c.get("text")) {
                return true;
            }
        }
        return false;
    }
    // Anthropic messages.
    if v.get("type").and_then(Value::as_str) == Some("content_block_delta") {
        return true;
    }
    // OpenAI Responses.
    if let Some(t) = v.get("type").and_then(Value::as_str) {
        if t.ends_with(".delta") && t.starts_with("response.") {
            return nonempty(v.get("delta"));
        }
    }
    // Gemini.
    if let Some(cands) = v.get("candidates").and_then(Value::as_array) {
        for c in cands.iter().take(16) {
            if let Some(parts) = c.pointer("/content/parts").and_then(Value::as_array) {
                if parts
                    .iter()
                    .any(|p| nonempty(p.get("text")) || nonempty(p.get("functionCall")))
                {
                    return true;
                }
            }
        }
    }
    false
}
