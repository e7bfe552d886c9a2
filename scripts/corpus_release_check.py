#!/usr/bin/env python3
"""The corpus's releases: what changed between two versions, and the CI check that no case
changes without a new version, a changelog entry and a changes file.

  corpus_release_check.py diff OLD.json NEW.json   print the changes between two snapshots
                                                  (a snapshot is corpus/releases/<v>.json, or a
                                                  manifest.json, which is read as its snapshot)
  corpus_release_check.py check                   the CI check (below); exit 1 with the reasons
  corpus_release_check.py snapshot                record the current corpus as release VERSION:
                                                  writes corpus/releases/<VERSION>.json and
                                                  corpus/changes/<VERSION>.json (the diff from
                                                  the newest earlier release)

`check`, with VERSION the repository's file VERSION:
  - the manifest's corpus_version is VERSION;
  - VERSION is not older than the newest recorded release;
  - if release VERSION is recorded, the corpus still is exactly that snapshot (a changed case
    without a new version fails, naming the cases);
  - corpus/CHANGELOG.md has a section `## VERSION` and corpus/changes/VERSION.json exists;
  - that changes file is the diff from the newest earlier release to the corpus as it is.

What a snapshot records and what each list of a changes file means: corpus/changes/README.md.
Options: --root DIR (the repository; default: this script's parent folder's parent).
Standard library only.
"""

import argparse
import hashlib
import json
import pathlib
import re
import sys

CHANGE_LISTS = ("added", "removed", "renamed", "reclassified", "re_encoded", "content_changed",
                "metadata_changed")
BYTES_EXT = (".ondc", ".ondb", ".stream")    # container bytes: a change re-encodes the case
CONTENT_EXT = (".json", ".jsonl")           # content JSON: a change changes the content
# Manifest fields a snapshot records by themselves (the rest go into the metadata digest).
OWN_FIELDS = {"id", "kind", "verdict", "error", "sha256", "former_ids"}


class ReleaseError(Exception):
    pass


def canonical_json(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def version_key(version):
    if not re.fullmatch(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)", version or ""):
        raise ReleaseError(f"'{version}' is not a version MAJOR.MINOR.PATCH")
    return tuple(int(part) for part in version.split("."))


def case_files(case):
    """The manifest fields that name files, as {field: [path, ...]} (a listed path is in sha256)."""
    hashes = case.get("sha256", {})
    files = {}
    for field, value in case.items():
        if field == "sha256":
            continue
        paths = value if isinstance(value, list) else [value]
        if paths and all(isinstance(p, str) and p in hashes for p in paths):
            files[field] = paths
    return files


def case_snapshot(case):
    """One case as a release records it: its verdict, error and the digests of its files, sorted
    into container bytes and content JSON by extension; everything else in one metadata digest."""
    hashes = case["sha256"]
    files = case_files(case)
    # A file no field names (one named deeper in the entry) goes by its name after the case's.
    named = {p for paths in files.values() for p in paths}
    stem = case["id"].rsplit("/", 1)[-1]
    for path in sorted(set(hashes) - named):
        base = path.rsplit("/", 1)[-1]
        files["file " + (base[len(stem):] if base.startswith(stem) else base)] = [path]
    snap = {"kind": case["kind"], "verdict": case["verdict"], "error": case.get("error"),
            "bytes": {}, "content": {}}
    rest = {}
    for field, paths in files.items():
        digests = [hashes[p] for p in paths]
        value = digests if isinstance(case.get(field), list) else digests[0]
        if all(p.endswith(BYTES_EXT) for p in paths):
            snap["bytes"][field] = value
        elif all(p.endswith(CONTENT_EXT) for p in paths):
            snap["content"][field] = value
        else:  # the listing (.txt): for people, part of the metadata
            rest[field + "_sha256"] = value
    for field, value in case.items():
        if field not in OWN_FIELDS and field not in files:
            rest[field] = value
    snap["metadata"] = hashlib.sha256(canonical_json(rest)).hexdigest()
    if case.get("former_ids"):
        snap["former_ids"] = list(case["former_ids"])
    return snap


def snapshot_of_manifest(manifest):
    cases = {}
    for case in manifest["cases"]:
        if case["id"] in cases:
            raise ReleaseError(f"manifest: case id {case['id']} twice")
        cases[case["id"]] = case_snapshot(case)
    return {"version": manifest["corpus_version"], "format_version": manifest["format_version"],
            "cases": dict(sorted(cases.items()))}


def load_snapshot(path):
    data = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    return snapshot_of_manifest(data) if "corpus_version" in data else data


def dump_snapshot(snap):
    """One line per case, so that a release's diff in git reads case by case."""
    lines = [f'"{k}": {json.dumps(snap[k])}' for k in ("version", "format_version")]
    body = ",\n  ".join(f"{json.dumps(i)}: {json.dumps(c, sort_keys=True)}" for i, c in snap["cases"].items())
    return "{\n " + ",\n ".join(lines) + ',\n "cases": {\n  ' + body + "\n }\n}\n"


def renames(old_cases, new_cases):
    """{old id: new id} for each case of NEW that names an id of OLD, gone from NEW, in former_ids."""
    out = {}
    for new_id, case in new_cases.items():
        for former in case.get("former_ids", []):
            if former in new_cases:
                if former != new_id and former in old_cases:
                    raise ReleaseError(f"{new_id} names {former} as a former id, but {former} is still a case")
                continue
            if former not in old_cases:
                continue  # an id from a version before OLD
            if former in out:
                raise ReleaseError(f"{former} is a former id of both {out[former]} and {new_id}")
            if new_id in out.values():
                raise ReleaseError(f"{new_id} has two former ids in the older version")
            out[former] = new_id
    return out


def diff(old, new):
    """The changes file from snapshot OLD to snapshot NEW (corpus/changes/README.md)."""
    old_cases, new_cases = old["cases"], new["cases"]
    renamed = renames(old_cases, new_cases)
    pairs = [(i, i) for i in old_cases if i in new_cases] + list(renamed.items())
    out = {"version": new["version"], "previous": old["version"]}
    out["added"] = sorted(i for i in new_cases if i not in old_cases and i not in renamed.values())
    out["removed"] = sorted(i for i in old_cases if i not in new_cases and i not in renamed)
    out["renamed"] = [{"from": f, "to": t} for f, t in sorted(renamed.items())]
    out["reclassified"], out["re_encoded"], out["content_changed"], out["metadata_changed"] = [], [], [], []
    for old_id, new_id in sorted(pairs, key=lambda p: p[1]):
        a, b = old_cases[old_id], new_cases[new_id]
        if a["verdict"] != b["verdict"]:
            out["reclassified"].append({"id": new_id, "from": a["verdict"], "to": b["verdict"]})
        # A file the case gained or lost (canonical bytes, a table order) changes neither its
        # input nor its content: it is metadata; only files both versions have are compared.
        if any(a["bytes"][f] != b["bytes"][f] for f in a["bytes"].keys() & b["bytes"].keys()):
            out["re_encoded"].append(new_id)
        if (any(a["content"][f] != b["content"][f] for f in a["content"].keys() & b["content"].keys())
                or a["kind"] != b["kind"] or a["error"] != b["error"]):
            out["content_changed"].append(new_id)
        if (a["metadata"] != b["metadata"] or a["bytes"].keys() != b["bytes"].keys()
                or a["content"].keys() != b["content"].keys()):
            out["metadata_changed"].append(new_id)
    return out


def changed_ids(changes):
    ids = set(changes["added"]) | set(changes["removed"])
    ids |= {r["to"] for r in changes["renamed"]} | {r["id"] for r in changes["reclassified"]}
    for key in ("re_encoded", "content_changed", "metadata_changed"):
        ids |= set(changes[key])
    return sorted(ids)


class Repo:
    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.corpus = self.root / "corpus"
        self.releases = self.corpus / "releases"
        self.changes = self.corpus / "changes"

    def version(self):
        text = (self.root / "VERSION").read_text(encoding="utf-8")
        version = text.strip()
        version_key(version)
        if text != version + "\n":
            raise ReleaseError("VERSION must be one line: MAJOR.MINOR.PATCH and a newline")
        return version

    def recorded(self):
        """Recorded release versions, oldest first."""
        versions = [p.name[:-len(".json")] for p in self.releases.glob("*.json")]
        return sorted(versions, key=version_key)

    def release(self, version):
        return load_snapshot(self.releases / f"{version}.json")

    def current(self):
        return load_snapshot(self.corpus / "manifest.json")

    def previous(self, version):
        earlier = [v for v in self.recorded() if version_key(v) < version_key(version)]
        return earlier[-1] if earlier else None


def empty_snapshot():
    return {"version": None, "cases": {}}


def check(repo):
    """Every reason the repository's corpus is not a consistent release; empty when it is."""
    problems = []
    version = repo.version()
    current = repo.current()
    if current["version"] != version:
        problems.append(f"corpus/manifest.json says corpus_version {current['version']}, VERSION says {version}: "
                        "regenerate the corpus")
    recorded = repo.recorded()
    if recorded and version_key(version) < version_key(recorded[-1]):
        problems.append(f"VERSION {version} is older than the newest recorded release {recorded[-1]}")
    if version in recorded:
        changes = diff(repo.release(version), current)
        ids = changed_ids(changes)
        if ids:
            shown = ", ".join(ids[:20]) + (f" and {len(ids) - 20} more" if len(ids) > 20 else "")
            problems.append(f"{len(ids)} case(s) differ from release {version} as recorded in "
                            f"corpus/releases/{version}.json: {shown}. A released corpus does not change: "
                            "bump VERSION and add a changelog entry (corpus/CHANGELOG.md), then record it "
                            "with `scripts/corpus_release_check.py snapshot`")
    changelog = repo.corpus / "CHANGELOG.md"
    headings = re.findall(r"^## (\S+)", changelog.read_text(encoding="utf-8"), re.M) if changelog.exists() else []
    if version not in headings:
        problems.append(f"corpus/CHANGELOG.md has no section '## {version}': add a changelog entry for {version}")
    changes_path = repo.changes / f"{version}.json"
    if not changes_path.exists():
        problems.append(f"no corpus/changes/{version}.json: run `scripts/corpus_release_check.py snapshot`")
    else:
        previous = repo.previous(version)
        want = diff(repo.release(previous) if previous else empty_snapshot(), current)
        have = json.loads(changes_path.read_text(encoding="utf-8"))
        if have != want:
            wrong = sorted(k for k in set(want) | set(have) if have.get(k) != want.get(k))
            problems.append(f"corpus/changes/{version}.json is not the diff from release {previous} to the corpus "
                            f"as it is (differs in: {', '.join(wrong)}): run `scripts/corpus_release_check.py snapshot`")
    return problems


def write_snapshot(repo):
    version = repo.version()
    current = repo.current()
    if current["version"] != version:
        raise ReleaseError(f"corpus/manifest.json says corpus_version {current['version']}, VERSION says {version}: "
                           "regenerate the corpus first")
    previous = repo.previous(version)
    changes = diff(repo.release(previous) if previous else empty_snapshot(), current)
    repo.releases.mkdir(exist_ok=True)
    repo.changes.mkdir(exist_ok=True)
    (repo.releases / f"{version}.json").write_text(dump_snapshot(current), encoding="utf-8")
    (repo.changes / f"{version}.json").write_text(json.dumps(changes, indent=1) + "\n", encoding="utf-8")
    counts = ", ".join(f"{len(changes[k])} {k}" for k in CHANGE_LISTS)
    print(f"recorded release {version} ({len(current['cases'])} cases) against {previous}: {counts}")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parent.parent))
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("diff")
    d.add_argument("old")
    d.add_argument("new")
    sub.add_parser("check")
    sub.add_parser("snapshot")
    args = parser.parse_args(argv)
    repo = Repo(args.root)
    try:
        if args.command == "diff":
            print(json.dumps(diff(load_snapshot(args.old), load_snapshot(args.new)), indent=1))
        elif args.command == "snapshot":
            write_snapshot(repo)
        else:
            problems = check(repo)
            for p in problems:
                print(f"corpus release check: {p}", file=sys.stderr)
            if problems:
                return 1
            print(f"corpus release check: corpus {repo.version()} ok")
    except (ReleaseError, OSError, KeyError, ValueError) as e:
        print(f"corpus release check: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
