#!/usr/bin/env python3
"""Checks that the docs and corpus/rules.json point at places that exist.

- every rule of corpus/rules.json has a `doc` link `docs/FILE.md#anchor`, and the anchor is there;
- every rule id of rules.json, and R28, has its anchor in docs/rulings.md;
- every relative link in docs/*.md, README.md, corpus/README.md, conformance/README.md and
  codec/README.md names an existing file, and for `FILE.md#anchor` an existing anchor.

Anchors are explicit `<a id="...">` tags and GitHub's heading anchors (lower case, punctuation
dropped, spaces to hyphens). Exit 0 when all is well, 1 with one line per broken link otherwise.
"""

import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / p for p in
        ("README.md", "corpus/README.md", "conformance/README.md", "codec/README.md")]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def heading_anchor(text):
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        text = path.read_text(encoding="utf-8")
        found = set(re.findall(r'<a id="([^"]+)"', text))
        in_code = False
        for line in text.splitlines():
            if line.startswith("```"):
                in_code = not in_code
            elif not in_code and line.startswith("#"):
                found.add(heading_anchor(line.lstrip("#")))
        cache[path] = found
    return cache[path]


def check_target(source, target, problems):
    if re.match(r"^[a-z]+:", target) or target.startswith("#") and source is None:
        return
    file_part, _, anchor = target.partition("#")
    base = source.parent if source is not None else ROOT
    path = (base / file_part).resolve() if file_part else source
    where = source.relative_to(ROOT) if source is not None else "corpus/rules.json"
    if not path.exists():
        problems.append(f"{where}: {target}: no such file")
    elif anchor and path.suffix == ".md" and anchor not in anchors(path):
        problems.append(f"{where}: {target}: no anchor #{anchor}")


def main():
    problems = []
    rules = json.loads((ROOT / "corpus/rules.json").read_text(encoding="utf-8"))["rules"]
    rulings = ROOT / "docs/rulings.md"
    for r in rules:
        if "doc" not in r:
            problems.append(f"corpus/rules.json: {r['id']} has no doc link")
            continue
        if not r["doc"].startswith("docs/") or "#" not in r["doc"]:
            problems.append(f"corpus/rules.json: {r['id']}: {r['doc']} is not docs/FILE.md#anchor")
        check_target(None, r["doc"], problems)
    for rid in [r["id"] for r in rules] + ["R28"]:
        if rid.lower() not in anchors(rulings):
            problems.append(f"docs/rulings.md: no anchor for {rid}")
    for page in PAGES:
        if not page.exists():
            continue
        in_code = False
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                continue
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue
                check_target(page, target, problems)
    for p in problems:
        print(p)
    print(f"{len(problems)} broken link(s)" if problems else "all links resolve")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
