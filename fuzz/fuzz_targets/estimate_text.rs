//! Text estimation: arbitrary bytes, estimated whole and fed in chunks through `Estimator::update_bytes` (splits
//! anywhere, including inside a UTF-8 sequence), and decoded as lossy UTF-8 and fed through `Estimator::update`
//! (whole, by halves, one character at a time). Chunked must equal whole, with `low <= tokens <= high`.
//!
//! Raw bytes and their lossy decoding give the same counts except `bytes`: the scanner counts the bytes that were
//! really there (one invalid byte is one byte, not the three of U+FFFD), and the estimate is capped at
//! `Profile::max_tokens` (bytes + 1, more for claude-legacy's NFKC where the text is not ASCII).
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_preflight::internals::scan::{Features, Scanner};
use llm_preflight::{estimate, Estimator, Profile};

fuzz_target!(|data: &[u8]| {
    // The first byte picks the profile and seeds the split points; the rest is the text.
    let Some((&seed, bytes)) = data.split_first() else {
        return;
    };
    let profile = Profile::ALL[seed as usize % Profile::ALL.len()];
    let text = String::from_utf8_lossy(bytes);
    let whole = estimate(&text, profile);
    assert!(
        whole.low <= whole.tokens && whole.tokens <= whole.high,
        "{whole:?}"
    );
    assert_eq!(whole.chars, text.chars().count() as u64);
    assert!(whole.high <= profile.max_tokens(text.len() as u64, whole.chars));

    // Raw bytes at once: the lossy text's counts, with the real byte count.
    let mut raw = Scanner::new();
    raw.feed_bytes(bytes);
    let raw_features = raw.features();
    assert_eq!(raw_features.bytes, bytes.len() as u64);
    let mut lossy = Scanner::new();
    lossy.feed(&text);
    assert_eq!(
        Features {
            bytes: text.len() as u64,
            ..raw_features
        },
        lossy.features(),
        "raw bytes and their lossy decoding count differently"
    );
    let mut at_once = Estimator::new(profile);
    at_once.update_bytes(bytes);
    let raw_whole = at_once.finish();
    if text.len() == bytes.len() {
        assert_eq!(raw_whole, whole);
    }

    // Raw bytes in chunks whose sizes come from a small generator seeded by the first byte.
    let mut e = Estimator::new(profile);
    let mut state = u32::from(seed) | 1;
    let mut rest = bytes;
    while !rest.is_empty() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = (state as usize % 7).min(rest.len());
        let (a, b) = rest.split_at(n);
        e.update_bytes(a);
        rest = b;
    }
    assert_eq!(e.finish(), raw_whole, "byte chunks differ from the whole");
    assert_eq!(e.saw_invalid_utf8(), std::str::from_utf8(bytes).is_err());

    // The decoded text one character at a time (short inputs: it is the slow part), and in two halves at a
    // character boundary.
    if text.len() <= 512 {
        let mut one = Estimator::new(profile);
        let mut buf = [0u8; 4];
        for c in text.chars() {
            one.update(c.encode_utf8(&mut buf));
        }
        assert_eq!(one.finish(), whole, "char-by-char differs from the whole");
    }
    let mut mid = text.len() / 2;
    while !text.is_char_boundary(mid) {
        mid -= 1;
    }
    let mut halves = Estimator::new(profile);
    halves.update(&text[..mid]).update(&text[mid..]);
    assert_eq!(halves.finish(), whole, "halves differ from the whole");

    // Another profile prices the same counts.
    let other = Profile::ALL[(seed as usize / 16) % Profile::ALL.len()];
    let est = e.finish_as(other);
    assert!(est.low <= est.tokens && est.tokens <= est.high, "{est:?}");
    assert_eq!(est.content.kind, raw_whole.content.kind);
});
