//! Runs of one character: what each profile's tokenizer makes of `c` repeated `n` times.
//!
//! The linear rates are fitted on the corpus, whose repeats are short (a ruler of 80 `=`, a row of `----`); they
//! cannot know that 100,000 `=` are 1,562 o200k tokens (64 to a token) while 100,000 `!` are 6,250 (16 to a token).
//! A vocabulary's tokens for runs of one character are regular: past a few dozen characters every further one costs
//! the same share of a token. So for each character that the scanner counts in repeats, per profile:
//!
//! - `d`: the tokens 2,048 more characters of a long run cost (`T(4096) − T(2048)`; a rate of `d / 2048` per
//!   character, exact in the tables' 11-bit significands since `d ≤ 2048`);
//! - `lo`, `mid`, `hi`: the minimum, median and maximum over `n = 4..=300` of `2048·T(n) − n·d`, what a run costs
//!   beyond its rate, in 2048ths of a token.
//!
//! The characters (`calibration/run-chars.txt`, written by `calibrate run-chars`): every ASCII character of a kind
//! that repeats (letters, punctuation, controls), the C1 controls, and 12 characters of each other kind that repeats
//! (letters of every other script, CJK punctuation, emoji, symbols) from the corpus's `fit` split: those seen most
//! often in repeats, then the commonest, and as many of those outside the common tier of their block
//! (`kind::is_rare_in_run`: a rare ideograph, `┻`, `쬹`), which price a run of a rare character; and, marked ` vocab`, the characters of each kind whose runs o200k or cl100k
//! merge cheapest ([`vocab_run_chars`]: `哈哈` and `ㅋㅋ` are one o200k token each), which set the kind's least rate
//! but not its median. `calibrate counts` measures o200k and
//! cl100k with tiktoken-rs; `calibration/vendors/count.mjs --runs` the other profiles, into
//! `calibration/vendor-runs.tsv`. Both land in `calibration/runs.tsv`, which `fit` turns into the run tables of
//! `src/tables.rs`.

use crate::{Sample, NP};
use llm_preflight::internals::scan::kind::{self, Kind};
use llm_preflight::Profile;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// The run lengths whose cost beyond the rate is measured (repeats start at 4 characters).
pub const RUN_LENGTHS: std::ops::RangeInclusive<usize> = 4..=300;

/// How many of a non-ASCII kind's commonest characters are measured.
pub const WIDE_PER_KIND: usize = 12;

/// One measured character for one profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunRow {
    /// Index in `Profile::ALL`.
    pub profile: usize,
    pub ch: char,
    /// Tokens per 2,048 characters of a long run.
    pub d: i64,
    /// Min, median and max of `2048·T(n) − n·d` over [`RUN_LENGTHS`].
    pub lo: i64,
    pub mid: i64,
    pub hi: i64,
}

/// The scanner's kind of a character.
pub fn kind_of(c: char) -> Kind {
    if c.is_ascii() {
        kind::of_ascii(c as u8)
    } else {
        kind::of_code_point(c as u32)
    }
}

/// The characters to measure, in code point order: see the module docs.
pub fn run_chars(samples: &[Sample]) -> Vec<char> {
    let mut out: Vec<char> = (1u8..0x80)
        .map(char::from)
        .filter(|&c| kind::merges(kind_of(c)))
        .collect();
    out.extend((0x80u32..0xa0).filter_map(char::from_u32));
    // Per character: how often it is in a repeat (four or more in a row), and how often it occurs.
    let mut freq: BTreeMap<char, (u64, u64)> = BTreeMap::new();
    for s in samples.iter().filter(|s| crate::split_of(&s.id) == "fit") {
        let chars: Vec<char> = s.text.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            if !c.is_ascii() && kind::merges(kind_of(c)) && kind_of(c) != kind::K_NCTL {
                let in_run = (i.saturating_sub(3)..=i)
                    .any(|s| chars.len() >= s + 4 && chars[s..s + 4].iter().all(|&x| x == c));
                let e = freq.entry(c).or_default();
                e.0 += in_run as u64;
                e.1 += 1;
            }
        }
    }
    // Per kind: ((in repeats, occurrences), character).
    type Seen = ((u64, u64), char);
    let mut by_kind: BTreeMap<Kind, Vec<Seen>> = BTreeMap::new();
    for (c, n) in freq {
        by_kind.entry(kind_of(c)).or_default().push((n, c));
    }
    for v in by_kind.values_mut() {
        // The characters seen in repeats first (most often first), then the commonest; ties by code point.
        v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        out.extend(v.iter().take(WIDE_PER_KIND).map(|x| x.1));
        // And as many outside the common tier of their block, in the same order: what a run of a rare one costs.
        let rare = v.iter().filter(|x| kind::is_rare_in_run(x.1 as u32));
        out.extend(rare.take(WIDE_PER_KIND).map(|x| x.1));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Every character to measure: [`run_chars`] and, marked, the [`vocab_run_chars`] that are not among them.
pub fn all_run_chars(samples: &[Sample]) -> (Vec<char>, BTreeSet<char>) {
    let typical = run_chars(samples);
    let vocab: BTreeSet<char> = vocab_run_chars()
        .into_iter()
        .filter(|c| typical.binary_search(c).is_err())
        .collect();
    let mut all = typical;
    all.extend(vocab.iter().copied());
    all.sort_unstable();
    (all, vocab)
}

/// How many of a non-ASCII kind's characters whose runs the OpenAI vocabularies merge are measured.
pub const VOCAB_RUNS_PER_KIND: usize = 4;

/// The non-ASCII characters whose runs o200k or cl100k merge (a run of 64 costs under three quarters of 64 times
/// the character alone: `哈哈` and `ㅋㅋ` are one token each in o200k), per kind the [`VOCAB_RUNS_PER_KIND`] that
/// run cheapest in either vocabulary (ties by code point). The corpus's commonest characters say what a run of a
/// kind's typical character costs; these say how little a run of the kind can cost, the band's low end.
pub fn vocab_run_chars() -> Vec<char> {
    let mut out = Vec::new();
    for p in [Profile::O200k, Profile::Cl100k] {
        let c = llm_preflight::ExactCounter::new(p).expect("tiktoken loads");
        let mut by_kind: BTreeMap<Kind, Vec<(u64, char)>> = BTreeMap::new();
        let candidates = (0xa0u32..=0xffff).chain(0x1f000..=0x1faff);
        for ch in candidates.filter_map(char::from_u32) {
            let k = kind_of(ch);
            if !kind::merges(k) || k == kind::K_NCTL {
                continue;
            }
            let run = c.count(&ch.to_string().repeat(64));
            if 4 * run < 3 * 64 * c.count(&ch.to_string()) {
                by_kind.entry(k).or_default().push((run, ch));
            }
        }
        for mut v in by_kind.into_values() {
            v.sort_unstable();
            out.extend(v.iter().take(VOCAB_RUNS_PER_KIND).map(|x| x.1));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// `calibration/run-chars.txt`: one `U+XXXX` per line, followed by ` vocab` for a character measured for the
/// band's low end only ([`vocab_run_chars`]).
pub fn write_run_chars(chars: &[char], vocab: &BTreeSet<char>) -> String {
    chars
        .iter()
        .map(|&c| {
            let mark = if vocab.contains(&c) { " vocab" } else { "" };
            format!("U+{:04X}{mark}\n", c as u32)
        })
        .collect()
}

/// Reads `calibration/run-chars.txt`: every character.
pub fn read_run_chars(text: &str) -> Vec<char> {
    text.lines()
        .filter_map(|l| {
            let hex = l.trim().strip_prefix("U+")?;
            u32::from_str_radix(hex.split(' ').next()?, 16).ok()
        })
        .filter_map(char::from_u32)
        .collect()
}

/// Reads `calibration/run-chars.txt`: the characters marked ` vocab`.
pub fn read_vocab_chars(text: &str) -> BTreeSet<char> {
    read_run_chars(
        &text
            .lines()
            .filter(|l| l.trim_end().ends_with(" vocab"))
            .collect::<Vec<_>>()
            .join("\n"),
    )
    .into_iter()
    .collect()
}

/// Measures one character with a counter (the same arithmetic as `count.mjs --runs`).
pub fn measure(profile: usize, ch: char, count: impl Fn(&str) -> u64) -> RunRow {
    let run = |n: usize| count(&ch.to_string().repeat(n)) as i64;
    let d = run(4096) - run(2048);
    let mut ex: Vec<i64> = RUN_LENGTHS.map(|n| 2048 * run(n) - n as i64 * d).collect();
    ex.sort_unstable();
    RunRow {
        profile,
        ch,
        d,
        lo: ex[0],
        mid: ex[ex.len() / 2],
        hi: ex[ex.len() - 1],
    }
}

/// o200k's and cl100k's rows, measured now with tiktoken-rs.
pub fn measure_openai(chars: &[char]) -> Vec<RunRow> {
    let mut out = Vec::new();
    for p in [Profile::O200k, Profile::Cl100k] {
        let c = llm_preflight::ExactCounter::new(p).expect("tiktoken loads");
        for &ch in chars {
            out.push(measure(p as usize, ch, |s| c.count(s)));
        }
    }
    out
}

/// `runs.tsv`: `profile  char  d  lo  mid  hi`, sorted by profile then character.
pub fn write_runs(rows: &[RunRow]) -> String {
    let mut rows = rows.to_vec();
    rows.sort_by_key(|r| (r.profile, r.ch));
    let mut s = String::from("profile\tchar\td\tlo\tmid\thi\n");
    for r in rows {
        let _ = writeln!(
            s,
            "{}\tU+{:04X}\t{}\t{}\t{}\t{}",
            Profile::ALL[r.profile].name(),
            r.ch as u32,
            r.d,
            r.lo,
            r.mid,
            r.hi
        );
    }
    s
}

/// Parses `runs.tsv` (or `vendor-runs.tsv`, the same columns).
pub fn read_runs(path: &Path) -> Vec<RunRow> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 6, "{}: bad row {l:?}", path.display());
            let num = |i: usize| c[i].parse::<i64>().expect("a whole number");
            RunRow {
                profile: Profile::ALL
                    .iter()
                    .position(|p| p.name() == c[0])
                    .expect("a profile name"),
                ch: read_run_chars(c[1])[0],
                d: num(2),
                lo: num(3),
                mid: num(4),
                hi: num(5),
            }
        })
        .collect()
}

/// The run tables of one profile, as `src/tables.rs` holds them.
#[derive(Debug, Clone, PartialEq)]
pub struct RunTable {
    /// Tokens per character of a long run of each ASCII character (0 for one never in a repeat).
    pub ascii: [f64; 128],
    /// Per kind (`kind::COUNT`): tokens per character of a long run, `[p0, p50, p100]` over the kind's measured
    /// characters (every measured non-ASCII character's for a kind with none).
    pub wide: Vec<[f64; 3]>,
    /// What one run costs beyond its rate, in tokens: `[min, median, max]` over the measured characters (the median
    /// of their medians), for ASCII runs and for non-ASCII ones.
    pub ascii_excess: [f64; 3],
    pub wide_excess: [f64; 3],
    /// Per kind: the median tokens per character of a long run of a character outside the common tier of its block
    /// (`kind::is_rare_in_run`), over the kind's measured rare characters (the kind's median where none is).
    pub wide_rare: Vec<f64>,
}

fn spread3(mut v: Vec<f64>) -> [f64; 3] {
    if v.is_empty() {
        return [0.0; 3];
    }
    v.sort_by(f64::total_cmp);
    [v[0], v[v.len() / 2], v[v.len() - 1]]
}

/// The run tables from the measured rows. Per non-ASCII kind the least rate is over every measured character, the
/// median over its typical ones (all but `vocab`, the characters measured for the low end), the most over all.
pub fn run_tables(rows: &[RunRow], vocab: &BTreeSet<char>) -> [RunTable; NP] {
    std::array::from_fn(|p| {
        let mine: Vec<&RunRow> = rows.iter().filter(|r| r.profile == p).collect();
        assert!(
            !mine.is_empty(),
            "no run measurements for {} (run calibration/regenerate.sh)",
            Profile::ALL[p].name()
        );
        let mut ascii = [0.0; 128];
        let (mut ax, mut wx) = (Vec::new(), Vec::new());
        let mut by_kind: Vec<Vec<f64>> = vec![Vec::new(); kind::COUNT];
        let mut typical: Vec<Vec<f64>> = vec![Vec::new(); kind::COUNT];
        let mut rare: Vec<Vec<f64>> = vec![Vec::new(); kind::COUNT];
        let mut wide_all = Vec::new();
        for r in &mine {
            let rate = r.d as f64 / 2048.0;
            let ex = [r.lo, r.mid, r.hi].map(|e| e as f64 / 2048.0);
            if r.ch.is_ascii() {
                ascii[r.ch as usize] = rate;
                ax.push(ex);
            } else {
                by_kind[kind_of(r.ch) as usize].push(rate);
                if vocab.contains(&r.ch) {
                    // Measured for the low end only.
                } else if kind::is_rare_in_run(r.ch as u32) {
                    rare[kind_of(r.ch) as usize].push(rate);
                } else {
                    typical[kind_of(r.ch) as usize].push(rate);
                }
                wide_all.push(rate);
                wx.push(ex);
            }
        }
        let pooled = spread3(wide_all);
        let wide: Vec<[f64; 3]> = by_kind
            .into_iter()
            .zip(&typical)
            .zip(&rare)
            .map(|((v, t), r)| {
                // The median over the typical characters of the common tier, else over its rare ones.
                let t = if t.is_empty() { r } else { t };
                if v.is_empty() {
                    pooled
                } else if t.is_empty() {
                    spread3(v)
                } else {
                    let [least, _, most] = spread3(v);
                    [least, spread3(t.clone())[1], most]
                }
            })
            .collect();
        // A rare character's median: over the kind's rare measured ones, else the kind's.
        let wide_rare = rare
            .into_iter()
            .zip(&wide)
            .map(|(r, w)| if r.is_empty() { w[1] } else { spread3(r)[1] })
            .collect();
        let excess = |x: &[[f64; 3]]| {
            [
                x.iter().map(|e| e[0]).fold(0.0, f64::min),
                spread3(x.iter().map(|e| e[1]).collect())[1],
                x.iter().map(|e| e[2]).fold(0.0, f64::max),
            ]
        };
        RunTable {
            ascii,
            wide,
            wide_rare,
            ascii_excess: excess(&ax),
            wide_excess: excess(&wx),
        }
    })
}

/// The common tier of Han characters (`src/scan/han_tier.rs`): the CJK Unified Ideographs (U+4E00–U+9FFF) that
/// o200k's vocabulary holds as one token, 2,515 of 20,992: what a vocabulary trained on today's web text keeps
/// whole. Every other ideograph is two or three byte pieces in o200k (and in cl100k, which keeps 549 whole).
pub fn han_tier_source() -> String {
    let o = llm_preflight::ExactCounter::new(Profile::O200k).expect("o200k loads");
    // Bit `u - lo` for each code point from `lo` to `hi` that o200k encodes as one token, and how many.
    let tier = |lo: u32, hi: u32| {
        let mut bits = vec![0u64; ((hi - lo) / 64 + 1) as usize];
        let mut n = 0;
        for u in lo..=hi {
            let Some(c) = char::from_u32(u) else { continue };
            if o.count(&c.to_string()) == 1 {
                let i = (u - lo) as usize;
                bits[i / 64] |= 1 << (i % 64);
                n += 1;
            }
        }
        (bits, n)
    };
    // One word a line, as rustfmt lays the array out: the file is generated and formatted the same.
    let words = |s: &mut String, bits: Vec<u64>| {
        for b in bits {
            let _ = writeln!(s, "    {b:#018x},");
        }
        s.push_str("];\n");
    };
    let mut s = String::from(
        "//! @generated by `cargo run -p calibrate --release -- han-tier` from o200k's vocabulary (tiktoken-rs). Do not edit;\n\
         //! a test fails when this file and the vocabulary differ. The common tiers: the Han characters, and for runs of\n\
         //! one character the symbols, CJK symbols and kana, Hangul syllables and emoji o200k holds as one token.\n\n",
    );
    let (bits, n) = tier(0x4e00, 0x9fff);
    let _ = writeln!(
        s,
        "/// The common Han tier: bit `u - 0x4E00` is set for each of the {n} CJK Unified Ideographs (U+4E00–U+9FFF) that\n\
         /// o200k encodes as one token. See `kind::is_common_han`.\n\
         pub(crate) const HAN_COMMON: [u64; {}] = [",
        bits.len()
    );
    words(&mut s, bits);
    for &(name, lo, hi, what) in &RUN_TIERS {
        let (bits, n) = tier(lo, hi);
        let _ = writeln!(
            s,
            "\n/// {what} (U+{lo:04X}–U+{hi:04X}) that o200k encodes as one token, {n} of them:\n\
             /// bit `u - 0x{lo:X}` for each. See `kind::is_rare_in_run`.\n\
             pub(crate) const {name}: [u64; {}] = [",
            bits.len()
        );
        words(&mut s, bits);
    }
    s
}

/// The other tiers `src/scan/han_tier.rs` holds, for runs of one character: `(name, first, last, what)`. Outside
/// the common tier a character of these blocks is two or three byte pieces in most vocabularies here, and so is
/// each character of a run of it (`┻` × 519 is 1,038 o200k tokens), where the kinds' measured common characters cost
/// one or merge (`─` × 64 is one o200k token).
pub const RUN_TIERS: [(&str, u32, u32, &str); 4] = [
    (
        "SYMBOLS_COMMON",
        0x2000,
        0x2bff,
        "The symbols (arrows, box drawing, ...)",
    ),
    (
        "CJK_SYMBOLS_COMMON",
        0x3000,
        0x30ff,
        "The CJK symbols and the kana",
    ),
    ("HANGUL_COMMON", 0xac00, 0xd7a3, "The Hangul syllables"),
    (
        "EMOJI_COMMON",
        0x1f300,
        0x1faff,
        "The emoji and pictographs",
    ),
];
