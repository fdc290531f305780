//! The driver: an event queue in milliseconds that offers requests, asks the [`Upstream`](crate::Upstream) for
//! answers and records what the core decided (admission, retries, fallbacks, breakers), response by response.

use crate::config::{nonzero, DrillConfig, DrillError, SimSettings, Sizes, MAX_PROMPT_TOKENS};
use crate::report::{histogram, Assertion, Crossover, MidStream, Record, Report, Series, Spread};
use crate::sim;
use crate::upstream::{Clock, Reply, SimClock, Simulated, Upstream};
use llm_preflight::internals::SplitMix64;
use llm_preflight::{
    classify_with_snapshot, estimate_request, find_stream_error, next_action, route, Action,
    AdmissionQueue, BreakerConfig, Budget, Candidate, CircuitBreakers, Cost, Ledger, Offer,
    Profile, Provider, RateLimitSnapshot, RefusalKind, Reservation, RetryBudget, RetryPolicy,
    ShedReason, State, Usage, Verdict,
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
    prompt_words: u64,
    max_tokens: u64,
    stream: bool,
    body: String,
    cost: Cost,
    attempt: u32,
    tried: Vec<bool>,
    sent: bool,
    queued: bool,
    retried: bool,
    shrunk: bool,
    first_fallback_ms: Option<u64>,
    /// The provider, time and stated wait of the last refusal that led to a retry.
    last_refusal: Option<(usize, u64, Option<u64>)>,
    done: Option<Final>,
}

enum Ev {
    Arrival,
    Wake(usize),
    Reoffer(u64, usize),
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
    wakes: BTreeSet<(usize, u64)>,
    next_arrival: f64,
    queues: Vec<AdmissionQueue<u64>>,
    budgets: Vec<Budget>,
    breakers: CircuitBreakers,
    retry_budget: RetryBudget,
    reqs: Vec<Req>,
    held: BTreeMap<u64, Reservation>,
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
    let queues = budgets
        .iter()
        .map(|b| {
            AdmissionQueue::new(
                Ledger::new(State::new(b.clone(), cfg.start_ms)),
                cfg.policy,
                cfg.queue_max_work_ms,
            )
        })
        .collect();
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
        wakes: BTreeSet::new(),
        next_arrival: cfg.start_ms as f64,
        queues,
        budgets,
        breakers: CircuitBreakers::new(BreakerConfig::default()),
        retry_budget: RetryBudget::new(0.2, 1.0, 20.0),
        reqs: Vec::new(),
        held: BTreeMap::new(),
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
            Ev::Wake(p) => {
                d.wakes.remove(&(p, t));
                d.process_queue(p, now);
            }
            Ev::Reoffer(id, p) => d.offer_to(id, p, now),
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

fn shed_reason_name(r: &ShedReason) -> &'static str {
    match r {
        ShedReason::NeverSendable { .. } => "never_sendable",
        ShedReason::DeadlineUnreachable { .. } => "deadline_unreachable",
        ShedReason::QueueFull { .. } => "queue_full",
    }
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

    /// Builds the OpenAI chat body and its cost, as the library estimates it.
    fn build(&mut self, words: u64, max_tokens: u64, stream: bool) -> (String, Cost) {
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
        let body = body.to_string();
        let cost = match estimate_request(&body, None, Some(Profile::O200k)) {
            Ok(e) => e.cost(),
            // The body is built here and always parses; price it by its words if it ever did not.
            Err(_) => Cost::exact(words).with_max_output(max_tokens),
        };
        (body, cost)
    }

    fn arrive(&mut self, now: u64) {
        let id = self.reqs.len() as u64;
        let (prompt, max_tokens) = self.draw_size_bounded();
        let stream = self.rng.next_f64() < self.cfg.stream_fraction;
        // The library prices these common words at about 1.1 tokens each (plus the message overhead).
        let words = ((prompt.saturating_sub(7) as f64 / 1.1).round() as u64).max(1);
        let (body, cost) = self.build(words, max_tokens, stream);
        self.reqs.push(Req {
            arrival_ms: now,
            deadline_ms: now + self.cfg.deadline_ms,
            prompt_words: words,
            max_tokens,
            stream,
            body,
            cost,
            attempt: 0,
            tried: vec![false; self.cfg.providers.len()],
            sent: false,
            queued: false,
            retried: false,
            shrunk: false,
            first_fallback_ms: None,
            last_refusal: None,
            done: None,
        });
        self.report.offered += 1;
        let b = self.bin(now);
        bump(&mut self.report.series.offered, b);
        let detail = format!("prompt≈{prompt} max_tokens={max_tokens} stream={stream}");
        self.record(now, id, "arrived", None).detail = Some(detail);
        self.schedule_next_arrival();
        self.route_new(id, now);
    }

    /// The first decision: the library's router over every provider's current state.
    fn route_new(&mut self, id: u64, now: u64) {
        let states: Vec<State> = self.queues.iter().map(|q| q.ledger().snapshot()).collect();
        let cost = self.reqs[id as usize].cost.clone();
        let names: Vec<String> = self.cfg.providers.iter().map(|p| p.name.clone()).collect();
        let candidates: Vec<Candidate<'_>> = states
            .iter()
            .zip(&names)
            .map(|(s, n)| Candidate {
                name: n,
                state: s,
                cost: &cost,
            })
            .collect();
        let r = route(&candidates, self.cfg.policy, now);
        match r.chosen {
            None => {
                let detail = r
                    .passed_over
                    .first()
                    .map(|p| serde_json::to_string(&p.reason).unwrap_or_default())
                    .unwrap_or_default();
                self.finish_req(
                    id,
                    now,
                    Final::Shed("never_sendable".into()),
                    None,
                    Some(detail),
                );
            }
            Some(0) => self.offer_to(id, 0, now),
            Some(p) => {
                self.record(now, id, "fell_back", Some(p)).detail =
                    Some("route: the primary must wait".into());
                self.offer_to(id, p, now);
            }
        }
    }

    fn offer_to(&mut self, id: u64, p: usize, now: u64) {
        if self.reqs[id as usize].done.is_some() {
            return;
        }
        self.reqs[id as usize].tried[p] = true;
        let (cost, deadline) = {
            let r = &self.reqs[id as usize];
            (r.cost.clone(), r.deadline_ms)
        };
        match self.queues[p].offer(id, cost, deadline, now) {
            Offer::Admitted { reservation, .. } => self.send(id, p, reservation, now),
            Offer::Queued { eta_ms, position } => {
                if !self.reqs[id as usize].queued {
                    self.reqs[id as usize].queued = true;
                    self.report.queued += 1;
                }
                let b = self.bin(now);
                bump(&mut self.report.series.queued, b);
                let wait = eta_ms.saturating_sub(now);
                self.record(now, id, "queued", Some(p)).detail =
                    Some(format!("eta in {wait} ms, position {position}"));
                self.process_queue(p, now);
            }
            Offer::Shed { shed, .. } => {
                let reason = shed_reason_name(&shed.reason);
                self.shed_or_fall_back(id, p, reason, shed.message, now);
            }
        }
    }

    /// A request shed by provider `p`: the next untried provider, else a final shed.
    fn shed_or_fall_back(&mut self, id: u64, p: usize, reason: &str, message: String, now: u64) {
        match self.untried(id) {
            Some(next) => {
                self.record(now, id, "fell_back", Some(next)).detail =
                    Some(format!("shed by {}: {message}", self.cfg.providers[p].name));
                self.reqs[id as usize].attempt = 0;
                self.offer_to(id, next, now);
            }
            None => self.finish_req(
                id,
                now,
                Final::Shed(reason.to_string()),
                Some(p),
                Some(message),
            ),
        }
    }

    /// The next provider not yet tried that could ever hold the request (its verdict against a full budget is not
    /// never-sendable).
    fn untried(&self, id: u64) -> Option<usize> {
        let r = &self.reqs[id as usize];
        (0..r.tried.len()).find(|&p| {
            !r.tried[p]
                && !matches!(
                    State::new(self.budgets[p].clone(), 0)
                        .check(&r.cost, self.cfg.policy, 0)
                        .verdict,
                    Verdict::NeverSendable { .. }
                )
        })
    }

    fn process_queue(&mut self, p: usize, now: u64) {
        let poll = self.queues[p].poll(now);
        for (id, reservation) in poll.admitted {
            if now > self.reqs[id as usize].deadline_ms {
                self.report.queue_timeouts += 1;
            }
            self.send(id, p, reservation, now);
        }
        for (id, shed) in poll.shed {
            let reason = shed_reason_name(&shed.reason);
            self.shed_or_fall_back(id, p, reason, shed.message, now);
        }
        if let Some(w) = poll.wake_at_ms {
            let w = w.max(now + 1);
            if self.wakes.insert((p, w)) {
                self.at(w, Ev::Wake(p));
            }
        }
    }

    fn send(&mut self, id: u64, p: usize, reservation: Reservation, now: u64) {
        let name = self.cfg.providers[p].name.clone();
        if !self.breakers.get(&name).allow(now) {
            reservation.release();
            match self.untried(id) {
                Some(next) => {
                    self.record(now, id, "fell_back", Some(next)).detail =
                        Some(format!("circuit open on {name}"));
                    self.reqs[id as usize].attempt = 0;
                    self.offer_to(id, next, now);
                }
                None => {
                    self.finish_req(id, now, Final::Failed("circuit_open".into()), Some(p), None)
                }
            }
            return;
        }
        // Independent checks of what the queue admitted.
        let fresh = State::new(self.budgets[p].clone(), now);
        let r = &self.reqs[id as usize];
        if matches!(
            fresh.check(&r.cost, self.cfg.policy, now).verdict,
            Verdict::NeverSendable { .. }
        ) {
            self.report.never_sendable_sent += 1;
        }
        if let Some((rp, t, Some(wait))) = r.last_refusal {
            if rp == p && now < t + wait {
                self.report.retries_before_retry_after += 1;
            }
        }
        let (arrival, deadline, first_send) = (r.arrival_ms, r.deadline_ms, !r.sent);
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
            self.retry_budget.on_request(now);
        }
        self.report.attempts += 1;
        self.record(now, id, "sent", Some(p)).detail =
            Some(format!("attempt {}", self.reqs[id as usize].attempt));
        let body = self.reqs[id as usize].body.clone();
        let reply = self.upstream.send(p, &body, now);
        let latency = reply.as_ref().map_or(0, |r| r.latency_ms);
        self.held.insert(id, reservation);
        self.at(
            now + latency,
            Ev::Complete {
                id,
                provider: p,
                reply,
            },
        );
    }

    fn complete(&mut self, id: u64, p: usize, reply: Result<Reply, String>, now: u64) {
        let reservation = self.held.remove(&id);
        let name = self.cfg.providers[p].name.clone();
        let reply = match reply {
            Ok(r) => r,
            Err(msg) => {
                if let Some(r) = reservation {
                    r.release();
                }
                self.breakers.get(&name).on_failure(now);
                *self.report.refused.entry("transport".into()).or_default() += 1;
                let b = self.bin(now);
                bump(&mut self.report.series.refused_other, b);
                self.record(now, id, "response", Some(p)).detail = Some(msg.clone());
                match self.untried(id) {
                    Some(next) => {
                        self.record(now, id, "fell_back", Some(next)).detail =
                            Some("transport error".into());
                        self.reqs[id as usize].attempt = 0;
                        self.offer_to(id, next, now);
                    }
                    None => self.finish_req(
                        id,
                        now,
                        Final::Failed("transport".into()),
                        Some(p),
                        Some(msg),
                    ),
                }
                self.process_queue(p, now);
                return;
            }
        };
        let parsed = RateLimitSnapshot::from_headers(
            reply.headers.iter().map(|(a, b)| (a.as_str(), b.as_str())),
            now,
        );
        let snap = parsed.snapshot;
        self.queues[p].ledger().observe(&snap, now);
        let stream_error = if (200..300).contains(&reply.status) {
            find_stream_error(&reply.body)
        } else {
            None
        };
        let ok = (200..300).contains(&reply.status) && stream_error.is_none();
        let rec_base = |r: &mut Record| {
            r.status = Some(reply.status);
            r.remaining_tokens = snap.tokens.remaining;
            r.remaining_requests = snap.requests.remaining;
            r.retry_after_ms = snap.retry_after_ms;
            r.ttft_ms = reply.ttft_ms;
            r.latency_ms = Some(reply.latency_ms);
        };
        if ok {
            let usage = usage_of(&reply.body);
            if let Some(r) = reservation {
                let u = usage.unwrap_or(Usage {
                    input_tokens: self.reqs[id as usize].cost.input.tokens,
                    output_tokens: 0,
                });
                let _ = r.settle(u, now);
            }
            self.breakers.get(&name).on_success(now);
            rec_base(self.record(now, id, "response", Some(p)));
            if let Some(t) = reply.ttft_ms {
                self.ttfts.push(t);
            }
            self.latencies.push(reply.latency_ms);
            self.finish_req(id, now, Final::Succeeded, Some(p), None);
            self.process_queue(p, now);
            return;
        }
        let mid_stream = stream_error.is_some();
        let refusal = classify_with_snapshot(Some(reply.status), &snap, &reply.body);
        if let Some(r) = reservation {
            if mid_stream {
                // Admitted and counted by the provider: settle with what the prompt cost.
                let u = Usage {
                    input_tokens: self.reqs[id as usize].cost.input.tokens,
                    output_tokens: 0,
                };
                let _ = r.settle(u, now);
            } else {
                r.release();
            }
        }
        let kind = refusal.kind;
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
        self.breakers.get(&name).on_refusal(&refusal, now);
        let r = &self.reqs[id as usize];
        let budget = RetryPolicy {
            deadline_ms: Some(r.deadline_ms),
            ..RetryPolicy::default()
        };
        let draw = self.rng.next_f64();
        let action = self
            .retry_budget
            .gate(next_action(&refusal, r.attempt, &budget, now, draw), now);
        {
            let rec = self.record(now, id, "response", Some(p));
            rec_base(rec);
            rec.kind = Some(kind.name());
            rec.mid_stream = mid_stream;
            rec.retry_after_ms = refusal.retry_after_ms;
        }
        let decision = match action {
            Action::Retry { .. } => "retried",
            Action::Fallback { .. } => "fell_back",
            Action::Shrink { .. } => "shrunk",
            Action::GiveUp { .. } => "failed",
        };
        if mid_stream {
            self.report.mid_stream.push(MidStream {
                t_ms: self.rel(now),
                id,
                provider: name.clone(),
                kind: kind.name(),
                output_delivered: refusal.output_delivered,
                decision,
            });
        }
        match action {
            Action::Retry { after_ms } => {
                let r = &mut self.reqs[id as usize];
                r.attempt += 1;
                r.last_refusal = Some((p, now, refusal.retry_after_ms));
                if !r.retried {
                    r.retried = true;
                    self.report.retried += 1;
                }
                self.report.retries += 1;
                self.record(now, id, "retried", Some(p)).detail =
                    Some(format!("after {after_ms} ms"));
                self.at(now + after_ms, Ev::Reoffer(id, p));
            }
            Action::Fallback { reason } => match self.untried(id) {
                Some(next) => {
                    self.record(now, id, "fell_back", Some(next)).detail =
                        Some(format!("{reason:?}"));
                    self.reqs[id as usize].attempt = 0;
                    self.offer_to(id, next, now);
                }
                None => self.finish_req(
                    id,
                    now,
                    Final::Failed(format!(
                        "no_fallback_left ({})",
                        snake(&format!("{reason:?}"))
                    )),
                    Some(p),
                    None,
                ),
            },
            Action::Shrink { by_tokens } => {
                let r = &self.reqs[id as usize];
                // Shrink the output cap by the excess and a margin for the tokenizer's disagreement.
                let cut = by_tokens.map(|b| b + b / 10 + 16);
                match cut.filter(|c| *c < r.max_tokens) {
                    Some(c) if r.attempt < 4 => {
                        let (words, stream, new_cap) = (r.prompt_words, r.stream, r.max_tokens - c);
                        let (body, cost) = self.build(words, new_cap, stream);
                        let r = &mut self.reqs[id as usize];
                        r.body = body;
                        r.cost = cost;
                        r.max_tokens = new_cap;
                        if !r.shrunk {
                            r.shrunk = true;
                            self.report.shrunk += 1;
                        }
                        r.attempt += 1;
                        r.tried[p] = false;
                        self.record(now, id, "shrunk", Some(p)).detail =
                            Some(format!("max_tokens cut by {c} to {new_cap}"));
                        self.offer_to(id, p, now);
                    }
                    _ => self.finish_req(
                        id,
                        now,
                        Final::Failed(kind.name().into()),
                        Some(p),
                        Some("cannot shrink enough".into()),
                    ),
                }
            }
            Action::GiveUp { reason } => self.finish_req(
                id,
                now,
                Final::Failed(snake(&format!("{reason:?}"))),
                Some(p),
                None,
            ),
        }
        self.process_queue(p, now);
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
        self.report.queue_timeouts += self.queues.iter().map(|q| q.len() as u64).sum::<u64>();
        for id in 0..self.reqs.len() as u64 {
            if self.reqs[id as usize].done.is_none() {
                self.finish_req(id, last, Final::Abandoned, None, None);
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

fn snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
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
