//! Calibrating from one's own traffic and backtesting a skip rule: on logs with known answers, and on a log built
//! from the calibration corpus with real tokenizer counts (`calibration/counts.tsv`).

use llm_preflight::{estimate, ContentKind, CustomProfile, Profile};
use llm_preflight::{parse_row, Backtest, Calibration, LogRow};
use llm_preflight::{Policy, Provider};
use std::path::Path;

struct Sample {
    split: String,
    text: String,
    o200k: u64,
}

/// Every corpus sample with its real o200k count.
fn corpus() -> Vec<Sample> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tsv = std::fs::read_to_string(root.join("calibration/counts.tsv")).expect("counts.tsv");
    let mut out = Vec::new();
    for line in tsv.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let path = root.join("corpus").join(c[1]).join(format!("{}.txt", c[0]));
        let text = std::fs::read_to_string(&path).expect("corpus sample");
        out.push(Sample {
            split: c[2].to_string(),
            text,
            o200k: c[5].parse().expect("o200k count"),
        });
    }
    assert!(out.len() > 1000);
    out
}

fn text_row(text: &str, tokens: u64) -> LogRow {
    LogRow {
        text: Some(text.to_string()),
        prompt_tokens: Some(tokens),
        ..LogRow::default()
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median absolute relative error of a profile's estimates against counts.
fn mae(samples: &[&Sample], truth: impl Fn(&Sample) -> f64, est: impl Fn(&str) -> f64) -> f64 {
    median(
        samples
            .iter()
            .map(|s| ((est(&s.text) - truth(s)) / truth(s)).abs())
            .collect(),
    )
}

#[test]
fn a_tokenizer_that_counts_heavier_is_learned_and_the_fit_generalises() {
    // A provider whose counts run 20% above o200k's (say, framing tokens the gateway's text does not show).
    // Fit on the corpus's fit split, judge on its held-out split.
    let all = corpus();
    let heavier = |s: &Sample| (s.o200k as f64 * 1.2).round();
    let mut fit = Calibration::new(Profile::O200k);
    for s in all.iter().filter(|s| s.split == "fit") {
        fit.add(&text_row(&s.text, heavier(s) as u64)).unwrap();
    }
    let (profile, report) = fit.finish("heavier").unwrap();
    let held: Vec<&Sample> = all.iter().filter(|s| s.split != "fit").collect();
    let shipped = mae(&held, heavier, |t| {
        estimate(t, Profile::O200k).tokens as f64
    });
    let fitted = mae(&held, heavier, |t| estimate(t, &profile).tokens as f64);
    let coverage = |p: llm_preflight::Tables| {
        held.iter()
            .filter(|s| {
                let e = estimate(&s.text, p);
                let t = heavier(s) as u64;
                e.low <= t && t <= e.high
            })
            .count() as f64
            / held.len() as f64
    };
    let (cov_shipped, cov_fitted) = (
        coverage(Profile::O200k.tables()),
        coverage(profile.tables()),
    );
    eprintln!(
        "held-out on a 1.2x tokenizer: median |error| shipped o200k {:.1}%, fitted {:.1}%; band coverage {:.1}% vs {:.1}% ({} fit rows, {} held out)",
        shipped * 100.0,
        fitted * 100.0,
        cov_shipped * 100.0,
        cov_fitted * 100.0,
        report.rows,
        held.len()
    );
    assert!(cov_fitted >= 0.9, "{cov_fitted}");
    assert!(shipped > 0.12, "shipped should be ~17% low here: {shipped}");
    assert!(
        fitted < 0.07,
        "fitted median error {fitted} (shipped {shipped})"
    );
    // The report saw the shipped profile run low on every refitted kind, and corrected up by about 1.2.
    let prose = report.kinds.iter().find(|k| k.kind == "prose").unwrap();
    assert!(prose.shipped_median_error < -0.1, "{prose:?}");
    let band = prose.band.as_ref().expect("prose refitted");
    assert!(
        (band.median_correction / 1.2 - 1.0).abs() < 0.06,
        "{band:?}"
    );
    // Held-out coverage of the refitted bands is near the 90% they aim at.
    let cov: Vec<f64> = report
        .kinds
        .iter()
        .filter_map(|k| k.band.as_ref())
        .map(|b| b.held_out_coverage)
        .collect();
    assert!(!cov.is_empty());
    assert!(median(cov.clone()) > 0.8, "{cov:?}");
    // And the profile file round-trips to the same estimates.
    let back = CustomProfile::from_json(&profile.to_json()).unwrap();
    for s in held.iter().take(50) {
        assert_eq!(estimate(&s.text, &back), estimate(&s.text, &profile));
    }
}

#[test]
fn the_real_counts_agree_with_the_shipped_profile() {
    // Calibrating on the very counts the shipped tables came from must find them about right.
    let all = corpus();
    let mut fit = Calibration::new(Profile::O200k);
    for s in all.iter().filter(|s| s.split != "fit") {
        fit.add(&text_row(&s.text, s.o200k)).unwrap();
    }
    let (_, report) = fit.finish("same").unwrap();
    let rows: u64 = report.kinds.iter().map(|k| k.rows).sum();
    assert_eq!(rows, report.rows);
    for k in report.kinds.iter().filter(|k| k.rows >= 30) {
        assert!(k.shipped_median_abs_error < 0.12, "{k:?}");
        if let Some(b) = &k.band {
            assert!((b.median_correction - 1.0).abs() < 0.08, "{k:?}");
        }
    }
}

#[test]
fn length_only_rows_fit_characters_per_token() {
    // Known answer: code at exactly 3 characters per token, Chinese at 1.5.
    let mut fit = Calibration::new(Profile::O200k);
    for i in 1..=200u64 {
        let chars = 300 * i;
        let row = |content, tokens| LogRow {
            chars: Some(chars),
            content: Some(content),
            prompt_tokens: Some(tokens),
            ..LogRow::default()
        };
        fit.add(&row(ContentKind::Code, chars / 3)).unwrap();
        fit.add(&row(ContentKind::Cjk, chars * 2 / 3)).unwrap();
    }
    // Length-only rows that name no kind are reported but not used.
    fit.add(&LogRow {
        chars: Some(100),
        prompt_tokens: Some(25),
        ..LogRow::default()
    })
    .unwrap();
    let (profile, report) = fit.finish("lengths").unwrap();
    let code = profile.tables().chars_per_token(ContentKind::Code);
    let cjk = profile.tables().chars_per_token(ContentKind::Cjk);
    for (got, want) in [(code, 3.0), (cjk, 1.5)] {
        for q in got {
            assert!((q - want).abs() < 1e-4, "{got:?} vs {want}");
        }
    }
    // Kinds it never saw keep the shipped values; no band was refitted from lengths.
    let prose = Profile::O200k.tables().chars_per_token(ContentKind::Prose);
    assert_eq!(profile.tables().chars_per_token(ContentKind::Prose), prose);
    assert!(report.kinds.iter().all(|k| k.band.is_none()));
    let unl = report
        .kinds
        .iter()
        .find(|k| k.kind == "unlabelled")
        .unwrap();
    assert_eq!((unl.rows, unl.chars_per_token[1]), (1, 4.0));
    // Length-only pricing with the fitted profile uses the fitted rate.
    let e = llm_preflight::estimate_chars(3000, ContentKind::Code, &profile);
    assert_eq!((e.low, e.tokens, e.high), (1000, 1000, 1000));
}

#[test]
fn output_caps_per_route() {
    let mut fit = Calibration::new(Profile::O200k);
    for i in 1..=2000u64 {
        let route = if i % 2 == 0 { "chat" } else { "summarise" };
        let completion = if route == "chat" { i } else { 100 };
        fit.add(&LogRow {
            chars: Some(400),
            content: Some(ContentKind::Prose),
            prompt_tokens: Some(100),
            completion_tokens: Some(completion),
            route: Some(route.into()),
            ..LogRow::default()
        })
        .unwrap();
    }
    let (_, report) = fit.finish("caps").unwrap();
    let chat = report
        .output_caps
        .iter()
        .find(|c| c.route == "chat")
        .unwrap();
    // Chat completions are 2, 4, ..., 2000: the p99.9 by nearest rank is the 999th of 1000.
    assert_eq!(
        (chat.requests, chat.p50, chat.p999, chat.max),
        (1000, 1000, 1998, 2000)
    );
    assert_eq!((chat.recommended_max_tokens, chat.cut_short), (1998, 1));
    let sum = report
        .output_caps
        .iter()
        .find(|c| c.route == "summarise")
        .unwrap();
    assert_eq!((sum.recommended_max_tokens, sum.cut_short), (100, 0));
}

#[test]
fn more_rows_than_the_reservoir_are_sampled_deterministically() {
    let run = || {
        let mut fit = Calibration::with_reservoir(Profile::O200k, 100);
        for i in 0..5000u64 {
            fit.add(&LogRow {
                chars: Some(1000 + i),
                content: Some(ContentKind::Json),
                prompt_tokens: Some(400),
                ..LogRow::default()
            })
            .unwrap();
        }
        fit.finish("s").unwrap()
    };
    let (a, ra) = run();
    let (b, rb) = run();
    assert!(ra.sampled);
    assert_eq!(a, b);
    assert_eq!(ra, rb);
    let med = ra.kinds[0].chars_per_token[1];
    // The true median is 3,500 / 400 = 8.75; a sample of 100 lands near it.
    assert!((med - 8.75).abs() < 0.6, "{med}");
}

#[test]
fn backtest_buckets_reconcile_with_known_answers() {
    // TPM 1,000. Row kinds, each with a known bucket:
    let big = "word ".repeat(2000); // ~2,000 tokens: never-sendable
    let small = "word ".repeat(20);
    let small = small.as_str();
    let rows = [
        (big.as_str(), 2000, 429, None, 5), // skipped, refused, truly doomed: prevented
        (big.as_str(), 900, 200, None, 1), // skipped but it succeeded (the provider counted 900): false skip
        (small, 25, 429, None, 7), // sent, refused (an empty bucket, not doom): not prevented
        (small, 25, 200, None, 11), // sent, succeeded
        (small, 25, 500, None, 2), // sent, failed otherwise
        (small, 25, 429, Some(5000u64), 3), // the output cap makes it doomed: skipped, prevented
    ];
    let mut bt = Backtest::new(
        Profile::O200k,
        Provider::OpenAi,
        1000.try_into().unwrap(),
        Policy::Median,
        Some(5000),
    );
    let mut n = 0;
    for (text, tokens, status, max_tokens, times) in rows {
        for i in 0..times {
            bt.add(&LogRow {
                text: Some(text.to_string()),
                prompt_tokens: Some(tokens),
                status: Some(status),
                max_tokens,
                ts_ms: Some(1_796_007_600_000 + i * 3_600_000),
                ..LogRow::default()
            })
            .unwrap();
            n += 1;
        }
    }
    let r = bt.finish(24);
    let t = r.never_sendable;
    assert_eq!(r.rows, n);
    assert_eq!(t.rows(), n);
    assert_eq!(t.skipped_refused, 5 + 3);
    assert_eq!(t.skipped_succeeded, 1);
    assert_eq!(t.sent_refused, 7);
    assert_eq!(t.sent_succeeded, 11);
    assert_eq!(t.sent_other, 2);
    assert_eq!(t.skipped_other, 0);
    assert_eq!(r.refusals, 15);
    assert_eq!(t.doomed_avoided, 8);
    assert_eq!(t.doomed_sent, 0);
    // The character cap at 5,000 skips the 10,000-character prompts only.
    let c = r.char_cap.unwrap();
    assert_eq!(
        (c.skipped_refused, c.skipped_succeeded, c.doomed_sent),
        (5, 1, 3)
    );
    assert_eq!(c.rows(), n);
    // The trend accounts for every timed row and refusal.
    assert_eq!(r.trend.iter().map(|p| p.rows).sum::<u64>(), n);
    assert_eq!(r.trend.iter().map(|p| p.refusals).sum::<u64>(), 15);
    assert_eq!(r.trend.iter().map(|p| p.prevented).sum::<u64>(), 8);
    assert!(r.trend.len() <= 24);
    assert!(r.svg().contains("class=\"prevented\""));
    // A row without status is refused.
    assert!(bt.add(&text_row("hi", 1)).unwrap_err().0.contains("status"));
}

#[test]
fn backtest_on_the_corpus_with_real_counts() {
    // Each sample as a request against 8,000 TPM: the real count decides doom; statuses as a provider would answer.
    let all = corpus();
    let tpm = 8000;
    let mut bt = Backtest::new(
        Profile::O200k,
        Provider::OpenAi,
        tpm.try_into().unwrap(),
        Policy::Median,
        None,
    );
    let mut doomed = 0;
    for s in &all {
        let status = if s.o200k > tpm { 429 } else { 200 };
        doomed += u64::from(s.o200k > tpm);
        bt.add(&text_row_status(&s.text, s.o200k, status)).unwrap();
    }
    let r = bt.finish(24);
    let t = r.never_sendable;
    assert_eq!(t.rows(), all.len() as u64);
    assert_eq!(t.doomed_avoided + t.doomed_sent, doomed);
    assert!(doomed > 20, "{doomed}");
    // The estimator catches nearly every doomed request and wrongly skips few good ones.
    assert!(t.doomed_avoided as f64 >= 0.85 * doomed as f64, "{t:?}");
    assert!(
        t.skipped_succeeded as f64 <= 0.02 * all.len() as f64,
        "{t:?}"
    );
}

fn text_row_status(text: &str, tokens: u64, status: u16) -> LogRow {
    LogRow {
        status: Some(status),
        ..text_row(text, tokens)
    }
}

#[test]
fn log_lines_parse_as_gateways_write_them() {
    let r = parse_row(r#"{"chars": 1200, "content": "code", "prompt_tokens": 400, "model": "gpt-4o", "status": 200, "ts": 1796007600}"#)
        .unwrap()
        .unwrap();
    assert_eq!(r.content, Some(ContentKind::Code));
    assert_eq!(r.char_count(), Some(1200));
    assert_eq!(r.ts_ms, Some(1_796_007_600_000));
}
