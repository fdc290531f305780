//! Profiles as data: the tables an estimate is priced with, the shipped ones exported as JSON, and an operator's
//! own (fitted to their traffic by `llm-preflight calibrate`) loaded back from JSON.
//!
//! A profile file is self-contained: every feature's rate, the spread, per content kind the band `[m, z_lo, z_hi]`
//! and the characters-per-token quantiles `[p5, p50, p95]`, and (optional) the additive high end's terms `high`: a
//! multiplier per content class and `sqrt` (a file without them prices its high end by its bands). The same file
//! estimates the same way in the crate, the npm package and the page, and a shipped profile exported and loaded
//! back prices exactly as the shipped one (both price with `f32` values, and the file writes each value in its shortest `f32` form; the shipped
//! rates are stored as 16-bit codes that read back as exactly those values, see [`decode_rate`]).
//!
//! ```json
//! {"format": "llm-preflight-profile/1", "name": "acme-gpt4o", "base": "o200k", "description": "...",
//!  "rates": {"bias": 0.0, "latin_runs": 0.515664, ...}, "spread": [0.0021, 0.31, 0.17],
//!  "high": {"letters": 1.27, "cjk": 1.56, ..., "control": 1.0, "sqrt": 1.09},
//!  "bands": {"prose": [0.0117, -4.59, 4.06], ...}, "chars_per_token": {"prose": [2.29, 3.77, 4.86], ...},
//!  "fitted": {...}}
//! ```
//! `fitted` is free-form provenance (what the profile was fitted on) and is kept as it is.

use crate::content::ContentKind;
use crate::names::UnknownName;
use crate::profile::Profile;
use crate::scan::{Class, FEATURE_NAMES, NF};
use crate::tables;
use serde_json::{Map, Value};
use std::fmt;
use std::fmt::Write as _;

/// The terms of the additive high end (`crate::internals::estimate::additive_high`): one multiplier per class
/// ([`Class::ALL`] order), then `Z`.
pub const HIGH_TERMS: usize = Class::COUNT + 1;

/// The format tag every profile file carries.
pub const FORMAT: &str = "llm-preflight-profile/1";

/// The largest profile file accepted (a real one is about 10 KB).
pub const MAX_PROFILE_BYTES: usize = 1 << 20;

/// A view of the tables one estimate is priced with: a shipped [`Profile`]'s, or a [`CustomProfile`]'s.
///
/// Everything that takes a profile takes `impl Into<Tables>`, so a `Profile` and a `&CustomProfile` both work.
#[derive(Debug, Clone, Copy)]
pub struct Tables<'a> {
    pub(crate) base: Profile,
    pub(crate) name: &'a str,
    pub(crate) weights: Rates<'a>,
    pub(crate) bands: &'a [[f32; 3]],
    pub(crate) spread: [f32; 3],
    /// The additive high end's terms ([`crate::internals::estimate::additive_high`]); `None` prices the high end by
    /// the bands (a profile whose bands were refitted to traffic).
    pub(crate) high: Option<[f32; HIGH_TERMS]>,
    pub(crate) chars_per_token: CharsPerToken<'a>,
}

/// Where a profile's rates live: the shipped tables (16-bit codes, see [`decode_rate`]), or a file's own.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Rates<'a> {
    Shipped(Profile),
    Own(&'a [f32]),
}

impl Rates<'_> {
    /// Calls `f` with the rates as `f32`, in [`FEATURE_NAMES`] order. Native builds decoded the shipped codes at
    /// compile time; the wasm build, whose size budget has no room for them as `f32` too, decodes them here, on
    /// the stack (165 additions and shifts an estimate).
    #[inline]
    pub(crate) fn with<R>(self, f: impl FnOnce(&[f32]) -> R) -> R {
        match self {
            Rates::Own(w) => f(w),
            #[cfg(not(target_arch = "wasm32"))]
            Rates::Shipped(p) => f(&SHIPPED_RATES[p as usize]),
            #[cfg(target_arch = "wasm32")]
            Rates::Shipped(p) => f(&tables::RATE_CODES[p as usize].map(decode_rate)),
        }
    }
}

/// The shipped rates as `f32`, decoded when compiling.
#[cfg(not(target_arch = "wasm32"))]
static SHIPPED_RATES: [[f32; NF]; Profile::COUNT] = {
    let mut out = [[0.0; NF]; Profile::COUNT];
    let mut p = 0;
    while p < 9 {
        let mut i = 0;
        while i < NF {
            out[p][i] = decode_rate(tables::RATE_CODES[p][i]);
            i += 1;
        }
        p += 1;
    }
    out
};

/// The smallest `f32` exponent field a nonzero shipped rate may have, less one (a rate below 2^-15 is not
/// stored: calibration rounds every value to 11 significand bits, and a rate that small prices nothing).
const RATE_EXP_BASE: u32 = 111;

/// A shipped rate from its 16-bit code: 0 is zero, else the code is the `f32`'s exponent field less
/// `RATE_EXP_BASE` (5 bits) over its 11 significand bits after the leading one (the `f32`'s other 12 are zero,
/// see calibration's rounding), so every rate from 2^-15 up to 65,520 that calibration can produce has a code and
/// reads back as exactly that `f32`. Rates are never negative (the fit is non-negative).
pub const fn decode_rate(code: u16) -> f32 {
    if code == 0 {
        0.0
    } else {
        f32::from_bits((code as u32 + (RATE_EXP_BASE << 11)) << 12)
    }
}

/// The code [`decode_rate`] reads back as `r`, or `None` when there is none (negative, not finite, more than 11
/// significand bits after the leading one, not above 2^-16, above 65,520; no shipped rate is
/// below 2^-15, so the lowest codes are spare): what calibration writes the shipped rates as.
pub fn encode_rate(r: f32) -> Option<u16> {
    if r == 0.0 && r.is_sign_positive() {
        return Some(0);
    }
    let bits = r.to_bits();
    if bits >> 31 != 0 || bits & 0xfff != 0 {
        return None;
    }
    let code = (bits >> 12).checked_sub(RATE_EXP_BASE << 11)?;
    match u16::try_from(code) {
        Ok(c) if c != 0 => Some(c),
        _ => None,
    }
}

/// Where a profile's characters-per-token table lives. Shipped tables are looked up only when asked for, so a
/// build that never prices by length (the npm package's estimate module) does not carry them.
#[derive(Debug, Clone, Copy)]
pub(crate) enum CharsPerToken<'a> {
    Shipped(Profile),
    Own(&'a [[f32; 3]]),
}

impl<'a> CharsPerToken<'a> {
    fn rows(self) -> &'a [[f32; 3]] {
        match self {
            CharsPerToken::Shipped(p) => &tables::CHARS_PER_TOKEN[p as usize],
            CharsPerToken::Own(rows) => rows,
        }
    }
}

impl<'a> Tables<'a> {
    /// The tokenizer family the tables price for.
    pub fn base(&self) -> Profile {
        self.base
    }

    /// The profile's name (a shipped profile's name, or the name a custom profile file gives itself).
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// Characters per token `[p5, p50, p95]` measured for one content kind.
    pub fn chars_per_token(&self, kind: ContentKind) -> [f64; 3] {
        let c = self.chars_per_token.rows()[kind as usize];
        [c[0].into(), c[1].into(), c[2].into()]
    }

    /// The band `[m, z_lo, z_hi]` for one content kind (the estimate's median is `L·e^m`, its band `L·e^(m + z·σ)`).
    pub fn band(&self, kind: ContentKind) -> [f64; 3] {
        let b = self.bands[kind as usize];
        [b[0].into(), b[1].into(), b[2].into()]
    }

    /// The spread `[a, b, c]`: σ = sqrt(a + b / L + c · r) for a linear estimate of `L` tokens and a share `r` of
    /// characters in long runs.
    pub fn spread(&self) -> [f64; 3] {
        self.spread.map(Into::into)
    }

    /// The rate of every feature, in [`FEATURE_NAMES`] order.
    pub fn rates(&self) -> Vec<f32> {
        self.weights.with(<[f32]>::to_vec)
    }

    /// The tables as a profile file (JSON text, one value per line group, stable order). `fitted` is written as
    /// given (`None` writes where the shipped tables come from).
    pub fn to_json(&self, description: &str, fitted: Option<&Value>) -> String {
        let mut s = String::with_capacity(8192);
        s.push_str("{\n");
        let _ = writeln!(s, "  \"format\": {},", json_str(FORMAT));
        let _ = writeln!(s, "  \"name\": {},", json_str(self.name));
        let _ = writeln!(s, "  \"base\": {},", json_str(self.base.name()));
        let _ = writeln!(s, "  \"description\": {},", json_str(description));
        s.push_str("  \"rates\": {\n");
        self.weights.with(|w| {
            for (i, name) in FEATURE_NAMES.iter().enumerate() {
                let sep = if i + 1 < NF { "," } else { "" };
                let r = w.get(i).copied().unwrap_or(0.0);
                let _ = writeln!(s, "    {}: {}{sep}", json_str(name), num(r));
            }
        });
        s.push_str("  },\n");
        let _ = writeln!(
            s,
            "  \"spread\": [{}, {}, {}],",
            num(self.spread[0]),
            num(self.spread[1]),
            num(self.spread[2])
        );
        if let Some(h) = self.high {
            s.push_str("  \"high\": {");
            for (i, x) in h.iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                let _ = write!(s, "{sep}{}: {}", json_str(high_term_name(i)), num(*x));
            }
            s.push_str("},\n");
        }
        for (key, rows) in [
            ("bands", self.bands),
            ("chars_per_token", self.chars_per_token.rows()),
        ] {
            let _ = writeln!(s, "  \"{key}\": {{");
            for (k, kind) in ContentKind::ALL.iter().enumerate() {
                let sep = if k + 1 < ContentKind::COUNT { "," } else { "" };
                let r = rows[k];
                let _ = writeln!(
                    s,
                    "    {}: [{}, {}, {}]{sep}",
                    json_str(kind.name()),
                    num(r[0]),
                    num(r[1]),
                    num(r[2])
                );
            }
            s.push_str("  },\n");
        }
        let fitted = match fitted {
            Some(v) => v.to_string(),
            None => "{\"by\": \"llm-preflight's calibration corpus (calibration/REPORT.md)\"}"
                .to_string(),
        };
        let _ = writeln!(s, "  \"fitted\": {fitted}");
        s.push_str("}\n");
        s
    }
}

/// Equal when they price identically (same base, name and values), wherever the values live.
impl PartialEq for Tables<'_> {
    fn eq(&self, o: &Self) -> bool {
        self.base == o.base
            && self.name == o.name
            && self.weights.with(|a| o.weights.with(|b| a == b))
            && self.bands == o.bands
            && self.spread == o.spread
            && self.high == o.high
            && self.chars_per_token.rows() == o.chars_per_token.rows()
    }
}

impl From<Profile> for Tables<'static> {
    fn from(p: Profile) -> Tables<'static> {
        let i = p as usize;
        Tables {
            base: p,
            name: p.name(),
            weights: Rates::Shipped(p),
            bands: tables::BANDS[i],
            spread: tables::SPREAD[i],
            high: Some(tables::HIGH[i]),
            chars_per_token: CharsPerToken::Shipped(p),
        }
    }
}

impl<'a> From<&'a CustomProfile> for Tables<'a> {
    fn from(p: &'a CustomProfile) -> Tables<'a> {
        p.tables()
    }
}

impl<'a> From<&Tables<'a>> for Tables<'a> {
    fn from(t: &Tables<'a>) -> Tables<'a> {
        *t
    }
}

/// A profile loaded from a file: its own rates, bands and characters-per-token, for one tokenizer family.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomProfile {
    name: String,
    base: Profile,
    description: String,
    weights: Vec<f32>,
    bands: Vec<[f32; 3]>,
    spread: [f32; 3],
    high: Option<[f32; HIGH_TERMS]>,
    chars_per_token: Vec<[f32; 3]>,
    fitted: Value,
}

impl CustomProfile {
    /// Starts from a shipped profile's tables under a new name (what `llm-preflight calibrate` refits).
    pub fn derived_from<'a>(base: impl Into<Tables<'a>>, name: &str) -> CustomProfile {
        let t = base.into();
        CustomProfile {
            name: name.to_string(),
            base: t.base,
            description: String::new(),
            weights: t.weights.with(<[f32]>::to_vec),
            bands: t.bands.to_vec(),
            spread: t.spread,
            high: t.high,
            chars_per_token: t.chars_per_token.rows().to_vec(),
            fitted: Value::Object(Map::new()),
        }
    }

    /// The tables to price with.
    pub fn tables(&self) -> Tables<'_> {
        Tables {
            base: self.base,
            name: &self.name,
            weights: Rates::Own(&self.weights),
            bands: &self.bands,
            spread: self.spread,
            high: self.high,
            chars_per_token: CharsPerToken::Own(&self.chars_per_token),
        }
    }

    /// The profile's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tokenizer family it prices for.
    pub fn base(&self) -> Profile {
        self.base
    }

    /// What the file says the profile is.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// What the profile was fitted on, as the file says (free-form).
    pub fn fitted(&self) -> &Value {
        &self.fitted
    }

    /// Sets the description.
    pub fn set_description(&mut self, d: &str) {
        self.description = d.to_string();
    }

    /// Sets the provenance.
    pub fn set_fitted(&mut self, v: Value) {
        self.fitted = v;
    }

    /// Replaces one kind's band `[m, z_lo, z_hi]`. Non-finite values, or `z_lo > 0`, or `z_hi < 0`, are refused.
    ///
    /// The profile's high end is then priced by its bands, not additively over the content classes (the additive
    /// terms were fitted with the shipped bands' medians and know nothing of the new one).
    pub fn set_band(&mut self, kind: ContentKind, band: [f64; 3]) -> Result<(), ProfileFileError> {
        let b = band.map(|x| x as f32);
        check_band(&format!("/bands/{}", kind.name()), b)?;
        self.bands[kind as usize] = b;
        self.high = None;
        Ok(())
    }

    /// The additive high end's terms (`U` per class in [`Class::ALL`] order, then `Z`), if the profile has them.
    pub fn high(&self) -> Option<[f32; HIGH_TERMS]> {
        self.high
    }

    /// Replaces one kind's characters-per-token quantiles `[p5, p50, p95]` (positive and in order).
    pub fn set_chars_per_token(
        &mut self,
        kind: ContentKind,
        q: [f64; 3],
    ) -> Result<(), ProfileFileError> {
        let c = q.map(|x| x as f32);
        check_cpt(&format!("/chars_per_token/{}", kind.name()), c)?;
        self.chars_per_token[kind as usize] = c;
        Ok(())
    }

    /// The profile as a file ([`CustomProfile::from_json`] reads it back to an equal profile).
    pub fn to_json(&self) -> String {
        self.tables().to_json(&self.description, Some(&self.fitted))
    }

    /// Reads a profile file. Every feature, kind and value is checked; anything missing, unknown, not finite or
    /// out of range is a [`ProfileFileError`] naming where, never a panic and never a silent zero.
    pub fn from_json(json: &str) -> Result<CustomProfile, ProfileFileError> {
        if json.len() > MAX_PROFILE_BYTES {
            return Err(ProfileFileError::TooLarge { bytes: json.len() });
        }
        let v: Value =
            serde_json::from_str(json).map_err(|e| ProfileFileError::NotJson(e.to_string()))?;
        let o = v.as_object().ok_or_else(|| wrong("/", "a JSON object"))?;
        let format = get_str(o, "format")?;
        if format != FORMAT {
            return Err(ProfileFileError::Format(format.to_string()));
        }
        let name = get_str(o, "name")?.trim();
        if name.is_empty() || name.len() > 200 {
            return Err(wrong("/name", "a name of 1 to 200 bytes"));
        }
        let base = Profile::from_name(get_str(o, "base")?).map_err(ProfileFileError::Base)?;
        let description = match o.get("description") {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(_) => return Err(wrong("/description", "a string")),
        };
        for k in o.keys() {
            if !matches!(
                k.as_str(),
                "format"
                    | "name"
                    | "base"
                    | "description"
                    | "rates"
                    | "spread"
                    | "high"
                    | "bands"
                    | "chars_per_token"
                    | "fitted"
            ) {
                return Err(ProfileFileError::Unknown {
                    path: format!("/{k}"),
                });
            }
        }

        let rates = get_obj(o, "rates")?;
        for k in rates.keys() {
            if !FEATURE_NAMES.contains(&k.as_str()) {
                return Err(ProfileFileError::Unknown {
                    path: format!("/rates/{k}"),
                });
            }
        }
        let missing: Vec<String> = FEATURE_NAMES
            .iter()
            .filter(|f| !rates.contains_key(**f))
            .map(|f| f.to_string())
            .collect();
        if !missing.is_empty() {
            return Err(ProfileFileError::MissingRates(missing));
        }
        let mut weights = Vec::with_capacity(NF);
        for f in FEATURE_NAMES {
            let path = format!("/rates/{f}");
            let r = number(rates.get(f), &path)?;
            if !(0.0..=1e6).contains(&r) {
                return Err(wrong(&path, "a rate from 0 to 1e6 tokens per count"));
            }
            weights.push(r as f32);
        }

        let spread_v = o
            .get("spread")
            .ok_or_else(|| ProfileFileError::Missing("/spread".into()))?;
        // `[a, b]` (files written before the repeat term) means `[a, b, 0]`.
        let spread = match triple_or_pair::<3>(spread_v, "/spread") {
            Ok(t) => t,
            Err(_) => {
                let [a, b] = triple_or_pair::<2>(spread_v, "/spread").map_err(|_| {
                    wrong("/spread", "an array of 3 numbers [a, b, c] (or 2, [a, b])")
                })?;
                [a, b, 0.0]
            }
        };
        for (i, x) in spread.iter().enumerate() {
            if !(0.0..=100.0).contains(x) {
                return Err(wrong(&format!("/spread/{i}"), "a number from 0 to 100"));
            }
        }
        let spread = spread.map(|x| x as f32);

        // Files written before the additive high end price their high end by their bands.
        let high = match o.get("high") {
            None | Some(Value::Null) => None,
            Some(_) => {
                let m = get_obj(o, "high")?;
                for k in m.keys() {
                    if !(0..HIGH_TERMS).any(|i| high_term_name(i) == k) {
                        return Err(ProfileFileError::Unknown {
                            path: format!("/high/{k}"),
                        });
                    }
                }
                let mut h = [0.0f32; HIGH_TERMS];
                for (i, x) in h.iter_mut().enumerate() {
                    let name = high_term_name(i);
                    let path = format!("/high/{name}");
                    let v = m
                        .get(name)
                        .ok_or_else(|| ProfileFileError::Missing(path.clone()))?;
                    let n = number(Some(v), &path)?;
                    let ok = if i < Class::COUNT {
                        (1.0..=100.0).contains(&n)
                    } else {
                        (0.0..=100.0).contains(&n)
                    };
                    if !ok {
                        let expected = if i < Class::COUNT {
                            "a multiplier from 1 to 100"
                        } else {
                            "a number from 0 to 100"
                        };
                        return Err(wrong(&path, expected));
                    }
                    *x = n as f32;
                }
                Some(h)
            }
        };

        let per_kind = |key: &str| -> Result<Vec<[f32; 3]>, ProfileFileError> {
            let m = get_obj(o, key)?;
            for k in m.keys() {
                if ContentKind::from_name(k).is_none() {
                    return Err(ProfileFileError::Unknown {
                        path: format!("/{key}/{k}"),
                    });
                }
            }
            ContentKind::ALL
                .iter()
                .map(|kind| {
                    let path = format!("/{key}/{}", kind.name());
                    let v = m
                        .get(kind.name())
                        .ok_or_else(|| ProfileFileError::Missing(path.clone()))?;
                    Ok(triple_or_pair::<3>(v, &path)?.map(|x| x as f32))
                })
                .collect()
        };
        let bands = per_kind("bands")?;
        for (k, b) in bands.iter().enumerate() {
            check_band(&format!("/bands/{}", ContentKind::ALL[k].name()), *b)?;
        }
        let chars_per_token = per_kind("chars_per_token")?;
        for (k, c) in chars_per_token.iter().enumerate() {
            check_cpt(
                &format!("/chars_per_token/{}", ContentKind::ALL[k].name()),
                *c,
            )?;
        }
        let fitted = o.get("fitted").cloned().unwrap_or(Value::Null);
        Ok(CustomProfile {
            name: name.to_string(),
            base,
            description,
            weights,
            bands,
            spread,
            high,
            chars_per_token,
            fitted,
        })
    }
}

impl Profile {
    /// Reads a profile file (the format [`Profile::to_json`] writes): the twin of [`Profile::to_json`], and how an operator's
    /// own profile, fitted by `llm-preflight calibrate`, is loaded.
    pub fn from_json(json: &str) -> Result<CustomProfile, ProfileFileError> {
        CustomProfile::from_json(json)
    }

    /// The shipped profile as a profile file.
    pub fn to_json(self) -> String {
        Tables::from(self).to_json(self.description(), None)
    }

    /// The shipped tables.
    pub fn tables(self) -> Tables<'static> {
        self.into()
    }
}

/// What is wrong with a profile file.
#[derive(Debug, Clone, PartialEq)]
pub enum ProfileFileError {
    /// Not JSON at all.
    NotJson(String),
    /// Over [`MAX_PROFILE_BYTES`].
    TooLarge {
        /// The file's size.
        bytes: usize,
    },
    /// Not a profile file of a format this version reads.
    Format(String),
    /// The base tokenizer family is not one this version knows.
    Base(UnknownName),
    /// A field that must be there is missing.
    Missing(String),
    /// Rates for these scanner features are missing: most likely a file written by an earlier version, whose
    /// scanner counted fewer features. Rates are fitted together, so they cannot be filled in one by one.
    MissingRates(Vec<String>),
    /// A field this version does not know (a feature, kind or key from another version, or a typo).
    Unknown {
        /// Where (a JSON pointer).
        path: String,
    },
    /// A value of the wrong type, not finite, or out of range.
    Wrong {
        /// Where (a JSON pointer).
        path: String,
        /// What was expected there.
        expected: String,
    },
}

impl fmt::Display for ProfileFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProfileFileError::NotJson(e) => write!(f, "profile file is not JSON: {e}"),
            ProfileFileError::TooLarge { bytes } => write!(
                f,
                "profile file is {bytes} bytes; at most {MAX_PROFILE_BYTES} are read"
            ),
            ProfileFileError::Format(found) => write!(
                f,
                "profile file has format \"{found}\"; this version reads \"{FORMAT}\""
            ),
            ProfileFileError::Base(e) => write!(f, "profile file's base: {e}"),
            ProfileFileError::Missing(p) => write!(f, "profile file lacks {p}"),
            ProfileFileError::MissingRates(names) => write!(
                f,
                "profile file has no rates for {} of this version's {NF} scanner features ({}), most likely \
                 written by an earlier version; write it again with `llm-preflight calibrate` (or `llm-preflight profiles \
                 --export NAME` for a shipped profile)",
                names.len(),
                names.join(", ")
            ),
            ProfileFileError::Unknown { path } => write!(
                f,
                "profile file has {path}, which this version does not know (written by another version?)"
            ),
            ProfileFileError::Wrong { path, expected } => {
                write!(f, "profile file: {path} must be {expected}")
            }
        }
    }
}

impl std::error::Error for ProfileFileError {}

/// A profile file's name for the additive high end's term `i`: a class's name, then `sqrt`.
fn high_term_name(i: usize) -> &'static str {
    Class::ALL.get(i).map_or("sqrt", |c| c.name())
}

fn wrong(path: &str, expected: &str) -> ProfileFileError {
    ProfileFileError::Wrong {
        path: path.to_string(),
        expected: expected.to_string(),
    }
}

fn get_str<'v>(o: &'v Map<String, Value>, key: &str) -> Result<&'v str, ProfileFileError> {
    match o.get(key) {
        None => Err(ProfileFileError::Missing(format!("/{key}"))),
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(wrong(&format!("/{key}"), "a string")),
    }
}

fn get_obj<'v>(
    o: &'v Map<String, Value>,
    key: &str,
) -> Result<&'v Map<String, Value>, ProfileFileError> {
    match o.get(key) {
        None => Err(ProfileFileError::Missing(format!("/{key}"))),
        Some(Value::Object(m)) => Ok(m),
        Some(_) => Err(wrong(&format!("/{key}"), "an object")),
    }
}

fn number(v: Option<&Value>, path: &str) -> Result<f64, ProfileFileError> {
    let v = v.ok_or_else(|| ProfileFileError::Missing(path.to_string()))?;
    match v.as_f64() {
        // f32 must hold it too: a value beyond f32's range would turn infinite when stored.
        Some(x) if x.is_finite() && (x as f32).is_finite() => Ok(x),
        _ => Err(wrong(path, "a finite number")),
    }
}

fn triple_or_pair<const N: usize>(v: &Value, path: &str) -> Result<[f64; N], ProfileFileError> {
    let a = v
        .as_array()
        .filter(|a| a.len() == N)
        .ok_or_else(|| wrong(path, &format!("an array of {N} numbers")))?;
    let mut out = [0.0; N];
    for (i, x) in a.iter().enumerate() {
        out[i] = number(Some(x), &format!("{path}/{i}"))?;
    }
    Ok(out)
}

fn check_band(path: &str, b: [f32; 3]) -> Result<(), ProfileFileError> {
    let ok = b.iter().all(|x| x.is_finite())
        && (-5.0..=5.0).contains(&b[0])
        && (-100.0..=0.0).contains(&b[1])
        && (0.0..=100.0).contains(&b[2]);
    if ok {
        Ok(())
    } else {
        Err(wrong(
            path,
            "[m, z_lo, z_hi] with -5 ≤ m ≤ 5, -100 ≤ z_lo ≤ 0 ≤ z_hi ≤ 100",
        ))
    }
}

fn check_cpt(path: &str, c: [f32; 3]) -> Result<(), ProfileFileError> {
    let ok = c.iter().all(|x| x.is_finite())
        && c[0] > 0.0
        && c[0] <= c[1]
        && c[1] <= c[2]
        && c[2] <= 1e6;
    if ok {
        Ok(())
    } else {
        Err(wrong(
            path,
            "[p5, p50, p95] characters per token with 0 < p5 ≤ p50 ≤ p95 ≤ 1e6",
        ))
    }
}

/// An `f32` in its shortest form that reads back to the same `f32`.
fn num(x: f32) -> String {
    let s = format!("{x}");
    if s.contains('.') || s.contains('e') || s.contains("inf") || s.contains("NaN") {
        s
    } else {
        format!("{s}.0")
    }
}

fn json_str(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_codes_read_back_as_exactly_the_rate() {
        // Every value calibration can write: 11 significand bits after the leading one, 2^-15 up to 65,520.
        for e in (RATE_EXP_BASE + 1)..(RATE_EXP_BASE + 32) {
            for m in 0..(1u32 << 11) {
                let r = f32::from_bits(e << 23 | m << 12);
                let code = encode_rate(r).unwrap_or_else(|| panic!("{r:e} has no code"));
                assert_eq!(decode_rate(code).to_bits(), r.to_bits(), "{r:e}");
            }
        }
        assert_eq!(encode_rate(0.0), Some(0));
        assert_eq!(decode_rate(0).to_bits(), 0);
        assert_eq!(
            encode_rate(2f32.powi(-15)).map(decode_rate),
            Some(2f32.powi(-15))
        );
        assert_eq!(encode_rate(65520.0).map(decode_rate), Some(65520.0));
        // No code: negative, not finite, too fine, too small, too large.
        for r in [
            -0.0,
            -0.5,
            f32::NAN,
            f32::INFINITY,
            1.0 + f32::EPSILON,
            0.1,
            2f32.powi(-16),
            1e-30,
            2f32.powi(16),
            f32::MAX,
        ] {
            assert_eq!(encode_rate(r), None, "{r:e}");
        }
        // Every code decodes to a value that encodes back to it (no two codes share a value).
        for code in 1..=u16::MAX {
            assert_eq!(encode_rate(decode_rate(code)), Some(code));
        }
    }

    #[test]
    fn shipped_rates_are_their_codes_decoded() {
        for p in Profile::ALL {
            let rates = Tables::from(p).rates();
            assert_eq!(rates.len(), NF);
            for (i, (&r, &code)) in rates
                .iter()
                .zip(&tables::RATE_CODES[p as usize])
                .enumerate()
            {
                assert_eq!(
                    r.to_bits(),
                    decode_rate(code).to_bits(),
                    "{p:?} {}",
                    FEATURE_NAMES[i]
                );
            }
            // Not all zero: the decode is not a silent zero.
            assert!(rates.iter().filter(|&&r| r > 0.0).count() > NF / 4, "{p:?}");
        }
    }

    #[test]
    fn shipped_profiles_round_trip_exactly() {
        for p in Profile::ALL {
            let c = Profile::from_json(&p.to_json()).unwrap();
            assert_eq!(c.base(), p);
            assert_eq!(c.name(), p.name());
            assert_eq!(c.tables(), Tables::from(p), "{p}");
            // And the custom profile's own file reads back equal.
            assert_eq!(CustomProfile::from_json(&c.to_json()).unwrap(), c);
        }
    }

    #[test]
    fn a_file_from_a_scanner_with_fewer_features_says_so() {
        // A profile written before the last two features existed: every other field is fine.
        let mut v: Value = serde_json::from_str(&Profile::Llama3.to_json()).unwrap();
        let rates = v["rates"].as_object_mut().unwrap();
        for f in &FEATURE_NAMES[NF - 2..] {
            rates.remove(*f);
        }
        let e = CustomProfile::from_json(&v.to_string()).unwrap_err();
        assert_eq!(
            e,
            ProfileFileError::MissingRates(
                FEATURE_NAMES[NF - 2..]
                    .iter()
                    .map(|f| f.to_string())
                    .collect()
            )
        );
        let msg = e.to_string();
        assert!(
            msg.contains(&format!(
                "no rates for 2 of this version's {NF} scanner features"
            )),
            "{msg}"
        );
        assert!(
            msg.contains(FEATURE_NAMES[NF - 1]) && msg.contains("earlier version"),
            "{msg}"
        );
        assert!(msg.contains("llm-preflight calibrate"), "{msg}");
    }

    #[test]
    fn a_file_without_the_additive_high_end_prices_its_high_end_by_its_bands() {
        // Files written before the additive high end have no `high`; they load, and their high end is the bands'
        // (`L·e^(m + z_hi·σ)`), as is that of a profile whose bands were refitted.
        let text = "fn main() { println!(\"{}\", 1 + 2); }\nThe sum is printed once.";
        let shipped = crate::estimate(text, Profile::O200k);
        let mut v: Value = serde_json::from_str(&Profile::O200k.to_json()).unwrap();
        let h = v["high"].as_object().unwrap();
        assert_eq!(h.len(), HIGH_TERMS);
        assert_eq!(
            h["letters"].as_f64().map(|x| x as f32),
            Some(tables::HIGH[0][0])
        );
        v.as_object_mut().unwrap().remove("high");
        let old = CustomProfile::from_json(&v.to_string()).unwrap();
        assert_eq!(old.high(), None);
        let banded = crate::estimate(text, &old);
        assert_eq!((banded.tokens, banded.low), (shipped.tokens, shipped.low));
        assert_ne!(banded.high, shipped.high, "{banded:?} {shipped:?}");
        let mut c = CustomProfile::from_json(&Profile::O200k.to_json()).unwrap();
        assert_eq!(c.high(), Some(tables::HIGH[0]));
        c.set_band(ContentKind::Code, old.tables().band(ContentKind::Code))
            .unwrap();
        assert_eq!(c.high(), None);
        assert_eq!(crate::estimate(text, &c).high, banded.high);
        assert_eq!(CustomProfile::from_json(&c.to_json()).unwrap(), c);
    }

    #[test]
    fn a_spread_of_two_numbers_has_no_repeat_term() {
        // Files written before the spread's repeat term hold `[a, b]`; they load as `[a, b, 0]` and price so.
        let mut v: Value = serde_json::from_str(&Profile::O200k.to_json()).unwrap();
        assert_eq!(v["spread"].as_array().map(Vec::len), Some(3));
        v["spread"] = serde_json::json!([0.02, 0.5]);
        let c = CustomProfile::from_json(&v.to_string()).unwrap();
        assert_eq!(c.tables().spread(), [0.02f32 as f64, 0.5f32 as f64, 0.0]);
        for bad in [
            serde_json::json!([0.1, 0.2, 0.3, 0.4]),
            serde_json::json!([0.1, 0.2, -1.0]),
        ] {
            v["spread"] = bad;
            let e = CustomProfile::from_json(&v.to_string())
                .unwrap_err()
                .to_string();
            assert!(e.contains("/spread"), "{e}");
        }
    }

    #[test]
    fn bad_files_say_where() {
        let good = Profile::O200k.to_json();
        let mut v: Value = serde_json::from_str(&good).unwrap();
        type Edit = Box<dyn Fn(&mut Value)>;
        let cases: Vec<(Edit, &str)> = vec![
            (Box::new(|v| v["format"] = "x/9".into()), "format"),
            (
                Box::new(|v| {
                    v["rates"].as_object_mut().unwrap().remove("latin_runs");
                }),
                "scanner features (latin_runs)",
            ),
            (Box::new(|v| v["rates"]["nope"] = 1.0.into()), "/rates/nope"),
            (
                Box::new(|v| v["rates"]["latin_runs"] = (-1.0).into()),
                "/rates/latin_runs",
            ),
            (
                Box::new(|v| v["rates"]["latin_runs"] = "1".into()),
                "/rates/latin_runs",
            ),
            (
                Box::new(|v| v["rates"]["latin_runs"] = 1e300.into()),
                "/rates/latin_runs",
            ),
            (
                Box::new(|v| v["bands"]["prose"] = serde_json::json!([0, 1, 2])),
                "/bands/prose",
            ),
            (
                Box::new(|v| v["bands"]["prose"] = serde_json::json!([0, -1])),
                "/bands/prose",
            ),
            (
                Box::new(|v| v["chars_per_token"]["cjk"] = serde_json::json!([3, 2, 4])),
                "/chars_per_token/cjk",
            ),
            (
                Box::new(|v| v["chars_per_token"]["cjk"] = serde_json::json!([0, 2, 4])),
                "/chars_per_token/cjk",
            ),
            (Box::new(|v| v["base"] = "bert".into()), "bert"),
            (Box::new(|v| v["name"] = "".into()), "/name"),
            (
                Box::new(|v| v["spread"] = serde_json::json!([1])),
                "/spread",
            ),
            (Box::new(|v| v["extra"] = 1.into()), "/extra"),
            (
                Box::new(|v| v["high"]["letters"] = 0.5.into()),
                "/high/letters",
            ),
            (
                Box::new(|v| v["high"]["sqrt"] = (-1.0).into()),
                "/high/sqrt",
            ),
            (
                Box::new(|v| v["high"]["sqrt"] = f64::NAN.into()),
                "/high/sqrt",
            ),
            (
                Box::new(|v| {
                    v["high"].as_object_mut().unwrap().remove("cjk");
                }),
                "/high/cjk",
            ),
            (Box::new(|v| v["high"]["nope"] = 1.0.into()), "/high/nope"),
            (Box::new(|v| v["high"] = serde_json::json!([1, 2])), "/high"),
        ];
        for (edit, needle) in cases {
            let mut w = v.clone();
            edit(&mut w);
            let e = CustomProfile::from_json(&w.to_string())
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle), "{needle}: {e}");
        }
        v["description"] = serde_json::json!(null);
        assert!(CustomProfile::from_json(&v.to_string()).is_ok());
        for bad in ["", "[]", "{", "null", "\"x\""] {
            assert!(CustomProfile::from_json(bad).is_err(), "{bad}");
        }
        let huge = " ".repeat(MAX_PROFILE_BYTES + 1);
        assert!(matches!(
            CustomProfile::from_json(&huge),
            Err(ProfileFileError::TooLarge { .. })
        ));
    }
}
