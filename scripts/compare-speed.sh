#!/usr/bin/env bash
# Estimation speed of two revisions on the same mixed text, run in turn (on a noisy machine only the ratio of
# interleaved runs means anything): each side's best of ROUNDS rounds of 30 calls, and the ratio.
#
#   scripts/compare-speed.sh OLD_REV [NEW_REV] [ROUNDS]
#
# NEW_REV defaults to the work tree. The text is benches/estimate.rs's mixed text (every corpus sample's first 4,000
# bytes, kinds interleaved, up to 4 MiB) from the work tree's corpus, so both sides read the same bytes. Both sides
# are built with LTO in a temporary directory; nothing here runs in CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=${1:?usage: scripts/compare-speed.sh OLD_REV [NEW_REV] [ROUNDS]}
new=${2:-}
rounds=${3:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

side() { # side NAME SOURCE_DIR
    mkdir -p "$tmp/$1/src"
    cat > "$tmp/$1/Cargo.toml" <<EOF
[package]
name = "speed-$1"
version = "0.0.0"
edition = "2021"
[dependencies]
llm-preflight = { path = "$2" }
[workspace]
[profile.release]
lto = true
codegen-units = 1
EOF
    cat > "$tmp/$1/src/main.rs" <<'EOF'
use std::time::Instant;
fn main() {
    let root = std::path::PathBuf::from(std::env::args().nth(1).expect("corpus dir"));
    let mut dirs: Vec<_> = std::fs::read_dir(&root).unwrap().filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir() && e.file_name() != "tools").collect();
    dirs.sort_by_key(|e| e.file_name());
    let kinds: Vec<Vec<String>> = dirs.iter().map(|d| {
        let mut files: Vec<_> = std::fs::read_dir(d.path()).unwrap().filter_map(|e| e.ok())
            .filter(|e| e.path().extension().is_some_and(|x| x == "txt")).collect();
        files.sort_by_key(|e| e.file_name());
        files.iter().map(|f| {
            let t = std::fs::read_to_string(f.path()).unwrap();
            let mut n = t.len().min(4000);
            while !t.is_char_boundary(n) { n -= 1; }
            t[..n].to_string()
        }).collect()
    }).collect();
    let mut text = String::new();
    for i in 0.. {
        let before = text.len();
        for k in &kinds { if let Some(s) = k.get(i) { text.push_str(s); } }
        if text.len() == before || text.len() >= 4 << 20 { break; }
    }
    let mut best = f64::MAX;
    for _ in 0..30 {
        let t = Instant::now();
        std::hint::black_box(llm_preflight::estimate(std::hint::black_box(&text), llm_preflight::Profile::O200k));
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{:.1}", text.len() as f64 / best / (1 << 20) as f64);
}
EOF
    (cd "$tmp/$1" && cargo build --release -q)
}

mkdir -p "$tmp/src-old"
git -C "$root" archive "$old" | tar -x -C "$tmp/src-old"
side old "$tmp/src-old"
if [ -n "$new" ]; then
    mkdir -p "$tmp/src-new"
    git -C "$root" archive "$new" | tar -x -C "$tmp/src-new"
    side new "$tmp/src-new"
else
    side new "$root"
fi
best_old=0
best_new=0
for _ in $(seq "$rounds"); do
    a=$("$tmp/old/target/release/speed-old" "$root/corpus")
    b=$("$tmp/new/target/release/speed-new" "$root/corpus")
    echo "old $a MiB/s  new $b MiB/s"
    best_old=$(echo "$a $best_old" | awk '{print ($1 > $2) ? $1 : $2}')
    best_new=$(echo "$b $best_new" | awk '{print ($1 > $2) ? $1 : $2}')
done
echo "best: old $best_old MiB/s, new $best_new MiB/s, new/old $(echo "$best_new $best_old" | awk '{printf "%.3f", $1 / $2}')"
