#!/usr/bin/env bash
# The main job: builds `ond` and runs the conformance suite against the reference codec over the
# golden corpus, writing the report to build/default/conformance-report.{html,json,xml}.
# Extra arguments go to `ond conform` (e.g. --decoder "python3 my_adapter.py decode").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh >/dev/null
cmake --preset default >/dev/null
cmake --build --preset default -j"${OND_JOBS:-$(nproc)}" --target ond
out=build/default
exec "$out/cli/ond" conform --html "$out/conformance-report.html" --json "$out/conformance-report.json" \
  --junit "$out/conformance-report.xml" "$@"
