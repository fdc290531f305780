//! Header parsing: a block of raw `Name: value` lines or a JSON object, read into a rate-limit snapshot at several
//! clocks (0, a real date, the far future), and every value through the duration and date parsers.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_preflight::internals::headers::{
    parse_http_date_ms, parse_rfc3339_ms, MAX_PLAUSIBLE_WAIT_MS,
};
use llm_preflight::{parse_duration_ms, Headers, RateLimitSnapshot};

const NOWS: [u64; 5] = [
    0,
    1_700_000_000_000,
    253_402_300_799_000,
    i64::MAX as u64,
    u64::MAX,
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let headers = match Headers::parse(&text) {
        Ok(h) => h,
        Err(e) => {
            // A typed error with a message; nothing else.
            let _ = e.to_string();
            // The text as a single value of every known header still must not break anything.
            let mut h = Headers::new();
            for name in [
                "retry-after",
                "retry-after-ms",
                "x-ratelimit-reset-tokens",
                "x-ratelimit-remaining-tokens",
                "anthropic-ratelimit-tokens-reset",
            ] {
                h.push(name, text.as_ref());
            }
            h
        }
    };
    for now in NOWS {
        let parsed = RateLimitSnapshot::from_headers(&headers, now);
        let s = parsed.snapshot;
        for d in [
            s.requests,
            s.tokens,
            s.input_tokens,
            s.output_tokens,
            s.unnamed,
            s.requests_per_day,
            s.tokens_per_day,
            s.long_window,
        ] {
            if let Some(r) = d.reset_ms {
                assert!(r <= MAX_PLAUSIBLE_WAIT_MS, "{s:?}");
            }
        }
        if let Some(r) = s.retry_after_ms {
            assert!(r <= MAX_PLAUSIBLE_WAIT_MS, "{s:?}");
        }
        for e in &parsed.malformed {
            assert!(e.value.chars().count() <= 120);
            let _ = e.to_string();
        }
    }
    for (_, v) in headers.iter() {
        let _ = parse_duration_ms(v);
        let _ = parse_rfc3339_ms(v);
        for now in NOWS {
            let _ = parse_http_date_ms(v, now);
        }
    }
    let _ = parse_duration_ms(&text);
    let _ = parse_rfc3339_ms(&text);
    let _ = parse_http_date_ms(&text, 0);
});
