//! Preflight: the issue's targets, bad input, the ledger under threads, queue shedding, routing, request bodies,
//! and the measurement of OpenAI's chat-format overheads. No test depends on the estimator's calibrated rates:
//! exact prompt counts are given, or expectations are computed from `estimate()` itself.

use llm_preflight::internals::preflight::*;
use llm_preflight::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A limit for a test: never zero.
fn nz(n: u64) -> std::num::NonZeroU64 {
    std::num::NonZeroU64::new(n).expect("a test limit is at least 1")
}

fn key(tpm: u64) -> Budget {
    Budget::new(Provider::Groq).tokens_per_minute(nz(tpm))
}

fn observed_tokens(remaining: u64, reset_ms: Option<u64>) -> RateLimitSnapshot {
    RateLimitSnapshot {
        tokens: DimensionState {
            limit: None,
            remaining: Some(remaining),
            reset_ms,
        },
        ..RateLimitSnapshot::default()
    }
}

// ---- the issue's targets ------------------------------------------------------------------------------------

#[test]
fn target_8478_against_8000_is_never_sendable_by_478() {
    let state = State::new(key(8_000), 0);
    let c = state.check(&Cost::exact(8_478), Policy::Median, 0);
    assert_eq!(
        c.verdict,
        Verdict::NeverSendable {
            dimension: Dimension::Tokens,
            limit: 8_000,
            needed: 8_478,
            excess: 478
        }
    );
    assert!(
        c.holds_across_band,
        "an exact count has no band to disagree"
    );
    assert_eq!(c.needed, 8_478);
    // Waiting never helps: still never sendable an hour later.
    assert_eq!(
        state
            .check(&Cost::exact(8_478), Policy::Median, 3_600_000)
            .verdict
            .kind(),
        VerdictKind::NeverSendable
    );
}

#[test]
fn target_1200_with_7923_remaining_is_sendable() {
    let mut state = State::new(key(8_000), 0);
    state.observe(&observed_tokens(7_923, Some(577)), 0);
    let c = state.check(&Cost::exact(1_200), Policy::Median, 0);
    assert_eq!(c.verdict, Verdict::Sendable);
}

#[test]
fn target_500_remaining_reset_5_94s_is_queueable_within_the_reset() {
    let reset = llm_preflight::parse_duration_ms("5.94s").unwrap();
    let mut state = State::new(key(8_000), 1_000);
    state.observe(&observed_tokens(500, Some(reset)), 1_000);
    for need in [501, 1_200, 4_000, 8_000] {
        let c = state.check(&Cost::exact(need), Policy::Median, 1_000);
        match c.verdict {
            Verdict::Queueable { wait_ms, dimension } => {
                assert_eq!(dimension, Dimension::Tokens);
                assert!(
                    wait_ms > 0 && wait_ms <= reset,
                    "{need}: wait {wait_ms} vs reset {reset}"
                );
                // And after that wait it is sendable.
                let later = state.check(&Cost::exact(need), Policy::Median, 1_000 + wait_ms);
                assert_eq!(
                    later.verdict,
                    Verdict::Sendable,
                    "{need} after {wait_ms} ms"
                );
            }
            other => panic!("{need}: expected queueable, got {other:?}"),
        }
    }
    // A full bucket's worth waits the whole reset, not longer.
    let full = state.check(&Cost::exact(8_000), Policy::Median, 1_000);
    assert_eq!(full.verdict.wait_ms(), Some(reset));
}

#[test]
fn target_reservation_counts_1000_plus_8000_max_tokens() {
    for p in [
        Provider::OpenAi,
        Provider::Groq,
        Provider::Cerebras,
        Provider::AzureOpenAi,
    ] {
        let state = State::new(Budget::new(p).tokens_per_minute(nz(8_000)), 0);
        let c = state.check(
            &Cost::exact(1_000).with_max_output(8_000),
            Policy::Median,
            0,
        );
        assert_eq!(
            c.verdict,
            Verdict::NeverSendable {
                dimension: Dimension::Tokens,
                limit: 8_000,
                needed: 9_000,
                excess: 1_000
            },
            "{p:?}"
        );
        assert_eq!(c.reserved_output, 8_000);
    }
    // Gemini's TPM counts input; the cap is not charged at admission.
    let g = State::new(
        Budget::new(Provider::Gemini).tokens_per_minute(nz(8_000)),
        0,
    );
    assert!(g
        .check(
            &Cost::exact(1_000).with_max_output(8_000),
            Policy::Median,
            0
        )
        .verdict
        .is_sendable());
}

#[test]
fn anthropic_meters_input_and_output_apart() {
    let b = Budget::new(Provider::Anthropic)
        .input_tokens_per_minute(nz(40_000))
        .output_tokens_per_minute(nz(8_000))
        .context_window(nz(200_000));
    let mut s = State::new(b, 0);
    // A 30k prompt with a 16k cap: fits ITPM, the cap is not reserved against OTPM.
    let cost = Cost::exact(30_000).with_max_output(16_000);
    assert!(s.check(&cost, Policy::Median, 0).verdict.is_sendable());
    // Input over ITPM is never sendable in the input dimension.
    let c = s.check(&Cost::exact(41_000), Policy::Median, 0);
    assert!(matches!(
        c.verdict,
        Verdict::NeverSendable {
            dimension: Dimension::InputTokens,
            excess: 1_000,
            ..
        }
    ));
    // Prompt plus cap over the context window.
    let c = s.check(
        &Cost::exact(30_000).with_max_output(180_000),
        Policy::Median,
        0,
    );
    assert!(matches!(
        c.verdict,
        Verdict::NeverSendable {
            dimension: Dimension::Context,
            excess: 10_000,
            ..
        }
    ));
    // An exhausted OTPM bucket makes it wait even though nothing is reserved.
    s.observe(
        &RateLimitSnapshot {
            output_tokens: DimensionState {
                limit: Some(8_000),
                remaining: Some(0),
                reset_ms: Some(3_000),
            },
            ..RateLimitSnapshot::default()
        },
        0,
    );
    let c = s.check(&Cost::exact(100), Policy::Median, 0);
    assert!(
        matches!(
            c.verdict,
            Verdict::Queueable {
                dimension: Dimension::OutputTokens,
                ..
            }
        ),
        "{c:?}"
    );
}

#[test]
fn policy_and_band_ends() {
    // Compute a text whose band straddles the limit, from the estimator itself.
    let text = "The quick brown fox jumps over the lazy dog. ".repeat(200);
    let e = estimate(&text, Profile::O200k);
    assert!(e.low < e.tokens && e.tokens < e.high, "{e:?}");
    let cost = Cost::estimated(&e);
    let state = State::new(key(e.tokens), 0);
    let med = state.check(&cost, Policy::Median, 0);
    assert!(med.verdict.is_sendable());
    assert_eq!(med.at_low, VerdictKind::Sendable);
    assert_eq!(med.at_high, VerdictKind::NeverSendable);
    assert!(!med.holds_across_band);
    let cons = state.check(&cost, Policy::Conservative, 0);
    assert_eq!(
        cons.verdict,
        Verdict::NeverSendable {
            dimension: Dimension::Tokens,
            limit: e.tokens,
            needed: e.high,
            excess: e.high - e.tokens
        }
    );
    // Never sendable even at p5: the strong statement.
    let small = State::new(key(e.low.saturating_sub(1).max(1)), 0);
    let c = small.check(&cost, Policy::Optimistic, 0);
    assert_eq!(c.verdict.kind(), VerdictKind::NeverSendable);
    assert!(c.holds_across_band);
}

#[test]
fn bucket_refills_continuously_at_the_nominal_rate() {
    let mut s = State::new(key(6_000), 0);
    s.observe(&observed_tokens(0, None), 0);
    // 6,000 per minute = 100 per second.
    let c = s.check(&Cost::exact(1_000), Policy::Median, 0);
    assert_eq!(c.verdict.wait_ms(), Some(10_000));
    assert!(s
        .check(&Cost::exact(1_000), Policy::Median, 10_000)
        .verdict
        .is_sendable());
    assert!(!s
        .check(&Cost::exact(1_000), Policy::Median, 9_990)
        .verdict
        .is_sendable());
    // Never more than the limit however long it waits.
    assert_eq!(
        s.bucket(Dimension::Tokens).unwrap().available(10_000_000),
        6_000.0
    );
}

#[test]
fn requests_dimension_and_retry_after() {
    // OpenAI's `requests` headers are the minute's (Groq's are the day's: `windows_the_headers_report_beyond_a_minute`).
    let budget = Budget::new(Provider::OpenAi).tokens_per_minute(nz(8_000));
    let mut s = State::new(budget.requests_per_minute(nz(30)), 0);
    s.observe(
        &RateLimitSnapshot {
            requests: DimensionState {
                limit: Some(30),
                remaining: Some(0),
                reset_ms: Some(2_000),
            },
            ..RateLimitSnapshot::default()
        },
        0,
    );
    let c = s.check(&Cost::exact(10), Policy::Median, 0);
    assert_eq!(
        c.verdict,
        Verdict::Queueable {
            wait_ms: 67,
            dimension: Dimension::Requests
        }
    );
    s.observe(
        &RateLimitSnapshot {
            retry_after_ms: Some(6_000),
            ..RateLimitSnapshot::default()
        },
        0,
    );
    assert_eq!(
        s.check(&Cost::exact(10), Policy::Median, 0)
            .verdict
            .wait_ms(),
        Some(6_000)
    );
}

#[test]
fn headers_snapshot_feeds_the_state() {
    // The response in shared/background/crossing-the-ceiling.txt.
    let raw = "HTTP/1.1 429 Too Many Requests\nretry-after: 6\nx-ratelimit-limit-tokens: 10000\nx-ratelimit-remaining-tokens: 0\nx-ratelimit-reset-tokens: 5.94s\nx-ratelimit-remaining-requests: 47\n";
    let h = Headers::parse(raw).unwrap();
    let snap = RateLimitSnapshot::from_headers(h.iter(), 0).snapshot;
    let mut s = State::new(key(10_000).requests_per_minute(nz(60)), 0);
    s.observe(&snap, 0);
    let c = s.check(&Cost::exact(1_210), Policy::Median, 0);
    // The header's reset says the bucket is full at 5.94 s; retry-after says 6 s: the later wins.
    assert_eq!(
        c.verdict,
        Verdict::Queueable {
            wait_ms: 6_000,
            dimension: Dimension::Tokens
        }
    );
}

// ---- bad input ------------------------------------------------------------------------------------------------

#[test]
fn bad_limits_are_typed_errors() {
    for v in [-1.0, f64::NAN, f64::INFINITY, 1.5, -0.0001] {
        let e = Budget::new(Provider::OpenAi)
            .try_with(Dimension::Tokens, v)
            .unwrap_err();
        assert!(
            matches!(
                e,
                PreflightError::InvalidLimit {
                    dimension: Dimension::Tokens,
                    ..
                }
            ),
            "{v}: {e:?}"
        );
        assert!(e.to_string().contains("tokens"), "{e}");
    }
    assert_eq!(
        Budget::new(Provider::OpenAi)
            .try_with(Dimension::Requests, 0.0)
            .unwrap_err(),
        PreflightError::ZeroLimit {
            dimension: Dimension::Requests
        }
    );
    assert_eq!(
        Budget::new(Provider::OpenAi)
            .try_with(Dimension::Tokens, 8000.0)
            .unwrap()
            .limit(Dimension::Tokens),
        Some(8000)
    );
    assert!(matches!(
        count_from_f64("remaining tokens", -3.0),
        Err(PreflightError::InvalidCount { .. })
    ));
    let e = "aggressive".parse::<Policy>().unwrap_err().to_string();
    assert!(
        e.contains("aggressive") && e.contains("median, conservative, optimistic"),
        "{e}"
    );
    assert_eq!("p95".parse(), Ok(Policy::Conservative));
}

#[test]
fn every_name_parses_back_and_an_unknown_one_lists_them() {
    for p in Provider::ALL {
        assert_eq!(p.name().parse(), Ok(p));
        assert_eq!(p.name().replace('_', "-").to_uppercase().parse(), Ok(p));
    }
    for a in Api::ALL {
        assert_eq!(a.name().parse(), Ok(a));
        assert_eq!(serde_json::to_value(a).unwrap(), a.name());
    }
    for p in [Policy::Median, Policy::Conservative, Policy::Optimistic] {
        assert_eq!(p.name().parse(), Ok(p));
    }
    for d in Dimension::ALL {
        assert_eq!(d.name().parse(), Ok(d));
    }
    for p in Profile::ALL {
        assert_eq!(p.name().parse(), Ok(p));
    }
    let cases: [(&str, UnknownName, &str); 5] = [
        (
            "provider",
            "openai2".parse::<Provider>().unwrap_err(),
            "bedrock",
        ),
        ("api", "grpc".parse::<Api>().unwrap_err(), "cohere_chat"),
        ("policy", "p99".parse::<Policy>().unwrap_err(), "optimistic"),
        (
            "dimension",
            "tpm".parse::<Dimension>().unwrap_err(),
            "context",
        ),
        (
            "profile",
            "o300k".parse::<Profile>().unwrap_err(),
            "claude-legacy",
        ),
    ];
    for (what, e, last) in cases {
        assert_eq!(e.what(), what);
        assert_eq!(e.valid().last(), Some(&last));
        let m = e.to_string();
        assert!(
            m.starts_with(&format!("unknown {what} \"{}\"", e.name())),
            "{m}"
        );
        assert!(m.contains(last), "{m}");
    }
}

#[test]
fn bad_headers_are_reported_not_panicked() {
    let h = Headers::parse("x-ratelimit-remaining-tokens: lots\nx-ratelimit-reset-tokens: soon\nretry-after: Someday, 99 Foo 2024\n").unwrap();
    let parsed = RateLimitSnapshot::from_headers(h.iter(), 0);
    assert_eq!(parsed.malformed.len(), 3, "{:?}", parsed.malformed);
    // Unknown is unknown, never zero: the state keeps its full bucket.
    let mut s = State::new(key(8_000), 0);
    s.observe(&parsed.snapshot, 0);
    assert!(s
        .check(&Cost::exact(8_000), Policy::Median, 0)
        .verdict
        .is_sendable());
}

#[test]
fn wrong_shape_request_json_is_a_typed_error() {
    let cases: &[(&str, &str)] = &[
        ("not json", ""),
        ("[1,2,3]", "/"),
        ("{\"question\": \"hi\"}", "/"),
        ("{\"prompt\": 5}", "/prompt"),
        ("{\"messages\": \"hi\"}", "/messages"),
        ("{\"messages\": [42]}", "/messages/0"),
        (
            "{\"messages\": [{\"role\": 1, \"content\": \"x\"}]}",
            "/messages/0/role",
        ),
        (
            "{\"messages\": [{\"role\": \"user\", \"content\": 7}]}",
            "/messages/0/content",
        ),
        (
            "{\"messages\": [{\"role\": \"user\", \"content\": \"x\"}], \"max_tokens\": -5}",
            "/max_tokens",
        ),
        (
            "{\"messages\": [{\"role\": \"user\", \"content\": \"x\"}], \"max_tokens\": \"many\"}",
            "/max_tokens",
        ),
        (
            "{\"contents\": [{\"role\": \"user\"}]}",
            "/contents/0/parts",
        ),
        ("{\"input\": 5}", "/input"),
        ("{\"system\": 3, \"messages\": []}", "/system"),
        ("{\"messages\": [], \"tools\": {}}", "/tools"),
    ];
    for (body, path) in cases {
        let e = estimate_request(body, None, None).unwrap_err();
        match &e {
            PreflightError::NotJson(_) => assert!(path.is_empty(), "{body}: {e}"),
            PreflightError::WrongShape { path: p, .. } => assert_eq!(p, path, "{body}: {e}"),
            PreflightError::InvalidCount { what, .. } => assert_eq!(what, path, "{body}: {e}"),
            other => panic!("{body}: {other:?}"),
        }
        assert!(!e.to_string().is_empty());
    }
}

// ---- request bodies --------------------------------------------------------------------------------------------

#[test]
fn openai_chat_body_counts_messages_tools_and_cap() {
    let body = r#"{"model":"gpt-4o","max_completion_tokens":500,
      "messages":[{"role":"system","content":"You are terse."},
                  {"role":"user","content":[{"type":"text","text":"Weather in Paris?"},
                                            {"type":"image_url","image_url":{"url":"https://x/y.png","detail":"low"}}]}],
      "tools":[{"type":"function","function":{"name":"get_weather","description":"Get the weather",
        "parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name"},
                                                     "unit":{"type":"string","enum":["c","f"]}}}}}]}"#;
    let r = estimate_request(body, None, None).unwrap();
    assert_eq!(r.api, Api::OpenAiChat);
    assert_eq!(r.model.as_deref(), Some("gpt-4o"));
    assert_eq!(r.max_output, Some(500));
    assert_eq!((r.messages, r.tools), (2, 1));
    // A low-detail image on gpt-4o is its base cost, whatever its size (no bytes needed).
    assert_eq!(r.media_tokens, 85);
    assert_eq!(r.media.len(), 1);
    assert!(r.media[0].measured);
    assert!(!r.incomplete);
    let expected_overhead = 2 * OPENAI_PER_MESSAGE
        + OPENAI_REPLY_PRIMING
        + OPENAI_TOOLS_BASE
        + OPENAI_PER_TOOL
        + 2 * OPENAI_PER_PROPERTY
        + 2 * OPENAI_PER_ENUM_ITEM
        - OPENAI_PER_ENUM_PROPERTY.unsigned_abs();
    assert_eq!(r.overhead_tokens, expected_overhead);
    // The text part is estimated by the estimator: the same pieces joined by newlines.
    let pieces = [
        "You are terse.",
        "Weather in Paris?",
        "get_weather",
        "Get the weather",
        "city",
        "City name",
        "string",
        "unit",
        "c",
        "f",
    ];
    let text_est = estimate(&pieces.join("\n"), Profile::O200k);
    assert_eq!(r.estimate.tokens, text_est.tokens + expected_overhead + 85);
    assert_eq!(r.estimate.low, text_est.low + expected_overhead + 85);
    let cost = r.cost();
    assert_eq!(cost.max_output, Some(500));
    // Ollama's `POST /api/chat` is this shape, capped by `options.num_predict` (-1 and -2 cap nothing); an
    // OpenAI-style cap comes first where a body has both.
    let ollama = r#"{"model":"qwen3:8b","messages":[{"role":"user","content":"Why is the sky blue?"}],
      "options":{"num_predict":400,"temperature":0.2},"stream":false}"#;
    let r = estimate_request(ollama, None, None).unwrap();
    assert_eq!(
        (r.api, r.estimate.profile, r.max_output),
        (Api::OpenAiChat, Profile::Qwen3, Some(400))
    );
    let r = estimate_request(&ollama.replace("400", "-1"), None, None).unwrap();
    assert_eq!(r.max_output, None);
    let both = ollama.replace(r#""stream":false"#, r#""max_tokens":90"#);
    assert_eq!(
        estimate_request(&both, None, None).unwrap().max_output,
        Some(90)
    );
    // Its images sit beside a message's content as bare base64, each priced as an image part (a 1×1 PNG here).
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    let with_image = ollama.replace(
        r#""content":"Why is the sky blue?""#,
        &format!(r#""content":"What is in this picture?","images":["{png}"]"#),
    );
    let r = estimate_request(&with_image, None, None).unwrap();
    assert_eq!(r.media.len(), 1);
    let m = &r.media[0];
    assert_eq!(
        (m.pointer.as_str(), m.source, m.width, m.height, m.measured),
        ("/messages/0/images/0", "base64", Some(1), Some(1), true)
    );
    assert!(m.tokens > 0 && r.media_tokens == m.tokens, "{m:?}");
    let text_only = estimate_request(
        &with_image.replace(&format!(r#","images":["{png}"]"#), ""),
        None,
        None,
    );
    assert_eq!(
        r.estimate.tokens,
        text_only.unwrap().estimate.tokens + m.tokens
    );
    for (bad, at) in [
        (r#""images":"x""#, "/messages/0/images"),
        (r#""images":[7]"#, "/messages/0/images/0"),
    ] {
        let content = r#""content":"Why is the sky blue?""#;
        let body = ollama.replace(content, &format!("{content},{bad}"));
        let e = estimate_request(&body, None, None).unwrap_err();
        assert!(e.to_string().contains(at), "{body}: {e}");
    }
}

#[test]
fn unpriced_media_flags_the_estimate_incomplete() {
    let body = r#"{"messages":[{"role":"user","content":[{"type":"text","text":"what is this"},
        {"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}},
        {"type":"input_audio","input_audio":{"data":"AAAA","format":"wav"}}]}]}"#;
    let r = estimate_request(body, None, None).unwrap();
    assert!(r.incomplete);
    assert_eq!(
        r.unpriced,
        vec!["/messages/0/content/1", "/messages/0/content/2"]
    );
    assert!(r.cost().incomplete);
    let s = State::new(key(100_000), 0);
    assert!(s.check(&r.cost(), Policy::Median, 0).incomplete);
}

#[test]
fn other_apis_are_detected_and_counted() {
    let anthropic = r#"{"model":"claude-sonnet-4-5","max_tokens":1024,"system":"Be brief.",
      "messages":[{"role":"user","content":"Hello"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"lookup","input":{"q":"x"}}]},
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"42"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}]}],
      "tools":[{"name":"lookup","description":"Look up","input_schema":{"type":"object"}}]}"#;
    let r = estimate_request(anthropic, None, None).unwrap();
    assert_eq!(r.api, Api::AnthropicMessages);
    assert_eq!(r.estimate.profile, Profile::ClaudeLegacy);
    assert_eq!(r.max_output, Some(1024));
    assert_eq!(
        r.overhead_tokens,
        3 * ANTHROPIC_PER_MESSAGE + ANTHROPIC_TOOL_SYSTEM_PROMPT + 2 * ANTHROPIC_PER_TOOL_BLOCK
    );
    assert_eq!(r.unpriced, vec!["/messages/2/content/1"]);

    let gemini = r#"{"systemInstruction":{"parts":[{"text":"Be brief."}]},
      "contents":[{"role":"user","parts":[{"text":"Describe"},{"inlineData":{"mimeType":"image/jpeg","data":"AAAA"}}]}],
      "generationConfig":{"maxOutputTokens":256}}"#;
    let r = estimate_request(gemini, None, None).unwrap();
    assert_eq!(r.api, Api::GeminiGenerateContent);
    assert_eq!(r.estimate.profile, Profile::Gemini);
    assert_eq!(r.max_output, Some(256));
    // "AAAA" is no image header: priced as the rule's band, 258 (a small image) to 2,304.
    assert_eq!((r.media[0].low, r.media[0].high), (258, 2304));
    assert!(r.incomplete);

    let responses = r#"{"model":"o3-mini","instructions":"Be brief.","input":[{"role":"user","content":[{"type":"input_text","text":"Hi"}]}],
      "max_output_tokens":300,"tools":[{"type":"function","name":"f","parameters":{"type":"object","properties":{}}},{"type":"web_search"}]}"#;
    let r = estimate_request(responses, None, None).unwrap();
    assert_eq!(r.api, Api::OpenAiResponses);
    assert_eq!((r.messages, r.tools, r.max_output), (2, 1, Some(300)));
    assert_eq!(r.unpriced, vec!["/tools/1"]);
}

#[test]
fn the_output_reserved_is_the_cap_times_the_completions_asked_for() {
    // OpenAI's limiter charges `n` choices of `max_tokens` each.
    let chat = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"Five names for a cat."}],
      "max_tokens":1000,"n":4}"#;
    let r = estimate_request(chat, None, None).unwrap();
    assert_eq!(r.max_output, Some(4_000));
    let s = State::new(key(8_000), 0);
    let v = s.check(&r.cost(), Policy::Median, 0);
    assert_eq!(v.verdict, Verdict::Sendable);
    // Twice the choices no longer fit a whole minute's budget.
    let r = estimate_request(&chat.replace(r#""n":4"#, r#""n":8"#), None, None).unwrap();
    assert_eq!(r.max_output, Some(8_000));
    let v = s.check(&r.cost(), Policy::Median, 0);
    assert!(
        matches!(v.verdict, Verdict::NeverSendable { limit: 8_000, .. }),
        "{v:?}"
    );
    assert_eq!(v.needed, r.estimate.tokens + 8_000);
    // No cap, nothing reserved, whatever `n` says.
    let r = estimate_request(&chat.replace(r#""max_tokens":1000,"#, ""), None, None).unwrap();
    assert_eq!(r.max_output, None);
    // Gemini's candidates multiply `maxOutputTokens`.
    let gemini = r#"{"contents":[{"parts":[{"text":"A tagline."}]}],
      "generationConfig":{"maxOutputTokens":300,"candidateCount":3}}"#;
    assert_eq!(
        estimate_request(gemini, None, None).unwrap().max_output,
        Some(900)
    );
    // A count of completions that is not a whole number from 1 is an error naming it.
    for bad in [r#""n":0"#, r#""n":2.5"#, r#""n":"2""#, r#""n":-1"#] {
        let e = estimate_request(&chat.replace(r#""n":4"#, bad), None, None).unwrap_err();
        assert!(e.to_string().contains("/n"), "{bad}: {e}");
    }
}

#[test]
fn legacy_completions_count_prompts_token_ids_and_best_of() {
    let one = r#"{"model":"gpt-3.5-turbo-instruct","prompt":"Say this is a test.","max_tokens":7}"#;
    let r = estimate_request(one, None, None).unwrap();
    assert_eq!(r.api, Api::Completions);
    assert_eq!(r.estimate.profile, Profile::Cl100k);
    assert_eq!(
        (r.messages, r.max_output, r.overhead_tokens),
        (1, Some(7), 0)
    );
    assert_eq!(
        r.estimate.tokens,
        estimate("Say this is a test.", Profile::Cl100k).tokens
    );
    // Without a cap the API generates up to 16 tokens; each prompt of an array gets its own `best_of` completions.
    let ids =
        r#"{"model":"davinci-002","prompt":[[1212,318,257,1332,13],[464,2068]],"best_of":3,"n":2}"#;
    let r = estimate_request(ids, None, None).unwrap();
    assert_eq!(r.token_ids, 7);
    assert_eq!(
        (r.estimate.low, r.estimate.tokens, r.estimate.high),
        (7, 7, 7)
    );
    assert_eq!(r.max_output, Some(COMPLETIONS_DEFAULT_MAX_TOKENS * 3 * 2));
    let strings = r#"{"prompt":["First prompt.","Second one."],"max_tokens":100,"suffix":" end"}"#;
    let r = estimate_request(strings, None, None).unwrap();
    assert_eq!((r.messages, r.max_output), (2, Some(200)));
    // Anthropic's text completions name their cap `max_tokens_to_sample`.
    let claude = r#"{"model":"claude-2.1","prompt":"\n\nHuman: Why is the sky blue?\n\nAssistant:",
      "max_tokens_to_sample":1200}"#;
    let r = estimate_request(claude, None, None).unwrap();
    assert_eq!(
        (r.api, r.estimate.profile, r.max_output),
        (Api::Completions, Profile::ClaudeLegacy, Some(1200))
    );
    // Hugging Face text generation: `inputs`, capped by `parameters.max_new_tokens`.
    let tgi = r#"{"inputs":"Translate to French: the market is open.","parameters":{"max_new_tokens":250}}"#;
    let r = estimate_request(tgi, None, None).unwrap();
    assert_eq!(
        (r.api, r.messages, r.max_output),
        (Api::Completions, 1, Some(250))
    );
    // Ollama's `POST /api/generate` caps its output with `options.num_predict`; -1 (no limit) and -2 (until the
    // context is full) cap nothing, so no default applies either.
    let ollama =
        r#"{"model":"llama3.1","prompt":"Why is the sky blue?","options":{"num_predict":300}}"#;
    let r = estimate_request(ollama, None, None).unwrap();
    assert_eq!(
        (r.api, r.estimate.profile, r.max_output),
        (Api::Completions, Profile::Llama3, Some(300))
    );
    for unlimited in ["-1", "-2"] {
        let body = ollama.replace("300", unlimited);
        let r = estimate_request(&body, None, None).unwrap();
        assert_eq!(r.max_output, None, "{body}");
    }
    // Meta's Llama models on Bedrock cap with `max_gen_len`; llama.cpp's server with `n_predict` (-1: no limit).
    let llama =
        r#"{"prompt":"<|begin_of_text|>Why is the sky blue?","max_gen_len":512,"temperature":0.5}"#;
    assert_eq!(
        estimate_request(llama, None, None).unwrap().max_output,
        Some(512)
    );
    let cpp = r#"{"prompt":"Building a website can be done in 10 simple steps:","n_predict":128}"#;
    assert_eq!(
        estimate_request(cpp, None, None).unwrap().max_output,
        Some(128)
    );
    let cpp = cpp.replace("128", "-1");
    assert_eq!(estimate_request(&cpp, None, None).unwrap().max_output, None);
    // Its system prompt and images (bare base64) count too.
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    let full = ollama.replace(
        r#""prompt":"#,
        &format!(r#""system":"Answer in one line.","images":["{png}"],"prompt":"#),
    );
    let r = estimate_request(&full, None, None).unwrap();
    assert_eq!(r.media.len(), 1);
    assert_eq!(r.media[0].pointer, "/images/0");
    let text = estimate("Why is the sky blue?\nAnswer in one line.", Profile::Llama3);
    assert_eq!(r.estimate.tokens, text.tokens + r.media_tokens);
    for (bad, at) in [
        (
            r#"{"prompt":"x","options":{"num_predict":-3}}"#,
            "/options/num_predict",
        ),
        (
            r#"{"prompt":"x","options":{"num_predict":"many"}}"#,
            "/options/num_predict",
        ),
        (r#"{"prompt":[1,"two"]}"#, "/prompt/0"),
        (r#"{"inputs":{"x":1}}"#, "/inputs"),
        (r#"{"prompt":[[1,2.5]]}"#, "/prompt/0/1"),
        (r#"{"prompt":{"text":"x"}}"#, "/prompt"),
        (r#"{"prompt":"x","max_tokens":-3}"#, "/max_tokens"),
    ] {
        let e = estimate_request(bad, None, None).unwrap_err();
        assert!(e.to_string().contains(at), "{bad}: {e}");
    }
}

#[test]
fn embeddings_are_told_from_responses_and_reserve_no_output() {
    let texts = r#"{"model":"text-embedding-3-small","input":["The food was delicious.","Another document."]}"#;
    let r = estimate_request(texts, None, None).unwrap();
    assert_eq!(r.api, Api::Embeddings);
    assert_eq!(
        (r.messages, r.max_output, r.overhead_tokens),
        (2, Some(0), 0)
    );
    let joined = estimate(
        "The food was delicious.\nAnother document.",
        Profile::Cl100k,
    );
    assert_eq!(r.estimate.tokens, joined.tokens);
    let ids = r#"{"input":[[1,2,3],[4,5]],"encoding_format":"float"}"#;
    let r = estimate_request(ids, None, None).unwrap();
    assert_eq!(
        (r.api, r.token_ids, r.estimate.tokens),
        (Api::Embeddings, 5, 5)
    );
    // A string input is embeddings only when the body says so; else it is a Responses request.
    let r = estimate_request(
        r#"{"model":"mistral-embed","input":"one text"}"#,
        None,
        None,
    )
    .unwrap();
    assert_eq!(r.api, Api::Embeddings);
    let r = estimate_request(r#"{"model":"gpt-4.1","input":"one text"}"#, None, None).unwrap();
    assert_eq!(r.api, Api::OpenAiResponses);
    // Every input reaches the budget: a batch too large for a minute is never sendable.
    let big = format!(
        r#"{{"model":"text-embedding-3-small","input":{}}}"#,
        serde_json::to_string(&vec!["a sentence of several words to embed"; 2_000]).unwrap()
    );
    let r = estimate_request(&big, None, None).unwrap();
    let s = State::new(key(8_000), 0);
    let v = s.check(&r.cost(), Policy::Median, 0);
    assert!(
        matches!(v.verdict, Verdict::NeverSendable { limit: 8_000, .. }),
        "{v:?}"
    );
    assert_eq!(v.needed, r.estimate.tokens);
}

#[test]
fn bedrock_converse_bodies_count_blocks_tools_and_cap() {
    let body = r#"{"modelId":"us.anthropic.claude-sonnet-4-20250514-v1:0",
      "system":[{"text":"Answer briefly."},{"cachePoint":{"type":"default"}}],
      "messages":[{"role":"user","content":[{"text":"Weather in Paris?"},
                   {"image":{"format":"png","source":{"s3Location":{"uri":"s3://b/k.png"}}}}]},
                  {"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"get_weather","input":{"city":"Paris"}}}]},
                  {"role":"user","content":[{"toolResult":{"toolUseId":"t1","content":[{"json":{"temp_c":18}}]}},
                   {"video":{"format":"mp4","source":{"bytes":"AAAA"}}}]}],
      "toolConfig":{"tools":[{"toolSpec":{"name":"get_weather","description":"Current weather",
        "inputSchema":{"json":{"type":"object","properties":{"city":{"type":"string"}}}}}},{"cachePoint":{"type":"default"}}]},
      "inferenceConfig":{"maxTokens":512,"temperature":0.2}}"#;
    let r = estimate_request(body, None, None).unwrap();
    assert_eq!(r.api, Api::BedrockConverse);
    assert_eq!(
        r.model.as_deref(),
        Some("us.anthropic.claude-sonnet-4-20250514-v1:0")
    );
    assert_eq!(r.estimate.profile, Profile::ClaudeLegacy);
    assert_eq!((r.messages, r.tools, r.max_output), (3, 1, Some(512)));
    // Amazon Nova's InvokeModel body is this shape with `inferenceConfig.max_new_tokens`.
    let nova = r#"{"schemaVersion":"messages-v1","system":[{"text":"Answer briefly."}],
      "messages":[{"role":"user","content":[{"text":"Why is the sky blue?"}]}],
      "inferenceConfig":{"max_new_tokens":300,"temperature":0.7}}"#;
    let n = estimate_request(nova, None, None).unwrap();
    assert_eq!((n.api, n.max_output), (Api::BedrockConverse, Some(300)));
    // A Claude model behind Bedrock adds Anthropic's tool-use system prompt.
    assert_eq!(
        r.overhead_tokens,
        3 * BEDROCK_PER_MESSAGE + ANTHROPIC_TOOL_SYSTEM_PROMPT + 2 * ANTHROPIC_PER_TOOL_BLOCK
    );
    // The image in S3 is priced as its rule's band; the video is not priced.
    assert_eq!(r.media.len(), 1);
    let mut unpriced = r.unpriced.clone();
    unpriced.sort();
    assert_eq!(
        unpriced,
        vec!["/messages/0/content/1", "/messages/2/content/1"]
    );
    // Without a model, no tool prompt is assumed; blocks keyed by kind alone say Bedrock.
    // Anthropic's own body on Bedrock's InvokeModel (or Vertex AI) names its version, not its model.
    let invoke = r#"{"anthropic_version":"bedrock-2023-05-31","max_tokens":300,
      "messages":[{"role":"user","content":"Hello there"}]}"#;
    let r = estimate_request(invoke, None, None).unwrap();
    assert_eq!((r.api, r.max_output), (Api::AnthropicMessages, Some(300)));
    let bare = r#"{"messages":[{"role":"user","content":[{"text":"Hello there"}]}]}"#;
    let r = estimate_request(bare, None, None).unwrap();
    assert_eq!(
        (r.api, r.overhead_tokens, r.max_output),
        (Api::BedrockConverse, BEDROCK_PER_MESSAGE, None)
    );
    let e = estimate_request(
        r#"{"messages":[{"role":"user","content":[{"text":"x"},"y"]}]}"#,
        None,
        None,
    )
    .unwrap_err();
    assert!(e.to_string().contains("/messages/0/content/1"), "{e}");
    // Bedrock's model ids map to their profiles.
    for (id, p) in [
        (
            "anthropic.claude-3-5-haiku-20241022-v1:0",
            Profile::ClaudeLegacy,
        ),
        ("meta.llama3-1-70b-instruct-v1:0", Profile::Llama3),
        ("eu.meta.llama3-2-3b-instruct-v1:0", Profile::Llama3),
        ("mistral.mistral-7b-instruct-v0:2", Profile::MistralV1),
        ("openai.gpt-oss-120b-1:0", Profile::O200k),
    ] {
        assert_eq!(Profile::for_model(id), Ok(p), "{id}");
    }
    // Converse's usage block settles a reservation.
    let u = Usage::from_response(
        &serde_json::json!({"output":{},"usage":{"inputTokens":30,"outputTokens":12,
        "cacheWriteInputTokens":5,"cacheReadInputTokens":100,"totalTokens":147}}),
    )
    .unwrap();
    assert_eq!(
        u,
        Some(Usage {
            input_tokens: 35,
            output_tokens: 12
        })
    );
}

#[test]
fn bedrock_reserves_the_cap_and_charges_its_burndown_rate_at_settlement() {
    // Admission takes input plus `max_tokens`, as on OpenAI.
    let budget = Budget::new(Provider::Bedrock).tokens_per_minute(nz(10_000));
    let s = State::new(budget.clone(), 0);
    let c = s.check(
        &Cost::exact(1_000).with_max_output(4_000),
        Policy::Median,
        0,
    );
    assert_eq!((c.verdict, c.needed), (Verdict::Sendable, 5_000));
    // Without a cap Bedrock reserves the model's maximum output, which the caller states as the absent cap.
    let mut capped = budget.clone();
    capped.reservation.absent_cap = AbsentCap::Tokens(64_000);
    let c = State::new(capped, 0).check(&Cost::exact(1_000), Policy::Median, 0);
    assert!(
        matches!(c.verdict, Verdict::NeverSendable { limit: 10_000, .. }),
        "{c:?}"
    );
    assert_eq!(c.needed, 65_000);
    // Claude 3.7 and 4 models burn five quota tokens per output token; the others one.
    for (model, rate) in [
        ("us.anthropic.claude-sonnet-4-20250514-v1:0", 5),
        ("anthropic.claude-3-7-sonnet-20250219-v1:0", 5),
        ("anthropic.claude-opus-4-1-20250805-v1:0", 5),
        ("anthropic.claude-3-5-sonnet-20240620-v1:0", 1),
        ("meta.llama3-1-70b-instruct-v1:0", 1),
    ] {
        assert_eq!(
            budget.clone().for_model(model).reservation.output_burndown,
            rate,
            "{model}"
        );
    }
    assert_eq!(Provider::OpenAi.output_burndown("claude-sonnet-4"), 1);
    let ledger = Ledger::new(State::new(
        budget.for_model("anthropic.claude-sonnet-4-20250514-v1:0"),
        0,
    ));
    let r = ledger
        .try_reserve(&Cost::exact(1_000).with_max_output(400), Policy::Median, 0)
        .unwrap();
    // 1,000 in and 300 out use 2,500 of the 1,400 reserved: the excess is taken too.
    let settled = r.settle(
        Usage {
            input_tokens: 1_000,
            output_tokens: 300,
        },
        0,
    );
    assert_eq!(
        settled,
        Settled {
            reserved: 1_400,
            used: 2_500,
            refunded: -1_100
        }
    );
    assert_eq!(ledger.available(Dimension::Tokens, 0), Some(7_500.0));
}

// ---- the ledger ------------------------------------------------------------------------------------------------

#[test]
fn ledger_reserve_settle_release() {
    let ledger = Ledger::new(State::new(key(10_000), 0));
    let r = ledger
        .try_reserve(
            &Cost::exact(1_000).with_max_output(3_000),
            Policy::Median,
            0,
        )
        .unwrap();
    assert_eq!(r.held(Dimension::Tokens), 4_000);
    assert_eq!(ledger.available(Dimension::Tokens, 0), Some(6_000.0));
    // Usage below the reservation is refunded.
    let s = r.settle(
        Usage {
            input_tokens: 1_000,
            output_tokens: 200,
        },
        0,
    );
    assert_eq!(
        s,
        Settled {
            reserved: 4_000,
            used: 1_200,
            refunded: 2_800
        }
    );
    assert_eq!(ledger.available(Dimension::Tokens, 0), Some(8_800.0));
    // Release gives everything back; so does dropping.
    let r = ledger
        .try_reserve(&Cost::exact(5_000), Policy::Median, 0)
        .unwrap();
    r.release();
    assert_eq!(ledger.available(Dimension::Tokens, 0), Some(8_800.0));
    {
        let _r = ledger
            .try_reserve(&Cost::exact(5_000), Policy::Median, 0)
            .unwrap();
        assert_eq!(ledger.in_flight(), 1);
    }
    assert_eq!(ledger.in_flight(), 0);
    assert_eq!(ledger.available(Dimension::Tokens, 0), Some(8_800.0));
    // "Not yet" and "never" are different refusals.
    let _hold = ledger
        .try_reserve(&Cost::exact(8_000), Policy::Median, 0)
        .unwrap();
    assert!(matches!(
        ledger.try_reserve(&Cost::exact(1_000), Policy::Median, 0),
        Err(Refused::NotYet { .. })
    ));
    assert!(matches!(
        ledger.try_reserve(&Cost::exact(10_001), Policy::Median, 0),
        Err(Refused::Never { excess: 1, .. })
    ));
}

#[test]
fn usage_is_read_from_every_response_shape() {
    let v = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap();
    assert_eq!(
        Usage::from_response(&v(
            r#"{"usage":{"prompt_tokens":8,"completion_tokens":1,"total_tokens":9}}"#
        )),
        Ok(Some(Usage {
            input_tokens: 8,
            output_tokens: 1
        }))
    );
    assert_eq!(
        Usage::from_response(&v(
            r#"{"usage":{"input_tokens":10,"cache_creation_input_tokens":5,"output_tokens":3}}"#
        )),
        Ok(Some(Usage {
            input_tokens: 15,
            output_tokens: 3
        }))
    );
    assert_eq!(
        Usage::from_response(&v(
            r#"{"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2,"thoughtsTokenCount":7}}"#
        )),
        Ok(Some(Usage {
            input_tokens: 4,
            output_tokens: 9
        }))
    );
    assert_eq!(Usage::from_response(&v(r#"{"id":"x"}"#)), Ok(None));
    assert!(Usage::from_response(&v(r#"{"usage":{"prompt_tokens":-1}}"#)).is_err());
    assert!(Usage::from_response(&v(r#"{"usage":{"prompt_tokens":"8"}}"#)).is_err());
}

#[test]
fn ledger_under_threads_never_over_admits_never_loses_a_reservation() {
    const CAP: u64 = 20_000;
    let ledger = Ledger::new(State::new(key(CAP).requests_per_minute(nz(1_000_000)), 0));
    // In flight (counted after a reservation succeeds, uncounted before it ends: never above the truth) plus what
    // settled usage consumed. The clock never moves, so nothing refills: this sum may never exceed CAP.
    let outstanding = Arc::new(AtomicU64::new(0));
    let consumed = Arc::new(AtomicU64::new(0));
    let peak = Arc::new(AtomicU64::new(0));
    let start = Arc::new(std::sync::Barrier::new(8));
    let mut handles = Vec::new();
    for t in 0..8u64 {
        let (ledger, outstanding, consumed, peak, start) = (
            ledger.clone(),
            outstanding.clone(),
            consumed.clone(),
            peak.clone(),
            start.clone(),
        );
        handles.push(std::thread::spawn(move || {
            start.wait();
            let mut held = Vec::new();
            for i in 0..2_000u64 {
                let n = 50 + (t * 37 + i * 11) % 400;
                if let Ok(r) =
                    ledger.try_reserve(&Cost::exact(n).with_max_output(n / 2), Policy::Median, 0)
                {
                    let now = outstanding.fetch_add(r.held(Dimension::Tokens), Ordering::SeqCst)
                        + r.held(Dimension::Tokens);
                    peak.fetch_max(now + consumed.load(Ordering::SeqCst), Ordering::SeqCst);
                    held.push((n, r));
                }
                if held.len() > 40 || i % 7 == 0 {
                    if let Some((n, r)) = held.pop() {
                        outstanding.fetch_sub(r.held(Dimension::Tokens), Ordering::SeqCst);
                        match i % 3 {
                            0 => r.release(),
                            1 => {
                                // Used the prompt and a fifth of the cap: the rest is refunded.
                                let used = Usage {
                                    input_tokens: n,
                                    output_tokens: n / 10,
                                };
                                consumed.fetch_add(n + n / 10, Ordering::SeqCst);
                                let s = r.settle(used, 0);
                                assert_eq!(s.refunded, (n / 2 - n / 10) as i64);
                            }
                            _ => drop(r),
                        }
                    }
                }
            }
            for (_, r) in held {
                outstanding.fetch_sub(r.held(Dimension::Tokens), Ordering::SeqCst);
                r.release();
            }
        }));
    }
    for h in handles {
        h.join().unwrap();
    }
    let consumed = consumed.load(Ordering::SeqCst);
    assert!(
        peak.load(Ordering::SeqCst) <= CAP,
        "over-admitted: {}",
        peak.load(Ordering::SeqCst)
    );
    assert!(
        consumed > CAP / 2,
        "the test should have used most of the bucket: {consumed}"
    );
    assert_eq!(ledger.in_flight(), 0);
    assert_eq!(ledger.held(Dimension::Tokens), 0);
    assert_eq!(outstanding.load(Ordering::SeqCst), 0);
    // Every reservation came back: what is left is exactly the capacity minus the usage settled.
    assert_eq!(
        ledger.available(Dimension::Tokens, 0),
        Some((CAP - consumed) as f64)
    );
    // And the bucket refills from there: a minute later it is full again.
    assert_eq!(
        ledger.available(Dimension::Tokens, 60_000),
        Some(CAP as f64)
    );
}

// ---- the queue -------------------------------------------------------------------------------------------------

#[test]
fn queue_admits_queues_and_sheds_with_a_designed_answer() {
    // 6,000 TPM = 100 tokens per second; the bucket starts empty.
    let mut st = State::new(key(6_000), 0);
    st.observe(&observed_tokens(0, None), 0);
    let ledger = Ledger::new(st);
    let mut q: AdmissionQueue<&str> = AdmissionQueue::new(ledger.clone(), Policy::Median, 30_000);

    // Never sendable: shed at once, no retry time.
    match q.offer("huge", Cost::exact(7_000), 1_000_000, 0) {
        Offer::Shed { item, shed } => {
            assert_eq!(item, "huge");
            assert_eq!(shed.retry_after_ms, None);
            assert!(matches!(
                shed.reason,
                ShedReason::NeverSendable { excess: 1_000, .. }
            ));
            assert!(shed.message.contains("1000"), "{}", shed.message);
        }
        other => panic!("{other:?}"),
    }
    // 1,000 tokens: starts at 10 s.
    match q.offer("a", Cost::exact(1_000), 60_000, 0) {
        Offer::Queued { eta_ms, position } => assert_eq!((eta_ms, position), (10_000, 0)),
        other => panic!("{other:?}"),
    }
    // Another 1,000 behind it: 20 s.
    assert!(matches!(
        q.offer("b", Cost::exact(1_000), 60_000, 0),
        Offer::Queued {
            eta_ms: 20_000,
            position: 1
        }
    ));
    // A deadline of 5 s cannot be met: shed now, told when it could start.
    match q.offer("c", Cost::exact(500), 5_000, 0) {
        Offer::Shed { shed, .. } => {
            assert!(matches!(
                shed.reason,
                ShedReason::DeadlineUnreachable {
                    earliest_start_ms: 25_000,
                    deadline_ms: 5_000
                }
            ));
            assert_eq!(shed.retry_after_ms, Some(25_000));
        }
        other => panic!("{other:?}"),
    }
    // Beyond 30 s of work: queue full, come back when it would fit.
    match q.offer("d", Cost::exact(1_500), 1_000_000, 0) {
        Offer::Shed { shed, .. } => {
            assert!(matches!(
                shed.reason,
                ShedReason::QueueFull {
                    work_ms: 35_000,
                    max_work_ms: 30_000
                }
            ));
            assert_eq!(shed.retry_after_ms, Some(5_000));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(q.len(), 2);
    // Nothing due yet; wake at 10 s.
    let p = q.poll(0);
    assert!(p.admitted.is_empty() && p.shed.is_empty());
    assert_eq!(p.wake_at_ms, Some(10_000));
    let p = q.poll(10_000);
    assert_eq!(
        p.admitted.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
        vec!["a"]
    );
    assert_eq!(p.wake_at_ms, Some(20_000));
    let p = q.poll(20_000);
    assert_eq!(p.admitted.len(), 1);
    assert_eq!(p.wake_at_ms, None);
    assert_eq!(ledger.in_flight(), 2);
}

#[test]
fn queue_sheds_waiting_requests_whose_deadline_becomes_unreachable() {
    let mut st = State::new(key(6_000), 0);
    st.observe(&observed_tokens(0, None), 0);
    let ledger = Ledger::new(st);
    let mut q: AdmissionQueue<u32> = AdmissionQueue::new(ledger.clone(), Policy::Median, 60_000);
    assert!(matches!(
        q.offer(1, Cost::exact(1_000), 12_000, 0),
        Offer::Queued { .. }
    ));
    assert!(matches!(
        q.offer(2, Cost::exact(1_000), 21_000, 0),
        Offer::Queued { .. }
    ));
    // Someone else drains the bucket (headers say 0 left, full in 120 s): both deadlines become unreachable.
    ledger.observe(&observed_tokens(0, Some(120_000)), 5_000);
    let p = q.poll(5_000);
    assert!(p.admitted.is_empty());
    assert_eq!(
        p.shed.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
        vec![1, 2]
    );
    assert!(q.is_empty());
    assert_eq!(p.wake_at_ms, None);
}

// ---- routing ---------------------------------------------------------------------------------------------------

#[test]
fn routing_prefers_first_sendable_else_shortest_wait_never_never() {
    let small = State::new(key(8_000), 0);
    let mut busy = State::new(key(100_000), 0);
    busy.observe(&observed_tokens(0, Some(30_000)), 0);
    let mut busier = State::new(key(100_000), 0);
    busier.observe(&observed_tokens(0, Some(50_000)), 0);
    let big = State::new(key(1_000_000), 0);
    let prompt = Cost::exact(11_000);

    // The small shared budget can never hold an 11k prompt: straight to the one that can.
    let cands = [
        Candidate {
            name: "shared-free",
            state: &small,
            cost: &prompt,
        },
        Candidate {
            name: "busy",
            state: &busy,
            cost: &prompt,
        },
        Candidate {
            name: "own-key",
            state: &big,
            cost: &prompt,
        },
    ];
    let r = route(&cands, Policy::Median, 0);
    assert_eq!((r.chosen, r.name.as_deref()), (Some(2), Some("own-key")));
    assert!(matches!(
        r.passed_over[0].reason,
        PassReason::NeverSendable { excess: 3_000, .. }
    ));
    assert!(matches!(
        r.passed_over[1].reason,
        PassReason::MustWait { .. }
    ));

    // Nobody sendable: the shortest wait, never the never-sendable one.
    let cands = [
        Candidate {
            name: "shared-free",
            state: &small,
            cost: &prompt,
        },
        Candidate {
            name: "busier",
            state: &busier,
            cost: &prompt,
        },
        Candidate {
            name: "busy",
            state: &busy,
            cost: &prompt,
        },
    ];
    let r = route(&cands, Policy::Median, 0);
    assert_eq!(r.chosen, Some(2));
    assert_eq!(
        r.check.as_ref().unwrap().verdict.kind(),
        VerdictKind::Queueable
    );
    assert!(matches!(
        r.passed_over[1].reason,
        PassReason::LongerWait { .. }
    ));

    // Everyone never-sendable: no choice, every reason given.
    let cands = [Candidate {
        name: "shared-free",
        state: &small,
        cost: &prompt,
    }];
    let r = route(&cands, Policy::Median, 0);
    assert_eq!(r.chosen, None);
    assert_eq!(r.passed_over.len(), 1);
    let json = serde_json::to_string(&r).unwrap();
    assert!(json.contains("\"reason\":\"never_sendable\""), "{json}");

    // Two sendable: the first in preference order; the other is passed over for preference.
    let cands = [
        Candidate {
            name: "a",
            state: &big,
            cost: &prompt,
        },
        Candidate {
            name: "b",
            state: &big,
            cost: &prompt,
        },
    ];
    let r = route(&cands, Policy::Median, 0);
    assert_eq!(r.chosen, Some(0));
    assert_eq!(r.passed_over[0].reason, PassReason::LowerPreference);
}

#[test]
fn everything_serializes_snake_case() {
    let s = State::new(key(8_000), 0);
    let c = s.check(&Cost::exact(8_478), Policy::Conservative, 0);
    let j = serde_json::to_value(&c).unwrap();
    assert_eq!(j["verdict"], "never_sendable");
    assert_eq!(j["dimension"], "tokens");
    assert_eq!(j["excess"], 478);
    assert_eq!(j["policy"], "conservative");
    assert_eq!(j["at_low"], "never_sendable");
    let j = serde_json::to_value(Verdict::Queueable {
        wait_ms: 5,
        dimension: Dimension::InputTokens,
    })
    .unwrap();
    assert_eq!(
        j,
        serde_json::json!({"verdict": "queueable", "wait_ms": 5, "dimension": "input_tokens"})
    );
    assert!(serde_json::to_string(&s).is_ok());
    assert!(serde_json::to_string(&Budget::new(Provider::AzureOpenAi))
        .unwrap()
        .contains("azure_open_ai"));
}

// ---- measuring OpenAI's overheads ------------------------------------------------------------------------------

/// Encodes text pieces with tiktoken; `None` stands for a special token (`<|im_start|>`, `<|im_sep|>`,
/// `<|im_end|>`), one token each, which no BPE merge crosses.
#[cfg(feature = "exact")]
fn encoded(bpe: &tiktoken_rs::CoreBPE, parts: &[Option<&str>]) -> u64 {
    parts
        .iter()
        .map(|p| p.map_or(1, |t| bpe.encode_ordinary(t).len() as u64))
        .sum()
}

#[cfg(feature = "exact")]
#[test]
fn openai_overheads_are_measured() {
    type Prop<'a> = (&'a str, &'a str, &'a str, &'a [&'a str]);
    type Tool<'a> = (&'a str, &'a str, Vec<Prop<'a>>);
    for (name, bpe, per_tool, per_enum_item) in [
        (
            "o200k",
            tiktoken_rs::o200k_base().unwrap(),
            OPENAI_PER_TOOL,
            OPENAI_PER_ENUM_ITEM,
        ),
        (
            "cl100k",
            tiktoken_rs::cl100k_base().unwrap(),
            OPENAI_CL100K_PER_TOOL,
            OPENAI_CL100K_PER_ENUM_ITEM,
        ),
    ] {
        let n = |s: &str| bpe.encode_ordinary(s).len() as u64;
        // Per message: <|im_start|>{role}<|im_sep|>{content}<|im_end|>, for every role and awkward contents.
        let contents = [
            "Hello!",
            " leading space",
            "\nleading newline",
            "こんにちは世界",
            "```rust\nfn main() {}\n```",
            "",
            "a",
        ];
        for role in ["system", "developer", "user", "assistant", "tool"] {
            for c in contents {
                let total = encoded(&bpe, &[None, Some(role), None, Some(c), None]);
                assert_eq!(total - n(c), OPENAI_PER_MESSAGE, "{name} {role} {c:?}");
            }
        }
        // Reply priming: <|im_start|>assistant<|im_sep|>.
        assert_eq!(
            encoded(&bpe, &[None, Some("assistant"), None]),
            OPENAI_REPLY_PRIMING,
            "{name}"
        );

        // Tools: the TypeScript namespace OpenAI renders function definitions into.
        let render = |tools: &[Tool]| -> String {
            let mut s = String::from("# Tools\n\n## functions\n\nnamespace functions {\n\n");
            for (fname, desc, props) in tools {
                s += &format!("// {desc}\ntype {fname} = (_: {{\n");
                for (pn, pt, pd, en) in props {
                    s += &format!("// {pd}\n{pn}: ");
                    if en.is_empty() {
                        s += pt;
                    } else {
                        s += &en
                            .iter()
                            .map(|e| format!("\"{e}\""))
                            .collect::<Vec<_>>()
                            .join(" | ");
                    }
                    s += ",\n";
                }
                s += "}) => any;\n\n";
            }
            s + "} // namespace functions"
        };
        let fields = |tools: &[Tool]| -> u64 {
            let mut t = 0;
            for (fname, desc, props) in tools {
                t += n(fname) + n(desc);
                for (pn, pt, pd, en) in props {
                    t += n(pn) + n(pd);
                    t += if en.is_empty() {
                        n(pt)
                    } else {
                        en.iter().map(|e| n(e)).sum()
                    };
                }
            }
            t
        };
        let model = |tools: &[Tool]| -> i64 {
            let mut o = OPENAI_TOOLS_BASE as i64;
            for (_, _, props) in tools {
                o += per_tool as i64;
                for (_, _, _, en) in props {
                    o += OPENAI_PER_PROPERTY as i64;
                    if !en.is_empty() {
                        o += OPENAI_PER_ENUM_PROPERTY + per_enum_item as i64 * en.len() as i64;
                    }
                }
            }
            o
        };
        let weather: Tool = (
            "get_current_weather",
            "Get the current weather in a given location",
            vec![
                (
                    "location",
                    "string",
                    "The city and state, e.g. San Francisco, CA",
                    &[],
                ),
                (
                    "unit",
                    "string",
                    "The temperature unit",
                    &["celsius", "fahrenheit"],
                ),
            ],
        );
        let search: Tool = (
            "search_documents",
            "Search the knowledge base for passages matching a query",
            vec![
                ("query", "string", "What to look for", &[]),
                ("limit", "number", "How many results to return", &[]),
                (
                    "sort",
                    "string",
                    "Order of results",
                    &["relevance", "date", "title"],
                ),
            ],
        );
        let ping: Tool = ("ping", "Check the service is up", vec![]);
        let one: Tool = (
            "lookup",
            "Look a word up",
            vec![("word", "string", "The word", &[])],
        );
        let sets: Vec<Vec<Tool>> = vec![
            vec![ping.clone()],
            vec![one.clone()],
            vec![weather.clone()],
            vec![search.clone()],
            vec![weather.clone(), search.clone()],
            vec![weather, search, ping, one],
        ];
        for set in &sets {
            let measured = n(&render(set)) as i64 - fields(set) as i64;
            let m = model(set);
            // The constants reproduce the rendering to within a token per function (merges at the edges).
            eprintln!(
                "{name}: {} tools: measured {measured}, constants give {m}",
                set.len()
            );
            assert!(
                (measured - m).abs() <= set.len() as i64,
                "{name}: measured {measured}, constants give {m}"
            );
        }
    }
}

#[test]
fn ledger_does_not_believe_headers_that_have_not_seen_its_reservations_yet() {
    let ledger = Ledger::new(State::new(key(10_000), 0));
    let r = ledger
        .try_reserve(&Cost::exact(6_000), Policy::Median, 0)
        .unwrap();
    assert_eq!(ledger.available(Dimension::Tokens, 0), Some(4_000.0));
    // A response to an earlier request reports 9,000 left: the provider has not counted the 6,000 in flight yet.
    ledger.observe(&observed_tokens(9_000, None), 0);
    assert_eq!(ledger.available(Dimension::Tokens, 0), Some(4_000.0));
    // A lower report (another caller shares the key) is believed at once.
    ledger.observe(&observed_tokens(1_500, None), 0);
    assert_eq!(ledger.available(Dimension::Tokens, 0), Some(1_500.0));
    // With nothing in flight, the provider is the authority both ways.
    r.release();
    ledger.observe(&observed_tokens(9_000, None), 0);
    assert_eq!(ledger.available(Dimension::Tokens, 0), Some(9_000.0));
}

#[test]
fn output_schemas_count_and_held_context_is_flagged() {
    // Structured Outputs: the schema's name, property names, descriptions and types are prompt text, rendered as a
    // function's parameters are (4 tokens a property).
    let plain = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"Extract the event."}]}"#;
    let schema = r#"{"type":"object","additionalProperties":false,"required":["date","name","participants"],
      "properties":{"date":{"type":"string","description":"The date of the event in ISO 8601 format"},
        "name":{"type":"string","description":"The name of the event being scheduled"},
        "participants":{"type":"array","items":{"type":"string"},"description":"Everyone who will attend"}}}"#;
    let chat = plain.replace(
        r#""messages""#,
        &format!(
            r#""response_format":{{"type":"json_schema","json_schema":{{"name":"calendar_event","strict":true,
              "schema":{schema}}}}},"messages""#
        ),
    );
    let (r0, r) = (
        estimate_request(plain, None, None).unwrap(),
        estimate_request(&chat, None, None).unwrap(),
    );
    assert_eq!(
        r.overhead_tokens,
        r0.overhead_tokens + 3 * OPENAI_PER_PROPERTY
    );
    let pieces = [
        "Extract the event.",
        "calendar_event",
        "date",
        "The date of the event in ISO 8601 format",
        "string",
        "name",
        "The name of the event being scheduled",
        "string",
        "participants",
        "Everyone who will attend",
        "array",
    ];
    let text = estimate(&pieces.join("\n"), Profile::O200k);
    assert_eq!(r.estimate.tokens, text.tokens + r.overhead_tokens);
    assert!(!r.incomplete);
    // The Responses API's `text.format` is the same schema, flat.
    let resp = format!(
        r#"{{"model":"gpt-4.1","input":"Extract the event.","text":{{"format":{{"type":"json_schema",
          "name":"calendar_event","schema":{schema}}}}}}}"#
    );
    let r = estimate_request(&resp, None, None).unwrap();
    assert_eq!(r.api, Api::OpenAiResponses);
    assert_eq!(
        r.overhead_tokens,
        r0.overhead_tokens + 3 * OPENAI_PER_PROPERTY
    );
    assert_eq!(r.estimate.tokens, text.tokens + r.overhead_tokens);
    // Gemini: the response schema counts toward the input, as its JSON text.
    let gemini = format!(
        r#"{{"contents":[{{"parts":[{{"text":"Extract the event."}}]}}],
          "generationConfig":{{"responseMimeType":"application/json","responseSchema":{schema}}}}}"#
    );
    let (g, g0) = (
        estimate_request(&gemini, None, None).unwrap(),
        estimate_request(
            r#"{"contents":[{"parts":[{"text":"Extract the event."}]}]}"#,
            None,
            None,
        )
        .unwrap(),
    );
    assert_eq!(g.api, Api::GeminiGenerateContent);
    let compact =
        serde_json::to_string(&serde_json::from_str::<serde_json::Value>(schema).unwrap()).unwrap();
    assert_eq!(
        g.estimate.chars,
        g0.estimate.chars + 1 + compact.chars().count() as u64
    );
    assert!(!g.incomplete);

    // Context the provider holds and prepends is billed as input but is not in the body: flagged, never silent.
    for (body, api, at) in [
        (
            r#"{"model":"gpt-4.1","previous_response_id":"resp_68af","input":"And tomorrow?"}"#,
            Api::OpenAiResponses,
            "/previous_response_id",
        ),
        (
            r#"{"model":"gpt-4.1","conversation":"conv_689667905b","input":"And tomorrow?"}"#,
            Api::OpenAiResponses,
            "/conversation",
        ),
        (
            r#"{"model":"gpt-5","prompt":{"id":"pmpt_abc123","version":"2","variables":{"city":"Paris"}}}"#,
            Api::OpenAiResponses,
            "/prompt",
        ),
        (
            r#"{"contents":[{"parts":[{"text":"Summarize the document."}]}],"cachedContent":"cachedContents/xyz"}"#,
            Api::GeminiGenerateContent,
            "/cachedContent",
        ),
    ] {
        let r = estimate_request(body, None, None).unwrap();
        assert_eq!(r.api, api, "{body}");
        assert!(r.incomplete, "{body}");
        assert_eq!(r.unpriced, vec![at.to_string()], "{body}");
    }
    // A format that is not an object is a typed error.
    let bad = plain.replace(
        r#""messages""#,
        r#""response_format":{"type":"json_schema","json_schema":"x"},"messages""#,
    );
    let e = estimate_request(&bad, None, None).unwrap_err();
    assert!(
        e.to_string().contains("/response_format/json_schema"),
        "{e}"
    );
}

#[test]
fn anthropic_documents_and_search_results_count_their_text() {
    // A plain-text document's title and context reach the model with its text; a search result's source, title and
    // text blocks do too. Each prices as the same text given as text blocks, in that order.
    let body = |blocks: &str| {
        format!(
            r#"{{"model":"claude-sonnet-4-5","max_tokens":500,"messages":[{{"role":"user","content":[{blocks},
              {{"type":"text","text":"What does it say?"}}]}}]}}"#
        )
    };
    let text = |t: &str| format!(r#"{{"type":"text","text":"{t}"}}"#);
    let doc = r#"{"type":"document","title":"Field notes","context":"Written in 1911.",
      "source":{"type":"text","media_type":"text/plain","data":"The grass is green and the sky is blue."},
      "citations":{"enabled":true}}"#;
    let result = r#"{"type":"search_result","source":"https://docs.example.org/auth","title":"Authentication",
      "content":[{"type":"text","text":"Every request carries a key in its Authorization header."}]}"#;
    for (block, pieces) in [
        (
            doc,
            [
                "Field notes",
                "Written in 1911.",
                "The grass is green and the sky is blue.",
            ],
        ),
        (
            result,
            [
                "https://docs.example.org/auth",
                "Authentication",
                "Every request carries a key in its Authorization header.",
            ],
        ),
    ] {
        let r = estimate_request(&body(block), None, None).unwrap();
        let plain: Vec<String> = pieces.iter().map(|p| text(p)).collect();
        let same = estimate_request(&body(&plain.join(",")), None, None).unwrap();
        assert!(
            !r.incomplete && r.unpriced.is_empty(),
            "{block}: {:?}",
            r.unpriced
        );
        assert_eq!(
            (r.estimate.chars, r.estimate.tokens),
            (same.estimate.chars, same.estimate.tokens),
            "{block}"
        );
    }
}

#[test]
fn text_files_in_base64_count_their_text() {
    // A text file carried as base64 prices as its text: Bedrock's txt/md/csv/html documents, a `text/*` file in an
    // OpenAI chat and Gemini's `text/*` inline data. Broken base64 leaves the part unpriced, never silent.
    let text = "The grass is green and the sky is blue. Die Wiese ist grün.";
    let b64 = "VGhlIGdyYXNzIGlzIGdyZWVuIGFuZCB0aGUgc2t5IGlzIGJsdWUuIERpZSBXaWVzZSBpc3QgZ3LDvG4u";
    let cases = [
        (
            format!(
                r#"{{"messages":[{{"role":"user","content":[{{"document":{{"format":"txt","name":"notes",
                  "source":{{"bytes":"{b64}"}}}}}},{{"text":"Summarize"}}]}}],"inferenceConfig":{{"maxTokens":300}}}}"#
            ),
            format!(
                r#"{{"messages":[{{"role":"user","content":[{{"text":"{text}"}},{{"text":"Summarize"}}]}}],
                  "inferenceConfig":{{"maxTokens":300}}}}"#
            ),
            "/messages/0/content/0",
        ),
        (
            format!(
                r#"{{"model":"gpt-4.1","messages":[{{"role":"user","content":[{{"type":"file","file":{{
                  "filename":"notes.txt","file_data":"data:text/plain;base64,{b64}"}}}},
                  {{"type":"text","text":"Summarize"}}]}}]}}"#
            ),
            format!(
                r#"{{"model":"gpt-4.1","messages":[{{"role":"user","content":[{{"type":"text","text":"{text}"}},
                  {{"type":"text","text":"Summarize"}}]}}]}}"#
            ),
            "/messages/0/content/0",
        ),
        (
            format!(
                r#"{{"contents":[{{"parts":[{{"inlineData":{{"mimeType":"text/plain","data":"{b64}"}}}},
                  {{"text":"Summarize"}}]}}]}}"#
            ),
            format!(r#"{{"contents":[{{"parts":[{{"text":"{text}"}},{{"text":"Summarize"}}]}}]}}"#),
            "/contents/0/parts/0",
        ),
    ];
    for (file, plain, at) in cases {
        let (r, p) = (
            estimate_request(&file, None, None).unwrap(),
            estimate_request(&plain, None, None).unwrap(),
        );
        assert!(!r.incomplete, "{file}: {:?}", r.unpriced);
        assert_eq!(
            (
                r.estimate.chars,
                r.estimate.tokens,
                r.estimate.low,
                r.estimate.high
            ),
            (
                p.estimate.chars,
                p.estimate.tokens,
                p.estimate.low,
                p.estimate.high
            ),
            "{file}"
        );
        let broken = file.replace("IGlzIGJs", "IGlz!!Js");
        let r = estimate_request(&broken, None, None).unwrap();
        assert!(r.incomplete, "{broken}");
        assert_eq!(r.unpriced, vec![at.to_string()]);
    }
}

#[test]
fn custom_tools_count_like_functions() {
    // GPT-5's custom tools (free-form text input) carry a name, a description and an input format: they count as a
    // function's do, in chat (`custom: {...}`) and in the Responses API (flat), and so do their calls and outputs.
    let desc = "Executes Python code in a sandbox and returns what it prints.";
    let custom = format!(
        r#"{{"model":"gpt-5","messages":[{{"role":"user","content":"Print hello."}}],
          "tools":[{{"type":"custom","custom":{{"name":"code_exec","description":"{desc}"}}}}]}}"#
    );
    let function = format!(
        r#"{{"model":"gpt-5","messages":[{{"role":"user","content":"Print hello."}}],
          "tools":[{{"type":"function","function":{{"name":"code_exec","description":"{desc}"}}}}]}}"#
    );
    let (c, f) = (
        estimate_request(&custom, None, None).unwrap(),
        estimate_request(&function, None, None).unwrap(),
    );
    assert_eq!(
        (c.tools, c.estimate.tokens, c.estimate.chars),
        (1, f.estimate.tokens, f.estimate.chars)
    );
    let grammar = custom.replace(
        r#""description""#,
        r#""format":{"type":"grammar","syntax":"lark","definition":"start: /[0-9]+/"},"description""#,
    );
    let g = estimate_request(&grammar, None, None).unwrap();
    assert!(g.estimate.chars > c.estimate.chars + 10, "{g:?}");
    let resp = format!(
        r#"{{"model":"gpt-5","input":[{{"role":"user","content":"Print hello."}},
          {{"type":"custom_tool_call","call_id":"call_1","name":"code_exec","input":"print('hello')"}},
          {{"type":"custom_tool_call_output","call_id":"call_1","output":"hello"}}],
          "tools":[{{"type":"custom","name":"code_exec","description":"{desc}"}}]}}"#
    );
    let r = estimate_request(&resp, None, None).unwrap();
    assert_eq!(
        (r.api, r.tools, r.incomplete),
        (Api::OpenAiResponses, 1, false)
    );
    let text = [
        "Print hello.",
        "code_exec",
        "print('hello')",
        "hello",
        "code_exec",
        desc,
    ]
    .join("\n");
    assert_eq!(r.estimate.chars, text.chars().count() as u64);
}

#[test]
fn anthropics_own_tools_are_priced_or_flagged() {
    // A tool Anthropic defines (bash, text editor, web search) has no schema in the body, but its definition is in
    // the prompt: bash's is priced at the figure Anthropic publishes, web search's (no figure) is flagged. A custom
    // tool with its schema is priced in full.
    let body = r#"{"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":"List files."}],
      "tools":[{"type":"bash_20250124","name":"bash"},
               {"name":"get_weather","description":"Weather for a city","input_schema":{"type":"object",
                 "properties":{"city":{"type":"string"}}}},
               {"type":"web_search_20250305","name":"web_search","max_uses":3}]}"#;
    let r = estimate_request(body, None, None).unwrap();
    assert_eq!(
        (r.api, r.tools, r.incomplete),
        (Api::AnthropicMessages, 3, true)
    );
    assert_eq!(r.unpriced, vec!["/tools/2"]);
}

#[test]
fn cohere_chat_bodies_count_preamble_history_documents_and_tools() {
    // Cohere's v1 chat (and Command R on Bedrock): a `message`, not `messages`. Each piece prices as the same text
    // given as a completion's prompt, in the walk's order, one piece a line.
    let v1 = r#"{"model":"command-r-plus-08-2024","preamble":"You respond in concise sentences.",
      "chat_history":[{"role":"user","message":"Hello"},{"role":"chatbot","message":"Hi, how can I help?"}],
      "message":"Who is more popular?","max_tokens":300,
      "documents":[{"title":"Popularity","snippet":"Backstreet Boys sold more albums."}]}"#;
    let r = estimate_request(v1, None, None).unwrap();
    assert_eq!(r.api, Api::CohereChat);
    assert_eq!(
        (r.messages, r.max_output, r.overhead_tokens, r.incomplete),
        (3, Some(300), 3 * COHERE_PER_TURN, false)
    );
    let pieces = [
        "You respond in concise sentences.",
        "Hello",
        "Hi, how can I help?",
        "Who is more popular?",
        "title",
        "Popularity",
        "snippet",
        "Backstreet Boys sold more albums.",
    ];
    let same = estimate(&pieces.join("\n"), Profile::O200k);
    assert_eq!(
        (r.estimate.chars, r.estimate.tokens - r.overhead_tokens),
        (same.chars, same.tokens)
    );
    // Tools: a name, a description and the parameter definitions (as the API spells them or camelCased); the
    // documents a connector fetches are not in the body.
    let tools = r#"{"message":"Sales on 29 September?","connectors":[{"id":"web-search"}],"tools":[
      {"name":"daily_sales","description":"Sales for a day.","parameter_definitions":
      {"day":{"description":"The day, YYYY-MM-DD.","type":"str","required":true}}}]}"#;
    let r = estimate_request(tools, None, None).unwrap();
    assert_eq!(
        (r.api, r.tools, r.max_output, r.incomplete),
        (Api::CohereChat, 1, None, true)
    );
    assert_eq!(r.unpriced, ["/connectors"]);
    let camel = tools.replace("parameter_definitions", "parameterDefinitions");
    let c = estimate_request(&camel, None, None).unwrap();
    assert_eq!(c.estimate.tokens, r.estimate.tokens);
    let bare = estimate_request(&tools.replace(r#""tools":"#, r#""x":"#), None, None).unwrap();
    assert!(
        r.estimate.tokens > bare.estimate.tokens + 15,
        "{} {}",
        r.estimate.tokens,
        bare.estimate.tokens
    );
    // Cohere's v2 chat is OpenAI chat's body with `documents` beside it: they count, a string or `{id, data}`.
    let v2 = |docs: &str| {
        format!(
            r#"{{"model":"command-a-03-2025","messages":[{{"role":"user","content":"Who's the best?"}}]{docs}}}"#
        )
    };
    let none = estimate_request(&v2(""), None, None).unwrap();
    let text = estimate("Cohere is the best!", Profile::O200k).tokens;
    for docs in [
        r#","documents":["Cohere is the best!"]"#,
        r#","documents":[{"id":"1","data":"Cohere is the best!"}]"#,
    ] {
        let r = estimate_request(&v2(docs), None, None).unwrap();
        assert_eq!(r.api, Api::OpenAiChat);
        assert!(r.estimate.tokens >= none.estimate.tokens + text, "{docs}");
    }
    for bad in [r#","documents":{"a":1}"#, r#","documents":[5]"#] {
        let e = estimate_request(&v2(bad), None, None).unwrap_err();
        assert!(e.to_string().contains("/documents"), "{bad}: {e}");
    }
    let e = estimate_request(
        r#"{"message":"Hi","chat_history":[{"role":"user","message":7}]}"#,
        None,
        None,
    );
    assert!(e
        .unwrap_err()
        .to_string()
        .contains("/chat_history/0/message"));
}

#[test]
fn more_completion_shapes_read_their_prompt_and_cap() {
    // Amazon Titan (`inputText`, `textGenerationConfig.maxTokenCount`), SGLang (`text`,
    // `sampling_params.max_new_tokens`), AI21's Jurassic-2 on Bedrock (`maxTokens`): each was an error, or a
    // legacy completion's default cap of 16.
    let prompt = "Describe the purpose of a 'hello world' program in one line.";
    let want = estimate(prompt, Profile::O200k);
    for (body, cap) in [
        (
            format!(r#"{{"inputText":"{prompt}","textGenerationConfig":{{"maxTokenCount":512}}}}"#),
            512,
        ),
        (
            format!(r#"{{"text":"{prompt}","sampling_params":{{"max_new_tokens":32}}}}"#),
            32,
        ),
        (format!(r#"{{"prompt":"{prompt}","maxTokens":200}}"#), 200),
    ] {
        let r = estimate_request(&body, None, None).unwrap();
        assert_eq!(r.api, Api::Completions, "{body}");
        assert_eq!(
            (r.estimate.tokens, r.max_output),
            (want.tokens, Some(cap)),
            "{body}"
        );
    }
    // SGLang's `image_data` is an image, unreadable here (a path): priced as its band and flagged.
    let img = r#"{"text":"<image> What is this?","image_data":"example_image.png"}"#;
    let r = estimate_request(img, None, None).unwrap();
    assert_eq!(r.unpriced, ["/image_data"]);
    assert!(r.media_tokens > 0);
    // Responses' `text` is an object: no completion.
    assert!(estimate_request(r#"{"text":{"format":{"type":"text"}}}"#, None, None).is_err());
}

#[test]
fn bodies_gathered_in_round_58_read_as_their_apis_do() {
    let cap_of = |body: &str| estimate_request(body, None, None).unwrap().max_output;
    // With no cap set, a text-generation body reserves its API's documented default: 16 for OpenAI's completions,
    // 512 for Titan, 128 for SGLang; none for Ollama's `/api/generate` and llama.cpp (no limit by default) and
    // Hugging Face's `inputs`. Ollama's FIM body and its JSON-schema body reserved 16 before.
    assert_eq!(
        cap_of(r#"{"model":"gpt-3.5-turbo-instruct","prompt":"Say this"}"#),
        Some(16)
    );
    assert_eq!(cap_of(r#"{"inputText":"User: hi\nBot:"}"#), Some(512));
    assert_eq!(cap_of(r#"{"text":"The capital of France is"}"#), Some(128));
    for body in [
        r#"{"model":"codellama:code","prompt":"def compute_gcd(a, b):","suffix":"    return result","options":{"temperature":0},"stream":false}"#,
        r#"{"model":"llama3.1:8b","prompt":"Respond using JSON","stream":false,"format":{"type":"object"}}"#,
        r#"{"inputs":"What is Deep Learning?"}"#,
    ] {
        assert_eq!(cap_of(body), None, "{body}");
    }
    // llama.cpp's `/infill` (its server tests' body): the prefix, the suffix and the other files' chunks are
    // prompt text; only `prompt` was priced before.
    let infill = r##"{"input_extra":[{"filename":"llama.h","text":"LLAMA_API int32_t llama_n_threads();\n"}],
      "input_prefix":"#include <cstdio>\n#include \"llama.h\"\n\nint main() {\n",
      "prompt":"    int n_threads = llama_","input_suffix":"}\n"}"##;
    let r = estimate_request(infill, None, None).unwrap();
    let parts = "LLAMA_API int32_t llama_n_threads();\n#include <cstdio>\n#include \"llama.h\"\n\nint main() {\n}\n";
    assert_eq!(r.api, Api::Completions);
    assert!(
        r.estimate.tokens > estimate(parts, Profile::O200k).tokens,
        "{r:?}"
    );
    assert_eq!(r.max_output, None);
    // Gemini `contents` and `parts` as single objects (the cookbook's function-calling curl sample): an error
    // before.
    let one = r#"{"contents":{"role":"user","parts":{"text":"Which theaters in Mountain View show Barbie movie?"}}}"#;
    let arrays = r#"{"contents":[{"role":"user","parts":[{"text":"Which theaters in Mountain View show Barbie movie?"}]}]}"#;
    assert_eq!(
        estimate_request(one, None, None).unwrap().estimate.tokens,
        estimate_request(arrays, None, None)
            .unwrap()
            .estimate
            .tokens
    );
    let e = estimate_request(r#"{"contents":{"parts":{"inlineData":7}}}"#, None, None);
    assert!(e.is_ok_and(|r| r.unpriced == ["/contents/parts"]));
    // A Bedrock batch inference record is read as its `modelInput`, pointers made the record's.
    let inner = r#"{"anthropic_version":"bedrock-2023-05-31","max_tokens":1024,"messages":[{"role":"user",
      "content":[{"type":"text","text":"Summarize the following call transcript: ..."},
      {"type":"image","source":{"type":"url","url":"https://example.org/a.png"}}]}]}"#;
    let record = format!(r#"{{"recordId":"CALL0000001","modelInput":{inner}}}"#);
    let (r, want) = (
        estimate_request(&record, None, None).unwrap(),
        estimate_request(inner, None, None).unwrap(),
    );
    assert_eq!(
        (r.api, r.estimate.tokens, r.max_output),
        (want.api, want.estimate.tokens, Some(1024))
    );
    assert_eq!(r.unpriced, ["/modelInput/messages/0/content/1"]);
    // Azure OpenAI "On Your Data": the documents it retrieves join the prompt, so `data_sources` is flagged.
    let azure = r#"{"data_sources":[{"type":"azure_search","parameters":{"index_name":"example-index"}}],
      "messages":[{"role":"user","content":"Who is DRI?"}]}"#;
    assert_eq!(
        estimate_request(azure, None, None).unwrap().unpriced,
        ["/data_sources"]
    );
    // Anthropic's tool `input_examples` are shown to the model: they count.
    let tool = r#"{"model":"claude-opus-4-6","max_tokens":1024,"messages":[{"role":"user","content":"Weather?"}],
      "tools":[{"name":"get_weather","description":"Get the weather","input_schema":{"type":"object"}EX}]}"#;
    let examples = r#","input_examples":[{"location":"San Francisco, CA","unit":"fahrenheit"},{"location":"Tokyo"}]"#;
    let (with, without) = (
        estimate_request(&tool.replace("EX", examples), None, None).unwrap(),
        estimate_request(&tool.replace("EX", ""), None, None).unwrap(),
    );
    assert!(
        with.estimate.tokens >= without.estimate.tokens + 15,
        "{with:?}"
    );
}

#[test]
fn bodies_gathered_in_round_59_read_as_their_apis_do() {
    let est = |body: &str| estimate_request(body, None, None).unwrap();
    // Envelopes read as the body inside: an Anthropic Message Batches request (`{custom_id, params}`, its docs), a
    // Gemini batch line (`{key, request}`, its batch-mode docs), a Vertex AI batch prediction line (`{request}`) and
    // Bedrock's CountTokens body (`{input: {converse}}`, a recorded request in pydantic-ai's cassettes).
    let messages = r#"{"model":"claude-opus-4-6","max_tokens":1024,"messages":[{"role":"user","content":"Hello, world"}]}"#;
    let contents = r#"{"contents":[{"role":"user","parts":[{"text":"List objects in this image."},
      {"file_data":{"file_uri":"gs://cloud-samples-data/generative-ai/image/office-desk.jpeg","mime_type":"image/jpeg"}}]}]}"#;
    let converse =
        r#"{"messages":[{"role":"user","content":[{"text":"Hello, world!"}]}],"system":[]}"#;
    for (outer, inner, api, pointer) in [
        (
            format!(r#"{{"custom_id":"my-first-request","params":{messages}}}"#),
            est(messages),
            Api::AnthropicMessages,
            None,
        ),
        (
            format!(r#"{{"key":"request-1","request":{contents}}}"#),
            est(contents),
            Api::GeminiGenerateContent,
            Some("/request/contents/0/parts/1"),
        ),
        (
            format!(r#"{{"request":{contents}}}"#),
            est(contents),
            Api::GeminiGenerateContent,
            Some("/request/contents/0/parts/1"),
        ),
        (
            format!(r#"{{"input":{{"converse":{converse}}}}}"#),
            estimate_request(converse, Some(Api::BedrockConverse), None).unwrap(),
            Api::BedrockConverse,
            None,
        ),
    ] {
        let r = est(&outer);
        assert_eq!(
            (r.api, r.estimate.tokens, r.max_output),
            (api, inner.estimate.tokens, inner.max_output),
            "{outer}"
        );
        assert_eq!(r.unpriced.first().map(String::as_str), pointer, "{outer}");
    }
    // A whole batch has no one estimate: the error says to check its requests one at a time.
    let batch = format!(r#"{{"requests":[{{"custom_id":"a","params":{messages}}}]}}"#);
    let e = estimate_request(&batch, None, None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("/requests") && e.contains("one request"), "{e}");
    // Gemini's `parametersJsonSchema` (and the SDK's `parameters_json_schema`) is a function's schema: it counts.
    let tool = r#"{"contents":[{"role":"user","parts":[{"text":"What is the weather in Mexico City?"}]}],
      "tools":[{"functionDeclarations":[{"name":"get_weather","description":"Get the weather",KEY}]}]}"#;
    let schema = r#"{"type":"object","properties":{"city":{"type":"string","description":"The city name"},
      "unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city"]}"#;
    let without = est(&tool.replace(",KEY", "")).estimate.tokens;
    for key in [
        "parameters",
        "parametersJsonSchema",
        "parameters_json_schema",
    ] {
        let with = est(&tool.replace("KEY", &format!(r#""{key}":{schema}"#)));
        assert!(with.estimate.tokens >= without + 20, "{key}: {with:?}");
    }
    // `parameters: null` beside it is unset.
    let both = format!(r#""parameters":null,"parametersJsonSchema":{schema}"#);
    let both = est(&tool.replace("KEY", &both));
    assert!(both.estimate.tokens >= without + 20, "{both:?}");
    // Anthropic's built-in tools add the input tokens its pricing page gives (bash 245, 325 on Opus 4.7; the text
    // editor 700 or 722; computer use 735 and a system prompt of up to 499); web search has no figure: unpriced.
    let builtin = |model: &str, ty: &str| {
        let body = format!(
            r#"{{"model":"{model}","max_tokens":2000,"tools":[{{"type":"{ty}","name":"t"}}],
              "messages":[{{"role":"user","content":"Save a picture of a cat to my desktop."}}]}}"#
        );
        est(&body)
    };
    let plain = est(
        r#"{"model":"claude-opus-4-6","max_tokens":2000,"tools":[{"name":"t","input_schema":{}}],
      "messages":[{"role":"user","content":"Save a picture of a cat to my desktop."}]}"#,
    );
    for (model, ty, added) in [
        ("claude-opus-4-6", "bash_20250124", 245),
        ("claude-opus-4-7", "bash_20250124", 325),
        ("claude-opus-4-6", "text_editor_20250124", 700),
        ("claude-opus-4-6", "text_editor_20250728", 722),
        ("claude-opus-4-6", "computer_20250124", 1234),
    ] {
        let r = builtin(model, ty);
        assert_eq!(r.overhead_tokens, plain.overhead_tokens + added, "{ty}");
        assert!(!r.incomplete, "{ty}");
    }
    assert_eq!(
        builtin("claude-opus-4-6", "web_search_20250305").unpriced,
        ["/tools/0"]
    );
    // OpenRouter's web search adds its results to the prompt: the plugin, or a model named `:online`, is flagged.
    let online = est(
        r#"{"model":"openai/gpt-4o:online","messages":[{"role":"user","content":"Latest news"}]}"#,
    );
    assert_eq!(online.unpriced, ["/model"]);
    let plugin = est(
        r#"{"model":"meta-llama/llama-3.3-70b-instruct:free","plugins":[{"id":"web"}],
      "messages":[{"role":"user","content":"Latest news about AI"}]}"#,
    );
    assert_eq!(plugin.unpriced, ["/plugins/0"]);
    // Replicate's Llama bodies keep the cap and the system prompt inside `input` (its API example).
    let replicate = r#"{"input":{"prompt":"Work through this problem step by step.","max_tokens":512,SYS"top_p":0.9}}"#;
    let (with, without) = (
        est(&replicate.replace(
            "SYS",
            r#""system_prompt":"You are a helpful assistant and you answer in French","#,
        )),
        est(&replicate.replace("SYS", "")),
    );
    assert_eq!(with.max_output, Some(512));
    // Replicate names its model in the URL: the API's default profile, not DashScope's Qwen.
    assert_eq!(with.estimate.profile, Api::Completions.default_profile());
    assert!(
        with.estimate.tokens >= without.estimate.tokens + 8,
        "{with:?}"
    );
    // IBM watsonx.ai's text generation: a string `input` for a `model_id` in a project is a prompt, its cap in
    // `parameters.max_new_tokens`, 20 when not set (its API reference's example body).
    let watsonx = r#"{"input":"How far is Paris from Bangalore?","model_id":"ibm/granite-13b-instruct-v2",
      "project_id":"{project_id}"PARAMS}"#;
    let plain = est(&watsonx.replace("PARAMS", ""));
    assert_eq!(
        (plain.api, plain.max_output, plain.model.as_deref()),
        (
            Api::Completions,
            Some(20),
            Some("ibm/granite-13b-instruct-v2")
        )
    );
    let prompt = est(r#"{"prompt":"How far is Paris from Bangalore?","max_tokens":20}"#);
    assert_eq!(plain.estimate.tokens, prompt.estimate.tokens);
    let capped = est(&watsonx.replace("PARAMS", r#","parameters":{"max_new_tokens":200}"#));
    assert_eq!(capped.max_output, Some(200));
}

#[test]
fn envelopes_are_estimated_as_the_body_inside() {
    // An OpenAI Batch input line: the request is its `body`, pointers say where in the line.
    let inner = r#"{"model":"gpt-4o","messages":[{"role":"user","content":[
      {"type":"image_url","image_url":{"url":"https://example.org/a.png"}},{"type":"text","text":"Hello world!"}]}],
      "max_tokens":1000}"#;
    let line = format!(
        r#"{{"custom_id":"request-1","method":"POST","url":"/v1/chat/completions","body":{inner}}}"#
    );
    let (r, want) = (
        estimate_request(&line, None, None).unwrap(),
        estimate_request(inner, None, None).unwrap(),
    );
    assert_eq!(
        (r.api, r.estimate.tokens, r.max_output),
        (want.api, want.estimate.tokens, want.max_output)
    );
    assert_eq!(r.unpriced, ["/body/messages/0/content/0"]);
    assert_eq!(r.media[0].pointer, "/body/messages/0/content/0");
    let e = estimate_request(
        &line.replace(r#""max_tokens":1000"#, r#""max_tokens":-3"#),
        None,
        None,
    );
    assert!(e.unwrap_err().to_string().contains("/body/max_tokens"));
    // DashScope's native body: `input.messages` (or `input.prompt`) with its caps in `parameters`; a Qwen model's
    // profile, qwen3 when the model is not named.
    let ds = r#"{"model":"qwen-plus","input":{"messages":[{"role":"user","content":"你是谁？"}]},
      "parameters":{"result_format":"message","max_tokens":1024,"n":2}}"#;
    let chat = r#"{"model":"qwen-plus","messages":[{"role":"user","content":"你是谁？"}]}"#;
    let (r, want) = (
        estimate_request(ds, None, None).unwrap(),
        estimate_request(chat, None, None).unwrap(),
    );
    assert_eq!(
        (r.api, r.estimate.profile, r.estimate.tokens, r.max_output),
        (
            Api::OpenAiChat,
            want.estimate.profile,
            want.estimate.tokens,
            Some(2048)
        )
    );
    assert_eq!(r.model.as_deref(), Some("qwen-plus"));
    let unnamed = estimate_request(r#"{"input":{"prompt":"你好"}}"#, None, None).unwrap();
    assert_eq!(
        (unnamed.api, unnamed.estimate.profile, unnamed.max_output),
        (Api::Completions, Profile::Qwen3, None)
    );
    // Its embeddings: `input.texts`, generating nothing.
    let emb = r#"{"model":"text-embedding-v4","input":{"texts":["风急天高猿啸哀","渚清沙白鸟飞回"]},
      "parameters":{"dimension":1024}}"#;
    let want = r#"{"model":"text-embedding-v4","input":["风急天高猿啸哀","渚清沙白鸟飞回"]}"#;
    let (r, want) = (
        estimate_request(emb, None, None).unwrap(),
        estimate_request(want, None, None).unwrap(),
    );
    assert_eq!(
        (r.api, r.max_output, r.messages, r.estimate.chars),
        (Api::Embeddings, Some(0), 2, want.estimate.chars)
    );
    let e = estimate_request(
        &emb.replace(r#"["风急天高猿啸哀","渚清沙白鸟飞回"]"#, "7"),
        None,
        None,
    );
    assert!(e.unwrap_err().to_string().contains("/input/texts"));
    let tools = ds.replace(
        r#""n":2"#,
        r#""tools":[{"type":"function","function":{"name":"f"}}]"#,
    );
    assert_eq!(
        estimate_request(&tools, None, None).unwrap().unpriced,
        ["/parameters/tools"]
    );
    let e = estimate_request(
        &ds.replace(r#""content":"你是谁？""#, r#""content":5"#),
        None,
        None,
    );
    assert!(e
        .unwrap_err()
        .to_string()
        .contains("/input/messages/0/content"));
}

#[test]
fn gemini_code_execution_parts_count_their_code_and_output() {
    // A turn of the code-execution tool sent back as history: the code and what it printed are text. They were
    // flagged unpriced and priced at nothing.
    let body = |parts: &str| {
        format!(
            r#"{{"contents":[{{"role":"user","parts":[{{"text":"Sum the first 50 primes."}}]}},
              {{"role":"model","parts":[{parts},{{"text":"The sum is 5117."}}]}}],
              "generationConfig":{{"maxOutputTokens":2048}}}}"#
        )
    };
    let code = "import sympy\\nprint(sum(sympy.prime(i) for i in range(1, 51)))";
    let ran = format!(
        r#"{{"executableCode":{{"language":"PYTHON","code":"{code}"}}}},
          {{"codeExecutionResult":{{"outcome":"OUTCOME_OK","output":"5117\\n"}}}}"#
    );
    let text = format!(r#"{{"text":"{code}"}},{{"text":"5117\\n"}}"#);
    let (r, same) = (
        estimate_request(&body(&ran), None, None).unwrap(),
        estimate_request(&body(&text), None, None).unwrap(),
    );
    assert!(r.unpriced.is_empty(), "{:?}", r.unpriced);
    assert_eq!(
        (r.estimate.chars, r.estimate.tokens),
        (same.estimate.chars, same.estimate.tokens)
    );
    let snake = ran
        .replace("executableCode", "executable_code")
        .replace("codeExecutionResult", "code_execution_result");
    let s = estimate_request(&body(&snake), None, None).unwrap();
    assert_eq!(s.estimate.tokens, r.estimate.tokens);
    let bad = ran.replace(r#""output":"5117\\n""#, r#""output":5117"#);
    let e = estimate_request(&body(&bad), None, None).unwrap_err();
    assert!(e.to_string().contains("/codeExecutionResult/output"), "{e}");
}

#[test]
fn anthropic_server_tool_calls_count_like_tool_calls() {
    // A web search Anthropic ran, sent back as history: the call's name and input are in the body, as a client
    // tool's are; its result's pages are encrypted, so that block stays unpriced.
    let body = |call_type: &str| {
        format!(
            r#"{{"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[
              {{"role":"user","content":"What is the weather in NYC?"}},
              {{"role":"assistant","content":[
                {{"type":"{call_type}","id":"srvtoolu_01","name":"web_search","input":{{"query":"weather NYC today"}}}},
                {{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01","content":[{{"type":"web_search_result",
                  "url":"https://weather.example.com/nyc","title":"NYC","encrypted_content":"EqgfCioIARgB"}}]}},
                {{"type":"text","text":"It is sunny."}}]}}]}}"#
        )
    };
    let (server, client) = (
        estimate_request(&body("server_tool_use"), None, None).unwrap(),
        estimate_request(&body("tool_use"), None, None).unwrap(),
    );
    assert_eq!(server.unpriced, ["/messages/1/content/1"]);
    assert_eq!(
        (server.estimate.chars, server.estimate.tokens),
        (client.estimate.chars, client.estimate.tokens)
    );
}

#[test]
fn responses_tool_outputs_price_their_images_as_images() {
    // A function call's output may be content parts, and a computer call's output is a screenshot. Read as JSON
    // text, a screenshot's base64 counted as tokens of text (and a computer call's output was unpriced).
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    let image = format!(r#"{{"type":"input_image","image_url":"data:image/png;base64,{png}"}}"#);
    let body =
        |item: &str| format!(r#"{{"model":"gpt-4.1","input":[{item}],"max_output_tokens":500}}"#);
    let output = format!(
        r#"{{"type":"function_call_output","call_id":"c1","output":[{{"type":"input_text","text":"Sunny."}},{image}]}}"#
    );
    let message =
        format!(r#"{{"role":"user","content":[{{"type":"input_text","text":"Sunny."}},{image}]}}"#);
    let (r, same) = (
        estimate_request(&body(&output), None, None).unwrap(),
        estimate_request(&body(&message), None, None).unwrap(),
    );
    assert_eq!(r.media.len(), 1);
    assert_eq!(r.media[0].pointer, "/input/0/output/1");
    assert!(r.media[0].measured && r.unpriced.is_empty());
    assert_eq!(
        (r.estimate.chars, r.estimate.tokens),
        (same.estimate.chars, same.estimate.tokens)
    );
    let shot = image.replace("input_image", "computer_screenshot");
    let call = format!(r#"{{"type":"computer_call_output","call_id":"c2","output":{shot}}}"#);
    let r = estimate_request(&body(&call), None, None).unwrap();
    assert_eq!((r.media.len(), r.estimate.chars), (1, 0));
    assert_eq!(r.media[0].pointer, "/input/0/output");
    assert!(r.unpriced.is_empty(), "{:?}", r.unpriced);
}

#[test]
fn an_earlier_spoken_reply_referred_to_by_id_is_flagged() {
    // OpenAI's audio models take an earlier reply back by id; its audio is billed as input but not in the body.
    let body = r#"{"model":"gpt-4o-audio-preview","modalities":["text","audio"],
      "audio":{"voice":"alloy","format":"wav"},"messages":[
      {"role":"user","content":"Is a golden retriever a good family dog?"},
      {"role":"assistant","audio":{"id":"audio_abc123"}},
      {"role":"user","content":"Why do you say they are loyal?"}]}"#;
    let r = estimate_request(body, None, None).unwrap();
    assert!(r.incomplete);
    assert_eq!(r.unpriced, ["/messages/1/audio"]);
}

#[test]
fn windows_the_headers_report_beyond_a_minute() {
    // Groq's `x-ratelimit-*-requests` count the day's requests (its rate-limits docs: "Always refers to Requests
    // Per Day"): they fill the per-day bucket and leave the per-minute one the caller set alone.
    let groq = |provider| {
        let mut state = State::new(
            Budget::new(provider)
                .tokens_per_minute(nz(18_000))
                .requests_per_minute(nz(30)),
            0,
        );
        let parsed = RateLimitSnapshot::from_headers(
            [
                ("x-ratelimit-limit-requests", "14400"),
                ("x-ratelimit-remaining-requests", "14370"),
                ("x-ratelimit-reset-requests", "2m59.56s"),
            ],
            0,
        );
        state.observe(&parsed.snapshot, 0);
        state
    };
    let g = groq(Provider::Groq);
    assert_eq!(g.bucket(Dimension::Requests).map(|b| b.limit), Some(30));
    assert_eq!(
        g.bucket(Dimension::RequestsPerDay).map(|b| b.limit),
        Some(14_400)
    );
    // A person's stated levels are the minute's whatever the provider: with Groq's headers and 0 requests left of 30
    // a minute, the check waits for the minute's bucket (2 s), not the day's.
    let input = CheckInput {
        remaining_requests: Some(0),
        ..CheckInput::new(
            Budget::new(Provider::Groq)
                .tokens_per_minute(nz(18_000))
                .requests_per_minute(nz(30)),
        )
    };
    let headers = [
        ("x-ratelimit-limit-requests", "14400"),
        ("x-ratelimit-remaining-requests", "14370"),
        ("x-ratelimit-reset-requests", "2m59.56s"),
    ];
    let out = check_request(&input, headers, Cost::exact(12), 0).unwrap();
    assert_eq!(
        out.check.verdict,
        Verdict::Queueable {
            wait_ms: 2_000,
            dimension: Dimension::Requests
        }
    );
    // Other providers' `requests` headers are the minute's, as OpenAI's are.
    let o = groq(Provider::OpenAi);
    assert_eq!(o.bucket(Dimension::Requests).map(|b| b.limit), Some(14_400));
    // A spent window the headers do not name (Hugging Face's `ratelimit: "api";r=0;t=55`), or one of an hour, admits
    // nothing before its reset, whatever it counts.
    for h in [
        [("ratelimit", r#""api";r=0;t=55"#), ("x-other", "")],
        [
            ("X-RateLimit-Remaining-Requests-1h", "0"),
            ("X-RateLimit-Reset-Requests-1h", "55"),
        ],
    ] {
        let mut state = State::new(key(8_000), 0);
        state.observe(&RateLimitSnapshot::from_headers(h, 0).snapshot, 0);
        match state.check(&Cost::exact(10), Policy::Median, 0).verdict {
            Verdict::Queueable { wait_ms, .. } => assert_eq!(wait_ms, 55_000, "{h:?}"),
            v => panic!("{h:?}: {v:?}"),
        }
    }
}

#[test]
fn recorded_usage_shapes_gemini_and_mistral_bodies() {
    let est = |body: &str| estimate_request(body, None, None).unwrap();
    // Gemini's `promptTokenCount` counts the parts alone: a recorded request (pydantic-ai's cassettes,
    // gemini-2.0-flash) with "You are a helpful assistant." and "What is the capital of France?" reports 13, the
    // tokens of its two texts. No overhead is added per content.
    let gemini = est(
        r#"{"contents":[{"parts":[{"text":"What is the capital of France?"}],"role":"user"}],
      "generationConfig":{"responseModalities":["TEXT"]},
      "systemInstruction":{"parts":[{"text":"You are a helpful assistant."}],"role":"user"}}"#,
    );
    assert_eq!(gemini.overhead_tokens, 0);
    let text = estimate(
        "You are a helpful assistant.\nWhat is the capital of France?",
        Profile::Gemini,
    );
    assert!(
        gemini.estimate.tokens.abs_diff(text.tokens) <= 1,
        "{gemini:?}"
    );
    // A function call's and its response's `id` only pair them: it is not counted (removing the ids moved a
    // recorded request's estimate from 169 to 100, its count 82).
    let call = r#"{"contents":[{"parts":[{"text":"What is the capital of France?"}],"role":"user"},
      {"parts":[{"functionCall":{"args":{"country":"France"},ID"name":"get_capital"}}],"role":"model"},
      {"parts":[{"functionResponse":{ID"name":"get_capital","response":{"return_value":"Paris"}}}],"role":"user"}]}"#;
    let id = r#""id":"pyd_ai_5c28ff78075941bd9a9fd2f43fe84ae1","#;
    assert_eq!(
        est(&call.replace("ID", id)).estimate.tokens,
        est(&call.replace("ID", "")).estimate.tokens
    );
    // Mistral's reasoning models send `thinking` chunks (an array of text chunks) back as history: OpenAI-style
    // chat, not Anthropic, and the thinking counts (a recorded magistral-medium request).
    let thinking = r#"{"model":"magistral-medium-latest","messages":[{"role":"user","content":"How do I cross the street?"},
      {"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"THOUGHT"}]},
      {"type":"text","text":"Look both ways."}]}]}"#;
    let thought = "When guiding someone on how to cross the street, it typically involves pedestrian safety rules.";
    let (with, without) = (
        est(&thinking.replace("THOUGHT", thought)),
        est(&thinking.replace("THOUGHT", "")),
    );
    assert_eq!((with.api, with.incomplete), (Api::OpenAiChat, false));
    assert!(
        with.estimate.tokens >= without.estimate.tokens + 15,
        "{with:?}"
    );
}

#[test]
fn anthropics_tool_prompt_follows_the_model_and_the_tool_choice() {
    // Anthropic's pricing table: the tool-use system prompt is 346 tokens with tool_choice auto or none and 313 with
    // any or a named tool for Claude 4; Claude 3 Opus 530 and 281, Claude 3 Haiku 264 and 340. Bedrock's Converse
    // takes the same table for a Claude model (`toolChoice`).
    let body = |model: &str, choice: &str| {
        format!(
            r#"{{"model":"{model}","max_tokens":64,"messages":[{{"role":"user","content":"Weather?"}}],
              "tools":[{{"name":"w","input_schema":{{"type":"object"}}}}]{choice}}}"#
        )
    };
    let overhead = |model: &str, choice: &str| {
        estimate_request(&body(model, choice), None, None)
            .unwrap()
            .overhead_tokens
    };
    let base = ANTHROPIC_PER_MESSAGE;
    for (model, choice, prompt) in [
        ("claude-sonnet-4-5", "", 346),
        (
            "claude-sonnet-4-5",
            r#","tool_choice":{"type":"auto"}"#,
            346,
        ),
        ("claude-sonnet-4-5", r#","tool_choice":{"type":"any"}"#, 313),
        (
            "claude-sonnet-4-5",
            r#","tool_choice":{"type":"tool","name":"w"}"#,
            313,
        ),
        ("claude-3-opus-20240229", "", 530),
        (
            "claude-3-opus-20240229",
            r#","tool_choice":{"type":"any"}"#,
            281,
        ),
        (
            "claude-3-haiku-20240307",
            r#","tool_choice":{"type":"any"}"#,
            340,
        ),
    ] {
        assert_eq!(overhead(model, choice), base + prompt, "{model} {choice}");
    }
    let converse = |choice: &str| {
        let b = format!(
            r#"{{"modelId":"anthropic.claude-3-haiku-20240307-v1:0","messages":[{{"role":"user","content":[{{"text":"Weather?"}}]}}],
              "toolConfig":{{"tools":[{{"toolSpec":{{"name":"w","inputSchema":{{"json":{{"type":"object"}}}}}}}}]{choice}}}}}"#
        );
        estimate_request(&b, None, None).unwrap().overhead_tokens
    };
    assert_eq!(converse(""), BEDROCK_PER_MESSAGE + 264);
    assert_eq!(
        converse(r#","toolChoice":{"any":{}}"#),
        BEDROCK_PER_MESSAGE + 340
    );
}

#[test]
fn chat_templates_add_what_recorded_counts_show() {
    // Measured on recorded prompt counts (SDKs' HTTP fixtures): text a model's chat template or its provider adds
    // that the body does not show.
    let chat = |model: &str, tools: bool| {
        let t = if tools {
            r#","tools":[{"type":"function","function":{"name":"add","parameters":{"type":"object"}}}]"#
        } else {
            ""
        };
        let body = format!(
            r#"{{"model":"{model}","messages":[{{"role":"user","content":"Add 2 and 3"}}]{t}}}"#
        );
        estimate_request(&body, Some(Api::OpenAiChat), Some(Profile::O200k))
            .unwrap()
            .overhead_tokens
    };
    let plain = |tools| chat("gpt-4.1", tools);
    // gpt-5 on OpenAI's chat completions with tools (not through a router's `openai/` name, not without tools).
    assert_eq!(chat("gpt-5", true), plain(true) + OPENAI_GPT5_CHAT_TOOLS);
    assert_eq!(
        chat("gpt-5-mini", true),
        plain(true) + OPENAI_GPT5_CHAT_TOOLS
    );
    assert_eq!(chat("gpt-5", false), plain(false));
    assert_eq!(chat("openai/gpt-5", true), plain(true));
    // gpt-oss's harmony system message, always; Llama 3.1-3.3's date header, always; not Llama 3.0's.
    for tools in [false, true] {
        assert_eq!(
            chat("openai/gpt-oss-120b", tools),
            plain(tools) + GPT_OSS_PREAMBLE
        );
        assert_eq!(
            chat("llama-3.3-70b-versatile", tools),
            plain(tools) + LLAMA3_DATE_HEADER
        );
        assert_eq!(
            chat("llama3.1:8b", tools),
            plain(tools) + LLAMA3_DATE_HEADER
        );
        assert_eq!(chat("llama3-70b-8192", tools), plain(tools));
        for llama in [
            "meta-llama/Llama-3.1-8B-Instruct",
            "accounts/fireworks/models/llama-v3p1-8b-instruct",
            "meta-llama/llama-3-3-70b-instruct",
            "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo",
        ] {
            assert_eq!(
                chat(llama, tools),
                plain(tools) + LLAMA3_DATE_HEADER,
                "{llama}"
            );
        }
        // A fine-tune named after it has a template of its own; Llama 3.0 has no date header.
        for other in [
            "nousresearch/hermes-3-llama-3.1-405b",
            "meta-llama/Meta-Llama-3-8B-Instruct",
            "llama-3-13b",
        ] {
            assert_eq!(chat(other, tools), plain(tools), "{other}");
        }
        assert_eq!(chat("deepseek-r1-distill-llama-70b", tools), plain(tools));
    }
    // Claude 4: each tool_use and tool_result block adds ANTHROPIC_PER_TOOL_BLOCK beyond its text.
    let round = r#",{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"w","input":{}}]},
      {"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"18"}]}"#;
    let claude = |model: &str, more: &str| {
        let body = format!(
            r#"{{"model":"{model}","max_tokens":64,"tools":[{{"name":"w","input_schema":{{"type":"object"}}}}],
              "messages":[{{"role":"user","content":"Weather?"}}{more}]}}"#
        );
        estimate_request(&body, None, None).unwrap().overhead_tokens
    };
    assert_eq!(
        claude("claude-sonnet-4-5", round),
        claude("claude-sonnet-4-5", "") + 2 * ANTHROPIC_PER_MESSAGE + 2 * ANTHROPIC_PER_TOOL_BLOCK
    );
    assert_eq!(
        claude("claude-3-haiku-20240307", round),
        claude("claude-3-haiku-20240307", "") + 2 * ANTHROPIC_PER_MESSAGE
    );
    // SDKs send unset optional fields as null (a recorded request to DeepSeek-R1 through a router): accepted.
    let nulls = r#"{"messages":[{"content":"You are a helpful assistant.","name":null,"role":"system","tool_calls":null},
      {"content":"What is the capital of France?","name":null,"role":"user","tool_calls":null,"function_call":null}],
      "model":"deepseek-ai/DeepSeek-R1","tools":null}"#;
    let r = estimate_request(nulls, None, None).unwrap();
    assert_eq!((r.messages, r.tools, r.incomplete), (2, 0, false));
    // A required array sent as null is still the wrong shape, never an empty request.
    for body in [
        r#"{"model":"gpt-4o","messages":null,"max_tokens":100}"#,
        r#"{"contents":[{"role":"user","parts":null}]}"#,
    ] {
        assert!(estimate_request(body, None, None).is_err(), "{body}");
    }
}
