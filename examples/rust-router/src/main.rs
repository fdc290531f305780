//! `rust-router`: a preflight proxy in front of an OpenAI-compatible upstream.
//!
//! Environment: `UPSTREAM` (default `http://127.0.0.1:8787`, e.g. `node examples/fake-upstream/server.mjs`),
//! `TPM` (default 10000), `RPM` (optional), `PORT` (default 8080), `POLICY` (median, conservative, optimistic;
//! default conservative). Listens on 127.0.0.1 only.

use llm_preflight::{Budget, Policy, Provider};
use rust_router::{spawn, Config};
use std::net::{Ipv4Addr, SocketAddr};
use std::num::NonZeroU64;

fn env_limit(name: &str, default: Option<NonZeroU64>) -> Option<NonZeroU64> {
    match std::env::var(name) {
        Ok(v) => match v.trim().parse() {
            Ok(n) => Some(n),
            Err(_) => {
                eprintln!("{name}={v:?} is not a whole number of at least 1");
                std::process::exit(2);
            }
        },
        Err(_) => default,
    }
}

#[tokio::main]
async fn main() {
    let upstream = std::env::var("UPSTREAM").unwrap_or_else(|_| "http://127.0.0.1:8787".into());
    let upstream = match upstream.parse() {
        Ok(u) => u,
        Err(e) => {
            eprintln!("UPSTREAM={upstream:?}: {e}");
            std::process::exit(2);
        }
    };
    let mut budget = Budget::new(Provider::OpenAi);
    if let Some(tpm) = env_limit("TPM", NonZeroU64::new(10_000)) {
        budget = budget.tokens_per_minute(tpm);
    }
    if let Some(rpm) = env_limit("RPM", None) {
        budget = budget.requests_per_minute(rpm);
    }
    let mut config = Config::new(upstream, budget);
    if let Ok(p) = std::env::var("POLICY") {
        config.policy = match Policy::from_name(&p) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
    }
    let port = env_limit("PORT", NonZeroU64::new(8080)).map_or(8080, NonZeroU64::get) as u16;
    let upstream = config.upstream.clone();
    match spawn(config, SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await {
        Ok(running) => {
            println!("rust-router on http://{} -> {upstream}", running.addr);
            std::future::pending::<()>().await;
        }
        Err(e) => {
            eprintln!("cannot listen on 127.0.0.1:{port}: {e}");
            std::process::exit(1);
        }
    }
}
