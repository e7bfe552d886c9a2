#!/usr/bin/env bash
# Builds ond_bench with the release preset, runs every benchmark (JSON output) and prints the
# tables with the ratios ours/peer and the targets of issue 7.
#
#   bench/run.sh [ond_bench flags...]      e.g. --benchmark_filter=/a/ or --workloads=ab
#
# Environment: BUILD_DIR (default build/release), OUT (default $BUILD_DIR/bench/results.json),
# BENCH_MIN_TIME (seconds per repetition, default 0.3), BENCH_REPETITIONS (default 3; the tables
# use the median), SKIP_BUILD=1 to use an existing binary.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
build="${BUILD_DIR:-build/release}"
out="${OUT:-$build/bench/results.json}"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  cmake --preset release -B "$build" >/dev/null
  cmake --build "$build" -j2 --target ond_bench
fi
"$build/bench/ond_bench" --benchmark_min_time="${BENCH_MIN_TIME:-0.3}" \
  --benchmark_repetitions="${BENCH_REPETITIONS:-3}" --benchmark_report_aggregates_only=false \
  --benchmark_format=console --benchmark_out_format=json --benchmark_out="$out" "$@" >&2
python3 bench/report.py "$out" --machine
