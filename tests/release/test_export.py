#!/usr/bin/env python3
"""`ond corpus export` and corpus/tools/export.py write the same tree, byte for byte, with and
without listings, from the repository's corpus, from an export of it, and from a small made-up
corpus whose README links into the export, into a listing, out of the corpus and above it; in
every export each relative link resolves to a file inside it, and VERSION's digests are right.

  test_export.py --ond PATH_TO_ond
"""

import argparse
import hashlib
import json
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXPORT_PY = ROOT / "corpus" / "tools" / "export.py"
LINK = re.compile(r"\]\(([^) \t\n\r\f\v]+)\)")
RULE_DOC = re.compile(r'"doc": "([^"]*)"')
failures = []


def fail(msg):
    failures.append(msg)


def run(cmd):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} exited {r.returncode}: {r.stderr}")
    return r.stdout


def tree(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def compare(what, a, b):
    ta, tb = tree(a), tree(b)
    for rel in sorted(set(ta) | set(tb)):
        if rel not in ta or rel not in tb:
            fail(f"{what}: {rel} only in {'the Python' if rel in tb else 'the C++'} export")
        elif ta[rel] != tb[rel]:
            hint = " (is `ond` built from the commit checked out? its commit is found at build time)" if rel == "VERSION" else ""
            fail(f"{what}: {rel} differs between the exports{hint}")
    return ta


def check_export(what, folder, listings):
    files = tree(folder)
    version = files["VERSION"].decode("utf-8")
    head, _, body = version.partition("\nfiles_sha256 ")
    digest, _, lines = body.partition("\n")
    if hashlib.sha256(lines.encode("utf-8")).hexdigest() != digest:
        fail(f"{what}: files_sha256 is not the SHA-256 of the file lines")
    listed = {}
    for line in lines.splitlines():
        sha, rel = line.split("  ", 1)
        listed[rel] = sha
    if set(listed) != set(files) - {"VERSION"}:
        fail(f"{what}: VERSION lists {len(listed)} files, the export has {len(files) - 1} besides VERSION")
    for rel, sha in listed.items():
        if rel in files and hashlib.sha256(files[rel]).hexdigest() != sha:
            fail(f"{what}: {rel} does not match its line in VERSION")
    if f"\nlistings {'yes' if listings else 'no'}\n" not in head + "\n":
        fail(f"{what}: VERSION does not say listings {'yes' if listings else 'no'}")
    has_txt = any(r.startswith("cases/") and r.endswith(".txt") for r in files)
    if has_txt != listings:
        fail(f"{what}: listings {'missing' if listings else 'present'}")
    # Every relative link resolves inside the export; rules.json's docs are absolute.
    for rel, data in files.items():
        if rel.endswith(".md"):
            for target in LINK.findall(data.decode("utf-8")):
                if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                    continue
                path = (folder / rel).parent / target.partition("#")[0]
                inside = path.resolve().is_relative_to(folder.resolve())
                if not inside or not path.exists():
                    fail(f"{what}: {rel} links to {target}, which is not in the export")
        if rel == "rules.json":
            for doc in RULE_DOC.findall(data.decode("utf-8")):
                if not doc.startswith("https://github.com/recursive-ai-oss/ond-conform/blob/v"):
                    fail(f"{what}: rules.json doc {doc} is not an address of the tagged release")
    return files


def both(what, ond, corpus, out, listings):
    flag = [] if listings else ["--no-listings"]
    run([ond, "corpus", "--corpus", corpus, "export", *flag, out / "cpp"])
    run([sys.executable, EXPORT_PY, "--corpus", corpus, *flag, out / "py"])
    compare(what, out / "cpp", out / "py")
    return check_export(what, out / "cpp", listings)


def made_up_corpus(folder):
    """A one-case corpus whose README has every kind of link."""
    corpus = folder / "corpus"
    (corpus / "cases/valid/tokens").mkdir(parents=True)
    (corpus / "regressions").mkdir()
    (corpus / "tools/__pycache__").mkdir(parents=True)
    files = {"cases/valid/tokens/one.ondc": b"ONDC", "cases/valid/tokens/one.json": b"{}\n",
             "cases/valid/tokens/one.txt": b"listing\n"}
    for rel, data in files.items():
        (corpus / rel).write_bytes(data)
    (corpus / "tools/__pycache__/x.pyc").write_bytes(b"cache")
    (corpus / "tools/helper.py").write_text("# see [x](../README.md)\n")
    (corpus / "regressions/README.md").write_text("[up](../README.md) [case](../cases/valid/tokens/one.txt)\n")
    (corpus / "LICENSE").write_text("CC0\n")
    (corpus / "README.md").write_text(
        "[in](cases/valid/tokens/one.ondc) [listing](cases/valid/tokens/one.txt#l1) [dir](regressions/) "
        "[doc](../docs/rulings.md#r9) [far](../conformance/examples/) [web](https://example.org/x) "
        "[anchor](#top) [above](../../outside.md) [spaced](not a link) [dot](./LICENSE)\n")
    (corpus / "rules.json").write_text('{"rules": [{"id": "R1", "title": "t", "doc": "docs/rulings.md#r1"}]}\n')
    case = {"id": "valid/tokens/one", "kind": "decode", "area": "tokens", "verdict": "valid", "rules": ["R1"],
            "description": "d", "input": "cases/valid/tokens/one.ondc", "expected": "cases/valid/tokens/one.json",
            "listing": "cases/valid/tokens/one.txt", "error": None,
            "sha256": {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}}
    (corpus / "manifest.json").write_text(json.dumps({"corpus_version": "9.8.7", "format_version": 1, "cases": [case]}))
    return corpus


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ond", required=True)
    ond = parser.parse_args().ond
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for listings in (True, False):
            name = "with listings" if listings else "without listings"
            out = tmp / name.replace(" ", "-")
            files = both(f"corpus, {name}", ond, ROOT / "corpus", out, listings)
            for need in ("LICENSE", "CHANGELOG.md", "manifest.json", "README.md", "tools/export.py"):
                if need not in files:
                    fail(f"corpus, {name}: no {need} in the export")
            if files.get("LICENSE") != (ROOT / "corpus/LICENSE").read_bytes():
                fail(f"corpus, {name}: LICENSE is not corpus/LICENSE")
            # An export of the export is the same tree.
            again = both(f"export of the export, {name}", ond, out / "py", tmp / f"again-{listings}", listings)
            if again != files:
                fail(f"corpus, {name}: an export of the export differs from the export")

        made_up = made_up_corpus(tmp / "repo")
        for listings in (True, False):
            name = "with listings" if listings else "without listings"
            before = len(failures)
            files = both(f"made-up corpus, {name}", ond, made_up, tmp / f"made-up-{listings}", listings)
            # The link above the corpus is left as it is, and the link check reports it.
            caught = [f for f in failures[before:] if f.endswith("links to ../../outside.md, which is not in the export")]
            failures[before:] = [f for f in failures[before:] if f not in caught]
            if len(caught) != 1:
                fail(f"made-up corpus, {name}: the link check did not report the link above the export")
            readme = files["README.md"].decode()
            url = "https://github.com/recursive-ai-oss/ond-conform/blob/v9.8.7/"
            want = ("[in](cases/valid/tokens/one.ondc) "
                    + ("[listing](cases/valid/tokens/one.txt#l1) " if listings
                       else f"[listing]({url}corpus/cases/valid/tokens/one.txt#l1) ")
                    + f"[dir](regressions/) [doc]({url}docs/rulings.md#r9) [far]({url}conformance/examples/) "
                    "[web](https://example.org/x) [anchor](#top) [above](../../outside.md) [spaced](not a link) "
                    "[dot](LICENSE)\n")
            if readme != want:
                fail(f"made-up corpus, {name}: README.md is\n{readme}not\n{want}")
            if any("__pycache__" in rel for rel in files):
                fail(f"made-up corpus, {name}: Python's cache was exported")
    for f in failures:
        print(f"FAIL: {f}")
    print(f"export test: {len(failures)} failure(s)" if failures else "export test: the two exporters agree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
