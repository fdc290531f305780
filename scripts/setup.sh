#!/usr/bin/env bash
# Installs what the tests need on a fresh machine: what the page needs (scripts/setup-web.sh), then Chromium, the
# nightly toolchain and cargo-fuzz, redis-server and openssl. Idempotent: skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup component add clippy rustfmt >/dev/null 2>&1 || true

bash scripts/setup-web.sh

# Chromium and its driver for the browser tests (Debian's packages).
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  apt-get update && apt-get install -y chromium chromium-driver
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
