#!/usr/bin/env bash
# The main command: build what the page needs and serve it on 127.0.0.1.
#
#   bash scripts/serve.sh            serves on http://127.0.0.1:8080/ (or the next free port) and prints the URL
#   PORT=9000 bash scripts/serve.sh  another port
#   EXACT=0 bash scripts/serve.sh    skip the exact OpenAI counters (megabytes; slow to compile the first time)
#
# Steps already up to date are skipped: the npm package (pkg/: the wasm build of the crate) is rebuilt only when the
# Rust sources, the binding crates or its scripts are newer than its last build; the page bundle (www/dist) only
# when the page or the package changed. On a fresh machine the first run installs only what serving needs
# (scripts/setup-web.sh: the wasm target, wasm-bindgen, the package's and the page's npm tools; no browser, no
# nightly, no Redis) and takes several minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
exact=${EXACT:-1}

command -v node >/dev/null || { echo "serve.sh: node (18 or later) is needed" >&2; exit 1; }

# Is anything under the given paths newer than the file $1 (or is $1 missing)?
newer_than() {
  local stamp=$1
  shift
  [ -e "$stamp" ] || return 0
  [ -n "$(find "$@" -newer "$stamp" -type f -print -quit 2>/dev/null)" ]
}

pkg_inputs=(src Cargo.toml Cargo.lock pkg/wasm pkg/js pkg/scripts/build.mjs pkg/package.json)
need_pkg=0
if newer_than pkg/dist/web/wasm-bytes.mjs "${pkg_inputs[@]}"; then need_pkg=1; fi
if [ "$exact" = 1 ]; then
  if newer_than pkg/dist/exact-web/llm_preflight_wasm_exact_bg.wasm "${pkg_inputs[@]}" pkg/wasm-exact; then need_pkg=1; fi
fi
if [ ! -d pkg/node_modules/binaryen ] || [ pkg/package-lock.json -nt pkg/node_modules/.package-lock.json ]; then need_pkg=1; fi

# What serving needs, installed on the first run only (each step is skipped when already there).
bash scripts/setup-web.sh

if [ "$need_pkg" = 1 ]; then
  echo "== building the npm package (pkg/)"
  if [ "$exact" = 1 ]; then
    (cd pkg && npm run build -- --exact)
  else
    (cd pkg && npm run build)
  fi
else
  echo "== pkg/ is up to date"
fi

(cd www && node build.mjs --if-stale)

cd "$root/www"
exec node serve.mjs
