#!/usr/bin/env bash
# Every test: formatting, lints, the Rust workspace (unit, integration, CLI, calibration drift), doc tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace

# The npm package: build the wasm and its glue, the wasm-bindgen tests in node and headless Chromium, then the
# packed tarball installed in a fresh project (import, require, CLI parity, 1,000 bad calls, an esbuild bundle in
# Chromium) and the example gateway against the fake upstream.
cargo build --bin llm-preflight
(cd pkg && npm run build)
bash pkg/scripts/test-wasm.sh
bash pkg/scripts/test-installed.sh
node --test examples/node-gateway/test/
