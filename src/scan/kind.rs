//! What each character is, for the scanner: its kind, by code point.
//!
//! [`of_code_point`] is the definition. The scanner never calls it on the hot path: it reads the kind of a two- or
//! three-byte character off tables built from the definition at compile time ([`of_utf8`]), indexed by the
//! character's first two bytes, and for the three-byte characters whose 64 code points of one second byte are not all
//! of one kind, by the third byte too. Four-byte characters (emoji, rare scripts) are decoded and looked up in the
//! definition. A unit test holds the tables to the definition on every scalar value.

/// A character's kind: one of the `K_*` constants. Kinds below [`K_LATLO`] are ASCII ones.
pub type Kind = u8;

/// ASCII lowercase letter.
pub const K_LO: Kind = 0;
/// ASCII capital.
pub const K_UP: Kind = 1;
/// ASCII digit.
pub const K_DIG: Kind = 2;
/// ASCII punctuation or symbol (`!` to `~` but letters and digits).
pub const K_PUN: Kind = 3;
/// Space or tab.
pub const K_BLANK: Kind = 4;
/// Newline.
pub const K_NL: Kind = 5;
/// `\r`, `\v`, `\f`.
pub const K_OWS: Kind = 6;
/// Other ASCII controls and DEL.
pub const K_CTL: Kind = 7;
/// An accented or other non-ASCII Latin letter, lowercase or caseless.
pub const K_LATLO: Kind = 8;
/// A non-ASCII Latin capital.
pub const K_LATUP: Kind = 9;
/// A letter of the Russian alphabet (`А`–`я`, `Ё`, `ё`).
pub const K_CYR: Kind = 10;
/// Any other Cyrillic letter (Ukrainian `і ї є ґ`, Serbian, Kazakh, ...).
pub const K_CYRX: Kind = 11;
/// Greek.
pub const K_GRK: Kind = 12;
/// Arabic-script letters (Persian and Urdu ones too), and Hebrew letters.
pub const K_ARB: Kind = 13;
/// Devanagari.
pub const K_IND: Kind = 14;
/// The Indic scripts after Devanagari, one kind each from here (Bengali, Gurmukhi, Gujarati, Odia, Tamil, Telugu,
/// Kannada, Malayalam, Sinhala: blocks of 128 code points from U+0980).
pub const K_IND2: Kind = 15;
/// Thai and Lao (no spaces between words, as the two after it).
pub const K_SEA: Kind = 24;
/// Myanmar (Burmese, Mon, Shan, ...; the main block, U+1000–U+109F).
pub const K_MYA: Kind = 25;
/// Khmer, its digits and punctuation too: parting them (as Unicode has them, and as Myanmar's are) would send every
/// vowel sign of U+17C0–U+17FF through the slower look-up of a row that mixes kinds (the mixed text read 1.3% slower).
pub const K_KHM: Kind = 26;
/// Letters of other scripts.
pub const K_OTH: Kind = 27;
/// Ethiopic letters of the main and Extended blocks (Amharic, Tigrinya, Tigre, ...): a kind apart from [`K_OTH`],
/// because vocabularies price them far from the other scripts' letters (o200k takes about 1.6 tokens a character of
/// Amharic, 0.4 of Georgian). The rarer Ethiopic blocks stay [`K_OTH`]: each block that mixes kinds costs the wasm
/// build a table row.
pub const K_ETH: Kind = 28;
/// Han.
pub const K_HAN: Kind = 29;
/// Hiragana and katakana.
pub const K_KANA: Kind = 30;
/// Hangul.
pub const K_HANG: Kind = 31;
/// Non-ASCII digits (Arabic-Indic, Devanagari, Myanmar, Ethiopic numbers, fullwidth, ...).
pub const K_NDIG: Kind = 32;
/// A combining mark: takes the kind of the letter before it (see [`resolve_mark`]).
pub const K_MARK: Kind = 33;
/// CJK punctuation and fullwidth forms.
pub const K_CJKP: Kind = 34;
/// Emoji.
pub const K_EMO: Kind = 35;
/// Emoji modifiers: ZWJ, variation selectors, skin tones, keycaps, tags.
pub const K_EMOD: Kind = 36;
/// Other symbols of two, three or four bytes.
pub const K_SYM2: Kind = 37;
/// See [`K_SYM2`].
pub const K_SYM3: Kind = 38;
/// See [`K_SYM2`].
pub const K_SYM4: Kind = 39;
/// Non-ASCII whitespace (no-break space, ideographic space, ...).
pub const K_NWS: Kind = 40;
/// C1 controls.
pub const K_NCTL: Kind = 41;
/// How many kinds there are.
pub const COUNT: usize = 42;

const fn parity(u: u32) -> Kind {
    if u % 2 == 0 {
        K_LATUP
    } else {
        K_LATLO
    }
}

/// The kind of an ASCII byte.
pub const fn of_ascii(b: u8) -> Kind {
    match b {
        b'a'..=b'z' => K_LO,
        b'A'..=b'Z' => K_UP,
        b'0'..=b'9' => K_DIG,
        b' ' | b'\t' => K_BLANK,
        b'\n' => K_NL,
        b'\r' | 0x0b | 0x0c => K_OWS,
        0..=0x1f | 0x7f => K_CTL,
        _ => K_PUN,
    }
}

/// [`of_ascii`] of every ASCII byte, for the scanner's hot path.
static ASCII_KINDS: [Kind; 128] = {
    let mut t = [0; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = of_ascii(b as u8);
        b += 1;
    }
    t
};

/// [`of_ascii`] by table lookup (`b` below 0x80).
#[inline(always)]
pub fn of_ascii_byte(b: u8) -> Kind {
    ASCII_KINDS[(b & 0x7f) as usize]
}

/// The kind of a code point from U+0080 up: the definition the tables are built from. (Marks come out as
/// [`K_MARK`]; the scanner resolves them with [`resolve_mark`].)
pub const fn of_code_point(u: u32) -> Kind {
    if u >= 0x10000 {
        return of_supplementary(u);
    }
    match u {
        0x80..=0x9f => K_NCTL,
        0xa0 => K_NWS,
        0xaa | 0xb5 | 0xba => K_LATLO,
        0xa1..=0xbf | 0xd7 | 0xf7 => K_SYM2,
        0xc0..=0xde => K_LATUP,
        0xdf..=0xff => K_LATLO,
        0x138 | 0x149 | 0x17f => K_LATLO,
        0x100..=0x17f => parity(u),
        0x1a0 | 0x1af => K_LATUP,
        0x180..=0x2af => K_LATLO,
        0x2b0..=0x2ff => K_SYM2,
        0x300..=0x36f => K_MARK,
        0x374 | 0x375 | 0x37e | 0x387 => K_SYM2,
        0x370..=0x3ff => K_GRK,
        0x401 | 0x410..=0x44f | 0x451 => K_CYR,
        0x483..=0x489 => K_MARK,
        0x400..=0x52f => K_CYRX,
        0x530..=0x58f => K_OTH,
        0x591..=0x5c7 => K_MARK,
        0x5d0..=0x5ea | 0x5ef..=0x5f2 => K_ARB,
        0x590..=0x5ff => K_SYM2,
        0x610..=0x61a | 0x64b..=0x65f | 0x670 | 0x6d6..=0x6ed => K_MARK,
        0x660..=0x669 | 0x6f0..=0x6f9 => K_NDIG,
        0x620..=0x64a | 0x66e..=0x66f | 0x671..=0x6d3 | 0x6d5 | 0x6ee..=0x6ef | 0x6fa..=0x6ff => {
            K_ARB
        }
        0x600..=0x6ff => K_SYM2,
        0x700..=0x74f => K_OTH,
        0x750..=0x77f => K_ARB,
        0x780..=0x86f => K_OTH,
        0x870..=0x8ff => K_ARB,
        0x964 | 0x965 | 0x970 => K_SYM3,
        0x966..=0x96f => K_NDIG,
        0x900..=0x97f => K_IND,
        0x980..=0xdff => {
            if u % 0x80 >= 0x66 && u % 0x80 <= 0x6f {
                K_NDIG
            } else {
                K_IND2 + ((u - 0x980) / 0x80) as u8
            }
        }
        0xe50..=0xe59 | 0xed0..=0xed9 => K_NDIG,
        0xe00..=0xeff => K_SEA,
        0xf00..=0xfff => K_OTH,
        0x1040..=0x1049 | 0x1090..=0x1099 => K_NDIG,
        0x104a..=0x104f | 0x109e | 0x109f => K_SYM3,
        0x1000..=0x109f => K_MYA,
        0x1100..=0x11ff => K_HANG,
        0x1680 => K_NWS,
        0x1780..=0x17ff => K_KHM,
        0x1ab0..=0x1aff | 0x1dc0..=0x1dff => K_MARK,
        0x1c80..=0x1c8f => K_CYRX,
        0x1d00..=0x1dbf => K_LATLO,
        0x1e96..=0x1e9f => K_LATLO,
        0x1e00..=0x1eff => parity(u),
        0x1f00..=0x1fff => K_GRK,
        0x135d..=0x135f => K_MARK,
        0x1360..=0x1368 => K_SYM3,
        0x1369..=0x137c => K_NDIG,
        0x1200..=0x137f => K_ETH,
        0x10a0..=0x1fff => K_OTH,
        0x2000..=0x200a | 0x2028 | 0x2029 | 0x202f | 0x205f => K_NWS,
        0x200d | 0x20e3 => K_EMOD,
        0x20d0..=0x20ff => K_MARK,
        0x231a | 0x231b | 0x23e9..=0x23fa | 0x2b1b | 0x2b1c | 0x2b50 | 0x2b55 => K_EMO,
        0x2600..=0x27bf => K_EMO,
        0x2000..=0x2bff => K_SYM3,
        0x2c60..=0x2c7f => K_LATLO,
        0x2de0..=0x2dff => K_CYRX,
        0x2d80..=0x2ddf => K_ETH,
        0x2c00..=0x2dff => K_OTH,
        0x2e00..=0x2e7f => K_SYM3,
        0x2e80..=0x2fff => K_HAN,
        0x3000 => K_NWS,
        0x3001..=0x303f => K_CJKP,
        0x3040..=0x30ff | 0x31f0..=0x31ff => K_KANA,
        0x3100..=0x312f => K_OTH,
        0x3130..=0x318f => K_HANG,
        0x3190..=0x31ef => K_HAN,
        0x3200..=0x33ff => K_SYM3,
        0x3400..=0x4dbf | 0x4e00..=0x9fff => K_HAN,
        0x4dc0..=0x4dff => K_SYM3,
        0xa640..=0xa69f => K_CYRX,
        0xa700..=0xa71f => K_SYM3,
        0xa720..=0xa7ff => K_LATLO,
        0xa000..=0xabff => K_OTH,
        0xac00..=0xd7ff => K_HANG,
        0xe000..=0xf8ff => K_SYM3,
        0xf900..=0xfaff => K_HAN,
        0xfb00..=0xfb06 => K_LATLO,
        0xfb13..=0xfb17 => K_OTH,
        0xfb1d..=0xfdff => K_ARB,
        0xfe00..=0xfe0f => K_EMOD,
        0xfe10..=0xfe1f | 0xfe30..=0xfe4f => K_CJKP,
        0xfe20..=0xfe2f => K_MARK,
        0xfe70..=0xfefe => K_ARB,
        0xff10..=0xff19 => K_NDIG,
        0xff21..=0xff3a => K_LATUP,
        0xff41..=0xff5a => K_LATLO,
        0xff00..=0xff65 => K_CJKP,
        0xff66..=0xff9f => K_KANA,
        0xffa0..=0xffdf => K_HANG,
        _ => K_SYM3,
    }
}

/// [`of_code_point`] from U+10000 up (four UTF-8 bytes): emoji first, as the commonest.
pub const fn of_supplementary(u: u32) -> Kind {
    match u {
        0x1f3fb..=0x1f3ff | 0xe0020..=0xe007f => K_EMOD,
        0x1f300..=0x1f64f
        | 0x1f680..=0x1f6ff
        | 0x1f900..=0x1f9ff
        | 0x1fa70..=0x1faff
        | 0x1f1e6..=0x1f1ff
        | 0x1f004
        | 0x1f0cf
        | 0x1f170..=0x1f251 => K_EMO,
        0x10000..=0x1cfff | 0x1e000..=0x1efff => K_OTH,
        0x20000..=0x3ffff => K_HAN,
        0xe0100..=0xe01ef => K_MARK,
        _ => K_SYM4,
    }
}

/// Whether a Han character is in the common tier: one of the CJK Unified Ideographs that o200k's vocabulary holds
/// as one token (`han_tier.rs`, generated from the vocabulary). Every other ideograph (the rest of the block, the
/// extensions, the compatibility ideographs) is rare.
pub const fn is_common_han(u: u32) -> bool {
    common_han_row((u >> 6) as usize) >> (u & 63) & 1 != 0
}

/// Whether a character in a run of one character is outside the common tier of its block: a Han character outside
/// [`is_common_han`] (the extensions too), or a symbol, CJK symbol or kana, Hangul syllable or emoji that o200k
/// does not hold as one token (`han_tier.rs`). Such a character is two or three byte pieces in most vocabularies
/// here, and so is each character of its run, where a kind's common characters cost one token or merge. Characters
/// of other blocks are never rare here.
pub const fn is_rare_in_run(u: u32) -> bool {
    use super::han_tier::{CJK_SYMBOLS_COMMON, EMOJI_COMMON, HANGUL_COMMON, SYMBOLS_COMMON};
    let (tier, from): (&[u64], u32) = match u {
        0x3400..=0x4dbf | 0x4e00..=0x9fff | 0x20000..=0x3ffff => return !is_common_han(u),
        0x2000..=0x2bff => (&SYMBOLS_COMMON, 0x2000),
        0x3000..=0x30ff => (&CJK_SYMBOLS_COMMON, 0x3000),
        0xac00..=0xd7a3 => (&HANGUL_COMMON, 0xac00),
        0x1f300..=0x1faff => (&EMOJI_COMMON, 0x1f300),
        _ => return false,
    };
    let i = (u - from) as usize;
    tier[i / 64] >> (i % 64) & 1 == 0
}

/// The common tier's bits for the 64 code points from `row * 64` (bit `i` for `row * 64 + i`); none outside
/// U+4E00–U+9FFF. A three-byte character's row is its first two bytes' payload, so the scanner reads it off them.
pub(crate) const fn common_han_row(row: usize) -> u64 {
    let r = row.wrapping_sub(0x4e00 >> 6);
    if r < super::han_tier::HAN_COMMON.len() {
        super::han_tier::HAN_COMMON[r]
    } else {
        0
    }
}

/// [`common_han_row`] for every row of three-byte code points (0 to 1023), for the block loop's look-up with no
/// range test (native builds only: the wasm build's size budget counts).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) static HAN_ROWS: [u64; 1024] = {
    let mut t = [0; 1024];
    let mut r = 0;
    while r < 1024 {
        t[r] = common_han_row(r);
        r += 1;
    }
    t
};

/// Whether the kind is a letter (of any script, ASCII ones too).
pub const fn is_letter(k: Kind) -> bool {
    k == K_LO || k == K_UP || (k >= K_LATLO && k <= K_HANG)
}

/// A combining mark after a character of kind `prev`: a letter's mark continues it (a Latin letter's as a lowercase
/// Latin letter); any other is a symbol of its width.
pub const fn resolve_mark(prev: Kind, width: usize) -> Kind {
    if is_letter(prev) {
        match prev {
            K_LO | K_UP | K_LATUP => K_LATLO,
            x => x,
        }
    } else if width == 2 {
        K_SYM2
    } else {
        K_SYM3
    }
}

/// Whether four or more copies of a character of the kind in a row are priced as one repeat (tokenizers merge
/// them, or, for most non-ASCII letters, price each copy as a token of its own, far from what a word of them
/// costs): ASCII letters, punctuation and controls, letters of every script, emoji, non-ASCII symbols, CJK
/// punctuation and C1 controls. Not whitespace, digits, marks or emoji modifiers.
pub const fn merges(k: Kind) -> bool {
    matches!(
        k,
        K_LO | K_UP | K_PUN | K_CTL | K_CJKP | K_SYM2 | K_SYM3 | K_SYM4 | K_NCTL | K_EMO
    ) || (k >= K_LATLO && k <= K_HANG)
}

// The table. `UTF8[(b0 & 0x3f) << 6 | (b1 & 0x3f)]`, for a character whose first two bytes are `b0` (from 0xC0
// up) and `b1`, is (and the scanner reads it as `PAIRS`, indexed by the two bytes read as one little-endian `u16`
// masked with 0x3f3f): below [`ATTEND`], its kind; from [`ATTEND`] to [`REFINE`], `ATTEND` + its kind when that is
// [`attended`] (the scanner looks closer at those); from [`REFINE`] to [`FOUR`], a
// three-byte character whose 64 code points of that second byte are not all of one kind, `REFINE` + the row of
// [`THIRD`] that the third byte indexes; [`FOUR`], a four-byte character.

/// See the table's comment.
pub const ATTEND: u8 = 0x40;
/// See the table's comment.
pub const REFINE: u8 = 0x80;
/// See the table's comment.
pub const FOUR: u8 = 0xff;

/// The kind shared by the 64 three-byte code points `base..base + 64`, or `None`.
const fn uniform(base: u32) -> Option<Kind> {
    let k = of_code_point(base);
    let mut t = 1;
    while t < 64 {
        if of_code_point(base + t) != k {
            return None;
        }
        t += 1;
    }
    Some(k)
}

/// How many rows [`THIRD`] needs.
const fn refined_rows() -> usize {
    let mut n = 0;
    let mut cell = 0;
    while cell < 1024 {
        if uniform((cell as u32) << 6).is_none() {
            n += 1;
        }
        cell += 1;
    }
    n
}

const NREFINED: usize = refined_rows();

/// Whether the scanner looks closer at every character of the kind (marks, and the kinds that merge in repeats but
/// for letters): letters are common, so the scanner takes their kind straight from the table and looks closer only
/// at one whose next character starts with the same two bytes, or right after a character it looked at.
pub const fn attended(k: Kind) -> bool {
    k == K_MARK || (merges(k) && !is_letter(k))
}

/// A kind as a table entry.
const fn entry(k: Kind) -> u8 {
    if attended(k) {
        ATTEND + k
    } else {
        k
    }
}

const UTF8: [u8; 64 * 64] = {
    let mut t = [FOUR; 64 * 64];
    let mut i = 0;
    // Two-byte characters (lead bytes C0 and C1, code points below 0x80, never occur in valid UTF-8).
    while i < 32 * 64 {
        t[i] = entry(if i >= 2 * 64 {
            of_code_point(i as u32)
        } else {
            K_SYM2
        });
        i += 1;
    }
    // Three-byte characters.
    let mut r = 0;
    while i < 48 * 64 {
        let base = ((i - 32 * 64) as u32) << 6;
        t[i] = match uniform(base) {
            Some(k) => entry(k),
            None => {
                r += 1;
                REFINE + (r - 1) as u8
            }
        };
        i += 1;
    }
    t
};

static THIRD: [Kind; NREFINED * 64] = {
    let mut t = [0; NREFINED * 64];
    let mut r = 0;
    let mut cell = 0;
    while cell < 1024 {
        let base = (cell as u32) << 6;
        if uniform(base).is_none() {
            let mut i = 0;
            while i < 64 {
                t[r * 64 + i] = of_code_point(base + i as u32);
                i += 1;
            }
            r += 1;
        }
        cell += 1;
    }
    t
};

/// [`UTF8`] by rows: `ROWS[b0 & 0x3f][b1 & 0x3f]` is the entry of a character whose first two bytes are `b0` and
/// `b1` (for the vector look-up of a block's entries).
#[cfg(target_arch = "x86_64")]
pub(crate) static ROWS: [[u8; 64]; 64] = {
    let mut t = [[0; 64]; 64];
    let mut i = 0;
    while i < 64 * 64 {
        t[i >> 6][i & 63] = UTF8[i];
        i += 1;
    }
    t
};

/// No entry is this value: [`LEADS`] marks with it a first byte whose row has more than one entry.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const MIXED: u8 = 0xfe;

/// Per first byte (`b0 & 0x3f`), the entry every character starting with it has, or [`MIXED`] (for the vector
/// look-up of a block's entries).
#[cfg(target_arch = "x86_64")]
pub(crate) static LEADS: [u8; 64] = {
    let mut t = [0; 64];
    let mut b0 = 0;
    while b0 < 64 {
        t[b0] = UTF8[b0 << 6];
        let mut b1 = 1;
        while b1 < 64 {
            if UTF8[(b0 << 6) | b1] != t[b0] {
                t[b0] = MIXED;
            }
            b1 += 1;
        }
        b0 += 1;
    }
    t
};

/// [`UTF8`] indexed by `(b1 & 0x3f) << 8 | (b0 & 0x3f)`, which is one mask of the character's first two bytes read
/// as a little-endian `u16`: a quarter of it is used, and the scanner's loop over characters saves the shifts.
static PAIRS: [u8; 64 * 256] = {
    let mut t = [FOUR; 64 * 256];
    let mut b0 = 0;
    while b0 < 64 {
        let mut b1 = 0;
        while b1 < 64 {
            t[(b1 << 8) | b0] = UTF8[(b0 << 6) | b1];
            b1 += 1;
        }
        b0 += 1;
    }
    t
};

/// The table entry for a character whose first two bytes, read as a little-endian `u16`, are `pair` (the first
/// from 0xC0 up).
#[inline(always)]
pub fn entry_of_pair(pair: u16) -> u8 {
    PAIRS[(pair & 0x3f3f) as usize]
}

/// The table entry for a character whose first two bytes are `b0` (from 0xC0 up) and `b1`.
#[inline(always)]
pub fn entry_of(b0: u8, b1: u8) -> u8 {
    entry_of_pair(u16::from_le_bytes([b0, b1]))
}

/// The kind and width of the character whose UTF-8 starts with `b0` (from 0xC2 up) and goes on with `b1`, `b2`,
/// `b3` (bytes past its end are ignored), given its table entry `e` ([`entry_of`]).
#[inline(always)]
pub fn resolve(e: u8, b0: u8, b1: u8, b2: u8, b3: u8) -> (Kind, usize) {
    let width = 2 + (b0 >= 0xe0) as usize + (b0 >= 0xf0) as usize;
    let k = if e < REFINE {
        e & !ATTEND
    } else if e < FOUR {
        THIRD[((e - REFINE) as usize) << 6 | (b2 as usize & 0x3f)]
    } else {
        of_supplementary(
            ((b0 as u32 & 0x07) << 18)
                | ((b1 as u32 & 0x3f) << 12)
                | ((b2 as u32 & 0x3f) << 6)
                | (b3 as u32 & 0x3f),
        )
    };
    (k, width)
}

/// The kind and width of the character whose UTF-8 starts with `b0` (from 0xC2 up) and goes on with `b1`, `b2`,
/// `b3` (bytes past its end are ignored).
pub fn of_utf8(b0: u8, b1: u8, b2: u8, b3: u8) -> (Kind, usize) {
    resolve(entry_of(b0, b1), b0, b1, b2, b3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_the_definition_on_every_scalar_value() {
        for u in 0x80..=0x10ffffu32 {
            let Some(c) = char::from_u32(u) else { continue };
            let mut buf = [0u8; 4];
            let s = c.encode_utf8(&mut buf).as_bytes();
            let mut b = [0u8; 4];
            b[..s.len()].copy_from_slice(s);
            let (k, w) = of_utf8(b[0], b[1], b[2], b[3]);
            assert_eq!((k, w), (of_code_point(u), s.len()), "U+{u:04X}");
        }
    }

    #[test]
    fn kinds_are_in_range_and_ascii_kinds_stay_ascii() {
        for u in 0x80..=0x10ffffu32 {
            let k = of_code_point(u);
            assert!(
                (K_LATLO as usize..COUNT).contains(&(k as usize)),
                "U+{u:04X}: {k}"
            );
        }
        for b in 0..0x80u8 {
            assert!(of_ascii(b) < K_LATLO);
        }
        // The refinement rows fit the table's byte entries, and every plain kind is below `ATTEND`.
        assert!(REFINE as usize + NREFINED < MIXED as usize);
        assert!(COUNT <= ATTEND as usize);
        for b0 in 0xc2..=0xf4u8 {
            for b1 in 0x80..0xc0u8 {
                let e = entry_of(b0, b1);
                if e < ATTEND {
                    assert!(!attended(e), "{b0:02x} {b1:02x}");
                }
            }
        }
    }

    #[test]
    fn marks_resolve_to_the_letter_before_them() {
        assert_eq!(resolve_mark(K_LO, 2), K_LATLO);
        assert_eq!(resolve_mark(K_IND, 3), K_IND);
        assert_eq!(resolve_mark(K_PUN, 2), K_SYM2);
        assert_eq!(resolve_mark(K_BLANK, 3), K_SYM3);
        assert_eq!(of_code_point(0x301), K_MARK);
        assert_eq!(of_code_point(0x445), K_CYR);
        assert_eq!(of_code_point(0x456), K_CYRX);
        assert_eq!(of_code_point(0x9e6), K_NDIG);
        assert_eq!(of_code_point(0xa05), K_IND2 + 1);
        assert_eq!(of_code_point(0x1f600), K_EMO);
        assert_eq!(of_code_point(0x1f3fd), K_EMOD);
    }
}
