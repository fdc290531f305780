//! The router against the shared fake upstream (`examples/fake-upstream/server.mjs`, spawned with `node` on a
//! free port of 127.0.0.1 through `examples/fake-upstream/harness.mjs`), which enforces a real token bucket and answers with
//! OpenAI's rate-limit headers and 429 bodies. Every test is bounded in time and uses only 127.0.0.1.

use hyper::body::Bytes;
use hyper::header::HeaderMap;
use hyper::{StatusCode, Uri};
use llm_preflight::Guard;
use llm_preflight::{estimate_request, Budget, Dimension, Policy, Provider, State, Verdict};
use llm_preflight_tower::Event;
use rust_router::{spawn, Config, Running};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A limit for a test: never zero.
fn nz(n: u64) -> std::num::NonZeroU64 {
    std::num::NonZeroU64::new(n).expect("a test limit is at least 1")
}

/// The whole of any one test.
const TEST_BOUND: Duration = Duration::from_secs(60);

/// The fake upstream in a child `node` process; killed when dropped.
struct Upstream {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    url: Uri,
}

impl Upstream {
    fn start(tpm: u64, rpm: u64) -> Upstream {
        Upstream::start_with(tpm, rpm, "")
    }

    /// `refuse`: `mixed` injects real refusal shapes among the bucket's answers (harness.mjs says which).
    fn start_with(tpm: u64, rpm: u64, refuse: &str) -> Upstream {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../fake-upstream/harness.mjs");
        let mut child = Command::new("node")
            .arg(script)
            .env("REFUSE", refuse)
            .env("TPM", tpm.to_string())
            .env("RPM", rpm.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect(
                "these tests spawn the shared fake upstream with `node` (Node 18 or later on PATH)",
            );
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let first = lines
            .recv_timeout(Duration::from_secs(15))
            .expect("the fake upstream did not start within 15 s");
        let v: Value =
            serde_json::from_str(&first).expect("the fake upstream's first line is JSON");
        let url = v["url"].as_str().expect("url").parse().expect("a URL");
        Upstream {
            child,
            stdin,
            lines,
            url,
        }
    }

    /// The upstream's counters: requests, ok, rate_limited, too_large, bad, charged.
    fn stats(&mut self) -> Value {
        writeln!(self.stdin, "stats").expect("write to the fake upstream");
        self.stdin.flush().expect("flush");
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(5))
            .expect("the fake upstream answers `stats`");
        serde_json::from_str(&line).expect("stats are JSON")
    }
}

impl Drop for Upstream {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn localhost() -> SocketAddr {
    SocketAddr::from((Ipv4Addr::LOCALHOST, 0))
}

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

/// 500 calls at three times the primary's ceiling through the router (the tower Layer over hyper's client), against
/// two fake upstreams: a primary that also answers some calls with real refusal shapes (insufficient_quota, 529
/// and 503 overloads, an error frame inside a 200 stream) and a backup, on the real clock (about 43 s). What the
/// issue's done-when asks, checked from the upstreams' own logs; then `/metrics` shows the run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_hundred_calls_at_three_times_the_ceiling() {
    const TPM: u64 = 9_000;
    // The primary's request limit is not configured: the guard learns it from the x-ratelimit-* headers.
    const RPM: u64 = 300;
    let deadline = Duration::from_secs(8);
    let mut primary = Upstream::start_with(TPM, RPM, "mixed");
    let mut backup = Upstream::start_with(3_000, 1_000, "");
    let mut config = Config::new(
        primary.url.clone(),
        Budget::new(Provider::OpenAi).tokens_per_minute(nz(TPM)),
    );
    config.upstreams.push((
        "backup".into(),
        backup.url.clone(),
        Budget::new(Provider::OpenAi).tokens_per_minute(nz(3_000)),
    ));
    config.guard.policy = Policy::Median;
    config.guard.max_queue_work_ms = 5_000;
    config.layer.deadline = deadline;
    let metrics = metrics_exporter_prometheus::PrometheusBuilder::new()
        .install_recorder()
        .expect("the only recorder of this test binary");
    let counts: Arc<Mutex<BTreeMap<&'static str, u64>>> = Arc::default();
    let seen = counts.clone();
    config.layer.on_event = Some(Arc::new(move |e: &Event<'_>| {
        *seen.lock().unwrap().entry(e.event.name()).or_default() += 1
    }));
    let running = spawn(config, localhost(), Some(metrics))
        .await
        .expect("bind 127.0.0.1");
    let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
        .build_http::<http_body_util::Full<Bytes>>();
    let url = format!("http://{}/v1/chat/completions", running.addr);
    let words =
        "the report shows next steps for people who read notes later with clear owners and dates";
    // About 38 tokens a call as the upstream charges: the primary's ceiling is ~237 calls a minute; three times
    // that is ~11.8 a second, so the 500 calls arrive over about 42 seconds.
    let gap = Duration::from_secs_f64(1.0 / 11.8);
    let mut calls = Vec::new();
    let t0_wall = wall_ms();
    for i in 0..500u32 {
        let too_big = i % 50 == 7; // 10 calls whose cap is larger than either whole budget
        let stream = i % 4 == 1;
        let mut body = json!({"model": "gpt-4o-mini", "max_tokens": if too_big { 12_000 } else { 12 },
            "messages": [{"role": "user", "content": format!("{i} {words}")}]});
        if stream {
            body["stream"] = json!(true);
            body["stream_options"] = json!({"include_usage": true});
        }
        let req = hyper::Request::post(&url)
            .header("content-type", "application/json")
            .header("x-call-id", i.to_string())
            .body(http_body_util::Full::new(Bytes::from(body.to_string())))
            .unwrap();
        let client = client.clone();
        calls.push(tokio::spawn(async move {
            use http_body_util::BodyExt;
            let t0 = Instant::now();
            let res = client.request(req).await.expect("the router answers");
            let status = res.status().as_u16();
            let body = res
                .into_body()
                .collect()
                .await
                .expect("a whole body")
                .to_bytes();
            (i, status, body, t0.elapsed(), wall_ms())
        }));
        tokio::time::sleep(gap).await;
    }
    let mut statuses = BTreeMap::new();
    let mut late = Vec::new();
    let mut answered_by_guard = Vec::new();
    let mut never = 0;
    for c in calls {
        let (i, status, body, took, at) = c.await.unwrap();
        *statuses.entry(status).or_insert(0u32) += 1;
        let v: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        if status == 413 && v["error"]["type"] == "never_sendable" {
            never += 1;
        }
        if status == 413 && v["error"]["type"] == "never_sendable" || v["error"]["type"] == "shed" {
            answered_by_guard.push(at);
        }
        if took > deadline + Duration::from_secs(1) {
            late.push((i, took));
        }
    }
    let (p, b) = (primary.stats(), backup.stats());
    let counts = counts.lock().unwrap().clone();
    if let Ok(path) = std::env::var("LOAD_CHART") {
        std::fs::write(&path, chart(t0_wall, &p, &b, &answered_by_guard)).expect("write the chart");
        eprintln!("chart written to {path}");
    }
    eprintln!(
        "statuses {statuses:?}; events {counts:?}; primary requests {} ok {} rate_limited {} refused {} stream_errors {}; backup requests {} ok {}",
        p["requests"], p["ok"], p["rate_limited"], p["refused"], p["stream_errors"], b["requests"], b["ok"]
    );
    assert!(
        late.is_empty(),
        "every call resolved by its deadline plus one second: {late:?}"
    );
    assert_eq!(
        p["too_large"].as_u64().unwrap() + b["too_large"].as_u64().unwrap(),
        0,
        "no never-sendable request reached an upstream"
    );
    assert_eq!(
        never, 10,
        "the never-sendable calls answered 413 by the guard: {statuses:?}"
    );
    // No send before a retry-after the upstream gave that call, nor after a quota refusal or a stream that failed
    // after its output began, on the same upstream.
    for log in [&p["log"], &b["log"]] {
        let mut by_call: BTreeMap<String, &Value> = BTreeMap::new();
        for e in log.as_array().unwrap() {
            let call = e["call"].as_str().unwrap().to_string();
            if let Some(prev) = by_call.get(&call) {
                if let Some(ra) = prev["retry_after_ms"].as_f64() {
                    assert!(
                        e["t"].as_f64().unwrap() >= prev["t"].as_f64().unwrap() + ra - 5.0,
                        "call {call} resent early"
                    );
                }
                let quota = prev["status"] == 429 && prev["retry_after_ms"].is_null();
                assert!(!quota, "call {call} retried after a quota refusal");
                assert!(
                    prev["status"] != 413,
                    "call {call} resent as it was after a 413"
                );
                assert!(
                    prev["stream_error"] != true,
                    "call {call} resent after its stream failed"
                );
            }
            by_call.insert(call, e);
        }
    }
    assert!(
        p["refused"].as_u64().unwrap() > 0,
        "the injected refusals were met"
    );
    assert!(
        p["stream_errors"].as_u64().unwrap() > 0,
        "error frames inside 200 streams were met"
    );
    assert!(
        b["requests"].as_u64().unwrap() > 0,
        "the backup took calls when the primary could not"
    );
    // The guard kept the upstreams' buckets: few calls refused for their rate (the estimate's error, not blind
    // sends).
    let rate_limited = p["rate_limited"].as_u64().unwrap() + b["rate_limited"].as_u64().unwrap();
    assert!(rate_limited <= 25, "{rate_limited} refused for their rate");
    let guard = running.layer.guard();
    assert_eq!(
        (guard.held_tokens(), guard.in_flight()),
        (0, 0),
        "nothing held"
    );
    // The events add up to the upstreams' own request logs.
    assert_eq!(
        counts["sent"],
        p["requests"].as_u64().unwrap() + b["requests"].as_u64().unwrap()
    );

    // The same run, as Prometheus text at /metrics.
    let (status, _, text) = get(running.addr, "/metrics").await;
    assert_eq!(status, StatusCode::OK);
    let text = String::from_utf8(text.to_vec()).unwrap();
    let sample = |line: &str| -> u64 {
        let l = text
            .lines()
            .find(|l| l.starts_with(line))
            .unwrap_or_else(|| panic!("no {line} in\n{text}"));
        l.rsplit(' ').next().unwrap().parse().unwrap()
    };
    assert_eq!(
        sample(r#"llm_preflight_events_total{event="sent",provider="primary"}"#),
        p["requests"].as_u64().unwrap()
    );
    assert_eq!(
        sample(r#"llm_preflight_events_total{event="sent",provider="backup"}"#),
        b["requests"].as_u64().unwrap()
    );
    assert_eq!(
        sample(r#"llm_preflight_events_total{event="never_sendable",provider=""}"#),
        10
    );
    assert!(
        text.contains(r#"llm_preflight_refusals_total{provider="primary",kind="quota_exhausted"}"#),
        "{text}"
    );
    assert!(text.contains("llm_preflight_call_seconds"), "{text}");
    assert!(text.contains("llm_preflight_held_tokens 0"), "{text}");
}

async fn get(addr: SocketAddr, path: &str) -> (StatusCode, HeaderMap, Bytes) {
    use http_body_util::BodyExt;
    let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
        .build_http::<http_body_util::Full<Bytes>>();
    let res = client
        .get(format!("http://{addr}{path}").parse().unwrap())
        .await
        .expect("answers");
    let (head, body) = res.into_parts();
    (
        head.status,
        head.headers,
        body.collect().await.unwrap().to_bytes(),
    )
}

fn wall_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
        * 1000.0
}

/// One run as an SVG: per second, what each upstream answered (from its own log) and what the guard answered
/// itself. `LOAD_CHART=docs/guard-load.svg cargo test -p rust-router --test router five_hundred` draws the README's.
fn chart(t0: f64, primary: &Value, backup: &Value, guard: &[f64]) -> String {
    const SECONDS: usize = 46;
    // Series: primary 200, backup 200, primary refusals (429, 413, 5xx, an error frame in a 200), guard's answers.
    let mut bins = vec![[0u32; 4]; SECONDS];
    let mut put = |t: f64, series: usize| {
        let s = (((t - t0) / 1000.0).max(0.0) as usize).min(SECONDS - 1);
        bins[s][series] += 1;
    };
    for (log, ok) in [(&primary["log"], 0), (&backup["log"], 1)] {
        for e in log.as_array().unwrap() {
            let t = e["t"].as_f64().unwrap();
            let fine = e["status"] == 200 && e["stream_error"] != true;
            put(t, if fine { ok } else { 2 });
        }
    }
    for &t in guard {
        put(t, 3);
    }
    let colours = ["#2b8a3e", "#1c7ed6", "#e8590c", "#868e96"];
    let labels = [
        "primary answered 200",
        "backup answered 200",
        "an upstream refused (429, 413, 529, 503, error frame)",
        "the guard answered itself (413 never-sendable, 429 shed)",
    ];
    let top = bins
        .iter()
        .map(|b| b.iter().sum::<u32>())
        .max()
        .unwrap_or(1)
        .max(1);
    let (w, h, left, bottom, plot_h) = (760.0, 330.0, 40.0, 290.0, 200.0);
    let bar_w = (w - left - 20.0) / SECONDS as f64;
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="white"/>
<text x="{left}" y="16" font-size="13">500 calls at 3x the primary's ceiling through the tower Layer (one run): upstream requests per second</text>
"#
    );
    for (i, (c, l)) in colours.iter().zip(labels).enumerate() {
        let (x, y) = (left + (i % 2) as f64 * 360.0, 34.0 + (i / 2) as f64 * 16.0);
        svg += &format!(
            "<rect x=\"{x}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{c}\"/><text x=\"{}\" y=\"{}\">{l}</text>\n",
            y - 9.0,
            x + 14.0,
            y
        );
    }
    for k in 0..=4 {
        let v = top as f64 * k as f64 / 4.0;
        let y = bottom - plot_h * k as f64 / 4.0;
        svg += &format!(
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\" stroke=\"#dee2e6\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{v:.0}</text>\n",
            w - 20.0,
            left - 4.0,
            y + 4.0
        );
    }
    for (s, b) in bins.iter().enumerate() {
        let mut y = bottom;
        for (series, &n) in b.iter().enumerate() {
            let hgt = plot_h * n as f64 / top as f64;
            if n > 0 {
                svg += &format!(
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{hgt:.1}\" fill=\"{}\"><title>{s} s: {n}</title></rect>\n",
                    left + s as f64 * bar_w + 1.0,
                    y - hgt,
                    bar_w - 2.0,
                    colours[series]
                );
            }
            y -= hgt;
        }
        if s % 5 == 0 {
            svg += &format!(
                "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{s}s</text>\n",
                left + s as f64 * bar_w + bar_w / 2.0,
                bottom + 14.0
            );
        }
    }
    svg += "</svg>\n";
    svg
}
