//! One pass over the text: counts of what drives tokenizers.
//!
//! Tokenizers first cut text into pre-tokens (letter runs, digit groups, punctuation runs, whitespace runs) and then
//! merge bytes inside each pre-token. The scanner counts those pre-token shapes without any vocabulary: letter runs
//! by script and their lengths, case changes (o200k splits `camelCase`), digits and digit groups, punctuation runs,
//! whitespace and newline runs, CJK characters, emoji, long runs of one character (40,000 spaces are about 313
//! o200k tokens, not 40,000), and alphanumeric strings that look like base64 or hex.
//!
//! Every count is defined byte by byte over the whole text: at each byte, a test of that byte's character kind and
//! of the bytes a few places before (and, for repeats, after) it. So the text can arrive in pieces of any size
//! (even bytes split inside a UTF-8 sequence, through [`Scanner::feed_bytes`]) and the counts are the same as for
//! the whole text at once; `tests/scan_oracle.rs` holds the scanner to a plain byte-by-byte reading of the
//! definitions. Nothing here allocates.

mod classify;
mod han_tier;
pub mod kind;

use classify::{Classes, BLOCK, WIN};
use kind::{
    Kind, K_ARB, K_CJKP, K_CYR, K_CYRX, K_EMO, K_EMOD, K_ETH, K_GRK, K_HAN, K_HANG, K_IND, K_IND2,
    K_KANA, K_KHM, K_LATLO, K_LATUP, K_MARK, K_MYA, K_NCTL, K_NDIG, K_NL, K_NWS, K_OTH, K_SEA,
    K_SYM2, K_SYM3, K_SYM4,
};
/// How many features the scanner counts; the length of [`Features::v`].
pub const NF: usize = 171;

/// Feature indices. Each is a count over the text; the estimator prices each one per profile.
///
/// The counts are defined on bytes. Every character has a kind ([`kind`]); its bytes are all of that kind. A
/// *letter* is a letter of any script; the *Latin* letters are ASCII ones and the accented and other non-ASCII
/// Latin ones; *blanks* are spaces and tabs. Four or more copies in a row of one character of a merging kind
/// (ASCII letters, punctuation and controls; non-ASCII symbols and CJK punctuation) are a *repeat*: its bytes count
/// toward the repeat features and toward nothing else but the character counts. A *run* of a class is a maximal
/// stretch of bytes of it; a run *starts* at a byte of the class whose byte before is not of it, and a run *closes*
/// at a byte not of the class whose byte before is (the text's end is such a byte). "Beyond N in a run" counts
/// the bytes of a run that have N bytes of it before them; counts "at first bytes" count characters, not bytes.
pub mod f {
    /// 1 for any text that is not empty.
    pub const BIAS: usize = 0;
    /// Latin letter runs (words) started.
    pub const LATIN_RUNS: usize = 1;
    /// Latin letters (characters).
    pub const LATIN_CHARS: usize = 2;
    /// Non-ASCII Latin letters.
    pub const LATIN_NONASCII: usize = 3;
    /// ASCII capitals right after an ASCII lowercase letter (`camelCase` has one).
    pub const LATIN_CASE_SPLITS: usize = 4;
    /// Latin letters beyond 8 bytes in a Latin run, at first bytes (long or rare words split into pieces).
    pub const LATIN_LONG: usize = 5;
    /// Ethiopic letters (Amharic, Tigrinya, ...), which are not among [`OTHER_CHARS`]: vocabularies price them
    /// far from the other scripts' (o200k about 1.6 tokens a character, Georgian's and Armenian's about 0.4).
    pub const ETHIOPIC_CHARS: usize = 6;
    /// Cyrillic letter runs started.
    pub const CYR_RUNS: usize = 7;
    /// Cyrillic letters.
    pub const CYR_CHARS: usize = 8;
    /// Greek letter runs started.
    pub const GREEK_RUNS: usize = 9;
    /// Greek letters.
    pub const GREEK_CHARS: usize = 10;
    /// Arabic-script (and Hebrew) letter runs started.
    pub const ARABIC_RUNS: usize = 11;
    /// Arabic-script (and Hebrew) letters.
    pub const ARABIC_CHARS: usize = 12;
    /// Devanagari runs started (letters, vowel signs and viramas all continue a run).
    pub const INDIC_RUNS: usize = 13;
    /// Devanagari letters and signs.
    pub const INDIC_CHARS: usize = 14;
    /// Thai, Lao, Myanmar and Khmer runs started.
    pub const SEA_RUNS: usize = 15;
    /// Thai and Lao characters (digits apart). Myanmar ([`MYANMAR_CHARS`]) and Khmer ([`KHMER_CHARS`]) are
    /// counted apart: they run as Thai does, but what one of their characters costs differs by script and vocabulary
    /// (claude-legacy prices Myanmar below Thai, o200k above).
    pub const SEA_CHARS: usize = 16;
    /// Runs of letters of other scripts started.
    pub const OTHER_RUNS: usize = 17;
    /// Letters of other scripts but Ethiopic ([`ETHIOPIC_CHARS`]).
    pub const OTHER_CHARS: usize = 18;
    /// Han characters.
    pub const HAN_CHARS: usize = 19;
    /// Han runs started.
    pub const HAN_RUNS: usize = 20;
    /// Kana.
    pub const KANA_CHARS: usize = 21;
    /// Kana runs started.
    pub const KANA_RUNS: usize = 22;
    /// Hangul syllables and jamo.
    pub const HANGUL_CHARS: usize = 23;
    /// Hangul runs started.
    pub const HANGUL_RUNS: usize = 24;
    /// CJK punctuation and fullwidth forms, outside repeats.
    pub const CJK_PUNCT: usize = 25;
    /// Digits (characters), ASCII and not.
    pub const DIGITS: usize = 26;
    /// Digit runs started.
    pub const DIGIT_RUNS: usize = 27;
    /// Groups of up to three ASCII digits, counted from each run's start (o200k and cl100k cut digits so).
    pub const DIGIT_GROUPS3: usize = 28;
    /// Khmer characters (its digits and punctuation too), which are not among [`SEA_CHARS`].
    pub const KHMER_CHARS: usize = 29;
    /// ASCII punctuation runs started.
    pub const PUNCT_RUNS: usize = 30;
    /// Other non-ASCII symbols of two bytes (and marks after no letter), outside repeats.
    pub const SYM2: usize = 31;
    /// Other non-ASCII symbols of three bytes (and marks after no letter), outside repeats.
    pub const SYM3: usize = 32;
    /// Other non-ASCII symbols of four bytes, outside repeats.
    pub const SYM4: usize = 33;
    /// Emoji.
    pub const EMOJI: usize = 34;
    /// Emoji modifiers: ZWJ, variation selectors, skin tones, keycaps, tags.
    pub const EMOJI_MODS: usize = 35;
    /// Blank runs of one blank closed.
    pub const SPACES_SINGLE: usize = 36;
    /// Blank runs of two or more closed.
    pub const WS_RUNS: usize = 37;
    /// Blanks right after a blank.
    pub const WS_RUN_CHARS: usize = 38;
    /// Newline runs started.
    pub const NL_RUNS: usize = 39;
    /// Newlines.
    pub const NL_CHARS: usize = 40;
    /// Tabs.
    pub const TABS: usize = 41;
    /// Repeats of ASCII punctuation or controls started.
    pub const REP_RUNS: usize = 42;
    /// Characters in repeats of ASCII punctuation or controls.
    pub const REP_CHARS: usize = 43;
    /// Ends of windows of 16 bytes of ASCII letters, digits, `+` and `/` that hold a digit, a capital and a lowercase
    /// letter: base64.
    pub const B64_CHARS: usize = 44;
    /// Ends of windows of 8 bytes of digits and `a`-`f` (or digits and `A`-`F`) that hold a digit and a letter: hex.
    pub const HEX_CHARS: usize = 45;
    /// Control characters (ASCII but tab, newline, `\r`, `\v`, `\f`; and C1) outside repeats.
    pub const CONTROL: usize = 46;
    /// `\r`, `\v`, `\f` and non-ASCII whitespace.
    pub const OTHER_WS: usize = 47;
    /// UTF-8 lead bytes D4–D5 (U+0500–U+057F: most of the Armenian letters, and the Cyrillic Supplement), read off
    /// the byte histogram. Armenian and Georgian share [`OTHER_CHARS`] and only Georgian has [`BYTE_TALLIES`]' lead
    /// byte E1, so without this count no rate could price Armenian above Georgian (claude-legacy takes 1.75 tokens
    /// a character for one, 1.14 for the other).
    pub const LEAD_D4_D5: usize = 48;
    /// Myanmar characters (digits and punctuation apart), which are not among [`SEA_CHARS`].
    pub const MYANMAR_CHARS: usize = 49;
    /// Letter runs (of any script) started right after a run of exactly one punctuation character.
    pub const WORD_AFTER_PUNCT: usize = 50;
    /// Punctuation runs of exactly one character closed.
    pub const PUNCT_SINGLE: usize = 51;
    /// Letters beyond 16 bytes in a run of letters of alphabetic scripts other than Latin, at first bytes.
    pub const NONLATIN_LONG: usize = 52;
    /// ASCII lowercase letters right after two ASCII capitals (`HTTPServer` has one).
    pub const CAPS_THEN_LOWER: usize = 53;
    /// Ends of windows of 4 ASCII letters and digits that hold both, but for those of [`B64_CHARS`] and
    /// [`HEX_CHARS`].
    pub const MIXED_ALNUM_CHARS: usize = 54;
    /// Letter runs started right after a single backslash (LaTeX commands).
    pub const BACKSLASH_WORDS: usize = 55;
    /// Repeats of ASCII letters started.
    pub const REP_ALPHA_RUNS: usize = 56;
    /// Characters in repeats of ASCII letters.
    pub const REP_ALPHA_CHARS: usize = 57;
    /// Repeats of non-ASCII characters started.
    pub const REP_WIDE_RUNS: usize = 58;
    /// Characters in repeats of non-ASCII characters.
    pub const REP_WIDE_CHARS: usize = 59;
    /// Blanks beyond 16 in a blank run (40,000 spaces are about 313 o200k tokens, not 40,000).
    pub const WS_LONG: usize = 60;
    /// ASCII letters a to z (either case) outside repeats: 26 features from here, read off the byte histogram.
    pub const LETTER_A: usize = 61;
    /// Runs of the Indic scripts after Devanagari (Bengali to Sinhala, U+0980–U+0DFF) started. Their letters are
    /// counted per script (`INDIC2_CHARS + block`, blocks of 128 from U+0980): vocabularies differ by up to 2.5× in
    /// what one of their characters costs, script to script.
    pub const INDIC2_RUNS: usize = 87;
    /// Bengali (and Assamese), Gurmukhi, Gujarati, Odia, Tamil, Telugu, Kannada, Malayalam, Sinhala letters.
    pub const INDIC2_CHARS: usize = 88;
    /// Digit runs started right after a blank: tokenizers that cut digits apart from letters give such a space a
    /// token of its own, where a word would take it as its prefix (` 42` is two tokens, ` word` one).
    pub const DIGITS_AFTER_BLANK: usize = 97;
    /// Letters (at first bytes) of runs of letters of alphabetic scripts other than Latin (Cyrillic, Greek, Arabic,
    /// Indic, ...) that did not start right after a blank: at a line start or after punctuation. Vocabularies hold
    /// these words mostly with their leading space; without it they split into more pieces, more the longer the
    /// word.
    pub const BARE_WORD_CHARS: usize = 98;
    /// Tallies of UTF-8 bytes in the ranges of [`BYTE_TALLY_RANGES`](super::BYTE_TALLY_RANGES) (7 features from
    /// here), read off the byte histogram: characters of one block of code points each (a lead byte), or one
    /// continuation byte. They tell apart languages that share a script's other counts: Polish, Czech or Turkish
    /// from French (Latin Extended-A), Vietnamese (Latin Extended-B and Additional), Hebrew from Arabic, Persian
    /// from Arabic, Ukrainian from Russian (`і ї є` end in bytes 0x94–0x97).
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
    /// Combining marks right after an Arabic-script letter (harakat, shadda, sukun), which count among that script's
    /// letters too: vocabularies hold few vocalised words, so fully diacritised text splits into about twice the
    /// pieces of the same text without its marks. Hebrew's are [`HEBREW_MARKS`].
    pub const ARABIC_MARKS: usize = 165;
    /// Han characters outside the common tier ([`super::kind::is_common_han`]): a rare ideograph is two or three byte
    /// pieces in most vocabularies where a common one is one token or less.
    pub const HAN_RARE: usize = 166;
    /// Combining marks of the Hebrew block (U+0591–U+05C7: niqqud, dagesh, cantillation) right after a Hebrew letter:
    /// as [`ARABIC_MARKS`], but vocabularies split pointed Hebrew differently from vocalised Arabic.
    pub const HEBREW_MARKS: usize = 167;
    /// Han characters of the supplementary planes (U+20000 on: the CJK extensions B to I, four UTF-8 bytes), which
    /// count among [`HAN_RARE`] too: no vocabulary here holds them whole, so they cost their byte pieces (three or
    /// four tokens), where a rare ideograph of the basic plane is one token in a vocabulary that holds it.
    pub const HAN_EXT: usize = 168;
    /// Han characters of CJK Extension A (U+3400–U+4DBF, three UTF-8 bytes), which count among [`HAN_RARE`] too:
    /// a vocabulary that holds many rare ideographs of the main block whole holds few of these, which cost their
    /// byte pieces there.
    pub const HAN_EXT_A: usize = 169;
    /// The Czech and Slovak letters `ě ř ů ď ť ň` (either case; precomposed) outside repeats, which count among the
    /// Latin letters too. The byte tallies cannot tell Czech from Polish (both write most of their accented letters
    /// with lead bytes C4–C5), and some vocabularies hold far fewer Czech words whole: without this count, qwen3's
    /// Czech prose came out about 16% under its true count.
    pub const CS_LETTERS: usize = 170;
}

/// The lead bytes of [`f::LEAD_D4_D5`], inclusive (U+0500–U+057F): a tally of its own, outside
/// [`BYTE_TALLY_RANGES`], because it took the place of a count that had fallen idle.
pub const ARMENIAN_LEADS: (u8, u8) = (0xd4, 0xd5);

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
    "ethiopic_chars",
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
    "khmer_chars",
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
    "lead_d4_d5",
    "myanmar_chars",
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
    "arabic_marks",
    "han_rare",
    "hebrew_marks",
    "han_ext",
    "han_ext_a",
    "cs_letters",
];

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
    /// The characters in repeats, by character (what the run tables price).
    pub runs: Runs,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            v: [0; NF],
            chars: 0,
            bytes: 0,
            class_chars: [0; Class::COUNT],
            signals: Signals::default(),
            runs: Runs::NEW,
        }
    }
}

/// The characters in repeats, by character: a long run of one character costs what the vocabulary's longest token
/// of that character allows (100,000 `=` are 1,562 o200k tokens, 64 to a token; 100,000 `!` are 6,250), which
/// the linear rates, fitted on text whose repeats are short, cannot know. The estimator prices these with the run
/// tables measured from each profile's tokenizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Runs {
    /// ASCII characters in repeats ([`f::REP_CHARS`] and [`f::REP_ALPHA_CHARS`]), by byte value.
    pub ascii: [u64; 128],
    /// Non-ASCII characters in repeats ([`f::REP_WIDE_CHARS`]), by [`kind`].
    pub wide: [u64; kind::COUNT],
    /// Those of them outside the common tier of their block ([`kind::is_rare_in_run`]: `┻`, `쬹`, a rare
    /// ideograph), by kind: each costs its byte pieces in most vocabularies, where the kind's measured characters
    /// (its commonest) cost a token or merge, and the estimate prices them at the kind's rare characters' rate.
    pub wide_rare: [u64; kind::COUNT],
    /// Their UTF-8 bytes: no tokenizer here emits more tokens for a character than its bytes, so a run of a rare
    /// character, which costs more than its kind's measured ones, is never priced above this.
    pub wide_bytes: u64,
    /// Bytes in periodic windows: the 16 bytes up to a byte `i` such that, for a period `p` of 2, 3 or
    /// 4, they are ASCII punctuation or letters outside repeats or blanks that follow fewer than three blanks, one
    /// of the last `p` punctuation (or all 16 ASCII letters, `i` past the 64th byte of a run of Latin letters: see
    /// [`Runs::periodic_plain`]), and each of the last `16 - p` equals the one `p` before it (16 bytes of a unit
    /// repeated: `=-=-=-=-=-=-=-=-`, `. . . . . . . . `, `x\\x\\...`, `]uC]uC...`, `YCYC...`). Each byte counts once,
    /// however many windows hold it: a pattern's first unit costs what the rest do.
    /// What such a pattern costs depends on whether the vocabulary holds its unit's runs (o200k: `=-` × 100,000 is
    /// 12,500 tokens, `(,` × 5,652 is 5,653), which nothing short of the vocabulary knows: the band spans it.
    pub periodic: u64,
    /// The letters among [`Runs::periodic`]'s bytes.
    pub periodic_letters: u64,
    /// The blanks among [`Runs::periodic`]'s bytes.
    pub periodic_blanks: u64,
    /// The bytes of [`Runs::periodic`] in windows of letters alone: 16 ASCII letters of a unit of 2, 3 or 4
    /// repeated, the last of them past the 64th byte of a run of Latin letters with no space (`YCYC...`,
    /// `ZuZu...`; no word is that long, so words never count). All of them are in [`Runs::long_letters`] too.
    pub periodic_plain: u64,
    /// How many bytes end a periodic window of period 2, 3 and 4 whose unit (its last `p` bytes) is punctuation
    /// alone, then of period 2, 3 and 4 with a blank in the unit and no letter, then with a letter, then of letters
    /// alone ([`Runs::periodic_plain`]; a window of period 2 is one of period 4 too): what a pattern costs a byte
    /// depends mostly on its period and on what its unit holds, which the tokenizers' pre-tokenizers split at (o200k:
    /// most units of period 2 cost a token, of period 3 two tokens, `=& ` one), and the estimate prices the bytes by
    /// that.
    pub periodic_ends: [u64; 12],
    /// Bytes of Latin letters in runs of more than [`LONG_RUN`] of them, the whole run: no word is that long, and a
    /// run of letters with no space in it (a DNA sequence, `YCYCYC...`, a generator's output) may cost up to a token
    /// a letter where words cost a fifth of that. The band allows it (bytes, at least the letters: a bound).
    pub long_letters: u64,
}

/// The bytes of a periodic window (see [`Runs::periodic`]).
pub const WINDOW: u32 = 16;

/// How many bytes of Latin letters in a row a word may have before [`Runs::long_letters`] counts the run: one
/// block, so the previous block's mask tells it.
pub const LONG_RUN: u32 = BLOCK as u32;

/// The non-ASCII kinds whose characters repeat (see [`kind::merges`]), in the order of the run tables' rows.
pub const RUN_WIDE_KINDS: [Kind; 30] = {
    let mut out = [0; 30];
    let mut n = 0;
    let mut k = 0;
    while k < kind::COUNT as Kind {
        if kind::merges(k) && k >= K_LATLO {
            out[n] = k;
            n += 1;
        }
        k += 1;
    }
    assert!(
        n == out.len(),
        "every non-ASCII kind that repeats has a row"
    );
    out
};

impl Runs {
    /// No repeat seen.
    pub const NEW: Runs = Runs {
        ascii: [0; 128],
        wide: [0; kind::COUNT],
        wide_rare: [0; kind::COUNT],
        wide_bytes: 0,
        periodic: 0,
        periodic_letters: 0,
        periodic_blanks: 0,
        periodic_plain: 0,
        periodic_ends: [0; 12],
        long_letters: 0,
    };
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
            f::HAN_CHARS..=f::CJK_PUNCT | f::HAN_RARE | f::HAN_EXT | f::HAN_EXT_A => Class::Cjk,
            f::DIGITS..=f::DIGIT_GROUPS3 | f::DIGITS_AFTER_BLANK => Class::Digits,
            f::PUNCT_RUNS | f::PUNCT_SINGLE => Class::Punctuation,
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

/// What stands past the end of the text in the last window: a byte that never occurs in UTF-8, so equals nothing
/// in it.
const PAD: u8 = 0xff;

/// A non-ASCII character in a repeat, in the block's table of kinds: its kind with this bit, so no kind's count takes
/// it, and a mark after it still finds its kind.
const REP: u8 = 0x80;

/// The non-ASCII characters (of two or three bytes) from which a block's entries are looked up by vector.
const VECTOR_FROM: u64 = 12;

// Mask slots for the non-ASCII kinds that runs are made of: accented Latin letters, non-ASCII digits, non-ASCII
// whitespace, then one slot per script of [`SCRIPT_RUNS`] (the first seven alphabetic, the last three CJK).
const S_NONE: u8 = 0;
const S_LAT: usize = 1;
const S_ND: usize = 2;
const S_NWS: usize = 3;
const S_SCRIPT: usize = 4;
const NSLOT: usize = S_SCRIPT + SCRIPT_RUNS.len();
/// Slots of the alphabetic scripts other than Latin.
const S_ALPHA: std::ops::Range<usize> = S_SCRIPT..S_SCRIPT + 7;

/// The runs feature of each script slot, in slot order.
const SCRIPT_RUNS: [usize; 10] = [
    f::CYR_RUNS,
    f::GREEK_RUNS,
    f::ARABIC_RUNS,
    f::INDIC_RUNS,
    f::INDIC2_RUNS,
    f::SEA_RUNS,
    f::OTHER_RUNS,
    f::HAN_RUNS,
    f::KANA_RUNS,
    f::HANGUL_RUNS,
];

/// The mask slot of each kind.
const SLOT: [u8; kind::COUNT] = {
    let mut t = [S_NONE; kind::COUNT];
    t[K_LATLO as usize] = S_LAT as u8;
    t[K_LATUP as usize] = S_LAT as u8;
    t[K_NDIG as usize] = S_ND as u8;
    t[K_NWS as usize] = S_NWS as u8;
    t[K_CYR as usize] = S_SCRIPT as u8;
    t[K_CYRX as usize] = S_SCRIPT as u8;
    t[K_GRK as usize] = S_SCRIPT as u8 + 1;
    t[K_ARB as usize] = S_SCRIPT as u8 + 2;
    t[K_IND as usize] = S_SCRIPT as u8 + 3;
    let mut i = 0;
    while i < 9 {
        t[K_IND2 as usize + i] = S_SCRIPT as u8 + 4;
        i += 1;
    }
    t[K_SEA as usize] = S_SCRIPT as u8 + 5;
    t[K_MYA as usize] = S_SCRIPT as u8 + 5;
    t[K_KHM as usize] = S_SCRIPT as u8 + 5;
    t[K_OTH as usize] = S_SCRIPT as u8 + 6;
    t[K_ETH as usize] = S_SCRIPT as u8 + 6;
    t[K_HAN as usize] = S_SCRIPT as u8 + 7;
    t[K_KANA as usize] = S_SCRIPT as u8 + 8;
    t[K_HANG as usize] = S_SCRIPT as u8 + 9;
    t
};

/// What a block leaves for the next one: its masks (bit 63 is its last byte) and the state of what runs on.
#[derive(Debug, Clone, Copy)]
struct Carry {
    lower: u64,
    upper: u64,
    /// Latin letters (ASCII and not).
    latin: u64,
    blank: u64,
    newline: u64,
    punct: u64,
    /// Digits, ASCII and not; and the ASCII ones.
    digits: u64,
    ascii_digits: u64,
    /// Letters of alphabetic scripts other than Latin.
    alpha: u64,
    /// Bytes in runs of non-Latin words that did not follow a blank.
    bare: u64,
    /// Windows of four equal bytes of a merging ASCII kind (bit `i`: bytes `i..i + 4`), and the bytes they cover.
    quads: u64,
    repeats: u64,
    same_next: u64,
    /// The block's last 16 bytes, little-endian (the next block's encoded-string windows look back into them).
    last16: u128,
    /// The length of the ASCII digit run that ends the block, as [`cap_digit_run`] keeps it.
    digit_run: u32,
    /// The run of Latin letters that ends the block is longer than [`LONG_RUN`] bytes (its bytes so far counted).
    long_run: bool,
    /// The block's bytes in periodic windows, of its last 16 (bits 48 to 63), already counted.
    periodic_tail: u64,
    /// Those of them in windows of letters alone.
    plain_tail: u64,
    /// The block's bytes that pass the periodic windows' first test.
    loose: u64,
    /// No block has been scanned yet (the text's start counts as a line start).
    start: bool,
}

impl Carry {
    const NEW: Carry = Carry {
        lower: 0,
        upper: 0,
        latin: 0,
        blank: 0,
        newline: 0,
        punct: 0,
        digits: 0,
        ascii_digits: 0,
        alpha: 0,
        bare: 0,
        quads: 0,
        repeats: 0,
        same_next: 0,
        last16: 0,
        digit_run: 0,
        long_run: false,
        periodic_tail: 0,
        plain_tail: 0,
        loose: 0,
        start: true,
    };
}

/// What a block's non-ASCII characters leave for the next block.
#[derive(Debug, Clone, Copy)]
struct Chars {
    /// The script slot of the block's last byte, or 0.
    script: u8,
    /// The kind of the block's last character.
    kind: Kind,
    /// The last character of a merging kind: where it ended, counted from the start of the next block (0: right
    /// at it), its bytes, and whether it was in a repeat.
    merge_end: i32,
    merge_bytes: u32,
    merge_repeat: bool,
    /// Bytes of a character cut by the block's end, at the start of the next block: how many, and the mask slot
    /// they go to (none for a repeat).
    spill: u8,
    spill_slot: u8,
}

/// A position counted from one block's start, counted from the next block's. Wrapping: from `i32::MIN / 2` it
/// takes 3 GiB of text without a merging character to come back round to a place in a block (no panic on the
/// way, as a plain subtraction would give in a debug build after 1 GiB).
#[inline(always)]
fn shift_back(end: i32) -> i32 {
    end.wrapping_sub(BLOCK as i32)
}

impl Chars {
    const NEW: Chars = Chars {
        script: 0,
        kind: K_NL,
        merge_end: i32::MIN / 2,
        merge_bytes: 0,
        merge_repeat: false,
        spill: 0,
        spill_slot: S_NONE,
    };
}

/// What the non-ASCII characters of a block add to its masks.
#[derive(Default)]
struct NonAscii {
    /// Accented Latin letters, non-ASCII digits, non-ASCII whitespace.
    latin: u64,
    digits: u64,
    space: u64,
    /// Letters of alphabetic scripts other than Latin.
    alpha: u64,
    /// First bytes of runs of letters of a script other than Latin.
    starts: u64,
}

/// The streaming scanner. Feed it text in any number of pieces, then read [`Scanner::features`].
///
/// The text is scanned in blocks of 64 bytes at fixed offsets from its start, whatever the pieces: a piece's bytes
/// that do not fill a block (with the 16 bytes after it that classifying it reads) wait in a buffer for the next
/// piece, and the last ones are scanned when the features are read. So every count is the same however the text
/// is cut. A block is classified into bitmasks (bit `i` for byte `i`; 32 bytes at a time with AVX2 where the CPU
/// has it, 16 with SSE2 on other x86-64 CPUs, 8 on `u64` elsewhere), its non-ASCII characters are looked up in
/// [`kind`]'s tables one by one, and every count is a popcount of masks shifted against the previous block's. Per-character counts of ASCII (letter
/// frequencies, each capital and punctuation character, digits, whitespace) come from a byte histogram, which a long
/// piece's blocks count in the block loop (one pass over the text). Nothing allocates.
#[derive(Debug, Clone)]
pub struct Scanner {
    v: [u64; NF],
    /// Non-ASCII characters outside repeats, by kind.
    kinds: [u64; kind::COUNT],
    /// Every byte scanned, by value, less the ASCII characters in repeats.
    hist: [u64; 256],
    indented_lines: u64,
    /// The characters in repeats, by character (their totals are summed from these).
    runs: Runs,
    bytes: u64,
    first_nonspace: Option<char>,
    c: Carry,
    na: Chars,
    /// Bytes not yet scanned (fewer than a window's).
    tail: [u8; WIN],
    tail_len: u8,
    // Bytes of a UTF-8 sequence split across `feed_bytes` calls.
    partial: [u8; 4],
    partial_len: u8,
    lossy: bool,
    /// The block's lead bytes C4 and C5 (Latin Extended-A), for [`f::CS_LETTERS`].
    latin_a: u64,
}

impl Default for Scanner {
    fn default() -> Self {
        Self::new()
    }
}

/// The block loop's histogram: eight tables of counts, which it takes turns at.
type Tables8 = [[u32; 256]; 8];

/// Whether the CPU has every feature the x86-64-v3 builds of the block ([`Scanner::blocks_v3`],
/// [`Scanner::block_v3`]) are compiled with: AVX2, BMI1 and BMI2, LZCNT, POPCNT (detected once, then cached).
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_v3() -> bool {
    use std::arch::is_x86_feature_detected as has;
    has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt") && has!("popcnt")
}

/// The population count (`popcnt` where the block loop is compiled for it).
#[inline(always)]
fn pc(x: u64) -> u64 {
    x.count_ones() as u64
}

/// `x` seen one byte back: bit `i` is bit `i - 1`, bit 0 the previous block's last.
#[inline(always)]
fn back1(x: u64, prev: u64) -> u64 {
    (x << 1) | (prev >> 63)
}

/// `x` seen two bytes back.
#[inline(always)]
fn back2(x: u64, prev: u64) -> u64 {
    (x << 2) | (prev >> 62)
}

/// A block's mask after the previous block's: bits 64.. are this block's.
#[inline(always)]
fn join(x: u64, prev: u64) -> u128 {
    ((x as u128) << 64) | prev as u128
}

/// This block's half of a joined mask.
#[inline(always)]
fn half(x: u128) -> u64 {
    (x >> 64) as u64
}

/// Bits where `x` holds at this byte and the 3 before (`all4`), 7 before (`all8`), 15 before (`all16`).
#[inline(always)]
fn all4(x: u128) -> u128 {
    let t2 = x & (x << 1);
    t2 & (t2 << 2)
}

#[inline(always)]
fn all8(x: u128) -> u128 {
    let t4 = all4(x);
    t4 & (t4 << 4)
}

#[inline(always)]
fn all16(x: u128) -> u128 {
    let t8 = all8(x);
    t8 & (t8 << 8)
}

/// Bits where `x` holds at this byte or one of the 3 before (`any4`), 7 before (`any8`), 15 before (`any16`).
#[inline(always)]
fn any4(x: u128) -> u128 {
    let o2 = x | (x << 1);
    o2 | (o2 << 2)
}

#[inline(always)]
fn any8(x: u128) -> u128 {
    let o4 = any4(x);
    o4 | (o4 << 4)
}

#[inline(always)]
fn any16(x: u128) -> u128 {
    let o8 = any8(x);
    o8 | (o8 << 8)
}

/// An ASCII digit run's length as carried: exact up to 63, beyond that only its length modulo 3 matters (digit
/// groups are counted from the run's start, three digits each).
#[inline(always)]
fn cap_digit_run(n: u32) -> u32 {
    if n <= 63 {
        n
    } else {
        60 + n % 3
    }
}

/// The top `n` bits (`n` at most 64).
#[inline(always)]
fn top_bits(n: u32) -> u64 {
    if n == 0 {
        0
    } else {
        !0u64 << (64 - n)
    }
}

/// Four bytes of the window from `j`, little-endian.
#[inline(always)]
fn load32(w: &[u8; WIN], j: usize) -> u32 {
    u32::from_le_bytes([w[j], w[j + 1], w[j + 2], w[j + 3]])
}

impl Scanner {
    /// A scanner that has seen nothing.
    pub const fn new() -> Self {
        Scanner {
            v: [0; NF],
            kinds: [0; kind::COUNT],
            hist: [0; 256],
            indented_lines: 0,
            runs: Runs::NEW,
            bytes: 0,
            first_nonspace: None,
            c: Carry::NEW,
            na: Chars::NEW,
            tail: [0; WIN],
            tail_len: 0,
            partial: [0; 4],
            partial_len: 0,
            lossy: false,
            latin_a: 0,
        }
    }

    /// Scans a piece of text.
    pub fn feed(&mut self, text: &str) {
        self.flush_partial_as_invalid();
        self.bytes += text.len() as u64;
        self.push(text.as_bytes());
    }

    /// Scans a piece of valid UTF-8 (cut anywhere, even inside a character).
    fn push(&mut self, mut input: &[u8]) {
        if input.is_empty() {
            return;
        }
        // A long piece's blocks count their bytes into the histogram in the block loop, while they are at hand; the
        // bytes around them (the buffered block's, the rest) are counted here. A short piece is counted here whole.
        let fused = input.len() >= 1024;
        if !fused {
            self.histogram(input);
        }
        let whole = input;
        // Finish the block the buffer holds the start of.
        while self.tail_len > 0 {
            let t = self.tail_len as usize;
            if t + input.len() < WIN {
                self.tail[t..t + input.len()].copy_from_slice(input);
                self.tail_len += input.len() as u8;
                if fused {
                    self.histogram(whole);
                }
                return;
            }
            let mut w = [0u8; WIN];
            w[..t].copy_from_slice(&self.tail[..t]);
            w[t..].copy_from_slice(&input[..WIN - t]);
            self.block_once(&w, BLOCK);
            if t > BLOCK {
                self.tail.copy_within(BLOCK..t, 0);
                self.tail_len -= BLOCK as u8;
            } else {
                input = &input[BLOCK - t..];
                self.tail_len = 0;
            }
        }
        if fused {
            self.histogram(&whole[..whole.len() - input.len()]);
        }
        let done = self.blocks(input, fused);
        let rest = &input[done..];
        if fused {
            self.histogram(rest);
        }
        self.tail[..rest.len()].copy_from_slice(rest);
        self.tail_len = rest.len() as u8;
    }

    /// Scans every block of `input` that has a window's bytes in it, in place; returns how many bytes it took.
    /// With `count`, the blocks' bytes go into the histogram too, through eight tables of the stack (8 KB, zeroed
    /// only then: a short piece, counted apart, does not pay for them).
    fn blocks(&mut self, input: &[u8], count: bool) -> usize {
        let mut tables;
        let t = if count {
            tables = [[0u32; 256]; 8];
            Some(&mut tables)
        } else {
            None
        };
        #[cfg(target_arch = "x86_64")]
        {
            if has_v3() {
                // SAFETY: the CPU has every feature `blocks_v3` is compiled with beyond the target's own
                // (detected just above).
                #[allow(unsafe_code)]
                return unsafe { self.blocks_v3(input, t) };
            }
            if std::arch::is_x86_feature_detected!("popcnt") {
                // SAFETY: as above, for `popcnt`.
                #[allow(unsafe_code)]
                return unsafe { self.blocks_popcnt(input, t) };
            }
        }
        self.blocks_here(input, classify::Portable, t)
    }

    /// [`Scanner::blocks`] compiled for x86-64-v3 CPUs (2013 on: AVX2, BMI1 and BMI2, LZCNT, POPCNT), classifying
    /// 32 bytes at a time: a block takes about a quarter fewer instructions (`andn`, `shlx`, three-operand vector
    /// forms, a population count in one instruction).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    #[allow(unsafe_code)]
    unsafe fn blocks_v3(&mut self, input: &[u8], t: Option<&mut Tables8>) -> usize {
        // SAFETY: this runs only on CPUs with AVX2 (see `blocks`).
        self.blocks_here(input, unsafe { classify::Avx2::new() }, t)
    }

    /// [`Scanner::blocks`] compiled with the `popcnt` instruction: without it, each of a block's few dozen
    /// population counts is a dozen instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    #[allow(unsafe_code)]
    unsafe fn blocks_popcnt(&mut self, input: &[u8], t: Option<&mut Tables8>) -> usize {
        self.blocks_here(input, classify::Portable, t)
    }

    /// The block loop, each build of it: the previous block's masks stay in a local from block to block.
    #[inline(always)]
    fn blocks_here<C: Classes>(
        &mut self,
        input: &[u8],
        cl: C,
        mut t: Option<&mut Tables8>,
    ) -> usize {
        let mut p = 0;
        let mut carry = self.c;
        // The byte histogram of the blocks, when the loop counts their bytes (a long piece): eight tables in turn,
        // so that runs of one byte do not wait on the previous increment of the same counter, read eight bytes at a
        // time (one load where each byte took one), while the block is at hand (one pass over the text: 3% off the
        // mixed text's time, where the histogram took a pass of its own). Each table takes 8 bytes of a block, so
        // none overflows in the 2^29 blocks before they are folded in.
        let mut since = 0u32;
        while let Some(w) = input.get(p..p + WIN) {
            if let Ok(w) = <&[u8; WIN]>::try_from(w) {
                if let Some(t) = t.as_deref_mut() {
                    for r in w[..BLOCK].chunks_exact(16) {
                        let a = u64::from_le_bytes(r[..8].try_into().unwrap_or_default());
                        let b = u64::from_le_bytes(r[8..].try_into().unwrap_or_default());
                        for k in 0..8 {
                            t[k & 3][(a >> (8 * k)) as u8 as usize] += 1;
                            t[4 + (k & 3)][(b >> (8 * k)) as u8 as usize] += 1;
                        }
                    }
                    since += 1;
                    if since == 1 << 28 {
                        self.fold_tables(t);
                        since = 0;
                    }
                }
                if cfg!(target_arch = "wasm32") {
                    // One build of the block in the npm estimate module, which has a size budget: the loop calls
                    // it as `block_once` does.
                    self.block_out(&mut carry, w, BLOCK);
                } else {
                    self.block(&mut carry, cl, w, BLOCK);
                }
            }
            p += BLOCK;
        }
        if let Some(t) = t {
            self.fold_tables(t);
        }
        self.c = carry;
        p
    }

    /// Adds the histogram's eight tables into `hist` and clears them. The block loop takes repeats' bytes out of
    /// `hist` before their block's counts come in, so `hist` wraps below zero for a while: every count is exact
    /// again once the tables are in (arithmetic modulo 2^64).
    fn fold_tables(&mut self, t: &mut Tables8) {
        for (i, h) in self.hist.iter_mut().enumerate() {
            *h = h.wrapping_add(t.iter().map(|r| r[i] as u64).sum::<u64>());
        }
        *t = [[0; 256]; 8];
    }

    /// Every byte of a short piece into `hist` (a long piece's blocks count theirs in the block loop).
    fn histogram(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.hist[b as usize] = self.hist[b as usize].wrapping_add(1);
        }
    }

    /// One block outside the block loop (the one that completes the buffer, the text's last ones): a short text's
    /// last block is most of its scan, so on an x86-64-v3 CPU it is classified 32 bytes at a time too.
    fn block_once(&mut self, w: &[u8; WIN], m: usize) {
        let mut carry = self.c;
        #[cfg(target_arch = "x86_64")]
        if has_v3() {
            // SAFETY: the CPU has every feature `block_v3` is compiled with (detected just above).
            #[allow(unsafe_code)]
            unsafe {
                self.block_v3(&mut carry, w, m)
            };
            self.c = carry;
            return;
        }
        self.block_out(&mut carry, w, m);
        self.c = carry;
    }

    /// [`Scanner::block`] compiled as [`Scanner::blocks_v3`] is, for one block.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    #[allow(unsafe_code)]
    unsafe fn block_v3(&mut self, carry: &mut Carry, w: &[u8; WIN], m: usize) {
        // SAFETY: this runs only on CPUs with AVX2 (see `block_once`).
        self.block(carry, unsafe { classify::Avx2::new() }, w, m);
    }

    /// [`Scanner::block`], portable, built once: outside the block loop (but on x86-64-v3 CPUs), and in wasm inside
    /// it too.
    #[inline(never)]
    fn block_out(&mut self, carry: &mut Carry, w: &[u8; WIN], m: usize) {
        self.block(carry, classify::Portable, w, m);
    }

    /// One block: the first `m` bytes of `w` (64 but for the text's last block), the rest of the window read
    /// ahead (or [`PAD`] past the text's end).
    #[inline(always)]
    fn block<C: Classes>(&mut self, carry: &mut Carry, cl: C, w: &[u8; WIN], m: usize) {
        let valid = if m >= BLOCK { !0 } else { (1u64 << m) - 1 };
        let b = cl.classify(w);
        let c = *carry;
        let high = b.high & valid;
        let cont = if high != 0 {
            cl.continuation(w) & valid
        } else {
            0
        };
        let leads = valid & !cont;
        let digit = b.digit & valid;
        let blank = b.blank & valid;
        let newline = b.newline & valid;
        let printable = b.printable & valid;
        let rare = valid & !(high | printable | blank | newline);
        let mut letter = b.letter & valid;
        let mut punct = printable & !(letter | digit);
        let (other_ws, control) = if rare != 0 {
            split_rare(w, rare)
        } else {
            (0, 0)
        };
        // ASCII repeats: bytes in a window of four equal bytes of a merging kind (letters, punctuation, controls).
        let e = (b.same_next as u128)
            | (((w[BLOCK] == w[BLOCK + 1]) as u128) << 64)
            | (((w[BLOCK + 1] == w[BLOCK + 2]) as u128) << 65);
        let quads = (e & (e >> 1) & (e >> 2)) as u64 & (letter | punct | control);
        let q = join(quads, c.quads);
        let repeats = half(q | (q << 1) | (q << 2) | (q << 3));
        if repeats != 0 {
            self.ascii_repeats(w, repeats, letter, b.same_next, c.same_next, c.repeats);
            letter &= !repeats;
            punct &= !repeats;
        }
        // Short periodic patterns of punctuation, blanks or letters among it or not (`=-=-`, `-.-.`, `<><>`,
        // `. . . `, `x\\x\\`): looked for only where 13 bytes in a row (a window's last, at least) are punctuation,
        // letters or blanks with punctuation at most three bytes back (a word longer than three letters, a digit, a
        // line's end break it), then where the kinds of those bytes repeat with a period of 2, 3 or 4. Few blocks
        // pass the first test, fewer the second; each lets through a superset of the blocks where a window ends.
        let p1 = back1(punct, c.punct);
        let prev_letter = c.lower | c.upper;
        // Punctuation in the last 4 bytes (a unit's at most).
        let two = punct | p1;
        let near4 = two | (two << 2) | if c.punct >> 61 != 0 { 7 } else { 0 };
        let loose = (punct | letter | blank) & near4;
        let gate = all_joined(loose, c.loose, 13);
        let upper = b.upper & letter;
        let lower = letter & !upper;
        let na = if high != 0 {
            self.latin_a = cl.equal(w, 0xc4) | cl.equal(w, 0xc5);
            self.non_ascii(cl, w, high, cont)
        } else {
            self.na.spill = 0;
            self.na.spill_slot = S_NONE;
            self.na.script = 0;
            self.na.kind = kind::of_ascii_byte(w[BLOCK - 1]);
            // No merging character can stand right before the next block's first one now. Left in place, the last
            // one's end read as ending right before a same character at the start of the block after next (fuzz:
            // scan_oracle).
            self.na.merge_end = i32::MIN / 2;
            NonAscii::default()
        };
        let v = &mut self.v;
        // Latin words.
        let latin = letter | na.latin;
        let latin_starts = latin & !back1(latin, c.latin);
        v[f::LATIN_RUNS] += pc(latin_starts);
        // Runs of letters longer than `LONG_RUN` (a block's) bytes: only a run that comes in from the previous
        // block is that long, so only the block's first bytes can make it so. The run's bytes are counted where it
        // passes that length (all of them so far), then as they come.
        // Tested without a branch on whether a run crosses into the block (about as often as not in text): a run
        // longer than a block's bytes is rare.
        let (before, head) = (c.latin.leading_ones(), latin.trailing_ones());
        let (long_run, deep) = if before + head > LONG_RUN {
            // A run counted already came in from a whole block of letters: its `before` bytes were counted.
            self.runs.long_letters += u64::from(before + head - LONG_RUN * u32::from(c.long_run));
            // The run's bytes past its 64th: a window of letters alone ends only there (some of the block's, as the
            // run is longer than 64 bytes; a run counted already came in from a whole block: `before` is 64).
            let from = if c.long_run { 0 } else { LONG_RUN - before };
            let deep = (u64::MAX >> (BLOCK as u32 - head)) & (u64::MAX << from);
            (head == BLOCK as u32, deep & letter)
        } else {
            (false, 0)
        };
        let (periodic_tail, plain_tail) = if gate | deep != 0 {
            let prev = [c.punct, prev_letter, c.blank];
            let masks = [punct, letter, blank];
            periodic(
                &mut self.runs,
                w,
                masks,
                prev,
                [gate, deep],
                c.last16,
                [c.periodic_tail, c.plain_tail],
            )
        } else {
            // No window ends here, so none of these bytes is in one yet (a window is 16 bytes).
            (0, 0)
        };
        {
            let x = join(latin, c.latin);
            let t8 = all8(x);
            if half(t8) != 0 {
                let t9 = t8 & (x << 8);
                v[f::LATIN_LONG] += pc(half(t9) & leads);
            }
        }
        if upper != 0 || c.upper >> 62 != 0 {
            let (u1, u2) = (back1(upper, c.upper), back2(upper, c.upper));
            v[f::LATIN_CASE_SPLITS] += pc(upper & back1(lower, c.lower));
            v[f::CAPS_THEN_LOWER] += pc(lower & u1 & u2);
        }
        // Punctuation, and words right after one punctuation character.
        let p2 = back2(punct, c.punct);
        v[f::PUNCT_RUNS] += pc(punct & !p1);
        v[f::PUNCT_SINGLE] += pc(!punct & p1 & !p2);
        let after = (latin_starts | na.starts) & p1 & !p2;
        if after != 0 {
            v[f::WORD_AFTER_PUNCT] += pc(after);
            let last_byte = (c.last16 >> 120) as u8;
            let bs = back1(
                cl.equal(w, b'\\') & punct,
                c.punct & ((last_byte == b'\\') as u64) << 63,
            );
            v[f::BACKSLASH_WORDS] += pc(after & bs);
        }
        // Digits: runs, runs right after a blank, groups of three from each ASCII run's start.
        let digits = digit | na.digits;
        let s1 = back1(blank, c.blank);
        if digits != 0 {
            let d_starts = digits & !back1(digits, c.digits);
            v[f::DIGIT_RUNS] += pc(d_starts);
            v[f::DIGITS_AFTER_BLANK] += pc(d_starts & s1);
        }
        if digit != 0 {
            let x = join(digit, top_bits(c.digit_run));
            let three = x & (x << 1) & (x << 2);
            let mut g = x & !(x << 1);
            let mut all = g;
            while g != 0 {
                g = (g << 3) & three;
                all |= g;
            }
            v[f::DIGIT_GROUPS3] += pc(half(all));
        }
        let digit_run = match digit.leading_ones() {
            64 => cap_digit_run(c.digit_run + 64),
            n => n,
        };
        // Whitespace: runs closed here (one blank, or longer), blanks after a blank, blanks beyond 16 in a run.
        let s2 = back2(blank, c.blank);
        v[f::SPACES_SINGLE] += pc(!blank & s1 & !s2);
        v[f::WS_RUNS] += pc(!blank & s1 & s2);
        let doubled = blank & s1;
        v[f::WS_RUN_CHARS] += pc(doubled);
        if doubled != 0 {
            let x = join(blank, c.blank);
            v[f::WS_LONG] += pc(half(all16(x) & (x << 16)));
        }
        v[f::NL_RUNS] += pc(newline & !back1(newline, c.newline));
        let line_start = (c.newline >> 63) | c.start as u64;
        self.indented_lines += pc(blank & ((newline << 1) | line_start));
        // Encoded strings, counted at the end of each window: 16 of base64's alphabet with a digit, a capital and a
        // lowercase letter; 8 hex digits of one case with a digit and a letter; else 4 letters and digits with
        // both. Every one needs a digit.
        if digit != 0 || c.ascii_digits >> 49 != 0 {
            // `+`, `/` and hex letters of the previous block's last 16 bytes, where they were in it.
            let (ps, hex) = classify::plus_slash_hex16(&c.last16.to_le_bytes());
            let (ps, hex) = ((ps << 48) & c.punct, (hex << 48) & (c.lower | c.upper));
            let plus_slash = cl.plus_slash(w) & punct;
            let hex_letters = cl.hex_letters(w) & letter;
            let alnum = letter | digit;
            let prev_alnum = c.lower | c.upper | c.ascii_digits;
            let dg = join(digit, c.ascii_digits);
            // Where a window of 8 of base64's alphabet ends: the only places a hex window can (its bytes are
            // among them), and base64's window of 16 is one step on.
            let ab8 = all8(join(alnum | plus_slash, prev_alnum | ps));
            let (b64, hex) = if half(ab8) != 0 {
                let b64 = half(ab8 & (ab8 << 8));
                let b64 = if b64 != 0 {
                    b64 & half(
                        any16(dg) & any16(join(upper, c.upper)) & any16(join(lower, c.lower)),
                    )
                } else {
                    0
                };
                let hexl = half(all8(join(
                    digit | (lower & hex_letters),
                    c.ascii_digits | (c.lower & hex),
                )));
                let hexu = half(all8(join(
                    digit | (upper & hex_letters),
                    c.ascii_digits | (c.upper & hex),
                )));
                let hex = if hexl | hexu != 0 {
                    (hexl | hexu) & half(any8(dg) & any8(join(hex_letters, hex)))
                } else {
                    0
                };
                (b64, hex)
            } else {
                (0, 0)
            };
            let d4 = half(any4(dg));
            let mixed = if d4 != 0 {
                half(all4(join(alnum, prev_alnum)))
                    & d4
                    & half(any4(join(letter, c.lower | c.upper)))
                    & !(b64 | hex)
            } else {
                0
            };
            v[f::B64_CHARS] += pc(b64);
            v[f::HEX_CHARS] += pc(hex);
            v[f::MIXED_ALNUM_CHARS] += pc(mixed);
        }
        // Letters of other alphabets: beyond 16 bytes in a run, and those of words that did not follow a blank.
        let alpha = na.alpha;
        let bare = if alpha != 0 {
            let x = join(alpha, c.alpha);
            v[f::NONLATIN_LONG] += pc(half(all16(x) & (x << 16)) & leads);
            // A word's first byte seeds it; the seed's carry runs through the word and out of it.
            let seeds = (alpha & !back1(alpha, c.alpha) & !s1) | (alpha & (c.bare >> 63));
            let bare = alpha & (alpha.wrapping_add(seeds) ^ alpha);
            v[f::BARE_WORD_CHARS] += pc(bare & leads);
            bare
        } else {
            0
        };
        if self.first_nonspace.is_none() {
            let ns = leads & !(blank | newline | other_ws | na.space);
            if ns != 0 {
                let j = ns.trailing_zeros() as usize;
                self.first_nonspace = first_char(&w[j..]);
            }
        }
        let mut last16 = [0; 16];
        last16.copy_from_slice(&w[BLOCK - 16..BLOCK]);
        let last16 = u128::from_le_bytes(last16);
        let n = carry;
        n.lower = lower;
        n.upper = upper;
        n.latin = latin;
        n.blank = blank;
        n.newline = newline;
        n.punct = punct;
        n.digits = digits;
        n.ascii_digits = digit;
        n.alpha = alpha;
        n.bare = bare;
        n.quads = quads;
        n.repeats = repeats;
        n.same_next = b.same_next;
        n.last16 = last16;
        n.digit_run = digit_run;
        n.long_run = long_run;
        n.periodic_tail = periodic_tail;
        n.plain_tail = plain_tail;
        n.loose = loose;
        n.start = false;
    }

    /// The ASCII repeats of a block (`repeats`, bit `i` for byte `i`): priced as repeats, taken out of the
    /// histogram. `letter` holds the block's ASCII letters, `same` whether each byte equals the next.
    #[cold]
    #[inline(never)]
    fn ascii_repeats(
        &mut self,
        w: &[u8; WIN],
        repeats: u64,
        letter: u64,
        same: u64,
        prev_same: u64,
        prev_repeats: u64,
    ) {
        let same_before = (same << 1) | (prev_same >> 63);
        let starts = repeats & !(back1(repeats, prev_repeats) & same_before);
        let v = &mut self.v;
        v[f::REP_ALPHA_RUNS] += pc(starts & letter);
        v[f::REP_ALPHA_CHARS] += pc(repeats & letter);
        v[f::REP_RUNS] += pc(starts & !letter);
        v[f::REP_CHARS] += pc(repeats & !letter);
        let mut r = repeats;
        while r != 0 {
            let b = w[r.trailing_zeros() as usize];
            self.hist[b as usize] = self.hist[b as usize].wrapping_sub(1);
            self.runs.ascii[(b & 0x7f) as usize] += 1;
            r &= r - 1;
        }
    }

    /// The non-ASCII characters of a block (`high`: bytes from 0x80 up, `cont` the continuation bytes among
    /// them), one at a time. The common ones (their kind straight from the table: not a mark, not a kind that
    /// merges in repeats) only have their kind written at their first byte's place; marks are resolved, and
    /// symbols checked for repeats, on the side. Then, for each kind the block has, one compare of those places
    /// gives its characters' count and first bytes, which spread over the continuation bytes give the masks.
    #[inline(always)]
    fn non_ascii<C: Classes>(&mut self, cl: C, w: &[u8; WIN], high: u64, cont: u64) -> NonAscii {
        const NONE: u8 = 0xff;
        let c = self.na;
        let mut kinds = [NONE; BLOCK];
        // The places of characters (two or three bytes wide) whose next one is the same character: the only letters
        // that may start a repeat. Bytes the masks cannot see past (the block's last) count as equal. The place right
        // after a character in a repeat is added (by `characters`, and here from the previous block's last), since
        // the run's last character has no same one after it. A block with no character at any of these places (most
        // of them) takes every letter's kind straight from the table.
        let (a2, a3) = (cl.ahead(w, 2), cl.ahead(w, 3));
        // `e2` is the masks' bit 64 of `a2`, `e3` and `f3` bits 64 and 65 of `a3` (1: taken as equal).
        let look_at = |e2: u64, e3: u64, f3: u64| {
            (a2 & ((a2 >> 1) | e2 << 63))
                | (a3 & ((a3 >> 1) | e3 << 63) & ((a3 >> 2) | e3 << 62 | f3 << 63))
        };
        let mut m = (c.merge_end, c.merge_bytes, c.merge_repeat);
        let mut look = look_at(1, 1, 1);
        let mut carried = 0;
        if m.2 && (0..BLOCK as i32).contains(&m.0) {
            carried = 1 << m.0;
            look |= carried;
        }
        let firsts = high & !cont;
        let wide = firsts & (cont >> 1) & (cont >> 2);
        // The vector look-up pays where most of a block is characters of two or three bytes (a four-byte one, an
        // emoji, is visited anyway); a block with a few accented letters takes them one by one.
        let many = pc(firsts & !(wide & (cont >> 3))) >= VECTOR_FROM;
        let entries = if many {
            cl.entries(w, firsts, wide, &mut kinds)
        } else {
            None
        };
        // The kinds the block has, as bits, when the characters were visited one by one.
        let used = if let Some(attend) = entries {
            // Every character's entry is in place: only those that need more are visited. Here the masks' bits past
            // the block's last byte (64 and 65) are read off the window's bytes after it, so that a block's last
            // character is not visited for nothing.
            let look = look_at(
                (w[BLOCK] == w[BLOCK + 2]) as u64,
                (w[BLOCK] == w[BLOCK + 3]) as u64,
                (w[BLOCK + 1] == w[BLOCK + 4]) as u64,
            ) | carried;
            let visit = attend | (look & firsts);
            self.characters::<true>(w, high, firsts, visit, look, &mut kinds, &mut m);
            None
        } else if look & firsts == 0 && !cfg!(target_arch = "wasm32") {
            // The wasm build keeps one loop (the one that tests): its size budget counts, and its counts are the same.
            Some(self.characters::<false>(w, high, firsts, firsts, look, &mut kinds, &mut m))
        } else {
            Some(self.characters::<true>(w, high, firsts, firsts, look, &mut kinds, &mut m))
        };
        let (merge_end, merge_bytes, merge_repeat) = m;
        // Counts by kind, first bytes by mask slot: for each kind, one compare of `kinds` finds its characters.
        let mut slots = [0u64; NSLOT];
        let mut used_slots = 0u32;
        if let Some(mut u) = used {
            while u != 0 {
                let k = u.trailing_zeros() as usize;
                u &= u - 1;
                let m = cl.equal(&kinds, k as u8);
                self.count(w, cont, k, m, &mut slots, &mut used_slots);
            }
        } else {
            // The kind of the first character not yet counted, and all of its kind at once (the places that are no
            // first byte are undefined). A repeat's characters (`REP | kind`) are priced apart.
            let mut rest = firsts;
            while rest != 0 {
                let k = kinds[rest.trailing_zeros() as usize];
                let m = cl.equal(&kinds, k) & firsts;
                rest &= !m;
                if k & REP == 0 {
                    self.count(w, cont, k as usize, m, &mut slots, &mut used_slots);
                }
            }
        }
        let c = self.na;
        let spill_in = (1u64 << c.spill) - 1;
        // A slot's characters: their first bytes spread over the continuation bytes after them, and the bytes
        // the previous block's last character left here.
        let spread = |s: usize| {
            let mut x = slots[s];
            x |= (x << 1) & cont;
            x |= (x << 1) & cont;
            x |= (x << 1) & cont;
            if c.spill_slot as usize == s {
                x |= spill_in;
            }
            x
        };
        // Runs of each script: a letter whose byte before is not of its script starts one.
        let mut starts = 0;
        let mut script = 0;
        let mut alpha = 0;
        let mut scripts = used_slots >> S_SCRIPT;
        if c.spill_slot as usize >= S_SCRIPT {
            scripts |= 1 << (c.spill_slot as usize - S_SCRIPT);
        }
        while scripts != 0 {
            let s = scripts.trailing_zeros() as usize;
            scripts &= scripts - 1;
            let slot = S_SCRIPT + s;
            let x = spread(slot);
            let before = (c.script as usize == slot) as u64;
            let st = x & !((x << 1) | before);
            self.v[SCRIPT_RUNS[s]] += pc(st);
            starts |= st;
            if x >> 63 != 0 {
                script = slot as u8;
            }
            if S_ALPHA.contains(&slot) {
                alpha |= x;
            }
        }
        let na = NonAscii {
            latin: spread(S_LAT),
            digits: spread(S_ND),
            space: spread(S_NWS),
            alpha,
            starts,
        };
        // What the block's last character leaves for the next block.
        let (mut spill, mut spill_slot) = (0, S_NONE);
        if high >> 63 != 0 {
            let j = 63 - firsts.leading_zeros() as usize;
            let width = utf8_len(w[j]);
            if j + width > BLOCK {
                spill = (j + width - BLOCK) as u8;
                let k = kinds[j & (BLOCK - 1)];
                spill_slot = if k & REP != 0 {
                    S_NONE
                } else {
                    SLOT[k as usize]
                };
            }
        }
        let n = &mut self.na;
        n.spill = spill;
        n.spill_slot = spill_slot;
        n.merge_end = shift_back(merge_end);
        n.merge_bytes = merge_bytes;
        n.merge_repeat = merge_repeat;
        n.script = script;
        n.kind = if high >> 63 == 0 {
            kind::of_ascii_byte(w[BLOCK - 1])
        } else {
            // A repeat's character is held as `REP | kind`: a mark after it takes that kind.
            kinds[63 - firsts.leading_zeros() as usize] & !REP
        };
        na
    }

    /// Counts a block's characters of kind `k` (their first bytes at the bits of `m`) and adds them to their slot.
    #[inline(always)]
    fn count(
        &mut self,
        w: &[u8; WIN],
        cont: u64,
        k: usize,
        m: u64,
        slots: &mut [u64; NSLOT],
        used: &mut u32,
    ) {
        self.kinds[k] += pc(m);
        if k == K_HAN as usize {
            let (rare, ext, ext_a) = rare_han(w, m, cont);
            self.v[f::HAN_RARE] += rare;
            self.v[f::HAN_EXT] += ext;
            self.v[f::HAN_EXT_A] += ext_a;
        } else if k == K_LATLO as usize || k == K_LATUP as usize {
            let at = m & self.latin_a;
            if at != 0 {
                self.v[f::CS_LETTERS] += cs_letters(w, at);
            }
        }
        slots[SLOT[k] as usize] |= m;
        *used |= 1 << SLOT[k];
    }

    /// The non-ASCII characters of a block one at a time (see [`Scanner::non_ascii`]): each one's kind at its
    /// first byte's place in `kinds`, the kinds seen as the bits of the result. With `LOOK`, a letter whose bit in
    /// `look` is set is looked at closer (it may be in a repeat); without, no letter is (no bit of `look` is at a
    /// character). The characters visited are those of `visit` (all of `firsts`, or those whose entry the vector
    /// look-up left for here and those of `look`); a character after one found in a repeat is visited too.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn characters<const LOOK: bool>(
        &mut self,
        w: &[u8; WIN],
        high: u64,
        firsts: u64,
        visit: u64,
        mut look: u64,
        kinds: &mut [u8; BLOCK],
        m: &mut (i32, u32, bool),
    ) -> u64 {
        let mut used = 0u64;
        let (mut merge_end, mut merge_bytes, mut merge_repeat) = *m;
        // The last character in a repeat and whether it is rare (no character's bytes are 0).
        let mut rare_of = (0u32, false);
        let mut leads = visit;
        while leads != 0 {
            let j = leads.trailing_zeros() as usize;
            leads &= leads - 1;
            let e = kind::entry_of_pair(u16::from_le_bytes([w[j], w[j + 1]]));
            let (mut k, width) = if e < kind::ATTEND {
                // A letter (two or three bytes here) is looked at closer only when it may be in a repeat: the next
                // character is the same one, or the character before is in a repeat and ends here (`look`).
                if !LOOK || look >> j & 1 == 0 || !kind::merges(e) {
                    kinds[j & (BLOCK - 1)] = e;
                    used |= 1 << e;
                    continue;
                }
                (e, 2 + (w[j] >= 0xe0) as usize)
            } else {
                kind::resolve(e, w[j], w[j + 1], w[j + 2], w[j + 3])
            };
            if k == K_MARK {
                // The character before: ASCII, or the last non-ASCII one (this block's, or the previous block's last).
                let before = firsts & ((1u64 << j) - 1);
                let prev = if j > 0 && high >> (j - 1) & 1 == 0 {
                    kind::of_ascii_byte(w[j - 1])
                } else if before != 0 {
                    // A character in a repeat is held as `REP | kind`: its kind, which a mark after it takes.
                    kinds[63 - before.leading_zeros() as usize] & !REP
                } else {
                    self.na.kind
                };
                k = kind::resolve_mark(prev, width);
                // Hebrew's marks have first byte 0xD6 or 0xD7.
                let hebrew = w[j] & 0xfe == 0xd6;
                self.v[f::ARABIC_MARKS] += (k == K_ARB && !hebrew) as u64;
                self.v[f::HEBREW_MARKS] += (k == K_ARB && hebrew) as u64;
            }
            // Letters of two or three bytes only where `look` says (four-byte ones, ideographs of the extensions, are
            // rare enough to look at each).
            if kind::merges(k) && (LOOK && look >> j & 1 != 0 || !kind::is_letter(k) || width == 4)
            {
                // In a repeat when the character before is the same one and was in it, or (when it is not the same)
                // when the three after are.
                let mask = u32::MAX >> (32 - 8 * width);
                let bytes = load32(w, j) & mask;
                let same_before = merge_end == j as i32 && merge_bytes == bytes;
                let repeat = if same_before {
                    merge_repeat
                } else {
                    (1..4).all(|t| load32(w, j + t * width) & mask == bytes)
                };
                (merge_end, merge_bytes, merge_repeat) = ((j + width) as i32, bytes, repeat);
                if repeat {
                    let next = (1u128 << (j + width)) as u64;
                    look |= next;
                    leads |= next & firsts;
                    // Priced as a repeat, taken out of the histogram (its bytes are no sign of a language).
                    for &b in &w[j..j + width] {
                        self.hist[b as usize] = self.hist[b as usize].wrapping_sub(1);
                    }
                    self.runs.wide[k as usize] += 1;
                    // Whether it is rare, looked up once a run in a block.
                    if bytes != rare_of.0 {
                        rare_of = (bytes, kind::is_rare_in_run(code_point(bytes)));
                    }
                    self.runs.wide_rare[k as usize] += rare_of.1 as u64;
                    self.runs.wide_bytes += width as u64;
                    self.v[f::REP_WIDE_CHARS] += 1;
                    self.v[f::REP_WIDE_RUNS] += !same_before as u64;
                    kinds[j & (BLOCK - 1)] = REP | k;
                    continue;
                }
            }
            kinds[j & (BLOCK - 1)] = k;
            used |= 1 << k;
        }
        *m = (merge_end, merge_bytes, merge_repeat);
        used
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
                        self.push(s.as_bytes());
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
                    self.push(s.as_bytes());
                    return;
                }
                Err(e) => {
                    let good = e.valid_up_to();
                    self.bytes += good as u64;
                    self.push(&bytes[..good]);
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
        self.push("\u{fffd}".as_bytes());
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
        self.clone().end()
    }

    /// The counts, the text ending here.
    pub fn into_features(mut self) -> Features {
        self.end()
    }

    /// The counts, the text ending here, read off this scanner in place (it is spent: its last bytes are scanned).
    pub(crate) fn end(&mut self) -> Features {
        self.flush_partial_as_invalid();
        // The last bytes: a full block first when there is one, then the rest (perhaps nothing: the text's end is
        // then at the last block's first byte, where runs close).
        let t = self.tail_len as usize;
        let mut w = [PAD; WIN];
        w[..t].copy_from_slice(&self.tail[..t]);
        self.block_once(&w, t.min(BLOCK));
        if t >= BLOCK {
            let mut w = [PAD; WIN];
            w[..t - BLOCK].copy_from_slice(&self.tail[BLOCK..t]);
            self.block_once(&w, t - BLOCK);
        }
        self.fold()
    }

    /// The features from the counts: the histogram's per-character counts, the non-ASCII characters' by kind.
    fn fold(&self) -> Features {
        let mut v = self.v;
        let mut class_chars = [0u64; Class::COUNT];
        let h = &self.hist;
        let sum = |from: u8, to: u8| h[from as usize..=to as usize].iter().sum::<u64>();
        let total = sum(0, 0x7f);
        let mut letters = 0;
        for i in 0..26 {
            let (lo, up) = (h[b'a' as usize + i], h[b'A' as usize + i]);
            v[f::LETTER_A + i] += lo + up;
            v[f::UPPER_A + i] += up;
            letters += lo + up;
        }
        for (k, &b) in ASCII_PUNCT.iter().enumerate() {
            v[f::PUNCT_CHARS + k] += h[b as usize];
        }
        let digits = sum(b'0', b'9');
        let (space, tabs, newlines) = (h[b' ' as usize], h[b'\t' as usize], h[b'\n' as usize]);
        let other_ws = sum(0x0b, 0x0d);
        let whitespace = space + tabs + newlines + other_ws;
        let controls = sum(0, 0x1f) - tabs - newlines - other_ws + h[0x7f];
        let punct = total - letters - digits - whitespace - controls;
        let k = &self.kinds;
        let kn = |kind: Kind| k[kind as usize];
        let latin = kn(K_LATLO) + kn(K_LATUP);
        let indic2: u64 = k[K_IND2 as usize..K_IND2 as usize + 9].iter().sum();
        let alphabetic = latin
            + kn(K_CYR)
            + kn(K_CYRX)
            + kn(K_GRK)
            + kn(K_ARB)
            + kn(K_IND)
            + indic2
            + kn(K_SEA)
            + kn(K_MYA)
            + kn(K_KHM)
            + kn(K_OTH)
            + kn(K_ETH);
        let cjk = kn(K_HAN) + kn(K_KANA) + kn(K_HANG) + kn(K_CJKP);
        let symbols = kn(K_EMO) + kn(K_EMOD) + kn(K_SYM2) + kn(K_SYM3) + kn(K_SYM4);
        v[f::LATIN_CHARS] += letters + latin;
        v[f::LATIN_NONASCII] += latin;
        v[f::CYR_CHARS] += kn(K_CYR) + kn(K_CYRX);
        v[f::CYR_NONRUSSIAN] += kn(K_CYRX);
        v[f::GREEK_CHARS] += kn(K_GRK);
        v[f::ARABIC_CHARS] += kn(K_ARB);
        v[f::INDIC_CHARS] += kn(K_IND);
        for i in 0..9 {
            v[f::INDIC2_CHARS + i] += k[K_IND2 as usize + i];
        }
        v[f::SEA_CHARS] += kn(K_SEA);
        v[f::MYANMAR_CHARS] += kn(K_MYA);
        v[f::KHMER_CHARS] += kn(K_KHM);
        v[f::OTHER_CHARS] += kn(K_OTH);
        v[f::ETHIOPIC_CHARS] += kn(K_ETH);
        v[f::HAN_CHARS] += kn(K_HAN);
        v[f::KANA_CHARS] += kn(K_KANA);
        v[f::HANGUL_CHARS] += kn(K_HANG);
        v[f::CJK_PUNCT] += kn(K_CJKP);
        v[f::EMOJI] += kn(K_EMO);
        v[f::EMOJI_MODS] += kn(K_EMOD);
        v[f::SYM2] += kn(K_SYM2);
        v[f::SYM3] += kn(K_SYM3);
        v[f::SYM4] += kn(K_SYM4);
        v[f::DIGITS] += digits + kn(K_NDIG);
        v[f::TABS] += tabs;
        v[f::NL_CHARS] += newlines;
        v[f::OTHER_WS] += other_ws + kn(K_NWS);
        v[f::CONTROL] += controls + kn(K_NCTL);
        for (i, &(lo, hi)) in BYTE_TALLY_RANGES.iter().enumerate() {
            v[f::BYTE_TALLIES + i] += sum(lo, hi);
        }
        v[f::LEAD_D4_D5] += sum(ARMENIAN_LEADS.0, ARMENIAN_LEADS.1);
        class_chars[Class::Letters as usize] = letters + alphabetic;
        class_chars[Class::Cjk as usize] = cjk;
        class_chars[Class::Digits as usize] = digits + kn(K_NDIG);
        class_chars[Class::Punctuation as usize] = punct;
        class_chars[Class::Whitespace as usize] = whitespace + kn(K_NWS);
        class_chars[Class::Symbols as usize] = symbols;
        // The characters in repeats, from their per-character counts.
        let repeat_ascii: u64 = self.runs.ascii.iter().sum();
        class_chars[Class::Repeats as usize] = repeat_ascii + self.runs.wide.iter().sum::<u64>();
        class_chars[Class::Control as usize] = controls + kn(K_NCTL);
        let chars = total + repeat_ascii + sum(0xc0, 0xff) + self.runs.wide.iter().sum::<u64>();
        if chars > 0 {
            v[f::BIAS] = 1;
        }
        let sig = |cs: &[u8]| cs.iter().map(|&c| h[c as usize]).sum::<u64>();
        Features {
            v,
            chars,
            bytes: self.bytes,
            class_chars,
            signals: Signals {
                braces: sig(b"{}"),
                brackets: sig(b"[]"),
                quotes: sig(b"\""),
                colons: sig(b":"),
                commas: sig(b","),
                semicolons: sig(b";"),
                angles: sig(b"<>"),
                equals: sig(b"="),
                parens: sig(b"()"),
                backslashes: sig(b"\\"),
                lines: newlines,
                indented_lines: self.indented_lines,
                first_nonspace: self.first_nonspace,
            },
            runs: self.runs,
        }
    }
}

/// Bits where `x` holds at this byte and the `n - 1` before.
#[inline(always)]
fn all_n(x: u128, n: u32) -> u128 {
    // Doubling: `a` holds where `k` in a row end; two such rows `n - k` apart make `n` in a row (`k <= n <= 2k`).
    let (mut a, mut k) = (x, 1);
    while 2 * k <= n {
        a &= a << k;
        k *= 2;
    }
    a & (a << (n - k))
}

/// Bits where `x` holds at this byte and the `n - 1` before (`n` from 2 to 32), the bytes before the block's first
/// taken to hold: a superset of [`all_n`]'s half, in 64-bit steps.
#[inline(always)]
fn all_fill(x: u64, n: u32) -> u64 {
    let (mut a, mut k) = (x, 1);
    while 2 * k <= n {
        a &= (a << k) | ((1 << k) - 1);
        k *= 2;
    }
    a & ((a << (n - k)) | ((1 << (n - k)) - 1))
}

/// This block's half of `all_n(join(x, prev), n)` (`n` from 2 to 32, as [`all_fill`]) in 64-bit steps: the bytes
/// before the block's first taken to hold, then only as many of them as `prev` ends with.
#[inline(always)]
fn all_joined(x: u64, prev: u64, n: u32) -> u64 {
    all_fill(x, n) & (!0 << (n - 1).saturating_sub(prev.leading_ones()))
}

/// Bits where `x` holds at this byte or one of the `n - 1` after (`n` from 1).
#[inline(always)]
fn spread_back(x: u128, n: u32) -> u128 {
    // Doubling, as in `all_n`: `a` holds where `x` holds in the `k` from here on.
    let (mut a, mut k) = (x, 1);
    while 2 * k <= n {
        a |= a >> k;
        k *= 2;
    }
    a | (a >> (n - k))
}

/// Counts a block's bytes in periodic windows (see [`Runs::periodic`]) into `runs`, given its punctuation, letters and blanks
/// outside repeats, the previous block's, and `gate`, a superset of the bits where a window ends (the block loop's
/// first test), and the previous block's last 16 bytes and those of them counted already; returns this block's last
/// 16 counted. Out of the block loop: few blocks come here, fewer past the second test.
#[cold]
#[inline(never)]
fn periodic(
    runs: &mut Runs,
    w: &[u8; WIN],
    [punct, letter, blank]: [u64; 3],
    [prev_punct, prev_letter, prev_blank]: [u64; 3],
    [gate, deep]: [u64; 2],
    last16: u128,
    [counted, counted_plain]: [u64; 2],
) -> (u64, u64) {
    // The second test: the kinds of a window's bytes repeat with its period. A window of period 2 is one of period 4
    // as well (its last 12 bytes equal the ones 4 before, punctuation among its last 4), so 3 and 4 are enough.
    // (Letters alone, deep in a long run, pass it: their kinds are all one.)
    let kinds = all_joined(
        punct | letter | blank,
        prev_punct | prev_letter | prev_blank,
        WINDOW,
    );
    let repeat = deep != 0
        || (3..=4).any(|p| {
            // Bits where a byte's kind differs from the one `p` before, in this block and the previous one.
            let back = |x: u64, prev: u64| (x << p) | (prev >> (64 - p));
            let e = (punct ^ back(punct, prev_punct))
                | (letter ^ back(letter, prev_letter))
                | (blank ^ back(blank, prev_blank));
            let e_prev = (prev_punct ^ (prev_punct << p))
                | (prev_letter ^ (prev_letter << p))
                | (prev_blank ^ (prev_blank << p));
            // Punctuation in the last `p` bytes.
            let unit = (1..p).fold(punct, |a, k| a | (punct << k) | (prev_punct >> (64 - k)));
            all_joined(!e, !e_prev, WINDOW - p) & kinds & unit & gate != 0
        });
    if !repeat {
        return (0, 0);
    }
    // The bytes themselves: punctuation, letters and the blanks that follow fewer than three blanks, of both
    // blocks, joined (`pbl`), and the punctuation alone (`pj`).
    let pj = join(punct, prev_punct);
    let bj = join(blank, prev_blank);
    let lj = join(letter, prev_letter);
    let pbl = pj | lj | (bj & !((bj << 1) & (bj << 2) & (bj << 3)));
    // Where a window of letters alone may end: 16 letters, the last of them past a long run's 64th byte.
    let plain_at = all16(lj) & (u128::from(deep) << 64);
    // `a[8 + t]` is the byte at joined bit `48 + t`: eight bytes of padding, the previous block's last 16, then this
    // block's 64.
    let mut a = [0u8; 8 + 16 + BLOCK];
    a[8..24].copy_from_slice(&last16.to_le_bytes());
    a[24..].copy_from_slice(&w[..BLOCK]);
    let word = |t: usize| u64::from_le_bytes(a[t..t + 8].try_into().unwrap_or_default());
    let (mut cover, mut cover_plain) = (0u128, 0u128);
    // Periods 3 and 4 find every window, as in the second test; period 2 is looked at for its count of window ends.
    for p in 2..=4 {
        // Bit `48 + t` where byte `t` equals the one `p` before it (padding, a control, where there is none), eight
        // bytes at a time: the top bit of each byte of the xor that is zero (exact: no carry crosses a byte),
        // gathered into eight bits.
        let mut back = 0u128;
        for t in (8..a.len()).step_by(8) {
            let x = word(t) ^ word(t - p);
            let zero = !(((x & 0x7f7f_7f7f_7f7f_7f7f) + 0x7f7f_7f7f_7f7f_7f7f) | x)
                & 0x8080_8080_8080_8080;
            let bits = (zero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
            back |= (bits as u128) << (40 + t);
        }
        let same = all_n(back, WINDOW - p as u32);
        // Blanks alone are no pattern, nor letters alone in words: one of the window's last `p` bytes is
        // punctuation, or the window is letters deep in a long run.
        let unit = (1..p).fold(pj, |a, k| a | (pj << k));
        let ends = same & all16(pbl) & unit;
        let plain = same & plain_at;
        // Window ends by what the unit (the last `p` bytes) holds besides punctuation: letters, else blanks, else
        // nothing; then letters alone.
        let within = |x: u128| (1..p).fold(x, |a, k| a | (x << k));
        let (lettered, spaced) = (within(lj), within(bj));
        runs.periodic_ends[p - 2] += pc(half(ends & !lettered & !spaced));
        runs.periodic_ends[p + 1] += pc(half(ends & !lettered & spaced));
        runs.periodic_ends[p + 4] += pc(half(ends & lettered));
        runs.periodic_ends[p + 7] += pc(half(plain));
        // Each window's bytes: its end and the 15 before it (back to bit 49 at the farthest, inside the previous
        // block's last 16).
        cover |= spread_back(ends | plain, WINDOW);
        cover_plain |= spread_back(plain, WINDOW);
    }
    // This block's bytes in a window, and those of the previous block's last 16 not counted with it.
    const LAST16: u64 = 0xffff << 48;
    let (here, before) = (half(cover), cover as u64 & LAST16 & !counted);
    runs.periodic += pc(here) + pc(before);
    runs.periodic_letters += pc(here & letter) + pc(before & prev_letter);
    runs.periodic_blanks += pc(here & blank) + pc(before & prev_blank);
    let (here_plain, before_plain) = (
        half(cover_plain),
        cover_plain as u64 & LAST16 & !counted_plain,
    );
    runs.periodic_plain += pc(here_plain) + pc(before_plain);
    (here & LAST16, here_plain & LAST16)
}

/// The code point of a character of two, three or four bytes, its bytes little-endian in `b` (valid UTF-8).
#[inline(always)]
fn code_point(b: u32) -> u32 {
    let [b0, b1, b2, b3] = b.to_le_bytes().map(u32::from);
    match b0 {
        0xc0..=0xdf => (b0 & 0x1f) << 6 | (b1 & 0x3f),
        0xe0..=0xef => (b0 & 0x0f) << 12 | (b1 & 0x3f) << 6 | (b2 & 0x3f),
        _ => (b0 & 0x07) << 18 | (b1 & 0x3f) << 12 | (b2 & 0x3f) << 6 | (b3 & 0x3f),
    }
}

/// How many of the Han characters starting at the bits of `m` are outside the common tier, how many of those are of
/// the supplementary planes 2 and 3 (the extensions from B: first bytes F0 A0 to F0 BF), and how many of Extension A
/// (U+3400–U+4DBF: rows of 64 code points 0xD0 to 0x136). `cont` holds the block's continuation bytes.
#[inline(never)]
fn rare_han(w: &[u8; WIN], m: u64, cont: u64) -> (u64, u64, u64) {
    // The common tier's ideographs are three bytes: the first two name the row of 64 code points, the third the bit.
    let ext_a = |row: usize| (row.wrapping_sub(0xd0) < 0x67) as u64;
    // Those followed by two continuation bytes and no third (which the masks see for a character starting up to
    // byte 60) are read with no branch. The rest (marks after an ideograph, which take its kind, ideographs of four
    // bytes, and those at the block's end) are looked at one by one.
    // (The wasm build keeps one loop: its size budget counts.)
    let (mut common, mut a) = (0, 0);
    #[cfg(target_arch = "wasm32")]
    let three = {
        let _ = cont;
        0
    };
    #[cfg(not(target_arch = "wasm32"))]
    let three = {
        let three = m & (cont >> 1) & (cont >> 2) & !(cont >> 3) & ((1 << 61) - 1);
        let mut t = three;
        while t != 0 {
            let j = t.trailing_zeros() as usize;
            t &= t - 1;
            // The three bytes as one word: the code point's row (0 to 1023) indexes a table with no gaps.
            let b = load32(w, j);
            let row = ((b & 0x0f) << 6 | (b >> 8 & 0x3f)) as usize;
            common += kind::HAN_ROWS[row & 1023] >> (b >> 16 & 0x3f) & 1;
            a += ext_a(row);
        }
        three
    };
    let (mut ext, mut rest) = (0, m & !three);
    while rest != 0 {
        let j = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let row = (w[j] as usize & 0x0f) << 6 | (w[j + 1] as usize & 0x3f);
        let is3 = (w[j] >> 4 == 0xe) as u64;
        common += is3 & (kind::common_han_row(row) >> (w[j + 2] & 0x3f));
        a += is3 & ext_a(row);
        ext += (w[j] == 0xf0 && w[j + 1] >= 0xa0) as u64;
    }
    (pc(m) - common, ext, a)
}

/// The rare ASCII bytes of a block (controls and DEL) split into `\r`, `\v`, `\f` (whitespace) and the rest.
#[cold]
fn split_rare(w: &[u8; WIN], rare: u64) -> (u64, u64) {
    let mut ws = 0;
    let mut r = rare;
    while r != 0 {
        let i = r.trailing_zeros() as usize;
        r &= r - 1;
        if matches!(w[i], b'\r' | 0x0b | 0x0c) {
            ws |= 1 << i;
        }
    }
    (ws, rare & !ws)
}

/// The first character of `bytes` (which start with one, valid).
fn first_char(bytes: &[u8]) -> Option<char> {
    let n = utf8_len(bytes[0]).min(bytes.len());
    std::str::from_utf8(&bytes[..n]).ok()?.chars().next()
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

/// Of the characters whose lead byte (C4 or C5) is at a bit of `at`, the letters of [`f::CS_LETTERS`] (built once:
/// few blocks have such characters).
#[inline(never)]
fn cs_letters(w: &[u8; WIN], mut at: u64) -> u64 {
    // U+0100–U+017F, one bit a code point.
    const SET: u128 = {
        let letters = ['Ď', 'ď', 'Ě', 'ě', 'Ň', 'ň', 'Ř', 'ř', 'Ť', 'ť', 'Ů', 'ů'];
        let (mut set, mut k) = (0, 0);
        while k < letters.len() {
            set |= 1u128 << (letters[k] as u32 - 0x100);
            k += 1;
        }
        set
    };
    let mut n = 0;
    while at != 0 {
        let j = at.trailing_zeros() as usize;
        let next = w[j + 1];
        // The code point less 0x100 (`code_point`'s two-byte arm, the lead byte being C4 or C5).
        let i = u32::from(w[j] & 1) << 6 | u32::from(next & 0x3f);
        n += (SET >> i) as u64 & u64::from(next & 0xc0 == 0x80);
        at &= at - 1;
    }
    n
}

/// Scans a whole text at once.
pub fn scan(text: &str) -> Features {
    let mut s = Scanner::new();
    s.feed(text);
    s.into_features()
}
