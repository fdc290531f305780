//! What a drill runs: the providers and their limits, the load, request sizes, deadlines, and the simulated
//! providers' behaviour; every number checked ([`DrillConfig::validate`]) before anything runs.

use llm_preflight::Policy;
use std::fmt;
use std::num::NonZeroU64;

/// A limit that [`DrillConfig::validate`] has checked is not zero.
pub(crate) fn nonzero(n: u64) -> NonZeroU64 {
    NonZeroU64::new(n).unwrap_or(NonZeroU64::MIN)
}

/// One provider (or key) the drill may send to, in preference order: the first is the primary.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderSpec {
    /// A name for reports.
    pub name: String,
    /// Tokens per minute.
    pub tpm: u64,
    /// Requests per minute, if limited.
    pub rpm: Option<u64>,
}

/// Where request sizes come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Sizes {
    /// Prompts log-normal around a median; output caps of half, once or twice `max_tokens`; a share of requests
    /// sized around the primary's whole budget (prompt plus cap 0.9–1.3 × its TPM): most can never be admitted,
    /// some fit the estimate but not the provider's own count.
    Distribution {
        /// Median prompt tokens.
        prompt_median: u64,
        /// Log-spread of prompt sizes.
        prompt_sigma: f64,
        /// The typical output cap.
        max_tokens: u64,
        /// The share of oversized requests.
        oversize_fraction: f64,
    },
    /// `(prompt tokens, output cap)` pairs replayed in order, cycling.
    Replay(Vec<(u64, u64)>),
}

/// Everything a drill needs to know.
#[derive(Debug, Clone, PartialEq)]
pub struct DrillConfig {
    /// The providers in preference order (the first is the primary; the others are fallbacks).
    pub providers: Vec<ProviderSpec>,
    /// Offered load as a multiple of the primary's ceiling (3 = three times what it admits per minute).
    pub load: f64,
    /// How long arrivals last, in milliseconds.
    pub duration_ms: u64,
    /// How long the arrival rate takes to ramp from 0 to its full value.
    pub ramp_ms: u64,
    /// The seed of every random draw.
    pub seed: u64,
    /// Request sizes.
    pub sizes: Sizes,
    /// The share of requests that are streamed.
    pub stream_fraction: f64,
    /// How long after its arrival a request must have started (queue deadline; retries and fallbacks inside it).
    pub deadline_ms: u64,
    /// The admission queue's bound in milliseconds of work.
    pub queue_max_work_ms: u64,
    /// Which end of the estimate's band to decide on.
    pub policy: Policy,
    /// The model named in the request bodies.
    pub model: String,
    /// At most this many requests are offered (a real target's bound); `None` for no bound but time.
    pub max_requests: Option<u64>,
    /// The time of the drill's start on the clock (0 simulated; Unix milliseconds against a real target).
    pub start_ms: u64,
}

impl DrillConfig {
    /// A simulated drill with the defaults: a primary of `tpm` (and `rpm`), an optional fallback of
    /// `fallback_tpm`, `load ×` the ceiling for `minutes`, from `seed`.
    pub fn simulated(
        tpm: u64,
        rpm: Option<u64>,
        fallback_tpm: Option<u64>,
        load: f64,
        minutes: f64,
        seed: u64,
    ) -> DrillConfig {
        let mut providers = vec![ProviderSpec {
            name: "primary".into(),
            tpm,
            rpm,
        }];
        if let Some(f) = fallback_tpm {
            providers.push(ProviderSpec {
                name: "fallback".into(),
                tpm: f,
                rpm: None,
            });
        }
        let duration_ms = if minutes.is_finite() && minutes > 0.0 {
            (minutes * 60_000.0) as u64
        } else {
            0
        };
        DrillConfig {
            providers,
            load,
            duration_ms,
            ramp_ms: (duration_ms / 4).min(300_000),
            seed,
            sizes: Sizes::Distribution {
                prompt_median: 600,
                prompt_sigma: 0.9,
                max_tokens: 256,
                oversize_fraction: 0.03,
            },
            stream_fraction: 0.5,
            deadline_ms: 10_000,
            queue_max_work_ms: 20_000,
            policy: Policy::Median,
            model: "gpt-4o-mini".into(),
            max_requests: None,
            start_ms: 0,
        }
    }

    /// Checks every number: a typed error for anything a drill cannot run with.
    pub fn validate(&self) -> Result<(), DrillError> {
        let bad = |what: &str, value: String| {
            Err(DrillError::Invalid {
                what: what.to_string(),
                value,
            })
        };
        if self.providers.is_empty() {
            return Err(DrillError::NoProvider);
        }
        for p in &self.providers {
            if p.tpm == 0 {
                return bad("tokens-per-minute limit", "0".into());
            }
            if p.rpm == Some(0) {
                return bad("requests-per-minute limit", "0".into());
            }
        }
        if !self.load.is_finite() || self.load <= 0.0 || self.load > 1_000.0 {
            return bad(
                "load (a multiple of the ceiling, above 0, at most 1000)",
                self.load.to_string(),
            );
        }
        if self.duration_ms == 0 {
            return bad("duration (above 0)", "0".into());
        }
        if self.duration_ms > 7 * 24 * 3_600_000 {
            return bad(
                "duration (at most a week)",
                format!("{} ms", self.duration_ms),
            );
        }
        if !self.stream_fraction.is_finite() || !(0.0..=1.0).contains(&self.stream_fraction) {
            return bad("stream fraction (0 to 1)", self.stream_fraction.to_string());
        }
        match &self.sizes {
            Sizes::Distribution {
                prompt_median,
                prompt_sigma,
                oversize_fraction,
                ..
            } => {
                if *prompt_median == 0 || *prompt_median > 10_000_000 {
                    return bad(
                        "median prompt tokens (1 to 10,000,000)",
                        prompt_median.to_string(),
                    );
                }
                if !prompt_sigma.is_finite() || !(0.0..=3.0).contains(prompt_sigma) {
                    return bad("prompt spread (0 to 3)", prompt_sigma.to_string());
                }
                if !oversize_fraction.is_finite() || !(0.0..=1.0).contains(oversize_fraction) {
                    return bad("oversize fraction (0 to 1)", oversize_fraction.to_string());
                }
            }
            Sizes::Replay(v) => {
                if v.is_empty() {
                    return Err(DrillError::EmptyReplay);
                }
                if v.iter().any(|(p, _)| *p == 0 || *p > 10_000_000) {
                    return bad(
                        "replayed prompt tokens (1 to 10,000,000)",
                        "out of range".into(),
                    );
                }
            }
        }
        if self.max_requests == Some(0) {
            return bad("max requests", "0".into());
        }
        // One drill holds every request's record in memory: bound the expected count.
        let expected = self.arrivals_per_minute() * self.duration_ms as f64 / 60_000.0;
        let expected = match self.max_requests {
            Some(m) => expected.min(m as f64),
            None => expected,
        };
        if expected > MAX_EXPECTED_REQUESTS as f64 {
            return bad(
                "drill size (expected requests; lower the load or the minutes)",
                format!("{expected:.0} > {MAX_EXPECTED_REQUESTS}"),
            );
        }
        Ok(())
    }

    /// The mean tokens charged at admission per request (prompt plus cap), from the size source.
    pub fn mean_charge(&self) -> f64 {
        match &self.sizes {
            Sizes::Distribution {
                prompt_median,
                prompt_sigma,
                max_tokens,
                oversize_fraction,
            } => {
                let normal = *prompt_median as f64 * (prompt_sigma * prompt_sigma / 2.0).exp()
                    + *max_tokens as f64 * 7.0 / 6.0;
                let over = self.providers[0].tpm as f64 * 1.1;
                (1.0 - oversize_fraction) * normal + oversize_fraction * over
            }
            Sizes::Replay(v) => {
                v.iter().map(|(p, c)| (p + c) as f64).sum::<f64>() / v.len().max(1) as f64
            }
        }
    }

    /// Arrivals per minute at full load: `load ×` the primary's ceiling (its TPM over the mean charge, or its RPM
    /// if lower).
    pub fn arrivals_per_minute(&self) -> f64 {
        let p = &self.providers[0];
        let mut ceiling = p.tpm as f64 / self.mean_charge().max(1.0);
        if let Some(r) = p.rpm {
            ceiling = ceiling.min(r as f64);
        }
        self.load * ceiling
    }
}

/// The most requests one drill is expected to offer (each keeps its record in memory).
pub const MAX_EXPECTED_REQUESTS: u64 = 2_000_000;

/// The largest prompt a drill generates, in tokens: larger sizes (a huge TPM's oversized tail, a replayed size) are
/// cut to it, so that one request's text stays a few megabytes.
pub const MAX_PROMPT_TOKENS: u64 = 1_000_000;

/// Settings of the simulated providers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimSettings {
    /// The providers' tokenizer skew against the library's estimate (0.04: they count 4% more, ± noise).
    pub skew: f64,
    /// The share of streamed answers that fail inside the 200.
    pub mid_stream_error_rate: f64,
    /// The share of admitted requests answered 503 overloaded.
    pub overload_rate: f64,
    /// Other callers on the same keys take this share of each TPM, unseen by the drill's ledgers.
    pub shared_fraction: f64,
}

impl Default for SimSettings {
    fn default() -> Self {
        SimSettings {
            skew: 0.04,
            mid_stream_error_rate: 0.03,
            overload_rate: 0.01,
            shared_fraction: 0.15,
        }
    }
}

/// A drill that cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrillError {
    /// A number out of range (NaN, negative, zero where it must not be).
    Invalid {
        /// What the number is.
        what: String,
        /// The value as given.
        value: String,
    },
    /// No provider to send to.
    NoProvider,
    /// A replay log with no sizes in it.
    EmptyReplay,
}

impl fmt::Display for DrillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrillError::Invalid { what, value } => write!(f, "invalid {what}: {value}"),
            DrillError::NoProvider => f.write_str("a drill needs at least one provider"),
            DrillError::EmptyReplay => f.write_str("the size log holds no sizes"),
        }
    }
}

impl std::error::Error for DrillError {}

/// Reads a size log for [`Sizes::Replay`]: one request a line, `PROMPT_TOKENS [MAX_TOKENS]` separated by spaces,
/// a comma or a tab, or a JSON object with `prompt_tokens`/`input_tokens` and `max_tokens`. Blank lines and `#`
/// comments are skipped. A bad line is an error naming it.
pub fn parse_size_log(text: &str) -> Result<Vec<(u64, u64)>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let bad = || {
            format!(
                "line {}: expected `PROMPT_TOKENS [MAX_TOKENS]`, got {:?}",
                i + 1,
                cut(l, 80)
            )
        };
        if l.starts_with('{') {
            let v: serde_json::Value = serde_json::from_str(l).map_err(|_| bad())?;
            let p = v
                .get("prompt_tokens")
                .or_else(|| v.get("input_tokens"))
                .and_then(serde_json::Value::as_u64)
                .ok_or_else(bad)?;
            let c = match v.get("max_tokens") {
                None | Some(serde_json::Value::Null) => 0,
                Some(x) => x.as_u64().ok_or_else(bad)?,
            };
            out.push((p, c));
            continue;
        }
        let mut parts = l
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty());
        let p: u64 = parts.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
        let c: u64 = match parts.next() {
            None => 0,
            Some(s) => s.parse().map_err(|_| bad())?,
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        out.push((p, c));
    }
    Ok(out)
}

pub(crate) fn cut(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}
