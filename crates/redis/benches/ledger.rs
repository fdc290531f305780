//! Reservations per second and their latency: the Redis ledger against a local `redis-server` (started here on a
//! free 127.0.0.1 port, no persistence) beside the in-process ledger. `cargo bench -p llm-preflight-redis --bench ledger`.
//!
//! One reservation is `try_reserve` then `settle`, timed separately; throughput counts whole reservations. The budget
//! is large enough that nothing is refused. Without criterion: the point is the latency distribution (p50, p99).

use llm_preflight::{Budget, Cost, Ledger, Policy, Provider, State, Usage};
use llm_preflight_redis::{RedisLedger, RedisOptions, TimeSource};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A limit for a test: never zero.
fn nz(n: u64) -> std::num::NonZeroU64 {
    std::num::NonZeroU64::new(n).expect("a test limit is at least 1")
}

struct Server(Child, std::path::PathBuf);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
        let _ = std::fs::remove_dir_all(&self.1);
    }
}

fn start_redis() -> (Server, String) {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = std::env::temp_dir().join(format!("llm-preflight-bench-{port}"));
    std::fs::create_dir_all(&dir).unwrap();
    let child = Command::new("redis-server")
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ])
        .arg("--dir")
        .arg(&dir)
        .stdout(Stdio::null())
        .spawn()
        .expect("redis-server on PATH (Debian package redis-server; scripts/setup.sh installs it)");
    let url = format!("redis://127.0.0.1:{port}/");
    let deadline = Instant::now() + Duration::from_secs(10);
    while redis::Client::open(url.as_str())
        .and_then(|c| c.get_connection())
        .is_err()
    {
        assert!(Instant::now() < deadline, "redis-server did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    (Server(child, dir), url)
}

fn budget() -> Budget {
    Budget::new(Provider::OpenAi)
        .tokens_per_minute(nz(1_000_000_000_000))
        .requests_per_minute(nz(1_000_000_000))
}

/// The operations both ledgers offer, as far as the benchmark needs them.
trait Bench: Clone + Send + 'static {
    fn reserve_settle(&self, cost: &Cost, now: u64) -> (Duration, Duration);
}

impl Bench for Ledger {
    fn reserve_settle(&self, cost: &Cost, now: u64) -> (Duration, Duration) {
        let t0 = Instant::now();
        let r = self
            .try_reserve(cost, Policy::Median, now)
            .expect("admitted");
        let t1 = Instant::now();
        let _ = r.settle(
            Usage {
                input_tokens: 500,
                output_tokens: 100,
            },
            now,
        );
        (t1 - t0, t1.elapsed())
    }
}

impl Bench for RedisLedger {
    fn reserve_settle(&self, cost: &Cost, now: u64) -> (Duration, Duration) {
        let t0 = Instant::now();
        let r = self
            .try_reserve(cost, Policy::Median, now)
            .expect("admitted");
        let t1 = Instant::now();
        r.settle(
            Usage {
                input_tokens: 500,
                output_tokens: 100,
            },
            now,
        )
        .expect("settled");
        (t1 - t0, t1.elapsed())
    }
}

struct Run {
    per_second: f64,
    reserve: Vec<Duration>,
    settle: Vec<Duration>,
}

fn run<L: Bench>(ledger: &L, threads: usize, per_thread: usize) -> Run {
    let cost = Cost::exact(500).with_max_output(200);
    // Warm up: connections, the script cache.
    for _ in 0..200 {
        ledger.reserve_settle(&cost, 0);
    }
    let start = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let l = ledger.clone();
            let cost = cost.clone();
            std::thread::spawn(move || {
                let mut out = Vec::with_capacity(per_thread);
                // One time throughout: the budget never refills and never needs to (nothing is refused).
                for _ in 0..per_thread {
                    out.push(l.reserve_settle(&cost, 0));
                }
                out
            })
        })
        .collect();
    let mut reserve = Vec::new();
    let mut settle = Vec::new();
    for h in handles {
        for (r, s) in h.join().unwrap() {
            reserve.push(r);
            settle.push(s);
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    reserve.sort();
    settle.sort();
    Run {
        per_second: (threads * per_thread) as f64 / elapsed,
        reserve,
        settle,
    }
}

fn pct(v: &[Duration], p: f64) -> String {
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    let us = v[i].as_secs_f64() * 1e6;
    if us < 10.0 {
        format!("{us:.2} µs")
    } else {
        format!("{us:.0} µs")
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter is not supported.
    let (_server, url) = start_redis();
    let redis = RedisLedger::open(
        &url,
        "bench",
        "",
        budget(),
        RedisOptions {
            time: TimeSource::Redis,
            ..RedisOptions::default()
        },
        0,
    )
    .expect("open");
    let local = Ledger::new(State::new(budget(), 0));
    println!("| ledger | threads | reservations/s | reserve p50 | reserve p99 | settle p50 | settle p99 |");
    println!("|---|---|---|---|---|---|---|");
    let row = |name: &str, threads: usize, r: Run| {
        println!(
            "| {name} | {threads} | {:.0} | {} | {} | {} | {} |",
            r.per_second,
            pct(&r.reserve, 0.5),
            pct(&r.reserve, 0.99),
            pct(&r.settle, 0.5),
            pct(&r.settle, 0.99)
        );
    };
    row("in-process", 1, run(&local, 1, 200_000));
    row("in-process", 4, run(&local, 4, 50_000));
    // The floor under any Redis ledger: one PING round trip on the same server and machine.
    let mut conn = redis::Client::open(url.as_str())
        .unwrap()
        .get_connection()
        .unwrap();
    let mut pings: Vec<Duration> = (0..20_000)
        .map(|_| {
            let t = Instant::now();
            let _: String = redis::cmd("PING").query(&mut conn).unwrap();
            t.elapsed()
        })
        .collect();
    pings.sort();
    println!(
        "| (PING round trip) | 1 | {:.0} | {} | {} | | |",
        pings.len() as f64 / pings.iter().map(Duration::as_secs_f64).sum::<f64>(),
        pct(&pings, 0.5),
        pct(&pings, 0.99)
    );
    row("Redis (local)", 1, run(&redis, 1, 20_000));
    row("Redis (local)", 4, run(&redis, 4, 10_000));
    // How much of a script call is Redis's own time (the rest is the round trip and the client's parsing).
    let info: String = redis::cmd("INFO")
        .arg("commandstats")
        .query(&mut conn)
        .unwrap();
    for line in info.lines().filter(|l| l.starts_with("cmdstat_evalsha:")) {
        println!("\nRedis server time per script call: {line}");
    }
}
