#!/usr/bin/env bash
# Builds the `fuzz` preset (clang-14, libFuzzer, ASan+UBSan) and runs every harness for SECONDS
# seconds on a copy of its seeds (plus the golden corpus for the whole-container harnesses),
# two at a time. Fails on any finding (crash, sanitizer report, violated property, leak, OOM,
# timeout). Prints each harness's executions per second and coverage.
#
#   fuzz/tools/smoke.sh [SECONDS] [BUILD_DIR]      (defaults: 10, build/fuzz)
#
# OND_SMOKE_KEEP=DIR keeps the grown corpora (DIR/corpus-<harness>), logs and artifacts in DIR
# instead of a temporary directory, so a long campaign can be resumed and measured with
# fuzz/tools/coverage.sh; OND_SMOKE_JOBS sets how many harnesses run at once. OND_SMOKE_SUFFIX picks
# other binaries of the build (with OND_SMOKE_NO_BUILD=1): `_switchable` runs fuzz/power/power.sh's
# build with nothing switched off (OND_SMOKE_HARNESSES="a b ..." runs only those).
set -euo pipefail
secs=${1:-10}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${2:-$root/build/fuzz}
jobs=${OND_SMOKE_JOBS:-2}

if [ "${OND_SMOKE_NO_BUILD:-0}" != 1 ]; then  # set it to 1 to use an existing build as it is
  cmake --preset fuzz -S "$root" -B "$build" >/dev/null
  cmake --build "$build" --target fuzzers -j"${OND_BUILD_JOBS:-2}"
fi

if [ -n "${OND_SMOKE_KEEP:-}" ]; then
  mkdir -p "$OND_SMOKE_KEEP"; work=$(cd "$OND_SMOKE_KEEP" && pwd)
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/ond-smoke.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
section=" varint string string_table text tokens entities categories span_groups "

run_one() {
  local name=$1 exe="$build/fuzz/${1}_fuzzer${OND_SMOKE_SUFFIX:-}" corpus="$work/corpus-$1" dict=()
  mkdir -p "$corpus"
  cp -r "$root/fuzz/seeds/$name/." "$corpus/"
  case "$name" in
    container|differential|roundtrip|doc_bin|stream|records|noexcept)
      [ -d "$root/corpus/cases" ] && find "$root/corpus/cases" -type f \( -name '*.ondc' -o -name '*.ondb' \) \
        -exec cp --backup=numbered -t "$corpus" {} + ;;
  esac
  if [[ "$section" == *" $name "* ]]; then dict=(-dict="$root/fuzz/dict/primitives.dict")
  elif [ "$name" != writer ]; then dict=(-dict="$root/fuzz/dict/ond.dict"); fi
  if "$exe" "${dict[@]}" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$work/$name-" "$corpus" > "$work/$name.log" 2>&1; then
    local runs cov ft units
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$name.log" | grep -o '[0-9]*$' || echo 0)
    cov=$(grep -o 'cov: [0-9]*' "$work/$name.log" | tail -1 | grep -o '[0-9]*' || echo '?')
    ft=$(grep -o 'ft: [0-9]*' "$work/$name.log" | tail -1 | grep -o '[0-9]*' || echo '?')
    units=$(find "$corpus" -type f | wc -l)
    printf '%-14s ok  %10s execs  %7s execs/s  cov %5s  ft %6s  corpus %6s\n' \
      "$name" "$runs" "$((runs / secs))" "$cov" "$ft" "$units"
  else
    printf '%-14s FAILED\n' "$name"
    tail -40 "$work/$name.log"
    ls "$work/$name-"* 2>/dev/null | sed 's/^/  artifact: /'
    return 1
  fi
}

names=(varint string string_table text tokens entities categories span_groups records header
       container stream doc_bin differential roundtrip writer api noexcept)
if [ -n "${OND_SMOKE_SUFFIX:-}" ]; then  # no `noexcept` in the switchable build (fuzz/CMakeLists.txt says why)
  kept=(); for n in "${names[@]}"; do [ "$n" = noexcept ] || kept+=("$n"); done; names=("${kept[@]}")
fi
[ -n "${OND_SMOKE_HARNESSES:-}" ] && read -r -a names <<< "$OND_SMOKE_HARNESSES"
status=0
pids=()
for name in "${names[@]}"; do
  run_one "$name" > "$work/$name.result" 2>&1 &
  pids+=($!)
  if [ "${#pids[@]}" -ge "$jobs" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
for name in "${names[@]}"; do cat "$work/$name.result"; done
[ "$status" -eq 0 ] && echo "fuzz smoke: all ${#names[@]} harnesses ran ${secs}s each, no findings" || echo "fuzz smoke: FAILED"
exit $status
