//! `llm-preflight calibrate` and `llm-preflight backtest`: read a gateway's log (streamed, any size) and hand each
//! row to the library's `traffic` module. The JSON report goes to stdout, a readable summary to stderr.

use super::estimate::Which;
use indicatif::{ProgressBar, ProgressStyle};
use llm_preflight::Policy;
use llm_preflight::{parse_row, Backtest, Calibration, LogRow, RowError};
use serde_json::json;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::ExitCode;

/// The longest log line read; a longer one is counted as malformed and skipped.
const MAX_LINE: u64 = 64 << 20;
/// Malformed rows listed by line number (all are counted).
const LIST_MALFORMED: usize = 20;

#[derive(clap::Args)]
pub struct CalibrateArgs {
    /// The log: JSON lines with `text` or `chars` (+ `content`), and `prompt_tokens`; `-` for stdin.
    log: String,
    /// Write the fitted profile here (load it with --profile-file, `Profile::from_json`, or the npm package).
    #[arg(short, long, value_name = "PROFILE.json")]
    output: Option<String>,
    /// Write an SVG histogram of characters per token, with the median and the band marked.
    #[arg(long, value_name = "PLOT.svg")]
    plot: Option<String>,
    /// The fitted profile's name (default: the base's name with `-fitted`).
    #[arg(long)]
    name: Option<String>,
    /// The profile to start from (default o200k).
    #[command(flatten)]
    which: Which,
}

#[derive(clap::Args)]
pub struct BacktestArgs {
    /// The log: JSON lines with `prompt_tokens`, `status`, `text` or `chars`, and optionally `max_tokens`, `ts`.
    log: String,
    /// The tokens-per-minute limit to replay against.
    #[arg(long)]
    tpm: u64,
    /// Which end of the band to decide on: median (default), conservative (p95) or optimistic (p5).
    #[arg(long, default_value = "median")]
    policy: String,
    /// Also replay a plain character cap: skip prompts longer than this.
    #[arg(long, value_name = "N")]
    max_chars: Option<u64>,
    /// Write the trend as an SVG chart.
    #[arg(long, value_name = "PLOT.svg")]
    plot: Option<String>,
    /// At most this many bins in the trend.
    #[arg(long, default_value_t = 24)]
    bins: usize,
    #[command(flatten)]
    which: Which,
}

/// Malformed rows: how many, and the first few with line numbers.
#[derive(Default)]
struct Malformed {
    count: u64,
    first: Vec<(u64, String)>,
}

impl Malformed {
    fn add(&mut self, line: u64, e: String) {
        self.count += 1;
        if self.first.len() < LIST_MALFORMED {
            self.first.push((line, e));
        }
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "rows": self.count,
            "first": self.first.iter().map(|(l, e)| json!({"line": l, "error": e})).collect::<Vec<_>>(),
        })
    }

    fn tell(&self, log: &str) {
        if self.count == 0 {
            return;
        }
        eprintln!("{log}: {} malformed rows skipped:", self.count);
        for (l, e) in &self.first {
            eprintln!("  line {l}: {e}");
        }
        if self.count > self.first.len() as u64 {
            eprintln!("  ... and {} more", self.count - self.first.len() as u64);
        }
    }
}

/// Streams the log line by line, with a progress bar on a terminal, and hands each parsed row to `use_row`.
fn each_row(
    log: &str,
    mut use_row: impl FnMut(&LogRow) -> Result<(), RowError>,
) -> Result<(u64, Malformed), String> {
    let (reader, size): (Box<dyn Read>, Option<u64>) = if log == "-" {
        (Box::new(io::stdin().lock()), None)
    } else {
        let f = std::fs::File::open(log).map_err(|e| format!("cannot read {log}: {e}"))?;
        let size = f.metadata().ok().map(|m| m.len());
        (Box::new(f), size)
    };
    let bar = match size {
        Some(n) if n > 16 << 20 => {
            let b = ProgressBar::new(n);
            b.set_style(
                ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {eta} left")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            b
        }
        _ => ProgressBar::hidden(),
    };
    let mut reader = BufReader::with_capacity(1 << 20, reader);
    let mut buf = Vec::new();
    let mut malformed = Malformed::default();
    let (mut line_no, mut used) = (0u64, 0u64);
    loop {
        buf.clear();
        let n = reader
            .by_ref()
            .take(MAX_LINE)
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("cannot read {log}: {e}"))?;
        if n == 0 {
            break;
        }
        line_no += 1;
        bar.inc(n as u64);
        if n as u64 == MAX_LINE && buf.last() != Some(&b'\n') {
            // Skip the rest of an overlong line.
            loop {
                let avail = reader
                    .fill_buf()
                    .map_err(|e| format!("cannot read {log}: {e}"))?;
                if avail.is_empty() {
                    break;
                }
                let (take, done) = match avail.iter().position(|&b| b == b'\n') {
                    Some(i) => (i + 1, true),
                    None => (avail.len(), false),
                };
                reader.consume(take);
                bar.inc(take as u64);
                if done {
                    break;
                }
            }
            malformed.add(line_no, format!("longer than {MAX_LINE} bytes"));
            continue;
        }
        let text = match std::str::from_utf8(&buf) {
            Ok(t) => t,
            Err(e) => {
                malformed.add(line_no, format!("not UTF-8 ({e})"));
                continue;
            }
        };
        match parse_row(text).and_then(|r| r.map_or(Ok(false), |row| use_row(&row).map(|_| true))) {
            Ok(true) => used += 1,
            Ok(false) => {}
            Err(e) => malformed.add(line_no, e.0),
        }
    }
    bar.finish_and_clear();
    Ok((used, malformed))
}

/// The JSON report on stdout; a closed pipe is an error, not a panic.
fn emit(v: &serde_json::Value) -> Result<(), String> {
    let mut out = io::stdout().lock();
    writeln!(out, "{v}")
        .and_then(|_| out.flush())
        .map_err(|e| format!("cannot write the report: {e}"))
}

fn write_file(path: &str, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
}

fn calibrate(a: CalibrateArgs) -> Result<(), String> {
    let chosen = a.which.load()?;
    let base = chosen.tables();
    let mut fit = Calibration::new(base);
    let (_, malformed) = each_row(&a.log, |row| fit.add(row))?;
    if fit.rows() == 0 {
        malformed.tell(&a.log);
        return Err(format!("{}: no usable rows", a.log));
    }
    let name = a
        .name
        .clone()
        .unwrap_or_else(|| format!("{}-fitted", base.name()));
    let (profile, report) = fit.finish(&name).map_err(|e| e.to_string())?;
    if let Some(path) = &a.output {
        write_file(path, &profile.to_json())?;
    }
    if let Some(path) = &a.plot {
        write_file(path, &report.svg())?;
    }
    let mut out = serde_json::to_value(&report).map_err(|e| e.to_string())?;
    out["malformed"] = malformed.json();
    out["profile_file"] = json!(a.output);
    emit(&out)?;

    malformed.tell(&a.log);
    eprintln!(
        "{} rows, base profile {}; characters per token (yours vs shipped) and the shipped profile's error on your rows:",
        report.rows, report.base
    );
    eprintln!(
        "  {:<12} {:>7} {:>22} {:>8} {:>9} {:>9} {:>9}  refit",
        "kind", "rows", "chars/token p5/p50/p95", "shipped", "med err", "|err|", "in band"
    );
    for k in &report.kinds {
        let refit = match (&k.band, k.chars_per_token_refitted) {
            (Some(b), _) => format!(
                "band: ×{:.3}, held-out coverage {:.0}%",
                b.median_correction,
                b.held_out_coverage * 100.0
            ),
            (None, true) => "chars/token only".into(),
            (None, false) => k.note.clone(),
        };
        eprintln!(
            "  {:<12} {:>7} {:>6.2} {:>6.2} {:>6.2}  {:>8.2} {:>8.1}% {:>8.1}% {:>8.1}%  {refit}",
            k.kind,
            k.rows,
            k.chars_per_token[0],
            k.chars_per_token[1],
            k.chars_per_token[2],
            k.shipped_chars_per_token,
            k.shipped_median_error * 100.0,
            k.shipped_median_abs_error * 100.0,
            k.shipped_band_coverage * 100.0
        );
    }
    for c in &report.output_caps {
        eprintln!(
            "  output on {}: {} requests, p50 {}, p99 {}, p99.9 {}, max {} → cap max_tokens at {} ({} past requests would have been cut short)",
            c.route, c.requests, c.p50, c.p99, c.p999, c.max, c.recommended_max_tokens, c.cut_short
        );
    }
    if report.sampled {
        eprintln!(
            "  (some kinds had more than {} rows: their quantiles come from a uniform sample)",
            llm_preflight::internals::traffic::RESERVOIR
        );
    }
    match &a.output {
        Some(p) => eprintln!("profile written to {p}; use it with --profile-file {p}"),
        None => eprintln!("(give -o PROFILE.json to write the fitted profile)"),
    }
    Ok(())
}

fn backtest(a: BacktestArgs) -> Result<(), String> {
    let tpm = std::num::NonZeroU64::new(a.tpm).ok_or("--tpm must be above 0")?;
    let policy = Policy::from_name(&a.policy).map_err(|e| e.to_string())?;
    let chosen = a.which.load()?;
    let tables = chosen.tables();
    let mut bt = Backtest::new(
        tables,
        llm_preflight::Provider::OpenAiCompatible,
        tpm,
        policy,
        a.max_chars,
    );
    let (_, malformed) = each_row(&a.log, |row| bt.add(row))?;
    let report = bt.finish(a.bins.max(1));
    if report.rows == 0 {
        malformed.tell(&a.log);
        return Err(format!("{}: no usable rows", a.log));
    }
    if let Some(path) = &a.plot {
        write_file(path, &report.svg())?;
    }
    let mut out = serde_json::to_value(&report).map_err(|e| e.to_string())?;
    out["malformed"] = malformed.json();
    emit(&out)?;

    malformed.tell(&a.log);
    eprintln!(
        "{} rows replayed against {} TPM ({} policy, profile {}); {} refusals (413/429) in the log.",
        report.rows, report.tokens_per_minute, report.policy.name(), report.profile, report.refusals
    );
    let mut rules = vec![("skip never-sendable".to_string(), report.never_sendable)];
    if let (Some(cap), Some(t)) = (report.max_chars, report.char_cap) {
        rules.push((format!("skip over {cap} chars"), t));
    }
    eprintln!(
        "  {:<24} {:>10} {:>12} {:>14} {:>12} {:>12}",
        "rule", "skipped", "prevented", "false skips", "doomed avoided", "doomed sent"
    );
    for (name, t) in &rules {
        eprintln!(
            "  {:<24} {:>10} {:>12} {:>14} {:>12} {:>12}",
            name,
            t.skipped_refused + t.skipped_succeeded + t.skipped_other,
            t.skipped_refused,
            t.skipped_succeeded,
            t.doomed_avoided,
            t.doomed_sent
        );
    }
    if !report.trend.is_empty() {
        eprint!("{}", report.trend_chart());
    }
    if report.priced_as_prose > 0 {
        eprintln!(
            "  {} length-only rows named no `content` and were priced as prose",
            report.priced_as_prose
        );
    }
    Ok(())
}

fn finish(r: Result<(), String>, what: &str) -> ExitCode {
    let _ = io::stdout().flush();
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("llm-preflight {what}: {e}");
            ExitCode::from(2)
        }
    }
}

pub fn run_calibrate(a: CalibrateArgs) -> ExitCode {
    finish(calibrate(a), "calibrate")
}

pub fn run_backtest(a: BacktestArgs) -> ExitCode {
    finish(backtest(a), "backtest")
}
