//! One pass over the text: counts of what drives tokenizers.
//!
//! Tokenizers first cut text into pre-tokens (letter runs, digit groups, punctuation runs, whitespace runs) and then
//! merge bytes inside each pre-token. The scanner counts those pre-token shapes without any vocabulary: letter runs
//! by script and their lengths, case changes (o200k splits `camelCase`), digits and digit groups, punctuation runs,
//! whitespace and newline runs, CJK characters, emoji, long runs of one character (40,000 spaces are about 313
//! o200k tokens, not 40,000), and long alphanumeric strings that look like base64 or hex.
//!
//! It keeps a fixed amount of state, so text can arrive in chunks of any size (even bytes split inside a UTF-8
//! sequence, through [`Scanner::feed_bytes`]) and the counts are the same as for the whole text at once.
//! Nothing here allocates.

/// How many features the scanner counts; the length of [`Features::v`].
pub const NF: usize = 48;

/// Feature indices. Each is a count over the text; the estimator prices each one per profile.
#[allow(missing_docs)]
pub mod f {
    pub const BIAS: usize = 0;
    // Letter runs by script group: runs, letters.
    pub const LATIN_RUNS: usize = 1;
    pub const LATIN_CHARS: usize = 2;
    pub const LATIN_NONASCII: usize = 3;
    pub const LATIN_CASE_SPLITS: usize = 4;
    pub const LATIN_LONG: usize = 5;
    pub const LATIN_CAPS_RUNS: usize = 6;
    pub const CYR_RUNS: usize = 7;
    pub const CYR_CHARS: usize = 8;
    pub const GREEK_RUNS: usize = 9;
    pub const GREEK_CHARS: usize = 10;
    pub const ARABIC_RUNS: usize = 11;
    pub const ARABIC_CHARS: usize = 12;
    pub const INDIC_RUNS: usize = 13;
    pub const INDIC_CHARS: usize = 14;
    pub const SEA_RUNS: usize = 15;
    pub const SEA_CHARS: usize = 16;
    pub const OTHER_RUNS: usize = 17;
    pub const OTHER_CHARS: usize = 18;
    pub const HAN_CHARS: usize = 19;
    pub const HAN_RUNS: usize = 20;
    pub const KANA_CHARS: usize = 21;
    pub const KANA_RUNS: usize = 22;
    pub const HANGUL_CHARS: usize = 23;
    pub const HANGUL_RUNS: usize = 24;
    pub const CJK_PUNCT: usize = 25;
    // Digits.
    pub const DIGITS: usize = 26;
    pub const DIGIT_RUNS: usize = 27;
    pub const DIGIT_GROUPS3: usize = 28;
    // Punctuation (ASCII symbols).
    pub const PUNCT: usize = 29;
    pub const PUNCT_RUNS: usize = 30;
    // Non-ASCII symbols by UTF-8 length, emoji and their modifiers.
    pub const SYM2: usize = 31;
    pub const SYM3: usize = 32;
    pub const SYM4: usize = 33;
    pub const EMOJI: usize = 34;
    pub const EMOJI_MODS: usize = 35;
    // Whitespace.
    pub const SPACES_SINGLE: usize = 36;
    pub const WS_RUNS: usize = 37;
    pub const WS_RUN_CHARS: usize = 38;
    pub const NL_RUNS: usize = 39;
    pub const NL_CHARS: usize = 40;
    pub const TABS: usize = 41;
    // Long runs of one non-whitespace character: runs and characters.
    pub const REP_RUNS: usize = 42;
    pub const REP_CHARS: usize = 43;
    // Long alphanumeric strings that look encoded.
    pub const B64_CHARS: usize = 44;
    pub const HEX_CHARS: usize = 45;
    pub const CONTROL: usize = 46;
    pub const OTHER_WS: usize = 47;
}

/// Feature names, in index order; the calibration tables are written against these.
pub const FEATURE_NAMES: [&str; NF] = [
    "bias",
    "latin_runs",
    "latin_chars",
    "latin_nonascii",
    "latin_case_splits",
    "latin_long",
    "latin_caps_runs",
    "cyr_runs",
    "cyr_chars",
    "greek_runs",
    "greek_chars",
    "arabic_runs",
    "arabic_chars",
    "indic_runs",
    "indic_chars",
    "sea_runs",
    "sea_chars",
    "other_runs",
    "other_chars",
    "han_chars",
    "han_runs",
    "kana_chars",
    "kana_runs",
    "hangul_chars",
    "hangul_runs",
    "cjk_punct",
    "digits",
    "digit_runs",
    "digit_groups3",
    "punct",
    "punct_runs",
    "sym2",
    "sym3",
    "sym4",
    "emoji",
    "emoji_mods",
    "spaces_single",
    "ws_runs",
    "ws_run_chars",
    "nl_runs",
    "nl_chars",
    "tabs",
    "rep_runs",
    "rep_chars",
    "b64_chars",
    "hex_chars",
    "control",
    "other_ws",
];

/// A run of one character at least this long is priced as a repeat, not character by character.
pub const REPEAT_MIN: u32 = 4;
/// Letters beyond this many in one run count toward `latin_long` (long or rare words split into pieces).
const LONG_WORD: u32 = 8;
/// Alphanumeric strings at least this long are checked for looking like base64.
const B64_MIN: u32 = 16;
/// Alphanumeric strings at least this long are checked for looking like hex.
const HEX_MIN: u32 = 8;

/// Secondary counts used to say what a text is made of (not priced).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Signals {
    /// `{` and `}`.
    pub braces: u64,
    /// `[` and `]`.
    pub brackets: u64,
    /// `"`.
    pub quotes: u64,
    /// `:`.
    pub colons: u64,
    /// `,`.
    pub commas: u64,
    /// `;`.
    pub semicolons: u64,
    /// `<` and `>`.
    pub angles: u64,
    /// `=`.
    pub equals: u64,
    /// `(` and `)`.
    pub parens: u64,
    /// `\`.
    pub backslashes: u64,
    /// Lines (newline characters).
    pub lines: u64,
    /// Lines that start with a space or tab.
    pub indented_lines: u64,
    /// The first character that is not whitespace, if any.
    pub first_nonspace: Option<char>,
}

/// Everything the scanner counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// The priced features, indexed by [`f`].
    pub v: [u64; NF],
    /// Unicode scalar values seen.
    pub chars: u64,
    /// UTF-8 bytes seen.
    pub bytes: u64,
    /// Characters by class, for the content mix: see [`Class`].
    pub class_chars: [u64; Class::COUNT],
    /// Secondary counts.
    pub signals: Signals,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            v: [0; NF],
            chars: 0,
            bytes: 0,
            class_chars: [0; Class::COUNT],
            signals: Signals::default(),
        }
    }
}

/// Character classes for the content mix. Every character falls in exactly one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Letters of alphabetic scripts (Latin, Cyrillic, Greek, Arabic, Indic, ...).
    Letters,
    /// Han, kana and Hangul, and CJK punctuation.
    Cjk,
    /// Digits.
    Digits,
    /// ASCII punctuation and symbols.
    Punctuation,
    /// Spaces, tabs, newlines.
    Whitespace,
    /// Emoji and other non-ASCII symbols.
    Symbols,
    /// Characters inside long runs of one character.
    Repeats,
    /// Control characters.
    Control,
}

impl Class {
    /// How many classes there are.
    pub const COUNT: usize = 8;
    /// All classes in index order.
    pub const ALL: [Class; Class::COUNT] = [
        Class::Letters,
        Class::Cjk,
        Class::Digits,
        Class::Punctuation,
        Class::Whitespace,
        Class::Symbols,
        Class::Repeats,
        Class::Control,
    ];
    /// The class's name in JSON output.
    pub const fn name(self) -> &'static str {
        match self {
            Class::Letters => "letters",
            Class::Cjk => "cjk",
            Class::Digits => "digits",
            Class::Punctuation => "punctuation",
            Class::Whitespace => "whitespace",
            Class::Symbols => "symbols",
            Class::Repeats => "repeats",
            Class::Control => "control",
        }
    }
    /// The class each priced feature's tokens are attributed to in the mix.
    pub const fn of_feature(i: usize) -> Class {
        match i {
            f::HAN_CHARS..=f::CJK_PUNCT => Class::Cjk,
            f::DIGITS..=f::DIGIT_GROUPS3 => Class::Digits,
            f::PUNCT | f::PUNCT_RUNS => Class::Punctuation,
            f::SYM2..=f::EMOJI_MODS => Class::Symbols,
            f::SPACES_SINGLE..=f::TABS | f::OTHER_WS => Class::Whitespace,
            f::REP_RUNS | f::REP_CHARS => Class::Repeats,
            f::CONTROL => Class::Control,
            _ => Class::Letters,
        }
    }
}

/// Script groups for letter runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Cyrillic,
    Greek,
    Arabic,
    Indic,
    Sea,
    Other,
    Han,
    Kana,
    Hangul,
}

impl Script {
    const fn features(self) -> (usize, usize) {
        match self {
            Script::Latin => (f::LATIN_RUNS, f::LATIN_CHARS),
            Script::Cyrillic => (f::CYR_RUNS, f::CYR_CHARS),
            Script::Greek => (f::GREEK_RUNS, f::GREEK_CHARS),
            Script::Arabic => (f::ARABIC_RUNS, f::ARABIC_CHARS),
            Script::Indic => (f::INDIC_RUNS, f::INDIC_CHARS),
            Script::Sea => (f::SEA_RUNS, f::SEA_CHARS),
            Script::Other => (f::OTHER_RUNS, f::OTHER_CHARS),
            Script::Han => (f::HAN_RUNS, f::HAN_CHARS),
            Script::Kana => (f::KANA_RUNS, f::KANA_CHARS),
            Script::Hangul => (f::HANGUL_RUNS, f::HANGUL_CHARS),
        }
    }
}

/// What one character is, for the state machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A letter; `upper` is true for capitals, `ascii` for ASCII letters.
    Letter { script: Script, upper: bool, ascii: bool },
    /// A combining mark: continues the current letter run.
    Mark,
    Digit,
    Punct,
    Space,
    Tab,
    Newline,
    OtherWs,
    CjkPunct,
    Emoji,
    EmojiMod,
    /// Any other symbol, with its UTF-8 length.
    Sym(u8),
    Control,
}

// ASCII classes in a table: the hot path for most text.
const A_LOWER: u8 = 0;
const A_UPPER: u8 = 1;
const A_DIGIT: u8 = 2;
const A_PUNCT: u8 = 3;
const A_SPACE: u8 = 4;
const A_TAB: u8 = 5;
const A_NL: u8 = 6;
const A_CTRL: u8 = 7;
const A_OTHERWS: u8 = 8;

const ASCII: [u8; 128] = {
    let mut t = [A_PUNCT; 128];
    let mut i = 0;
    while i < 128 {
        let c = i as u8;
        t[i] = if c.is_ascii_lowercase() {
            A_LOWER
        } else if c.is_ascii_uppercase() {
            A_UPPER
        } else if c.is_ascii_digit() {
            A_DIGIT
        } else if c == b' ' {
            A_SPACE
        } else if c == b'\t' {
            A_TAB
        } else if c == b'\n' {
            A_NL
        } else if c == b'\r' || c == 0x0b || c == 0x0c {
            A_OTHERWS
        } else if c < 0x20 || c == 0x7f {
            A_CTRL
        } else {
            A_PUNCT
        };
        i += 1;
    }
    t
};

#[inline]
fn kind_of(c: char) -> Kind {
    let u = c as u32;
    if u < 128 {
        return match ASCII[u as usize] {
            A_LOWER => Kind::Letter {
                script: Script::Latin,
                upper: false,
                ascii: true,
            },
            A_UPPER => Kind::Letter {
                script: Script::Latin,
                upper: true,
                ascii: true,
            },
            A_DIGIT => Kind::Digit,
            A_PUNCT => Kind::Punct,
            A_SPACE => Kind::Space,
            A_TAB => Kind::Tab,
            A_NL => Kind::Newline,
            A_OTHERWS => Kind::OtherWs,
            _ => Kind::Control,
        };
    }
    kind_of_non_ascii(c, u)
}

#[cold]
fn kind_of_non_ascii(c: char, u: u32) -> Kind {
    let letter = |script| Kind::Letter {
        script,
        upper: c.is_uppercase(),
        ascii: false,
    };
    match u {
        0x80..=0x9f => Kind::Control,
        0xa0 | 0x1680 | 0x2000..=0x200a | 0x2028 | 0x2029 | 0x202f | 0x205f | 0x3000 => Kind::OtherWs,
        0x0300..=0x036f | 0x1ab0..=0x1aff | 0x1dc0..=0x1dff | 0x20d0..=0x20e2 | 0x20e4..=0x20ff => Kind::Mark,
        0x200d | 0xfe0e | 0xfe0f | 0x20e3 | 0x1f3fb..=0x1f3ff | 0xe0020..=0xe007f => Kind::EmojiMod,
        0x00c0..=0x024f | 0x1e00..=0x1eff | 0x2c60..=0x2c7f | 0xa720..=0xa7ff => {
            if c.is_alphabetic() {
                letter(Script::Latin)
            } else {
                Kind::Sym(2)
            }
        }
        0x0370..=0x03ff | 0x1f00..=0x1fff => {
            if c.is_alphabetic() {
                letter(Script::Greek)
            } else {
                Kind::Sym(len8(u))
            }
        }
        0x0400..=0x052f | 0x1c80..=0x1c8f | 0x2de0..=0x2dff | 0xa640..=0xa69f => {
            if c.is_alphabetic() {
                letter(Script::Cyrillic)
            } else {
                Kind::Mark
            }
        }
        0x0590..=0x08ff | 0xfb1d..=0xfdff | 0xfe70..=0xfeff => {
            if c.is_alphabetic() {
                letter(Script::Arabic)
            } else if is_mark_like(c) {
                Kind::Mark
            } else if c.is_numeric() {
                Kind::Digit
            } else {
                Kind::Sym(len8(u))
            }
        }
        0x0900..=0x0dff | 0xa8e0..=0xa8ff => {
            if c.is_alphabetic() || is_mark_like(c) {
                letter(Script::Indic)
            } else if c.is_numeric() {
                Kind::Digit
            } else {
                Kind::Sym(3)
            }
        }
        0x0e00..=0x0eff | 0x1000..=0x109f | 0x1780..=0x17ff => {
            if c.is_alphabetic() || is_mark_like(c) {
                letter(Script::Sea)
            } else {
                Kind::Sym(3)
            }
        }
        0x1100..=0x11ff | 0x3130..=0x318f | 0xac00..=0xd7af => letter(Script::Hangul),
        0x3040..=0x30ff | 0x31f0..=0x31ff | 0xff66..=0xff9f => letter(Script::Kana),
        0x3400..=0x4dbf | 0x4e00..=0x9fff | 0xf900..=0xfaff | 0x20000..=0x3134f => letter(Script::Han),
        0x3001..=0x303f | 0xff00..=0xff65 | 0xfe30..=0xfe4f => {
            if c.is_alphanumeric() {
                letter(Script::Latin)
            } else {
                Kind::CjkPunct
            }
        }
        0x1f000..=0x1faff | 0x2600..=0x27bf | 0x2b00..=0x2bff | 0x2300..=0x23ff | 0x2190..=0x21ff => {
            if is_emoji(u) {
                Kind::Emoji
            } else {
                Kind::Sym(len8(u))
            }
        }
        _ => {
            if c.is_alphabetic() {
                letter(Script::Other)
            } else if c.is_numeric() {
                Kind::Digit
            } else if c.is_whitespace() {
                Kind::OtherWs
            } else if c.is_control() {
                Kind::Control
            } else {
                Kind::Sym(len8(u))
            }
        }
    }
}

/// Marks and signs that continue a word (no general-category table in std; these ranges cover the common ones).
fn is_mark_like(c: char) -> bool {
    let u = c as u32;
    matches!(u, 0x0591..=0x05c7 | 0x0610..=0x061a | 0x064b..=0x065f | 0x0670 | 0x06d6..=0x06ed | 0x08d3..=0x08ff)
        || (matches!(u, 0x0900..=0x0dff) && !c.is_alphanumeric() && !is_indic_punct(u))
        || (matches!(u, 0x0e00..=0x0eff | 0x1000..=0x109f | 0x1780..=0x17ff) && !c.is_alphanumeric())
}

fn is_indic_punct(u: u32) -> bool {
    matches!(u, 0x0964 | 0x0965 | 0x0970)
}

fn is_emoji(u: u32) -> bool {
    matches!(u, 0x1f300..=0x1f5ff | 0x1f600..=0x1f64f | 0x1f680..=0x1f6ff | 0x1f900..=0x1f9ff | 0x1fa70..=0x1faff
        | 0x1f1e6..=0x1f1ff | 0x2600..=0x27bf | 0x2b50 | 0x2b55 | 0x2b1b | 0x2b1c | 0x231a | 0x231b | 0x23e9..=0x23fa
        | 0x1f004 | 0x1f0cf | 0x1f170..=0x1f251)
}

const fn len8(u: u32) -> u8 {
    if u < 0x80 {
        1
    } else if u < 0x800 {
        2
    } else if u < 0x10000 {
        3
    } else {
        4
    }
}

/// What the previous character left open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    Nothing,
    Word { script: Script, len: u32, last_upper: bool, caps: u32 },
    Digits(u32),
    Punct,
    Ws(u32),
    Newlines,
}

/// The streaming scanner. Feed it text in any number of pieces, then read [`Scanner::features`].
#[derive(Debug, Clone)]
pub struct Scanner {
    feats: Features,
    open: Open,
    // Run-length stage: the character being repeated and how often so far.
    run_char: char,
    run_len: u32,
    // Alphanumeric string tracker for base64/hex detection.
    an_len: u32,
    an_trans: u32,
    an_prev: u8,
    an_digits: bool,
    an_alpha: bool,
    an_nonhex: bool,
    an_upper: bool,
    an_lower: bool,
    at_line_start: bool,
    // Bytes of a UTF-8 sequence split across `feed_bytes` calls.
    partial: [u8; 4],
    partial_len: u8,
    lossy: bool,
}

impl Default for Scanner {
    fn default() -> Self {
        Self::new()
    }
}

impl Scanner {
    /// A scanner that has seen nothing.
    pub const fn new() -> Self {
        Scanner {
            feats: Features {
                v: [0; NF],
                chars: 0,
                bytes: 0,
                class_chars: [0; Class::COUNT],
                signals: Signals {
                    braces: 0,
                    brackets: 0,
                    quotes: 0,
                    colons: 0,
                    commas: 0,
                    semicolons: 0,
                    angles: 0,
                    equals: 0,
                    parens: 0,
                    backslashes: 0,
                    lines: 0,
                    indented_lines: 0,
                    first_nonspace: None,
                },
            },
            open: Open::Nothing,
            run_char: '\0',
            run_len: 0,
            an_len: 0,
            an_trans: 0,
            an_prev: 0,
            an_digits: false,
            an_alpha: false,
            an_nonhex: false,
            an_upper: false,
            an_lower: false,
            at_line_start: true,
            partial: [0; 4],
            partial_len: 0,
            lossy: false,
        }
    }

    /// Scans a piece of text.
    pub fn feed(&mut self, text: &str) {
        self.flush_partial_as_invalid();
        self.feats.bytes += text.len() as u64;
        self.feed_chars(text);
    }

    #[inline]
    fn feed_chars(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        // ASCII fast path with the run-length stage inline; other characters decode normally.
        while i < bytes.len() {
            let b = bytes[i];
            let c = if b < 0x80 {
                i += 1;
                b as char
            } else {
                // SAFETY-free decode: `text` is valid UTF-8, so take the char starting at i.
                let c = text[i..].chars().next().unwrap_or('\u{fffd}');
                i += c.len_utf8();
                c
            };
            if c == self.run_char && self.run_len > 0 {
                self.run_len += 1;
            } else {
                self.end_run();
                self.run_char = c;
                self.run_len = 1;
            }
        }
    }

    /// Scans a piece of raw bytes. UTF-8 sequences may be split across calls; invalid bytes count as U+FFFD, as
    /// `String::from_utf8_lossy` would decode them, and [`Scanner::saw_invalid_utf8`] turns true.
    pub fn feed_bytes(&mut self, mut bytes: &[u8]) {
        // Complete a sequence left open by the previous call.
        while self.partial_len > 0 && !bytes.is_empty() {
            let need = utf8_len(self.partial[0]);
            let b = bytes[0];
            if b & 0xc0 != 0x80 {
                self.flush_partial_as_invalid();
                break;
            }
            self.partial[self.partial_len as usize] = b;
            self.partial_len += 1;
            bytes = &bytes[1..];
            if self.partial_len as usize == need {
                let seq = self.partial;
                let n = self.partial_len as usize;
                self.partial_len = 0;
                match std::str::from_utf8(&seq[..n]) {
                    Ok(s) => {
                        self.feats.bytes += n as u64;
                        self.feed_chars(s);
                    }
                    Err(_) => self.invalid(n),
                }
            }
        }
        loop {
            match std::str::from_utf8(bytes) {
                Ok(s) => {
                    self.feats.bytes += s.len() as u64;
                    self.feed_chars(s);
                    return;
                }
                Err(e) => {
                    let good = e.valid_up_to();
                    // SAFETY-free: from_utf8 on the prefix it just validated cannot fail.
                    if let Ok(s) = std::str::from_utf8(&bytes[..good]) {
                        self.feats.bytes += s.len() as u64;
                        self.feed_chars(s);
                    }
                    match e.error_len() {
                        Some(bad) => {
                            self.invalid(bad);
                            bytes = &bytes[good + bad..];
                        }
                        None => {
                            // An incomplete sequence at the end: keep it for the next call.
                            let rest = &bytes[good..];
                            self.partial[..rest.len()].copy_from_slice(rest);
                            self.partial_len = rest.len() as u8;
                            return;
                        }
                    }
                }
            }
        }
    }

    fn invalid(&mut self, nbytes: usize) {
        self.lossy = true;
        self.feats.bytes += nbytes as u64;
        // The replacement character counts as one character; `bytes` counts the bytes that were really there.
        self.feed_chars("\u{fffd}");
    }

    fn flush_partial_as_invalid(&mut self) {
        if self.partial_len > 0 {
            let n = self.partial_len as usize;
            self.partial_len = 0;
            self.invalid(n);
        }
    }

    /// True once any invalid UTF-8 was replaced by U+FFFD.
    pub fn saw_invalid_utf8(&self) -> bool {
        self.lossy || self.partial_len > 0
    }

    /// The counts so far, as if the text ended here. The scanner can go on being fed afterwards.
    pub fn features(&self) -> Features {
        let mut s = self.clone();
        s.flush_partial_as_invalid();
        s.end_run();
        s.close_open();
        s.end_alnum();
        if s.feats.chars > 0 {
            s.feats.v[f::BIAS] = 1;
        }
        s.feats
    }

    /// The run-length stage hands over a run of `run_len` copies of `run_char`.
    #[inline]
    fn end_run(&mut self) {
        let n = self.run_len;
        if n == 0 {
            return;
        }
        self.run_len = 0;
        let c = self.run_char;
        let k = kind_of(c);
        self.feats.chars += n as u64;
        if n >= REPEAT_MIN && !matches!(k, Kind::Space | Kind::Tab | Kind::Newline | Kind::OtherWs) {
            self.repeat(c, k, n);
        } else {
            for _ in 0..n {
                self.step(c, k);
            }
        }
    }

    /// A long run of one non-whitespace character: priced as a repeat.
    fn repeat(&mut self, c: char, k: Kind, n: u32) {
        self.close_open();
        self.end_alnum();
        self.note_signal(c, k, n as u64);
        self.feats.v[f::REP_RUNS] += 1;
        self.feats.v[f::REP_CHARS] += n as u64;
        self.feats.class_chars[Class::Repeats as usize] += n as u64;
        self.open = Open::Punct;
    }

    #[inline]
    fn note_signal(&mut self, c: char, k: Kind, n: u64) {
        let s = &mut self.feats.signals;
        match k {
            Kind::Newline => {
                s.lines += n;
                self.at_line_start = true;
                return;
            }
            Kind::Space | Kind::Tab => {
                if self.at_line_start {
                    s.indented_lines += 1;
                    self.at_line_start = false;
                }
                return;
            }
            Kind::OtherWs => return,
            _ => {}
        }
        self.at_line_start = false;
        if s.first_nonspace.is_none() {
            s.first_nonspace = Some(c);
        }
        if let Kind::Punct = k {
            match c {
                '{' | '}' => s.braces += n,
                '[' | ']' => s.brackets += n,
                '"' => s.quotes += n,
                ':' => s.colons += n,
                ',' => s.commas += n,
                ';' => s.semicolons += n,
                '<' | '>' => s.angles += n,
                '=' => s.equals += n,
                '(' | ')' => s.parens += n,
                '\\' => s.backslashes += n,
                _ => {}
            }
        }
    }

    /// One character through the pre-token state machine.
    #[inline]
    fn step(&mut self, c: char, k: Kind) {
        self.note_signal(c, k, 1);
        match k {
            Kind::Letter { script, upper, ascii } => {
                match script {
                    Script::Han | Script::Kana | Script::Hangul => self.feats.class_chars[Class::Cjk as usize] += 1,
                    _ => self.feats.class_chars[Class::Letters as usize] += 1,
                }
                let (runs_i, chars_i) = script.features();
                self.feats.v[chars_i] += 1;
                if script == Script::Latin {
                    if !ascii {
                        self.feats.v[f::LATIN_NONASCII] += 1;
                    }
                    self.alnum(if upper { 1 } else { 2 }, c);
                } else {
                    self.end_alnum();
                }
                match &mut self.open {
                    Open::Word {
                        script: s,
                        len,
                        last_upper,
                        caps,
                    } if *s == script => {
                        *len += 1;
                        if script == Script::Latin {
                            if *len > LONG_WORD {
                                self.feats.v[f::LATIN_LONG] += 1;
                            }
                            if upper && !*last_upper {
                                self.feats.v[f::LATIN_CASE_SPLITS] += 1;
                            }
                            if upper {
                                *caps += 1;
                                if *caps == 2 {
                                    self.feats.v[f::LATIN_CAPS_RUNS] += 1;
                                }
                            } else {
                                *caps = 0;
                            }
                        }
                        *last_upper = upper;
                    }
                    _ => {
                        self.close_open();
                        self.feats.v[runs_i] += 1;
                        self.open = Open::Word {
                            script,
                            len: 1,
                            last_upper: upper,
                            caps: upper as u32,
                        };
                    }
                }
            }
            Kind::Mark => {
                self.feats.class_chars[Class::Letters as usize] += 1;
                match &mut self.open {
                    Open::Word { script, .. } => {
                        let (_, chars_i) = script.features();
                        self.feats.v[chars_i] += 1;
                    }
                    _ => {
                        self.feats.v[f::SYM2] += 1;
                    }
                }
            }
            Kind::Digit => {
                self.feats.class_chars[Class::Digits as usize] += 1;
                self.feats.v[f::DIGITS] += 1;
                self.alnum(0, c);
                match &mut self.open {
                    Open::Digits(n) => {
                        *n += 1;
                        if *n % 3 == 1 {
                            self.feats.v[f::DIGIT_GROUPS3] += 1;
                        }
                    }
                    _ => {
                        self.close_open();
                        self.feats.v[f::DIGIT_RUNS] += 1;
                        self.feats.v[f::DIGIT_GROUPS3] += 1;
                        self.open = Open::Digits(1);
                    }
                }
            }
            Kind::Punct => {
                self.feats.class_chars[Class::Punctuation as usize] += 1;
                self.feats.v[f::PUNCT] += 1;
                // `+` and `/` belong to base64 strings; `-` and `_` keep identifiers and UUIDs together.
                if !matches!(c, '+' | '/') {
                    self.end_alnum();
                }
                if self.open != Open::Punct {
                    self.close_open();
                    self.feats.v[f::PUNCT_RUNS] += 1;
                    self.open = Open::Punct;
                }
            }
            Kind::Space => {
                self.feats.class_chars[Class::Whitespace as usize] += 1;
                self.end_alnum();
                match &mut self.open {
                    Open::Ws(n) => *n += 1,
                    _ => {
                        self.close_open();
                        self.open = Open::Ws(1);
                    }
                }
            }
            Kind::Tab => {
                self.feats.class_chars[Class::Whitespace as usize] += 1;
                self.feats.v[f::TABS] += 1;
                self.end_alnum();
                match &mut self.open {
                    Open::Ws(n) => *n += 1,
                    _ => {
                        self.close_open();
                        self.open = Open::Ws(1);
                    }
                }
            }
            Kind::Newline => {
                self.feats.class_chars[Class::Whitespace as usize] += 1;
                self.feats.v[f::NL_CHARS] += 1;
                self.end_alnum();
                if self.open != Open::Newlines {
                    self.close_open();
                    self.feats.v[f::NL_RUNS] += 1;
                    self.open = Open::Newlines;
                }
            }
            Kind::OtherWs => {
                self.feats.class_chars[Class::Whitespace as usize] += 1;
                self.feats.v[f::OTHER_WS] += 1;
                self.end_alnum();
                self.close_open();
            }
            Kind::CjkPunct => {
                self.feats.class_chars[Class::Cjk as usize] += 1;
                self.feats.v[f::CJK_PUNCT] += 1;
                self.end_alnum();
                self.close_open();
            }
            Kind::Emoji => {
                self.feats.class_chars[Class::Symbols as usize] += 1;
                self.feats.v[f::EMOJI] += 1;
                self.end_alnum();
                self.close_open();
            }
            Kind::EmojiMod => {
                self.feats.class_chars[Class::Symbols as usize] += 1;
                self.feats.v[f::EMOJI_MODS] += 1;
            }
            Kind::Sym(n) => {
                self.feats.class_chars[Class::Symbols as usize] += 1;
                self.feats.v[match n {
                    0..=2 => f::SYM2,
                    3 => f::SYM3,
                    _ => f::SYM4,
                }] += 1;
                self.end_alnum();
                self.close_open();
            }
            Kind::Control => {
                self.feats.class_chars[Class::Control as usize] += 1;
                self.feats.v[f::CONTROL] += 1;
                self.end_alnum();
                self.close_open();
            }
        }
    }

    /// Closes the open pre-token, pricing what only its end reveals (whitespace run length).
    #[inline]
    fn close_open(&mut self) {
        if let Open::Ws(n) = self.open {
            if n == 1 {
                self.feats.v[f::SPACES_SINGLE] += 1;
            } else {
                self.feats.v[f::WS_RUNS] += 1;
                self.feats.v[f::WS_RUN_CHARS] += n as u64;
            }
        }
        self.open = Open::Nothing;
    }

    /// Tracks alphanumeric strings: `cls` 0 digit, 1 upper, 2 lower.
    #[inline]
    fn alnum(&mut self, cls: u8, c: char) {
        if self.an_len > 0 && cls != self.an_prev {
            self.an_trans += 1;
        }
        self.an_len += 1;
        self.an_prev = cls;
        match cls {
            0 => self.an_digits = true,
            1 => {
                self.an_alpha = true;
                self.an_upper = true;
            }
            _ => {
                self.an_alpha = true;
                self.an_lower = true;
            }
        }
        if cls != 0 && !c.is_ascii_hexdigit() {
            self.an_nonhex = true;
        }
    }

    #[inline]
    fn end_alnum(&mut self) {
        let n = self.an_len;
        if n == 0 {
            return;
        }
        if n >= HEX_MIN && self.an_digits && self.an_alpha && !self.an_nonhex && !(self.an_upper && self.an_lower) {
            self.feats.v[f::HEX_CHARS] += n as u64;
        } else if n >= B64_MIN && self.an_digits && self.an_upper && self.an_lower && self.an_trans * 4 >= n {
            self.feats.v[f::B64_CHARS] += n as u64;
        }
        self.an_len = 0;
        self.an_trans = 0;
        self.an_digits = false;
        self.an_alpha = false;
        self.an_nonhex = false;
        self.an_upper = false;
        self.an_lower = false;
    }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

/// Scans a whole text at once.
pub fn scan(text: &str) -> Features {
    let mut s = Scanner::new();
    s.feed(text);
    s.features()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_chars_and_bytes() {
        let x = scan("héllo 世界 👋🏽");
        assert_eq!(x.chars, "héllo 世界 👋🏽".chars().count() as u64);
        assert_eq!(x.bytes, "héllo 世界 👋🏽".len() as u64);
        assert_eq!(x.class_chars.iter().sum::<u64>(), x.chars);
    }

    #[test]
    fn words_digits_and_case() {
        let x = scan("getElementById 12345 foo");
        assert_eq!(x.v[f::LATIN_RUNS], 2);
        assert_eq!(x.v[f::LATIN_CASE_SPLITS], 3);
        assert_eq!(x.v[f::DIGIT_RUNS], 1);
        assert_eq!(x.v[f::DIGIT_GROUPS3], 2);
        assert_eq!(x.v[f::SPACES_SINGLE], 2);
    }

    #[test]
    fn long_runs_are_repeats() {
        let x = scan(&"=".repeat(80));
        assert_eq!(x.v[f::REP_RUNS], 1);
        assert_eq!(x.v[f::REP_CHARS], 80);
        assert_eq!(x.v[f::PUNCT], 0);
        let spaces = scan(&" ".repeat(40_000));
        assert_eq!(spaces.v[f::WS_RUNS], 1);
        assert_eq!(spaces.v[f::WS_RUN_CHARS], 40_000);
    }

    #[test]
    fn encoded_strings() {
        let x = scan("aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ= 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
        assert!(x.v[f::B64_CHARS] >= 16, "{:?}", x.v);
        assert_eq!(x.v[f::HEX_CHARS], 64);
    }

    #[test]
    fn chunks_equal_whole() {
        let text = "Grüße, 世界! {\"a\": [1, 2]}\n\n    indented\t==== done 👋🏽 aGVsbG8gd29ybGQgaGVsbG8=";
        let whole = scan(text);
        for split in 0..=text.len() {
            if !text.is_char_boundary(split) {
                continue;
            }
            let mut s = Scanner::new();
            s.feed(&text[..split]);
            s.feed(&text[split..]);
            assert_eq!(s.features(), whole, "split at {split}");
        }
        let bytes = text.as_bytes();
        for split in 0..=bytes.len() {
            let mut s = Scanner::new();
            s.feed_bytes(&bytes[..split]);
            s.feed_bytes(&bytes[split..]);
            assert_eq!(s.features(), whole, "byte split at {split}");
            assert!(!s.saw_invalid_utf8());
        }
    }

    #[test]
    fn invalid_utf8_is_lossy() {
        let mut s = Scanner::new();
        s.feed_bytes(b"ab\xffcd\xe4\xb8");
        let x = s.features();
        assert!(s.saw_invalid_utf8());
        assert_eq!(x.chars, String::from_utf8_lossy(b"ab\xffcd\xe4\xb8").chars().count() as u64);
    }
}
