//! The router against the shared fake upstream (`examples/fake-upstream/server.mjs`, spawned with `node` on a
//! free port of 127.0.0.1 through `examples/fake-upstream/harness.mjs`), which enforces a real token bucket and answers with
//! OpenAI's rate-limit headers and 429 bodies. Every test is bounded in time and uses only 127.0.0.1. The 500-call
//! run is tests/load.rs.

mod common;

use common::{localhost, nz, Upstream, TEST_BOUND};
use hyper::body::Bytes;
use hyper::header::HeaderMap;
use hyper::{StatusCode, Uri};
use llm_preflight::Guard;
use llm_preflight::{estimate_request, Budget, Dimension, Policy, Provider, State, Verdict};
use llm_preflight_tower::Event;
use rust_router::{spawn, Config, Running};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A router with an event counter: `count(name)` is how many events of that name its calls have had.
struct Router {
    running: Running,
    counts: Arc<Mutex<BTreeMap<&'static str, u64>>>,
    addr: SocketAddr,
}

impl Router {
    fn count(&self, event: &str) -> u64 {
        self.counts.lock().unwrap().get(event).copied().unwrap_or(0)
    }
    fn guard(&self) -> &Guard {
        self.running.layer.guard()
    }
    fn now_ms(&self) -> u64 {
        self.running.layer.now_ms()
    }
}

async fn start(mut config: Config) -> Router {
    let counts: Arc<Mutex<BTreeMap<&'static str, u64>>> = Arc::default();
    let seen = counts.clone();
    config.layer.on_event = Some(Arc::new(move |e: &Event<'_>| {
        *seen.lock().unwrap().entry(e.event.name()).or_default() += 1
    }));
    let running = spawn(config, localhost(), None)
        .await
        .expect("bind 127.0.0.1");
    Router {
        addr: running.addr,
        running,
        counts,
    }
}

async fn router(upstream: Uri, budget: Budget, policy: Policy) -> Router {
    let mut config = Config::new(upstream, budget);
    config.guard.policy = policy;
    start(config).await
}

/// One POST through a fresh connection: status, headers, body.
async fn post(
    base: &Uri,
    path: &str,
    body: Bytes,
) -> Result<(StatusCode, HeaderMap, Bytes), String> {
    use http_body_util::BodyExt;
    let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
        .build_http::<http_body_util::Full<Bytes>>();
    let req = hyper::Request::post(format!("{base}{}", path.trim_start_matches('/')))
        .header("content-type", "application/json")
        .body(http_body_util::Full::new(body))
        .map_err(|e| e.to_string())?;
    let res = client.request(req).await.map_err(|e| e.to_string())?;
    let (head, body) = res.into_parts();
    let bytes = body.collect().await.map_err(|e| e.to_string())?.to_bytes();
    Ok((head.status, head.headers, bytes))
}

async fn send(addr: SocketAddr, body: &Value) -> (StatusCode, HeaderMap, Value) {
    let base: Uri = format!("http://{addr}").parse().unwrap();
    let (status, headers, bytes) =
        post(&base, "/v1/chat/completions", Bytes::from(body.to_string()))
            .await
            .expect("the router answers");
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, headers, v)
}

/// Deterministic English-like prose of about `bytes` bytes (varied words, so the estimator sees ordinary text).
fn prose(bytes: usize, seed: u64) -> String {
    const WORDS: [&str; 32] = [
        "the",
        "budget",
        "request",
        "model",
        "tokens",
        "minute",
        "provider",
        "answer",
        "queue",
        "limit",
        "before",
        "after",
        "gateway",
        "estimate",
        "carefully",
        "window",
        "because",
        "every",
        "reservation",
        "settles",
        "against",
        "usage",
        "headers",
        "report",
        "remaining",
        "capacity",
        "which",
        "refills",
        "slowly",
        "and",
        "of",
        "a",
    ];
    let mut s = String::with_capacity(bytes + 16);
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut n = 0;
    while s.len() < bytes {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let w = WORDS[(x >> 33) as usize % WORDS.len()];
        s.push_str(w);
        n += 1;
        s.push_str(if n % 14 == 0 { ". " } else { " " });
    }
    s.truncate(bytes);
    s
}

fn chat(content: &str, max_tokens: u64) -> Value {
    json!({
        "model": "gpt-4o-mini",
        "messages": [{"role": "user", "content": content}],
        "max_tokens": max_tokens,
    })
}

/// What the fake upstream charges (its README): ceil(bytes / 5) + 4 per message + 3, plus the cap.
fn upstream_charge(content: &str, max_tokens: u64) -> u64 {
    (content.len() as u64).div_ceil(5) + 4 + 3 + max_tokens
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn never_sendable_is_413_at_once_and_never_reaches_the_upstream() {
    tokio::time::timeout(TEST_BOUND, async {
        let mut up = Upstream::start(10_000, 1_000);
        let budget = Budget::new(Provider::OpenAi).tokens_per_minute(nz(10_000));
        let r = router(up.url.clone(), budget.clone(), Policy::Median).await;

        // A short prompt whose output cap alone is beyond the whole minute: the reservation counts.
        let body = chat("Summarise the attached report in one paragraph.", 12_000);
        let started = Instant::now();
        let (status, _, v) = send(r.addr, &body).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "answered at once"
        );

        let expected = State::new(budget, 0).check(
            &estimate_request(&body.to_string(), None, None)
                .unwrap()
                .cost(),
            Policy::Median,
            0,
        );
        let Verdict::NeverSendable { needed, excess, .. } = expected.verdict else {
            panic!("the core says {:?}", expected.verdict)
        };
        let e = &v["error"];
        assert_eq!(e["type"], "never_sendable");
        assert_eq!(e["dimension"], "tokens");
        assert_eq!(e["limit"], 10_000);
        assert_eq!(e["needed"], needed);
        assert_eq!(e["excess"], excess);
        assert_eq!(needed, 10_000 + excess);
        let message = e["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("shrink it by {excess}")),
            "{message}"
        );
        assert!(message.contains("10000"), "{message}");

        // The upstream never saw it, and nothing is held.
        assert_eq!(up.stats()["requests"], 0);
        assert_eq!(r.guard().in_flight(), 0);
        assert_eq!(r.count("never_sendable"), 1);
        assert_eq!(r.count("sent"), 0);

        // The counter is live: a small request does reach it.
        let (status, _, v) = send(r.addr, &chat("Hello there.", 20)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(up.stats()["requests"], 1);
    })
    .await
    .expect("bounded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_beyond_the_bucket_is_held_then_succeeds() {
    tokio::time::timeout(TEST_BOUND, async {
        // 60,000 TPM refills 1,000 tokens a second. Seven requests of about 9,000 tokens: six fit the full
        // bucket, the seventh must wait about 3 s for the refill.
        const TPM: u64 = 60_000;
        let mut up = Upstream::start(TPM, 1_000);
        let budget = Budget::new(Provider::OpenAi).tokens_per_minute(nz(TPM));
        // The conservative policy queues each request at its band's high end (about 1.45x the median for this
        // long prose), so the queue projects more work ahead than the upstream will charge: about 31 s for this
        // burst, past the default 30 s bound and 20 s deadline. Settling at the true usage hands the difference
        // back, so the real wait is a few seconds; the bound and deadline are not what this test is about.
        let mut config = Config::new(up.url.clone(), budget);
        config.guard.policy = Policy::Conservative;
        config.guard.max_queue_work_ms = 60_000;
        config.layer.deadline = Duration::from_secs(45);
        let r = start(config).await;

        let bodies: Vec<(Value, u64)> = (0..7)
            .map(|i| {
                let text = prose(44_800, i);
                let charge = upstream_charge(&text, 20);
                (chat(&text, 20), charge)
            })
            .collect();
        let total: u64 = bodies.iter().map(|(_, c)| c).sum();
        assert!(total > TPM, "the burst ({total}) is beyond the bucket");

        let started = Instant::now();
        let tasks: Vec<_> = bodies
            .into_iter()
            .map(|(body, _)| {
                let addr = r.addr;
                tokio::spawn(async move {
                    let (status, _, v) = send(addr, &body).await;
                    (status, v, Instant::now())
                })
            })
            .collect();
        let mut finished = Vec::new();
        for t in tasks {
            let (status, v, at) = t.await.unwrap();
            assert_eq!(status, StatusCode::OK, "{v}");
            assert_eq!(v["object"], "chat.completion");
            finished.push(at.duration_since(started));
        }
        let last = finished.iter().max().unwrap();
        let upstream = up.stats();
        eprintln!("burst: last answer after {last:?}; upstream {upstream}");

        // Held by the router rather than sent to be refused: it waited for the refill.
        assert!(r.count("queued") >= 1);
        assert!(
            *last >= Duration::from_millis(1_500),
            "the last one waited for the refill: {last:?}"
        );
        assert_eq!(upstream["ok"], 7);
        assert_eq!(upstream["too_large"], 0);
        // Zero upstream 429s, or every one retried after its retry-after.
        assert_eq!(upstream["rate_limited"].as_u64().unwrap(), r.count("retry"));
        assert_eq!(r.count("refused"), r.count("retry"));
        // Every reservation settled, nothing held.
        assert_eq!(r.count("settled"), 7);
        assert_eq!(r.guard().in_flight(), 0);
        assert_eq!(r.guard().held_tokens(), 0);
    })
    .await
    .expect("bounded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_429_is_retried_after_its_retry_after() {
    tokio::time::timeout(TEST_BOUND, async {
        // The router is told nothing useful about the key (1,000,000 TPM): the upstream's bucket (6,000 TPM,
        // 100 tokens a second) refuses whichever of two simultaneous requests comes second, with retry-after.
        const TPM: u64 = 6_000;
        let mut up = Upstream::start(TPM, 1_000);
        let budget = Budget::new(Provider::OpenAi).tokens_per_minute(nz(1_000_000));
        let r = router(up.url.clone(), budget, Policy::Median).await;

        let a = prose(24_900, 11);
        let b = prose(5_400, 12);
        assert!(upstream_charge(&a, 1) + upstream_charge(&b, 1) > TPM);
        let started = Instant::now();
        let ta = tokio::spawn({
            let body = chat(&a, 1);
            let addr = r.addr;
            async move { send(addr, &body).await }
        });
        let tb = tokio::spawn({
            let body = chat(&b, 1);
            let addr = r.addr;
            async move { send(addr, &body).await }
        });
        let (sa, _, va) = ta.await.unwrap();
        let (sb, _, vb) = tb.await.unwrap();
        let elapsed = started.elapsed();
        let upstream = up.stats();
        eprintln!("retry: {elapsed:?}; upstream {upstream}");
        assert_eq!(sa, StatusCode::OK, "{va}");
        assert_eq!(sb, StatusCode::OK, "{vb}");
        assert_eq!(upstream["rate_limited"], 1);
        assert_eq!(upstream["ok"], 2);
        assert_eq!(r.count("refused"), 1);
        assert_eq!(r.count("retry"), 1);
        // retry-after was whole seconds (at least 1): the retry went no sooner.
        assert!(elapsed >= Duration::from_millis(1_000), "{elapsed:?}");
        // The 429's headers were read back: the router now knows the key's real limit.
        let snapshot = r.guard().state(0).unwrap();
        assert_eq!(snapshot.bucket(Dimension::Tokens).unwrap().limit, TPM);
        assert_eq!(r.guard().in_flight(), 0);
    })
    .await
    .expect("bounded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limit_headers_are_read_back_after_each_response() {
    tokio::time::timeout(TEST_BOUND, async {
        // Configured with a limit far above the key's real one and no request limit: the first response's
        // x-ratelimit-* headers replace both.
        let mut up = Upstream::start(5_000, 100);
        let budget = Budget::new(Provider::OpenAi).tokens_per_minute(nz(1_000_000));
        let r = router(up.url.clone(), budget, Policy::Median).await;
        let before = r.guard().state(0).unwrap();
        assert_eq!(before.bucket(Dimension::Tokens).unwrap().limit, 1_000_000);
        assert!(before.bucket(Dimension::Requests).is_none());

        let text = prose(4_000, 3);
        let (status, headers, v) = send(r.addr, &chat(&text, 100)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let header = |n: &str| -> u64 { headers[n].to_str().unwrap().parse().unwrap() };
        assert_eq!(header("x-ratelimit-limit-tokens"), 5_000);
        let remaining = header("x-ratelimit-remaining-tokens");
        assert!(remaining < 5_000);

        let now = r.now_ms();
        let after = r.guard().state(0).unwrap();
        let tokens = after.bucket(Dimension::Tokens).unwrap();
        assert_eq!(tokens.limit, 5_000);
        // What the header said (read while the reservation was held, which is then settled at the reported usage:
        // within 1% of the bucket), plus at most a second of refill (5,000 / 60 s).
        let available = tokens.available(now);
        assert!(
            available >= remaining as f64 - 50.0 && available <= remaining as f64 + 90.0,
            "available {available}, header said {remaining}"
        );
        let requests = after
            .bucket(Dimension::Requests)
            .expect("a requests bucket from the headers");
        assert_eq!(requests.limit, 100);
        assert_eq!(r.count("response"), 1);
        assert_eq!(up.stats()["ok"], 1);

        // And the verdict follows: a request the old budget took at once is now held or refused.
        let big = estimate_request(&chat(&prose(24_000, 4), 100).to_string(), None, None)
            .unwrap()
            .cost();
        assert!(!after.check(&big, Policy::Median, now).verdict.is_sendable());
        assert!(before.check(&big, Policy::Median, 0).verdict.is_sendable());
    })
    .await
    .expect("bounded");
}

async fn assert_released(r: &Router, limit: u64) {
    assert_eq!(r.guard().in_flight(), 0);
    assert_eq!(r.guard().held_tokens(), 0);
    let now = r.now_ms();
    let state = r.guard().state(0).unwrap();
    assert_eq!(
        state.bucket(Dimension::Tokens).unwrap().available(now),
        limit as f64
    );
    assert_eq!(r.count("released"), r.count("sent"));
    assert_eq!(r.count("settled"), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_upstream_releases_the_reservation() {
    tokio::time::timeout(TEST_BOUND, async {
        let budget = Budget::new(Provider::OpenAi).tokens_per_minute(nz(10_000));
        let body = chat(&prose(2_000, 5), 500);

        // Nothing listens: connection refused.
        let closed = std::net::TcpListener::bind(localhost()).unwrap();
        let port = closed.local_addr().unwrap().port();
        drop(closed);
        let r = router(
            format!("http://127.0.0.1:{port}").parse().unwrap(),
            budget.clone(),
            Policy::Median,
        )
        .await;
        let (status, _, v) = send(r.addr, &body).await;
        assert_eq!(status, StatusCode::BAD_GATEWAY, "{v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("no answer from primary"),
            "{v}"
        );
        assert_eq!(r.count("transport_error"), 1);
        assert_released(&r, 10_000).await;

        // Something listens, takes the request, and hangs up without answering.
        let listener = tokio::net::TcpListener::bind(localhost()).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let accepted = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let seen = accepted.clone();
        tokio::spawn(async move {
            while let Ok((s, _)) = listener.accept().await {
                seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                // Read some of the request, then hang up.
                let mut buf = [0u8; 1024];
                if tokio::time::timeout(Duration::from_millis(500), s.readable())
                    .await
                    .is_ok()
                {
                    let _ = s.try_read(&mut buf);
                }
                drop(s);
            }
        });
        let r = router(
            format!("http://127.0.0.1:{port}").parse().unwrap(),
            budget,
            Policy::Median,
        )
        .await;
        let (status, _, v) = send(r.addr, &body).await;
        assert_eq!(status, StatusCode::BAD_GATEWAY, "{v}");
        assert_eq!(accepted.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert_released(&r, 10_000).await;
    })
    .await
    .expect("bounded");
}
