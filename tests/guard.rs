//! The guarded call: each path a request can take through a `Guard`, driven as a gateway would (poll, send, feed
//! the answer back), against scripted providers; and random event sequences that must never panic nor leave a
//! reservation held.

use llm_preflight::{
    Budget, Call, CallEvent, Cost, Dimension, Disposition, Guard, GuardConfig, Ledger,
    LedgerFailure, LedgerMode, Outcome, Policy, Provider, RefusalKind, SharedAdmission,
    SharedLedger, State, Step, Target,
};
use proptest::prelude::*;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

fn nz(n: u64) -> NonZeroU64 {
    NonZeroU64::new(n).expect("a test limit is at least 1")
}

fn key(name: &str, tpm: u64) -> Target {
    Target::new(
        name,
        Budget::new(Provider::OpenAi).tokens_per_minute(nz(tpm)),
    )
}

fn chat(words: usize, max_tokens: u64) -> String {
    let text = vec!["budget"; words].join(" ");
    format!(
        r#"{{"model":"gpt-4o","messages":[{{"role":"user","content":"{text}"}}],"max_tokens":{max_tokens}}}"#
    )
}

/// A provider's scripted answer.
#[derive(Clone, Debug)]
enum Reply {
    /// Status, headers, body chunks.
    Http(u16, Vec<(&'static str, String)>, Vec<String>),
    /// Nothing came back.
    Transport,
}

fn ok(prompt: u64) -> Reply {
    Reply::Http(
        200,
        vec![("x-ratelimit-remaining-tokens", "1000".into())],
        vec![format!(
            r#"{{"choices":[{{"message":{{"content":"hi"}}}}],"usage":{{"prompt_tokens":{prompt},"completion_tokens":5}}}}"#
        )],
    )
}

/// What the driver saw: the targets sent to (with the bodies and times), and how the call ended.
#[derive(Debug, Default)]
struct Trace {
    sends: Vec<(usize, String, u64)>,
    answer: Option<llm_preflight::Answer>,
    outcome: Outcome,
    passed_through: Vec<String>,
    events: Vec<CallEvent>,
}

/// Drives `call` from `now` until it ends, answering each send with `respond(target, attempt)`.
fn drive(call: &mut Call, mut now: u64, mut respond: impl FnMut(usize, usize) -> Reply) -> Trace {
    let mut t = Trace::default();
    for _ in 0..200 {
        let step = call.poll(now);
        t.events
            .extend(call.take_events().into_iter().map(|(_, e)| e));
        match step {
            Step::Send { target, body, .. } => {
                t.sends.push((target, body, now));
                let n = t.sends.len() - 1;
                now += 50;
                match respond(target, n) {
                    Reply::Transport => call.on_transport_error(now),
                    Reply::Http(status, headers, chunks) => {
                        let d = call.on_response(
                            status,
                            headers.iter().map(|(a, b)| (*a, b.as_str())),
                            now,
                        );
                        for c in chunks {
                            if d == Disposition::PassThrough {
                                t.passed_through.push(c.clone());
                            }
                            call.on_body(c.as_bytes(), now);
                        }
                        call.on_end(now, 0.5);
                    }
                }
                t.events
                    .extend(call.take_events().into_iter().map(|(_, e)| e));
            }
            Step::Wait { until_ms } => {
                assert!(until_ms > now, "a wait must move time forward");
                now = until_ms;
            }
            Step::Awaiting => panic!("the driver always answers a send"),
            Step::Answer(a) => t.answer = Some(a),
            Step::Done(o) => {
                t.outcome = o;
                return t;
            }
        }
    }
    panic!("the call did not end: {t:?}");
}

fn header<'a>(a: &'a llm_preflight::Answer, name: &str) -> Option<&'a str> {
    a.headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

#[test]
fn a_success_is_settled_at_the_reported_usage() {
    let guard = Guard::new(vec![key("a", 10_000)], GuardConfig::default()).unwrap();
    let mut call = guard.start(&chat(50, 200), 30_000, 0);
    let t = drive(&mut call, 0, |_, _| ok(61));
    assert!(t.outcome.succeeded(), "{t:?}");
    assert_eq!(t.sends.len(), 1);
    assert_eq!(t.outcome.usage.map(|u| u.input_tokens), Some(61));
    assert_eq!(guard.held_tokens(), 0);
    assert_eq!(guard.in_flight(), 0);
    // The provider's remaining 1,000 (below the local level) was believed, then the unused reservation refunded.
    let left = guard
        .state(0)
        .unwrap()
        .bucket(llm_preflight::Dimension::Tokens)
        .unwrap()
        .available(50);
    assert!(left < 1_500.0, "{left}");
}

#[test]
fn a_bedrock_target_naming_a_claude_4_model_charges_its_output_five_times() {
    let target = |model: &str| Target {
        model: Some(model.to_string()),
        ..Target::new(
            "bedrock",
            Budget::new(Provider::Bedrock).tokens_per_minute(nz(100_000)),
        )
    };
    let body = r#"{"messages":[{"role":"user","content":[{"text":"Name three rivers."}]}],
      "inferenceConfig":{"maxTokens":500}}"#;
    let reply = || {
        Reply::Http(
            200,
            vec![],
            vec![
                r#"{"output":{"message":{"role":"assistant","content":[{"text":"Nile"}]}},
              "usage":{"inputTokens":1000,"outputTokens":2000,"totalTokens":3000}}"#
                    .to_string(),
            ],
        )
    };
    let mut left = Vec::new();
    for model in [
        "us.anthropic.claude-sonnet-4-20250514-v1:0",
        "meta.llama3-1-70b-instruct-v1:0",
    ] {
        let guard = Guard::new(vec![target(model)], GuardConfig::default()).unwrap();
        let mut call = guard.start(body, 30_000, 0);
        let t = drive(&mut call, 0, |_, _| reply());
        assert!(t.outcome.succeeded(), "{t:?}");
        assert_eq!(guard.held_tokens(), 0);
        let state = guard.state(0).unwrap();
        let bucket = state.bucket(Dimension::Tokens).unwrap();
        left.push(bucket.available(50).round() as u64);
    }
    // 1,000 in and 2,000 out: 11,000 of the quota for Claude Sonnet 4 (refill aside), 3,000 for Llama.
    assert_eq!(left[1] - left[0], 8_000, "{left:?}");
}

#[test]
fn never_sendable_is_answered_413_and_never_sent() {
    let guard = Guard::new(vec![key("a", 8_000)], GuardConfig::default()).unwrap();
    let mut call = guard.start(&chat(20, 9_000), 30_000, 0);
    let t = drive(&mut call, 0, |_, _| panic!("nothing may be sent"));
    let a = t.answer.expect("an answer");
    assert_eq!(a.status, 413);
    let v: serde_json::Value = serde_json::from_str(&a.body).unwrap();
    assert_eq!(v["error"]["type"], "never_sendable");
    assert!(t
        .events
        .iter()
        .any(|e| matches!(e, CallEvent::NeverSendable { limit: 8_000, .. })));
    assert_eq!(v["error"]["dimension"], "tokens");
    assert_eq!(v["error"]["limit"], 8_000);
    let needed = v["error"]["needed"].as_u64().unwrap();
    assert_eq!(v["error"]["excess"].as_u64().unwrap(), needed - 8_000);
    assert_eq!(t.outcome.end, "answered");
    assert_eq!(guard.held_tokens(), 0);
}

#[test]
fn a_retry_never_comes_before_retry_after() {
    // A retry budget that earns one retry per request (the default earns a fifth, beside a floor of one a second).
    let config = GuardConfig {
        retry_budget: llm_preflight::RetryBudget::new(1.0, 1.0, 20.0),
        ..GuardConfig::default()
    };
    let guard = Guard::new(vec![key("a", 100_000)], config).unwrap();
    let mut call = guard.start(&chat(10, 50), 60_000, 1_000);
    let t = drive(&mut call, 1_000, |_, n| {
        if n == 0 {
            Reply::Http(
                429,
                vec![("retry-after", "6".into())],
                vec![r#"{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached for requests"}}"#.into()],
            )
        } else {
            ok(20)
        }
    });
    assert!(t.outcome.succeeded(), "{t:?}");
    assert_eq!(t.sends.len(), 2);
    let refused_at = t.sends[0].2 + 50;
    assert!(t.sends[1].2 >= refused_at + 6_000, "{:?}", t.sends);
    assert_eq!(guard.held_tokens(), 0);
}

#[test]
fn a_wait_beyond_the_cap_falls_back_with_the_model_rewritten() {
    let mut b = key("b", 100_000);
    b.model = Some("gpt-4o-mini".into());
    let guard = Guard::new(vec![key("a", 100_000), b], GuardConfig::default()).unwrap();
    let mut call = guard.start(&chat(10, 50), 60_000, 0);
    let t = drive(&mut call, 0, |target, _| {
        if target == 0 {
            Reply::Http(
                429,
                vec![("retry-after", "120".into())],
                vec![
                    r#"{"error":{"type":"rate_limit_error","message":"Rate limit exceeded"}}"#
                        .into(),
                ],
            )
        } else {
            ok(15)
        }
    });
    assert!(t.outcome.succeeded(), "{t:?}");
    assert_eq!(t.sends.iter().map(|s| s.0).collect::<Vec<_>>(), vec![0, 1]);
    assert!(t.sends[0].1.contains("\"gpt-4o\""));
    assert!(t.sends[1].1.contains("\"gpt-4o-mini\""), "{}", t.sends[1].1);
    assert_eq!(t.outcome.target, Some(1));
    assert_eq!(guard.held_tokens(), 0);
    // The path, as the call tells it.
    let names: Vec<String> = t
        .events
        .iter()
        .map(|e| {
            serde_json::to_value(e).unwrap()["event"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        names,
        [
            "admitted",
            "sent",
            "response",
            "released",
            "refused",
            "fell_back",
            "admitted",
            "sent",
            "response",
            "settled",
            "calibrated",
            "ended",
        ],
        "{:?}",
        t.events
    );
    assert!(t.events.iter().any(|e| matches!(
        e,
        CallEvent::Refused {
            target: 0,
            kind: RefusalKind::RateLimitOther
                | RefusalKind::RateLimitRequests
                | RefusalKind::RateLimitTokens,
            mid_stream: false,
            retry_after_ms: Some(120_000),
        }
    )));
    assert_eq!(
        t.events.last(),
        Some(&CallEvent::Ended { end: "succeeded" })
    );
}

#[test]
fn only_targets_of_the_bodys_api_are_tried() {
    let mut anthropic = key("claude", 100_000);
    anthropic.api = Some(llm_preflight::Api::AnthropicMessages);
    let guard = Guard::new(vec![key("a", 100_000), anthropic], GuardConfig::default()).unwrap();
    let mut call = guard.start(&chat(10, 50), 60_000, 0);
    let t = drive(&mut call, 0, |target, _| {
        assert_eq!(
            target, 0,
            "an OpenAI body never goes to the Anthropic target"
        );
        Reply::Transport
    });
    assert_eq!(t.answer.map(|a| a.status), Some(502));
    assert_eq!(t.sends.len(), 1);
    assert_eq!(guard.held_tokens(), 0);
}

#[test]
fn quota_and_too_large_refusals_are_passed_on_not_retried() {
    for (status, body) in [
        (
            429,
            r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}"#,
        ),
        (
            400,
            r#"{"error":{"message":"This model's maximum context length is 128000 tokens. However, you requested 130000 tokens.","code":"context_length_exceeded"}}"#,
        ),
        (
            401,
            r#"{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}"#,
        ),
    ] {
        let guard = Guard::new(vec![key("a", 1_000_000)], GuardConfig::default()).unwrap();
        let mut call = guard.start(&chat(10, 50), 60_000, 0);
        let t = drive(&mut call, 0, |_, _| {
            Reply::Http(status, vec![], vec![body.into()])
        });
        assert_eq!(t.sends.len(), 1, "{body}");
        let a = t.answer.expect("the refusal is passed on");
        assert_eq!((a.status, a.body.as_str()), (status, body));
        assert_eq!(guard.held_tokens(), 0);
    }
}

#[test]
fn a_stream_that_fails_after_output_is_never_resent() {
    let guard = Guard::new(
        vec![key("a", 100_000), key("b", 100_000)],
        GuardConfig::default(),
    )
    .unwrap();
    let mut call = guard.start(&chat(10, 50), 60_000, 0);
    let t = drive(&mut call, 0, |_, _| {
        Reply::Http(
            200,
            vec![],
            vec![
                "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n".into(),
                "data: {\"choices\":[{\"delta\":{\"content\":\"lo\"}}]}\n\ndata: {\"error\":{\"type\":\"server_error\",\"message\":\"The server had an error\"}}\n\n".into(),
            ],
        )
    });
    assert_eq!(t.sends.len(), 1, "{t:?}");
    assert_eq!(t.outcome.end, "failed");
    assert_eq!(
        t.passed_through.len(),
        2,
        "the stream went to the client as it came"
    );
    assert!(t.answer.is_none(), "the client already has the stream");
    assert_eq!(guard.held_tokens(), 0);
}

#[test]
fn a_streams_usage_is_read_from_its_last_frame() {
    let guard = Guard::new(vec![key("a", 100_000)], GuardConfig::default()).unwrap();
    let mut call = guard.start(&chat(10, 50), 60_000, 0);
    let t = drive(&mut call, 0, |_, _| {
        Reply::Http(
            200,
            vec![],
            vec![
                "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":".into(),
                "17,\"completion_tokens\":3}}\n\ndata: [DONE]\n\n".into(),
            ],
        )
    });
    assert!(t.outcome.succeeded(), "{t:?}");
    assert_eq!(
        t.outcome.usage.map(|u| (u.input_tokens, u.output_tokens)),
        Some((17, 3))
    );
}

#[test]
fn a_full_bucket_queues_then_sends() {
    let guard = Guard::new(vec![key("a", 6_000)], GuardConfig::default()).unwrap();
    // The first call learns that only 100 tokens are left, refilled in 6 s.
    let mut first = guard.start(&chat(10, 50), 60_000, 0);
    let t = drive(&mut first, 0, |_, _| {
        Reply::Http(
            200,
            vec![
                ("x-ratelimit-remaining-tokens", "100".into()),
                ("x-ratelimit-reset-tokens", "6s".into()),
            ],
            vec![r#"{"usage":{"prompt_tokens":10,"completion_tokens":5}}"#.into()],
        )
    });
    assert!(t.outcome.succeeded());
    let mut second = guard.start(&chat(200, 300), 60_000, 50);
    let t = drive(&mut second, 50, |_, _| ok(220));
    assert!(t.outcome.succeeded(), "{t:?}");
    assert!(t.sends[0].2 > 50, "it waited for the refill: {:?}", t.sends);
    assert!(t.sends[0].2 < 6_100, "{:?}", t.sends);
    assert_eq!(guard.held_tokens(), 0);
}

#[test]
fn a_deadline_the_bucket_cannot_meet_is_answered_429_at_once() {
    let guard = Guard::new(vec![key("a", 6_000)], GuardConfig::default()).unwrap();
    let mut first = guard.start(&chat(10, 50), 60_000, 0);
    drive(&mut first, 0, |_, _| {
        Reply::Http(
            200,
            vec![
                ("x-ratelimit-remaining-tokens", "0".into()),
                ("x-ratelimit-reset-tokens", "60s".into()),
            ],
            vec![r#"{"usage":{"prompt_tokens":10,"completion_tokens":5}}"#.into()],
        )
    });
    let mut call = guard.start(&chat(200, 300), 2_000, 100);
    let t = drive(&mut call, 100, |_, _| panic!("nothing may be sent"));
    let a = t.answer.expect("shed");
    assert_eq!(a.status, 429);
    let ra: u64 = header(&a, "retry-after").unwrap().parse().unwrap();
    assert!(ra >= 1);
    assert_eq!(header(&a, "x-ratelimit-limit-tokens"), Some("6000"));
    assert!(header(&a, "x-ratelimit-remaining-tokens").is_some());
    let v: serde_json::Value = serde_json::from_str(&a.body).unwrap();
    assert_eq!(v["error"]["type"], "shed");
    assert_eq!(v["error"]["reason"], "deadline_unreachable");
    assert!(v["error"]["message"].as_str().unwrap().contains("deadline"));
    assert_eq!(guard.held_tokens(), 0);
}

#[test]
fn a_client_that_goes_away_gives_everything_back() {
    let guard = Guard::new(vec![key("a", 100_000)], GuardConfig::default()).unwrap();
    // Gone while its request is out.
    let mut call = guard.start(&chat(10, 500), 60_000, 0);
    assert!(matches!(call.poll(0), Step::Send { .. }));
    assert!(guard.held_tokens() > 0);
    call.on_client_gone(10);
    assert_eq!(guard.held_tokens(), 0);
    assert!(matches!(call.poll(10), Step::Done(o) if o.end == "abandoned"));
    // Dropped mid-way without a word.
    let mut call = guard.start(&chat(10, 500), 60_000, 0);
    assert!(matches!(call.poll(0), Step::Send { .. }));
    call.on_response(200, [("a", "b")], 5);
    call.on_body(
        b"data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n",
        6,
    );
    drop(call);
    assert_eq!(guard.held_tokens(), 0);
    assert_eq!(guard.in_flight(), 0);
}

#[test]
fn transport_errors_move_on_and_open_the_breaker() {
    let guard = Guard::new(
        vec![key("a", 1_000_000), key("b", 1_000_000)],
        GuardConfig::default(),
    )
    .unwrap();
    let mut now = 0;
    let mut to_b_first = 0;
    for _ in 0..12 {
        let mut call = guard.start(&chat(5, 20), now + 60_000, now);
        let t = drive(&mut call, now, |target, _| {
            if target == 0 {
                Reply::Transport
            } else {
                ok(8)
            }
        });
        assert!(t.outcome.succeeded(), "{t:?}");
        assert_eq!(t.sends.last().unwrap().0, 1);
        if t.sends[0].0 == 1 {
            to_b_first += 1;
        }
        now += 1_000;
    }
    // Once a's breaker opened, calls stopped trying it first.
    assert!(to_b_first > 0, "the breaker never opened");
    assert_eq!(guard.held_tokens(), 0);
}

#[test]
fn a_bad_body_is_answered_400() {
    let guard = Guard::new(vec![key("a", 1_000)], GuardConfig::default()).unwrap();
    for body in ["not json", "[1,2]", r#"{"messages": 3}"#] {
        let mut call = guard.start(body, 1_000, 0);
        match call.poll(0) {
            Step::Answer(a) => assert_eq!(a.status, 400, "{body}"),
            s => panic!("{body}: {s:?}"),
        }
    }
    assert!(Guard::new(vec![], GuardConfig::default()).is_err());
    assert!(Guard::new(vec![key("a", 1), key("a", 2)], GuardConfig::default()).is_err());
}

/// The corpus's held-out samples with their true o200k counts, in a fixed shuffled order.
fn held_out() -> Vec<(String, u64)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let tsv = std::fs::read_to_string(root.join("calibration/counts.tsv")).expect("counts.tsv");
    let mut out: Vec<(u64, String, u64)> = Vec::new();
    for line in tsv.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        if c[2] != "eval" {
            continue;
        }
        let text =
            std::fs::read_to_string(root.join("corpus").join(c[1]).join(format!("{}.txt", c[0])))
                .expect("corpus sample");
        // A fixed order that mixes the kinds: the id's FNV-1a hash.
        let h = c[0].bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        });
        out.push((h, text, c[5].parse().expect("o200k count")));
    }
    out.sort_by_key(|s| s.0);
    out.into_iter().map(|(_, t, n)| (t, n)).collect()
}

/// A provider that counts `skew` times what o200k counts (its own tokenizer, or framing the text does not show):
/// after 200 answers that report their usage, the next 500 estimates are within 5% at the median and their bands
/// hold the reported count nine times in ten.
#[test]
fn the_guard_learns_a_providers_count_from_the_usage_it_settles() {
    let samples = held_out();
    assert!(samples.len() >= 700, "{}", samples.len());
    let mut figures = Vec::new();
    for skew in [1.20, 0.85] {
        let guard = Guard::new(vec![key("p", 1 << 40)], GuardConfig::default()).unwrap();
        let reported = |true_count: u64| (true_count as f64 * skew).round() as u64 + 7;
        let mut now = 0;
        let (mut errors, mut inside, mut errors_before) = (Vec::new(), 0, Vec::new());
        for (i, (text, truth)) in samples.iter().take(700).enumerate() {
            let body = serde_json::json!({
                "model": "gpt-4o",
                "messages": [{"role": "user", "content": text}],
                "max_tokens": 16,
            })
            .to_string();
            let mut call = guard.start(&body, now + 60_000, now);
            let want = reported(*truth);
            let cost = call.cost(0).expect("priced").input;
            let err = (cost.tokens as f64 - want as f64).abs() / want as f64;
            if i >= 200 {
                // What a guard that did not learn would have said: the shipped profile's estimate.
                let shipped = llm_preflight::estimate_request(&body, None, None)
                    .unwrap()
                    .cost()
                    .input
                    .tokens;
                errors_before.push((shipped as f64 - want as f64).abs() / want as f64);
                errors.push(err);
                inside += usize::from(cost.low <= want && want <= cost.high);
            }
            let usage = format!(r#"{{"usage":{{"prompt_tokens":{want},"completion_tokens":4}}}}"#);
            let t = drive(&mut call, now, |_, _| {
                Reply::Http(200, vec![], vec![usage.clone()])
            });
            assert!(t.outcome.succeeded());
            now += 1_000;
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (m, m0) = (median(&mut errors), median(&mut errors_before));
        let coverage = inside as f64 / errors.len() as f64;
        let (n, ratio) = guard.learned(0).unwrap();
        println!(
            "skew {skew}: on the 500 after the first 200, median error {:.1}% learned ({:.1}% shipped), coverage {:.1}%, learned ratio {ratio:.3} from {n}",
            m * 100.0,
            m0 * 100.0,
            coverage * 100.0
        );
        figures.push([m0, m, coverage].map(|x| format!("{:.1}%", x * 100.0)));
        assert!(m <= 0.05, "median error {m}");
        assert!(coverage >= 0.90, "coverage {coverage}");
        assert!(
            m0 > 0.10,
            "the shipped profile should be off by the skew: {m0}"
        );
        assert_eq!(n, 700);
        // What was learned exports as a profile that loads back and prices with the shift.
        let p = guard
            .learned_profile(0, llm_preflight::Profile::O200k)
            .unwrap();
        let loaded = llm_preflight::CustomProfile::from_json(&p.to_json()).unwrap();
        let text = &samples[0].0;
        let shipped = llm_preflight::estimate(text, llm_preflight::Profile::O200k).tokens as f64;
        let learned = llm_preflight::estimate(text, &loaded).tokens as f64;
        assert!(
            (learned / shipped / skew - 1.0).abs() < 0.1,
            "{learned} / {shipped}"
        );
        guard.reset_learning();
        assert_eq!(guard.learned(0), Some((0, 1.0)));
    }
    // The README quotes these figures: they move with the tables.
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let [[s1, l1, c1], [s2, l2, c2]] = [&figures[0], &figures[1]];
    let quote = format!(
        "estimated at {s1} median error by the shipped profile and at {l1} by the guard on the 500 requests after its \
         first 200 (band coverage {c1}); one that counts 15% below, {s2} → {l2} ({c2})"
    );
    assert!(readme.contains(&quote), "README.md should say: {quote}");
}

/// One event a gateway may feed a call, in any order.
#[derive(Debug, Clone)]
enum Ev {
    Poll,
    Advance(u64),
    Response(u16, bool),
    Body(Vec<u8>),
    End(f64),
    Transport,
    Gone,
    Start(usize, u64),
    Drop,
}

fn ev() -> impl Strategy<Value = Ev> {
    prop_oneof![
        4 => Just(Ev::Poll),
        2 => (0u64..30_000).prop_map(Ev::Advance),
        2 => (prop::sample::select(vec![200u16, 400, 413, 429, 500, 503, 529]), any::<bool>())
            .prop_map(|(s, h)| Ev::Response(s, h)),
        2 => prop::sample::select(vec![
            b"data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n".to_vec(),
            b"data: {\"error\":{\"type\":\"server_error\"}}\n\n".to_vec(),
            br#"{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached, try again in 2s"}}"#.to_vec(),
            br#"{"usage":{"prompt_tokens":12,"completion_tokens":3}}"#.to_vec(),
            b"<html>502</html>".to_vec(),
            vec![0xff, 0xfe, b'\n'],
        ]).prop_map(Ev::Body),
        2 => (0.0f64..1.0).prop_map(Ev::End),
        1 => Just(Ev::Transport),
        1 => Just(Ev::Gone),
        1 => (0usize..3, 1u64..80_000).prop_map(|(w, d)| Ev::Start(w, d)),
        1 => Just(Ev::Drop),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any sequence of events over a few calls: no panic, and once every call is dropped nothing is held.
    #[test]
    fn any_event_sequence_ends_with_nothing_held(evs in prop::collection::vec(ev(), 1..120)) {
        // Target a's budget is also shared with other replicas through one ledger.
        let shared = Ledger::new(State::new(Budget::new(Provider::OpenAi).tokens_per_minute(nz(2_000)), 0));
        let guard = Guard::new(vec![key("a", 3_000), key("b", 1_000)], GuardConfig::default())
            .unwrap()
            .with_shared_ledger(0, Arc::new(shared.clone()))
            .unwrap();
        let mut calls: Vec<Call> = Vec::new();
        let mut now = 0u64;
        for e in evs {
            match e {
                Ev::Start(words, deadline) => {
                    calls.push(guard.start(&chat(words * 300 + 1, 100), now + deadline, now));
                }
                Ev::Advance(d) => now += d,
                Ev::Drop => { calls.pop(); }
                e => {
                    let Some(c) = calls.last_mut() else { continue };
                    match e {
                        Ev::Poll => { let _ = c.poll(now); }
                        Ev::Response(s, h) => {
                            let hs: Vec<(&str, &str)> = if h {
                                vec![("retry-after", "3"), ("x-ratelimit-remaining-tokens", "0")]
                            } else {
                                vec![]
                            };
                            let _ = c.on_response(s, hs, now);
                        }
                        Ev::Body(b) => c.on_body(&b, now),
                        Ev::End(r) => c.on_end(now, r),
                        Ev::Transport => c.on_transport_error(now),
                        Ev::Gone => c.on_client_gone(now),
                        _ => {}
                    }
                }
            }
        }
        drop(calls);
        prop_assert_eq!(guard.held_tokens(), 0);
        prop_assert_eq!(guard.in_flight(), 0);
        prop_assert_eq!(shared.in_flight(), 0);
        prop_assert_eq!(shared.held(Dimension::Tokens), 0);
    }
}

/// A shared ledger whose store is down for the first `down` reservations (a Redis that is restarting), then is
/// the in-process ledger it wraps.
#[derive(Debug)]
struct Flaky {
    inner: Ledger,
    down: u64,
    calls: AtomicU64,
}

impl SharedLedger for Flaky {
    fn reserve(&self, cost: &Cost, policy: Policy, now_ms: u64) -> SharedAdmission {
        if self.calls.fetch_add(1, Ordering::SeqCst) < self.down {
            return SharedAdmission::Unavailable {
                error: "connection refused".into(),
            };
        }
        SharedLedger::reserve(&self.inner, cost, policy, now_ms)
    }
}

fn shared_ledger(tpm: u64) -> Ledger {
    Ledger::new(State::new(
        Budget::new(Provider::OpenAi).tokens_per_minute(nz(tpm)),
        0,
    ))
}

fn ledger_events(t: &Trace) -> Vec<(LedgerMode, &'static str)> {
    t.events
        .iter()
        .filter_map(|e| match e {
            CallEvent::Ledger { mode, decision, .. } => Some((*mode, *decision)),
            _ => None,
        })
        .collect()
}

#[test]
fn two_replicas_sharing_a_ledger_never_admit_past_it_together() {
    // Two gateway replicas, each with the key's full 10,000 TPM locally, share one 10,000 TPM ledger: together
    // they may not hold more than it, and the second waits the shared ledger's wait.
    let shared = shared_ledger(10_000);
    let replica = || {
        Guard::new(vec![key("a", 10_000)], GuardConfig::default())
            .unwrap()
            .with_shared_ledger(0, Arc::new(shared.clone()))
            .unwrap()
    };
    let (r1, r2) = (replica(), replica());
    let body = chat(1_000, 5_000); // about 6,100 tokens reserved: one fits the shared budget, not two
    let mut c1 = r1.start(&body, 120_000, 0);
    let Step::Send { .. } = c1.poll(0) else {
        panic!("the first replica sends at once")
    };
    assert_eq!(shared.in_flight(), 1);
    let mut c2 = r2.start(&body, 120_000, 0);
    let wait = match c2.poll(0) {
        Step::Wait { until_ms } => until_ms,
        s => panic!("the second replica must wait for the shared budget, got {s:?}"),
    };
    assert!(wait > 0);
    let ev: Vec<CallEvent> = c2.take_events().into_iter().map(|(_, e)| e).collect();
    assert!(ev.contains(&CallEvent::Ledger {
        target: 0,
        mode: LedgerMode::Shared,
        decision: "not_yet"
    }));
    assert_eq!(shared.in_flight(), 1, "the refused replica holds nothing");
    assert_eq!(r2.held_tokens(), 0, "its local reservation was given back");
    // The first ends; the second goes when the shared bucket has refilled.
    c1.on_response(200, [("x", "y")], 1_000);
    c1.on_body(
        br#"{"usage":{"prompt_tokens":1100,"completion_tokens":4900}}"#,
        1_000,
    );
    c1.on_end(1_000, 0.5);
    let t = drive(&mut c2, wait, |_, _| ok(1_100));
    assert!(t.outcome.succeeded(), "{t:?}");
    assert!(t.sends[0].2 >= wait);
    drop((c1, c2));
    assert_eq!(shared.in_flight(), 0);
    assert_eq!(shared.held(Dimension::Tokens), 0);
    assert_eq!(r1.held_tokens() + r2.held_tokens(), 0);
}

#[test]
fn an_unreachable_shared_ledger_fails_closed_by_default() {
    let flaky = Flaky {
        inner: shared_ledger(10_000),
        down: 1,
        calls: AtomicU64::new(0),
    };
    let guard = Guard::new(vec![key("a", 10_000)], GuardConfig::default())
        .unwrap()
        .with_shared_ledger(0, Arc::new(flaky))
        .unwrap();
    let mut call = guard.start(&chat(50, 100), 30_000, 0);
    let t = drive(&mut call, 0, |_, _| {
        panic!("nothing may be sent while the ledger is down")
    });
    let a = t.answer.as_ref().expect("an answer");
    assert_eq!(a.status, 503);
    assert_eq!(header(a, "retry-after"), Some("1"));
    assert_eq!(
        ledger_events(&t),
        vec![(LedgerMode::FailClosed, "unavailable")]
    );
    assert_eq!(guard.held_tokens(), 0);
    // Back up: the next call goes through the shared ledger.
    let mut call = guard.start(&chat(50, 100), 30_000, 0);
    let t = drive(&mut call, 0, |_, _| ok(60));
    assert!(t.outcome.succeeded());
    assert_eq!(ledger_events(&t), vec![(LedgerMode::Shared, "admitted")]);
}

#[test]
fn an_unreachable_shared_ledger_fails_open_when_built_so_and_falls_back_when_closed() {
    let flaky = || Flaky {
        inner: shared_ledger(10_000),
        down: u64::MAX,
        calls: AtomicU64::new(0),
    };
    let open = GuardConfig {
        on_ledger_unavailable: LedgerFailure::FailOpen,
        ..GuardConfig::default()
    };
    let guard = Guard::new(vec![key("a", 10_000)], open)
        .unwrap()
        .with_shared_ledger(0, Arc::new(flaky()))
        .unwrap();
    let mut call = guard.start(&chat(50, 100), 30_000, 0);
    let t = drive(&mut call, 0, |_, _| ok(60));
    assert!(t.outcome.succeeded(), "{t:?}");
    assert_eq!(
        ledger_events(&t),
        vec![(LedgerMode::FailOpen, "unavailable")]
    );
    assert_eq!(guard.held_tokens(), 0);
    // Failing closed with a second target: the call moves there rather than answering 503.
    let guard = Guard::new(
        vec![key("a", 10_000), key("b", 10_000)],
        GuardConfig::default(),
    )
    .unwrap()
    .with_shared_ledger(0, Arc::new(flaky()))
    .unwrap();
    let mut call = guard.start(&chat(50, 100), 30_000, 0);
    let t = drive(&mut call, 0, |_, _| ok(60));
    assert!(t.outcome.succeeded());
    assert_eq!(t.sends.iter().map(|s| s.0).collect::<Vec<_>>(), vec![1]);
    assert!(matches!(
        Guard::new(vec![key("a", 1)], GuardConfig::default())
            .unwrap()
            .with_shared_ledger(1, Arc::new(flaky())),
        Err(llm_preflight::GuardError::NoSuchTarget(1))
    ));
}

#[test]
fn a_shared_budget_too_small_for_the_request_is_answered_413() {
    let guard = Guard::new(vec![key("a", 100_000)], GuardConfig::default())
        .unwrap()
        .with_shared_ledger(0, Arc::new(shared_ledger(2_000)))
        .unwrap();
    let mut call = guard.start(&chat(50, 5_000), 30_000, 0);
    let t = drive(&mut call, 0, |_, _| {
        panic!("never sendable on the shared budget")
    });
    assert_eq!(t.answer.as_ref().map(|a| a.status), Some(413));
    assert_eq!(ledger_events(&t), vec![(LedgerMode::Shared, "never")]);
    assert_eq!(guard.held_tokens(), 0);
}

#[test]
fn a_call_shed_where_it_fits_is_not_told_to_shrink_by_a_target_too_small_for_it() {
    // The primary holds the request but is busy past its deadline; the fallback could never hold it: the client
    // gets the primary's 429 with its wait, not the fallback's 413 telling it to shrink.
    let guard = Guard::new(
        vec![key("big", 10_000), key("small", 2_500)],
        GuardConfig::default(),
    )
    .unwrap();
    let mut first = guard.start(&chat(20, 8_000), 60_000, 0);
    assert!(matches!(first.poll(0), Step::Send { target: 0, .. }));
    let mut second = guard.start(&chat(20, 4_000), 2_000, 0);
    let t = drive(&mut second, 0, |_, _| panic!("nothing may be sent"));
    let a = t.answer.as_ref().expect("an answer");
    assert_eq!(a.status, 429, "{a:?}");
    assert!(header(a, "retry-after").is_some());
    assert!(t
        .events
        .iter()
        .any(|e| matches!(e, CallEvent::Shed { target: 0, .. })));
    drop(first);
    assert_eq!(guard.held_tokens(), 0);
}

#[test]
fn a_body_that_is_not_utf8_is_answered_400_and_never_sent() {
    let guard = Guard::new(vec![key("a", 10_000)], GuardConfig::default()).unwrap();
    let mut call = guard.start_bytes(b"{\"model\":\"gpt-4o\",\"messages\":[\xff]}", 0, 1_000, 0);
    let Step::Answer(a) = call.poll(0) else {
        panic!("a non-UTF-8 body is answered")
    };
    assert_eq!(a.status, 400);
    assert!(a.body.contains("not UTF-8"), "{}", a.body);
    assert!(call
        .take_events()
        .iter()
        .all(|(_, e)| !matches!(e, CallEvent::Sent { .. })));
    // Valid bytes go the same way as `start`.
    let mut call = guard.start_bytes(chat(10, 20).as_bytes(), 0, 1_000, 0);
    assert!(matches!(call.poll(0), Step::Send { target: 0, .. }));
    drop(call);
    assert_eq!(guard.held_tokens(), 0);
    assert_eq!(guard.target_names(), vec!["a".to_string()]);
}

#[test]
fn event_names_and_targets_agree_with_their_json() {
    let events = [
        CallEvent::Queued {
            target: 1,
            eta_ms: 5,
        },
        CallEvent::Shed {
            target: 1,
            message: "full".into(),
        },
        CallEvent::Sent {
            target: 0,
            attempt: 2,
        },
        CallEvent::BreakerOpen { target: 1 },
        CallEvent::Response {
            target: 0,
            status: 200,
        },
        CallEvent::Settled {
            target: 0,
            input_tokens: 1,
            output_tokens: 2,
            estimated_tokens: 1,
            reported_tokens: None,
        },
        CallEvent::Admitted { target: 1 },
        CallEvent::NeverSendable {
            dimension: Dimension::Tokens,
            limit: 1,
            needed: 2,
            excess: 1,
        },
        CallEvent::Calibrated {
            target: 1,
            answers: 3,
            ratio: 1.1,
        },
        CallEvent::Released { target: 0 },
        CallEvent::Refused {
            target: 1,
            kind: RefusalKind::Overloaded,
            mid_stream: false,
            retry_after_ms: None,
        },
        CallEvent::Retry {
            target: 0,
            at_ms: 9,
        },
        CallEvent::FellBack {
            from: 1,
            reason: "x".into(),
        },
        CallEvent::Shrunk { by_tokens: 4 },
        CallEvent::Ledger {
            target: 0,
            mode: LedgerMode::Shared,
            decision: "admitted",
        },
        CallEvent::LedgerError {
            target: 1,
            message: "down".into(),
        },
        CallEvent::TransportError { target: 0 },
        CallEvent::Answered { status: 429 },
        CallEvent::Ended { end: "answered" },
    ];
    for e in &events {
        let v = serde_json::to_value(e).unwrap();
        assert_eq!(v["event"], e.name(), "{v}");
        let t = v
            .get("target")
            .or_else(|| v.get("from"))
            .and_then(|t| t.as_u64());
        assert_eq!(t, e.target().map(|t| t as u64), "{v}");
    }
}

#[test]
fn a_call_addressed_to_a_later_target_starts_there_and_never_goes_back() {
    let guard = Guard::new(
        vec![
            key("primary", 10_000),
            key("backup", 10_000),
            key("third", 10_000),
        ],
        GuardConfig::default(),
    )
    .unwrap();
    let mut call = guard.start_from(&chat(10, 20), 1, 30_000, 0);
    let Step::Send { target, .. } = call.poll(0) else {
        panic!("sent")
    };
    assert_eq!(target, 1);
    // Nothing comes back: it moves on to the third, never to the primary.
    call.on_transport_error(10);
    let Step::Send { target, .. } = call.poll(10) else {
        panic!("fell back")
    };
    assert_eq!(target, 2);
    call.on_transport_error(20);
    let Step::Answer(a) = call.poll(20) else {
        panic!("answered")
    };
    assert_eq!(a.status, 502);
    assert_eq!(guard.held_tokens(), 0);
    // Past the last target: as `start`.
    let mut call = guard.start_from(&chat(10, 20), 9, 30_000, 0);
    assert!(matches!(call.poll(0), Step::Send { target: 0, .. }));
}
