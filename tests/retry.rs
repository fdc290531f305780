//! The next move after a refusal: deterministic jitter, deadlines, breaker transitions, the retry budget.

use llm_preflight::{classify, Refusal, RefusalKind};
use llm_preflight::{
    next_action, Action, BreakerConfig, BreakerState, CircuitBreaker, CircuitBreakers,
    FallbackReason, GiveUpReason, RetryBudget, RetryPolicy,
};

const RATE_429: &str =
    r#"{"error":{"type":"rate_limit_exceeded","message":"Rate limit reached for requests"}}"#;

fn rate_limited(retry_after: Option<&str>) -> Refusal {
    let h: Vec<(&str, &str)> = retry_after
        .map(|v| vec![("retry-after", v)])
        .unwrap_or_default();
    classify(Some(429), h, RATE_429, 0)
}

/// A fixed pseudo-random source (a linear congruential generator): the same seed gives the same draws.
fn draws(seed: u64, n: usize) -> Vec<f64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect()
}

fn after(a: Action) -> u64 {
    match a {
        Action::Retry { after_ms } => after_ms,
        other => panic!("expected a retry, got {other:?}"),
    }
}

#[test]
fn jitter_spreads_workers_and_stays_within_retry_after_and_cap() {
    let budget = RetryPolicy::default();
    let r = rate_limited(Some("2"));
    assert_eq!(r.retry_after_ms, Some(2000));
    for attempt in 0..budget.max_attempts {
        let delays: Vec<u64> = draws(42 + u64::from(attempt), 16)
            .into_iter()
            .map(|u| after(next_action(&r, attempt, &budget, 0, u)))
            .collect();
        let mut distinct = delays.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(
            distinct.len() >= 14,
            "workers refused together must not return together: {delays:?}"
        );
        assert!(
            delays.iter().all(|d| (2000..=budget.cap_ms).contains(d)),
            "{delays:?}"
        );
    }
    // Deterministic: the same draw gives the same delay.
    assert_eq!(
        next_action(&r, 1, &budget, 0, 0.25),
        next_action(&r, 1, &budget, 0, 0.25)
    );
}

#[test]
fn without_retry_after_backoff_grows_and_is_never_immediate() {
    let budget = RetryPolicy::default();
    let r = rate_limited(None);
    assert_eq!(r.retry_after_ms, None);
    for attempt in 0..budget.max_attempts {
        for u in [0.0, 0.5, 0.999_999] {
            let d = after(next_action(&r, attempt, &budget, 0, u));
            let hi = budget.backoff_ms(attempt + 1);
            assert!(
                d >= budget.base_ms && d <= hi,
                "attempt {attempt}, u {u}: {d} not in [{}, {hi}]",
                budget.base_ms
            );
        }
    }
    let top0 = after(next_action(&r, 0, &budget, 0, 0.999_999));
    let top2 = after(next_action(&r, 2, &budget, 0, 0.999_999));
    assert!(top2 > top0 * 3, "exponential: {top0} then {top2}");
    // Out-of-range draws are clamped, not trusted.
    assert_eq!(
        after(next_action(&r, 0, &budget, 0, f64::NAN)),
        budget.base_ms
    );
    assert!(after(next_action(&r, 0, &budget, 0, 7.0)) <= budget.backoff_ms(1));
}

#[test]
fn a_wait_beyond_the_cap_falls_back() {
    // Azure's "Please retry after 86400 seconds".
    let r = rate_limited(Some("86400"));
    assert_eq!(
        next_action(&r, 0, &RetryPolicy::default(), 0, 0.5),
        Action::Fallback {
            reason: FallbackReason::WaitExceedsCap
        }
    );
}

#[test]
fn a_three_second_conversational_budget_falls_back_on_the_first_429() {
    let now = 1_000_000;
    let short = RetryPolicy::with_deadline(now, 3000);
    for r in [
        rate_limited(None),
        rate_limited(Some("1")),
        rate_limited(Some("6")),
    ] {
        assert_eq!(
            next_action(&r, 0, &short, now, 0.5),
            Action::Fallback {
                reason: FallbackReason::DeadlineTooShort
            }
        );
    }
    // With 25 seconds the same refusals are retried here.
    let long = RetryPolicy::with_deadline(now, 25_000);
    assert!(matches!(
        next_action(&rate_limited(None), 0, &long, now, 0.5),
        Action::Retry { .. }
    ));
    assert!(matches!(
        next_action(&rate_limited(Some("6")), 0, &long, now, 0.5),
        Action::Retry { .. }
    ));
    // A deadline already past.
    assert_eq!(
        next_action(&rate_limited(None), 0, &long, now + 30_000, 0.5),
        Action::Fallback {
            reason: FallbackReason::DeadlineTooShort
        }
    );
}

#[test]
fn kinds_map_to_their_moves() {
    let b = RetryPolicy::default();
    let too_large = classify(
        Some(413),
        [("x", "y")],
        r#"{"error":{"message":"Request too large for model `m` on tokens per minute (TPM): Limit 8000, Requested 8478, please reduce your message size and try again","type":"tokens","code":"rate_limit_exceeded"}}"#,
        0,
    );
    assert_eq!(
        next_action(&too_large, 0, &b, 0, 0.5),
        Action::Shrink {
            by_tokens: Some(478)
        }
    );
    let context = classify(
        Some(400),
        [("x", "y")],
        r#"{"error":{"message":"This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens.","code":"context_length_exceeded"}}"#,
        0,
    );
    assert_eq!(
        next_action(&context, 0, &b, 0, 0.5),
        Action::Shrink {
            by_tokens: Some(197)
        }
    );
    let quota = classify(
        Some(429),
        [("x", "y")],
        r#"{"error":{"code":"insufficient_quota","message":"You exceeded your current quota"}}"#,
        0,
    );
    assert_eq!(
        next_action(&quota, 0, &b, 0, 0.5),
        Action::GiveUp {
            reason: GiveUpReason::QuotaExhausted
        }
    );
    let auth = classify(
        Some(401),
        [("x", "y")],
        r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
        0,
    );
    assert_eq!(
        next_action(&auth, 0, &b, 0, 0.5),
        Action::GiveUp {
            reason: GiveUpReason::NotRetryable
        }
    );
    // Attempts spent.
    assert_eq!(
        next_action(&rate_limited(None), 3, &b, 0, 0.5),
        Action::Fallback {
            reason: FallbackReason::AttemptsExhausted
        }
    );
}

#[test]
fn repeated_overload_falls_back() {
    let b = RetryPolicy::default();
    let over = classify(
        Some(529),
        [("x", "y")],
        r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
        0,
    );
    assert_eq!(over.kind, RefusalKind::Overloaded);
    assert!(matches!(
        next_action(&over, 0, &b, 0, 0.5),
        Action::Retry { .. }
    ));
    assert_eq!(
        next_action(&over, 1, &b, 0, 0.5),
        Action::Fallback {
            reason: FallbackReason::RepeatedOverload
        }
    );
}

#[test]
fn resending_after_output_or_side_effects_needs_an_idempotency_key() {
    let stream = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\ndata: {\"error\":{\"message\":\"Rate limit reached for requests\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}\n\n";
    let r = classify(Some(200), [("x", "y")], stream, 0);
    assert!(r.output_delivered);
    assert_eq!(r.kind, RefusalKind::RateLimitRequests);
    let b = RetryPolicy::default();
    assert_eq!(
        next_action(&r, 0, &b, 0, 0.5),
        Action::GiveUp {
            reason: GiveUpReason::UnsafeToResend
        }
    );
    let keyed = RetryPolicy {
        idempotency_key: true,
        ..b
    };
    assert!(matches!(
        next_action(&r, 0, &keyed, 0, 0.5),
        Action::Retry { .. }
    ));
    let tool_ran = RetryPolicy {
        side_effects_ran: true,
        ..b
    };
    assert_eq!(
        next_action(&rate_limited(None), 0, &tool_ran, 0, 0.5),
        Action::GiveUp {
            reason: GiveUpReason::UnsafeToResend
        }
    );
}

#[test]
fn actions_serialize_with_snake_case_tags() {
    let j = |a: Action| serde_json::to_string(&a).unwrap();
    assert_eq!(
        j(Action::Retry { after_ms: 6250 }),
        r#"{"type":"retry","after_ms":6250}"#
    );
    assert_eq!(
        j(Action::Fallback {
            reason: FallbackReason::DeadlineTooShort
        }),
        r#"{"type":"fallback","reason":"deadline_too_short"}"#
    );
    assert_eq!(
        j(Action::Shrink {
            by_tokens: Some(478)
        }),
        r#"{"type":"shrink","by_tokens":478}"#
    );
    assert_eq!(
        j(Action::GiveUp {
            reason: GiveUpReason::QuotaExhausted
        }),
        r#"{"type":"give_up","reason":"quota_exhausted"}"#
    );
}

#[test]
fn breaker_opens_probes_and_closes() {
    let mut b = CircuitBreaker::new(BreakerConfig {
        failure_threshold: 3,
        open_ms: 10_000,
    });
    let r = rate_limited(None);
    assert!(b.allow(0));
    b.on_refusal(&r, 0);
    b.on_refusal(&r, 1);
    assert_eq!(b.state(1), BreakerState::Closed);
    b.on_success(2);
    b.on_refusal(&r, 3);
    b.on_refusal(&r, 4);
    assert_eq!(
        b.state(4),
        BreakerState::Closed,
        "a success resets the count"
    );
    b.on_refusal(&r, 5);
    assert_eq!(b.state(5), BreakerState::Open);
    assert!(!b.allow(9_999), "skipped without a round trip while open");
    assert_eq!(b.state(10_005), BreakerState::HalfOpen);
    assert!(b.allow(10_005), "one probe");
    assert!(!b.allow(10_006), "only one probe at a time");
    b.on_failure(10_010);
    assert_eq!(
        b.state(10_010),
        BreakerState::Open,
        "a failed probe reopens"
    );
    assert!(!b.allow(15_000));
    assert!(b.allow(20_010));
    b.on_success(20_020);
    assert_eq!(b.state(20_020), BreakerState::Closed);
    assert!(b.allow(20_021));
}

#[test]
fn request_faults_do_not_trip_the_breaker() {
    let mut b = CircuitBreaker::new(BreakerConfig {
        failure_threshold: 1,
        open_ms: 1000,
    });
    let ctx = classify(
        Some(400),
        [("x", "y")],
        r#"{"error":{"code":"context_length_exceeded","message":"too long"}}"#,
        0,
    );
    b.on_refusal(&ctx, 0);
    assert_eq!(b.state(0), BreakerState::Closed);
    let mut set = CircuitBreakers::new(BreakerConfig {
        failure_threshold: 1,
        open_ms: 1000,
    });
    set.get("groq").on_refusal(&rate_limited(None), 0);
    assert_eq!(set.state("groq", 10), BreakerState::Open);
    assert_eq!(
        set.state("openai", 10),
        BreakerState::Closed,
        "breakers are per provider"
    );
}

#[test]
fn retry_budget_caps_extra_load_at_the_ratio() {
    let mut budget = RetryBudget::new(0.1, 0.0, 100.0);
    let mut retries = 0;
    for i in 0..1000u64 {
        budget.on_request(i);
        if budget.try_retry(i) {
            retries += 1;
        }
    }
    assert_eq!(retries, 100, "10% of 1000 requests");
    // Empty budget: a retry becomes a fallback.
    assert_eq!(
        budget.gate(Action::Retry { after_ms: 5 }, 1000),
        Action::Fallback {
            reason: FallbackReason::RetryBudgetExhausted
        }
    );
    assert_eq!(
        budget.gate(Action::Shrink { by_tokens: None }, 1000),
        Action::Shrink { by_tokens: None }
    );
    // The per-second floor refills with time.
    // A fresh budget holds one second of its floor: a service that just started can retry its first failure.
    let mut floor = RetryBudget::new(0.0, 1.0, 10.0);
    floor.on_request(0);
    assert!(floor.try_retry(0));
    assert!(!floor.try_retry(0));
    assert!(floor.try_retry(1000));
    assert!(!floor.try_retry(1000));
    assert!(RetryBudget::new(f64::NAN, -1.0, f64::INFINITY).available() == 0.0);
}
