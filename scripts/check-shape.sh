#!/usr/bin/env bash
# The crate's shape (issue 25), checked as a user would meet it:
# - the core with default features depends on nothing heavy (no CLI, TLS, tokenizer, Redis or async runtime);
# - every crate's documentation builds with warnings as errors (broken links, missing docs);
# - every crate meant to be published packages (`cargo package --list`: its files are all there).
set -euo pipefail
cd "$(dirname "$0")/.."

tree=$(cargo tree -p llm-preflight -e normal --prefix none --format '{p}' | awk '{print $1}' | sort -u)
for banned in clap indicatif rustls webpki-roots tiktoken-rs redis tokio hyper; do
  if grep -qx "$banned" <<<"$tree"; then
    echo "check-shape: the core's default build depends on $banned:" >&2
    cargo tree -p llm-preflight -e normal -i "$banned" >&2
    exit 1
  fi
done
echo "check-shape: the core's default build depends on: $(tr '\n' ' ' <<<"$tree")"

crates=(llm-preflight llm-preflight-drill llm-preflight-redis llm-preflight-tower llm-preflight-cli)
for crate in "${crates[@]}"; do
  RUSTDOCFLAGS="-D warnings" cargo doc -p "$crate" --no-deps --quiet
done
RUSTDOCFLAGS="-D warnings" cargo doc -p llm-preflight --no-deps --features exact --quiet
echo "check-shape: every crate's docs build with warnings as errors"

# Packaged and built from the packages alone, as a registry would (the sibling crates against the core's package).
# `--allow-dirty`: a work tree with uncommitted changes is checked as it stands.
# In a target directory of its own, emptied first: cargo takes a registry package's build as fresh whatever its
# sources (it assumes a name and version never change), so a previous run's build of the packaged core (the same
# 0.1.0) would be linked again, and the sibling crates verified against a stale core.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/llm-preflight*-[0-9]* target/package target/package-check
if ! out=$(cargo package "${crates[@]/#/-p=}" --allow-dirty --target-dir target/package-check 2>&1); then
  echo "$out" >&2
  exit 1
fi
grep '^ *Packaged' <<<"$out"
for crate in "${crates[@]}"; do
  f=$(ls target/package-check/package/"$crate"-[0-9]*.crate)
  echo "check-shape: $(basename "$f"): $(stat -c %s "$f") bytes"
done
