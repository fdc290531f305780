//! The lazy module's preflight exports: checks, headers, the ledger and the queue. Arguments are plain numbers,
//! strings and arrays; results are JSON text.

use crate::{err, js_string, ms, parse_name, profile_of, EstimateOut, JsResult};
use llm_preflight::Estimate;
use llm_preflight::{
    check_request, parse_duration_ms, AdmissionQueue as CoreQueue, Band, Budget, Check, CheckInput,
    Cost, Dimension, Ledger as CoreLedger, Offer, Policy, PreflightError, Provider,
    RateLimitSnapshot, Reservation as CoreReservation, State, Summary, Usage, VerdictKind,
};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// JSON text by serde_json: this module has it anyway (for the JSON exports), and one serializer keeps the
/// derived `Serialize` code from being compiled twice.
fn to_json<T: Serialize>(v: &T) -> JsResult<String> {
    serde_json::to_string(v).map_err(err)
}

fn policy_of(name: Option<&str>) -> JsResult<Policy> {
    name.map_or(Ok(Policy::Median), parse_name)
}

// -------------------------------------------------------------------------------------------------------------
// Budgets, checks, the ledger and the queue.

/// The order of the limits in the `limits` arrays: tpm, rpm, itpm, otpm, tpd, rpd, context_window (NaN: none).
const LIMITS: [Dimension; 7] = [
    Dimension::Tokens,
    Dimension::Requests,
    Dimension::InputTokens,
    Dimension::OutputTokens,
    Dimension::TokensPerDay,
    Dimension::RequestsPerDay,
    Dimension::Context,
];

/// A key's budget: a provider name (default open_ai_compatible) and the limits in [`LIMITS`] order.
fn budget(provider: Option<&str>, limits: &[f64]) -> JsResult<Budget> {
    let provider = match provider {
        Some(p) => parse_name(p)?,
        None => Provider::OpenAiCompatible,
    };
    if limits.len() != LIMITS.len() {
        return Err(err("limits must hold 7 numbers"));
    }
    let mut b = Budget::new(provider);
    for (d, &v) in LIMITS.into_iter().zip(limits) {
        if v.is_nan() {
            continue;
        }
        // The core's rule; a rejected value written as JavaScript writes it (see `ms`).
        b = b.try_with(d, v).map_err(|e| match e {
            PreflightError::InvalidLimit { dimension, .. } => err(PreflightError::InvalidLimit {
                dimension,
                value: js_string(v),
            }),
            e => err(e),
        })?;
    }
    Ok(b)
}

/// A cost as the wrapper normalizes it: `[low, tokens, high, max_output (NaN: none), incomplete (0 or 1)]`.
fn cost_of(c: &[f64]) -> JsResult<Cost> {
    let [low, tokens, high, max_output, incomplete] = c else {
        return Err(err("cost must hold 5 numbers"));
    };
    let (low, tokens, high) = (
        ms("cost low", *low)?,
        ms("cost tokens", *tokens)?,
        ms("cost high", *high)?,
    );
    if low > tokens || tokens > high {
        return Err(err(format_args!(
            "cost band must satisfy low <= tokens <= high, got {low} <= {tokens} <= {high}"
        )));
    }
    Ok(Cost {
        input: Band { low, tokens, high },
        max_output: if max_output.is_nan() {
            None
        } else {
            Some(ms("max_output", *max_output)?)
        },
        incomplete: *incomplete != 0.0,
    })
}

/// Headers as the wrapper hands them over: `[name, value, name, value, ...]`.
fn pairs(flat: &[String]) -> impl Iterator<Item = (&String, &String)> {
    flat.chunks_exact(2).map(|p| (&p[0], &p[1]))
}

/// A check, with the CLI's field names: `verdict`, `wait_ms`, `dimension`, `needed`, `limit`, `excess`, then what
/// it was decided on.
#[derive(Serialize)]
struct CheckOut<'a> {
    verdict: &'static str,
    wait_ms: Option<u64>,
    dimension: Option<&'static str>,
    needed: u64,
    limit: Option<u64>,
    excess: Option<u64>,
    policy: Policy,
    input_tokens: u64,
    reserved_output: u64,
    at_low: VerdictKind,
    at_high: VerdictKind,
    holds_across_band: bool,
    incomplete: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    estimate: Option<EstimateOut<'a>>,
}

fn check_out<'a>(c: &Check, summary: Summary, estimate: Option<&'a Estimate>) -> CheckOut<'a> {
    let Summary {
        verdict,
        wait_ms,
        dimension,
        limit,
        excess,
    } = summary;
    CheckOut {
        verdict,
        wait_ms,
        dimension,
        needed: c.needed,
        limit,
        excess,
        policy: c.policy,
        input_tokens: c.input_tokens,
        reserved_output: c.reserved_output,
        at_low: c.at_low,
        at_high: c.at_high,
        holds_across_band: c.holds_across_band,
        incomplete: c.incomplete,
        estimate: estimate.map(EstimateOut::from),
    }
}

/// `llm-preflight check` at `now` for a prompt `text` (estimated with `profile` or `model`), or, when `cost` is
/// not empty, for a request whose cost the JSON module worked out (the result then has no `estimate`; the
/// wrapper adds the request's). `limits` as for [`Ledger::new`]; `headers` as `[name, value, ...]`. The core's
/// [`check_request`] decides, as for the CLI.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn check(
    text: &str,
    cost: &[f64],
    provider: Option<String>,
    limits: &[f64],
    profile: Option<String>,
    model: Option<String>,
    remaining_tokens: Option<f64>,
    remaining_requests: Option<f64>,
    reset_tokens: Option<String>,
    reset_requests: Option<String>,
    headers: Vec<String>,
    max_tokens: Option<f64>,
    policy: Option<String>,
    now: f64,
) -> JsResult<String> {
    let now = ms("now", now)?;
    let chosen = profile_of(profile.as_deref(), model.as_deref())?;
    let duration = |what: &str, v: &Option<String>| -> JsResult<Option<u64>> {
        v.as_deref()
            .map(|s| parse_duration_ms(s).map_err(|e| err(format_args!("{what} {s:?}: {e}"))))
            .transpose()
    };
    let count = |what: &str, v: Option<f64>| v.map(|x| ms(what, x)).transpose();
    let input = CheckInput {
        remaining_tokens: count("remaining_tokens", remaining_tokens)?,
        remaining_requests: count("remaining_requests", remaining_requests)?,
        reset_tokens_ms: duration("reset_tokens", &reset_tokens)?,
        reset_requests_ms: duration("reset_requests", &reset_requests)?,
        max_tokens: count("max_tokens", max_tokens)?,
        policy: policy_of(policy.as_deref())?,
        ..CheckInput::new(budget(provider.as_deref(), limits)?)
    };
    let (est, cost) = if cost.is_empty() {
        let e = llm_preflight::estimate(text, chosen.unwrap_or_default());
        let c = Cost::estimated(&e);
        (Some(e), c)
    } else {
        (None, cost_of(cost)?)
    };
    let out = check_request(&input, pairs(&headers), cost, now).map_err(err)?;
    to_json(&check_out(&out.check, out.summary, est.as_ref()))
}

#[derive(Serialize)]
struct MalformedOut {
    name: String,
    value: String,
    message: String,
}

#[derive(Serialize)]
struct HeadersOut {
    #[serde(flatten)]
    snapshot: RateLimitSnapshot,
    malformed: Vec<MalformedOut>,
}

fn parse_headers(h: &[String], now: u64) -> (RateLimitSnapshot, HeadersOut) {
    let parsed = RateLimitSnapshot::from_headers(pairs(h), now);
    let out = HeadersOut {
        snapshot: parsed.snapshot,
        malformed: parsed
            .malformed
            .iter()
            .map(|e| MalformedOut {
                name: e.name.clone(),
                value: e.value.clone(),
                message: e.to_string(),
            })
            .collect(),
    };
    (parsed.snapshot, out)
}

/// Reads rate-limit headers (`[name, value, ...]`) at `now`.
#[wasm_bindgen(js_name = parseRateLimitHeaders)]
pub fn parse_rate_limit_headers(headers: Vec<String>, now: f64) -> JsResult<String> {
    to_json(&parse_headers(&headers, ms("now", now)?).1)
}

/// One key's budget with the reservations in flight.
#[wasm_bindgen]
pub struct Ledger {
    inner: CoreLedger,
}

#[wasm_bindgen]
impl Ledger {
    /// A ledger with full buckets at `now`, for `provider` (default open_ai_compatible) with the limits
    /// `[tpm, rpm, itpm, otpm, tpd, rpd, context_window]` (NaN: no limit).
    #[wasm_bindgen(constructor)]
    pub fn new(provider: Option<String>, limits: &[f64], now: f64) -> JsResult<Ledger> {
        let state = State::new(budget(provider.as_deref(), limits)?, ms("now", now)?);
        Ok(Ledger {
            inner: CoreLedger::new(state),
        })
    }

    /// The verdict for a cost at `now`, reserving nothing.
    pub fn check(&self, cost: &[f64], policy: Option<String>, now: f64) -> JsResult<String> {
        let cost = cost_of(cost)?;
        let policy = policy_of(policy.as_deref())?;
        let c = self.inner.check(&cost, policy, ms("now", now)?);
        to_json(&check_out(&c, c.summary(&self.inner.snapshot()), None))
    }

    /// Reserves a cost if it fits now.
    #[wasm_bindgen(js_name = tryReserve)]
    pub fn try_reserve(&self, cost: &[f64], policy: Option<String>, now: f64) -> JsResult<Outcome> {
        let cost = cost_of(cost)?;
        let policy = policy_of(policy.as_deref())?;
        let now = ms("now", now)?;
        Ok(match self.inner.try_reserve(&cost, policy, now) {
            Ok(r) => Outcome {
                json: to_json(&check_out(
                    r.check(),
                    r.check().summary(&self.inner.snapshot()),
                    None,
                ))?,
                reservations: vec![r],
            },
            Err(refused) => Outcome {
                json: to_json(&refused)?,
                reservations: Vec::new(),
            },
        })
    }

    /// Applies a response's headers (`[name, value, ...]`) at `now`; returns what they said.
    pub fn observe(&self, headers: Vec<String>, now: f64) -> JsResult<String> {
        let now = ms("now", now)?;
        let (snap, out) = parse_headers(&headers, now);
        self.inner.observe(&snap, now);
        to_json(&out)
    }

    /// Reservations outstanding.
    #[wasm_bindgen(js_name = inFlight)]
    pub fn in_flight(&self) -> f64 {
        self.inner.in_flight() as f64
    }

    /// Tokens held by outstanding reservations in one dimension.
    pub fn held(&self, dimension: &str) -> JsResult<f64> {
        Ok(self.inner.held(parse_name::<Dimension>(dimension)?) as f64)
    }

    /// What one bucket holds at `now` (`undefined` when the budget does not limit that dimension).
    pub fn available(&self, dimension: &str, now: f64) -> JsResult<Option<f64>> {
        Ok(self
            .inner
            .available(parse_name::<Dimension>(dimension)?, ms("now", now)?))
    }

    /// The state (budget, buckets, `blocked_until_ms`) as JSON.
    pub fn snapshot(&self) -> JsResult<String> {
        to_json(&self.inner.snapshot())
    }
}

/// JSON plus the reservations an operation handed out, which the wrapper takes one by one.
#[wasm_bindgen]
pub struct Outcome {
    json: String,
    reservations: Vec<CoreReservation>,
}

#[wasm_bindgen]
impl Outcome {
    /// The outcome as JSON.
    pub fn json(&self) -> String {
        self.json.clone()
    }

    /// Takes the next reservation, in order.
    #[wasm_bindgen(js_name = takeReservation)]
    pub fn take_reservation(&mut self) -> Option<Reservation> {
        if self.reservations.is_empty() {
            None
        } else {
            Some(Reservation {
                inner: Some(self.reservations.remove(0)),
            })
        }
    }
}

/// Capacity held for one admitted request: settle or release it (garbage collection releases it too).
#[wasm_bindgen]
pub struct Reservation {
    inner: Option<CoreReservation>,
}

#[wasm_bindgen]
impl Reservation {
    fn live(&self) -> JsResult<&CoreReservation> {
        self.inner
            .as_ref()
            .ok_or_else(|| err("this reservation was already settled or released"))
    }

    /// The check it was admitted on.
    pub fn check(&self) -> JsResult<String> {
        let r = self.live()?;
        to_json(r.check())
    }

    /// What it holds in one dimension.
    pub fn held(&self, dimension: &str) -> JsResult<f64> {
        let d = parse_name::<Dimension>(dimension)?;
        Ok(self.live()?.held(d) as f64)
    }

    /// Settles against the usage the provider reported (the JSON module reads it from a response body).
    pub fn settle(&mut self, input_tokens: f64, output_tokens: f64, now: f64) -> JsResult<String> {
        self.live()?;
        let now = ms("now", now)?;
        let usage = Usage {
            input_tokens: ms("input_tokens", input_tokens)?,
            output_tokens: ms("output_tokens", output_tokens)?,
        };
        match self.inner.take() {
            Some(r) => to_json(&r.settle(usage, now)),
            None => Err(err("this reservation was already settled or released")),
        }
    }

    /// Gives everything back (the request failed before the provider counted it).
    pub fn release(&mut self) -> JsResult<()> {
        match self.inner.take() {
            Some(r) => {
                r.release();
                Ok(())
            }
            None => Err(err("this reservation was already settled or released")),
        }
    }

    /// Whether it is still held.
    #[wasm_bindgen(getter)]
    pub fn held_now(&self) -> bool {
        self.inner.is_some()
    }
}

/// A FIFO admission queue bounded in milliseconds of work. Items are the caller's numeric ids.
#[wasm_bindgen]
pub struct AdmissionQueue {
    inner: CoreQueue<u32>,
}

#[derive(Serialize)]
#[serde(tag = "offer", rename_all = "snake_case")]
enum OfferOut<'a> {
    Admitted { check: CheckOut<'a> },
    Queued { eta_ms: u64, position: usize },
    Shed(llm_preflight::Shed),
}

#[derive(Serialize)]
struct ShedOut {
    id: u32,
    #[serde(flatten)]
    shed: llm_preflight::Shed,
}

#[derive(Serialize)]
struct PollOut {
    admitted: Vec<u32>,
    shed: Vec<ShedOut>,
    wake_at_ms: Option<u64>,
}

#[wasm_bindgen]
impl AdmissionQueue {
    /// A queue admitting against `ledger` under `policy`, holding at most `max_work_ms` of work.
    #[wasm_bindgen(constructor)]
    pub fn new(
        ledger: &Ledger,
        policy: Option<String>,
        max_work_ms: f64,
    ) -> JsResult<AdmissionQueue> {
        Ok(AdmissionQueue {
            inner: CoreQueue::new(
                ledger.inner.clone(),
                policy_of(policy.as_deref())?,
                ms("max_work_ms", max_work_ms)?,
            ),
        })
    }

    /// Offers request `id` with its cost, to start by `deadline` (same clock as `now`).
    pub fn offer(&mut self, id: u32, cost: &[f64], deadline: f64, now: f64) -> JsResult<Outcome> {
        let cost = cost_of(cost)?;
        let (deadline, now) = (ms("deadline", deadline)?, ms("now", now)?);
        let state = self.inner.ledger().snapshot();
        Ok(match self.inner.offer(id, cost, deadline, now) {
            Offer::Admitted { reservation, .. } => Outcome {
                json: to_json(&OfferOut::Admitted {
                    check: check_out(
                        reservation.check(),
                        reservation.check().summary(&state),
                        None,
                    ),
                })?,
                reservations: vec![reservation],
            },
            Offer::Queued { eta_ms, position } => Outcome {
                json: to_json(&OfferOut::Queued { eta_ms, position })?,
                reservations: Vec::new(),
            },
            Offer::Shed { shed, .. } => Outcome {
                json: to_json(&OfferOut::Shed(shed))?,
                reservations: Vec::new(),
            },
        })
    }

    /// What is due at `now`: admitted ids (with their reservations, in order), shed ones, when to wake next.
    pub fn poll(&mut self, now: f64) -> JsResult<Outcome> {
        let p = self.inner.poll(ms("now", now)?);
        let mut ids = Vec::with_capacity(p.admitted.len());
        let mut reservations = Vec::with_capacity(p.admitted.len());
        for (id, r) in p.admitted {
            ids.push(id);
            reservations.push(r);
        }
        let out = PollOut {
            admitted: ids,
            shed: p
                .shed
                .into_iter()
                .map(|(id, shed)| ShedOut { id, shed })
                .collect(),
            wake_at_ms: p.wake_at_ms,
        };
        Ok(Outcome {
            json: to_json(&out)?,
            reservations,
        })
    }

    /// Requests waiting.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.inner.len()
    }
}

// -------------------------------------------------------------------------------------------------------------
// The guarded call.

/// The guard: targets in preference order, each a name, a provider, an API shape (`""`: any), a model to write
/// into the body (`""`: keep it) and its limits in [`LIMITS`] order (seven numbers per target, flattened).
#[wasm_bindgen]
pub struct Guard {
    inner: llm_preflight::Guard,
}

#[wasm_bindgen]
impl Guard {
    /// A guard over the targets, admitting at `policy`'s end of the band with queues bounded to `max_queue_ms`
    /// of work.
    #[wasm_bindgen(constructor)]
    pub fn new(
        names: Vec<String>,
        providers: Vec<String>,
        apis: Vec<String>,
        models: Vec<String>,
        limits: &[f64],
        policy: Option<String>,
        max_queue_ms: f64,
    ) -> JsResult<Guard> {
        let n = names.len();
        if providers.len() != n || apis.len() != n || models.len() != n || limits.len() != n * 7 {
            return Err(err(
                "every target needs a name, a provider, an API, a model and 7 limits",
            ));
        }
        let mut targets = Vec::with_capacity(n);
        for i in 0..n {
            let mut t = llm_preflight::Target::new(
                &names[i],
                budget(Some(&providers[i]), &limits[i * 7..i * 7 + 7])?,
            );
            if !apis[i].is_empty() {
                t.api = Some(parse_name(&apis[i])?);
            }
            if !models[i].is_empty() {
                t.model = Some(models[i].clone());
            }
            targets.push(t);
        }
        let config = llm_preflight::GuardConfig {
            policy: policy_of(policy.as_deref())?,
            max_queue_work_ms: ms("max_queue_ms", max_queue_ms)?,
            ..llm_preflight::GuardConfig::default()
        };
        Ok(Guard {
            inner: llm_preflight::Guard::new(targets, config).map_err(err)?,
        })
    }

    /// A call for the request body `body` that must start by `deadline`, addressed to target `first` (tried
    /// first; only the targets after it are fallen back to).
    pub fn start(&self, body: &str, first: u32, deadline: f64, now: f64) -> JsResult<Call> {
        Ok(Call {
            inner: self.inner.start_from(
                body,
                first as usize,
                ms("deadline", deadline)?,
                ms("now", now)?,
            ),
        })
    }

    /// Tokens held by reservations in flight, over every target.
    #[wasm_bindgen(js_name = heldTokens)]
    pub fn held_tokens(&self) -> f64 {
        self.inner.held_tokens() as f64
    }

    /// Reservations in flight, over every target.
    #[wasm_bindgen(js_name = inFlight)]
    pub fn in_flight(&self) -> f64 {
        self.inner.in_flight() as f64
    }

    /// What was learned of target `t`'s counting: `{"answers", "ratio"}` as JSON (`null` past the last target).
    pub fn learned(&self, t: f64) -> JsResult<String> {
        let t = ms("target", t)? as usize;
        to_json(
            &self
                .inner
                .learned(t)
                .map(|(answers, ratio)| serde_json::json!({"answers": answers, "ratio": ratio})),
        )
    }
}

/// One request's path through a [`Guard`]: the wrapper polls it and feeds it what happened.
#[wasm_bindgen]
pub struct Call {
    inner: llm_preflight::Call,
}

#[wasm_bindgen]
impl Call {
    /// What to do next, as JSON: `{"step": "send", "target", "name", "body"}`, `{"step": "wait", "until_ms"}`,
    /// `{"step": "awaiting"}`, `{"step": "answer", "status", "headers": [[name, value], ...], "body"}` or
    /// `{"step": "done", "end", "status", "reason", "attempts"}`.
    pub fn poll(&mut self, now: f64) -> JsResult<String> {
        use llm_preflight::Step;
        let v = match self.inner.poll(ms("now", now)?) {
            Step::Send { target, name, body } => {
                serde_json::json!({"step": "send", "target": target, "name": name, "body": body})
            }
            Step::Wait { until_ms } => serde_json::json!({"step": "wait", "until_ms": until_ms}),
            Step::Awaiting => serde_json::json!({"step": "awaiting"}),
            Step::Answer(a) => serde_json::json!({"step": "answer", "status": a.status,
                "headers": a.headers, "body": a.body}),
            Step::Done(o) => serde_json::json!({"step": "done", "end": o.end, "status": o.status,
                "reason": o.reason, "attempts": o.attempts, "target": o.target}),
        };
        to_json(&v)
    }

    /// The response's status and headers (`[name, value, ...]`): `pass_through` (write the body to the client as
    /// it comes, feeding it here too), `hold` (keep it from the client, feed it here) or `ignore`.
    #[wasm_bindgen(js_name = onResponse)]
    pub fn on_response(&mut self, status: u16, headers: Vec<String>, now: f64) -> JsResult<String> {
        let d = self
            .inner
            .on_response(status, pairs(&headers), ms("now", now)?);
        Ok(match d {
            llm_preflight::Disposition::PassThrough => "pass_through",
            llm_preflight::Disposition::Hold => "hold",
            llm_preflight::Disposition::Ignore => "ignore",
        }
        .into())
    }

    /// A piece of the response body.
    #[wasm_bindgen(js_name = onBody)]
    pub fn on_body(&mut self, chunk: &[u8], now: f64) -> JsResult<()> {
        self.inner.on_body(chunk, ms("now", now)?);
        Ok(())
    }

    /// The response body ended; `random` is a draw in `[0, 1)` for a retry's jitter.
    #[wasm_bindgen(js_name = onEnd)]
    pub fn on_end(&mut self, now: f64, random: f64) -> JsResult<()> {
        if !(0.0..1.0).contains(&random) {
            return Err(err(format!(
                "random must be a number in [0, 1), got {}",
                js_string(random)
            )));
        }
        self.inner.on_end(ms("now", now)?, random);
        Ok(())
    }

    /// Nothing came back (a network error, a timeout).
    #[wasm_bindgen(js_name = onTransportError)]
    pub fn on_transport_error(&mut self, now: f64) -> JsResult<()> {
        self.inner.on_transport_error(ms("now", now)?);
        Ok(())
    }

    /// The client went away: whatever the call holds is given back.
    #[wasm_bindgen(js_name = onClientGone)]
    pub fn on_client_gone(&mut self, now: f64) -> JsResult<()> {
        self.inner.on_client_gone(ms("now", now)?);
        Ok(())
    }

    /// What happened since the last call of this, as JSON: `[[at_ms, {"event": ...}], ...]`.
    #[wasm_bindgen(js_name = takeEvents)]
    pub fn take_events(&mut self) -> JsResult<String> {
        to_json(&self.inner.take_events())
    }

    /// The request's cost as target `t` counts it (JSON, `null` for a target of another API).
    pub fn cost(&self, t: f64) -> JsResult<String> {
        to_json(&self.inner.cost(ms("target", t)? as usize))
    }
}
