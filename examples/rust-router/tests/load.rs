//! 500 calls at three times the primary's ceiling through the router: its own test binary, so that the
//! Prometheus recorder it installs counts this run alone.

mod common;

use common::{localhost, nz, Upstream};
use hyper::body::Bytes;
use hyper::header::HeaderMap;
use hyper::StatusCode;
use llm_preflight::{Budget, Policy, Provider};
use llm_preflight_tower::Event;
use rust_router::{spawn, Config};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
/// itself. `LOAD_CHART=docs/guard-load.svg cargo test -p rust-router --test load` draws the README's.
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
