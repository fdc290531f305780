//! Checking a request against the provider's per-minute budgets: sendable, queueable or never sendable.
//!
//! Data flows one way: a request body or a text ([`request`]) → its [`Cost`] (prompt tokens with their band, plus
//! the output the provider reserves at admission, per [`ReservationProfile`]) → a [`Check`] against a key's
//! [`State`] (continuous token buckets per [`Dimension`], refilled at the budget's rate, with header resets taking
//! precedence) at a caller-supplied `now_ms`. On top of that sit a thread-safe reservation [`Ledger`], an
//! [`AdmissionQueue`] bounded in seconds of work, and [`route()`] across several providers or keys.
//!
//! Like the rest of the crate this module is sans-I/O: it never reads a clock; `now_ms` (milliseconds on any
//! monotonic or wall clock the caller chooses, the same one throughout) is always a parameter.
//!
//! ```
//! use llm_preflight::{Budget, Cost, Policy, Provider, State, Verdict};
//! // 8,478 prompt tokens against a key with 8,000 tokens per minute: no wait ever makes it fit.
//! let state = State::new(Budget::new(Provider::Groq).tokens_per_minute(8_000.try_into().unwrap()), 0);
//! let check = state.check(&Cost::exact(8_478), Policy::Median, 0);
//! assert!(matches!(check.verdict, Verdict::NeverSendable { excess: 478, .. }));
//! ```

pub(crate) mod budget;
pub(crate) mod check;
pub(crate) mod error;
pub(crate) mod ledger;
pub(crate) mod policy;
pub(crate) mod queue;
pub(crate) mod request;
pub(crate) mod route;
pub(crate) mod shared;
pub(crate) mod state;
pub(crate) mod verdict;
