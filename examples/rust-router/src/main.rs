//! `rust-router`: a preflight proxy in front of OpenAI-compatible upstreams. Environment: `UPSTREAM` (default
//! `http://127.0.0.1:8787`, as `node examples/fake-upstream/server.mjs` serves), `TPM` (default 10000), `RPM`,
//! `BACKUP` and `BACKUP_TPM` (a second upstream), `PORT` (default 8080), `POLICY` (median, conservative,
//! optimistic). Listens on 127.0.0.1; `GET /metrics` in Prometheus text.

use llm_preflight::{Budget, Policy, Provider};
use std::net::{Ipv4Addr, SocketAddr};

fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    let v = std::env::var(name).ok()?;
    Some(
        v.trim()
            .parse()
            .unwrap_or_else(|_| exit(&format!("{name}={v:?} cannot be read"))),
    )
}

fn exit<T>(why: &str) -> T {
    eprintln!("{why}");
    std::process::exit(2)
}

fn budget(tpm: &str, rpm: &str) -> Budget {
    let b = Budget::new(Provider::OpenAi)
        .tokens_per_minute(env(tpm).unwrap_or(10_000.try_into().unwrap()));
    env(rpm).map_or(b.clone(), |rpm| b.requests_per_minute(rpm))
}

#[tokio::main]
async fn main() {
    let metrics = metrics_exporter_prometheus::PrometheusBuilder::new().install_recorder();
    let metrics = metrics.unwrap_or_else(|e| exit(&format!("metrics: {e}")));
    let upstream = env("UPSTREAM").unwrap_or_else(|| "http://127.0.0.1:8787".parse().unwrap());
    let mut config = rust_router::Config::new(upstream, budget("TPM", "RPM"));
    if let Some(backup) = env("BACKUP") {
        config
            .upstreams
            .push(("backup".into(), backup, budget("BACKUP_TPM", "BACKUP_RPM")));
    }
    if let Ok(p) = std::env::var("POLICY") {
        config.guard.policy = Policy::from_name(&p).unwrap_or_else(|e| exit(&e.to_string()));
    }
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, env("PORT").unwrap_or(8080)));
    match rust_router::spawn(config, addr, Some(metrics)).await {
        Ok(running) => println!("rust-router on http://{}", running.addr),
        Err(e) => exit(&format!("cannot listen on {addr}: {e}")),
    }
    std::future::pending::<()>().await;
}
