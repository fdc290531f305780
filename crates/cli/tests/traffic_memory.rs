//! Limits: a log far larger than the memory `llm-preflight calibrate` may use is streamed through it, and the
//! process's peak resident set (`VmHWM`, read from /proc while it still runs) stays bounded. Linux only (elsewhere
//! the log is still streamed and the report checked, without the measurement).

use std::io::Write;
use std::process::{Command, Stdio};

const TOTAL: usize = 160 * 1024 * 1024;
const BOUND_KB: u64 = 64 * 1024;

fn vm_hwm_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_160_mb_log_is_calibrated_in_bounded_memory() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llm-preflight"))
        .args(["calibrate", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run llm-preflight");
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let prose = "The committee reviewed the budget and asked for a shorter report. ".repeat(30);
    let (mut written, mut rows, mut i) = (0usize, 0u64, 0u64);
    let mut peak = 0;
    while written < TOTAL {
        i += 1;
        let line = match i % 4 {
            0 => format!(
                "{{\"chars\": {}, \"content\": \"code\", \"prompt_tokens\": {}, \"completion_tokens\": {}, \"route\": \"r{}\"}}\n",
                1000 + i % 977,
                300 + i % 101,
                i % 1999,
                i % 7
            ),
            1 => "{\"broken\n".to_string(),
            _ => format!(
                "{{\"text\": \"{} #{i}\", \"prompt_tokens\": {}}}\n",
                prose,
                440 + i % 37
            ),
        };
        if i % 4 != 1 {
            rows += 1;
        }
        stdin.write_all(line.as_bytes()).unwrap();
        written += line.len();
        if i % 20_000 == 0 {
            peak = peak.max(vm_hwm_kb(pid).unwrap_or(0));
        }
    }
    peak = peak.max(vm_hwm_kb(pid).unwrap_or(0));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["rows"].as_u64().unwrap(), rows);
    assert_eq!(
        r["malformed"]["rows"].as_u64().unwrap(),
        i / 4 + u64::from(i % 4 >= 1)
    );
    assert_eq!(r["sampled"], true);
    eprintln!(
        "{} MB log, {rows} rows: peak RSS of calibrate {:.1} MB",
        written >> 20,
        peak as f64 / 1024.0
    );
    if std::path::Path::new("/proc/self/status").exists() {
        assert!(peak > 0, "the child's VmHWM was never read");
        assert!(peak < BOUND_KB, "peak RSS {peak} kB exceeds {BOUND_KB} kB");
    }
}
