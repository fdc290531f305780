//! The estimate module's exports (default features): `estimate`, `Estimator` and `profiles`, the only module
//! instantiated at import. Results are JSON text written by [`crate::ser`].

use crate::{err, profile_of, EstimateOut, JsResult};
use llm_preflight::{Estimator as CoreEstimator, Profile};
use serde::Serialize;
use wasm_bindgen::prelude::*;

fn to_json<T: Serialize>(v: &T) -> JsResult<String> {
    crate::ser::to_string(v).map_err(err)
}

/// The floats of the last result, which it names by index as `{"\u0000": i}` (see [`crate::ser`]).
#[wasm_bindgen(js_name = takeFloats)]
pub fn take_floats() -> Vec<f64> {
    crate::ser::take_floats()
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
    /// An estimator for `profile` or `model`. Not inlined into its export: inlined, the scanner's zeroed state is
    /// written field by field, about 500 bytes more code in the estimate module, whose size has a budget.
    #[wasm_bindgen(constructor)]
    #[inline(never)]
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
