//! The `estimate`, `count` and `profiles` subcommands keep their contract: one JSON object per input, one per
//! line, in input order, with exactly these keys in this order; errors on stderr; exit codes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_llm-preflight"))
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn llm-preflight");
    // A command that fails on its arguments exits without reading stdin: the pipe may be closed before or while
    // this writes (a race), which is not the test's concern.
    if let Err(e) = child.stdin.take().expect("stdin").write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("wait")
}

fn lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(out.stdout.clone())
        .expect("utf-8 output")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON object"))
        .collect()
}

fn keys(v: &serde_json::Value) -> Vec<String> {
    v.as_object().expect("object").keys().cloned().collect()
}

fn tmp(name: &str, bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("llm-preflight-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write temp file");
    p.to_string_lossy().into_owned()
}

#[test]
fn estimate_prints_one_line_per_input_in_order_with_the_contract_keys() {
    let a = tmp("a.txt", b"The quick brown fox jumps over the lazy dog.\n");
    let b = tmp(
        "b.json",
        br#"{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}"#,
    );
    let out = run(
        &["estimate", &a, "-", &b],
        "Grüße aus Köln! 你好，世界。".as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = lines(&out);
    assert_eq!(v.len(), 3);
    for line in &v {
        assert_eq!(
            keys(line),
            ["source", "chars", "tokens", "low", "high", "content", "profile"]
        );
        let (t, lo, hi) = (
            line["tokens"].as_u64().unwrap(),
            line["low"].as_u64().unwrap(),
            line["high"].as_u64().unwrap(),
        );
        assert!(lo <= t && t <= hi, "{line}");
        assert_eq!(line["profile"], "o200k");
    }
    assert_eq!(v[0]["source"], a.as_str());
    assert_eq!(v[1]["source"], "-");
    assert_eq!(
        v[1]["chars"],
        "Grüße aus Köln! 你好，世界。".chars().count()
    );
    assert_eq!(v[2]["source"], b.as_str());
    // The library gives the same numbers.
    let lib = llm_preflight::estimate(
        "The quick brown fox jumps over the lazy dog.\n",
        llm_preflight::Profile::O200k,
    );
    assert_eq!(v[0]["tokens"], lib.tokens);
    assert_eq!(v[0]["content"], lib.content.kind.name());
}

#[test]
fn a_missing_file_is_named_on_stderr_the_others_are_still_done_and_the_exit_code_is_1() {
    let a = tmp("ok.txt", b"hello there");
    let out = run(&["estimate", "/nonexistent/nope.txt", &a], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/nope.txt"));
    let v = lines(&out);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["source"], a.as_str());
}

#[test]
fn invalid_utf8_is_estimated_lossily_and_said_on_stderr() {
    let out = run(&["estimate"], b"abc\xff\xfe def \xe4\xb8");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid UTF-8"));
    let v = lines(&out);
    assert_eq!(
        v[0]["chars"],
        String::from_utf8_lossy(b"abc\xff\xfe def \xe4\xb8")
            .chars()
            .count()
    );
}

#[test]
fn control_characters_nul_and_empty_input_never_panic() {
    let out = run(&["estimate"], b"");
    assert!(out.status.success());
    assert_eq!(lines(&out)[0]["tokens"], 0);
    let weird: Vec<u8> = (0u8..32)
        .chain([0, 0, 127, 0])
        .cycle()
        .take(10_000)
        .collect();
    let out = run(&["estimate", "--profile", "mistral-v1"], &weird);
    assert!(out.status.success());
    assert!(lines(&out)[0]["tokens"].as_u64().unwrap() > 0);
}

#[test]
fn profiles_and_models_are_chosen_by_name_and_unknown_ones_list_the_profiles() {
    for p in llm_preflight::Profile::ALL {
        let out = run(&["estimate", "--profile", p.name()], b"some text");
        assert!(out.status.success());
        assert_eq!(lines(&out)[0]["profile"], p.name());
    }
    let out = run(&["estimate", "--model", "claude-sonnet-4-5"], b"some text");
    assert_eq!(lines(&out)[0]["profile"], "claude-legacy");
    for bad in [["--model", "bert-base"], ["--profile", "o300k"]] {
        let out = run(&["estimate", bad[0], bad[1]], b"x");
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        for p in llm_preflight::Profile::ALL {
            assert!(err.contains(p.name()), "{err}");
        }
    }
    let out = run(&["profiles"], b"");
    assert_eq!(lines(&out).len(), 9);
    assert!(String::from_utf8_lossy(&out.stdout).contains("pre-Claude-3"));
}

#[test]
fn count_prints_the_exact_tokens_and_no_band() {
    let a = tmp("count.txt", b"hello world");
    let out = run(&["count", &a, "-"], "tiktoken is great!".as_bytes());
    assert!(out.status.success());
    let v = lines(&out);
    assert_eq!(
        keys(&v[0]),
        ["source", "chars", "tokens", "content", "profile"]
    );
    assert_eq!(v[0]["tokens"], 2);
    let c = llm_preflight::ExactCounter::new(llm_preflight::Profile::Cl100k).unwrap();
    let out = run(
        &["count", "--profile", "cl100k"],
        "tiktoken is great!".as_bytes(),
    );
    assert_eq!(lines(&out)[0]["tokens"], c.count("tiktoken is great!"));
    let out = run(&["count", "--profile", "llama3"], b"x");
    assert_eq!(out.status.code(), Some(2));
}
