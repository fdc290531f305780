//! Stream-chunk classification: a streamed body (SSE or newline-delimited JSON) searched for an error frame, and
//! classified as a whole.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_preflight::RateLimitSnapshot;
use llm_preflight::{classify_with_snapshot, find_stream_error};

fuzz_target!(|data: &[u8]| {
    let body = String::from_utf8_lossy(data);
    if let Some(se) = find_stream_error(&body) {
        assert!(se.payload.len() <= body.len());
    }
    let r = classify_with_snapshot(Some(200), &RateLimitSnapshot::default(), &body);
    let _ = r.kind.name();
    // A stream split in two arbitrary places must not break the search either.
    let mut mid = body.len() / 3;
    while !body.is_char_boundary(mid) {
        mid -= 1;
    }
    let _ = find_stream_error(&body[mid..]);
    let _ = classify_with_snapshot(None, &RateLimitSnapshot::default(), &body[..mid]);
});
