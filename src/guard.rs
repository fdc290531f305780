//! The guarded call: one sans-I/O state machine that owns a request's whole path, so a gateway gets the order
//! right by default: estimate, route, admit (reserve, or queue until the bucket refills, or shed by the deadline),
//! send, read the answer (headers first, then the body, settling before anything else), classify a refusal,
//! wait no earlier than Retry-After, retry, fall back or give up, and settle or release every reservation on every
//! path.
//!
//! A [`Guard`] holds what calls share: the [`Target`]s (providers or keys, in preference order) with their
//! ledgers and admission queues, a circuit breaker per target and the retry budget. It is a cheap handle
//! (clones share it, as a [`Ledger`]'s do). [`Guard::start`] gives a [`Call`]; the caller drives it with its own
//! clock and I/O, in the manner of quinn-proto's `Connection`: [`Call::poll`] says what to do next
//! ([`Step`]: send this body to that target, wait until a time, answer the client yourself, or done), and the
//! `on_*` methods feed it what happened (the response's status and headers, body chunks, its end, a transport
//! error, the client going away). Time is `now_ms` and the retry jitter a draw in `[0, 1)` given to
//! [`Call::on_end`], both parameters.
//!
//! ```
//! use llm_preflight::{Budget, Guard, GuardConfig, Provider, Step, Target};
//! let key = Target::new("openai", Budget::new(Provider::OpenAi).tokens_per_minute(8_000.try_into().unwrap()));
//! let guard = Guard::new(vec![key], GuardConfig::default()).unwrap();
//! let body = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"Hello"}],"max_tokens":100}"#;
//! let mut call = guard.start(body, 30_000, 0);
//! let Step::Send { target, .. } = call.poll(0) else { panic!() };
//! assert_eq!(target, 0);
//! call.on_response(200, [("x-ratelimit-remaining-tokens", "7800")], 400);
//! call.on_body(br#"{"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":20}}"#, 450);
//! call.on_end(450, 0.5);
//! assert!(matches!(call.poll(450), Step::Done(o) if o.succeeded()));
//! assert_eq!(guard.held_tokens(), 0);
//! ```

use crate::content::ContentKind;
use crate::dimension::Dimension;
use crate::headers::RateLimitSnapshot;
use crate::preflight::budget::Budget;
use crate::preflight::ledger::{Ledger, Refused, Reservation, Usage};
use crate::preflight::policy::Policy;
use crate::preflight::queue::{AdmissionQueue, Offer, Shed, ShedReason};
use crate::preflight::request::{estimate_request_value, Api};
use crate::preflight::route::{route, Candidate, PassReason};
use crate::preflight::shared::{
    LedgerFailure, LedgerMode, SharedAdmission, SharedLedger, SharedTicket,
};
use crate::preflight::state::State;
use crate::preflight::verdict::{Cost, Verdict};
use crate::profile::Profile;
use crate::profile_file::CustomProfile;
use crate::refusal::{classify_with_snapshot, inspect_frame_value, RefusalKind};
use crate::retry::{
    next_action, Action, BreakerConfig, CircuitBreaker, FallbackReason, RetryBudget, RetryPolicy,
};
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

/// One provider or key a [`Guard`] may send to.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// A name for breakers and reports (`openai-key-1`, `groq/llama-3.3-70b`).
    pub name: String,
    /// Its limits and admission rules.
    pub budget: Budget,
    /// The API shape it speaks; a call only falls back to targets of its own body's shape. `None`: any.
    pub api: Option<Api>,
    /// The `model` to write into the body when sending here (a fallback's own model name); `None` keeps it. It
    /// also sets the budget's rules for that model ([`Budget::for_model`]: Bedrock's output burndown rate).
    pub model: Option<String>,
}

impl Target {
    /// A target of any API shape that keeps the body's model.
    pub fn new(name: &str, budget: Budget) -> Target {
        Target {
            name: name.to_string(),
            budget,
            api: None,
            model: None,
        }
    }
}

/// How a [`Guard`] decides.
#[derive(Debug, Clone, PartialEq)]
pub struct GuardConfig {
    /// Which end of the estimate's band admission decides on.
    pub policy: Policy,
    /// Backoff, caps and attempts for retries (each call adds its own deadline).
    pub retry: RetryPolicy,
    /// Work each target's admission queue may hold, in milliseconds of refill.
    pub max_queue_work_ms: u64,
    /// When a target's breaker opens and closes.
    pub breaker: BreakerConfig,
    /// Retries allowed across calls (each request sent earns `ratio` of one, and a floor refills with time).
    pub retry_budget: RetryBudget,
    /// The most of a response body kept for classification and usage (a stream's frames are read as they come).
    pub max_body_bytes: usize,
    /// What to do when a target's [`SharedLedger`] cannot be reached.
    pub on_ledger_unavailable: LedgerFailure,
}

impl Default for GuardConfig {
    fn default() -> Self {
        GuardConfig {
            policy: Policy::Median,
            retry: RetryPolicy::default(),
            max_queue_work_ms: 20_000,
            breaker: BreakerConfig::default(),
            retry_budget: RetryBudget::new(0.2, 1.0, 20.0),
            max_body_bytes: 1 << 20,
            on_ledger_unavailable: LedgerFailure::FailClosed,
        }
    }
}

/// A [`Guard`] that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GuardError {
    /// No target was given.
    NoTarget,
    /// Two targets share a name (breakers are kept by name).
    DuplicateName(String),
    /// A target position past the last target.
    NoSuchTarget(usize),
}

impl fmt::Display for GuardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuardError::NoTarget => f.write_str("a guard needs at least one target"),
            GuardError::DuplicateName(n) => write!(f, "two targets are named {n:?}"),
            GuardError::NoSuchTarget(t) => write!(f, "there is no target {t}"),
        }
    }
}

impl std::error::Error for GuardError {}

/// What is shared by every call of one gateway.
#[derive(Debug, Clone)]
pub struct Guard {
    inner: Arc<Mutex<Shared>>,
}

#[derive(Debug)]
struct Slot {
    target: Target,
    queue: AdmissionQueue<u64>,
    /// A ledger shared beyond this guard, reserved through at each send.
    shared: Option<Arc<dyn SharedLedger>>,
}

#[derive(Debug)]
struct Shared {
    slots: Vec<Slot>,
    /// A circuit breaker per target, by position.
    breakers: Vec<CircuitBreaker>,
    retry_budget: RetryBudget,
    config: GuardConfig,
    next_id: u64,
    /// What a target's queue decided for a queued call, kept until that call polls.
    ready: BTreeMap<u64, Result<Reservation, Shed>>,
    /// Calls that ended while still in a queue: what the queue decides for them later is given back at once.
    gone: BTreeSet<u64>,
    /// Per target, how its reported prompt tokens compare with the estimates: over every request, and per content
    /// kind.
    learned: Vec<(Learned, [Learned; ContentKind::COUNT])>,
}

/// Running moments of `ln(reported / estimated)` (Welford), in constant memory.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Learned {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Learned {
    fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    fn sd(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            (self.m2 / (self.n - 1) as f64).sqrt()
        }
    }
}

/// Observations after which a target's overall correction counts for half (a prior of "counts as estimated").
const PRIOR_ALL: f64 = 5.0;
/// The same for one content kind's departure from the target's overall correction: kinds need more evidence.
const PRIOR_KIND: f64 = 20.0;
/// Observations at which the observed spread counts for half in the band (never narrower than shipped below 30).
const PRIOR_SPREAD: f64 = 50.0;
/// A reported count this far from the estimate (a factor of 10) is a wrong usage block, not a tokenizer: ignored.
const MAX_LN_RATIO: f64 = std::f64::consts::LN_10;

impl Shared {
    /// The shift of `ln(tokens)` learned for target `t` and content kind `kind`, and the target's moments.
    fn shift(&self, t: usize, kind: ContentKind) -> (f64, Learned) {
        let (all, kinds) = &self.learned[t];
        let k = kinds[kind as usize];
        let n = all.n as f64;
        let base = all.mean * n / (n + PRIOR_ALL);
        let kn = k.n as f64;
        (base + (k.mean - all.mean) * kn / (kn + PRIOR_KIND), *all)
    }

    /// `cost` as target `t` counts it, after what the guard learned of its counting: the median moved by the
    /// learned ratio, the band as wide as the shipped one while observations are few, then blended towards the
    /// observed spread.
    fn corrected(&self, t: usize, kind: ContentKind, cost: &Cost) -> Cost {
        let (shift, all) = self.shift(t, kind);
        if all.n == 0 {
            return cost.clone();
        }
        let tokens = cost.input.tokens.max(1) as f64;
        let lo_w = (tokens / cost.input.low.max(1) as f64).ln().max(0.0);
        let hi_w = (cost.input.high.max(1) as f64 / tokens).ln().max(0.0);
        let obs = 1.645 * all.sd();
        let w = all.n as f64 / (all.n as f64 + PRIOR_SPREAD);
        let blend = |shipped: f64| {
            let b = (1.0 - w) * shipped + w * obs;
            if all.n < 30 {
                b.max(shipped)
            } else {
                b
            }
        };
        let median = tokens * shift.exp();
        let mut c = cost.clone();
        c.input.tokens = median.round() as u64;
        c.input.low = ((median * (-blend(lo_w)).exp()).floor() as u64).min(c.input.tokens);
        c.input.high = ((median * blend(hi_w).exp()).ceil() as u64).max(c.input.tokens);
        c
    }

    /// Learns from one reported count; the target's answers and mean ratio after it, or `None` when the count
    /// was not believed.
    fn learn(
        &mut self,
        t: usize,
        kind: ContentKind,
        estimated: u64,
        reported: u64,
    ) -> Option<(u64, f64)> {
        if estimated == 0 || reported == 0 {
            return None;
        }
        let x = (reported as f64 / estimated as f64).ln();
        if !x.is_finite() || x.abs() > MAX_LN_RATIO {
            return None;
        }
        let (all, kinds) = &mut self.learned[t];
        all.push(x);
        kinds[kind as usize].push(x);
        Some((all.n, all.mean.exp()))
    }
}

impl Shared {
    /// Polls a target's queue and keeps what it decided for the calls concerned; returns when the queue should be
    /// polled again.
    fn pump(&mut self, t: usize, now_ms: u64) -> Option<u64> {
        let poll = self.slots[t].queue.poll(now_ms);
        for (id, r) in poll.admitted {
            if self.gone.remove(&id) {
                r.release();
            } else {
                self.ready.insert(id, Ok(r));
            }
        }
        for (id, s) in poll.shed {
            if !self.gone.remove(&id) {
                self.ready.insert(id, Err(s));
            }
        }
        poll.wake_at_ms
    }
}

fn lock(m: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Guard {
    /// A guard over `targets`, in preference order.
    pub fn new(targets: Vec<Target>, config: GuardConfig) -> Result<Guard, GuardError> {
        if targets.is_empty() {
            return Err(GuardError::NoTarget);
        }
        for (i, t) in targets.iter().enumerate() {
            if targets[..i].iter().any(|o| o.name == t.name) {
                return Err(GuardError::DuplicateName(t.name.clone()));
            }
        }
        let n = targets.len();
        let slots = targets
            .into_iter()
            .map(|mut target| {
                // A target that names its model takes the provider's rules for it (Bedrock's burndown rate), unless
                // its budget already set the rate.
                let default = target.budget.provider.reservation().output_burndown;
                if let Some(m) = &target.model {
                    if target.budget.reservation.output_burndown == default {
                        target.budget = target.budget.clone().for_model(m);
                    }
                }
                let ledger = Ledger::new(State::new(target.budget.clone(), 0));
                Slot {
                    queue: AdmissionQueue::new(ledger, config.policy, config.max_queue_work_ms),
                    target,
                    shared: None,
                }
            })
            .collect();
        Ok(Guard {
            inner: Arc::new(Mutex::new(Shared {
                slots,
                breakers: vec![CircuitBreaker::new(config.breaker); n],
                retry_budget: config.retry_budget,
                config,
                next_id: 0,
                ready: BTreeMap::new(),
                gone: BTreeSet::new(),
                learned: vec![(Learned::default(), [Learned::default(); ContentKind::COUNT]); n],
            })),
        })
    }

    /// Target `t`'s budget is shared beyond this guard (by the replicas of a gateway, through Redis; or by other
    /// guards in this process, through one [`Ledger`]): every send there also reserves in `ledger`, and the
    /// call settles or releases that ticket with its own reservation. When `ledger` cannot be reached, the
    /// guard follows [`GuardConfig::on_ledger_unavailable`].
    pub fn with_shared_ledger(
        self,
        t: usize,
        ledger: Arc<dyn SharedLedger>,
    ) -> Result<Guard, GuardError> {
        let mut g = lock(&self.inner);
        let slot = g.slots.get_mut(t).ok_or(GuardError::NoSuchTarget(t))?;
        slot.shared = Some(ledger);
        drop(g);
        Ok(self)
    }

    /// A call for the request `body` (OpenAI chat or Responses, Anthropic Messages or Gemini JSON) that must start
    /// by `deadline_ms`. A body that cannot be read gives a call whose first step answers 400.
    pub fn start(&self, body: &str, deadline_ms: u64, now_ms: u64) -> Call {
        let mut g = lock(&self.inner);
        let id = g.next_id;
        g.next_id += 1;
        let n = g.slots.len();
        let mut call = Call {
            guard: self.clone(),
            id,
            body: Value::Null,
            api: None,
            costs: vec![None; n],
            raw: None,
            text: Some(body.to_string()),
            max_body_bytes: g.config.max_body_bytes,
            deadline_ms,
            started_ms: now_ms,
            attempt: 0,
            tried: vec![false; n],
            phase: Phase::Route,
            left: None,
            reported: None,
            last_ms: now_ms,
            reservation: None,
            ticket: None,
            response: None,
            outcome: Outcome::default(),
            sent_once: false,
            events: Vec::with_capacity(8),
        };
        let parsed: Result<Value, String> = serde_json::from_str(body).map_err(|e| e.to_string());
        match parsed {
            Ok(v) => match estimate_request_value(&v, None, None) {
                Ok(est) => {
                    call.api = Some(est.api);
                    let (cost, kind) = (est.cost(), est.estimate.content.kind);
                    for (i, s) in g.slots.iter().enumerate() {
                        if s.target.api.is_none_or(|a| a == est.api) {
                            call.costs[i] = Some(g.corrected(i, kind, &cost));
                        }
                    }
                    call.raw = Some((cost.input.tokens, kind));
                    call.body = v;
                }
                Err(e) => call.phase = Phase::Answer(bad_request(&e.to_string())),
            },
            Err(e) => {
                call.phase =
                    Phase::Answer(bad_request(&format!("the request body is not JSON: {e}")))
            }
        }
        call
    }

    /// [`Guard::start`] for a request addressed to target `first` (a gateway that was asked for that provider's
    /// URL): it is guarded against `first` and falls back only to the targets after it, in order; the targets
    /// before it are never tried. `first` past the last target is the same as `start`.
    pub fn start_from(&self, body: &str, first: usize, deadline_ms: u64, now_ms: u64) -> Call {
        let mut call = self.start(body, deadline_ms, now_ms);
        let n = call.tried.len();
        if first < n {
            call.tried[..first].iter_mut().for_each(|t| *t = true);
        }
        call
    }

    /// [`Guard::start_from`] for a body as the bytes it came in: one that is not UTF-8 (so not JSON) gives a call
    /// whose first step answers 400.
    pub fn start_bytes(&self, body: &[u8], first: usize, deadline_ms: u64, now_ms: u64) -> Call {
        match std::str::from_utf8(body) {
            Ok(text) => self.start_from(text, first, deadline_ms, now_ms),
            Err(e) => {
                let mut call = self.start("", deadline_ms, now_ms);
                call.phase = Phase::Answer(bad_request(&format!(
                    "the request body is not JSON: it is not UTF-8 ({e})"
                )));
                call
            }
        }
    }

    /// The targets' names, in order.
    pub fn target_names(&self) -> Vec<String> {
        let g = lock(&self.inner);
        g.slots.iter().map(|s| s.target.name.clone()).collect()
    }

    /// Tokens held by reservations in flight, over every target (tokens per minute, or input tokens where a target
    /// meters only those): zero when every call has ended.
    pub fn held_tokens(&self) -> u64 {
        let g = lock(&self.inner);
        g.slots
            .iter()
            .map(|s| {
                let l = s.queue.ledger();
                l.held(Dimension::Tokens)
                    .max(l.held(Dimension::InputTokens))
            })
            .sum()
    }

    /// Reservations in flight, over every target.
    pub fn in_flight(&self) -> u64 {
        let g = lock(&self.inner);
        g.slots.iter().map(|s| s.queue.ledger().in_flight()).sum()
    }

    /// Calls waiting in the targets' admission queues.
    pub fn queued(&self) -> usize {
        let g = lock(&self.inner);
        g.slots.iter().map(|s| s.queue.len()).sum()
    }

    /// What the guard has learned of target `t`'s counting from the usage its answers reported: how many
    /// answers, and the geometric mean ratio of reported to estimated prompt tokens (1.2: it counts 20% above
    /// the profile). `None` past the last target.
    pub fn learned(&self, t: usize) -> Option<(u64, f64)> {
        let g = lock(&self.inner);
        g.learned.get(t).map(|(all, _)| (all.n, all.mean.exp()))
    }

    /// Forgets what was learned of every target's counting (after a model or tokenizer change).
    pub fn reset_learning(&self) {
        let mut g = lock(&self.inner);
        for l in &mut g.learned {
            *l = Default::default();
        }
    }

    /// What was learned of target `t`'s counting as a profile: `base`'s tables with each content kind's median
    /// correction moved by the learned shift, so the page, another replica or `--profile-file` prices as this
    /// guard does (`to_json` writes the file). `None` past the last target.
    pub fn learned_profile(&self, t: usize, base: Profile) -> Option<CustomProfile> {
        let g = lock(&self.inner);
        if t >= g.learned.len() {
            return None;
        }
        let name = format!("{}-learned-{}", base.name(), g.slots[t].target.name);
        let mut p = CustomProfile::derived_from(base, &name);
        for kind in ContentKind::ALL {
            let (shift, _) = g.shift(t, kind);
            let mut band = p.tables().band(kind);
            band[0] += shift;
            // A shift is bounded (|x| ≤ ln 10), so the band stays finite and is accepted.
            let _ = p.set_band(kind, band);
        }
        Some(p)
    }

    /// A copy of one target's state (its buckets as the guard sees them), or `None` past the last target.
    pub fn state(&self, target: usize) -> Option<State> {
        let g = lock(&self.inner);
        g.slots.get(target).map(|s| s.queue.ledger().snapshot())
    }
}

/// What to do next.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Send `body` to target `target` now; feed the answer back with the `on_*` methods.
    Send {
        /// The target's position in the guard's list.
        target: usize,
        /// Its name.
        name: String,
        /// The body to send (the model rewritten where the target says so).
        body: String,
    },
    /// Nothing to do before `until_ms`; poll again then.
    Wait {
        /// When to poll again.
        until_ms: u64,
    },
    /// The response of the last `Send` is still coming: feed it with the `on_*` methods.
    Awaiting,
    /// Answer the client with this response; the call is over once it has been written.
    Answer(Answer),
    /// The call is over.
    Done(Outcome),
}

/// A response the gateway writes to its client itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// Headers to send.
    pub headers: Vec<(String, String)>,
    /// The body (JSON).
    pub body: String,
}

/// How a call ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// `succeeded`, `answered` (the gateway answered: never sendable, shed, a bad request or a provider's
    /// refusal passed on), `failed` (a stream that failed after its head went out, or a transport error with
    /// nowhere left to go) or `abandoned` (the client went away).
    pub end: &'static str,
    /// The status the client got.
    pub status: Option<u16>,
    /// The last target it was sent to.
    pub target: Option<usize>,
    /// Times it was sent.
    pub attempts: u32,
    /// Why it ended so, for a person.
    pub reason: String,
    /// The usage the provider reported (or the estimate it was settled at).
    pub usage: Option<Usage>,
}

impl Outcome {
    /// Whether the provider answered successfully.
    pub fn succeeded(&self) -> bool {
        self.end == "succeeded"
    }
}

/// What happened on a call's path, in order, for logs, metrics and reports ([`Call::take_events`]). Each comes
/// with the `now_ms` it happened at.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CallEvent {
    /// Waiting in target `target`'s admission queue, expected to start at `eta_ms`.
    Queued {
        /// The target.
        target: usize,
        /// The expected start.
        eta_ms: u64,
    },
    /// Target `target`'s queue shed the call.
    Shed {
        /// The target.
        target: usize,
        /// Why, for a person.
        message: String,
    },
    /// Sent to target `target`, the `attempt`th time on it (0 first).
    Sent {
        /// The target.
        target: usize,
        /// Retries on it before this send.
        attempt: u32,
    },
    /// Target `target`'s breaker is open: not sent there.
    BreakerOpen {
        /// The target.
        target: usize,
    },
    /// The response's head arrived.
    Response {
        /// The target.
        target: usize,
        /// Its status.
        status: u16,
    },
    /// The reservation was settled at this usage.
    Settled {
        /// The target.
        target: usize,
        /// Prompt tokens counted.
        input_tokens: u64,
        /// Output tokens counted.
        output_tokens: u64,
        /// The prompt estimate the call was admitted with (after the learned correction).
        estimated_tokens: u64,
        /// The provider's count of the prompt, when its answer reported one (else it was settled at the estimate).
        reported_tokens: Option<u64>,
    },
    /// Target `target`'s reservation was taken: the call may be sent.
    Admitted {
        /// The target.
        target: usize,
    },
    /// No target could ever hold the request: answered 413 without sending it.
    NeverSendable {
        /// The limit it exceeds.
        dimension: Dimension,
        /// That limit.
        limit: u64,
        /// What the request needs.
        needed: u64,
        /// By how much it must shrink.
        excess: u64,
    },
    /// What the guard has learned of target `target`'s counting changed: `answers` reported usages so far, and
    /// the geometric mean of reported over estimated prompt tokens.
    Calibrated {
        /// The target.
        target: usize,
        /// Usages learned from.
        answers: u64,
        /// Reported over estimated (1.2: the provider counts 20% above the estimate).
        ratio: f64,
    },
    /// The reservation was given back whole.
    Released {
        /// The target.
        target: usize,
    },
    /// The answer was a refusal (or an error inside a stream).
    Refused {
        /// The target.
        target: usize,
        /// What kind.
        kind: RefusalKind,
        /// Whether it came inside a stream that had already begun.
        mid_stream: bool,
        /// The wait it stated.
        retry_after_ms: Option<u64>,
    },
    /// Sent to the same target again at `at_ms`.
    Retry {
        /// The target.
        target: usize,
        /// When.
        at_ms: u64,
    },
    /// Moving on from target `from` to whichever target can take the call.
    FellBack {
        /// The target left.
        from: usize,
        /// Why, for a person.
        reason: String,
    },
    /// The body's output cap was cut by `by_tokens` after a too-large refusal.
    Shrunk {
        /// Tokens cut.
        by_tokens: u64,
    },
    /// Target `target`'s shared ledger ([`Guard::with_shared_ledger`]) decided at the send: `admitted`,
    /// `not_yet` (the call waits its wait), `never` or `unavailable`; `mode` says whether it was decided on the
    /// shared ledger or without it (failing open or closed).
    Ledger {
        /// The target.
        target: usize,
        /// Shared, fail-open or fail-closed.
        mode: LedgerMode,
        /// What it decided.
        decision: &'static str,
    },
    /// The shared ledger could not record a settle, release or header observation (its own expiry frees what
    /// it held).
    LedgerError {
        /// The target.
        target: usize,
        /// What failed.
        message: String,
    },
    /// Nothing came back from target `target`.
    TransportError {
        /// The target.
        target: usize,
    },
    /// The gateway answered the client itself with this status.
    Answered {
        /// The status.
        status: u16,
    },
    /// The call ended: `succeeded`, `answered`, `failed` or `abandoned` ([`Outcome::end`]).
    Ended {
        /// How.
        end: &'static str,
    },
}

impl CallEvent {
    /// The event's snake_case name, as its JSON `event` member says it (`queued`, `sent`, `fell_back`, ...): a
    /// label for logs and metrics.
    pub const fn name(&self) -> &'static str {
        match self {
            CallEvent::Queued { .. } => "queued",
            CallEvent::Shed { .. } => "shed",
            CallEvent::Sent { .. } => "sent",
            CallEvent::BreakerOpen { .. } => "breaker_open",
            CallEvent::Response { .. } => "response",
            CallEvent::Settled { .. } => "settled",
            CallEvent::Admitted { .. } => "admitted",
            CallEvent::NeverSendable { .. } => "never_sendable",
            CallEvent::Calibrated { .. } => "calibrated",
            CallEvent::Released { .. } => "released",
            CallEvent::Refused { .. } => "refused",
            CallEvent::Retry { .. } => "retry",
            CallEvent::FellBack { .. } => "fell_back",
            CallEvent::Shrunk { .. } => "shrunk",
            CallEvent::Ledger { .. } => "ledger",
            CallEvent::LedgerError { .. } => "ledger_error",
            CallEvent::TransportError { .. } => "transport_error",
            CallEvent::Answered { .. } => "answered",
            CallEvent::Ended { .. } => "ended",
        }
    }

    /// The target the event is about (for a fallback, the one left), if any.
    pub const fn target(&self) -> Option<usize> {
        match *self {
            CallEvent::Queued { target, .. }
            | CallEvent::Shed { target, .. }
            | CallEvent::Sent { target, .. }
            | CallEvent::BreakerOpen { target }
            | CallEvent::Response { target, .. }
            | CallEvent::Settled { target, .. }
            | CallEvent::Admitted { target }
            | CallEvent::Calibrated { target, .. }
            | CallEvent::Released { target }
            | CallEvent::Refused { target, .. }
            | CallEvent::Retry { target, .. }
            | CallEvent::Ledger { target, .. }
            | CallEvent::LedgerError { target, .. }
            | CallEvent::TransportError { target } => Some(target),
            CallEvent::FellBack { from, .. } => Some(from),
            CallEvent::NeverSendable { .. }
            | CallEvent::Shrunk { .. }
            | CallEvent::Answered { .. }
            | CallEvent::Ended { .. } => None,
        }
    }
}

/// What a response told the call about how to pass its body on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disposition {
    /// A success: write the status, headers and each body chunk to the client as they come (and feed them here).
    PassThrough,
    /// A refusal or an error: keep it from the client and feed it here; the call decides what the client gets.
    Hold,
    /// Not expected now (no send is outstanding): ignore it.
    Ignore,
}

#[derive(Debug)]
enum Phase {
    /// Choose a target and offer the call to its queue.
    Route,
    /// In target `t`'s queue.
    Queued { target: usize, eta_ms: u64 },
    /// Offer again to target `t` at `at_ms` (a retry, or after a shrink).
    Retry { target: usize, at_ms: u64 },
    /// Admitted on `t`: send.
    Admitted { target: usize },
    /// Sent to `t`; the response has not ended.
    Sent { target: usize },
    /// Answer the client.
    Answer(Answer),
    /// Over.
    Done,
}

/// What the client gets when the call runs out of targets after leaving one.
#[derive(Debug)]
struct Left {
    answer: Answer,
    reason: String,
    end: Option<&'static str>,
    /// The never-sendable event, when the answer is a 413.
    never: Option<CallEvent>,
}

#[derive(Debug, Default)]
struct Response {
    status: u16,
    snapshot: RateLimitSnapshot,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    truncated: bool,
    /// A stream: its frames are read as they come.
    line: Vec<u8>,
    data: String,
    event: Option<String>,
    delivered: bool,
    /// Server-sent events (an `event:` or `data:` line was seen), not one JSON document.
    sse: bool,
    stream_error: Option<String>,
    usage: Option<Usage>,
    passed_through: bool,
}

/// One request's path through a [`Guard`].
#[derive(Debug)]
pub struct Call {
    guard: Guard,
    id: u64,
    body: Value,
    /// The body as the client sent it, sent as is while no target rewrites it and nothing was shrunk.
    text: Option<String>,
    api: Option<Api>,
    max_body_bytes: usize,
    /// The cost as each target counts it (after what the guard learned of its counting); `None` where the target
    /// speaks another API.
    costs: Vec<Option<Cost>>,
    /// The estimate before any learned correction, and the content kind: what a reported usage is compared with.
    raw: Option<(u64, ContentKind)>,
    deadline_ms: u64,
    started_ms: u64,
    attempt: u32,
    tried: Vec<bool>,
    phase: Phase,
    /// The answer the last target left the call with, given when no other target can take it.
    left: Option<Left>,
    /// The provider's count of the prompt in the answer being settled.
    reported: Option<u64>,
    /// The latest time an event was emitted at.
    last_ms: u64,
    reservation: Option<Reservation>,
    /// The shared ledger's hold, beside `reservation`.
    ticket: Option<Box<dyn SharedTicket>>,
    response: Option<Response>,
    outcome: Outcome,
    sent_once: bool,
    events: Vec<(u64, CallEvent)>,
}

fn bad_request(msg: &str) -> Answer {
    answer_json(
        400,
        Vec::new(),
        json!({"error": {"type": "invalid_request_error", "message": msg}}),
    )
}

/// The gateway's own 503 (`retry-after: 1`): the target cannot be used now (its breaker is open, its shared ledger
/// is unreachable).
fn unavailable(error_type: &str, message: &str) -> Answer {
    answer_json(
        503,
        vec![("retry-after".into(), "1".into())],
        json!({"error": {"type": error_type, "message": message}}),
    )
}

fn answer_json(status: u16, mut headers: Vec<(String, String)>, body: Value) -> Answer {
    headers.push(("content-type".into(), "application/json".into()));
    Answer {
        status,
        headers,
        body: body.to_string(),
    }
}

/// The gateway's own view of a target's budget as rate-limit headers, for a 429 it answers itself.
fn budget_headers(state: &State, now_ms: u64) -> Vec<(String, String)> {
    let mut h = Vec::new();
    for (d, name) in [
        (Dimension::Tokens, "tokens"),
        (Dimension::Requests, "requests"),
    ] {
        if let Some(b) = state.bucket(d) {
            let left = b.available(now_ms).max(0.0).floor() as u64;
            let full_in = if b.rate_per_ms > 0.0 {
                ((b.limit as f64 - b.available(now_ms)).max(0.0) / b.rate_per_ms).ceil() as u64
            } else {
                0
            };
            h.push((format!("x-ratelimit-limit-{name}"), b.limit.to_string()));
            h.push((format!("x-ratelimit-remaining-{name}"), left.to_string()));
            h.push((format!("x-ratelimit-reset-{name}"), format!("{full_in}ms")));
        }
    }
    h
}

impl Call {
    /// The request's cost as target `t` counts it (after what the guard learned of that target's counting); `None`
    /// for a target of another API shape, past the last target, or for a body that could not be read.
    pub fn cost(&self, t: usize) -> Option<&Cost> {
        self.costs.get(t).and_then(Option::as_ref)
    }

    /// What to do next at `now_ms`.
    pub fn poll(&mut self, now_ms: u64) -> Step {
        // A few internal transitions may follow one another (a shed falls back, a fallback is admitted at once).
        for _ in 0..64 {
            match std::mem::replace(&mut self.phase, Phase::Done) {
                Phase::Done => return Step::Done(self.outcome.clone()),
                Phase::Answer(a) => {
                    self.outcome.status = Some(a.status);
                    self.emit(now_ms, CallEvent::Answered { status: a.status });
                    if self.outcome.end.is_empty() {
                        self.outcome.end = "answered";
                    }
                    self.emit(
                        now_ms,
                        CallEvent::Ended {
                            end: self.outcome.end,
                        },
                    );
                    self.phase = Phase::Done;
                    return Step::Answer(a);
                }
                Phase::Sent { target } => {
                    self.phase = Phase::Sent { target };
                    return Step::Awaiting;
                }
                Phase::Route => self.route(now_ms),
                Phase::Retry { target, at_ms } => {
                    if now_ms < at_ms {
                        self.phase = Phase::Retry { target, at_ms };
                        return Step::Wait { until_ms: at_ms };
                    }
                    self.offer(target, now_ms);
                }
                Phase::Queued { target, eta_ms } => {
                    let mut g = lock(&self.guard.inner);
                    let wake = g.pump(target, now_ms);
                    match g.ready.remove(&self.id) {
                        Some(Ok(r)) => {
                            drop(g);
                            self.reservation = Some(r);
                            self.emit(now_ms, CallEvent::Admitted { target });
                            self.phase = Phase::Admitted { target };
                        }
                        Some(Err(shed)) => {
                            drop(g);
                            self.shed(target, shed, now_ms);
                        }
                        None => {
                            drop(g);
                            self.phase = Phase::Queued { target, eta_ms };
                            // The queue's own next wake when its estimate has passed (calls ahead still hold it).
                            let until = if eta_ms > now_ms {
                                eta_ms
                            } else {
                                wake.unwrap_or(eta_ms)
                            };
                            return Step::Wait {
                                until_ms: until.max(now_ms + 1),
                            };
                        }
                    }
                }
                Phase::Admitted { target } => {
                    if let Some(step) = self.send(target, now_ms) {
                        return step;
                    }
                }
            }
        }
        // Unreachable in practice (each transition either returns or moves on); end safely.
        self.end_with("failed", "the call did not settle on a step", now_ms);
        Step::Done(self.outcome.clone())
    }

    /// The first target, among those not yet tried, that speaks the body's API and could ever hold it: sendable
    /// now, else the shortest wait (the core's `route`).
    fn route(&mut self, now_ms: u64) {
        let g = lock(&self.guard.inner);
        // The core's router over the targets this call may still try, each as its ledger stands (a Retry-After
        // a target stated is in its state).
        let open: Vec<usize> = (0..g.slots.len())
            .filter(|&i| !self.tried[i] && self.costs[i].is_some())
            .collect();
        // The router takes the first target that can send now: when that is the first one open, skip the rest.
        if let Some((&first, Some(cost))) = open.first().map(|f| (f, self.costs[*f].as_ref())) {
            let policy = g.config.policy;
            if g.slots[first]
                .queue
                .ledger()
                .check(cost, policy, now_ms)
                .verdict
                .is_sendable()
            {
                drop(g);
                self.offer(first, now_ms);
                return;
            }
        }
        let states: Vec<State> = open
            .iter()
            .map(|&i| g.slots[i].queue.ledger().snapshot())
            .collect();
        let candidates: Vec<Candidate<'_>> = open
            .iter()
            .zip(&states)
            .filter_map(|(&i, state)| {
                Some(Candidate {
                    name: &g.slots[i].target.name,
                    state,
                    cost: self.costs[i].as_ref()?,
                })
            })
            .collect();
        let r = route(&candidates, g.config.policy, now_ms);
        let never = r.passed_over.iter().find_map(|p| match p.reason {
            PassReason::NeverSendable {
                dimension,
                limit,
                needed,
                excess,
            } => Some(Verdict::NeverSendable {
                dimension,
                limit,
                needed,
                excess,
            }),
            _ => None,
        });
        let chosen = r.chosen.map(|c| open[c]);
        drop(g);
        match chosen {
            Some(t) => self.offer(t, now_ms),
            // What the last target said, when the call was turned away there: the targets left could never hold it
            // (their 413 would tell the client to shrink a request another target takes).
            None if self.left.is_some() => {
                if let Some(left) = self.left.take() {
                    self.answer_left(left);
                }
            }
            None => match never {
                Some(Verdict::NeverSendable {
                    dimension,
                    limit,
                    needed,
                    excess,
                }) => {
                    self.outcome.reason = format!(
                        "never sendable: needs {needed} against a {dimension} limit of {limit}"
                    );
                    self.emit(
                        now_ms,
                        CallEvent::NeverSendable {
                            dimension,
                            limit,
                            needed,
                            excess,
                        },
                    );
                    self.phase = Phase::Answer(never_sendable(dimension, limit, needed, excess));
                }
                _ => {
                    let msg = if self.costs.iter().all(Option::is_none) {
                        "no target speaks this request's API"
                    } else {
                        "every target that could take this request has been tried"
                    };
                    self.outcome.reason = msg.into();
                    self.phase = Phase::Answer(answer_json(
                        503,
                        Vec::new(),
                        json!({"error": {"type": "no_target", "message": msg}}),
                    ));
                }
            },
        }
    }

    /// Offers the call to target `t`'s queue.
    fn offer(&mut self, t: usize, now_ms: u64) {
        self.tried[t] = true;
        let Some(cost) = self.costs[t].clone() else {
            self.phase = Phase::Route;
            return;
        };
        let mut g = lock(&self.guard.inner);
        let offered = g.slots[t]
            .queue
            .offer(self.id, cost, self.deadline_ms, now_ms);
        drop(g);
        match offered {
            Offer::Admitted { reservation, .. } => {
                self.reservation = Some(reservation);
                self.emit(now_ms, CallEvent::Admitted { target: t });
                self.phase = Phase::Admitted { target: t };
            }
            Offer::Queued { eta_ms, .. } => {
                self.emit(now_ms, CallEvent::Queued { target: t, eta_ms });
                self.phase = Phase::Queued { target: t, eta_ms };
            }
            Offer::Shed { shed, .. } => self.shed(t, shed, now_ms),
        }
    }

    /// Target `t` shed the call: the next target that could take it, else the shed answer.
    fn shed(&mut self, t: usize, shed: Shed, now_ms: u64) {
        self.emit(
            now_ms,
            CallEvent::Shed {
                target: t,
                message: shed.message.clone(),
            },
        );
        let state = self.guard.state(t);
        let mut never = None;
        let answer = match shed.reason {
            ShedReason::NeverSendable {
                dimension,
                limit,
                needed,
                excess,
            } => {
                never = Some(CallEvent::NeverSendable {
                    dimension,
                    limit,
                    needed,
                    excess,
                });
                never_sendable(dimension, limit, needed, excess)
            }
            _ => {
                let mut headers = state.map_or_else(Vec::new, |s| budget_headers(&s, now_ms));
                if let Some(w) = shed.retry_after_ms {
                    headers.push(("retry-after".into(), w.div_ceil(1000).max(1).to_string()));
                }
                let reason = serde_json::to_value(shed.reason)
                    .ok()
                    .and_then(|v| v.get("reason").cloned())
                    .unwrap_or(Value::Null);
                answer_json(
                    429,
                    headers,
                    json!({"error": {"type": "shed", "reason": reason, "message": shed.message,
                        "retry_after_ms": shed.retry_after_ms, "detail": shed.reason}}),
                )
            }
        };
        self.move_on(answer, shed.message, None);
        if let Some(e) = never {
            match self.left.as_mut() {
                Some(left) => left.never = Some(e),
                // Answered at once (no target left to try).
                None => self.emit(now_ms, e),
            }
        }
    }

    fn has_untried(&self) -> bool {
        (0..self.tried.len()).any(|i| !self.tried[i] && self.costs[i].is_some())
    }

    /// Leaving a target: route to the next one that could take the call; when none can (none left, or only
    /// targets that could never hold it), the client gets `answer`, the reason the last target gave.
    fn move_on(&mut self, answer: Answer, reason: String, end: Option<&'static str>) {
        let left = Left {
            answer,
            reason,
            end,
            never: None,
        };
        if self.has_untried() {
            self.left = Some(left);
            self.phase = Phase::Route;
        } else {
            self.answer_left(left);
        }
    }

    fn answer_left(&mut self, left: Left) {
        if let Some(e) = left.never {
            self.emit(self.last_ms, e);
        }
        self.outcome.reason = left.reason;
        if let Some(end) = left.end {
            self.outcome.end = end;
        }
        self.phase = Phase::Answer(left.answer);
    }

    /// Sends on target `t` if its breaker allows; else gives the reservation back and moves on.
    fn send(&mut self, t: usize, now_ms: u64) -> Option<Step> {
        let mut g = lock(&self.guard.inner);
        let name = g.slots[t].target.name.clone();
        if !g.breakers[t].allow(now_ms) {
            drop(g);
            self.finish_hold(t, None, now_ms);
            self.emit(now_ms, CallEvent::BreakerOpen { target: t });
            let reason = format!("circuit open on {name}");
            self.move_on(unavailable("overloaded_error", &reason), reason, None);
            return None;
        }
        let (shared, policy, on_fail) = (
            g.slots[t].shared.clone(),
            g.config.policy,
            g.config.on_ledger_unavailable,
        );
        drop(g);
        if let Some(ledger) = shared {
            if !self.reserve_shared(t, &*ledger, policy, on_fail, now_ms) {
                return None;
            }
        }
        let mut g = lock(&self.guard.inner);
        if !self.sent_once {
            self.sent_once = true;
            g.retry_budget.on_request(now_ms);
        }
        let model = g.slots[t].target.model.clone();
        drop(g);
        let body = match (&model, &self.text) {
            (None, Some(text)) => text.clone(),
            _ => {
                let mut body = self.body.clone();
                if let (Some(m), Some(o)) = (model, body.as_object_mut()) {
                    if o.contains_key("model") {
                        o.insert("model".into(), Value::String(m));
                    }
                }
                body.to_string()
            }
        };
        self.attempt_sent(t);
        self.emit(
            now_ms,
            CallEvent::Sent {
                target: t,
                attempt: self.attempt,
            },
        );
        self.phase = Phase::Sent { target: t };
        self.response = None;
        Some(Step::Send {
            target: t,
            name,
            body,
        })
    }

    /// The second gate of a target whose budget is shared: `true` to send (admitted there, or failing open),
    /// `false` when the call was given a next phase instead (wait the shared ledger's wait, fall back, answer).
    fn reserve_shared(
        &mut self,
        t: usize,
        ledger: &dyn SharedLedger,
        policy: crate::preflight::policy::Policy,
        on_fail: LedgerFailure,
        now_ms: u64,
    ) -> bool {
        let Some(cost) = self.costs[t].clone() else {
            return true;
        };
        let event = |mode, decision| CallEvent::Ledger {
            target: t,
            mode,
            decision,
        };
        match ledger.reserve(&cost, policy, now_ms) {
            SharedAdmission::Admitted { ticket, mode } => {
                self.ticket = Some(ticket);
                self.emit(now_ms, event(mode, "admitted"));
                true
            }
            SharedAdmission::Refused { refused, mode } => {
                self.finish_hold(t, None, now_ms);
                let shed = match refused {
                    Refused::NotYet { wait_ms, .. } => {
                        self.emit(now_ms, event(mode, "not_yet"));
                        let at_ms = now_ms.saturating_add(wait_ms.max(1));
                        if at_ms <= self.deadline_ms {
                            self.phase = Phase::Retry { target: t, at_ms };
                            return false;
                        }
                        ShedReason::DeadlineUnreachable {
                            earliest_start_ms: at_ms,
                            deadline_ms: self.deadline_ms,
                        }
                    }
                    Refused::Never {
                        dimension,
                        limit,
                        needed,
                        excess,
                    } => {
                        self.emit(now_ms, event(mode, "never"));
                        ShedReason::NeverSendable {
                            dimension,
                            limit,
                            needed,
                            excess,
                        }
                    }
                };
                self.shed(t, Shed::new(shed, now_ms), now_ms);
                false
            }
            SharedAdmission::Unavailable { error } => match on_fail {
                LedgerFailure::FailOpen => {
                    self.emit(now_ms, event(LedgerMode::FailOpen, "unavailable"));
                    true
                }
                LedgerFailure::FailClosed => {
                    self.finish_hold(t, None, now_ms);
                    self.emit(now_ms, event(LedgerMode::FailClosed, "unavailable"));
                    let reason = format!("the shared ledger is unreachable: {error}");
                    self.move_on(unavailable("ledger_unavailable", &reason), reason, None);
                    false
                }
            },
        }
    }

    /// Ends what the call holds on target `t`, locally and in a shared ledger: settled at `usage`, or given back
    /// whole (`None`).
    fn finish_hold(&mut self, t: usize, usage: Option<Usage>, now_ms: u64) {
        let (local, ticket) = (self.reservation.take(), self.ticket.take());
        if local.is_none() && ticket.is_none() {
            return;
        }
        let shared = match usage {
            Some(u) => {
                if let Some(r) = local {
                    let _ = r.settle(u, now_ms);
                }
                ticket.map(|k| k.settle(u, now_ms))
            }
            None => {
                if let Some(r) = local {
                    r.release();
                }
                ticket.map(|k| k.release(now_ms))
            }
        };
        let reported = self.reported.take();
        let event = match usage {
            Some(u) => settled(
                t,
                u,
                self.costs[t].as_ref().map_or(0, |c| c.input.tokens),
                reported,
            ),
            None => CallEvent::Released { target: t },
        };
        self.emit(now_ms, event);
        if let Some(Err(message)) = shared {
            self.emit(now_ms, CallEvent::LedgerError { target: t, message });
        }
    }

    fn attempt_sent(&mut self, t: usize) {
        self.outcome.attempts += 1;
        self.outcome.target = Some(t);
    }

    /// The response's status and headers arrived (`now_ms`, the caller's clock).
    pub fn on_response<I, N, V>(&mut self, status: u16, headers: I, now_ms: u64) -> Disposition
    where
        I: IntoIterator<Item = (N, V)>,
        N: AsRef<str>,
        V: AsRef<str>,
    {
        let Phase::Sent { target } = self.phase else {
            return Disposition::Ignore;
        };
        let pairs: Vec<(N, V)> = headers.into_iter().collect();
        let snapshot = RateLimitSnapshot::from_headers(
            pairs.iter().map(|(n, v)| (n.as_ref(), v.as_ref())),
            now_ms,
        )
        .snapshot;
        self.emit(now_ms, CallEvent::Response { target, status });
        // The provider's headers go to its ledger at once, while the reservation is still held.
        let g = lock(&self.guard.inner);
        g.slots[target].queue.ledger().observe(&snapshot, now_ms);
        drop(g);
        if let Some(Err(message)) = self.ticket.as_ref().map(|k| k.observe(&snapshot, now_ms)) {
            self.emit(now_ms, CallEvent::LedgerError { target, message });
        }
        let pass = (200..300).contains(&status);
        // A refusal may be passed on to the client as it came: keep its headers.
        let headers = if pass {
            Vec::new()
        } else {
            pairs
                .iter()
                .map(|(n, v)| (n.as_ref().to_string(), v.as_ref().to_string()))
                .collect()
        };
        self.response = Some(Response {
            status,
            snapshot,
            headers,
            passed_through: pass,
            ..Response::default()
        });
        if pass {
            Disposition::PassThrough
        } else {
            Disposition::Hold
        }
    }

    /// A piece of the response body (any split; a stream's frames are read as they complete).
    pub fn on_body(&mut self, chunk: &[u8], _now_ms: u64) {
        let cap = self.max_body_bytes;
        let Some(r) = self.response.as_mut() else {
            return;
        };
        if r.body.len() < cap {
            let take = chunk.len().min(cap - r.body.len());
            r.body.extend_from_slice(&chunk[..take]);
        } else {
            r.truncated = true;
        }
        // Only a success that passed through is read frame by frame (a stream, or an error inside a 200); a
        // refusal's body is classified whole at its end.
        if !r.passed_through {
            return;
        }
        for &b in chunk {
            if b == b'\n' {
                let line = std::mem::take(&mut r.line);
                frame_line(r, &String::from_utf8_lossy(&line));
            } else if r.line.len() < 1 << 20 {
                r.line.push(b);
            }
        }
    }

    /// The response body ended: the call settles its reservation (at the reported usage) or gives it back, and
    /// decides what comes next. `random` is a uniform draw in `[0, 1)` for a retry's jitter.
    pub fn on_end(&mut self, now_ms: u64, random: f64) {
        let Phase::Sent { target } = self.phase else {
            return;
        };
        let Some(mut r) = self.response.take() else {
            // An end with no response head: nothing came back.
            self.on_transport_error(now_ms);
            return;
        };
        if r.passed_through {
            if !r.line.is_empty() {
                let line = std::mem::take(&mut r.line);
                frame_line(&mut r, &String::from_utf8_lossy(&line));
            }
            frame_line(&mut r, "");
        }
        let ok = (200..300).contains(&r.status) && r.stream_error.is_none();
        if ok {
            let usage = r.usage.or_else(|| {
                serde_json::from_slice::<Value>(&r.body)
                    .ok()
                    .and_then(|v| Usage::from_response(&v).ok().flatten())
            });
            let settled_at = usage.unwrap_or_else(|| self.prompt_usage(target));
            self.reported = usage.map(|u| u.input_tokens);
            self.finish_hold(target, Some(settled_at), now_ms);
            let mut g = lock(&self.guard.inner);
            g.breakers[target].on_success(now_ms);
            let learned = match (usage, self.raw) {
                (Some(u), Some((raw, kind))) => g.learn(target, kind, raw, u.input_tokens),
                _ => None,
            };
            drop(g);
            if let Some((answers, ratio)) = learned {
                self.emit(
                    now_ms,
                    CallEvent::Calibrated {
                        target,
                        answers,
                        ratio,
                    },
                );
            }
            self.outcome.usage = Some(settled_at);
            self.outcome.status = Some(r.status);
            self.outcome.reason = String::new();
            self.end_with("succeeded", "", now_ms);
            return;
        }
        // A refusal, or an error inside a stream that passed through.
        let text = String::from_utf8_lossy(&r.body).into_owned();
        let name = self.target_name(target);
        let payload = r.stream_error.clone().unwrap_or_else(|| text.clone());
        let status = if r.stream_error.is_some() {
            None
        } else {
            Some(r.status)
        };
        let mut refusal = classify_with_snapshot(status, &r.snapshot, &payload);
        refusal.output_delivered |= r.delivered;
        // An error inside a stream was admitted and counted: settle at what the prompt cost.
        let prompt = r.stream_error.is_some().then(|| self.prompt_usage(target));
        self.finish_hold(target, prompt, now_ms);
        self.emit(
            now_ms,
            CallEvent::Refused {
                target,
                kind: refusal.kind,
                mid_stream: r.stream_error.is_some(),
                retry_after_ms: refusal.retry_after_ms,
            },
        );
        let mut g = lock(&self.guard.inner);
        g.breakers[target].on_refusal(&refusal, now_ms);
        let policy = RetryPolicy {
            deadline_ms: Some(self.deadline_ms),
            ..g.config.retry
        };
        let action = next_action(&refusal, self.attempt, &policy, now_ms, random);
        let action = g.retry_budget.gate(action, now_ms);
        drop(g);
        self.outcome.reason = format!("{} from {name}", refusal.kind.name());
        if r.passed_through {
            // The head went out: nothing can be sent again on this response.
            self.end_with(
                "failed",
                &format!("{} inside the stream", refusal.kind.name()),
                now_ms,
            );
            return;
        }
        let passed_on = || Answer {
            status: r.status,
            headers: r.headers.clone(),
            body: text.clone(),
        };
        match action {
            Action::Retry { after_ms } => {
                self.attempt += 1;
                let at_ms = now_ms.saturating_add(after_ms);
                self.emit(now_ms, CallEvent::Retry { target, at_ms });
                self.phase = Phase::Retry { target, at_ms };
            }
            Action::Fallback { reason } => {
                self.attempt = 0;
                self.emit(
                    now_ms,
                    CallEvent::FellBack {
                        from: target,
                        reason: fallback_name(reason),
                    },
                );
                let why = format!(
                    "{} from {name}; no target left ({})",
                    refusal.kind.name(),
                    fallback_name(reason)
                );
                self.move_on(passed_on(), why, None);
            }
            Action::Shrink { by_tokens } => match self.shrink(by_tokens) {
                Some(cut) => {
                    self.emit(now_ms, CallEvent::Shrunk { by_tokens: cut });
                    self.attempt += 1;
                    self.tried[target] = false;
                    self.phase = Phase::Retry {
                        target,
                        at_ms: now_ms,
                    };
                }
                None => self.phase = Phase::Answer(passed_on()),
            },
            Action::GiveUp { .. } => self.phase = Phase::Answer(passed_on()),
        }
    }

    /// Cuts the body's output cap by the excess and a margin, when it has one large enough, and re-prices the
    /// call: the tokens cut, or `None` when it could not.
    fn shrink(&mut self, by_tokens: Option<u64>) -> Option<u64> {
        let by = by_tokens?;
        let cut = by + by / 10 + 16;
        let fields: &[&str] = &["max_tokens", "max_completion_tokens", "max_output_tokens"];
        let o = self.body.as_object_mut()?;
        let mut done = false;
        for f in fields {
            if let Some(cap) = o.get(*f).and_then(Value::as_u64) {
                if cap > cut {
                    o.insert((*f).into(), Value::from(cap - cut));
                    done = true;
                }
            }
        }
        if let Some(cap) = o
            .get("generationConfig")
            .and_then(|g| g.get("maxOutputTokens"))
            .and_then(Value::as_u64)
        {
            if cap > cut {
                o["generationConfig"]["maxOutputTokens"] = Value::from(cap - cut);
                done = true;
            }
        }
        if done {
            self.text = None;
            if let Ok(est) = estimate_request_value(&self.body, self.api, None) {
                let (cost, kind) = (est.cost(), est.estimate.content.kind);
                let g = lock(&self.guard.inner);
                for (i, c) in self.costs.iter_mut().enumerate() {
                    if c.is_some() {
                        *c = Some(g.corrected(i, kind, &cost));
                    }
                }
                drop(g);
                self.raw = Some((cost.input.tokens, kind));
            }
        }
        done.then_some(cut)
    }

    /// Nothing came back (connection refused or reset, a timeout): the reservation is released, the target's
    /// breaker counts a failure, and the call moves to another target or answers 502.
    pub fn on_transport_error(&mut self, now_ms: u64) {
        let Phase::Sent { target } = self.phase else {
            return;
        };
        self.finish_hold(target, None, now_ms);
        self.emit(now_ms, CallEvent::TransportError { target });
        let mut g = lock(&self.guard.inner);
        g.breakers[target].on_failure(now_ms);
        let name = g.slots[target].target.name.clone();
        drop(g);
        self.response = None;
        if self.has_untried() {
            self.emit(
                now_ms,
                CallEvent::FellBack {
                    from: target,
                    reason: "NoAnswer".into(),
                },
            );
        }
        let reason = format!("no answer from {name}");
        let answer = answer_json(
            502,
            Vec::new(),
            json!({"error": {"type": "bad_gateway", "message": reason}}),
        );
        self.move_on(answer, reason, Some("failed"));
    }

    /// The client went away: whatever the call holds is given back (settled at the prompt when the provider had
    /// already answered), and the call is over.
    pub fn on_client_gone(&mut self, now_ms: u64) {
        if matches!(self.phase, Phase::Done) {
            return;
        }
        if let Phase::Queued { target, .. } = self.phase {
            // The queue may have admitted it meanwhile: take that back too; if it is still queued, whatever the
            // queue decides for it later is given back then.
            let mut g = lock(&self.guard.inner);
            g.pump(target, now_ms);
            match g.ready.remove(&self.id) {
                Some(Ok(r)) => {
                    drop(g);
                    r.release();
                }
                Some(Err(_)) => {}
                None => {
                    g.gone.insert(self.id);
                }
            }
        }
        match (&self.phase, &self.response) {
            // The provider answered already: it counted the prompt.
            (Phase::Sent { target }, Some(_)) => {
                let t = *target;
                let u = self.prompt_usage(t);
                self.finish_hold(t, Some(u), now_ms);
            }
            (Phase::Sent { target } | Phase::Admitted { target }, _) => {
                self.finish_hold(*target, None, now_ms)
            }
            _ => self.finish_hold(self.outcome.target.unwrap_or(0), None, now_ms),
        }
        self.response = None;
        self.end_with("abandoned", "the client went away", now_ms);
    }

    /// What a request sent to `t` counted if only its prompt was: the estimate.
    fn prompt_usage(&self, t: usize) -> Usage {
        Usage {
            input_tokens: self.costs[t].as_ref().map_or(0, |c| c.input.tokens),
            output_tokens: 0,
        }
    }

    fn end_with(&mut self, end: &'static str, reason: &str, now_ms: u64) {
        self.emit(now_ms, CallEvent::Ended { end });
        self.outcome.end = end;
        if !reason.is_empty() {
            self.outcome.reason = reason.to_string();
        }
        self.phase = Phase::Done;
    }

    fn emit(&mut self, now_ms: u64, event: CallEvent) {
        self.last_ms = self.last_ms.max(now_ms);
        // Bounded: a call's path is bounded by its attempts and targets; past this, a runaway caller's log stops.
        if self.events.len() < 1024 {
            self.events.push((now_ms, event));
        }
    }

    /// What happened since the last call of this (each with the `now_ms` it happened at), oldest first.
    pub fn take_events(&mut self) -> Vec<(u64, CallEvent)> {
        std::mem::take(&mut self.events)
    }

    fn target_name(&self, t: usize) -> String {
        lock(&self.guard.inner).slots[t].target.name.clone()
    }
}

impl Drop for Call {
    /// A call dropped mid-way gives back what it holds, as if its client had gone.
    fn drop(&mut self) {
        if !matches!(self.phase, Phase::Done) || self.reservation.is_some() || self.ticket.is_some()
        {
            self.on_client_gone(self.started_ms);
        }
    }
}

fn settled(
    target: usize,
    u: Usage,
    estimated_tokens: u64,
    reported_tokens: Option<u64>,
) -> CallEvent {
    CallEvent::Settled {
        target,
        input_tokens: u.input_tokens,
        output_tokens: u.output_tokens,
        estimated_tokens,
        reported_tokens,
    }
}

fn fallback_name(r: FallbackReason) -> String {
    format!("{r:?}")
}

fn never_sendable(dimension: Dimension, limit: u64, needed: u64, excess: u64) -> Answer {
    answer_json(
        413,
        Vec::new(),
        json!({"error": {
            "type": "never_sendable",
            "message": format!("never sendable: needs {needed} against a {dimension} limit of {limit}; shrink it by {excess} or send it to a larger budget"),
            "dimension": dimension,
            "limit": limit,
            "needed": needed,
            "excess": excess,
        }}),
    )
}

/// One line of a streamed body: SSE `event:`/`data:` lines build a frame that a blank line ends; a line of
/// newline-delimited JSON is a frame by itself. Each frame is inspected for an error, delivered output and usage.
fn frame_line(r: &mut Response, line: &str) {
    if r.stream_error.is_some() {
        return;
    }
    let line = line.strip_suffix('\r').unwrap_or(line);
    if let Some(v) = line.strip_prefix("event:") {
        r.sse = true;
        r.event = Some(v.trim().to_string());
        return;
    }
    if let Some(v) = line.strip_prefix("data:") {
        r.sse = true;
        if !r.data.is_empty() {
            r.data.push('\n');
        }
        if r.data.len() < 1 << 20 {
            r.data.push_str(v.strip_prefix(' ').unwrap_or(v));
        }
        return;
    }
    let frame = if line.trim().is_empty() {
        if r.data.is_empty() && r.event.is_none() {
            return;
        }
        std::mem::take(&mut r.data)
    } else if line.trim_start().starts_with('{') && r.data.is_empty() && r.event.is_none() {
        line.trim().to_string()
    } else {
        return;
    };
    let event = r.event.take();
    // A frame that cannot be an error (no event named so, no "error" anywhere in it) and whose output no longer
    // matters (a plain JSON body, which nothing follows, or a stream that already delivered) only has its usage
    // read, without building it whole.
    if event.is_none() && (!r.sse || r.delivered) && !frame.contains("error") {
        if let Ok(Some(u)) = Usage::from_frame(&frame) {
            r.usage = Some(u);
        }
        return;
    }
    let (error, v) = inspect_frame_value(&frame, event.as_deref(), &mut r.delivered);
    if let Some(e) = error {
        r.stream_error = Some(e.payload);
        return;
    }
    if let Some(Ok(Some(u))) = v.as_ref().map(Usage::from_response) {
        r.usage = Some(u);
    }
}
