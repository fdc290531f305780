//! The driver: an event queue in milliseconds that offers requests to a [`Guard`], does what each [`Call`] asks
//! (send to a provider through the [`Upstream`](crate::Upstream), wait, answer), feeds the answers back, and
//! records the path from the calls' events, response by response. Every decision is the guard's; the driver
//! checks them independently (never-sendable sends, sends before a stated wait, resends after a refusal no wait
//! clears or after output was delivered, reservations left held).

use crate::config::{nonzero, DrillConfig, DrillError, SimSettings, Sizes, MAX_PROMPT_TOKENS};
use crate::report::{histogram, Assertion, Crossover, MidStream, Record, Report, Series, Spread};
use crate::sim;
use crate::upstream::{Clock, Reply, SimClock, Simulated, Upstream};
use llm_preflight::internals::SplitMix64;
use llm_preflight::{
    classify_with_snapshot, find_stream_error, Budget, Call, CallEvent, Guard, GuardConfig,
    Outcome, Provider, RateLimitSnapshot, RefusalKind, RetryBudget, State, Step, Target, Usage,
    Verdict,
};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

const WORDS: [&str; 64] = [
    "the",
    "report",
    "shows",
    "that",
    "our",
    "team",
    "will",
    "review",
    "each",
    "change",
    "before",
    "it",
    "ships",
    "to",
    "users",
    "and",
    "we",
    "need",
    "a",
    "short",
    "summary",
    "of",
    "what",
    "was",
    "done",
    "this",
    "week",
    "please",
    "list",
    "open",
    "questions",
    "about",
    "budget",
    "time",
    "and",
    "risk",
    "in",
    "plain",
    "words",
    "then",
    "suggest",
    "next",
    "steps",
    "for",
    "people",
    "who",
    "read",
    "notes",
    "later",
    "with",
    "clear",
    "owners",
    "dates",
    "goals",
    "keep",
    "answer",
    "brief",
    "because",
    "meeting",
    "runs",
    "long",
    "every",
    "friday",
    "morning",
];

#[derive(Debug, Clone, PartialEq, Eq)]
enum Final {
    Succeeded,
    Shed(String),
    Failed(String),
    Abandoned,
}

#[derive(Debug)]
struct Req {
    arrival_ms: u64,
    deadline_ms: u64,
    /// The guard's call, until it ends.
    call: Option<Call>,
    /// The time of the one poll scheduled for the call (a wait it asked for).
    next_poll: Option<u64>,
    /// The target the call was last offered or sent to, and why it left it.
    last_target: Option<usize>,
    left_because: Option<String>,
    /// The target whose queue holds the call.
    queued_on: Option<usize>,
    attempt: u32,
    sent: bool,
    queued: bool,
    retried: bool,
    shrunk: bool,
    first_fallback_ms: Option<u64>,
    /// The independent checks, per target: no send before this time (the last refusal's stated wait); a refusal
    /// that no retry clears (quota, context length, too large) not followed by a shrink.
    not_before: Vec<u64>,
    hard_refusal: Vec<bool>,
    /// A response of this request delivered output before failing: it must never be sent again.
    output_delivered: bool,
    /// The last refusal's kind, and its index in the report's mid-stream list when it came inside a stream.
    last_kind: Option<RefusalKind>,
    last_mid_stream: Option<usize>,
    answer_status: Option<u16>,
    answer_shed: Option<String>,
    done: Option<Final>,
}

enum Ev {
    Arrival,
    Poll(u64),
    Complete {
        id: u64,
        provider: usize,
        reply: Result<Reply, String>,
    },
}

struct Driver<'a, U: Upstream> {
    cfg: &'a DrillConfig,
    upstream: &'a mut U,
    rng: SplitMix64,
    arrivals: SplitMix64,
    heap: BinaryHeap<Reverse<(u64, u64)>>,
    events: BTreeMap<u64, Ev>,
    seq: u64,
    next_arrival: f64,
    guard: Guard,
    budgets: Vec<Budget>,
    /// Per target, the calls its admission queue holds (polled again when an answer frees capacity there).
    queued: Vec<BTreeSet<u64>>,
    reqs: Vec<Req>,
    replay_at: usize,
    end_ms: u64,
    report: Report,
    fallback_delays: Vec<u64>,
    start_delays: Vec<u64>,
    ttfts: Vec<u64>,
    latencies: Vec<u64>,
    rem_req_at_tokens: Vec<Vec<u64>>,
    rem_tok_at_requests: Vec<Vec<u64>>,
}

/// Runs a drill against the built-in simulated providers on a simulated clock: repeatable from the seed.
pub fn simulate(cfg: &DrillConfig, settings: &SimSettings) -> Result<Report, DrillError> {
    cfg.validate()?;
    let mut seeds = SplitMix64::new(cfg.seed ^ 0x005E_ED0F_5100_u64);
    let providers = cfg
        .providers
        .iter()
        .map(|p| {
            sim::SimProvider::new(
                sim::SimProviderConfig {
                    name: p.name.clone(),
                    model: cfg.model.clone(),
                    tpm: p.tpm,
                    rpm: p.rpm,
                    skew: settings.skew,
                    mid_stream_error_rate: settings.mid_stream_error_rate,
                    overload_rate: settings.overload_rate,
                    shared_fraction: settings.shared_fraction,
                },
                seeds.next_u64(),
                cfg.start_ms,
            )
        })
        .collect();
    let mut upstream = Simulated { providers };
    run_with(cfg, "simulate", &mut upstream, &mut SimClock)
}

/// Runs a drill against any [`Upstream`] on any [`Clock`] (the CLI's `--target` passes an HTTP client and the wall
/// clock, with `start_ms` in Unix milliseconds).
pub fn run<U: Upstream, C: Clock>(
    cfg: &DrillConfig,
    upstream: &mut U,
    clock: &mut C,
) -> Result<Report, DrillError> {
    cfg.validate()?;
    run_with(cfg, "target", upstream, clock)
}

fn run_with<U: Upstream, C: Clock>(
    cfg: &DrillConfig,
    mode: &'static str,
    upstream: &mut U,
    clock: &mut C,
) -> Result<Report, DrillError> {
    let mut root = SplitMix64::new(cfg.seed);
    let rng = root.split();
    let arrivals = root.split();
    let budgets: Vec<Budget> = cfg
        .providers
        .iter()
        .map(|p| {
            let b = Budget::new(Provider::OpenAiCompatible).tokens_per_minute(nonzero(p.tpm));
            match p.rpm {
                Some(r) => b.requests_per_minute(nonzero(r)),
                None => b,
            }
        })
        .collect();
    let targets = cfg
        .providers
        .iter()
        .zip(&budgets)
        .map(|(p, b)| Target::new(&p.name, b.clone()))
        .collect();
    let config = GuardConfig {
        policy: cfg.policy,
        max_queue_work_ms: cfg.queue_max_work_ms,
        retry_budget: RetryBudget::new(0.2, 1.0, 20.0),
        ..GuardConfig::default()
    };
    let guard = Guard::new(targets, config).map_err(|_| DrillError::NoProvider)?;
    // About forty bins: enough to see the ramp and the plateau, few enough that Poisson noise does not hide them.
    let bin_ms = (cfg.duration_ms / 40).max(1_000);
    let end_ms = cfg.start_ms + cfg.duration_ms;
    let mut d = Driver {
        cfg,
        upstream,
        rng,
        arrivals,
        heap: BinaryHeap::new(),
        events: BTreeMap::new(),
        seq: 0,
        next_arrival: cfg.start_ms as f64,
        guard,
        queued: vec![BTreeSet::new(); budgets.len()],
        budgets,
        reqs: Vec::new(),
        replay_at: 0,
        end_ms,
        report: empty_report(cfg, mode, bin_ms),
        fallback_delays: Vec::new(),
        start_delays: Vec::new(),
        ttfts: Vec::new(),
        latencies: Vec::new(),
        rem_req_at_tokens: vec![Vec::new(); cfg.providers.len()],
        rem_tok_at_requests: vec![Vec::new(); cfg.providers.len()],
    };
    d.schedule_next_arrival();
    // Past the last arrival, requests still in flight get their deadline, the longest retry wait and a latency.
    let hard_stop = end_ms + cfg.deadline_ms + 120_000;
    while let Some(Reverse((t, seq))) = d.heap.pop() {
        if t > hard_stop {
            break;
        }
        let now = clock.wait_until(t).max(t);
        // A real clock can run past the bound while sends block (slow answers, timeouts): stop there too; whatever
        // is unfinished is reported abandoned.
        if now > hard_stop {
            break;
        }
        let Some(ev) = d.events.remove(&seq) else {
            continue;
        };
        match ev {
            Ev::Arrival => d.arrive(now),
            Ev::Poll(id) => {
                if d.reqs[id as usize].next_poll == Some(t) {
                    d.reqs[id as usize].next_poll = None;
                    d.drive(id, now);
                }
            }
            Ev::Complete {
                id,
                provider,
                reply,
            } => d.complete(id, provider, reply, now),
        }
    }
    Ok(d.finish())
}

fn empty_report(cfg: &DrillConfig, mode: &'static str, bin_ms: u64) -> Report {
    Report {
        mode,
        seed: cfg.seed,
        load: cfg.load,
        minutes: cfg.duration_ms as f64 / 60_000.0,
        providers: cfg
            .providers
            .iter()
            .map(|p| serde_json::json!({"name": p.name, "tpm": p.tpm, "rpm": p.rpm}))
            .collect(),
        arrivals_per_minute: (cfg.arrivals_per_minute() * 1000.0).round() / 1000.0,
        offered: 0,
        sent: 0,
        attempts: 0,
        succeeded: 0,
        queued: 0,
        shed: 0,
        fell_back: 0,
        retried: 0,
        retries: 0,
        shrunk: 0,
        failed: 0,
        abandoned: 0,
        refused: BTreeMap::new(),
        refused_mid_stream: 0,
        shed_by_reason: BTreeMap::new(),
        failed_by_reason: BTreeMap::new(),
        retries_before_retry_after: 0,
        never_sendable_sent: 0,
        queue_timeouts: 0,
        fallback_after_deadline: 0,
        hard_refusals_resent: 0,
        resent_after_output: 0,
        held_at_end: 0,
        learned: BTreeMap::new(),
        assertions: Vec::new(),
        fallback_delay_ms: Spread::default(),
        fallback_delay_histogram: Vec::new(),
        start_delay_ms: Spread::default(),
        ttft_ms: Spread::default(),
        latency_ms: Spread::default(),
        crossover: cfg
            .providers
            .iter()
            .map(|p| (p.name.clone(), Crossover::default()))
            .collect(),
        mid_stream: Vec::new(),
        series: Series {
            bin_ms,
            ..Series::default()
        },
        records: Vec::new(),
    }
}

fn bump(v: &mut Vec<u64>, i: usize) {
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] += 1;
}

impl<U: Upstream> Driver<'_, U> {
    fn at(&mut self, t: u64, ev: Ev) {
        self.seq += 1;
        self.events.insert(self.seq, ev);
        self.heap.push(Reverse((t, self.seq)));
    }

    fn rel(&self, now: u64) -> u64 {
        now.saturating_sub(self.cfg.start_ms)
    }

    fn bin(&self, now: u64) -> usize {
        (self.rel(now) / self.report.series.bin_ms) as usize
    }

    fn record(
        &mut self,
        now: u64,
        id: u64,
        event: &'static str,
        provider: Option<usize>,
    ) -> &mut Record {
        let r = Record {
            t_ms: self.rel(now),
            id,
            event,
            provider: provider.map(|p| self.cfg.providers[p].name.clone()),
            status: None,
            kind: None,
            mid_stream: false,
            retry_after_ms: None,
            remaining_tokens: None,
            remaining_requests: None,
            ttft_ms: None,
            latency_ms: None,
            detail: None,
        };
        self.report.records.push(r);
        let last = self.report.records.len() - 1;
        &mut self.report.records[last]
    }

    /// The arrival rate (per ms) at `t`: ramping linearly to full, then held.
    fn rate_at(&self, t: f64) -> f64 {
        let full = self.cfg.arrivals_per_minute() / 60_000.0;
        let since = t - self.cfg.start_ms as f64;
        if self.cfg.ramp_ms == 0 || since >= self.cfg.ramp_ms as f64 {
            full
        } else {
            full * (since / self.cfg.ramp_ms as f64).max(0.0)
        }
    }

    /// Poisson arrivals with a time-varying rate, by thinning: candidate gaps are exponential at the full rate,
    /// each kept with probability rate(t) / full.
    fn schedule_next_arrival(&mut self) {
        let full = self.cfg.arrivals_per_minute() / 60_000.0;
        if full <= 0.0 || !full.is_finite() {
            return;
        }
        if self
            .cfg
            .max_requests
            .is_some_and(|m| self.reqs.len() as u64 >= m)
        {
            return;
        }
        loop {
            self.next_arrival += self.arrivals.exponential(1.0 / full);
            if self.next_arrival >= self.end_ms as f64 {
                return;
            }
            let keep = self.rate_at(self.next_arrival) / full;
            if self.arrivals.next_f64() < keep {
                let t = self.next_arrival.ceil() as u64;
                self.at(t, Ev::Arrival);
                return;
            }
        }
    }

    fn draw_size(&mut self) -> (u64, u64) {
        match &self.cfg.sizes {
            Sizes::Replay(v) => {
                let s = v[self.replay_at % v.len()];
                self.replay_at += 1;
                s
            }
            Sizes::Distribution {
                prompt_median,
                prompt_sigma,
                max_tokens,
                oversize_fraction,
            } => {
                let cap = match self.rng.below(3) {
                    0 => (max_tokens / 2).max(1),
                    1 => *max_tokens,
                    _ => max_tokens.saturating_mul(2),
                };
                let prompt = if self.rng.next_f64() < *oversize_fraction {
                    let f = 0.9 + 0.4 * self.rng.next_f64();
                    ((self.cfg.providers[0].tpm as f64 * f) as u64).saturating_sub(cap)
                } else {
                    self.rng
                        .log_normal(*prompt_median as f64, *prompt_sigma)
                        .round()
                        .clamp(1.0, 10_000_000.0) as u64
                };
                (prompt.max(1), cap)
            }
        }
    }

    fn draw_size_bounded(&mut self) -> (u64, u64) {
        let (p, c) = self.draw_size();
        (p.min(MAX_PROMPT_TOKENS), c)
    }

    fn text(&mut self, words: u64) -> String {
        let mut s = String::with_capacity(words as usize * 7);
        for i in 0..words {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(WORDS[self.rng.below(WORDS.len() as u64) as usize]);
        }
        s
    }

    /// The OpenAI chat body of a request: the guard estimates it.
    fn build(&mut self, words: u64, max_tokens: u64, stream: bool) -> String {
        let text = self.text(words);
        let mut body = serde_json::json!({
            "model": self.cfg.model,
            "messages": [{"role": "user", "content": text}],
            "max_tokens": max_tokens,
        });
        if stream {
            body["stream"] = serde_json::Value::Bool(true);
            body["stream_options"] = serde_json::json!({"include_usage": true});
        }
        body.to_string()
    }

    fn arrive(&mut self, now: u64) {
        let id = self.reqs.len() as u64;
        let (prompt, max_tokens) = self.draw_size_bounded();
        let stream = self.rng.next_f64() < self.cfg.stream_fraction;
        // The library prices these common words at about 1.1 tokens each (plus the message overhead).
        let words = ((prompt.saturating_sub(7) as f64 / 1.1).round() as u64).max(1);
        let body = self.build(words, max_tokens, stream);
        let deadline_ms = now + self.cfg.deadline_ms;
        let call = self.guard.start(&body, deadline_ms, now);
        let n = self.cfg.providers.len();
        self.reqs.push(Req {
            arrival_ms: now,
            deadline_ms,
            call: Some(call),
            next_poll: None,
            last_target: None,
            left_because: None,
            queued_on: None,
            attempt: 0,
            sent: false,
            queued: false,
            retried: false,
            shrunk: false,
            first_fallback_ms: None,
            not_before: vec![0; n],
            hard_refusal: vec![false; n],
            output_delivered: false,
            last_kind: None,
            last_mid_stream: None,
            answer_status: None,
            answer_shed: None,
            done: None,
        });
        self.report.offered += 1;
        let b = self.bin(now);
        bump(&mut self.report.series.offered, b);
        let detail = format!("prompt≈{prompt} max_tokens={max_tokens} stream={stream}");
        self.record(now, id, "arrived", None).detail = Some(detail);
        self.schedule_next_arrival();
        self.drive(id, now);
    }

    /// Polls request `id`'s call and does what it asks until it waits, awaits an answer or ends.
    fn drive(&mut self, id: u64, now: u64) {
        for _ in 0..64 {
            let Some(call) = self.reqs[id as usize].call.as_mut() else {
                return;
            };
            let step = call.poll(now);
            let events = call.take_events();
            for (t, e) in events {
                self.on_event(id, t, e);
            }
            match step {
                Step::Send { target, body, .. } => {
                    self.send(id, target, &body, now);
                    return;
                }
                Step::Wait { until_ms } => {
                    let r = &mut self.reqs[id as usize];
                    if r.next_poll != Some(until_ms) {
                        r.next_poll = Some(until_ms);
                        self.at(until_ms, Ev::Poll(id));
                    }
                    return;
                }
                Step::Awaiting => return,
                Step::Answer(a) => {
                    let r = &mut self.reqs[id as usize];
                    r.answer_status = Some(a.status);
                    r.answer_shed = serde_json::from_str::<serde_json::Value>(&a.body)
                        .ok()
                        .and_then(|v| v["error"]["reason"].as_str().map(String::from));
                }
                Step::Done(o) => {
                    self.end(id, now, o);
                    return;
                }
            }
        }
    }

    /// Moving to target `p` (queued or sent there): a fallback when it is not where the request was before, or,
    /// for its first offer, not the primary.
    fn arrive_at(&mut self, id: u64, p: usize, now: u64) {
        let r = &mut self.reqs[id as usize];
        if r.last_target.unwrap_or(0) != p {
            let why = r
                .left_because
                .take()
                .unwrap_or_else(|| "route: the primary must wait".into());
            self.record(now, id, "fell_back", Some(p)).detail = Some(why);
        }
        self.reqs[id as usize].last_target = Some(p);
    }

    fn unqueue(&mut self, id: u64) {
        if let Some(q) = self.reqs[id as usize].queued_on.take() {
            self.queued[q].remove(&id);
        }
    }

    /// Records what the call did (its decisions); the answers themselves are recorded where they arrive.
    fn on_event(&mut self, id: u64, now: u64, e: CallEvent) {
        match e {
            CallEvent::Queued { target, eta_ms } => {
                self.arrive_at(id, target, now);
                let r = &mut self.reqs[id as usize];
                if !r.queued {
                    r.queued = true;
                    self.report.queued += 1;
                }
                r.queued_on = Some(target);
                self.queued[target].insert(id);
                let b = self.bin(now);
                bump(&mut self.report.series.queued, b);
                let wait = eta_ms.saturating_sub(now);
                self.record(now, id, "queued", Some(target)).detail =
                    Some(format!("eta in {wait} ms"));
            }
            CallEvent::Shed { target, message } => {
                self.unqueue(id);
                let name = &self.cfg.providers[target].name;
                self.reqs[id as usize].left_because = Some(format!("shed by {name}: {message}"));
            }
            CallEvent::BreakerOpen { target } => {
                self.unqueue(id);
                let name = &self.cfg.providers[target].name;
                self.reqs[id as usize].left_because = Some(format!("circuit open on {name}"));
            }
            CallEvent::Sent { target, attempt } => {
                self.unqueue(id);
                self.arrive_at(id, target, now);
                self.reqs[id as usize].attempt = attempt;
            }
            CallEvent::Retry { target, at_ms } => {
                let r = &mut self.reqs[id as usize];
                if !r.retried {
                    r.retried = true;
                    self.report.retried += 1;
                }
                self.report.retries += 1;
                self.decided(id, "retried");
                self.record(now, id, "retried", Some(target)).detail =
                    Some(format!("after {} ms", at_ms.saturating_sub(now)));
            }
            CallEvent::FellBack { reason, .. } => {
                self.decided(id, "fell_back");
                self.reqs[id as usize].left_because = Some(reason);
            }
            CallEvent::Shrunk { by_tokens } => {
                let r = &mut self.reqs[id as usize];
                if !r.shrunk {
                    r.shrunk = true;
                    self.report.shrunk += 1;
                }
                // A shrunk request is a new request: a too-large refusal of the old one does not forbid sending it.
                r.hard_refusal.iter_mut().for_each(|h| *h = false);
                let p = r.last_target;
                self.decided(id, "shrunk");
                self.record(now, id, "shrunk", p).detail =
                    Some(format!("max_tokens cut by {by_tokens}"));
            }
            CallEvent::TransportError { .. } => {
                self.reqs[id as usize].left_because = Some("transport error".into());
            }
            CallEvent::Response { .. }
            | CallEvent::Settled { .. }
            | CallEvent::Released { .. }
            | CallEvent::Refused { .. }
            | CallEvent::Ledger { .. }
            | CallEvent::LedgerError { .. }
            | CallEvent::Admitted { .. }
            | CallEvent::NeverSendable { .. }
            | CallEvent::Calibrated { .. }
            | CallEvent::Answered { .. }
            | CallEvent::Ended { .. } => {}
        }
    }

    /// What the guard decided after a refusal inside a stream.
    fn decided(&mut self, id: u64, decision: &'static str) {
        if let Some(i) = self.reqs[id as usize].last_mid_stream.take() {
            self.report.mid_stream[i].decision = decision;
        }
    }

    /// The call asked to send `body` to provider `p`: checked independently, then sent.
    fn send(&mut self, id: u64, p: usize, body: &str, now: u64) {
        self.unqueue(id);
        let r = &self.reqs[id as usize];
        let cost = r.call.as_ref().and_then(|c| c.cost(p)).cloned();
        if let Some(cost) = cost {
            if matches!(
                State::new(self.budgets[p].clone(), now)
                    .check(&cost, self.cfg.policy, now)
                    .verdict,
                Verdict::NeverSendable { .. }
            ) {
                self.report.never_sendable_sent += 1;
            }
        }
        if now < r.not_before[p] {
            self.report.retries_before_retry_after += 1;
        }
        if r.hard_refusal[p] {
            self.report.hard_refusals_resent += 1;
        }
        if r.output_delivered {
            self.report.resent_after_output += 1;
        }
        if now > r.deadline_ms {
            self.report.queue_timeouts += 1;
        }
        let (arrival, deadline, first_send, attempt) =
            (r.arrival_ms, r.deadline_ms, !r.sent, r.attempt);
        if p > 0 && r.first_fallback_ms.is_none() {
            self.reqs[id as usize].first_fallback_ms = Some(now);
            self.report.fell_back += 1;
            self.fallback_delays.push(now - arrival);
            if now > deadline {
                self.report.fallback_after_deadline += 1;
            }
        }
        if first_send {
            self.reqs[id as usize].sent = true;
            self.report.sent += 1;
            self.start_delays.push(now - arrival);
            let b = self.bin(now);
            bump(&mut self.report.series.admitted, b);
        }
        self.report.attempts += 1;
        self.record(now, id, "sent", Some(p)).detail = Some(format!("attempt {attempt}"));
        let reply = self.upstream.send(p, body, now);
        let latency = reply.as_ref().map_or(0, |r| r.latency_ms);
        self.at(
            now + latency,
            Ev::Complete {
                id,
                provider: p,
                reply,
            },
        );
    }

    /// Provider `p`'s answer to request `id`: recorded, fed to the call, and the call driven on; then the calls
    /// queued on `p` are polled (the answer may have freed capacity there).
    fn complete(&mut self, id: u64, p: usize, reply: Result<Reply, String>, now: u64) {
        match reply {
            Err(msg) => {
                *self.report.refused.entry("transport".into()).or_default() += 1;
                let b = self.bin(now);
                bump(&mut self.report.series.refused_other, b);
                self.record(now, id, "response", Some(p)).detail = Some(msg);
                if let Some(call) = self.reqs[id as usize].call.as_mut() {
                    call.on_transport_error(now);
                }
            }
            Ok(reply) => {
                self.answer(id, p, &reply, now);
                let draw = self.rng.next_f64();
                if let Some(call) = self.reqs[id as usize].call.as_mut() {
                    call.on_response(
                        reply.status,
                        reply.headers.iter().map(|(a, b)| (a.as_str(), b.as_str())),
                        now,
                    );
                    call.on_body(reply.body.as_bytes(), now);
                    call.on_end(now, draw);
                }
            }
        }
        self.drive(id, now);
        let waiting: Vec<u64> = self.queued[p].iter().copied().collect();
        for q in waiting {
            self.drive(q, now);
        }
    }

    /// Records an answer as the drill reads it itself (the core's header parser and classifier): the counts by
    /// kind, the crossover, the mid-stream list and what the independent checks need.
    fn answer(&mut self, id: u64, p: usize, reply: &Reply, now: u64) {
        let snap = RateLimitSnapshot::from_headers(
            reply.headers.iter().map(|(a, b)| (a.as_str(), b.as_str())),
            now,
        )
        .snapshot;
        let stream_error = if (200..300).contains(&reply.status) {
            find_stream_error(&reply.body)
        } else {
            None
        };
        let rec_base = |r: &mut Record| {
            r.status = Some(reply.status);
            r.remaining_tokens = snap.tokens.remaining;
            r.remaining_requests = snap.requests.remaining;
            r.retry_after_ms = snap.retry_after_ms;
            r.ttft_ms = reply.ttft_ms;
            r.latency_ms = Some(reply.latency_ms);
        };
        if (200..300).contains(&reply.status) && stream_error.is_none() {
            rec_base(self.record(now, id, "response", Some(p)));
            if let Some(t) = reply.ttft_ms {
                self.ttfts.push(t);
            }
            self.latencies.push(reply.latency_ms);
            return;
        }
        let mid_stream = stream_error.is_some();
        let refusal = match &stream_error {
            Some(e) => classify_with_snapshot(None, &snap, &e.payload),
            None => classify_with_snapshot(Some(reply.status), &snap, &reply.body),
        };
        let delivered =
            stream_error.as_ref().is_some_and(|e| e.output_delivered) || refusal.output_delivered;
        let kind = refusal.kind;
        let name = self.cfg.providers[p].name.clone();
        {
            let r = &mut self.reqs[id as usize];
            r.output_delivered |= delivered;
            r.last_kind = Some(kind);
            if let Some(w) = refusal.retry_after_ms {
                r.not_before[p] = r.not_before[p].max(now + w);
            }
            if matches!(
                kind,
                RefusalKind::QuotaExhausted | RefusalKind::ContextLength | RefusalKind::TooLarge
            ) {
                r.hard_refusal[p] = true;
            }
        }
        *self.report.refused.entry(kind.name().into()).or_default() += 1;
        let b = self.bin(now);
        if mid_stream {
            self.report.refused_mid_stream += 1;
            bump(&mut self.report.series.refused_mid_stream, b);
        } else if kind.is_rate_limit() {
            bump(&mut self.report.series.refused_rate_limit, b);
        } else if matches!(kind, RefusalKind::TooLarge | RefusalKind::ContextLength) {
            bump(&mut self.report.series.refused_too_large, b);
        } else if kind == RefusalKind::Overloaded {
            bump(&mut self.report.series.refused_overloaded, b);
        } else {
            bump(&mut self.report.series.refused_other, b);
        }
        if let Some(cross) = self.report.crossover.get_mut(&name) {
            match kind {
                RefusalKind::RateLimitTokens => {
                    cross.token_refusals += 1;
                    if let Some(r) = snap.requests.remaining {
                        self.rem_req_at_tokens[p].push(r);
                    }
                }
                RefusalKind::RateLimitRequests => {
                    cross.request_refusals += 1;
                    if let Some(t) = snap.tokens.remaining {
                        self.rem_tok_at_requests[p].push(t);
                    }
                }
                _ => {}
            }
        }
        {
            let rec = self.record(now, id, "response", Some(p));
            rec_base(rec);
            rec.kind = Some(kind.name());
            rec.mid_stream = mid_stream;
            rec.retry_after_ms = refusal.retry_after_ms;
        }
        if mid_stream {
            self.report.mid_stream.push(MidStream {
                t_ms: self.rel(now),
                id,
                provider: name,
                kind: kind.name(),
                output_delivered: delivered,
                // Until the guard decides otherwise: a stream whose head went out is not sent again.
                decision: "failed",
            });
            self.reqs[id as usize].last_mid_stream = Some(self.report.mid_stream.len() - 1);
        }
    }

    /// The call ended: its outcome, as the report counts it.
    fn end(&mut self, id: u64, now: u64, o: Outcome) {
        self.unqueue(id);
        let r = &mut self.reqs[id as usize];
        r.call = None;
        r.last_mid_stream = None;
        let kind = r.last_kind.map(|k| k.name().to_string());
        let f = match (o.end, r.answer_status) {
            ("succeeded", _) => Final::Succeeded,
            ("answered", Some(413)) if o.attempts == 0 => Final::Shed("never_sendable".into()),
            ("answered", Some(429)) if r.answer_shed.is_some() => {
                Final::Shed(r.answer_shed.clone().unwrap_or_default())
            }
            ("answered", Some(503)) if o.reason.starts_with("circuit open") => {
                Final::Failed("circuit_open".into())
            }
            ("answered", Some(502)) | ("failed", Some(502)) => Final::Failed("transport".into()),
            // A stream that failed after its head went out: the client has the head, so it is never sent again.
            ("failed", _) => Final::Failed("unsafe_to_resend".into()),
            ("abandoned", _) => Final::Abandoned,
            _ => Final::Failed(kind.unwrap_or_else(|| "no_target".into())),
        };
        let detail = (!o.reason.is_empty()).then(|| o.reason.clone());
        self.finish_req(id, now, f, o.target, detail);
    }
    fn finish_req(
        &mut self,
        id: u64,
        now: u64,
        f: Final,
        p: Option<usize>,
        detail: Option<String>,
    ) {
        if self.reqs[id as usize].done.is_some() {
            return;
        }
        let b = self.bin(now);
        let event = match &f {
            Final::Succeeded => {
                self.report.succeeded += 1;
                bump(&mut self.report.series.succeeded, b);
                "succeeded"
            }
            Final::Shed(reason) => {
                self.report.shed += 1;
                *self
                    .report
                    .shed_by_reason
                    .entry(reason.clone())
                    .or_default() += 1;
                bump(&mut self.report.series.shed, b);
                "shed"
            }
            Final::Failed(reason) => {
                self.report.failed += 1;
                *self
                    .report
                    .failed_by_reason
                    .entry(reason.clone())
                    .or_default() += 1;
                "failed"
            }
            Final::Abandoned => {
                self.report.abandoned += 1;
                "abandoned"
            }
        };
        let why = match &f {
            Final::Shed(r) | Final::Failed(r) => Some(r.clone()),
            _ => None,
        };
        self.record(now, id, event, p).detail = match (why, detail) {
            (Some(w), Some(d)) => Some(format!("{w}: {d}")),
            (w, d) => w.or(d),
        };
        self.reqs[id as usize].done = Some(f);
    }

    fn finish(mut self) -> Report {
        let last = self.end_ms.max(
            self.report
                .records
                .last()
                .map_or(0, |r| r.t_ms + self.cfg.start_ms),
        );
        // Whatever a queue still holds when time runs out was left to time out there.
        self.report.queue_timeouts += self.queued.iter().map(|q| q.len() as u64).sum::<u64>();
        for id in 0..self.reqs.len() as u64 {
            if self.reqs[id as usize].done.is_none() {
                // Dropping the call gives back whatever it holds, as a gateway's would when its client went away.
                self.reqs[id as usize].call = None;
                self.finish_req(id, last, Final::Abandoned, None, None);
            }
        }
        self.report.held_at_end = self.guard.held_tokens() + self.guard.in_flight();
        for (i, p) in self.cfg.providers.iter().enumerate() {
            if let Some((n, ratio)) = self.guard.learned(i).filter(|(n, _)| *n > 0) {
                self.report.learned.insert(
                    p.name.clone(),
                    serde_json::json!({"answers": n, "ratio": (ratio * 10_000.0).round() / 10_000.0}),
                );
            }
        }
        let r = &mut self.report;
        r.fallback_delay_ms = Spread::of(&self.fallback_delays);
        r.fallback_delay_histogram = histogram(&self.fallback_delays, 1_000);
        r.start_delay_ms = Spread::of(&self.start_delays);
        r.ttft_ms = Spread::of(&self.ttfts);
        r.latency_ms = Spread::of(&self.latencies);
        for (i, p) in self.cfg.providers.iter().enumerate() {
            if let Some(c) = r.crossover.get_mut(&p.name) {
                c.remaining_requests_at_token_refusal = Spread::of(&self.rem_req_at_tokens[i]);
                c.remaining_tokens_at_request_refusal = Spread::of(&self.rem_tok_at_requests[i]);
            }
        }
        // Every series as long as the longest.
        let s = &mut r.series;
        let n = [
            s.offered.len(),
            s.admitted.len(),
            s.queued.len(),
            s.shed.len(),
            s.succeeded.len(),
            s.refused_rate_limit.len(),
            s.refused_too_large.len(),
            s.refused_overloaded.len(),
            s.refused_mid_stream.len(),
            s.refused_other.len(),
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        for v in [
            &mut s.offered,
            &mut s.admitted,
            &mut s.queued,
            &mut s.shed,
            &mut s.succeeded,
            &mut s.refused_rate_limit,
            &mut s.refused_too_large,
            &mut s.refused_overloaded,
            &mut s.refused_mid_stream,
            &mut s.refused_other,
        ] {
            v.resize(n, 0);
        }
        let outcomes = r.succeeded + r.shed + r.failed + r.abandoned;
        r.assertions = vec![
            Assertion {
                name: "no_retry_before_retry_after",
                held: r.retries_before_retry_after == 0,
                detail: format!(
                    "{} of {} retries sent before the stated wait",
                    r.retries_before_retry_after, r.retries
                ),
            },
            Assertion {
                name: "no_never_sendable_sent",
                held: r.never_sendable_sent == 0,
                detail: format!(
                    "{} of {} sends exceeded the whole budget they went to",
                    r.never_sendable_sent, r.attempts
                ),
            },
            Assertion {
                name: "no_request_timed_out_in_queue",
                held: r.queue_timeouts == 0,
                detail: format!(
                    "{} admitted after their deadline or left queued",
                    r.queue_timeouts
                ),
            },
            Assertion {
                name: "fallback_inside_deadline",
                held: r.fallback_after_deadline == 0,
                detail: format!(
                    "{} of {} fallbacks first asked after the deadline",
                    r.fallback_after_deadline, r.fell_back
                ),
            },
            Assertion {
                name: "no_resend_of_a_refusal_no_wait_clears",
                held: r.hard_refusals_resent == 0,
                detail: format!(
                    "{} sends after a quota, context-length or too-large refusal of the same request there",
                    r.hard_refusals_resent
                ),
            },
            Assertion {
                name: "no_resend_after_output",
                held: r.resent_after_output == 0,
                detail: format!(
                    "{} sends of a request whose earlier answer had delivered output",
                    r.resent_after_output
                ),
            },
            Assertion {
                name: "nothing_held_at_end",
                held: r.held_at_end == 0,
                detail: format!(
                    "{} tokens and reservations still held when every call had ended",
                    r.held_at_end
                ),
            },
            Assertion {
                name: "one_outcome_per_request",
                held: outcomes == r.offered && r.abandoned == 0,
                detail: format!(
                    "offered {} = succeeded {} + shed {} + failed {} + abandoned {}",
                    r.offered, r.succeeded, r.shed, r.failed, r.abandoned
                ),
            },
        ];
        self.report
    }
}

/// The usage block of a response: a JSON body, or the last SSE frame that carries one.
pub fn usage_of(body: &str) -> Option<Usage> {
    let t = body.trim_start();
    if t.starts_with('{') {
        let v: serde_json::Value = serde_json::from_str(t).ok()?;
        return Usage::from_response(&v).ok().flatten();
    }
    let mut found = None;
    for line in body.lines() {
        if let Some(d) = line.strip_prefix("data:") {
            let d = d.trim();
            if d.starts_with('{') {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(d) {
                    if let Ok(Some(u)) = Usage::from_response(&v) {
                        found = Some(u);
                    }
                }
            }
        }
    }
    found
}
