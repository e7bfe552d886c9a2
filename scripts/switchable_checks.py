"""The checks the reference's test-only build can switch off (ond_codec_switchable, check_switch.hpp).

Shared by the two power scripts, which switch each check off in turn and ask whether something
notices: the conformance suite (conformance/switchable/suite_power.py) and the fuzzers
(fuzz/power/power.py). The reader checks are the error codes of codec/include/ond/error_codes.def
(all but the writer's `content` codes); the writer rules are corpus/writer-rules.json's, the data
form of codec/include/ond/writer_rules.def. Each script keeps a file of the checks it does not
run, one line each: the check, a space, why.
"""

import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ERROR_CODES = ROOT / "codec/include/ond/error_codes.def"
WRITER_RULES = ROOT / "corpus/writer-rules.json"

_ENTRY = re.compile(r'^OND_ERROR\(\w+, "([^"]+)", "([^"]+)", (\w+),')


def reader_codes(def_path=ERROR_CODES):
    """[(code, rule, verdict)] of every reader check, in the table's order."""
    codes = []
    with open(def_path, encoding="utf-8") as f:
        for line in f:
            m = _ENTRY.match(line)
            if m and m.group(3) != "content":
                codes.append((m.group(1), m.group(2), m.group(3)))
    return codes


def writer_rules(path=WRITER_RULES):
    """The writer rules in the table's order: dicts with id, rule, check, level, statement, ruling."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)["writer_rules"]


def writer_rule_id(check, path=WRITER_RULES):
    """The id of the writer rule whose check is named `check` (e.g. "zero_padding")."""
    for r in writer_rules(path):
        if r["check"] == check:
            return r["id"]
    raise KeyError(f"no writer rule has the check {check}")


def reasons(path):
    """{check: why} from a file of checks not run (`#` comments and blank lines skipped)."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                check, _, why = line.partition(" ")
                out[check] = why.strip()
    return out


def unknown_reasons(reasons_by_check, known, file_name):
    """A problem for each check a reasons file names that is neither an error code nor a writer rule."""
    return [f"{file_name} names '{c}', which is neither an error code nor a writer rule"
            for c in reasons_by_check if c not in known]


def table_cell(text, limit):
    """`text` for one cell of a Markdown table: pipes escaped, one line, at most `limit` characters."""
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def verdict(name, problems):
    """Prints NAME PASSED, or NAME FAILED and the problems; the exit status."""
    if problems:
        print(f"\n{name} FAILED:", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        return 1
    print(f"{name} PASSED")
    return 0
