#!/usr/bin/env python3
"""The codec's line and branch coverage from an lcov export (llvm-cov export -format=lcov), whole
and without the code listed in coverage-excluded.txt (code no harness input can reach in the
ordinary codec build, each entry with its reason). Prints a table per file and the totals, and
exits 1 when the figures without the exclusions are below the floor.

  fuzz/tools/coverage_figures.py LCOV_FILE --root REPO [--excluded FILE] [--min-lines 95] [--min-branches 90]

An entry of the exclusion list is `FILE_REGEX | WHAT | REASON`, WHAT being `line:REGEX` (every
line of the file whose text matches) or `body:REGEX` (from the line at column 0 that matches to
the next line that is exactly `}`: a function's body). An entry that matches nothing is an error,
so the list cannot outlive the code it describes.

Also left out: the second condition of each OND_CHECK (check_switch.hpp), `RelaxedChecks::enforced`,
which is false only inside a test's RelaxedChecks scope and so is true every time a harness finds
the fault. In llvm-cov's export it is the branch pair on the check's line that was taken exactly as
often as the check's own condition was true and never false.
"""

import argparse
import os
import re
import sys
from collections import defaultdict


def read_lcov(path, root):
    lines = defaultdict(dict)     # file -> line -> count
    branches = defaultdict(dict)  # file -> (line, block, branch) -> taken
    current = None
    with open(path) as f:
        for raw in f:
            raw = raw.strip()
            if raw.startswith("SF:"):
                current = os.path.relpath(raw[3:], root)
            elif raw.startswith("DA:") and current:
                ln, count = raw[3:].split(",")[:2]
                lines[current][int(ln)] = max(lines[current].get(int(ln), 0), int(count))
            elif raw.startswith("BRDA:") and current:
                ln, block, branch, taken = raw[5:].split(",")
                key = (int(ln), block, branch)
                taken = 0 if taken == "-" else int(taken)
                branches[current][key] = max(branches[current].get(key, 0), taken)
    return lines, branches


def read_exclusions(path):
    entries = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            raw = raw.strip()
            if not raw or raw.startswith("#"):
                continue
            parts = [p.strip() for p in raw.split(" | ")]
            if len(parts) != 3 or not re.match(r"(line|body):", parts[1]):
                sys.exit(f"{path}:{n}: expected 'FILE_REGEX | line:REGEX or body:REGEX | REASON'")
            kind, _, pattern = parts[1].partition(":")
            entries.append((n, re.compile(parts[0]), kind, re.compile(pattern), parts[2]))
    return entries


def excluded_lines(entries, files, root):
    """file -> set of excluded line numbers; fails on an entry that matches nothing."""
    out = defaultdict(set)
    for n, file_re, kind, pattern, _ in entries:
        hits = 0
        for rel in files:
            if not file_re.search(rel):
                continue
            with open(os.path.join(root, rel), errors="replace") as f:
                text = f.read().split("\n")
            i = 0
            while i < len(text):
                if kind == "line" and pattern.search(text[i]):
                    out[rel].add(i + 1)
                    hits += 1
                elif kind == "body" and not text[i][:1].isspace() and pattern.search(text[i]):
                    j = i
                    while j < len(text) and text[j] != "}":
                        out[rel].add(j + 1)
                        j += 1
                    out[rel].add(j + 1)
                    hits += 1
                    i = j
                i += 1
        if hits == 0:
            sys.exit(f"coverage exclusion on line {n} matches no line of the code: remove or update it")
    return out


def relaxed_check_branches(lines_text, branches):
    """The (line, block, branch) keys of OND_CHECK's `enforced` condition (see the docstring)."""
    pairs = defaultdict(dict)  # line -> block -> [true, false] with their keys
    for (ln, block, branch), taken in branches.items():
        pairs[ln].setdefault(block, {})[int(branch) % 2] = ((ln, block, branch), taken)
    out = set()
    for ln, blocks in pairs.items():
        if ln > len(lines_text) or "OND_CHECK(" not in lines_text[ln - 1]:
            continue
        complete = [b for b in blocks.values() if 0 in b and 1 in b]
        trues = [b[0][1] for b in complete if b[1][1] > 0]  # the check's own condition: both ways
        for b in complete:
            if b[1][1] == 0 and b[0][1] > 0 and b[0][1] in trues:
                out.update({b[0][0], b[1][0]})
    return out


def pct(hit, total):
    return 100.0 * hit / total if total else 100.0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("lcov")
    p.add_argument("--root", required=True)
    p.add_argument("--excluded", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "coverage-excluded.txt"))
    p.add_argument("--min-lines", type=float, default=95.0)
    p.add_argument("--min-branches", type=float, default=90.0)
    args = p.parse_args()
    lines, branches = read_lcov(args.lcov, args.root)
    files = sorted(set(lines) | set(branches))
    excl = excluded_lines(read_exclusions(args.excluded), files, args.root)

    relaxed_total = 0
    totals = [0] * 8  # lines hit/all, branches hit/all; then the same without the exclusions
    print(f"{'file':34} {'lines':>14} {'branches':>14}   {'excluded lines/branches':>24}")
    for rel in files:
        la = lines[rel]
        ba = branches[rel]
        lx = {ln: c for ln, c in la.items() if ln not in excl[rel]}
        with open(os.path.join(args.root, rel), errors="replace") as f:
            relaxed = relaxed_check_branches(f.read().split("\n"), ba)
        relaxed -= {k for k in relaxed if k[0] in excl[rel]}
        relaxed_total += len(relaxed)
        bx = {k: t for k, t in ba.items() if k[0] not in excl[rel] and k not in relaxed}
        row = [sum(1 for c in la.values() if c), len(la), sum(1 for t in ba.values() if t), len(ba),
               sum(1 for c in lx.values() if c), len(lx), sum(1 for t in bx.values() if t), len(bx)]
        totals = [a + b for a, b in zip(totals, row)]
        print(f"{rel:34} {pct(row[4], row[5]):6.1f}% {row[5] - row[4]:4} miss {pct(row[6], row[7]):6.1f}% {row[7] - row[6]:4} miss"
              f"   {row[1] - row[5]:10} / {row[3] - row[7]}")
    lines_all, branches_all = pct(totals[0], totals[1]), pct(totals[2], totals[3])
    lines_net, branches_net = pct(totals[4], totals[5]), pct(totals[6], totals[7])
    print(f"codec coverage, all code: lines {lines_all:.2f} % ({totals[0]}/{totals[1]}), "
          f"branches {branches_all:.2f} % ({totals[2]}/{totals[3]})")
    print(f"codec coverage without the {totals[1] - totals[5]} lines and {totals[3] - totals[7] - relaxed_total} branches of "
          f"{os.path.basename(args.excluded)} and the {relaxed_total} of OND_CHECK's relaxation: lines {lines_net:.2f} % ({totals[4]}/{totals[5]}), "
          f"branches {branches_net:.2f} % ({totals[6]}/{totals[7]})")
    if lines_net < args.min_lines or branches_net < args.min_branches:
        print(f"below the floor (lines {args.min_lines:g} %, branches {args.min_branches:g} %)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
