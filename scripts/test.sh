#!/usr/bin/env bash
# Builds and runs every test: the default (g++) build, then the ASan+UBSan (clang) build, then a
# short libFuzzer smoke run of every harness. Usage: scripts/test.sh [--quick]  (--quick: default build only)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh >/dev/null
jobs=${OND_JOBS:-$(nproc)}
quick=0; [ "${1:-}" = "--quick" ] && quick=1

start=$SECONDS
step() { printf '\n=== %s (at %ds) ===\n' "$*" "$((SECONDS - start))"; }
trap 'printf "\n=== finished in %ds ===\n" "$((SECONDS - start))"' EXIT

step "default build (g++-12, -Werror)"
cmake --preset default >/dev/null
cmake --build --preset default -j"$jobs"
step "default tests"
ctest --preset default -j"$jobs"

if [ "$quick" = 1 ]; then exit 0; fi

step "asan-ubsan build (clang-14, -Werror)"
cmake --preset asan-ubsan >/dev/null
cmake --build --preset asan-ubsan -j"$jobs"
step "asan-ubsan tests"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan-ubsan -j"$jobs" -LE 'bench|oss-fuzz|slow'

if [ -x fuzz/smoke.sh ]; then
  step "fuzz smoke (libFuzzer, ASan+UBSan)"
  fuzz/smoke.sh "${OND_FUZZ_SECONDS:-20}"
fi
