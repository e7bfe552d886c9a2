#!/usr/bin/env python3
"""Suite power: every check of the reference, switched off, must fail the conformance suite.

For each reader error code of error_codes.def (and each writer rule), runs `ond conform` over the
corpus cases (persistent mode) against `ond-switchable --off CODE serve` and requires:
  - reader checks with verdict invalid: a required-level failure (wrong verdict or content) under
    the spec profile; implementation-defined ones: a required-level failure under --profile strict
    (under spec either verdict passes, by design);
  - writer rules the spec states: a required-level failure; the others: a recommended finding and
    no required failure;
  - every manifest case marked "isolates": CODE is among the cases that kill CODE.
Codes listed in unswitchable.txt are not run; the file says in one line each why.
Writes a Markdown report naming the cases that kill each switched-off check.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import switchable_checks  # noqa: E402  (the repository's scripts/, not an installed module)


def conform(args, switch, profile, work):
    out = os.path.join(work, (switch or "baseline").replace("/", "_") + ".json")
    serve = f"{args.switchable} --off {switch} serve" if switch else f"{args.switchable} serve"
    cmd = [args.ond, "conform", "--corpus", args.corpus, "--persistent", serve, "--no-derived", "-q",
           "-j", str(args.jobs), "--profile", profile, "--json", out, "--name", switch or "baseline"]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace", timeout=600)
    if proc.returncode not in (0, 1) or not os.path.exists(out):
        raise RuntimeError(f"{' '.join(cmd)}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    with open(out, encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    required = {c["id"]: c for c in cases if c["status"] == "fail"}
    recommended = {c["id"]: c for c in cases
                   if any(x["level"] == "recommended" and x["check"] != "reason" for x in c["findings"])}
    accepted = {c["id"] for c in cases if c["answer"] == "accept"}
    return required, recommended, accepted


def first_finding(case, level):
    for f in case["findings"]:
        if f["level"] == level:
            return f"[{f['check']}] {f['message']}"
    return ""


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ond", required=True)
    p.add_argument("--switchable", required=True)
    p.add_argument("--corpus", required=True)
    p.add_argument("--codes", required=True, help="codec/include/ond/error_codes.def")
    p.add_argument("--unswitchable", required=True)
    p.add_argument("--report", required=True, help="Markdown report to write")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--kills-json", help="also write {code: [cases accepted with the check off]} here")
    p.add_argument("--only", action="append", default=[], help="run only these codes or rules")
    args = p.parse_args()

    with open(os.path.join(args.corpus, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    isolating = {}
    for c in manifest["cases"]:
        if c.get("isolates"):
            isolating.setdefault(c["isolates"], []).append(c["id"])

    reasons = switchable_checks.reasons(args.unswitchable)
    codes = switchable_checks.reader_codes(args.codes)
    # rule id -> the level a writer breaking it gets (writer_rules.def)
    writer_levels = {r["id"]: r["level"] for r in switchable_checks.writer_rules()}
    problems = switchable_checks.unknown_reasons(reasons, {c for c, _, _ in codes} | set(writer_levels),
                                                 "unswitchable.txt")
    rows = []
    kills = {}  # code -> the killing cases a reader without that check accepts (single-fault candidates)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        base_req, base_rec, _ = conform(args, None, "spec", work)
        base_strict, _, _ = conform(args, None, "strict", work)
        if base_req or base_strict:
            problems.append("the reference itself fails: " + ", ".join(sorted(set(base_req) | set(base_strict))))
        for code, rule, verdict in codes:
            if args.only and code not in args.only:
                continue
            if code in reasons:
                rows.append((code, rule, "not switched", reasons[code], []))
                continue
            profile = "strict" if verdict == "implementation_defined" else "spec"
            required, _, accepted = conform(args, code, profile, work)
            killers = sorted(set(required) - set(base_req if profile == "spec" else base_strict))
            kills[code] = sorted(set(killers) & accepted)
            if not killers:
                problems.append(f"{code}: switched off, the suite still passes at required level ({profile} profile)")
            for case_id in isolating.get(code, []):
                if case_id not in kills[code]:
                    problems.append(f"{case_id} is marked as isolating {code}, but with {code} switched off it is not "
                                    "accepted (so it has another fault)")
            detail = first_finding(required[killers[0]], "required") if killers else ""
            rows.append((code, rule, profile, detail, killers))
        for rule, level in writer_levels.items():
            if args.only and rule not in args.only:
                continue
            if rule in reasons:
                rows.append((rule, level, "not switched", reasons[rule], []))
                continue
            required, recommended, _ = conform(args, rule, "spec", work)
            killers = sorted(set(required) - set(base_req))
            noted = sorted(set(recommended) - set(base_rec))
            if level == "required" and not killers:
                problems.append(f"{rule} (required): switched off, no required-level failure")
            if level == "recommended":
                if killers:
                    problems.append(f"{rule} (recommended): switched off, required failures in " + ", ".join(killers[:5]))
                if not noted:
                    problems.append(f"{rule} (recommended): switched off, no recommended finding")
            shown = killers if level == "required" else noted
            detail = ""
            if shown:
                src = required if level == "required" else recommended
                detail = first_finding(src[shown[0]], level)
            rows.append((rule, level, "writer", detail, shown))

    seconds = time.monotonic() - started
    lines = ["# Which case kills each switched-off check", "",
             "Generated by the suite-power test (`ctest -R conform.suite-power`, conformance/switchable/suite_power.py):",
             "the reference codec with one reader check or writer rule switched off, run over the corpus cases.",
             "A check is killed when some case then fails at required level (implementation-defined codes under",
             "`--profile strict`; recommended writer rules: a recommended finding). Single-fault cases are marked",
             "`\"isolates\"` in the manifest.", "",
             "| check | rule / level | profile | killed by | first finding |", "|---|---|---|---|---|"]
    for code, rule, profile, detail, killers in rows:
        shown = ", ".join(f"`{k}`" for k in killers[:4]) + (f" and {len(killers) - 4} more" if len(killers) > 4 else "")
        if profile == "not switched":
            shown = "—"
        lines.append(f"| `{code}` | {rule} | {profile} | {shown} | {switchable_checks.table_cell(detail, 160)} |")
    lines += ["", f"{sum(1 for r in rows if r[4])} checks killed, "
              f"{sum(1 for r in rows if r[2] == 'not switched')} not switched (reasons above)."]
    if args.kills_json:
        with open(args.kills_json, "w", encoding="utf-8") as f:
            json.dump(kills, f, indent=1)
    with open(args.report, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"\nsuite power: {len(rows)} checks in {seconds:.0f} s")
    return switchable_checks.verdict("SUITE POWER", problems)


if __name__ == "__main__":
    sys.exit(main())
