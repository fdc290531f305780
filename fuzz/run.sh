#!/usr/bin/env bash
# Runs every fuzz target in turn, for a time or a number of executions each.
#
#   bash fuzz/run.sh 60                  # 60 seconds per target (the CI smoke run)
#   bash fuzz/run.sh --runs 10000000     # the long run: 10 million executions per target
#   bash fuzz/run.sh 300 headers request # only some targets
#   bash fuzz/run.sh --sanitizer none --runs 10000000 headers   # without AddressSanitizer (see below)
#
# Needs the nightly toolchain and cargo-fuzz (scripts/setup.sh installs both). Builds once with optimisations and
# AddressSanitizer (or `--sanitizer none`) into fuzz/target. Each target starts from its committed seeds in
# fuzz/corpus/<target> (read only) and grows a scratch corpus in fuzz/work/corpus/<target> (git-ignored, kept
# between runs). A crash, a timeout (an input taking over 10 s) or memory growth past 1 GB fails the target: its
# input is saved under fuzz/artifacts/<target>/ and the script exits non-zero after running the others. Turn each
# one into a regression test in tests/ (see tests/fuzz_regressions.rs).
set -uo pipefail
cd "$(dirname "$0")/.."

# The crate's only unsafe code is the scanner's runtime dispatch and its AVX2 classifier (which the scan_oracle
# target exercises), so AddressSanitizer mostly watches those and the dependencies; `--sanitizer none` runs
# about three times as many executions a second, which is what the long runs use.
sanitizer=address
if [ "${1:-}" = "--sanitizer" ]; then
    sanitizer="${2:?--sanitizer needs address or none}"
    shift 2
fi
limit=()
if [ "${1:-}" = "--runs" ]; then
    limit=(-runs="${2:?--runs needs a count}")
    shift 2
else
    limit=(-max_total_time="${1:-60}")
    shift || true
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(estimate_text scan_oracle headers classify stream_error request profile_json log_rows guard_events media)
fi

cargo +nightly fuzz build -O -s "$sanitizer" || exit 1

failed=()
for t in "${targets[@]}"; do
    mkdir -p "fuzz/work/corpus/$t" "fuzz/artifacts/$t"
    log="fuzz/work/$t.log"
    echo "== $t (${limit[*]})"
    cargo +nightly fuzz run -O -s "$sanitizer" "$t" "fuzz/work/corpus/$t" "fuzz/corpus/$t" -- \
        "${limit[@]}" -timeout=10 -rss_limit_mb=1024 -max_len=16384 -print_final_stats=1 \
        -artifact_prefix="fuzz/artifacts/$t/" >"$log" 2>&1
    rc=$?
    grep -E '^Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb' "$log" | sed "s/^/   $t: /"
    if [ $rc -ne 0 ]; then
        echo "!! $t failed (exit $rc); last lines of $log:"
        tail -n 30 "$log"
        failed+=("$t")
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz targets failed: ${failed[*]}"
    exit 1
fi
echo "fuzz: every target ran clean"
