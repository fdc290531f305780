#!/usr/bin/env bash
# Estimation speed of two revisions' wasm estimate modules in node, on the same texts, run in turn
# (pkg/bench/compare.mjs: mixed text, its mostly ASCII folders, the others).
#
#   scripts/compare-wasm-speed.sh OLD_REV [NEW_REV] [-- compare.mjs options]
#
# NEW_REV defaults to the work tree. Each revision is built with its own pkg/scripts/build.mjs in a temporary
# directory (its own cargo target directory, the work tree's pkg/node_modules); nothing here runs in CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=${1:?usage: scripts/compare-wasm-speed.sh OLD_REV [NEW_REV] [-- compare.mjs options]}
shift
new=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
    new=$1
    shift
fi
[ "${1:-}" = "--" ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build() { # build SOURCE_DIR -> its pkg/dist/node
    (cd "$1/pkg" && CARGO_TARGET_DIR="$tmp/target" node scripts/build.mjs > "$tmp/build.log" 2>&1) \
        || { cat "$tmp/build.log"; exit 1; }
}
side() { # side NAME REV
    mkdir -p "$tmp/$1"
    git -C "$root" archive "$2" | tar -x -C "$tmp/$1"
    ln -s "$root/pkg/node_modules" "$tmp/$1/pkg/node_modules"
    build "$tmp/$1"
}

side old "$old"
if [ -n "$new" ]; then
    side new "$new"
    new_dist="$tmp/new/pkg/dist/node"
else
    build "$root"
    new_dist="$root/pkg/dist/node"
fi
node "$root/pkg/bench/compare.mjs" "$tmp/old/pkg/dist/node" "$new_dist" "$@"
