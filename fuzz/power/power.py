#!/usr/bin/env python3
"""Fuzz power: every check of the reference, switched off, must be noticed by some fuzzer.

The fuzzers' counterpart of the suite-power test (conformance/switchable/suite_power.py). For
each reader error code of error_codes.def and each writer rule, runs the harnesses of its area,
built on the codec with check switches (<harness>_fuzzer_switchable, libFuzzer), with
OND_FUZZ_OFF=<check> and a fixed budget each: from the committed seeds (fuzz/seeds/<harness>
and corpus/regressions; not the golden corpus), a fixed -seed, -max_total_time=SECONDS. The
first harness that fails (a violated property, a sanitizer report, a crash) has caught the
check. Codes listed in fuzz/power/uncatchable.txt are not run; the file says why, one line each.

Before any switch, every harness must pass its seeds with nothing switched off (baseline).
Writes a Markdown table: per check, the harness that caught it, executions and seconds, the
harnesses that did not, and the checks no harness caught. Exit 1 if any check is not caught.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import switchable_checks  # noqa: E402  (the repository's scripts/, not an installed module)

SECTION_HARNESSES = {"varint", "string", "string_table", "text", "tokens", "entities", "categories", "span_groups"}

# The harnesses that read what a check guards, the most direct first (the area's own harness,
# then the whole-container ones that compare with the model reader).
AREA_HARNESSES = [
    ("header.", ["header", "container", "differential"]),
    ("container.", ["header", "container", "differential"]),
    ("crc.", ["header", "container", "differential"]),
    ("varint.", ["varint", "differential", "container"]),
    ("field.", ["differential", "container", "tokens"]),
    ("string.", ["string", "string_table", "differential"]),
    ("section.", ["container", "differential", "doc_bin", "records"]),
    ("table.", ["string_table", "differential", "container"]),
    ("text.", ["text", "differential", "container"]),
    ("tokens.", ["tokens", "differential", "container"]),
    ("entities.", ["entities", "differential", "container"]),
    ("categories.", ["categories", "differential", "container"]),
    ("spans.", ["span_groups", "differential", "container"]),
    ("bin.", ["records", "doc_bin", "differential", "container"]),
    ("stream.", ["stream", "differential"]),
    ("W", ["writer", "roundtrip"]),
]

# The short subset CI runs (fuzz/power/power.sh --ci), each check with the one harness that caught it
# in the full run: the seven checks the fuzzers could not find before the model reader, and a
# few more, on five harnesses, so that the build and the runs fit in about three minutes.
CI_SUBSET = {
    "section.length-out-of-range": "container", "section.trailing-bytes": "container", "section.misplaced": "container",
    "tokens.sentence-padding": "tokens", "spans.label-empty": "span_groups", "bin.record-length-out-of-range": "doc_bin",
    "bin.trailing-bytes": "doc_bin", "section.out-of-order": "container", "tokens.count-too-large": "tokens",
    "spans.count-exceeds-bytes": "span_groups", switchable_checks.writer_rule_id("zero_padding"): "writer",
    switchable_checks.writer_rule_id("first_use_order"): "writer",
}
ci_mode = False


def harnesses_for(check):
    if ci_mode:
        return [CI_SUBSET[check]]
    for prefix, names in AREA_HARNESSES:
        if check.startswith(prefix):
            return names
    return ["differential"]


def fuzzer_args(root, name, seconds, seed, runs=0):
    args = [f"-seed={seed}", f"-max_total_time={seconds}", "-timeout=10", "-rss_limit_mb=2048", "-print_final_stats=1",
            "-detect_leaks=0"]
    if runs:
        args.append(f"-runs={runs}")
    if name in SECTION_HARNESSES:
        args.append(f"-dict={root}/fuzz/dict/primitives.dict")
    elif name != "writer":
        args.append(f"-dict={root}/fuzz/dict/ond.dict")
    with open(f"{root}/fuzz/dict/{name}_fuzzer.options", encoding="utf-8") as f:
        m = re.search(r"max_len\s*=\s*(\d+)", f.read())
    if m:
        args.append(f"-max_len={m.group(1)}")
    return args


def run_harness(args, name, check, work):
    """Runs one harness with `check` switched off (None: nothing). Returns (caught, execs, secs, note)."""
    exe = os.path.join(args.build, "fuzz", f"{name}_fuzzer_switchable")
    run_dir = tempfile.mkdtemp(dir=work)
    corpus = os.path.join(run_dir, "corpus")
    os.mkdir(corpus)  # new units go here; the committed seeds are read-only inputs
    seeds = [os.path.join(args.root, "fuzz", "seeds", name)]
    regressions = os.path.join(args.root, "corpus", "regressions")
    if os.path.isdir(regressions):
        seeds.append(regressions)
    env = dict(os.environ)
    env.pop("OND_FUZZ_OFF", None)
    if check:
        env["OND_FUZZ_OFF"] = check
    env["ASAN_OPTIONS"] = "detect_leaks=0:" + env.get("ASAN_OPTIONS", "")
    cmd = [exe] + fuzzer_args(args.root, name, args.seconds, args.seed, args.runs) + \
        [f"-artifact_prefix={run_dir}/", corpus] + seeds
    started = time.monotonic()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, timeout=args.seconds + 120,
                              text=True, errors="replace")
        out, code = proc.stdout, proc.returncode
    except subprocess.TimeoutExpired as e:
        out, code = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or ""), None
    secs = time.monotonic() - started
    if "ond-fuzz-power:" in out and "neither an error code" in out:
        raise RuntimeError(f"{check}: not a switch of this build")
    m = re.findall(r"stat::number_of_executed_units:\s*(\d+)", out)
    execs = int(m[-1]) if m else 0
    if not m:
        runs = re.findall(r"^#(\d+)\s", out, re.M)
        execs = int(runs[-1]) if runs else 0
    caught = code not in (0, None)
    note = ""
    if caught:
        note = first_finding(out)
        if args.keep:
            keep = os.path.join(args.keep, (check or "baseline").replace("/", "_"))
            os.makedirs(keep, exist_ok=True)
            for f in os.listdir(run_dir):
                if f.startswith(("crash-", "timeout-", "oom-", "leak-")):
                    shutil.copy(os.path.join(run_dir, f), os.path.join(keep, f"{name}-{f}"))
            with open(os.path.join(keep, f"{name}.log"), "w", encoding="utf-8") as f:
                f.write(out[-20000:])
    elif code is None:
        note = "wrapper time-out"
    shutil.rmtree(run_dir, ignore_errors=True)
    return caught, execs, secs, note


def first_finding(log):
    m = re.search(r"=== property violated: ([^\n]*)\n\s*at ([^\n]*)\n(    [^\n]*)?", log)
    if m:
        where = os.path.basename(m.group(2))
        return f"{m.group(3).strip()} ({where})" if m.group(3) else f"{m.group(1)} ({where})"
    for pattern in (r"ERROR: AddressSanitizer: [^\n]*", r"runtime error: [^\n]*",
                    r"ERROR: libFuzzer: [^\n]*"):
        m = re.search(pattern, log)
        if m:
            return m.group(0).strip()
    return "the harness failed"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", required=True, help="build directory with fuzz/<harness>_fuzzer_switchable (libFuzzer)")
    p.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    p.add_argument("--seconds", type=int, default=30, help="budget per harness and check (-max_total_time)")
    p.add_argument("--seed", type=int, default=1, help="libFuzzer's -seed")
    p.add_argument("--runs", type=int, default=0,
                   help="also stop each harness after this many executions (-runs): a budget that does not depend on load")
    p.add_argument("--report", help="Markdown table to write")
    p.add_argument("--only", action="append", default=[], help="run only these checks (repeatable)")
    p.add_argument("--ci", action="store_true", help="run the short CI subset only")
    p.add_argument("--keep", help="keep the failing inputs and logs here, by check")
    p.add_argument("--check-config", action="store_true",
                   help="only check the lists (uncatchable.txt, the areas, the CI subset) against the codes and harnesses")
    p.add_argument("--list-harnesses", action="store_true", help="print the harnesses the chosen checks need, and stop")
    args = p.parse_args()
    global ci_mode
    ci_mode = args.ci

    codes = [c for c, _, _ in switchable_checks.reader_codes(os.path.join(args.root, "codec", "include", "ond", "error_codes.def"))]
    writer = [r["id"] for r in switchable_checks.writer_rules(os.path.join(args.root, "corpus", "writer-rules.json"))]
    reasons = switchable_checks.reasons(os.path.join(args.root, "fuzz", "power", "uncatchable.txt"))
    problems = switchable_checks.unknown_reasons(reasons, set(codes) | set(writer), "uncatchable.txt")
    checks = codes + writer
    with open(os.path.join(args.root, "fuzz", "harnesses.json"), encoding="utf-8") as f:
        harness_files = {h["name"] for h in json.load(f)["harnesses"]}  # checked against the files: fuzz.harnesses
    problems += [f"CI_SUBSET names '{c}', which is not a switchable check" for c in CI_SUBSET
                 if c not in checks or c in reasons]
    problems += [f"'{h}' is not a harness of fuzz/" for _, names in AREA_HARNESSES for h in names if h not in harness_files]
    problems += [f"CI_SUBSET runs '{h}', which is not a harness of fuzz/" for h in CI_SUBSET.values() if h not in harness_files]
    if args.check_config:
        print("\n".join(problems) if problems else
              f"fuzz power configuration: ok ({len(checks) - len(reasons)} checks to run, {len(reasons)} listed as "
              f"uncatchable, {len(CI_SUBSET)} in the CI subset)")
        return 1 if problems else 0
    only = set(args.only) | (set(CI_SUBSET) if args.ci else set())
    if only:
        checks = [c for c in checks if c in only]
    needed = sorted({h for c in checks if c not in reasons for h in harnesses_for(c)})
    if args.list_harnesses:
        print("\n".join(needed))
        return 0

    started = time.monotonic()
    rows = []
    with tempfile.TemporaryDirectory(prefix="ond-fuzz-power.") as work:
        for name in needed:  # baseline: nothing switched off, the seeds alone
            base = argparse.Namespace(**vars(args))
            base.seconds = min(args.seconds, 3)
            base.runs = 0
            caught, _, _, note = run_harness(base, name, None, work)
            if caught:
                problems.append(f"baseline: {name} fails with every check on: {note}")
        if problems:
            print("\n".join(problems), file=sys.stderr)
            return 1
        for check in checks:
            if check in reasons:
                rows.append((check, None, 0, 0.0, [], reasons[check]))
                print(f"{check:36} not run: {reasons[check]}", flush=True)
                continue
            missed = []
            hit = None
            for name in harnesses_for(check):
                caught, execs, secs, note = run_harness(args, name, check, work)
                if caught:
                    hit = (name, execs, secs, note)
                    break
                missed.append((name, execs))
            if hit:
                rows.append((check, hit[0], hit[1], hit[2], missed, hit[3]))
                print(f"{check:36} caught by {hit[0]} after {hit[1]} execs, {hit[2]:.1f} s", flush=True)
            else:
                rows.append((check, "", 0, 0.0, missed, ""))
                problems.append(f"{check}: no harness noticed it switched off "
                                f"({', '.join(n for n, _ in missed)}, {args.seconds} s each)")
                print(f"{check:36} NOT CAUGHT", flush=True)

    seconds = time.monotonic() - started
    lines = ["# Fuzz power: which harness notices each switched-off check", "",
             "Generated by `fuzz/power/power.py` (`fuzz/power/power.sh`): the reference codec with one reader check or writer",
             "rule switched off (`ond_codec_switchable`), each harness of the check's area run in turn with libFuzzer",
             f"(ASan, OSS-Fuzz's flags) from its committed seeds and the regression inputs, `-seed={args.seed}`, at most",
             f"**{args.seconds} s per harness**" + (f" or {args.runs:,} executions" if args.runs else "") + ", until one fails. Executions and seconds are those of the harness that",
             "caught it; *missed by* lists the harnesses that ran their whole budget first (with their executions).", "",
             "| check | caught by | executions | seconds | missed by | first finding |", "|---|---|---:|---:|---|---|"]
    for check, name, execs, secs, missed, note in rows:
        miss = ", ".join(f"{n} ({e:,})" for n, e in missed)
        note = switchable_checks.table_cell(note, 120)
        if name is None:
            lines.append(f"| `{check}` | not run | | | | {note} |")
        elif name == "":
            lines.append(f"| `{check}` | **NOT CAUGHT** | | | {miss} | |")
        else:
            lines.append(f"| `{check}` | {name} | {execs:,} | {secs:.1f} | {miss} | {note} |")
    caught = sum(1 for r in rows if r[1])
    not_run = sum(1 for r in rows if r[1] is None)
    lost = [r[0] for r in rows if r[1] == ""]
    lines += ["", f"{caught} checks caught, {not_run} not run (reasons above, from `fuzz/power/uncatchable.txt`), "
              f"{len(lost)} not caught{': ' + ', '.join(lost) if lost else ''}. Wall time {seconds / 60:.1f} min."]
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return switchable_checks.verdict("FUZZ POWER", problems)


if __name__ == "__main__":
    sys.exit(main())
