"""What the docs say about the corpus, read against the corpus's files.

Each test takes a claim of corpus/README.md, docs/protocol.md, docs/reading-rules.md or
docs/rulings.md and checks the files (manifest, cases, writer-rules.json) against it, so that a
doc and the files cannot drift apart silently.

    python3 test_docs.py
"""

import builtins
import dis
import glob
import json
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import corpus_json as cj  # noqa: E402
import ond_format as fmt  # noqa: E402
import run_corpus  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
CORPUS = os.path.join(ROOT, "corpus")


def text(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def section(doc, heading):
    """The text under a Markdown heading, up to the next heading of the same or a higher level."""
    m = re.search(rf"^(#+) {re.escape(heading)}$", doc, re.M)
    if not m:
        raise AssertionError(f"no heading {heading!r}")
    rest = doc[m.end():]
    nxt = re.search(rf"^#{{1,{len(m.group(1))}}} ", rest, re.M)
    return rest[:nxt.start()] if nxt else rest


class Docs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.readme = text("corpus", "README.md")
        with open(os.path.join(CORPUS, "manifest.json"), encoding="utf-8") as f:
            cls.cases = json.load(f)["cases"]
        cls.by_id = {c["id"]: c for c in cls.cases}

    def data(self, rel):
        with open(os.path.join(CORPUS, rel), "rb") as f:
            return f.read()

    def test_f32bits_only_for_non_finite_or_named_cases(self):
        """README: {"f32bits": N} is used for NaN and the infinities, and for a finite value only in
        the encode cases it names."""
        para = next(p for p in self.readme.split("\n\n") if "The files use the second" in p)
        named = {i for i in re.findall(r"`([a-z0-9/-]+)`", para) if i in self.by_id}
        self.assertTrue(named, "the README names the cases with a finite f32bits")
        finite = set()
        for path in glob.glob(os.path.join(CORPUS, "cases", "**", "*.json*"), recursive=True):
            with open(path, encoding="utf-8") as f:
                for bits in map(int, re.findall(r'"f32bits"\s*:\s*(\d+)', f.read())):
                    if (bits >> 23) & 0xFF != 0xFF:
                        rel = os.path.relpath(path, CORPUS).replace(os.sep, "/")
                        finite.add(next(c["id"] for c in self.cases if rel in c["sha256"]))
        self.assertEqual(finite, named)

    def test_canonical_flag(self):
        """README: `canonical` is true exactly on valid/ decode cases, false on the other verdicts."""
        self.assertIn("true exactly on valid/; false on noncanonical/, invalid/ and impl/", self.readme)
        for c in self.cases:
            if c["kind"] == "decode":
                self.assertEqual(c["canonical"], c["verdict"] == "valid", c["id"])
            else:
                self.assertNotIn("canonical", c, c["id"])

    def test_writer_levels(self):
        """The README's and the rulings' level tables say what writer-rules.json says, row by row;
        and the README does not ask for the exact bytes where the rulings make them recommended."""
        with open(os.path.join(CORPUS, "writer-rules.json"), encoding="utf-8") as f:
            rules = json.load(f)["writer_rules"]
        rows = re.findall(r"^\| W\d .*? \| `([A-Za-z0-9-]+)` \| (required|recommended)[^|]*\|$", self.readme, re.M)
        self.assertEqual(rows, [(r["id"], r["level"]) for r in rules])
        rulings = section(text("docs", "rulings.md"), "Which writer rules are required")
        levels = re.findall(r"^\| W\d: .*? \| (\*\*required\*\*|recommended) \|", rulings, re.M)
        self.assertEqual([lv.strip("*") for lv in levels], [r["level"] for r in rules])
        self.assertNotIn("must be written exactly", self.readme)

    def test_stream_line_formats(self):
        """docs/protocol.md's stream output names every container format the corpus's stream lines hold."""
        formats = set()
        for c in self.cases:
            if c["kind"] == "stream":
                for rel in filter(None, [c["expected"], c.get("if_accepted")]):
                    for line in self.data(rel).decode("utf-8").splitlines():
                        formats.add(json.loads(line)["format"])
        self.assertEqual(formats, {"ONDC", "ONDB"})
        out = section(text("docs", "protocol.md"), "Stream output")
        for f in formats:
            self.assertIn(f'"{f}"', out)

    def test_stream_inputs(self):
        """README: a .stream holds ONDC containers, and an ONDB only in an impl/stream/ case."""
        self.assertIn("an `impl/stream/` case may hold an ONDB among them", self.readme)
        bins = set()
        for c in self.cases:
            if c["kind"] != "stream":
                continue
            data, at = self.data(c["input"]), 0
            while at + 12 <= len(data):  # the headers of the containers before a cut or a fault
                if data[at:at + 4] == b"ONDB":
                    bins.add(c["id"])
                elif data[at:at + 4] != b"ONDC":
                    break
                at += 12 + int.from_bytes(data[at + 8:at + 12], "little") + 4 * (data[at + 6] & 1)
        self.assertTrue(bins)
        for case_id in bins:
            self.assertEqual(self.by_id[case_id]["verdict"], "impl", case_id)

    def test_truncation_offsets(self):
        """docs/reading-rules.md: a cut field is reported at its first byte, the sentence marks and
        mode 1's floats as one field each; every such case's error_offset agrees."""
        rule = section(text("docs", "reading-rules.md"), "Error offsets")
        codes = ("field.truncated", "varint.truncated", "string.truncated")
        for code in codes:
            self.assertIn(f"`{code}`", rule)
        seen = 0
        for c in self.cases:
            if c["kind"] == "decode" and c["error"] in codes:
                with self.assertRaises(fmt.FormatError) as e:
                    fmt.read(self.data(c["input"]))
                self.assertEqual((e.exception.code, e.exception.offset), (c["error"], c["error_offset"]), c["id"])
                seen += 1
        self.assertGreater(seen, 20)

    def test_canonical_bytes_of_noncanonical_cases(self):
        """Where the manifest gives a non-canonical case's canonical bytes, they read to the case's
        content and are canonical (written back unchanged), and differ from the input."""
        for c in self.cases:
            if c["kind"] == "decode" and c.get("canonical_bytes"):
                data = self.data(c["canonical_bytes"])
                got = fmt.read(data)
                self.assertEqual(fmt.write(got), data, c["id"])
                self.assertNotEqual(data, self.data(c["input"]), c["id"])
                want = cj.parse_json(self.data(c["expected"]).decode("utf-8"))
                self.assertTrue(cj.same_content(fmt.to_content(got), want), c["id"])

    def test_table_only_used_carries_no_unused_string(self):
        """README: the content JSON of encode/encode/table-only-used cannot carry the unused string,
        so its strings are exactly its canonical table's."""
        self.assertIn("`encode/encode/table-only-used` is made from", self.readme)
        c = self.by_id["encode/encode/table-only-used"]
        content = json.loads(self.data(c["input"]))
        used = {t[k] for t in content["doc"]["tokens"] for k in fmt.TOKEN_COLUMNS} - {""}
        table = {fmt.text_of(s.units) for s in fmt.read(self.data(c["expected"])).strings[1:]}
        self.assertEqual(used, table)

    def test_single_fault_cases_isolate_their_error(self):
        """README: a single-fault case is invalid, and `isolates` is the code it reports."""
        marked = [c for c in self.cases if c.get("single_fault")]
        self.assertTrue(marked)
        for c in marked:
            self.assertEqual((c["verdict"], c["isolates"]), ("invalid", c["error"]), c["id"])
        self.assertIn("not about every reader without the check", self.readme)

    def test_what_the_files_do_not_check(self):
        """README: the memory bound and the derived cases are named as what a corpus-only run lacks,
        and the memory link resolves."""
        part = section(self.readme, "What the files alone do not check")
        self.assertIn("**Bounded memory**", part)
        self.assertIn("**Derived cases**", part)
        self.assertIn('<a id="memory"></a>', text("docs", "protocol.md"))

    def test_readme_block_is_what_the_harness_runs(self):
        """The README's checks are a Python block that compiles, and every name it reads is one of
        the harness's helpers, a builtin, or its own."""
        code = compile(run_corpus.readme_checks(CORPUS), "README.md", "exec")
        loaded, stored, todo = set(), set(), [code]
        while todo:
            co = todo.pop()
            todo += [k for k in co.co_consts if hasattr(k, "co_code")]
            for ins in dis.get_instructions(co):
                if ins.opname in ("LOAD_NAME", "LOAD_GLOBAL"):
                    loaded.add(ins.argval)
                elif ins.opname in ("STORE_NAME", "STORE_GLOBAL"):
                    stored.add(ins.argval)
        bound = set(run_corpus.Harness(CORPUS, {}, False, None, 1).bindings())
        self.assertEqual(loaded - bound - stored - set(dir(builtins)), set())
        for helper in ("my_decode", "my_encode", "my_stream_decode", "same_content", "writer_findings", "decode"):
            self.assertIn(helper, loaded)


if __name__ == "__main__":
    unittest.main()
