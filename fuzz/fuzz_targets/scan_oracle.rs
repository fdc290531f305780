//! The scanner against its oracle: for arbitrary bytes, the `Features` of `llm_preflight::internals::scan::Scanner` must be
//! bit-identical to those of the plain byte-by-byte reading of the features' definitions (`tests/reference_scan/`),
//! fed whole as bytes, whole as the lossy `&str`, and in byte pieces whose sizes come from the first
//! byte (some spanning a 64-byte block, some splitting UTF-8 sequences). `tests/scan_oracle.rs` checks the same on
//! the corpus and generated inputs; here coverage guidance looks for the inputs nobody thought of.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_preflight::internals::scan::{Features, Scanner};

#[path = "../../tests/reference_scan/mod.rs"]
#[allow(dead_code)]
mod reference_scan;

fn same(new: &Features, old: &reference_scan::Features, what: &str) {
    let (s, o) = (&new.signals, &old.signals);
    let diff: Vec<(&str, u64, u64)> = (0..new.v.len())
        .filter(|&i| new.v[i] != old.v[i])
        .map(|i| {
            (
                llm_preflight::internals::scan::FEATURE_NAMES[i],
                new.v[i],
                old.v[i],
            )
        })
        .collect();
    assert!(
        diff.is_empty(),
        "{what}: features differ (name, new, reference): {diff:?}"
    );
    assert_eq!(new.chars, old.chars, "{what}: chars");
    assert_eq!(new.bytes, old.bytes, "{what}: bytes");
    assert_eq!(new.class_chars, old.class_chars, "{what}: class_chars");
    assert_eq!(
        [
            s.braces,
            s.brackets,
            s.quotes,
            s.colons,
            s.commas,
            s.semicolons,
            s.angles,
            s.equals,
            s.parens,
            s.backslashes,
            s.lines,
            s.indented_lines
        ],
        [
            o.braces,
            o.brackets,
            o.quotes,
            o.colons,
            o.commas,
            o.semicolons,
            o.angles,
            o.equals,
            o.parens,
            o.backslashes,
            o.lines,
            o.indented_lines
        ],
        "{what}: signals"
    );
    assert_eq!(s.first_nonspace, o.first_nonspace, "{what}: first_nonspace");
}

fuzz_target!(|data: &[u8]| {
    let Some((&seed, bytes)) = data.split_first() else {
        return;
    };
    let mut reference = reference_scan::Scanner::new();
    reference.feed_bytes(bytes);
    let want = reference.features();

    let mut whole = Scanner::new();
    whole.feed_bytes(bytes);
    same(&whole.features(), &want, "whole bytes");
    assert_eq!(whole.saw_invalid_utf8(), reference.saw_invalid_utf8());

    let text = String::from_utf8_lossy(bytes);
    let mut lossy = Scanner::new();
    lossy.feed(&text);
    let mut reference_lossy = reference_scan::Scanner::new();
    reference_lossy.feed(&text);
    same(&lossy.features(), &reference_lossy.features(), "lossy str");

    // Byte pieces: sizes from a small generator seeded by the first byte, from 1 to about 150 bytes.
    let mut state = u32::from(seed) | 1;
    let mut pieces = Scanner::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = match state % 4 {
            0 => 1 + state as usize / 4 % 8,
            1 => 60 + state as usize / 4 % 10,
            _ => 1 + state as usize / 4 % 150,
        }
        .min(rest.len());
        let (a, b) = rest.split_at(n);
        pieces.feed_bytes(a);
        rest = b;
    }
    same(&pieces.features(), &want, "byte pieces");
});
