//! # llm-preflight
//!
//! Decide, before sending, whether an LLM request can succeed against the provider's per-minute budgets.
//!
//! The core is a token estimator that needs no vocabulary: one streaming pass over the text counts what drives
//! tokenizers (letter runs by script, digits, punctuation, whitespace runs, CJK, emoji, long repeats, encoded
//! blobs), and rates measured per tokenizer family turn those counts into a median estimate and a p5–p95 band.
//!
//! ```
//! use llm_preflight::{estimate, Profile};
//! let est = estimate("fn main() { println!(\"hello\"); }", Profile::for_model("gpt-4o").unwrap());
//! println!("{} tokens (90% band {}..={}), mostly {}", est.tokens, est.low, est.high, est.content.kind);
//! ```
//!
//! Character counting is good enough to decide whether to send, not to bill on: use the exact counters (feature
//! `exact`) or the provider's reported usage for that.
//!
//! The core is sans-I/O: it never reads a clock, draws randomness or touches the network; time and random draws
//! are parameters.

// One `unsafe` call in the crate: the scanner's block loop compiled with `popcnt`, behind runtime detection
// (`scan::Scanner::blocks`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod estimate;
#[cfg(feature = "exact")]
pub mod exact;
pub mod profile;
pub mod profile_file;
pub mod scan;
#[rustfmt::skip]
mod tables;

pub use estimate::{estimate, estimate_chars, Content, ContentKind, Estimate, Estimator, MixPart};
pub use profile::{Profile, UnknownProfile};
pub use profile_file::{CustomProfile, ProfileFileError, Tables};
pub use scan::Class;

#[cfg(feature = "drill")]
pub mod drill;
pub mod headers;
pub mod preflight;
pub mod refusal;
pub mod retry;
pub mod rng;
pub mod traffic;
