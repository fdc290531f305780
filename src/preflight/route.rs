//! Routing one request across several providers or keys: the first sendable in preference order, else the
//! shortest wait, never a never-sendable one, and why each other candidate was passed over.
//!
//! Each candidate carries its own [`Cost`]: the same text counts differently under different tokenizers, and
//! providers charge output caps differently.

use super::policy::Policy;
use super::state::State;
use super::verdict::{check, Check, Cost, Verdict};
use crate::dimension::Dimension;
use serde::Serialize;

/// One provider or key to consider, in preference order.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    /// A name for reports (`groq/gpt-oss-120b`, `openai-key-2`).
    pub name: &'a str,
    /// Its budget and state.
    pub state: &'a State,
    /// The request's cost as this candidate counts it.
    pub cost: &'a Cost,
}

/// Why a candidate was not chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum PassReason {
    /// It could never hold the request.
    NeverSendable {
        /// Which limit.
        dimension: Dimension,
        /// The limit.
        limit: u64,
        /// What the request needs there.
        needed: u64,
        /// By how much it is over.
        excess: u64,
    },
    /// It would have had to wait while the chosen one could go at once.
    MustWait {
        /// Its wait.
        wait_ms: u64,
        /// The dimension that binds.
        dimension: Dimension,
    },
    /// It would have had to wait longer than the chosen one.
    LongerWait {
        /// Its wait.
        wait_ms: u64,
        /// The dimension that binds.
        dimension: Dimension,
    },
    /// It could take the request too, but comes later in preference order.
    LowerPreference,
}

/// A candidate that was passed over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PassedOver {
    /// Its position in the candidate list.
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Why.
    #[serde(flatten)]
    pub reason: PassReason,
}

/// The routing decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Route {
    /// The chosen candidate's position, or `None` when every one is never-sendable (or there were none).
    pub chosen: Option<usize>,
    /// Its name.
    pub name: Option<String>,
    /// Its check (sendable, or queueable with the shortest wait).
    pub check: Option<Check>,
    /// Every other candidate, in order, with the reason.
    pub passed_over: Vec<PassedOver>,
}

/// Picks the best candidate for a request at `now_ms` under `policy`.
pub fn route(candidates: &[Candidate<'_>], policy: Policy, now_ms: u64) -> Route {
    let checks: Vec<Check> = candidates
        .iter()
        .map(|c| check(c.state, c.cost, policy, now_ms))
        .collect();
    let first_sendable = checks.iter().position(|c| c.verdict.is_sendable());
    let chosen = first_sendable.or_else(|| {
        checks
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match c.verdict {
                Verdict::Queueable { wait_ms, .. } => Some((wait_ms, i)),
                _ => None,
            })
            .min()
            .map(|(_, i)| i)
    });
    let chosen_sendable = first_sendable.is_some();
    let chosen_wait = chosen.and_then(|i| checks[i].verdict.wait_ms());
    let mut passed_over = Vec::new();
    for (i, c) in checks.iter().enumerate() {
        if Some(i) == chosen {
            continue;
        }
        let reason = match c.verdict {
            Verdict::NeverSendable {
                dimension,
                limit,
                needed,
                excess,
            } => PassReason::NeverSendable {
                dimension,
                limit,
                needed,
                excess,
            },
            Verdict::Queueable { wait_ms, dimension } if chosen_sendable => {
                PassReason::MustWait { wait_ms, dimension }
            }
            Verdict::Queueable { wait_ms, .. } if Some(wait_ms) == chosen_wait => {
                PassReason::LowerPreference
            }
            Verdict::Queueable { wait_ms, dimension } => {
                PassReason::LongerWait { wait_ms, dimension }
            }
            Verdict::Sendable => PassReason::LowerPreference,
        };
        passed_over.push(PassedOver {
            index: i,
            name: candidates[i].name.to_string(),
            reason,
        });
    }
    Route {
        chosen,
        name: chosen.map(|i| candidates[i].name.to_string()),
        check: chosen.map(|i| checks[i].clone()),
        passed_over,
    }
}
