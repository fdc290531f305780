//! `cargo run -p calibrate --release -- <counts|fit|eval|probe|cv [P] [--by-source]|prefixes|diag|...>` (crate docs)

use calibrate::*;
use llm_preflight::internals::estimate::from_features_with;
use llm_preflight::ContentKind;
use llm_preflight::Profile;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cmd = std::env::args().nth(1).unwrap_or_default();
    let arg = std::env::args().nth(2);
    let root = root();
    match cmd.as_str() {
        "counts" => counts(&root),
        "fit" => fit(&root),
        "families" => {
            std::fs::write(
                root.join("calibration/FAMILIES.md"),
                families::families_report(&root),
            )
            .expect("write FAMILIES.md");
            eprintln!("wrote calibration/FAMILIES.md");
        }
        "families-draws" => print!("{}", families::families_draws(&root)),
        "han-tier" => {
            std::fs::write(root.join("src/scan/han_tier.rs"), runs::han_tier_source())
                .expect("write han_tier.rs");
            eprintln!("wrote src/scan/han_tier.rs");
        }
        "periodic-texts" => {
            let Some(dir) = arg else {
                eprintln!("usage: calibrate periodic-texts DIR");
                return ExitCode::from(2);
            };
            calibrate::periodic::write_texts(Path::new(&dir));
            eprintln!("wrote {dir}/periodic/*.txt");
        }
        "periodic" => {
            std::fs::write(
                root.join("src/periodic_rates.rs"),
                calibrate::periodic::rates_source(&root),
            )
            .expect("write periodic_rates.rs");
            eprintln!("wrote src/periodic_rates.rs");
        }
        "run-chars" => {
            let (chars, vocab) = runs::all_run_chars(&load_corpus(&root));
            std::fs::write(
                root.join("calibration/run-chars.txt"),
                runs::write_run_chars(&chars, &vocab),
            )
            .expect("write run-chars.txt");
            eprintln!(
                "wrote calibration/run-chars.txt ({} characters)",
                chars.len()
            );
        }
        "eval" => eval(&root),
        "cv" => {
            let args: Vec<String> = std::env::args().skip(2).collect();
            let by_source = args.iter().any(|a| a == "--by-source");
            let profiles: Vec<&str> = args
                .iter()
                .filter(|a| !a.starts_with("--"))
                .map(String::as_str)
                .collect();
            let known = |a: &&str| Profile::ALL.iter().any(|p| p.name() == *a);
            if args
                .iter()
                .any(|a| a.starts_with("--") && a != "--by-source")
                || profiles.len() > 1
                || !profiles.iter().all(known)
            {
                eprintln!("usage: calibrate cv [PROFILE] [--by-source]");
                return ExitCode::from(2);
            }
            cv(&root, profiles.first().copied(), by_source)
        }
        "prefixes" => prefixes(&root, arg.as_deref()),
        "diag" => diag(&root, arg.as_deref().unwrap_or("o200k")),
        "probe" => {
            std::fs::write(root.join("calibration/PROBE.md"), probe_report(&root))
                .expect("write PROBE.md");
            eprintln!("wrote calibration/PROBE.md");
        }
        "split" => {
            // Debugging aid: how tiktoken cuts a file (o200k), one token per line.
            let Some(path) = arg else {
                eprintln!("usage: calibrate split FILE");
                return ExitCode::from(2);
            };
            let text = std::fs::read_to_string(path).expect("read");
            let bpe = tiktoken_rs::o200k_base().expect("o200k");
            for t in bpe.split_by_token_ordinary(&text).expect("split") {
                println!("{t:?}");
            }
        }
        _ => {
            eprintln!(
                "usage: calibrate han-tier | run-chars | families-draws | periodic-texts DIR | periodic | families | counts | fit | eval | probe | cv [PROFILE] | prefixes [PROFILE] | diag [PROFILE] | split FILE"
            );
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

fn counts(root: &Path) {
    let samples = load_corpus(root);
    let vendor = read_vendor_counts(&root.join("calibration/vendor-counts.tsv"));
    let missing = samples
        .iter()
        .filter(|s| !vendor.contains_key(&s.id))
        .count();
    if missing > 0 {
        eprintln!(
            "warning: {missing} samples have no vendor counts (run calibration/vendors/count.mjs)"
        );
    }
    let rows = count_corpus(&samples, &vendor);
    std::fs::write(root.join("calibration/counts.tsv"), write_counts(&rows))
        .expect("write counts.tsv");
    eprintln!("counted {} samples", rows.len());
    let chars = runs::read_run_chars(
        &std::fs::read_to_string(root.join("calibration/run-chars.txt"))
            .expect("calibration/run-chars.txt (calibrate run-chars)"),
    );
    let mut run_rows = runs::measure_openai(&chars);
    run_rows.extend(
        runs::read_runs(&root.join("calibration/vendor-runs.tsv"))
            .into_iter()
            .filter(|r| r.profile > Profile::Cl100k as usize),
    );
    std::fs::write(
        root.join("calibration/runs.tsv"),
        runs::write_runs(&run_rows),
    )
    .expect("write runs.tsv");
    eprintln!("measured runs of {} characters", chars.len());
}

fn fit(root: &Path) {
    let samples = load_corpus(root);
    let rows = read_counts(&root.join("calibration/counts.tsv"));
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
    std::fs::write(
        root.join("src/tables.rs"),
        render_tables(&t, n_fit, prepared.len()),
    )
    .expect("write tables");
    eprintln!(
        "fitted on {n_fit} of {} samples; wrote src/tables.rs",
        prepared.len()
    );
}

fn eval(root: &Path) {
    let md = report(root);
    std::fs::write(root.join("calibration/REPORT.md"), &md).expect("write REPORT.md");
    print!("{md}");
}

/// How often the band's high end falls as a text grows, on the fit split's samples: each sample's prefixes at 40
/// cuts (on character boundaries, anywhere in a word or not), each estimated whole by each profile; a cut whose high
/// end is below the highest of the shorter prefixes' counts, apart by whether the detected kind differs from that
/// prefix's. `estimate` is a function of the text alone, so nothing here is remembered between cuts.
fn prefixes(root: &Path, only: Option<&str>) {
    let samples = load_corpus(root);
    println!("| profile | cuts | high end fell | of which the kind changed | largest fall | high / median |");
    println!("|---|---|---|---|---|---|");
    let mut changes: BTreeMap<(&str, &str), u64> = BTreeMap::new();
    for p in Profile::ALL {
        if only.is_some_and(|o| o != p.name()) {
            continue;
        }
        let (mut cuts, mut fell, mut kind_changed, mut worst) = (0u64, 0u64, 0u64, 0.0f64);
        // How wide the high side is on the whole samples: the high end over the median, their median.
        let mut widths = Vec::new();
        for s in samples.iter().filter(|s| split_of(&s.id) == "fit") {
            let t = &s.text;
            let mut top: Option<(u64, ContentKind)> = None;
            for i in 1..=40 {
                let mut c = t.len() * i / 40;
                while !t.is_char_boundary(c) {
                    c += 1;
                }
                let e = llm_preflight::estimate(&t[..c], p);
                cuts += 1;
                match top {
                    Some((h, k)) if e.high < h => {
                        fell += 1;
                        if k != e.content.kind {
                            kind_changed += 1;
                            *changes
                                .entry((k.name(), e.content.kind.name()))
                                .or_default() += 1;
                        }
                        worst = worst.max(1.0 - e.high as f64 / h as f64);
                    }
                    _ => top = Some((e.high, e.content.kind)),
                }
                if i == 40 {
                    widths.push(e.high as f64 / e.tokens.max(1) as f64);
                }
            }
        }
        widths.sort_by(f64::total_cmp);
        println!(
            "| {} | {cuts} | {fell} ({}) | {kind_changed} | {} | {:.3} |",
            p.name(),
            pct(fell as f64 / cuts.max(1) as f64),
            pct(worst),
            widths.get(widths.len() / 2).copied().unwrap_or(0.0)
        );
    }
    let mut by_count: Vec<_> = changes.into_iter().collect();
    by_count.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    println!();
    println!("| kind of the higher prefix | kind after | cuts |");
    println!("|---|---|---|");
    for ((a, b), n) in by_count {
        println!("| {a} | {b} | {n} |");
    }
}

/// 5-fold cross-validation inside the fit split: for choosing features and rules without looking at `eval`.
/// With MISSES set, prints every held-out sample outside its band; with SHOW=<label>, every held-out sample of that
/// labelled kind (signed error, band, source), as a fold prices it. With `--by-source`, the outer folds keep each
/// source's samples together ([`source_fold`]), so each is scored by rates and bands fitted without its source;
/// the fit inside each fold is the shipped one.
fn cv(root: &Path, only: Option<&str>, by_source: bool) {
    let samples = load_corpus(root);
    let rows = read_counts(&root.join("calibration/counts.tsv"));
    let prepared = prepare(&samples, &rows);
    let fit: Vec<&Prepared> = prepared.iter().filter(|d| d.row.split == "fit").collect();
    let sources = load_sources(&root.join("corpus"));
    let fold = |d: &Prepared| match sources.get(&d.row.id) {
        Some(src) if by_source => source_fold(src),
        _ => cv_fold(&d.row.id),
    };
    let show_misses = std::env::var_os("MISSES").is_some();
    let show_label = std::env::var("SHOW").ok();
    for p in Profile::ALL {
        if only.is_some_and(|o| o != p.name()) {
            continue;
        }
        let pi = p as usize;
        let mut items = Vec::new();
        // high / low per sample: how wide the bands are that the coverage is bought with.
        let mut widths: Vec<f64> = Vec::new();
        let mut by_label: BTreeMap<&str, Vec<(f64, f64, bool)>> = BTreeMap::new();
        // Samples over the high end, and the mean high over median: the additive high end, and the bands'.
        let (mut over, mut width) = ([0u64; 2], [0.0f64; 2]);
        // Per labelled kind: samples, and those over each high end.
        let mut over_by: BTreeMap<&str, [u64; 3]> = BTreeMap::new();
        // Each fold's samples are priced by rates fitted on the other four.
        for k in 0..5 {
            let train: Vec<&Prepared> = fit.iter().copied().filter(|d| fold(d) != k).collect();
            let w = &quantized_weights(&train, pi);
            let oof = oof_weights(&train, pi);
            let bm = fit_band_model(&residuals_oof(&train, pi, &oof), FIT_COVERAGE);
            let high = fit_high(&train, pi, &oof, &bm, HIGH_COVERAGE);
            for d in fit.iter().filter(|d| fold(d) == k) {
                let Some(t) = d.row.truth[pi] else { continue };
                let e = from_features_with(&d.x, p, w, &bm.kinds, bm.spread, Some(&high));
                let banded = from_features_with(&d.x, p, w, &bm.kinds, bm.spread, None);
                over[0] += u64::from(t > e.high);
                over[1] += u64::from(t > banded.high);
                let o = over_by.entry(d.row.label.as_str()).or_default();
                o[0] += 1;
                o[1] += u64::from(t > e.high);
                o[2] += u64::from(t > banded.high);
                width[0] += e.high as f64 / e.tokens.max(1) as f64;
                width[1] += banded.high as f64 / banded.tokens.max(1) as f64;
                let it = (e.tokens as f64, t as f64, e.low <= t && t <= e.high);
                widths.push(e.high as f64 / (e.low as f64).max(1.0));
                let show = show_label.as_deref() == Some(d.row.label.as_str());
                if show || (!it.2 && show_misses) {
                    let row = format!(
                        "{} {} true {} est {} band {}..{} chars {}",
                        d.row.id,
                        ContentKind::detect(&d.x).name(),
                        t,
                        e.tokens,
                        e.low,
                        e.high,
                        d.row.chars
                    );
                    if show {
                        println!(
                            "{row} error {:+.1}% source {}",
                            (e.tokens as f64 - t as f64) / t as f64 * 100.0,
                            sources.get(&d.row.id).map_or("", |s| s.as_str())
                        );
                    }
                    if !it.2 && show_misses {
                        println!("miss {row}");
                    }
                }
                items.push(it);
                by_label.entry(d.row.label.as_str()).or_default().push(it);
            }
        }
        let n = items.len().max(1) as f64;
        println!(
            "{:13} high end: {} samples over it, mean high/median {:.3} (the bands' high end: {}, {:.3})",
            p.name(),
            over[0],
            width[0] / n,
            over[1],
            width[1] / n
        );
        for (i, what) in [(1, "additive"), (2, "bands'")] {
            let mut v: Vec<(f64, &str)> = over_by
                .iter()
                .map(|(l, o)| (1.0 - o[i] as f64 / o[0] as f64, *l))
                .collect();
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            let worst: Vec<String> = v
                .iter()
                .take(4)
                .map(|(c, l)| format!("{l} {}", pct(*c)))
                .collect();
            println!(
                "  under the {what} high end, worst kinds: {}",
                worst.join(", ")
            );
        }
        let a = accuracy(&items);
        let mut per: Vec<(&str, Accuracy)> =
            by_label.iter().map(|(l, v)| (*l, accuracy(v))).collect();
        if std::env::var_os("LABELS").is_some() {
            for (l, a) in &per {
                println!(
                    "  {l:12} median {} within10 {} coverage {}",
                    pct(a.median),
                    pct(a.within10),
                    pct(a.coverage)
                );
            }
        }
        per.sort_by(|a, b| b.1.median.total_cmp(&a.1.median));
        let worst: Vec<String> = per
            .iter()
            .take(4)
            .map(|(l, a)| format!("{l} {}/{:.0}%", pct(a.median), a.coverage * 100.0))
            .collect();
        per.sort_by(|a, b| a.1.coverage.total_cmp(&b.1.coverage));
        let worst_cov: Vec<String> = per
            .iter()
            .take(3)
            .map(|(l, a)| format!("{l} {:.0}%", a.coverage * 100.0))
            .collect();
        widths.sort_by(f64::total_cmp);
        let width = widths.get(widths.len() / 2).copied().unwrap_or(1.0);
        println!(
            "{:13} cv median {} p90 {} within10 {} coverage {} (high/low median {:.2}) | worst {} | cov {}",
            p.name(),
            pct(a.median),
            pct(a.p90),
            pct(a.within10),
            pct(a.coverage),
            width,
            worst.join(", "),
            worst_cov.join(", ")
        );
    }
}

/// Diagnostics for feature work: per-label signed bias and the worst samples (fit split only).
fn diag(root: &Path, profile: &str) {
    let Ok(p) = Profile::from_name(profile) else {
        eprintln!("unknown profile {profile}");
        return;
    };
    let samples = load_corpus(root);
    let rows = read_counts(&root.join("calibration/counts.tsv"));
    let prepared = prepare(&samples, &rows);
    let mut by_label: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let mut worst = Vec::new();
    for d in prepared.iter().filter(|d| d.row.split == "fit") {
        let Some(t) = d.row.truth[p as usize] else {
            continue;
        };
        let (e, lo, hi) = predict(d, p);
        let lin = predict_linear(d, p);
        let r = (e - t as f64) / t as f64;
        by_label
            .entry(d.row.label.as_str())
            .or_default()
            .push((lin - t as f64) / t as f64);
        worst.push((
            r.abs(),
            d.row.id.clone(),
            ContentKind::detect(&d.x).name(),
            t,
            e,
            lo,
            hi,
            d.row.chars,
        ));
    }
    for (l, v) in &by_label {
        let mut v = v.clone();
        v.sort_by(f64::total_cmp);
        println!(
            "{l:14} n={:3} linear bias median {:+.1}%  p10 {:+.1}% p90 {:+.1}%",
            v.len(),
            v[v.len() / 2] * 100.0,
            v[v.len() / 10] * 100.0,
            v[v.len() * 9 / 10] * 100.0
        );
    }
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    for w in worst.iter().take(25) {
        println!(
            "{:6.1}% {:20} {:12} true {:6} est {:6.0} band {}..{} chars {}",
            w.0 * 100.0,
            w.1,
            w.2,
            w.3,
            w.4,
            w.5,
            w.6,
            w.7
        );
    }
}
