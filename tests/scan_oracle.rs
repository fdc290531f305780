//! The oracle for the scanner: its `Features` must be bit-identical to those of `tests/reference_scan/`, which reads
//! the features' definitions off the text one byte at a time, with no state carried between bytes and no block,
//! mask or table. Unlike `scan_equivalence` (piecewise == whole, for the same scanner), this compares two
//! implementations, so a change of the hot path that changes any count, for any input or any way of cutting it,
//! fails here.
//!
//! Covered: every corpus sample (whole, as bytes and as `&str`, in uneven pieces of both kinds, features read
//! mid-stream); every pair of characters from an alphabet of every class edge plus all 128 ASCII characters, in
//! runs of 1 and of 4-5, cut at every byte; random mixes of every class (emoji with ZWJ and modifiers, combining
//! marks, CRLF, controls) with and without invalid UTF-8, cut at every byte when short; ASCII-heavy strings over
//! small alphabets (words, case splits, hex, base64, digit groups, whitespace runs); long runs of every character.

mod reference_scan;
mod scan_inputs;

use llm_preflight::internals::scan::{Features, Scanner};
use scan_inputs::{cuts, random_input, Rng, ALPHABET, WORDS};

/// Field-by-field equality with the reference's features.
fn same(new: &Features, old: &reference_scan::Features) -> Result<(), String> {
    let s = &new.signals;
    let o = &old.signals;
    let checks: [(&str, bool); 18] = [
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
        ("runs", new.runs == old.runs),
    ];
    for (name, ok) in checks {
        if !ok {
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
            return Err(format!(
                "{name} differs; runs.wide new {:?} reference {:?}; v diffs (feature, new, reference): {diff:?}; \
                 class_chars new {:?} reference {:?}",
                new.runs.wide, old.runs.wide, new.class_chars, old.class_chars
            ));
        }
    }
    Ok(())
}

/// The reference's features for `bytes`, fed whole.
fn reference(bytes: &[u8]) -> (reference_scan::Features, bool) {
    let mut o = reference_scan::Scanner::new();
    o.feed_bytes(bytes);
    (o.features(), o.saw_invalid_utf8())
}

/// Compares the new scanner with the reference on `bytes`: whole (bytes and `&str`), in uneven pieces of both
/// kinds with features read mid-stream, and, when `every_split`, in two pieces cut at every byte.
fn check(bytes: &[u8], seed: u64, every_split: bool) -> Result<(), String> {
    let mut rng = Rng(seed | 1);
    let (want, lossy) = reference(bytes);
    let mut n = Scanner::new();
    n.feed_bytes(bytes);
    same(&n.features(), &want).map_err(|e| format!("whole bytes: {e}"))?;
    if n.saw_invalid_utf8() != lossy {
        return Err("saw_invalid_utf8 differs".into());
    }
    let text = std::str::from_utf8(bytes).ok();
    if let Some(text) = text {
        let mut n = Scanner::new();
        n.feed(text);
        same(&n.features(), &want).map_err(|e| format!("whole str: {e}"))?;
        // Uneven `&str` pieces, features read mid-stream against the reference on the prefix.
        let mut n = Scanner::new();
        let c = cuts(text.len(), &mut rng);
        let mut probes = 3;
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
            if probes > 0 && rng.below(c.len() / 3 + 1) == 0 {
                probes -= 1;
                let (w, _) = reference(&bytes[..b]);
                same(&n.features(), &w).map_err(|e| format!("str mid at {b}: {e}"))?;
            }
        }
        same(&n.features(), &want).map_err(|e| format!("str pieces: {e}"))?;
    }
    // Uneven byte pieces, with mid-stream probes.
    let mut n = Scanner::new();
    let c = cuts(bytes.len(), &mut rng);
    let mut probes = 3;
    for w in c.windows(2) {
        n.feed_bytes(&bytes[w[0]..w[1]]);
        if probes > 0 && rng.below(c.len() / 3 + 1) == 0 {
            probes -= 1;
            let (w, l) = reference(&bytes[..w[1]]);
            same(&n.features(), &w).map_err(|e| format!("bytes mid: {e}"))?;
            if n.saw_invalid_utf8() != l {
                return Err("saw_invalid_utf8 differs mid-stream".into());
            }
        }
    }
    same(&n.features(), &want).map_err(|e| format!("byte pieces: {e}"))?;
    // Byte and valid `&str` pieces interleaved.
    let mut n = Scanner::new();
    for w in cuts(bytes.len(), &mut rng).windows(2) {
        let piece = &bytes[w[0]..w[1]];
        match std::str::from_utf8(piece) {
            Ok(s) if !s.is_empty() && rng.below(2) == 0 => n.feed(s),
            _ => n.feed_bytes(piece),
        }
    }
    same(&n.features(), &want).map_err(|e| format!("mixed pieces: {e}"))?;
    if every_split {
        for k in 0..=bytes.len() {
            let mut n = Scanner::new();
            n.feed_bytes(&bytes[..k]);
            n.feed_bytes(&bytes[k..]);
            same(&n.features(), &want).map_err(|e| format!("byte split at {k}: {e}"))?;
            if let Some(text) = text.filter(|t| t.is_char_boundary(k)) {
                let mut n = Scanner::new();
                n.feed(&text[..k]);
                n.feed(&text[k..]);
                same(&n.features(), &want).map_err(|e| format!("str split at {k}: {e}"))?;
            }
        }
    }
    Ok(())
}

fn show(bytes: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(bytes))
}

#[test]
fn every_corpus_sample_matches_the_reference() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("corpus/") {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "txt") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 1000, "{} corpus files", files.len());
    for (i, p) in files.iter().enumerate() {
        let bytes = std::fs::read(p).unwrap();
        if let Err(e) = check(&bytes, 0x5851_f42d_4c95_7f2d ^ i as u64, false) {
            panic!("{}: {e}", p.display());
        }
        // Every 16th sample also one byte at a time.
        if i % 16 == 0 {
            let (want, _) = reference(&bytes);
            let mut n = Scanner::new();
            for b in &bytes {
                n.feed_bytes(std::slice::from_ref(b));
            }
            same(&n.features(), &want)
                .unwrap_or_else(|e| panic!("{} byte by byte: {e}", p.display()));
        }
    }
}

/// Every pair of characters from the alphabet and all of ASCII, in runs of 1 and of 4-5, cut at every byte.
#[test]
fn every_class_boundary_matches_the_reference() {
    let mut chars: Vec<char> = ALPHABET.to_vec();
    chars.extend((0u8..128).map(char::from));
    chars.sort();
    chars.dedup();
    let mut rng = Rng(7);
    for &a in &chars {
        for &b in &chars {
            let mut s = String::new();
            s.push(a);
            s.push(b);
            s.push(a);
            for _ in 0..4 {
                s.push(a);
            }
            for _ in 0..5 {
                s.push(b);
            }
            s.push(a);
            s.push(b);
            check(s.as_bytes(), rng.next(), true).unwrap_or_else(|e| panic!("{s:?}: {e}"));
        }
    }
}

#[test]
fn random_mixes_match_the_reference() {
    let mut rng = Rng(0xfeed_5eed_1234_5678);
    for case in 0..6000 {
        let len = match case % 4 {
            0 => rng.below(16),
            1 => rng.below(80),
            2 => rng.below(400),
            _ => rng.below(4000),
        };
        let input = random_input(&mut rng, len, case % 3 == 0);
        let every = input.len() <= 160;
        if let Err(e) = check(&input, rng.next(), every) {
            panic!("case {case}, input {}: {e}", show(&input));
        }
    }
}

/// ASCII-heavy text over small alphabets, where the fast paths live: words with case splits, hex and base64
/// strings, digit groups, punctuation and whitespace runs, CRLF, runs just under and over the repeat length.
#[test]
fn ascii_shapes_match_the_reference() {
    const SETS: &[&[u8]] = &[
        b"abcdefghijklmnopqrstuvwxyz ",
        b"aaab ",
        b"eeee",
        b"abAB",
        b"aA1",
        b"abcdef0123456789",
        b"ABCDEF0123456789",
        b"abcdefABCDEF0123456789",
        b"aZ09+/=",
        b"xyzXYZ019+/= \n",
        b"0123456789 ,.",
        b"1 ",
        b" \t\n\r",
        b"  \n",
        b"\r\n",
        b"{}[]\":,;<>=()\\ a1",
        b"\\nt",
        b".-_=*#",
        b"a.b-c_d",
        b"\x00\x01\x1b\x7f a",
        b"Hello World",
        b"HTTPServer",
        b"camelCaseWord",
    ];
    let mut rng = Rng(0xa5a5_5a5a_0f0f_f0f0);
    for case in 0..8000 {
        let set = SETS[case % SETS.len()];
        let len = match case % 5 {
            0 => rng.below(10),
            1 => rng.below(40),
            2 => rng.below(200),
            3 => rng.below(1000),
            _ => rng.below(5000),
        };
        let mut out = Vec::with_capacity(len + 16);
        while out.len() < len {
            let b = set[rng.below(set.len())];
            let reps = match rng.below(12) {
                0..=7 => 1,
                8 => 2,
                9 => 3,
                10 => 4 + rng.below(2),
                _ => 1 + rng.below(40),
            };
            out.extend(std::iter::repeat_n(b, reps));
            if rng.below(30) == 0 {
                out.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
            }
        }
        let every = out.len() <= 120;
        if let Err(e) = check(&out, rng.next(), every) {
            panic!("case {case}, input {}: {e}", show(&out));
        }
    }
}

#[test]
fn long_runs_match_the_reference() {
    let mut chars: Vec<char> = ALPHABET.to_vec();
    chars.extend((0u8..128).map(char::from));
    chars.sort();
    chars.dedup();
    let mut rng = Rng(99);
    for &c in &chars {
        for n in [3, 4, 5, 8, 9, 12, 13, 15, 16, 17, 33, 300, 5000] {
            let mut s = String::from("xY");
            for _ in 0..n {
                s.push(c);
            }
            s.push_str("ab1");
            for _ in 0..n {
                s.push(c);
            }
            for _ in 0..n {
                s.push('e');
            }
            check(s.as_bytes(), rng.next(), n <= 17).unwrap_or_else(|e| panic!("{c:?} x{n}: {e}"));
        }
    }
}

#[test]
fn periodic_patterns_match_the_reference() {
    // Units of 2-4 punctuation characters, letters among them or blanks (and some that break off, hold a repeat,
    // a non-ASCII letter or no punctuation), at every offset in a block.
    let units = [
        "=-",
        "-.",
        "<>",
        "(,",
        "-.-",
        "=+=",
        "[]{",
        "=-=+",
        "--=-",
        "====-",
        "-=",
        "a-",
        "=-=-=-=-x",
        ". ",
        " *",
        "- -",
        "|  ",
        "~   ",
        "    ;",
        "\t-",
        "=- ",
        "  ",
        "a .",
        "J/",
        "x\\",
        "]uC",
        "lu/w",
        "ab.",
        "é/",
        "ab",
    ];
    let mut rng = Rng(29);
    let mut checked = 0;
    for unit in units {
        for n in [3, 4, 5, 7, 16, 40] {
            for off in 0..70 {
                let s = format!(
                    "{}{} {}{}",
                    "x".repeat(off),
                    unit.repeat(n),
                    unit.repeat(n / 2 + 1),
                    "!"
                );
                check(s.as_bytes(), rng.next(), n <= 5 && off % 7 == 0)
                    .unwrap_or_else(|e| panic!("{unit:?} x{n} at {off}: {e}"));
                checked += 1;
            }
        }
    }
    assert!(checked > 5000);
    let x = llm_preflight::internals::scan::scan(&"=-".repeat(100));
    assert_eq!(
        x.runs.periodic, 200,
        "every byte is in a window, the first unit's too"
    );
    // Leader dots (a table of contents): blanks among the punctuation; blanks alone are no pattern.
    let x = llm_preflight::internals::scan::scan(&". ".repeat(100));
    assert_eq!(x.runs.periodic, 200);
    let x = llm_preflight::internals::scan::scan(&" ".repeat(100));
    assert_eq!(x.runs.periodic, 0);
    // Letters among the punctuation, counted apart.
    let x = llm_preflight::internals::scan::scan(&"]uC".repeat(100));
    assert_eq!((x.runs.periodic, x.runs.periodic_letters), (300, 200));
    // Window ends by period (2, 3, 4) and unit (punctuation alone, a blank in it, a letter in it): one of period 2 is
    // one of period 4 too.
    assert_eq!(x.runs.periodic_ends, [0, 0, 0, 0, 0, 0, 0, 285, 0, 0, 0, 0]);
    let x = llm_preflight::internals::scan::scan(&"=-".repeat(100));
    assert_eq!(
        x.runs.periodic_ends,
        [185, 0, 185, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    );
    let x = llm_preflight::internals::scan::scan(&"=& ".repeat(100));
    assert_eq!(
        (x.runs.periodic_ends[4], x.runs.periodic_blanks),
        (285, 100)
    );
    // Letters alone are a pattern only past the 64th byte of a run (no word is that long): windows end from the
    // 65th byte on, each 16 bytes, so the run's bytes from the 50th are in one.
    let x = llm_preflight::internals::scan::scan(&"Zu".repeat(100));
    assert_eq!((x.runs.periodic, x.runs.periodic_plain), (151, 151));
    assert_eq!(x.runs.periodic_letters, 151);
    assert_eq!(
        x.runs.periodic_ends,
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 136, 0, 136]
    );
    let x = llm_preflight::internals::scan::scan(&"Zu".repeat(32));
    assert_eq!(
        x.runs.periodic, 0,
        "64 letters: a word, as far as the scanner knows"
    );
    let x =
        llm_preflight::internals::scan::scan(&format!("{} {}", "Zu".repeat(32), "Zu".repeat(32)));
    assert_eq!(x.runs.periodic, 0);
}

#[test]
fn long_letter_runs_match_the_reference() {
    // Runs of Latin letters (ASCII, accented, a repeat inside) of 40 to 200 bytes, at every offset in a block.
    let units = ["YC", "Ywq", "acgt", "é", "Straße", "abcdefgh"];
    let mut rng = Rng(64);
    let mut checked = 0;
    for unit in units {
        for len in [40, 63, 64, 65, 66, 127, 128, 129, 200] {
            let run: String = unit.chars().cycle().take(len).collect();
            for off in 0..66 {
                let s = format!("{}{run} {run}zzzz{run}.", " ".repeat(off));
                check(s.as_bytes(), rng.next(), len == 65 && off % 11 == 0)
                    .unwrap_or_else(|e| panic!("{unit:?} x{len} at {off}: {e}"));
                checked += 1;
            }
        }
    }
    assert!(checked > 3000);
    let x = llm_preflight::internals::scan::scan(&"YCq".repeat(100));
    assert_eq!(
        x.runs.long_letters, 300,
        "the whole run, its first 64 letters too"
    );
    let x = llm_preflight::internals::scan::scan(&format!("{} {}", "a".repeat(64), "b".repeat(65)));
    assert_eq!(x.runs.long_letters, 0, "repeats are no letters of a run");
    let x =
        llm_preflight::internals::scan::scan(&format!("{} {}", "ab".repeat(32), "ab".repeat(33)));
    assert_eq!(
        x.runs.long_letters, 66,
        "a run of 64 bytes is no longer than a word may be"
    );
}

/// Invalid UTF-8 between every kind of character, fed through `feed_bytes` cut at every byte.
#[test]
fn invalid_bytes_at_every_split_match_the_reference() {
    let mut rng = Rng(0x1bad_b002);
    let bad: &[&[u8]] = &[
        b"\xff",
        b"\x80",
        b"\xc3",
        b"\xe4\xb8",
        b"\xe0\x80",
        b"\xed\xa0\x80",
        b"\xf4\x90",
        b"\xf0\x9f\x98",
        b"\xf0\x9f\x98\xc3",
        b"\xfe\xfe\xfe\xfe\xfe",
    ];
    for &x in bad {
        for _ in 0..150 {
            let mut input = random_input(&mut rng, 12, false);
            input.extend_from_slice(x);
            let invalid = rng.below(2) == 0;
            input.extend_from_slice(&random_input(&mut rng, 12, invalid));
            input.extend_from_slice(x);
            check(&input, rng.next(), true)
                .unwrap_or_else(|e| panic!("input {}: {e}", show(&input)));
        }
    }
}

/// Every Unicode scalar value outside ASCII, alone, in a run, after a letter and inside a word: the classification
/// of every character (script, case, mark, digit, symbol width, emoji, whitespace, control) matches.
#[test]
fn every_scalar_value_matches_the_reference() {
    let mut s = String::new();
    for u in 0x80..=0x10ffff_u32 {
        let Some(c) = char::from_u32(u) else { continue };
        s.clear();
        s.push('x');
        s.push(c);
        s.push(c);
        s.push(' ');
        for _ in 0..4 {
            s.push(c);
        }
        s.push('y');
        s.push(c);
        s.push('z');
        let mut o = reference_scan::Scanner::new();
        o.feed(&s);
        let mut n = Scanner::new();
        n.feed(&s);
        same(&n.features(), &o.features()).unwrap_or_else(|e| panic!("U+{u:04X}: {e}"));
    }
}

/// Long texts (every sample of a kind, concatenated: hundreds of kilobytes), scanned whole and in pieces: the
/// scanner cuts long pieces into blocks, and the cuts fall everywhere.
#[test]
fn long_texts_match_the_reference() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut kinds: Vec<_> = std::fs::read_dir(&root)
        .expect("corpus/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    kinds.sort();
    assert!(kinds.len() >= 20, "{} corpus kinds", kinds.len());
    for (i, kind) in kinds.iter().enumerate() {
        let mut files: Vec<_> = std::fs::read_dir(kind)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        files.sort();
        let mut all = Vec::new();
        for f in &files {
            all.extend_from_slice(&std::fs::read(f).unwrap());
        }
        check(&all, 0x7f4a_7c15 ^ i as u64, false)
            .unwrap_or_else(|e| panic!("{} concatenated: {e}", kind.display()));
    }
}

/// What the character before an ASCII stretch can leave open: nothing, an ASCII or non-ASCII Latin word (lower,
/// capital, two capitals), a word of another script, a punctuation run of one (also through a combining mark) or
/// of a repeat, a whitespace or newline run, a digit run, `\r`, a control.
const CARRIES: &[&str] = &[
    "", "x", "é", "É", "ÉÉ", "AB", "дом", "!", "\\", "!\u{301}", "====", " ", "  ", "\n", "7",
    "12", "\r", "\u{1}", "世",
];

/// The bitmask path takes 64-byte blocks of ASCII: random text over small alphabets at every length around one
/// and a few blocks, after every kind of open pre-token, whole, in random pieces and (when short) cut at every
/// byte; runs of one byte (just under the repeat length, and long blanks, newlines and digits) fall across the
/// block boundaries.
#[test]
fn ascii_blocks_match_the_reference() {
    const SETS: &[&[u8]] = &[
        b"aA1 .\n\t+/\\",
        b"ab ",
        b"aB",
        b"Ab1 ",
        b"a1",
        b"9 ",
        b"  \n",
        b"\\a.",
        b"x+/Y",
        b"AB c",
        b"abcdef0123456789",
        b"aZ09+/= ",
        b"abcdefghijklmnopqrstuvwxyzABC 0123456789.,;:-_(){}[]\"'\n\t",
        b"aaab ",
        b" \t\n",
        b"ab \r\n",
        b"a\x01 b\x7f",
    ];
    let mut rng = Rng(0x0b10_c5ed_2026_1130);
    for case in 0..12_000 {
        let set = SETS[case % SETS.len()];
        let carry = CARRIES[rng.below(CARRIES.len())];
        let len = match case % 4 {
            0 => 40 + rng.below(60),
            1 => 100 + rng.below(100),
            2 => rng.below(300),
            _ => rng.below(1200),
        };
        let mut out = carry.as_bytes().to_vec();
        let filler = rng.below(70);
        out.extend((0..filler).map(|i| b"ab cd "[i % 6]));
        while out.len() < len + filler {
            let b = set[rng.below(set.len())];
            let reps = match rng.below(16) {
                0..=9 => 1,
                10 => 2,
                11 => 3,
                12 => 4,
                13 => 1 + rng.below(20),
                _ => 1 + rng.below(90),
            };
            out.extend(std::iter::repeat_n(b, reps));
            // Now and then a non-ASCII character: the block is cut before it.
            if rng.below(50) == 0 {
                let c = ["é", "É", "д", "世", "’", "\u{301}"][rng.below(6)];
                out.extend_from_slice(c.as_bytes());
            }
        }
        let every = out.len() <= 150;
        if let Err(e) = check(&out, rng.next(), every) {
            panic!("case {case}, input {}: {e}", show(&out));
        }
    }
}

/// One long shape (a word without repeats, in lower case, capitals or mixed; digits; blanks; newlines;
/// punctuation; an alphanumeric string) of every length up to 140, starting at every offset of a block, after
/// every kind of open pre-token, with text after it.
#[test]
fn shapes_across_block_boundaries_match_the_reference() {
    let shapes: &[&[u8]] = &[
        b"abcdefghijklmnopqrstuvwxyz",
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        b"abCDefGHijKLmnOPqrSTuvWXyz",
        b"0123456789",
        b" ",
        b"\t ",
        b"\n",
        b".,;:-_(){}",
        b"a1B2c3D4e5F6",
        b"9f86d081884c",
        b"aGVsbG8+d29y/bGQ",
    ];
    let mut rng = Rng(0x005a_9e0f_f5e7);
    for (si, shape) in shapes.iter().enumerate() {
        for len in (1..=140).step_by(if si < 4 { 1 } else { 3 }) {
            for offset in (0..66).step_by(5) {
                let carry = CARRIES[(len + offset + si) % CARRIES.len()];
                let mut out = carry.as_bytes().to_vec();
                out.extend((0..offset).map(|i| b"Ab c,d "[i % 7]));
                out.extend((0..len).map(|i| shape[i % shape.len()]));
                out.extend_from_slice(b"x Ab 12 .\n  end of the text, after the shape");
                if let Err(e) = check(&out, rng.next(), false) {
                    panic!("shape {si} x{len} at {offset}, input {}: {e}", show(&out));
                }
            }
        }
    }
}

/// Digit runs after a blank (`digits_after_blank`) and words of other alphabetic scripts that follow no blank
/// (`bare_word_chars`): pieces of both kinds joined by every kind of separator (space, tab, blank runs, newline,
/// punctuation, another script, a repeat), with combining marks, capitals and doubled letters inside the words,
/// long enough that ASCII stretches around them go through the bitmask path. Whole, in pieces and, when short,
/// cut at every byte.
#[test]
fn blank_digits_and_bare_words_match_the_reference() {
    const PIECES: &[&str] = &[
        "Древнегреческие",
        "символы",
        "ёлка",
        "Ааа",
        "сс",
        "λόγος",
        "Ωμέγα",
        "كتاب",
        "हिन्दी",
        "বাংলা",
        "ภาษาไทย",
        "日本語",
        "한국어",
        "word",
        "Word",
        "0x1F",
        "42",
        "1234567",
        "٣٤",
        "3.14",
        "\u{301}",
    ];
    const SEPARATORS: &[&str] = &[
        " ", "  ", "\t", "\t\t", " \t", "\n", "\n    ", "\n\t", "\r\n", "(", "«", ": ", ", ", "-",
        "—", "", "....", "    ", "\u{a0}",
    ];
    let mut rng = Rng(0xba5e_d191_7500);
    for case in 0..4000 {
        let n = match case % 3 {
            0 => 1 + rng.below(6),
            1 => 1 + rng.below(30),
            _ => 1 + rng.below(200),
        };
        let mut out = String::new();
        for _ in 0..n {
            out.push_str(SEPARATORS[rng.below(SEPARATORS.len())]);
            out.push_str(PIECES[rng.below(PIECES.len())]);
            if rng.below(8) == 0 {
                // A stretch of plain ASCII long enough for a block.
                out.push_str(
                    " the 12 quick brown foxes jumped over 345 lazy dogs, 6 times in 7 days\n\t8 ",
                );
            }
        }
        let every = out.len() <= 120;
        if let Err(e) = check(out.as_bytes(), rng.next(), every) {
            panic!("case {case}, input {}: {e}", show(out.as_bytes()));
        }
    }
}

/// Accented Latin letters (two bytes, or three from U+1E00 to U+1EFF) inside 64-byte blocks, read by the bitmask path
/// through a copy where each is one ASCII letter of its case: letters of Latin-1, Latin Extended-A and -B and Latin
/// Extended Additional (Vietnamese), lower and capital, at every offset
/// before a shape that tests what the copy could get wrong (stand-ins beside `x`, runs of one letter or byte
/// falling across the block's end, hex- and base64-like strings with an accent, backslash words, two-byte and
/// three-byte characters that are not letters, a letter cut by the block's end).
#[test]
fn accented_letters_in_blocks_match_the_reference() {
    const ACCENTED: &[&str] = &[
        "é", "É", "ß", "ø", "Ł", "ž", "ÿ", "À", "ư", "Ơ", "ạ", "Ệ", "ỹ", "ẞ",
    ];
    const SHAPES: &[&str] = &[
        "llll",
        "xxxx",
        "x",
        "XX",
        "éx",
        "xéx",
        "XÉX",
        "éé",
        "éééé",
        "deadbéef1234",
        "DEADBEEF12é",
        "aGVsbG8+d29y/bGQé",
        "\\émile",
        ".\\x",
        "«",
        "\u{a0}",
        "×",
        "’",
        "123é4",
        "  é",
        "\né",
        "cafÉ",
        "ÀÉÎÕÜ",
        "ǅ",
        "ſ",
        "\u{301}",
        "ệ",
        "Ỹỹ",
        "ḁẛ",
        "ᴀ",
        "ა",
        "ሀ",
        "Ẹ\u{301}",
    ];
    const FILL: &[u8] = b"Ab c,d efgh 12";
    let mut rng = Rng(0x00ac_ce47_b10c);
    for (ai, accented) in ACCENTED.iter().enumerate() {
        for (si, shape) in SHAPES.iter().enumerate() {
            for offset in (0..72).step_by(3) {
                let mut out = String::from(CARRIES[(ai + si + offset) % CARRIES.len()]);
                for i in 0..offset {
                    if (i + ai) % 9 == 4 {
                        out.push_str(accented);
                    } else {
                        out.push(FILL[(i + si) % FILL.len()] as char);
                    }
                }
                out.push_str(shape);
                for i in 0..70 {
                    if (i + si) % 13 == 6 {
                        out.push_str(accented);
                    } else {
                        out.push(FILL[i % FILL.len()] as char);
                    }
                }
                out.push_str(shape);
                out.push_str("x Ab 12 .\n  end of the text, after the shape");
                if let Err(e) = check(out.as_bytes(), rng.next(), false) {
                    panic!(
                        "{accented} before shape {si} at {offset}, input {}: {e}",
                        show(out.as_bytes())
                    );
                }
            }
        }
    }
}

/// Found by the `scan_oracle` fuzz target: a block with no non-ASCII byte did not move the last merging
/// character's end a block back, so a character of a merging kind (a symbol such as U+FFFD or `©`, an emoji) that
/// ended a block read, at the start of the block after next, as "the same character right before" a run of it,
/// and the run was not counted as a repeat. Every such character, at every end position in the block, then one to
/// three blocks of ASCII, then a run of it at the start of a block.
#[test]
fn a_merging_character_two_blocks_back_does_not_join_a_run() {
    let mut rng = Rng(0xb10c);
    for c in ['\u{fffd}', '©', '→', '😀', '€'] {
        let w = c.len_utf8();
        for end in [w, 20, 63, 64] {
            for ascii_blocks in 1..=3 {
                let mut s = "a".repeat(end - w);
                s.push(c);
                s.push_str(&"a".repeat(64 * ascii_blocks + (64 - end)));
                assert_eq!(s.len() % 64, 0);
                for n in [1, 3, 4, 8] {
                    let mut t = s.clone();
                    t.extend(std::iter::repeat_n(c, n));
                    t.push('f');
                    check(t.as_bytes(), rng.next(), false).unwrap_or_else(|e| {
                        panic!("{c:?} ending at {end}, {ascii_blocks} ASCII blocks, x{n}: {e}")
                    });
                }
            }
        }
    }
    // The fuzz input itself: an Apache error log line with invalid bytes (each a U+FFFD) at those places.
    let crash: &[u8] = b"[Thu Sep 25 09:27:1\0\0\0\0\0\0\0\08.813902 2014] [cgi:error] [pid 16\xa5\0\0\0\0\0\0\0860] [client 89.207.132.76:59635] AH01215: /bin/b[Thu Sep 25 09:29:56.141832 2014] [cgi:error] [pid 16864] [client 162.247.73.206:41273] AH01215: /bin/bash: error importing function def\x97\x91\x96\x8b\x96\x90\x91\xdffkr `HTTP_TEST'\n";
    check(crash, 19, true).unwrap_or_else(|e| panic!("the fuzz input: {e}"));
}

#[test]
fn ideographs_of_the_extensions_count_apart_among_the_rare() {
    use llm_preflight::internals::scan::{f, scan};
    // U+20000, U+20001 and U+2A700 (extensions B and C), U+3400 (extension A, basic plane), 中 (common).
    let text = "\u{20000}x\u{2A700}\u{3400}中 \u{20000}\u{20001}";
    let x = scan(text);
    assert_eq!(x.v[f::HAN_CHARS], 6);
    assert_eq!(x.v[f::HAN_RARE], 5, "all but 中");
    assert_eq!(x.v[f::HAN_EXT], 4, "the four of the supplementary planes");
    assert_eq!(x.v[f::HAN_EXT_A], 1, "U+3400");
    check(text.as_bytes(), 11, true).unwrap();
}

#[test]
fn runs_of_rare_characters_count_apart() {
    use llm_preflight::internals::scan::{kind, scan};
    // Outside the common tier of their blocks: a box-drawing piece, a Hangul syllable, a rare ideograph, an emoji;
    // inside it: `─`, `한`, `中`, `😀`. Each in a run of 40, at every offset in a block.
    let rare = ['┻', '쬹', '厲', '\u{1F63A}'];
    let common = ['─', '한', '中', '😀'];
    for (i, c) in rare.into_iter().chain(common).enumerate() {
        assert_eq!(kind::is_rare_in_run(c as u32), i < 4, "{c:?}");
        for off in 0..66 {
            let s = format!("{}{}.", " ".repeat(off), c.to_string().repeat(40));
            check(s.as_bytes(), off as u64, off % 16 == 0)
                .unwrap_or_else(|e| panic!("{c:?} at {off}: {e}"));
            let x = scan(&s);
            let k = kind::of_code_point(c as u32) as usize;
            assert_eq!(x.runs.wide[k], 40);
            assert_eq!(x.runs.wide_rare[k], if i < 4 { 40 } else { 0 }, "{c:?}");
        }
    }
}

#[test]
fn ideographs_of_extension_a_count_apart_among_the_rare() {
    use llm_preflight::internals::scan::{f, scan};
    // Extension A's first and last (U+3400, U+4DBF), the code points either side of it (U+33FF, a CJK compatibility
    // square, and U+4DC0, a hexagram: neither is Han), U+4E00 and a rare ideograph of the main block (U+9FA5), at
    // every offset in the scanner's blocks, so that each is read whole and cut at a block's end.
    let unit = "\u{3400}\u{33FF}\u{4DBF}\u{4DC0}\u{4E00}\u{9FA5}a";
    for pad in 0..70 {
        let text = format!("{}{}", "x".repeat(pad), unit.repeat(3));
        let x = scan(&text);
        assert_eq!(x.v[f::HAN_CHARS], 12, "pad {pad}");
        assert_eq!(x.v[f::HAN_EXT_A], 6, "pad {pad}");
        assert_eq!(x.v[f::HAN_EXT], 0, "pad {pad}");
        check(text.as_bytes(), 0, true).unwrap_or_else(|e| panic!("pad {pad}: {e}"));
    }
}

#[test]
fn czech_letters_count_apart_at_every_offset() {
    use llm_preflight::internals::scan::f;
    // The six letters of either case among Polish and other Latin Extended-A letters (same lead bytes), a
    // decomposed `e` with a caron and a run of `ě` (a repeat, priced apart: neither counts) and Cyrillic, cut at
    // every offset.
    counts_at_every_offset(
        "příliš žluťoučký kůň úpěl ďábelské ódy ĚŘŮĎŤŇ zażółć gęślą ĳ e\u{30c} жир ř ěěěěěěěě",
        f::CS_LETTERS,
        13,
    );
}

#[test]
fn armenian_lead_bytes_count_apart_at_every_offset() {
    use llm_preflight::internals::scan::f;
    // Armenian letters of lead bytes D4–D5 count; those of D6 (`ր ց ւ փ ք օ ֆ`), Georgian (E1), pointed Hebrew
    // (D6–D7) and Cyrillic (D0–D1) do not. `Բարեւ Ձեզ` has 6 of its 8 letters on D4–D5 (`ր` and `ւ` on D6),
    // `աշխարհ` 5 of 6, and the Cyrillic Supplement's `Ԁ` (U+0500) is on D4 too: 12.
    counts_at_every_offset(
        "Բարեւ Ձեզ, աշխարհ Ԁ გამარჯობა שָׁלוֹם привет",
        f::LEAD_D4_D5,
        12,
    );
}

/// `body` after 0 to 65 bytes of padding, so that it starts at every offset of the scanner's blocks: feature `i`
/// counts `want` each time, and the scanner matches the reference.
fn counts_at_every_offset(body: &str, i: usize, want: u64) {
    use llm_preflight::internals::scan::scan;
    for pad in 0..66 {
        let text = format!("{}{body}", "x".repeat(pad));
        assert_eq!(scan(&text).v[i], want, "pad {pad}");
        check(text.as_bytes(), 0, true).unwrap_or_else(|e| panic!("pad {pad}: {e}"));
    }
}

#[test]
fn ethiopic_letters_count_apart_at_every_offset() {
    use llm_preflight::internals::scan::{f, scan};
    // Amharic `ሰላም ዓለም።` (6 letters; `።`, the full stop, is punctuation), Tigrinya `ትግርኛ` (4), two letters of Ethiopic
    // Extended (`ⶓ`, U+2D93, and `ⷀ`, U+2DC0), an Ethiopic number (`፲`, a digit), a letter with a
    // combining mark (U+135F, which counts with its letter), Georgian (lead byte E1 too, other letters) and
    // Cyrillic: 14, at every offset.
    let body = "ሰላም ዓለም። ትግርኛ ⶓⷀ ፲ ሰ\u{135f} გამარჯობა привет";
    counts_at_every_offset(body, f::ETHIOPIC_CHARS, 14);
    let x = scan(body);
    assert_eq!(x.v[f::OTHER_CHARS], 9, "Georgian only");
    assert_eq!(x.v[f::DIGITS], 1, "the Ethiopic ten");
    assert_eq!(
        x.v[f::OTHER_RUNS],
        6,
        "Ethiopic words run as other scripts' do"
    );
}

#[test]
fn myanmar_and_khmer_count_apart_from_thai_and_lao_at_every_offset() {
    use llm_preflight::internals::scan::{f, scan};
    // Thai `ภาษาไทย` (7) and Lao `ພາສາລາວ` (7), which share a count; Myanmar `မြန်မာ` (6, with its signs)
    // and its full stop `။` (punctuation); Khmer `ខ្មែរ` (5, with its signs) and its full stop `។` (a Khmer character:
    // 6); a Lao digit and a Myanmar one.
    let body = "ภาษาไทย ພາສາລາວ မြန်မာ။ ខ្មែរ។ ໑ ၁";
    counts_at_every_offset(body, f::SEA_CHARS, 14);
    counts_at_every_offset(body, f::MYANMAR_CHARS, 6);
    counts_at_every_offset(body, f::KHMER_CHARS, 6);
    let x = scan(body);
    assert_eq!(x.v[f::SEA_RUNS], 4, "the four scripts run alike");
    assert_eq!(x.v[f::DIGITS], 2);
    assert_eq!(x.v[f::SYM3], 1, "Myanmar's full stop");
}
