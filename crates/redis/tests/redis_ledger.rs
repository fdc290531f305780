//! The Redis ledger against a real `redis-server` that each test starts on a free 127.0.0.1 port
//! with a temporary directory and no persistence, and stops at the end.
//!
//! Own harness (`harness = false`): the multi-process tests re-execute this binary as child replicas
//! (`LP_REDIS_CHILD`), which a libtest binary cannot do without a dummy test. Output and the closing line follow
//! libtest's. `cargo test -p llm-preflight-redis --test redis_ledger [NAME]` runs them.

use llm_preflight::{
    Band, Budget, CallEvent, Cost, Dimension, DimensionState, Guard, GuardConfig, Ledger,
    LedgerMode, Policy, Provider, RateLimitSnapshot, Refused, Reservation, State, Step, Target,
    Usage,
};
use llm_preflight_redis::{
    Denied, Folded, Mode, OnUnavailable, RedisLedger, RedisLedgerError, RedisOptions,
    RedisReservation, TimeSource,
};
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A limit for a test: never zero.
fn nz(n: u64) -> std::num::NonZeroU64 {
    std::num::NonZeroU64::new(n).expect("a test limit is at least 1")
}

// ---------------------------------------------------------------------------------------------------------------
// A redis-server of the test's own.

struct Server {
    child: Option<Child>,
    port: u16,
    dir: PathBuf,
}

impl Server {
    fn start() -> Server {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port on 127.0.0.1")
            .port();
        let dir =
            std::env::temp_dir().join(format!("llm-preflight-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let mut s = Server {
            child: None,
            port,
            dir,
        };
        s.spawn();
        s
    }

    fn spawn(&mut self) {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot start redis-server ({e}): these tests need the redis-server binary on PATH \
                     (Debian package redis-server; scripts/setup.sh installs it)"
                )
            });
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(mut c) = redis::Client::open(self.url()).and_then(|c| c.get_connection()) {
                if redis::cmd("PING").query::<String>(&mut c).is_ok() {
                    return;
                }
            }
            assert!(
                Instant::now() < deadline,
                "redis-server did not answer on port {} within 10 s",
                self.port
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        // The port is closed once the process is gone.
        let deadline = Instant::now() + Duration::from_secs(5);
        while TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
            assert!(
                Instant::now() < deadline,
                "redis-server still listening after kill"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    fn raw(&self) -> redis::Connection {
        redis::Client::open(self.url())
            .unwrap()
            .get_connection()
            .unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers.

/// A small deterministic generator (xorshift), so a failing sequence can be replayed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn options(time: TimeSource, on_unavailable: OnUnavailable) -> RedisOptions {
    RedisOptions {
        time,
        on_unavailable,
        retry_after_ms: 50,
        // Generous: a loaded CI machine must not turn a slow reply into "unavailable" (the restart tests see
        // refused connections, which are immediate).
        timeout: Duration::from_secs(5),
        ..RedisOptions::default()
    }
}

fn open(
    server: &Server,
    key: &str,
    budget: Budget,
    opts: RedisOptions,
    now_ms: u64,
) -> RedisLedger {
    RedisLedger::open(&server.url(), key, "model-a", budget, opts, now_ms).expect("open the ledger")
}

/// The per-day budget the concurrency tests share: requests bind, tokens are accounted; a day's window refills
/// about 0.003 requests a second, so the count admitted in a test is the budget itself.
const RPD: u64 = 300;
const TPD: u64 = 200_000;

fn day_budget() -> Budget {
    Budget::new(Provider::OpenAi)
        .with(Dimension::RequestsPerDay, nz(RPD))
        .with(Dimension::TokensPerDay, nz(TPD))
}

fn clock() -> impl Fn() -> u64 {
    let start = Instant::now();
    move || start.elapsed().as_millis() as u64
}

/// Reserves until the ledger refuses, settling each admitted request at once with a usage below its reservation.
/// Returns (admitted, tokens used).
fn reserve_until_refused(ledger: &RedisLedger, seed: u64) -> (u64, u64) {
    let now = clock();
    let mut rng = Rng(seed | 1);
    let (mut admitted, mut used) = (0, 0);
    loop {
        let input = 100 + rng.below(300);
        let cost = Cost::exact(input).with_max_output(200);
        match ledger.try_reserve(&cost, Policy::Median, now()) {
            Ok(r) => {
                assert_eq!(r.mode(), Mode::Shared);
                admitted += 1;
                let usage = Usage {
                    input_tokens: input,
                    output_tokens: rng.below(201),
                };
                used += usage.input_tokens + usage.output_tokens;
                let s = r.settle(usage, now()).expect("settle");
                assert!(!s.late, "a settle within the expiry is never late");
            }
            Err(Denied::Refused {
                refused: Refused::NotYet { dimension, .. },
                mode: Mode::Shared,
                ..
            }) => {
                assert_eq!(dimension, Dimension::RequestsPerDay);
                return (admitted, used);
            }
            Err(other) => panic!("unexpected refusal {other:?}"),
        }
    }
}

/// After every replica stopped: nothing in flight or held, the request bucket empty and the token bucket short of
/// its limit by exactly what was used (allowing a day window's refill over the test's duration).
fn assert_accounted(ledger: &RedisLedger, admitted: u64, used: u64, elapsed_ms: u64) {
    let snap = ledger.snapshot(0).expect("snapshot");
    assert_eq!(
        admitted, RPD,
        "admitted {admitted} against a budget of {RPD} requests"
    );
    assert_eq!(snap.in_flight, 0, "reservations left in flight");
    for d in Dimension::RATES {
        assert_eq!(snap.held(d), 0, "capacity still held in {d}");
    }
    assert_eq!(snap.stats.admitted, admitted);
    assert_eq!(snap.stats.settled, admitted);
    assert_eq!(snap.stats.expired, 0);
    let refill = |limit: u64| limit as f64 * (elapsed_ms as f64 + 1_000.0) / 86_400_000.0;
    let req = snap
        .state
        .bucket(Dimension::RequestsPerDay)
        .unwrap()
        .available(snap.now_ms);
    assert!(req < 1.0, "requests left: {req}");
    let tok = snap
        .state
        .bucket(Dimension::TokensPerDay)
        .unwrap()
        .available(snap.now_ms);
    let expected = (TPD - used) as f64;
    assert!(
        tok >= expected - 1e-6 && tok <= expected + refill(TPD),
        "tokens left {tok}, expected {expected} (used {used})"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Tests.

/// The Lua script and the Rust core agree: the same random sequence of reserves, settles, releases, header
/// observations and checks, at the same caller-supplied times, gives the same decisions, the same checks and the
/// same buckets on the Redis ledger as on the in-process one.
fn lua_and_core_agree_in_lockstep() {
    let server = Server::start();
    let budgets = [
        Budget::new(Provider::OpenAi)
            .tokens_per_minute(nz(10_000))
            .requests_per_minute(nz(20)),
        Budget::new(Provider::Anthropic)
            .input_tokens_per_minute(nz(5_000))
            .output_tokens_per_minute(nz(2_000))
            .requests_per_minute(nz(50))
            .context_window(nz(8_192)),
        Budget::new(Provider::Groq)
            .tokens_per_minute(nz(6_000))
            .requests_per_minute(nz(30))
            .with(Dimension::TokensPerDay, nz(40_000))
            .with(Dimension::RequestsPerDay, nz(120))
            .context_window(nz(8_192)),
    ];
    let mut compared = [0u64; 5];
    for (k, budget) in budgets.into_iter().enumerate() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ k as u64);
        let mut t: u64 = 1_000_000;
        let local = Ledger::new(State::new(budget.clone(), t));
        let opts = RedisOptions {
            reservation_ttl_ms: 1 << 40,
            ..options(TimeSource::Caller, OnUnavailable::FailClosed)
        };
        let shared = open(&server, &format!("lockstep-{k}"), budget.clone(), opts, t);
        let mut outstanding: Vec<(Reservation, RedisReservation)> = Vec::new();
        let mut order = 0u64;
        let tpm = budget
            .limit(Dimension::Tokens)
            .or(budget.limit(Dimension::InputTokens))
            .unwrap();
        for step in 0..400 {
            t += rng.below(2_500);
            let what = rng.below(100);
            if what < 45 {
                let probe = rng.below(3) == 0;
                let cost = if probe {
                    // At the boundary: exactly what the emptiest bucket the prompt counts against holds now, one
                    // less or one more.
                    let have = [
                        Dimension::Tokens,
                        Dimension::InputTokens,
                        Dimension::TokensPerDay,
                    ]
                    .into_iter()
                    .filter_map(|d| local.available(d, t))
                    .fold(f64::INFINITY, f64::min)
                    .max(0.0)
                    .floor() as u64;
                    Cost::exact((have + rng.below(3)).saturating_sub(1))
                } else {
                    let input = rng.below(tpm * 6 / 10);
                    let mut cost = Cost {
                        input: Band {
                            low: input * 8 / 10,
                            tokens: input,
                            high: input * 12 / 10,
                        },
                        max_output: None,
                        incomplete: false,
                    };
                    match rng.below(10) {
                        0..=3 => {}
                        4 => cost = cost.with_max_output(rng.below(8_000)),
                        _ => cost = cost.with_max_output(rng.below(1_500)),
                    }
                    cost
                };
                let policy = [Policy::Median, Policy::Conservative, Policy::Optimistic]
                    [rng.below(3) as usize];
                let a = local.try_reserve(&cost, policy, t);
                let b = shared.try_reserve(&cost, policy, t);
                match (a, b) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(
                            a.check(),
                            b.check(),
                            "budget {k} step {step}: checks differ"
                        );
                        assert_eq!(b.mode(), Mode::Shared);
                        for d in Dimension::RATES {
                            assert_eq!(a.held(d), b.held(d));
                        }
                        outstanding.push((a, b));
                        compared[0] += 1;
                        compared[4] += u64::from(probe);
                    }
                    (
                        Err(a),
                        Err(Denied::Refused {
                            refused,
                            check,
                            mode,
                        }),
                    ) => {
                        assert_eq!(a, refused, "budget {k} step {step}: refusals differ");
                        assert_eq!(mode, Mode::Shared);
                        assert_eq!(*check, local.check(&cost, policy, t));
                        compared[1] += 1;
                    }
                    (a, b) => panic!("budget {k} step {step}: in-process {a:?}, Redis {b:?}"),
                }
            } else if what < 70 && !outstanding.is_empty() {
                let (a, b) = outstanding.swap_remove(rng.below(outstanding.len() as u64) as usize);
                let usage = Usage {
                    input_tokens: rng
                        .below(a.held(Dimension::InputTokens).max(a.check().input_tokens) + 50),
                    output_tokens: rng.below(600),
                };
                let sa = a.settle(usage, t);
                let sb = b.settle(usage, t).expect("settle");
                assert_eq!(sa, sb.settled, "budget {k} step {step}: settles differ");
                assert!(!sb.late);
                compared[2] += 1;
            } else if what < 80 && !outstanding.is_empty() {
                let (a, b) = outstanding.swap_remove(rng.below(outstanding.len() as u64) as usize);
                a.release();
                b.release(t).expect("release");
            } else if what < 95 {
                let limit = |d: Dimension| budget.limit(d).unwrap_or(1_000);
                let mut obs = RateLimitSnapshot::default();
                let pick = |rng: &mut Rng, l: u64| DimensionState {
                    limit: if rng.below(5) == 0 {
                        Some(l / 2 + 1 + rng.below(l * 3 / 2))
                    } else {
                        None
                    },
                    remaining: if rng.below(4) == 0 {
                        None
                    } else {
                        Some(rng.below(l + 1))
                    },
                    reset_ms: if rng.below(3) == 0 {
                        None
                    } else {
                        Some(rng.below(60_000))
                    },
                };
                obs.tokens = pick(&mut rng, limit(Dimension::Tokens));
                obs.requests = pick(&mut rng, limit(Dimension::Requests));
                if rng.below(3) == 0 {
                    obs.input_tokens = pick(&mut rng, limit(Dimension::InputTokens));
                    obs.output_tokens = pick(&mut rng, limit(Dimension::OutputTokens));
                }
                if rng.below(10) == 0 {
                    obs.retry_after_ms = Some(rng.below(5_000));
                }
                order += 1;
                local.observe(&obs, t);
                assert_eq!(
                    shared.observe(&obs, order, t).expect("observe"),
                    Folded::Applied
                );
                compared[3] += 1;
            } else {
                let cost = Cost::exact(rng.below(tpm)).with_max_output(rng.below(500));
                let d = shared.check(&cost, Policy::Median, t).expect("check");
                assert_eq!(d.mode, Mode::Shared);
                assert_eq!(
                    d.check,
                    local.check(&cost, Policy::Median, t),
                    "budget {k} step {step}: check"
                );
            }
            // The buckets themselves, after every step.
            let snap = shared.snapshot(t).expect("snapshot");
            let mine = local.snapshot();
            assert_eq!(
                snap.in_flight,
                local.in_flight(),
                "budget {k} step {step}: in flight"
            );
            assert_eq!(snap.state.blocked_until_ms, mine.blocked_until_ms);
            for d in Dimension::RATES {
                assert_eq!(
                    snap.held(d),
                    local.held(d),
                    "budget {k} step {step}: held {d}"
                );
                match (snap.state.bucket(d), mine.bucket(d)) {
                    (None, None) => {}
                    (Some(x), Some(y)) => {
                        assert_eq!(x.limit, y.limit, "budget {k} step {step}: {d} limit");
                        assert_eq!(x.at_ms, y.at_ms, "budget {k} step {step}: {d} time");
                        assert_eq!(x.header_until_ms, y.header_until_ms);
                        for (p, q) in [(x.level, y.level), (x.rate_per_ms, y.rate_per_ms)] {
                            assert!(
                                (p - q).abs() <= 1e-9 * (1.0 + q.abs()),
                                "budget {k} step {step}: {d} {p} != {q}"
                            );
                        }
                        assert!(
                            (x.header_rate_per_ms - y.header_rate_per_ms).abs()
                                <= 1e-12 * (1.0 + y.header_rate_per_ms.abs())
                        );
                    }
                    (x, y) => panic!("budget {k} step {step}: {d} bucket {x:?} vs {y:?}"),
                }
            }
        }
        for (a, b) in outstanding.drain(..) {
            a.release();
            b.release(t).expect("release");
        }
    }
    // The sequence exercised every path.
    assert!(
        compared.iter().all(|n| *n >= 20),
        "too few comparisons of some kind: {compared:?}"
    );
}

/// Eight threads on one replica, then drained: exactly the budget admitted, nothing lost.
fn threads_never_over_admit() {
    let server = Server::start();
    let now = clock();
    let ledger = open(
        &server,
        "threads",
        day_budget(),
        options(TimeSource::Redis, OnUnavailable::FailClosed),
        0,
    );
    let used = Arc::new(AtomicU64::new(0));
    let admitted = Arc::new(AtomicU64::new(0));
    let released = Arc::new(AtomicU64::new(0));
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let (l, u, a, rel) = (
                ledger.clone(),
                used.clone(),
                admitted.clone(),
                released.clone(),
            );
            std::thread::spawn(move || {
                // Some reserve-and-release pairs first: they must hand their capacity back.
                let mut rng = Rng(77 + i);
                for _ in 0..5 {
                    if let Ok(r) =
                        l.try_reserve(&Cost::exact(50 + rng.below(50)), Policy::Median, 0)
                    {
                        r.release(0).expect("release");
                        rel.fetch_add(1, Ordering::SeqCst);
                    }
                }
                let (n, t) = reserve_until_refused(&l, 1_000 + i);
                a.fetch_add(n, Ordering::SeqCst);
                u.fetch_add(t, Ordering::SeqCst);
            })
        })
        .collect();
    for h in handles {
        h.join().expect("worker thread");
    }
    let (n, t) = reserve_until_refused(&ledger, 5);
    let admitted = admitted.load(Ordering::SeqCst) + n;
    let used = used.load(Ordering::SeqCst) + t;
    let snap = ledger.snapshot(0).unwrap();
    assert!(
        released.load(Ordering::SeqCst) > 0,
        "no reservation was released"
    );
    assert_eq!(
        snap.stats.released,
        released.load(Ordering::SeqCst),
        "every release was counted"
    );
    let stats_admitted = snap.stats.admitted - snap.stats.released;
    assert_eq!(stats_admitted, admitted);
    // The accounting helper expects settled == admitted; releases are admitted too, so compare settled.
    assert_eq!(snap.stats.settled, admitted);
    assert_accounted_with_releases(&ledger, admitted, used, now());
}

fn assert_accounted_with_releases(ledger: &RedisLedger, admitted: u64, used: u64, elapsed_ms: u64) {
    let snap = ledger.snapshot(0).expect("snapshot");
    assert_eq!(
        admitted, RPD,
        "admitted {admitted} against a budget of {RPD} requests"
    );
    assert_eq!(snap.in_flight, 0);
    for d in Dimension::RATES {
        assert_eq!(snap.held(d), 0, "capacity still held in {d}");
    }
    assert_eq!(snap.stats.expired, 0);
    let tok = snap
        .state
        .bucket(Dimension::TokensPerDay)
        .unwrap()
        .available(snap.now_ms);
    let expected = (TPD - used) as f64;
    let refill = TPD as f64 * (elapsed_ms as f64 + 1_000.0) / 86_400_000.0;
    assert!(
        tok >= expected - 1e-6 && tok <= expected + refill,
        "tokens left {tok}, expected {expected}"
    );
}

/// Three replica processes with four threads each, then drained: exactly the budget admitted, nothing lost.
fn processes_never_over_admit() {
    let server = Server::start();
    let now = clock();
    let key = "processes";
    let ledger = open(
        &server,
        key,
        day_budget(),
        options(TimeSource::Redis, OnUnavailable::FailClosed),
        0,
    );
    let children: Vec<Child> = (0..3)
        .map(|i| {
            Command::new(std::env::current_exe().unwrap())
                .env("LP_REDIS_CHILD", "reserve")
                .env("LP_REDIS_URL", server.url())
                .env("LP_REDIS_KEY", key)
                .env("LP_REDIS_SEED", (i * 100).to_string())
                .stdout(Stdio::piped())
                .spawn()
                .expect("spawn a replica")
        })
        .collect();
    let (mut admitted, mut used) = (0, 0);
    for c in children {
        let out = c.wait_with_output().expect("replica output");
        assert!(out.status.success(), "replica failed: {out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text
            .lines()
            .find(|l| l.starts_with("admitted "))
            .expect("replica's count");
        let nums: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .step_by(2)
            .map(|x| x.parse().unwrap())
            .collect();
        admitted += nums[0];
        used += nums[1];
    }
    let (n, t) = reserve_until_refused(&ledger, 9);
    assert_accounted(&ledger, admitted + n, used + t, now());
}

/// A replica killed (SIGKILL) while holding reservations: they hold capacity until their expiry, then are given
/// back and counted, leaving the buckets as they were.
fn killed_replica_leaks_nothing_past_expiry() {
    let server = Server::start();
    let key = "killed";
    let ttl = 3_000u64;
    let ledger = open(
        &server,
        key,
        day_budget(),
        options(TimeSource::Redis, OnUnavailable::FailClosed),
        0,
    );
    let mut child = Command::new(std::env::current_exe().unwrap())
        .env("LP_REDIS_CHILD", "hang")
        .env("LP_REDIS_URL", server.url())
        .env("LP_REDIS_KEY", key)
        .env("LP_REDIS_TTL", ttl.to_string())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn a replica");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("reserved 10"), "replica said {line:?}");
    child.kill().expect("kill the replica");
    child.wait().unwrap();
    let before = ledger.snapshot(0).unwrap();
    assert_eq!(before.in_flight, 10);
    assert_eq!(before.held(Dimension::RequestsPerDay), 10);
    assert_eq!(before.held(Dimension::TokensPerDay), 10 * 1_200);
    let req = before
        .state
        .bucket(Dimension::RequestsPerDay)
        .unwrap()
        .available(before.now_ms);
    assert!((req - (RPD - 10) as f64).abs() < 0.1, "requests left {req}");
    std::thread::sleep(Duration::from_millis(ttl + 300));
    let after = ledger.snapshot(0).unwrap();
    assert_eq!(after.in_flight, 0, "expired reservations still in flight");
    for d in Dimension::RATES {
        assert_eq!(after.held(d), 0, "still held in {d}");
    }
    assert_eq!(after.stats.expired, 10, "expired reservations are counted");
    for d in [Dimension::RequestsPerDay, Dimension::TokensPerDay] {
        let b = after.state.bucket(d).unwrap();
        assert_eq!(
            b.available(after.now_ms),
            b.limit as f64,
            "{d} not back to full"
        );
    }
    // The whole budget is there for the survivors.
    let (n, _) = reserve_until_refused(&ledger, 3);
    assert_eq!(n, RPD);
}

/// Fail-closed across a Redis restart: refused while it is down, decided in that mode; after the restart the state
/// is recreated from the last state read, so the run never admits more than the budget.
fn restart_survived_fail_closed() {
    let mut server = Server::start();
    let now = clock();
    let budget = Budget::new(Provider::OpenAi).with(Dimension::RequestsPerDay, nz(100));
    let ledger = open(
        &server,
        "restart-closed",
        budget,
        options(TimeSource::Redis, OnUnavailable::FailClosed),
        now(),
    );
    let cost = Cost::exact(10);
    let mut admitted = 0;
    for _ in 0..30 {
        let r = ledger
            .try_reserve(&cost, Policy::Median, now())
            .expect("admitted");
        r.settle(
            Usage {
                input_tokens: 10,
                output_tokens: 5,
            },
            now(),
        )
        .unwrap();
        admitted += 1;
    }
    let pending = ledger
        .try_reserve(&cost, Policy::Median, now())
        .expect("admitted");
    admitted += 1;
    server.stop();
    match ledger.try_reserve(&cost, Policy::Median, now()) {
        Err(d @ Denied::Unavailable { .. }) => assert_eq!(d.mode(), Some(Mode::FailClosed)),
        other => panic!("expected a fail-closed refusal, got {other:?}"),
    }
    assert!(matches!(
        ledger.check(&cost, Policy::Median, now()),
        Err(RedisLedgerError::Unavailable(_))
    ));
    server.spawn();
    std::thread::sleep(Duration::from_millis(60));
    // The reservation made before the restart is gone with it: its settle charges the usage.
    let s = pending
        .settle(
            Usage {
                input_tokens: 10,
                output_tokens: 5,
            },
            now(),
        )
        .expect("settle after restart");
    assert!(s.late && s.mode == Mode::Shared, "{s:?}");
    loop {
        match ledger.try_reserve(&cost, Policy::Median, now()) {
            Ok(r) => {
                assert_eq!(r.mode(), Mode::Shared);
                r.settle(
                    Usage {
                        input_tokens: 10,
                        output_tokens: 5,
                    },
                    now(),
                )
                .unwrap();
                admitted += 1;
            }
            Err(Denied::Refused {
                mode: Mode::Shared, ..
            }) => break,
            Err(e) => panic!("{e:?}"),
        }
    }
    // The pending request was charged twice (once reserved before, once settled late): conservative by one.
    assert!(
        (99..=100).contains(&admitted),
        "admitted {admitted} of 100 across the restart"
    );
}

/// Fail-open across a Redis restart: while it is down the replica decides on its share of the last state it read,
/// each decision saying so; its usage is charged to Redis when it is back, so the run admits at most the budget.
fn restart_survived_fail_open() {
    let mut server = Server::start();
    let now = clock();
    let budget = Budget::new(Provider::OpenAi).with(Dimension::RequestsPerDay, nz(100));
    let opts = options(TimeSource::Redis, OnUnavailable::FailOpen { share: 0.5 });
    let ledger = open(&server, "restart-open", budget, opts, now());
    let cost = Cost::exact(10);
    let usage = Usage {
        input_tokens: 10,
        output_tokens: 5,
    };
    for _ in 0..40 {
        let r = ledger
            .try_reserve(&cost, Policy::Median, now())
            .expect("admitted");
        assert_eq!(r.mode(), Mode::Shared);
        r.settle(usage, now()).unwrap();
    }
    server.stop();
    let mut local = Vec::new();
    loop {
        match ledger.try_reserve(&cost, Policy::Median, now()) {
            Ok(r) => {
                assert_eq!(r.mode(), Mode::FailOpen);
                local.push(r);
            }
            Err(d) => {
                assert_eq!(d.mode(), Some(Mode::FailOpen), "{d:?}");
                break;
            }
        }
    }
    // Half of the 60 left when Redis went away.
    assert_eq!(local.len(), 30);
    let d = ledger
        .check(&cost, Policy::Median, now())
        .expect("a fail-open verdict");
    assert_eq!(d.mode, Mode::FailOpen);
    assert!(!d.check.verdict.is_sendable());
    server.spawn();
    std::thread::sleep(Duration::from_millis(60));
    for r in local {
        let s = r.settle(usage, now()).expect("settle");
        assert_eq!(s.mode, Mode::FailOpen);
    }
    let mut shared = 0;
    loop {
        match ledger.try_reserve(&cost, Policy::Median, now()) {
            Ok(r) => {
                assert_eq!(r.mode(), Mode::Shared);
                r.settle(usage, now()).unwrap();
                shared += 1;
            }
            Err(Denied::Refused {
                mode: Mode::Shared, ..
            }) => break,
            Err(e) => panic!("{e:?}"),
        }
    }
    assert_eq!(
        40 + 30 + shared,
        100,
        "admitted {} across the outage",
        40 + 30 + shared
    );
}

/// With Redis's TIME, replicas whose clocks disagree by an hour still share one clock: the one running ahead cannot
/// refill the bucket early. With the caller's time (shown for contrast) it can, which is why it is not the default.
fn replica_clocks_are_never_compared() {
    let server = Server::start();
    // Three requests a minute: one every 20 s.
    let budget = Budget::new(Provider::OpenAi).requests_per_minute(nz(3));
    let hour = 3_600_000;
    for (time, key) in [
        (TimeSource::Redis, "clock-redis"),
        (TimeSource::Caller, "clock-caller"),
    ] {
        let opts = options(time, OnUnavailable::FailClosed);
        let behind = open(&server, key, budget.clone(), opts.clone(), 0);
        let ahead = open(&server, key, budget.clone(), opts, hour);
        for _ in 0..3 {
            let r = behind
                .try_reserve(&Cost::exact(1), Policy::Median, 0)
                .expect("admitted");
            r.settle(
                Usage {
                    input_tokens: 1,
                    output_tokens: 0,
                },
                0,
            )
            .unwrap();
        }
        let r = ahead.try_reserve(&Cost::exact(1), Policy::Median, hour);
        match time {
            TimeSource::Redis => match r {
                Err(Denied::Refused {
                    refused: Refused::NotYet { wait_ms, dimension },
                    mode: Mode::Shared,
                    ..
                }) => {
                    assert_eq!(dimension, Dimension::Requests);
                    assert!(wait_ms > 10_000, "refilled early: wait {wait_ms} ms");
                }
                other => panic!("the replica an hour ahead was admitted: {other:?}"),
            },
            TimeSource::Caller => {
                assert!(r.is_ok(), "caller time: the clock ahead refills the bucket")
            }
        }
    }
}

/// A reservation dropped without settle or release gives its capacity back.
fn dropped_reservations_are_released() {
    let server = Server::start();
    let budget = Budget::new(Provider::OpenAi)
        .tokens_per_minute(nz(10_000))
        .requests_per_minute(nz(100));
    let ledger = open(
        &server,
        "drop",
        budget,
        options(TimeSource::Redis, OnUnavailable::FailClosed),
        0,
    );
    {
        let r = ledger
            .try_reserve(
                &Cost::exact(4_000).with_max_output(1_000),
                Policy::Median,
                0,
            )
            .unwrap();
        assert_eq!(r.held(Dimension::Tokens), 5_000);
        assert_eq!(ledger.snapshot(0).unwrap().in_flight, 1);
    }
    let snap = ledger.snapshot(0).unwrap();
    assert_eq!(snap.in_flight, 0);
    assert_eq!(snap.held(Dimension::Tokens), 0);
    assert_eq!(snap.stats.released, 1);
    assert_eq!(
        snap.state
            .bucket(Dimension::Tokens)
            .unwrap()
            .available(snap.now_ms),
        10_000.0
    );
}

/// An observation from an older request never overwrites a newer one.
fn stale_observations_are_ignored() {
    let server = Server::start();
    let budget = Budget::new(Provider::OpenAi).tokens_per_minute(nz(10_000));
    let ledger = open(
        &server,
        "stale",
        budget,
        options(TimeSource::Caller, OnUnavailable::FailClosed),
        0,
    );
    let first = ledger
        .try_reserve(&Cost::exact(100), Policy::Median, 0)
        .unwrap();
    let second = ledger
        .try_reserve(&Cost::exact(100), Policy::Median, 0)
        .unwrap();
    assert!(first.order() < second.order());
    let said = |remaining| RateLimitSnapshot {
        tokens: DimensionState {
            limit: None,
            remaining: Some(remaining),
            reset_ms: Some(60_000),
        },
        ..RateLimitSnapshot::default()
    };
    assert_eq!(second.observe(&said(1_000), 10).unwrap(), Folded::Applied);
    assert_eq!(first.observe(&said(9_000), 20).unwrap(), Folded::Stale);
    let snap = ledger.snapshot(20).unwrap();
    let level = snap.state.bucket(Dimension::Tokens).unwrap().available(20);
    assert!(
        level < 1_010.0,
        "the stale observation was applied: {level}"
    );
    assert_eq!(snap.observed_seq, second.order());
    // A newer one is applied.
    let third = ledger
        .try_reserve(&Cost::exact(100), Policy::Median, 30)
        .unwrap();
    assert_eq!(third.observe(&said(500), 30).unwrap(), Folded::Applied);
    for r in [first, second, third] {
        r.release(40).unwrap();
    }
}

/// The first replica's configuration is stored beside the state; later ones adopt it, so all decide alike.
fn configuration_is_shared() {
    let server = Server::start();
    let opts = options(TimeSource::Caller, OnUnavailable::FailClosed);
    let a_budget = Budget::new(Provider::Groq)
        .tokens_per_minute(nz(8_000))
        .context_window(nz(131_072));
    let a = open(&server, "config", a_budget.clone(), opts.clone(), 0);
    let b = open(
        &server,
        "config",
        Budget::new(Provider::Groq).tokens_per_minute(nz(99_999)),
        opts.clone(),
        0,
    );
    assert_eq!(a.budget(), a_budget);
    assert_eq!(
        b.budget(),
        a_budget,
        "the second replica adopts the stored configuration"
    );
    // Another model on the same key is another budget.
    let other = RedisLedger::open(
        &server.url(),
        "config",
        "model-b",
        Budget::new(Provider::Groq).tokens_per_minute(nz(99_999)),
        opts.clone(),
        0,
    )
    .unwrap();
    assert_eq!(other.budget().limit(Dimension::Tokens), Some(99_999));
    // Bedrock's rules travel too: its absent cap and a model's output burndown rate.
    let bedrock = Budget::new(Provider::Bedrock)
        .tokens_per_minute(nz(200_000))
        .for_model("us.anthropic.claude-sonnet-4-20250514-v1:0");
    assert_eq!(bedrock.reservation.output_burndown, 5);
    let first = open(&server, "config-bedrock", bedrock.clone(), opts.clone(), 0);
    let later = open(
        &server,
        "config-bedrock",
        Budget::new(Provider::Bedrock).tokens_per_minute(nz(1)),
        opts.clone(),
        0,
    );
    assert_eq!((first.budget(), later.budget()), (bedrock.clone(), bedrock));
    // Its output is charged five times at settlement: 1,000 in and 100 out use 1,500 of the 1,100 reserved.
    let r = later
        .try_reserve(&Cost::exact(1_000).with_max_output(100), Policy::Median, 0)
        .unwrap();
    let s = r
        .settle(
            Usage {
                input_tokens: 1_000,
                output_tokens: 100,
            },
            0,
        )
        .unwrap();
    assert_eq!(
        (s.settled.reserved, s.settled.used, s.settled.refunded),
        (1_100, 1_500, -400)
    );
    // 8,478 tokens never fit 8,000 TPM, on either replica.
    for l in [&a, &b] {
        match l.try_reserve(&Cost::exact(8_478), Policy::Median, 0) {
            Err(Denied::Refused {
                refused: Refused::Never { excess, .. },
                ..
            }) => assert_eq!(excess, 478),
            other => panic!("{other:?}"),
        }
    }
    let r = b
        .try_reserve(&Cost::exact(6_000), Policy::Median, 0)
        .unwrap();
    match a.try_reserve(&Cost::exact(6_000), Policy::Median, 0) {
        Err(Denied::Refused {
            refused: Refused::NotYet { wait_ms, .. },
            ..
        }) => assert_eq!(wait_ms, 30_000),
        other => panic!("{other:?}"),
    }
    r.release(0).unwrap();
}

/// Malformed data in Redis and bad options are typed errors, never panics.
fn malformed_data_is_a_typed_error() {
    let server = Server::start();
    let budget = Budget::new(Provider::OpenAi).tokens_per_minute(nz(10_000));
    let opts = options(TimeSource::Caller, OnUnavailable::FailClosed);
    for (share, what) in [(f64::NAN, "NaN"), (1.5, "1.5"), (0.0, "0"), (-0.5, "-0.5")] {
        let o = RedisOptions {
            on_unavailable: OnUnavailable::FailOpen { share },
            ..opts.clone()
        };
        assert!(
            matches!(
                RedisLedger::open(&server.url(), "k", "m", budget.clone(), o, 0),
                Err(RedisLedgerError::InvalidOption(_))
            ),
            "share {what} accepted"
        );
    }
    let o = RedisOptions {
        reservation_ttl_ms: 0,
        ..opts.clone()
    };
    assert!(matches!(
        RedisLedger::open(&server.url(), "k", "m", budget.clone(), o, 0),
        Err(RedisLedgerError::InvalidOption(_))
    ));
    assert!(matches!(
        RedisLedger::open("not a url", "k", "m", budget.clone(), opts.clone(), 0),
        Err(RedisLedgerError::InvalidOption(_))
    ));
    let ledger = open(&server, "bad", budget, opts, 0);
    let [state, _, _, config] = ledger.keys().clone();
    let mut raw = server.raw();
    let cost = Cost::exact(10);
    for (field, value) in [
        ("lvl0", "not-a-number"),
        ("lvl0", "nan"),
        ("lvl0", "inf"),
        ("lim0", "-5"),
        ("held0", "1.5"),
    ] {
        let good: Option<String> = redis::cmd("HGET")
            .arg(&state)
            .arg(field)
            .query(&mut raw)
            .unwrap();
        let _: () = redis::cmd("HSET")
            .arg(&state)
            .arg(field)
            .arg(value)
            .query(&mut raw)
            .unwrap();
        match ledger.try_reserve(&cost, Policy::Median, 0) {
            Err(Denied::Error(RedisLedgerError::Malformed(m))) => assert!(m.contains(field), "{m}"),
            other => panic!("{field} = {value}: {other:?}"),
        }
        assert!(matches!(
            ledger.snapshot(0),
            Err(RedisLedgerError::Malformed(_))
        ));
        let _: () = match good {
            Some(v) => redis::cmd("HSET")
                .arg(&state)
                .arg(field)
                .arg(v)
                .query(&mut raw)
                .unwrap(),
            None => redis::cmd("HDEL")
                .arg(&state)
                .arg(field)
                .query(&mut raw)
                .unwrap(),
        };
    }
    // A negative limit in the stored configuration, read when the version changes.
    let _: () = redis::cmd("HSET")
        .arg(&config)
        .arg("tpm")
        .arg("-5")
        .query(&mut raw)
        .unwrap();
    let _: () = redis::cmd("HSET")
        .arg(&config)
        .arg("ver")
        .arg("7")
        .query(&mut raw)
        .unwrap();
    let _: () = redis::cmd("HSET")
        .arg(&state)
        .arg("cfgver")
        .arg("7")
        .query(&mut raw)
        .unwrap();
    match ledger.try_reserve(&cost, Policy::Median, 0) {
        Err(Denied::Error(RedisLedgerError::Malformed(m))) => assert!(m.contains("tpm"), "{m}"),
        other => panic!("{other:?}"),
    }
    // The wrong type under the state key.
    let _: () = redis::cmd("DEL").arg(&state).query(&mut raw).unwrap();
    let _: () = redis::cmd("SET")
        .arg(&state)
        .arg("x")
        .query(&mut raw)
        .unwrap();
    assert!(ledger.try_reserve(&cost, Policy::Median, 0).is_err());
}

// ---------------------------------------------------------------------------------------------------------------
// Child replicas and the harness.

/// Two gateway replicas, each a `Guard` whose target's budget lives in Redis: together they send exactly the shared
/// budget and answer the rest themselves; every reservation ends in Redis; with Redis gone they fail closed, and
/// their events say so.
fn guards_share_a_budget_through_redis() {
    let mut server = Server::start();
    let shared = Budget::new(Provider::OpenAi).with(Dimension::RequestsPerDay, nz(20));
    let replica = || {
        let ledger = open(
            &server,
            "guards",
            shared.clone(),
            options(TimeSource::Redis, OnUnavailable::FailClosed),
            0,
        );
        // Locally each replica sees only a roomy per-minute budget: the shared one binds.
        let local = Budget::new(Provider::OpenAi).tokens_per_minute(nz(1_000_000));
        Guard::new(vec![Target::new("a", local)], GuardConfig::default())
            .unwrap()
            .with_shared_ledger(0, Arc::new(ledger))
            .unwrap()
    };
    let (g1, g2) = (replica(), replica());
    let body = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"hello there"}],"max_tokens":20}"#;
    let (mut sent, mut answered) = (0, 0);
    for i in 0..60u64 {
        let g = if i % 2 == 0 { &g1 } else { &g2 };
        let now = i * 10;
        // A deadline of a second: a per-day budget's wait cannot be met, so the guard answers 429 itself.
        let mut call = g.start(body, now + 1_000, now);
        match call.poll(now) {
            Step::Send { .. } => {
                sent += 1;
                call.on_response(200, [("content-type", "application/json")], now + 5);
                call.on_body(
                    br#"{"usage":{"prompt_tokens":12,"completion_tokens":3}}"#,
                    now + 5,
                );
                call.on_end(now + 5, 0.5);
                assert!(matches!(call.poll(now + 5), Step::Done(o) if o.succeeded()));
            }
            Step::Answer(a) => {
                assert_eq!(a.status, 429, "{a:?}");
                let events: Vec<CallEvent> =
                    call.take_events().into_iter().map(|(_, e)| e).collect();
                assert!(
                    events.contains(&CallEvent::Ledger {
                        target: 0,
                        mode: LedgerMode::Shared,
                        decision: "not_yet"
                    }),
                    "{events:?}"
                );
                answered += 1;
            }
            s => panic!("unexpected step {s:?}"),
        }
    }
    assert_eq!((sent, answered), (20, 40));
    assert_eq!(g1.held_tokens() + g2.held_tokens(), 0);
    let probe = open(
        &server,
        "guards",
        shared.clone(),
        options(TimeSource::Redis, OnUnavailable::FailClosed),
        0,
    );
    let snap = probe.snapshot(0).expect("a snapshot");
    assert_eq!(snap.in_flight, 0, "every reservation ended in Redis");
    assert_eq!(snap.stats.admitted, 20);
    assert_eq!(snap.stats.settled, 20);
    server.stop();
    let mut call = g1.start(body, 10_000, 1_000);
    match call.poll(1_000) {
        Step::Answer(a) => assert_eq!(a.status, 503, "{a:?}"),
        s => panic!("with Redis gone the guard fails closed, got {s:?}"),
    }
    let events: Vec<CallEvent> = call.take_events().into_iter().map(|(_, e)| e).collect();
    assert!(events.contains(&CallEvent::Ledger {
        target: 0,
        mode: LedgerMode::FailClosed,
        decision: "unavailable"
    }));
    assert_eq!(g1.held_tokens(), 0);
}

fn child(role: &str) {
    let var = |k: &str| std::env::var(k).unwrap_or_else(|_| panic!("{k} not set"));
    match role {
        "reserve" => {
            let ledger = RedisLedger::open(
                &var("LP_REDIS_URL"),
                &var("LP_REDIS_KEY"),
                "model-a",
                day_budget(),
                options(TimeSource::Redis, OnUnavailable::FailClosed),
                0,
            )
            .unwrap();
            let seed: u64 = var("LP_REDIS_SEED").parse().unwrap();
            let handles: Vec<_> = (0..4)
                .map(|i| {
                    let l = ledger.clone();
                    std::thread::spawn(move || reserve_until_refused(&l, seed + i))
                })
                .collect();
            let (mut n, mut t) = (0, 0);
            for h in handles {
                let (a, b) = h.join().unwrap();
                n += a;
                t += b;
            }
            println!("admitted {n} used {t}");
        }
        "hang" => {
            let opts = RedisOptions {
                reservation_ttl_ms: var("LP_REDIS_TTL").parse().unwrap(),
                ..options(TimeSource::Redis, OnUnavailable::FailClosed)
            };
            let ledger = RedisLedger::open(
                &var("LP_REDIS_URL"),
                &var("LP_REDIS_KEY"),
                "model-a",
                day_budget(),
                opts,
                0,
            )
            .unwrap();
            let held: Vec<RedisReservation> = (0..10)
                .map(|_| {
                    ledger
                        .try_reserve(&Cost::exact(1_000).with_max_output(200), Policy::Median, 0)
                        .unwrap()
                })
                .collect();
            println!("reserved {}", held.len());
            // Killed here by the parent; the sleep is bounded so an orphan never outlives the test by much.
            std::thread::sleep(Duration::from_secs(30));
            std::process::exit(3);
        }
        other => panic!("unknown child role {other}"),
    }
}

fn main() {
    if let Ok(role) = std::env::var("LP_REDIS_CHILD") {
        child(&role);
        return;
    }
    let tests: &[(&str, fn())] = &[
        (
            "lua_and_core_agree_in_lockstep",
            lua_and_core_agree_in_lockstep,
        ),
        ("threads_never_over_admit", threads_never_over_admit),
        ("processes_never_over_admit", processes_never_over_admit),
        (
            "killed_replica_leaks_nothing_past_expiry",
            killed_replica_leaks_nothing_past_expiry,
        ),
        ("restart_survived_fail_closed", restart_survived_fail_closed),
        ("restart_survived_fail_open", restart_survived_fail_open),
        (
            "replica_clocks_are_never_compared",
            replica_clocks_are_never_compared,
        ),
        (
            "dropped_reservations_are_released",
            dropped_reservations_are_released,
        ),
        (
            "stale_observations_are_ignored",
            stale_observations_are_ignored,
        ),
        ("configuration_is_shared", configuration_is_shared),
        (
            "guards_share_a_budget_through_redis",
            guards_share_a_budget_through_redis,
        ),
        (
            "malformed_data_is_a_typed_error",
            malformed_data_is_a_typed_error,
        ),
    ];
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let selected: Vec<_> = tests
        .iter()
        .filter(|(name, _)| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str())))
        .collect();
    println!("\nrunning {} tests", selected.len());
    let (mut passed, mut failed) = (0, Vec::new());
    for (name, f) in &selected {
        let start = Instant::now();
        let r = std::panic::catch_unwind(f);
        let secs = start.elapsed().as_secs_f64();
        match r {
            Ok(()) => {
                println!("test {name} ... ok ({secs:.2} s)");
                passed += 1;
            }
            Err(_) => {
                println!("test {name} ... FAILED ({secs:.2} s)");
                failed.push(*name);
            }
        }
    }
    let filtered = tests.len() - selected.len();
    if !failed.is_empty() {
        println!("\nfailures:");
        for name in &failed {
            println!("    {name}");
        }
    }
    println!(
        "\ntest result: {}. {passed} passed; {} failed; 0 ignored; 0 measured; {filtered} filtered out\n",
        if failed.is_empty() { "ok" } else { "FAILED" },
        failed.len()
    );
    if !failed.is_empty() {
        std::process::exit(101);
    }
}
