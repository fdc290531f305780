//! The guarded call under arbitrary event sequences: calls started, polled, answered with any status, headers and
//! body bytes, ended, cut off, abandoned or dropped, in any order and at any times. No panic, and once every call
//! is gone nothing is held in any target's ledger, nor in the ledger target a shares with other replicas.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llm_preflight::{Budget, Call, Dimension, Guard, GuardConfig, Ledger, Provider, State, Target};
use std::num::NonZeroU64;
use std::sync::Arc;

fn target(name: &str, tpm: u64) -> Target {
    let tpm = NonZeroU64::new(tpm).unwrap_or(NonZeroU64::MIN);
    Target::new(name, Budget::new(Provider::OpenAi).tokens_per_minute(tpm))
}

const HEADERS: [(&str, &str); 6] = [
    ("retry-after", "2"),
    ("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"),
    ("x-ratelimit-remaining-tokens", "0"),
    ("x-ratelimit-reset-tokens", "6m0s"),
    ("x-ratelimit-limit-tokens", "-1"),
    ("retry-after-ms", "999999999999"),
];

fuzz_target!(|data: &[u8]| {
    let shared = Ledger::new(State::new(target("shared", 3_000).budget, 0));
    let guard = match Guard::new(
        vec![target("a", 4_000), target("b", 700)],
        GuardConfig::default(),
    )
    .and_then(|g| g.with_shared_ledger(0, Arc::new(shared.clone())))
    {
        Ok(g) => g,
        Err(_) => return,
    };
    let mut calls: Vec<Call> = Vec::new();
    let mut now = 0u64;
    let mut bytes = data.iter().copied();
    while let Some(op) = bytes.next() {
        let arg = bytes.next().unwrap_or(0);
        let pick = arg as usize;
        match op % 10 {
            0 => {
                let words = 1 + arg as usize * 20;
                let body = format!(
                    r#"{{"model":"gpt-4o","messages":[{{"role":"user","content":"{}"}}],"max_tokens":{}}}"#,
                    "word ".repeat(words),
                    arg as u64 * 7
                );
                calls.push(guard.start(&body, now + arg as u64 * 300, now));
            }
            1 => now = now.saturating_add(arg as u64 * 97),
            2 => {
                let len = calls.len().max(1);
                if let Some(c) = calls.get_mut(pick % len) {
                    let _ = c.poll(now);
                }
            }
            3 => {
                let len = calls.len().max(1);
                if let Some(c) = calls.get_mut(pick % len) {
                    let status =
                        [200u16, 201, 400, 413, 429, 500, 503, 529, 0, 999][arg as usize % 10];
                    let h = &HEADERS[..(arg as usize / 10) % (HEADERS.len() + 1)];
                    let _ = c.on_response(status, h.iter().copied(), now);
                }
            }
            4 => {
                let n = (arg as usize).min(bytes.len());
                let chunk: Vec<u8> = bytes.by_ref().take(n).collect();
                if let Some(c) = calls.last_mut() {
                    c.on_body(&chunk, now);
                }
            }
            5 => {
                let len = calls.len().max(1);
                if let Some(c) = calls.get_mut(pick % len) {
                    c.on_end(now, arg as f64 / 256.0);
                }
            }
            6 => {
                let len = calls.len().max(1);
                if let Some(c) = calls.get_mut(pick % len) {
                    c.on_transport_error(now);
                }
            }
            7 => {
                let len = calls.len().max(1);
                if let Some(c) = calls.get_mut(pick % len) {
                    c.on_client_gone(now);
                }
            }
            8 => {
                if !calls.is_empty() {
                    let i = pick % calls.len();
                    drop(calls.swap_remove(i));
                }
            }
            _ => {
                let body =
                    String::from_utf8_lossy(&data[..(arg as usize).min(data.len())]).into_owned();
                calls.push(guard.start(&body, now + 5_000, now));
            }
        }
    }
    drop(calls);
    assert_eq!(guard.held_tokens(), 0);
    assert_eq!(guard.in_flight(), 0);
    assert_eq!(shared.in_flight(), 0);
    assert_eq!(shared.held(Dimension::Tokens), 0);
});
