//! Limits: huge and deeply nested JSON handled in linear time or refused with a clear error, and durations, dates
//! and clocks at their extremes (0, negative, `u64::MAX`, the year 9999, 1970). The 100 MB streaming estimate in
//! bounded memory is in tests/memory.rs (its own process, so the peak it measures is its own).

use llm_preflight::internals::headers::{parse_http_date_ms, parse_rfc3339_ms};
use llm_preflight::internals::preflight::{count_from_f64, limit_from_f64};
use llm_preflight::{
    classify, estimate_request, explain, find_stream_error, next_action, parse_duration_ms, Action,
    Budget, Cost, Dimension, DurationError, FallbackReason, HeaderProblem, Headers, PerDimension,
    Policy, PreflightError, Provider, RateLimitSnapshot, RefusalKind, RetryPolicy, State, Verdict,
};
use std::time::{Duration, Instant};

/// A limit for a test: never zero.
fn nz(n: u64) -> std::num::NonZeroU64 {
    std::num::NonZeroU64::new(n).expect("a test limit is at least 1")
}

/// `[[[[...]]]]` nested `depth` deep.
fn nested(depth: usize) -> String {
    "[".repeat(depth) + &"]".repeat(depth)
}

// ---------------------------------------------------------------------------------------------------------------
// Deep and huge JSON.

#[test]
fn deeply_nested_request_bodies_are_refused_with_a_clear_error() {
    for body in [
        nested(100_000),
        format!(
            r#"{{"messages":[{{"role":"user","content":{}}}]}}"#,
            nested(50_000)
        ),
        format!(
            r#"{{"contents":[{{"parts":[{{"text":"hi","x":{}}}]}}]}}"#,
            "{\"a\":".repeat(20_000) + &"}".repeat(20_000)
        ),
    ] {
        match estimate_request(&body, None, None) {
            Err(PreflightError::NotJson(m)) => assert!(m.contains("recursion limit"), "{m}"),
            other => panic!("expected a NotJson error, got {other:?}"),
        }
    }
}

#[test]
fn nesting_within_the_limit_is_estimated() {
    // A tool schema nested 60 properties deep (serde_json allows 128 levels of JSON).
    let mut schema = String::from(r#"{"type":"string"}"#);
    for i in 0..60 {
        schema = format!(r#"{{"type":"object","properties":{{"p{i}":{schema}}}}}"#);
    }
    let body = format!(
        r#"{{"model":"gpt-4o","messages":[{{"role":"user","content":"hi"}}],"tools":[{{"type":"function","function":{{"name":"f","parameters":{schema}}}}}]}}"#
    );
    let r = estimate_request(&body, None, None).unwrap();
    assert_eq!(r.tools, 1);
    assert!(r.estimate.tokens > 60 * 4, "{r:?}");
    // Tool input nested deep: counted as its JSON text.
    let body = format!(
        r#"{{"model":"claude-sonnet-4-5","max_tokens":10,"messages":[{{"role":"assistant","content":[{{"type":"tool_use","id":"t","name":"f","input":{{"a":{}}}}}]}}]}}"#,
        nested(100)
    );
    assert!(estimate_request(&body, None, None).is_ok());
}

#[test]
fn deeply_nested_responses_and_headers_give_typed_answers() {
    let deep = nested(100_000);
    let r = classify(Some(429), [("retry-after", "1")], &deep, 0);
    assert_eq!(r.retry_after_ms, Some(1000));
    assert!(
        r.kind.is_rate_limit() || r.kind == RefusalKind::Other,
        "{r:?}"
    );
    let r = classify(None, Headers::new().iter(), &deep, 0);
    assert_eq!(r.kind, RefusalKind::Other);
    assert!(find_stream_error(&format!("data: {deep}\n\n")).is_none());
    let r = classify(
        Some(200),
        Headers::new().iter(),
        &format!("data: {deep}\n\ndata: {{\"error\":{{\"message\":\"Overloaded\"}}}}\n\n"),
        0,
    );
    assert_eq!(r.kind, RefusalKind::Overloaded);
    assert!(Headers::from_json(&format!(r#"{{"retry-after":{deep}}}"#)).is_err());
    assert!(explain(&deep).is_err());
    // A body nested as JSON inside JSON strings, many levels: unwrapped a few levels, then left alone.
    let mut body =
        String::from(r#"{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","message":"quota"}}"#);
    for _ in 0..12 {
        body = serde_json::json!({ "error": { "message": body } }).to_string();
    }
    let _ = classify(Some(429), Headers::new().iter(), &body, 0);
}

/// Runs `f` on inputs of size `n` and `4n`, several times, and returns the best times.
fn best_of<F: FnMut(usize)>(n: usize, mut f: F) -> (Duration, Duration) {
    let mut best = (Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        let t = Instant::now();
        f(n);
        best.0 = best.0.min(t.elapsed());
        let t = Instant::now();
        f(4 * n);
        best.1 = best.1.min(t.elapsed());
    }
    best
}

/// Four times the input takes about four times as long (a quadratic walk would take sixteen).
fn assert_linear(what: &str, (t1, t4): (Duration, Duration)) {
    eprintln!("{what}: n {t1:?}, 4n {t4:?}");
    assert!(
        t4 <= t1 * 10 + Duration::from_millis(30),
        "{what} looks superlinear: n took {t1:?}, 4n took {t4:?}"
    );
}

#[test]
fn huge_request_bodies_are_estimated_in_linear_time() {
    let chat = |n: usize| {
        let msgs: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"role":"user","name":"u{i}","content":[{{"type":"text","text":"message {i}: the quick brown fox"}},{{"type":"image_url","image_url":{{"url":"x","detail":"high"}}}}]}}"#))
            .collect();
        format!(r#"{{"model":"gpt-4o","messages":[{}]}}"#, msgs.join(","))
    };
    let bodies: Vec<String> = [5_000, 20_000].iter().map(|n| chat(*n)).collect();
    assert_linear(
        "chat messages",
        best_of(0, |n| {
            let r = estimate_request(&bodies[usize::from(n > 0)], None, None).unwrap();
            assert!(r.incomplete && r.messages >= 5_000);
        }),
    );
    // One 16 MB string.
    let big = format!(
        r#"{{"contents":[{{"parts":[{{"text":"{}"}}]}}]}}"#,
        "lorem ipsum dolor sit amet ".repeat(600_000)
    );
    let t = Instant::now();
    let r = estimate_request(&big, None, None).unwrap();
    assert!(r.estimate.tokens > 1_000_000);
    eprintln!("16 MB string: {:?}", t.elapsed());
    // Wide tool schemas: many properties with enums.
    let tools = |n: usize| {
        let props: Vec<String> = (0..n).map(|i| format!(r#""p{i}":{{"type":"string","enum":["a","b","c"],"description":"property {i}"}}"#)).collect();
        format!(
            r#"{{"messages":[{{"role":"user","content":"hi"}}],"tools":[{{"type":"function","function":{{"name":"f","parameters":{{"type":"object","properties":{{{}}}}}}}}}]}}"#,
            props.join(",")
        )
    };
    let bodies: Vec<String> = [5_000, 20_000].iter().map(|n| tools(*n)).collect();
    assert_linear(
        "tool properties",
        best_of(0, |n| {
            estimate_request(&bodies[usize::from(n > 0)], None, None).unwrap();
        }),
    );
}

#[test]
fn huge_responses_and_streams_are_classified_in_linear_time() {
    let stream = |n: usize| {
        let mut s = "data: {\"choices\":[{\"delta\":{\"content\":\"tok\"}}]}\n\n".repeat(n);
        s += "data: {\"error\":{\"message\":\"Rate limit reached for requests\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}\n\n";
        s
    };
    let streams = [stream(20_000), stream(80_000)];
    assert_linear(
        "stream frames",
        best_of(0, |n| {
            let r = classify(
                Some(200),
                Headers::new().iter(),
                &streams[usize::from(n > 0)],
                0,
            );
            assert_eq!(r.kind, RefusalKind::RateLimitRequests);
            assert!(r.output_delivered);
        }),
    );
    // Many `data:` lines in one event, and one huge error message.
    let lines = "data: x\n".repeat(500_000);
    assert!(find_stream_error(&lines).is_none());
    let msg = format!(
        r#"{{"error":{{"message":"Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29937, Requested 385. {}","code":"rate_limit_exceeded"}}}}"#,
        "padding ".repeat(1_000_000)
    );
    let r = classify(Some(429), Headers::new().iter(), &msg, 0);
    assert_eq!(r.kind, RefusalKind::RateLimitTokens);
    assert_eq!(r.limit, Some(30000));
    assert!(r.message.unwrap().chars().count() <= 501);
    // Plain text of 8 MB.
    let r = classify(
        Some(503),
        Headers::new().iter(),
        &"upstream overloaded ".repeat(400_000),
        0,
    );
    assert!(r.retryable);
}

// ---------------------------------------------------------------------------------------------------------------
// Durations and dates at the extremes.

#[test]
fn durations_at_the_extremes() {
    assert_eq!(parse_duration_ms("0"), Ok(0));
    assert_eq!(parse_duration_ms("0s"), Ok(0));
    assert_eq!(parse_duration_ms("0ms"), Ok(0));
    assert_eq!(
        parse_duration_ms("0.0000000001s"),
        Ok(1),
        "a wait is rounded up, never down"
    );
    assert_eq!(parse_duration_ms("1ns"), Ok(1));
    assert_eq!(parse_duration_ms("-1"), Err(DurationError::Negative));
    assert_eq!(parse_duration_ms("-0.5s"), Err(DurationError::Negative));
    assert_eq!(parse_duration_ms("18446744073709551615ms"), Ok(u64::MAX));
    assert_eq!(
        parse_duration_ms("18446744073709551616ms"),
        Err(DurationError::Overflow)
    );
    assert_eq!(
        parse_duration_ms("18446744073709551615s"),
        Err(DurationError::Overflow)
    );
    assert_eq!(
        parse_duration_ms("18446744073709551615"),
        Err(DurationError::Overflow)
    );
    assert_eq!(
        parse_duration_ms("99999999999999999999999h"),
        Err(DurationError::Overflow)
    );
    assert_eq!(
        parse_duration_ms("5124095576h1m"),
        Ok(5_124_095_576 * 3_600_000 + 60_000)
    );
    assert!(parse_duration_ms(&"9".repeat(10_000)).is_err());
    assert!(parse_duration_ms(&"1s".repeat(100_000)).is_ok());
}

#[test]
fn dates_at_the_extremes() {
    assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:00Z"), Some(0));
    assert_eq!(parse_rfc3339_ms("1969-12-31T23:59:59Z"), Some(-1000));
    assert_eq!(
        parse_rfc3339_ms("1970-01-01T00:00:00+01:00"),
        Some(-3_600_000)
    );
    assert_eq!(
        parse_rfc3339_ms("9999-12-31T23:59:59.999Z"),
        Some(253_402_300_799_999)
    );
    assert_eq!(
        parse_rfc3339_ms("9999-12-31T23:59:60Z"),
        Some(253_402_300_799_999),
        "leap second"
    );
    assert_eq!(
        parse_rfc3339_ms("0000-01-01T00:00:00Z"),
        Some(-62_167_219_200_000)
    );
    assert_eq!(
        parse_rfc3339_ms("9999-12-31T23:59:59-23:59"),
        Some(253_402_300_799_000 + 86_340_000)
    );
    assert_eq!(parse_rfc3339_ms("10000-01-01T00:00:00Z"), None);
    assert_eq!(parse_rfc3339_ms("2024-02-30T00:00:00Z"), None);
    assert_eq!(
        parse_http_date_ms("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        Some(0)
    );
    assert_eq!(
        parse_http_date_ms("Fri, 31 Dec 9999 23:59:59 GMT", 0),
        Some(253_402_300_799_000)
    );
    assert_eq!(
        parse_http_date_ms("Fri Dec 31 23:59:59 9999", u64::MAX),
        Some(253_402_300_799_000)
    );
    // Two-digit years relative to any clock, even the end of time.
    for now in [0, 1_700_000_000_000, 253_402_300_799_000, u64::MAX] {
        assert!(parse_http_date_ms("Sunday, 06-Nov-94 08:49:37 GMT", now).is_some());
    }
}

/// Reads one header at a clock; returns the snapshot and the problems.
fn one(name: &str, value: &str, now_ms: u64) -> (RateLimitSnapshot, Vec<HeaderProblem>) {
    let p = RateLimitSnapshot::from_headers([(name, value)], now_ms);
    (p.snapshot, p.malformed.iter().map(|e| e.problem).collect())
}

#[test]
fn headers_at_the_extremes() {
    assert_eq!(one("retry-after", "0", 0).0.retry_after_ms, Some(0));
    assert_eq!(one("retry-after", "-1", 0).1, [HeaderProblem::NotANumber]);
    assert_eq!(
        one("retry-after", "18446744073709551615", 0).1,
        [HeaderProblem::Implausible]
    );
    assert_eq!(
        one("retry-after", "99999999999999999999999", 0).1,
        [HeaderProblem::NotANumber]
    );
    assert_eq!(
        one("retry-after-ms", "18446744073709551615", 0).1,
        [HeaderProblem::Implausible]
    );
    assert_eq!(
        one("x-ratelimit-remaining-tokens", "18446744073709551615", 0)
            .0
            .tokens
            .remaining,
        Some(u64::MAX)
    );
    assert_eq!(
        one("x-ratelimit-remaining-tokens", "18446744073709551616", 0).1,
        [HeaderProblem::NotANumber]
    );
    assert_eq!(
        one("x-ratelimit-remaining-tokens", "-5", 0).1,
        [HeaderProblem::NotANumber]
    );
    assert_eq!(
        one("x-ratelimit-reset-tokens", "-5s", 0).1,
        [HeaderProblem::BadDuration(DurationError::Negative)]
    );
    assert_eq!(
        one("x-ratelimit-reset-tokens", "18446744073709551615ms", 0).1,
        [HeaderProblem::Implausible]
    );
    assert_eq!(
        one("x-ratelimit-reset-tokens", "0s", 0).0.tokens.reset_ms,
        Some(0)
    );
    // Dates: 1970 is in the past of any real clock, 9999 is implausibly far, and at the end of time every date
    // is in the past; at the epoch itself, the epoch is now.
    let epoch = "1970-01-01T00:00:00Z";
    let far = "9999-12-31T23:59:59Z";
    let h = "anthropic-ratelimit-tokens-reset";
    assert_eq!(one(h, epoch, 0).0.tokens.reset_ms, Some(0));
    assert_eq!(
        one(h, epoch, 1_700_000_000_000).1,
        [HeaderProblem::InThePast]
    );
    assert_eq!(
        one(h, far, 1_700_000_000_000).1,
        [HeaderProblem::Implausible]
    );
    assert_eq!(one(h, far, u64::MAX).1, [HeaderProblem::InThePast]);
    assert_eq!(one(h, far, 253_402_300_799_000).0.tokens.reset_ms, Some(0));
    assert_eq!(
        one(
            "retry-after",
            "Thu, 01 Jan 1970 00:00:00 GMT",
            1_700_000_000_000
        )
        .1,
        [HeaderProblem::InThePast]
    );
    assert_eq!(
        one("retry-after", "Fri, 31 Dec 9999 23:59:59 GMT", 0).1,
        [HeaderProblem::Implausible]
    );
    // Unix timestamps in reset headers, at the ends of the clock.
    assert_eq!(
        one(
            "x-ratelimit-reset-requests",
            "1700000060",
            1_700_000_000_000
        )
        .0
        .requests
        .reset_ms,
        Some(60_000)
    );
    assert_eq!(
        one("x-ratelimit-reset-requests", "9999999999999999", u64::MAX).1,
        [HeaderProblem::InThePast]
    );
    let (s, bad) = one("x-ratelimit-reset-requests", "9999999999999999", 0);
    assert_eq!(
        (s.requests.reset_ms, bad),
        (None, vec![HeaderProblem::Implausible])
    );
}

#[test]
fn retry_policy_at_the_extremes() {
    let refusal = |after: Option<u64>| {
        let mut r = classify(
            Some(429),
            Headers::new().iter(),
            r#"{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached for requests"}}"#,
            0,
        );
        r.retry_after_ms = after;
        r
    };
    let b = RetryPolicy::default();
    assert_eq!(
        next_action(&refusal(Some(u64::MAX)), 0, &b, 0, 0.5),
        Action::Fallback {
            reason: FallbackReason::WaitExceedsCap
        }
    );
    assert_eq!(
        next_action(&refusal(Some(0)), 0, &b, u64::MAX, 0.0),
        Action::Retry { after_ms: 0 }
    );
    for now in [0, u64::MAX] {
        for u in [
            0.0,
            0.999_999_999,
            1.0,
            -1.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            match next_action(&refusal(None), 0, &b, now, u) {
                Action::Retry { after_ms } => assert!((b.base_ms..=b.cap_ms).contains(&after_ms)),
                other => panic!("{other:?}"),
            }
        }
    }
    // A deadline at the end of time, and one already past.
    let late = RetryPolicy::with_deadline(u64::MAX, u64::MAX);
    assert_eq!(late.deadline_ms, Some(u64::MAX));
    assert!(matches!(
        next_action(&refusal(Some(1000)), 0, &late, u64::MAX, 0.5),
        Action::Fallback {
            reason: FallbackReason::DeadlineTooShort
        }
    ));
    let huge = RetryPolicy {
        base_ms: u64::MAX,
        cap_ms: u64::MAX,
        max_attempts: u32::MAX,
        ..b
    };
    assert_eq!(huge.backoff_ms(u32::MAX), u64::MAX);
    assert_eq!(huge.worst_plan_ms(0, u64::MAX), u64::MAX);
    assert!(matches!(
        next_action(&refusal(Some(u64::MAX)), u32::MAX - 1, &huge, 0, 0.999),
        Action::Retry { after_ms: u64::MAX }
    ));
    assert!(matches!(
        next_action(&refusal(None), u32::MAX, &huge, 0, 0.5),
        Action::Fallback { .. }
    ));
}

#[test]
fn preflight_at_the_extremes() {
    for bad in [-1.0, f64::NAN, f64::INFINITY, 0.5, 1e300] {
        assert!(matches!(
            limit_from_f64(Dimension::Tokens, bad),
            Err(PreflightError::InvalidLimit { .. })
        ));
        assert!(matches!(
            count_from_f64("tokens", bad),
            Err(PreflightError::InvalidCount { .. })
        ));
    }
    assert_eq!(
        limit_from_f64(Dimension::Tokens, 0.0),
        Err(PreflightError::ZeroLimit {
            dimension: Dimension::Tokens
        })
    );
    assert_eq!(count_from_f64("tokens", 0.0), Ok(0));
    for (max, ok) in [
        ("0", true),
        ("-1", false),
        ("1e20", false),
        ("1.5", false),
        ("9000000000000000", true),
    ] {
        let body =
            format!(r#"{{"messages":[{{"role":"user","content":"hi"}}],"max_tokens":{max}}}"#);
        assert_eq!(
            estimate_request(&body, None, None).is_ok(),
            ok,
            "max_tokens {max}"
        );
    }
    // Limits and clocks at the ends of their ranges: a typed verdict every time.
    for now in [0, 1, u64::MAX / 2, u64::MAX] {
        let st = State::new(
            Budget::new(Provider::OpenAi)
                .tokens_per_minute(nz(u64::MAX))
                .requests_per_minute(nz(1))
                .context_window(nz(u64::MAX)),
            now,
        );
        let c = st.check(
            &Cost::exact(u64::MAX).with_max_output(u64::MAX),
            Policy::Median,
            now,
        );
        assert_eq!(c.verdict, Verdict::Sendable, "at {now}");
        // A clock behind the state's own time: the wait is until the state's time.
        let c = st.check(&Cost::exact(1), Policy::Conservative, 0);
        match c.verdict {
            Verdict::Sendable => assert_eq!(now, 0),
            Verdict::Queueable { wait_ms, .. } => assert_eq!(wait_ms, now),
            other => panic!("{other:?}"),
        }
        let st = State::new(Budget::new(Provider::Groq).tokens_per_minute(nz(1)), now);
        let c = st.check(&Cost::exact(2), Policy::Median, now);
        assert!(matches!(
            c.verdict,
            Verdict::NeverSendable { excess: 1, .. }
        ));
    }
    let mut st = State::new(
        Budget::new(Provider::OpenAi).tokens_per_minute(nz(1000)),
        u64::MAX - 10,
    );
    st.take(&PerDimension::from_fn(|_| u64::MAX), u64::MAX - 10);
    let c = st.check(&Cost::exact(1000), Policy::Median, u64::MAX);
    assert!(matches!(c.verdict, Verdict::Queueable { .. }), "{c:?}");
}

/// Found by the retry property test: `worst_plan_ms` looped once per allowed attempt, so a policy allowing
/// `u32::MAX` attempts with a deadline took minutes per decision. Now constant time, and the same sums.
#[test]
fn worst_plan_is_constant_time_and_unchanged() {
    let t = Instant::now();
    let b = RetryPolicy {
        max_attempts: u32::MAX,
        deadline_ms: Some(60_000),
        ..RetryPolicy::default()
    };
    let mut r = classify(
        Some(429),
        Headers::new().iter(),
        r#"{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached for requests"}}"#,
        0,
    );
    r.retry_after_ms = None;
    assert!(matches!(
        next_action(&r, 0, &b, 0, 0.5),
        Action::Fallback {
            reason: FallbackReason::DeadlineTooShort
        }
    ));
    assert_eq!(
        b.worst_plan_ms(0, 7),
        7 + 1000 + 2000 + 4000 + 8000 + 16_000 + 20_000 * (u64::from(u32::MAX) - 6)
    );
    assert_eq!(RetryPolicy { base_ms: 0, ..b }.worst_plan_ms(3, 5), 5);
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    // Against the plain sum, for small policies.
    for base_ms in [0, 1, 7, 500, 20_000, u64::MAX] {
        for cap_ms in [0, 1, 600, 20_000, u64::MAX] {
            for max_attempts in 0..70 {
                let b = RetryPolicy {
                    base_ms,
                    cap_ms,
                    max_attempts,
                    ..RetryPolicy::default()
                };
                for attempt in [0, 1, 5, 69, u32::MAX] {
                    for first in [0, 123, u64::MAX] {
                        let mut sum = first;
                        for a in attempt.saturating_add(1)..max_attempts {
                            sum = sum.saturating_add(b.backoff_ms(a));
                        }
                        assert_eq!(
                            b.worst_plan_ms(attempt, first),
                            sum,
                            "{b:?} {attempt} {first}"
                        );
                    }
                }
            }
        }
    }
}

/// Found by the verdict property test: waits were computed on absolute times as f64, whose fraction is lost at
/// large clocks (1/32 ms at 2^48), so the ceiling could fall short and the request was still queueable after
/// waiting the stated wait. Now computed as offsets from the check's time.
#[test]
fn the_stated_wait_suffices_at_large_clocks() {
    for now in [
        1_700_000_000_000u64,
        281_474_889_879_522,
        1 << 52,
        u64::MAX / 2,
    ] {
        for (limit, taken) in [
            (97u64, 140_473u64),
            (38_348, 77_777),
            (1_000_000, 2_345_678),
            (7, 100),
        ] {
            let budget = Budget::new(Provider::OpenAi).output_tokens_per_minute(nz(limit));
            let mut st = State::new(budget, now);
            st.take(
                &PerDimension::from_fn(|d| {
                    if d == Dimension::OutputTokens {
                        taken
                    } else {
                        0
                    }
                }),
                now,
            );
            let cost = Cost::exact(0);
            let wait = match st.check(&cost, Policy::Median, now).verdict {
                Verdict::Queueable { wait_ms, .. } => wait_ms,
                other => panic!("{other:?}"),
            };
            let later = st.check(&cost, Policy::Median, now + wait);
            assert_eq!(
                later.verdict,
                Verdict::Sendable,
                "limit {limit}, taken {taken}, now {now}, wait {wait}"
            );
        }
    }
}
