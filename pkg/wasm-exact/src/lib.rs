//! Exact OpenAI token counts (o200k, cl100k) in WebAssembly: the `llm-preflight/exact` entry point of the npm
//! package. The vocabularies cost megabytes, so this is a separate module, loaded only when asked for.

#![forbid(unsafe_code)]

use llm_preflight::ExactCounter as Core;
use llm_preflight::Profile;
use wasm_bindgen::prelude::*;

/// An exact counter for one encoding; build once, count many texts.
#[wasm_bindgen]
pub struct ExactCounter {
    inner: Core,
}

#[wasm_bindgen]
impl ExactCounter {
    /// Loads the vocabulary for `profile` (`o200k` or `cl100k`).
    #[wasm_bindgen(constructor)]
    pub fn new(profile: &str) -> Result<ExactCounter, JsError> {
        let p = Profile::from_name(profile).map_err(|e| JsError::new(&e.to_string()))?;
        Core::new(p)
            .map(|inner| ExactCounter { inner })
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// The exact number of tokens `text` encodes to, as ordinary text.
    pub fn count(&self, text: &str) -> f64 {
        self.inner.count(text) as f64
    }
}
