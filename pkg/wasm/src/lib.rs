//! WebAssembly bindings of `llm-preflight` for the npm package `llm-preflight`.
//!
//! This layer only converts types; every decision is made by the core crate. It builds as two modules:
//!
//! - the estimate module (default features): `estimate`, `Estimator` and `profiles`, the only module instantiated
//!   at import, so it is kept as small as it can be: no JSON parsing, no serde_json, results written as JSON text
//!   by a small writer ([`ser`]) that needs no float formatting.
//! - the lazy module (`--features lazy`), instantiated synchronously by the JavaScript wrapper on the first call
//!   that needs it: `check`, rate-limit headers, the ledger, reservations and the admission queue (plain numbers,
//!   strings and arrays in, JSON text out), and everything that reads JSON (request bodies, responses, refusals,
//!   retries, usage blocks). It uses serde_json.
//!
//! Nothing here panics on bad input: every conversion returns a `JsError` (a thrown `Error` in JavaScript) with a
//! message saying what was wrong, so one bad call never poisons the instance. Time (`now`) and the random draw are
//! parameters, defaulted to `Date.now()` and `Math.random()` by the JavaScript wrappers.

#![forbid(unsafe_code)]

use llm_preflight::{Estimate, MixPart, Profile};
use llm_preflight::{PreflightError, UnknownName};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[cfg(not(feature = "lazy"))]
mod estimate_api;
#[cfg(not(feature = "lazy"))]
pub mod ser;
#[cfg(not(feature = "lazy"))]
pub use estimate_api::*;

#[cfg(feature = "lazy")]
mod core_api;
#[cfg(feature = "lazy")]
pub use core_api::*;
#[cfg(feature = "lazy")]
mod json_api;
#[cfg(feature = "lazy")]
pub use json_api::*;

/// The estimate module's allocator: a free list that coalesces neighbours (a few hundred bytes of wasm, against
/// dlmalloc's seven thousand). The module allocates little: the text of each call, the JSON it returns and an
/// `Estimator`'s state. The lazy module, which parses JSON into many small allocations, keeps dlmalloc.
#[cfg(all(target_arch = "wasm32", not(feature = "lazy")))]
#[global_allocator]
static ALLOCATOR: lol_alloc::LockedAllocator<lol_alloc::FreeListAllocator> =
    lol_alloc::LockedAllocator::new(lol_alloc::FreeListAllocator::new());

type JsResult<T> = Result<T, JsError>;

fn err(msg: impl std::fmt::Display) -> JsError {
    JsError::new(&msg.to_string())
}

#[wasm_bindgen]
extern "C" {
    /// JavaScript's `String(x)`: a float as text without linking Rust's float formatting.
    #[cfg_attr(not(feature = "lazy"), allow(dead_code))]
    #[wasm_bindgen(js_name = String)]
    fn js_string(x: f64) -> String;
}

/// A time or count from JavaScript: a whole number of at least 0.
#[cfg_attr(not(feature = "lazy"), allow(dead_code))]
fn ms(what: &str, v: f64) -> JsResult<u64> {
    if llm_preflight::internals::preflight::is_whole_count(v) {
        Ok(v as u64)
    } else {
        Err(err(PreflightError::InvalidCount {
            what: what.to_string(),
            value: js_string(v),
        }))
    }
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

/// Any name the core parses (an API, a dimension, a provider, a policy): its error lists the valid names.
#[cfg_attr(not(feature = "lazy"), allow(dead_code))]
fn parse_name<T: std::str::FromStr<Err = UnknownName>>(name: &str) -> JsResult<T> {
    name.parse().map_err(err)
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
    profile: &'a str,
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

impl<'a> EstimateOut<'a> {
    /// The same, naming a loaded profile instead of its base.
    #[cfg_attr(not(feature = "lazy"), allow(dead_code))]
    fn named(e: &'a Estimate, profile: &'a str) -> Self {
        EstimateOut {
            profile,
            ..EstimateOut::from(e)
        }
    }
}
