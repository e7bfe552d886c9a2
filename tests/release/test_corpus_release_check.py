#!/usr/bin/env python3
"""Tests of scripts/corpus_release_check.py on small made-up repositories in a temporary folder:
a changed case without a new version fails naming the case, a new version without a changelog
section or changes file fails, a stale changes file fails, and renames (through former_ids),
reclassifications, re-encodings and content changes are found."""

import contextlib
import copy
import io
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
import corpus_release_check as crc  # noqa: E402


def case(id_, verdict="valid", input_sha="a" * 64, expected_sha="b" * 64, **extra):
    name = id_.replace("/", "_")
    c = {"id": id_, "kind": "decode", "area": "tokens", "verdict": verdict, "rules": ["R19"],
         "description": "made up", "input": f"cases/{name}.ondc", "expected": f"cases/{name}.json",
         "listing": f"cases/{name}.txt", "error": None,
         "sha256": {f"cases/{name}.ondc": input_sha, f"cases/{name}.json": expected_sha,
                    f"cases/{name}.txt": "c" * 64}}
    c.update(extra)
    return c


def manifest(version, cases):
    return {"corpus_version": version, "format_version": 1, "generator": "test", "cases": cases}


class Repo:
    """A repository with VERSION, corpus/manifest.json, CHANGELOG.md, releases/ and changes/."""

    def __init__(self, root):
        self.root = pathlib.Path(root)
        (self.root / "corpus").mkdir()

    def write(self, rel, text):
        p = self.root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")

    def set(self, version, cases, changelog=None):
        self.write("VERSION", version + "\n")
        self.write("corpus/manifest.json", json.dumps(manifest(version, cases)))
        sections = changelog if changelog is not None else [version]
        self.write("corpus/CHANGELOG.md", "# Changelog\n\n" + "".join(f"## {v}\n\ntext\n\n" for v in sections))

    def snapshot(self):
        with contextlib.redirect_stdout(io.StringIO()):
            crc.write_snapshot(crc.Repo(self.root))

    def check(self):
        return crc.check(crc.Repo(self.root))


class ReleaseCheck(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.repo = Repo(self.tmp.name)
        self.v1 = [case("valid/tokens/one"), case("noncanonical/tokens/two", "noncanonical"),
                   case("invalid/tokens/three", "invalid", expected_sha=None)]
        self.v1[2]["expected"] = None
        del self.v1[2]["sha256"]["cases/invalid_tokens_three.json"]
        self.repo.set("1.0.0", self.v1)
        self.repo.snapshot()

    def tearDown(self):
        self.tmp.cleanup()

    def test_recorded_release_passes(self):
        self.assertEqual(self.repo.check(), [])
        changes = json.loads((self.repo.root / "corpus/changes/1.0.0.json").read_text())
        self.assertEqual(changes["previous"], None)
        self.assertEqual(changes["added"], ["invalid/tokens/three", "noncanonical/tokens/two", "valid/tokens/one"])

    def test_change_without_bump_fails_naming_the_case(self):
        cases = copy.deepcopy(self.v1)
        cases[0]["sha256"]["cases/valid_tokens_one.ondc"] = "d" * 64
        self.repo.set("1.0.0", cases)
        problems = self.repo.check()
        self.assertEqual(len(problems), 1, problems)  # the first release's changes list ids only
        self.assertIn("1 case(s) differ from release 1.0.0", problems[0])
        self.assertIn("valid/tokens/one", problems[0])
        self.assertIn("bump VERSION and add a changelog entry", problems[0])

    def test_description_change_without_bump_fails(self):
        cases = copy.deepcopy(self.v1)
        cases[1]["description"] = "said otherwise"
        self.repo.set("1.0.0", cases)
        self.assertIn("noncanonical/tokens/two", self.repo.check()[0])

    def test_bump_without_changelog_or_changes_file_fails(self):
        cases = copy.deepcopy(self.v1) + [case("valid/tokens/four")]
        self.repo.set("1.1.0", cases, changelog=["1.0.0"])
        problems = self.repo.check()
        self.assertEqual(problems, [
            "corpus/CHANGELOG.md has no section '## 1.1.0': add a changelog entry for 1.1.0",
            "no corpus/changes/1.1.0.json: run `scripts/corpus_release_check.py snapshot`"])

    def test_bump_with_changelog_and_changes_passes_until_the_corpus_moves_on(self):
        cases = copy.deepcopy(self.v1) + [case("valid/tokens/four")]
        self.repo.set("1.1.0", cases)
        self.repo.snapshot()
        self.assertEqual(self.repo.check(), [])
        changes = json.loads((self.repo.root / "corpus/changes/1.1.0.json").read_text())
        self.assertEqual(changes["previous"], "1.0.0")
        self.assertEqual(changes["added"], ["valid/tokens/four"])
        # A hand edit of the changes file is caught.
        changes["added"] = []
        self.repo.write("corpus/changes/1.1.0.json", json.dumps(changes))
        self.assertIn("differs in: added", self.repo.check()[0])

    def test_version_older_than_the_newest_release_fails(self):
        self.repo.set("0.9.0", self.v1, changelog=["0.9.0"])
        self.assertIn("older than the newest recorded release 1.0.0", " ".join(self.repo.check()))

    def test_manifest_version_must_be_version(self):
        self.repo.write("VERSION", "1.0.1\n")
        self.assertIn("says corpus_version 1.0.0, VERSION says 1.0.1", self.repo.check()[0])

    def test_renames_reclassifications_and_changes_are_found(self):
        old = crc.snapshot_of_manifest(manifest("1.0.0", self.v1))
        cases = copy.deepcopy(self.v1)
        # two: noncanonical -> impl under a new id that names the old one; its bytes change too.
        cases[1] = case("impl/tokens/two", "impl", input_sha="e" * 64, former_ids=["noncanonical/tokens/two"])
        # one: same id, new expected content; three: removed; five: added.
        cases[0]["sha256"]["cases/valid_tokens_one.json"] = "f" * 64
        cases[2] = case("valid/tokens/five")
        changes = crc.diff(old, crc.snapshot_of_manifest(manifest("2.0.0", cases)))
        self.assertEqual(changes, {
            "version": "2.0.0", "previous": "1.0.0",
            "added": ["valid/tokens/five"], "removed": ["invalid/tokens/three"],
            "renamed": [{"from": "noncanonical/tokens/two", "to": "impl/tokens/two"}],
            "reclassified": [{"id": "impl/tokens/two", "from": "noncanonical", "to": "impl"}],
            "re_encoded": ["impl/tokens/two"], "content_changed": ["valid/tokens/one"],
            "metadata_changed": []})  # the files' names changed with the id: not metadata

    def test_a_file_no_field_names_is_followed_by_its_name(self):
        cases = copy.deepcopy(self.v1)
        cases[0]["writer"] = {"table_order": "cases/valid/tokens/one.table.json"}  # named deeper
        cases[0]["sha256"]["cases/valid/tokens/one.table.json"] = "1" * 64
        old = crc.snapshot_of_manifest(manifest("1.0.0", cases))
        self.assertEqual(old["cases"]["valid/tokens/one"]["content"]["file .table.json"], "1" * 64)
        cases[0]["sha256"]["cases/valid/tokens/one.table.json"] = "2" * 64
        changes = crc.diff(old, crc.snapshot_of_manifest(manifest("2.0.0", cases)))
        self.assertEqual(changes["content_changed"], ["valid/tokens/one"])

    def test_former_id_still_a_case_is_an_error(self):
        old = crc.snapshot_of_manifest(manifest("1.0.0", self.v1))
        cases = copy.deepcopy(self.v1) + [case("valid/tokens/six", former_ids=["valid/tokens/one"])]
        with self.assertRaisesRegex(crc.ReleaseError, "valid/tokens/one is still a case"):
            crc.diff(old, crc.snapshot_of_manifest(manifest("2.0.0", cases)))

    def test_command_line(self):
        script = pathlib.Path(crc.__file__)
        cases = copy.deepcopy(self.v1)
        cases[1]["verdict"] = "impl"
        self.repo.write("new.json", json.dumps(manifest("1.0.1", cases)))
        out = subprocess.run([sys.executable, script, "diff", self.repo.root / "corpus/releases/1.0.0.json",
                              self.repo.root / "new.json"], capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(json.loads(out.stdout)["reclassified"],
                         [{"id": "noncanonical/tokens/two", "from": "noncanonical", "to": "impl"}])
        self.repo.write("corpus/manifest.json", json.dumps(manifest("1.0.0", cases)))
        out = subprocess.run([sys.executable, script, "--root", self.repo.root, "check"], capture_output=True,
                             text=True, timeout=60)
        self.assertEqual(out.returncode, 1)
        self.assertIn("noncanonical/tokens/two", out.stderr)

    def test_snapshot_file_round_trips(self):
        snap = crc.snapshot_of_manifest(manifest("1.0.0", self.v1))
        self.assertEqual(json.loads(crc.dump_snapshot(snap)), snap)
        recorded = crc.load_snapshot(self.repo.root / "corpus/releases/1.0.0.json")
        self.assertEqual(recorded, snap)


if __name__ == "__main__":
    unittest.main()
