#!/usr/bin/env bash
# Installs what the tests need on a fresh machine. Idempotent: skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup component add clippy rustfmt >/dev/null 2>&1 || true

# The npm package (pkg/): the wasm target, wasm-bindgen at the exact version in Cargo.lock, Chromium for the
# browser tests, and the package's dev tools (npm's binaryen for wasm-opt, esbuild, playwright-core, the
# benchmark's peers) from the committed lock file.
rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || rustup target add wasm32-unknown-unknown
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [ -n "$wb_version" ] && ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wb_version"; then
  # Without --locked: its lock file names a crate version the registry here lacks.
  cargo install wasm-bindgen-cli --version "$wb_version"
fi
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  apt-get update && apt-get install -y chromium chromium-driver
fi
if [ ! -d pkg/node_modules/binaryen ] || [ pkg/package-lock.json -nt pkg/node_modules/.package-lock.json ]; then
  (cd pkg && npm ci --no-audit --no-fund)
fi

# Fuzzing (fuzz/): the nightly toolchain and cargo-fuzz, each skipped when present.
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  # Without --locked if the locked build fails (a lock file naming a crate version the registry lacks).
  cargo install cargo-fuzz --locked || cargo install cargo-fuzz
fi

# The Redis ledger (feature redis): its tests and benchmark start their own redis-server on 127.0.0.1, so only the
# binary is needed (Debian's package), never a running service.
if ! command -v redis-server >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update && $sudo apt-get install -y redis-server
fi

# The drill's https test makes a throwaway certificate with the openssl command (Debian's package).
if ! command -v openssl >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update && $sudo apt-get install -y openssl
fi
