//! The estimate module's exports, run as WebAssembly: in node (`wasm-bindgen-test-runner`) and in headless
//! Chromium (`WASM_BINDGEN_USE_BROWSER=1`). `pkg/scripts/test-wasm.sh` runs both and fails on a run that skipped;
//! the lazy module's exports are tested in `wasm_lazy.rs` (`--features lazy`).
#![cfg(all(target_arch = "wasm32", not(feature = "lazy")))]

use llm_preflight_wasm::*;
use wasm_bindgen_test::*;

fn v(s: &str) -> serde_json::Value {
    serde_json::from_str(s).expect("the binding returns JSON")
}

#[wasm_bindgen_test]
fn bad_input_is_an_error_and_the_instance_keeps_working() {
    for _ in 0..200 {
        assert!(estimate("x", Some("nope".into()), None).is_err());
        assert!(estimate("x", Some("o200k".into()), Some("gpt-4o".into())).is_err());
        assert!(Estimator::new(None, Some("bert-base".into())).is_err());
    }
    let e = v(&estimate("hello", None, None).map_err(|_| ()).unwrap());
    assert_eq!(e["chars"], 5);
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
fn floats_go_beside_the_text() {
    let e = estimate("héllo wörld", None, None).map_err(|_| ()).unwrap();
    let floats = take_floats();
    assert!(!floats.is_empty());
    assert!(e.contains("{\"\\u0000\":0}"));
    let want = llm_preflight::estimate("héllo wörld", llm_preflight::Profile::O200k);
    assert_eq!(floats[0], want.content.mix[0].tokens);
}

/// The module's allocator reuses what each call frees: texts of many sizes, estimated whole and through
/// `Estimator`s that live across other calls, leave the module's memory where the largest of them took it.
#[wasm_bindgen_test]
fn memory_is_reused_across_calls() {
    let unit = "The quick brown fox, 2024-01-01 {\"a\": [1,2,3]} Привет 世界 😀\n";
    let big = unit.repeat((1 << 20) / unit.len());
    let cut = |n: usize| {
        let mut n = n.min(big.len());
        while !big.is_char_boundary(n) {
            n -= 1;
        }
        &big[..n]
    };
    let round = |seed: usize, kept: &mut Vec<Estimator>| {
        let mut x = seed;
        for _ in 0..60 {
            x = x.wrapping_mul(1103515245).wrapping_add(12345) % (1 << 31);
            assert!(estimate(cut(x % big.len()), None, None).is_ok());
            let mut e = Estimator::new(None, None).map_err(|_| ()).unwrap();
            e.update(cut(x % 5000));
            kept.push(e);
            if kept.len() > 8 {
                let mut old = kept.remove(x % kept.len());
                old.update(cut(x % 200_000));
                assert!(old.finish().is_ok());
            }
        }
    };
    let mut kept = Vec::new();
    round(1, &mut kept);
    let pages = core::arch::wasm32::memory_size(0);
    for seed in 2..6 {
        round(seed, &mut kept);
    }
    let grown = core::arch::wasm32::memory_size(0) - pages;
    // 240 more calls of up to 1 MiB each; without reuse the memory would grow by far more than 64 pages (4 MiB).
    assert!(grown <= 64, "memory grew by {grown} pages of 64 KiB");
}
