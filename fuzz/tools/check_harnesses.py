#!/usr/bin/env python3
"""Checks fuzz/harnesses.json, the map of each harness to the rules it guards, its seeds and its oracle.

    python3 fuzz/tools/check_harnesses.py [--root REPO]     exit 1, naming each problem, if the map is wrong
    python3 fuzz/tools/check_harnesses.py --self-test       the check finds each kind of broken map

Against the harnesses present: the map names exactly the <name>_fuzzer.cpp files at the top of
fuzz/ and the harnesses fuzz/CMakeLists.txt builds (its `mutator` flag is the list of harnesses
that get the structure-aware mutator); each has its source, a non-empty seed folder and
dict/<name>_fuzzer.options; its rules are ids of corpus/rules.json; nothing but harnesses and
their parts sits at the top of fuzz/ (the tools are in tools/ and power/).
Against the fuzz-power table (fuzz/power/TABLE.md): a check a harness caught is one of the rules
that harness guards (the error code's rule in error_codes.def, the writer rule's in
corpus/writer-rules.json), and every harness fuzz/power/power.py runs is in the map.
CMake runs it as the test `fuzz.harnesses`, and the self-test as `fuzz.harnesses.check-catches`.
"""

import argparse
import copy
import importlib.util
import json
import pathlib
import re
import sys

# Files at the top of fuzz/ besides the harnesses: the parts the harnesses are built from.
HARNESS_PARTS = {"CMakeLists.txt", "README.md", "harnesses.json", "api_checks.cpp", "api_checks.hpp", "cuts.hpp",
                 "harness.hpp", "mutator.cpp", "mutator.hpp", "noexcept_side.cpp", "replay_main.cpp"}
FOLDERS = {"dict", "seeds", "support", "tools", "power", "oss-fuzz"}


def load(root):
    """Everything the check compares, read from the tree."""
    fuzz = root / "fuzz"
    cmake = (fuzz / "CMakeLists.txt").read_text(encoding="utf-8")

    def cmake_list(name):
        m = re.search(r"set\(" + name + r"\s+([^)]*)\)", cmake)
        names = m.group(1).split() if m else []
        names += re.findall(r"list\(APPEND " + name + r" (\w+)\)", cmake)
        return names

    codes = {m.group(1): m.group(2) for m in re.finditer(r'^OND_ERROR\(\w+, "([^"]+)", "([^"]+)"',
                                                           (root / "codec/include/ond/error_codes.def").read_text(),
                                                           re.M)}
    writer = {r["id"]: r["rule"] for r in json.loads((root / "corpus/writer-rules.json").read_text())["writer_rules"]}
    caught = []
    for line in (fuzz / "power/TABLE.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `([^`]+)` \| (\w+) \|", line)
        if m and m.group(2) != "not":
            caught.append((m.group(1), m.group(2)))
    spec = importlib.util.spec_from_file_location("fuzz_power", fuzz / "power/power.py")
    power = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(power)
    power_runs = {h for _, names in power.AREA_HARNESSES for h in names} | set(power.CI_SUBSET.values())
    return {
        "map": json.loads((fuzz / "harnesses.json").read_text(encoding="utf-8"))["harnesses"],
        "top": sorted(p.name for p in fuzz.iterdir()),
        "built": cmake_list("ond_fuzzers"),
        "mutated": cmake_list("ond_fuzz_mutated"),
        "rules": {r["id"] for r in json.loads((root / "corpus/rules.json").read_text())["rules"]},
        "check_rule": {**codes, **writer},
        "caught": caught,
        "power_runs": power_runs,
        "exists": lambda rel: (root / rel).exists(),
        "seed_count": lambda rel: sum(1 for p in (root / rel).iterdir() if p.is_file()) if (root / rel).is_dir() else 0,
    }


def problems(t):
    out = []
    names = [h.get("name", "") for h in t["map"]]
    by_name = {h.get("name"): h for h in t["map"]}
    if len(set(names)) != len(names):
        out.append("harnesses.json names a harness twice")
    present = {f[: -len("_fuzzer.cpp")] for f in t["top"] if f.endswith("_fuzzer.cpp")}
    for n in sorted(present - set(names)):
        out.append(f"{n}_fuzzer.cpp is not in harnesses.json")
    for n in sorted(set(names) - present):
        out.append(f"harnesses.json names '{n}', which has no {n}_fuzzer.cpp at the top of fuzz/")
    for n in sorted(set(names) ^ set(t["built"])):
        out.append(f"'{n}': harnesses.json and fuzz/CMakeLists.txt's ond_fuzzers disagree")
    for f in t["top"]:
        if not f.endswith("_fuzzer.cpp") and f not in HARNESS_PARTS and f not in FOLDERS:
            out.append(f"fuzz/{f} is neither a harness nor one of its parts: tools go in fuzz/tools/ or fuzz/power/")
    for h in t["map"]:
        n = h.get("name", "")
        for key in ("source", "guards", "seeds", "oracle", "mutator"):
            if key not in h:
                out.append(f"{n}: no '{key}'")
        if h.get("source") != f"fuzz/{n}_fuzzer.cpp" or not t["exists"](h.get("source", "")):
            out.append(f"{n}: source is not fuzz/{n}_fuzzer.cpp")
        if h.get("seeds") != f"fuzz/seeds/{n}" or t["seed_count"](h.get("seeds", "")) == 0:
            out.append(f"{n}: seeds are not a non-empty fuzz/seeds/{n}")
        if not t["exists"](f"fuzz/dict/{n}_fuzzer.options"):
            out.append(f"{n}: no fuzz/dict/{n}_fuzzer.options")
        if not h.get("guards"):
            out.append(f"{n}: guards no rule")
        for r in h.get("guards", []):
            if r not in t["rules"]:
                out.append(f"{n}: guards '{r}', which is not a rule of corpus/rules.json")
        if not str(h.get("oracle", "")).strip():
            out.append(f"{n}: no oracle")
        if h.get("mutator") != (n in t["mutated"]):
            out.append(f"{n}: 'mutator' is {h.get('mutator')}, but fuzz/CMakeLists.txt's ond_fuzz_mutated says otherwise")
    for check, harness in t["caught"]:
        rule = t["check_rule"].get(check)
        if harness not in by_name:
            out.append(f"fuzz/power/TABLE.md: {check} was caught by '{harness}', which is not in harnesses.json")
        elif rule is None:
            out.append(f"fuzz/power/TABLE.md: {check} is neither an error code nor a writer rule")
        elif rule not in by_name[harness].get("guards", []):
            out.append(f"{harness}: caught {check} (rule {rule}) in fuzz/power/TABLE.md, but does not list {rule} in its guards")
    for n in sorted(t["power_runs"] - set(names)):
        out.append(f"fuzz/power/power.py runs '{n}', which is not in harnesses.json")
    return out


def self_test(root):
    """Each kind of broken map or layout is reported."""
    base = load(root)
    assert problems(base) == [], problems(base)

    def broken(change):
        t = copy.deepcopy({k: v for k, v in base.items() if not callable(v)})
        t["exists"], t["seed_count"] = base["exists"], base["seed_count"]
        change(t)
        return problems(t)

    cases = {
        "a harness left out": lambda t: t["map"].pop(0),
        "a harness with no file": lambda t: t["map"].append({**t["map"][0], "name": "ghost", "source": "fuzz/ghost_fuzzer.cpp"}),
        "a rule the harness does not guard caught": lambda t: t["map"][0].__setitem__("guards", ["R28"]),
        "a rule that does not exist": lambda t: t["map"][0]["guards"].append("R99"),
        "no oracle": lambda t: t["map"][0].__setitem__("oracle", " "),
        "the wrong seeds": lambda t: t["map"][0].__setitem__("seeds", "fuzz/seeds/other"),
        "the mutator flag wrong": lambda t: t["map"][0].__setitem__("mutator", not t["map"][0]["mutator"]),
        "a tool at the top": lambda t: t["top"].append("power.py"),
        "a harness the table names missing": lambda t: t["caught"].append(("W4", "nobody")),
        "a harness power.py runs missing": lambda t: t["power_runs"].add("nobody"),
        "a harness CMake does not build": lambda t: t["built"].pop(),
    }
    failed = [name for name, change in cases.items() if not broken(change)]
    for name in failed:
        print(f"not noticed: {name}", file=sys.stderr)
    if not failed:
        print(f"harness map check: all {len(cases)} kinds of broken map noticed")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parents[2]))
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    root = pathlib.Path(args.root)
    if args.self_test:
        return self_test(root)
    t = load(root)
    found = problems(t)
    for p in found:
        print(p, file=sys.stderr)
    if not found:
        print(f"harness map: {len(t['map'])} harnesses, {len(t['caught'])} checks of the fuzz-power table, all consistent")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
