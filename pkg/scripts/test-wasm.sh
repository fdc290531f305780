#!/usr/bin/env bash
# wasm-bindgen tests of the binding crate, in node and in headless Chromium. A run that ran nothing or skipped
# (wasm-bindgen-test prints "skipping" when a browser test meets node) is a failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export WASM_BINDGEN_TEST_TIMEOUT=120
check_output() {
  local log=$1 what=$2
  if grep -qi "skipping" "$log"; then echo "wasm tests in $what skipped: failing" >&2; exit 1; fi
  if ! grep -Eq "test result: ok\. [1-9][0-9]* passed" "$log"; then echo "wasm tests in $what ran nothing: failing" >&2; exit 1; fi
}
log=$(mktemp)
# The estimate module (default features) and the lazy module (`--features lazy`) are separate builds of the crate.
for features in "" lazy; do
  what=${features:-estimate}
  echo "== wasm-bindgen tests of the $what module in node"
  cargo test -p llm-preflight-wasm --target wasm32-unknown-unknown ${features:+--features $features} 2>&1 | tee "$log"
  check_output "$log" "node ($what)"
  echo "== wasm-bindgen tests of the $what module in headless Chromium"
  (cd pkg/wasm && WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}" \
    WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/webdriver.json" \
    cargo test -p llm-preflight-wasm --target wasm32-unknown-unknown ${features:+--features $features} 2>&1) | tee "$log"
  check_output "$log" "Chromium ($what)"
done
rm -f "$log"
