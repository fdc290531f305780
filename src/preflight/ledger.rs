//! An in-process reservation ledger: reserve a request's cost at admission, settle it against the provider's
//! reported usage when the response ends, release it on failure.
//!
//! Thread-safe (one `std::sync::Mutex` around the state; cloning a [`Ledger`] shares it). No reservation is ever
//! lost: a [`Reservation`] is consumed by [`Reservation::settle`] or [`Reservation::release`], and one dropped
//! without either (an early return, a panic in the caller's task) is released by its `Drop`. A poisoned lock is
//! recovered, never propagated as a panic.

use super::error::{count_from_f64, PreflightError};
use super::policy::Policy;
use super::state::State;
use super::verdict::{check, verdict_at, Check, Cost, Verdict};
use crate::dimension::{Dimension, PerDimension};
use crate::headers::RateLimitSnapshot;
use serde::Serialize;
use std::sync::{Arc, Mutex, MutexGuard};

#[derive(Debug)]
struct Inner {
    state: State,
    in_flight: u64,
    held: PerDimension<u64>,
}

/// A shared, thread-safe view of one key's budget with the reservations in flight.
#[derive(Debug, Clone)]
pub struct Ledger {
    inner: Arc<Mutex<Inner>>,
}

/// Why a reservation was refused: the governor-style split between "not yet" and "never".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "refused", rename_all = "snake_case")]
pub enum Refused {
    /// Not yet: fits after `wait_ms`.
    NotYet {
        /// Milliseconds until it fits.
        wait_ms: u64,
        /// The dimension that binds.
        dimension: Dimension,
    },
    /// Never: exceeds a whole limit by itself.
    Never {
        /// Which limit.
        dimension: Dimension,
        /// The limit.
        limit: u64,
        /// What the request needs.
        needed: u64,
        /// By how much it must shrink.
        excess: u64,
    },
}

impl Refused {
    /// Why a verdict refuses: `None` for [`Verdict::Sendable`].
    pub fn of(verdict: Verdict) -> Option<Refused> {
        match verdict {
            Verdict::Sendable => None,
            Verdict::Queueable { wait_ms, dimension } => {
                Some(Refused::NotYet { wait_ms, dimension })
            }
            Verdict::NeverSendable {
                dimension,
                limit,
                needed,
                excess,
            } => Some(Refused::Never {
                dimension,
                limit,
                needed,
                excess,
            }),
        }
    }
}

/// What the provider reported a request actually used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Input (prompt) tokens counted against the limits.
    pub input_tokens: u64,
    /// Output (completion, including reasoning) tokens.
    pub output_tokens: u64,
}

impl Usage {
    /// Reads the usage block of a response body: OpenAI chat completions, completions and embeddings
    /// (`usage.prompt_tokens`, `completion_tokens`), Responses and Anthropic (`usage.input_tokens`, `output_tokens`;
    /// Anthropic's cache writes count as input, cache reads do not count against ITPM), Bedrock Converse
    /// (`usage.inputTokens`, `outputTokens`, cache writes as input), Gemini (`usageMetadata.promptTokenCount`,
    /// `candidatesTokenCount`, `thoughtsTokenCount`). `None` when there is no usage block.
    pub fn from_response(body: &serde_json::Value) -> Result<Option<Usage>, PreflightError> {
        Usage::from_blocks(body.get("usage"), body.get("usageMetadata"))
    }

    /// A response frame's usage, read without building the whole frame: only its `usage` or `usageMetadata`
    /// member is materialized (the rest is skipped as it is parsed). `Ok(None)` for a frame with neither, or
    /// one that is not a JSON object.
    pub(crate) fn from_frame(frame: &str) -> Result<Option<Usage>, PreflightError> {
        /// The counts a usage block may hold (OpenAI, Anthropic and Responses, Gemini), typed: nothing else in
        /// the frame is built.
        #[derive(serde::Deserialize)]
        #[allow(non_snake_case)]
        struct Counts {
            prompt_tokens: Option<f64>,
            completion_tokens: Option<f64>,
            input_tokens: Option<f64>,
            output_tokens: Option<f64>,
            cache_creation_input_tokens: Option<f64>,
            inputTokens: Option<f64>,
            outputTokens: Option<f64>,
            cacheWriteInputTokens: Option<f64>,
            promptTokenCount: Option<f64>,
            candidatesTokenCount: Option<f64>,
            thoughtsTokenCount: Option<f64>,
        }
        #[derive(serde::Deserialize)]
        struct Blocks {
            usage: Option<Counts>,
            #[serde(rename = "usageMetadata")]
            usage_metadata: Option<Counts>,
        }
        let Ok(b) = serde_json::from_str::<Blocks>(frame) else {
            return Ok(None);
        };
        let n = |x: Option<f64>, what: &str| x.map_or(Ok(0), |f| count_from_f64(what, f));
        if let Some(c) = b.usage {
            if c.prompt_tokens.is_some() || c.completion_tokens.is_some() {
                return Ok(Some(Usage {
                    input_tokens: n(c.prompt_tokens, "/usage/prompt_tokens")?,
                    output_tokens: n(c.completion_tokens, "/usage/completion_tokens")?,
                }));
            }
            if c.inputTokens.is_some() || c.outputTokens.is_some() {
                return Ok(Some(Usage {
                    input_tokens: n(c.inputTokens, "/usage/inputTokens")?.saturating_add(n(
                        c.cacheWriteInputTokens,
                        "/usage/cacheWriteInputTokens",
                    )?),
                    output_tokens: n(c.outputTokens, "/usage/outputTokens")?,
                }));
            }
            return Ok(Some(Usage {
                input_tokens: n(c.input_tokens, "/usage/input_tokens")?.saturating_add(n(
                    c.cache_creation_input_tokens,
                    "/usage/cache_creation_input_tokens",
                )?),
                output_tokens: n(c.output_tokens, "/usage/output_tokens")?,
            }));
        }
        if let Some(c) = b.usage_metadata {
            return Ok(Some(Usage {
                input_tokens: n(c.promptTokenCount, "/usageMetadata/promptTokenCount")?,
                output_tokens: n(
                    c.candidatesTokenCount,
                    "/usageMetadata/candidatesTokenCount",
                )?
                .saturating_add(n(
                    c.thoughtsTokenCount,
                    "/usageMetadata/thoughtsTokenCount",
                )?),
            }));
        }
        Ok(None)
    }

    fn from_blocks(
        usage: Option<&serde_json::Value>,
        usage_metadata: Option<&serde_json::Value>,
    ) -> Result<Option<Usage>, PreflightError> {
        // Direct member lookups (a JSON pointer would parse its path and copy each segment on every call).
        let num =
            |block: &serde_json::Value, name: &str, key: &str| -> Result<u64, PreflightError> {
                let path = || format!("/{name}/{key}");
                match block.get(key) {
                    None | Some(serde_json::Value::Null) => Ok(0),
                    Some(x) => match (x.as_u64(), x.as_f64()) {
                        (Some(n), _) => Ok(n),
                        (None, Some(f)) => count_from_f64(&path(), f),
                        (None, None) => Err(PreflightError::WrongShape {
                            path: path(),
                            expected: "a token count".into(),
                        }),
                    },
                }
            };
        if let Some(u) = usage.filter(|u| u.is_object()) {
            let n = |key| num(u, "usage", key);
            if u.get("prompt_tokens").is_some() || u.get("completion_tokens").is_some() {
                return Ok(Some(Usage {
                    input_tokens: n("prompt_tokens")?,
                    output_tokens: n("completion_tokens")?,
                }));
            }
            if u.get("inputTokens").is_some() || u.get("outputTokens").is_some() {
                return Ok(Some(Usage {
                    input_tokens: n("inputTokens")?.saturating_add(n("cacheWriteInputTokens")?),
                    output_tokens: n("outputTokens")?,
                }));
            }
            return Ok(Some(Usage {
                input_tokens: n("input_tokens")?.saturating_add(n("cache_creation_input_tokens")?),
                output_tokens: n("output_tokens")?,
            }));
        }
        if let Some(u) = usage_metadata.filter(|u| u.is_object()) {
            let n = |key| num(u, "usageMetadata", key);
            return Ok(Some(Usage {
                input_tokens: n("promptTokenCount")?,
                output_tokens: n("candidatesTokenCount")?.saturating_add(n("thoughtsTokenCount")?),
            }));
        }
        Ok(None)
    }
}

impl Usage {
    /// What the usage counts in every rate dimension: one request, the tokens per dimension.
    pub fn per_dimension(&self) -> PerDimension<u64> {
        self.charged(1)
    }

    /// What the usage counts in every rate dimension when each output token consumes `output_burndown` tokens of
    /// the token quotas (Bedrock's burndown rate; [`crate::ReservationProfile::output_burndown`]).
    pub fn charged(&self, output_burndown: u64) -> PerDimension<u64> {
        let total = self
            .input_tokens
            .saturating_add(self.output_tokens.saturating_mul(output_burndown));
        PerDimension::from_fn(|d| match d {
            Dimension::Requests | Dimension::RequestsPerDay => 1,
            Dimension::Tokens | Dimension::TokensPerDay => total,
            Dimension::InputTokens => self.input_tokens,
            Dimension::OutputTokens => self.output_tokens,
            Dimension::Context => 0,
        })
    }
}

/// How a settled reservation compared with what was used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Settled {
    /// Tokens reserved in the tokens-per-minute dimension (or input tokens where there is no TPM).
    pub reserved: u64,
    /// Tokens actually used in that dimension.
    pub used: u64,
    /// `reserved - used`, given back to the bucket (negative: usage above the reservation, taken as well).
    pub refunded: i64,
}

impl Settled {
    /// The comparison in the tokens-per-minute slot, from what was reserved and used per slot.
    #[doc(hidden)]
    pub fn of(needs: &PerDimension<u64>, used: &PerDimension<u64>) -> Settled {
        let d = Dimension::Tokens;
        Settled {
            reserved: needs[d],
            used: used[d],
            refunded: needs[d] as i64 - used[d] as i64,
        }
    }
}

/// Capacity held for one admitted request. Settle it or release it; dropping it releases it.
#[derive(Debug)]
#[must_use = "a reservation holds capacity until it is settled or released"]
pub struct Reservation {
    ledger: Ledger,
    needs: PerDimension<u64>,
    check: Check,
    done: bool,
}

fn lock(m: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Ledger {
    /// A ledger with full buckets at `now_ms`.
    pub fn new(state: State) -> Ledger {
        Ledger {
            inner: Arc::new(Mutex::new(Inner {
                state,
                in_flight: 0,
                held: PerDimension::default(),
            })),
        }
    }

    /// The verdict for `cost` now, without reserving anything.
    pub fn check(&self, cost: &Cost, policy: Policy, now_ms: u64) -> Check {
        check(&lock(&self.inner).state, cost, policy, now_ms)
    }

    /// Reserves `cost` at `now_ms` if it fits now, atomically: two threads can never both take the last capacity.
    pub fn try_reserve(
        &self,
        cost: &Cost,
        policy: Policy,
        now_ms: u64,
    ) -> Result<Reservation, Refused> {
        let mut g = lock(&self.inner);
        let c = check(&g.state, cost, policy, now_ms);
        if let Some(refused) = Refused::of(c.verdict) {
            return Err(refused);
        }
        let needs = cost.needs(&g.state, c.input_tokens);
        g.state.take(&needs, now_ms);
        g.held = g.held.zip_with(&needs, |h, n| h + n);
        g.in_flight += 1;
        drop(g);
        Ok(Reservation {
            ledger: self.clone(),
            needs,
            check: c,
            done: false,
        })
    }

    /// Applies a response's rate-limit headers at `now_ms`. With nothing in flight the provider's numbers replace
    /// the local buckets. With reservations in flight, the provider may not have counted them yet, so a reported
    /// `remaining` above the local level is not believed (it would admit their tokens twice); a lower one is.
    pub fn observe(&self, obs: &RateLimitSnapshot, now_ms: u64) {
        let mut g = lock(&self.inner);
        if g.in_flight > 0 {
            g.state.observe_in_flight(obs, now_ms);
        } else {
            g.state.observe(obs, now_ms);
        }
    }

    /// How many reservations are outstanding.
    pub fn in_flight(&self) -> u64 {
        lock(&self.inner).in_flight
    }

    /// Tokens held by outstanding reservations in one dimension.
    pub fn held(&self, dimension: Dimension) -> u64 {
        lock(&self.inner).held[dimension]
    }

    /// What one bucket holds at `now_ms` (`None` when the budget does not limit that dimension).
    pub fn available(&self, dimension: Dimension, now_ms: u64) -> Option<f64> {
        lock(&self.inner)
            .state
            .bucket(dimension)
            .map(|b| b.available(now_ms))
    }

    /// A copy of the current state.
    pub fn snapshot(&self) -> State {
        lock(&self.inner).state.clone()
    }

    /// Work in milliseconds of refill that `cost` stands for (see [`State::work_ms`]), and its current verdict.
    pub(crate) fn work_and_verdict(
        &self,
        cost: &Cost,
        policy: Policy,
        now_ms: u64,
    ) -> (u64, Verdict) {
        let g = lock(&self.inner);
        let input = cost.input.at(policy);
        let needs = cost.needs(&g.state, input);
        (
            g.state.work_ms(&needs),
            verdict_at(&g.state, cost, input, now_ms).0,
        )
    }

    fn finish(&self, needs: &PerDimension<u64>, used: Option<&PerDimension<u64>>, now_ms: u64) {
        let mut g = lock(&self.inner);
        g.in_flight = g.in_flight.saturating_sub(1);
        g.held = g.held.zip_with(needs, |h, n| h.saturating_sub(*n));
        match used {
            None => g.state.give(needs),
            Some(used) => {
                g.state
                    .give(&needs.zip_with(used, |n, u| n.saturating_sub(*u)));
                g.state
                    .take(&used.zip_with(needs, |u, n| u.saturating_sub(*n)), now_ms);
            }
        }
    }
}

impl Reservation {
    /// The ledger it holds capacity in.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The check the reservation was admitted on.
    pub fn check(&self) -> &Check {
        &self.check
    }

    /// What it holds per rate dimension.
    pub fn held(&self, dimension: Dimension) -> u64 {
        self.needs[dimension]
    }

    /// The request finished and the provider reported `usage`: give back what was reserved and not used (or take
    /// what was used beyond it).
    pub fn settle(mut self, usage: Usage, now_ms: u64) -> Settled {
        self.done = true;
        let burndown = lock(&self.ledger.inner)
            .state
            .budget
            .reservation
            .output_burndown;
        let used = usage.charged(burndown);
        self.ledger.finish(&self.needs, Some(&used), now_ms);
        Settled::of(&self.needs, &used)
    }

    /// The request failed before the provider counted it (connection refused, a 429): give everything back.
    /// A failure after the provider counted tokens should be settled with its usage instead.
    pub fn release(mut self) {
        self.done = true;
        self.ledger.finish(&self.needs, None, 0);
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if !self.done {
            self.done = true;
            self.ledger.finish(&self.needs, None, 0);
        }
    }
}

#[cfg(test)]
mod frame_usage {
    use super::Usage;

    /// The guard reads a frame's usage without building the frame; it must read what `from_response` reads.
    #[test]
    fn a_frames_usage_is_read_as_the_whole_bodys_is() {
        for body in [
            r#"{"choices":[{"message":{"content":"ok"}}],"usage":{"prompt_tokens":600,"completion_tokens":40}}"#,
            r#"{"usage":{"prompt_tokens":12,"completion_tokens":null,"total_tokens":12}}"#,
            r#"{"type":"message_delta","usage":{"input_tokens":10,"cache_creation_input_tokens":5,"cache_read_input_tokens":99,"output_tokens":7}}"#,
            r#"{"output":[],"usage":{"input_tokens":3,"output_tokens":4}}"#,
            r#"{"output":{},"usage":{"inputTokens":30,"outputTokens":12,"cacheWriteInputTokens":5,"cacheReadInputTokens":9}}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":"hi"}]}}],"usageMetadata":{"promptTokenCount":8,"candidatesTokenCount":2,"thoughtsTokenCount":30}}"#,
            r#"{"choices":[{"delta":{"content":"x"}}]}"#,
            r#"{"usage":{"prompt_tokens":1e3,"completion_tokens":2}}"#,
            r#"{"usage":{}}"#,
        ] {
            let v: serde_json::Value = serde_json::from_str(body).unwrap();
            assert_eq!(
                Usage::from_frame(body).ok().flatten(),
                Usage::from_response(&v).ok().flatten(),
                "{body}"
            );
        }
        // A count that is not a whole number is an error both ways, never a silent zero.
        let bad = r#"{"usage":{"prompt_tokens":-3,"completion_tokens":1}}"#;
        assert!(Usage::from_frame(bad).is_err());
        assert!(Usage::from_response(&serde_json::from_str(bad).unwrap()).is_err());
        assert_eq!(Usage::from_frame("[DONE]").ok().flatten(), None);
        assert_eq!(Usage::from_frame("[1,2]").ok().flatten(), None);
    }
}
