//! Response classification. The input is `STATUS\nName: value\n...\n\nbody`: a status line (a number, or anything
//! else for none), header lines, a blank line and the raw body. Also the whole input through `explain` (the
//! `explain-response` JSON contract), and the refusal through the retry policy.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_preflight::Headers;
use llm_preflight::{classify, explain};
use llm_preflight::{next_action, Action, RetryPolicy};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = explain(&text);
    let (status_line, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let status = status_line.trim().parse::<u16>().ok();
    let (head, body) = rest.split_once("\n\n").unwrap_or(("", rest));
    let headers = Headers::from_lines(head).unwrap_or_default();
    for now in [0, 1_700_000_000_000, u64::MAX] {
        let r = classify(status, &headers, body, now);
        // 500 characters of the provider's message, and an ellipsis when it was cut.
        assert!(r
            .message
            .as_ref()
            .map_or(true, |m| m.chars().count() <= 501));
        let _ = r.excess();
        let budget = RetryPolicy::default();
        for attempt in [0, 1, 2, 3, u32::MAX] {
            for u in [0.0, 0.5, 0.999_999, 1.0, f64::NAN] {
                if let Action::Retry { after_ms } = next_action(&r, attempt, &budget, now, u) {
                    assert!(after_ms <= budget.cap_ms);
                    if let Some(w) = r.retry_after_ms {
                        assert!(after_ms >= w);
                    }
                }
            }
        }
    }
});
