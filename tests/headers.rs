//! Every rate-limit header shape, each with where it was seen.

use llm_preflight::internals::headers::{parse_http_date_ms, parse_rfc3339_ms};
use llm_preflight::{parse_duration_ms, DurationError, HeaderProblem, Headers, RateLimitSnapshot};

/// 2024-03-13T18:31:00Z in Unix milliseconds.
const NOW: u64 = 1_710_354_660_000;

fn snap(h: &[(&str, &str)], now: u64) -> RateLimitSnapshot {
    let p = RateLimitSnapshot::from_headers(h.iter().copied(), now);
    assert!(
        p.malformed.is_empty(),
        "unexpected malformed headers: {:?}",
        p.malformed
    );
    p.snapshot
}

#[test]
fn openai_docs_example() {
    // platform.openai.com/docs/guides/rate-limits ("Rate limits in headers").
    let s = snap(
        &[
            ("x-ratelimit-limit-requests", "60"),
            ("x-ratelimit-limit-tokens", "150000"),
            ("x-ratelimit-remaining-requests", "59"),
            ("x-ratelimit-remaining-tokens", "149984"),
            ("x-ratelimit-reset-requests", "1s"),
            ("x-ratelimit-reset-tokens", "6m0s"),
        ],
        NOW,
    );
    assert_eq!(
        (s.requests.limit, s.requests.remaining, s.requests.reset_ms),
        (Some(60), Some(59), Some(1000))
    );
    assert_eq!(
        (s.tokens.limit, s.tokens.remaining, s.tokens.reset_ms),
        (Some(150_000), Some(149_984), Some(360_000))
    );
    assert_eq!(s.retry_after_ms, None, "absent means unknown, not zero");
    assert!(s.input_tokens.is_unknown() && s.output_tokens.is_unknown());
}

#[test]
fn openai_millisecond_resets() {
    // github.com/openai/openai-python/issues/416 (`17ms`); community.openai.com/t/1268905 (`12ms`, `9ms`, and the
    // `_usage_based` variants, which are not the per-minute budget and are ignored).
    let s = snap(
        &[
            ("x-ratelimit-limit-requests", "3500"),
            ("x-ratelimit-remaining-requests", "3499"),
            ("x-ratelimit-reset-requests", "17ms"),
            ("x-ratelimit-reset-tokens", "9ms"),
            ("x-ratelimit-limit-tokens_usage_based", "160000"),
            ("x-ratelimit-reset-tokens_usage_based", "9ms"),
        ],
        NOW,
    );
    assert_eq!(s.requests.reset_ms, Some(17));
    assert_eq!(s.tokens.reset_ms, Some(9));
    assert_eq!(s.tokens.limit, None);
}

#[test]
fn background_shapes_577ms_and_5_94s() {
    // /work/shared/background/peak-at-4-percent.txt and crossing-the-ceiling.txt.
    let s = snap(
        &[
            ("x-ratelimit-limit-requests", "1000"),
            ("x-ratelimit-remaining-requests", "999"),
            ("x-ratelimit-limit-tokens", "8000"),
            ("x-ratelimit-remaining-tokens", "7923"),
            ("x-ratelimit-reset-tokens", "577ms"),
        ],
        NOW,
    );
    assert_eq!(
        (s.tokens.limit, s.tokens.remaining, s.tokens.reset_ms),
        (Some(8000), Some(7923), Some(577))
    );
    let s = snap(
        &[
            ("retry-after", "6"),
            ("x-ratelimit-reset-tokens", "5.94s"),
            ("x-ratelimit-remaining-tokens", "0"),
        ],
        NOW,
    );
    assert_eq!(s.retry_after_ms, Some(6000));
    assert_eq!(
        s.tokens.reset_ms,
        Some(5940),
        "5.94s is exactly 5940 ms, no float rounding"
    );
    assert_eq!(
        s.tokens.remaining,
        Some(0),
        "zero is a value, distinct from absent"
    );
}

#[test]
fn groq_docs_example() {
    // console.groq.com/docs/rate-limits ("Rate limit headers"): RPD resets in `2m59.56s`.
    let s = snap(
        &[
            ("retry-after", "2"),
            ("x-ratelimit-limit-requests", "14400"),
            ("x-ratelimit-limit-tokens", "18000"),
            ("x-ratelimit-remaining-requests", "14370"),
            ("x-ratelimit-remaining-tokens", "17997"),
            ("x-ratelimit-reset-requests", "2m59.56s"),
            ("x-ratelimit-reset-tokens", "7.66s"),
        ],
        NOW,
    );
    assert_eq!(s.requests.reset_ms, Some(179_560));
    assert_eq!(s.tokens.reset_ms, Some(7660));
    assert_eq!(s.retry_after_ms, Some(2000));
}

#[test]
fn go_style_durations() {
    // Issue 4 quotes `1m0.363142857s` (a Go time.Duration printed as is); fractions round up, never down.
    assert_eq!(parse_duration_ms("1m0.363142857s"), Ok(60_364));
    assert_eq!(parse_duration_ms("6m0s"), Ok(360_000));
    assert_eq!(parse_duration_ms("20ms"), Ok(20));
    assert_eq!(parse_duration_ms("1h2m3s"), Ok(3_723_000));
    assert_eq!(parse_duration_ms("250us"), Ok(1));
    assert_eq!(parse_duration_ms("1500µs"), Ok(2));
    assert_eq!(parse_duration_ms("0s"), Ok(0));
    assert_eq!(parse_duration_ms(" 6 "), Ok(6000), "plain seconds");
    assert_eq!(parse_duration_ms("0.5"), Ok(500));
    assert_eq!(parse_duration_ms(""), Err(DurationError::Empty));
    assert_eq!(parse_duration_ms("-1s"), Err(DurationError::Negative));
    assert_eq!(parse_duration_ms("1m30"), Err(DurationError::MissingUnit));
    assert_eq!(parse_duration_ms("5d"), Err(DurationError::UnknownUnit));
    assert!(parse_duration_ms("soon").is_err());
    assert!(parse_duration_ms("1..2s").is_err());
    assert_eq!(
        parse_duration_ms("99999999999999999999999h"),
        Err(DurationError::Overflow)
    );
}

#[test]
fn anthropic_rfc3339_resets() {
    // docs.anthropic.com/en/api/rate-limits#response-headers: resets are RFC 3339 timestamps, and input and output
    // tokens are metered apart.
    let s = snap(
        &[
            ("anthropic-ratelimit-requests-limit", "50"),
            ("anthropic-ratelimit-requests-remaining", "49"),
            ("anthropic-ratelimit-requests-reset", "2024-03-13T18:31:01Z"),
            ("anthropic-ratelimit-tokens-limit", "100000"),
            ("anthropic-ratelimit-tokens-remaining", "96000"),
            (
                "anthropic-ratelimit-tokens-reset",
                "2024-03-13T18:31:10.250Z",
            ),
            ("anthropic-ratelimit-input-tokens-limit", "30000"),
            ("anthropic-ratelimit-input-tokens-remaining", "0"),
            (
                "anthropic-ratelimit-input-tokens-reset",
                "2024-03-13T19:31:30+01:00",
            ),
            ("anthropic-ratelimit-output-tokens-limit", "8000"),
            ("anthropic-ratelimit-output-tokens-remaining", "8000"),
            (
                "Anthropic-Ratelimit-Output-Tokens-Reset",
                "2024-03-13T18:31:00Z",
            ),
            ("retry-after", "30"),
        ],
        NOW,
    );
    assert_eq!(s.requests.reset_ms, Some(1000));
    assert_eq!(s.tokens.reset_ms, Some(10_250));
    assert_eq!(
        (
            s.input_tokens.limit,
            s.input_tokens.remaining,
            s.input_tokens.reset_ms
        ),
        (Some(30_000), Some(0), Some(30_000))
    );
    assert_eq!(s.output_tokens.reset_ms, Some(0));
    assert_eq!(s.retry_after_ms, Some(30_000));
}

#[test]
fn retry_after_http_dates_in_all_three_forms() {
    // RFC 9110 §5.6.7: the IMF-fixdate and the two obsolete forms must all be accepted.
    let now = 784_111_777_000 - 10_000; // ten seconds before Sun, 06 Nov 1994 08:49:37 GMT
    for form in [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
    ] {
        let s = snap(&[("Retry-After", form)], now);
        assert_eq!(s.retry_after_ms, Some(10_000), "{form}");
    }
    // RFC 9110 §10.2.3's example date, and /work/shared/background/chaos-testing-429.txt's.
    assert_eq!(
        parse_http_date_ms("Fri, 31 Dec 1999 23:59:59 GMT", 0),
        Some(946_684_799_000)
    );
    let at = parse_http_date_ms("Wed, 12 Aug 2026 09:31:00 GMT", 0).unwrap();
    let s = snap(
        &[("retry-after", "Wed, 12 Aug 2026 09:31:00 GMT")],
        (at - 90_000) as u64,
    );
    assert_eq!(s.retry_after_ms, Some(90_000));
    assert_eq!(
        parse_http_date_ms("Sun, 06 Nov 1994 08:49:37 UTC", 0),
        None,
        "only GMT is allowed"
    );
    assert_eq!(parse_http_date_ms("Sun, 31 Feb 1994 08:49:37 GMT", 0), None);
}

#[test]
fn fractional_and_millisecond_retry_after() {
    // Fractional delay-seconds are seen from proxies; `retry-after-ms` is what the OpenAI SDKs read first
    // (github.com/openai/openai-python, _base_client.py), and Azure sends `x-ms-retry-after-ms`
    // (learn.microsoft.com, Azure OpenAI quota docs).
    assert_eq!(
        snap(&[("retry-after", "1.5")], NOW).retry_after_ms,
        Some(1500)
    );
    assert_eq!(
        snap(&[("retry-after", "6"), ("retry-after-ms", "5940")], NOW).retry_after_ms,
        Some(5940)
    );
    assert_eq!(
        snap(&[("x-ms-retry-after-ms", "2500.4")], NOW).retry_after_ms,
        Some(2501)
    );
}

#[test]
fn azure_minus_one_sentinels_are_unknown() {
    // github.com/openai/openai-dotnet/issues/838 (Azure OpenAI, Responses API).
    let s = snap(
        &[
            ("x-ratelimit-limit-tokens", "-1"),
            ("x-ratelimit-remaining-tokens", "-1"),
            ("x-ratelimit-reset-tokens", "0"),
        ],
        NOW,
    );
    assert_eq!(s.tokens.limit, None);
    assert_eq!(s.tokens.remaining, None);
    assert_eq!(
        s.tokens.reset_ms, None,
        "a 0 reset beside -1 sentinels is not a real reset"
    );
    assert!(s.is_empty());
}

#[test]
fn azure_partial_headers_and_hyphenated_spelling() {
    // github.com/EvolvingPrograms/oaib/issues/11 (Azure sends only remaining-*), and
    // github.com/openai/openai-python/issues/937 (Azure's `x-rate-limit-reset-tokens: 55`, plain seconds).
    let s = snap(
        &[
            ("x-ratelimit-remaining-requests", "79"),
            ("x-ratelimit-remaining-tokens", "61353"),
        ],
        NOW,
    );
    assert_eq!(
        (s.requests.remaining, s.tokens.remaining),
        (Some(79), Some(61_353))
    );
    assert_eq!((s.requests.limit, s.tokens.limit), (None, None));
    let s = snap(&[("x-rate-limit-reset-tokens", "55")], NOW);
    assert_eq!(s.tokens.reset_ms, Some(55_000));
}

#[test]
fn cerebras_style_minute_suffix() {
    // Cerebras names its per-minute headers with a `-minute` suffix (`x-ratelimit-remaining-tokens-minute`);
    // not verified against a captured response. The `-day` ones are a different window and are not mixed in.
    let s = snap(
        &[
            ("x-ratelimit-limit-tokens-minute", "60000"),
            ("x-ratelimit-remaining-tokens-minute", "59000"),
            ("x-ratelimit-reset-tokens-minute", "11.382867097854614"),
            ("x-ratelimit-remaining-requests-day", "14000"),
        ],
        NOW,
    );
    assert_eq!(
        (s.tokens.limit, s.tokens.remaining, s.tokens.reset_ms),
        (Some(60_000), Some(59_000), Some(11_383))
    );
    assert_eq!(s.requests.remaining, None);
}

#[test]
fn mistral_abbreviates_requests_as_req() {
    // A Mistral response (github.com/mistralai/client-ts/issues/169): requests are `req-minute`. Read as nothing,
    // a key out of requests looked sendable.
    let s = snap(
        &[
            ("x-ratelimit-limit-tokens-minute", "5000000"),
            ("x-ratelimit-remaining-tokens-minute", "4999911"),
            ("x-ratelimit-tokens-query-cost", "52"),
            ("x-ratelimit-limit-req-minute", "720"),
            ("x-ratelimit-remaining-req-minute", "717"),
        ],
        NOW,
    );
    assert_eq!(
        (s.requests.limit, s.requests.remaining),
        (Some(720), Some(717))
    );
    assert_eq!(s.tokens.remaining, Some(4_999_911));
}

#[test]
fn a_limit_listing_its_quota_policies_gives_the_limit_in_force() {
    // The IETF draft's first form (draft-ietf-httpapi-ratelimit-headers-01): the limit, then each policy. It was
    // refused as malformed, and the CLI gave no verdict.
    let parsed = RateLimitSnapshot::from_headers(
        [
            ("RateLimit-Limit", "5000, 1000;w=3600, 5000;w=86400"),
            ("RateLimit-Remaining", "100"),
            ("RateLimit-Reset", "36000"),
        ],
        NOW,
    );
    assert!(parsed.malformed.is_empty(), "{:?}", parsed.malformed);
    let u = parsed.snapshot.unnamed;
    assert_eq!((u.limit, u.remaining), (Some(5000), Some(100)));
    assert_eq!(u.reset_ms, Some(36_000_000));
    let one = RateLimitSnapshot::from_headers([("RateLimit-Limit", "100, 100;w=60")], NOW);
    assert_eq!(one.snapshot.unnamed.limit, Some(100));
    assert!(
        !RateLimitSnapshot::from_headers([("RateLimit-Limit", ";w=60")], NOW)
            .malformed
            .is_empty()
    );
}

#[test]
fn names_are_case_insensitive() {
    let s = snap(
        &[("X-RateLimit-Remaining-Tokens", "5"), ("RETRY-AFTER", "1")],
        NOW,
    );
    assert_eq!(s.tokens.remaining, Some(5));
    assert_eq!(s.retry_after_ms, Some(1000));
}

#[test]
fn clock_skew_and_absurd_values_never_become_negative_waits() {
    // A reset at the Unix epoch, a date an hour in the past, one a century ahead, epoch-second resets.
    let p = RateLimitSnapshot::from_headers(
        [
            ("anthropic-ratelimit-tokens-reset", "1970-01-01T00:00:00Z"),
            ("retry-after", "Sun, 06 Nov 1994 08:49:37 GMT"),
            ("anthropic-ratelimit-requests-reset", "2124-03-13T18:31:00Z"),
        ],
        NOW,
    );
    assert_eq!(p.snapshot.tokens.reset_ms, None);
    assert_eq!(p.snapshot.retry_after_ms, None);
    assert_eq!(p.snapshot.requests.reset_ms, None);
    let problems: Vec<HeaderProblem> = p.malformed.iter().map(|e| e.problem).collect();
    assert_eq!(
        problems,
        [
            HeaderProblem::InThePast,
            HeaderProblem::InThePast,
            HeaderProblem::Implausible
        ]
    );
    // Up to a second of skew is rounding: the reset is now.
    assert_eq!(
        snap(
            &[(
                "anthropic-ratelimit-tokens-reset",
                "2024-03-13T18:30:59.500Z"
            )],
            NOW
        )
        .tokens
        .reset_ms,
        Some(0)
    );
    // A Unix timestamp in a reset header (seconds or milliseconds) is converted with `now`.
    assert_eq!(
        snap(&[("x-ratelimit-reset-requests", "1710354720")], NOW)
            .requests
            .reset_ms,
        Some(60_000)
    );
    assert_eq!(
        snap(&[("x-ratelimit-reset-requests", "1710354661000")], NOW)
            .requests
            .reset_ms,
        Some(1000)
    );
}

#[test]
fn malformed_values_are_reported_and_the_rest_is_still_read() {
    let p = RateLimitSnapshot::from_headers(
        [
            ("x-ratelimit-remaining-tokens", "lots"),
            ("x-ratelimit-limit-tokens", "NaN"),
            ("x-ratelimit-limit-requests", "-5"),
            ("x-ratelimit-reset-tokens", "soon"),
            ("anthropic-ratelimit-tokens-reset", "yesterday"),
            ("retry-after", "-3"),
            ("x-ratelimit-remaining-requests", "12"),
        ],
        NOW,
    );
    assert_eq!(p.snapshot.requests.remaining, Some(12));
    assert_eq!(p.snapshot.tokens.remaining, None);
    assert_eq!(p.malformed.len(), 6);
    let names: Vec<&str> = p.malformed.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names[0], "x-ratelimit-remaining-tokens");
    assert!(matches!(
        p.malformed[3].problem,
        HeaderProblem::BadDuration(_)
    ));
    assert_eq!(p.malformed[4].problem, HeaderProblem::BadDate);
    let msg = p.malformed[0].to_string();
    assert!(
        msg.contains("x-ratelimit-remaining-tokens") && msg.contains("lots"),
        "{msg}"
    );
}

#[test]
fn rfc3339_parser_edges() {
    assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:00Z"), Some(0));
    assert_eq!(
        parse_rfc3339_ms("1970-01-01T00:00:00.0001Z"),
        Some(1),
        "fractions round up"
    );
    assert_eq!(
        parse_rfc3339_ms("2000-02-29T00:00:00-00:30"),
        Some(951_784_200_000)
    );
    assert_eq!(parse_rfc3339_ms("2023-02-29T00:00:00Z"), None);
    assert_eq!(parse_rfc3339_ms("2024-03-13T25:00:00Z"), None);
    assert_eq!(
        parse_rfc3339_ms("2024-03-13T18:31:10"),
        None,
        "an offset is required"
    );
    assert_eq!(parse_rfc3339_ms("２０２４-03-13T18:31:10Z"), None);
}

#[test]
fn header_input_from_lines_and_json() {
    let raw = "HTTP/1.1 429 Too Many Requests\r\nretry-after: 6\r\nx-ratelimit-limit-tokens: 10000\r\nx-ratelimit-remaining-tokens: 0\r\nx-ratelimit-reset-tokens: 5.94s\r\ncontent-type: application/json\r\n\r\n{\"error\": {}}";
    let h = Headers::parse(raw).unwrap();
    assert_eq!(h.len(), 5, "the status line and the body are not headers");
    assert_eq!(h.get("Retry-After"), Some("6"));
    let s = RateLimitSnapshot::from_headers(&h, NOW).snapshot;
    assert_eq!(
        (s.tokens.remaining, s.tokens.reset_ms, s.retry_after_ms),
        (Some(0), Some(5940), Some(6000))
    );

    let h = Headers::parse(r#"{"retry-after": 6, "x-ratelimit-remaining-tokens": "0", "set-cookie": ["a", "b"], "x": null}"#).unwrap();
    assert_eq!(h.len(), 4);
    assert_eq!(
        RateLimitSnapshot::from_headers(&h, NOW)
            .snapshot
            .retry_after_ms,
        Some(6000)
    );

    assert!(Headers::parse("{not json").is_err());
    assert!(Headers::parse("[1, 2]").is_err());
    assert!(Headers::from_json(r#"{"retry-after": {"nested": 1}}"#).is_err());
    let e = Headers::parse("retry-after: 6\nthis line has no colon").unwrap_err();
    assert!(e.to_string().contains("line 2"), "{e}");
    // A folded continuation line joins the previous value.
    let h = Headers::from_lines("x-note: a\n  b").unwrap();
    assert_eq!(h.get("x-note"), Some("a b"));
    // Pairs from any iterator, e.g. a collected Vec of owned strings.
    let h: Headers = vec![("Retry-After".to_string(), "3".to_string())]
        .into_iter()
        .collect();
    assert_eq!(
        RateLimitSnapshot::from_headers(&h, NOW)
            .snapshot
            .retry_after_ms,
        Some(3000)
    );
}

#[test]
fn windows_that_do_not_name_what_they_count_are_read_apart() {
    // OpenRouter (github.com/BerriAI/litellm/issues/9035, the headers its error metadata repeats): the reset is a
    // Unix timestamp in milliseconds. Requests at OpenRouter, but the names do not say so: neither requests nor
    // tokens take them.
    let s = snap(
        &[
            ("X-RateLimit-Limit", "80"),
            ("X-RateLimit-Remaining", "0"),
            ("X-RateLimit-Reset", "1741305600000"),
        ],
        1_741_305_540_000,
    );
    assert_eq!(
        (s.unnamed.limit, s.unnamed.remaining, s.unnamed.reset_ms),
        (Some(80), Some(0), Some(60_000))
    );
    assert!(s.requests.is_unknown() && s.tokens.is_unknown());
    assert!(!s.is_empty());
    // A reset in Unix seconds (docs.pyannote.ai/ratelimits: "X-RateLimit-Reset: ... in UTC epoch seconds").
    let s = snap(&[("x-ratelimit-reset", "1710354720")], NOW);
    assert_eq!(s.unnamed.reset_ms, Some(60_000));
    // The IETF draft's fields, the reset in seconds (docs.withpersona.com/v2021-07-05/reference/rate-limiting).
    let s = snap(
        &[
            ("ratelimit-limit", "300"),
            ("ratelimit-remaining", "280"),
            ("ratelimit-reset", "53"),
        ],
        NOW,
    );
    assert_eq!(
        (s.unnamed.limit, s.unnamed.remaining, s.unnamed.reset_ms),
        (Some(300), Some(280), Some(53_000))
    );
    // Named windows beside them keep their own (Together sends both kinds).
    let s = snap(
        &[
            ("x-ratelimit-remaining", "3"),
            ("x-ratelimit-remaining-tokens", "0"),
            ("x-ratelimit-reset-tokens", "2s"),
        ],
        NOW,
    );
    assert_eq!(s.unnamed.remaining, Some(3));
    assert_eq!(
        (s.tokens.remaining, s.tokens.reset_ms),
        (Some(0), Some(2000))
    );
    // A policy field and unknown suffixes are not read.
    assert!(snap(
        &[("ratelimit-policy", "100;w=60"), ("x-ratelimit-used", "5")],
        NOW
    )
    .is_empty());
}

#[test]
fn the_drafts_single_ratelimit_field() {
    // draft-polli-ratelimit-headers (early form): `limit=100, remaining=50, reset=5`.
    let s = snap(&[("RateLimit", "limit=100, remaining=50, reset=5")], NOW);
    assert_eq!(
        (s.unnamed.limit, s.unnamed.remaining, s.unnamed.reset_ms),
        (Some(100), Some(50), Some(5000))
    );
    // draft-ietf-httpapi-ratelimit-headers-08 on: one item per quota, `r` remaining and `t` seconds to its reset;
    // of several, the one with least remaining is the one that binds.
    let s = snap(&[("ratelimit", r#""default";r=50;t=30"#)], NOW);
    assert_eq!(
        (s.unnamed.remaining, s.unnamed.reset_ms),
        (Some(50), Some(30_000))
    );
    let s = snap(
        &[("ratelimit", r#""burst";r=7;t=1, "daily";r=0;t=3600"#)],
        NOW,
    );
    assert_eq!(
        (s.unnamed.remaining, s.unnamed.reset_ms),
        (Some(0), Some(3_600_000))
    );
    // Nothing readable in it: a typed problem, the other headers still read.
    let p = RateLimitSnapshot::from_headers([("ratelimit", "soon"), ("retry-after", "2")], NOW);
    assert_eq!(p.malformed.len(), 1);
    assert_eq!(p.malformed[0].problem, HeaderProblem::NotANumber);
    assert_eq!(p.snapshot.retry_after_ms, Some(2000));
    let p = RateLimitSnapshot::from_headers([("ratelimit", r#""default";r=-5;t=1"#)], NOW);
    assert_eq!(p.malformed.len(), 1);
}

#[test]
fn a_bare_429_waits_for_the_unnamed_window_that_ran_out() {
    use llm_preflight::{classify, RefusalKind};
    let r = classify(
        Some(429),
        [
            ("x-ratelimit-limit", "20"),
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset", "20"),
        ],
        "",
        NOW,
    );
    assert_eq!(r.kind, RefusalKind::RateLimitOther);
    assert!(r.retryable);
    assert_eq!(r.retry_after_ms, Some(20_000));
    // A window with room left is not the one that refused: no wait from it.
    let r = classify(
        Some(429),
        [("x-ratelimit-remaining", "12"), ("x-ratelimit-reset", "20")],
        "",
        NOW,
    );
    assert_eq!(r.retry_after_ms, None);
    // A named window that ran out is preferred to it.
    let r = classify(
        Some(429),
        [
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset", "20"),
            ("x-ratelimit-remaining-tokens", "0"),
            ("x-ratelimit-reset-tokens", "3s"),
        ],
        "",
        NOW,
    );
    assert_eq!(
        (r.kind, r.retry_after_ms),
        (RefusalKind::RateLimitTokens, Some(3000))
    );
}

#[test]
fn windows_of_a_day_an_hour_and_a_month() {
    // Cerebras's docs ("In the response, look for headers like these"): a day's requests beside a minute's tokens.
    let s = snap(
        &[
            ("x-ratelimit-limit-requests-day", "1000000000"),
            ("x-ratelimit-limit-tokens-minute", "1000000000"),
            ("x-ratelimit-remaining-requests-day", "999997455"),
            ("x-ratelimit-remaining-tokens-minute", "999998298"),
            ("x-ratelimit-reset-requests-day", "33011.382867097855"),
            ("x-ratelimit-reset-tokens-minute", "11.382867097854614"),
        ],
        NOW,
    );
    assert_eq!(
        (
            s.requests_per_day.limit,
            s.requests_per_day.remaining,
            s.requests_per_day.reset_ms
        ),
        (Some(1_000_000_000), Some(999_997_455), Some(33_011_383))
    );
    assert!(s.requests.is_unknown());
    assert_eq!(s.tokens.remaining, Some(999_998_298));
    // Mistral's month (an incident note: "All 4 million monthly tokens used up, HTTP 429 errors on every request")
    // and an hour's window (Nous Research's `-1h` headers): of several, the one with least remaining.
    let s = snap(
        &[
            ("x-ratelimit-limit-tokens-month", "4000000"),
            ("x-ratelimit-remaining-tokens-month", "0"),
            ("X-RateLimit-Remaining-Requests-1h", "17"),
            ("X-RateLimit-Reset-Requests-1h", "1800"),
        ],
        NOW,
    );
    assert_eq!(
        (
            s.long_window.limit,
            s.long_window.remaining,
            s.long_window.reset_ms
        ),
        (Some(4_000_000), Some(0), None)
    );
    assert!(s.requests.is_unknown() && s.tokens.is_unknown());
    // Of two spent windows, the one that resets last, in either order; an unstated reset counts as last.
    let hour = [
        ("x-ratelimit-remaining-requests-1h", "0"),
        ("x-ratelimit-reset-requests-1h", "600"),
    ];
    let tokens = [
        ("x-ratelimit-remaining-tokens-1h", "0"),
        ("x-ratelimit-reset-tokens-1h", "2400"),
    ];
    let month = [("x-ratelimit-remaining-tokens-month", "0")];
    for (a, b, want) in [
        (&hour[..], &tokens[..], Some(2_400_000)),
        (&tokens[..], &hour[..], Some(2_400_000)),
        (&hour[..], &month[..], None),
        (&month[..], &hour[..], None),
    ] {
        let both: Vec<_> = a.iter().chain(b).copied().collect();
        let w = snap(&both, NOW).long_window;
        assert_eq!((w.remaining, w.reset_ms), (Some(0), want), "{both:?}");
    }
}

#[test]
fn a_spent_window_longer_than_a_minute_is_waited_for_or_not_retried() {
    use llm_preflight::{classify, RefusalKind, Window};
    // An hour's window at 0 with its reset half an hour away: waited for, not retried after a short backoff.
    let r = classify(
        Some(429),
        [
            ("X-RateLimit-Remaining-Requests-1h", "0"),
            ("X-RateLimit-Reset-Requests-1h", "1800"),
        ],
        r#"{"error": "rate limited"}"#,
        NOW,
    );
    assert_eq!(r.retry_after_ms, Some(1_800_000));
    assert!(r.kind.is_rate_limit() && r.retryable, "{r:?}");
    // A month's spent with no reset stated: no wait clears it.
    let r = classify(
        Some(429),
        [
            ("x-ratelimit-limit-tokens-month", "4000000"),
            ("x-ratelimit-remaining-tokens-month", "0"),
        ],
        "",
        NOW,
    );
    assert_eq!((r.kind, r.retryable), (RefusalKind::QuotaExhausted, false));
    // Beside a minute's window that resets in 3 s, the month's is still spent: no wait is given.
    let r = classify(
        Some(429),
        [
            ("x-ratelimit-remaining-tokens-month", "0"),
            ("x-ratelimit-remaining-tokens", "0"),
            ("x-ratelimit-reset-tokens", "3s"),
        ],
        "",
        NOW,
    );
    assert_eq!(
        (r.kind, r.retry_after_ms),
        (RefusalKind::QuotaExhausted, None)
    );
    // A day's requests spent, 5 hours from its reset: the day's cap, not retried; 20 minutes away: waited for.
    for (reset, kind) in [
        ("18000", RefusalKind::QuotaExhausted),
        ("1200", RefusalKind::RateLimitRequests),
    ] {
        let r = classify(
            Some(429),
            [
                ("x-ratelimit-limit-requests-day", "14400"),
                ("x-ratelimit-remaining-requests-day", "0"),
                ("x-ratelimit-reset-requests-day", reset),
            ],
            "",
            NOW,
        );
        assert_eq!(r.kind, kind, "{reset}");
        assert_eq!(
            (r.limit, r.window, r.retry_after_ms),
            (
                Some(14400),
                Some(Window::Day),
                Some(reset.parse::<u64>().unwrap() * 1000)
            )
        );
    }
}

#[test]
fn a_reset_just_past_has_happened() {
    // A real Anthropic 200 (github.com/bespokelabsai/curator/issues/535): the requests bucket's reset 12 s before
    // the response's own date. It was "fully replenished" then: no wait, not a malformed header.
    let date =
        u64::try_from(parse_http_date_ms("Mon, 24 Feb 2025 20:38:03 GMT", 0).unwrap()).unwrap();
    let s = snap(
        &[
            ("anthropic-ratelimit-requests-limit", "4000"),
            ("anthropic-ratelimit-requests-remaining", "3999"),
            ("anthropic-ratelimit-requests-reset", "2025-02-24T20:37:51Z"),
        ],
        date,
    );
    assert_eq!(s.requests.reset_ms, Some(0));
    // More than a minute behind is a wrong clock: reported, never a wait.
    let p = RateLimitSnapshot::from_headers(
        [("anthropic-ratelimit-requests-reset", "2025-02-24T20:36:51Z")],
        date,
    );
    assert_eq!(p.snapshot.requests.reset_ms, None);
    assert_eq!(p.malformed[0].problem, HeaderProblem::InThePast);
}
