//! WebAssembly bindings of `llm-preflight` for the npm package `llm-preflight`.
//!
//! This layer only converts types: JavaScript hands over strings, numbers and JSON text (options, headers as
//! `[name, value]` pairs, request and response bodies); every decision is made by the core crate; results go back
//! as JSON text whose field names are the CLI's. The thin JavaScript wrappers in `pkg/*.js` parse it.
//!
//! Nothing here panics on bad input: every conversion returns a `JsError` (a thrown `Error` in JavaScript) with a
//! message saying what was wrong, so one bad call never poisons the instance. Time (`now`) and the random draw are
//! parameters, defaulted to `Date.now()` and `Math.random()` by the JavaScript wrappers.

#![forbid(unsafe_code)]

use llm_preflight::headers::{parse_duration_ms, RateLimitSnapshot};
use llm_preflight::preflight::{
    self, count_from_f64, estimate_request, AdmissionQueue as CoreQueue, Api, Band, Budget, Check,
    Cost, Dimension, Ledger as CoreLedger, Observation, Observed, Offer, Policy, Provider,
    Reservation as CoreReservation, State, Usage, Verdict,
};
use llm_preflight::refusal::{self, Refusal, RefusalKind};
use llm_preflight::retry;
use llm_preflight::{Estimate, Estimator as CoreEstimator, MixPart, Profile};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use wasm_bindgen::prelude::*;

type JsResult<T> = Result<T, JsError>;

fn err(msg: impl std::fmt::Display) -> JsError {
    JsError::new(&msg.to_string())
}

fn to_json<T: Serialize>(v: &T) -> JsResult<String> {
    serde_json::to_string(v).map_err(err)
}

/// Parses an options object (JSON text made by the wrapper) into `T`, naming the call in the message.
fn opts<'a, T: Deserialize<'a>>(what: &str, json: &'a str) -> JsResult<T> {
    serde_json::from_str(json).map_err(|e| err(format_args!("{what}: {e}")))
}

/// A time or count from JavaScript: a whole number of at least 0.
fn ms(what: &str, v: f64) -> JsResult<u64> {
    count_from_f64(what, v).map_err(err)
}

#[wasm_bindgen(start)]
fn start() {
    #[cfg(feature = "debug-panics")]
    console_error_panic_hook::set_once();
}

// -------------------------------------------------------------------------------------------------------------
// Names.

fn profile_of(profile: Option<&str>, model: Option<&str>) -> JsResult<Option<Profile>> {
    match (profile, model) {
        (Some(_), Some(_)) => Err(err("give either `profile` or `model`, not both")),
        (Some(p), None) => Profile::from_name(p).map(Some).map_err(err),
        (None, Some(m)) => Profile::for_model(m).map(Some).map_err(err),
        (None, None) => Ok(None),
    }
}

fn dimension_of(name: &str) -> JsResult<Dimension> {
    let all = Dimension::RATES.into_iter().chain([Dimension::Context]);
    all.into_iter().find(|d| d.name() == name).ok_or_else(|| {
        err(format_args!(
            "unknown dimension {name:?}: the dimensions are tokens, input_tokens, output_tokens, requests, tokens_per_day, requests_per_day, context"
        ))
    })
}

fn provider_of(name: &str) -> JsResult<Provider> {
    Provider::ALL.into_iter().find(|p| p.name() == name).ok_or_else(|| {
        err(format_args!(
            "unknown provider {name:?}: the providers are open_ai, azure_open_ai, groq, cerebras, anthropic, gemini, open_ai_compatible"
        ))
    })
}

fn api_of(name: &str) -> JsResult<Api> {
    match name {
        "open_ai_chat" => Ok(Api::OpenAiChat),
        "open_ai_responses" => Ok(Api::OpenAiResponses),
        "anthropic_messages" => Ok(Api::AnthropicMessages),
        "gemini_generate_content" => Ok(Api::GeminiGenerateContent),
        _ => Err(err(format_args!(
            "unknown api {name:?}: the APIs are open_ai_chat, open_ai_responses, anthropic_messages, gemini_generate_content"
        ))),
    }
}

fn policy_of(name: Option<&str>) -> JsResult<Policy> {
    name.map_or(Ok(Policy::Median), |p| Policy::from_name(p).map_err(err))
}

// -------------------------------------------------------------------------------------------------------------
// Estimates.

/// The CLI's estimate line (without `source`), plus the content mix.
#[derive(Serialize)]
struct EstimateOut<'a> {
    tokens: u64,
    low: u64,
    high: u64,
    chars: u64,
    content: &'static str,
    profile: &'static str,
    mix: &'a [MixPart],
}

impl<'a> From<&'a Estimate> for EstimateOut<'a> {
    fn from(e: &'a Estimate) -> Self {
        EstimateOut {
            tokens: e.tokens,
            low: e.low,
            high: e.high,
            chars: e.chars,
            content: e.content.kind.name(),
            profile: e.profile.name(),
            mix: &e.content.mix,
        }
    }
}

/// Estimates one text. `profile` or `model` picks the profile (o200k when neither).
#[wasm_bindgen]
pub fn estimate(text: &str, profile: Option<String>, model: Option<String>) -> JsResult<String> {
    let p = profile_of(profile.as_deref(), model.as_deref())?.unwrap_or_default();
    to_json(&EstimateOut::from(&llm_preflight::estimate(text, p)))
}

/// Streaming estimation, for texts fed in pieces (the wrapper feeds very long strings this way, so memory stays
/// bounded).
#[wasm_bindgen]
pub struct Estimator {
    inner: CoreEstimator,
}

#[wasm_bindgen]
impl Estimator {
    /// An estimator for `profile` or `model`.
    #[wasm_bindgen(constructor)]
    pub fn new(profile: Option<String>, model: Option<String>) -> JsResult<Estimator> {
        let p = profile_of(profile.as_deref(), model.as_deref())?.unwrap_or_default();
        Ok(Estimator {
            inner: CoreEstimator::new(p),
        })
    }

    /// Adds a piece of text.
    pub fn update(&mut self, text: &str) {
        self.inner.update(text);
    }

    /// Adds raw bytes (a UTF-8 sequence may be split across calls).
    #[wasm_bindgen(js_name = updateBytes)]
    pub fn update_bytes(&mut self, bytes: &[u8]) {
        self.inner.update_bytes(bytes);
    }

    /// The estimate so far, as JSON.
    pub fn finish(&self) -> JsResult<String> {
        to_json(&EstimateOut::from(&self.inner.finish()))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RequestOpts {
    profile: Option<String>,
    model: Option<String>,
    api: Option<String>,
}

#[derive(Serialize)]
struct RequestOut<'a> {
    api: Api,
    model: Option<&'a str>,
    estimate: EstimateOut<'a>,
    overhead_tokens: u64,
    media_tokens: u64,
    max_output: Option<u64>,
    messages: u64,
    tools: u64,
    incomplete: bool,
    unpriced: &'a [String],
}

/// Estimates a request body (JSON text): OpenAI chat or Responses, Anthropic Messages, Gemini generateContent.
#[wasm_bindgen(js_name = estimateRequest)]
pub fn estimate_request_json(body: &str, options: &str) -> JsResult<String> {
    let o: RequestOpts = opts("estimateRequest options", options)?;
    let p = profile_of(o.profile.as_deref(), o.model.as_deref())?;
    let api = o.api.as_deref().map(api_of).transpose()?;
    let r = estimate_request(body, api, p).map_err(err)?;
    to_json(&RequestOut {
        api: r.api,
        model: r.model.as_deref(),
        estimate: EstimateOut::from(&r.estimate),
        overhead_tokens: r.overhead_tokens,
        media_tokens: r.media_tokens,
        max_output: r.max_output,
        messages: r.messages,
        tools: r.tools,
        incomplete: r.incomplete,
        unpriced: &r.unpriced,
    })
}

/// The tokenizer profiles, as `llm-preflight profiles` lists them.
#[wasm_bindgen]
pub fn profiles() -> JsResult<String> {
    #[derive(Serialize)]
    struct P {
        profile: &'static str,
        description: &'static str,
    }
    let v: Vec<P> = Profile::ALL
        .into_iter()
        .map(|p| P {
            profile: p.name(),
            description: p.description(),
        })
        .collect();
    to_json(&v)
}

// -------------------------------------------------------------------------------------------------------------
// Budgets, checks, the ledger and the queue.

/// A key's limits, by the CLI's flag names. Absent means no limit.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct BudgetOpts {
    provider: Option<String>,
    tpm: Option<f64>,
    rpm: Option<f64>,
    itpm: Option<f64>,
    otpm: Option<f64>,
    tpd: Option<f64>,
    rpd: Option<f64>,
    context_window: Option<f64>,
}

impl BudgetOpts {
    fn budget(&self) -> JsResult<Budget> {
        let provider = match &self.provider {
            Some(p) => provider_of(p)?,
            None => Provider::OpenAiCompatible,
        };
        let mut b = Budget::new(provider);
        let limits = [
            (Dimension::Tokens, self.tpm),
            (Dimension::Requests, self.rpm),
            (Dimension::InputTokens, self.itpm),
            (Dimension::OutputTokens, self.otpm),
            (Dimension::TokensPerDay, self.tpd),
            (Dimension::RequestsPerDay, self.rpd),
            (Dimension::Context, self.context_window),
        ];
        for (d, v) in limits {
            if let Some(v) = v {
                b = b.try_with(d, v).map_err(err)?;
            }
        }
        Ok(b)
    }
}

/// A cost as the wrapper normalizes it: the prompt band, the output cap, whether it is a lower bound.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CostIn {
    low: f64,
    tokens: f64,
    high: f64,
    max_output: Option<f64>,
    #[serde(default)]
    incomplete: bool,
}

impl CostIn {
    fn parse(json: &str) -> JsResult<Cost> {
        let c: CostIn = opts("cost", json)?;
        let (low, tokens, high) = (
            ms("cost low", c.low)?,
            ms("cost tokens", c.tokens)?,
            ms("cost high", c.high)?,
        );
        if low > tokens || tokens > high {
            return Err(err(format_args!(
                "cost band must satisfy low <= tokens <= high, got {low} <= {tokens} <= {high}"
            )));
        }
        Ok(Cost {
            input: Band { low, tokens, high },
            max_output: c.max_output.map(|m| ms("max_output", m)).transpose()?,
            incomplete: c.incomplete,
        })
    }
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
    at_low: preflight::VerdictKind,
    at_high: preflight::VerdictKind,
    holds_across_band: bool,
    incomplete: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    estimate: Option<EstimateOut<'a>>,
}

fn check_out<'a>(c: &Check, state: &State, estimate: Option<&'a Estimate>) -> CheckOut<'a> {
    let limit_of = |d: Dimension| state.bucket(d).map(|b| b.limit);
    let (verdict, wait_ms, dimension, limit, excess) = match c.verdict {
        Verdict::Sendable => ("sendable", Some(0), None, limit_of(Dimension::Tokens), None),
        Verdict::Queueable { wait_ms, dimension } => (
            "queueable",
            Some(wait_ms),
            Some(dimension.name()),
            limit_of(dimension),
            None,
        ),
        Verdict::NeverSendable {
            dimension,
            limit,
            excess,
            ..
        } => (
            "never_sendable",
            None,
            Some(dimension.name()),
            Some(limit),
            Some(excess),
        ),
    };
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

/// Headers as the wrapper hands them over: `[[name, value], ...]`.
fn pairs(what: &str, json: &str) -> JsResult<Vec<(String, String)>> {
    opts(what, json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckOpts {
    provider: Option<String>,
    tpm: Option<f64>,
    rpm: Option<f64>,
    itpm: Option<f64>,
    otpm: Option<f64>,
    tpd: Option<f64>,
    rpd: Option<f64>,
    context_window: Option<f64>,
    profile: Option<String>,
    model: Option<String>,
    api: Option<String>,
    remaining_tokens: Option<f64>,
    remaining_requests: Option<f64>,
    reset_tokens: Option<String>,
    reset_requests: Option<String>,
    headers: Option<Vec<(String, String)>>,
    max_tokens: Option<f64>,
    policy: Option<String>,
}

/// `llm-preflight check` for one prompt (or, with `is_request`, one request body) at `now`.
#[wasm_bindgen]
pub fn check(input: &str, is_request: bool, options: &str, now: f64) -> JsResult<String> {
    let o: CheckOpts = opts("check options", options)?;
    let now = ms("now", now)?;
    let budget = BudgetOpts {
        provider: o.provider,
        tpm: o.tpm,
        rpm: o.rpm,
        itpm: o.itpm,
        otpm: o.otpm,
        tpd: o.tpd,
        rpd: o.rpd,
        context_window: o.context_window,
    }
    .budget()?;
    let chosen = profile_of(o.profile.as_deref(), o.model.as_deref())?;
    let duration = |what: &str, v: &Option<String>| -> JsResult<Option<u64>> {
        v.as_deref()
            .map(|s| parse_duration_ms(s).map_err(|e| err(format_args!("{what} {s:?}: {e}"))))
            .transpose()
    };
    let reset_tokens = duration("reset_tokens", &o.reset_tokens)?;
    let reset_requests = duration("reset_requests", &o.reset_requests)?;
    let count = |what: &str, v: Option<f64>| v.map(|x| ms(what, x)).transpose();
    let mut state = State::new(budget, now);
    if let Some(h) = &o.headers {
        let parsed = RateLimitSnapshot::from_headers(h.iter().map(|(n, v)| (n, v)), now);
        if let Some(bad) = parsed.malformed.first() {
            return Err(err(bad));
        }
        state.observe(&Observation::from(&parsed.snapshot), now);
    }
    let flags = Observation {
        tokens: Observed {
            limit: None,
            remaining: count("remaining_tokens", o.remaining_tokens)?,
            reset_ms: reset_tokens,
        },
        requests: Observed {
            limit: None,
            remaining: count("remaining_requests", o.remaining_requests)?,
            reset_ms: reset_requests,
        },
        ..Observation::default()
    };
    state.observe(&flags, now);
    let (est, mut cost) = if is_request {
        let api = o.api.as_deref().map(api_of).transpose()?;
        let r = estimate_request(input, api, chosen).map_err(err)?;
        (r.estimate.clone(), r.cost())
    } else {
        let e = llm_preflight::estimate(input, chosen.unwrap_or_default());
        let c = Cost::estimated(&e);
        (e, c)
    };
    if let Some(m) = count("max_tokens", o.max_tokens)? {
        cost.max_output = Some(m);
    }
    let policy = policy_of(o.policy.as_deref())?;
    let c = state.check(&cost, policy, now);
    to_json(&check_out(&c, &state, Some(&est)))
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

fn parse_headers(h: &[(String, String)], now: u64) -> (RateLimitSnapshot, HeadersOut) {
    let parsed = RateLimitSnapshot::from_headers(h.iter().map(|(n, v)| (n, v)), now);
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

/// Reads rate-limit headers (`[[name, value], ...]`) at `now`.
#[wasm_bindgen(js_name = parseRateLimitHeaders)]
pub fn parse_rate_limit_headers(headers: &str, now: f64) -> JsResult<String> {
    let h = pairs("headers", headers)?;
    to_json(&parse_headers(&h, ms("now", now)?).1)
}

/// One key's budget with the reservations in flight.
#[wasm_bindgen]
pub struct Ledger {
    inner: CoreLedger,
}

#[wasm_bindgen]
impl Ledger {
    /// A ledger with full buckets at `now`. `budget` is `{provider, tpm, rpm, itpm, otpm, tpd, rpd, context_window}`.
    #[wasm_bindgen(constructor)]
    pub fn new(budget: &str, now: f64) -> JsResult<Ledger> {
        let b: BudgetOpts = opts("Ledger budget", budget)?;
        let state = State::new(b.budget()?, ms("now", now)?);
        Ok(Ledger {
            inner: CoreLedger::new(state),
        })
    }

    /// The verdict for a cost at `now`, reserving nothing.
    pub fn check(&self, cost: &str, policy: Option<String>, now: f64) -> JsResult<String> {
        let cost = CostIn::parse(cost)?;
        let policy = policy_of(policy.as_deref())?;
        let c = self.inner.check(&cost, policy, ms("now", now)?);
        to_json(&check_out(&c, &self.inner.snapshot(), None))
    }

    /// Reserves a cost if it fits now.
    #[wasm_bindgen(js_name = tryReserve)]
    pub fn try_reserve(&self, cost: &str, policy: Option<String>, now: f64) -> JsResult<Outcome> {
        let cost = CostIn::parse(cost)?;
        let policy = policy_of(policy.as_deref())?;
        let now = ms("now", now)?;
        Ok(match self.inner.try_reserve(&cost, policy, now) {
            Ok(r) => Outcome {
                json: to_json(&check_out(r.check(), &self.inner.snapshot(), None))?,
                reservations: vec![r],
            },
            Err(refused) => Outcome {
                json: to_json(&refused)?,
                reservations: Vec::new(),
            },
        })
    }

    /// Applies a response's headers (`[[name, value], ...]`) at `now`; returns what they said.
    pub fn observe(&self, headers: &str, now: f64) -> JsResult<String> {
        let h = pairs("headers", headers)?;
        let now = ms("now", now)?;
        let (snap, out) = parse_headers(&h, now);
        self.inner.observe(&Observation::from(&snap), now);
        to_json(&out)
    }

    /// Reservations outstanding.
    #[wasm_bindgen(js_name = inFlight)]
    pub fn in_flight(&self) -> f64 {
        self.inner.in_flight() as f64
    }

    /// Tokens held by outstanding reservations in one dimension.
    pub fn held(&self, dimension: &str) -> JsResult<f64> {
        Ok(self.inner.held(dimension_of(dimension)?) as f64)
    }

    /// What one bucket holds at `now` (`undefined` when the budget does not limit that dimension).
    pub fn available(&self, dimension: &str, now: f64) -> JsResult<Option<f64>> {
        Ok(self
            .inner
            .available(dimension_of(dimension)?, ms("now", now)?))
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UsageIn {
    input_tokens: f64,
    output_tokens: f64,
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
        let d = dimension_of(dimension)?;
        Ok(self.live()?.held(d) as f64)
    }

    /// Settles against usage: `{input_tokens, output_tokens}`, or a whole response body with a usage block.
    pub fn settle(&mut self, usage: &str, now: f64) -> JsResult<String> {
        self.live()?;
        let now = ms("now", now)?;
        let v: Value = opts("usage", usage)?;
        let usage = if v.get("usage").is_some() || v.get("usageMetadata").is_some() {
            Usage::from_response(&v)
                .map_err(err)?
                .ok_or_else(|| err("the response has no usage block"))?
        } else {
            let u: UsageIn = serde_json::from_value(v).map_err(|e| {
                err(format_args!(
                    "usage must be {{input_tokens, output_tokens}} or a response body with a usage block: {e}"
                ))
            })?;
            Usage {
                input_tokens: ms("input_tokens", u.input_tokens)?,
                output_tokens: ms("output_tokens", u.output_tokens)?,
            }
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
enum OfferOut {
    Admitted { check: Value },
    Queued { eta_ms: u64, position: usize },
    Shed(preflight::Shed),
}

#[derive(Serialize)]
struct ShedOut {
    id: u32,
    #[serde(flatten)]
    shed: preflight::Shed,
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
    pub fn offer(&mut self, id: u32, cost: &str, deadline: f64, now: f64) -> JsResult<Outcome> {
        let cost = CostIn::parse(cost)?;
        let (deadline, now) = (ms("deadline", deadline)?, ms("now", now)?);
        let state = self.inner.ledger().snapshot();
        Ok(match self.inner.offer(id, cost, deadline, now) {
            Offer::Admitted { reservation, .. } => {
                let check = serde_json::to_value(check_out(reservation.check(), &state, None))
                    .map_err(err)?;
                Outcome {
                    json: to_json(&OfferOut::Admitted { check })?,
                    reservations: vec![reservation],
                }
            }
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
// Refusals and retries.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResponseIn {
    status: Option<f64>,
    #[serde(default)]
    headers: Vec<(String, String)>,
    #[serde(default)]
    body: String,
}

fn status_of(s: Option<f64>) -> JsResult<Option<u16>> {
    match s {
        None => Ok(None),
        Some(x) if x.fract() == 0.0 && (100.0..=999.0).contains(&x) => Ok(Some(x as u16)),
        Some(x) => Err(err(format_args!(
            "status must be an HTTP status code (100-999) or null, got {x}"
        ))),
    }
}

/// Classifies a response `{status, headers: [[name, value]], body}` at `now`.
#[wasm_bindgen(js_name = classifyResponse)]
pub fn classify_response(response: &str, now: f64) -> JsResult<String> {
    let r: ResponseIn = opts("response", response)?;
    let status = status_of(r.status)?;
    let now = ms("now", now)?;
    to_json(&refusal::classify(status, r.headers, &r.body, now))
}

/// Looks for an error frame in streamed text; `null` when there is none, else the classified refusal.
#[wasm_bindgen(js_name = classifyStreamChunk)]
pub fn classify_stream_chunk(chunk: &str, response: &str, now: f64) -> JsResult<String> {
    let r: ResponseIn = opts("stream response", response)?;
    if !r.body.is_empty() {
        return Err(err(
            "classifyStreamChunk: give the stream text as the first argument, not `body`",
        ));
    }
    let status = status_of(r.status)?;
    let now = ms("now", now)?;
    match refusal::find_stream_error(chunk) {
        None => Ok("null".into()),
        Some(se) => {
            // A stream that started with 200 carries its real status inside the error frame.
            let mut out =
                refusal::classify(status.filter(|s| *s != 200), r.headers, &se.payload, now);
            out.output_delivered = se.output_delivered;
            to_json(&out)
        }
    }
}

/// `llm-preflight explain-response`: the same input JSON, the same output.
#[wasm_bindgen(js_name = explainResponse)]
pub fn explain_response(input: &str) -> JsResult<String> {
    to_json(&refusal::explain(input).map_err(err)?)
}

/// A refusal as `classifyResponse` returned it.
#[derive(Deserialize)]
struct RefusalIn {
    kind: RefusalKind,
    retryable: bool,
    retry_after_ms: Option<f64>,
    limit: Option<f64>,
    requested: Option<f64>,
    used: Option<f64>,
    dimension: Option<refusal::Dimension>,
    window: Option<refusal::Window>,
    status: Option<f64>,
    message: Option<String>,
    #[serde(default)]
    output_delivered: bool,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RetryOpts {
    attempt: Option<f64>,
    base_ms: Option<f64>,
    cap_ms: Option<f64>,
    max_attempts: Option<f64>,
    max_overloaded_attempts: Option<f64>,
    deadline_ms: Option<f64>,
    idempotency_key: Option<bool>,
    side_effects_ran: Option<bool>,
}

fn small(what: &str, v: f64) -> JsResult<u32> {
    let n = ms(what, v)?;
    u32::try_from(n).map_err(|_| err(format_args!("{what} {n} is too large")))
}

/// The next move after a refusal at `now`, with the uniform draw `random` in [0, 1).
#[wasm_bindgen(js_name = nextAction)]
pub fn next_action(refusal: &str, options: &str, now: f64, random: f64) -> JsResult<String> {
    let r: RefusalIn = opts("refusal", refusal)?;
    let o: RetryOpts = opts("nextAction options", options)?;
    if !(0.0..=1.0).contains(&random) {
        return Err(err(format_args!(
            "random must be a number in [0, 1), got {random}"
        )));
    }
    let opt = |what: &str, v: Option<f64>| v.map(|x| ms(what, x)).transpose();
    let d = retry::Budget::default();
    let budget = retry::Budget {
        base_ms: opt("base_ms", o.base_ms)?.unwrap_or(d.base_ms),
        cap_ms: opt("cap_ms", o.cap_ms)?.unwrap_or(d.cap_ms),
        max_attempts: o
            .max_attempts
            .map(|x| small("max_attempts", x))
            .transpose()?
            .unwrap_or(d.max_attempts),
        max_overloaded_attempts: o
            .max_overloaded_attempts
            .map(|x| small("max_overloaded_attempts", x))
            .transpose()?
            .unwrap_or(d.max_overloaded_attempts),
        deadline_ms: opt("deadline_ms", o.deadline_ms)?,
        idempotency_key: o.idempotency_key.unwrap_or(false),
        side_effects_ran: o.side_effects_ran.unwrap_or(false),
    };
    let attempt = o
        .attempt
        .map(|x| small("attempt", x))
        .transpose()?
        .unwrap_or(0);
    let refusal = Refusal {
        kind: r.kind,
        retryable: r.retryable,
        retry_after_ms: opt("retry_after_ms", r.retry_after_ms)?,
        limit: opt("limit", r.limit)?,
        requested: opt("requested", r.requested)?,
        used: opt("used", r.used)?,
        dimension: r.dimension,
        window: r.window,
        status: status_of(r.status)?,
        message: r.message,
        output_delivered: r.output_delivered,
    };
    to_json(&retry::next_action(
        &refusal,
        attempt,
        &budget,
        ms("now", now)?,
        random,
    ))
}
