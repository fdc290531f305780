//! Texts from outside the corpus in the families the corpus lacks (issue 29): runs of one character and short
//! periodic patterns (of punctuation, and of letters and punctuation), made by a seeded generator, so the report (`calibration/FAMILIES.md`) shows how the estimator
//! does where the linear rates alone priced a run of any length as a constant.
//!
//! Nothing here is fitted on: the run tables are measured on runs of the characters of `calibration/run-chars.txt`
//! at lengths 4–300, 2,048 and 4,096 (alone); these texts are runs of 301–100,000 characters, alone or after a
//! probe-set text (real text from outside the corpus), and the non-ASCII ones are of characters the tables never
//! measured (their kind's measured spread prices them). Counted with tiktoken-rs (o200k, cl100k).

use crate::runs::{kind_of, read_run_chars};
use crate::{load_samples, pct, Accuracy};
use llm_preflight::internals::scan::kind;
use llm_preflight::internals::SplitMix64;
use llm_preflight::{estimate, ExactCounter, Profile};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

/// One generated text.
pub struct FamilyText {
    pub family: &'static str,
    pub what: String,
    pub text: String,
}

/// Code point ranges the non-ASCII runs draw from: letters of nine scripts, emoji, symbols and CJK punctuation.
const WIDE_RANGES: [(u32, u32); 12] = [
    (0x00e0, 0x00fe),   // Latin-1 letters
    (0x0430, 0x044f),   // Cyrillic
    (0x03b1, 0x03c9),   // Greek
    (0x0627, 0x064a),   // Arabic
    (0x0915, 0x0939),   // Devanagari
    (0x3041, 0x3096),   // Hiragana
    (0x4e00, 0x9fa5),   // CJK ideographs
    (0xac00, 0xd7a3),   // Hangul syllables
    (0x1f600, 0x1f64f), // emoji
    (0x2500, 0x257f),   // box drawing
    (0x2190, 0x21ff),   // arrows
    (0x3001, 0x3011),   // CJK punctuation
];

/// Texts per family: runs of one ASCII character, runs of one non-ASCII character, and each family of periodic
/// patterns. Over 40 texts a family's median error is mostly the draw (`calibrate families-draws` shows how far it
/// moves with the seed at 40 texts and at 400).
pub const PER_FAMILY: [usize; 3] = [800, 700, 400];

/// The seed of the report's texts.
pub const SEED: u64 = 29;

/// The report's texts: 1,500 runs of one character and 1,200 periodic patterns.
pub fn family_texts(root: &Path) -> Vec<FamilyText> {
    family_texts_with(root, SEED, PER_FAMILY)
}

/// The texts of `seed`, `per_family` of them (as [`PER_FAMILY`]).
pub fn family_texts_with(root: &Path, seed: u64, per_family: [usize; 3]) -> Vec<FamilyText> {
    let measured: BTreeSet<char> = read_run_chars(
        &std::fs::read_to_string(root.join("calibration/run-chars.txt")).unwrap_or_default(),
    )
    .into_iter()
    .collect();
    // Context: probe-set prose (real text from outside the corpus), its first 2,000 characters.
    let mut contexts: Vec<String> = load_samples(&root.join("calibration/probe"))
        .into_iter()
        .filter(|s| s.label.starts_with("prose-"))
        .map(|s| s.text.chars().take(2000).collect())
        .collect();
    contexts.truncate(60);
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    let len = |rng: &mut SplitMix64| (10f64.powf(2.5 + 2.5 * rng.next_f64()) as usize).max(301);
    let ascii: Vec<char> = (0x21u8..0x7f)
        .map(char::from)
        .filter(|&c| kind::merges(kind_of(c)))
        .collect();
    let mut add = |rng: &mut SplitMix64, family: &'static str, unit: String, n: usize| {
        let run = unit.repeat(n);
        let (text, what) = if rng.below(2) == 0 || contexts.is_empty() {
            (run, format!("{unit:?} x {n}"))
        } else {
            let c = &contexts[rng.below(contexts.len() as u64) as usize];
            (format!("{c}\n{run}\n"), format!("prose + {unit:?} x {n}"))
        };
        out.push(FamilyText { family, what, text });
    };
    for _ in 0..per_family[0] {
        let c = ascii[rng.below(ascii.len() as u64) as usize];
        let n = len(&mut rng);
        add(&mut rng, "run of one ASCII character", c.to_string(), n);
    }
    let mut wide = 0;
    while wide < per_family[1] {
        let (lo, hi) = WIDE_RANGES[rng.below(WIDE_RANGES.len() as u64) as usize];
        let Some(c) = char::from_u32(lo + rng.below((hi - lo + 1) as u64) as u32) else {
            continue;
        };
        if measured.contains(&c) || !kind::merges(kind_of(c)) {
            continue;
        }
        let n = len(&mut rng) / 4 + 301;
        add(&mut rng, "run of one non-ASCII character", c.to_string(), n);
        wide += 1;
    }
    let punct: Vec<char> = ascii
        .iter()
        .copied()
        .filter(char::is_ascii_punctuation)
        .collect();
    for (family, from) in [
        ("periodic pattern of 2-4 punctuation characters", &punct),
        ("periodic pattern of 2-4 letters and punctuation", &ascii),
    ] {
        for _ in 0..per_family[2] {
            let k = 2 + rng.below(3) as usize;
            let unit: String = (0..k)
                .map(|_| from[rng.below(from.len() as u64) as usize])
                .collect();
            let n = len(&mut rng) / k;
            add(&mut rng, family, unit, n);
        }
    }
    // Punctuation with blanks in its unit (a table of contents' leader dots `. . . `, `* * *` dividers): drawn
    // after the others, so that their texts stay as they were.
    let mut spaced = 0;
    while spaced < per_family[2] {
        let k = 2 + rng.below(3) as usize;
        let unit: String = (0..k)
            .map(|_| {
                if rng.below(3) == 0 {
                    ' '
                } else {
                    punct[rng.below(punct.len() as u64) as usize]
                }
            })
            .collect();
        if !unit.contains(' ') || unit.chars().all(|c| c == ' ') {
            continue;
        }
        let n = len(&mut rng) / k;
        add(
            &mut rng,
            "periodic pattern of punctuation and blanks",
            unit,
            n,
        );
        spaced += 1;
    }
    out
}

/// The families of `texts`, in the order they were drawn (each family's texts are drawn together).
fn families_of(texts: &[FamilyText]) -> Vec<&'static str> {
    let mut f: Vec<&'static str> = texts.iter().map(|t| t.family).collect();
    f.dedup();
    f
}

/// `calibration/FAMILIES.md`: per family and profile (o200k, cl100k), the median error, p90, within ±10% and the
/// band's coverage, and the texts outside the band.
pub fn families_report(root: &Path) -> String {
    let texts = family_texts(root);
    let mut md = String::from(
        "# Families outside the corpus: runs and periodic patterns\n\n\
         Generated by `calibrate/src/families.rs` (seeded; see its docs): runs of one character of 301–100,000\n\
         characters, alone or after a probe-set text, the non-ASCII ones of characters the run tables never measured;\n\
         and periodic patterns of 2–4 ASCII characters (punctuation, letters, blanks). Nothing is fitted on them. Regenerate with\n\
         `cargo run -p calibrate --release -- families`; a test fails when this report drifts.\n\n\
         | family | profile | n | median error | p90 error | within ±10% | coverage |\n|---|---|---|---|---|---|---|\n",
    );
    let mut misses = String::new();
    let families = families_of(&texts);
    for p in [Profile::O200k, Profile::Cl100k] {
        let counter = ExactCounter::new(p).expect("tiktoken loads");
        for fam in &families {
            let mut items = Vec::new();
            for t in texts.iter().filter(|t| t.family == *fam) {
                let truth = counter.count(&t.text);
                let e = estimate(&t.text, p);
                let inside = e.low <= truth && truth <= e.high;
                if !inside {
                    let _ = writeln!(
                        misses,
                        "- {} {}: {} tokens, estimated {} ({}–{})",
                        p.name(),
                        t.what,
                        truth,
                        e.tokens,
                        e.low,
                        e.high
                    );
                }
                items.push((e.tokens as f64, truth as f64, inside));
            }
            let a: Accuracy = crate::accuracy(&items);
            let _ = writeln!(
                md,
                "| {fam} | {} | {} | {} | {} | {} | {} |",
                p.name(),
                items.len(),
                pct(a.median),
                pct(a.p90),
                pct(a.within10),
                pct(a.coverage)
            );
        }
    }
    md.push_str("\nOutside the band:\n\n");
    if misses.is_empty() {
        md.push_str("- none\n");
    } else {
        md.push_str(&misses);
    }
    md
}

/// `calibrate families-draws`: how far each family's median error moves with the draw. For 20 other seeds (1-20),
/// at the report's sizes and at a tenth of them, the least, middle and greatest of the 20 medians, per family and
/// profile (o200k, cl100k).
pub fn families_draws(root: &Path) -> String {
    let counters = [Profile::O200k, Profile::Cl100k]
        .map(|p| (p, ExactCounter::new(p).expect("tiktoken loads")));
    let mut md = String::from(
        "| family | profile | texts | least median | middle | greatest |\n|---|---|---|---|---|---|\n",
    );
    for per_family in [PER_FAMILY.map(|n| n / 10), PER_FAMILY] {
        // (family, profile) -> the medians, one a seed.
        let mut medians: Vec<(&'static str, Profile, usize, Vec<f64>)> = Vec::new();
        for seed in 1..=20 {
            let texts = family_texts_with(root, seed, per_family);
            for (p, counter) in &counters {
                for fam in families_of(&texts) {
                    let items: Vec<(f64, f64, bool)> = texts
                        .iter()
                        .filter(|t| t.family == fam)
                        .map(|t| {
                            (
                                estimate(&t.text, *p).tokens as f64,
                                counter.count(&t.text) as f64,
                                true,
                            )
                        })
                        .collect();
                    let m = crate::accuracy(&items);
                    match medians.iter_mut().find(|(f, q, _, _)| *f == fam && q == p) {
                        Some(row) => row.3.push(m.median),
                        None => medians.push((fam, *p, m.n, vec![m.median])),
                    }
                }
            }
        }
        for (fam, p, n, mut v) in medians {
            v.sort_by(f64::total_cmp);
            let _ = writeln!(
                md,
                "| {fam} | {} | {n} | {} | {} | {} |",
                p.name(),
                pct(v[0]),
                pct(v[v.len() / 2]),
                pct(v[v.len() - 1])
            );
        }
    }
    md
}
