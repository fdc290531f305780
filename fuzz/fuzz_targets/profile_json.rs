//! Profile files: arbitrary text, and (inputs starting with `!`) valid files with one value replaced by an
//! arbitrary float (NaN, infinities, huge, negative, subnormal), read by `Profile::from_json`. A file that loads must price every text within its
//! own band and write itself back to an equal profile.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_preflight::{estimate, estimate_chars, ContentKind, CustomProfile, Profile};
use serde_json::Value;
use std::sync::OnceLock;

/// The shipped profiles as parsed files, made once (the edits start from these).
fn bases() -> &'static Vec<Value> {
    static B: OnceLock<Vec<Value>> = OnceLock::new();
    B.get_or_init(|| {
        Profile::ALL
            .iter()
            .map(|p| serde_json::from_str(&p.to_json()).unwrap())
            .collect()
    })
}

fn exercise(json: &str, text: &str) {
    match Profile::from_json(json) {
        Ok(p) => {
            for t in [
                text,
                "",
                "hello world",
                "{\"a\": [1, 2]}",
                "東京は今日も晴れ",
            ] {
                let e = estimate(t, &p);
                assert!(e.low <= e.tokens && e.tokens <= e.high, "{e:?}");
                assert!(t.is_empty() || e.tokens >= 1);
            }
            for k in ContentKind::ALL {
                let e = estimate_chars(text.len() as u64, k, &p);
                assert!(e.low <= e.tokens && e.tokens <= e.high, "{e:?}");
            }
            let back = CustomProfile::from_json(&p.to_json())
                .expect("a loaded profile writes a loadable file");
            assert_eq!(back, p);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 10 && data[0] == b'!' {
        // A valid file with one value replaced.
        let mut v = bases()[data[1] as usize % Profile::ALL.len()].clone();
        let x = f64::from_le_bytes(data[2..10].try_into().unwrap());
        let pick = data[10] as usize;
        let key = ["rates", "bands", "chars_per_token", "spread"][pick % 4];
        let slot = match &mut v[key] {
            Value::Object(m) => {
                let n = m.len();
                let (_, val) = m.iter_mut().nth((pick / 4) % n).unwrap();
                match val {
                    Value::Array(a) => {
                        let i = pick % a.len();
                        &mut a[i]
                    }
                    other => other,
                }
            }
            Value::Array(a) => {
                let i = pick % a.len();
                &mut a[i]
            }
            other => other,
        };
        *slot = serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number);
        let text = String::from_utf8_lossy(&data[11..]);
        exercise(&v.to_string(), &text);
    } else {
        let text = String::from_utf8_lossy(data);
        exercise(&text, &text);
    }
});
