//! Calibration: from the committed corpus and real tokenizer counts to llm-preflight's rate tables.
//!
//! - `counts`: recount the corpus with tiktoken-rs (o200k, cl100k), merge the other vendors' counts
//!   (`calibration/vendor-counts.tsv`, made by `calibration/vendors/count.mjs`), write `calibration/counts.tsv`.
//! - `fit`: fit the rates per profile on the `fit` split and write `src/tables.rs`.
//! - `eval`: report accuracy on the held-out `eval` split (never used for fitting), write `calibration/REPORT.md`.
//! - `probe`: report accuracy on `calibration/probe/` (texts from other files than the corpus's, never fitted on),
//!   write `calibration/PROBE.md`.
//!
//! The split is fixed by a hash of each sample's id, so adding samples never moves old ones between splits.

// Matrix code reads best with explicit indices.
#![allow(clippy::needless_range_loop)]

use llm_preflight::internals::estimate::{
    additive_high, from_features, from_features_with, high_inputs, linear, HighInputs, HIGH_TERMS,
};
use llm_preflight::internals::profile_file::{decode_rate, encode_rate};
use llm_preflight::internals::scan::{scan, Class, Features, FEATURE_NAMES, NF};
use llm_preflight::{ContentKind, Profile};

/// How many profiles there are (one column of counts, one table each).
const NP: usize = Profile::COUNT;
pub mod families;
pub mod periodic;
pub mod runs;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A share as a percentage with one decimal.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// The repository root (the parent of this crate).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crate has a parent")
        .to_path_buf()
}

/// FNV-1a 64 of a sample id: stable across platforms and releases.
pub fn split_hash(id: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in id.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// Which of the five cross-validation folds inside the fit split a sample is in (`cv`, [`oof_weights`]).
pub fn cv_fold(id: &str) -> usize {
    (split_hash(id) / 3 % 5) as usize
}

/// The source an origin line of a `SOURCES.tsv` names: what comes before its first `": "` (the package, crate or
/// site and its version), without the file and lines. Samples cut from one source share its wording, layout and
/// vocabulary.
pub fn source_of(origin: &str) -> &str {
    origin.split(": ").next().unwrap_or(origin)
}

/// Each sample's source ([`source_of`] its origin in `<dir>/<label>/SOURCES.tsv`), by id.
pub fn load_sources(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.filter_map(|e| e.ok()) {
        let Ok(t) = std::fs::read_to_string(e.path().join("SOURCES.tsv")) else {
            continue;
        };
        for line in t.lines().skip(1) {
            let mut cols = line.split('\t');
            if let (Some(id), Some(origin)) = (cols.next(), cols.next()) {
                out.insert(id.to_string(), source_of(origin).to_string());
            }
        }
    }
    out
}

/// Which of five folds a source's samples all go to in `calibrate cv --by-source`: out-of-fold samples are then
/// from sources the rates never saw, as a user's texts are (where the plain folds of [`cv_fold`] split one source's
/// samples between fitting and scoring).
pub fn source_fold(source: &str) -> usize {
    cv_fold(source)
}

/// Which side of the split a sample is on.
pub fn split_of(id: &str) -> &'static str {
    if split_hash(id).is_multiple_of(3) {
        "eval"
    } else {
        "fit"
    }
}

/// One corpus sample.
#[derive(Debug, Clone)]
pub struct Sample {
    /// File name without `.txt`.
    pub id: String,
    /// The corpus directory it lives in (the labelled content kind).
    pub label: String,
    /// The text.
    pub text: String,
}

/// Reads every `corpus/<label>/*.txt`, sorted by label then id.
pub fn load_corpus(root: &Path) -> Vec<Sample> {
    load_samples(&root.join("corpus"))
}

/// Reads every `<dir>/<label>/*.txt` (`tools/` aside), sorted by label then id.
pub fn load_samples(dir: &Path) -> Vec<Sample> {
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(dir)
        .expect("the sample directory exists")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir() && e.file_name() != "tools")
        .collect();
    dirs.sort_by_key(|e| e.file_name());
    for d in dirs {
        let label = d.file_name().to_string_lossy().into_owned();
        let mut files: Vec<_> = std::fs::read_dir(d.path())
            .expect("readable")
            .filter_map(|e| e.ok())
            .filter(|e| e.path().extension().is_some_and(|x| x == "txt"))
            .collect();
        files.sort_by_key(|e| e.file_name());
        for f in files {
            let id = f
                .path()
                .file_stem()
                .expect("stem")
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(f.path()).expect("corpus samples are UTF-8");
            out.push(Sample {
                id,
                label: label.clone(),
                text,
            });
        }
    }
    out
}

/// The columns of `counts.tsv` after `id label split chars bytes`: the profiles, in `Profile::ALL` order.
pub const COUNT_COLUMNS: [&str; NP] = Profile::NAMES;

/// A row of `counts.tsv`.
#[derive(Debug, Clone, PartialEq)]
pub struct CountRow {
    /// Sample id.
    pub id: String,
    /// Corpus label.
    pub label: String,
    /// `fit` or `eval`.
    pub split: String,
    /// Characters.
    pub chars: u64,
    /// UTF-8 bytes.
    pub bytes: u64,
    /// True token counts per profile, in `Profile::ALL` order; `None` where that tokenizer gave none.
    pub truth: [Option<u64>; NP],
}

/// Parses `counts.tsv`.
pub fn read_counts(path: &Path) -> Vec<CountRow> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut rows = Vec::new();
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        if c.len() < 5 + 9 {
            continue;
        }
        let mut truth = [None; NP];
        for (i, t) in truth.iter_mut().enumerate() {
            *t = c[5 + i].parse().ok();
        }
        rows.push(CountRow {
            id: c[0].into(),
            label: c[1].into(),
            split: c[2].into(),
            chars: c[3].parse().unwrap_or(0),
            bytes: c[4].parse().unwrap_or(0),
            truth,
        });
    }
    rows
}

/// Writes `counts.tsv`.
pub fn write_counts(rows: &[CountRow]) -> String {
    let mut s = String::from("id\tlabel\tsplit\tchars\tbytes");
    for c in COUNT_COLUMNS {
        s.push('\t');
        s.push_str(c);
    }
    s.push('\n');
    for r in rows {
        let _ = write!(
            s,
            "{}\t{}\t{}\t{}\t{}",
            r.id, r.label, r.split, r.chars, r.bytes
        );
        for t in r.truth {
            s.push('\t');
            if let Some(t) = t {
                let _ = write!(s, "{t}");
            }
        }
        s.push('\n');
    }
    s
}

/// Reads `vendor-counts.tsv` (header `id` then profile names) into id → (profile index → count).
pub fn read_vendor_counts(path: &Path) -> BTreeMap<String, [Option<u64>; NP]> {
    let mut out = BTreeMap::new();
    let Ok(text) = std::fs::read_to_string(path) else {
        return out;
    };
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let cols: Vec<Option<usize>> = header
        .iter()
        .map(|h| Profile::from_name(h).ok().map(|p| p as usize))
        .collect();
    for line in lines {
        let c: Vec<&str> = line.split('\t').collect();
        let mut t = [None; NP];
        for (j, v) in c.iter().enumerate().skip(1) {
            if let Some(Some(pi)) = cols.get(j) {
                t[*pi] = v.parse().ok();
            }
        }
        out.insert(c[0].to_string(), t);
    }
    out
}

/// Makes count rows for the corpus: OpenAI encodings counted now, other vendors from `vendor`.
pub fn count_corpus(
    samples: &[Sample],
    vendor: &BTreeMap<String, [Option<u64>; NP]>,
) -> Vec<CountRow> {
    let o = llm_preflight::ExactCounter::new(Profile::O200k).expect("o200k loads");
    let c = llm_preflight::ExactCounter::new(Profile::Cl100k).expect("cl100k loads");
    samples
        .iter()
        .map(|s| {
            let mut truth = vendor.get(&s.id).copied().unwrap_or([None; NP]);
            truth[Profile::O200k as usize] = Some(o.count(&s.text));
            truth[Profile::Cl100k as usize] = Some(c.count(&s.text));
            CountRow {
                id: s.id.clone(),
                label: s.label.clone(),
                split: split_of(&s.id).into(),
                chars: s.text.chars().count() as u64,
                bytes: s.text.len() as u64,
                truth,
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------------------------
// Fitting

/// Non-negative least squares (Lawson–Hanson active set) on the normal equations `ata`, `atb`.
pub fn nnls(ata: &[Vec<f64>], atb: &[f64]) -> Vec<f64> {
    let n = atb.len();
    let mut w = vec![0.0; n];
    let mut passive = vec![false; n];
    let tol = 1e-10;
    for _outer in 0..(3 * n) {
        let grad: Vec<f64> = (0..n)
            .map(|j| atb[j] - (0..n).map(|k| ata[j][k] * w[k]).sum::<f64>())
            .collect();
        let mut best = None;
        for j in 0..n {
            if !passive[j] && grad[j] > tol && best.is_none_or(|b: usize| grad[j] > grad[b]) {
                best = Some(j);
            }
        }
        let Some(j) = best else { break };
        passive[j] = true;
        for _inner in 0..(3 * n) {
            let s = solve_subset(ata, atb, &passive);
            if (0..n).all(|i| !passive[i] || s[i] > tol) {
                w = s;
                break;
            }
            let mut alpha = f64::INFINITY;
            for i in 0..n {
                if passive[i] && s[i] <= tol {
                    let a = w[i] / (w[i] - s[i]);
                    if a < alpha {
                        alpha = a;
                    }
                }
            }
            for i in 0..n {
                w[i] += alpha * (s[i] - w[i]);
                if passive[i] && w[i] <= tol {
                    passive[i] = false;
                    w[i] = 0.0;
                }
            }
        }
    }
    w
}

/// Solves the normal equations restricted to the passive set (others zero), with a tiny ridge for stability.
fn solve_subset(ata: &[Vec<f64>], atb: &[f64], passive: &[bool]) -> Vec<f64> {
    let idx: Vec<usize> = (0..atb.len()).filter(|&i| passive[i]).collect();
    let m = idx.len();
    let mut a = vec![vec![0.0; m + 1]; m];
    for (r, &i) in idx.iter().enumerate() {
        for (c, &j) in idx.iter().enumerate() {
            a[r][c] = ata[i][j] + if r == c { 1e-9 } else { 0.0 };
        }
        a[r][m] = atb[i];
    }
    // Gaussian elimination with partial pivoting.
    for col in 0..m {
        let piv = (col..m)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, piv);
        let d = a[col][col];
        if d.abs() < 1e-300 {
            continue;
        }
        for r in 0..m {
            if r != col {
                let fct = a[r][col] / d;
                if fct != 0.0 {
                    for c in col..=m {
                        a[r][c] -= fct * a[col][c];
                    }
                }
            }
        }
    }
    let mut out = vec![0.0; atb.len()];
    for (r, &i) in idx.iter().enumerate() {
        out[i] = if a[r][r].abs() < 1e-300 {
            0.0
        } else {
            a[r][m] / a[r][r]
        };
    }
    out
}

/// A sample ready for fitting: its features and true counts.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The count row.
    pub row: CountRow,
    /// The scanner's counts for the text.
    pub x: Features,
}

/// Scans every sample that has a count row.
pub fn prepare(samples: &[Sample], rows: &[CountRow]) -> Vec<Prepared> {
    let by_id: BTreeMap<&str, &Sample> = samples.iter().map(|s| (s.id.as_str(), s)).collect();
    rows.iter()
        .filter_map(|r| {
            by_id.get(r.id.as_str()).map(|s| Prepared {
                row: r.clone(),
                x: scan(&s.text),
            })
        })
        .collect()
}

/// Fits one profile's rates: minimise the sum of absolute relative errors (IRLS) with non-negative rates.
pub fn fit_weights(data: &[&Prepared], p: usize) -> [f64; NF] {
    let rows: Vec<(&Features, f64)> = data
        .iter()
        .filter_map(|d| d.row.truth[p].filter(|&t| t > 0).map(|t| (&d.x, t as f64)))
        .collect();
    // Scale columns so the normal equations are well conditioned.
    let mut scale = [0.0f64; NF];
    for (x, y) in &rows {
        for j in 0..NF {
            let v = x.v[j] as f64 / y;
            scale[j] += v * v;
        }
    }
    for s in scale.iter_mut() {
        *s = if *s > 0.0 { s.sqrt() } else { 1.0 };
    }
    let mut u = vec![1.0f64; rows.len()];
    let mut w = vec![0.0; NF];
    for _iter in 0..12 {
        let mut ata = vec![vec![0.0; NF]; NF];
        let mut atb = vec![0.0; NF];
        for (k, (x, y)) in rows.iter().enumerate() {
            let a: Vec<f64> = (0..NF).map(|j| x.v[j] as f64 / y / scale[j]).collect();
            for i in 0..NF {
                if a[i] == 0.0 {
                    continue;
                }
                atb[i] += u[k] * a[i];
                for j in 0..NF {
                    ata[i][j] += u[k] * a[i] * a[j];
                }
            }
        }
        w = nnls(&ata, &atb);
        for (k, (x, y)) in rows.iter().enumerate() {
            let pred: f64 = (0..NF).map(|j| x.v[j] as f64 / y / scale[j] * w[j]).sum();
            u[k] = 1.0 / (pred - 1.0).abs().max(0.01);
        }
    }
    let mut out = [0.0; NF];
    for j in 0..NF {
        out[j] = w[j] / scale[j];
    }
    out
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 1.0;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Significand bits a table value keeps after the leading one (f16 keeps 10): a relative step of 2⁻¹¹, so rounding
/// moves a value by at most 0.025%, and the estimates by far less than their error. Each stored f32 then ends in 12
/// zero bits, which gzip packs.
pub const TABLE_BITS: u32 = 11;

/// Significand bits a rate keeps after the leading one: a relative step of 2⁻⁸, so rounding moves a rate, and an
/// estimate, by at most 0.2%; 5-fold cross-validation inside the fit split gives the same pooled medians and p90,
/// within 0.1 point, as at [`TABLE_BITS`]. Each 16-bit rate code then ends in three zero bits, which gzip packs: 170
/// rates for 9 profiles fit the wasm build's size budget only so (257 bytes less than at [`TABLE_BITS`]).
pub const RATE_BITS: u32 = 8;

/// How [`quantize`] rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// To the nearest table value.
    Nearest,
    /// Toward −∞ (a band's low end: rounding never uncovers a sample).
    Down,
    /// Toward +∞ (a band's high end).
    Up,
}

/// Rounds to a value the tables can hold exactly: [`TABLE_BITS`] significand bits, so the f32 the library stores is
/// this very number and the library computes with what calibration computed with. Zero, non-finite values and
/// magnitudes below 1e-30 (beyond f32's normal range, and worth nothing as a rate) give zero.
pub fn quantize(x: f64, mode: Round) -> f64 {
    quantize_to(x, TABLE_BITS, mode)
}

/// [`quantize`] to `bits` significand bits after the leading one (at most 52).
fn quantize_to(x: f64, bits: u32, mode: Round) -> f64 {
    if !x.is_finite() || x.abs() < 1e-30 {
        return 0.0;
    }
    let low: u64 = (1 << (52 - bits)) - 1;
    let half: u64 = 1 << (51 - bits);
    let raw = x.to_bits();
    let (sign, mag) = (raw & (1 << 63), raw & !(1 << 63));
    let toward_zero = mag & !low;
    let away = if mag & low == 0 { mag } else { (mag | low) + 1 };
    let m = match (mode, x > 0.0) {
        (Round::Nearest, _) => (mag + half) & !low,
        (Round::Down, true) | (Round::Up, false) => toward_zero,
        (Round::Down, false) | (Round::Up, true) => away,
    };
    f64::from_bits(sign | m)
}

/// A rate rounded as the tables hold it (to [`RATE_BITS`]), with rates under 2^-15 tokens a count set to zero: the
/// shipped rates' 16-bit codes hold nothing smaller (`profile_file::encode_rate`), and such a rate adds under a
/// token in 32,768 counts.
pub fn quantize_rate(x: f64) -> f64 {
    if x.abs() < 1.0 / 32768.0 {
        0.0
    } else {
        quantize_to(x, RATE_BITS, Round::Nearest)
    }
}

/// A profile's band model: per detected kind `[m, z_lo, z_hi]`, and the spread `[a, b, c]`.
///
/// For a text whose linear estimate is `L` tokens, whose kind is `k` and whose share of characters in long runs is
/// `r` ([`llm_preflight::internals::estimate::repeat_share`]): `ln(true / L) ≈ m + z·σ` with `σ = sqrt(a + b / L + c·r)`: a
/// floor `a` for how far texts of a kind differ, a part that shrinks as texts grow, and a part for long runs, which
/// the rates price least surely. The median is `L·e^m`, the band `L·e^(m + z_lo·σ)` to `L·e^(m + z_hi·σ)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BandModel {
    /// Per detected kind: median log ratio, and the standardised low and high ends.
    pub kinds: [[f64; 3]; ContentKind::COUNT],
    /// The spread `[a, b, c]`.
    pub spread: [f64; 3],
}

/// One residual for band fitting: (label, detected kind, ln(true / linear), linear tokens, repeat share).
pub type Residual = (String, usize, f64, f64, f64);

/// Residuals of the rates `w` on `data`.
pub fn residuals(data: &[&Prepared], p: usize, w: &[f64; NF]) -> Vec<Residual> {
    data.iter()
        .filter_map(|d| {
            let t = d.row.truth[p]?;
            let lin: f64 = (0..NF).map(|j| w[j] * d.x.v[j] as f64).sum();
            (lin > 0.0 && t > 0).then(|| {
                (
                    d.row.label.clone(),
                    ContentKind::detect(&d.x) as usize,
                    (t as f64 / lin).ln(),
                    lin,
                    llm_preflight::internals::estimate::repeat_share(&d.x),
                )
            })
        })
        .collect()
}

/// Rates fitted without each of the five [`cv_fold`]s of `data` (quantised as the tables are): what out-of-fold
/// residuals and the high end's fit price each sample with.
pub fn oof_weights(data: &[&Prepared], p: usize) -> Vec<[f64; NF]> {
    (0..5)
        .map(|k| {
            let train: Vec<&Prepared> = data
                .iter()
                .copied()
                .filter(|d| cv_fold(&d.row.id) != k)
                .collect();
            quantized_weights(&train, p)
        })
        .collect()
}

/// [`fit_weights`] rounded as the tables hold them ([`quantize_rate`]).
pub fn quantized_weights(data: &[&Prepared], p: usize) -> [f64; NF] {
    let mut w = fit_weights(data, p);
    for x in w.iter_mut() {
        *x = quantize_rate(*x);
    }
    w
}

/// Out-of-fold residuals: each sample is priced by rates fitted without it (5 folds, `oof` from [`oof_weights`]),
/// so the band reflects how the rates do on text they have not seen, not how well they fit their own samples.
pub fn residuals_oof(data: &[&Prepared], p: usize, oof: &[[f64; NF]]) -> Vec<Residual> {
    let mut out = Vec::new();
    for (k, w) in oof.iter().enumerate() {
        let held: Vec<&Prepared> = data
            .iter()
            .copied()
            .filter(|d| cv_fold(&d.row.id) == k)
            .collect();
        out.extend(residuals(&held, p, w));
    }
    out
}

/// One sample for the high end's fit: its label, true count, median estimate, byte cap and high-end inputs.
struct HighRow<'a> {
    label: &'a str,
    truth: f64,
    tokens: u64,
    cap: u64,
    inputs: HighInputs,
}

/// The high end as the library prices it from `u` ([`additive_high`], rounded up, clamped, at least the median).
fn high_of(r: &HighRow, u: &[f64; HIGH_TERMS]) -> u64 {
    let h = additive_high(&r.inputs, u).ceil();
    ((h.max(1.0) as u64).min(r.cap)).max(r.tokens)
}

/// Fits the additive high end's terms ([`additive_high`]: `U` per class, each ≥ 1, then `Z` ≥ 0) for one profile.
/// Each sample is priced out of fold (rates from `oof`, the band model `bm`). From the narrowest high end, nearest
/// miss first, the term is raised that covers one more sample for the least added mean width (high over median),
/// until `target[0]` of all samples and `target[1]` of every labelled kind's are under it; each term is then
/// lowered as far as the targets allow, every `U − 1` and `Z` stretched by [`HIGH_MARGIN`] and rounded up to table
/// values.
pub fn fit_high(
    data: &[&Prepared],
    p: usize,
    oof: &[[f64; NF]],
    bm: &BandModel,
    target: [f64; 2],
) -> [f64; HIGH_TERMS] {
    let profile = Profile::ALL[p];
    let rows: Vec<HighRow> = data
        .iter()
        .filter_map(|d| {
            let t = d.row.truth[p].filter(|&t| t > 0)?;
            let w = &oof[cv_fold(&d.row.id)];
            let e = from_features_with(&d.x, profile, w, &bm.kinds, bm.spread, None);
            Some(HighRow {
                label: d.row.label.as_str(),
                truth: t as f64,
                tokens: e.tokens,
                cap: profile.max_tokens(d.x.bytes, d.x.chars),
                inputs: high_inputs(&d.x, profile, w, &bm.kinds, bm.spread),
            })
        })
        .collect();
    let mut labels: Vec<&str> = rows.iter().map(|r| r.label).collect();
    labels.sort_unstable();
    labels.dedup();
    let label_of: Vec<usize> = rows
        .iter()
        .map(|r| labels.binary_search(&r.label).unwrap_or(0))
        .collect();
    let n = rows.len().max(1) as f64;
    // Whether every kind, and all samples pooled, reach their target under `u`; and each sample's shortfall.
    let check = |u: &[f64; HIGH_TERMS]| {
        let mut covered = vec![(0.0f64, 0.0f64); labels.len()];
        let under: Vec<bool> = rows
            .iter()
            .zip(&label_of)
            .map(|(r, &l)| {
                let inside = r.truth <= high_of(r, u) as f64;
                covered[l].0 += f64::from(u8::from(inside));
                covered[l].1 += 1.0;
                !inside
            })
            .collect();
        let pooled = covered.iter().map(|c| c.0).sum::<f64>() / n < target[0];
        let short: Vec<bool> = covered
            .iter()
            .map(|c| pooled || c.0 / c.1 < target[1])
            .collect();
        (short.iter().any(|&s| s), short, under)
    };
    // How much each term adds to a sample's high end per unit, and to the mean width (high over median).
    let slope = |r: &HighRow, c: usize| {
        if c < Class::COUNT {
            (r.inputs.parts[c] - r.inputs.periodic_parts[c]).max(0.0)
        } else {
            r.inputs
                .parts
                .iter()
                .map(|p| p.max(0.0))
                .sum::<f64>()
                .sqrt()
        }
    };
    let cost: Vec<f64> = (0..HIGH_TERMS)
        .map(|c| {
            rows.iter()
                .map(|r| slope(r, c) / r.tokens.max(1) as f64)
                .sum::<f64>()
                / n
        })
        .collect();
    // Nearest miss first: from the narrowest high end (`U = 1`, `Z = 0`), raise the one term that covers one more
    // sample of a kind short of its target for the least added width, until every kind reaches it.
    let mut u = [1.0f64; HIGH_TERMS];
    u[Class::COUNT] = 0.0;
    for _ in 0..rows.len() * 4 {
        let (any, short, under) = check(&u);
        if !any {
            break;
        }
        let mut best: Option<(f64, usize, f64)> = None;
        for ((r, &l), &out) in rows.iter().zip(&label_of).zip(&under) {
            if !out || !short[l] {
                continue;
            }
            let gap = r.truth - additive_high(&r.inputs, &u);
            for c in 0..HIGH_TERMS {
                let s = slope(r, c);
                if s > 0.0 && cost[c] > 0.0 {
                    let step = gap.max(0.0) / s + 1e-9;
                    if best.is_none_or(|b| step * cost[c] < b.0) {
                        best = Some((step * cost[c], c, step));
                    }
                }
            }
        }
        let Some((_, c, step)) = best else { break };
        u[c] += step;
    }
    // Then each term as low as it goes with every target still met (bisection), twice round.
    for _ in 0..2 {
        for c in 0..HIGH_TERMS {
            let floor = if c < Class::COUNT { 1.0 } else { 0.0 };
            let (mut lo, mut hi) = (floor, u[c]);
            for _ in 0..30 {
                let mid = (lo + hi) / 2.0;
                let mut v = u;
                v[c] = mid;
                if check(&v).0 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            u[c] = hi;
        }
    }
    let mut out = [0.0; HIGH_TERMS];
    for (i, x) in out.iter_mut().enumerate() {
        let floor = if i < Class::COUNT { 1.0 } else { 0.0 };
        *x = quantize(floor + (u[i] - floor).max(0.0) * HIGH_MARGIN, Round::Up);
    }
    out
}

/// Fits the band model: kind medians; the spread by non-negative least squares of squared residuals on
/// `[1, 1/L, r]`; per kind
/// the p5 and p95 of standardised residuals, at least the pooled middle 95% of them ([`POOLED_FLOOR_Q`]), then
/// widened, nearest miss first, until every labelled kind reaches `target` coverage.
pub fn fit_band_model(items: &[Residual], target: f64) -> BandModel {
    let mut by_kind: Vec<Vec<f64>> = vec![Vec::new(); ContentKind::COUNT];
    let mut all: Vec<f64> = items.iter().map(|i| i.2).collect();
    for (_, k, r, _, _) in items {
        by_kind[*k].push(*r);
    }
    all.sort_by(f64::total_cmp);
    let pooled_mid = quantile(&all, 0.5);
    let mut mids = [pooled_mid; ContentKind::COUNT];
    for k in 0..ContentKind::COUNT {
        let v = &mut by_kind[k];
        v.sort_by(f64::total_cmp);
        if v.len() >= 8 {
            mids[k] = quantile(v, 0.5);
        } else if !v.is_empty() {
            // Few samples: shrink toward the pooled median.
            mids[k] =
                (quantile(v, 0.5) * v.len() as f64 + pooled_mid * 8.0) / (v.len() as f64 + 8.0);
        }
    }
    // Spread: e² ≈ a + b/L + c·r by least squares, all three non-negative (a at least 1e-6).
    let mut ata = vec![vec![0.0; 3]; 3];
    let mut atb = vec![0.0; 3];
    for (_, k, r, l, rho) in items {
        let e2 = (r - mids[*k]).powi(2);
        let row = [1.0, 1.0 / l.max(1.0), *rho];
        for i in 0..3 {
            atb[i] += row[i] * e2;
            for j in 0..3 {
                ata[i][j] += row[i] * row[j];
            }
        }
    }
    let abc = nnls(&ata, &atb);
    let spread = [abc[0].max(1e-6), abc[1], abc[2]].map(|x| quantize(x, Round::Nearest));
    let sigma = |l: f64, rho: f64| (spread[0] + spread[1] / l.max(1.0) + spread[2] * rho).sqrt();
    let z: Vec<(&str, usize, f64)> = items
        .iter()
        .map(|(lab, k, r, l, rho)| (lab.as_str(), *k, (r - mids[*k]) / sigma(*l, *rho)))
        .collect();
    let mut zk: Vec<Vec<f64>> = vec![Vec::new(); ContentKind::COUNT];
    let mut zall: Vec<f64> = z.iter().map(|i| i.2).collect();
    for (_, k, v) in &z {
        zk[*k].push(*v);
    }
    zall.sort_by(f64::total_cmp);
    let pooled = [quantile(&zall, 0.05), quantile(&zall, 0.95)];
    let floor = [
        quantile(&zall, POOLED_FLOOR_Q),
        quantile(&zall, 1.0 - POOLED_FLOOR_Q),
    ];
    let mut kinds = [[0.0; 3]; ContentKind::COUNT];
    for k in 0..ContentKind::COUNT {
        let v = &mut zk[k];
        v.sort_by(f64::total_cmp);
        let (lo, hi) = if v.len() >= 8 {
            (quantile(v, 0.05), quantile(v, 0.95))
        } else if v.is_empty() {
            (pooled[0], pooled[1])
        } else {
            (pooled[0].min(v[0]), pooled[1].max(v[v.len() - 1]))
        };
        // No kind's band is narrower than the middle of every kind's standardised residuals: a kind's own
        // extremes come from a few dozen samples at most and understate how far its next text can fall.
        kinds[k] = [
            mids[k],
            lo.min(0.0).min(floor[0]),
            hi.max(0.0).max(floor[1]),
        ];
    }
    let mut labels: Vec<&str> = z.iter().map(|i| i.0).collect();
    labels.sort();
    labels.dedup();
    for _round in 0..10_000 {
        let mut nearest: Option<(f64, usize, f64)> = None; // (distance, kind, z)
        for label in &labels {
            let mine: Vec<&(&str, usize, f64)> = z.iter().filter(|i| i.0 == *label).collect();
            let covered = mine
                .iter()
                .filter(|i| i.2 >= kinds[i.1][1] && i.2 <= kinds[i.1][2])
                .count();
            if covered as f64 >= target * mine.len() as f64 {
                continue;
            }
            for i in &mine {
                let dist = if i.2 < kinds[i.1][1] {
                    kinds[i.1][1] - i.2
                } else if i.2 > kinds[i.1][2] {
                    i.2 - kinds[i.1][2]
                } else {
                    continue;
                };
                if nearest.is_none_or(|n| dist < n.0) {
                    nearest = Some((dist, i.1, i.2));
                }
            }
        }
        let Some((_, k, v)) = nearest else { break };
        if v < kinds[k][1] {
            kinds[k][1] = v;
        } else {
            kinds[k][2] = v;
        }
    }
    for kb in kinds.iter_mut() {
        // Round outward so rounding never uncovers a sample.
        kb[0] = quantize(kb[0], Round::Nearest);
        kb[1] = quantize(kb[1] * BAND_MARGIN - 1e-6, Round::Down);
        kb[2] = quantize(kb[2] * BAND_MARGIN + 1e-6, Round::Up);
    }
    BandModel { kinds, spread }
}

/// The fitted tables for every profile.
pub struct Tables {
    /// Rates per profile.
    pub weights: [[f64; NF]; NP],
    /// Band models per profile.
    pub bands: [BandModel; NP],
    /// The additive high end's terms per profile ([`fit_high`]).
    pub high: [[f64; HIGH_TERMS]; NP],
    /// Per profile, per detected kind: characters per token at p5, p50 and p95 on the fit split (what a gateway
    /// that logs only lengths can price with; see `chars_per_token_table`).
    pub chars_per_token: [[[f64; 3]; ContentKind::COUNT]; NP],
    /// Run tables per profile (see [`runs`]).
    pub runs: [runs::RunTable; NP],
}

/// Every band end is pushed this much further out, beyond what covers the fit split: the fit split's most extreme
/// samples are not the most extreme texts there are. Chosen by cross-validation inside the fit split.
pub const BAND_MARGIN: f64 = 1.3;

/// Every kind's standardised band ends reach at least the pooled `POOLED_FLOOR_Q` and `1 − POOLED_FLOOR_Q`
/// quantiles of all kinds' standardised residuals (the middle 95%), before the margin. Chosen by cross-validation
/// inside the fit split: kinds whose few samples happened to agree got bands that the next text fell outside.
pub const POOLED_FLOOR_Q: f64 = 0.025;

/// Coverage each labelled kind must reach on the out-of-fold residuals when bands are widened.
pub const FIT_COVERAGE: f64 = 1.0;

/// The additive high end's fit targets: the share of all samples, and of every labelled kind's, under it, out of
/// fold. Chosen with [`HIGH_MARGIN`] by cross-validation inside the fit split (`calibrate cv`): fewer samples over
/// the high end than the bands' (`[m, z_lo, z_hi]`) high end gives, with a high end narrower at the mean.
pub const HIGH_COVERAGE: [f64; 2] = [0.997, 0.95];

/// Every additive high-end term's excess (`U − 1`, and `Z`) is stretched this much beyond what meets
/// [`HIGH_COVERAGE`], as [`BAND_MARGIN`] stretches the bands' ends: the fit split's most extreme samples are not the
/// most extreme texts there are.
pub const HIGH_MARGIN: f64 = 1.3;

/// Fits all profiles from the fit split, with the run tables from the measured runs (`calibration/runs.tsv`).
pub fn fit_all(
    prepared: &[Prepared],
    run_rows: &[runs::RunRow],
    vocab: &std::collections::BTreeSet<char>,
) -> Tables {
    let fit: Vec<&Prepared> = prepared.iter().filter(|d| d.row.split == "fit").collect();
    let mut weights = [[0.0; NF]; NP];
    let empty = BandModel {
        kinds: [[0.0; 3]; ContentKind::COUNT],
        spread: [0.0; 3],
    };
    let mut bands = [empty; NP];
    let mut high = [[0.0; HIGH_TERMS]; NP];
    for p in 0..9 {
        weights[p] = quantized_weights(&fit, p);
        let oof = oof_weights(&fit, p);
        bands[p] = fit_band_model(&residuals_oof(&fit, p, &oof), FIT_COVERAGE);
        high[p] = fit_high(&fit, p, &oof, &bands[p], HIGH_COVERAGE);
    }
    let mut chars_per_token = [[[0.0; 3]; ContentKind::COUNT]; NP];
    for (p, cpt) in chars_per_token.iter_mut().enumerate() {
        *cpt = chars_per_token_table(&fit, p);
    }
    let mut runs = runs::run_tables(run_rows, vocab);
    for t in runs.iter_mut() {
        for w in t.wide.iter_mut() {
            *w = [
                quantize(w[0], Round::Down),
                quantize(w[1], Round::Nearest),
                quantize(w[2], Round::Up),
            ];
        }
        for e in [&mut t.ascii_excess, &mut t.wide_excess] {
            *e = [
                quantize(e[0], Round::Down),
                quantize(e[1], Round::Nearest),
                quantize(e[2], Round::Up),
            ];
        }
    }
    Tables {
        weights,
        bands,
        high,
        chars_per_token,
        runs,
    }
}

/// Fewest samples of a kind whose own characters-per-token quantiles are used; a kind with fewer takes the
/// quantiles of every sample pooled (and `empty` has no text to price).
pub const MIN_KIND_SAMPLES: usize = 8;

/// Characters per token at p5, p50 and p95 for each detected kind, over one profile's samples.
pub fn chars_per_token_table(data: &[&Prepared], p: usize) -> [[f64; 3]; ContentKind::COUNT] {
    let mut by_kind: Vec<Vec<f64>> = vec![Vec::new(); ContentKind::COUNT];
    let mut all = Vec::new();
    for d in data {
        if let Some(t) = d.row.truth[p].filter(|&t| t > 0) {
            let r = d.x.chars as f64 / t as f64;
            by_kind[ContentKind::detect(&d.x) as usize].push(r);
            all.push(r);
        }
    }
    let q3 = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        [0.05, 0.5, 0.95].map(|q| quantize(quantile(v, q), Round::Nearest))
    };
    let pooled = q3(&mut all);
    let mut out = [pooled; ContentKind::COUNT];
    for (k, v) in by_kind.iter_mut().enumerate() {
        if v.len() >= MIN_KIND_SAMPLES {
            out[k] = q3(v);
        }
    }
    out
}

/// Renders `src/tables.rs`.
pub fn render_tables(t: &Tables, n_fit: usize, n_total: usize) -> String {
    let mut s = String::new();
    s.push_str("//! @generated by `cargo run -p calibrate --release -- fit` from `calibration/counts.tsv` and `corpus/`.\n");
    s.push_str("//! Do not edit: regenerate (see calibration/README.md). A test fails when this file and the fit differ.\n");
    let _ = writeln!(s, "//! Fitted on {n_fit} of {n_total} samples (the `fit` split); accuracy is reported on the rest.");
    s.push_str("//! Every value is rounded to 11 significand bits after the leading one (one more than f16), and is exactly the\n");
    s.push_str("//! value calibration computed with: the rates as 16-bit codes (`profile_file::decode_rate`; each row's comment\n");
    s.push_str("//! gives the value), the rest as f32 literals, whose low bits are zeros that gzip packs. The wasm build's size\n");
    s.push_str("//! budget holds the tables only so.\n");
    s.push_str("\n#![allow(clippy::all)]\n\n");
    s.push_str("/// Rate per feature (tokens per count) as its 16-bit code, per profile in `Profile::ALL` order, in\n");
    s.push_str("/// `scan::FEATURE_NAMES` order.\n");
    let _ = writeln!(s, "pub(crate) const RATE_CODES: [[u16; {NF}]; {NP}] = [");
    for (p, w) in t.weights.iter().enumerate() {
        let _ = writeln!(s, "    // {}", Profile::ALL[p].name());
        s.push_str("    [\n");
        for (j, x) in w.iter().enumerate() {
            let code = rate_code(*x, || {
                format!("{}: rate of {}", Profile::ALL[p].name(), FEATURE_NAMES[j])
            });
            let _ = writeln!(
                s,
                "        {code:#06x}, // {} {}",
                FEATURE_NAMES[j],
                lit(*x)
            );
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n\n");
    s.push_str("/// Per profile, per detected content kind: `[m, z_lo, z_hi]` (see `estimate::from_features_with`).\n");
    let _ = writeln!(s, "pub(crate) const BANDS: [&[[f32; 3]]; {NP}] = [");
    for (p, bm) in t.bands.iter().enumerate() {
        let _ = writeln!(s, "    // {}", Profile::ALL[p].name());
        s.push_str("    &[\n");
        for (k, b) in bm.kinds.iter().enumerate() {
            let _ = writeln!(
                s,
                "        [{}, {}, {}], // {}",
                lit(b[0]),
                lit(b[1]),
                lit(b[2]),
                ContentKind::ALL[k].name()
            );
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n\n");
    s.push_str("/// Per profile: the spread `[a, b, c]`, σ = sqrt(a + b / L + c · r) for a linear estimate of L tokens and a\n");
    s.push_str("/// share r of characters in long runs (`estimate::sigma`).\n");
    let _ = writeln!(s, "pub(crate) const SPREAD: [[f32; 3]; {NP}] = [");
    for (p, bm) in t.bands.iter().enumerate() {
        let _ = writeln!(
            s,
            "    [{}, {}, {}], // {}",
            lit(bm.spread[0]),
            lit(bm.spread[1]),
            lit(bm.spread[2]),
            Profile::ALL[p].name()
        );
    }
    s.push_str("];\n\n");
    s.push_str("/// Per profile: the additive high end's terms, `U` per class in `Class::ALL` order, then `Z`\n");
    s.push_str("/// (`estimate::additive_high`).\n");
    let _ = writeln!(s, "pub(crate) const HIGH: [[f32; {HIGH_TERMS}]; {NP}] = [");
    for (p, h) in t.high.iter().enumerate() {
        let terms: Vec<String> = h.iter().map(|x| lit(*x)).collect();
        let _ = writeln!(
            s,
            "    [{}], // {}",
            terms.join(", "),
            Profile::ALL[p].name()
        );
    }
    s.push_str("];\n\n");
    s.push_str("/// Per profile, per detected content kind: characters per token `[p5, p50, p95]` on the fit split (kinds with\n");
    let _ = writeln!(
        s,
        "/// fewer than {MIN_KIND_SAMPLES} samples take every sample's). Prices a text known only by its length."
    );
    let _ = writeln!(
        s,
        "pub(crate) const CHARS_PER_TOKEN: [[[f32; 3]; {}]; {NP}] = [",
        ContentKind::COUNT
    );
    for (p, cpt) in t.chars_per_token.iter().enumerate() {
        let _ = writeln!(s, "    // {}", Profile::ALL[p].name());
        s.push_str("    [\n");
        for (k, c) in cpt.iter().enumerate() {
            let _ = writeln!(
                s,
                "        [{}, {}, {}], // {}",
                lit(c[0]),
                lit(c[1]),
                lit(c[2]),
                ContentKind::ALL[k].name()
            );
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n");
    render_runs(&mut s, &t.runs);
    s
}

/// The 16-bit code a table rate is stored as; calibration stops when a rate has none (`what` names it).
fn rate_code(x: f64, what: impl Fn() -> String) -> u16 {
    encode_rate(x as f32)
        .filter(|&c| f64::from(decode_rate(c)) == x)
        .unwrap_or_else(|| panic!("{}: {x} has no 16-bit code", what()))
}

/// [`rate_code`] as a table literal (`0x79a0`).
fn code_lit(x: f64, what: impl Fn() -> String) -> String {
    format!("{:#06x}", rate_code(x, what))
}

/// The run tables' part of `src/tables.rs`.
fn render_runs(s: &mut String, t: &[runs::RunTable; NP]) {
    use llm_preflight::internals::scan::kind;
    s.push_str("\n/// Per profile: tokens per character of a long run of each ASCII character, as rate codes (0: a character never\n");
    s.push_str(
        "/// in a repeat), measured with each profile's tokenizer (`calibration/runs.tsv`).\n",
    );
    let _ = writeln!(s, "pub(crate) const RUN_ASCII: [[u16; 128]; {NP}] = [");
    for (p, r) in t.iter().enumerate() {
        let _ = writeln!(s, "    // {}", Profile::ALL[p].name());
        s.push_str("    [\n");
        for row in r.ascii.chunks(8) {
            let codes: Vec<String> = row
                .iter()
                .map(|&x| code_lit(x, || "a run rate".into()))
                .collect();
            let _ = writeln!(s, "        {},", codes.join(", "));
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n\n");
    s.push_str("/// Per profile, per kind of `scan::RUN_WIDE_KINDS`: tokens per character of a long run of a non-ASCII character,\n");
    s.push_str("/// `[least, median, most]` over the kind's measured characters (the median over its typical ones), as rate codes.\n");
    let _ = writeln!(
        s,
        "pub(crate) const RUN_WIDE: [[[u16; 3]; {}]; {NP}] = [",
        llm_preflight::internals::scan::RUN_WIDE_KINDS.len()
    );
    for (p, r) in t.iter().enumerate() {
        let _ = writeln!(s, "    // {}", Profile::ALL[p].name());
        s.push_str("    [\n");
        for &k in &llm_preflight::internals::scan::RUN_WIDE_KINDS {
            let w = r.wide[k as usize];
            let c = |x: f64| code_lit(x, || format!("kind {k}'s run rate"));
            let _ = writeln!(
                s,
                "        [{}, {}, {}], // kind {k}: {}, {}, {}{}",
                c(w[0]),
                c(w[1]),
                c(w[2]),
                lit(w[0]),
                lit(w[1]),
                lit(w[2]),
                if k == kind::K_NCTL {
                    " (C1 controls)"
                } else {
                    ""
                }
            );
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n\n");
    s.push_str("/// Per profile, per kind of `scan::RUN_WIDE_KINDS`: the median tokens per character of a long run of a character\n");
    s.push_str("/// outside the common tier of its block (`kind::is_rare_in_run`), over the kind's measured rare characters, as\n");
    s.push_str("/// rate codes.\n");
    let _ = writeln!(
        s,
        "pub(crate) const RUN_WIDE_RARE: [[u16; {}]; {NP}] = [",
        llm_preflight::internals::scan::RUN_WIDE_KINDS.len()
    );
    for (p, r) in t.iter().enumerate() {
        let cells: Vec<String> = llm_preflight::internals::scan::RUN_WIDE_KINDS
            .iter()
            .map(|&k| {
                code_lit(r.wide_rare[k as usize], || {
                    format!("kind {k}'s rare run rate")
                })
            })
            .collect();
        let _ = writeln!(s, "    // {}", Profile::ALL[p].name());
        let _ = writeln!(s, "    [{}],", cells.join(", "));
    }
    s.push_str("];\n\n");
    s.push_str("/// Per profile: what one run costs beyond its characters' rate, in tokens, `[least, median, most]`, for runs of\n");
    s.push_str("/// ASCII characters and of non-ASCII ones.\n");
    let _ = writeln!(s, "pub(crate) const RUN_EXCESS: [[[f32; 3]; 2]; {NP}] = [");
    for (p, r) in t.iter().enumerate() {
        let e = |x: [f64; 3]| format!("[{}, {}, {}]", lit(x[0]), lit(x[1]), lit(x[2]));
        let _ = writeln!(
            s,
            "    [{}, {}], // {}",
            e(r.ascii_excess),
            e(r.wide_excess),
            Profile::ALL[p].name()
        );
    }
    s.push_str("];\n");
}

pub(crate) fn lit(x: f64) -> String {
    // Every table value is an exact f32 (see `quantize`): its shortest f32 form reads back as the same number.
    let s = format!("{:?}", x as f32);
    if s.contains('.') || s.contains('e') {
        s
    } else {
        format!("{s}.0")
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Evaluation

/// The head of a per-kind table with a column per profile (REPORT.md's and PROBE.md's).
fn push_kind_table_head(s: &mut String) {
    s.push_str("| kind | n |");
    for p in Profile::ALL {
        let _ = write!(s, " {} |", p.name());
    }
    s.push_str("\n|---|---|");
    for _ in Profile::ALL {
        s.push_str("---|");
    }
    s.push('\n');
}

/// Accuracy of one set of predictions.
#[derive(Debug, Clone, Default)]
pub struct Accuracy {
    /// Samples.
    pub n: usize,
    /// Median absolute relative error.
    pub median: f64,
    /// 90th percentile absolute relative error.
    pub p90: f64,
    /// Share within ±10%.
    pub within10: f64,
    /// Share with low ≤ truth ≤ high (bands only).
    pub coverage: f64,
}

/// Summarises (estimate, truth, covered) triples.
pub fn accuracy(items: &[(f64, f64, bool)]) -> Accuracy {
    let mut errs: Vec<f64> = items.iter().map(|(e, t, _)| ((e - t) / t).abs()).collect();
    errs.sort_by(f64::total_cmp);
    let n = items.len();
    if n == 0 {
        return Accuracy::default();
    }
    Accuracy {
        n,
        median: quantile(&errs, 0.5),
        p90: quantile(&errs, 0.9),
        within10: errs.iter().filter(|e| **e <= 0.10).count() as f64 / n as f64,
        coverage: items.iter().filter(|i| i.2).count() as f64 / n as f64,
    }
}

/// The library's estimate for a prepared sample (uses the compiled tables).
pub fn predict(d: &Prepared, p: Profile) -> (f64, u64, u64) {
    let e = from_features(&d.x, p);
    (e.tokens as f64, e.low, e.high)
}

/// Raw linear estimate (before kind correction), for diagnostics.
pub fn predict_linear(d: &Prepared, p: Profile) -> f64 {
    linear(&d.x, p)
}

/// The accuracy report (`calibration/REPORT.md`): held-out accuracy per profile and per labelled kind, beside
/// vocabulary-free peers, with the compiled tables.
pub fn report(root: &Path) -> String {
    let samples = load_corpus(root);
    let rows = read_counts(&root.join("calibration/counts.tsv"));
    let prepared = prepare(&samples, &rows);
    let texts: BTreeMap<&str, &str> = samples
        .iter()
        .map(|s| (s.id.as_str(), s.text.as_str()))
        .collect();
    let mut md = String::new();
    md.push_str("# Accuracy on the held-out split\n\n");
    md.push_str("Generated by `cargo run -p calibrate --release -- eval`. Samples of the `eval` split were never used ");
    md.push_str("to fit rates or bands. Errors are |estimate − true| / true per sample; coverage is the share of ");
    md.push_str("samples with low ≤ true ≤ high.\n\n");
    for split in ["eval", "fit"] {
        let data: Vec<&Prepared> = prepared.iter().filter(|d| d.row.split == split).collect();
        let _ = writeln!(md, "## {} split ({} samples)\n", split, data.len());
        md.push_str("| profile | n | median error | p90 error | within ±10% | band coverage | worst kind (median error) | worst kind coverage |\n|---|---|---|---|---|---|---|---|\n");
        for p in Profile::ALL {
            let pi = p as usize;
            let mut items = Vec::new();
            let mut by_label: BTreeMap<&str, Vec<(f64, f64, bool)>> = BTreeMap::new();
            for d in &data {
                let Some(t) = d.row.truth[pi] else { continue };
                let (e, lo, hi) = predict(d, p);
                let it = (e, t as f64, lo <= t && t <= hi);
                items.push(it);
                by_label.entry(d.row.label.as_str()).or_default().push(it);
            }
            let a = accuracy(&items);
            let per: Vec<(&str, Accuracy)> =
                by_label.iter().map(|(l, v)| (*l, accuracy(v))).collect();
            let worst_med = per.iter().max_by(|a, b| a.1.median.total_cmp(&b.1.median));
            let worst_cov = per
                .iter()
                .min_by(|a, b| a.1.coverage.total_cmp(&b.1.coverage));
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                p.name(),
                a.n,
                pct(a.median),
                pct(a.p90),
                pct(a.within10),
                pct(a.coverage),
                worst_med
                    .map(|w| format!("{} ({})", w.0, pct(w.1.median)))
                    .unwrap_or_default(),
                worst_cov
                    .map(|w| format!("{} ({:.0}%)", w.0, w.1.coverage * 100.0))
                    .unwrap_or_default(),
            );
        }
        md.push('\n');
        if split != "eval" {
            continue;
        }
        // Baselines for o200k on the same samples.
        md.push_str("### o200k against vocabulary-free peers (same eval samples)\n\n");
        md.push_str("| estimator | median error | p90 error | within ±10% |\n|---|---|---|---|\n");
        let oi = Profile::O200k as usize;
        let (mut ours, mut c4, mut te, mut tx) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for d in &data {
            let Some(t) = d.row.truth[oi] else { continue };
            let text = texts[d.row.id.as_str()];
            let t = t as f64;
            ours.push((predict(d, Profile::O200k).0, t, false));
            c4.push(((d.row.chars as f64 / 4.0).ceil(), t, false));
            te.push((
                token_estimate::estimate(text, token_estimate::Profile::Mixed) as f64,
                t,
                false,
            ));
            tx.push((tokenx_rs::estimate_token_count(text) as f64, t, false));
        }
        for (name, v) in [
            ("llm-preflight (o200k)", &ours),
            ("chars / 4", &c4),
            ("token-estimate 0.1 (Mixed)", &te),
            ("tokenx-rs 0.1", &tx),
        ] {
            let a = accuracy(v);
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} |",
                name,
                pct(a.median),
                pct(a.p90),
                pct(a.within10)
            );
        }
        md.push('\n');
        // Per labelled kind, every profile: median error and coverage.
        md.push_str("### Per content kind (eval split): median error / band coverage\n\n");
        push_kind_table_head(&mut md);
        let mut labels: Vec<&str> = data.iter().map(|d| d.row.label.as_str()).collect();
        labels.dedup();
        for l in labels {
            let ds: Vec<&&Prepared> = data.iter().filter(|d| d.row.label == l).collect();
            let _ = write!(md, "| {} | {} |", l, ds.len());
            for p in Profile::ALL {
                let pi = p as usize;
                let items: Vec<(f64, f64, bool)> = ds
                    .iter()
                    .filter_map(|d| {
                        d.row.truth[pi].map(|t| {
                            let (e, lo, hi) = predict(d, p);
                            (e, t as f64, lo <= t && t <= hi)
                        })
                    })
                    .collect();
                let a = accuracy(&items);
                let _ = write!(md, " {} / {:.0}% |", pct(a.median), a.coverage * 100.0);
            }
            md.push('\n');
        }
        md.push('\n');
        // Which detected kinds the labels land in.
        md.push_str("### Detected content kind per labelled kind (eval split)\n\n");
        let mut det: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
        for d in &data {
            *det.entry(d.row.label.as_str())
                .or_default()
                .entry(ContentKind::detect(&d.x).name())
                .or_default() += 1;
        }
        for (l, m) in det {
            let parts: Vec<String> = m.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let _ = writeln!(md, "- {l}: {}", parts.join(", "));
        }
        md.push('\n');
    }
    md
}

/// The probe report (`calibration/PROBE.md`): accuracy with the compiled tables on `calibration/probe/`, texts of
/// 19 kinds gathered from other files than the corpus's (other catalogs, man pages, sources of the same
/// distributions). Nothing was fitted or chosen on them: they show how the estimator does on text from outside the
/// corpus.
pub fn probe_report(root: &Path) -> String {
    let dir = root.join("calibration/probe");
    let samples = load_samples(&dir);
    let vendor = read_vendor_counts(&dir.join("vendor-counts.tsv"));
    let rows = count_corpus(&samples, &vendor);
    // (estimate, truth, covered) per sample: per profile, and per kind and profile.
    type Items = Vec<(f64, f64, bool)>;
    let mut by_profile: Vec<Items> = vec![Vec::new(); NP];
    let mut by_kind: BTreeMap<&str, Vec<Items>> = BTreeMap::new();
    for (smp, row) in samples.iter().zip(&rows) {
        let x = scan(&smp.text);
        for p in Profile::ALL {
            let Some(t) = row.truth[p as usize] else {
                continue;
            };
            let e = from_features(&x, p);
            let item = (e.tokens as f64, t as f64, e.low <= t && t <= e.high);
            by_profile[p as usize].push(item);
            by_kind
                .entry(smp.label.as_str())
                .or_insert_with(|| vec![Vec::new(); NP])[p as usize]
                .push(item);
        }
    }
    let mut s = String::new();
    s.push_str("# Accuracy on the probe set\n\n");
    let _ = write!(
        s,
        "Generated by `cargo run -p calibrate --release -- probe`. The probe set (`calibration/probe/`, {} texts of {} \
         kinds) was gathered from other files than any corpus sample (other gettext catalogs, man pages, sources and \
         patches), with no stretch of 250 characters in common with the corpus. Nothing was fitted or chosen on it. Errors are \
         |estimate − true| / true per sample; coverage is the share with low ≤ true ≤ high.\n\n",
        samples.len(),
        by_kind.len()
    );
    let _ = write!(s, "## All {} probe texts\n\n", samples.len());
    s.push_str("| profile | n | median error | p90 error | within ±10% | band coverage |\n|---|---|---|---|---|---|\n");
    for p in Profile::ALL {
        let a = accuracy(&by_profile[p as usize]);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            p.name(),
            a.n,
            pct(a.median),
            pct(a.p90),
            pct(a.within10),
            pct(a.coverage)
        );
    }
    s.push_str("\n## Per kind: median signed error / band coverage\n\n");
    push_kind_table_head(&mut s);
    for (kind, per) in &by_kind {
        let _ = write!(s, "| {kind} | {} |", per[0].len());
        for items in per {
            let mut signed: Vec<f64> = items.iter().map(|(e, t, _)| (e - t) / t).collect();
            signed.sort_by(f64::total_cmp);
            let covered = items.iter().filter(|i| i.2).count();
            let _ = write!(
                s,
                " {:+.1}% / {}/{} |",
                quantile(&signed, 0.5) * 100.0,
                covered,
                items.len()
            );
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_is_the_package_and_version_without_file_or_lines() {
        let stroke = "Debian package rime-data-stroke 0.0~git20230204.c8bc405-1";
        let a = format!("{stroke}: usr/share/rime-data/stroke.dict.yaml, lines 39833-40094");
        let b = format!("{stroke}: usr/share/rime-data/stroke.dict.yaml, lines 1-9");
        assert_eq!(source_of(&a), stroke);
        assert_eq!(source_of(&b), stroke);
        assert_eq!(source_fold(source_of(&a)), source_fold(source_of(&b)));
        assert_eq!(
            source_of("crate zerovec 0.11.9: src/ule/vartuple.rs whole file"),
            "crate zerovec 0.11.9"
        );
        // The folds are the ids' folds, taken of the source: every fold gets sources.
        let seen: std::collections::BTreeSet<usize> = (0..40)
            .map(|i| source_fold(&format!("crate c{i} 1.0")))
            .collect();
        assert_eq!(seen.len(), 5);
    }

    #[test]
    fn quantized_values_are_exact_f32_with_zero_low_bits_and_round_as_asked() {
        for &x in &[
            0.562362, 1.29022, -0.0484708, 3.86154e-4, 106.886, -2.77, 1.0, 65_504.5,
        ] {
            let [near, down, up] = [Round::Nearest, Round::Down, Round::Up].map(|m| quantize(x, m));
            for q in [near, down, up] {
                assert_eq!(q as f32 as f64, q, "{q} is not an exact f32");
                assert_eq!(
                    (q as f32).to_bits() & 0xfff,
                    0,
                    "{q} keeps more than {TABLE_BITS} bits"
                );
                assert!(
                    (q - x).abs() <= x.abs() * 2f64.powi(-(TABLE_BITS as i32)),
                    "{x} -> {q}"
                );
            }
            assert!(down <= x && x <= up, "{down} <= {x} <= {up}");
            assert!((near - x).abs() <= (down - x).abs().max((up - x).abs()));
            assert!((near - x).abs() <= x.abs() * 2f64.powi(-(TABLE_BITS as i32) - 1));
            // The printed literal reads back as the same value.
            assert_eq!(lit(near).parse::<f32>().map(f64::from), Ok(near));
        }
        // Values already on the grid stay; zero and non-finite values give zero.
        assert_eq!(quantize(0.5, Round::Up), 0.5);
        assert_eq!(quantize(-0.75, Round::Down), -0.75);
        assert_eq!(quantize(0.0, Round::Up), 0.0);
        assert_eq!(quantize(f64::NAN, Round::Nearest), 0.0);
        // A carry out of the significand moves to the next power of two.
        assert_eq!(quantize(1.0 - 1e-9, Round::Up), 1.0);
        assert_eq!(quantize(-(1.0 - 1e-9), Round::Down), -1.0);
    }

    #[test]
    fn a_quantized_rate_has_a_16_bit_code_or_is_zero() {
        use llm_preflight::internals::profile_file::{decode_rate, encode_rate};
        // 6.35e-6 is what the fit gave cl100k's `upper_v` once: no code holds it.
        for &x in &[
            6.3534826e-6,
            1.0 / 32768.0 - 1e-12,
            1.0 / 32768.0,
            3.0517e-5,
            0.5690918,
            38.625,
            1e-3,
        ] {
            let q = quantize_rate(x);
            let code = encode_rate(q as f32).unwrap_or_else(|| panic!("{x} -> {q} has no code"));
            assert_eq!(f64::from(decode_rate(code)), q, "{x}");
        }
        assert_eq!(quantize_rate(6.3534826e-6), 0.0);
        // RATE_BITS significand bits: 0.5690918 is 1.00100011 011...₂ × 2⁻¹, which rounds down after the eighth bit.
        assert_eq!(quantize_rate(0.5690918), 0.568_359_375);
        for &x in &[0.5690918, 38.625, 1e-3, 4.1e-5] {
            let q = quantize_rate(x);
            let code = encode_rate(q as f32).unwrap();
            assert_eq!(code & 7, 0, "{x}: a code's three low bits are zero");
            assert!(
                (q - x).abs() <= x * 2f64.powi(-(RATE_BITS as i32) - 1),
                "{x} -> {q}"
            );
        }
    }
}
