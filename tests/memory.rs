//! Limits: 100 MB of text estimated in bounded memory, measured rather than assumed.
//!
//! This file holds a single test so that its process's peak resident set (`VmHWM` in /proc/self/status) is its
//! own. It streams 100 MB (prose, code, CJK, emoji, invalid UTF-8 and a long repeat, in 64 KiB pieces that split
//! UTF-8 sequences) through `Estimator::update_bytes`, generating each piece on the fly, and asserts that the
//! process never held more than 64 MB. Linux only (elsewhere it still runs, without the measurement).

use llm_preflight::{Estimator, Profile};

const TOTAL: usize = 100 * 1024 * 1024;
const PIECE: usize = 64 * 1024 + 3; // not a multiple of any sample's length: pieces split characters
const BOUND_KB: u64 = 64 * 1024;

fn vm_hwm_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_100_mb_text_is_estimated_in_bounded_memory() {
    let samples: [&[u8]; 6] = [
        "The quick brown fox jumps over the lazy dog. ".as_bytes(),
        b"fn main() { let x: Vec<u32> = (0..10).map(|i| i * 2).collect(); }\n",
        "我们的目标是在不发送请求之前判断它能否成功。日本語のテキストも。".as_bytes(),
        "👋🏽 emoji 🎉🎉 and accents: Grüße, ça va, ёлка\n".as_bytes(),
        b"bad \xff\xfe bytes \xe0\x80 and a dangling lead \xf0\x9f ",
        b"==========================================================\n",
    ];
    let stream: Vec<u8> = samples.concat();
    let before = vm_hwm_kb();
    let mut e = Estimator::new(Profile::O200k);
    let mut piece = Vec::with_capacity(PIECE);
    let (mut fed, mut at) = (0usize, 0usize);
    while fed < TOTAL {
        piece.clear();
        while piece.len() < PIECE.min(TOTAL - fed) {
            let take = (stream.len() - at).min(PIECE.min(TOTAL - fed) - piece.len());
            piece.extend_from_slice(&stream[at..at + take]);
            at = (at + take) % stream.len();
        }
        e.update_bytes(&piece);
        fed += piece.len();
    }
    let est = e.finish();
    assert!(e.saw_invalid_utf8());
    assert!(est.low <= est.tokens && est.tokens <= est.high);
    assert!(est.tokens > 10_000_000, "{est:?}");
    assert!(est.chars > 50_000_000);
    if let (Some(before), Some(peak)) = (before, vm_hwm_kb()) {
        eprintln!(
            "100 MB streamed: {} tokens; peak RSS {:.1} MB (before {:.1} MB)",
            est.tokens,
            peak as f64 / 1024.0,
            before as f64 / 1024.0
        );
        assert!(peak < BOUND_KB, "peak RSS {peak} kB exceeds {BOUND_KB} kB");
    }
}
