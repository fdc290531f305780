//! The oracle: the scanner exactly as it is on main at commit 3d5f728 (src/scan.rs, the scanner the calibration tables
//! were last fitted with), kept verbatim below this header so tests can compare the current scanner's `Features`
//! with it field by field. Any difference is a bug in the current scanner.
//! Since then two features were added on purpose, here and in src/scan.rs the same way, and the tables refitted:
//! `digits_after_blank` (a digit run that opens while a blank run is open) and `bare_word_chars` (letters of a word
//! of another alphabetic script opened while no blank run is open: the `bare` flag).
//! Do not edit below the header otherwise; if a feature is ever changed on purpose, the tables are refitted and this
//! copy is changed the same way (or replaced by the new scanner) together with them.
#![allow(dead_code, clippy::all)]

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
pub const NF: usize = 165;

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
    pub const LATIN_LONG2: usize = 48;
    pub const LATIN_UPPER: usize = 49;
    pub const WORD_AFTER_PUNCT: usize = 50;
    pub const PUNCT_SINGLE: usize = 51;
    pub const NONLATIN_LONG: usize = 52;
    pub const CAPS_THEN_LOWER: usize = 53;
    pub const MIXED_ALNUM_CHARS: usize = 54;
    pub const BACKSLASH_WORDS: usize = 55;
    pub const REP_ALPHA_RUNS: usize = 56;
    pub const REP_ALPHA_CHARS: usize = 57;
    pub const REP_WIDE_RUNS: usize = 58;
    pub const REP_WIDE_CHARS: usize = 59;
    pub const WS_LONG: usize = 60;
    /// ASCII letters a to z (either case): 26 features from here.
    pub const LETTER_A: usize = 61;
    /// Runs of the Indic scripts after Devanagari (Bengali to Sinhala, U+0980–U+0DFF). Their letters are counted
    /// per script (`INDIC2_CHARS + block`, blocks of 128 from U+0980): vocabularies differ by up to 2.5× in what
    /// one of their characters costs, script to script.
    pub const INDIC2_RUNS: usize = 87;
    /// Bengali (and Assamese), Gurmukhi, Gujarati, Odia, Tamil, Telugu, Kannada, Malayalam, Sinhala letters.
    pub const INDIC2_CHARS: usize = 88;
    /// Digit runs right after a space or tab: tokenizers that cut digits apart from letters give such a space a
    /// token of its own, where a word would take it as its prefix (` 42` is two tokens, ` word` one).
    pub const DIGITS_AFTER_BLANK: usize = 97;
    /// Letters of words of alphabetic scripts other than Latin (Cyrillic, Greek, Arabic, Indic, ...) that do not
    /// follow a space or tab: at a line start or after punctuation. Vocabularies hold these words mostly with
    /// their leading space; without it they split into more pieces, more the longer the word.
    pub const BARE_WORD_CHARS: usize = 98;
    /// Tallies of UTF-8 bytes in the ranges of [`BYTE_TALLY_RANGES`] (7 features from here), read off the byte
    /// histogram: characters of one block of code points each (a lead byte), or one continuation byte. They tell
    /// apart languages that share a script's other counts: Polish, Czech or Turkish from French (Latin
    /// Extended-A), Vietnamese (Latin Extended-B and Additional), Hebrew from Arabic, Persian from Arabic, Ukrainian
    /// from Russian (`і ї є` end in bytes 0x94–0x97).
    pub const BYTE_TALLIES: usize = 99;
    /// Cyrillic letters outside the Russian alphabet (`А`–`я`, `Ё`, `ё`): Ukrainian `і ї є ґ`, Belarusian `ў`,
    /// Serbian `ђ ј љ њ ћ џ`, Kazakh, ... Vocabularies trained mostly on Russian split those languages' words
    /// into more pieces.
    pub const CYR_NONRUSSIAN: usize = 106;
    pub const PUNCT_CHARS: usize = 107;
    pub const UPPER_A: usize = 139;
}

/// The byte ranges of the `BYTE_TALLIES` features, inclusive, in feature order: lead bytes C4–C5 (U+0100–U+017F,
/// Latin Extended-A), C6–C9 (U+0180–U+027F, Latin Extended-B and IPA), D2–D3 (U+0480–U+04FF, Cyrillic beyond
/// the Russian alphabet), D7 (U+05C0–U+05FF, the Hebrew letters), DA–DB (U+0680–U+06FF, the Arabic letters of
/// Persian, Urdu and others), E1 (U+1000–U+1FFF, Latin Extended Additional, Greek Extended, Georgian, Myanmar,
/// Khmer, ...), and continuation bytes 0x94–0x97.
pub const BYTE_TALLY_RANGES: [(u8, u8); 7] = [
    (0xc4, 0xc5),
    (0xc6, 0xc9),
    (0xd2, 0xd3),
    (0xd7, 0xd7),
    (0xda, 0xdb),
    (0xe1, 0xe1),
    (0x94, 0x97),
];

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
    "latin_long2",
    "latin_upper",
    "word_after_punct",
    "punct_single",
    "nonlatin_long",
    "caps_then_lower",
    "mixed_alnum_chars",
    "backslash_words",
    "rep_alpha_runs",
    "rep_alpha_chars",
    "rep_wide_runs",
    "rep_wide_chars",
    "ws_long",
    "letter_a",
    "letter_b",
    "letter_c",
    "letter_d",
    "letter_e",
    "letter_f",
    "letter_g",
    "letter_h",
    "letter_i",
    "letter_j",
    "letter_k",
    "letter_l",
    "letter_m",
    "letter_n",
    "letter_o",
    "letter_p",
    "letter_q",
    "letter_r",
    "letter_s",
    "letter_t",
    "letter_u",
    "letter_v",
    "letter_w",
    "letter_x",
    "letter_y",
    "letter_z",
    "indic2_runs",
    "bengali_chars",
    "gurmukhi_chars",
    "gujarati_chars",
    "odia_chars",
    "tamil_chars",
    "telugu_chars",
    "kannada_chars",
    "malayalam_chars",
    "sinhala_chars",
    "digits_after_blank",
    "bare_word_chars",
    "latin_ext_a",
    "latin_ext_b",
    "cyrillic_ext",
    "hebrew",
    "arabic_ext",
    "lead_e1",
    "cont_94_97",
    "cyr_nonrussian",
    "ascii_21",
    "ascii_22",
    "ascii_23",
    "ascii_24",
    "ascii_25",
    "ascii_26",
    "ascii_27",
    "ascii_28",
    "ascii_29",
    "ascii_2a",
    "ascii_2b",
    "ascii_2c",
    "ascii_2d",
    "ascii_2e",
    "ascii_2f",
    "ascii_3a",
    "ascii_3b",
    "ascii_3c",
    "ascii_3d",
    "ascii_3e",
    "ascii_3f",
    "ascii_40",
    "ascii_5b",
    "ascii_5c",
    "ascii_5d",
    "ascii_5e",
    "ascii_5f",
    "ascii_60",
    "ascii_7b",
    "ascii_7c",
    "ascii_7d",
    "ascii_7e",
    "upper_a",
    "upper_b",
    "upper_c",
    "upper_d",
    "upper_e",
    "upper_f",
    "upper_g",
    "upper_h",
    "upper_i",
    "upper_j",
    "upper_k",
    "upper_l",
    "upper_m",
    "upper_n",
    "upper_o",
    "upper_p",
    "upper_q",
    "upper_r",
    "upper_s",
    "upper_t",
    "upper_u",
    "upper_v",
    "upper_w",
    "upper_x",
    "upper_y",
    "upper_z",
];

/// Whitespace beyond this many characters in one run counts toward `ws_long`.
const WS_LONG_MIN: u32 = 16;
/// A run of one character at least this long is priced as a repeat, not character by character (digits excepted:
/// tokenizers group them the same however they repeat).
pub const REPEAT_MIN: u32 = 4;
/// Letters beyond this many in one run count toward `latin_long` (long or rare words split into pieces).
const LONG_WORD: u32 = 8;
/// Letters beyond this many in one run also count toward `latin_long2`.
const LONG_WORD2: u32 = 12;
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
            f::DIGITS..=f::DIGIT_GROUPS3 | f::DIGITS_AFTER_BLANK => Class::Digits,
            f::PUNCT | f::PUNCT_RUNS | f::PUNCT_SINGLE => Class::Punctuation,
            f::PUNCT_CHARS..f::UPPER_A => Class::Punctuation,
            f::SYM2..=f::EMOJI_MODS => Class::Symbols,
            f::SPACES_SINGLE..=f::TABS | f::OTHER_WS => Class::Whitespace,
            f::REP_RUNS | f::REP_CHARS | f::REP_ALPHA_RUNS..=f::REP_WIDE_CHARS => Class::Repeats,
            f::WS_LONG => Class::Whitespace,
            f::CONTROL => Class::Control,
            _ => Class::Letters,
        }
    }
}

/// Script groups for letter runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Script {
    Latin = 0,
    Cyrillic,
    Greek,
    Arabic,
    Indic,
    Sea,
    Other,
    Han,
    Kana,
    Hangul,
    /// The Indic scripts after Devanagari, one each (their letters are priced apart; their runs together).
    Bengali,
    Gurmukhi,
    Gujarati,
    Odia,
    Tamil,
    Telugu,
    Kannada,
    Malayalam,
    Sinhala,
}

/// (runs feature, chars feature) per script, indexed by `Script as usize`.
const SCRIPT_FEATURES: [(usize, usize); 19] = [
    (f::LATIN_RUNS, f::LATIN_CHARS),
    (f::CYR_RUNS, f::CYR_CHARS),
    (f::GREEK_RUNS, f::GREEK_CHARS),
    (f::ARABIC_RUNS, f::ARABIC_CHARS),
    (f::INDIC_RUNS, f::INDIC_CHARS),
    (f::SEA_RUNS, f::SEA_CHARS),
    (f::OTHER_RUNS, f::OTHER_CHARS),
    (f::HAN_RUNS, f::HAN_CHARS),
    (f::KANA_RUNS, f::KANA_CHARS),
    (f::HANGUL_RUNS, f::HANGUL_CHARS),
    (f::INDIC2_RUNS, f::INDIC2_CHARS),
    (f::INDIC2_RUNS, f::INDIC2_CHARS + 1),
    (f::INDIC2_RUNS, f::INDIC2_CHARS + 2),
    (f::INDIC2_RUNS, f::INDIC2_CHARS + 3),
    (f::INDIC2_RUNS, f::INDIC2_CHARS + 4),
    (f::INDIC2_RUNS, f::INDIC2_CHARS + 5),
    (f::INDIC2_RUNS, f::INDIC2_CHARS + 6),
    (f::INDIC2_RUNS, f::INDIC2_CHARS + 7),
    (f::INDIC2_RUNS, f::INDIC2_CHARS + 8),
];

/// What one character is, for the state machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A letter; `upper` is true for capitals, `ascii` for ASCII letters.
    Letter {
        script: Script,
        upper: bool,
        ascii: bool,
    },
    /// A combining mark: continues the current letter run.
    Mark,
    Digit,
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

// Which signal an ASCII punctuation character bumps (index into `Scanner::sig`), or NO_SIG.
const NO_SIG: u8 = 255;
const SIG: [u8; 128] = {
    let mut t = [NO_SIG; 128];
    t[b'{' as usize] = 0;
    t[b'}' as usize] = 0;
    t[b'[' as usize] = 1;
    t[b']' as usize] = 1;
    t[b'"' as usize] = 2;
    t[b':' as usize] = 3;
    t[b',' as usize] = 4;
    t[b';' as usize] = 5;
    t[b'<' as usize] = 6;
    t[b'>' as usize] = 6;
    t[b'=' as usize] = 7;
    t[b'(' as usize] = 8;
    t[b')' as usize] = 8;
    t[b'\\' as usize] = 9;
    t
};

// Alphanumeric string flags.
const AN_DIGIT: u8 = 1;
const AN_UPPER: u8 = 2;
const AN_LOWER: u8 = 4;
const AN_NONHEX: u8 = 8;

const fn letter(script: Script, upper: bool) -> Kind {
    Kind::Letter {
        script,
        upper,
        ascii: false,
    }
}

/// Classifies a non-ASCII character. The scripts that dominate real text are decided by code-point ranges alone;
/// only rare characters fall through to the (slower) Unicode property lookups of `char`.
fn kind_of_non_ascii(c: char, u: u32) -> Kind {
    match u {
        // Latin-1 Supplement and Latin Extended-A: the accented letters of European languages.
        0xc0..=0xd6 | 0xd8..=0xde => letter(Script::Latin, true),
        0xdf..=0xf6 | 0xf8..=0xff => letter(Script::Latin, false),
        0x100..=0x17f => letter(
            Script::Latin,
            u % 2 == 0 && u != 0x138 && u != 0x149 && u != 0x17f,
        ),
        // Cyrillic.
        0x400..=0x42f => letter(Script::Cyrillic, true),
        0x430..=0x45f => letter(Script::Cyrillic, false),
        0x460..=0x481 | 0x48a..=0x52f => letter(Script::Cyrillic, u % 2 == 0),
        0x483..=0x489 => Kind::Mark,
        // Greek.
        0x386 | 0x388..=0x38f | 0x391..=0x3ab => letter(Script::Greek, true),
        0x3ac..=0x3ce => letter(Script::Greek, false),
        // Hebrew and Arabic letters, marks and digits.
        0x591..=0x5c7 | 0x610..=0x61a | 0x64b..=0x65f | 0x670 | 0x6d6..=0x6ed => Kind::Mark,
        0x5d0..=0x5ea | 0x620..=0x64a | 0x66e..=0x6d3 | 0x6fa..=0x6fc => {
            letter(Script::Arabic, false)
        }
        0x660..=0x669 | 0x6f0..=0x6f9 => Kind::Digit,
        // Indic blocks: letters, vowel signs and viramas all continue a word; digits and dandas do not.
        0x964 | 0x965 | 0x970 => Kind::Sym(3),
        0x966..=0x96f
        | 0x9e6..=0x9ef
        | 0xa66..=0xa6f
        | 0xae6..=0xaef
        | 0xb66..=0xb6f
        | 0xbe6..=0xbef
        | 0xc66..=0xc6f
        | 0xce6..=0xcef
        | 0xd66..=0xd6f => Kind::Digit,
        0x900..=0x97f => letter(Script::Indic, false),
        0x980..=0x9ff => letter(Script::Bengali, false),
        0xa00..=0xa7f => letter(Script::Gurmukhi, false),
        0xa80..=0xaff => letter(Script::Gujarati, false),
        0xb00..=0xb7f => letter(Script::Odia, false),
        0xb80..=0xbff => letter(Script::Tamil, false),
        0xc00..=0xc7f => letter(Script::Telugu, false),
        0xc80..=0xcff => letter(Script::Kannada, false),
        0xd00..=0xd7f => letter(Script::Malayalam, false),
        0xd80..=0xdff => letter(Script::Sinhala, false),
        // Thai, Lao, Myanmar, Khmer: no spaces between words; everything but digits continues a run.
        0xe50..=0xe59 | 0xed0..=0xed9 => Kind::Digit,
        0xe00..=0xeff | 0x1000..=0x109f | 0x1780..=0x17ff => letter(Script::Sea, false),
        // CJK.
        0x3400..=0x4dbf | 0x4e00..=0x9fff | 0xf900..=0xfaff | 0x20000..=0x3134f => {
            letter(Script::Han, false)
        }
        0x3041..=0x309f | 0x30a0..=0x30ff | 0x31f0..=0x31ff | 0xff66..=0xff9f => {
            letter(Script::Kana, false)
        }
        0xac00..=0xd7af | 0x1100..=0x11ff | 0x3130..=0x318f => letter(Script::Hangul, false),
        0xff10..=0xff19 => Kind::Digit,
        0xff21..=0xff3a => letter(Script::Latin, true),
        0xff41..=0xff5a => letter(Script::Latin, false),
        0x3000 => Kind::OtherWs,
        0x3001..=0x303f | 0xff00..=0xff65 | 0xfe30..=0xfe4f => Kind::CjkPunct,
        // Whitespace, controls, marks.
        0x80..=0x9f => Kind::Control,
        0xa0 | 0x1680 | 0x2000..=0x200a | 0x2028 | 0x2029 | 0x202f | 0x205f => Kind::OtherWs,
        0x300..=0x36f | 0x1ab0..=0x1aff | 0x1dc0..=0x1dff | 0x20d0..=0x20e2 | 0x20e4..=0x20ff => {
            Kind::Mark
        }
        // Emoji and their modifiers (variation selectors, ZWJ, skin tones, keycaps, tags).
        0x200d | 0xfe0e | 0xfe0f | 0x20e3 | 0x1f3fb..=0x1f3ff | 0xe0020..=0xe007f => Kind::EmojiMod,
        0x1f300..=0x1f5ff
        | 0x1f600..=0x1f64f
        | 0x1f680..=0x1f6ff
        | 0x1f900..=0x1f9ff
        | 0x1fa70..=0x1faff
        | 0x1f1e6..=0x1f1ff
        | 0x2600..=0x27bf
        | 0x2b50
        | 0x2b55
        | 0x2b1b
        | 0x2b1c
        | 0x231a
        | 0x231b
        | 0x23e9..=0x23fa
        | 0x1f004
        | 0x1f0cf
        | 0x1f170..=0x1f251 => Kind::Emoji,
        // Everything else: ask Unicode.
        _ => {
            if c.is_alphabetic() {
                let script = match u {
                    0x180..=0x24f | 0x1e00..=0x1eff | 0x2c60..=0x2c7f | 0xa720..=0xa7ff => {
                        Script::Latin
                    }
                    0x370..=0x3ff | 0x1f00..=0x1fff => Script::Greek,
                    0x1c80..=0x1c8f | 0x2de0..=0x2dff | 0xa640..=0xa69f => Script::Cyrillic,
                    0x590..=0x8ff | 0xfb1d..=0xfdff | 0xfe70..=0xfeff => Script::Arabic,
                    _ => Script::Other,
                };
                letter(script, c.is_uppercase())
            } else if c.is_numeric() {
                Kind::Digit
            } else if c.is_whitespace() {
                Kind::OtherWs
            } else if c.is_control() {
                Kind::Control
            } else if matches!(u, 0x590..=0x8ff) {
                Kind::Mark
            } else {
                Kind::Sym(len8(u))
            }
        }
    }
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

// What the previous character left open: the pre-token being built.
const O_NONE: u8 = 0;
const O_WORD: u8 = 1;
const O_DIGITS: u8 = 2;
const O_PUNCT: u8 = 3;
const O_WS: u8 = 4;
const O_NL: u8 = 5;

/// The streaming scanner. Feed it text in any number of pieces, then read [`Scanner::features`].
#[derive(Debug, Clone)]
pub struct Scanner {
    v: [u64; NF],
    chars: u64,
    bytes: u64,
    class_chars: [u64; Class::COUNT],
    sig: [u64; 10],
    lines: u64,
    indented_lines: u64,
    first_nonspace: Option<char>,
    // The open pre-token: its kind and length, and for words the script and case state.
    open: u8,
    open_len: u32,
    word_script: Script,
    /// The open word is a word of an alphabetic script other than Latin that did not follow a blank.
    bare: bool,
    last_upper: bool,
    caps: u32,
    last_punct: u8,
    at_line_start: bool,
    // Run-length stage: the character being repeated and how often so far.
    run_char: char,
    run_len: u32,
    // Alphanumeric string tracker for base64/hex detection.
    an_len: u32,
    an_trans: u32,
    an_prev: u8,
    an_flags: u8,
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
            v: [0; NF],
            chars: 0,
            bytes: 0,
            class_chars: [0; Class::COUNT],
            sig: [0; 10],
            lines: 0,
            indented_lines: 0,
            first_nonspace: None,
            open: O_NONE,
            open_len: 0,
            word_script: Script::Latin,
            bare: false,
            last_upper: false,
            caps: 0,
            last_punct: 0,
            at_line_start: true,
            run_char: '\0',
            run_len: 0,
            an_len: 0,
            an_trans: 0,
            an_prev: 0,
            an_flags: 0,
            partial: [0; 4],
            partial_len: 0,
            lossy: false,
        }
    }

    /// Scans a piece of text.
    pub fn feed(&mut self, text: &str) {
        self.flush_partial_as_invalid();
        self.bytes += text.len() as u64;
        self.feed_chars(text);
    }

    /// The run-length stage: consecutive copies of one character are handed on together. A run that reaches the
    /// end of the piece stays pending, since the next piece may continue it.
    #[inline]
    fn feed_chars(&mut self, text: &str) {
        let bytes = text.as_bytes();
        for &b in bytes {
            for (i, &(lo, hi)) in BYTE_TALLY_RANGES.iter().enumerate() {
                if (lo..=hi).contains(&b) {
                    self.v[f::BYTE_TALLIES + i] += 1;
                }
            }
        }
        let mut i = 0;
        let n = bytes.len();
        // Continue a run left pending by the previous piece.
        if self.run_len > 0 {
            let rc = self.run_char;
            let mut it = text.char_indices();
            for (at, c) in it.by_ref() {
                if c != rc {
                    i = at;
                    break;
                }
                self.run_len += 1;
                i = at + c.len_utf8();
            }
            if i >= n {
                return;
            }
            self.end_run();
        }
        while i < n {
            let b = bytes[i];
            if b < 0x80 {
                let cls = ASCII[b as usize];
                if cls == A_LOWER {
                    i = self.lowercase_stretch(bytes, i);
                    continue;
                }
                // Lookahead run-length: most characters are not repeated.
                let mut j = i + 1;
                while j < n && bytes[j] == b {
                    j += 1;
                }
                let run = (j - i) as u32;
                if j == n {
                    self.run_char = b as char;
                    self.run_len = run;
                    return;
                }
                self.chars += run as u64;
                self.ascii_run(b, cls, run);
                i = j;
            } else {
                let c = text[i..].chars().next().unwrap_or('\u{fffd}');
                let mut j = i + c.len_utf8();
                let mut run = 1;
                let mut next = text[j..].chars().next();
                while next == Some(c) {
                    j += c.len_utf8();
                    run += 1;
                    next = text[j..].chars().next();
                }
                if j == n {
                    self.run_char = c;
                    self.run_len = run;
                    return;
                }
                self.chars += run as u64;
                self.unicode_run(c, run);
                i = j;
                if self.open == O_WORD && self.word_script != Script::Latin {
                    i = self.script_stretch(text, i);
                }
            }
        }
    }

    /// Fast path for the commonest bytes: a stretch of lowercase ASCII letters starting at `i` (nothing pending).
    /// A run of `REPEAT_MIN` or more copies of one letter ends the stretch and goes through the run-length stage;
    /// a run reaching the end of the piece stays pending. Same counts as stepping one character at a time.
    /// Returns where the caller continues.
    #[inline]
    fn lowercase_stretch(&mut self, bytes: &[u8], i: usize) -> usize {
        let n = bytes.len();
        let mut j = i + 1;
        let mut last_run_start = i;
        while j < n {
            let b = bytes[j];
            if !b.is_ascii_lowercase() {
                break;
            }
            if b != bytes[j - 1] {
                last_run_start = j;
            } else if j + 1 - last_run_start >= REPEAT_MIN as usize {
                break;
            }
            j += 1;
        }
        // Price [i, end): everything when the stretch stops inside the piece (its final run is then complete,
        // unless it stopped at a long run), else all but the final run, which stays pending.
        let end = if j < n && bytes[j] != bytes[j - 1] {
            j
        } else {
            last_run_start
        };
        if end > i {
            self.chars += 1;
            self.step_ascii(bytes[i], A_LOWER);
            let m = (end - i - 1) as u64;
            if m > 0 {
                // The rest continue the Latin word just opened or extended, all lowercase after lowercase.
                self.chars += m;
                self.class_chars[Class::Letters as usize] += m;
                self.v[f::LATIN_CHARS] += m;
                let old = self.open_len as u64;
                let new = old + m;
                self.v[f::LATIN_LONG] += new.saturating_sub(old.max(LONG_WORD as u64));
                self.v[f::LATIN_LONG2] += new.saturating_sub(old.max(LONG_WORD2 as u64));
                self.open_len = new as u32;
                self.an_len += m as u32;
                for &b in &bytes[i + 1..end] {
                    self.v[f::LETTER_A + (b - b'a') as usize] += 1;
                }
                let nonhex = bytes[i + 1..end].iter().any(|b| !b.is_ascii_hexdigit());
                self.an_flags |= AN_LOWER | if nonhex { AN_NONHEX } else { 0 };
            }
        }
        if end == j {
            return j;
        }
        // The final run of one letter: hand it to the run-length stage, pending if it reaches the end.
        let mut k = end;
        while k < n && bytes[k] == bytes[end] {
            k += 1;
        }
        let run = (k - end) as u32;
        if k == n {
            self.run_char = bytes[end] as char;
            self.run_len = run;
        } else {
            self.chars += run as u64;
            self.ascii_run(bytes[end], A_LOWER, run);
        }
        k
    }

    /// Fast path for words in other scripts (Cyrillic, Arabic, Devanagari, Han, Hangul, ...): while the next
    /// characters are lowercase or caseless letters of the open word's script, not repeated, count them in bulk.
    /// Same counts as stepping one character at a time. Returns where the caller continues.
    fn script_stretch(&mut self, text: &str, mut i: usize) -> usize {
        let script = self.word_script;
        let (_, chars_i) = SCRIPT_FEATURES[script as usize];
        let cjk = matches!(script, Script::Han | Script::Kana | Script::Hangul);
        let class = if cjk { Class::Cjk } else { Class::Letters } as usize;
        let mut m: u32 = 0;
        let mut prev = '\0';
        let mut iter = text[i..].chars();
        while let Some(c) = iter.next() {
            let u = c as u32;
            if u < 0x80 || c == prev {
                break;
            }
            let same = match script {
                Script::Han => matches!(u, 0x4e00..=0x9fff),
                Script::Hangul => matches!(u, 0xac00..=0xd7af),
                Script::Kana => matches!(u, 0x3041..=0x30ff),
                Script::Cyrillic => matches!(u, 0x430..=0x45f),
                Script::Arabic => matches!(u, 0x620..=0x64a | 0x66e | 0x66f | 0x671..=0x6d3),
                Script::Indic => matches!(u, 0x900..=0x963 | 0x971..=0x97f),
                _ => false,
            } || matches!(kind_of_non_ascii(c, u), Kind::Letter { script: s, upper: false, .. } if s == script);
            if !same {
                break;
            }
            // Stop one short of a possible run: the run-length stage decides about repeats. The piece's last
            // character is left to it too, since the next piece may continue its run.
            match iter.clone().next() {
                Some(d) if d != c => {}
                _ => break,
            }
            prev = c;
            m += 1;
            i += c.len_utf8();
            if script == Script::Cyrillic && !matches!(c, 'А'..='я' | 'Ё' | 'ё') {
                self.v[f::CYR_NONRUSSIAN] += 1;
            }
        }
        if m > 0 {
            let m64 = m as u64;
            self.chars += m64;
            self.class_chars[class] += m64;
            self.v[chars_i] += m64;
            if self.bare {
                self.v[f::BARE_WORD_CHARS] += m64;
            }
            let old = self.open_len;
            self.open_len += m;
            if !cjk {
                self.v[f::NONLATIN_LONG] +=
                    (self.open_len as u64).saturating_sub(old.max(LONG_WORD) as u64);
            }
            self.last_upper = false;
            self.seen_nonspace(prev);
        }
        i
    }

    /// Scans a piece of raw bytes. UTF-8 sequences may be split across calls; invalid bytes count as U+FFFD, as
    /// `String::from_utf8_lossy` would decode them, and [`Scanner::saw_invalid_utf8`] turns true.
    pub fn feed_bytes(&mut self, mut bytes: &[u8]) {
        // Complete a sequence left open by the previous call.
        while self.partial_len > 0 && !bytes.is_empty() {
            let need = utf8_len(self.partial[0]);
            let b = bytes[0];
            // Only a byte that keeps the sequence valid continues it (`E0 80`, `ED A0`, `F4 90` are not valid
            // prefixes): otherwise the open bytes are one U+FFFD and `b` starts afresh, as `from_utf8_lossy` does.
            let mut probe = self.partial;
            probe[self.partial_len as usize] = b;
            if std::str::from_utf8(&probe[..=self.partial_len as usize])
                .is_err_and(|e| e.error_len().is_some())
            {
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
                        self.bytes += n as u64;
                        self.feed_chars(s);
                    }
                    Err(_) => self.invalid(n),
                }
            }
        }
        loop {
            match std::str::from_utf8(bytes) {
                Ok(s) => {
                    self.bytes += s.len() as u64;
                    self.feed_chars(s);
                    return;
                }
                Err(e) => {
                    let good = e.valid_up_to();
                    if let Ok(s) = std::str::from_utf8(&bytes[..good]) {
                        self.bytes += s.len() as u64;
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
        // The replacement character counts as one character; `bytes` counts the bytes that were really there.
        self.bytes += nbytes as u64;
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
        if s.chars > 0 {
            s.v[f::BIAS] = 1;
        }
        Features {
            v: s.v,
            chars: s.chars,
            bytes: s.bytes,
            class_chars: s.class_chars,
            signals: Signals {
                braces: s.sig[0],
                brackets: s.sig[1],
                quotes: s.sig[2],
                colons: s.sig[3],
                commas: s.sig[4],
                semicolons: s.sig[5],
                angles: s.sig[6],
                equals: s.sig[7],
                parens: s.sig[8],
                backslashes: s.sig[9],
                lines: s.lines,
                indented_lines: s.indented_lines,
                first_nonspace: s.first_nonspace,
            },
        }
    }

    /// The pending run is over: price it.
    #[inline]
    fn end_run(&mut self) {
        let n = self.run_len;
        if n == 0 {
            return;
        }
        self.run_len = 0;
        let c = self.run_char;
        self.chars += n as u64;
        let u = c as u32;
        if u < 128 {
            self.ascii_run(u as u8, ASCII[u as usize], n);
        } else {
            self.unicode_run(c, n);
        }
    }

    /// `n` copies of one ASCII character (`chars` already counted).
    #[inline]
    fn ascii_run(&mut self, b: u8, cls: u8, n: u32) {
        if n == 1 {
            self.step_ascii(b, cls);
        } else if n >= REPEAT_MIN && !matches!(cls, A_SPACE | A_TAB | A_NL | A_OTHERWS | A_DIGIT) {
            self.repeat(b as char, n);
        } else if cls == A_SPACE || cls == A_TAB {
            // The first opens or extends a whitespace run, the rest extend it.
            self.step_ascii(b, cls);
            let m = (n - 1) as u64;
            self.class_chars[Class::Whitespace as usize] += m;
            if cls == A_TAB {
                self.v[f::TABS] += m;
            }
            self.open_len += n - 1;
        } else {
            for _ in 0..n {
                self.step_ascii(b, cls);
            }
        }
    }

    /// `n` copies of one non-ASCII character (`chars` already counted).
    fn unicode_run(&mut self, c: char, n: u32) {
        let k = kind_of_non_ascii(c, c as u32);
        // Tokenizers merge long runs of symbols (box drawing, ellipses) but not of letters or emoji: a repeated
        // emoji costs what one costs, each time.
        let merges = !matches!(
            k,
            Kind::OtherWs
                | Kind::Digit
                | Kind::Letter { .. }
                | Kind::Mark
                | Kind::Emoji
                | Kind::EmojiMod
        );
        if n >= REPEAT_MIN && merges {
            self.repeat(c, n);
        } else {
            for _ in 0..n {
                self.step(c, k);
            }
        }
    }

    /// A long run of one non-whitespace character: priced as a repeat.
    fn repeat(&mut self, c: char, n: u32) {
        self.close_open();
        self.end_alnum();
        self.seen_nonspace(c);
        if (c as u32) < 128 {
            let s = SIG[c as usize];
            if s != NO_SIG {
                self.sig[s as usize] += n as u64;
            }
        }
        let (runs, chars) = if (c as u32) >= 0x80 {
            (f::REP_WIDE_RUNS, f::REP_WIDE_CHARS)
        } else if c.is_ascii_alphabetic() {
            (f::REP_ALPHA_RUNS, f::REP_ALPHA_CHARS)
        } else {
            (f::REP_RUNS, f::REP_CHARS)
        };
        self.v[runs] += 1;
        self.v[chars] += n as u64;
        self.class_chars[Class::Repeats as usize] += n as u64;
        // A repeat is a pre-token of its own; what follows starts fresh (not glued to a one-character prefix).
        self.open = O_PUNCT;
        self.open_len = 2;
    }

    #[inline]
    fn seen_nonspace(&mut self, c: char) {
        self.at_line_start = false;
        if self.first_nonspace.is_none() {
            self.first_nonspace = Some(c);
        }
    }

    /// One ASCII character (its byte and `ASCII` class) through the pre-token state machine.
    #[inline]
    fn step_ascii(&mut self, b: u8, cls: u8) {
        match cls {
            A_LOWER | A_UPPER => {
                self.seen_nonspace(b as char);
                let upper = cls == A_UPPER;
                self.v[f::LETTER_A + (b.to_ascii_lowercase() - b'a') as usize] += 1;
                self.class_chars[Class::Letters as usize] += 1;
                self.v[f::LATIN_CHARS] += 1;
                if upper {
                    self.v[f::LATIN_UPPER] += 1;
                    self.v[f::UPPER_A + (b - b'A') as usize] += 1;
                }
                self.alnum(
                    if upper { AN_UPPER } else { AN_LOWER }
                        | if b.is_ascii_hexdigit() { 0 } else { AN_NONHEX },
                );
                self.letter(Script::Latin, upper);
            }
            A_DIGIT => {
                self.seen_nonspace(b as char);
                self.digit();
            }
            A_PUNCT => {
                self.seen_nonspace(b as char);
                let s = SIG[b as usize];
                if s != NO_SIG {
                    self.sig[s as usize] += 1;
                }
                self.punct(b);
            }
            A_SPACE | A_TAB => {
                if cls == A_TAB {
                    self.v[f::TABS] += 1;
                }
                self.space();
            }
            A_NL => self.newline(),
            A_OTHERWS => self.other_ws(),
            _ => {
                self.seen_nonspace(b as char);
                self.class_chars[Class::Control as usize] += 1;
                self.v[f::CONTROL] += 1;
                self.end_alnum();
                self.close_open();
            }
        }
    }

    /// One non-ASCII character through the pre-token state machine.
    fn step(&mut self, c: char, k: Kind) {
        if !matches!(k, Kind::OtherWs) {
            self.seen_nonspace(c);
        }
        match k {
            Kind::Letter { script, upper, .. } => {
                match script {
                    Script::Han | Script::Kana | Script::Hangul => {
                        self.class_chars[Class::Cjk as usize] += 1
                    }
                    _ => self.class_chars[Class::Letters as usize] += 1,
                }
                self.v[SCRIPT_FEATURES[script as usize].1] += 1;
                if script == Script::Cyrillic && !matches!(c, 'А'..='я' | 'Ё' | 'ё') {
                    self.v[f::CYR_NONRUSSIAN] += 1;
                }
                if script == Script::Latin {
                    self.v[f::LATIN_NONASCII] += 1;
                    if upper {
                        self.v[f::LATIN_UPPER] += 1;
                    }
                    self.alnum(if upper { AN_UPPER } else { AN_LOWER } | AN_NONHEX);
                } else {
                    self.end_alnum();
                }
                self.letter(script, upper);
            }
            Kind::Mark => {
                self.class_chars[Class::Letters as usize] += 1;
                if self.open == O_WORD {
                    self.v[SCRIPT_FEATURES[self.word_script as usize].1] += 1;
                    if self.bare && self.word_script != Script::Latin {
                        self.v[f::BARE_WORD_CHARS] += 1;
                    }
                } else {
                    self.v[f::SYM2] += 1;
                }
            }
            Kind::Digit => self.digit(),
            Kind::Control => {
                self.class_chars[Class::Control as usize] += 1;
                self.v[f::CONTROL] += 1;
            }
            Kind::OtherWs => self.other_ws(),
            Kind::CjkPunct => {
                self.class_chars[Class::Cjk as usize] += 1;
                self.v[f::CJK_PUNCT] += 1;
                self.end_alnum();
                self.close_open();
            }
            Kind::Emoji => {
                self.class_chars[Class::Symbols as usize] += 1;
                self.v[f::EMOJI] += 1;
                self.end_alnum();
                self.close_open();
            }
            Kind::EmojiMod => {
                self.class_chars[Class::Symbols as usize] += 1;
                self.v[f::EMOJI_MODS] += 1;
            }
            Kind::Sym(n) => {
                self.class_chars[Class::Symbols as usize] += 1;
                self.v[match n {
                    0..=2 => f::SYM2,
                    3 => f::SYM3,
                    _ => f::SYM4,
                }] += 1;
                self.end_alnum();
                self.close_open();
            }
        }
    }

    /// A letter of `script` continues or starts a word.
    #[inline]
    fn letter(&mut self, script: Script, upper: bool) {
        if self.open == O_WORD && self.word_script == script {
            self.open_len += 1;
            let len = self.open_len;
            if script == Script::Latin {
                if len > LONG_WORD {
                    self.v[f::LATIN_LONG] += 1;
                    if len > LONG_WORD2 {
                        self.v[f::LATIN_LONG2] += 1;
                    }
                }
                if upper {
                    if !self.last_upper {
                        self.v[f::LATIN_CASE_SPLITS] += 1;
                    }
                    self.caps += 1;
                    if self.caps == 2 {
                        self.v[f::LATIN_CAPS_RUNS] += 1;
                    }
                } else {
                    if self.caps >= 2 {
                        self.v[f::CAPS_THEN_LOWER] += 1;
                    }
                    self.caps = 0;
                }
            } else {
                if len > LONG_WORD && !matches!(script, Script::Han | Script::Kana | Script::Hangul)
                {
                    self.v[f::NONLATIN_LONG] += 1;
                }
                if self.bare {
                    self.v[f::BARE_WORD_CHARS] += 1;
                }
            }
            self.last_upper = upper;
        } else {
            if self.open == O_PUNCT && self.open_len == 1 {
                self.v[f::WORD_AFTER_PUNCT] += 1;
                if self.last_punct == b'\\' {
                    self.v[f::BACKSLASH_WORDS] += 1;
                }
            }
            self.bare = self.open != O_WS
                && !matches!(
                    script,
                    Script::Latin | Script::Han | Script::Kana | Script::Hangul
                );
            if self.bare {
                self.v[f::BARE_WORD_CHARS] += 1;
            }
            self.close_open();
            self.v[SCRIPT_FEATURES[script as usize].0] += 1;
            self.open = O_WORD;
            self.open_len = 1;
            self.word_script = script;
            self.last_upper = upper;
            self.caps = upper as u32;
        }
    }

    #[inline]
    fn digit(&mut self) {
        self.class_chars[Class::Digits as usize] += 1;
        self.v[f::DIGITS] += 1;
        self.alnum(AN_DIGIT);
        if self.open == O_DIGITS {
            self.open_len += 1;
            if self.open_len % 3 == 1 {
                self.v[f::DIGIT_GROUPS3] += 1;
            }
        } else {
            if self.open == O_WS {
                self.v[f::DIGITS_AFTER_BLANK] += 1;
            }
            self.close_open();
            self.v[f::DIGIT_RUNS] += 1;
            self.v[f::DIGIT_GROUPS3] += 1;
            self.open = O_DIGITS;
            self.open_len = 1;
        }
    }

    #[inline]
    fn punct(&mut self, b: u8) {
        self.class_chars[Class::Punctuation as usize] += 1;
        self.v[f::PUNCT] += 1;
        let k = b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
            .iter()
            .position(|&p| p == b);
        self.v[f::PUNCT_CHARS + k.expect("ASCII punctuation")] += 1;
        self.last_punct = b;
        // `+` and `/` belong to base64 strings.
        if b != b'+' && b != b'/' {
            self.end_alnum();
        }
        if self.open == O_PUNCT {
            self.open_len += 1;
        } else {
            self.close_open();
            self.v[f::PUNCT_RUNS] += 1;
            self.open = O_PUNCT;
            self.open_len = 1;
        }
    }

    #[inline]
    fn space(&mut self) {
        if self.at_line_start {
            self.indented_lines += 1;
            self.at_line_start = false;
        }
        self.class_chars[Class::Whitespace as usize] += 1;
        self.end_alnum();
        if self.open == O_WS {
            self.open_len += 1;
        } else {
            self.close_open();
            self.open = O_WS;
            self.open_len = 1;
        }
    }

    #[inline]
    fn newline(&mut self) {
        self.lines += 1;
        self.at_line_start = true;
        self.class_chars[Class::Whitespace as usize] += 1;
        self.v[f::NL_CHARS] += 1;
        self.end_alnum();
        if self.open != O_NL {
            self.close_open();
            self.v[f::NL_RUNS] += 1;
            self.open = O_NL;
        }
    }

    fn other_ws(&mut self) {
        self.class_chars[Class::Whitespace as usize] += 1;
        self.v[f::OTHER_WS] += 1;
        self.end_alnum();
        self.close_open();
    }

    /// Closes the open pre-token, pricing what only its end reveals.
    #[inline]
    fn close_open(&mut self) {
        match self.open {
            O_WS => {
                if self.open_len == 1 {
                    self.v[f::SPACES_SINGLE] += 1;
                } else {
                    self.v[f::WS_RUNS] += 1;
                    self.v[f::WS_RUN_CHARS] += self.open_len as u64;
                    self.v[f::WS_LONG] += self.open_len.saturating_sub(WS_LONG_MIN) as u64;
                }
            }
            O_PUNCT if self.open_len == 1 => self.v[f::PUNCT_SINGLE] += 1,
            _ => {}
        }
        self.open = O_NONE;
    }

    /// Tracks alphanumeric strings; `cls` holds the AN_* flags of this character.
    #[inline]
    fn alnum(&mut self, cls: u8) {
        let kind = cls & (AN_DIGIT | AN_UPPER | AN_LOWER);
        if self.an_len > 0 && kind != self.an_prev {
            self.an_trans += 1;
        }
        self.an_len += 1;
        self.an_prev = kind;
        self.an_flags |= cls;
    }

    #[inline]
    fn end_alnum(&mut self) {
        let n = self.an_len;
        if n == 0 {
            return;
        }
        let fl = self.an_flags;
        let digits = fl & AN_DIGIT != 0;
        let upper = fl & AN_UPPER != 0;
        let lower = fl & AN_LOWER != 0;
        if n >= HEX_MIN && digits && (upper || lower) && fl & AN_NONHEX == 0 && !(upper && lower) {
            self.v[f::HEX_CHARS] += n as u64;
        } else if n >= B64_MIN && digits && upper && lower && self.an_trans * 4 >= n {
            self.v[f::B64_CHARS] += n as u64;
        } else if n >= 4 && upper && lower && self.an_trans >= 2 {
            // Short mixed-case strings: identifiers in camelCase, or source-map VLQ and other packed data.
            self.v[f::MIXED_ALNUM_CHARS] += n as u64;
        }
        self.an_len = 0;
        self.an_trans = 0;
        self.an_flags = 0;
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
