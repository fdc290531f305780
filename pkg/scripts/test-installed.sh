#!/usr/bin/env bash
# The package as users meet it: `npm pack`, install the tarball into a fresh temporary project, and run the tests
# there with `node --test` (import, require, CLI parity, 1,000 bad calls, esbuild, Vite and webpack bundles in headless
# Chromium, profile files, the same probe in Deno and workerd).
set -euo pipefail
pkg="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(dirname "$pkg")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$pkg"
tarball="$pkg/$(npm pack --silent --pack-destination "$tmp" | tail -1)"
tarball="$tmp/$(basename "$tarball")"
echo "packed $(basename "$tarball"): $(du -k "$tarball" | cut -f1) KB"
if tar -tzf "$tarball" | grep -Eq 'exact-|tiktoken'; then
  echo "the core tarball must not carry the exact counters unless built with --exact" >&2
fi
mkdir "$tmp/project"
cd "$tmp/project"
echo '{"name": "try-llm-preflight", "private": true, "version": "1.0.0"}' > package.json
npm install --no-audit --no-fund --no-package-lock "$tarball" >/dev/null
cp -r "$pkg/test" ./test
# The test tools (esbuild, Vite, webpack, playwright-core) come from the package's own dev install; the package under test is the
# installed tarball in ./node_modules.
LLM_PREFLIGHT_REPO="$repo" NODE_PATH="$pkg/node_modules" node --test test/
