//! `llm-preflight calibrate`, `backtest`, `profiles --export` and `--profile-file`, run as processes.

use llm_preflight::{estimate, CustomProfile, Profile, Tables};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llm-preflight"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run llm-preflight");
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn ok_json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout.clone()).unwrap();
    assert_eq!(out.lines().count(), 1, "one line: {out}");
    serde_json::from_str(&out).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("llm-preflight-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A log from real corpus samples with their real o200k counts, a few broken lines among them.
fn corpus_log(dir: &Path, heavier: f64) -> PathBuf {
    let root = &Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let tsv = std::fs::read_to_string(root.join("calibration/counts.tsv")).unwrap();
    let mut log = String::new();
    for (i, line) in tsv.lines().skip(1).enumerate() {
        let c: Vec<&str> = line.split('\t').collect();
        if !matches!(c[1], "prose-en" | "code-python" | "prose-zh") {
            continue;
        }
        let text =
            std::fs::read_to_string(root.join("corpus").join(c[1]).join(format!("{}.txt", c[0])))
                .unwrap();
        let tokens = (c[5].parse::<f64>().unwrap() * heavier).round() as u64;
        let status = if tokens > 4000 { 429 } else { 200 };
        let row = json!({"text": text, "prompt_tokens": tokens, "completion_tokens": 10 + i % 300,
                         "route": "chat", "status": status, "ts": 1_796_007_600 + 600 * i});
        log.push_str(&row.to_string());
        log.push('\n');
        if i % 50 == 0 {
            log.push_str("{not json\n");
        }
    }
    log.push('\n');
    log.push_str("{\"chars\": 12}\n");
    let path = dir.join("log.jsonl");
    std::fs::write(&path, log).unwrap();
    path
}

#[test]
fn calibrate_writes_a_profile_the_other_commands_load() {
    let dir = scratch("calibrate");
    let log = corpus_log(&dir, 1.15);
    let prof = dir.join("mine.json");
    let plot = dir.join("cpt.svg");
    let o = run(
        &[
            "calibrate",
            log.to_str().unwrap(),
            "-o",
            prof.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
            "--name",
            "mine",
        ],
        "",
    );
    let r = ok_json(&o);
    let stderr = String::from_utf8_lossy(&o.stderr);
    // Malformed rows are counted and named by line, never fatal.
    let bad = r["malformed"]["rows"].as_u64().unwrap();
    assert!(bad >= 3, "{r}");
    let first = &r["malformed"]["first"][0];
    assert!(
        first["line"].as_u64().unwrap() >= 2
            && first["error"].as_str().unwrap().contains("not JSON")
    );
    assert!(
        stderr.contains("malformed rows skipped") && stderr.contains("line "),
        "{stderr}"
    );
    assert!(r["rows"].as_u64().unwrap() > 100);
    let prose = r["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "prose")
        .unwrap();
    assert!(
        prose["shipped_median_error"].as_f64().unwrap() < -0.08,
        "{prose}"
    );
    // Under 1,000 requests the p99.9 by nearest rank is the largest completion seen.
    let max_completion = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v["completion_tokens"].as_u64())
        .max()
        .unwrap();
    assert_eq!(
        r["output_caps"][0]["recommended_max_tokens"],
        max_completion
    );
    assert_eq!(r["output_caps"][0]["cut_short"], 0);
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(
        svg.starts_with("<svg")
            && svg.contains("class=\"median\"")
            && svg.trim_end().ends_with("</svg>")
    );

    // The file loads in the library and in the CLI, and prices heavier than the shipped profile.
    let custom = CustomProfile::from_json(&std::fs::read_to_string(&prof).unwrap()).unwrap();
    assert_eq!(custom.name(), "mine");
    let text =
        "The committee will review the proposal at its next meeting and report back to the board.";
    let e = ok_json(&run(
        &["estimate", "--profile-file", prof.to_str().unwrap()],
        text,
    ));
    assert_eq!(e["profile"], "mine");
    assert_eq!(
        e["tokens"].as_u64().unwrap(),
        estimate(text, &custom).tokens
    );
    assert!(
        estimate(&text.repeat(20), &custom).tokens
            > estimate(&text.repeat(20), Profile::O200k).tokens
    );
    let c = ok_json(&run(
        &[
            "check",
            "--tpm",
            "1000",
            "--profile-file",
            prof.to_str().unwrap(),
        ],
        text,
    ));
    assert_eq!(c["estimate"]["profile"], "mine");
    // A broken profile file is a clear error, exit 2.
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"format\": \"llm-preflight-profile/1\"}").unwrap();
    let o = run(
        &["estimate", "--profile-file", broken.to_str().unwrap()],
        "x",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("lacks /name"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn backtest_reports_every_row_in_one_bucket() {
    let dir = scratch("backtest");
    let log = corpus_log(&dir, 1.0);
    let plot = dir.join("trend.svg");
    let o = run(
        &[
            "backtest",
            log.to_str().unwrap(),
            "--tpm",
            "4000",
            "--max-chars",
            "12000",
            "--plot",
            plot.to_str().unwrap(),
        ],
        "",
    );
    let r = ok_json(&o);
    let rows = r["rows"].as_u64().unwrap();
    for rule in ["never_sendable", "char_cap"] {
        let t = &r[rule];
        let cells: u64 = [
            "skipped_refused",
            "skipped_succeeded",
            "skipped_other",
            "sent_refused",
            "sent_succeeded",
            "sent_other",
        ]
        .iter()
        .map(|k| t[k].as_u64().unwrap())
        .sum();
        assert_eq!(cells, rows, "{rule}: {t}");
        assert_eq!(
            t["skipped_refused"].as_u64().unwrap() + t["sent_refused"].as_u64().unwrap(),
            r["refusals"].as_u64().unwrap()
        );
    }
    assert!(r["refusals"].as_u64().unwrap() > 0);
    let trend_rows: u64 = r["trend"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rows"].as_u64().unwrap())
        .sum();
    assert_eq!(trend_rows, rows);
    assert!(r["malformed"]["rows"].as_u64().unwrap() >= 3);
    assert!(std::fs::read_to_string(&plot).unwrap().contains("<svg"));
    assert!(String::from_utf8_lossy(&o.stderr).contains("skip never-sendable"));
    // The same log on stdin gives the same report.
    let again = ok_json(&run(
        &["backtest", "-", "--tpm", "4000", "--max-chars", "12000"],
        &std::fs::read_to_string(&log).unwrap(),
    ));
    assert_eq!(again["never_sendable"], r["never_sendable"]);
    // Bad flags and missing files: exit 2 with a message.
    for args in [
        vec!["backtest", "/nonexistent/log.jsonl", "--tpm", "10"],
        vec!["backtest", log.to_str().unwrap(), "--tpm", "0"],
        vec![
            "backtest",
            log.to_str().unwrap(),
            "--tpm",
            "10",
            "--policy",
            "sometimes",
        ],
    ] {
        let o = run(&args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!o.stderr.is_empty());
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn shipped_profiles_export_and_load_back() {
    for p in Profile::ALL {
        let o = run(&["profiles", "--export", p.name()], "");
        assert!(o.status.success());
        let c = CustomProfile::from_json(&String::from_utf8(o.stdout).unwrap()).unwrap();
        assert_eq!(c.tables(), Tables::from(p));
    }
    let o = run(&["profiles", "--export", "bert"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_log_with_no_usable_rows_is_an_error() {
    let o = run(&["calibrate", "-"], "{\"chars\": 3}\nnot json\n");
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("no usable rows") && e.contains("line 2"), "{e}");
}
