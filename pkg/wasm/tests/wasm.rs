//! The binding's exports, run as WebAssembly: in node (`wasm-bindgen-test-runner`) and in headless Chromium
//! (`WASM_BINDGEN_USE_BROWSER=1`). `pkg/scripts/test-wasm.sh` runs both and fails on a run that skipped.
#![cfg(target_arch = "wasm32")]

use llm_preflight_wasm::*;
use wasm_bindgen_test::*;

fn v(s: &str) -> serde_json::Value {
    serde_json::from_str(s).expect("the binding returns JSON")
}

#[wasm_bindgen_test]
fn estimate_matches_the_core() {
    let got = v(
        &estimate("The quick brown fox jumps over the lazy dog.", None, None)
            .map_err(|_| ())
            .unwrap(),
    );
    let want = llm_preflight::estimate(
        "The quick brown fox jumps over the lazy dog.",
        llm_preflight::Profile::O200k,
    );
    assert_eq!(got["tokens"], want.tokens);
    assert_eq!(got["low"], want.low);
    assert_eq!(got["high"], want.high);
    assert_eq!(got["content"], "prose");
    assert_eq!(got["profile"], "o200k");
    let g = v(&estimate("x", None, Some("gemini-2.5-pro".into()))
        .map_err(|_| ())
        .unwrap());
    assert_eq!(g["profile"], "gemini");
}

#[wasm_bindgen_test]
fn streaming_equals_whole() {
    let text = "héllo wörld 🙂 fn f() {} ".repeat(500);
    let mut e = Estimator::new(Some("qwen3".into()), None)
        .map_err(|_| ())
        .unwrap();
    for piece in text.as_bytes().chunks(333) {
        e.update_bytes(piece);
    }
    let whole = estimate(&text, Some("qwen3".into()), None)
        .map_err(|_| ())
        .unwrap();
    assert_eq!(e.finish().map_err(|_| ()).unwrap(), whole);
}

#[wasm_bindgen_test]
fn bad_input_is_an_error_and_the_instance_keeps_working() {
    for _ in 0..200 {
        assert!(estimate("x", Some("nope".into()), None).is_err());
        assert!(check("x", false, "{\"tpm\": -1}", 0.0).is_err());
        assert!(check("x", false, "{\"tpm\": 100}", f64::NAN).is_err());
        assert!(estimate_request_json("{", "{}").is_err());
        assert!(classify_response("{\"status\": 12}", 0.0).is_err());
        assert!(next_action("{}", "{}", 0.0, 0.5).is_err());
        assert!(Ledger::new("{\"tpm\": 0}", 0.0).is_err());
    }
    let c = v(&check("hello", false, "{\"tpm\": 1000}", 0.0)
        .map_err(|_| ())
        .unwrap());
    assert_eq!(c["verdict"], "sendable");
}

#[wasm_bindgen_test]
fn check_verdicts() {
    let prompt = "word ".repeat(2000);
    let never = v(&check(&prompt, false, "{\"tpm\": 500}", 0.0)
        .map_err(|_| ())
        .unwrap());
    assert_eq!(never["verdict"], "never_sendable");
    assert_eq!(never["limit"], 500);
    let q = v(&check(
        &prompt,
        false,
        "{\"tpm\": 100000, \"remaining_tokens\": 3, \"reset_tokens\": \"6s\"}",
        0.0,
    )
    .map_err(|_| ())
    .unwrap());
    assert_eq!(q["verdict"], "queueable");
    assert!(q["wait_ms"].as_u64().unwrap() <= 6000);
}

#[wasm_bindgen_test]
fn ledger_reserves_and_settles() {
    let l = Ledger::new("{\"tpm\": 1000}", 0.0).map_err(|_| ()).unwrap();
    let cost = "{\"low\": 600, \"tokens\": 600, \"high\": 600}";
    let mut first = l.try_reserve(cost, None, 0.0).map_err(|_| ()).unwrap();
    let mut r = first.take_reservation().expect("admitted");
    let mut second = l.try_reserve(cost, None, 0.0).map_err(|_| ()).unwrap();
    assert!(second.take_reservation().is_none());
    assert_eq!(v(&second.json())["refused"], "not_yet");
    let s = v(&r
        .settle("{\"input_tokens\": 100, \"output_tokens\": 50}", 0.0)
        .map_err(|_| ())
        .unwrap());
    assert_eq!(s["refunded"], 450);
    assert_eq!(l.in_flight(), 0.0);
}

#[wasm_bindgen_test]
fn refusals_and_actions() {
    let r = classify_response(
        r#"{"status": 429, "headers": [["retry-after", "2"]], "body": "{\"error\":{\"code\":\"rate_limit_exceeded\",\"message\":\"Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1.\"}}"}"#,
        0.0,
    )
    .map_err(|_| ())
    .unwrap();
    assert_eq!(v(&r)["kind"], "rate_limit_requests");
    let a = v(&next_action(&r, "{}", 0.0, 0.0).map_err(|_| ()).unwrap());
    assert_eq!(a["type"], "retry");
    assert_eq!(a["after_ms"], 2000);
}
