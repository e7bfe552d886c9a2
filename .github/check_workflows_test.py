#!/usr/bin/env python3
"""Proves that check_workflows.py notices what it is meant to: each case copies the files it
reads into a scratch folder, breaks one thing, and expects the check to fail with that problem;
the untouched copy must pass. Exits 1 with one line per case that went otherwise.

  .github/check_workflows_test.py [REPO_ROOT]
"""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
FILES = [".github", ".clusterfuzzlite", "action.yml", "fuzz/power/power.py", "fuzz/oss-fuzz/project.yaml",
         "scripts/conform-action.sh"]
BATCH = ".github/workflows/cflite_batch.yml"

# (what is broken, file, text replaced, replacement, a piece of the problem expected)
CASES = [
    ("unknown fuzz-power option", BATCH, "--keep fuzz-power-findings", "--keep fuzz-power-findings --fast",
     "fuzz/power/power.sh has no option --fast"),
    ("option without its value", BATCH, "--seconds 30", "--seconds", "--seconds needs a value"),
    ("table not uploaded", BATCH, "fuzz-power.md\n", "other.md\n", "--report fuzz-power.md is not uploaded"),
    ("findings uploaded only on success", BATCH, "if: always()", "if: success()", "--keep fuzz-power-findings is not uploaded"),
    ("no time limit", BATCH, "timeout-minutes: 300", "", "needs timeout-minutes"),
    ("only the CI subset on a schedule", BATCH, "fuzz/power/power.sh --seconds 30", "fuzz/power/power.sh --ci --seconds 30",
     "no scheduled workflow runs the full fuzz-power table"),
    ("a batch run that no step built", BATCH, "uses: google/clusterfuzzlite/actions/build_fuzzers@v1",
     "uses: actions/checkout@v4", "which no earlier step of the job built"),
]


def run(folder):
    r = subprocess.run([sys.executable, str(folder / ".github" / "check_workflows.py"), str(folder)],
                       capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def copy(into):
    for rel in FILES:
        src, dst = ROOT / rel, into / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dst)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        copy(base)
        rc, out = run(base)
        if rc != 0:
            failures.append(f"the untouched copy fails: {out.strip()}")
        for n, (what, rel, old, new, expected) in enumerate(CASES):
            folder = Path(tmp) / f"case{n}"
            copy(folder)
            path = folder / rel
            text = path.read_text()
            if old not in text:
                failures.append(f"{what}: {rel} no longer holds {old!r}; update the case")
                continue
            path.write_text(text.replace(old, new, 1))
            rc, out = run(folder)
            if rc == 0 or expected not in out:
                failures.append(f"{what}: expected a failure naming {expected!r}, got (exit {rc}) {out.strip()}")
    for f in failures:
        print(f)
    print(f"check_workflows test: {len(CASES) - len(failures)} of {len(CASES)} broken copies caught" if not failures
          else f"check_workflows test: {len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
