//! What a periodic pattern costs a byte, by its period: the median tokens per byte of generated patterns (their own
//! seed; `families.rs` draws the evaluation texts with another), per profile, into `src/periodic_rates.rs`.
//!
//! A tokenizer merges a long pattern of punctuation (letters and blanks among it or not), or of letters alone, the way
//! its vocabulary merges the unit: o200k makes most units of period 2 one token, most of period 3 two, of period 4
//! two or three. The
//! scanner counts the window ends of each period (`Runs::periodic_ends`); the estimate prices a pattern's bytes at
//! its period's rate, where the linear rates fitted on prose priced them 22-29% off, and keeps the band (a token a
//! character down to the longest run-token) as it is.
//!
//! - `calibrate periodic-texts DIR` writes the texts to `DIR/periodic/*.txt`, which
//!   `node calibration/vendors/count.mjs DIR > calibration/vendor-periodic.tsv` counts for the vendors' profiles;
//! - `calibrate periodic` counts o200k and cl100k with tiktoken-rs, reads that TSV, and writes the table.

use crate::{lit, read_vendor_counts, NP};
use llm_preflight::internals::scan::scan;
use llm_preflight::internals::SplitMix64;
use llm_preflight::{ExactCounter, Profile};
use std::fmt::Write as _;
use std::path::Path;

/// Patterns per shape (punctuation, letters and punctuation, punctuation and blanks, letters alone).
const PER_SHAPE: usize = 120;

/// The generated patterns, `(id, text)`: units of 2-4 characters with punctuation in them, or of letters alone,
/// repeated to about 1,200 bytes.
pub fn texts() -> Vec<(String, String)> {
    let punct: Vec<char> = (0x21u8..0x7f)
        .map(char::from)
        .filter(char::is_ascii_punctuation)
        .collect();
    let letters_punct: Vec<char> = (0x21u8..0x7f)
        .map(char::from)
        .filter(|c| c.is_ascii_punctuation() || c.is_ascii_alphabetic())
        .collect();
    let letters: Vec<char> = (0x21u8..0x7f)
        .map(char::from)
        .filter(char::is_ascii_alphabetic)
        .collect();
    let mut rng = SplitMix64::new(7);
    let mut out = Vec::new();
    // Letters alone come last, so the others' texts stay as they were.
    for (shape, from, blanks) in [
        (0, &punct, false),
        (1, &letters_punct, false),
        (2, &punct, true),
        (3, &letters, false),
    ] {
        let mut n = 0;
        while n < PER_SHAPE {
            let k = 2 + rng.below(3) as usize;
            let unit: String = (0..k)
                .map(|_| {
                    if blanks && rng.below(3) == 0 {
                        ' '
                    } else {
                        from[rng.below(from.len() as u64) as usize]
                    }
                })
                .collect();
            // A unit of letters alone has no punctuation, and is no run of one letter.
            let punctuated = unit.bytes().any(|b| b.is_ascii_punctuation());
            let one_letter = unit.bytes().all(|b| b == unit.as_bytes()[0]);
            if punctuated != (shape != 3)
                || shape == 3 && one_letter
                || blanks != unit.contains(' ')
            {
                continue;
            }
            out.push((format!("periodic-{shape}-{n:02}"), unit.repeat(1200 / k)));
            n += 1;
        }
    }
    out
}

/// Writes the texts to `dir/periodic/ID.txt`.
pub fn write_texts(dir: &Path) {
    let sub = dir.join("periodic");
    std::fs::create_dir_all(&sub).expect("create the texts' folder");
    for (id, text) in texts() {
        std::fs::write(sub.join(format!("{id}.txt")), text).expect("write a text");
    }
}

/// The one class of periodic window the scanner finds in a text (`Runs::periodic_ends`' order: period 2, 3, 4 of a
/// unit of punctuation, then with a blank in it, then with a letter, then of letters alone), if one and only one.
fn class(e: [u64; 12]) -> Option<usize> {
    let one = |[e2, e3, e4]: [u64; 3]| match (e2, e3, e4) {
        (a, 0, b) if a > 0 && a == b => Some(0),
        (0, a, 0) if a > 0 => Some(1),
        (0, 0, a) if a > 0 => Some(2),
        _ => None,
    };
    let mut found =
        (0..4).filter_map(|c| Some(3 * c + one([e[3 * c], e[3 * c + 1], e[3 * c + 2]])?));
    match (found.next(), e.iter().filter(|&&x| x > 0).count()) {
        (Some(k), n) if n <= 2 && found.next().is_none() => Some(k),
        _ => None,
    }
}

/// `src/periodic_rates.rs`: per profile, the median tokens per periodic byte of the texts of each period.
pub fn rates_source(root: &Path) -> String {
    let texts = texts();
    let vendor = read_vendor_counts(&root.join("calibration/vendor-periodic.tsv"));
    let mut rates = [[0.0f64; 12]; NP];
    let mut sizes = [0usize; 12];
    let counters = [Profile::O200k, Profile::Cl100k]
        .map(|p| (p, ExactCounter::new(p).expect("tiktoken loads")));
    // Each text scanned once: its class and its periodic bytes.
    let classed: Vec<(&str, &str, usize, f64)> = texts
        .iter()
        .filter_map(|(id, text)| {
            let runs = scan(text).runs;
            Some((
                id.as_str(),
                text.as_str(),
                class(runs.periodic_ends)?,
                // A pattern of letters alone is periodic only past its run's 64th byte, and its first bytes keep
                // their fitted price: the rate is the whole text's, a byte.
                if runs.periodic_plain > 0 {
                    text.len() as f64
                } else {
                    runs.periodic as f64
                },
            ))
        })
        .collect();
    for (pi, profile) in Profile::ALL.iter().enumerate() {
        let mut by_class: [Vec<f64>; 12] = Default::default();
        for &(id, text, k, bytes) in &classed {
            let tokens = match counters.iter().find(|(q, _)| q == profile) {
                Some((_, c)) => Some(c.count(text)),
                None => vendor.get(id).and_then(|row| row[pi]),
            };
            let tokens = tokens.unwrap_or_else(|| {
                panic!("no {} count for {id}: run `node calibration/vendors/count.mjs` (see periodic.rs)", profile.name())
            });
            by_class[k].push(tokens as f64 / bytes);
        }
        for (k, mut v) in by_class.into_iter().enumerate() {
            assert!(!v.is_empty(), "no text of class {k}");
            v.sort_by(f64::total_cmp);
            rates[pi][k] = f64::from(v[v.len() / 2] as f32);
            sizes[k] = v.len();
        }
    }
    let mut s = String::from(
        "//! Generated by `cargo run -p calibrate --release -- periodic` (see `calibrate/src/periodic.rs`); do not edit.\n\n",
    );
    let _ = writeln!(
        s,
        "/// Per profile, tokens per byte of a periodic pattern of period 2, 3 and 4 of a unit of punctuation, then with a\n\
         /// blank in the unit, then with a letter, then of letters alone: the median over generated patterns,\n\
         /// counted with each profile's tokenizer ({:?} of them).",
        sizes
    );
    let _ = writeln!(s, "pub(crate) const PERIODIC_RATE: [[f32; 12]; {NP}] = [");
    for (pi, r) in rates.iter().enumerate() {
        let cells: Vec<String> = r.iter().map(|&x| lit(x)).collect();
        let _ = writeln!(
            s,
            "    [{}], // {}",
            cells.join(", "),
            Profile::ALL[pi].name()
        );
    }
    s.push_str("];\n");
    s
}
