//! The lazy module's exports (`--features lazy`): checks, headers, the ledger, the queue and everything that reads
//! JSON, run as WebAssembly in node and headless Chromium like `wasm.rs`.
#![cfg(all(target_arch = "wasm32", feature = "lazy"))]

use llm_preflight_wasm::*;
use wasm_bindgen::JsError;
use wasm_bindgen_test::*;

fn v(s: &str) -> serde_json::Value {
    serde_json::from_str(s).expect("the binding returns JSON")
}

/// No limits but `tpm` (the limits are `[tpm, rpm, itpm, otpm, tpd, rpd, context_window]`, NaN for none).
fn tpm(n: f64) -> Vec<f64> {
    let mut l = vec![f64::NAN; 7];
    l[0] = n;
    l
}

/// `check` of a prompt with a `tpm` limit and, optionally, remaining tokens and their reset.
fn check_prompt(
    text: &str,
    limit: f64,
    remaining: Option<f64>,
    reset: Option<&str>,
    now: f64,
) -> Result<String, JsError> {
    check(
        text,
        &[],
        None,
        &tpm(limit),
        None,
        None,
        remaining,
        None,
        reset.map(String::from),
        None,
        Vec::new(),
        None,
        None,
        now,
    )
}

#[wasm_bindgen_test]
fn bad_input_is_an_error_and_the_instance_keeps_working() {
    for _ in 0..200 {
        assert!(check_prompt("x", -1.0, None, None, 0.0).is_err());
        assert!(check_prompt("x", 100.0, None, None, f64::NAN).is_err());
        assert!(check_prompt("x", 1.5, None, None, 0.0).is_err());
        assert!(Ledger::new(None, &tpm(0.0), 0.0).is_err());
        assert!(Ledger::new(Some("acme".into()), &tpm(10.0), 0.0).is_err());
        assert!(Ledger::new(None, &[1.0], 0.0).is_err());
    }
    let c = v(&check_prompt("hello", 1000.0, None, None, 0.0)
        .map_err(|_| ())
        .unwrap());
    assert_eq!(c["verdict"], "sendable");
}

#[wasm_bindgen_test]
fn check_verdicts() {
    let prompt = "word ".repeat(2000);
    let never = v(&check_prompt(&prompt, 500.0, None, None, 0.0)
        .map_err(|_| ())
        .unwrap());
    assert_eq!(never["verdict"], "never_sendable");
    assert_eq!(never["limit"], 500);
    let q = v(&check_prompt(&prompt, 100000.0, Some(3.0), Some("6s"), 0.0)
        .map_err(|_| ())
        .unwrap());
    assert_eq!(q["verdict"], "queueable");
    assert!(q["wait_ms"].as_u64().unwrap() <= 6000);
}

#[wasm_bindgen_test]
fn ledger_reserves_and_settles() {
    let l = Ledger::new(None, &tpm(1000.0), 0.0)
        .map_err(|_| ())
        .unwrap();
    let cost = &[600.0, 600.0, 600.0, f64::NAN, 0.0];
    let mut first = l.try_reserve(cost, None, 0.0).map_err(|_| ()).unwrap();
    let mut r = first.take_reservation().expect("admitted");
    let mut second = l.try_reserve(cost, None, 0.0).map_err(|_| ()).unwrap();
    assert!(second.take_reservation().is_none());
    assert_eq!(v(&second.json())["refused"], "not_yet");
    let s = v(&r.settle(100.0, 50.0, 0.0).map_err(|_| ()).unwrap());
    assert_eq!(s["refunded"], 450);
    assert_eq!(l.in_flight(), 0.0);
}

#[wasm_bindgen_test]
fn headers_are_name_value_pairs() {
    let h = vec![
        "x-ratelimit-remaining-tokens".to_string(),
        "12".to_string(),
        "retry-after".to_string(),
        "3".to_string(),
    ];
    let out = v(&parse_rate_limit_headers(h, 0.0).map_err(|_| ()).unwrap());
    assert_eq!(out["retry_after_ms"], 3000);
    assert_eq!(out["tokens"]["remaining"], 12);
}

#[wasm_bindgen_test]
fn bad_json_input_is_an_error_and_the_instance_keeps_working() {
    for _ in 0..200 {
        assert!(estimate_request_json("{", "{}").is_err());
        assert!(classify_response("{\"status\": 12}", 0.0).is_err());
        assert!(next_action("{}", "{}", 0.0, 0.5).is_err());
        assert!(usage_of("{\"input_tokens\": 1}").is_err());
    }
    let r = v(&estimate_request_json(
        "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}",
        "{}",
    )
    .map_err(|_| ())
    .unwrap());
    assert_eq!(r["messages"], 1);
}

#[wasm_bindgen_test]
fn request_costs_and_usage() {
    let body = "{\"model\": \"gpt-4o\", \"max_tokens\": 700, \"messages\": [{\"role\": \"user\", \"content\": \"hello there\"}]}";
    let c = v(&request_cost(body, "{}").map_err(|_| ()).unwrap());
    assert_eq!(c["max_output"], 700);
    assert!(c["low"].as_u64().unwrap() <= c["tokens"].as_u64().unwrap());
    assert_eq!(c["estimate"]["tokens"], c["tokens"]);
    let u = usage_of("{\"usage\": {\"prompt_tokens\": 12, \"completion_tokens\": 5}}")
        .map_err(|_| ())
        .unwrap();
    assert_eq!(u, vec![12.0, 5.0]);
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
