#!/usr/bin/env bash
# The shell steps of the GitHub action (action.yml at the repository root): the conformance suite
# in another project's CI. This repository's CI runs the same steps against the example Python
# adapter (scripts/test.sh).
#
#   scripts/conform-action.sh key     prints key=<hash of the sources `ond` is built from>
#   scripts/conform-action.sh build   builds `ond` from this checkout, or keeps the build already in
#                                     the build directory when it was made from the same sources
#   scripts/conform-action.sh seed    prints seed=<the derived cases' seed for the commit tested>
#   scripts/conform-action.sh run     runs `ond conform` against the caller's adapter(s) and
#                                     writes the HTML, JUnit and JSON reports
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
#   OND_SEED               the seed of the derived cases (default: from the commit tested, GITHUB_SHA
#                          or the HEAD of GITHUB_WORKSPACE, so each change meets new cases and a run
#                          can be replayed; a --seed in OND_ARGS wins)
# When GITHUB_OUTPUT is set, `key` and `run` also write their outputs there.
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

# The seed: OND_SEED, else a function of the commit tested (the corpus version alone would let a
# table of answers pass the default run).
commit_seed() {
  if [ -n "${OND_SEED:-}" ]; then echo "$OND_SEED"; return 0; fi
  local sha=${GITHUB_SHA:-}
  [ -n "$sha" ] || sha=$(git -C "${GITHUB_WORKSPACE:-$PWD}" rev-parse HEAD 2>/dev/null) || sha=""
  case "$sha" in
    *[!0-9a-fA-F]* | "") return 1 ;;
  esac
  echo $(( 0x${sha:0:12} % 1000000000 ))
}

cmd_seed() {
  local seed
  seed=$(commit_seed) || { echo "conform-action: no commit to take the seed from (set OND_SEED or GITHUB_SHA)" >&2; return 2; }
  output seed "$seed"
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

cmd_run() {
  local args=() report=${OND_REPORT_DIR:-ond-conform-report} name=${OND_NAME:-testee}
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
  local extra=()
  read -r -a extra <<< "${OND_ARGS:-}"
  local given=false a seed
  for a in "${extra[@]}"; do case "$a" in --seed | --seed=*) given=true ;; esac; done
  if [ "$given" = false ]; then
    if seed=$(commit_seed); then
      args+=(--seed "$seed")
      output seed "$seed"
      echo "conform-action: seed $seed, from ${OND_SEED:+OND_SEED}${OND_SEED:-commit ${GITHUB_SHA:-HEAD}} (replay: --seed $seed)"
    else
      echo "conform-action: no commit to take the seed from; the corpus's default seed is used" >&2
    fi
  fi
  mkdir -p "$report"
  local status=0
  "$ond" conform -q --corpus "$src/corpus" --name "$name" "${args[@]}" "${extra[@]}" \
    --html "$report/conformance.html" --junit "$report/conformance.xml" --json "$report/conformance.json" \
    | tee "$report/conformance.txt" || status=$?
  output report-dir "$report"
  output summary "$(tail -n 1 "$report/conformance.txt")"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    { echo "### ond conform: $name"; echo; echo "\`$(tail -n 1 "$report/conformance.txt")\`"; } >> "$GITHUB_STEP_SUMMARY"
  fi
  return "$status"
}

case "${1:-}" in
  key) cmd_key ;;
  seed) cmd_seed ;;
  build) cmd_build ;;
  run) cmd_run ;;
  *) echo "usage: $0 key|build|seed|run" >&2; exit 2 ;;
esac
