//! One key's budget shared by every replica of a gateway: the reservation
//! [`Ledger`] with its state in Redis.
//!
//! An in-process ledger per replica over-admits by the number of replicas. [`RedisLedger`] offers the same
//! operations — reserve a request's cost in every dimension at admission, settle it against the reported usage,
//! release it on failure, read the state for the verdict, fold in the provider's headers — with the state in one
//! Redis hash per provider key and model, and the key's configuration (its [`Budget`]) in a hash beside it so that
//! every replica decides on the same limits.
//!
//! # Where the logic lives
//!
//! Reserving is one Lua script call (`redis_ledger.lua`), so it is atomic and takes one round trip. The script
//! holds only what atomicity requires: a bucket's level at a time, take and give ([`Bucket`]'s arithmetic),
//! the verdict's "fits now" test, and reaping expired reservations. Every verdict — how long to wait, which
//! dimension binds, never-sendable — is computed by the core's [`State::check`] on the state the script returns, loaded
//! into a [`State`]; header observations are folded in by the core's [`State::observe`] under `WATCH`/`MULTI`.
//! The integration tests run the Redis ledger in lockstep with the in-process one and require the same decisions
//! and the same bucket levels.
//!
//! # Time
//!
//! With [`TimeSource::Redis`] (the default) every operation on the shared state reads the time from Redis's own
//! `TIME` inside the script (never stepping back behind the latest time it used): the replicas' clocks are never
//! compared, so one whose clock runs ahead cannot refill the buckets early or expire another's reservations, and
//! one whose clock lags cannot stall them. The `now_ms` the methods take, as the in-process ledger's do, is then
//! the caller's own clock, used only for the fail-open local ledger and for when to try Redis again.
//! [`TimeSource::Caller`] passes `now_ms` to Redis instead: for replicas that share a clock they trust, and for
//! tests that compare the two ledgers at the same times.
//!
//! # Expiry
//!
//! A reservation carries an expiry (`reservation_ttl_ms`). A replica that dies between reserve and settle leaks
//! nothing past it: every script call first gives back reservations past their expiry and counts them
//! ([`LedgerStats::expired`]). A settle that arrives after its reservation expired charges the usage it reports
//! ([`RedisSettled::late`]).
//!
//! # When Redis is unreachable
//!
//! [`OnUnavailable::FailClosed`] refuses ([`Denied::Unavailable`]); [`OnUnavailable::FailOpen`] decides on a
//! local in-process ledger holding `share` of each limit, started from the last shared state this replica read
//! (scaled by the same share; full only if it never read one). Every decision says which [`Mode`] it was made in. Redis is tried
//! again `retry_after_ms` (on the caller's clock) after a failure. When a restart lost the state (a Redis without
//! persistence), the first replica to notice recreates it from the last state it read, not full (a replica that never
//! read it, just started, creates it full); reservations made before the restart settle as late, charged in full.

#![deny(missing_docs)]

use llm_preflight::internals::preflight::is_whole_count;
use llm_preflight::Bucket;
use llm_preflight::{
    AbsentCap, Budget, Check, Cost, Dimension, Ledger, PerDimension, Policy, Provider,
    RateLimitSnapshot, Refused, Reservation, ReservationProfile, Settled, SharedAdmission,
    SharedLedger, SharedTicket, State, Usage,
};
use redis::{Client, Connection, ErrorKind, RedisError, Script};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

/// The rate dimensions in slot order (the order of the fields in Redis: `lim0` is tokens per minute).
const SLOTS: [Dimension; 6] = Dimension::RATES;

fn script() -> &'static Script {
    static SCRIPT: OnceLock<Script> = OnceLock::new();
    SCRIPT.get_or_init(|| Script::new(include_str!("redis_ledger.lua")))
}

/// Whose clock the shared state is read at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeSource {
    /// Redis's `TIME`, read inside each script call: one clock for every replica (the default).
    #[default]
    Redis,
    /// The `now_ms` each call passes: only for replicas that share a clock they trust, and for tests.
    Caller,
}

/// What to do when Redis cannot be reached.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum OnUnavailable {
    /// Refuse every request until Redis is back (the default): never over-admits.
    #[default]
    FailClosed,
    /// Decide on a local ledger holding `share` (0 < share ≤ 1, e.g. one over the number of replicas) of every
    /// limit: keeps serving, over-admits at most by what the other replicas' shares add up to.
    FailOpen {
        /// The fraction of each limit this replica may use alone.
        share: f64,
    },
}

/// Which ledger a decision was made on: the core's [`LedgerMode`](llm_preflight::LedgerMode), the one a [`Guard`](llm_preflight::Guard)'s
/// events carry.
pub use llm_preflight::LedgerMode as Mode;

/// How a [`RedisLedger`] behaves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RedisOptions {
    /// Prefix of every key (default `llm-preflight`).
    pub namespace: String,
    /// Whose clock the shared state is read at.
    pub time: TimeSource,
    /// How long a reservation holds capacity without a settle or release (default two minutes).
    pub reservation_ttl_ms: u64,
    /// Fail open or closed.
    pub on_unavailable: OnUnavailable,
    /// Connect, read and write timeout for Redis (default 250 ms).
    pub timeout: Duration,
    /// After Redis could not be reached, how long (on the caller's clock) to decide without it before trying again
    /// (default 1 s).
    pub retry_after_ms: u64,
}

impl Default for RedisOptions {
    fn default() -> RedisOptions {
        RedisOptions {
            namespace: "llm-preflight".into(),
            time: TimeSource::Redis,
            reservation_ttl_ms: 120_000,
            on_unavailable: OnUnavailable::FailClosed,
            timeout: Duration::from_millis(250),
            retry_after_ms: 1_000,
        }
    }
}

/// What can go wrong with the shared ledger. Never a panic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "error", content = "detail", rename_all = "snake_case")]
pub enum RedisLedgerError {
    /// Redis could not be reached (refused, timed out, dropped, still loading).
    Unavailable(String),
    /// Redis answered something that is not what the ledger stores: a reply of the wrong shape, a field that is
    /// not a number, a limit that is not a whole number of at least 1.
    Malformed(String),
    /// An option out of range (a fail-open share that is not in (0, 1], a zero expiry, a bad URL).
    InvalidOption(String),
    /// Any other error Redis reported.
    Redis(String),
}

impl fmt::Display for RedisLedgerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RedisLedgerError::Unavailable(e) => write!(f, "Redis is unreachable: {e}"),
            RedisLedgerError::Malformed(e) => write!(f, "malformed ledger data in Redis: {e}"),
            RedisLedgerError::InvalidOption(e) => write!(f, "invalid option: {e}"),
            RedisLedgerError::Redis(e) => write!(f, "Redis error: {e}"),
        }
    }
}

impl std::error::Error for RedisLedgerError {}

fn classify(e: RedisError) -> RedisLedgerError {
    if e.is_io_error() || e.kind() == ErrorKind::BusyLoadingError || e.kind() == ErrorKind::TryAgain
    {
        return RedisLedgerError::Unavailable(e.to_string());
    }
    if e.code() == Some("LPBAD")
        || e.kind() == ErrorKind::TypeError
        || e.kind() == ErrorKind::ParseError
    {
        return RedisLedgerError::Malformed(e.to_string());
    }
    RedisLedgerError::Redis(e.to_string())
}

fn malformed(what: impl Into<String>) -> RedisLedgerError {
    RedisLedgerError::Malformed(what.into())
}

/// Counters kept with the shared state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct LedgerStats {
    /// Reservations admitted.
    pub admitted: u64,
    /// Reservations settled.
    pub settled: u64,
    /// Reservations released.
    pub released: u64,
    /// Reservations given back at their expiry, never settled nor released.
    pub expired: u64,
    /// Settles that came after their reservation expired (or was lost), charged as usage.
    pub late: u64,
}

/// The shared state as one script call left it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SharedSnapshot {
    /// The buckets, as the core's [`State`].
    pub state: State,
    /// The time it was read at (Redis's `TIME` or the caller's `now_ms`, per [`TimeSource`]).
    pub now_ms: u64,
    /// Reservations outstanding.
    pub in_flight: u64,
    held: PerDimension<u64>,
    /// The last reservation's order number.
    pub seq: u64,
    /// The order number of the newest observation folded in.
    pub observed_seq: u64,
    /// Counters.
    pub stats: LedgerStats,
    epoch: String,
    cfgver: String,
}

impl SharedSnapshot {
    /// Held by outstanding reservations in one dimension.
    pub fn held(&self, dimension: Dimension) -> u64 {
        self.held[dimension]
    }
}

/// A verdict and the mode it was decided in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// The core's check.
    pub check: Check,
    /// Shared, or the local fail-open ledger.
    pub mode: Mode,
}

/// Why [`RedisLedger::try_reserve`] admitted nothing.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "denied", rename_all = "snake_case")]
pub enum Denied {
    /// The budget says not yet or never, decided in `mode` (shared or fail-open).
    Refused {
        /// Why.
        refused: Refused,
        /// The core's check it was decided on.
        check: Box<Check>,
        /// Where it was decided.
        mode: Mode,
    },
    /// Redis is unreachable and the ledger fails closed.
    Unavailable {
        /// What failed.
        error: String,
    },
    /// Something else went wrong (malformed data in Redis, a Redis error).
    Error(RedisLedgerError),
}

impl Denied {
    /// The mode the refusal was decided in (`None` for an error, which decided nothing).
    pub fn mode(&self) -> Option<Mode> {
        match self {
            Denied::Refused { mode, .. } => Some(*mode),
            Denied::Unavailable { .. } => Some(Mode::FailClosed),
            Denied::Error(_) => None,
        }
    }
}

/// What a settle did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RedisSettled {
    /// Reserved, used and refunded in the tokens dimension, as the in-process ledger reports it.
    pub settled: Settled,
    /// The reservation had expired (or was lost with a restart) and was given back already: the usage was
    /// charged in full.
    pub late: bool,
    /// Shared, or the local fail-open ledger.
    pub mode: Mode,
}

/// Whether an observation was folded in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Folded {
    /// Applied to the shared state.
    Applied,
    /// Ignored: an observation with a later order number was applied already.
    Stale,
}

#[derive(Debug)]
struct Config {
    ver: String,
    budget: Budget,
}

struct Shared {
    client: Client,
    keys: [String; 4],
    opts: RedisOptions,
    pool: Mutex<Vec<Connection>>,
    config: Mutex<Config>,
    last: Mutex<Option<SharedSnapshot>>,
    seen: AtomicBool,
    down_until_ms: Mutex<Option<u64>>,
    local: Mutex<Option<Ledger>>,
}

/// One provider key's (and model's) budget in Redis, shared by every replica. Cloning shares the connections.
#[derive(Clone)]
pub struct RedisLedger {
    inner: Arc<Shared>,
}

impl fmt::Debug for RedisLedger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisLedger")
            .field("keys", &self.inner.keys)
            .field("options", &self.inner.opts)
            .field("budget", &lock(&self.inner.config).budget)
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Escapes a key part so that `:`, `{`, `}` and `%` in names can never make two keys collide.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' | ':' | '{' | '}' => out.push_str(&format!("%{:02X}", c as u32)),
            _ => out.push(c),
        }
    }
    out
}

fn num_text(x: f64) -> String {
    format!("{x:?}")
}

fn budget_fields(b: &Budget) -> Vec<(String, String)> {
    let mut f = vec![("provider".to_string(), b.provider.name().to_string())];
    let limits = [
        ("rpm", b.requests_per_minute),
        ("tpm", b.tokens_per_minute),
        ("itpm", b.input_tokens_per_minute),
        ("otpm", b.output_tokens_per_minute),
        ("rpd", b.requests_per_day),
        ("tpd", b.tokens_per_day),
        ("ctx", b.context_window),
    ];
    for (k, v) in limits {
        if let Some(v) = v {
            f.push((k.into(), v.to_string()));
        }
    }
    let r = &b.reservation;
    f.push((
        "out_adm".into(),
        u8::from(r.output_reserved_at_admission).to_string(),
    ));
    f.push((
        "ctx_out".into(),
        u8::from(r.context_includes_output).to_string(),
    ));
    f.push((
        "absent".into(),
        match r.absent_cap {
            AbsentCap::Nothing => "nothing".into(),
            AbsentCap::Tokens(n) => format!("tokens:{n}"),
            AbsentCap::RestOfContext => "rest_of_context".into(),
        },
    ));
    f.push(("burn".into(), r.output_burndown.to_string()));
    f
}

fn parse_u64(field: &str, v: &str) -> Result<u64, RedisLedgerError> {
    v.parse::<u64>().map_err(|_| {
        malformed(format!(
            "{field} = {v:?} is not a whole number of at least 0"
        ))
    })
}

fn parse_limit(field: &str, v: &str) -> Result<NonZeroU64, RedisLedgerError> {
    match v.parse::<NonZeroU64>() {
        Ok(n) => Ok(n),
        _ => Err(malformed(format!(
            "limit {field} = {v:?} is not a whole number of at least 1"
        ))),
    }
}

fn parse_budget(map: &HashMap<String, String>) -> Result<Budget, RedisLedgerError> {
    let get = |k: &str| map.get(k).map(String::as_str);
    let name = get("provider").ok_or_else(|| malformed("config has no provider"))?;
    let provider = Provider::ALL
        .into_iter()
        .find(|p| p.name() == name)
        .ok_or_else(|| malformed(format!("unknown provider {name:?}")))?;
    let flag = |k: &str| match get(k) {
        Some("1") => Ok(true),
        Some("0") => Ok(false),
        other => Err(malformed(format!(
            "config {k} = {other:?}: expected 0 or 1"
        ))),
    };
    let absent_cap = match get("absent") {
        Some("nothing") => AbsentCap::Nothing,
        Some("rest_of_context") => AbsentCap::RestOfContext,
        Some(s) if s.starts_with("tokens:") => AbsentCap::Tokens(parse_u64("absent", &s[7..])?),
        other => return Err(malformed(format!("config absent = {other:?}"))),
    };
    let mut b = Budget::new(provider);
    b.reservation = ReservationProfile {
        output_reserved_at_admission: flag("out_adm")?,
        context_includes_output: flag("ctx_out")?,
        absent_cap,
        // A configuration stored before the burndown rate was: 1.
        output_burndown: match get("burn") {
            None => 1,
            Some(v) => parse_u64("burn", v)?,
        },
    };
    let dims = [
        ("rpm", Dimension::Requests),
        ("tpm", Dimension::Tokens),
        ("itpm", Dimension::InputTokens),
        ("otpm", Dimension::OutputTokens),
        ("rpd", Dimension::RequestsPerDay),
        ("tpd", Dimension::TokensPerDay),
        ("ctx", Dimension::Context),
    ];
    for (k, d) in dims {
        if let Some(v) = get(k) {
            b = b.with(d, parse_limit(k, v)?);
        }
    }
    Ok(b)
}

fn state_fields(s: &State) -> Vec<(String, String)> {
    let mut f = Vec::new();
    for (i, d) in SLOTS.iter().enumerate() {
        if let Some(b) = s.bucket(*d) {
            f.push((format!("lim{i}"), b.limit.to_string()));
            f.push((format!("lvl{i}"), num_text(b.level)));
            f.push((format!("at{i}"), b.at_ms.to_string()));
            f.push((format!("rt{i}"), num_text(b.rate_per_ms)));
            f.push((format!("hr{i}"), num_text(b.header_rate_per_ms)));
            f.push((format!("hu{i}"), b.header_until_ms.to_string()));
        }
    }
    f.push(("blocked".into(), s.blocked_until_ms.to_string()));
    f
}

/// A number Lua wrote with `%.17g` (or Rust with `{:?}`): finite.
fn parse_f64(field: &str, v: &str) -> Result<f64, RedisLedgerError> {
    match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(malformed(format!("{field} = {v:?} is not a finite number"))),
    }
}

/// A whole, non-negative number Lua may have written as a float (`%.17g` of an integer).
fn parse_count(field: &str, v: &str) -> Result<u64, RedisLedgerError> {
    let x = parse_f64(field, v)?;
    if !is_whole_count(x) {
        return Err(malformed(format!(
            "{field} = {v:?} is not a whole number of at least 0"
        )));
    }
    Ok(x as u64)
}

/// Loads the state fields of a reply into the core's [`State`].
fn load(
    budget: &Budget,
    now_ms: u64,
    map: &HashMap<String, String>,
) -> Result<SharedSnapshot, RedisLedgerError> {
    let mut state = State::new(budget.clone(), now_ms);
    for (i, d) in SLOTS.iter().enumerate() {
        let bucket = match map.get(&format!("lim{i}")) {
            None => None,
            Some(lim) => {
                let field = |k: &str| -> Result<&str, RedisLedgerError> {
                    map.get(&format!("{k}{i}"))
                        .map(String::as_str)
                        .ok_or_else(|| malformed(format!("bucket {i} has no {k}")))
                };
                let limit = parse_count(&format!("lim{i}"), lim)?;
                if limit == 0 {
                    return Err(malformed(format!("lim{i} = {lim:?} is not at least 1")));
                }
                Some(Bucket {
                    limit,
                    level: parse_f64(&format!("lvl{i}"), field("lvl")?)?,
                    at_ms: parse_count(&format!("at{i}"), field("at")?)?,
                    rate_per_ms: parse_f64(&format!("rt{i}"), field("rt")?)?,
                    header_rate_per_ms: parse_f64(&format!("hr{i}"), field("hr")?)?,
                    header_until_ms: parse_count(&format!("hu{i}"), field("hu")?)?,
                })
            }
        };
        state.set_bucket(*d, bucket);
    }
    let count = |k: &str| -> Result<u64, RedisLedgerError> {
        match map.get(k) {
            None => Ok(0),
            Some(v) => parse_count(k, v),
        }
    };
    state.blocked_until_ms = count("blocked")?;
    let mut held = PerDimension::default();
    for (i, d) in SLOTS.into_iter().enumerate() {
        held[d] = count(&format!("held{i}"))?;
    }
    Ok(SharedSnapshot {
        state,
        now_ms,
        in_flight: count("inflight")?,
        held,
        seq: count("seq")?,
        observed_seq: count("obs_seq")?,
        stats: LedgerStats {
            admitted: count("n_admitted")?,
            settled: count("n_settled")?,
            released: count("n_released")?,
            expired: count("n_expired")?,
            late: count("n_late")?,
        },
        epoch: map.get("epoch").cloned().unwrap_or_default(),
        cfgver: map.get("cfgver").cloned().unwrap_or_default(),
    })
}

/// A script reply: status, `now`, the operation's own values, then the state's field/value pairs after `--`.
struct Reply {
    status: String,
    now_ms: u64,
    extra: Vec<String>,
    fields: HashMap<String, String>,
}

fn parse_reply(v: Vec<String>) -> Result<Reply, RedisLedgerError> {
    let mut it = v.into_iter();
    let status = it.next().ok_or_else(|| malformed("empty reply"))?;
    if status == "noinit" || status == "cfg" {
        return Ok(Reply {
            status,
            now_ms: 0,
            extra: it.collect(),
            fields: HashMap::new(),
        });
    }
    let now_ms = parse_count(
        "now",
        &it.next().ok_or_else(|| malformed("reply has no time"))?,
    )?;
    let mut extra = Vec::new();
    let mut sep = false;
    for x in it.by_ref() {
        if x == "--" {
            sep = true;
            break;
        }
        extra.push(x);
    }
    if !sep {
        return Err(malformed("reply has no state"));
    }
    let rest: Vec<String> = it.collect();
    if rest.len() % 2 != 0 {
        return Err(malformed("reply has an odd number of state fields"));
    }
    let mut fields = HashMap::new();
    let mut it = rest.into_iter();
    while let (Some(k), Some(v)) = (it.next(), it.next()) {
        fields.insert(k, v);
    }
    Ok(Reply {
        status,
        now_ms,
        extra,
        fields,
    })
}

fn pairs_to_map(v: Vec<String>) -> Result<HashMap<String, String>, RedisLedgerError> {
    if v.len() % 2 != 0 {
        return Err(malformed("odd number of hash fields"));
    }
    let mut m = HashMap::new();
    let mut it = v.into_iter();
    while let (Some(k), Some(v)) = (it.next(), it.next()) {
        m.insert(k, v);
    }
    Ok(m)
}

fn scaled(budget: &Budget, share: f64) -> Budget {
    let mut b = budget.clone();
    for d in Dimension::RATES {
        if let Some(l) = budget.limit(d) {
            b = b.with(
                d,
                NonZeroU64::new((l as f64 * share).floor() as u64).unwrap_or(NonZeroU64::MIN),
            );
        }
    }
    b
}

enum Outcome<T> {
    Up(T),
    Down(String),
}

impl RedisLedger {
    /// A ledger for `provider_key` (an identifier of the key, never the secret itself) and `model` (empty when the
    /// limits are per key), on the Redis at `url` (`redis://127.0.0.1:6379/`). The first replica to reach Redis
    /// stores `budget` as the key's configuration; later ones adopt the stored one (see [`RedisLedger::budget`]).
    /// Redis being down at open is not an error: the ledger decides per [`OnUnavailable`] until it is up.
    pub fn open(
        url: &str,
        provider_key: &str,
        model: &str,
        budget: Budget,
        options: RedisOptions,
        now_ms: u64,
    ) -> Result<RedisLedger, RedisLedgerError> {
        if let OnUnavailable::FailOpen { share } = options.on_unavailable {
            if !(share > 0.0 && share <= 1.0) {
                return Err(RedisLedgerError::InvalidOption(format!(
                    "fail-open share {share} is not in (0, 1]"
                )));
            }
        }
        if options.reservation_ttl_ms == 0 {
            return Err(RedisLedgerError::InvalidOption(
                "a reservation expiry of 0 ms".into(),
            ));
        }
        if options.timeout.is_zero() {
            return Err(RedisLedgerError::InvalidOption("a timeout of 0".into()));
        }
        let client =
            Client::open(url).map_err(|e| RedisLedgerError::InvalidOption(e.to_string()))?;
        let base = format!(
            "{}:{{{}:{}}}",
            escape(&options.namespace),
            escape(provider_key),
            escape(model)
        );
        let keys = [
            format!("{base}:state"),
            format!("{base}:reservations"),
            format!("{base}:expiry"),
            format!("{base}:config"),
        ];
        let ledger = RedisLedger {
            inner: Arc::new(Shared {
                client,
                keys,
                opts: options,
                pool: Mutex::new(Vec::new()),
                config: Mutex::new(Config {
                    ver: String::new(),
                    budget,
                }),
                last: Mutex::new(None),
                seen: AtomicBool::new(false),
                down_until_ms: Mutex::new(None),
                local: Mutex::new(None),
            }),
        };
        match ledger.shared(now_ms, |l, c| l.init(c, now_ms)) {
            Outcome::Up(r) => r.map(|_| ledger),
            Outcome::Down(_) => Ok(ledger),
        }
    }

    /// The key's configuration as this replica last read it from Redis (its own until it first reached Redis).
    pub fn budget(&self) -> Budget {
        lock(&self.inner.config).budget.clone()
    }

    /// The options.
    pub fn options(&self) -> &RedisOptions {
        &self.inner.opts
    }

    /// The Redis keys: state, reservations, expiry, config.
    pub fn keys(&self) -> &[String; 4] {
        &self.inner.keys
    }

    fn connect(&self) -> Result<Connection, RedisError> {
        let t = self.inner.opts.timeout;
        let c = self.inner.client.get_connection_with_timeout(t)?;
        c.set_read_timeout(Some(t))?;
        c.set_write_timeout(Some(t))?;
        Ok(c)
    }

    /// Runs `f` on a connection; on a connection failure retries once on a fresh connection (a restarted Redis
    /// leaves every pooled connection broken).
    fn with_conn<T>(
        &self,
        mut f: impl FnMut(&RedisLedger, &mut Connection) -> Result<T, RedisLedgerError>,
    ) -> Result<T, RedisLedgerError> {
        let mut last = String::new();
        for attempt in 0..2 {
            let pooled = if attempt == 0 {
                lock(&self.inner.pool).pop()
            } else {
                None
            };
            let mut conn = match pooled {
                Some(c) => c,
                None => match self.connect() {
                    Ok(c) => c,
                    Err(e) => match classify(e) {
                        RedisLedgerError::Unavailable(m) => {
                            return Err(RedisLedgerError::Unavailable(m))
                        }
                        other => return Err(other),
                    },
                },
            };
            match f(self, &mut conn) {
                Err(RedisLedgerError::Unavailable(m)) => {
                    lock(&self.inner.pool).clear();
                    last = m;
                }
                r => {
                    lock(&self.inner.pool).push(conn);
                    return r;
                }
            }
        }
        Err(RedisLedgerError::Unavailable(last))
    }

    /// Runs a shared-state operation unless Redis is known to be down (by the caller's clock); marks it down when
    /// it cannot be reached, up when it can.
    fn shared<T>(
        &self,
        now_ms: u64,
        f: impl FnMut(&RedisLedger, &mut Connection) -> Result<T, RedisLedgerError>,
    ) -> Outcome<Result<T, RedisLedgerError>> {
        if let Some(until) = *lock(&self.inner.down_until_ms) {
            if now_ms < until {
                return Outcome::Down("Redis was unreachable moments ago".into());
            }
        }
        match self.with_conn(f) {
            Err(RedisLedgerError::Unavailable(m)) => {
                *lock(&self.inner.down_until_ms) =
                    Some(now_ms.saturating_add(self.inner.opts.retry_after_ms));
                Outcome::Down(m)
            }
            r => {
                *lock(&self.inner.down_until_ms) = None;
                *lock(&self.inner.local) = None;
                Outcome::Up(r)
            }
        }
    }

    fn now_arg(&self, now_ms: u64) -> String {
        match self.inner.opts.time {
            TimeSource::Redis => String::new(),
            TimeSource::Caller => now_ms.to_string(),
        }
    }

    fn invoke(&self, conn: &mut Connection, args: &[String]) -> Result<Reply, RedisLedgerError> {
        let mut inv = script().prepare_invoke();
        for k in &self.inner.keys {
            inv.key(k);
        }
        for a in args {
            inv.arg(a);
        }
        let v: Vec<String> = inv.invoke(conn).map_err(classify)?;
        parse_reply(v)
    }

    /// Calls the script, creating the state first when it is missing (first use, a restart) and reloading the
    /// configuration when another replica changed it.
    fn call(
        &self,
        conn: &mut Connection,
        now_ms: u64,
        args: impl Fn(&str) -> Vec<String>,
    ) -> Result<(Reply, SharedSnapshot), RedisLedgerError> {
        for _ in 0..3 {
            let ver = lock(&self.inner.config).ver.clone();
            let r = self.invoke(conn, &args(&ver))?;
            match r.status.as_str() {
                "noinit" => self.init(conn, now_ms)?,
                "cfg" => self.reload_config(conn)?,
                _ => {
                    let budget = lock(&self.inner.config).budget.clone();
                    let snap = load(&budget, r.now_ms, &r.fields)?;
                    if snap.cfgver != ver {
                        // Read against a configuration this replica has not seen yet.
                        self.reload_config(conn)?;
                        let budget = lock(&self.inner.config).budget.clone();
                        let snap = load(&budget, r.now_ms, &r.fields)?;
                        return Ok((r, snap));
                    }
                    return Ok((r, snap));
                }
            }
        }
        Err(RedisLedgerError::Redis(
            "the shared state kept disappearing or changing configuration".into(),
        ))
    }

    fn redis_time(&self, conn: &mut Connection, now_ms: u64) -> Result<u64, RedisLedgerError> {
        match self.inner.opts.time {
            TimeSource::Caller => Ok(now_ms),
            TimeSource::Redis => {
                let (s, us): (String, String) =
                    ::redis::cmd("TIME").query(conn).map_err(classify)?;
                Ok(parse_u64("TIME seconds", &s)?.saturating_mul(1000)
                    + parse_u64("TIME microseconds", &us)? / 1000)
            }
        }
    }

    /// Creates the shared state if it is missing: full buckets on first use; after a loss this replica noticed
    /// (it had read the state before), the last state it read, so a restart never hands out a fresh budget.
    fn init(&self, conn: &mut Connection, now_ms: u64) -> Result<(), RedisLedgerError> {
        let now = self.redis_time(conn, now_ms)?;
        let last = lock(&self.inner.last).clone();
        let (state, seq, obs_seq) = match last.filter(|_| self.inner.seen.load(Ordering::Relaxed)) {
            Some(s) => (s.state, s.seq, s.observed_seq),
            None => (
                State::new(lock(&self.inner.config).budget.clone(), now),
                0,
                0,
            ),
        };
        let cfg = budget_fields(&state.budget);
        let mut args = vec![
            "init".to_string(),
            self.now_arg(now_ms),
            cfg.len().to_string(),
        ];
        for (k, v) in cfg {
            args.push(k);
            args.push(v);
        }
        let mut sf = state_fields(&state);
        sf.push(("seq".into(), seq.to_string()));
        sf.push(("obs_seq".into(), obs_seq.to_string()));
        sf.push(("hw".into(), now.to_string()));
        sf.push(("epoch".into(), format!("{now}-{seq}")));
        for (k, v) in sf {
            args.push(k);
            args.push(v);
        }
        let mut inv = script().prepare_invoke();
        for k in &self.inner.keys {
            inv.key(k);
        }
        for a in &args {
            inv.arg(a);
        }
        let v: Vec<String> = inv.invoke(conn).map_err(classify)?;
        if v.is_empty() {
            return Err(malformed("empty init reply"));
        }
        let map = pairs_to_map(v[1..].to_vec())?;
        self.set_config(&map)
    }

    fn set_config(&self, map: &HashMap<String, String>) -> Result<(), RedisLedgerError> {
        let budget = parse_budget(map)?;
        let ver = map
            .get("ver")
            .cloned()
            .ok_or_else(|| malformed("config has no version"))?;
        *lock(&self.inner.config) = Config { ver, budget };
        Ok(())
    }

    fn reload_config(&self, conn: &mut Connection) -> Result<(), RedisLedgerError> {
        let v: Vec<String> = ::redis::cmd("HGETALL")
            .arg(&self.inner.keys[3])
            .query(conn)
            .map_err(classify)?;
        self.set_config(&pairs_to_map(v)?)
    }

    fn remember(&self, snap: &SharedSnapshot) {
        self.inner.seen.store(true, Ordering::Relaxed);
        *lock(&self.inner.last) = Some(snap.clone());
    }

    /// The local ledger for fail-open: `share` of every limit, started from the last shared state read (scaled).
    fn local(&self, share: f64, now_ms: u64) -> Ledger {
        let mut g = lock(&self.inner.local);
        if let Some(l) = g.as_ref() {
            return l.clone();
        }
        let budget = lock(&self.inner.config).budget.clone();
        let mut state = State::new(scaled(&budget, share), now_ms);
        if let Some(last) = lock(&self.inner.last).as_ref() {
            for d in Dimension::RATES {
                if let (Some(seen), Some(b)) = (last.state.bucket(d), state.bucket_mut(d)) {
                    b.level = (seen.available(last.now_ms) * share).min(b.limit as f64);
                }
            }
            state.blocked_until_ms =
                now_ms.saturating_add(last.state.blocked_until_ms.saturating_sub(last.now_ms));
        }
        let l = Ledger::new(state);
        *g = Some(l.clone());
        l
    }

    /// The verdict for `cost` now, without reserving anything.
    pub fn check(
        &self,
        cost: &Cost,
        policy: Policy,
        now_ms: u64,
    ) -> Result<Decision, RedisLedgerError> {
        match self.snapshot(now_ms) {
            Ok(s) => Ok(Decision {
                check: s.state.check(cost, policy, s.now_ms),
                mode: Mode::Shared,
            }),
            Err(RedisLedgerError::Unavailable(m)) => match self.inner.opts.on_unavailable {
                OnUnavailable::FailClosed => Err(RedisLedgerError::Unavailable(m)),
                OnUnavailable::FailOpen { share } => Ok(Decision {
                    check: self.local(share, now_ms).check(cost, policy, now_ms),
                    mode: Mode::FailOpen,
                }),
            },
            Err(e) => Err(e),
        }
    }

    /// The shared state now (reaping expired reservations first). `Unavailable` when Redis cannot be reached.
    pub fn snapshot(&self, now_ms: u64) -> Result<SharedSnapshot, RedisLedgerError> {
        let now = self.now_arg(now_ms);
        match self.shared(now_ms, |l, c| {
            l.call(c, now_ms, |_| vec!["read".into(), now.clone()])
        }) {
            Outcome::Up(r) => {
                let (_, snap) = r?;
                self.remember(&snap);
                Ok(snap)
            }
            Outcome::Down(m) => Err(RedisLedgerError::Unavailable(m)),
        }
    }

    /// Reserves `cost` if it fits now, atomically across every replica (one script call): all or nothing in every
    /// dimension.
    pub fn try_reserve(
        &self,
        cost: &Cost,
        policy: Policy,
        now_ms: u64,
    ) -> Result<RedisReservation, Denied> {
        let budget = self.budget();
        let input = cost.input.at(policy);
        // The context window depends on the configuration alone: no round trip for a request that can never fit.
        if let Some(w) = budget.limit(Dimension::Context) {
            if budget.needed(Dimension::Context, input, cost.max_output) > w {
                let c = State::new(budget, 0).check(cost, policy, 0);
                return Err(refusal(c, Mode::Shared));
            }
        }
        let now = self.now_arg(now_ms);
        let ttl = self.inner.opts.reservation_ttl_ms.to_string();
        let outcome = self.shared(now_ms, |l, c| {
            l.call(c, now_ms, |ver| {
                // The needs follow the configuration in force (re-read after a change).
                let b = l.budget();
                let n = cost.needs(&State::new(b, 0), input);
                let mut a = vec!["reserve".into(), now.clone(), ver.to_string(), ttl.clone()];
                a.extend(SLOTS.iter().map(|&d| n[d].to_string()));
                a
            })
        });
        let (reply, snap) = match outcome {
            Outcome::Up(Ok(x)) => x,
            Outcome::Up(Err(e)) => return Err(Denied::Error(e)),
            Outcome::Down(m) => {
                return match self.inner.opts.on_unavailable {
                    OnUnavailable::FailClosed => Err(Denied::Unavailable { error: m }),
                    OnUnavailable::FailOpen { share } => {
                        match self.local(share, now_ms).try_reserve(cost, policy, now_ms) {
                            Ok(r) => Ok(RedisReservation {
                                ledger: self.clone(),
                                check: r.check().clone(),
                                held: Held::Local(Some(r)),
                                mode: Mode::FailOpen,
                                done: false,
                            }),
                            Err(refused) => {
                                let c = self.local(share, now_ms).check(cost, policy, now_ms);
                                Err(Denied::Refused {
                                    refused,
                                    check: Box::new(c),
                                    mode: Mode::FailOpen,
                                })
                            }
                        }
                    }
                };
            }
        };
        let c = snap.state.check(cost, policy, snap.now_ms);
        let needs = cost.needs(&snap.state, input);
        match reply.status.as_str() {
            "ok" => {
                let id = reply
                    .extra
                    .first()
                    .ok_or_else(|| Denied::Error(malformed("reserve reply has no id")))
                    .and_then(|s| parse_u64("reservation id", s).map_err(Denied::Error))?;
                let expires = reply
                    .extra
                    .get(1)
                    .ok_or_else(|| Denied::Error(malformed("reserve reply has no expiry")))
                    .and_then(|s| parse_count("expiry", s).map_err(Denied::Error))?;
                let mut after = snap.clone();
                after.state.take(&needs, snap.now_ms);
                after.in_flight += 1;
                after.seq = id;
                after.held = after.held.zip_with(&needs, |h, n| h + n);
                self.remember(&after);
                Ok(RedisReservation {
                    ledger: self.clone(),
                    check: c,
                    held: Held::Shared {
                        id,
                        epoch: snap.epoch,
                        needs,
                        caller_ms: now_ms,
                        expires_at_ms: expires,
                    },
                    mode: Mode::Shared,
                    done: false,
                })
            }
            "no" => {
                self.remember(&snap);
                Err(refusal(c, Mode::Shared))
            }
            other => Err(Denied::Error(malformed(format!(
                "reserve replied {other:?}"
            )))),
        }
    }

    /// Folds in a response's rate-limit headers, at the shared state's time, with the core's
    /// [`State::observe`] (or [`State::observe_in_flight`] while reservations are outstanding, as the in-process
    /// ledger does). `order` is the reservation's [`RedisReservation::order`]: an observation older than one
    /// already applied is ignored, so a slow response never overwrites a newer one.
    pub fn observe(
        &self,
        obs: &RateLimitSnapshot,
        order: u64,
        now_ms: u64,
    ) -> Result<Folded, RedisLedgerError> {
        match self.shared(now_ms, |l, c| l.observe_in(c, obs, order, now_ms)) {
            Outcome::Up(r) => r,
            Outcome::Down(m) => Err(RedisLedgerError::Unavailable(m)),
        }
    }

    fn observe_in(
        &self,
        conn: &mut Connection,
        obs: &RateLimitSnapshot,
        order: u64,
        now_ms: u64,
    ) -> Result<Folded, RedisLedgerError> {
        let key = &self.inner.keys[0];
        for _ in 0..16 {
            ::redis::cmd("WATCH")
                .arg(key)
                .query::<()>(conn)
                .map_err(classify)?;
            let v: Vec<String> = ::redis::cmd("HGETALL")
                .arg(key)
                .query(conn)
                .map_err(classify)?;
            let map = pairs_to_map(v)?;
            if map.is_empty() {
                ::redis::cmd("UNWATCH")
                    .query::<()>(conn)
                    .map_err(classify)?;
                self.init(conn, now_ms)?;
                continue;
            }
            let mut now = self.redis_time(conn, now_ms)?;
            if self.inner.opts.time == TimeSource::Redis {
                if let Some(hw) = map.get("hw") {
                    now = now.max(parse_count("hw", hw)?);
                }
            }
            if map.get("cfgver") != Some(&lock(&self.inner.config).ver) {
                ::redis::cmd("UNWATCH")
                    .query::<()>(conn)
                    .map_err(classify)?;
                self.reload_config(conn)?;
                continue;
            }
            let budget = self.budget();
            let mut snap = load(&budget, now, &map)?;
            if order < snap.observed_seq {
                ::redis::cmd("UNWATCH")
                    .query::<()>(conn)
                    .map_err(classify)?;
                return Ok(Folded::Stale);
            }
            if snap.in_flight > 0 {
                snap.state.observe_in_flight(obs, now);
            } else {
                snap.state.observe(obs, now);
            }
            snap.observed_seq = order;
            let mut fields = state_fields(&snap.state);
            fields.push(("obs_seq".into(), order.to_string()));
            fields.push(("hw".into(), now.to_string()));
            let done: Option<()> = ::redis::pipe()
                .atomic()
                .hset_multiple(key, &fields)
                .ignore()
                .query(conn)
                .map_err(classify)?;
            if done.is_some() {
                self.remember(&snap);
                return Ok(Folded::Applied);
            }
        }
        Err(RedisLedgerError::Redis(
            "observation kept conflicting with other writers".into(),
        ))
    }

    fn finish(
        &self,
        held: &Held,
        used: Option<&PerDimension<u64>>,
        now_ms: u64,
    ) -> Outcome<Result<(Reply, SharedSnapshot), RedisLedgerError>> {
        let (epoch, id) = match held {
            Held::Shared { epoch, id, .. } => (epoch.clone(), id.to_string()),
            Held::Local(_) => (String::new(), "0".to_string()),
        };
        let now = self.now_arg(now_ms);
        self.shared(now_ms, |l, c| {
            l.call(c, now_ms, |_| {
                let mut a = vec![
                    if used.is_some() { "settle" } else { "release" }.to_string(),
                    now.clone(),
                    epoch.clone(),
                    id.clone(),
                ];
                if let Some(u) = used {
                    a.extend(SLOTS.iter().map(|&d| u[d].to_string()));
                }
                a
            })
        })
    }
}

fn refusal(c: Check, mode: Mode) -> Denied {
    // Sendable: the script and the core disagree by a float's hair, so try again in a millisecond.
    let refused = Refused::of(c.verdict).unwrap_or(Refused::NotYet {
        wait_ms: 1,
        dimension: Dimension::Tokens,
    });
    Denied::Refused {
        refused,
        check: Box::new(c),
        mode,
    }
}

#[derive(Debug)]
enum Held {
    Shared {
        id: u64,
        epoch: String,
        needs: PerDimension<u64>,
        caller_ms: u64,
        expires_at_ms: u64,
    },
    Local(Option<Reservation>),
}

/// Capacity held in the shared ledger (or the local fail-open one) for one admitted request. Settle or release
/// it; dropping it releases it (best effort: if Redis is unreachable then, the expiry returns it).
#[derive(Debug)]
#[must_use = "a reservation holds capacity until it is settled or released"]
pub struct RedisReservation {
    ledger: RedisLedger,
    check: Check,
    held: Held,
    mode: Mode,
    done: bool,
}

impl RedisReservation {
    /// The check the reservation was admitted on.
    pub fn check(&self) -> &Check {
        &self.check
    }

    /// Shared or fail-open.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The reservation's order number (the shared ledger's sequence; 0 for a fail-open one): pass it to
    /// [`RedisLedger::observe`] with the response's headers.
    pub fn order(&self) -> u64 {
        match &self.held {
            Held::Shared { id, .. } => *id,
            Held::Local(_) => 0,
        }
    }

    /// When the shared ledger gives it back unless settled or released first (`None` for a fail-open one).
    pub fn expires_at_ms(&self) -> Option<u64> {
        match &self.held {
            Held::Shared { expires_at_ms, .. } => Some(*expires_at_ms),
            Held::Local(_) => None,
        }
    }

    /// What it holds per rate dimension.
    pub fn held(&self, dimension: Dimension) -> u64 {
        match &self.held {
            Held::Shared { needs, .. } => needs[dimension],
            Held::Local(r) => r.as_ref().map_or(0, |r| r.held(dimension)),
        }
    }

    /// Folds in the headers of this reservation's response (see [`RedisLedger::observe`]). A fail-open
    /// reservation has order 0, so its headers are applied only while nothing newer has been.
    pub fn observe(
        &self,
        obs: &RateLimitSnapshot,
        now_ms: u64,
    ) -> Result<Folded, RedisLedgerError> {
        match &self.held {
            Held::Shared { id, .. } => self.ledger.observe(obs, *id, now_ms),
            Held::Local(_) => self.ledger.observe(obs, 0, now_ms),
        }
    }

    /// The request finished and the provider reported `usage`: give back what was reserved and not used (or take
    /// what was used beyond it). A fail-open reservation settles in the local ledger and, when Redis is back,
    /// charges its usage to the shared one as well.
    pub fn settle(mut self, usage: Usage, now_ms: u64) -> Result<RedisSettled, RedisLedgerError> {
        self.done = true;
        let burndown = lock(&self.ledger.inner.config)
            .budget
            .reservation
            .output_burndown;
        let used = usage.charged(burndown);
        match &mut self.held {
            Held::Local(r) => {
                let settled = match r.take() {
                    Some(r) => r.settle(usage, now_ms),
                    None => Settled::of(&PerDimension::default(), &used),
                };
                let held = Held::Local(None);
                match self.ledger.finish(&held, Some(&used), now_ms) {
                    Outcome::Up(Err(e)) => return Err(e),
                    Outcome::Up(Ok((_, snap))) => self.ledger.remember(&snap),
                    Outcome::Down(_) => {}
                }
                Ok(RedisSettled {
                    settled,
                    late: false,
                    mode: Mode::FailOpen,
                })
            }
            Held::Shared { needs, .. } => {
                let needs = *needs;
                match self.ledger.finish(&self.held, Some(&used), now_ms) {
                    Outcome::Up(r) => {
                        let (reply, snap) = r?;
                        self.ledger.remember(&snap);
                        let late = reply.status == "late";
                        Ok(RedisSettled {
                            settled: if late {
                                Settled::of(&PerDimension::default(), &used)
                            } else {
                                Settled::of(&needs, &used)
                            },
                            late,
                            mode: Mode::Shared,
                        })
                    }
                    Outcome::Down(m) => Err(RedisLedgerError::Unavailable(m)),
                }
            }
        }
    }

    /// The request failed before the provider counted it: give everything back. `Unavailable` when Redis cannot
    /// be reached (the expiry gives it back then).
    pub fn release(mut self, now_ms: u64) -> Result<(), RedisLedgerError> {
        self.done = true;
        match &mut self.held {
            Held::Local(r) => {
                if let Some(r) = r.take() {
                    r.release();
                }
                Ok(())
            }
            Held::Shared { .. } => match self.ledger.finish(&self.held, None, now_ms) {
                Outcome::Up(r) => {
                    let (_, snap) = r?;
                    self.ledger.remember(&snap);
                    Ok(())
                }
                Outcome::Down(m) => Err(RedisLedgerError::Unavailable(m)),
            },
        }
    }
}

impl Drop for RedisReservation {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        self.done = true;
        if let Held::Shared { caller_ms, .. } = &self.held {
            // Best effort, at the caller's time of admission (the latest this reservation knows); the expiry is the
            // backstop when Redis cannot be reached now.
            let at = *caller_ms;
            let _ = self.ledger.finish(&self.held, None, at);
        }
    }
}

/// A [`Guard`](llm_preflight::Guard)'s shared budget in Redis: `guard.with_shared_ledger(t, Arc::new(ledger))`.
/// Every send on that target reserves here; a refusal here makes the call wait the shared wait (or shed, past its
/// deadline). This ledger's own [`OnUnavailable`] applies first (failing open on a local share of the budget is
/// reported as [`Mode::FailOpen`]); failing closed, it reports the store unavailable and the guard's
/// [`LedgerFailure`](llm_preflight::LedgerFailure) decides.
impl SharedLedger for RedisLedger {
    fn reserve(&self, cost: &Cost, policy: Policy, now_ms: u64) -> SharedAdmission {
        match self.try_reserve(cost, policy, now_ms) {
            Ok(r) => SharedAdmission::Admitted {
                mode: r.mode(),
                ticket: Box::new(r),
            },
            Err(Denied::Refused { refused, mode, .. }) => {
                SharedAdmission::Refused { refused, mode }
            }
            Err(Denied::Unavailable { error }) => SharedAdmission::Unavailable { error },
            // Malformed data or a Redis error decided nothing: as unreachable, so the guard's policy decides.
            Err(Denied::Error(e)) => SharedAdmission::Unavailable {
                error: e.to_string(),
            },
        }
    }
}

impl SharedTicket for RedisReservation {
    fn observe(&self, snapshot: &RateLimitSnapshot, now_ms: u64) -> Result<(), String> {
        RedisReservation::observe(self, snapshot, now_ms)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn settle(self: Box<Self>, usage: Usage, now_ms: u64) -> Result<(), String> {
        RedisReservation::settle(*self, usage, now_ms)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn release(self: Box<Self>, now_ms: u64) -> Result<(), String> {
        RedisReservation::release(*self, now_ms).map_err(|e| e.to_string())
    }
}
