//! The scanner gives identical features, field by field, however the text is cut into pieces: the same text
//! scanned whole is the reference. (Every fast path in `scan.rs` has to keep this.)
//!
//! Covered: every corpus sample (whole, in uneven `&str` pieces, in uneven byte pieces through `feed_bytes`, with
//! features read mid-stream), deterministic random strings over an alphabet of every character class the scanner
//! tells apart (ASCII, accented Latin, Cyrillic, Greek, Hebrew, Arabic, Indic, Thai, Han, kana, Hangul, fullwidth
//! forms, CJK punctuation, combining marks, emoji with modifiers, controls, other whitespace, rare letters and
//! symbols) with repeats of 1..=10 characters and invalid UTF-8, and a proptest over the same pieces.

/// The reference: the same scanner, always fed the whole text at once.
mod reference {
    pub use llm_preflight::internals::scan::{Features, Scanner};
}

mod scan_inputs;

use llm_preflight::internals::scan::{Features, Scanner};
use proptest::prelude::*;
use scan_inputs::{cuts, random_input, Rng, ALPHABET, BAD, WORDS};

/// Field-by-field equality of piecewise features with the whole text's.
fn same(new: &Features, old: &reference::Features) -> Result<(), String> {
    let s = &new.signals;
    let o = &old.signals;
    let checks: [(&str, bool); 17] = [
        ("v", new.v == old.v),
        ("chars", new.chars == old.chars),
        ("bytes", new.bytes == old.bytes),
        ("class_chars", new.class_chars == old.class_chars),
        ("braces", s.braces == o.braces),
        ("brackets", s.brackets == o.brackets),
        ("quotes", s.quotes == o.quotes),
        ("colons", s.colons == o.colons),
        ("commas", s.commas == o.commas),
        ("semicolons", s.semicolons == o.semicolons),
        ("angles", s.angles == o.angles),
        ("equals", s.equals == o.equals),
        ("parens", s.parens == o.parens),
        ("backslashes", s.backslashes == o.backslashes),
        ("lines", s.lines == o.lines),
        ("indented_lines", s.indented_lines == o.indented_lines),
        ("first_nonspace", s.first_nonspace == o.first_nonspace),
    ];
    for (name, ok) in checks {
        if !ok {
            let diff: Vec<(usize, u64, u64)> = (0..new.v.len())
                .filter(|&i| new.v[i] != old.v[i])
                .map(|i| (i, new.v[i], old.v[i]))
                .collect();
            return Err(format!(
                "{name} differs; v diffs (index, new, old): {diff:?}; new {new:?}; old {old:?}"
            ));
        }
    }
    Ok(())
}

/// Scans `bytes` whole and in several piecewise ways and compares every result with the whole.
fn check_bytes(bytes: &[u8], seed: u64) -> Result<(), String> {
    let mut rng = Rng(seed | 1);
    // Whole, as bytes.
    let mut n = Scanner::new();
    let mut o = reference::Scanner::new();
    n.feed_bytes(bytes);
    o.feed_bytes(bytes);
    same(&n.features(), &o.features()).map_err(|e| format!("whole bytes: {e}"))?;
    if n.saw_invalid_utf8() != o.saw_invalid_utf8() {
        return Err("saw_invalid_utf8 differs".into());
    }
    let whole_old = o.features();
    // Whole, as a string when valid.
    if let Ok(text) = std::str::from_utf8(bytes) {
        let mut n = Scanner::new();
        n.feed(text);
        same(&n.features(), &whole_old).map_err(|e| format!("whole str: {e}"))?;
        // Uneven pieces at char boundaries, features read mid-stream.
        let mut n = Scanner::new();
        let c = cuts(text.len(), &mut rng);
        for w in c.windows(2) {
            let (mut a, mut b) = (w[0], w[1]);
            while !text.is_char_boundary(a) {
                a -= 1;
            }
            while !text.is_char_boundary(b) {
                b -= 1;
            }
            if a >= b {
                continue;
            }
            n.feed(&text[a..b]);
            if rng.below(c.len() / 3 + 1) == 0 {
                let mut o = reference::Scanner::new();
                o.feed(&text[..b]);
                same(&n.features(), &o.features()).map_err(|e| format!("str mid at {b}: {e}"))?;
            }
        }
        same(&n.features(), &whole_old).map_err(|e| format!("str pieces: {e}"))?;
    }
    // Uneven byte pieces, features read mid-stream a few times (against the reference on that prefix, whole).
    let mut n = Scanner::new();
    let c = cuts(bytes.len(), &mut rng);
    let mut probes = 3;
    for w in c.windows(2) {
        n.feed_bytes(&bytes[w[0]..w[1]]);
        if probes > 0 && rng.below(c.len() / 3 + 1) == 0 {
            probes -= 1;
            let mut o = reference::Scanner::new();
            o.feed_bytes(&bytes[..w[1]]);
            same(&n.features(), &o.features())
                .map_err(|e| format!("bytes mid at {}: {e}", w[1]))?;
            if n.saw_invalid_utf8() != o.saw_invalid_utf8() {
                return Err("saw_invalid_utf8 differs mid-stream".into());
            }
        }
    }
    same(&n.features(), &whole_old).map_err(|e| format!("byte pieces: {e}"))?;
    // Bytes and valid str pieces interleaved. A str piece starts with a character, which cannot continue a
    // split sequence, so the bytes before it end as they would in the whole text (an empty str would end them).
    let mut n = Scanner::new();
    for w in cuts(bytes.len(), &mut rng).windows(2) {
        let piece = &bytes[w[0]..w[1]];
        match std::str::from_utf8(piece) {
            Ok(s) if !s.is_empty() && rng.below(2) == 0 => n.feed(s),
            _ => n.feed_bytes(piece),
        }
    }
    same(&n.features(), &whole_old).map_err(|e| format!("mixed pieces: {e}"))?;
    Ok(())
}

#[test]
fn every_corpus_sample_scans_the_same() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files = Vec::new();
    for kind in std::fs::read_dir(&root).expect("corpus/") {
        let kind = kind.unwrap().path();
        if !kind.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&kind).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|x| x == "txt") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 1000, "{} corpus files", files.len());
    for (i, p) in files.iter().enumerate() {
        let bytes = std::fs::read(p).unwrap();
        if let Err(e) = check_bytes(&bytes, 0x9e37_79b9_7f4a_7c15 ^ i as u64) {
            panic!("{}: {e}", p.display());
        }
    }
}

#[test]
fn random_strings_scan_the_same() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for case in 0..6000 {
        let len = match case % 4 {
            0 => rng.below(12),
            1 => rng.below(60),
            2 => rng.below(300),
            _ => rng.below(3000),
        };
        let input = random_input(&mut rng, len, case % 3 == 0);
        if let Err(e) = check_bytes(&input, rng.next()) {
            panic!(
                "case {case}, input {:?}: {e}",
                String::from_utf8_lossy(&input)
            );
        }
    }
}

#[test]
fn long_runs_scan_the_same() {
    // Runs far longer than any piece, of every kind of character, cut anywhere.
    let mut rng = Rng(42);
    for &c in ALPHABET {
        for n in [1, 2, 3, 4, 5, 17, 300, 5000] {
            let mut s = String::from("x");
            for _ in 0..n {
                s.push(c);
            }
            s.push_str("ab");
            for _ in 0..n {
                s.push(c);
            }
            check_bytes(s.as_bytes(), rng.next()).unwrap_or_else(|e| panic!("{c:?} x{n}: {e}"));
        }
    }
}

fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => (0..ALPHABET.len(), 1usize..=10).prop_map(|(i, n)| ALPHABET[i].to_string().repeat(n).into_bytes()),
        2 => (0..WORDS.len()).prop_map(|i| WORDS[i].as_bytes().to_vec()),
        1 => (0..BAD.len()).prop_map(|i| BAD[i].to_vec()),
        1 => "[a-zA-Z0-9 +/=]{0,40}".prop_map(String::into_bytes),
        1 => "\\PC{0,8}".prop_map(String::into_bytes),
        1 => prop::collection::vec(any::<u8>(), 0..6),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_text_scans_the_same(pieces in prop::collection::vec(piece(), 0..40), seed in any::<u64>()) {
        let input: Vec<u8> = pieces.concat();
        if let Err(e) = check_bytes(&input, seed) {
            prop_assert!(false, "input {:?}: {}", String::from_utf8_lossy(&input), e);
        }
    }
}
