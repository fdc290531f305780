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
    /// Each ASCII punctuation character (`!` to `~`, the 32 of [`u8::is_ascii_punctuation`], in byte order) outside
    /// repeats: 32 features from here, read off the byte histogram. Vocabularies price them very differently (`;`
    /// after a word, `{`, `"` and `,` in code and JSON merge into multi-character tokens; `$`, `|` and `\`
    /// seldom do), and what punctuation a text uses tells code from code and prose from prose.
    pub const PUNCT_CHARS: usize = 107;
    /// ASCII capitals `A` to `Z` outside repeats: 26 features from here (the letter features count either case),
    /// read off the byte histogram.
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

/// The 32 ASCII punctuation characters in byte order: the order of the `PUNCT_CHARS` features.
pub const ASCII_PUNCT: [u8; 32] = *b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

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

/// Per script, a range of code points that are all lowercase or caseless letters of that script (what
/// [`kind_of_non_ascii`] says, held by a test): the cheap test [`Scanner::script_stretch`] tries before asking
/// `kind_of_non_ascii`, as (first, how many).
const STRETCH_FAST: [(u16, u16); 19] = [
    NO_RANGE,             // Latin (never stretched)
    span(0x430, 0x44f), // Cyrillic (а–я: the bulk path's fallback counts the letters of other alphabets)
    span(0x3ac, 0x3ce), // Greek
    span(0x620, 0x64a), // Arabic
    span(0x900, 0x963), // Devanagari
    span(0xe00, 0xe4f), // Thai
    NO_RANGE,           // Other
    span(0x4e00, 0x9fff), // Han
    span(0x3041, 0x30ff), // Kana
    span(0xac00, 0xd7af), // Hangul
    span(0x980, 0x9e5), // Bengali
    span(0xa00, 0xa65), // Gurmukhi
    span(0xa80, 0xae5), // Gujarati
    span(0xb00, 0xb65), // Odia
    span(0xb80, 0xbe5), // Tamil
    span(0xc00, 0xc65), // Telugu
    span(0xc80, 0xce5), // Kannada
    span(0xd00, 0xd65), // Malayalam
    span(0xd80, 0xdff), // Sinhala
];

/// More such ranges, tried after [`STRETCH_FAST`]'s: Hebrew's letters and the letters Persian and Urdu add to
/// Arabic's (which Arabic-script text of those languages is full of: `ی`, `ک`, `گ`).
const STRETCH_MORE: [[(u16, u16); 2]; 19] = {
    let mut more = [[NO_RANGE; 2]; 19];
    more[Script::Arabic as usize] = [span(0x5d0, 0x5ea), span(0x671, 0x6d3)];
    more
};

/// Whether `u` is in one of `script`'s fast ranges ([`STRETCH_FAST`], [`STRETCH_MORE`]): a lowercase or caseless
/// letter of the script, without asking [`kind_of_non_ascii`].
#[inline(always)]
fn in_fast_range(script: Script, u: u32) -> bool {
    let hit = |(first, n): (u16, u16)| u.wrapping_sub(first as u32) < n as u32;
    let s = script as usize;
    hit(STRETCH_FAST[s]) || hit(STRETCH_MORE[s][0]) || hit(STRETCH_MORE[s][1])
}

const NO_RANGE: (u16, u16) = (0, 0);

const fn span(first: u16, last: u16) -> (u16, u16) {
    (first, last - first + 1)
}

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
///
/// A `match` on ranges tests its arms one after another, so the ranges are split in three blocks first (below
/// U+0800, below U+3000, the rest); inside each block the arms keep the order, and so the precedence, of one flat
/// list (`tests/scan_oracle.rs` checks every scalar value against the flat list).
fn kind_of_non_ascii(c: char, u: u32) -> Kind {
    if u < 0x800 {
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
            // Controls, whitespace, marks.
            0x80..=0x9f => Kind::Control,
            0xa0 => Kind::OtherWs,
            0x300..=0x36f => Kind::Mark,
            // What the cases above leave of the common ones, classified as `kind_by_property` would without its
            // Unicode table lookups (a few dozen cycles each): Arabic punctuation, Latin-1 signs, the horned
            // letters of Vietnamese.
            0x600..=0x60f | 0x61b..=0x61f | 0x66a..=0x66d | 0x6d4 => Kind::Mark,
            0x6d5 => letter(Script::Arabic, false),
            0xa1..=0xa9
            | 0xab
            | 0xac
            | 0xae
            | 0xaf
            | 0xb0
            | 0xb1
            | 0xb4
            | 0xb6..=0xb8
            | 0xbb
            | 0xbf
            | 0xd7
            | 0xf7 => Kind::Sym(2),
            0x1a0 | 0x1af => letter(Script::Latin, true),
            0x1a1 | 0x1b0 => letter(Script::Latin, false),
            _ => kind_by_property(c, u),
        }
    } else if u < 0x3000 {
        match u {
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
            // Hangul jamo.
            0x1100..=0x11ff => letter(Script::Hangul, false),
            // General punctuation: not letters, digits, whitespace or controls.
            0x2010..=0x2027 | 0x2030..=0x205e => Kind::Sym(3),
            // Whitespace, marks.
            0x1680 | 0x2000..=0x200a | 0x2028 | 0x2029 | 0x202f | 0x205f => Kind::OtherWs,
            0x1ab0..=0x1aff | 0x1dc0..=0x1dff | 0x20d0..=0x20e2 | 0x20e4..=0x20ff => Kind::Mark,
            // Emoji and their modifiers (ZWJ, keycaps).
            0x200d | 0x20e3 => Kind::EmojiMod,
            0x2600..=0x27bf
            | 0x2b50
            | 0x2b55
            | 0x2b1b
            | 0x2b1c
            | 0x231a
            | 0x231b
            | 0x23e9..=0x23fa => Kind::Emoji,
            // As `kind_by_property` would, without its table lookups: the Latin letters of Vietnamese (capitals at
            // even code points), invisible format characters, currency signs, arrows, mathematical and technical
            // signs, box drawing and shapes.
            0x1e00..=0x1e95 | 0x1ea0..=0x1eff => letter(Script::Latin, u % 2 == 0),
            0x200b | 0x200c | 0x200e | 0x200f | 0x20a0..=0x20c0 => Kind::Sym(3),
            0x2190..=0x23ff | 0x2500..=0x25ff => Kind::Sym(3),
            _ => kind_by_property(c, u),
        }
    } else {
        match u {
            // CJK.
            0x3400..=0x4dbf | 0x4e00..=0x9fff | 0xf900..=0xfaff | 0x20000..=0x3134f => {
                letter(Script::Han, false)
            }
            0x3041..=0x309f | 0x30a0..=0x30ff | 0x31f0..=0x31ff | 0xff66..=0xff9f => {
                letter(Script::Kana, false)
            }
            0xac00..=0xd7af | 0x3130..=0x318f => letter(Script::Hangul, false),
            0xff10..=0xff19 => Kind::Digit,
            0xff21..=0xff3a => letter(Script::Latin, true),
            0xff41..=0xff5a => letter(Script::Latin, false),
            0x3000 => Kind::OtherWs,
            0x3001..=0x303f | 0xff00..=0xff65 | 0xfe30..=0xfe4f => Kind::CjkPunct,
            // Emoji and their modifiers (variation selectors, skin tones, tags).
            0xfe0e | 0xfe0f | 0x1f3fb..=0x1f3ff | 0xe0020..=0xe007f => Kind::EmojiMod,
            0x1f300..=0x1f5ff
            | 0x1f600..=0x1f64f
            | 0x1f680..=0x1f6ff
            | 0x1f900..=0x1f9ff
            | 0x1fa70..=0x1faff
            | 0x1f1e6..=0x1f1ff
            | 0x1f004
            | 0x1f0cf
            | 0x1f170..=0x1f251 => Kind::Emoji,
            _ => kind_by_property(c, u),
        }
    }
}

/// Everything else: ask Unicode.
fn kind_by_property(c: char, u: u32) -> Kind {
    if c.is_alphabetic() {
        let script = match u {
            0x180..=0x24f | 0x1e00..=0x1eff | 0x2c60..=0x2c7f | 0xa720..=0xa7ff => Script::Latin,
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
///
/// # How a piece is scanned
///
/// The counts are defined on the whole text cut into maximal runs of one character: a run of [`REPEAT_MIN`] or
/// more copies of a character that tokenizers merge (letters, ASCII punctuation and controls, non-ASCII symbols) is
/// priced as one repeat; every other character goes one at a time through the pre-token state machine (`open`,
/// `open_len`, the word's script and case state, the alphanumeric-string tracker).
///
/// A piece is scanned in three stages:
///
/// 1. **Byte histogram.** Every byte of the piece bumps `hist[byte]`. Everything that is counted once per ASCII
///    character (letter frequencies, Latin letters and each capital, digits, each punctuation character and the
///    JSON/code signals, whitespace, newlines, tabs, controls, and the characters themselves), and the UTF-8 byte
///    tallies of
///    [`BYTE_TALLY_RANGES`], are read off this histogram when [`Scanner::features`] folds it; ASCII characters
///    inside a repeat are taken back out of it. So the state machine below only tracks structure.
/// 2. **Pending runs.** A run left open by the previous piece is continued first. The piece's own final run is set
///    aside as the new pending run (the next piece may continue it), so every run inside the rest is complete and
///    the loops may look one byte past any character they handle.
/// 3. **Stretches.** The rest is walked by class of the first byte (a 256-entry table): a stretch of ASCII letters,
///    digits, punctuation, spaces and tabs, newlines, other whitespace or controls is handled by a tight loop over
///    the bytes, updating the state once per stretch where the state machine allows it (a lowercase letter after a
///    lowercase letter in the same word only lengthens the word; a digit after a digit only lengthens the group;
///    a space after a space only lengthens the run). Runs of one byte are checked for [`REPEAT_MIN`] only where the
///    next byte equals the current one. Non-ASCII characters are decoded and classified one run at a time, with a
///    bulk path for words of other scripts (`Scanner::script_stretch`: one code-point range per script is tested
///    before the full classification; runs of one letter are taken with the word, since letters never merge; a
///    CJK word that runs into a letter of another CJK script steps that letter in place; and a word after
///    punctuation, a newline or a digit whose first letter is in the range of the last word's script opens
///    without the full classification).
///
///    Before each stretch, a block of 64 bytes is tried on the bitmask path (`Scanner::block`): when at least
///    its first 32 bytes are ASCII letters, digits, punctuation, spaces, tabs and newlines (or accented Latin
///    letters, two bytes or three, read through a copy where each is one ASCII letter of its case) with no run
///    of [`REPEAT_MIN`] copies of a letter or punctuation byte, they are classified sixteen or eight at a time
///    into bitmasks and every structural count is a popcount of shifted masks, with the open pre-token carried in
///    and out through the state; alphanumeric strings inside the block are stepped only when they can be priced
///    (four or more characters with a digit and a letter, or both cases). The counts are the stretches' counts
///    (`tests/scan_oracle.rs` checks blocks after every kind of open pre-token and runs across block boundaries).
#[derive(Debug, Clone)]
pub struct Scanner {
    v: [u64; NF],
    /// Non-ASCII characters, and ASCII characters in repeats (the other ASCII characters are in `hist`).
    chars: u64,
    bytes: u64,
    class_chars: [u64; Class::COUNT],
    sig: [u64; 10],
    /// Every byte fed through the state machine, by value, less the ASCII characters priced as repeats. Only the
    /// ASCII half is read.
    hist: [u64; 256],
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
    /// A three-byte Latin letter (U+1E00 to U+1EFF, Vietnamese) was seen at the end of a block's ASCII: blocks are
    /// read through the copy that takes them. Changes no count, only the speed.
    wide_latin: bool,
}

impl Default for Scanner {
    fn default() -> Self {
        Self::new()
    }
}

/// Byte classes for the stretch dispatch: the `A_*` classes for ASCII, `A_NONASCII` for any byte of a multi-byte
/// sequence.
const A_NONASCII: u8 = 9;
const BYTE_CLASS: [u8; 256] = {
    let mut t = [A_NONASCII; 256];
    let mut i = 0;
    while i < 128 {
        t[i] = ASCII[i];
        i += 1;
    }
    t
};

/// True for an ASCII letter that is not a hex digit.
const fn non_hex_letter(b: u8) -> bool {
    matches!(b, b'g'..=b'z' | b'G'..=b'Z')
}

/// Where the run of `bytes[j]` that starts at `j` ends (exclusive), not looking at or past `k`.
#[inline]
fn run_end(bytes: &[u8], j: usize, k: usize) -> usize {
    let b = bytes[j];
    let mut e = j + 1;
    while e < k && bytes[e] == b {
        e += 1;
    }
    e
}

/// Eight bytes at a time (SWAR on `u64`, portable to every target): byte `i` of a word is `bytes[j + i]`.
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const HIGH: u64 = !LOW7;
const ONES: u64 = 0x0101_0101_0101_0101;

/// The eight bytes at `j` as a little-endian word.
#[inline(always)]
fn load8(bytes: &[u8], j: usize) -> u64 {
    let mut a = [0; 8];
    a.copy_from_slice(&bytes[j..j + 8]);
    u64::from_le_bytes(a)
}

/// The high bit of each byte of `w` that is zero, and no other bit.
#[inline(always)]
fn zero_bytes(w: u64) -> u64 {
    !(((w & LOW7) + LOW7) | w | LOW7)
}

/// The high bit of each byte of `w` that is an ASCII lowercase letter, and no other bit. Adding to the low seven
/// bits never carries into the next byte.
#[inline(always)]
fn lowercase_bytes(w: u64) -> u64 {
    let a = w & LOW7;
    let at_least_a = a + ONES * (0x80 - b'a' as u64);
    let past_z = a + ONES * (0x80 - b'z' as u64 - 1);
    at_least_a & !past_z & !w & HIGH
}

/// From `j` (before `k`), the first position that is not a lowercase letter, or where a run of one letter starts
/// (the next byte is the same), or `k`.
#[inline(always)]
fn lowercase_end(bytes: &[u8], mut j: usize, k: usize) -> usize {
    // Both words are in bounds: j + 8 <= k < bytes.len().
    while j + 8 <= k {
        let w = load8(bytes, j);
        let stop = (!lowercase_bytes(w) & HIGH) | zero_bytes(w ^ load8(bytes, j + 1));
        if stop != 0 {
            return j + (stop.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    while j < k {
        let c = bytes[j];
        if !c.is_ascii_lowercase() || bytes[j + 1] == c {
            break;
        }
        j += 1;
    }
    j
}

/// From `e` (before `k`), the first position that is not a space or tab, or `k`.
#[inline(always)]
fn blanks_end(bytes: &[u8], mut e: usize, k: usize) -> usize {
    loop {
        while e + 8 <= k {
            let other = !zero_bytes(load8(bytes, e) ^ (ONES * b' ' as u64)) & HIGH;
            if other != 0 {
                e += (other.trailing_zeros() / 8) as usize;
                break;
            }
            e += 8;
        }
        if e < k && matches!(bytes[e], b' ' | b'\t') {
            e += 1;
        } else {
            return e;
        }
    }
}

/// Bytes in one block of the bitmask path ([`Scanner::block`]).
const BLOCK: usize = 64;
/// The shortest prefix of a block the bitmask path takes; shorter ones go through the stretches.
const MIN_BLOCK: usize = 32;

/// The high bits of the eight bytes of `m` (no other bit set) gathered into the top eight bits: bit `56 + i` from
/// byte `i`. Every partial product lands on its own bit, so nothing carries.
#[inline(always)]
fn movemask_top(m: u64) -> u64 {
    (m >> 7).wrapping_mul(0x0102_0408_1020_4080) & (0xff << 56)
}

/// For bytes below 0x80: the high bit of each byte that is at least `c` (1 <= `c` <= 0x80). No byte carries.
#[inline(always)]
fn at_least(x: u64, c: u8) -> u64 {
    (x + ONES * (0x80 - c as u64)) & HIGH
}

/// For bytes below 0x80: the high bit of each byte equal to `c` (below 0x80).
#[inline(always)]
fn equal7(x: u64, c: u8) -> u64 {
    !((x ^ (ONES * c as u64)) + LOW7) & HIGH
}

/// One block as bitmasks, bit `i` for byte `p + i`.
#[derive(Default)]
struct Masks {
    /// ASCII letters, and the capitals among them.
    letter: u64,
    upper: u64,
    digit: u64,
    /// Spaces and tabs.
    blank: u64,
    newline: u64,
    /// The next byte is the same byte (bit 63 looks at `p + 64`).
    same_next: u64,
    /// Not zero when the block holds a control other than tab and newline (`\r`, `\v`, `\f` too) or DEL (and it
    /// may be for bytes from 0x80 up, which are past the prefix used); the first non-ASCII byte is found before
    /// classifying. Rare: located only when present.
    any_bad: u64,
    /// Not zero when the block holds a `+`, `/` or `\\` (or, again, bytes from 0x80 up): the first two do not end
    /// an alphanumeric string, the last can start a backslash word. Located only when present.
    any_special: u64,
}

/// The eight bytes at `j` of a block as a little-endian word.
#[inline(always)]
fn load8b(w: &[u8; BLOCK + 1], j: usize) -> u64 {
    let mut a = [0; 8];
    a.copy_from_slice(&w[j..j + 8]);
    u64::from_le_bytes(a)
}

/// Classifies the 64 bytes of a block (and the byte after, for `same_next`): with SSE2 (every x86-64 CPU has it)
/// sixteen at a time, each mask a few compares and one `pmovmskb`; elsewhere (wasm32, other CPUs) eight at a time
/// on `u64`. Both give the same masks for the ASCII prefix the block path uses (tested against each other).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
fn classify(w: &[u8; BLOCK + 1]) -> Masks {
    sse2::classify(w)
}

/// Classifies the 64 bytes of a block (and the byte after, for `same_next`); see the SSE2 version.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline]
fn classify(w: &[u8; BLOCK + 1]) -> Masks {
    classify_swar(w)
}

/// The bits of the block's bytes equal to `a` or `b`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
fn bytes_equal(w: &[u8; BLOCK + 1], a: u8, b: u8) -> u64 {
    sse2::bytes_equal(w, a, b)
}

/// The bits of the block's bytes equal to `a` or `b`.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline]
fn bytes_equal(w: &[u8; BLOCK + 1], a: u8, b: u8) -> u64 {
    bytes_equal_swar(w, a, b)
}

/// The block classification on 16-byte SSE2 vectors, through `safe_arch`'s safe wrappers of the intrinsics (the
/// crate itself forbids `unsafe`).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use super::{Masks, BLOCK};
    use safe_arch::{
        bitand_m128i as and, bitandnot_m128i as andnot, bitor_m128i as or,
        cmp_eq_mask_i8_m128i as eq, cmp_lt_mask_i8_m128i as lt, m128i, move_mask_i8_m128i,
        set_splat_i8_m128i as splat,
    };

    /// The sixteen bytes at `j`.
    #[inline(always)]
    fn load16(w: &[u8; BLOCK + 1], j: usize) -> m128i {
        let mut a = [0u8; 16];
        a.copy_from_slice(&w[j..j + 16]);
        m128i::from(a)
    }

    /// The top bit of each of the sixteen bytes, as bits 0..16.
    #[inline(always)]
    fn bits(x: m128i) -> u64 {
        move_mask_i8_m128i(x) as u32 as u64
    }

    /// Bytes from `lo` to `hi` (`hi` below 0x7f; bytes from 0x80 up compare as negative, so never in range).
    #[inline(always)]
    fn within(x: m128i, lo: u8, hi: u8) -> m128i {
        andnot(lt(x, splat(lo as i8)), lt(x, splat(hi as i8 + 1)))
    }

    /// See [`super::classify`].
    #[inline]
    pub(super) fn classify(w: &[u8; BLOCK + 1]) -> Masks {
        let mut m = Masks::default();
        let (mut bad, mut special) = (0, 0);
        for k in 0..BLOCK / 16 {
            let x = load16(w, 16 * k);
            let letter = within(or(x, splat(0x20)), b'a', b'z');
            // Capitals are the letters below `a`.
            let upper = and(lt(x, splat(b'a' as i8)), letter);
            let digit = within(x, b'0', b'9');
            let tab = eq(x, splat(b'\t' as i8));
            let newline = eq(x, splat(b'\n' as i8));
            let blank = or(eq(x, splat(b' ' as i8)), tab);
            let same_next = eq(x, load16(w, 16 * k + 1));
            // Controls other than tab and newline (`\r`, `\v`, `\f` too), and DEL; `+`, `/` and `\\`.
            let ctrl = andnot(or(tab, newline), within(x, 0, 0x1f));
            let r = or(ctrl, eq(x, splat(0x7f)));
            let sp = or(
                or(eq(x, splat(b'+' as i8)), eq(x, splat(b'/' as i8))),
                eq(x, splat(b'\\' as i8)),
            );
            let at = 16 * k;
            m.letter |= bits(letter) << at;
            m.upper |= bits(upper) << at;
            m.digit |= bits(digit) << at;
            m.blank |= bits(blank) << at;
            m.newline |= bits(newline) << at;
            m.same_next |= bits(same_next) << at;
            bad |= bits(r) << at;
            special |= bits(sp) << at;
        }
        m.any_bad = bad;
        m.any_special = special;
        m
    }

    /// See [`super::bytes_equal`].
    #[inline]
    pub(super) fn bytes_equal(w: &[u8; BLOCK + 1], a: u8, b: u8) -> u64 {
        let mut m = 0;
        for k in 0..BLOCK / 16 {
            let x = load16(w, 16 * k);
            m |= bits(or(eq(x, splat(a as i8)), eq(x, splat(b as i8)))) << (16 * k);
        }
        m
    }
}

/// Classifies the 64 bytes of a block (and the byte after, for `same_next`), eight at a time on `u64`, in two
/// passes (few enough values live at once to stay in registers).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline]
fn classify_swar(w: &[u8; BLOCK + 1]) -> Masks {
    let mut m = Masks::default();
    for k in 0..BLOCK / 8 {
        let raw = load8b(w, 8 * k);
        let x = raw & LOW7;
        let folded = x | (ONES * 0x20);
        let letter = at_least(folded, b'a') & !at_least(folded, b'z' + 1);
        // Bit 5 (0x20) of a letter is clear for capitals; shifted to bit 7 of the same byte.
        let upper = letter & !(x << 2);
        let digit = at_least(x, b'0') & !at_least(x, b'9' + 1);
        let same_next = zero_bytes(raw ^ load8b(w, 8 * k + 1));
        // Each word's eight bits come in at the top and move down a byte per word (a recurrence, which keeps
        // the compiler from vectorizing the loop with emulated 64-bit multiplies).
        m.letter = (m.letter >> 8) | movemask_top(letter);
        m.upper = (m.upper >> 8) | movemask_top(upper);
        m.digit = (m.digit >> 8) | movemask_top(digit);
        m.same_next = (m.same_next >> 8) | movemask_top(same_next);
    }
    // Rare bytes, in the SWAR form: controls and DEL in the high bits, `+`, `/` and `\\` one bit lower.
    let mut rare = 0;
    for k in 0..BLOCK / 8 {
        let x = load8b(w, 8 * k) & LOW7;
        let tab = equal7(x, b'\t');
        let newline = equal7(x, b'\n');
        let blank = equal7(x, b' ') | tab;
        m.blank = (m.blank >> 8) | movemask_top(blank);
        m.newline = (m.newline >> 8) | movemask_top(newline);
        // Below 0x20 and neither tab nor newline, or DEL (the only byte from 0x7f up). `+` (0x2b) and `/`
        // (0x2f) differ only in bit 2.
        rare |= (!(at_least(x, 0x20) | tab | newline) | at_least(x, 0x7f)) & HIGH;
        rare |= (equal7(x | (ONES * 4), b'/') | equal7(x, b'\\')) >> 1;
    }
    m.any_bad = rare & HIGH;
    m.any_special = rare & (HIGH >> 1);
    m
}

/// The bits of the block's bytes equal to `a` or `b`, eight at a time on `u64`.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline]
fn bytes_equal_swar(w: &[u8; BLOCK + 1], a: u8, b: u8) -> u64 {
    let mut m = 0;
    for k in 0..BLOCK / 8 {
        let x = load8b(w, 8 * k) & LOW7;
        m = (m >> 8) | movemask_top(equal7(x, a) | equal7(x, b));
    }
    m
}

/// The low `n` bits (all of them from 64 on).
#[inline(always)]
fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        !0
    } else {
        (1u64 << n) - 1
    }
}

/// The bytes the three-byte letters among the first `m` characters of a block's copy add beyond what two-byte
/// letters would (none without such letters: no count then).
#[inline(always)]
fn wide_bytes(m: usize, wide: u64) -> usize {
    if wide == 0 {
        0
    } else {
        (wide & low_bits(m)).count_ones() as usize
    }
}

/// The top `len` bits (all of them from 64 on): a run of `len` characters just before a block, seen from it.
#[inline(always)]
fn top_bits(len: u32) -> u64 {
    if len == 0 {
        0
    } else if len >= 64 {
        !0
    } else {
        !0u64 << (64 - len)
    }
}

/// `cur` seen `by` characters back (1 <= `by` <= 63): bit `i` is the bit of character `i - by`, taken from `prev`
/// (the characters before the block, bit 63 the last) below 0.
#[inline(always)]
fn back(cur: u64, prev: u64, by: u32) -> u64 {
    (cur << by) | (prev >> (64 - by))
}

/// The block at `p` with each accented Latin letter (two bytes, or three for Latin Extended Additional, U+1E00 to
/// U+1EFF: most of Vietnamese's) replaced by one ASCII letter of its case (`x`, `X`: letters that are not hex
/// digits, as the accented ones count for the alphanumeric strings), up to the first other non-ASCII character or
/// a letter cut by the block's end: the copy (after its characters comes the byte that follows them in the text,
/// for `same_next`; one from 0x80 up equals no ASCII byte), how many characters it holds, the bits of the
/// stand-ins and those of the three-byte letters among them (with `WIDE`; without it, a three-byte letter ends the
/// copy like any other character). Everything the block path reads of a character (its class, case, whether it
/// is `\\`, `+`, `/` or a hex letter, whether it equals the next one) is then the same as the letter's, but for two
/// stand-ins of one case in a row, or one beside an `x`, which look like a run of one byte and only end the block
/// sooner.
#[cold]
#[inline(never)]
fn latin_copy<const WIDE: bool>(bytes: &[u8], p: usize) -> ([u8; BLOCK + 1], usize, u64, u64) {
    let mut out = [0; BLOCK + 1];
    out.copy_from_slice(&bytes[p..p + BLOCK + 1]);
    let mut high = 0;
    for k in 0..BLOCK / 8 {
        high |= movemask_top(load8(bytes, p + 8 * k) & HIGH) >> (56 - 8 * k);
    }
    // The letters' lead bytes, the three-byte ones among them and the capitals; `cut`, the first other non-ASCII
    // character.
    let (mut leads, mut wide_leads, mut capitals, mut cut) = (0u64, 0u64, 0u64, BLOCK);
    while high != 0 {
        let j = high.trailing_zeros() as usize;
        let b = bytes[p + j];
        // The code point of a character whose lead a Latin letter can have and which ends inside the block (the
        // text is valid UTF-8; `bytes` holds the block and one byte more).
        let wide = WIDE && b == 0xe1;
        let u = if (0xc2..0xe0).contains(&b) && j + 2 <= BLOCK {
            ((b as u32 & 0x1f) << 6) | (bytes[p + j + 1] as u32 & 0x3f)
        } else if wide && j + 3 <= BLOCK {
            0x1000 | ((bytes[p + j + 1] as u32 & 0x3f) << 6) | (bytes[p + j + 2] as u32 & 0x3f)
        } else {
            cut = j;
            break;
        };
        match char::from_u32(u).map(|c| kind_of_non_ascii(c, u)) {
            Some(Kind::Letter {
                script: Script::Latin,
                upper,
                ..
            }) => {
                leads |= 1 << j;
                wide_leads |= (wide as u64) << j;
                capitals |= (upper as u64) << j;
                high &= !((3 | (wide as u64) << 2) << j);
            }
            _ => {
                cut = j;
                break;
            }
        }
    }
    // Each letter becomes its stand-in and the bytes after it move back by one or two, the last letter first.
    let mut rest = leads;
    while rest != 0 {
        let j = 63 - rest.leading_zeros() as usize;
        rest &= !(1 << j);
        out[j] = if capitals & (1 << j) != 0 { b'X' } else { b'x' };
        out.copy_within(j + 2 + (wide_leads >> j & 1) as usize.., j + 1);
    }
    // A lead byte's position less the bytes dropped before it is its character's.
    let (mut accented, mut wide) = (0, 0);
    let mut rest = leads;
    let mut dropped = 0;
    while rest != 0 {
        let j = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let w = wide_leads >> j & 1;
        accented |= 1 << (j - dropped);
        wide |= w << (j - dropped);
        dropped += 1 + w as usize;
    }
    (out, cut - dropped, accented, wide)
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
            hist: [0; 256],
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
            wide_latin: false,
        }
    }

    /// Scans a piece of text.
    pub fn feed(&mut self, text: &str) {
        self.flush_partial_as_invalid();
        self.bytes += text.len() as u64;
        self.feed_chars(text);
    }

    /// Stages 1-3 of the type's documentation on one valid piece.
    fn feed_chars(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let n = bytes.len();
        if n == 0 {
            return;
        }
        // Stage 1: the histogram.
        self.histogram(bytes);
        // Stage 2: continue the pending run.
        let mut i = 0;
        if self.run_len > 0 {
            let mut buf = [0; 4];
            let rc = self.run_char.encode_utf8(&mut buf).as_bytes();
            while bytes[i..].starts_with(rc) {
                self.run_len += 1;
                i += rc.len();
            }
            if i == n {
                return;
            }
            self.end_run();
        }
        // The piece's final run becomes the pending run: `k` is where it starts. Everything before `k` ends with a
        // character other than the one at `k`.
        let mut last = n - 1;
        while !text.is_char_boundary(last) {
            last -= 1;
        }
        let width = n - last;
        let mut k = last;
        while k >= i + width && bytes[k - width..k] == bytes[last..] {
            k -= width;
        }
        let pending = text
            .get(last..)
            .and_then(|t| t.chars().next())
            .unwrap_or('\u{fffd}');
        let pending_len = ((n - k) / width) as u32;
        // Stage 3: the stretches before `k`. Reading `bytes[j + 1]` for `j < k` is in bounds since `k < n`.
        let region = text.get(..k).unwrap_or_default();
        // Where the bitmask path may be tried next.
        let mut next_block = 0;
        while i < k {
            if i >= next_block && i + BLOCK <= k {
                match self.block(bytes, i) {
                    Ok(m) => {
                        i += m;
                        continue;
                    }
                    Err(skip) => next_block = i + skip,
                }
            }
            let b = bytes[i];
            i = match BYTE_CLASS[b as usize] {
                A_LOWER | A_UPPER => self.letters(bytes, i, k),
                A_DIGIT => self.digits(bytes, i, k),
                A_PUNCT => self.puncts(bytes, i, k),
                A_CTRL => self.controls(bytes, i, k),
                A_SPACE | A_TAB => {
                    let e = blanks_end(bytes, i + 1, k);
                    self.space();
                    self.open_len += (e - i - 1) as u32;
                    e
                }
                A_NL => {
                    let mut e = i + 1;
                    while e < k && bytes[e] == b'\n' {
                        e += 1;
                    }
                    self.newline();
                    e
                }
                A_OTHERWS => {
                    let mut e = i + 1;
                    while e < k && matches!(bytes[e], b'\r' | 0x0b | 0x0c) {
                        e += 1;
                    }
                    self.end_alnum();
                    self.close_open();
                    e
                }
                _ => self.non_ascii(region, i),
            };
        }
        self.run_char = pending;
        self.run_len = pending_len;
    }

    /// Stage 1: every byte into `hist`. Long pieces count into four tables in turn and fold them in after, so
    /// runs of one byte do not wait on the previous increment of the same counter; short pieces (one character at
    /// a time, say) do not pay for clearing the tables.
    fn histogram(&mut self, bytes: &[u8]) {
        if bytes.len() < 1024 {
            for &b in bytes {
                self.hist[b as usize] += 1;
            }
            return;
        }
        // Each table counts at most a quarter of a part: no `u32` overflows.
        for part in bytes.chunks(1 << 30) {
            let mut t = [[0u32; 256]; 4];
            let mut quads = part.chunks_exact(4);
            for q in &mut quads {
                t[0][q[0] as usize] += 1;
                t[1][q[1] as usize] += 1;
                t[2][q[2] as usize] += 1;
                t[3][q[3] as usize] += 1;
            }
            for &b in quads.remainder() {
                t[0][b as usize] += 1;
            }
            for (i, h) in self.hist.iter_mut().enumerate() {
                *h += (t[0][i] + t[1][i] + t[2][i] + t[3][i]) as u64;
            }
        }
    }

    /// The bitmask path: up to [`BLOCK`] bytes at `p` (`p + BLOCK` is at most the pending run's start, so
    /// `bytes[p + BLOCK]` exists), taken at once when they are ASCII letters, digits, punctuation, spaces, tabs
    /// and newlines with no run of [`REPEAT_MIN`] copies of a letter or punctuation byte, and scanned with the
    /// same counts as the stretches would give. Returns how many bytes it took (a prefix of at least
    /// [`MIN_BLOCK`] characters that does not end inside a run of one byte), or, when it took none, how far on to
    /// try again. Accented Latin letters (two bytes each) are taken too: when one comes first among the
    /// block's non-ASCII characters, the block is read from [`latin_copy`], and bit `i` of every mask is then
    /// character `i`, not byte `i`.
    ///
    /// The characters before the block are seen through the state: the open pre-token's kind and length become
    /// the bits "before" bit 0 (a Latin word's letters and capitals from `open_len` and `caps`, a digit run's
    /// length modulo 3, a punctuation or whitespace run's length, a newline run), so every count keyed to a
    /// character of the block (word starts, case splits, run starts and closes) is a popcount of shifted masks.
    /// The state the stretches would leave after the last byte is written back. Alphanumeric strings are priced
    /// by stepping through [`Scanner::alnum`] only where they could be priced: the string continued from before
    /// the block, the one left open at its end, and those between with a digit or a capital past their start.
    fn block(&mut self, bytes: &[u8], p: usize) -> Result<usize, usize> {
        // The first non-ASCII byte, cheaply, before classifying.
        let mut m = BLOCK;
        for k in 0..BLOCK / 8 {
            let h = load8(bytes, p + 8 * k) & HIGH;
            if h != 0 {
                m = 8 * k + (h.trailing_zeros() / 8) as usize;
                break;
            }
        }
        // Accented Latin letters (two bytes each, or three) do not end the block: it is read from a copy where
        // each is one ASCII letter of its case, and positions count characters from here on. The bytes of the
        // first `m` characters: `m`, one more for each accented letter, another for each three-byte one.
        let in_bytes = |m: usize, accented: u64, wide: u64| {
            m + (accented & low_bits(m)).count_ones() as usize + wide_bytes(m, wide)
        };
        // A three-byte Latin letter's first two bytes at `at`.
        let wide_at = |at: usize| {
            bytes.get(p + at) == Some(&0xe1) && matches!(bytes.get(p + at + 1), Some(0xb8..=0xbb))
        };
        let mut copy = None;
        let wide_first = m < BLOCK && wide_at(m);
        if m < BLOCK && ((0xc3..=0xc9).contains(&bytes[p + m]) || wide_first) {
            // Three-byte letters are taken once the text has shown one where a block's ASCII ends (the copy that
            // takes them costs text without them, Czech or French, more instructions than the one that stops at
            // them).
            self.wide_latin |= wide_first;
            let (c, chars, accented, wide) = if self.wide_latin {
                latin_copy::<true>(bytes, p)
            } else {
                let copy = latin_copy::<false>(bytes, p);
                self.wide_latin = copy.1 < BLOCK && wide_at(in_bytes(copy.1, copy.2, 0));
                copy
            };
            m = chars;
            copy = Some((c, accented, wide));
            if m < MIN_BLOCK {
                // Try again past the character that ended it.
                return Err(in_bytes(m, accented, wide) + 1);
            }
        }
        if m < MIN_BLOCK {
            return Err(m + 1);
        }
        let latin_word = self.open == O_WORD && self.word_script == Script::Latin;
        if self.first_nonspace.is_none()
            || (p > 0 && bytes[p - 1] == bytes[p])
            || (latin_word && self.last_upper != (self.caps > 0))
        {
            return Err(1);
        }
        let (blk, accented, wide) = match &copy {
            Some((c, accented, wide)) => (c, *accented, *wide),
            None => match bytes
                .get(p..p + BLOCK + 1)
                .map(<&[u8; BLOCK + 1]>::try_from)
            {
                Some(Ok(blk)) => (blk, 0, 0),
                _ => return Err(1),
            },
        };
        let k = classify(blk);
        let punct_all = !(k.letter | k.digit | k.blank | k.newline);
        let runs4 = k.same_next & (k.same_next >> 1) & (k.same_next >> 2) & (k.letter | punct_all);
        let mut stop = runs4;
        if k.any_bad != 0 {
            // The first control or DEL (the first non-ASCII byte is `m` already).
            let bad = blk[..m]
                .iter()
                .position(|&b| b < 0x20 && b != b'\t' && b != b'\n' || b == 0x7f)
                .unwrap_or(m);
            stop |= low_bits(bad + 1) & !low_bits(bad);
        }
        if stop != 0 {
            m = m.min(stop.trailing_zeros() as usize);
        }
        // Never end inside a run of one byte: the stretches take runs whole.
        while m > 0 && (k.same_next >> (m - 1)) & 1 != 0 {
            m -= 1;
        }
        if m < MIN_BLOCK {
            return Err(in_bytes(m, accented, wide) + 1);
        }
        let valid = if m == BLOCK { !0 } else { (1u64 << m) - 1 };
        let (w, u, d) = (k.letter & valid, k.upper & valid, k.digit & valid);
        let (s, n) = (k.blank & valid, k.newline & valid);
        let pm = valid & !(w | d | s | n);
        let l = w & !u;
        // The characters before the block, from the state.
        let ol = self.open_len;
        let wp = if latin_word { top_bits(ol) } else { 0 };
        let up = if latin_word { top_bits(self.caps) } else { 0 };
        let lp = wp & !up;
        let dp = if self.open == O_DIGITS {
            // Only the length modulo 3 matters for the groups.
            top_bits(if ol <= 63 { ol } else { 60 + ol % 3 })
        } else {
            0
        };
        let pp = if self.open == O_PUNCT {
            top_bits(ol)
        } else {
            0
        };
        let bsp = self.open == O_PUNCT && self.last_punct == b'\\';
        let sp = if self.open == O_WS { top_bits(ol) } else { 0 };
        let np = if self.open == O_NL { 1 << 63 } else { 0 };
        let v = &mut self.v;
        // Words.
        let starts = w & !back(w, wp, 1);
        let (p1, p2) = (back(pm, pp, 1), back(pm, pp, 2));
        let (u1, u2) = (back(u, up, 1), back(u, up, 2));
        v[f::LATIN_RUNS] += starts.count_ones() as u64;
        let after_punct = starts & p1 & !p2;
        v[f::WORD_AFTER_PUNCT] += after_punct.count_ones() as u64;
        if after_punct != 0 && (k.any_special != 0 || bsp) {
            let mut e = after_punct;
            while e != 0 {
                let j = e.trailing_zeros() as usize;
                e &= e - 1;
                if if j == 0 { bsp } else { blk[j - 1] == b'\\' } {
                    v[f::BACKSLASH_WORDS] += 1;
                }
            }
        }
        // Capitals, in the block or carried in (most blocks of prose and code have none, and no digits below).
        if u | up != 0 {
            v[f::LATIN_CASE_SPLITS] += (u & back(l, lp, 1)).count_ones() as u64;
            v[f::LATIN_CAPS_RUNS] += (u & u1 & !u2).count_ones() as u64;
            v[f::CAPS_THEN_LOWER] += (l & u1 & u2).count_ones() as u64;
        }
        let x = ((w as u128) << 64) | wp as u128;
        let t2 = x & (x << 1);
        let t4 = t2 & (t2 << 2);
        let t8 = t4 & (t4 << 4);
        v[f::LATIN_LONG] += (((t8 & (t8 << 1)) >> 64) as u64).count_ones() as u64;
        v[f::LATIN_LONG2] += (((t8 & (t8 << 5)) >> 64) as u64).count_ones() as u64;
        // Digits: a run starts a group, and so does every third digit after.
        if d != 0 {
            let d_starts = d & !back(d, dp, 1);
            v[f::DIGIT_RUNS] += d_starts.count_ones() as u64;
            v[f::DIGITS_AFTER_BLANK] += (d_starts & back(s, sp, 1)).count_ones() as u64;
            let x = ((d as u128) << 64) | dp as u128;
            let three = x & (x << 1) & (x << 2);
            let mut g = x & !(x << 1);
            let mut all = g;
            while g != 0 {
                g = (g << 3) & three;
                all |= g;
            }
            v[f::DIGIT_GROUPS3] += ((all >> 64) as u64).count_ones() as u64;
        }
        // Punctuation runs, and runs of one closed by the next character.
        v[f::PUNCT_RUNS] += (pm & !p1).count_ones() as u64;
        v[f::PUNCT_SINGLE] += (valid & !pm & p1 & !p2).count_ones() as u64;
        // Whitespace runs closed by the next character: one space, or a run priced by its length.
        let (s1, s2) = (back(s, sp, 1), back(s, sp, 2));
        v[f::SPACES_SINGLE] += (valid & !s & s1 & !s2).count_ones() as u64;
        let mut closes = valid & !s & s1 & s2;
        let s_starts = s & !s1;
        while closes != 0 {
            let j = closes.trailing_zeros();
            closes &= closes - 1;
            let before = s_starts & ((1u64 << j) - 1);
            let len = if before != 0 {
                j - (63 - before.leading_zeros())
            } else {
                ol + j
            };
            v[f::WS_RUNS] += 1;
            v[f::WS_RUN_CHARS] += len as u64;
            v[f::WS_LONG] += len.saturating_sub(WS_LONG_MIN) as u64;
        }
        // Newlines; a blank right after one (or at a line start carried in) indents the line.
        if n != 0 || self.at_line_start {
            v[f::NL_RUNS] += (n & !back(n, np, 1)).count_ones() as u64;
            self.indented_lines += (s & ((n << 1) | self.at_line_start as u64)).count_ones() as u64;
        }
        // Alphanumeric strings, cut by punctuation other than `+` and `/`, blanks and newlines.
        let ps = if k.any_special != 0 {
            bytes_equal(blk, b'+', b'/') & valid
        } else {
            0
        };
        let ends = (pm & !ps) | s | n;
        let first = (ends.trailing_zeros() as usize).min(m);
        let kinds = (l, u, d, ps);
        self.alnum_range(&blk[..first], low_bits(first), kinds);
        if first < m {
            self.end_alnum();
            let last = 63 - ends.leading_zeros() as usize;
            let inside = valid & !ends;
            let mut priced = (d | (u & (inside << 1))) & (!0u64 << first << 1) & low_bits(last);
            while priced != 0 {
                let q = priced.trailing_zeros();
                let from = 64 - (ends & low_bits(q as usize)).leading_zeros() as usize;
                let to = (ends & (!0u64 << q)).trailing_zeros() as usize;
                let r = low_bits(to) & !low_bits(from);
                // Only strings of 4 or more with a digit and a letter, or both cases, can be priced; the others
                // (numbers, mostly) leave no trace once they end.
                let (lr, ur, dr) = (l & r != 0, u & r != 0, d & r != 0);
                if ((l | u | d) & r).count_ones() >= 4 && (dr && (lr || ur) || ur && lr) {
                    self.alnum_range(&blk[from..to], r, kinds);
                    self.end_alnum();
                }
                priced &= !0u64 << to;
            }
            self.alnum_range(&blk[last + 1..m], valid & !low_bits(last + 1), kinds);
        }
        // The state after the last byte.
        let lastbit = 1u64 << (m - 1);
        let mm = m as u32;
        let run = |x: u64| ((!x) << (64 - m)).leading_zeros().min(mm);
        // The length of the run of `x` that ends the block, plus what came before it when it fills the block and
        // continues a pre-token of the same kind.
        let open0 = self.open;
        let tail = |x: u64, kind: u8| {
            let r = run(x);
            if r == mm && open0 == kind {
                ol + r
            } else {
                r
            }
        };
        self.at_line_start = n & lastbit != 0;
        if pm != 0 {
            self.last_punct = blk[63 - pm.leading_zeros() as usize];
        }
        if w & lastbit != 0 {
            let (r, ru) = (run(w), run(u));
            let (len0, caps0) = if latin_word { (ol, self.caps) } else { (0, 0) };
            self.open_len = if r == mm { len0 + r } else { r };
            self.caps = if ru == mm { caps0 + ru } else { ru };
            self.last_upper = u & lastbit != 0;
            self.open = O_WORD;
            self.word_script = Script::Latin;
        } else if d & lastbit != 0 {
            self.open_len = tail(d, O_DIGITS);
            self.open = O_DIGITS;
        } else if s & lastbit != 0 {
            self.open_len = tail(s, O_WS);
            self.open = O_WS;
        } else if n & lastbit != 0 {
            self.open = O_NL;
        } else {
            self.open_len = tail(pm, O_PUNCT);
            self.open = O_PUNCT;
        }
        if accented != 0 {
            // What the stand-ins do not count: the letters' characters (the histogram saw their bytes).
            let taken = accented & valid;
            let n = taken.count_ones() as u64;
            self.chars += n;
            self.class_chars[Class::Letters as usize] += n;
            self.v[f::LATIN_CHARS] += n;
            self.v[f::LATIN_NONASCII] += n;
            self.v[f::LATIN_UPPER] += (taken & u).count_ones() as u64;
            return Ok(m + n as usize + wide_bytes(m, wide));
        }
        Ok(m)
    }

    /// One alphanumeric string's characters in a block (the bits `range`, the bytes `seg`: ASCII letters, digits,
    /// `+` and `/`): what stepping each letter and digit through [`Scanner::alnum`] would do. `kinds` are the
    /// block's lowercase, capital, digit and `+`/`/` bits. A kind change is counted between consecutive letters and
    /// digits, `+` and `/` between them skipped: each kind's bits are carried forward over them first.
    ///
    /// Lowercase letters alone (a word of prose or code, mostly) take a short path: no kind changes inside, one
    /// before them when the string so far ended otherwise, and their count is the segment's length.
    #[inline(always)]
    fn alnum_range(&mut self, seg: &[u8], range: u64, kinds: (u64, u64, u64, u64)) {
        if (kinds.1 | kinds.2 | kinds.3) & range != 0 {
            return self.alnum_mixed(seg, range, kinds);
        }
        if seg.is_empty() {
            return;
        }
        if self.an_len > 0 && self.an_prev != AN_LOWER {
            self.an_trans += 1;
        }
        self.an_prev = AN_LOWER;
        self.an_len += seg.len() as u32;
        if self.an_flags & AN_NONHEX == 0 && seg.iter().any(|&b| b > b'f') {
            self.an_flags |= AN_NONHEX;
        }
        self.an_flags |= AN_LOWER;
    }

    /// [`Scanner::alnum_range`] when the string's characters are not all lowercase letters.
    #[inline(never)]
    fn alnum_mixed(&mut self, seg: &[u8], range: u64, kinds: (u64, u64, u64, u64)) {
        let (l, u, d) = (kinds.0 & range, kinds.1 & range, kinds.2 & range);
        let a = l | u | d;
        if a == 0 {
            return;
        }
        let ps = kinds.3 & range;
        let (mut ls, mut us, mut ds) = (l, u, d);
        if ps != 0 {
            loop {
                let next = (
                    ls | ((ls << 1) & ps),
                    us | ((us << 1) & ps),
                    ds | ((ds << 1) & ps),
                );
                if next == (ls, us, ds) {
                    break;
                }
                (ls, us, ds) = next;
            }
        }
        let same = (l & (ls << 1)) | (u & (us << 1)) | (d & (ds << 1));
        let mut trans = (a & ((ls | us | ds) << 1) & !same).count_ones();
        let kind = |bit: u64| {
            if l & bit != 0 {
                AN_LOWER
            } else if u & bit != 0 {
                AN_UPPER
            } else {
                AN_DIGIT
            }
        };
        if self.an_len > 0 && kind(a & a.wrapping_neg()) != self.an_prev {
            trans += 1;
        }
        self.an_prev = kind(1u64 << (63 - a.leading_zeros()));
        self.an_len += a.count_ones();
        self.an_trans += trans;
        let mut flags = 0;
        if l != 0 {
            flags |= AN_LOWER;
        }
        if u != 0 {
            flags |= AN_UPPER;
        }
        if d != 0 {
            flags |= AN_DIGIT;
        }
        if (l | u) != 0
            && (self.an_flags | flags) & AN_NONHEX == 0
            && seg.iter().fold(false, |x, &b| x | non_hex_letter(b))
        {
            flags |= AN_NONHEX;
        }
        self.an_flags |= flags;
    }

    /// A stretch of ASCII letters from `i` (before `k`); returns where it ends. A run of [`REPEAT_MIN`] copies of
    /// one letter ends it as a repeat.
    #[inline]
    fn letters(&mut self, bytes: &[u8], mut j: usize, k: usize) -> usize {
        self.seen_nonspace(bytes[j] as char);
        loop {
            let b = bytes[j];
            if bytes[j + 1] == b {
                let e = run_end(bytes, j, k);
                let r = (e - j) as u32;
                if r >= REPEAT_MIN {
                    self.ascii_repeat(b, r);
                    return e;
                }
                for _ in 0..r {
                    self.ascii_letter(b);
                }
                j = e;
            } else {
                self.ascii_letter(b);
                j += 1;
                if b >= b'a' {
                    // Lowercase letters after a lowercase letter, none starting a run: they only lengthen the
                    // word and the alphanumeric string.
                    let start = j;
                    j = lowercase_end(bytes, j, k);
                    if j > start {
                        self.lowercase_bulk(&bytes[start..j]);
                    }
                }
            }
            // What follows the letters.
            loop {
                if j >= k {
                    return j;
                }
                let c = bytes[j];
                if c.is_ascii_alphabetic() {
                    break;
                }
                // The commonest way on: one space, then a letter that does not start a run. The space opens and
                // the letter closes a one-space run; the word just ended is a Latin word, so `at_line_start` is
                // already false and `close_open` has nothing to price for it.
                if c != b' ' || j + 1 >= k {
                    return j;
                }
                let d = bytes[j + 1];
                if !d.is_ascii_alphabetic() || bytes[j + 2] == d {
                    return j;
                }
                self.end_alnum();
                self.v[f::SPACES_SINGLE] += 1;
                self.v[f::LATIN_RUNS] += 1;
                let upper = d < b'a';
                self.open = O_WORD;
                self.open_len = 1;
                self.word_script = Script::Latin;
                self.last_upper = upper;
                self.caps = upper as u32;
                self.an_len = 1;
                self.an_prev = if upper { AN_UPPER } else { AN_LOWER };
                self.an_flags = self.an_prev | if non_hex_letter(d) { AN_NONHEX } else { 0 };
                j += 2;
                if !upper {
                    let start = j;
                    j = lowercase_end(bytes, j, k);
                    if j > start {
                        self.lowercase_bulk(&bytes[start..j]);
                    }
                }
            }
        }
    }

    /// Lowercase ASCII letters, each following a lowercase letter of the open Latin word: what stepping each one
    /// through [`Scanner::ascii_letter`] would do (the case state is already "lowercase, no capitals").
    #[inline]
    fn lowercase_bulk(&mut self, s: &[u8]) {
        let m = s.len() as u32;
        let old = self.open_len;
        let new = old + m;
        self.v[f::LATIN_LONG] += new.saturating_sub(old.max(LONG_WORD)) as u64;
        self.v[f::LATIN_LONG2] += new.saturating_sub(old.max(LONG_WORD2)) as u64;
        self.open_len = new;
        self.an_len += m;
        if self.an_flags & AN_NONHEX == 0 && s.iter().any(|&b| b > b'f') {
            self.an_flags |= AN_NONHEX;
        }
    }

    /// One ASCII letter through the word and alphanumeric-string state (`seen_nonspace` is the caller's).
    #[inline(always)]
    fn ascii_letter(&mut self, b: u8) {
        let upper = b < b'a';
        self.alnum(
            if upper { AN_UPPER } else { AN_LOWER } | if non_hex_letter(b) { AN_NONHEX } else { 0 },
        );
        if self.open == O_WORD && self.word_script == Script::Latin {
            self.letter_continues(Script::Latin, upper);
        } else {
            self.word_opens(Script::Latin, upper);
        }
    }

    /// A stretch of ASCII digits from `i` (before `k`). Digits never repeat, so the stretch is all of them.
    #[inline]
    fn digits(&mut self, bytes: &[u8], i: usize, k: usize) -> usize {
        let mut e = i + 1;
        while e < k && bytes[e].is_ascii_digit() {
            e += 1;
        }
        let m = (e - i) as u32;
        self.seen_nonspace(bytes[i] as char);
        self.alnum(AN_DIGIT);
        self.an_len += m - 1;
        self.digit_run(m);
        e
    }

    /// `m` digits continue or open a digit group: every third digit of a run starts a new group of three.
    #[inline]
    fn digit_run(&mut self, m: u32) {
        if self.open != O_DIGITS {
            if self.open == O_WS {
                self.v[f::DIGITS_AFTER_BLANK] += 1;
            }
            self.close_open();
            self.v[f::DIGIT_RUNS] += 1;
            self.open = O_DIGITS;
            self.open_len = 0;
        }
        let old = self.open_len;
        let new = old + m;
        // Lengths L in (old, new] with L % 3 == 1.
        self.v[f::DIGIT_GROUPS3] += (new.div_ceil(3) - old.div_ceil(3)) as u64;
        self.open_len = new;
    }

    /// A stretch of ASCII punctuation from `i` (before `k`), up to a run of [`REPEAT_MIN`] copies of one byte,
    /// which ends it as a repeat. No letter or digit comes between, so the alphanumeric string ends once if any
    /// character of the stretch ends it, and the characters only lengthen one punctuation run.
    #[inline]
    fn puncts(&mut self, bytes: &[u8], i: usize, k: usize) -> usize {
        let mut j = i;
        let mut ends_alnum = false;
        let mut repeat_end = 0;
        while j < k && BYTE_CLASS[bytes[j] as usize] == A_PUNCT {
            let b = bytes[j];
            let mut e = j + 1;
            if bytes[e] == b {
                e = run_end(bytes, j, k);
                if e - j >= REPEAT_MIN as usize {
                    repeat_end = e;
                    break;
                }
            }
            // `+` and `/` belong to base64 strings.
            ends_alnum |= b != b'+' && b != b'/';
            j = e;
        }
        if j > i {
            self.seen_nonspace(bytes[i] as char);
            if ends_alnum {
                self.end_alnum();
            }
            self.last_punct = bytes[j - 1];
            if self.open != O_PUNCT {
                self.close_open();
                self.v[f::PUNCT_RUNS] += 1;
                self.open = O_PUNCT;
                self.open_len = 0;
            }
            self.open_len += (j - i) as u32;
        }
        if repeat_end > 0 {
            self.ascii_repeat(bytes[j], (repeat_end - j) as u32);
            return repeat_end;
        }
        j
    }

    /// A stretch of ASCII controls from `i` (before `k`). A run of [`REPEAT_MIN`] copies of one byte ends it as a
    /// repeat.
    #[inline(never)]
    fn controls(&mut self, bytes: &[u8], mut j: usize, k: usize) -> usize {
        let cls = ASCII[bytes[j] as usize];
        loop {
            let b = bytes[j];
            let e = if bytes[j + 1] == b {
                run_end(bytes, j, k)
            } else {
                j + 1
            };
            let r = (e - j) as u32;
            if r >= REPEAT_MIN {
                self.ascii_repeat(b, r);
                return e;
            }
            for _ in 0..r {
                self.step_ascii(b, cls);
            }
            j = e;
            if j >= k || BYTE_CLASS[bytes[j] as usize] != cls {
                return j;
            }
        }
    }

    /// A run of one non-ASCII character at `i` in `region` (everything before the pending run), then, inside a
    /// word of another script, the bulk path for the rest of the word. (Text is sliced with `str::get` here and
    /// in `feed_chars`: the indices are always on character boundaries, and `get` keeps the panic machinery
    /// for slicing, with its formatting of characters, out of the wasm build: about 1.5 KB gzipped.)
    fn non_ascii(&mut self, region: &str, i: usize) -> usize {
        let c = region
            .get(i..)
            .and_then(|t| t.chars().next())
            .unwrap_or('\u{fffd}');
        let w = c.len_utf8();
        // A lowercase or caseless letter of the script of the last word (a word after punctuation, a newline or a
        // digit in text of that script): it opens a word of that script, like any letter, and never merges.
        let script = self.word_script;
        if script != Script::Latin && in_fast_range(script, c as u32) {
            self.chars += 1;
            self.step(c, letter(script, false));
            return self.script_stretch(region, i + w);
        }
        let mut j = i + w;
        let mut run = 1;
        while region.get(j..).is_some_and(|t| t.starts_with(c)) {
            j += w;
            run += 1;
        }
        self.chars += run as u64;
        self.unicode_run(c, run);
        if self.open == O_WORD && self.word_script != Script::Latin {
            j = self.script_stretch(region, j);
        }
        j
    }

    /// Fast path for words in other scripts (Cyrillic, Arabic, Devanagari, Han, Hangul, ...): while the next
    /// characters are lowercase or caseless letters of the open word's script, count them in bulk;
    /// then, if one space and another such letter follow, take the space (it opens a one-space run) and the letter
    /// (it closes the run and opens a word of the same script) and go on with that word; a CJK word that runs into
    /// a letter of another CJK script goes on as a word of that script. Same counts as stepping one character at a
    /// time. Returns where the caller continues.
    #[inline(never)]
    fn script_stretch(&mut self, text: &str, mut i: usize) -> usize {
        const CJK: [Script; 3] = [Script::Han, Script::Kana, Script::Hangul];
        loop {
            i = self.script_words(text, i);
            // A CJK word that runs straight into a letter of another CJK script (kanji into kana, say): step that
            // letter, which opens a word of its script, and go on with the new word.
            if !matches!(
                self.word_script,
                Script::Han | Script::Kana | Script::Hangul
            ) {
                return i;
            }
            let Some(c) = text.get(i..).and_then(|t| t.chars().next()) else {
                return i;
            };
            let u = c as u32;
            let Some(&script) = CJK.iter().find(|&&s| {
                let (first, n) = STRETCH_FAST[s as usize];
                u.wrapping_sub(first as u32) < n as u32
            }) else {
                return i;
            };
            self.chars += 1;
            self.step(c, letter(script, false));
            i += c.len_utf8();
        }
    }

    /// Words of the open word's script, for [`Scanner::script_stretch`]: returns where the first character that
    /// neither continues the word nor is one space before such a letter starts.
    #[inline(always)]
    fn script_words(&mut self, text: &str, mut i: usize) -> usize {
        let script = self.word_script;
        let (runs_i, chars_i) = SCRIPT_FEATURES[script as usize];
        let cjk = matches!(script, Script::Han | Script::Kana | Script::Hangul);
        let class = if cjk { Class::Cjk } else { Class::Letters } as usize;
        // Cyrillic's fast range is `а`–`я`, so only the fallback sees Cyrillic letters outside the Russian alphabet:
        // it counts them (`cyr_nonrussian`) as it lets them continue the word.
        let cyrillic = script == Script::Cyrillic;
        let nonrussian = std::cell::Cell::new(0u64);
        let continues = |c: char| {
            let u = c as u32;
            u >= 0x80
                && (in_fast_range(script, u)
                    || {
                        let letter = matches!(kind_of_non_ascii(c, u), Kind::Letter { script: s, upper: false, .. } if s == script);
                        if letter && cyrillic && c != 'ё' {
                            nonrussian.set(nonrussian.get() + 1);
                        }
                        letter
                    })
        };
        loop {
            let mut m: u32 = 0;
            let mut prev = '\0';
            // A run of one letter is no repeat (letters never merge): its letters continue the word like any other.
            for c in text.get(i..).unwrap_or_default().chars() {
                if !continues(c) {
                    break;
                }
                prev = c;
                m += 1;
                i += c.len_utf8();
            }
            if m > 0 {
                let m64 = m as u64;
                self.v[f::CYR_NONRUSSIAN] += nonrussian.take();
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
            // One space, then a letter that continues the script. The word before it is open and has seen a
            // non-space, so the space only ends the (empty) alphanumeric string and opens a one-space run; the
            // letter closes that run and opens a word.
            if text.as_bytes().get(i) != Some(&b' ') {
                return i;
            }
            let d = match text.get(i + 1..).and_then(|t| t.chars().next()) {
                Some(d) if continues(d) => d,
                _ => return i,
            };
            self.v[f::CYR_NONRUSSIAN] += nonrussian.take();
            self.end_alnum();
            self.v[f::SPACES_SINGLE] += 1;
            self.v[runs_i] += 1;
            self.open = O_WORD;
            self.open_len = 1;
            self.bare = false;
            self.last_upper = false;
            self.caps = 0;
            self.chars += 1;
            self.class_chars[class] += 1;
            self.v[chars_i] += 1;
            i += 1 + d.len_utf8();
        }
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
            // simdutf8's `compat` validation reports errors as std's does (`valid_up_to`, `error_len`); with SIMD
            // where the CPU has it, it is more than ten times std's speed on text of other scripts.
            match simdutf8::compat::from_utf8(bytes) {
                Ok(s) => {
                    self.bytes += s.len() as u64;
                    self.feed_chars(s);
                    return;
                }
                Err(e) => {
                    let good = e.valid_up_to();
                    if let Ok(s) = simdutf8::basic::from_utf8(&bytes[..good]) {
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
        // Fold the histogram: the per-character counts of ASCII characters outside repeats. Straight-line sums
        // (no per-byte branches), since short texts pay this on every estimate.
        let h = &s.hist;
        let sum = |from: u8, to: u8| h[from as usize..=to as usize].iter().sum::<u64>();
        let total = sum(0, 0x7f);
        let (mut letters, mut upper) = (0, 0);
        for i in 0..26 {
            let (lo, up) = (h[b'a' as usize + i], h[b'A' as usize + i]);
            s.v[f::LETTER_A + i] += lo + up;
            s.v[f::UPPER_A + i] += up;
            letters += lo + up;
            upper += up;
        }
        for (k, &b) in ASCII_PUNCT.iter().enumerate() {
            s.v[f::PUNCT_CHARS + k] += h[b as usize];
        }
        let digits = sum(b'0', b'9');
        let (space, tabs, newlines) = (h[b' ' as usize], h[b'\t' as usize], h[b'\n' as usize]);
        let other_ws = sum(0x0b, 0x0d);
        let whitespace = space + tabs + newlines + other_ws;
        let controls = sum(0, 0x1f) - tabs - newlines - other_ws + h[0x7f];
        let punct = total - letters - digits - whitespace - controls;
        for (b, &g) in SIG.iter().enumerate() {
            if g != NO_SIG {
                s.sig[g as usize] += h[b];
            }
        }
        s.chars += total;
        s.v[f::LATIN_CHARS] += letters;
        s.v[f::LATIN_UPPER] += upper;
        s.v[f::DIGITS] += digits;
        s.v[f::PUNCT] += punct;
        s.v[f::TABS] += tabs;
        s.v[f::NL_CHARS] += newlines;
        s.v[f::OTHER_WS] += other_ws;
        s.v[f::CONTROL] += controls;
        s.class_chars[Class::Letters as usize] += letters;
        s.class_chars[Class::Digits as usize] += digits;
        s.class_chars[Class::Punctuation as usize] += punct;
        s.class_chars[Class::Whitespace as usize] += whitespace;
        s.class_chars[Class::Control as usize] += controls;
        for (i, &(lo, hi)) in BYTE_TALLY_RANGES.iter().enumerate() {
            s.v[f::BYTE_TALLIES + i] += sum(lo, hi);
        }
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
                lines: s.hist[b'\n' as usize],
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
        let u = c as u32;
        if u < 128 {
            self.ascii_run(u as u8, ASCII[u as usize], n);
        } else {
            self.chars += n as u64;
            self.unicode_run(c, n);
        }
    }

    /// `n` copies of one ASCII character (already in `hist`).
    #[inline(never)]
    fn ascii_run(&mut self, b: u8, cls: u8, n: u32) {
        if n >= REPEAT_MIN && !matches!(cls, A_SPACE | A_TAB | A_NL | A_OTHERWS | A_DIGIT) {
            self.ascii_repeat(b, n);
        } else if cls == A_SPACE || cls == A_TAB {
            // The first opens or extends a whitespace run, the rest extend it.
            self.space();
            self.open_len += n - 1;
        } else {
            for _ in 0..n {
                self.step_ascii(b, cls);
            }
        }
    }

    /// `n` copies of one ASCII character priced as a repeat: they leave the histogram for the repeat counts.
    fn ascii_repeat(&mut self, b: u8, n: u32) {
        self.hist[b as usize] -= n as u64;
        self.chars += n as u64;
        self.repeat(b as char, n);
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

    /// One ASCII character (its byte and `ASCII` class) through the pre-token state machine. Its per-character
    /// counts are in `hist`.
    #[inline(never)]
    fn step_ascii(&mut self, b: u8, cls: u8) {
        match cls {
            A_LOWER | A_UPPER => {
                self.seen_nonspace(b as char);
                self.ascii_letter(b);
            }
            A_DIGIT => {
                self.seen_nonspace(b as char);
                self.alnum(AN_DIGIT);
                self.digit_run(1);
            }
            A_PUNCT => {
                self.seen_nonspace(b as char);
                self.punct(b);
            }
            A_SPACE | A_TAB => self.space(),
            A_NL => self.newline(),
            A_OTHERWS => {
                self.end_alnum();
                self.close_open();
            }
            _ => {
                self.seen_nonspace(b as char);
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
            Kind::Digit => {
                self.class_chars[Class::Digits as usize] += 1;
                self.v[f::DIGITS] += 1;
                self.alnum(AN_DIGIT);
                self.digit_run(1);
            }
            Kind::Control => {
                self.class_chars[Class::Control as usize] += 1;
                self.v[f::CONTROL] += 1;
            }
            Kind::OtherWs => {
                self.class_chars[Class::Whitespace as usize] += 1;
                self.v[f::OTHER_WS] += 1;
                self.end_alnum();
                self.close_open();
            }
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
            self.letter_continues(script, upper);
        } else {
            self.word_opens(script, upper);
        }
    }

    /// A letter of `script` continues the open word of that script.
    #[inline(always)]
    fn letter_continues(&mut self, script: Script, upper: bool) {
        {
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
        }
    }

    /// A letter of `script` opens a word.
    #[inline(always)]
    fn word_opens(&mut self, script: Script, upper: bool) {
        {
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

    /// One ASCII punctuation character (`seen_nonspace` is the caller's).
    #[inline]
    fn punct(&mut self, b: u8) {
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

    /// A space or tab.
    #[inline]
    fn space(&mut self) {
        if self.at_line_start {
            self.indented_lines += 1;
            self.at_line_start = false;
        }
        self.end_alnum();
        if self.open == O_WS {
            self.open_len += 1;
        } else {
            self.close_open();
            self.open = O_WS;
            self.open_len = 1;
        }
    }

    /// A newline (any number of them in a row do the same).
    #[inline]
    fn newline(&mut self) {
        self.at_line_start = true;
        self.end_alnum();
        if self.open != O_NL {
            self.close_open();
            self.v[f::NL_RUNS] += 1;
            self.open = O_NL;
        }
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
        if self.an_len != 0 {
            self.price_alnum();
        }
    }

    /// Prices the alphanumeric string that just ended and starts a new one. Out of line: called from many places,
    /// and the wasm build's size budget has no room for a copy at each.
    #[inline(never)]
    fn price_alnum(&mut self) {
        let n = self.an_len;
        let fl = self.an_flags;
        let digits = fl & AN_DIGIT != 0;
        let upper = fl & AN_UPPER != 0;
        let lower = fl & AN_LOWER != 0;
        // Every string priced below has at least 4 characters and digits or both cases: most words have neither.
        if n < 4 || !(digits || upper && lower) {
        } else if n >= HEX_MIN
            && digits
            && (upper || lower)
            && fl & AN_NONHEX == 0
            && !(upper && lower)
        {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-character features are the 32 ASCII punctuation characters and the 26 capitals, named after them,
    /// counted outside repeats only, and priced in the content mix as punctuation and letters.
    #[test]
    fn punctuation_and_capital_features_count_each_character() {
        let punct: Vec<u8> = (0u8..128).filter(u8::is_ascii_punctuation).collect();
        assert_eq!(ASCII_PUNCT.to_vec(), punct);
        for (k, &b) in ASCII_PUNCT.iter().enumerate() {
            assert_eq!(FEATURE_NAMES[f::PUNCT_CHARS + k], format!("ascii_{b:02x}"));
            assert_eq!(Class::of_feature(f::PUNCT_CHARS + k), Class::Punctuation);
        }
        for i in 0..26 {
            assert_eq!(
                FEATURE_NAMES[f::UPPER_A + i],
                format!("upper_{}", (b'a' + i as u8) as char)
            );
            assert_eq!(Class::of_feature(f::UPPER_A + i), Class::Letters);
        }
        assert_eq!(f::UPPER_A + 26, NF);
        let x = scan("Hi; {x: \"A\"} ;;;;;;;; QQ");
        let p = |c: u8| x.v[f::PUNCT_CHARS + ASCII_PUNCT.iter().position(|&b| b == c).unwrap()];
        let u = |c: u8| x.v[f::UPPER_A + (c - b'A') as usize];
        // The run of eight semicolons is a repeat, priced as one; the two before it are counted here.
        assert_eq!(
            (p(b';'), p(b'{'), p(b'}'), p(b'"'), p(b':'), p(b'!')),
            (1, 1, 1, 2, 1, 0)
        );
        assert_eq!((u(b'H'), u(b'A'), u(b'Q'), u(b'B')), (1, 1, 2, 0));
        assert_eq!(
            x.v[f::PUNCT],
            (0..32).map(|k| x.v[f::PUNCT_CHARS + k]).sum::<u64>()
        );
        assert_eq!(
            x.v[f::LATIN_UPPER],
            (0..26).map(|i| x.v[f::UPPER_A + i]).sum::<u64>()
        );
    }

    /// Every code point of [`STRETCH_FAST`] and [`STRETCH_MORE`] is what `kind_of_non_ascii` calls a lowercase or
    /// caseless letter of the range's script, so the cheap test never says more than the full one.
    #[test]
    fn stretch_fast_ranges_are_letters_of_their_script() {
        let scripts = [
            Script::Latin,
            Script::Cyrillic,
            Script::Greek,
            Script::Arabic,
            Script::Indic,
            Script::Sea,
            Script::Other,
            Script::Han,
            Script::Kana,
            Script::Hangul,
            Script::Bengali,
            Script::Gurmukhi,
            Script::Gujarati,
            Script::Odia,
            Script::Tamil,
            Script::Telugu,
            Script::Kannada,
            Script::Malayalam,
            Script::Sinhala,
        ];
        let mut checked = 0;
        for (i, script) in scripts.into_iter().enumerate() {
            assert_eq!(script as usize, i);
            let [more_a, more_b] = STRETCH_MORE[i];
            for (first, n) in [STRETCH_FAST[i], more_a, more_b] {
                for u in first as u32..first as u32 + n as u32 {
                    let c = char::from_u32(u).expect("a scalar value");
                    assert!(
                        matches!(kind_of_non_ascii(c, u), Kind::Letter { script: s, upper: false, .. } if s == script),
                        "U+{u:04X} in the fast range of {script:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 30_000, "{checked}");
    }

    /// The SSE2 block classification against the portable one (which the wasm build runs): every mask bit of
    /// the ASCII prefix a block uses agrees, the two "any" flags agree on it, over random blocks drawn from the
    /// bytes that matter and all the others.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[test]
    fn sse2_classification_matches_the_portable_one() {
        const PICK: &[u8] = b"aAzZ`{@[09/:+\\/ \t\n\r\x0b\x0c\x00\x1f\x7f.,xX";
        let mut rng = crate::rng::SplitMix64::new(0x9e37_79b9_7f4a_7c15);
        let mut next = || rng.next_u64();
        for case in 0..200_000 {
            let mut w = [0u8; BLOCK + 1];
            for b in w.iter_mut() {
                let r = next();
                *b = match (r >> 60, case % 4) {
                    (_, 0) => r as u8,
                    (0..=11, _) => PICK[(r % PICK.len() as u64) as usize],
                    _ => (r as u8) & 0x7f,
                };
            }
            if case % 5 == 0 {
                // Runs of one byte, for `same_next`.
                let at = (next() % 60) as usize;
                let len = (next() % 5) as usize;
                let b = w[at];
                w[at..at + len].fill(b);
            }
            let ascii = w[..BLOCK].iter().position(|b| *b >= 0x80).unwrap_or(BLOCK);
            let valid = low_bits(ascii);
            let (a, b) = (sse2::classify(&w), classify_swar(&w));
            for (name, x, y) in [
                ("letter", a.letter, b.letter),
                ("upper", a.upper, b.upper),
                ("digit", a.digit, b.digit),
                ("blank", a.blank, b.blank),
                ("newline", a.newline, b.newline),
                ("same_next", a.same_next, b.same_next),
            ] {
                assert_eq!(x & valid, y & valid, "{name} of {w:?}");
            }
            // Up to the first non-ASCII byte the flags say the same (the SWAR form reads such bytes' low bits).
            let bad = w[..ascii]
                .iter()
                .any(|&c| c < 0x20 && c != b'\t' && c != b'\n' || c == 0x7f);
            let special = w[..ascii].iter().any(|c| b"+/\\".contains(c));
            assert_eq!(a.any_bad & valid != 0, bad, "{w:?}");
            assert_eq!(a.any_special & valid != 0, special, "{w:?}");
            if ascii == BLOCK {
                assert_eq!(a.any_bad != 0, b.any_bad != 0, "{w:?}");
                assert_eq!(a.any_special != 0, b.any_special != 0, "{w:?}");
            }
            assert_eq!(
                sse2::bytes_equal(&w, b'+', b'/') & valid,
                bytes_equal_swar(&w, b'+', b'/') & valid
            );
        }
    }

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
        assert_eq!(x.v[f::DIGITS_AFTER_BLANK], 1);
    }

    #[test]
    fn digits_after_blanks() {
        // After a space, a tab and a run of spaces (`0x9` too); not after a newline, punctuation or a letter.
        let x = scan("x 1, 2,\t3 and    45\n6 (7) a8 0x9");
        assert_eq!(x.v[f::DIGIT_RUNS], 9);
        assert_eq!(x.v[f::DIGITS_AFTER_BLANK], 5);
    }

    #[test]
    fn bare_words_of_other_scripts() {
        // Line starts and words after punctuation are bare; words after a blank, Latin and CJK words are not.
        let x = scan("Древние символы\n(ссылки) текст\nword 世界\n\tλόγος «да»");
        assert_eq!(x.v[f::BARE_WORD_CHARS], 7 + 6 + 2);
        let x = scan("один два три");
        assert_eq!(x.v[f::BARE_WORD_CHARS], 4);
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
        let text =
            "Grüße, 世界! {\"a\": [1, 2]}\n\n    indented\t==== done 👋🏽 aGVsbG8gd29ybGQgaGVsbG8=";
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
    fn fast_paths_equal_one_char_at_a_time() {
        let texts = [
            "The quick brown fox jumps over the lazy dog; bookkeeper aaaa zzzzzz.",
            "Съешь же ещё этих мягких французских булок, да выпей чаю. ооооо",
            "我们的目标是在不发送请求之前判断它能否成功。。。。好好好好好",
            "मानक हिन्दी भाषा एक भारतीय भाषा है। العربية لغة سامية",
            "    def f(x):\n        return x ** 2\n\n\n\t\t{\"a\": [1, 22, 333, 4444]}",
            "aaa",
            "aaaa",
            "abcdddd",
            "ддд",
            "дддд",
            "x\u{301}\u{301}\u{301}\u{301}y",
        ];
        for t in texts {
            let whole = scan(t);
            let mut s = Scanner::new();
            for (i, c) in t.char_indices() {
                s.feed(&t[i..i + c.len_utf8()]);
            }
            assert_eq!(s.features(), whole, "{t:?}");
        }
    }

    #[test]
    fn invalid_utf8_is_lossy() {
        let mut s = Scanner::new();
        s.feed_bytes(b"ab\xffcd\xe4\xb8");
        let x = s.features();
        assert!(s.saw_invalid_utf8());
        assert_eq!(
            x.chars,
            String::from_utf8_lossy(b"ab\xffcd\xe4\xb8").chars().count() as u64
        );
    }
}
