#!/usr/bin/env bash
# Every test: formatting, lints, the crate's shape, the Rust workspace (unit, integration, CLI, calibration drift,
# doc tests, the Redis ledger), the npm package, the page, fuzz smoke.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
# The core alone with its default features (none), as a router that depends on it builds it (the workspace lint
# above builds it with `exact`, which the CLI and calibrate turn on).
cargo clippy -p llm-preflight --all-targets --no-default-features -- -D warnings
# The binding's lazy module is its own build of the crate (`--features lazy`): linted natively too.
cargo clippy -p llm-preflight-wasm --features lazy --all-targets -- -D warnings
bash scripts/check-shape.sh

# The workspace: the core, the CLI, the drill, the Redis ledger (its tests start a redis-server of their own on a
# free 127.0.0.1 port; scripts/setup.sh installs the binary, and they fail, never skip, without it), calibrate.
cargo test --workspace

# The npm package: build the wasm and its glue, the wasm-bindgen tests in node and headless Chromium, then the
# packed tarball installed in a fresh project (import, require, CLI parity, 1,000 bad calls, esbuild, Vite and
# webpack bundles in Chromium, Deno and workerd) and the example gateway against the fake upstream.
cargo build -p llm-preflight-cli
(cd pkg && npm run build)
bash pkg/scripts/test-wasm.sh
bash pkg/scripts/test-installed.sh
(cd examples/node-gateway && npm install --no-audit --no-fund --no-package-lock >/dev/null && node --test test/)

# The web page (www/): bundle it with the package's browser build, then drive it in headless Chromium (the numbers
# it shows equal the package's, verdicts, error classification, a 1 MB paste, phone width, keyboard, offline).
(cd www && node build.mjs && node --test test/)

# Robustness (issue 8). The property tests (tests/properties.rs), the limits (tests/limits.rs, tests/memory.rs:
# 100 MB in bounded memory) and the fuzz regressions ran above with `cargo test --workspace`; run the properties
# once more on their own so a failure is named. Then a fuzz smoke run: every target for FUZZ_SECONDS (default
# 60 s; nine targets plus the nightly build is about 11 minutes). The long run is `bash fuzz/run.sh --runs 10000000`.
cargo test --test properties
bash fuzz/run.sh "${FUZZ_SECONDS:-60}"
