//! The committed tables and counts must be exactly what the committed corpus gives.
//!
//! - `src/tables.rs` equals a fresh fit of `calibration/counts.tsv` over `corpus/` (regenerate: `calibration/regenerate.sh`).
//! - tiktoken-rs recounts of every sample equal the committed o200k and cl100k counts.
//! - `calibration/FAMILIES.md`, `src/scan/han_tier.rs` and `calibration/run-chars.txt` are what their generators give;
//!   the README quotes the held-out summary, the families' table and the probe rows of the families' kinds as they are.
//! - `src/periodic_rates.rs` is what the generated periodic patterns give (`calibration/vendor-periodic.tsv`).
//! - every sample has a SOURCES.tsv row, and the corpus keeps its own rules (sizes, no registry host names).

use calibrate::*;
use llm_preflight::Profile;
use std::collections::BTreeSet;

#[test]
fn tables_match_a_fresh_fit() {
    let root = root();
    let samples = load_corpus(&root);
    let rows = read_counts(&root.join("calibration/counts.tsv"));
    assert_eq!(
        rows.len(),
        samples.len(),
        "counts.tsv and corpus/ disagree on the number of samples: regenerate"
    );
    let prepared = prepare(&samples, &rows);
    let t = fit_all(
        &prepared,
        &runs::read_runs(&root.join("calibration/runs.tsv")),
        &runs::read_vocab_chars(
            &std::fs::read_to_string(root.join("calibration/run-chars.txt"))
                .expect("run-chars.txt"),
        ),
    );
    let n_fit = prepared.iter().filter(|d| d.row.split == "fit").count();
    let fresh = render_tables(&t, n_fit, prepared.len());
    let committed = std::fs::read_to_string(root.join("src/tables.rs")).expect("src/tables.rs");
    if fresh != committed {
        let diff: Vec<String> = fresh
            .lines()
            .zip(committed.lines())
            .filter(|(a, b)| a != b)
            .take(5)
            .map(|(a, b)| format!("fit:       {a}\ncommitted: {b}"))
            .collect();
        panic!("src/tables.rs differs from the fit of the committed counts (run calibration/regenerate.sh):\n{}", diff.join("\n"));
    }
}

#[test]
fn openai_counts_match_tiktoken() {
    let root = root();
    let samples = load_corpus(&root);
    let committed = read_counts(&root.join("calibration/counts.tsv"));
    let fresh = count_corpus(&samples, &Default::default());
    assert_eq!(committed.len(), fresh.len());
    for (c, f) in committed.iter().zip(&fresh) {
        assert_eq!(
            (&c.id, &c.label, &c.split, c.chars, c.bytes),
            (&f.id, &f.label, &f.split, f.chars, f.bytes)
        );
        assert_eq!(c.truth[0], f.truth[0], "o200k count of {}", c.id);
        assert_eq!(c.truth[1], f.truth[1], "cl100k count of {}", c.id);
    }
}

#[test]
fn every_sample_is_sourced_and_within_the_rules() {
    let root = root();
    let samples = load_corpus(&root);
    assert!(
        samples.len() >= 1000,
        "the corpus has {} samples",
        samples.len()
    );
    let labels: BTreeSet<&str> = samples.iter().map(|s| s.label.as_str()).collect();
    for label in &labels {
        let sources = std::fs::read_to_string(root.join("corpus").join(label).join("SOURCES.tsv"))
            .unwrap_or_else(|_| panic!("corpus/{label}/SOURCES.tsv is missing"));
        let ids: BTreeSet<&str> = sources
            .lines()
            .skip(1)
            .filter_map(|l| l.split('\t').next())
            .collect();
        let have: BTreeSet<&str> = samples
            .iter()
            .filter(|s| s.label == *label)
            .map(|s| s.id.as_str())
            .collect();
        assert_eq!(
            ids, have,
            "corpus/{label}/SOURCES.tsv must list exactly its samples"
        );
        for line in sources.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            assert!(
                cols.len() >= 3 && !cols[1].is_empty() && !cols[2].is_empty(),
                "origin and licence: {line}"
            );
            assert!(
                cols[1].contains(": "),
                "an origin names its source, then \": \" and the file: {line}"
            );
        }
        let n = have.len();
        assert!(n >= 30, "corpus/{label} has only {n} samples");
    }
    // `calibrate cv --by-source` keeps each source's samples in one fold: every sample names one.
    let sources = load_sources(&root.join("corpus"));
    let mut folds = [0usize; 5];
    for s in &samples {
        let src = sources
            .get(&s.id)
            .unwrap_or_else(|| panic!("{} has no source", s.id));
        folds[source_fold(src)] += 1;
    }
    assert!(
        folds.iter().all(|&n| n * 10 > samples.len()),
        "the sources' folds are lopsided: {folds:?}"
    );
    for s in &samples {
        let chars = s.text.chars().count();
        assert!(
            (200..=40_000).contains(&chars),
            "{} has {chars} chars",
            s.id
        );
        let lower = s.text.to_lowercase();
        for b in BANNED {
            assert!(!lower.contains(b), "{} names a registry host", s.id);
        }
    }
}

/// Package registries' host names, assembled from parts so this file does not name them itself.
const BANNED: [&str; 6] = [
    concat!("crates", ".", "io"),
    concat!("py", "pi"),
    concat!("python", "hosted"),
    concat!("npm", "js"),
    concat!("debian", ".", "org"),
    concat!("registry", ".", "yarn", "pkg"),
];

#[test]
fn scanning_in_pieces_equals_scanning_whole_on_the_corpus() {
    use llm_preflight::internals::scan::{scan, Scanner};
    for (n, s) in load_corpus(&root()).iter().enumerate() {
        let whole = scan(&s.text);
        let bytes = s.text.as_bytes();
        let mut sc = Scanner::new();
        // Deterministic uneven piece sizes, splitting inside UTF-8 sequences too.
        let mut at = 0;
        let mut k = n;
        while at < bytes.len() {
            let len = 1 + (k * 7919) % 61;
            let end = (at + len).min(bytes.len());
            sc.feed_bytes(&bytes[at..end]);
            at = end;
            k += 1;
        }
        assert_eq!(sc.features(), whole, "{}", s.id);
    }
}

#[test]
fn report_and_readme_tell_what_the_tables_give() {
    let root = root();
    let fresh = report(&root);
    let committed =
        std::fs::read_to_string(root.join("calibration/REPORT.md")).expect("calibration/REPORT.md");
    assert!(
        fresh == committed,
        "calibration/REPORT.md is stale: run calibration/regenerate.sh"
    );
    // The README quotes the held-out summary table row for row.
    let eval = fresh.split("### Per content kind").next().unwrap_or("");
    readme_quotes(&root, "calibration/REPORT.md", table_rows(eval));
}

#[test]
fn probe_report_tells_what_the_tables_give_and_the_probe_keeps_the_rules() {
    let root = root();
    let dir = root.join("calibration/probe");
    let samples = load_samples(&dir);
    assert!(
        samples.len() >= 200,
        "the probe set has {} texts",
        samples.len()
    );
    let vendor = read_vendor_counts(&dir.join("vendor-counts.tsv"));
    let labels: BTreeSet<&str> = samples.iter().map(|s| s.label.as_str()).collect();
    for label in &labels {
        let sources = std::fs::read_to_string(dir.join(label).join("SOURCES.tsv"))
            .unwrap_or_else(|_| panic!("calibration/probe/{label}/SOURCES.tsv is missing"));
        let ids: BTreeSet<&str> = sources
            .lines()
            .filter_map(|l| l.split('\t').next())
            .collect();
        for s in samples.iter().filter(|s| s.label == *label) {
            assert!(
                ids.contains(s.id.as_str()),
                "{} has no SOURCES.tsv row",
                s.id
            );
            assert!(vendor.contains_key(&s.id), "{} has no vendor counts", s.id);
        }
    }
    // Never a corpus sample: no id in common.
    let corpus: BTreeSet<String> = load_corpus(&root).into_iter().map(|s| s.id).collect();
    for s in &samples {
        assert!(!corpus.contains(&s.id), "{} is a corpus id too", s.id);
        let lower = s.text.to_lowercase();
        for b in BANNED {
            assert!(!lower.contains(b), "{} names a registry host", s.id);
        }
    }
    let committed =
        std::fs::read_to_string(root.join("calibration/PROBE.md")).expect("calibration/PROBE.md");
    assert!(
        probe_report(&root) == committed,
        "calibration/PROBE.md is stale: run calibration/regenerate.sh"
    );
    // The README quotes the rows of the kinds made for the families outside the corpus.
    let rows = ["prose-ar-diac", "prose-he-niqqud", "cjk-rare"].map(|kind| {
        committed
            .lines()
            .find(|l| l.starts_with(&format!("| {kind} | ")))
            .unwrap_or_else(|| panic!("calibration/PROBE.md has no row for {kind}"))
    });
    readme_quotes(&root, "calibration/PROBE.md", rows);
}

#[test]
fn families_report_tells_what_the_estimator_gives() {
    let root = root();
    let committed = std::fs::read_to_string(root.join("calibration/FAMILIES.md"))
        .expect("calibration/FAMILIES.md");
    assert!(
        families::families_report(&root) == committed,
        "calibration/FAMILIES.md is stale: run `cargo run -p calibrate --release -- families`"
    );
    // The README quotes the table row for row.
    readme_quotes(&root, "calibration/FAMILIES.md", table_rows(&committed));
}

/// A report's table rows that hold figures.
fn table_rows(report: &str) -> impl Iterator<Item = &str> {
    report
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains('%'))
}

/// Fails unless the README holds each of `rows`, as `report` has them.
fn readme_quotes<'a>(
    root: &std::path::Path,
    report: &str,
    rows: impl IntoIterator<Item = &'a str>,
) {
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    for row in rows {
        assert!(
            readme.contains(row),
            "README.md does not quote this row of {report}:\n{row}"
        );
    }
}

#[test]
fn the_han_tier_and_the_run_characters_are_what_their_sources_give() {
    let root = root();
    let committed =
        std::fs::read_to_string(root.join("src/scan/han_tier.rs")).expect("src/scan/han_tier.rs");
    assert!(
        runs::han_tier_source() == committed,
        "src/scan/han_tier.rs is stale: run `cargo run -p calibrate --release -- han-tier`"
    );
    let committed = std::fs::read_to_string(root.join("calibration/run-chars.txt"))
        .expect("calibration/run-chars.txt");
    assert!(
        {
            let (chars, vocab) = runs::all_run_chars(&load_corpus(&root));
            runs::write_run_chars(&chars, &vocab) == committed
        },
        "calibration/run-chars.txt is stale: run `cargo run -p calibrate --release -- run-chars`"
    );
}

#[test]
fn the_periodic_rates_are_what_the_generated_patterns_give() {
    let root = root();
    let ids: BTreeSet<String> = periodic::texts().into_iter().map(|(id, _)| id).collect();
    let vendor = read_vendor_counts(&root.join("calibration/vendor-periodic.tsv"));
    assert!(
        vendor.keys().cloned().collect::<BTreeSet<_>>() == ids,
        "calibration/vendor-periodic.tsv does not count the generated patterns: see calibrate/src/periodic.rs"
    );
    let committed =
        std::fs::read_to_string(root.join("src/periodic_rates.rs")).expect("src/periodic_rates.rs");
    assert!(
        periodic::rates_source(&root) == committed,
        "src/periodic_rates.rs is stale: run `cargo run -p calibrate --release -- periodic`"
    );
}

/// A run of any measured character, however cheaply its vocabulary merges it, is inside the estimate's band for
/// o200k and cl100k (the characters marked ` vocab` set their kind's least rate: `哈` × 4,096 is 2,048 o200k tokens,
/// below what the kind's typical characters cost).
#[test]
fn a_run_of_every_measured_character_is_inside_its_band() {
    let root = root();
    let text =
        std::fs::read_to_string(root.join("calibration/run-chars.txt")).expect("run-chars.txt");
    let chars: Vec<char> = runs::read_run_chars(&text)
        .into_iter()
        .filter(|c| !c.is_ascii() && !c.is_control())
        .collect();
    assert!(runs::read_vocab_chars(&text).len() >= 20);
    let mut outside = Vec::new();
    for p in [Profile::O200k, Profile::Cl100k] {
        let counter = llm_preflight::ExactCounter::new(p).expect("tiktoken loads");
        for &c in &chars {
            let run = c.to_string().repeat(4096);
            let (truth, e) = (counter.count(&run), llm_preflight::estimate(&run, p));
            if truth < e.low || truth > e.high {
                outside.push(format!("{p} {c:?}: {truth} outside {}–{}", e.low, e.high));
            }
        }
    }
    assert!(outside.is_empty(), "{}", outside.join("\n"));
}
