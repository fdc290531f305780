//! A refusal body posted or logged as a Python literal: `str()` of an SDK's exception prints the provider's error
//! as a `dict` (`Error code: 429 - {'error': {'message': 'Rate limit exceeded: free-models-per-day', 'code': 429}}`),
//! with single-quoted strings (double-quoted where the text holds an apostrophe) and `True`, `False`, `None`.
//! [`to_json`] rewrites such a literal as JSON text, so the body is read like any other.
//!
//! Bounded and total: one pass over the input, output at most a few times its length, `None` when the text is not
//! a literal of this shape (an unclosed string, a stray character outside strings).

/// The JSON text for the Python literal `t` (a `dict` or `list`, from its opening bracket to the end of `t`, any text
/// after the literal's close dropped), or `None` when `t` is not one.
pub(crate) fn to_json(t: &str) -> Option<String> {
    let mut out = String::with_capacity(t.len() + 16);
    let mut chars = t.char_indices().peekable();
    let mut depth = 0u32;
    while let Some((i, c)) = chars.next() {
        match c {
            '{' | '[' => {
                depth += 1;
                out.push(c);
            }
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                out.push(c);
                if depth == 0 {
                    return Some(out);
                }
            }
            ':' | ',' => out.push(c),
            c if c.is_whitespace() => out.push(c),
            '\'' | '"' => string(c, &mut chars, &mut out)?,
            c if c.is_ascii_digit() || c == '-' || c == '.' => out.push(c),
            c if c.is_ascii_alphabetic() => {
                let rest = &t[i..];
                let (word, json) = [("True", "true"), ("False", "false"), ("None", "null")]
                    .into_iter()
                    .find(|(w, _)| rest.starts_with(w))?;
                out.push_str(json);
                for _ in 1..word.len() {
                    chars.next();
                }
            }
            _ => return None,
        }
        if depth == 0 {
            // Only a dict or list is read.
            return None;
        }
    }
    None
}

/// Copies a Python string literal opened by `quote` as a JSON string: `\'` and `\"` unescaped, `\xNN` as `\u00NN`,
/// the JSON escapes kept, a raw control character (a wrapped line pasted from a terminal) escaped.
fn string(
    quote: char,
    chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
    out: &mut String,
) -> Option<()> {
    out.push('"');
    loop {
        let (_, c) = chars.next()?;
        match c {
            c if c == quote => break,
            '\\' => {
                let (_, e) = chars.next()?;
                match e {
                    '\'' => out.push('\''),
                    '"' => out.push_str("\\\""),
                    '\\' | 'n' | 't' | 'r' | 'b' | 'f' | '/' => {
                        out.push('\\');
                        out.push(e);
                    }
                    'u' => out.push_str("\\u"),
                    'x' => {
                        let (_, a) = chars.next()?;
                        let (_, b) = chars.next()?;
                        if !(a.is_ascii_hexdigit() && b.is_ascii_hexdigit()) {
                            return None;
                        }
                        out.push_str("\\u00");
                        out.push(a);
                        out.push(b);
                    }
                    // An escape JSON does not know (`\a`, `\0`): the backslash as a character.
                    e => {
                        out.push_str("\\\\");
                        out.push(e);
                    }
                }
            }
            '"' => out.push_str("\\\""),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    Some(())
}

#[cfg(test)]
mod tests {
    use super::to_json;
    use serde_json::{json, Value};

    fn parse(t: &str) -> Option<Value> {
        to_json(t).map(|j| serde_json::from_str(&j).expect("valid JSON"))
    }

    #[test]
    fn reads_a_dict_with_both_quotes_and_the_constants() {
        let v = parse(
            r#"{'error': {'message': "We're busy", 'code': 429, 'ok': False, 'x': None, 'y': True, 'r': [1.5, -2]}}"#,
        );
        assert_eq!(
            v,
            Some(
                json!({"error": {"message": "We're busy", "code": 429, "ok": false, "x": null, "y": true, "r": [1.5, -2]}})
            )
        );
    }

    #[test]
    fn unescapes_python_escapes_and_escapes_what_json_needs() {
        let v = parse("{'m': 'it\\'s \"q\" \\x41 \\u00e9 a\nb \\\\ \\a'}");
        assert_eq!(v, Some(json!({"m": "it's \"q\" A é a\nb \\ \\a"})));
    }

    #[test]
    fn drops_what_follows_the_literal() {
        assert_eq!(parse("{'a': 1} trailing"), Some(json!({"a": 1})));
    }

    #[test]
    fn refuses_what_is_not_a_literal() {
        for t in [
            "{'a': 1",
            "{'a': 'unclosed}",
            "{'a': nope}",
            "plain text",
            "'just a string'",
            "{'a': '\\x4'}",
            "",
        ] {
            assert_eq!(to_json(t), None, "{t:?}");
        }
    }
}
