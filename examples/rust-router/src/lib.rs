//! A minimal LLM proxy with `llm-preflight` on the request path: hyper's server and client with
//! [`PreflightLayer`] between them. Every decision (estimate, 413 for what never fits, queue or shed, retry after
//! `retry-after`, fall back, settle at the reported usage) is the core's, through the layer; this file only wires
//! sockets and serves `/metrics`.

#![forbid(unsafe_code)]

use http_body_util::{Either, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{service::service_fn, Method, Request, Response, Uri};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::{TokioExecutor, TokioIo};
use llm_preflight::{Budget, Guard, GuardConfig, Policy, Target};
use llm_preflight_tower::{BoxError, GuardedBody, LayerConfig, Preflight, PreflightLayer};
use metrics_exporter_prometheus::PrometheusHandle;
use std::net::SocketAddr;
use tower_layer::Layer;
use tower_service::Service;

/// The upstreams in preference order (a name, a base URL `http://host:port`, the key's limits), how the guard
/// decides and how the layer moves bytes and time (its deadline, its event callback).
#[derive(Debug, Clone)]
pub struct Config {
    pub upstreams: Vec<(String, Uri, Budget)>,
    pub guard: GuardConfig,
    pub layer: LayerConfig,
}

impl Config {
    /// One upstream; the conservative policy (p95), 30 s of queued work, 20 s deadlines.
    pub fn new(upstream: Uri, budget: Budget) -> Config {
        let guard = GuardConfig {
            policy: Policy::Conservative,
            max_queue_work_ms: 30_000,
            ..Default::default()
        };
        let layer = LayerConfig {
            deadline: std::time::Duration::from_secs(20),
            ..Default::default()
        };
        Config {
            upstreams: vec![("primary".into(), upstream, budget)],
            guard,
            layer,
        }
    }
}

type Guarded = Preflight<Client<HttpConnector, Full<Bytes>>>;

/// A router listening on `addr`; `layer` gives its guard and the clock the guard is driven with.
pub struct Running {
    pub addr: SocketAddr,
    pub layer: PreflightLayer,
}

/// Starts the router on `addr`; `metrics` (a Prometheus recorder's handle) is served at `GET /metrics`.
pub async fn spawn(
    config: Config,
    addr: SocketAddr,
    metrics: Option<PrometheusHandle>,
) -> std::io::Result<Running> {
    let targets = config
        .upstreams
        .iter()
        .map(|(n, _, b)| Target::new(n, b.clone()))
        .collect();
    let guard = Guard::new(targets, config.guard).map_err(std::io::Error::other)?;
    let bases = config.upstreams.into_iter().map(|(_, u, _)| u).collect();
    let layer = PreflightLayer::new(guard, bases, config.layer).map_err(std::io::Error::other)?;
    let guarded: Guarded = layer.layer(Client::builder(TokioExecutor::new()).build_http());
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (guarded, metrics) = (guarded.clone(), metrics.clone());
            let service = service_fn(move |req| handle(guarded.clone(), metrics.clone(), req));
            let http = hyper::server::conn::http1::Builder::new();
            tokio::spawn(http.serve_connection(TokioIo::new(stream), service));
        }
    });
    Ok(Running { addr, layer })
}

type Answer = Response<Either<GuardedBody<Incoming>, Full<Bytes>>>;

async fn handle(
    mut guarded: Guarded,
    metrics: Option<PrometheusHandle>,
    req: Request<Incoming>,
) -> Result<Answer, BoxError> {
    if req.method() == Method::GET && req.uri().path() == "/metrics" {
        let text = metrics.map(|m| m.render()).unwrap_or_default();
        let res = Response::builder().header("content-type", "text/plain; version=0.0.4");
        return Ok(res.body(Either::Right(Full::new(Bytes::from(text))))?);
    }
    // The layer is always ready (it awaits the client's readiness before each send).
    Ok(guarded.call(req).await?.map(Either::Left))
}
