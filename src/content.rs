//! What a text is mostly made of: the [`ContentKind`] read off the scanner's signals. Each kind has its own band
//! (and characters per token) in the profile tables.

use crate::scan::{Class, Features};
use serde::{Serialize, Serializer};
use std::fmt;

/// What a text is mostly made of. The band is measured per kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContentKind {
    /// Nothing at all.
    Empty,
    /// Prose in a Latin-script language (English, German, French, Spanish, ...), Markdown, chat.
    Prose,
    /// Cyrillic-script text.
    Cyrillic,
    /// Arabic- or Hebrew-script text.
    Arabic,
    /// Devanagari and other Indic scripts.
    Indic,
    /// Chinese and Japanese (Han and kana).
    Cjk,
    /// Korean (Hangul).
    Korean,
    /// Greek, Thai and other scripts.
    OtherScript,
    /// Source code.
    Code,
    /// JSON.
    Json,
    /// HTML and XML.
    Markup,
    /// LaTeX and TeX.
    Latex,
    /// CSV and other delimited tables.
    Tabular,
    /// Mostly digits.
    Numeric,
    /// Base64, hex and other encoded blobs.
    Encoded,
    /// Emoji-heavy text.
    Emoji,
    /// Long runs of one character.
    Repetitive,
}

impl ContentKind {
    /// How many kinds there are.
    pub const COUNT: usize = 17;
    /// All kinds, in table order.
    pub const ALL: [ContentKind; ContentKind::COUNT] = [
        ContentKind::Empty,
        ContentKind::Prose,
        ContentKind::Cyrillic,
        ContentKind::Arabic,
        ContentKind::Indic,
        ContentKind::Cjk,
        ContentKind::Korean,
        ContentKind::OtherScript,
        ContentKind::Code,
        ContentKind::Json,
        ContentKind::Markup,
        ContentKind::Latex,
        ContentKind::Tabular,
        ContentKind::Numeric,
        ContentKind::Encoded,
        ContentKind::Emoji,
        ContentKind::Repetitive,
    ];

    /// The kind's name in JSON output.
    pub const fn name(self) -> &'static str {
        match self {
            ContentKind::Empty => "empty",
            ContentKind::Prose => "prose",
            ContentKind::Cyrillic => "cyrillic",
            ContentKind::Arabic => "arabic",
            ContentKind::Indic => "indic",
            ContentKind::Cjk => "cjk",
            ContentKind::Korean => "korean",
            ContentKind::OtherScript => "other-script",
            ContentKind::Code => "code",
            ContentKind::Json => "json",
            ContentKind::Markup => "markup",
            ContentKind::Latex => "latex",
            ContentKind::Tabular => "tabular",
            ContentKind::Numeric => "numeric",
            ContentKind::Encoded => "encoded",
            ContentKind::Emoji => "emoji",
            ContentKind::Repetitive => "repetitive",
        }
    }

    /// Looks a kind up by its name.
    pub fn from_name(name: &str) -> Option<ContentKind> {
        ContentKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Says what the counted text mostly is. Deterministic rules over the scanner's counts, in priority order.
    #[doc(hidden)]
    pub fn detect(x: &Features) -> ContentKind {
        use crate::scan::f;
        if x.chars == 0 {
            return ContentKind::Empty;
        }
        let v = &x.v;
        let s = &x.signals;
        let chars = x.chars as f64;
        let ws = x.class_chars[Class::Whitespace as usize] as f64;
        let nonspace = (chars - ws).max(1.0);
        if repeat_share(x) > 0.4 {
            return ContentKind::Repetitive;
        }
        if (v[f::B64_CHARS] + v[f::HEX_CHARS]) as f64 / nonspace > 0.35
            || v[f::MIXED_ALNUM_CHARS] as f64 / nonspace > 0.5
        {
            return ContentKind::Encoded;
        }
        if (v[f::EMOJI] + v[f::EMOJI_MODS]) as f64 / nonspace > 0.03 {
            return ContentKind::Emoji;
        }
        let cjk = (v[f::HAN_CHARS] + v[f::KANA_CHARS] + v[f::CJK_PUNCT]) as f64;
        // Text dense in rare ideographs (dictionaries, code tables: an ideograph and its Latin code a line) is
        // priced like CJK text whatever the Latin around them.
        if cjk / nonspace > 0.25 || v[f::HAN_RARE] as f64 / nonspace > 0.03 {
            return ContentKind::Cjk;
        }
        if v[f::HANGUL_CHARS] as f64 / nonspace > 0.25 {
            return ContentKind::Korean;
        }
        let letters = x.class_chars[Class::Letters as usize] as f64;
        let script_share = |i: usize| v[i] as f64 / letters.max(1.0);
        if letters / nonspace > 0.3 {
            if script_share(f::CYR_CHARS) > 0.4 {
                return ContentKind::Cyrillic;
            }
            if script_share(f::ARABIC_CHARS) > 0.4 {
                return ContentKind::Arabic;
            }
            let indic2: usize = (0..9).map(|b| v[f::INDIC2_CHARS + b] as usize).sum();
            if script_share(f::INDIC_CHARS) + indic2 as f64 / letters.max(1.0) > 0.4 {
                return ContentKind::Indic;
            }
            let other = v[f::GREEK_CHARS]
                + v[f::SEA_CHARS]
                + v[f::MYANMAR_CHARS]
                + v[f::KHMER_CHARS]
                + v[f::OTHER_CHARS]
                + v[f::ETHIOPIC_CHARS];
            if other as f64 / letters.max(1.0) > 0.4 {
                return ContentKind::OtherScript;
            }
        }
        let json_marks = (s.quotes + s.colons + s.commas + s.braces + s.brackets) as f64;
        if matches!(s.first_nonspace, Some('{') | Some('['))
            && json_marks / nonspace > 0.1
            && s.quotes >= 2
        {
            return ContentKind::Json;
        }
        if s.backslashes as f64 / nonspace > 0.012 && s.backslashes > s.angles {
            return ContentKind::Latex;
        }
        if s.angles as f64 / nonspace > 0.025 {
            return ContentKind::Markup;
        }
        let lines = (s.lines + 1) as f64;
        let digits = v[f::DIGITS] as f64;
        if s.lines >= 2
            && (s.commas as f64 / lines >= 2.0 || v[f::TABS] as f64 / lines >= 2.0)
            && letters / nonspace < 0.6
        {
            return ContentKind::Tabular;
        }
        if digits / nonspace > 0.5 {
            return ContentKind::Numeric;
        }
        let code_marks = (s.braces + s.parens + s.semicolons + s.equals + s.brackets) as f64;
        if code_marks / nonspace > 0.04
            || (s.indented_lines as f64 / lines > 0.3 && code_marks / nonspace > 0.015)
        {
            return ContentKind::Code;
        }
        ContentKind::Prose
    }
}

impl fmt::Display for ContentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for ContentKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The share of a text's characters in long runs of one character (repeats, and whitespace beyond 16 in a run):
/// what the linear estimate prices least surely, since how a vocabulary packs a run depends on its exact length
/// and unit. Detection calls a text `repetitive` above 0.4; the band's spread grows with it.
pub fn repeat_share(x: &Features) -> f64 {
    use crate::scan::f;
    let v = &x.v;
    let long_ws = v[f::WS_RUN_CHARS].saturating_sub(16 * v[f::WS_RUNS]);
    let rep = v[f::REP_CHARS] + v[f::REP_ALPHA_CHARS] + v[f::REP_WIDE_CHARS];
    ((rep + long_ws) as f64 / (x.chars as f64).max(1.0)).min(1.0)
}
