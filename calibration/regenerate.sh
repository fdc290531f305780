#!/usr/bin/env bash
# Regenerates every calibration artefact from corpus/ with the real tokenizers:
#   calibration/vendor-counts.tsv  (llama3, qwen3, deepseek-v3, gemini, gemma3, mistral-v1, claude-legacy; node)
#   calibration/counts.tsv         (+ o200k and cl100k through tiktoken-rs)
#   src/tables.rs                  (rates, bands and characters per token, fitted on the `fit` split)
#   calibration/REPORT.md          (accuracy on the held-out `eval` split)
#   calibration/probe/vendor-counts.tsv, calibration/PROBE.md (accuracy on the probe set, texts from outside the corpus)
# Usage: bash calibration/regenerate.sh [--skip-vendors]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--skip-vendors" ]; then
  (cd calibration/vendors && npm ci --no-audit --no-fund >/dev/null && node count.mjs ../../corpus > ../vendor-counts.tsv \
    && node count.mjs ../probe > ../probe/vendor-counts.tsv)
fi
cargo run -q -p calibrate --release -- counts
cargo run -q -p calibrate --release -- fit
# `eval` is rebuilt against the new tables by cargo before it runs.
cargo run -q -p calibrate --release -- eval > /dev/null
cargo run -q -p calibrate --release -- probe
echo "regenerated: calibration/counts.tsv, src/tables.rs, calibration/REPORT.md, calibration/PROBE.md"
