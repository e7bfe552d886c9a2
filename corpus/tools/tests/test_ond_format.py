"""ond_format.py and corpus_json.py against the corpus itself, and float rounding at its edges.

    python3 test_ond_format.py [--corpus DIR]
"""

import json
import os
import random
import struct
import sys
import unittest
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import corpus_json as cj  # noqa: E402
import ond_format as fmt  # noqa: E402

CORPUS = os.path.join(HERE, "..", "..")


def bits_of(f):
    return struct.unpack("<I", struct.pack("<f", f))[0]


def float_of(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


class Corpus(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(CORPUS, "manifest.json"), encoding="utf-8") as f:
            cls.cases = json.load(f)["cases"]

    def data(self, rel):
        with open(os.path.join(CORPUS, rel), "rb") as f:
            return f.read()

    def test_decode_verdicts_and_content(self):
        """Every decode case: the reader's verdict is the case's (impl: the reference's rejection,
        and with its check relaxed the if-accepted content), and accepted content is the expected."""
        checked = 0
        for c in self.cases:
            if c["kind"] != "decode":
                continue
            with self.subTest(c["id"]):
                data = self.data(c["input"])
                if c["verdict"] in ("valid", "noncanonical"):
                    got = fmt.to_content(fmt.read(data))
                    want = cj.parse_json(self.data(c["expected"]).decode("utf-8"))
                    self.assertTrue(cj.same_content(got, want))
                else:
                    with self.assertRaises(fmt.FormatError) as e:
                        fmt.read(data)
                    if c["verdict"] == "impl":
                        got = fmt.to_content(fmt.read(data, [e.exception.code]))
                        wants = [c["if_accepted"]] + c.get("if_accepted_also", [])
                        self.assertTrue(any(cj.same_content(got, cj.parse_json(self.data(w).decode("utf-8")))
                                            for w in wants), c["id"])
                checked += 1
        self.assertGreater(checked, 400)

    def test_canonical_bytes_written_back(self):
        """write(read(x)) == x for every canonical input and every encode case's bytes."""
        for c in self.cases:
            path = c["expected"] if c["kind"] == "encode" and c["verdict"] == "valid" else \
                c["input"] if c["kind"] == "decode" and c.get("canonical") else None
            if path:
                with self.subTest(c["id"]):
                    data = self.data(path)
                    self.assertEqual(fmt.write(fmt.read(data)), data)

    def test_encode_content_is_the_canonical_bytes_content(self):
        for c in self.cases:
            if c["kind"] == "encode" and c["verdict"] == "valid":
                with self.subTest(c["id"]):
                    want = cj.parse_json(self.data(c["input"]).decode("utf-8"))
                    self.assertTrue(cj.same_content(fmt.to_content(fmt.read(self.data(c["expected"]))), want))


class Floats(unittest.TestCase):
    def test_round_trip_and_ties_to_even(self):
        rng = random.Random(7)
        for _ in range(5000):
            b = rng.getrandbits(32)
            if (b >> 23) & 0xFF == 0xFF or b & 0x7FFFFFFF == 0x7F7FFFFF:
                continue
            self.assertEqual(cj.f32_bits(cj.Number(repr(float_of(b)))), b)
            mid = (Fraction(float_of(b)) + Fraction(float_of(b + 1))) / 2  # exactly between b and b + 1
            self.assertEqual(cj.f32_of_fraction(b >> 31 == 1, abs(mid)), b + (b & 1))

    def test_edges(self):
        n = cj.Number
        self.assertEqual(cj.f32_bits(n("340282356779733661637539395458142568448")), 0x7F800000)  # FLT_MAX + half ulp
        self.assertEqual(cj.f32_bits(n("340282356779733661637539395458142568447")), 0x7F7FFFFF)
        self.assertEqual(cj.f32_bits(n("-1e39")), 0xFF800000)
        self.assertEqual(cj.f32_bits(cj.parse_json("-0")), 0x80000000)
        self.assertEqual(cj.f32_bits(n("-0.0")), 0x80000000)
        self.assertEqual(cj.f32_bits(n("1e-45")), 1)  # the smallest subnormal
        self.assertEqual(cj.f32_bits(n("7.006492321624085e-46")), 0)  # half of it, exactly below: to 0
        self.assertEqual(cj.f32_bits(n("7.006492321624086e-46")), 1)
        self.assertEqual(cj.f32_bits(1), 0x3F800000)
        self.assertEqual(cj.f32_bits({"f32bits": 2143289344}), 0x7FC00000)

    def test_no_double_rounding(self):
        # 1 + 2^-24 + 2^-60: nearest binary32 is 1 + 2^-23; through a double it rounds to 1 + 2^-24,
        # a tie, and then to even, 1.0.
        text = str(Fraction(1) + Fraction(1, 2 ** 24) + Fraction(1, 2 ** 60))
        dec = format(Fraction(text).numerator * 10 ** 20 // Fraction(text).denominator, "d")
        number = cj.Number(dec[:-20] + "." + dec[-20:] + "0000000001")  # just above, as a decimal
        self.assertEqual(bits_of(float(number)), 0x3F800000)  # the double route
        self.assertEqual(cj.f32_bits(number), 0x3F800001)

    def test_same_content_rules(self):
        p = cj.parse_json
        self.assertTrue(cj.same_content(p('{"label": "\\u00e9"}'), p('{"label": {"utf16": [233]}}')))
        self.assertFalse(cj.same_content(p('{"conf": -0.0}'), p('{"conf": 0}')))
        self.assertTrue(cj.same_content(p('{"conf": 0.5}'), p('{"conf": {"f32bits": 1056964608}}')))
        self.assertTrue(cj.same_content(p('{"tokens": [], "ents": null}'), p('{"tokens": [], "ents": []}')))
        self.assertFalse(cj.same_content(p('{"tokens": [1], "ents": null}'), p('{"tokens": [1], "ents": []}')))
        self.assertFalse(cj.same_content(p('{"head": 1}'), p('{"head": 2}')))
        self.assertFalse(cj.same_content(p('{"a": 1}'), p('{"a": 1, "b": 2}')))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--corpus":
        CORPUS = sys.argv[2]
        del sys.argv[1:3]
    unittest.main()
