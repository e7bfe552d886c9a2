#!/usr/bin/env bash
# CTest conform.action-seed: the action's gate has one seed per corpus version (the same for every
# commit, printed; the seed input and a --seed in OND_ARGS win), and its explore step runs further
# seeds from the commit, reports and saves what they find, and never fails.
#   scripts/conform-action-test.sh BUILD_DIR REPORT_DIR
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
action=$here/conform-action.sh
fail() { echo "conform-action-test: $*" >&2; exit 1; }
version=$(sed -n 's/^ *"corpus_version": "\(.*\)",$/\1/p' "$here/../corpus/manifest.json" | head -n 1)
[ -n "$version" ] || fail "no corpus_version in corpus/manifest.json"

report=$2
export OND_ACTION_BUILD_DIR=$1 OND_REPORT_DIR=$2 OND_NAME=reference
export OND_DECODER="$1/cli/ond decode"
seed_of_run() { sed -n 's/^ *"seed": \([0-9]*\),$/\1/p' "$report/conformance.json" | head -n 1; }

# The gate: two commits, one seed, the corpus version's (ond conform's default).
gate=()
for sha in 0123456789abcdef0123456789abcdef01234567 89abcdef0123456789abcdef0123456789abcdef; do
  out=$(GITHUB_SHA=$sha OND_ARGS="--max-derived 3 --filter valid/document/*" bash "$action" run) || fail "run failed: $out"
  grep -q '"seed_origin": "default"' "$2/conformance.json" || fail "the gate did not use the corpus's default seed"
  gate+=("$(seed_of_run)")
  grep -q "^conform-action: gate seed ${gate[-1]}, the default of corpus $version (a function of the corpus version alone" <<< "$out" ||
    fail "the gate's seed is not printed: $out"
  grep -q "^seed=${gate[-1]}$" <<< "$out" || fail "no seed output: $out"
done
[ -n "${gate[0]}" ] && [ "${gate[0]}" = "${gate[1]}" ] || fail "two commits, two gate seeds: ${gate[*]}"
out=$(OND_SEED=7 OND_ARGS="--max-derived 3 --filter valid/document/*" bash "$action" run) || fail "run failed: $out"
[ "$(seed_of_run)" = 7 ] || fail "the seed input is not used"
out=$(OND_SEED=7 OND_ARGS="--max-derived 3 --filter valid/document/* --seed 11" bash "$action" run) || fail "run failed: $out"
[ "$(seed_of_run)" = 11 ] || fail "--seed in OND_ARGS does not win"

# A run that cannot start says why in the summary output (a list with a NUL byte: exit status 2).
printf 'valid/document/basic\n\0\n' > "$report.nul-list"
if out=$(OND_EXPECTED_FAILURES="$report.nul-list" bash "$action" run 2>&1); then fail "a list with a NUL byte was taken"; fi
grep -q "^summary=ond conform: expected-failures:2: a NUL byte: $report.nul-list is not a text list of case ids$" <<< "$out" ||
  fail "no summary of the refused list: $out"

# Explore seeds: from the commit, consecutive, different for another commit; 0 is off; 21 is refused.
[ "$(GITHUB_SHA=0123456789abcdef0123456789abcdef01234567 OND_EXPLORE_SEEDS=2 bash "$action" explore-seeds)" = \
  "explore-seeds=999896491 999896492" ] || fail "explore seeds of 0123456789ab..."
[ "$(GITHUB_SHA=89abcdef0123456789abcdef0123456789abcdef OND_EXPLORE_SEEDS=1 bash "$action" explore-seeds)" != \
  "explore-seeds=999896491" ] || fail "two commits, one explore seed"
out=$(OND_EXPLORE_SEEDS=0 bash "$action" explore) || fail "explore-seeds 0 failed"
grep -q '^explore-summary=off$' <<< "$out" || fail "explore-seeds 0 is not off: $out"
if err=$(OND_EXPLORE_SEEDS=21 bash "$action" explore 2>&1); then fail "explore-seeds 21 was taken"; fi
grep -q "explore-seeds takes a number from 0 to 20, not '21'" <<< "$err" || fail "explore-seeds 21: $err"

# Exploring an adapter that ignores CRC mismatches: bit flips of CRC-protected files fail, the step
# does not; each failing id is listed with its seed and its input saved.
unset OND_DECODER
export OND_PERSISTENT="$1/conformance/ond_test_adapter --fault ignore-crc serve"
out=$(GITHUB_SHA=0123456789abcdef0123456789abcdef01234567 OND_EXPLORE_SEEDS=2 \
  OND_ARGS="--max-derived 4 --filter valid/document/* --seed 5" bash "$action" explore) || fail "explore failed the step: $out"
summary=$2/explore/summary.txt
[ "$(grep -c '^seed [0-9]*: CONFORMANCE FAILED: ' "$summary")" = 2 ] || fail "not one failing line per seed: $(cat "$summary")"
grep -q '^seed 999896491: ' "$summary" && grep -q '^seed 999896492: ' "$summary" || fail "not the commit's seeds: $(cat "$summary")"
id=$(sed -n 's/^  seed 999896491: \(derived\/bitflip\/[^ ]*\)  # \[verdict\] .*/\1/p' "$summary" | head -n 1)
[ -n "$id" ] || fail "no failing bit flip listed with its seed: $(cat "$summary")"
[ -s "$2/explore/seed-999896491/cases/${id//\//_}.ondc" ] || fail "the input of $id is not saved"
grep -q '"seed": 999896491,' "$2/explore/seed-999896491/conformance.json" || fail "seed 999896491 was not run as such"
grep -q "^explore-summary=2 seeds explored, 2 with failing derived cases (" <<< "$out" || fail "no explore summary: $out"
if grep -q '^  seed [0-9]*: valid/' "$summary"; then fail "exploring listed a corpus case: $(cat "$summary")"; fi

# The large input: --large, here its stream case alone (refused after its header: a second).
unset OND_PERSISTENT
export OND_DECODER="$1/cli/ond decode"
out=$(OND_LARGE=true OND_STREAM_DECODER="$1/cli/ond stream" OND_ARGS="--filter large/stream*" bash "$action" run) ||
  fail "run with large failed: $out"
grep -q '"id": "large/stream-body-cap-plus-one"' "$2/conformance.json" || fail "OND_LARGE=true did not run the large cases"
if out=$(OND_LARGE=yes bash "$action" run 2>&1); then fail "OND_LARGE=yes was taken: $out"; fi
grep -q "large is 'true' or 'false', not 'yes'" <<< "$out" || fail "OND_LARGE=yes is not explained: $out"
echo "conform-action-test: ok"
