//! Inputs shared by the scanner tests (`scan_equivalence`, `scan_oracle`): a deterministic generator, uneven
//! piece cuts, and an alphabet of every character class and range edge the scanner tells apart.
#![allow(dead_code)]

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Piece lengths: mostly short and uneven, sometimes empty, sometimes long.
pub fn cuts(len: usize, rng: &mut Rng) -> Vec<usize> {
    let mut out = vec![0];
    let mut at = 0;
    while at < len {
        let step = match rng.below(10) {
            0 => 0,
            1..=6 => 1 + rng.below(7),
            7 | 8 => 1 + rng.below(40),
            _ => 1 + rng.below(700),
        };
        at = (at + step).min(len);
        out.push(at);
    }
    out
}

/// Characters from every class and range the scanner distinguishes, and their edges.
pub const ALPHABET: &[char] = &[
    // ASCII: letters (hex and not), digits, punctuation with and without signals, whitespace, controls.
    'a',
    'b',
    'e',
    'f',
    'g',
    'q',
    'z',
    'A',
    'B',
    'F',
    'G',
    'Q',
    'Z',
    '0',
    '1',
    '5',
    '9',
    ' ',
    ' ',
    ' ',
    '\t',
    '\n',
    '\r',
    '\u{b}',
    '\u{c}',
    '\0',
    '\u{1}',
    '\u{1b}',
    '\u{7f}',
    '.',
    ',',
    ';',
    ':',
    '!',
    '?',
    '{',
    '}',
    '[',
    ']',
    '(',
    ')',
    '<',
    '>',
    '=',
    '"',
    '\'',
    '\\',
    '/',
    '+',
    '-',
    '_',
    '*',
    '#',
    '@',
    '`',
    '~',
    '|',
    '$',
    '%',
    '&',
    '^', // Latin-1 and Latin Extended-A, including the odd ones out.
    'À',
    'Ö',
    '×',
    'Ø',
    'Þ',
    'ß',
    'à',
    'é',
    'ö',
    '÷',
    'ø',
    'ÿ',
    'Ā',
    'ā',
    'ĸ',
    'ŉ',
    'ſ',
    'Ž',
    'ž',
    '\u{a0}',
    '\u{a9}',
    '\u{b5}',
    '\u{80}',
    '\u{9f}', // Latin Extended-B and Additional, IPA.
    'ƀ',
    'Ɓ',
    'ɐ',
    'Ḁ',
    'ḁ',
    'Ɐ',
    'Ꜣ',
    'ꜣ', // Cyrillic.
    'Ѐ',
    'Д',
    'Я',
    'а',
    'д',
    'я',
    'ѐ',
    'џ',
    'Ѡ',
    'ѡ',
    'ҁ',
    '\u{483}',
    '\u{489}',
    'Ҋ',
    'ҋ',
    'ԯ',
    'ᲀ',
    'ꙁ',
    // Greek.
    'Ά',
    '·',
    'Έ',
    'Α',
    'Ϋ',
    'ά',
    'ω',
    'ώ',
    'Ϗ',
    'ϐ',
    'ἀ',
    'Ἀ', // Hebrew and Arabic.
    '\u{591}',
    '\u{5c7}',
    'א',
    'ת',
    '\u{5f3}',
    '\u{610}',
    'ء',
    'ب',
    'ي',
    '\u{64b}',
    '\u{65f}',
    '٠',
    '٩',
    'ٮ',
    'ٯ',
    '\u{670}',
    'ٱ',
    'ۓ',
    'ە',
    '\u{6d6}',
    '\u{6ed}',
    '۰',
    '۹',
    'ۺ',
    'ۼ',
    '\u{600}',
    '؟',
    'ﭐ',
    'ﻼ',
    // Indic.
    'ऀ',
    'क',
    'ा',
    '्',
    '।',
    '॥',
    '०',
    '९',
    '॰',
    'ॱ',
    'ॿ',
    'অ',
    '০',
    'ਕ',
    '੦',
    'க',
    '௦',
    'ക',
    '൦',
    '\u{dff}',
    // Thai, Lao, Myanmar, Khmer.
    'ก',
    '๐',
    '๙',
    'ຮ',
    '໐',
    'က',
    'ក', // CJK.
    '㐀',
    '一',
    '中',
    '国',
    '龥',
    '鿿',
    '豈',
    '𠀀',
    'ぁ',
    'あ',
    '\u{3099}',
    'ア',
    'ヿ',
    'ㇰ',
    'ｦ',
    'ﾟ',
    '가',
    '힣',
    'ᄀ',
    'ㄱ',
    '０',
    '９',
    'Ａ',
    'Ｚ',
    'ａ',
    'ｚ',
    '\u{3000}',
    '、',
    '。',
    '〿',
    '！',
    '｡',
    '︰',
    // Whitespace, marks.
    '\u{1680}',
    '\u{2000}',
    '\u{200a}',
    '\u{2028}',
    '\u{2029}',
    '\u{202f}',
    '\u{205f}',
    '\u{300}',
    '\u{301}',
    '\u{36f}',
    '\u{1ab0}',
    '\u{1dc0}',
    '\u{20d0}',
    '\u{20e2}',
    '\u{20e4}',
    '\u{85}',
    // Emoji and modifiers.
    '\u{200d}',
    '\u{fe0e}',
    '\u{fe0f}',
    '\u{20e3}',
    '\u{1f3fb}',
    '\u{1f3ff}',
    '\u{e0020}',
    '\u{e007f}',
    '🌀',
    '😀',
    '🙏',
    '🚀',
    '🤖',
    '🫀',
    '🇦',
    '🇿',
    '☀',
    '➿',
    '⭐',
    '⭕',
    '⬛',
    '⬜',
    '⌚',
    '⌛',
    '⏩',
    '⏺',
    '🀄',
    '🃏',
    '🅰',
    '🉑', // Other letters, numbers, symbols.
    'Ա',
    'ա',
    'Ⴀ',
    'ა',
    'Ⅻ',
    'ⅻ',
    '½',
    '²',
    '€',
    '→',
    '∑',
    '─',
    '\u{fffd}',
    '\u{feff}',
    '\u{200b}',
    '\u{e000}',
    '\u{10ffff}',
    '𝐀',
    '𝟎',
    'ᐁ',
    'ꀀ',
    '\u{2061}',
];

/// Whole pieces that exercise longer shapes.
pub const WORDS: &[&str] = &[
    "the",
    "quick",
    "internationalization",
    "bookkeeper",
    "getElementById",
    "HTTPServer",
    "XMLHttpRequest",
    "aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ=",
    "9f86d081884c7d659a2feaa0c55ad015",
    "DEADBEEF12",
    "Съешь",
    "французских",
    "我们的目标是",
    "ひらがなカタカナ",
    "한국어문장",
    "मानकहिन्दी",
    "العربية",
    "ภาษาไทย",
    "👋🏽",
    "👨‍👩‍👧",
    "1️⃣",
    "\r\n",
    "    ",
    "\n\n\n\n\n",
    "1234567",
    "x\u{301}\u{301}\u{301}\u{301}y",
];

/// Invalid or truncated UTF-8.
pub const BAD: &[&[u8]] = &[
    b"\xff",
    b"\x80",
    b"\xc0",
    b"\xc3",
    b"\xe4\xb8",
    b"\xe0\x80",
    b"\xed\xa0\x80",
    b"\xf4\x90",
    b"\xf0\x9f\x98",
    b"\xf8\x88\x80\x80",
    b"\xfe",
];

/// A random input: characters of the alphabet repeated 1..=10 times, words, and invalid bytes.
pub fn random_input(rng: &mut Rng, len: usize, invalid: bool) -> Vec<u8> {
    let mut out = Vec::new();
    // A bias towards a few characters per input makes runs and same-script words likely.
    let local: Vec<char> = (0..1 + rng.below(12))
        .map(|_| ALPHABET[rng.below(ALPHABET.len())])
        .collect();
    while out.len() < len {
        let r = rng.below(100);
        if invalid && r < 4 {
            out.extend_from_slice(BAD[rng.below(BAD.len())]);
            continue;
        }
        if r < 14 {
            out.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
            continue;
        }
        let c = if r < 60 {
            local[rng.below(local.len())]
        } else {
            ALPHABET[rng.below(ALPHABET.len())]
        };
        let reps = match rng.below(10) {
            0..=5 => 1,
            6 => 2,
            7 => 3,
            8 => 4,
            _ => 1 + rng.below(10),
        };
        let mut buf = [0; 4];
        for _ in 0..reps {
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    out
}
