#!/usr/bin/env bash
# CTest conform.action-seed: the action's seed comes from the commit tested (new cases for each
# change, printed so a run can be replayed), OND_SEED and a --seed in OND_ARGS win.
#   scripts/conform-action-test.sh BUILD_DIR REPORT_DIR
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
action=$here/conform-action.sh
fail() { echo "conform-action-test: $*" >&2; exit 1; }

a=$(GITHUB_SHA=0123456789abcdef0123456789abcdef01234567 bash "$action" seed)
b=$(GITHUB_SHA=89abcdef0123456789abcdef0123456789abcdef bash "$action" seed)
[ "$a" = "seed=999896491" ] || fail "seed of 0123456789ab...: $a"
[ "$b" != "$a" ] || fail "two commits, one seed: $a"
[ "$(OND_SEED=7 GITHUB_SHA=0123456789abcdef bash "$action" seed)" = "seed=7" ] || fail "OND_SEED is not used"

export OND_ACTION_BUILD_DIR=$1 OND_REPORT_DIR=$2 OND_NAME=reference
export OND_DECODER="$1/cli/ond decode" GITHUB_SHA=0123456789abcdef0123456789abcdef01234567
out=$(OND_ARGS="--max-derived 3 --filter valid/document/*" bash "$action" run) || fail "run failed: $out"
grep -q '^conform-action: seed 999896491, from commit 0123456789abcdef' <<< "$out" || fail "the seed is not printed: $out"
grep -q '"seed": 999896491' "$2/conformance.json" || fail "the run did not use the commit's seed"
out=$(OND_ARGS="--max-derived 3 --filter valid/document/* --seed 11" bash "$action" run) || fail "run failed: $out"
grep -q '"seed": 11' "$2/conformance.json" || fail "--seed in OND_ARGS does not win"
# The large input: --large, here its stream case alone (refused after its header: a second).
out=$(OND_LARGE=true OND_STREAM_DECODER="$1/cli/ond stream" OND_ARGS="--filter large/stream*" bash "$action" run) ||
  fail "run with large failed: $out"
grep -q '"id": "large/stream-body-cap-plus-one"' "$2/conformance.json" || fail "OND_LARGE=true did not run the large cases"
if out=$(OND_LARGE=yes bash "$action" run 2>&1); then fail "OND_LARGE=yes was taken: $out"; fi
grep -q "large is 'true' or 'false', not 'yes'" <<< "$out" || fail "OND_LARGE=yes is not explained: $out"
echo "conform-action-test: ok"
