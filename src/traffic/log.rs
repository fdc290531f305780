//! One logged request: what a gateway's log line says ([`parse_row`]), read strictly, with a reason for every line
//! that cannot be used.

use crate::content::ContentKind;
use crate::time::parse_rfc3339_ms;
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// One logged request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogRow {
    /// The prompt text, where the gateway keeps it.
    pub text: Option<String>,
    /// Its length in characters, where the text is not kept.
    pub chars: Option<u64>,
    /// What the text was, where the text is not kept.
    pub content: Option<ContentKind>,
    /// The provider's reported prompt (input) tokens.
    pub prompt_tokens: Option<u64>,
    /// The provider's reported completion (output) tokens.
    pub completion_tokens: Option<u64>,
    /// The request's output cap.
    pub max_tokens: Option<u64>,
    /// The model asked for.
    pub model: Option<String>,
    /// The gateway's route.
    pub route: Option<String>,
    /// The HTTP status the provider answered.
    pub status: Option<u16>,
    /// When (Unix milliseconds).
    pub ts_ms: Option<i64>,
}

impl LogRow {
    /// The row's length in characters: counted from the text, else as logged.
    pub fn char_count(&self) -> Option<u64> {
        match &self.text {
            Some(t) => Some(t.chars().count() as u64),
            None => self.chars,
        }
    }
}

/// Why a log line could not be used. Counted and reported by line number, never fatal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowError(pub String);

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RowError {}

pub(super) fn bad(msg: impl Into<String>) -> RowError {
    RowError(msg.into())
}

fn count(v: &Value, key: &str) -> Result<Option<u64>, RowError> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(x) => match x.as_f64() {
            Some(f) if f.is_finite() && f >= 0.0 && f.fract() == 0.0 && f < 9.0e15 => {
                Ok(Some(f as u64))
            }
            _ => Err(bad(format!("`{key}` must be a whole number ≥ 0"))),
        },
    }
}

fn string(v: &Value, key: &str) -> Result<Option<String>, RowError> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(bad(format!("`{key}` must be a string"))),
    }
}

/// Reads a timestamp: Unix seconds (below 10^11) or milliseconds, or an RFC 3339 date.
pub fn parse_ts(v: &Value) -> Result<i64, RowError> {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.is_finite() && f.abs() < 1e11 => Ok((f * 1000.0).round() as i64),
            Some(f) if f.is_finite() && f.abs() < 1e14 => Ok(f.round() as i64),
            _ => Err(bad(
                "`ts` must be Unix seconds or milliseconds, or an RFC 3339 date",
            )),
        },
        Value::String(s) => parse_rfc3339_ms(s.trim())
            .and_then(|ms| i64::try_from(ms).ok())
            .ok_or_else(|| bad(format!("`ts` \"{s}\" is not an RFC 3339 date"))),
        _ => Err(bad("`ts` must be a number or an RFC 3339 string")),
    }
}

/// Parses one log line. Blank lines are `Ok(None)`.
pub fn parse_row(line: &str) -> Result<Option<LogRow>, RowError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let v: Value = serde_json::from_str(line).map_err(|e| bad(format!("not JSON: {e}")))?;
    if !v.is_object() {
        return Err(bad("not a JSON object"));
    }
    let content = match string(&v, "content")? {
        None => None,
        Some(k) => Some(ContentKind::from_name(&k).ok_or_else(|| {
            let names: Vec<&str> = ContentKind::ALL.iter().map(|k| k.name()).collect();
            bad(format!(
                "unknown `content` \"{k}\" (one of {})",
                names.join(", ")
            ))
        })?),
    };
    let status = match count(&v, "status")? {
        None => None,
        Some(s) if (100..=599).contains(&s) => Some(s as u16),
        Some(s) => return Err(bad(format!("`status` {s} is not an HTTP status"))),
    };
    let ts_ms = match v.get("ts") {
        None | Some(Value::Null) => None,
        Some(t) => Some(parse_ts(t)?),
    };
    Ok(Some(LogRow {
        text: string(&v, "text")?,
        chars: count(&v, "chars")?,
        content,
        prompt_tokens: count(&v, "prompt_tokens")?,
        completion_tokens: count(&v, "completion_tokens")?,
        max_tokens: count(&v, "max_tokens")?,
        model: string(&v, "model")?,
        route: string(&v, "route")?,
        status,
        ts_ms,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::iso_hour;

    #[test]
    fn rows_parse_or_say_why() {
        let r = parse_row(
            r#"{"text":"hi","prompt_tokens":3,"ts":"2026-11-30T03:00:00Z","status":200}"#,
        )
        .unwrap()
        .unwrap();
        assert_eq!(r.prompt_tokens, Some(3));
        assert_eq!(r.ts_ms, Some(1_796_007_600_000));
        assert_eq!(iso_hour(r.ts_ms.unwrap()), "2026-11-30T03:00Z");
        assert_eq!(parse_row("  ").unwrap(), None);
        for (line, needle) in [
            ("{", "not JSON"),
            ("[1]", "not a JSON object"),
            (r#"{"prompt_tokens":-1}"#, "prompt_tokens"),
            (r#"{"prompt_tokens":1.5}"#, "prompt_tokens"),
            (r#"{"chars":"10"}"#, "chars"),
            (r#"{"content":"poetry"}"#, "poetry"),
            (r#"{"status":99}"#, "status"),
            (r#"{"ts":"yesterday"}"#, "ts"),
            (r#"{"ts":1e300}"#, "ts"),
        ] {
            let e = parse_row(line).unwrap_err().0;
            assert!(e.contains(needle), "{line}: {e}");
        }
        assert_eq!(
            parse_row(r#"{"ts":1700000000}"#).unwrap().unwrap().ts_ms,
            Some(1_700_000_000_000)
        );
        assert_eq!(
            parse_row(r#"{"ts":1700000000123}"#).unwrap().unwrap().ts_ms,
            Some(1_700_000_000_123)
        );
    }
}
