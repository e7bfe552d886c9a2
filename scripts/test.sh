#!/usr/bin/env bash
# Builds and runs every test: the default (g++) build, then the ASan+UBSan (clang) build, the
# checks of the GitHub workflows and action, the action's steps against the example adapter, and
# OSS-Fuzz's builds of fuzz/oss-fuzz/ emulated (libFuzzer+ASan; AFL++ and the other two with
# OND_EMULATE_BUILDS), each fuzzer running a few seconds on its seeds (this replaces fuzz/tools/smoke.sh in CI;
# OND_FUZZ_SMOKE_SECONDS=N runs the smoke as well), the short fuzz-power subset, and the tool's
# .deb (from the default build), installed and run. Usage: scripts/test.sh [--quick]
# (--quick: default build only)
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
# Not here: benchmarks, the OSS-Fuzz and install checks (a build of their own each) and the tests
# labelled "slow", whole runs of the suite (adapter templates, suite power, the action's seeds, the
# runner's end-to-end runs named in cli/CMakeLists.txt) and the hostile GiB inputs; the default
# build runs them.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan-ubsan -j"$jobs" -LE 'bench|oss-fuzz|slow|install'

step "GitHub workflows, action and ClusterFuzzLite files"
python3 .github/check_workflows.py

step "the conformance action's steps against the example Python adapter"
report=build/conform-action-report
rm -rf "$report"
OND_ACTION_BUILD_DIR=build/default bash scripts/conform-action.sh build
OND_ACTION_BUILD_DIR=build/default OND_REPORT_DIR="$report" OND_NAME=python-example \
  OND_PERSISTENT="python3 conformance/examples/python_adapter.py serve" \
  OND_EXPECTED_FAILURES=conformance/examples/python_adapter.expected-failures \
  OND_ARGS="--max-derived 100" bash scripts/conform-action.sh run > "$report.log"
tail -n 3 "$report.log"
grep -q '^summary=CONFORMANCE PASSED' "$report.log"
# The explore step, one seed from a fixed commit: the example passes its derived cases too.
GITHUB_SHA=0123456789abcdef0123456789abcdef01234567 OND_EXPLORE_SEEDS=1 \
  OND_ACTION_BUILD_DIR=build/default OND_REPORT_DIR="$report" OND_NAME=python-example \
  OND_PERSISTENT="python3 conformance/examples/python_adapter.py serve" \
  OND_EXPECTED_FAILURES=conformance/examples/python_adapter.expected-failures \
  OND_ARGS="--max-derived 30" bash scripts/conform-action.sh explore > "$report.explore.log"
tail -n 1 "$report.explore.log"
grep -q '^explore-summary=1 seed explored, 0 with failing derived cases (0 failures)$' "$report.explore.log"
for f in conformance.html conformance.xml conformance.json; do
  [ -s "$report/$f" ] || { echo "conform action: no $report/$f"; exit 1; }
done
python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert any(True for _ in r.iter("testsuite"))' "$report/conformance.xml"

step "OSS-Fuzz builds emulated (fuzz/tools/oss-fuzz-emulate.py)"
# libFuzzer+ASan here; the UBSan build is ClusterFuzzLite's (cflite_build.yml), the coverage build the
# coverage workflow's. OND_EMULATE_BUILDS=address,undefined,afl,coverage runs all four (AFL++ adds
# about 4 minutes).
python3 fuzz/tools/oss-fuzz-emulate.py --builds "${OND_EMULATE_BUILDS:-address}" \
  --seconds "${OND_FUZZ_SECONDS:-2}" --afl-seconds "${OND_AFL_SECONDS:-3}"

step "fuzz power, the short subset (fuzz/power/power.sh --ci)"
fuzz/power/power.sh --ci

step "the tool packaged (.deb, the default build's), installed and run"
bash scripts/package-test.sh build/default

if [ -n "${OND_FUZZ_SMOKE_SECONDS:-}" ]; then
  step "fuzz smoke (libFuzzer, ASan+UBSan)"
  fuzz/tools/smoke.sh "$OND_FUZZ_SMOKE_SECONDS"
fi
