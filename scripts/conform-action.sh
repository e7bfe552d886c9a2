#!/usr/bin/env bash
# The shell steps of the GitHub action (action.yml at the repository root): the conformance suite
# in another project's CI. This repository's CI runs the same steps against the example Python
# adapter (scripts/test.sh).
#
#   scripts/conform-action.sh key       prints key=<hash of the sources `ond` is built from>
#   scripts/conform-action.sh build     builds `ond` from this checkout, or keeps the build already in
#                                       the build directory when it was made from the same sources
#   scripts/conform-action.sh run       the gate: runs `ond conform` against the caller's adapter(s) on
#                                       the corpus and the derived cases of a fixed seed, and writes the
#                                       HTML, JUnit and JSON reports
#   scripts/conform-action.sh explore   OND_EXPLORE_SEEDS further seeds, from the commit tested: derived
#                                       cases only, reported and saved under REPORT_DIR/explore, never
#                                       failing the step
#   scripts/conform-action.sh explore-seeds   prints explore-seeds=<the seeds `explore` runs>
#
# The gate's seed is fixed per corpus version: `ond conform`'s default, a function of the corpus
# version alone (conformance/README.md), so the gate gives one verdict for one implementation and
# one corpus, whatever the commit. Other seeds are for exploring: what they find is reported and
# its inputs saved, to be minimised into a case of the next corpus version.
#
# Environment (the action maps its inputs onto these):
#   OND_ACTION_BUILD_DIR   build directory (default <this checkout>/build/action)
#   OND_ACTION_INSTALL_DEPS=true   install the build's packages with apt-get first (runners)
#   OND_DECODER, OND_ENCODER, OND_STREAM_DECODER, OND_PERSISTENT   adapter commands (at least one)
#   OND_EXPECTED_FAILURES  expected-failures file (optional)
#   OND_NAME               the implementation's name in the reports (default: testee)
#   OND_REPORT_DIR         where the reports go (default: ond-conform-report)
#   OND_LARGE=true         adds --large (the caps at full size; default false)
#   OND_ARGS               further `ond conform` options, split on white space
#   OND_SEED               the gate's seed (default: the corpus version's; a --seed in OND_ARGS wins)
#   OND_EXPLORE_SEEDS      how many seeds `explore` runs (0 to 20, default 0), from the commit tested
#                          (GITHUB_SHA or the HEAD of GITHUB_WORKSPACE)
# When GITHUB_OUTPUT is set, `key`, `run` and `explore` also write their outputs there.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${OND_ACTION_BUILD_DIR:-$src/build/action}
ond=$build/cli/ond

# The sources `ond` is built from, hashed: the cache key and the stamp of a build.
source_hash() {
  (cd "$src" && find CMakeLists.txt cmake codec json cli conformance corpus -type f \
     ! -name '*_test.cpp' ! -name 'test_*' -print0 | LC_ALL=C sort -z |
     xargs -0 sha256sum | sha256sum | cut -c1-24)
}

output() {  # name value: to stdout and, on GitHub, to the step's outputs
  echo "$1=$2"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1=$2" >> "$GITHUB_OUTPUT"; fi
}

# The seeds of the explore step: N consecutive numbers from the commit tested, so that each
# change meets derived cases the gate and the earlier commits did not.
explore_seeds() {
  local n=$1 sha=${GITHUB_SHA:-}
  [ -n "$sha" ] || sha=$(git -C "${GITHUB_WORKSPACE:-$PWD}" rev-parse HEAD 2>/dev/null) || sha=""
  case "$sha" in
    *[!0-9a-fA-F]* | "") return 1 ;;
  esac
  local base=$(( 0x${sha:0:12} % 1000000000 )) i seeds=()
  for ((i = 0; i < n; i++)); do seeds+=($(( (base + i) % 1000000000 ))); done
  echo "${seeds[*]}"
}

# OND_EXPLORE_SEEDS, checked: 0 to 20.
explore_count() {
  local n=${OND_EXPLORE_SEEDS:-0}
  [ -n "$n" ] || n=0
  case "$n" in
    *[!0-9]*) ;;
    *) if [ "${#n}" -le 2 ] && [ "$((10#$n))" -le 20 ]; then echo "$((10#$n))"; return 0; fi ;;
  esac
  echo "conform-action: explore-seeds takes a number from 0 to 20, not '$n'" >&2
  return 2
}

cmd_explore_seeds() {
  local n seeds
  n=$(explore_count) || return 2
  seeds=$(explore_seeds "$n") || { echo "conform-action: no commit to take the seeds from (set GITHUB_SHA)" >&2; return 2; }
  output explore-seeds "$seeds"
}

# A number field of the JSON report ("seed": 123,), "" when absent.
json_field() {
  if [ -f "$2" ]; then sed -n "s/^ *\"$1\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}\$/\1/p" "$2" | head -n 1; fi
}

cmd_key() {
  output key "ond-$(uname -s)-$(uname -m)-$(source_hash)"
}

cmd_build() {
  local hash stamp
  hash=$(source_hash)
  stamp=$build/.ond-action-sources
  if [ -x "$ond" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ]; then
    echo "ond: using the cached build in $build (sources $hash)"
    return 0
  fi
  if [ "${OND_ACTION_INSTALL_DEPS:-false}" = true ]; then
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      cmake ninja-build g++ zlib1g-dev nlohmann-json3-dev libcli11-dev libssl-dev >/dev/null
  fi
  if [ ! -f "$build/CMakeCache.txt" ]; then
    # The `tool` preset: the tool alone, with only the packages installed above.
    (cd "$src" && cmake --preset tool -B "$build" >/dev/null)
  fi
  cmake --build "$build" --target ond -j"$(nproc)"
  echo "$hash" > "$stamp"
  echo "ond: built in $build (sources $hash)"
}

# The adapter commands and the expected-failures list as `ond conform` options, into args; OND_ARGS
# into extra.
adapter_args() {
  args=()
  [ -n "${OND_DECODER:-}" ] && args+=(--decoder "$OND_DECODER")
  [ -n "${OND_ENCODER:-}" ] && args+=(--encoder "$OND_ENCODER")
  [ -n "${OND_STREAM_DECODER:-}" ] && args+=(--stream-decoder "$OND_STREAM_DECODER")
  [ -n "${OND_PERSISTENT:-}" ] && args+=(--persistent "$OND_PERSISTENT")
  if [ "${#args[@]}" -eq 0 ]; then
    echo "conform-action: give at least one adapter command (decoder, encoder, stream-decoder or persistent)" >&2
    return 2
  fi
  if [ -n "${OND_EXPECTED_FAILURES:-}" ]; then
    [ -f "$OND_EXPECTED_FAILURES" ] || { echo "conform-action: no file $OND_EXPECTED_FAILURES" >&2; return 2; }
    args+=(--expected-failures "$OND_EXPECTED_FAILURES")
  fi
  case "${OND_LARGE:-false}" in
    true) args+=(--large) ;;
    false | '') ;;
    *) echo "conform-action: large is 'true' or 'false', not '$OND_LARGE'" >&2; return 2 ;;
  esac
  [ -x "$ond" ] || { echo "conform-action: $ond is not built (run the build step first)" >&2; return 2; }
  extra=()
  read -r -a extra <<< "${OND_ARGS:-}"
}

cmd_run() {
  local args extra report=${OND_REPORT_DIR:-ond-conform-report} name=${OND_NAME:-testee}
  adapter_args || return 2
  local given=false a origin
  for a in "${extra[@]}"; do case "$a" in --seed | --seed=*) given=true ;; esac; done
  if [ "$given" = true ]; then
    origin="--seed in args"
  elif [ -n "${OND_SEED:-}" ]; then
    args+=(--seed "$OND_SEED")
    origin="the seed input"
  fi
  mkdir -p "$report"
  rm -f "$report/conformance.json"  # the seed output is read from this run's
  local status=0
  "$ond" conform -q --corpus "$src/corpus" --name "$name" "${args[@]}" "${extra[@]}" \
    --html "$report/conformance.html" --junit "$report/conformance.xml" --json "$report/conformance.json" 2>&1 \
    | tee "$report/conformance.txt" || status=$?  # with -q, stderr holds only what stops a run: the summary's last line
  local seed version
  seed=$(json_field seed "$report/conformance.json")
  version=$(json_field corpus_version "$report/conformance.json")
  if [ -n "$seed" ]; then
    output seed "$seed"
    echo "conform-action: gate seed $seed, ${origin:-the default of corpus $version (a function of the corpus version alone: the same for every commit)}; replay: --seed $seed"
  fi
  output report-dir "$report"
  output summary "$(tail -n 1 "$report/conformance.txt")"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    { echo "### ond conform: $name"; echo; echo "\`$(tail -n 1 "$report/conformance.txt")\` (seed $seed)"; } >> "$GITHUB_STEP_SUMMARY"
  fi
  return "$status"
}

# Further seeds, after the gate: derived cases only (the corpus cases are the gate's), each seed in
# REPORT_DIR/explore/seed-S (its JSON report, the failing ids in failing.txt, and in cases/ the
# input of every failing derived case). REPORT_DIR/explore/summary.txt: a line per seed, then its
# failing ids. What it finds never fails the step: only a bad explore-seeds or no adapter does.
cmd_explore() {
  local n seeds
  n=$(explore_count) || return 2
  if [ "$n" -eq 0 ]; then
    echo "conform-action: exploring is off (explore-seeds 0)"
    output explore-summary "off"
    return 0
  fi
  seeds=$(explore_seeds "$n") || { echo "conform-action: no commit to take the seeds from (set GITHUB_SHA)" >&2; return 2; }
  local args extra report=${OND_REPORT_DIR:-ond-conform-report} name=${OND_NAME:-testee}
  adapter_args || return 2
  local kept=() skip=false a
  for a in "${extra[@]}"; do  # the seed is the step's
    if [ "$skip" = true ]; then skip=false; continue; fi
    case "$a" in --seed) skip=true ;; --seed=*) ;; *) kept+=("$a") ;; esac
  done
  local dir=$report/explore s out line failing=0 with=0
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "conform-action: exploring seeds $seeds (from commit ${GITHUB_SHA:-HEAD}); not a gate: findings are reported and saved in $dir"
  for s in $seeds; do
    out=$dir/seed-$s
    mkdir -p "$out"
    "$ond" conform -q --corpus "$src/corpus" --name "$name" "${args[@]}" "${kept[@]}" --seed "$s" --filter 'derived/*' \
      --allow-unknown-expected-failures --json "$out/conformance.json" --write-expected-failures "$out/failing.txt" \
      > "$out/conformance.txt" 2>&1 || true
    line=$(tail -n 1 "$out/conformance.txt")
    echo "seed $s: $line" >> "$dir/summary.txt"
    if [ -s "$out/failing.txt" ] && grep -q -v '^#' "$out/failing.txt"; then
      with=$((with + 1))
      while IFS= read -r a; do
        case "$a" in '#'* | '') continue ;; esac
        failing=$((failing + 1))
        echo "  seed $s: $a" >> "$dir/summary.txt"
      done < "$out/failing.txt"
    fi
  done
  cat "$dir/summary.txt"
  local summary="$n seed$([ "$n" -eq 1 ] || echo s) explored, $with with failing derived cases ($failing failures)"
  echo "conform-action: $summary; the inputs are in $dir/seed-*/cases/ (minimise them into the next corpus version)"
  output explore-summary "$summary"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    { echo "### ond conform: exploring $n further seeds (not a gate)"; echo; echo '```'; cat "$dir/summary.txt"; echo '```'; } >> "$GITHUB_STEP_SUMMARY"
  fi
  return 0
}

case "${1:-}" in
  key) cmd_key ;;
  build) cmd_build ;;
  run) cmd_run ;;
  explore) cmd_explore ;;
  explore-seeds) cmd_explore_seeds ;;
  *) echo "usage: $0 key|build|run|explore|explore-seeds" >&2; exit 2 ;;
esac
