//! A minimal LLM proxy that puts `llm-preflight` on the request path.
//!
//! For every `POST` with an OpenAI-style body (chat completions, Responses, Anthropic messages, Gemini):
//!
//! 1. estimate the whole body ([`estimate_request`]) into a [`Cost`] (prompt band plus the output cap the
//!    provider reserves at admission);
//! 2. check it against the key's budget and the shared [`Ledger`]: a request that no wait can make fit is answered
//!    at once with **413** and a JSON error saying which limit, what it needs and by how much it must shrink; the
//!    upstream never sees it;
//! 3. otherwise offer it to an [`AdmissionQueue`] bounded in milliseconds of work: sendable requests are reserved
//!    and forwarded at once, queueable ones are held until their wait has passed (or shed with **429** and
//!    `retry-after` when they could not start before their deadline or the queue is full);
//! 4. forward to the upstream, then settle the reservation against the response's `usage` (or release it when the
//!    upstream failed or refused), and read the response's rate-limit headers back into the ledger. An upstream
//!    429 carrying `retry-after` is retried (a bounded number of times) after that wait, through the queue.
//!
//! The core never reads a clock; this example is the edge, so it does: a monotonic clock for the ledger and the
//! queue ([`Router::now_ms`]), and the wall clock only to turn dated headers (`retry-after` as an HTTP-date,
//! Anthropic's RFC 3339 resets) into waits. Waits are relative, so the two clocks never mix.

#![forbid(unsafe_code)]

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderMap, HeaderValue, CONTENT_TYPE, RETRY_AFTER};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode, Uri};
use hyper_util::rt::TokioIo;
use llm_preflight::{
    estimate_request, AdmissionQueue, Budget, Cost, Dimension, Ledger, Offer, Policy,
    RateLimitSnapshot, Reservation, Shed, ShedReason, Usage, Verdict,
};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, Notify};

/// How the router is set up.
#[derive(Debug, Clone)]
pub struct Config {
    /// The upstream's base URL, `http://host:port` (plain HTTP: this is an example).
    pub upstream: Uri,
    /// The key's limits as configured; the upstream's rate-limit headers refine them after each response.
    pub budget: Budget,
    /// Which end of the estimate's band to decide on.
    pub policy: Policy,
    /// The admission queue's bound, in milliseconds of work.
    pub max_queue_ms: u64,
    /// How long a request may wait for admission (its deadline, from arrival or from a retry).
    pub deadline_ms: u64,
    /// Retries of an upstream 429 that carries `retry-after`.
    pub max_retries: u32,
    /// The longest an upstream exchange may take.
    pub upstream_timeout: Duration,
    /// The largest request body accepted.
    pub max_body_bytes: usize,
}

impl Config {
    /// Defaults around an upstream and a budget: conservative policy (p95), 30 s of queued work, 20 s deadlines,
    /// 2 retries, 60 s upstream timeout, 8 MiB bodies.
    pub fn new(upstream: Uri, budget: Budget) -> Config {
        Config {
            upstream,
            budget,
            policy: Policy::Conservative,
            max_queue_ms: 30_000,
            deadline_ms: 20_000,
            max_retries: 2,
            upstream_timeout: Duration::from_secs(60),
            max_body_bytes: 8 << 20,
        }
    }
}

/// Counters, for tests and logs.
#[derive(Debug, Default)]
struct Counters {
    received: AtomicU64,
    forwarded: AtomicU64,
    queued: AtomicU64,
    rejected_413: AtomicU64,
    shed_429: AtomicU64,
    upstream_429: AtomicU64,
    upstream_errors: AtomicU64,
    retries: AtomicU64,
    settled: AtomicU64,
    released: AtomicU64,
    headers_read: AtomicU64,
}

/// A copy of the router's counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Requests received.
    pub received: u64,
    /// Upstream exchanges started (retries included).
    pub forwarded: u64,
    /// Requests that waited in the admission queue.
    pub queued: u64,
    /// Never-sendable requests answered with 413.
    pub rejected_413: u64,
    /// Requests shed by the queue with 429 (deadline unreachable, queue full).
    pub shed_429: u64,
    /// 429 answers from the upstream.
    pub upstream_429: u64,
    /// Upstream exchanges that failed (connection, timeout, unreadable answer).
    pub upstream_errors: u64,
    /// Upstream 429s retried after their `retry-after`.
    pub retries: u64,
    /// Reservations settled against reported usage.
    pub settled: u64,
    /// Reservations released (failure or refusal).
    pub released: u64,
    /// Responses whose rate-limit headers were read back into the ledger.
    pub headers_read: u64,
}

type Waiter = oneshot::Sender<Result<Reservation, Shed>>;

struct Shared {
    config: Config,
    ledger: Ledger,
    queue: Mutex<AdmissionQueue<Waiter>>,
    wake: Notify,
    epoch: Instant,
    counters: Counters,
}

/// A running router. Cloning shares it.
#[derive(Clone)]
pub struct Router {
    shared: Arc<Shared>,
}

/// A router listening on an address.
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The router, to inspect its ledger and counters.
    pub router: Router,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn unix_now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl Router {
    /// A router with full buckets now. Call [`Router::serve`] (or [`spawn`]) to accept connections.
    pub fn new(config: Config) -> Router {
        let epoch = Instant::now();
        let ledger = Ledger::new(llm_preflight::State::new(config.budget.clone(), 0));
        let queue = AdmissionQueue::new(ledger.clone(), config.policy, config.max_queue_ms);
        Router {
            shared: Arc::new(Shared {
                config,
                ledger,
                queue: Mutex::new(queue),
                wake: Notify::new(),
                epoch,
                counters: Counters::default(),
            }),
        }
    }

    /// Milliseconds on the router's monotonic clock: the `now_ms` every core call gets.
    pub fn now_ms(&self) -> u64 {
        self.shared.epoch.elapsed().as_millis() as u64
    }

    /// The shared ledger (budget, buckets, reservations in flight).
    pub fn ledger(&self) -> &Ledger {
        &self.shared.ledger
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        let c = &self.shared.counters;
        let g = |a: &AtomicU64| a.load(Ordering::Relaxed);
        Stats {
            received: g(&c.received),
            forwarded: g(&c.forwarded),
            queued: g(&c.queued),
            rejected_413: g(&c.rejected_413),
            shed_429: g(&c.shed_429),
            upstream_429: g(&c.upstream_429),
            upstream_errors: g(&c.upstream_errors),
            retries: g(&c.retries),
            settled: g(&c.settled),
            released: g(&c.released),
            headers_read: g(&c.headers_read),
        }
    }

    fn count(&self, f: impl Fn(&Counters) -> &AtomicU64) {
        f(&self.shared.counters).fetch_add(1, Ordering::Relaxed);
    }

    /// Accepts connections on `listener` forever, with the queue's poller alongside.
    pub async fn serve(self, listener: TcpListener) {
        tokio::spawn(self.clone().run_queue());
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let router = self.clone();
            tokio::spawn(async move {
                let service = service_fn(move |req| {
                    let router = router.clone();
                    async move { Ok::<_, Infallible>(router.handle(req).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    }

    /// The queue's clock: hands out what is due, sheds what can no longer start, and sleeps until the queue says
    /// to wake (or until a request is queued or capacity comes back).
    async fn run_queue(self) {
        loop {
            let now = self.now_ms();
            let poll = lock(&self.shared.queue).poll(now);
            for (waiter, reservation) in poll.admitted {
                // A client that went away drops its receiver; the reservation comes back here and its Drop releases it.
                let _ = waiter.send(Ok(reservation));
            }
            for (waiter, shed) in poll.shed {
                let _ = waiter.send(Err(shed));
            }
            match poll.wake_at_ms {
                Some(at) => {
                    let sleep = Duration::from_millis(at.saturating_sub(self.now_ms()));
                    tokio::select! {
                        _ = tokio::time::sleep(sleep) => {}
                        _ = self.shared.wake.notified() => {}
                    }
                }
                None => self.shared.wake.notified().await,
            }
        }
    }

    /// Waits for admission: at once when the request fits and nothing waits, else in the queue.
    async fn admit(&self, cost: &Cost) -> Result<Reservation, Shed> {
        let (tx, rx) = oneshot::channel();
        let now = self.now_ms();
        let deadline = now.saturating_add(self.shared.config.deadline_ms);
        let offer = lock(&self.shared.queue).offer(tx, cost.clone(), deadline, now);
        match offer {
            Offer::Admitted { reservation, .. } => Ok(reservation),
            Offer::Shed { shed, .. } => Err(shed),
            Offer::Queued { .. } => {
                self.count(|c| &c.queued);
                self.shared.wake.notify_one();
                // Bounded: the queue sheds anything that cannot start by its deadline; the margin only guards
                // against a poller that stopped.
                let bound = Duration::from_millis(self.shared.config.deadline_ms + 5_000);
                match tokio::time::timeout(bound, rx).await {
                    Ok(Ok(answer)) => answer,
                    _ => Err(Shed {
                        reason: ShedReason::DeadlineUnreachable {
                            earliest_start_ms: deadline,
                            deadline_ms: deadline,
                        },
                        retry_after_ms: Some(1_000),
                        message: "the admission queue did not answer in time".into(),
                    }),
                }
            }
        }
    }

    async fn handle(&self, req: Request<Incoming>) -> Response<Full<Bytes>> {
        self.count(|c| &c.received);
        if req.method() != Method::POST {
            return error(
                StatusCode::METHOD_NOT_ALLOWED,
                "POST an OpenAI-style request body",
                "method_not_allowed",
            );
        }
        let (parts, body) = req.into_parts();
        let body = match Limited::new(body, self.shared.config.max_body_bytes)
            .collect()
            .await
        {
            Ok(b) => b.to_bytes(),
            Err(e) => {
                return error(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    &format!("could not read the request body: {e}"),
                    "invalid_request_error",
                )
            }
        };
        let text = match std::str::from_utf8(&body) {
            Ok(t) => t,
            Err(_) => {
                return error(
                    StatusCode::BAD_REQUEST,
                    "the request body is not UTF-8",
                    "invalid_request_error",
                )
            }
        };
        let estimate = match estimate_request(text, None, None) {
            Ok(e) => e,
            Err(e) => {
                return error(
                    StatusCode::BAD_REQUEST,
                    &e.to_string(),
                    "invalid_request_error",
                )
            }
        };
        let cost = estimate.cost();

        // Never sendable: answer now, with the numbers, and whether it holds even at the band's favourable end.
        let check = self
            .ledger()
            .check(&cost, self.shared.config.policy, self.now_ms());
        if let Verdict::NeverSendable {
            dimension,
            limit,
            needed,
            excess,
        } = check.verdict
        {
            self.count(|c| &c.rejected_413);
            return too_large(
                dimension,
                limit,
                needed,
                excess,
                Some(check.holds_across_band),
            );
        }

        let path = parts
            .uri
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_string();
        let mut attempt = 0u32;
        loop {
            let reservation = match self.admit(&cost).await {
                Ok(r) => r,
                Err(shed) => return self.shed(shed),
            };
            self.count(|c| &c.forwarded);
            let exchange = tokio::time::timeout(
                self.shared.config.upstream_timeout,
                post(
                    &self.shared.config.upstream,
                    &path,
                    &parts.headers,
                    body.clone(),
                ),
            )
            .await;
            let (status, headers, answer) = match exchange {
                Ok(Ok(r)) => r,
                Ok(Err(e)) => return self.upstream_failed(reservation, &e),
                Err(_) => return self.upstream_failed(reservation, "timed out"),
            };
            let observed = RateLimitSnapshot::from_headers(header_pairs(&headers), unix_now_ms());
            let retry_after = observed.snapshot.retry_after_ms;
            if status.is_success() {
                // Settle against what the provider reports it used; without a usage block, keep what was reserved.
                let usage = serde_json::from_slice::<Value>(&answer)
                    .ok()
                    .and_then(|v| Usage::from_response(&v).ok().flatten())
                    .unwrap_or(Usage {
                        input_tokens: reservation.check().input_tokens,
                        output_tokens: reservation.check().reserved_output,
                    });
                let _ = reservation.settle(usage, self.now_ms());
                self.count(|c| &c.settled);
            } else {
                // Refused or failed before it was counted (a 429 is never charged): give everything back.
                reservation.release();
                self.count(|c| &c.released);
            }
            self.read_back(&observed.snapshot);
            // Capacity came back (a refund, a release, fresher headers): let the queue look again.
            self.shared.wake.notify_one();
            if status == StatusCode::TOO_MANY_REQUESTS {
                self.count(|c| &c.upstream_429);
                if retry_after.is_some() && attempt < self.shared.config.max_retries {
                    // `retry-after` is now in the ledger (nothing is admitted before it): re-queue.
                    attempt += 1;
                    self.count(|c| &c.retries);
                    continue;
                }
            }
            return pass_through(status, &headers, answer);
        }
    }

    /// Reads a response's rate-limit headers into the ledger. With other requests in flight the provider's
    /// `remaining` may predate some of them, and taking it as is would count their capacity twice; then a
    /// reported count is only allowed to lower the local one (and the local refill rate is kept). With nothing in
    /// flight the provider's numbers replace the local ones outright.
    fn read_back(&self, snapshot: &RateLimitSnapshot) {
        if snapshot.is_empty() {
            return;
        }
        let now = self.now_ms();
        let mut obs = *snapshot;
        if self.ledger().in_flight() > 0 {
            for (d, o) in [
                (Dimension::Tokens, &mut obs.tokens),
                (Dimension::Requests, &mut obs.requests),
                (Dimension::InputTokens, &mut obs.input_tokens),
                (Dimension::OutputTokens, &mut obs.output_tokens),
            ] {
                if let (Some(reported), Some(local)) =
                    (o.remaining, self.ledger().available(d, now))
                {
                    let local = local.max(0.0).floor() as u64;
                    if local < reported {
                        o.remaining = Some(local);
                        o.reset_ms = None;
                    }
                }
            }
        }
        self.ledger().observe(&obs, now);
        self.count(|c| &c.headers_read);
    }

    fn upstream_failed(&self, reservation: Reservation, why: &str) -> Response<Full<Bytes>> {
        reservation.release();
        self.count(|c| &c.released);
        self.count(|c| &c.upstream_errors);
        self.shared.wake.notify_one();
        error(
            StatusCode::BAD_GATEWAY,
            &format!("upstream failed: {why}"),
            "bad_gateway",
        )
    }

    fn shed(&self, shed: Shed) -> Response<Full<Bytes>> {
        if let ShedReason::NeverSendable {
            dimension,
            limit,
            needed,
            excess,
        } = shed.reason
        {
            self.count(|c| &c.rejected_413);
            return too_large(dimension, limit, needed, excess, None);
        }
        self.count(|c| &c.shed_429);
        let kind = match shed.reason {
            ShedReason::QueueFull { .. } => "queue_full",
            _ => "deadline_unreachable",
        };
        let mut res = error(StatusCode::TOO_MANY_REQUESTS, &shed.message, kind);
        let secs = shed.retry_after_ms.unwrap_or(1_000).div_ceil(1_000).max(1);
        res.headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from(secs));
        res
    }
}

/// Binds `addr` and serves a router on it in the background.
pub async fn spawn(config: Config, addr: SocketAddr) -> std::io::Result<Running> {
    let listener = TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let router = Router::new(config);
    tokio::spawn(router.clone().serve(listener));
    Ok(Running { addr, router })
}

fn header_pairs(h: &HeaderMap) -> Vec<(&str, &str)> {
    h.iter()
        .filter_map(|(n, v)| v.to_str().ok().map(|v| (n.as_str(), v)))
        .collect()
}

fn json_response(status: StatusCode, body: &Value) -> Response<Full<Bytes>> {
    let mut res = Response::new(Full::new(Bytes::from(body.to_string())));
    *res.status_mut() = status;
    res.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res
}

fn error(status: StatusCode, message: &str, kind: &str) -> Response<Full<Bytes>> {
    json_response(
        status,
        &json!({"error": {"message": message, "type": kind}}),
    )
}

fn too_large(
    dimension: Dimension,
    limit: u64,
    needed: u64,
    excess: u64,
    holds_across_band: Option<bool>,
) -> Response<Full<Bytes>> {
    let what = match dimension {
        Dimension::Context => "the model's context window",
        _ => "this key's per-window limit",
    };
    let message = format!(
        "Request too large: it needs {needed} {dimension} against {what} of {limit}, so no wait can make it fit; \
         shrink it by {excess} (the prompt, or max_tokens) or send it to a larger budget."
    );
    json_response(
        StatusCode::PAYLOAD_TOO_LARGE,
        &json!({"error": {
            "message": message,
            "type": "never_sendable",
            "dimension": dimension.name(),
            "limit": limit,
            "needed": needed,
            "excess": excess,
            "holds_across_band": holds_across_band,
        }}),
    )
}

fn pass_through(status: StatusCode, headers: &HeaderMap, body: Bytes) -> Response<Full<Bytes>> {
    let mut res = Response::new(Full::new(body));
    *res.status_mut() = status;
    for (name, value) in headers {
        let n = name.as_str();
        if n == "content-type"
            || n == "retry-after"
            || n.starts_with("x-ratelimit-")
            || n.starts_with("anthropic-ratelimit-")
        {
            res.headers_mut().append(name.clone(), value.clone());
        }
    }
    res
}

/// One HTTP/1.1 `POST` of a JSON body on a fresh connection: status, headers and the whole answer. Used to
/// forward upstream, and by the tests as a client. Forwards `content-type` and `authorization` from `headers`.
pub async fn post(
    base: &Uri,
    path: &str,
    headers: &HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, HeaderMap, Bytes), String> {
    let authority = base
        .authority()
        .ok_or_else(|| format!("upstream {base} has no host"))?
        .clone();
    let port = authority.port_u16().unwrap_or(80);
    let stream = TcpStream::connect((authority.host(), port))
        .await
        .map_err(|e| format!("connect {authority}: {e}"))?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::spawn(conn);
    let mut req = Request::post(path)
        .header(hyper::header::HOST, authority.as_str())
        .header(CONTENT_TYPE, "application/json");
    if let Some(auth) = headers.get(hyper::header::AUTHORIZATION) {
        req = req.header(hyper::header::AUTHORIZATION, auth.clone());
    }
    let req = req
        .body(Full::new(body))
        .map_err(|e| format!("request: {e}"))?;
    let res = sender
        .send_request(req)
        .await
        .map_err(|e| format!("send: {e}"))?;
    let (parts, body) = res.into_parts();
    let bytes = body
        .collect()
        .await
        .map_err(|e| format!("read answer: {e}"))?
        .to_bytes();
    Ok((parts.status, parts.headers, bytes))
}
