//! Token estimates with a p5–p95 band, from the scanner's counts and the calibrated tables.
//!
//! `tokens = Σ rate[profile][feature] × count[feature]`, scaled by the median correction for the detected content
//! kind; `low` scales the same sum by that kind's p5 ratio (true/estimated), and `high` is additive over the content
//! classes' parts of it ([`additive_high`]), so that it never falls as text is appended; both measured on the
//! calibration split of the corpus. See `calibration/README.md` for how the tables are made.

use crate::content::{repeat_share, ContentKind};
use crate::profile::Profile;
use crate::profile_file::Tables;
use crate::scan::{f, Class, Features, Scanner, NF, RUN_WIDE_KINDS};
use crate::tables::{RUN_ASCII, RUN_EXCESS, RUN_WIDE, RUN_WIDE_RARE};
use serde::{Serialize, Serializer};

/// One part of the content mix: a class of characters, how many there are, and the tokens they cost.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MixPart {
    /// The class (`letters`, `cjk`, `digits`, `punctuation`, `whitespace`, `symbols`, `repeats`, `control`).
    #[serde(serialize_with = "ser_class")]
    pub class: Class,
    /// Characters of that class.
    pub chars: u64,
    /// Estimated tokens those characters cost (median; the parts add up to the estimate before rounding: the largest
    /// part also carries what features of classes with no characters in the text add).
    pub tokens: f64,
}

fn ser_class<S: Serializer>(c: &Class, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(c.name())
}

/// What the text is made of.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Content {
    /// The dominant kind; the band was taken from this kind's measurements.
    pub kind: ContentKind,
    /// Every character class present, with its characters and tokens, largest token share first.
    pub mix: Vec<MixPart>,
}

/// A token estimate: the median, and the p5–p95 band the true count falls in for 90% of real texts.
///
/// Character counting is good enough to decide whether to send a request, not to bill on it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Estimate {
    /// The median estimate.
    pub tokens: u64,
    /// The band's lower end (p5): the true count is below this for about 5% of texts of this kind.
    pub low: u64,
    /// The band's upper end (p95): the true count is above this for about 5% of texts of this kind.
    pub high: u64,
    /// Unicode scalar values in the text.
    pub chars: u64,
    /// What the text is made of.
    pub content: Content,
    /// The tokenizer profile the estimate is for.
    pub profile: Profile,
}

/// Estimates a whole text for one profile. Same as feeding it to an [`Estimator`] in any number of pieces.
///
/// ```
/// use llm_preflight::{estimate, Profile};
/// let est = estimate("The quick brown fox jumps over the lazy dog.", Profile::O200k);
/// assert!(est.low <= est.tokens && est.tokens <= est.high);
/// assert_eq!(est.content.kind.name(), "prose");
/// ```
///
/// `profile` is a shipped [`Profile`] or a loaded [`crate::CustomProfile`] (`&custom`).
pub fn estimate<'a>(text: &str, profile: impl Into<Tables<'a>>) -> Estimate {
    // The scanner is this call's own: its counts are read off it in place, where an `Estimator`, which may go on
    // after it is read, reads them off a copy of its scanner (about 5 KB).
    let mut s = Scanner::new();
    s.feed(text);
    price(&s.end(), profile.into())
}

/// Prices a text known only by its length and kind, from the characters per token measured for that kind: the
/// median is `chars / p50`, the band `chars / p95 ..= chars / p5`. Much wider than an estimate from the text
/// itself; for gateways that log lengths, not text.
pub fn estimate_chars<'a>(
    chars: u64,
    kind: ContentKind,
    profile: impl Into<Tables<'a>>,
) -> Estimate {
    let t = profile.into();
    let [p5, p50, p95] = t.chars_per_token(kind);
    let (tokens, low, high) = if chars == 0 || kind == ContentKind::Empty {
        (0, 0, 0)
    } else {
        let c = chars as f64;
        let clamp = |x: f64| (x.max(1.0) as u64).min(chars.saturating_mul(4));
        let tokens = clamp((c / p50).round());
        (
            tokens,
            clamp((c / p95).floor()).min(tokens),
            clamp((c / p5).ceil()).max(tokens),
        )
    };
    Estimate {
        tokens,
        low,
        high,
        chars,
        content: Content {
            kind,
            mix: Vec::new(),
        },
        profile: t.base(),
    }
}

/// Streaming estimation: feed text (or raw bytes) as it arrives; memory stays constant whatever the length.
#[derive(Debug, Clone)]
pub struct Estimator {
    profile: Profile,
    scanner: Scanner,
}

impl Estimator {
    /// An estimator for one profile that has seen nothing.
    pub const fn new(profile: Profile) -> Self {
        Estimator {
            profile,
            scanner: Scanner::new(),
        }
    }

    /// Adds a piece of text.
    pub fn update(&mut self, text: &str) -> &mut Self {
        self.scanner.feed(text);
        self
    }

    /// Adds raw bytes; a UTF-8 sequence may be split across calls. Invalid UTF-8 is estimated as U+FFFD, the way
    /// `String::from_utf8_lossy` would decode it, and [`Estimator::saw_invalid_utf8`] says so.
    pub fn update_bytes(&mut self, bytes: &[u8]) -> &mut Self {
        self.scanner.feed_bytes(bytes);
        self
    }

    /// The scanner's counts so far (what the estimate is priced from).
    #[doc(hidden)]
    pub fn features(&self) -> Features {
        self.scanner.features()
    }

    /// True once any invalid UTF-8 was replaced.
    pub fn saw_invalid_utf8(&self) -> bool {
        self.scanner.saw_invalid_utf8()
    }

    /// The estimate for everything fed so far. The estimator can keep going afterwards.
    pub fn finish(&self) -> Estimate {
        from_features(&self.scanner.features(), self.profile)
    }

    /// The same text's estimate under another profile, shipped or custom (the counts do not depend on it).
    pub fn finish_as<'a>(&self, profile: impl Into<Tables<'a>>) -> Estimate {
        price(&self.scanner.features(), profile.into())
    }
}

/// Whether feature `i` prices Latin letters: words, letters, capitals, case changes, long words, each letter and
/// capital (all of [`Class::Letters`]). A periodic pattern's letters are Latin: their share is of these features'
/// price.
const fn is_latin(i: usize) -> bool {
    matches!(i, f::LATIN_RUNS..=f::LATIN_LONG | f::CAPS_THEN_LOWER)
        || (i >= f::LETTER_A && i < f::LETTER_A + 26)
        || (i >= f::UPPER_A && i < f::UPPER_A + 26)
}

/// How many stretches of consecutive features attributed to one class, and Latin or not ([`is_latin`]), there are.
const N_CLASS_RUNS: usize = {
    let mut n = 1;
    let mut i = 1;
    while i < NF {
        if Class::of_feature(i) as usize != Class::of_feature(i - 1) as usize
            || is_latin(i) != is_latin(i - 1)
        {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The features as stretches of consecutive indices attributed to one class, and Latin or not (`start`, `end`,
/// class, Latin), in feature order.
const CLASS_RUNS: [(u8, u8, Class, bool); N_CLASS_RUNS] = {
    assert!(NF < 256, "feature indices are stored in bytes");
    let mut runs = [(0u8, 0u8, Class::Letters, false); N_CLASS_RUNS];
    let mut n = 0;
    let mut i = 0;
    while i < NF {
        let c = Class::of_feature(i);
        if n > 0 && runs[n - 1].2 as usize == c as usize && runs[n - 1].3 == is_latin(i) {
            runs[n - 1].1 = i as u8 + 1;
        } else {
            runs[n] = (i as u8, i as u8 + 1, c, is_latin(i));
            n += 1;
        }
        i += 1;
    }
    runs
};

/// The linear estimate's part for each class: `Σ rate × count` over the class's features, in feature order; and
/// the part of it the Latin features ([`is_latin`]) make, to within rounding.
///
/// Summed as `per_class[of_feature(i)] += rate × count` over every `i` would, in the same order (so to the same
/// bits), but in a register over each stretch of one class's features: summed through memory, every addition
/// waited for the last one's store, which took a third of the time of a short text's estimate.
fn per_class<W: Copy + Into<f64>>(x: &Features, w: &[W]) -> ([f64; Class::COUNT], f64) {
    let mut per_class = [0.0f64; Class::COUNT];
    let mut latin = 0.0;
    for &(start, end, class, is_latin) in &CLASS_RUNS {
        // Features past a short table's end are priced at zero (see `rate`): nothing to add.
        let end = (end as usize).min(w.len());
        let start = (start as usize).min(end);
        let before = per_class[class as usize];
        let mut acc = before;
        for (r, &v) in w[start..end].iter().zip(&x.v[start..end]) {
            acc += (*r).into() * count(v);
        }
        per_class[class as usize] = acc;
        if is_latin {
            latin += acc - before;
        }
    }
    (per_class, latin)
}

/// A count as `f64`, through `i64`: the same value as `v as f64` (a count is at most a text's bytes, far below
/// 2^63), in one instruction on x86-64 where the unsigned conversion takes several (a fifth of a short text's
/// estimate went to them).
#[inline(always)]
fn count(v: u64) -> f64 {
    v.min(i64::MAX as u64) as i64 as f64
}

/// A feature's rate; a table written before the feature existed prices it at zero.
#[inline]
fn rate<W: Copy + Into<f64>>(w: &[W], i: usize) -> f64 {
    w.get(i).map_or(0.0, |r| (*r).into())
}

/// The linear part of the model: Σ rate × count, before the per-kind correction.
pub fn linear<'a>(x: &Features, profile: impl Into<Tables<'a>>) -> f64 {
    profile
        .into()
        .weights
        .with(|w| (0..NF).map(|i| rate(w, i) * x.v[i] as f64).sum())
}

/// Prices counted features for a profile. Exposed for tools that scan once and price many ways.
pub fn from_features(x: &Features, profile: Profile) -> Estimate {
    price(x, profile.into())
}

/// Prices counted features with a profile's tables, shipped or custom.
pub fn price(x: &Features, t: Tables<'_>) -> Estimate {
    t.weights
        .with(|w| from_features_with(x, t.base, w, t.bands, t.spread, t.high.as_ref()))
}

/// The spread of `ln(true / L)` for a text whose linear estimate is `lin` tokens: `σ = sqrt(a + b / L + c · r)`
/// with `spread = [a, b, c]` and `r` its [`repeat_share`]. Never NaN: a negative sum gives 0.
pub fn sigma(spread: [f64; 3], lin: f64, x: &Features) -> f64 {
    (spread[0] + spread[1] / lin.max(1.0) + spread[2] * repeat_share(x))
        .max(0.0)
        .sqrt()
}

/// What the text's repeats cost by `profile`'s run tables, `[low, median, high]` tokens: each character in a repeat
/// at the rate a long run of it costs in that profile's vocabulary (measured with its tokenizer, `calibration/runs.tsv`;
/// for a non-ASCII character the least and median of its kind's measured ones, the median of its kind's rare ones
/// for one outside its block's common tier, and at the high end a token per byte, what a rare character of the kind
/// may cost), and each run what a run costs beyond that
/// (a run's remainder, a word-start piece). 100,000 `=` are 1,562.5 at o200k's 64 characters a token, whatever the
/// corpus's short repeats taught the linear rates.
pub fn run_price(x: &Features, profile: Profile) -> [f64; 3] {
    let [ascii, wide] = run_parts(x, profile);
    [0, 1, 2].map(|j| ascii[j] + wide[j])
}

/// A run table's rate from its 16-bit code (`profile_file::decode_rate`).
fn run_rate(code: u16) -> f64 {
    f64::from(crate::profile_file::decode_rate(code))
}

/// [`run_price`] in its two parts, the repeats of ASCII characters and those of the others, `[low, median, high]`
/// each, with their runs' excess.
pub fn run_parts(x: &Features, profile: Profile) -> [[f64; 3]; 2] {
    let p = profile as usize;
    let mut ascii = 0.0;
    for (&n, &code) in x.runs.ascii.iter().zip(&RUN_ASCII[p]) {
        if n > 0 {
            ascii += count(n) * run_rate(code);
        }
    }
    let mut wide = [0.0; 3];
    for (i, &k) in RUN_WIDE_KINDS.iter().enumerate() {
        let n = count(x.runs.wide[k as usize]);
        for (end, &r) in wide.iter_mut().zip(&RUN_WIDE[p][i]) {
            *end += n * run_rate(r);
        }
        // At the median, the characters outside their block's common tier cost the kind's rare ones' rate.
        let rare = count(x.runs.wide_rare[k as usize]);
        wide[1] += rare * (run_rate(RUN_WIDE_RARE[p][i]) - run_rate(RUN_WIDE[p][i][1]));
    }
    // The measured characters are a kind's common ones; a rare one costs more (a rare ideograph or Hangul syllable
    // is 2 or 3 o200k tokens, not 1), up to a token per byte: the high end allows that.
    wide[2] = wide[2].max(count(x.runs.wide_bytes));
    let mut parts = [[ascii; 3], wide];
    let runs = [
        count(x.v[f::REP_RUNS] + x.v[f::REP_ALPHA_RUNS]),
        count(x.v[f::REP_WIDE_RUNS]),
    ];
    // A run's low excess is negative where a neighbour merges into its first token; it is held at or above minus
    // what the run's least four characters cost, so that no run (four characters or more) costs less than nothing
    // at the low end, and a text with one more run never has a lower `run_lo`.
    let least_wide = RUN_WIDE[p]
        .iter()
        .map(|r| run_rate(r[0]))
        .fold(1.0, f64::min);
    let floor = [least_run_rate(profile), least_wide].map(|r| -MIN_RUN * r);
    for (((part, r), e), floor) in parts.iter_mut().zip(runs).zip(&RUN_EXCESS[p]).zip(floor) {
        for (j, end) in part.iter_mut().enumerate() {
            let e = f64::from(e[j]);
            *end += r * if j == 0 { e.max(floor) } else { e };
            *end = end.max(0.0);
        }
    }
    parts
}

/// The fewest characters of one kind in a row the scanner counts as a repeat.
const MIN_RUN: f64 = 4.0;

/// The least tokens a character of a long run of one ASCII character costs in `profile`: one over its longest
/// run-token (o200k: 1/64).
pub fn least_run_rate(profile: Profile) -> f64 {
    RUN_ASCII[profile as usize]
        .iter()
        .filter(|&&c| c != 0)
        .map(|&c| f64::from(crate::profile_file::decode_rate(c)))
        .fold(1.0, f64::min)
}

/// Prices counted features with given tables (the calibration tool tries candidate tables through this;
/// everyone else wants [`from_features`]).
///
/// `L = Σ rate × count` is the linear estimate. For the detected kind, `bands[kind] = [m, z_lo, z_hi]` and
/// `σ = sqrt(spread[0] + spread[1] / L + spread[2] · r)` ([`sigma`], `r` the share of characters in long runs): the
/// median is `L·e^m` and the band runs from `L·e^(m + z_lo·σ)` to `L·e^(m + z_hi·σ)`, so short texts and texts of
/// long runs get wider bands, as measured. With `high` (the shipped profiles' terms), the high end is
/// [`additive_high`] instead, which never falls as text is appended.
///
/// Repeats are priced at least at what the run tables say they cost ([`run_price`]): where a band end's share of the
/// linear repeats part falls short of the run tables' price at that end, the difference is added. Texts whose
/// repeats are short (all the corpus's) keep their fitted price; a long run of one character grows with its length.
pub fn from_features_with<W: Copy + Into<f64>>(
    x: &Features,
    profile: Profile,
    w: &[W],
    bands: &[[W; 3]],
    spread: [W; 3],
    high: Option<&[W; HIGH_TERMS]>,
) -> Estimate {
    priced(x, profile, w, bands, spread, high).0
}

/// What the additive high end of a text is made of (see [`additive_high`]), from given rates: what calibration
/// fits the high end's terms on.
pub fn high_inputs<W: Copy + Into<f64>>(
    x: &Features,
    profile: Profile,
    w: &[W],
    bands: &[[W; 3]],
    spread: [W; 3],
) -> HighInputs {
    priced(x, profile, w, bands, spread, None).1
}

pub use crate::profile_file::HIGH_TERMS;

/// What a text's additive high end is priced from ([`additive_high`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct HighInputs {
    /// Each class's part of the linear estimate `Σ rate × count`, in [`Class::ALL`] order (before any kind's
    /// correction: the high end does not depend on the detected kind).
    pub parts: [f64; Class::COUNT],
    /// What the text's repeats cost at the high end of the run tables ([`run_price`]).
    pub run_high: f64,
    /// Bytes of short periodic patterns and of long runs of letters with no space, which may cost a token each.
    pub periodic_bytes: f64,
    /// Those bytes' share of each class's part.
    pub periodic_parts: [f64; Class::COUNT],
}

/// The band's high end, additive over the content classes: `Σ U[c]·parts[c] + Z·√L` (`L` the linear estimate),
/// the repeats' term at least what their run tables' high end says, and the bytes of periodic patterns at up to a
/// token each in place of their share. `u` holds `U` (each ≥ 1, fitted per profile) and then `Z`.
///
/// Every term grows as text is appended after a whitespace seam, whatever kind the text is then detected as (each
/// class's part does, as every count does; a periodic share `part·n/N` grows by at most what its part grows by), so
/// the high end never falls as a conversation grows; a band scaled per detected kind does where the kind changes
/// (`calibrate prefixes`).
pub fn additive_high(h: &HighInputs, u: &[f64; HIGH_TERMS]) -> f64 {
    let (mut hi, mut periodic, mut lin) = (0.0, 0.0, 0.0);
    for (((c, &part), &share), &u) in Class::ALL
        .iter()
        .zip(&h.parts)
        .zip(&h.periodic_parts)
        .zip(u)
    {
        let part = part.max(0.0);
        lin += part;
        periodic += u * share.max(0.0);
        hi += if *c == Class::Repeats {
            (u * part).max(h.run_high)
        } else {
            u * part
        };
    }
    hi + u[Class::COUNT] * lin.sqrt() + (h.periodic_bytes - periodic).max(0.0)
}

/// [`from_features_with`], and what its additive high end is priced from.
fn priced<W: Copy + Into<f64>>(
    x: &Features,
    profile: Profile,
    w: &[W],
    bands: &[[W; 3]],
    spread: [W; 3],
    high: Option<&[W; HIGH_TERMS]>,
) -> (Estimate, HighInputs) {
    let kind = ContentKind::detect(x);
    // A table written before this kind existed has no band for it: a wide one then.
    let [m, z_lo, z_hi] = bands.get(kind as usize).map_or([0.0, -3.0, 3.0], |b| {
        [b[0].into(), b[1].into(), b[2].into()]
    });
    let spread: [f64; 3] = spread.map(Into::into);
    let (per_class, latin) = per_class(x, w);
    let lin: f64 = per_class.iter().sum();
    let sigma = sigma(spread, lin, x);
    let q_mid = m.exp();
    let repeats = per_class[Class::Repeats as usize];
    let [run_lo, run_mid, run_hi] = if x.class_chars[Class::Repeats as usize] > 0 {
        run_price(x, profile)
    } else {
        [0.0; 3]
    };
    // The linear estimate scaled by `q`, with the repeats priced at least at `run`.
    let at = |q: f64, run: f64| lin * q + (run - repeats * q).max(0.0);
    // What the median's pricing of periodic patterns changes in each class's part.
    let mut periodic_mid = [0.0f64; Class::COUNT];
    let mut inputs = HighInputs {
        parts: per_class,
        run_high: run_hi,
        ..HighInputs::default()
    };
    let (tokens, low, high) = if x.chars == 0 {
        (0, 0, 0)
    } else {
        // No tokenizer here emits more tokens than the text has bytes (+1 for a SentencePiece word-start marker),
        // but for NFKC's lengthening (`Profile::max_tokens`), and any non-empty text is at least one token.
        let cap = profile.max_tokens(x.bytes, x.chars);
        let clamp = |t: f64| (t.max(1.0) as u64).min(cap);
        let (q_lo, q_hi) = ((m + z_lo * sigma).exp(), (m + z_hi * sigma).exp());
        let (mut lo, mut hi) = (at(q_lo, run_lo), at(q_hi, run_hi));
        if x.v[f::REP_WIDE_CHARS] > 0 {
            // Repeats of non-ASCII characters may cost as little as their run tables' low end, below their fitted
            // price: a vocabulary merges some characters' runs (`哈哈`, `ққ`) and not its kind's typical ones. The
            // ASCII repeats keep their price at least at their run tables.
            let [ascii_run, wide_run] = run_parts(x, profile);
            let wide_lin = rate(w, f::REP_WIDE_RUNS) * count(x.v[f::REP_WIDE_RUNS])
                + rate(w, f::REP_WIDE_CHARS) * count(x.v[f::REP_WIDE_CHARS]);
            let ascii_lin = (repeats - wide_lin).max(0.0);
            let split = (lin - repeats) * q_lo + (ascii_lin * q_lo).max(ascii_run[0]) + wide_run[0];
            lo = lo.min(split);
        }
        // What `n` characters of a class cost of its linear price: their share of it. The letters of periodic
        // patterns and long runs are Latin: theirs is a share of the Latin letters' price, by count, not of every
        // letter's, which prose in a script whose letters cost more would lend them.
        let fitted = |n: f64, c: Class| {
            let (price, of) = if c == Class::Letters {
                (latin, x.v[f::LATIN_CHARS])
            } else {
                (per_class[c as usize], x.class_chars[c as usize])
            };
            price * (n / count(of).max(1.0)).min(1.0)
        };
        // A short periodic pattern costs anything from what the profile's longest run-token allows to a token a
        // character, as its unit's runs are or are not in the vocabulary; so do the letters of a run of more than 64
        // bytes with no space (a DNA sequence, `YCYCYC...`, a generator's output: up to a token each where the
        // fitted rates price words, or a token a unit, `ZuZuZu...` in o200k). The band spans that for their bytes, in
        // place of their share of the linear price of punctuation and letters.
        let periodic = x.runs.periodic;
        let (letters, blanks) = (x.runs.periodic_letters, x.runs.periodic_blanks);
        // The periodic bytes' share of the linear price, by class.
        let parts = [
            (
                Class::Punctuation,
                count(periodic.saturating_sub(letters + blanks)),
            ),
            (Class::Letters, count(letters)),
            (Class::Whitespace, count(blanks)),
        ];
        let fitted_periodic: f64 = parts.iter().map(|&(c, n)| fitted(n, c)).sum();
        // The long runs' letters that are not in periodic windows already.
        let long = x.runs.long_letters.saturating_sub(x.runs.periodic_plain);
        if periodic + long > 0 {
            let chars = count(periodic + long);
            inputs.periodic_bytes = chars;
            for (c, n) in parts {
                inputs.periodic_parts[c as usize] += fitted(n, c);
            }
            let long = fitted(count(long), Class::Letters);
            inputs.periodic_parts[Class::Letters as usize] += long;
            let fitted = fitted_periodic + long;
            lo = lo.min(lo - fitted * q_lo + chars * least_run_rate(profile));
            hi = hi.max(hi - fitted * q_hi + chars);
        }
        // At the median a periodic pattern's bytes cost the measured rate (`periodic_rates.rs`) of its period and what
        // its unit holds, weighed by the window ends of each, in place of their fitted share.
        let mut mid = at(q_mid, run_mid);
        let e = x.runs.periodic_ends;
        // A window of period 2 is one of period 4 too: period 4 alone is the rest.
        let weights: [f64; 12] = std::array::from_fn(|i| {
            count(if i % 3 == 2 {
                e[i].saturating_sub(e[i - 2])
            } else {
                e[i]
            })
        });
        let all: f64 = weights.iter().sum();
        if all > 0.0 {
            let r = crate::periodic_rates::PERIODIC_RATE[profile as usize];
            let rate = weights
                .iter()
                .zip(r)
                .map(|(w, r)| w * f64::from(r))
                .sum::<f64>()
                / all;
            // Each class's part (the content mix adds up to the estimate).
            for (c, n) in parts {
                periodic_mid[c as usize] = n * rate - fitted(n, c) * q_mid;
            }
            mid += periodic_mid.iter().sum::<f64>();
        }
        let tokens = clamp(mid.round());
        // A text of `b` bytes is at most `b` tokens but for a word-start piece: the low end never asks for more.
        let low = clamp(lo.floor()).min(tokens).min(x.bytes.max(1));
        if let Some(u) = high {
            hi = additive_high(&inputs, &u.map(Into::into));
        }
        let high = clamp(hi.ceil()).max(tokens);
        (tokens, low, high)
    };
    let mut mix: Vec<MixPart> = Class::ALL
        .into_iter()
        .filter(|c| x.class_chars[*c as usize] > 0)
        .map(|c| MixPart {
            class: c,
            chars: x.class_chars[c as usize],
            tokens: if c == Class::Repeats {
                (per_class[c as usize] * q_mid).max(run_mid)
            } else {
                per_class[c as usize] * q_mid + periodic_mid[c as usize]
            },
        })
        .collect();
    // At most eight parts: an insertion sort (the library's sorts cost the wasm build kilobytes), largest token
    // share first, then most characters, then class order, which breaks every tie.
    let after = |a: &MixPart, b: &MixPart| {
        b.tokens
            .total_cmp(&a.tokens)
            .then(b.chars.cmp(&a.chars))
            .then((a.class as usize).cmp(&(b.class as usize)))
            .is_gt()
    };
    for i in 1..mix.len() {
        let mut j = i;
        while j > 0 && after(&mix[j - 1], &mix[j]) {
            mix.swap(j - 1, j);
            j -= 1;
        }
    }
    // A class with no characters in the text may still have priced features (a count that looks at neighbours):
    // their tokens go to the largest part, so that the parts add up to the estimate.
    let charless: f64 = Class::ALL
        .into_iter()
        .filter(|c| x.class_chars[*c as usize] == 0)
        .map(|c| per_class[c as usize] * q_mid)
        .sum();
    if let Some(first) = mix.first_mut() {
        first.tokens += charless;
    }
    let e = Estimate {
        tokens,
        low,
        high,
        chars: x.chars,
        content: Content { kind, mix },
        profile,
    };
    (e, inputs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::FEATURE_NAMES;

    #[test]
    fn a_spread_of_two_numbers_prices_without_a_repeat_term() {
        // A profile file written before the spread's repeat term holds `[a, b]`; it loads as `[a, b, 0]`.
        let mut v: serde_json::Value = serde_json::from_str(&Profile::O200k.to_json()).unwrap();
        v["spread"] = serde_json::json!([0.02, 0.5]);
        let c = crate::CustomProfile::from_json(&v.to_string()).unwrap();
        let x = crate::scan::scan(&"=".repeat(400));
        let lin = linear(&x, c.tables());
        let want = (0.02f32 as f64 + 0.5f32 as f64 / lin.max(1.0)).sqrt();
        assert_eq!(sigma(c.tables().spread(), lin, &x), want);
    }

    #[test]
    fn a_periodic_pattern_of_letters_alone_costs_its_class_rate_at_the_median() {
        // `Zu` x 4,000: a run of 8,000 letters, periodic from its 50th byte (windows end past the 64th). Priced by
        // the letters' fitted rates and capitals it came to a token a letter; at the median its periodic bytes now
        // cost the measured rate of letters alone of period 2 (o200k: half a token a byte, a token a unit).
        for p in [Profile::O200k, Profile::Cl100k] {
            let t = "Zu".repeat(4000);
            let x = crate::scan::scan(&t);
            assert_eq!(x.runs.periodic_plain, 8000 - 49);
            let rate = f64::from(crate::periodic_rates::PERIODIC_RATE[p as usize][9]);
            let e = from_features(&x, p);
            let want = rate * 8000.0;
            assert!(
                (e.tokens as f64 - want).abs() < 0.01 * want,
                "{}: {} for {want}",
                p.name(),
                e.tokens
            );
            assert!(e.low as f64 <= want && e.high as f64 >= 8000.0, "{e:?}");
        }
    }

    #[test]
    fn a_run_of_a_rare_character_costs_its_kinds_rare_rate_at_the_median() {
        use crate::scan::{kind, RUN_WIDE_KINDS};
        // `┻` is outside the common tier of the symbols (o200k and cl100k: two tokens each, in a run too), `─` inside
        // it (o200k merges its runs): the median prices each at its own measured rate, the band spans both.
        let i = RUN_WIDE_KINDS
            .iter()
            .position(|&k| k == kind::K_SYM3)
            .unwrap();
        for p in Profile::ALL {
            for (c, rate) in [
                ('┻', RUN_WIDE_RARE[p as usize][i]),
                ('─', RUN_WIDE[p as usize][i][1]),
            ] {
                let e = crate::estimate(&c.to_string().repeat(2000), p);
                let want = 2000.0 * run_rate(rate);
                assert!(
                    (e.tokens as f64 - want).abs() <= 0.01 * want + 4.0,
                    "{} {c:?}: {} for {want}",
                    p.name(),
                    e.tokens
                );
            }
        }
    }

    /// The per-class sums as the plain loop over features takes them, one addition through memory at a time.
    fn per_class_plain(x: &Features, w: &[f32]) -> [f64; Class::COUNT] {
        let mut per_class = [0.0f64; Class::COUNT];
        for i in 0..NF {
            per_class[Class::of_feature(i) as usize] += rate(w, i) * x.v[i] as f64;
        }
        per_class
    }

    #[test]
    fn the_latin_features_are_letters_of_latin_words() {
        let latin: Vec<&str> = (0..NF)
            .filter(|&i| is_latin(i))
            .map(|i| FEATURE_NAMES[i])
            .collect();
        assert_eq!(latin.len(), 5 + 1 + 26 + 26, "{latin:?}");
        for i in (0..NF).filter(|&i| is_latin(i)) {
            assert_eq!(Class::of_feature(i), Class::Letters, "{}", FEATURE_NAMES[i]);
            let name = FEATURE_NAMES[i];
            assert!(
                name.starts_with("latin_")
                    || name.starts_with("letter_")
                    || name.starts_with("upper_")
                    || name == "caps_then_lower",
                "{name}"
            );
        }
    }

    #[test]
    fn class_runs_cover_every_feature_once_in_order() {
        let runs = &CLASS_RUNS;
        assert_eq!(runs[0].0, 0);
        assert_eq!(runs[runs.len() - 1].1 as usize, NF);
        for pair in runs.windows(2) {
            assert_eq!(pair[0].1, pair[1].0);
            assert!(
                pair[0].2 != pair[1].2 || pair[0].3 != pair[1].3,
                "neighbouring stretches of one class, Latin or not alike, are one stretch"
            );
        }
        for &(start, end, class, latin) in runs {
            assert!(start < end);
            for i in start..end {
                assert_eq!(Class::of_feature(i as usize), class, "feature {i}");
                assert_eq!(is_latin(i as usize), latin, "feature {i}");
            }
        }
    }

    #[test]
    fn per_class_sums_are_the_plain_loops_to_the_bit() {
        // Counts from a few thousand pseudo-random draws (an LCG: no randomness in the library's tests), spread over
        // many magnitudes, priced with every shipped table and with tables cut short.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state >> 11
        };
        for round in 0..300 {
            let mut x = Features::default();
            for v in x.v.iter_mut() {
                let r = next();
                *v = if r % 3 == 0 { 0 } else { r >> (r % 53) };
            }
            for p in Profile::ALL {
                let w = &Tables::from(p).rates()[..];
                let cut = &w[..w.len() - (round % 40)];
                for w in [w, cut] {
                    let ((fast, latin), plain) = (per_class(&x, w), per_class_plain(&x, w));
                    assert_eq!(
                        fast.map(f64::to_bits),
                        plain.map(f64::to_bits),
                        "{p:?}, round {round}"
                    );
                    let want: f64 = (0..w.len().min(NF))
                        .filter(|&i| is_latin(i))
                        .map(|i| rate(w, i) * x.v[i] as f64)
                        .sum();
                    assert!(
                        (latin - want).abs() <= 1e-9 * fast[Class::Letters as usize].max(1.0),
                        "{p:?}, round {round}: {latin} against {want}"
                    );
                }
            }
        }
    }
}
