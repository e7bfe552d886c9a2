#!/usr/bin/env bash
# Fuzz power (fuzz/power/power.py): builds the harnesses on the codec with check switches in an
# OSS-Fuzz-style libFuzzer build (clang, OSS-Fuzz's ASan flags in CFLAGS/CXXFLAGS, the engine
# -fsanitize=fuzzer linked after the objects) and checks that every reader check and writer rule,
# switched off, makes some harness fail within the budget.
#
#   fuzz/power/power.sh [--ci] [--seconds N] [--report FILE] [--only CHECK]... [--keep DIR]
#
# --ci runs the short subset (power.py's CI_SUBSET; unless --seconds says otherwise, 40,000
# executions per harness at most, or 120 s: a budget that a loaded machine does not shrink) and
# builds only the harnesses it needs. OND_POWER_BUILD sets the build directory
# (default build/fuzz-power), OND_BUILD_JOBS the build's parallelism (default 2).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${OND_POWER_BUILD:-$root/build/fuzz-power}
jobs=${OND_BUILD_JOBS:-2}
ci=0
args=()
for a in "$@"; do
  [ "$a" = --ci ] && ci=1
  args+=("$a")
done
if [ "$ci" = 1 ] && [[ " $* " != *" --seconds "* ]]; then args+=(--seconds 120 --runs 40000); fi

flags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
-fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="${CC:-clang}" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS_RELEASE="" -DCMAKE_CXX_FLAGS_RELEASE="" \
  -DOND_LIBFUZZER=ON -DOND_FUZZ_ENGINE=-fsanitize=fuzzer -DOND_FUZZ_SWITCHABLE=ON \
  -DOND_BUILD_TESTS=ON -DOND_BUILD_TOOLS=OFF -DOND_BUILD_BENCH=OFF -DOND_BUILD_EXAMPLES=OFF -DOND_WERROR=OFF \
  -DOND_CRC_ISAL=OFF "${launcher[@]}" >/dev/null

if [ "$ci" = 1 ]; then
  mapfile -t harnesses < <(python3 "$root/fuzz/power/power.py" --build "$build" --ci --list-harnesses)
  targets=("${harnesses[@]/%/_fuzzer_switchable}")
else
  targets=(fuzzers_switchable)
fi
cmake --build "$build" --target "${targets[@]}" -j"$jobs"
exec python3 "$root/fuzz/power/power.py" --build "$build" "${args[@]}"
