//! Fitting a profile to an operator's own traffic: per-kind corrections, bands and characters per token
//! ([`Calibration`] → [`CalibrationReport`] and a `CustomProfile`), and output caps per route; bounded reservoirs
//! keep memory constant whatever the log's length.

use super::log::{bad, LogRow, RowError};
use crate::content::ContentKind;
use crate::estimate::{estimate_chars, linear, price, Estimator};
use crate::profile_file::{CustomProfile, Tables};
use crate::rng::SplitMix64;
use crate::svg;
use serde::Serialize;
use serde_json::json;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Observations kept per content kind; beyond this, a uniform sample of this size.
pub const RESERVOIR: usize = 50_000;

/// Fewest rows of a kind for its band (text rows) or its characters per token (any rows) to be refitted; a kind
/// with fewer keeps the shipped values.
pub const MIN_ROWS: u64 = 30;

/// Distinct routes tracked for output caps; rows of further routes are pooled under `(other routes)`.
pub const MAX_ROUTES: usize = 10_000;

/// At most `cap` items; beyond that a uniform sample of everything pushed (Algorithm R).
#[derive(Debug, Clone)]
struct Reservoir<T> {
    cap: usize,
    seen: u64,
    items: Vec<T>,
    rng: SplitMix64,
}

impl<T> Reservoir<T> {
    fn new(cap: usize, seed: u64) -> Self {
        Reservoir {
            cap,
            seen: 0,
            items: Vec::new(),
            rng: SplitMix64::new(seed),
        }
    }

    fn push(&mut self, x: T) {
        self.seen += 1;
        if self.items.len() < self.cap {
            self.items.push(x);
        } else {
            let j = self.rng.next_u64() % self.seen;
            if (j as usize) < self.cap {
                self.items[j as usize] = x;
            }
        }
    }

    fn sampled(&self) -> bool {
        self.seen > self.items.len() as u64
    }
}

/// The `q` quantile of sorted values, interpolated.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

/// One text row as the fit sees it.
#[derive(Debug, Clone, Copy)]
struct TextObs {
    /// ln(true / linear estimate).
    ln_r: f64,
    /// The spread σ at this row's linear estimate.
    sigma: f64,
}

/// Number of kind slots: every [`ContentKind`], plus one for length-only rows that name no kind.
const SLOTS: usize = ContentKind::COUNT + 1;
const UNLABELLED: usize = ContentKind::COUNT;

fn slot_name(slot: usize) -> &'static str {
    if slot == UNLABELLED {
        "unlabelled"
    } else {
        ContentKind::ALL[slot].name()
    }
}

#[derive(Debug, Clone)]
struct KindAcc {
    text_rows: u64,
    chars_rows: u64,
    shipped_covered: u64,
    text: Reservoir<TextObs>,
    cpt: Reservoir<f64>,
    shipped_err: Reservoir<f64>,
}

impl KindAcc {
    fn new(cap: usize, k: u64) -> Self {
        KindAcc {
            text_rows: 0,
            chars_rows: 0,
            shipped_covered: 0,
            text: Reservoir::new(cap, 0x5EED ^ k),
            cpt: Reservoir::new(cap, 0xC0DE ^ k),
            shipped_err: Reservoir::new(cap, 0xFACE ^ k),
        }
    }
}

/// Characters per token: bins of 0.05 from 0 to 20, and the overflow.
const HIST_BIN: f64 = 0.05;
const HIST_BINS: usize = 400;

/// Accumulates a log and fits a profile to it: the shipped profile's rates, with each content kind's median
/// correction and band refitted from the log's text rows, and its characters per token from every row.
#[derive(Debug, Clone)]
pub struct Calibration<'a> {
    base: Tables<'a>,
    kinds: Vec<KindAcc>,
    hist: Vec<u64>,
    hist_over: u64,
    rows: u64,
    caps: BTreeMap<String, BTreeMap<u64, u64>>,
}

/// Why a row was not used by the fit.
fn needs_tokens(row: &LogRow) -> Result<u64, RowError> {
    match row.prompt_tokens {
        Some(0) => Err(bad("`prompt_tokens` is 0: nothing to compare with")),
        Some(t) => Ok(t),
        None => Err(bad("no `prompt_tokens` (the provider's reported usage)")),
    }
}

impl<'a> Calibration<'a> {
    /// A fit that starts from `base` (a shipped profile or a custom one).
    pub fn new(base: impl Into<Tables<'a>>) -> Self {
        Self::with_reservoir(base, RESERVOIR)
    }

    /// The same with another reservoir size (tests use a small one to exercise sampling).
    pub fn with_reservoir(base: impl Into<Tables<'a>>, cap: usize) -> Self {
        Calibration {
            base: base.into(),
            kinds: (0..SLOTS).map(|k| KindAcc::new(cap, k as u64)).collect(),
            hist: vec![0; HIST_BINS],
            hist_over: 0,
            rows: 0,
            caps: BTreeMap::new(),
        }
    }

    /// Adds one row. A row without `prompt_tokens`, or with neither `text` nor `chars`, is refused with the reason
    /// (the caller counts it as malformed).
    pub fn add(&mut self, row: &LogRow) -> Result<(), RowError> {
        let truth = needs_tokens(row)?;
        let (slot, chars) = match (&row.text, row.chars) {
            (Some(text), _) => {
                let mut e = Estimator::new(self.base.base());
                e.update(text);
                let x = e.features();
                let kind = ContentKind::detect(&x);
                let shipped = price(&x, self.base);
                let lin = linear(&x, self.base);
                let acc = &mut self.kinds[kind as usize];
                acc.text_rows += 1;
                if lin > 0.0 {
                    acc.text.push(TextObs {
                        ln_r: (truth as f64 / lin).ln(),
                        sigma: crate::estimate::sigma(self.base.spread(), lin, &x).max(1e-6),
                    });
                }
                acc.shipped_err
                    .push((shipped.tokens as f64 - truth as f64) / truth as f64);
                if shipped.low <= truth && truth <= shipped.high {
                    acc.shipped_covered += 1;
                }
                (kind as usize, x.chars)
            }
            (None, Some(chars)) => {
                let slot = row.content.map_or(UNLABELLED, |k| k as usize);
                let acc = &mut self.kinds[slot];
                acc.chars_rows += 1;
                let shipped =
                    estimate_chars(chars, row.content.unwrap_or(ContentKind::Prose), self.base);
                acc.shipped_err
                    .push((shipped.tokens as f64 - truth as f64) / truth as f64);
                if shipped.low <= truth && truth <= shipped.high {
                    acc.shipped_covered += 1;
                }
                (slot, chars)
            }
            (None, None) => return Err(bad("neither `text` nor `chars`")),
        };
        if chars > 0 {
            let cpt = chars as f64 / truth as f64;
            self.kinds[slot].cpt.push(cpt);
            let bin = (cpt / HIST_BIN) as usize;
            match self.hist.get_mut(bin) {
                Some(b) => *b += 1,
                None => self.hist_over += 1,
            }
        }
        if let Some(c) = row.completion_tokens {
            let key = row
                .route
                .clone()
                .or_else(|| row.model.clone())
                .unwrap_or_else(|| "(no route or model)".into());
            let key = if self.caps.contains_key(&key) || self.caps.len() < MAX_ROUTES {
                key
            } else {
                "(other routes)".into()
            };
            *self.caps.entry(key).or_default().entry(c).or_default() += 1;
        }
        self.rows += 1;
        Ok(())
    }

    /// Rows used so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The fitted profile (named `name`) and the report.
    pub fn finish(
        &self,
        name: &str,
    ) -> Result<(CustomProfile, CalibrationReport), crate::ProfileFileError> {
        let mut profile = CustomProfile::derived_from(self.base, name);
        let mut kinds = Vec::new();
        for (slot, acc) in self.kinds.iter().enumerate() {
            let rows = acc.text_rows + acc.chars_rows;
            if rows == 0 {
                continue;
            }
            let kind = (slot != UNLABELLED).then(|| ContentKind::ALL[slot]);
            let cpt = sorted(acc.cpt.items.clone());
            let err = sorted(acc.shipped_err.items.clone());
            let abs_err = sorted(acc.shipped_err.items.iter().map(|e| e.abs()).collect());
            let shipped_cpt = self
                .base
                .chars_per_token(kind.unwrap_or(ContentKind::Prose))[1];
            let mut report = KindReport {
                kind: slot_name(slot),
                rows,
                text_rows: acc.text_rows,
                chars_rows: acc.chars_rows,
                chars_per_token: [0.05, 0.5, 0.95].map(|q| round3(quantile(&cpt, q))),
                shipped_chars_per_token: round3(shipped_cpt),
                shipped_median_error: round4(quantile(&err, 0.5)),
                shipped_median_abs_error: round4(quantile(&abs_err, 0.5)),
                shipped_band_coverage: round4(acc.shipped_covered as f64 / rows as f64),
                band: None,
                chars_per_token_refitted: false,
                note: String::new(),
            };
            let Some(kind) = kind else {
                report.note =
                    "length-only rows that name no `content`: reported, not used for the profile"
                        .into();
                kinds.push(report);
                continue;
            };
            if rows >= MIN_ROWS && cpt.len() >= 2 {
                let q = [0.05, 0.5, 0.95].map(|q| quantile(&cpt, q));
                profile.set_chars_per_token(kind, q)?;
                report.chars_per_token_refitted = true;
            }
            if acc.text_rows >= MIN_ROWS && acc.text.items.len() >= MIN_ROWS as usize {
                let obs = &acc.text.items;
                let shipped_band = self.base.band(kind);
                let band = fit_band(obs, shipped_band);
                // Held-out coverage: fit on every other row, check on the rest, both ways.
                let (even, odd): (Vec<_>, Vec<_>) =
                    obs.iter().enumerate().partition(|(i, _)| i % 2 == 0);
                let even: Vec<TextObs> = even.into_iter().map(|(_, o)| *o).collect();
                let odd: Vec<TextObs> = odd.into_iter().map(|(_, o)| *o).collect();
                let inside = |b: [f64; 3], o: &TextObs| {
                    let z = (o.ln_r - b[0]) / o.sigma;
                    b[1] <= z && z <= b[2]
                };
                let (be, bo) = (fit_band(&even, shipped_band), fit_band(&odd, shipped_band));
                let covered = odd.iter().filter(|o| inside(be, o)).count()
                    + even.iter().filter(|o| inside(bo, o)).count();
                let fitted_abs = sorted(
                    obs.iter()
                        .map(|o| ((band[0] - o.ln_r).exp() - 1.0).abs())
                        .collect(),
                );
                profile.set_band(kind, band)?;
                report.band = Some(FittedBand {
                    median_correction: round4(band[0].exp()),
                    median_abs_error: round4(quantile(&fitted_abs, 0.5)),
                    held_out_coverage: round4(covered as f64 / obs.len() as f64),
                });
            } else if acc.text_rows > 0 {
                report.note = format!(
                    "{} text rows: fewer than {MIN_ROWS}, the shipped band is kept",
                    acc.text_rows
                );
            }
            kinds.push(report);
        }
        let caps = self
            .caps
            .iter()
            .map(|(route, hist)| cap_report(route, hist))
            .collect();
        let sampled = self
            .kinds
            .iter()
            .any(|k| k.text.sampled() || k.cpt.sampled() || k.shipped_err.sampled());
        let report = CalibrationReport {
            profile: name.to_string(),
            base: self.base.name().to_string(),
            rows: self.rows,
            sampled,
            kinds,
            output_caps: caps,
            histogram: Histogram {
                bin: HIST_BIN,
                counts: self.hist.clone(),
                overflow: self.hist_over,
            },
        };
        profile.set_fitted(json!({
            "by": "llm-preflight calibrate",
            "base": self.base.name(),
            "rows": self.rows,
            "kinds_refitted": report.kinds.iter().filter(|k| k.band.is_some()).map(|k| k.kind).collect::<Vec<_>>(),
        }));
        profile.set_description(&format!(
            "{} refitted to {} logged requests",
            self.base.name(),
            self.rows
        ));
        Ok((profile, report))
    }
}

/// Text rows of a kind from which its band may be narrower than the shipped one. Below this, the 5th and 95th
/// percentiles of a few dozen rows understate the spread (held-out coverage of such bands measured 77–90% on
/// the corpus, not 90%), so the band keeps at least the shipped width around the refitted median.
pub const OWN_WIDTH_ROWS: usize = 1000;

/// `[m, z_lo, z_hi]` from observations: m the median log ratio, z the 5th and 95th percentiles of the
/// standardised residuals around it; under [`OWN_WIDTH_ROWS`] rows, no narrower than `shipped`.
fn fit_band(obs: &[TextObs], shipped: [f64; 3]) -> [f64; 3] {
    let m = quantile(&sorted(obs.iter().map(|o| o.ln_r).collect()), 0.5);
    let z = sorted(obs.iter().map(|o| (o.ln_r - m) / o.sigma).collect());
    let (mut lo, mut hi) = (quantile(&z, 0.05), quantile(&z, 0.95));
    if obs.len() < OWN_WIDTH_ROWS {
        lo = lo.min(shipped[1]);
        hi = hi.max(shipped[2]);
    }
    [
        m.clamp(-5.0, 5.0),
        lo.clamp(-100.0, 0.0),
        hi.clamp(0.0, 100.0),
    ]
}

fn round3(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

fn cap_report(route: &str, hist: &BTreeMap<u64, u64>) -> CapReport {
    let n: u64 = hist.values().sum();
    // Nearest rank: the smallest value with at least q·n requests at or below it.
    let at = |q: f64| {
        let need = ((q * n as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (v, c) in hist {
            seen += c;
            if seen >= need {
                return *v;
            }
        }
        hist.keys().next_back().copied().unwrap_or(0)
    };
    let cap = at(0.999);
    CapReport {
        route: route.to_string(),
        requests: n,
        p50: at(0.5),
        p99: at(0.99),
        p999: cap,
        max: hist.keys().next_back().copied().unwrap_or(0),
        recommended_max_tokens: cap,
        cut_short: hist.range(cap + 1..).map(|(_, c)| c).sum(),
    }
}

/// What the calibration found for one kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KindReport {
    /// The content kind (`unlabelled` for length-only rows without `content`).
    pub kind: &'static str,
    /// Rows of this kind.
    pub rows: u64,
    /// Of which with text.
    pub text_rows: u64,
    /// Of which length-only.
    pub chars_rows: u64,
    /// Your characters per token, p5 / p50 / p95.
    pub chars_per_token: [f64; 3],
    /// The shipped profile's median characters per token for this kind (prose for unlabelled rows).
    pub shipped_chars_per_token: f64,
    /// The shipped profile's median signed error on your rows: (estimate − reported) / reported.
    pub shipped_median_error: f64,
    /// Its median absolute error.
    pub shipped_median_abs_error: f64,
    /// How often your reported count fell inside the shipped band.
    pub shipped_band_coverage: f64,
    /// The refitted band, when there were enough text rows.
    pub band: Option<FittedBand>,
    /// Whether this kind's characters per token were refitted.
    pub chars_per_token_refitted: bool,
    /// Why something was not refitted.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// A kind's refitted band.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FittedBand {
    /// The factor the median now applies to the shipped rates' sum for this kind.
    pub median_correction: f64,
    /// Median absolute error of the refitted median on your rows (in sample).
    pub median_abs_error: f64,
    /// Band coverage on held-out rows (fit on every other row, checked on the rest): aim for 0.90.
    pub held_out_coverage: f64,
}

/// Completion tokens on one route, and the output cap they suggest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CapReport {
    /// The route (or model).
    pub route: String,
    /// Requests with `completion_tokens`.
    pub requests: u64,
    /// Median completion tokens.
    pub p50: u64,
    /// 99th percentile.
    pub p99: u64,
    /// 99.9th percentile.
    pub p999: u64,
    /// The largest seen.
    pub max: u64,
    /// The cap to set (`max_tokens`): the p99.9. Admission should charge prompt plus this.
    pub recommended_max_tokens: u64,
    /// Past requests that cap would have cut short.
    pub cut_short: u64,
}

/// Characters per token over every row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Histogram {
    /// Bin width (characters per token).
    pub bin: f64,
    /// Rows per bin, from 0.
    pub counts: Vec<u64>,
    /// Rows beyond the last bin.
    pub overflow: u64,
}

impl Histogram {
    fn total(&self) -> u64 {
        self.counts.iter().sum::<u64>() + self.overflow
    }

    /// The `q` quantile (bin midpoint), `None` when empty.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let n = self.total();
        if n == 0 {
            return None;
        }
        let need = ((q * n as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= need {
                return Some((i as f64 + 0.5) * self.bin);
            }
        }
        Some(self.counts.len() as f64 * self.bin)
    }
}

/// The calibration's findings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CalibrationReport {
    /// The fitted profile's name.
    pub profile: String,
    /// The profile it started from.
    pub base: String,
    /// Rows used.
    pub rows: u64,
    /// More rows than [`RESERVOIR`] for some kind: its quantiles come from a uniform sample.
    pub sampled: bool,
    /// Per content kind that had rows, in table order (`unlabelled` last).
    pub kinds: Vec<KindReport>,
    /// Per route, where rows carry `completion_tokens`.
    pub output_caps: Vec<CapReport>,
    /// Characters per token over every row.
    #[serde(skip)]
    pub histogram: Histogram,
}

impl CalibrationReport {
    /// An SVG histogram of characters per token, with the median and the p5–p95 band marked.
    pub fn svg(&self) -> String {
        let h = &self.histogram;
        let (p5, p50, p95) = (
            h.quantile(0.05).unwrap_or(0.0),
            h.quantile(0.5).unwrap_or(0.0),
            h.quantile(0.95).unwrap_or(0.0),
        );
        let last = h
            .quantile(0.995)
            .map_or(8.0, |x| (x * 1.1).clamp(4.0, h.counts.len() as f64 * h.bin));
        let nbins = ((last / h.bin).ceil() as usize).min(h.counts.len()).max(1);
        let max = h.counts[..nbins].iter().copied().max().unwrap_or(0).max(1);
        let (w, ht, left, bottom, top) = (720.0, 320.0, 50.0, 40.0, 40.0);
        let plot_w = w - left - 20.0;
        let plot_h = ht - top - bottom;
        let x_of = |cpt: f64| left + cpt / (nbins as f64 * h.bin) * plot_w;
        let mut s = String::new();
        let _ = write!(
            s,
            "{}\n<title>Characters per token: {} rows, profile {}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
            svg::open(w, ht, 12),
            self.rows,
            svg::escape(&self.profile)
        );
        let _ = writeln!(
            s,
            "<rect class=\"band\" x=\"{:.1}\" y=\"{top}\" width=\"{:.1}\" height=\"{plot_h}\" fill=\"#dbe8f7\"/>",
            x_of(p5),
            (x_of(p95) - x_of(p5)).max(1.0)
        );
        let bw = plot_w / nbins as f64;
        for (i, c) in h.counts[..nbins].iter().enumerate() {
            if *c == 0 {
                continue;
            }
            let bh = *c as f64 / max as f64 * plot_h;
            let _ = writeln!(
                s,
                "<rect class=\"bar\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"#3b6ea8\"/>",
                left + i as f64 * bw,
                top + plot_h - bh,
                (bw - 0.5).max(0.5)
            );
        }
        let _ = writeln!(
            s,
            "<line class=\"median\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{top}\" y2=\"{:.1}\" stroke=\"#c0392b\" stroke-width=\"2\"/>",
            top + plot_h,
            x = x_of(p50)
        );
        let _ = writeln!(
            s,
            "<text x=\"{left}\" y=\"20\">characters per token: median {p50:.2}, p5–p95 band {p5:.2}–{p95:.2} (shaded), {} rows</text>",
            self.rows
        );
        let axis_y = top + plot_h;
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" x2=\"{:.1}\" y1=\"{axis_y}\" y2=\"{axis_y}\" stroke=\"black\"/>",
            left + plot_w
        );
        let span = nbins as f64 * h.bin;
        let step = if span > 10.0 { 2.0 } else { 1.0 };
        let mut t = 0.0;
        while t <= span + 1e-9 {
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{t}</text>",
                x_of(t),
                axis_y + 16.0
            );
            t += step;
        }
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">characters per token</text>\n</svg>",
            left + plot_w / 2.0,
            axis_y + 34.0
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Profile;

    #[test]
    fn reservoir_is_bounded_and_uniform_enough() {
        let mut r = Reservoir::new(1000, 7);
        for i in 0..100_000u64 {
            r.push(i);
        }
        assert_eq!(r.items.len(), 1000);
        assert!(r.sampled());
        let mean = r.items.iter().sum::<u64>() as f64 / 1000.0;
        assert!((mean - 50_000.0).abs() < 5_000.0, "{mean}");
    }

    #[test]
    fn caps_use_nearest_rank() {
        let mut h = BTreeMap::new();
        for v in 1..=1000u64 {
            h.insert(v, 1);
        }
        let c = cap_report("r", &h);
        assert_eq!((c.p50, c.p99, c.p999, c.max), (500, 990, 999, 1000));
        assert_eq!(c.cut_short, 1);
    }

    #[test]
    fn a_row_without_tokens_or_text_is_refused() {
        let mut c = Calibration::new(Profile::O200k);
        assert!(c.add(&LogRow::default()).is_err());
        let row = LogRow {
            prompt_tokens: Some(5),
            ..LogRow::default()
        };
        assert!(c.add(&row).unwrap_err().0.contains("neither"));
        assert_eq!(c.rows(), 0);
    }
}
