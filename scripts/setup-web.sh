#!/usr/bin/env bash
# Installs what building the npm package and the page needs, and nothing else: `scripts/serve.sh` runs this alone,
# `scripts/setup.sh` (the tests) runs it first. Idempotent: skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node >/dev/null || { echo "setup-web.sh: node (18 or later) is needed" >&2; exit 1; }

# The npm package (pkg/): the wasm target, wasm-bindgen at the exact version in Cargo.lock, and the package's dev
# tools (npm's binaryen for wasm-opt, esbuild, playwright-core, the benchmark's peers) from the committed lock file;
# then the page's (www/: esbuild).
rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || rustup target add wasm32-unknown-unknown
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [ -n "$wb_version" ] && ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wb_version"; then
  # Without --locked: its lock file names a crate version the registry here lacks.
  # --force: another version's binaries (wasm2es6js too) would otherwise stop the install.
  cargo install --force wasm-bindgen-cli --version "$wb_version"
fi
if [ ! -d pkg/node_modules/binaryen ] || [ pkg/package-lock.json -nt pkg/node_modules/.package-lock.json ]; then
  (cd pkg && npm ci --no-audit --no-fund)
fi
if [ ! -d www/node_modules/esbuild ] || [ www/package-lock.json -nt www/node_modules/.package-lock.json ]; then
  (cd www && npm ci --no-audit --no-fund)
fi
