//! The layer around a scripted in-process upstream (a tower service), on tokio's paused clock: what reaches the
//! upstream (URI, headers, body bytes, when), what the client gets, and that nothing stays held.

use bytes::Bytes;
use http::{Request, Response, StatusCode, Uri};
use http_body::{Body, Frame};
use http_body_util::{BodyExt, Full};
use llm_preflight::{Budget, CallEvent, Guard, GuardConfig, Provider, Target};
use llm_preflight_tower::{Event, LayerConfig, LayerError, PreflightLayer};
use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::sync::mpsc;
use tokio::time::{Duration, Instant};
use tower_layer::Layer;
use tower_service::Service;

/// A response body fed through a channel, so a test controls when each chunk comes.
struct ChannelBody(mpsc::UnboundedReceiver<Bytes>);

impl Body for ChannelBody {
    type Data = Bytes;
    type Error = Infallible;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0.poll_recv(cx).map(|c| c.map(|c| Ok(Frame::data(c))))
    }
}

/// What the upstream answers: status, headers, and the body's chunks (or a sender the test keeps, for a stream).
enum Reply {
    Whole(u16, Vec<(&'static str, String)>, String),
    Stream(mpsc::UnboundedReceiver<Bytes>),
    Fail,
}

#[derive(Debug, Clone)]
struct Seen {
    uri: Uri,
    headers: http::HeaderMap,
    body: Bytes,
    at: Instant,
}

#[derive(Clone, Default)]
struct Upstream {
    replies: Arc<Mutex<VecDeque<Reply>>>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Upstream {
    fn push(&self, r: Reply) {
        self.replies.lock().unwrap().push_back(r);
    }
    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

#[derive(Debug)]
struct Refused;
impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection refused")
    }
}
impl std::error::Error for Refused {}

impl Service<Request<Full<Bytes>>> for Upstream {
    type Response = Response<ChannelBody>;
    type Error = Refused;
    type Future = Pin<Box<dyn Future<Output = Result<Response<ChannelBody>, Refused>> + Send>>;
    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Refused>> {
        Poll::Ready(Ok(()))
    }
    fn call(&mut self, req: Request<Full<Bytes>>) -> Self::Future {
        let this = self.clone();
        Box::pin(async move {
            let (parts, body) = req.into_parts();
            let body = body.collect().await.unwrap().to_bytes();
            this.seen.lock().unwrap().push(Seen {
                uri: parts.uri,
                headers: parts.headers,
                body,
                at: Instant::now(),
            });
            let reply = this.replies.lock().unwrap().pop_front();
            let reply = reply.unwrap_or_else(|| Reply::Whole(200, vec![], ok_body(10)));
            let (tx, rx) = mpsc::unbounded_channel();
            let mut res = Response::new(ChannelBody(rx));
            match reply {
                Reply::Fail => return Err(Refused),
                Reply::Stream(rx) => {
                    *res.body_mut() = ChannelBody(rx);
                    res.headers_mut()
                        .insert("content-type", "text/event-stream".parse().unwrap());
                }
                Reply::Whole(status, headers, body) => {
                    *res.status_mut() = StatusCode::from_u16(status).unwrap();
                    for (n, v) in headers {
                        res.headers_mut().insert(n, v.parse().unwrap());
                    }
                    tx.send(Bytes::from(body)).unwrap();
                }
            }
            Ok(res)
        })
    }
}

fn ok_body(prompt: u64) -> String {
    format!(
        r#"{{"object":"chat.completion","choices":[],"usage":{{"prompt_tokens":{prompt},"completion_tokens":5}}}}"#
    )
}

fn key(name: &str, tpm: u64) -> Target {
    Target::new(
        name,
        Budget::new(Provider::OpenAi).tokens_per_minute(tpm.try_into().unwrap()),
    )
}

type Events = Arc<Mutex<Vec<(u64, Option<String>, CallEvent)>>>;

fn layer(targets: Vec<Target>, bases: &[&str]) -> (PreflightLayer, Events) {
    let events: Events = Arc::default();
    let log = events.clone();
    let config = LayerConfig {
        deadline: Duration::from_secs(20),
        max_request_bytes: 64 << 10,
        on_event: Some(Arc::new(move |e: &Event<'_>| {
            log.lock()
                .unwrap()
                .push((e.call, e.provider.map(str::to_string), e.event.clone()))
        })),
        jitter_seed: Some(7),
        ..LayerConfig::default()
    };
    let guard = Guard::new(targets, GuardConfig::default()).unwrap();
    let bases = bases.iter().map(|b| b.parse().unwrap()).collect();
    (PreflightLayer::new(guard, bases, config).unwrap(), events)
}

fn post(uri: &str, body: &str) -> Request<Full<Bytes>> {
    Request::post(uri)
        .header("authorization", "Bearer sk-test")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap()
}

async fn call<S>(svc: &mut S, req: Request<Full<Bytes>>) -> (StatusCode, http::HeaderMap, String)
where
    S: Service<Request<Full<Bytes>>>,
    S::Response: Into<Response<llm_preflight_tower::GuardedBody<ChannelBody>>>,
    S::Error: std::fmt::Debug,
{
    std::future::poll_fn(|cx| svc.poll_ready(cx)).await.unwrap();
    let res: Response<_> = svc.call(req).await.unwrap().into();
    let (head, body) = res.into_parts();
    let body = body.collect().await.unwrap().to_bytes();
    (
        head.status,
        head.headers,
        String::from_utf8(body.to_vec()).unwrap(),
    )
}

const CHAT: &str = "{ \"model\": \"gpt-4o\",\n  \"messages\": [{\"role\": \"user\", \"content\": \"Say hello.\"}], \"max_tokens\": 50 }";

fn count(events: &Events, name: &str) -> usize {
    events
        .lock()
        .unwrap()
        .iter()
        .filter(|(_, _, e)| e.name() == name)
        .count()
}

#[tokio::test(start_paused = true)]
async fn the_body_and_headers_reach_the_upstream_as_sent_and_the_call_settles() {
    let up = Upstream::default();
    let (layer, events) = layer(
        vec![key("openai", 10_000)],
        &["https://api.example.test/v1"],
    );
    let mut svc = layer.layer(up.clone());
    let (status, _, body) = call(
        &mut svc,
        post("https://api.example.test/v1/chat/completions?x=1", CHAT),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, ok_body(10));
    let seen = up.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        seen[0].uri,
        "https://api.example.test/v1/chat/completions?x=1"
    );
    // Byte for byte, whitespace and member order kept; the client's headers kept, the length set.
    assert_eq!(seen[0].body, CHAT.as_bytes());
    assert_eq!(seen[0].headers["authorization"], "Bearer sk-test");
    assert_eq!(seen[0].headers["content-length"], CHAT.len().to_string());
    assert_eq!(count(&events, "settled"), 1);
    assert_eq!(layer.guard().held_tokens(), 0);
    assert_eq!(layer.guard().in_flight(), 0);

    // A path alone (a reverse proxy passing on what it received) goes to the first upstream's base.
    let (status, _, _) = call(&mut svc, post("/chat/completions", CHAT)).await;
    assert_eq!(status, 200);
    assert_eq!(
        up.seen()[1].uri,
        "https://api.example.test/v1/chat/completions"
    );
}

#[tokio::test(start_paused = true)]
async fn other_hosts_and_methods_pass_untouched() {
    let up = Upstream::default();
    let (layer, events) = layer(vec![key("openai", 100)], &["https://api.example.test"]);
    let mut svc = layer.layer(up.clone());
    // Far beyond 100 TPM, but not a guarded upstream: passed on as it came.
    let big = format!(
        r#"{{"model":"gpt-4o","messages":[],"max_tokens":{}}}"#,
        50_000
    );
    let (status, _, _) = call(
        &mut svc,
        post("https://elsewhere.test/v1/chat/completions", &big),
    )
    .await;
    assert_eq!(status, 200);
    // A path that only shares a prefix with the base is not under it.
    let (status, _, _) = call(&mut svc, post("https://api.example.test.evil/v1/x", &big)).await;
    assert_eq!(status, 200);
    let get = Request::get("https://api.example.test/v1/models")
        .body(Full::default())
        .unwrap();
    let (status, _, _) = call(&mut svc, get).await;
    assert_eq!(status, 200);
    assert_eq!(up.seen().len(), 3);
    assert_eq!(up.seen()[0].body, big.as_bytes());
    assert!(events.lock().unwrap().is_empty());
}

#[tokio::test(start_paused = true)]
async fn never_sendable_is_413_and_never_reaches_the_upstream() {
    let up = Upstream::default();
    let (layer, events) = layer(vec![key("openai", 8_000)], &["https://api.example.test"]);
    let mut svc = layer.layer(up.clone());
    let body = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"Summarise."}],"max_tokens":9000}"#;
    let (status, _, text) = call(
        &mut svc,
        post("https://api.example.test/v1/chat/completions", body),
    )
    .await;
    assert_eq!(status, 413, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["error"]["type"], "never_sendable");
    assert_eq!(v["error"]["limit"], 8_000);
    assert_eq!(
        v["error"]["needed"].as_u64().unwrap(),
        8_000 + v["error"]["excess"].as_u64().unwrap()
    );
    assert!(up.seen().is_empty());
    assert_eq!(count(&events, "never_sendable"), 1);
    assert_eq!(count(&events, "sent"), 0);

    // Past the layer's read bound: 413 too, unread past it and unsent.
    let huge = format!(
        r#"{{"model":"gpt-4o","messages":[{{"role":"user","content":"{}"}}]}}"#,
        "a ".repeat(40_000)
    );
    let (status, _, text) = call(
        &mut svc,
        post("https://api.example.test/v1/chat/completions", &huge),
    )
    .await;
    assert_eq!(status, 413);
    assert!(text.contains("request_too_large"), "{text}");
    // Not JSON: 400 from the core, unsent.
    let (status, _, text) = call(
        &mut svc,
        post("https://api.example.test/v1/chat/completions", "{nope"),
    )
    .await;
    assert_eq!(status, 400, "{text}");
    assert!(up.seen().is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_429_is_retried_no_sooner_than_its_retry_after_and_a_quota_is_passed_on() {
    let up = Upstream::default();
    let (layer, events) = layer(vec![key("openai", 10_000)], &["https://api.example.test"]);
    let mut svc = layer.layer(up.clone());
    up.push(Reply::Whole(
        429,
        vec![("retry-after", "3".into())],
        r#"{"error":{"message":"Rate limit reached for gpt-4o on tokens per min (TPM): Limit 10000, Used 9990, Requested 60. Please try again in 3s.","type":"tokens","code":"rate_limit_exceeded"}}"#.into(),
    ));
    let (status, _, _) = call(
        &mut svc,
        post("https://api.example.test/v1/chat/completions", CHAT),
    )
    .await;
    assert_eq!(status, 200);
    let seen = up.seen();
    assert_eq!(seen.len(), 2);
    assert!(
        seen[1].at - seen[0].at >= Duration::from_secs(3),
        "{:?}",
        seen[1].at - seen[0].at
    );
    assert_eq!(count(&events, "retry"), 1);

    let quota = r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}"#;
    up.push(Reply::Whole(
        429,
        vec![("x-request-id", "req-1".into())],
        quota.into(),
    ));
    let (status, headers, body) = call(
        &mut svc,
        post("https://api.example.test/v1/chat/completions", CHAT),
    )
    .await;
    assert_eq!(status, 429);
    assert_eq!(body, quota, "the provider's refusal as it sent it");
    assert_eq!(headers["x-request-id"], "req-1");
    assert_eq!(up.seen().len(), 3, "a quota is not retried");
    assert_eq!(layer.guard().held_tokens(), 0);
}

#[tokio::test(start_paused = true)]
async fn an_overload_or_a_dead_upstream_falls_back_to_the_next() {
    let up = Upstream::default();
    let (layer, events) = layer(
        vec![key("primary", 10_000), key("backup", 10_000)],
        &["https://primary.test", "http://backup.test:8080/openai"],
    );
    let mut svc = layer.layer(up.clone());
    up.push(Reply::Fail);
    let (status, _, _) = call(
        &mut svc,
        post("https://primary.test/v1/chat/completions", CHAT),
    )
    .await;
    assert_eq!(status, 200);
    let seen = up.seen();
    assert_eq!(seen[0].uri, "https://primary.test/v1/chat/completions");
    assert_eq!(
        seen.last().unwrap().uri,
        "http://backup.test:8080/openai/v1/chat/completions"
    );
    assert_eq!(seen.last().unwrap().body, CHAT.as_bytes());
    assert_eq!(count(&events, "transport_error"), 1);
    let fell: Vec<_> = events
        .lock()
        .unwrap()
        .iter()
        .filter(|(_, _, e)| e.name() == "fell_back")
        .map(|(_, p, _)| p.clone())
        .collect();
    assert_eq!(fell, vec![Some("primary".to_string())]);
    assert_eq!(layer.guard().held_tokens(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_stream_passes_through_unbuffered_and_settles_at_its_usage() {
    let up = Upstream::default();
    let (layer, events) = layer(vec![key("openai", 10_000)], &["https://api.example.test"]);
    let mut svc = layer.layer(up.clone());
    let (tx, rx) = mpsc::unbounded_channel();
    up.push(Reply::Stream(rx));
    let body = r#"{"model":"gpt-4o","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"Hi"}],"max_tokens":40}"#;
    let res = svc
        .call(post("https://api.example.test/v1/chat/completions", body))
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let mut res_body = res.into_body();
    let first = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n";
    tx.send(Bytes::from(first)).unwrap();
    // The first frame reaches the client while the upstream is still streaming.
    let f = res_body
        .frame()
        .await
        .unwrap()
        .unwrap()
        .into_data()
        .unwrap();
    assert_eq!(f, first);
    assert!(
        layer.guard().held_tokens() > 0,
        "held while the stream runs"
    );
    // The usage frame comes split across chunks.
    tx.send(Bytes::from("data: {\"choices\":[],\"usage\":{\"prompt_tok"))
        .unwrap();
    tx.send(Bytes::from(
        "ens\":31,\"completion_tokens\":2}}\n\ndata: [DONE]\n\n",
    ))
    .unwrap();
    drop(tx);
    let rest = res_body.collect().await.unwrap().to_bytes();
    assert!(rest.ends_with(b"[DONE]\n\n"));
    let settled: Vec<_> = events
        .lock()
        .unwrap()
        .iter()
        .filter_map(|(_, _, e)| match e {
            CallEvent::Settled {
                input_tokens,
                output_tokens,
                reported_tokens,
                ..
            } => Some((*input_tokens, *output_tokens, *reported_tokens)),
            _ => None,
        })
        .collect();
    assert_eq!(settled, vec![(31, 2, Some(31))]);
    assert_eq!(layer.guard().held_tokens(), 0);
}

#[tokio::test(start_paused = true)]
async fn an_error_frame_inside_a_200_is_not_resent_and_a_client_gone_releases() {
    let up = Upstream::default();
    let (layer, events) = layer(vec![key("openai", 10_000)], &["https://api.example.test"]);
    let mut svc = layer.layer(up.clone());
    let (tx, rx) = mpsc::unbounded_channel();
    up.push(Reply::Stream(rx));
    let body = r#"{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"Hi"}],"max_tokens":40}"#;
    let res = svc
        .call(post("https://api.example.test/v1/chat/completions", body))
        .await
        .unwrap();
    tx.send(Bytes::from(
        "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n",
    ))
    .unwrap();
    tx.send(Bytes::from("data: {\"error\":{\"message\":\"The server had an error while processing your request.\",\"type\":\"server_error\"}}\n\n")).unwrap();
    drop(tx);
    let all = res.into_body().collect().await.unwrap().to_bytes();
    assert!(
        all.ends_with(b"\"server_error\"}}\n\n"),
        "the client gets the stream as it came"
    );
    assert_eq!(up.seen().len(), 1, "output was delivered: never resent");
    let refused: Vec<_> = events
        .lock()
        .unwrap()
        .iter()
        .filter_map(|(_, _, e)| match e {
            CallEvent::Refused { mid_stream, .. } => Some(*mid_stream),
            _ => None,
        })
        .collect();
    assert_eq!(refused, vec![true]);
    assert_eq!(layer.guard().held_tokens(), 0);

    // The client drops a stream half-way: what the call held is given back.
    let (tx, rx) = mpsc::unbounded_channel();
    up.push(Reply::Stream(rx));
    let res = svc
        .call(post("https://api.example.test/v1/chat/completions", body))
        .await
        .unwrap();
    tx.send(Bytes::from("data: {}\n\n")).unwrap();
    assert!(layer.guard().held_tokens() > 0);
    drop(res);
    assert_eq!(layer.guard().held_tokens(), 0);
    assert_eq!(layer.guard().in_flight(), 0);
    let ends: Vec<_> = events
        .lock()
        .unwrap()
        .iter()
        .filter_map(|(_, _, e)| match e {
            CallEvent::Ended { end } => Some(*end),
            _ => None,
        })
        .collect();
    assert_eq!(ends.last(), Some(&"abandoned"));
}

#[tokio::test(start_paused = true)]
async fn a_burst_past_the_bucket_is_queued_then_sent_when_it_refills() {
    let up = Upstream::default();
    // 600 TPM: 10 tokens a second. Each call reserves about 60 (prompt plus its 50-token cap) and the upstream
    // reports as much used, so the bucket holds about ten at once.
    let (layer, events) = layer(vec![key("openai", 600)], &["https://api.example.test"]);
    let svc = layer.layer(up.clone());
    for _ in 0..14 {
        up.push(Reply::Whole(200, vec![], ok_body(55)));
    }
    let start = Instant::now();
    let tasks: Vec<_> = (0..14)
        .map(|_| {
            let mut svc = svc.clone();
            tokio::spawn(async move {
                call(
                    &mut svc,
                    post("https://api.example.test/v1/chat/completions", CHAT),
                )
                .await
                .0
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap().as_u16());
    }
    let sent = up.seen().len();
    assert!(count(&events, "queued") > 0, "some waited");
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 429),
        "{statuses:?}"
    );
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), sent);
    // What was sent after the first full bucket went out as it refilled, not at once.
    assert!(up.seen().last().unwrap().at - start >= Duration::from_secs(1));
    assert_eq!(layer.guard().held_tokens(), 0);
    assert_eq!(layer.guard().queued(), 0);
}

#[test]
fn a_layer_needs_one_absolute_base_per_target() {
    let guard = || Guard::new(vec![key("a", 100), key("b", 100)], GuardConfig::default()).unwrap();
    let e = PreflightLayer::new(
        guard(),
        vec!["https://a.test".parse().unwrap()],
        LayerConfig::default(),
    )
    .unwrap_err();
    assert_eq!(
        e,
        LayerError::BaseCount {
            targets: 2,
            bases: 1
        }
    );
    let e = PreflightLayer::new(
        guard(),
        vec!["https://a.test".parse().unwrap(), "/v1".parse().unwrap()],
        LayerConfig::default(),
    )
    .unwrap_err();
    assert!(matches!(e, LayerError::NotAbsolute(_)), "{e}");
}

#[tokio::test(start_paused = true)]
async fn a_request_to_a_later_upstream_is_guarded_there_and_never_goes_back() {
    let up = Upstream::default();
    let (layer, _) = layer(
        vec![key("primary", 10_000), key("backup", 10_000)],
        &["https://primary.test", "http://backup.test:8080/openai"],
    );
    let mut svc = layer.layer(up.clone());
    let (status, _, _) = call(
        &mut svc,
        post("http://backup.test:8080/openai/v1/chat/completions", CHAT),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        up.seen()[0].uri,
        "http://backup.test:8080/openai/v1/chat/completions"
    );
    // The backup is dead: the call has nowhere after it to go, and the primary (before it) is not tried.
    up.push(Reply::Fail);
    let (status, _, body) = call(
        &mut svc,
        post("http://backup.test:8080/openai/v1/chat/completions", CHAT),
    )
    .await;
    assert_eq!(status, 502, "{body}");
    assert_eq!(up.seen().len(), 2);
    assert!(up
        .seen()
        .iter()
        .all(|s| s.uri.host() == Some("backup.test")));
    assert_eq!(layer.guard().held_tokens(), 0);
}
