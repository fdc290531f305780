//! Inputs the fuzz targets (fuzz/, see fuzz/run.sh) found breaking something, kept as regression tests.

use llm_preflight::internals::scan::Scanner;
use llm_preflight::{estimate, Estimator, Profile};

/// Found by `estimate_text`: a UTF-8 sequence split across `update_bytes` calls was continued by any byte of the
/// form `10xxxxxx`, so `E0 | 80 80` became one U+FFFD instead of three (`E0 80` is not a valid prefix: after `E0`
/// the next byte must be `A0..=BF`). The chunked estimate differed from the whole one. Fixed in
/// `Scanner::feed_bytes` (src/scan.rs): a byte continues an open sequence only if the sequence stays valid.
#[test]
fn split_utf8_sequence_with_an_invalid_continuation_is_lossy_like_the_whole() {
    // Lead bytes whose second byte range is narrower than 80..=BF, and a split after every byte.
    let cases: [&[u8]; 7] = [
        b"\xe0\x80\x80",         // overlong
        b"\xed\xa0\x80",         // surrogate
        b"\xf0\x80\x80\x80",     // overlong
        b"\xf4\x90\x80\x80",     // beyond U+10FFFF
        b"a\xe0\x9f\xbfz",       // overlong, between letters
        b"\xf0\x9f\x91\x8d\xe0", // valid emoji, then a dangling lead
        b"\x07ab\xffcd\xe4\xb8 \xe0\x80\xff\xff\x80\x31\xed\xa0\x80 \xf4\x90\x80\x80 \xf0\x9f\x91 x\xc3",
    ];
    for bytes in cases {
        let lossy = String::from_utf8_lossy(bytes);
        let mut whole = Scanner::new();
        whole.feed(&lossy);
        let want = whole.features();
        for split in 0..=bytes.len() {
            let mut s = Scanner::new();
            s.feed_bytes(&bytes[..split]);
            s.feed_bytes(&bytes[split..]);
            let got = s.features();
            assert_eq!(got.chars, want.chars, "{bytes:x?} split at {split}");
            assert_eq!(got.v, want.v, "{bytes:x?} split at {split}");
            assert_eq!(
                got.class_chars, want.class_chars,
                "{bytes:x?} split at {split}"
            );
            assert_eq!(got.bytes, bytes.len() as u64);
            assert!(s.saw_invalid_utf8());
        }
        // One byte per call.
        let mut e = Estimator::new(Profile::O200k);
        for b in bytes {
            e.update_bytes(std::slice::from_ref(b));
        }
        let mut at_once = Estimator::new(Profile::O200k);
        at_once.update_bytes(bytes);
        assert_eq!(e.finish(), at_once.finish(), "{bytes:x?}");
        assert_eq!(e.finish().chars, estimate(&lossy, Profile::O200k).chars);
    }
}

/// The crash input itself (fuzz/artifacts/estimate_text/crash-12909fb7…): a profile byte, then mixed valid and
/// invalid UTF-8, fed in the fuzz target's chunk sizes.
#[test]
fn estimate_text_crash_12909fb7() {
    let mut data = vec![7u8, 97, 98, 255, 99, 100, 228, 184, 32, 224, 128];
    data.extend([255u8; 125]);
    data.extend([
        128, 49, 237, 160, 128, 32, 244, 144, 128, 128, 32, 240, 159, 145, 32, 120, 195,
    ]);
    let bytes = &data[1..];
    let mut at_once = Estimator::new(Profile::MistralV1);
    at_once.update_bytes(bytes);
    let whole = at_once.finish();
    assert_eq!(
        whole.chars,
        String::from_utf8_lossy(bytes).chars().count() as u64
    );
    let mut state = 7u32;
    let mut rest = bytes;
    let mut e = Estimator::new(Profile::MistralV1);
    while !rest.is_empty() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = (state as usize % 7).min(rest.len());
        e.update_bytes(&rest[..n]);
        rest = &rest[n..];
    }
    assert_eq!(e.finish(), whole);
}

/// Found by `estimate_text` (crash-ee7ede9d…: profile byte 161, claude-legacy, then `K'f`): the median came out at
/// 5 tokens for 3 ASCII bytes. claude-legacy's cap had become 11 tokens a byte for all text, for NFKC's lengthening,
/// but NFKC leaves ASCII as it is. The cap is now `Profile::max_tokens`: bytes + 1 where the text is ASCII.
#[test]
fn claude_legacy_prices_short_ascii_within_its_bytes() {
    for text in ["K'f", "a", "x=1", "{}", "Hi!", "0x1F", "K'f K'f"] {
        let e = estimate(text, Profile::ClaudeLegacy);
        assert!(e.high <= text.len() as u64 + 1, "{text:?}: {e:?}");
    }
    // Past ASCII the cap leaves room for NFKC: `ﷺ` (3 bytes) is 33 bytes once normalized.
    assert_eq!(Profile::ClaudeLegacy.max_tokens(3, 1), 34);
    assert_eq!(Profile::O200k.max_tokens(3, 1), 4);
    // Counts no text reaches do not overflow.
    assert!(Profile::ClaudeLegacy.max_tokens(u64::MAX, 0) > 1 << 62);
}

/// The `profile_json` target mutates its seeds; seeds that no longer load only exercise the first check that
/// rejects them. The named seeds (`*.json`) had gone stale twice as the scanner gained features; they must load.
#[test]
fn profile_json_named_seeds_are_loadable_profile_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/profile_json");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("fuzz/corpus/profile_json") {
        let path = entry.expect("a seed").path();
        if path.extension().is_some_and(|x| x == "json") {
            let text = std::fs::read_to_string(&path).expect("a UTF-8 seed");
            if let Err(e) = Profile::from_json(&text) {
                panic!("{}: {e}", path.display());
            }
            n += 1;
        }
    }
    assert!(n >= 4, "only {n} named seeds");
}
