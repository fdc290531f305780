#!/usr/bin/env bash
# Regenerates every calibration artefact from corpus/ with the real tokenizers:
#   src/scan/han_tier.rs           (the common Han tier: the ideographs o200k holds as one token)
#   calibration/run-chars.txt      (the characters whose runs are measured)
#   calibration/vendor-counts.tsv  (llama3, qwen3, deepseek-v3, gemini, gemma3, mistral-v1, claude-legacy; node)
#   calibration/vendor-runs.tsv    (those profiles' runs of one character; node, about 25 minutes)
#   calibration/counts.tsv, calibration/runs.tsv (+ o200k and cl100k through tiktoken-rs)
#   src/tables.rs                  (rates, bands and characters per token, fitted on the `fit` split)
#   calibration/REPORT.md          (accuracy on the held-out `eval` split)
#   calibration/probe/vendor-counts.tsv, calibration/PROBE.md (accuracy on the probe set, texts from outside the corpus)
#   calibration/vendor-periodic.tsv, src/periodic_rates.rs (what generated periodic patterns cost a byte, by period)
#   calibration/FAMILIES.md        (accuracy on generated runs and periodic patterns)
# Usage: bash calibration/regenerate.sh [--skip-vendors]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run -q -p calibrate --release -- han-tier
cargo run -q -p calibrate --release -- run-chars
if [ "${1:-}" != "--skip-vendors" ]; then
  (cd calibration/vendors && npm ci --no-audit --no-fund >/dev/null && node count.mjs ../../corpus > ../vendor-counts.tsv \
    && node count.mjs ../probe > ../probe/vendor-counts.tsv && node count.mjs --runs ../run-chars.txt > ../vendor-runs.tsv)
  patterns=$(mktemp -d)
  cargo run -q -p calibrate --release -- periodic-texts "$patterns"
  (cd calibration/vendors && node count.mjs "$patterns" > ../vendor-periodic.tsv)
  rm -rf "$patterns"
fi
cargo run -q -p calibrate --release -- periodic
cargo run -q -p calibrate --release -- counts
cargo run -q -p calibrate --release -- fit
# `eval` is rebuilt against the new tables by cargo before it runs.
cargo run -q -p calibrate --release -- eval > /dev/null
cargo run -q -p calibrate --release -- probe
cargo run -q -p calibrate --release -- families
echo "regenerated: src/scan/han_tier.rs, src/periodic_rates.rs, calibration/counts.tsv, calibration/runs.tsv, src/tables.rs, calibration/REPORT.md, calibration/PROBE.md, calibration/FAMILIES.md"
