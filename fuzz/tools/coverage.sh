#!/usr/bin/env bash
# Line and branch coverage of codec/ reached by the fuzz harnesses: builds them with clang's
# source-based coverage (replay driver, no sanitizers), replays each harness's seeds, the golden
# corpus, the regressions (for the harnesses with the structure-aware mutator also 20 mutants of
# each seed, as CTest replays them; the differential seeds also under two OND_VARINT_LEVEL
# values) and any extra corpus directories (e.g. a campaign's, laid out as DIR/<harness>/ or
# DIR/corpus-<harness>/), merges the profiles and prints llvm-cov's report for codec/, then
# coverage_figures.py's table: per file and in all, with and without the code no input reaches
# (coverage-excluded.txt, each entry with its reason).
#
#   fuzz/tools/coverage.sh [BUILD_DIR] [EXTRA_CORPUS_ROOT...]     (BUILD_DIR default build/coverage)
#
# Fails when the figures without that code are below OND_COVERAGE_MIN_LINES (default 95) or
# OND_COVERAGE_MIN_BRANCHES (default 90) percent: the committed seeds, golden corpus and
# regressions alone must reach both. The profile, llvm-cov's report, the lcov export and the
# figures stay in BUILD_DIR/coverage-profile/ (objects.txt lists the binaries, for llvm-cov show).
set -euo pipefail
shopt -s inherit_errexit 2>/dev/null || true
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build/coverage}
shift || true
llvm=${LLVM_SUFFIX:--14}

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug "${launcher[@]}" \
    -DCMAKE_C_COMPILER=clang"$llvm" -DCMAKE_CXX_COMPILER=clang++"$llvm" \
    -DCMAKE_CXX_FLAGS="-O1 -fprofile-instr-generate -fcoverage-mapping" \
    -DCMAKE_EXE_LINKER_FLAGS="-fprofile-instr-generate" -DOND_BUILD_TOOLS=OFF >/dev/null
fi
cmake --build "$build" --target fuzzers -j"${OND_BUILD_JOBS:-2}"

prof="$build/coverage-profile"  # kept: all.profdata and report.txt, for llvm-cov show
rm -rf "$prof" && mkdir -p "$prof"
# Not `noexcept`: its second codec is the no-exceptions build, whose bail-out branches are no
# code of ond::codec; the figures are ond::codec's.
names=(varint string string_table text tokens entities categories span_groups records header
       container stream doc_bin differential roundtrip writer api)
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
  case "$name" in  # the structure-aware mutator's mutants of the seeds, as CTest replays them
    container|stream|doc_bin|differential|roundtrip|api)
      LLVM_PROFILE_FILE="$prof/$name-mutants-%p.profraw" "$exe" --mutate 20 --seed 7 "$root/fuzz/seeds/$name" >/dev/null ;;
  esac
  objects+=(-object "$exe")
done
# The varint level named in the environment (read once per process): a known name and an unknown one.
for level in sse41 no-such-level; do
  OND_VARINT_LEVEL=$level LLVM_PROFILE_FILE="$prof/level-$level-%p.profraw" \
    "$build/fuzz/differential_fuzzer" "$root/fuzz/seeds/differential" >/dev/null
done
llvm-profdata"$llvm" merge -sparse "$prof"/*.profraw -o "$prof/all.profdata"
rm -f "$prof"/*.profraw
printf '%s\n' "${objects[@]:1}" > "$prof/objects.txt"
llvm-cov"$llvm" report -instr-profile="$prof/all.profdata" "${objects[@]:1}" \
  -ignore-filename-regex='(/fuzz/|/tests/|^/usr/|_test\.cpp$)' | tee "$prof/report.txt"
llvm-cov"$llvm" export -format=lcov -instr-profile="$prof/all.profdata" "${objects[@]:1}" \
  -ignore-filename-regex='(/fuzz/|/tests/|^/usr/|_test\.cpp$)' > "$prof/codec.lcov"
# Per file and in all, with and without the code no input reaches (coverage-excluded.txt); the
# floor applies to the figures without it.
python3 "$root/fuzz/tools/coverage_figures.py" "$prof/codec.lcov" --root "$root" \
  --min-lines "${OND_COVERAGE_MIN_LINES:-95}" --min-branches "${OND_COVERAGE_MIN_BRANCHES:-90}" | tee "$prof/figures.txt"
