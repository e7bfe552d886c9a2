"""The portable writer check (writer_rules.py) against the runner's C++ judge, on every encode case.

For every encode case with canonical bytes (encode/: `expected`; encode-impl/: `if_accepted`, read
with the case's implementation-defined check relaxed), the canonical bytes and variants made here
break writer rules on purpose: a sorted string table, a token-by-token table, an unused string, an
overlong varint, confidence mode 1 where 0 would do, non-zero padding, the wrong CRC flag, UTF-16
strings, an extra section, and two faults at once. Both judges must give the same (rule, level)
set for each, and for the canonical bytes none; and every variant must have the finding it was
made for (so that a variant that breaks nothing cannot pass unnoticed).

    python3 test_writer_rules.py --judge PATH/ond_writer_judge [--corpus DIR] [--long-strings]

--long-strings judges one more input made here: encode/encode/all-sections with a string table
entry of 100 characters (the inspector shows at most 80 of a string).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ond_format as fmt  # noqa: E402
import writer_rules  # noqa: E402

# Rule ids by check name, from the one table (never spelt here).
ID = {r["check"]: r["id"] for r in writer_rules.load_rules()}

# An encode-impl case's refusal code -> the reader check its if-accepted bytes meet.
IMPL_READER_CHECK = {"content.score-out-of-range": "categories.score-out-of-range",
                     "content.duplicate-group": "spans.duplicate-group-name"}


def renumbered(c, order, extra=(), **options):
    """`c`'s bytes with the table in `order` (old ids), then `extra` strings."""
    ids = {0: 0}
    for k, old in enumerate(order, 1):
        ids[old] = k
    for old in range(1, len(c.strings)):
        ids.setdefault(old, len(ids))  # unused entries keep a place after the used ones
    table = [None] * (len(ids) - 1)
    for old, new in ids.items():
        if old:
            table[new - 1] = c.strings[old]
    return fmt.write(c, ids=ids, table=table + list(extra), **options)


def variants(canonical, relax):
    """(name, bytes, the finding the variant must have) for every variant the bytes admit."""
    fresh = lambda: fmt.read(canonical, relax)  # noqa: E731  a container to change
    c = fresh()
    used = writer_rules._first_uses(c, False)
    out = []
    by_value = sorted(used, key=lambda i: c.strings[i].units)
    if by_value != used:
        out.append(("sorted-table", renumbered(c, by_value), None))
        out.append(("sorted-and-wide", renumbered(c, by_value, wide={("body", "strings.count"): 5}), None))
    by_tokens = writer_rules._first_uses(c, True)
    if by_tokens != used:
        out.append(("token-by-token", renumbered(c, by_tokens), ID["canonical_numbering"]))
    out.append(("unused-string", renumbered(c, used, [fmt.Str(fmt.units_of("unused"))]), ID["table_only_used"]))
    out.append(("wide-string-count", fmt.write(c, wide={("body", "strings.count"): 5}), ID["minimal_varints"]))
    part = "body" if c.format == "ONDC" else "record 0"
    if c.docs:
        out.append(("wide-token-count", fmt.write(c, wide={(part, "tokens.count"): 3}), ID["minimal_varints"]))
    if any(d.conf_mode == 0 for d in c.docs):
        out.append(("conf-mode-1", fmt.write(c, conf_mode=1), "W4"))
    if any(len(d.starts) % 4 for d in c.docs):
        out.append(("padding", fmt.write(c, padding=0x80), ID["zero_padding"]))
    out.append(("crc-flag", fmt.write(c, crc=not c.crc), ID["crc_flag"]))
    out.append(("cut", canonical[:-1], "decode"))
    if len(c.strings) > 1 or any(d.text.units for d in c.docs):
        u = fresh()
        for d in u.docs:
            d.text = fmt.Str(d.text.units, True)
        out.append(("utf16-strings", fmt.write(u, table=[fmt.Str(s.units, True) for s in u.strings[1:]]), ID["utf8_strings"]))
    if any(len(s.units) > 80 for s in c.strings):  # longer than the inspector shows
        out.append(("utf16-long-strings", fmt.write(c, table=[fmt.Str(s.units, len(s.units) > 80)
                                                              for s in c.strings[1:]]), ID["utf8_strings"]))
    if c.format == "ONDC" and c.docs[0].cats is None:
        u = fresh()
        u.docs[0].cats = []
        out.append(("extra-section-6", fmt.write(u), "W2"))
    if c.format == "ONDC" and not c.docs[0].starts and c.docs[0].ents is None:
        u = fresh()
        u.docs[0].ents = []
        out.append(("section-4-without-tokens", fmt.write(u), "W2"))
    return out


def cpp_findings(judge, canonical_path, files, relax):
    cmd = [judge] + (["--relax", relax] if relax else []) + [canonical_path] + files
    lines = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
    return {json.loads(line)["file"]: {(f["rule"], f["level"]) for f in json.loads(line)["findings"]} for line in lines}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--judge", required=True)
    ap.add_argument("--corpus", default=os.path.join(HERE, "..", ".."))
    ap.add_argument("--long-strings", action="store_true")
    args = ap.parse_args()
    manifest = json.load(open(os.path.join(args.corpus, "manifest.json"), encoding="utf-8"))
    rules = writer_rules.load_rules()
    failures, judged, cases, seen = [], 0, 0, set()
    with tempfile.TemporaryDirectory() as tmp:
        if args.long_strings:
            c = fmt.read(open(os.path.join(args.corpus, "cases/encode/encode/all-sections.ondc"), "rb").read())
            c.strings[1] = fmt.Str(fmt.units_of("x" * 100))
            with open(os.path.join(tmp, "long-strings.ondc"), "wb") as f:
                f.write(fmt.write(c))
            manifest["cases"] = [{"id": "all-sections with a 100-character string", "kind": "encode", "verdict": "valid",
                                  "expected": os.path.join(tmp, "long-strings.ondc")}]
        for case in manifest["cases"]:
            if case["kind"] != "encode" or case["verdict"] == "invalid":
                continue
            impl = case["verdict"] == "impl"
            canonical_path = os.path.join(args.corpus, case["if_accepted"] if impl else case["expected"])
            relax = IMPL_READER_CHECK[case["error"]] if impl else None
            canonical = open(canonical_path, "rb").read()
            made = [("canonical", canonical, None)] + variants(canonical, [relax] if relax else [])
            files = []
            for k, (name, data, _) in enumerate(made):
                files.append(os.path.join(tmp, f"{cases}-{k}-{name}.bin"))
                with open(files[-1], "wb") as f:
                    f.write(data)
            cpp = cpp_findings(args.judge, canonical_path, files, relax)
            cases += 1
            for (name, data, wanted), path in zip(made, files):
                py = {(f.rule, f.level) for f in writer_rules.judge(canonical, data, rules, [relax] if relax else [])}
                judged += 1
                seen |= {r for r, _ in py}
                where = f"{case['id']} [{name}]"
                if py != cpp[path]:
                    failures.append(f"{where}: C++ {sorted(cpp[path])}, Python {sorted(py)}")
                if name == "canonical" and py:
                    failures.append(f"{where}: the canonical bytes have findings {sorted(py)}")
                if name == "sorted-table" and not {(ID["first_use_order"], "required"), (ID["canonical_numbering"], "recommended")} & py:
                    failures.append(f"{where}: a sorted table has no W3 numbering finding: {sorted(py)}")
                if wanted and wanted not in {r for r, _ in py}:
                    failures.append(f"{where}: no {wanted} finding: {sorted(py)}")
    missed = ({r["id"] for r in rules} | {"decode"}) - seen
    if not args.long_strings and missed:
        failures.append(f"no variant met {sorted(missed)}: their levels were not compared")
    for f in failures:
        print("FAIL", f)
    print(f"{judged} judgements on {cases} encode cases, {len(failures)} disagreements or misses")
    return 1 if failures or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
