//! The scanner's counts by their definitions, read off the text one byte at a time with no state carried and no
//! cleverness: every per-byte predicate is a closure over the whole text, every window is an explicit loop. The
//! fast scanner (`src/scan/`) must give exactly these `Features` for every input and every way of cutting it
//! (`tests/scan_oracle.rs`, and the `scan_oracle` fuzz target). Character kinds come from the definition
//! (`kind::of_code_point`), not from the scanner's tables.
#![allow(dead_code, clippy::needless_range_loop)]

use llm_preflight::internals::scan::kind::*;
pub use llm_preflight::internals::scan::Features;
use llm_preflight::internals::scan::{
    f, Class, Runs, Signals, ARMENIAN_LEADS, ASCII_PUNCT, BYTE_TALLY_RANGES, LONG_RUN, NF,
};

/// The reference's streaming face: it keeps every byte and reads them all at the end, invalid UTF-8 replaced as
/// `String::from_utf8_lossy` does (which is what the scanner's `feed_bytes` promises).
#[derive(Default)]
pub struct Scanner {
    buf: Vec<u8>,
}

impl Scanner {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn feed(&mut self, text: &str) {
        self.buf.extend_from_slice(text.as_bytes());
    }
    pub fn feed_bytes(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }
    pub fn saw_invalid_utf8(&self) -> bool {
        std::str::from_utf8(&self.buf).is_err()
    }
    pub fn features(&self) -> Features {
        let mut f = scan_reference(&String::from_utf8_lossy(&self.buf));
        f.bytes = self.buf.len() as u64;
        f
    }
}

/// Script group of a letter kind for runs (0 = not a letter). Latin = 1.
const fn script_of(k: u8) -> u8 {
    match k {
        K_LO | K_UP | K_LATLO | K_LATUP => 1,
        K_CYR | K_CYRX => 2,
        K_GRK => 3,
        K_ARB => 4,
        K_IND => 5,
        15..=23 => 6,
        K_SEA | K_MYA | K_KHM => 7,
        K_OTH | K_ETH => 8,
        K_HAN => 9,
        K_KANA => 10,
        K_HANG => 11,
        _ => 0,
    }
}

const NSCRIPT: usize = 12;
const SCRIPT_RUNS: [usize; NSCRIPT] = [
    0,
    f::LATIN_RUNS,
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

/// The features of `text`, by the definitions, one byte at a time.
pub fn scan_reference(text: &str) -> Features {
    let b = text.as_bytes();
    let n = b.len();
    let mut kind = vec![0u8; n];
    let mut lead = vec![false; n];
    let mut width = vec![1usize; n];
    // Per byte: the lead position of its character.
    let mut at = vec![0usize; n];
    let mut arabic_marks = 0u64;
    let mut hebrew_marks = 0u64;
    for (i, c) in text.char_indices() {
        let w = c.len_utf8();
        let mut k = if w == 1 {
            of_ascii(b[i])
        } else {
            of_code_point(c as u32)
        };
        if k == K_MARK {
            // A mark takes the previous character's kind when it is a letter.
            k = resolve_mark(if i > 0 { kind[i - 1] } else { K_NL }, w);
            let hebrew = (0x591..=0x5c7).contains(&(c as u32));
            arabic_marks += (k == K_ARB && !hebrew) as u64;
            hebrew_marks += (k == K_ARB && hebrew) as u64;
        }
        lead[i] = true;
        for j in i..i + w {
            kind[j] = k;
            width[j] = w;
            at[j] = i;
        }
    }
    let byte = |i: isize| -> Option<u8> {
        if i < 0 || i as usize >= n {
            None
        } else {
            Some(b[i as usize])
        }
    };
    // Repeats.
    let mut rep = vec![false; n];
    // ASCII: windows of 4 equal bytes of a merging ASCII kind.
    for i in 0..n {
        if b[i] < 0x80 && merges(kind[i]) && (1..4).all(|d| byte(i as isize + d) == Some(b[i])) {
            for j in i..i + 4 {
                rep[j] = true;
            }
        }
    }
    // Wide: four equal characters of a merging non-ASCII kind.
    for i in 0..n {
        let w = width[i];
        if lead[i]
            && w > 1
            && merges(kind[i])
            && i + 4 * w <= n
            && (i..i + 3 * w).all(|t| b[t] == b[t + w])
        {
            for j in i..i + 4 * w {
                rep[j] = true;
            }
        }
    }
    // Repeat runs: a repeat byte at a lead that does not continue a repeat of the same character.
    let mut v = [0u64; NF];
    v[f::ARABIC_MARKS] = arabic_marks;
    v[f::HEBREW_MARKS] = hebrew_marks;
    // Han characters outside the common tier, outside repeats; Czech and Slovak letters outside repeats.
    for (i, c) in text.char_indices() {
        v[f::CS_LETTERS] += u64::from(!rep[i] && "ěřůďťňĚŘŮĎŤŇ".contains(c));
        if kind[i] == K_HAN && !rep[i] && !is_common_han(c as u32) {
            v[f::HAN_RARE] += 1;
            v[f::HAN_EXT] += (0x20000..0x40000).contains(&(c as u32)) as u64;
            v[f::HAN_EXT_A] += (0x3400..=0x4DBF).contains(&(c as u32)) as u64;
        }
    }
    let mut repeats = Runs::NEW;
    let mut class_chars = [0u64; Class::COUNT];
    for i in 0..n {
        if !(rep[i] && lead[i]) {
            continue;
        }
        let w = width[i];
        let cont = i >= w && rep[i - w] && lead[i - w] && b[i - w..i] == b[i..i + w];
        let (runs, chars) = if w > 1 {
            (f::REP_WIDE_RUNS, f::REP_WIDE_CHARS)
        } else if b[i].is_ascii_alphabetic() {
            (f::REP_ALPHA_RUNS, f::REP_ALPHA_CHARS)
        } else {
            (f::REP_RUNS, f::REP_CHARS)
        };
        if !cont {
            v[runs] += 1;
        }
        v[chars] += 1;
        if w > 1 {
            repeats.wide[kind[i] as usize] += 1;
            let c = std::str::from_utf8(&b[i..i + w])
                .map_or('\u{fffd}', |s| s.chars().next().unwrap_or('\u{fffd}'));
            repeats.wide_rare[kind[i] as usize] += is_rare_in_run(c as u32) as u64;
            repeats.wide_bytes += w as u64;
        } else {
            repeats.ascii[b[i] as usize] += 1;
        }
        class_chars[Class::Repeats as usize] += 1;
    }
    // Periodic windows: 16 bytes of ASCII punctuation or letters outside repeats and blanks that follow fewer than
    // three blanks, one of the last p punctuation, each of the last 16 - p equal to the one p before.
    let pun = |t: usize| b[t].is_ascii_punctuation() && !rep[t];
    let letter = |t: usize| b[t].is_ascii_alphabetic() && !rep[t];
    let blank = |t: usize| b[t] == b' ' || b[t] == b'\t';
    let pun_or_blank =
        |t: usize| pun(t) || letter(t) || blank(t) && !(t >= 3 && (t - 3..t).all(blank));
    // Windows of letters alone: 16 ASCII letters outside repeats, the last past the 64th byte of a run of Latin
    // letters (ASCII or not, outside repeats).
    let latin_byte = |t: usize| !rep[t] && [K_LO, K_UP, K_LATLO, K_LATUP].contains(&kind[t]);
    let mut latin_run = vec![0usize; n];
    for t in 0..n {
        if latin_byte(t) {
            latin_run[t] = if t > 0 { latin_run[t - 1] + 1 } else { 1 };
        }
    }
    // Each byte in such a window counts once.
    let mut in_window = vec![false; n];
    let mut in_plain = vec![false; n];
    for i in 0..n {
        for p in 2..=4usize {
            if i + 1 >= 16
                && latin_run[i] > LONG_RUN as usize
                && (i + 1 - 16..=i).all(letter)
                && (i + 1 - (16 - p)..=i).all(|t| b[t] == b[t - p])
            {
                in_window[i + 1 - 16..=i].fill(true);
                in_plain[i + 1 - 16..=i].fill(true);
                repeats.periodic_ends[p + 7] += 1;
            }
            if i + 1 >= 16
                && (i + 1 - 16..=i).all(pun_or_blank)
                && (i + 1 - p..=i).any(pun)
                && (i + 1 - (16 - p)..=i).all(|t| b[t] == b[t - p])
            {
                in_window[i + 1 - 16..=i].fill(true);
                let holds = |f: &dyn Fn(usize) -> bool| (i + 1 - p..=i).any(f);
                let class = if holds(&letter) {
                    2
                } else {
                    usize::from(holds(&blank))
                };
                repeats.periodic_ends[p - 2 + 3 * class] += 1;
            }
        }
    }
    repeats.periodic = in_window.iter().filter(|&&x| x).count() as u64;
    repeats.periodic_letters = (0..n).filter(|&t| in_window[t] && letter(t)).count() as u64;
    repeats.periodic_blanks = (0..n).filter(|&t| in_window[t] && blank(t)).count() as u64;
    repeats.periodic_plain = in_plain.iter().filter(|&&x| x).count() as u64;
    // Per-byte class predicates (repeats excluded).
    let k_at = |i: isize| -> Option<u8> {
        if i < 0 || i as usize >= n || rep[i as usize] {
            None
        } else {
            Some(kind[i as usize])
        }
    };
    let is = |i: isize, ks: &[u8]| k_at(i).is_some_and(|k| ks.contains(&k));
    // Each predicate, as defined, read once per byte into a table (outside the text every one is false).
    let table = |p: &dyn Fn(isize) -> bool| -> Vec<bool> { (0..n as isize).map(p).collect() };
    let at = |t: &[bool], i: isize| i >= 0 && (i as usize) < n && t[i as usize];
    let byte_is = |i: isize, c: u8| k_at(i).is_some() && byte(i) == Some(c);
    let lo_t = table(&|i| is(i, &[K_LO]));
    let up_t = table(&|i| is(i, &[K_UP]));
    let latin_t = table(&|i| is(i, &[K_LO, K_UP, K_LATLO, K_LATUP]));
    let dig_t = table(&|i| is(i, &[K_DIG]));
    let digit_any_t = table(&|i| is(i, &[K_DIG, K_NDIG]));
    let pun_t = table(&|i| is(i, &[K_PUN]));
    let blank_t = table(&|i| is(i, &[K_BLANK]));
    let nl_t = table(&|i| is(i, &[K_NL]));
    let script_t: Vec<u8> = (0..n as isize)
        .map(|i| k_at(i).map_or(0, script_of))
        .collect();
    let lo = |i: isize| at(&lo_t, i);
    let up = |i: isize| at(&up_t, i);
    let latin = |i: isize| at(&latin_t, i);
    // The bytes of runs of more than LONG_RUN bytes of Latin letters.
    let mut i = 0;
    while i < n {
        let run = latin_t[i..].iter().take_while(|&&x| x).count();
        if run > LONG_RUN as usize {
            repeats.long_letters += run as u64;
        }
        i += run.max(1);
    }
    let dig = |i: isize| at(&dig_t, i);
    let digit_any = |i: isize| at(&digit_any_t, i);
    let pun = |i: isize| at(&pun_t, i);
    let blank = |i: isize| at(&blank_t, i);
    let nl = |i: isize| at(&nl_t, i);
    let script = |i: isize| {
        if i < 0 || i as usize >= n {
            0
        } else {
            script_t[i as usize]
        }
    };
    let nonlatin_alpha_t = table(&|i| matches!(script(i), 2..=8));
    let nonlatin_alpha = |i: isize| at(&nonlatin_alpha_t, i);
    let hexl_t = table(&|i| dig(i) || (lo(i) && byte(i).is_some_and(|c| c <= b'f')));
    let hexu_t = table(&|i| dig(i) || (up(i) && byte(i).is_some_and(|c| c <= b'F')));
    let hexletter_t =
        table(&|i| (lo(i) || up(i)) && byte(i).is_some_and(|c| matches!(c | 0x20, b'a'..=b'f')));
    let alnum_t = table(&|i| lo(i) || up(i) || dig(i));
    let b64_t = table(&|i| at(&alnum_t, i) || byte_is(i, b'+') || byte_is(i, b'/'));
    // all_k(k, t, i): the predicate of table t holds at each of i-k+1..=i; any_k: at one of them at least. Counted
    // with prefix sums of the table (the bytes before the text hold no predicate).
    let sums = |t: &[bool]| -> Vec<u32> {
        let mut s = vec![0u32; t.len() + 1];
        for (j, &x) in t.iter().enumerate() {
            s[j + 1] = s[j] + x as u32;
        }
        s
    };
    let in_window = |sums: &[u32], k: isize, i: isize| {
        let from = (i - k + 1).max(0) as usize;
        sums[i as usize + 1] - sums[from]
    };
    let all_k =
        |k: isize, i: isize, sums: &[u32]| i - k + 1 >= 0 && in_window(sums, k, i) == k as u32;
    let any_k = |k: isize, i: isize, sums: &[u32]| in_window(sums, k, i) > 0;
    let letter_t: Vec<bool> = lo_t.iter().zip(&up_t).map(|(a, b)| *a || *b).collect();
    let (latin_s, alpha_s, blank_s, b64_s) = (
        sums(&latin_t),
        sums(&nonlatin_alpha_t),
        sums(&blank_t),
        sums(&b64_t),
    );
    let (dig_s, up_s, lo_s, letter_s) = (sums(&dig_t), sums(&up_t), sums(&lo_t), sums(&letter_t));
    let (hexl_s, hexu_s, hexletter_s, alnum_s) = (
        sums(&hexl_t),
        sums(&hexu_t),
        sums(&hexletter_t),
        sums(&alnum_t),
    );
    let mut first_nonspace = None;
    let mut group_phase = 0usize;
    let mut hist = [0u64; 256];
    for &c in b {
        hist[c as usize] += 1;
    }
    for i in 0..n {
        if rep[i] {
            hist[b[i] as usize] -= 1;
        }
    }
    // Bare words: runs of non-Latin alphabetic letters whose first byte does not follow a blank.
    let mut bare_run = false;
    for iu in 0..=n {
        let i = iu as isize;
        // Closing positions (i may be n).
        if !pun(i) && pun(i - 1) && !pun(i - 2) {
            v[f::PUNCT_SINGLE] += 1;
        }
        if !blank(i) && blank(i - 1) {
            if blank(i - 2) {
                v[f::WS_RUNS] += 1;
            } else {
                v[f::SPACES_SINGLE] += 1;
            }
        }
        if iu == n {
            break;
        }
        let k = kind[iu];
        if first_nonspace.is_none() && lead[iu] && !matches!(k, K_BLANK | K_NL | K_OWS | K_NWS) {
            first_nonspace = text[iu..].chars().next();
        }
        // Runs per script.
        let s = script(i);
        let start = s != 0 && script(i - 1) != s;
        if start {
            v[SCRIPT_RUNS[s as usize]] += 1;
            if pun(i - 1) && !pun(i - 2) {
                v[f::WORD_AFTER_PUNCT] += 1;
                if byte_is(i - 1, b'\\') {
                    v[f::BACKSLASH_WORDS] += 1;
                }
            }
        }
        if nonlatin_alpha(i) && !nonlatin_alpha(i - 1) {
            bare_run = !blank(i - 1);
        }
        if !nonlatin_alpha(i) {
            bare_run = false;
        }
        if lead[iu] && bare_run {
            v[f::BARE_WORD_CHARS] += 1;
        }
        if lead[iu] && latin(i) && all_k(9, i, &latin_s) {
            v[f::LATIN_LONG] += 1;
        }
        if lead[iu] && nonlatin_alpha(i) && all_k(17, i, &alpha_s) {
            v[f::NONLATIN_LONG] += 1;
        }
        if up(i) && lo(i - 1) {
            v[f::LATIN_CASE_SPLITS] += 1;
        }
        if lo(i) && up(i - 1) && up(i - 2) {
            v[f::CAPS_THEN_LOWER] += 1;
        }
        // Digits.
        if digit_any(i) && !digit_any(i - 1) {
            v[f::DIGIT_RUNS] += 1;
            if blank(i - 1) {
                v[f::DIGITS_AFTER_BLANK] += 1;
            }
        }
        if dig(i) {
            if !dig(i - 1) {
                group_phase = 0;
            }
            if group_phase == 0 {
                v[f::DIGIT_GROUPS3] += 1;
            }
            group_phase = (group_phase + 1) % 3;
        }
        if pun(i) && !pun(i - 1) {
            v[f::PUNCT_RUNS] += 1;
        }
        if blank(i) && blank(i - 1) {
            v[f::WS_RUN_CHARS] += 1;
        }
        if blank(i) && all_k(17, i, &blank_s) {
            v[f::WS_LONG] += 1;
        }
        if nl(i) && !nl(i - 1) {
            v[f::NL_RUNS] += 1;
        }
        // Encoded strings (window ends).
        let b64q = all_k(16, i, &b64_s)
            && any_k(16, i, &dig_s)
            && any_k(16, i, &up_s)
            && any_k(16, i, &lo_s);
        let hexq = (all_k(8, i, &hexl_s) || all_k(8, i, &hexu_s))
            && any_k(8, i, &dig_s)
            && any_k(8, i, &hexletter_s);
        if b64q {
            v[f::B64_CHARS] += 1;
        }
        if hexq {
            v[f::HEX_CHARS] += 1;
        }
        if !b64q && !hexq && all_k(4, i, &alnum_s) && any_k(4, i, &dig_s) && any_k(4, i, &letter_s)
        {
            v[f::MIXED_ALNUM_CHARS] += 1;
        }
        // Non-ASCII characters by kind.
        if lead[iu] && b[iu] >= 0x80 && !rep[iu] {
            let cc = &mut class_chars;
            match k {
                K_LATLO | K_LATUP => {
                    v[f::LATIN_CHARS] += 1;
                    v[f::LATIN_NONASCII] += 1;
                    cc[Class::Letters as usize] += 1;
                }
                K_CYR | K_CYRX => {
                    v[f::CYR_CHARS] += 1;
                    if k == K_CYRX {
                        v[f::CYR_NONRUSSIAN] += 1;
                    }
                    cc[Class::Letters as usize] += 1;
                }
                K_GRK => {
                    v[f::GREEK_CHARS] += 1;
                    cc[Class::Letters as usize] += 1;
                }
                K_ARB => {
                    v[f::ARABIC_CHARS] += 1;
                    cc[Class::Letters as usize] += 1;
                }
                K_IND => {
                    v[f::INDIC_CHARS] += 1;
                    cc[Class::Letters as usize] += 1;
                }
                15..=23 => {
                    v[f::INDIC2_CHARS + (k - K_IND2) as usize] += 1;
                    cc[Class::Letters as usize] += 1;
                }
                K_SEA => {
                    v[f::SEA_CHARS] += 1;
                    cc[Class::Letters as usize] += 1;
                }
                K_MYA => {
                    v[f::MYANMAR_CHARS] += 1;
                    cc[Class::Letters as usize] += 1;
                }
                K_KHM => {
                    v[f::KHMER_CHARS] += 1;
                    cc[Class::Letters as usize] += 1;
                }
                K_OTH => {
                    v[f::OTHER_CHARS] += 1;
                    cc[Class::Letters as usize] += 1;
                }
                K_ETH => {
                    v[f::ETHIOPIC_CHARS] += 1;
                    cc[Class::Letters as usize] += 1;
                }
                K_HAN => {
                    v[f::HAN_CHARS] += 1;
                    cc[Class::Cjk as usize] += 1;
                }
                K_KANA => {
                    v[f::KANA_CHARS] += 1;
                    cc[Class::Cjk as usize] += 1;
                }
                K_HANG => {
                    v[f::HANGUL_CHARS] += 1;
                    cc[Class::Cjk as usize] += 1;
                }
                K_CJKP => {
                    v[f::CJK_PUNCT] += 1;
                    cc[Class::Cjk as usize] += 1;
                }
                K_NDIG => {
                    v[f::DIGITS] += 1;
                    cc[Class::Digits as usize] += 1;
                }
                K_EMO => {
                    v[f::EMOJI] += 1;
                    cc[Class::Symbols as usize] += 1;
                }
                K_EMOD => {
                    v[f::EMOJI_MODS] += 1;
                    cc[Class::Symbols as usize] += 1;
                }
                K_SYM2 => {
                    v[f::SYM2] += 1;
                    cc[Class::Symbols as usize] += 1;
                }
                K_SYM3 => {
                    v[f::SYM3] += 1;
                    cc[Class::Symbols as usize] += 1;
                }
                K_SYM4 => {
                    v[f::SYM4] += 1;
                    cc[Class::Symbols as usize] += 1;
                }
                K_NWS => {
                    v[f::OTHER_WS] += 1;
                    cc[Class::Whitespace as usize] += 1;
                }
                K_NCTL => {
                    v[f::CONTROL] += 1;
                    cc[Class::Control as usize] += 1;
                }
                _ => unreachable!("kind {k}"),
            }
        }
    }
    let mut indented = 0;
    for i in 0..n as isize {
        if blank(i) && (i == 0 || nl(i - 1)) {
            indented += 1;
        }
    }
    // The histogram's part.
    let h = &hist;
    let sum = |from: u8, to: u8| h[from as usize..=to as usize].iter().sum::<u64>();
    let total = sum(0, 0x7f);
    let mut letters = 0;
    for i in 0..26 {
        let (lo, up) = (h[b'a' as usize + i], h[b'A' as usize + i]);
        v[f::LETTER_A + i] += lo + up;
        v[f::UPPER_A + i] += up;
        letters += lo + up;
    }
    for (k, &c) in ASCII_PUNCT.iter().enumerate() {
        v[f::PUNCT_CHARS + k] += h[c as usize];
    }
    let digits = sum(b'0', b'9');
    let (space, tabs, newlines) = (h[b' ' as usize], h[b'\t' as usize], h[b'\n' as usize]);
    let other_ws = sum(0x0b, 0x0d);
    let whitespace = space + tabs + newlines + other_ws;
    let controls = sum(0, 0x1f) - tabs - newlines - other_ws + h[0x7f];
    let punct = total - letters - digits - whitespace - controls;
    v[f::LATIN_CHARS] += letters;
    v[f::DIGITS] += digits;
    v[f::TABS] += tabs;
    v[f::NL_CHARS] += newlines;
    v[f::OTHER_WS] += other_ws;
    v[f::CONTROL] += controls;
    class_chars[Class::Letters as usize] += letters;
    class_chars[Class::Digits as usize] += digits;
    class_chars[Class::Punctuation as usize] += punct;
    class_chars[Class::Whitespace as usize] += whitespace;
    class_chars[Class::Control as usize] += controls;
    for (i, &(lo, hi)) in BYTE_TALLY_RANGES.iter().enumerate() {
        v[f::BYTE_TALLIES + i] += sum(lo, hi);
    }
    v[f::LEAD_D4_D5] += sum(ARMENIAN_LEADS.0, ARMENIAN_LEADS.1);
    let chars = text.chars().count() as u64;
    if chars > 0 {
        v[f::BIAS] = 1;
    }
    let sig = |cs: &[u8]| cs.iter().map(|&c| h[c as usize]).sum::<u64>();
    Features {
        v,
        chars,
        bytes: n as u64,
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
            lines: hist[b'\n' as usize],
            indented_lines: indented,
            first_nonspace,
        },
        runs: repeats,
    }
}
