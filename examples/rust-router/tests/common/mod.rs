//! What the router's test binaries share: the fake upstream in a child `node` process, and small helpers.
#![allow(dead_code)]

use hyper::Uri;
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A limit for a test: never zero.
pub fn nz(n: u64) -> std::num::NonZeroU64 {
    std::num::NonZeroU64::new(n).expect("a test limit is at least 1")
}

/// The whole of any one test.
pub const TEST_BOUND: Duration = Duration::from_secs(60);

/// The fake upstream in a child `node` process; killed when dropped.
pub struct Upstream {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    pub url: Uri,
}

impl Upstream {
    pub fn start(tpm: u64, rpm: u64) -> Upstream {
        Upstream::start_with(tpm, rpm, "")
    }

    /// `refuse`: `mixed` injects real refusal shapes among the bucket's answers (harness.mjs says which).
    pub fn start_with(tpm: u64, rpm: u64, refuse: &str) -> Upstream {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../fake-upstream/harness.mjs");
        let mut child = Command::new("node")
            .arg(script)
            .env("REFUSE", refuse)
            .env("TPM", tpm.to_string())
            .env("RPM", rpm.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect(
                "these tests spawn the shared fake upstream with `node` (Node 18 or later on PATH)",
            );
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let first = lines
            .recv_timeout(Duration::from_secs(15))
            .expect("the fake upstream did not start within 15 s");
        let v: Value =
            serde_json::from_str(&first).expect("the fake upstream's first line is JSON");
        let url = v["url"].as_str().expect("url").parse().expect("a URL");
        Upstream {
            child,
            stdin,
            lines,
            url,
        }
    }

    /// The upstream's counters: requests, ok, rate_limited, too_large, bad, charged.
    pub fn stats(&mut self) -> Value {
        writeln!(self.stdin, "stats").expect("write to the fake upstream");
        self.stdin.flush().expect("flush");
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(5))
            .expect("the fake upstream answers `stats`");
        serde_json::from_str(&line).expect("stats are JSON")
    }
}

impl Drop for Upstream {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn localhost() -> SocketAddr {
    SocketAddr::from((Ipv4Addr::LOCALHOST, 0))
}
