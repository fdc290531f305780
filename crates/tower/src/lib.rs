//! [`llm-preflight`](llm_preflight)'s guarded call as a [`tower`](https://docs.rs/tower) `Layer`.
//!
//! [`PreflightLayer`] wraps any `Service<http::Request<B>>` that answers `http::Response<B2>`: hyper's client, an
//! axum handler, a tower-http stack, or reqwest through a `map_request`/`map_response` adapter. For each `POST` to
//! one of the guard's upstreams it reads the body once (bounded by [`LayerConfig::max_request_bytes`]), drives a
//! core [`Call`](llm_preflight::Call) with tokio's clock, forwards to the inner service as the call says (the same
//! path and headers, the body byte for byte unless a fallback's model is written into it), and answers the client
//! itself when the core says so: 413 for a request no budget can ever hold, 429 with `retry-after` for one shed by
//! its deadline or a full queue, or the provider's own refusal when it is not retried. A success's body, streamed
//! or not, is passed through untouched while the call reads each chunk (an error frame inside a 200 stream, the
//! final usage) to settle its reservation. Every decision is the core's; this crate moves bytes and time.
//!
//! Which requests are guarded: a request whose URI is absolute and starts with one of the upstreams' base URIs,
//! and a request whose URI is only a path (a reverse proxy handing on what it received), which is sent to
//! `base + path`. A request is guarded against the upstream its URI names (a path alone: the first), and a fallback
//! sends the same path and body to the upstreams after it, in order, of the same API shape. Anything else (other hosts, other methods) goes to the inner
//! service as it came, its body collected first within the same bound.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use llm_preflight::{Budget, Guard, GuardConfig, Provider, Target};
//! use llm_preflight_tower::{LayerConfig, PreflightLayer};
//! use tower_layer::Layer;
//! let budget = Budget::new(Provider::OpenAi).tokens_per_minute(30_000.try_into()?);
//! let guard = Guard::new(vec![Target::new("openai", budget)], GuardConfig::default())?;
//! let layer = PreflightLayer::new(guard, vec!["https://api.openai.com".parse()?], LayerConfig::default())?;
//! # let client = tower_service_fn();
//! let guarded = layer.layer(client); // a Service<http::Request<_>>, as the client was
//! # Ok(()) }
//! # fn tower_service_fn() -> impl Clone { () }
//! ```
//!
//! ## Events, logs and metrics
//!
//! Every [`CallEvent`](llm_preflight::CallEvent) reaches [`LayerConfig::on_event`] as an [`Event`]. With the `tracing` feature each is also a
//! `tracing` event (fields `call`, `at_ms`, `provider`, `event`, `detail`): `info` for `shed`, `never_sendable`,
//! `refused`, `fell_back` and `breaker_open`, `warn` for `transport_error` and `ledger_error`, `debug` otherwise.
//! With the `metrics` feature they are recorded through the `metrics` facade:
//!
//! | name | kind | labels | what |
//! |---|---|---|---|
//! | `llm_preflight_events_total` | counter | `event`, `provider` | every event |
//! | `llm_preflight_refusals_total` | counter | `provider`, `kind` | refusals by kind (`rate_limit_tokens`, `quota_exhausted`, ...) |
//! | `llm_preflight_calls_total` | counter | `end` | calls ended: `succeeded`, `answered`, `failed`, `abandoned` |
//! | `llm_preflight_call_seconds` | histogram | `end` | from the request's arrival to its end |
//! | `llm_preflight_queue_wait_seconds` | histogram | `provider` | from queued to admitted |
//! | `llm_preflight_prompt_ratio` | histogram | `provider` | the provider's prompt count over the estimate, per answer that reported one |
//! | `llm_preflight_learned_ratio` | gauge | `provider` | what the guard has learned of the provider's counting |
//! | `llm_preflight_held_tokens` | gauge | | tokens held by reservations in flight, after each call's end |
//! | `llm_preflight_in_flight` | gauge | | reservations in flight, after each call's end |

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod body;
mod events;

pub use body::GuardedBody;
pub use events::Event;

use bytes::Bytes;
use http::header::{CONTENT_LENGTH, HOST, TRANSFER_ENCODING};
use http::uri::{Authority, PathAndQuery, Scheme};
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, Response, StatusCode, Uri};
use http_body::Body;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use llm_preflight::{Answer, Disposition, Guard, Step};
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::Instant;
use tower_layer::Layer;
use tower_service::Service;

/// The error type of the guarded service: the inner service's error when the call could not go on without it
/// (only where nothing else can be done: a pass-through request), or a body that could not be read.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A callback for every event of every call.
pub type EventFn = Arc<dyn Fn(&Event<'_>) + Send + Sync>;

/// How the layer moves bytes and time.
#[derive(Clone)]
pub struct LayerConfig {
    /// How long a call may wait to start (queued, or waiting out a retry-after) before it is shed.
    pub deadline: Duration,
    /// The largest request body read; a larger one is answered 413 without being sent.
    pub max_request_bytes: usize,
    /// The most of a refusal's body read before the call decides (a success's body is passed through whole).
    pub max_response_bytes: usize,
    /// Called with every event of every call, in order.
    pub on_event: Option<EventFn>,
    /// The seed of the retry jitter's draws (`None`: from the clock).
    pub jitter_seed: Option<u64>,
}

impl Default for LayerConfig {
    /// A 30 s deadline, 8 MiB requests, 1 MiB refusal bodies, no callback, jitter seeded from the clock.
    fn default() -> Self {
        LayerConfig {
            deadline: Duration::from_secs(30),
            max_request_bytes: 8 << 20,
            max_response_bytes: 1 << 20,
            on_event: None,
            jitter_seed: None,
        }
    }
}

impl fmt::Debug for LayerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LayerConfig")
            .field("deadline", &self.deadline)
            .field("max_request_bytes", &self.max_request_bytes)
            .field("max_response_bytes", &self.max_response_bytes)
            .field("on_event", &self.on_event.as_ref().map(|_| "Fn"))
            .field("jitter_seed", &self.jitter_seed)
            .finish()
    }
}

/// A layer that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayerError {
    /// One base URI per guard target, in the guard's order.
    BaseCount {
        /// The guard's targets.
        targets: usize,
        /// The base URIs given.
        bases: usize,
    },
    /// A base URI without a scheme and authority (`https://api.openai.com`, optionally with a path prefix).
    NotAbsolute(String),
}

impl fmt::Display for LayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayerError::BaseCount { targets, bases } => write!(
                f,
                "the guard has {targets} targets but {bases} base URIs were given (one each, in order)"
            ),
            LayerError::NotAbsolute(u) => write!(
                f,
                "base URI {u:?} is not absolute (it needs a scheme and a host, as https://api.openai.com)"
            ),
        }
    }
}

impl std::error::Error for LayerError {}

#[derive(Debug)]
struct Base {
    scheme: Scheme,
    authority: Authority,
    /// The path prefix, without a trailing slash (`""` or `/openai/v1`).
    path: String,
}

impl Base {
    /// The rest of `uri` after this base, when `uri` is under it.
    fn strip<'u>(&self, uri: &'u Uri) -> Option<&'u str> {
        if uri.scheme() != Some(&self.scheme)
            || !uri
                .authority()
                .is_some_and(|a| a.as_str().eq_ignore_ascii_case(self.authority.as_str()))
        {
            return None;
        }
        let pq = uri.path_and_query().map_or("/", PathAndQuery::as_str);
        let rest = pq.strip_prefix(self.path.as_str())?;
        (rest.is_empty() || rest.starts_with('/') || rest.starts_with('?')).then_some(rest)
    }

    fn join(&self, rest: &str) -> Result<Uri, http::Error> {
        Uri::builder()
            .scheme(self.scheme.clone())
            .authority(self.authority.clone())
            .path_and_query(format!("{}{rest}", self.path))
            .build()
    }
}

pub(crate) struct Shared {
    pub(crate) guard: Guard,
    bases: Vec<Base>,
    pub(crate) names: Vec<String>,
    config: LayerConfig,
    epoch: Instant,
    rng: Mutex<u64>,
    pub(crate) next_id: AtomicU64,
}

impl Shared {
    pub(crate) fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// A uniform draw in `[0, 1)` for a retry's jitter (SplitMix64).
    pub(crate) fn random(&self) -> f64 {
        let mut s = self.rng.lock().unwrap_or_else(|p| p.into_inner());
        *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    pub(crate) fn on_event(&self) -> Option<&EventFn> {
        self.config.on_event.as_ref()
    }
}

/// The guarded call as a tower [`Layer`]. Cheap to clone; every service it makes shares one [`Guard`].
///
/// `B` is the request body type of the wrapped service, built from the bytes read (`Full<Bytes>` by default, as
/// hyper's client takes; [`PreflightLayer::with_body`] picks another, as axum's `Body`).
pub struct PreflightLayer<B = Full<Bytes>> {
    shared: Arc<Shared>,
    _body: PhantomData<fn() -> B>,
}

impl<B> Clone for PreflightLayer<B> {
    fn clone(&self) -> Self {
        PreflightLayer {
            shared: self.shared.clone(),
            _body: PhantomData,
        }
    }
}

impl<B> fmt::Debug for PreflightLayer<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PreflightLayer")
            .field("upstreams", &self.shared.names)
            .field("config", &self.shared.config)
            .finish()
    }
}

impl PreflightLayer {
    /// A layer over `guard`, whose targets are reached at `bases` (one each, in the guard's order: scheme, host
    /// and an optional path prefix such as `https://example.openai.azure.com/openai`).
    pub fn new(guard: Guard, bases: Vec<Uri>, config: LayerConfig) -> Result<Self, LayerError> {
        let names = guard.target_names();
        if names.len() != bases.len() {
            return Err(LayerError::BaseCount {
                targets: names.len(),
                bases: bases.len(),
            });
        }
        let bases = bases
            .into_iter()
            .map(|u| {
                let parts = u.clone().into_parts();
                match (parts.scheme, parts.authority) {
                    (Some(scheme), Some(authority)) => Ok(Base {
                        scheme,
                        authority,
                        path: u.path().trim_end_matches('/').to_string(),
                    }),
                    _ => Err(LayerError::NotAbsolute(u.to_string())),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        let seed = config.jitter_seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        });
        Ok(PreflightLayer {
            shared: Arc::new(Shared {
                guard,
                bases,
                names,
                config,
                epoch: Instant::now(),
                rng: Mutex::new(seed),
                next_id: AtomicU64::new(1),
            }),
            _body: PhantomData,
        })
    }
}

impl<B> PreflightLayer<B> {
    /// The same layer for a wrapped service whose request body type is `B2` (built from the bytes read).
    pub fn with_body<B2: From<Bytes>>(self) -> PreflightLayer<B2> {
        PreflightLayer {
            shared: self.shared,
            _body: PhantomData,
        }
    }

    /// The guard every call goes through (its state, what it holds, what it learned).
    pub fn guard(&self) -> &Guard {
        &self.shared.guard
    }

    /// The clock the guard is driven with: milliseconds since the layer was made (tokio's clock), the `now_ms` to
    /// read [`Guard::state`] at.
    pub fn now_ms(&self) -> u64 {
        self.shared.now_ms()
    }
}

impl<S, B> Layer<S> for PreflightLayer<B> {
    type Service = Preflight<S, B>;

    fn layer(&self, inner: S) -> Self::Service {
        Preflight {
            inner,
            shared: self.shared.clone(),
            _body: PhantomData,
        }
    }
}

/// A service with the guarded call around it; made by [`PreflightLayer`].
pub struct Preflight<S, B = Full<Bytes>> {
    inner: S,
    shared: Arc<Shared>,
    _body: PhantomData<fn() -> B>,
}

impl<S: Clone, B> Clone for Preflight<S, B> {
    fn clone(&self) -> Self {
        Preflight {
            inner: self.inner.clone(),
            shared: self.shared.clone(),
            _body: PhantomData,
        }
    }
}

impl<S: fmt::Debug, B> fmt::Debug for Preflight<S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Preflight")
            .field("inner", &self.inner)
            .field("upstreams", &self.shared.names)
            .finish()
    }
}

impl<S, B> Preflight<S, B> {
    /// The guard every call goes through.
    pub fn guard(&self) -> &Guard {
        &self.shared.guard
    }
}

impl<S, ReqB, B, ResB> Service<Request<ReqB>> for Preflight<S, B>
where
    S: Service<Request<B>, Response = Response<ResB>> + Clone + Send + 'static,
    S::Future: Send,
    S::Error: Into<BoxError>,
    ReqB: Body + Send + 'static,
    ReqB::Data: Send,
    ReqB::Error: Into<BoxError>,
    B: From<Bytes> + Send + 'static,
    ResB: Body<Data = Bytes> + Send + 'static,
    ResB::Error: Into<BoxError>,
{
    type Response = Response<GuardedBody<ResB>>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, BoxError>> + Send>>;

    /// Always ready: the inner service's readiness is awaited before each send, which may come later (queued,
    /// retried) or go elsewhere.
    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<ReqB>) -> Self::Future {
        Box::pin(run(self.shared.clone(), self.inner.clone(), req))
    }
}

async fn send<S, B, ResB>(svc: &mut S, req: Request<B>) -> Result<Response<ResB>, BoxError>
where
    S: Service<Request<B>, Response = Response<ResB>>,
    S::Error: Into<BoxError>,
{
    std::future::poll_fn(|cx| svc.poll_ready(cx))
        .await
        .map_err(Into::into)?;
    svc.call(req).await.map_err(Into::into)
}

/// The layer's own answer to a body past [`LayerConfig::max_request_bytes`].
fn request_too_large(limit: usize) -> Answer {
    Answer {
        status: 413,
        headers: vec![("content-type".into(), "application/json".into())],
        body: format!(
            r#"{{"error":{{"type":"request_too_large","message":"the request body is larger than the gateway reads ({limit} bytes)"}}}}"#
        ),
    }
}

fn answer<ResB>(a: Answer) -> Response<GuardedBody<ResB>> {
    let mut headers = HeaderMap::new();
    for (n, v) in &a.headers {
        let (Ok(n), Ok(v)) = (
            HeaderName::from_bytes(n.as_bytes()),
            HeaderValue::from_str(v),
        ) else {
            continue;
        };
        // The body is the answer's own; its length is set from it.
        if n != CONTENT_LENGTH && n != TRANSFER_ENCODING {
            headers.append(n, v);
        }
    }
    let mut res = Response::new(GuardedBody::full(Bytes::from(a.body)));
    *res.status_mut() = StatusCode::from_u16(a.status).unwrap_or(StatusCode::BAD_GATEWAY);
    *res.headers_mut() = headers;
    res
}

async fn read_bounded<ReqB>(body: ReqB, limit: usize) -> Result<Result<Bytes, Answer>, BoxError>
where
    ReqB: Body,
    ReqB::Error: Into<BoxError>,
{
    match Limited::new(body, limit).collect().await {
        Ok(c) => Ok(Ok(c.to_bytes())),
        Err(e) if e.is::<LengthLimitError>() => Ok(Err(request_too_large(limit))),
        Err(e) => Err(e),
    }
}

async fn run<S, ReqB, B, ResB>(
    shared: Arc<Shared>,
    mut svc: S,
    req: Request<ReqB>,
) -> Result<Response<GuardedBody<ResB>>, BoxError>
where
    S: Service<Request<B>, Response = Response<ResB>>,
    S::Error: Into<BoxError>,
    ReqB: Body,
    ReqB::Error: Into<BoxError>,
    B: From<Bytes>,
    ResB: Body<Data = Bytes>,
    ResB::Error: Into<BoxError>,
{
    let (mut parts, body) = req.into_parts();
    let limit = shared.config.max_request_bytes;
    // The path to send under a base: all of a relative URI (guarded from the first upstream), or what follows the
    // matched base (guarded from that upstream; fallbacks go to the ones after it).
    let rest = if parts.uri.authority().is_none() {
        parts
            .uri
            .path_and_query()
            .map(|p| (0, p.as_str().to_string()))
    } else {
        shared
            .bases
            .iter()
            .enumerate()
            .find_map(|(i, b)| b.strip(&parts.uri).map(|r| (i, r.to_string())))
    };
    let bytes = match read_bounded(body, limit).await? {
        Ok(b) => b,
        Err(a) => return Ok(answer(a)),
    };
    let Some((first, rest)) = rest.filter(|_| parts.method == Method::POST) else {
        let res = send(&mut svc, Request::from_parts(parts, B::from(bytes))).await?;
        return Ok(res.map(GuardedBody::plain));
    };
    for h in [HOST, CONTENT_LENGTH, TRANSFER_ENCODING] {
        parts.headers.remove(h);
    }

    let started = shared.now_ms();
    let deadline = started + shared.config.deadline.as_millis() as u64;
    let mut call = shared.guard.start_bytes(&bytes, first, deadline, started);
    let mut events = events::Emitter::new(shared.clone(), started);
    loop {
        let now = shared.now_ms().max(started);
        let step = call.poll(now);
        events.emit(&mut call);
        match step {
            Step::Send { target, body, .. } => {
                // The client's bytes as they came unless the call rewrote them (a fallback's model, a shrunk cap).
                let out = if body.as_bytes() == bytes.as_ref() {
                    bytes.clone()
                } else {
                    Bytes::from(body)
                };
                let mut req = Request::new(B::from(out.clone()));
                *req.method_mut() = Method::POST;
                *req.uri_mut() = shared.bases[target].join(&rest)?;
                *req.version_mut() = parts.version;
                *req.headers_mut() = parts.headers.clone();
                req.headers_mut()
                    .insert(CONTENT_LENGTH, HeaderValue::from(out.len()));
                let res = match send(&mut svc, req).await {
                    Ok(res) => res,
                    Err(_) => {
                        call.on_transport_error(shared.now_ms());
                        events.emit(&mut call);
                        continue;
                    }
                };
                let (head, body) = res.into_parts();
                let headers = head
                    .headers
                    .iter()
                    .filter_map(|(n, v)| v.to_str().ok().map(|v| (n.as_str(), v)));
                match call.on_response(head.status.as_u16(), headers, shared.now_ms()) {
                    Disposition::PassThrough => {
                        events.emit(&mut call);
                        let watch = body::Watch::new(call, events);
                        return Ok(Response::from_parts(
                            head,
                            GuardedBody::watched(body, watch),
                        ));
                    }
                    Disposition::Hold | Disposition::Ignore => {
                        events.emit(&mut call);
                        let mut read = 0;
                        let mut body = std::pin::pin!(body);
                        loop {
                            match body.frame().await {
                                Some(Ok(f)) => {
                                    if let Some(d) = f.data_ref() {
                                        call.on_body(d, shared.now_ms());
                                        read += d.len();
                                        if read > shared.config.max_response_bytes {
                                            break;
                                        }
                                    }
                                }
                                Some(Err(_)) => {
                                    call.on_transport_error(shared.now_ms());
                                    break;
                                }
                                None => break,
                            }
                        }
                        call.on_end(shared.now_ms(), shared.random());
                        events.emit(&mut call);
                    }
                }
            }
            Step::Wait { until_ms } => {
                tokio::time::sleep_until(shared.epoch + Duration::from_millis(until_ms)).await;
            }
            Step::Answer(a) => return Ok(answer(a)),
            Step::Done(o) => {
                events.emit(&mut call);
                return Ok(answer(Answer {
                    status: o.status.unwrap_or(502),
                    headers: vec![("content-type".into(), "application/json".into())],
                    body: serde_json::json!({"error": {"type": "guard", "message": o.reason}})
                        .to_string(),
                }));
            }
            Step::Awaiting => {
                // Nothing is outstanding in this driver when it polls: a transport error ends the wait.
                call.on_transport_error(shared.now_ms());
                events.emit(&mut call);
            }
        }
    }
}
