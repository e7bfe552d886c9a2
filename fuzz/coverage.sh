#!/usr/bin/env bash
# Line and branch coverage of codec/ reached by the fuzz harnesses: builds them with clang's
# source-based coverage (replay driver, no sanitizers), replays each harness's seeds, the golden
# corpus, the regressions and any extra corpus directories (e.g. a campaign's, laid out as
# DIR/<harness>/ or DIR/corpus-<harness>/), merges the profiles and prints llvm-cov's report for
# codec/src.
#
#   fuzz/coverage.sh [BUILD_DIR] [EXTRA_CORPUS_ROOT...]     (BUILD_DIR default build/coverage)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build/coverage}
shift || true
llvm=${LLVM_SUFFIX:--14}

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_COMPILER=clang"$llvm" -DCMAKE_CXX_COMPILER=clang++"$llvm" \
    -DCMAKE_CXX_FLAGS="-O1 -fprofile-instr-generate -fcoverage-mapping" \
    -DCMAKE_EXE_LINKER_FLAGS="-fprofile-instr-generate" -DOND_BUILD_TOOLS=OFF >/dev/null
fi
cmake --build "$build" --target fuzzers -j"${OND_BUILD_JOBS:-2}"

prof=$(mktemp -d "${TMPDIR:-/tmp}/ond-cov.XXXXXX")
trap 'rm -rf "$prof"' EXIT
names=(varint string string_table text tokens entities categories span_groups records header
       container stream doc_bin differential roundtrip writer)
objects=()
for name in "${names[@]}"; do
  exe="$build/fuzz/${name}_fuzzer"
  dirs=("$root/fuzz/seeds/$name")
  [ -d "$root/corpus/cases" ] && dirs+=("$root/corpus/cases")
  [ -d "$root/corpus/regressions" ] && dirs+=("$root/corpus/regressions")
  for extra in "$@"; do
    for d in "$extra/$name" "$extra/corpus-$name"; do [ -d "$d" ] && dirs+=("$d"); done
  done
  LLVM_PROFILE_FILE="$prof/$name-%p.profraw" "$exe" "${dirs[@]}" >/dev/null
  objects+=(-object "$exe")
done
llvm-profdata"$llvm" merge -sparse "$prof"/*.profraw -o "$prof/all.profdata"
llvm-cov"$llvm" report -instr-profile="$prof/all.profdata" "${objects[@]:1}" \
  -ignore-filename-regex='(/fuzz/|/tests/|^/usr/)'
