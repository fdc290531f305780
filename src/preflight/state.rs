//! What is left of a key's budget at a given moment: one continuous token bucket per rate limit.
//!
//! A bucket holds at most its limit and refills continuously at `limit / window` (8,000 TPM refills 133.3
//! tokens a second). When the provider's headers say how much is left and when the bucket will be full again,
//! that takes precedence: until the reset the bucket refills at whatever rate reaches the limit exactly at the
//! reset, and at the nominal rate after it.

use super::budget::{Budget, Provider};
use crate::dimension::{Dimension, PerDimension};
use crate::headers::{DimensionState, RateLimitSnapshot};
use serde::Serialize;

/// One continuous token bucket.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bucket {
    /// The most it holds: the per-window limit.
    pub limit: u64,
    /// What it held at `at_ms` (may be negative after usage above the reservation was settled).
    pub level: f64,
    /// When `level` was true.
    pub at_ms: u64,
    /// Nominal refill in units per millisecond (`limit / window`).
    pub rate_per_ms: f64,
    /// A faster or slower refill rate that applies until `header_until_ms`, from a reset header.
    pub header_rate_per_ms: f64,
    /// When the header's refill schedule ends (the reported reset time); `at_ms` when there is none.
    pub header_until_ms: u64,
}

impl Bucket {
    /// A full bucket for a limit over a window.
    pub fn full(limit: u64, window_ms: u64, now_ms: u64) -> Bucket {
        let rate = limit as f64 / window_ms.max(1) as f64;
        Bucket {
            limit,
            level: limit as f64,
            at_ms: now_ms,
            rate_per_ms: rate,
            header_rate_per_ms: rate,
            header_until_ms: now_ms,
        }
    }

    /// What the bucket holds at `now_ms` (never more than the limit). Times before `at_ms` read as `at_ms`.
    pub fn available(&self, now_ms: u64) -> f64 {
        let now = now_ms.max(self.at_ms);
        let fast_end = self.header_until_ms.clamp(self.at_ms, now);
        let level = self.level
            + self.header_rate_per_ms * (fast_end - self.at_ms) as f64
            + self.rate_per_ms * (now - fast_end) as f64;
        let limit = self.limit as f64;
        // Float rounding must not leave a bucket that the headers said is full a hair short of full.
        if limit - level < 1e-6 {
            limit
        } else {
            level
        }
    }

    /// Milliseconds from `now_ms` until the bucket holds `needed`: `Some(0)` if it does now, `None` if it never
    /// can (more than the limit).
    pub fn wait_ms(&self, needed: u64, now_ms: u64) -> Option<u64> {
        if needed > self.limit {
            return None;
        }
        let now = now_ms.max(self.at_ms);
        // A hair of tolerance so that float rounding never turns "fits after wait_ms" into "1 ms more".
        let need = needed as f64 - 1e-6;
        let have = self.available(now);
        if have >= need {
            return Some(now - now_ms);
        }
        // Times as offsets from `now`: absolute Unix milliseconds as f64 lose the fraction that decides the ceiling.
        let mut t = 0.0;
        let mut level = have;
        if self.header_until_ms > now {
            let r = self.header_rate_per_ms;
            let end = (self.header_until_ms - now) as f64;
            let at_end = level + r * end;
            if r > 0.0 && at_end >= need {
                let done = (need - level) / r;
                return Some(wait_after(now, done, now_ms));
            }
            level = at_end;
            t = end;
        }
        if self.rate_per_ms <= 0.0 {
            return None;
        }
        let done = t + (need - level) / self.rate_per_ms;
        Some(wait_after(now, done, now_ms))
    }

    fn advance(&mut self, now_ms: u64) {
        if now_ms > self.at_ms {
            self.level = self.available(now_ms);
            self.at_ms = now_ms;
        }
    }

    /// Takes `n` at `now_ms` (the level may go below zero: debt repaid by refill).
    pub fn take(&mut self, n: u64, now_ms: u64) {
        self.advance(now_ms);
        self.level -= n as f64;
    }

    /// Gives `n` back (a refund), never above the limit. Needs no clock: the refund applies at the last known time.
    pub fn give(&mut self, n: u64) {
        self.level = (self.level + n as f64).min(self.limit as f64);
    }

    /// Replaces the bucket's state with what the provider reported: `remaining` now, full again at
    /// `now_ms + reset_ms`. A reset that is absent, zero or too slow to refill at the nominal rate falls back to it.
    pub fn observe(
        &mut self,
        limit: Option<u64>,
        remaining: Option<u64>,
        reset_ms: Option<u64>,
        now_ms: u64,
    ) {
        if let Some(l) = limit.filter(|l| *l > 0) {
            let window = self.limit as f64 / self.rate_per_ms.max(f64::MIN_POSITIVE);
            self.limit = l;
            self.rate_per_ms = l as f64 / window.max(1.0);
        }
        match remaining {
            Some(r) => {
                self.level = r.min(self.limit) as f64;
                self.at_ms = now_ms;
                self.header_until_ms = now_ms;
                self.header_rate_per_ms = self.rate_per_ms;
                if let Some(reset) = reset_ms.filter(|r| *r > 0) {
                    let missing = self.limit as f64 - self.level;
                    if missing > 0.0 {
                        self.header_rate_per_ms = missing / reset as f64;
                        self.header_until_ms = now_ms.saturating_add(reset);
                    }
                }
            }
            None => {
                if let Some(reset) = reset_ms.filter(|r| *r > 0) {
                    // A reset without a remaining count: at least the bucket is full by then.
                    self.advance(now_ms);
                    let missing = self.limit as f64 - self.level;
                    if missing > 0.0 {
                        self.header_rate_per_ms = (missing / reset as f64).max(self.rate_per_ms);
                        self.header_until_ms = now_ms.saturating_add(reset);
                    }
                }
            }
        }
    }
}

/// The wait from `now_ms` until `done_after` milliseconds after `now` (a bucket short at `now`): at least 1 ms,
/// saturating at the end of the `u64` clock rather than wrapping to zero.
fn wait_after(now: u64, done_after: f64, now_ms: u64) -> u64 {
    (now - now_ms)
        .saturating_add(done_after.ceil() as u64)
        .max(1)
}

/// A key's budget and what is left of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct State {
    /// The limits and reservation rules.
    pub budget: Budget,
    buckets: PerDimension<Option<Bucket>>,
    /// Nothing is admitted before this time (a `retry-after`).
    pub blocked_until_ms: u64,
}

impl State {
    /// A state with every bucket full at `now_ms`.
    pub fn new(budget: Budget, now_ms: u64) -> State {
        let buckets = PerDimension::from_fn(|d| match d {
            Dimension::Context => None,
            _ => budget
                .limit(d)
                .map(|l| Bucket::full(l, d.window_ms(), now_ms)),
        });
        State {
            budget,
            buckets,
            blocked_until_ms: 0,
        }
    }

    /// The bucket for a rate dimension, if the budget limits it.
    pub fn bucket(&self, dimension: Dimension) -> Option<&Bucket> {
        self.buckets[dimension].as_ref()
    }

    /// Replaces (or removes) the bucket of a rate dimension: how a state stored elsewhere (the Redis ledger) is
    /// loaded back. The context window has no bucket and is left alone.
    #[doc(hidden)]
    pub fn set_bucket(&mut self, dimension: Dimension, bucket: Option<Bucket>) {
        if dimension != Dimension::Context {
            self.buckets[dimension] = bucket;
        }
    }

    #[doc(hidden)]
    pub fn bucket_mut(&mut self, dimension: Dimension) -> Option<&mut Bucket> {
        self.buckets[dimension].as_mut()
    }

    /// Applies what a response reported, at `now_ms`. Headers take precedence over the local model; a dimension
    /// the budget did not know gets a bucket from the reported limit. For Anthropic, whose `tokens` headers
    /// report the most restrictive token limit, the combined `tokens` values are used only when the budget has a
    /// tokens-per-minute limit. Groq's `requests` headers count the day's requests (its docs: "Always refers to
    /// Requests Per Day"), so for `Provider::Groq` they go to the per-day bucket. A window whose headers do not say
    /// what it counts, or one of an hour or a month, that is spent admits nothing before its reset, when the reset is
    /// stated (without one, how long is not known: the refusal that follows says not to retry).
    pub fn observe(&mut self, obs: &RateLimitSnapshot, now_ms: u64) {
        self.observe_levels(obs, now_ms, true);
    }

    /// Applies levels a person states (`requests` the minute's, whatever the provider's headers mean by it), as
    /// [`State::observe`] applies a response's.
    pub fn observe_stated(&mut self, obs: &RateLimitSnapshot, now_ms: u64) {
        self.observe_levels(obs, now_ms, false);
    }

    fn observe_levels(&mut self, obs: &RateLimitSnapshot, now_ms: u64, headers: bool) {
        for d in Dimension::RATES {
            let Some(o) = self.reported(obs, d, headers) else {
                continue;
            };
            if o.is_unknown() {
                continue;
            }
            let slot = &mut self.buckets[d];
            if slot.is_none() {
                match (o.limit.filter(|l| *l > 0), d) {
                    (Some(l), _)
                        if d != Dimension::Tokens
                            || self.budget.input_tokens_per_minute.is_none() =>
                    {
                        *slot = Some(Bucket::full(l, d.window_ms(), now_ms))
                    }
                    _ => continue,
                }
            }
            if let Some(b) = slot.as_mut() {
                b.observe(o.limit, o.remaining, o.reset_ms, now_ms);
            }
        }
        if let Some(ra) = obs.retry_after_ms {
            self.blocked_until_ms = self.blocked_until_ms.max(now_ms.saturating_add(ra));
        }
        for w in [obs.unnamed, obs.long_window] {
            if let (Some(0), Some(reset)) = (w.remaining, w.reset_ms) {
                self.blocked_until_ms = self.blocked_until_ms.max(now_ms.saturating_add(reset));
            }
        }
    }

    /// What the headers report for a rate dimension: Groq's `requests` headers are the day's.
    fn reported(
        &self,
        obs: &RateLimitSnapshot,
        d: Dimension,
        headers: bool,
    ) -> Option<DimensionState> {
        match (d, headers && self.budget.provider == Provider::Groq) {
            (Dimension::Requests, true) => None,
            (Dimension::RequestsPerDay, true) if obs.requests_per_day.is_unknown() => {
                Some(obs.requests)
            }
            _ => obs.dimension(d).copied(),
        }
    }

    /// Applies a response's headers while reservations are still in flight: the provider's `remaining` may not
    /// count requests it has not seen yet, so a reported level above the local one (which does count them) is
    /// not believed; a lower one (other callers share the key) is. Never admits more than either side allows.
    pub fn observe_in_flight(&mut self, obs: &RateLimitSnapshot, now_ms: u64) {
        let before: Vec<Option<f64>> = Dimension::RATES
            .iter()
            .map(|d| self.bucket(*d).map(|b| b.available(now_ms)))
            .collect();
        self.observe(obs, now_ms);
        for (d, prior) in Dimension::RATES.iter().zip(before) {
            let reported = self.reported(obs, *d, true).and_then(|o| o.remaining);
            if let (Some(prior), Some(_), Some(b)) = (prior, reported, self.bucket_mut(*d)) {
                if b.available(now_ms) > prior {
                    b.level = prior;
                    b.at_ms = now_ms;
                }
            }
        }
    }

    /// Takes what a request needs from every bucket at `now_ms` (the caller has checked it fits).
    pub fn take(&mut self, needs: &PerDimension<u64>, now_ms: u64) {
        for d in Dimension::RATES {
            if let Some(b) = self.bucket_mut(d) {
                b.take(needs[d], now_ms);
            }
        }
    }

    /// Gives amounts back to every bucket (refunds).
    pub fn give(&mut self, amounts: &PerDimension<u64>) {
        for d in Dimension::RATES {
            if let Some(b) = self.bucket_mut(d) {
                b.give(amounts[d]);
            }
        }
    }

    /// Milliseconds of refill the needs represent at the nominal rates: the slowest dimension's. This is how much
    /// "work" a queued request stands for.
    pub fn work_ms(&self, needs: &PerDimension<u64>) -> u64 {
        let mut w = 0.0f64;
        for d in Dimension::RATES {
            if let Some(b) = self.bucket(d) {
                if b.rate_per_ms > 0.0 {
                    w = w.max(needs[d] as f64 / b.rate_per_ms);
                }
            }
        }
        w.ceil() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_schedule_then_nominal_rate() {
        let mut b = Bucket::full(8_000, 60_000, 0);
        b.observe(None, Some(500), Some(5_940), 0);
        // Full exactly at the reset, never above the limit afterwards.
        assert_eq!(b.available(5_940), 8_000.0);
        assert_eq!(b.available(100_000), 8_000.0);
        assert_eq!(b.wait_ms(8_000, 0), Some(5_940));
        assert_eq!(b.wait_ms(500, 0), Some(0));
        assert_eq!(b.wait_ms(8_001, 0), None);
        // After taking at the reset, refill continues at the nominal 133.3/s.
        b.take(8_000, 5_940);
        assert_eq!(b.wait_ms(1_000, 5_940), Some(7_500));
    }

    #[test]
    fn debt_is_repaid_by_refill_and_refunds_cap_at_the_limit() {
        let mut b = Bucket::full(6_000, 60_000, 0);
        b.take(7_000, 0);
        assert_eq!(b.available(0), -1_000.0);
        assert_eq!(b.wait_ms(1, 0), Some(10_010));
        b.give(100_000);
        assert_eq!(b.available(0), 6_000.0);
    }

    #[test]
    fn times_before_the_last_observation_read_as_it() {
        let mut b = Bucket::full(6_000, 60_000, 0);
        b.observe(None, Some(0), None, 10_000);
        assert_eq!(b.available(5_000), 0.0);
        assert_eq!(b.wait_ms(100, 5_000), Some(6_000));
    }
}
