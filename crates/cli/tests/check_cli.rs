//! `llm-preflight check`, run as a process: the contract's key order, the issue's targets, bad input → exit 2.
//! Expectations are computed from `estimate()` so they hold whatever the calibrated rates are.

use llm_preflight::{estimate, Profile};
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llm-preflight"))
        .arg("check")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run llm-preflight");
    // The process may exit before reading (bad flags): a broken pipe is not the test's concern.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn json(o: &Output) -> serde_json::Value {
    assert!(
        o.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout.clone()).unwrap();
    assert_eq!(out.lines().count(), 1, "one line: {out}");
    serde_json::from_str(&out).unwrap()
}

fn prompt() -> String {
    "Summarise the following meeting notes and list the action items. ".repeat(150)
}

#[test]
fn keys_come_in_the_contract_order() {
    let o = run(&["--tpm", "100000"], "hello");
    let out = String::from_utf8(o.stdout).unwrap();
    let keys = [
        "\"verdict\"",
        "\"wait_ms\"",
        "\"dimension\"",
        "\"needed\"",
        "\"limit\"",
        "\"excess\"",
        "\"estimate\"",
    ];
    let pos: Vec<usize> = keys
        .iter()
        .map(|k| out.find(k).unwrap_or_else(|| panic!("{k} in {out}")))
        .collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let e = estimate("hello", Profile::O200k);
    assert_eq!(v["verdict"], "sendable");
    assert_eq!(v["dimension"], serde_json::Value::Null);
    assert_eq!(v["excess"], serde_json::Value::Null);
    assert_eq!(v["estimate"]["tokens"], e.tokens);
    assert_eq!(v["estimate"]["low"], e.low);
    assert_eq!(v["estimate"]["high"], e.high);
    assert_eq!(v["estimate"]["profile"], "o200k");
}

#[test]
fn over_the_whole_limit_is_never_sendable_with_the_excess() {
    let text = prompt();
    let e = estimate(&text, Profile::O200k);
    let tpm = e.tokens - 478;
    let v = json(&run(&["--tpm", &tpm.to_string()], &text));
    assert_eq!(v["verdict"], "never_sendable");
    assert_eq!(v["dimension"], "tokens");
    assert_eq!(v["limit"], tpm);
    assert_eq!(v["needed"], e.tokens);
    assert_eq!(v["excess"], 478);
    assert_eq!(v["wait_ms"], serde_json::Value::Null);
    // Conservative decides on p95.
    let v = json(&run(
        &["--tpm", &e.tokens.to_string(), "--policy", "conservative"],
        &text,
    ));
    if e.high > e.tokens {
        assert_eq!(v["verdict"], "never_sendable");
        assert_eq!(v["excess"], e.high - e.tokens);
    }
}

#[test]
fn remaining_and_reset_make_it_sendable_or_queueable() {
    let text = prompt();
    let e = estimate(&text, Profile::O200k);
    assert!(
        e.tokens > 500 && e.tokens < 7_923,
        "the test prompt should sit between 500 and 7,923: {}",
        e.tokens
    );
    let v = json(&run(
        &[
            "--tpm",
            "8000",
            "--remaining-tokens",
            "7923",
            "--reset-tokens",
            "577ms",
        ],
        &text,
    ));
    assert_eq!(v["verdict"], "sendable");
    let v = json(&run(
        &[
            "--tpm",
            "8000",
            "--remaining-tokens",
            "500",
            "--reset-tokens",
            "5.94s",
        ],
        &text,
    ));
    assert_eq!(v["verdict"], "queueable");
    assert_eq!(v["dimension"], "tokens");
    let wait = v["wait_ms"].as_u64().unwrap();
    assert!(wait > 0 && wait <= 5_940, "{v}");
}

#[test]
fn max_tokens_counts_against_tpm() {
    let v = json(&run(&["--tpm", "8000", "--max-tokens", "8000"], "Say hi."));
    assert_eq!(v["verdict"], "never_sendable");
    let e = estimate("Say hi.", Profile::O200k);
    assert_eq!(v["needed"], e.tokens + 8_000);
    assert_eq!(v["excess"], e.tokens);
}

#[test]
fn request_bodies_and_header_files() {
    let dir = std::env::temp_dir().join(format!("llm-preflight-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let body = dir.join("req.json");
    std::fs::write(
        &body,
        r#"{"model":"gpt-4o-mini","max_tokens":8000,"messages":[{"role":"user","content":"Say hi."}]}"#,
    )
    .unwrap();
    let v = json(&run(
        &["--tpm", "8000", "--request", body.to_str().unwrap()],
        "",
    ));
    assert_eq!(v["verdict"], "never_sendable", "{v}");
    assert_eq!(v["estimate"]["profile"], "o200k");
    // --max-tokens overrides the body's cap.
    let v = json(&run(
        &[
            "--tpm",
            "8000",
            "--request",
            "--max-tokens",
            "100",
            body.to_str().unwrap(),
        ],
        "",
    ));
    assert_eq!(v["verdict"], "sendable");

    let headers = dir.join("h.txt");
    std::fs::write(
        &headers,
        "HTTP/1.1 429 Too Many Requests\nretry-after: 6\nx-ratelimit-limit-tokens: 10000\nx-ratelimit-remaining-tokens: 0\nx-ratelimit-reset-tokens: 5.94s\n",
    )
    .unwrap();
    let v = json(&run(
        &["--tpm", "10000", "--headers", headers.to_str().unwrap()],
        "hello",
    ));
    assert_eq!(v["verdict"], "queueable");
    assert_eq!(v["wait_ms"], 6_000);
    let hj = dir.join("h.json");
    std::fs::write(
        &hj,
        r#"{"x-ratelimit-remaining-tokens": "9000", "x-ratelimit-limit-tokens": "10000"}"#,
    )
    .unwrap();
    let v = json(&run(
        &["--tpm", "10000", "--headers", hj.to_str().unwrap()],
        "hello",
    ));
    assert_eq!(v["verdict"], "sendable");
    // Groq's `requests` headers count the day (its docs' example): with `--provider groq` they fill the day's budget
    // and 0 requests left of 30 a minute waits 2 s; without it they would be read as the minute's 14,400.
    let groq = dir.join("groq.json");
    std::fs::write(
        &groq,
        r#"{"x-ratelimit-limit-requests": "14400", "x-ratelimit-remaining-requests": "14370",
            "x-ratelimit-reset-requests": "2m59.56s"}"#,
    )
    .unwrap();
    let args = |provider: &'static str| {
        let mut a = vec!["--tpm", "18000", "--rpm", "30", "--remaining-requests", "0"];
        a.extend(["--provider", provider, "--headers", groq.to_str().unwrap()]);
        a
    };
    let v = json(&run(&args("groq"), "hello"));
    assert_eq!(
        (&v["verdict"], &v["wait_ms"], &v["limit"]),
        (&"queueable".into(), &2_000.into(), &30.into()),
        "{v}"
    );
    let v = json(&run(&args("open_ai_compatible"), "hello"));
    assert_eq!(v["limit"], 14_400, "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let dir = std::env::temp_dir().join(format!("llm-preflight-check-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad_headers = dir.join("bad.txt");
    std::fs::write(&bad_headers, "x-ratelimit-remaining-tokens: plenty\n").unwrap();
    let bad_date = dir.join("date.txt");
    std::fs::write(
        &bad_date,
        "anthropic-ratelimit-tokens-reset: yesterday-ish\n",
    )
    .unwrap();
    let cases: Vec<(Vec<String>, &str, &str)> = vec![
        (vec!["--tpm".into(), "-5".into()], "hi", ""),
        (vec!["--tpm".into(), "NaN".into()], "hi", ""),
        (vec!["--tpm".into(), "0".into()], "hi", "tokens"),
        (
            vec![
                "--tpm".into(),
                "8000".into(),
                "--reset-tokens".into(),
                "soon".into(),
            ],
            "hi",
            "reset-tokens",
        ),
        (
            vec![
                "--tpm".into(),
                "8000".into(),
                "--policy".into(),
                "yolo".into(),
            ],
            "hi",
            "policy",
        ),
        (
            vec![
                "--tpm".into(),
                "8000".into(),
                "--model".into(),
                "bert-base".into(),
            ],
            "hi",
            "model",
        ),
        (
            vec!["--tpm".into(), "8000".into(), "--request".into()],
            "{\"messages\": 3}",
            "/messages",
        ),
        (
            vec!["--tpm".into(), "8000".into(), "--request".into()],
            "not json",
            "not JSON",
        ),
        (
            vec![
                "--tpm".into(),
                "8000".into(),
                "--headers".into(),
                bad_headers.to_str().unwrap().into(),
            ],
            "hi",
            "x-ratelimit-remaining-tokens",
        ),
        (
            vec![
                "--tpm".into(),
                "8000".into(),
                "--headers".into(),
                bad_date.to_str().unwrap().into(),
            ],
            "hi",
            "anthropic-ratelimit-tokens-reset",
        ),
        (
            vec![
                "--tpm".into(),
                "8000".into(),
                dir.join("missing").to_str().unwrap().into(),
            ],
            "",
            "cannot read",
        ),
    ];
    for (args, stdin, needle) in cases {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&a, stdin);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
