//! The JSON module's exports (`--features json`): everything that parses JSON (request bodies, responses,
//! refusals, usage blocks). The JavaScript wrapper loads this module on first use of one of them.

use crate::{err, ms, parse_name, profile_of, EstimateOut, JsResult};
use llm_preflight::{
    estimate_request, estimate_request_priced, Api, CustomProfile, Estimate,
    Estimator as CoreEstimator, Profile, Refusal, RefusalKind, RetryPolicy, Usage,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use wasm_bindgen::prelude::*;

fn to_json<T: Serialize>(v: &T) -> JsResult<String> {
    serde_json::to_string(v).map_err(err)
}

/// Parses an options object (JSON text made by the wrapper) into `T`, naming the call in the message.
fn opts<'a, T: Deserialize<'a>>(what: &str, json: &'a str) -> JsResult<T> {
    serde_json::from_str(json).map_err(|e| err(format_args!("{what}: {e}")))
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
    token_ids: u64,
    max_output: Option<u64>,
    messages: u64,
    tools: u64,
    incomplete: bool,
    unpriced: &'a [String],
    media: &'a [llm_preflight::MediaPart],
}

fn request(
    body: &str,
    options: &str,
    loaded: Option<&CustomProfile>,
) -> JsResult<llm_preflight::RequestEstimate> {
    let o: RequestOpts = opts("estimateRequest options", options)?;
    let p = profile_of(o.profile.as_deref(), o.model.as_deref())?;
    let api = o.api.as_deref().map(parse_name::<Api>).transpose()?;
    match loaded {
        None => estimate_request(body, api, p).map_err(err),
        Some(c) => {
            let v: Value = serde_json::from_str(body)
                .map_err(|e| err(llm_preflight::PreflightError::NotJson(e.to_string())))?;
            estimate_request_priced(&v, api, Some(c.tables())).map_err(err)
        }
    }
}

/// The profile name an estimate is reported under: the loaded profile's, else the estimate's own.
fn name_of<'a>(e: &'a Estimate, loaded: Option<&'a CustomProfile>) -> EstimateOut<'a> {
    match loaded {
        Some(c) => EstimateOut::named(e, c.name()),
        None => EstimateOut::from(e),
    }
}

/// Estimates a request body (JSON text): OpenAI chat or Responses, Anthropic Messages, Gemini generateContent,
/// Bedrock Converse, legacy completions, embeddings.
#[wasm_bindgen(js_name = estimateRequest)]
pub fn estimate_request_json(body: &str, options: &str) -> JsResult<String> {
    request_out(body, options, None)
}

fn request_out(body: &str, options: &str, loaded: Option<&CustomProfile>) -> JsResult<String> {
    let r = request(body, options, loaded)?;
    to_json(&RequestOut {
        api: r.api,
        model: r.model.as_deref(),
        estimate: name_of(&r.estimate, loaded),
        overhead_tokens: r.overhead_tokens,
        media_tokens: r.media_tokens,
        token_ids: r.token_ids,
        max_output: r.max_output,
        messages: r.messages,
        tools: r.tools,
        incomplete: r.incomplete,
        unpriced: &r.unpriced,
        media: &r.media,
    })
}

/// What `check` needs of a request body: its estimate and its cost, for the core module's `check`.
#[wasm_bindgen(js_name = requestCost)]
pub fn request_cost(body: &str, options: &str) -> JsResult<String> {
    request_cost_out(body, options, None)
}

fn request_cost_out(body: &str, options: &str, loaded: Option<&CustomProfile>) -> JsResult<String> {
    #[derive(Serialize)]
    struct Out<'a> {
        estimate: EstimateOut<'a>,
        low: u64,
        tokens: u64,
        high: u64,
        max_output: Option<u64>,
        incomplete: bool,
        unpriced: &'a [String],
        media: &'a [llm_preflight::MediaPart],
    }
    let r = request(body, options, loaded)?;
    let c = r.cost();
    to_json(&Out {
        estimate: name_of(&r.estimate, loaded),
        low: c.input.low,
        tokens: c.input.tokens,
        high: c.input.high,
        max_output: c.max_output,
        incomplete: c.incomplete,
        unpriced: &r.unpriced,
        media: &r.media,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UsageIn {
    input_tokens: f64,
    output_tokens: f64,
}

/// The usage to settle a reservation with: `{input_tokens, output_tokens}` or a whole response body with a usage
/// block (JSON text), as `[input_tokens, output_tokens]`.
#[wasm_bindgen(js_name = usageOf)]
pub fn usage_of(usage: &str) -> JsResult<Vec<f64>> {
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
    Ok(vec![usage.input_tokens as f64, usage.output_tokens as f64])
}

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
    to_json(&llm_preflight::classify(status, r.headers, &r.body, now))
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
    match llm_preflight::find_stream_error(chunk) {
        None => Ok("null".into()),
        Some(se) => {
            // A stream that started with 200 carries its real status inside the error frame.
            let mut out =
                llm_preflight::classify(status.filter(|s| *s != 200), r.headers, &se.payload, now);
            out.output_delivered = se.output_delivered;
            to_json(&out)
        }
    }
}

/// `llm-preflight explain-response`: the same input JSON, the same output.
#[wasm_bindgen(js_name = explainResponse)]
pub fn explain_response(input: &str) -> JsResult<String> {
    to_json(&llm_preflight::explain(input).map_err(err)?)
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
    dimension: Option<llm_preflight::Dimension>,
    window: Option<llm_preflight::Window>,
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
    let d = RetryPolicy::default();
    let budget = RetryPolicy {
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
        reason: "",
    };
    to_json(&llm_preflight::next_action(
        &refusal,
        attempt,
        &budget,
        ms("now", now)?,
        random,
    ))
}

// -------------------------------------------------------------------------------------------------------------
// Profile files.

/// A profile loaded from a profile file (one fitted by `llm-preflight calibrate`, or a shipped one exported):
/// the twin of `Profile::from_json`.
#[wasm_bindgen]
pub struct LoadedProfile {
    inner: CustomProfile,
}

#[wasm_bindgen]
impl LoadedProfile {
    /// Reads a profile file; every field is checked, and a bad one throws naming where.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(json: &str) -> JsResult<LoadedProfile> {
        Profile::from_json(json)
            .map(|inner| LoadedProfile { inner })
            .map_err(err)
    }

    /// The profile's name.
    pub fn name(&self) -> String {
        self.inner.name().to_string()
    }

    /// The tokenizer family it prices for.
    pub fn base(&self) -> String {
        self.inner.base().name().to_string()
    }

    /// The profile file.
    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// Estimates a text with this profile.
    pub fn estimate(&self, text: &str) -> JsResult<String> {
        let e = llm_preflight::estimate(text, &self.inner);
        to_json(&EstimateOut::named(&e, self.inner.name()))
    }

    /// Estimates a request body with this profile (`options`: `{api}` as JSON text).
    #[wasm_bindgen(js_name = estimateRequest)]
    pub fn estimate_request(&self, body: &str, options: &str) -> JsResult<String> {
        request_out(body, options, Some(&self.inner))
    }

    /// A request body's estimate and cost with this profile, for `check`.
    #[wasm_bindgen(js_name = requestCost)]
    pub fn request_cost(&self, body: &str, options: &str) -> JsResult<String> {
        request_cost_out(body, options, Some(&self.inner))
    }

    /// A streaming estimator that prices with this profile.
    pub fn estimator(&self) -> LoadedEstimator {
        LoadedEstimator {
            inner: CoreEstimator::new(self.inner.base()),
            profile: self.inner.clone(),
        }
    }
}

/// Streaming estimation with a loaded profile.
#[wasm_bindgen]
pub struct LoadedEstimator {
    inner: CoreEstimator,
    profile: CustomProfile,
}

#[wasm_bindgen]
impl LoadedEstimator {
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
        let e = self.inner.finish_as(&self.profile);
        to_json(&EstimateOut::named(&e, self.profile.name()))
    }
}

/// A shipped profile as a profile file.
#[wasm_bindgen(js_name = profileJson)]
pub fn profile_json(name: &str) -> JsResult<String> {
    Profile::from_name(name).map(Profile::to_json).map_err(err)
}
