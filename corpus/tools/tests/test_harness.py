"""The corpus-only harness (run_corpus.py, which runs corpus/README.md's checks) against testees
with known bugs, per-case mode.

    python3 test_harness.py --adapter PATH/ond_test_adapter SCENARIO [--corpus DIR]

Scenarios:
  clean              the clean reference adapter passes a cross-section of every kind and verdict
  sorted-table       a writer that sorts its string table fails with the required W3 order
                     finding, on encode cases and on decode cases' round trips
  lenient-conf-mode  a reader that reads every non-zero confidence mode as mode 1 fails a case made
                     here (mode 2, then what reads as a valid mode-1 payload); the clean adapter
                     passes that case
  lenient-conf-mode-corpus   the same reader fails the corpus's own invalid/tokens/confidence-mode-*
                     cases (needs cases that isolate the mode check)
  unused-string      a writer that adds a string of its own to the table fails
                     encode/encode/table-only-used (and every encode case) with the unused-string rule
  crash              an adapter that crashes on every input fails every case, whatever its verdict
  exported           the clean adapter passes over a tree made by `ond corpus export` (--ond)
  flood              an adapter that floods stdout fails every case (its output is cut off, not
                     kept), and one that never answers fails by the time-out
"""

import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ond_format as fmt  # noqa: E402
import run_corpus  # noqa: E402
import writer_rules  # noqa: E402

# Rule ids by check name, from the one table (never spelt here).
ID = {r["check"]: r["id"] for r in writer_rules.load_rules()}

# Every kind and verdict, kept to a few seconds on a quiet machine (per-case mode starts a process
# per request).
CROSS_SECTION = r"^(encode|encode-impl|encode-refuse|impl)/|/stream/|^(valid|noncanonical)/(tokens|table|bin)/|^invalid/tokens/"


def commands(adapter, fault=None, ops=("decode", "encode", "stream")):
    return {op: [adapter] + (["--fault", fault] if fault else []) + [op] for op in ops}


def harness(corpus, cmds, only, timeout=10.0):
    out = io.StringIO()
    passed, failed = run_corpus.run(corpus, cmds, only=only, timeout=timeout, out=out)
    return passed, failed, out.getvalue()


def expect(condition, what, output):
    if not condition:
        sys.stdout.write(output)
        print(f"FAIL: {what}")
        sys.exit(1)


def mode_case(corpus, tmp):
    """A one-case corpus: an invalid mode byte 2 followed by a valid mode-1 payload."""
    source = os.path.join(corpus, "cases", "encode", "encode", "all-sections.ondc")
    c = fmt.read(open(source, "rb").read())
    expect(any(d.conf_mode == 1 and d.starts for d in c.docs), f"{source} has mode-1 confidences", "")
    data = fmt.write(c, conf_mode=2)
    os.makedirs(os.path.join(tmp, "cases", "invalid", "tokens"))
    rel = "cases/invalid/tokens/confidence-mode-2-then-floats.ondc"
    with open(os.path.join(tmp, rel), "wb") as f:
        f.write(data)
    shutil.copy(os.path.join(corpus, "README.md"), tmp)
    manifest = {"corpus_version": "test", "format_version": 1, "cases": [{
        "id": "invalid/tokens/confidence-mode-2-then-floats", "kind": "decode", "area": "tokens",
        "verdict": "invalid", "rules": ["R21"], "description": "mode 2, then n valid floats",
        "input": rel, "expected": None, "listing": None, "error": "tokens.bad-confidence-mode",
        "sha256": {rel: hashlib.sha256(data).hexdigest()}}]}
    with open(os.path.join(tmp, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f)
    return tmp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--adapter", required=True)
    ap.add_argument("--corpus", default=os.path.join(HERE, "..", ".."))
    ap.add_argument("--ond", help="the ond tool, for the exported scenario")
    ap.add_argument("scenario")
    a = ap.parse_args()
    corpus = a.corpus
    if a.scenario == "clean":
        passed, failed, out = harness(corpus, commands(a.adapter), CROSS_SECTION)
        expect(failed == 0 and passed > 150, f"the clean adapter passes ({passed} passed, {failed} failed)", out)
    elif a.scenario == "sorted-table":
        cmds = commands(a.adapter)
        cmds["encode"] = commands(a.adapter, "sorted-table", ("encode",))["encode"]
        passed, failed, out = harness(corpus, cmds, r"^(encode/|valid/(tokens|table|document)/)")
        w3 = [line for line in out.splitlines() if f"writer rule {ID['first_use_order']}" in line]
        expect(any(line.startswith("encode/encode/all-sections  #") for line in w3),
               "the sorted table fails encode/encode/all-sections with the first-use order rule", out)
        expect(any(line.startswith("valid/") for line in w3), "the sorted table fails a decode case's round trip", out)
        expect(len(w3) == failed and failed >= 20, f"every failure is the first-use order rule ({len(w3)} of {failed})", out)
    elif a.scenario == "lenient-conf-mode":
        with tempfile.TemporaryDirectory() as tmp:
            one = mode_case(corpus, tmp)
            passed, failed, out = harness(one, commands(a.adapter, ops=("decode",)), None)
            expect((passed, failed) == (1, 0), "the clean adapter rejects mode 2 followed by floats", out)
            passed, failed, out = harness(one, commands(a.adapter, "lenient-conf-mode", ("decode",)), None)
            expect((passed, failed) == (0, 1) and "accepted an invalid input" in out,
                   "the lenient reader fails the case", out)
    elif a.scenario == "lenient-conf-mode-corpus":
        passed, failed, out = harness(corpus, commands(a.adapter, "lenient-conf-mode", ("decode",)),
                                      r"^invalid/tokens/confidence-mode-[0-9]+$")
        expect(failed == 3 and passed == 0, "the lenient reader fails the three confidence-mode cases that "
               "isolate the mode check (a mode-1 payload after the bad mode byte)", out)
    elif a.scenario == "unused-string":
        cmds = commands(a.adapter, ops=("decode",))
        cmds["encode"] = commands(a.adapter, "noncanonical-table", ("encode",))["encode"]
        passed, failed, out = harness(corpus, cmds, r"^encode/encode/")
        lines = out.splitlines()
        expect(any(line.startswith("encode/encode/table-only-used  #") and ID["table_only_used"] in line for line in lines),
               "the added string fails encode/encode/table-only-used with the unused-string rule", out)
        expect(passed == 0 and failed > 30, "every encode case fails", out)
    elif a.scenario == "crash":
        passed, failed, out = harness(corpus, commands(a.adapter, "always-crash"), r"^(valid|invalid)/header/")
        expect(passed == 0 and failed > 20 and "crashed" in out, "a crash fails every case", out)
    elif a.scenario == "exported":
        with tempfile.TemporaryDirectory() as tmp:
            tree = os.path.join(tmp, "corpus")
            subprocess.run([a.ond, "corpus", "export", tree, "--corpus", corpus], check=True, capture_output=True)
            expect(os.path.exists(os.path.join(tree, "README.md")), "the export holds the README", "")
            passed, failed, out = harness(tree, commands(a.adapter), r"^(encode|impl)/|^valid/(tokens|bin)/")
            expect(failed == 0 and passed > 60, f"the clean adapter passes the export ({passed} passed)", out)
    elif a.scenario == "flood":
        passed, failed, out = harness(corpus, commands(a.adapter, "huge-output", ("decode",)), r"^valid/header/")
        expect(passed == 0 and failed >= 5 and out.count("bytes of output") == failed, "a flood fails every case", out)
        slow = {"decode": [sys.executable, "-c", "import time; time.sleep(30)"]}
        passed, failed, out = harness(corpus, slow, r"^valid/header/two-tokens$", timeout=1.0)
        expect((passed, failed) == (0, 1) and "no answer within 1.0 s" in out, "a hang fails by the time-out", out)
    else:
        ap.error(f"unknown scenario {a.scenario}")
    print(f"{a.scenario}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
