"""Content JSON for corpus-only checks, standard library only: exact parsing and comparison.

A Float in content JSON is compared as a binary32 pattern. Python's json module reads a number as
a double, and narrowing that double to binary32 rounds twice (a decimal just above a binary32
tie can round down). So numbers are kept as their text and rounded once, exactly, with
fractions: `f32_bits("0.1")`.
"""

import json
from fractions import Fraction

try:
    from ond_format import units_of
except ImportError:  # imported as part of a package
    from .ond_format import units_of

FLOAT_KEYS = ("conf", "score")


class Number(str):
    """A JSON number that is not a plain integer (or is -0), kept as its text."""


class Obj(dict):
    """A JSON object whose keys also read as attributes (None when absent)."""

    def __getattr__(self, name):
        return self.get(name)


def _int(text):
    return Number(text) if text == "-0" else int(text)


def parse_json(text):
    return json.loads(text, parse_float=Number, parse_int=_int, object_hook=Obj)


def dump_json(value):
    """JSON text of a parsed value, numbers as they were written."""
    if isinstance(value, Number):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + dump_json(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dump_json(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def f32_of_fraction(negative, q):
    """The binary32 pattern nearest to (-1 if negative) * q, q >= 0: ties to even, overflow to inf."""
    sign = 0x80000000 if negative else 0
    if q == 0:
        return sign
    e = q.numerator.bit_length() - q.denominator.bit_length()  # within one of log2(q)
    while q >= Fraction(2) ** (e + 1):
        e += 1
    while q < Fraction(2) ** e:
        e -= 1
    e = max(e, -126)  # below the normal range: subnormal, a fixed scale
    scaled = q * Fraction(2) ** (23 - e)
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2):
        n += 1
    if n == 1 << 24:
        n, e = 1 << 23, e + 1
    if e > 127:
        return sign | 0x7F800000
    if n < 1 << 23:  # subnormal (or zero after rounding)
        return sign | n
    return sign | ((e + 127) << 23) | (n - (1 << 23))


def f32_bits(value):
    """The 32-bit pattern of a Float: {"f32bits": N}, or a JSON number rounded once."""
    if isinstance(value, dict) and set(value) == {"f32bits"} and isinstance(value["f32bits"], int):
        return value["f32bits"]
    if isinstance(value, bool) or not isinstance(value, (int, Number)):
        return None
    text = str(value)
    return f32_of_fraction(text.startswith("-"), abs(Fraction(text)))


def str_units(value):
    if isinstance(value, str) and not isinstance(value, Number):
        return units_of(value)
    if isinstance(value, dict) and set(value) == {"utf16"} and isinstance(value["utf16"], list):
        return tuple(value["utf16"])
    return None


def _no_tokens(doc):
    return isinstance(doc, dict) and doc.get("tokens") == []


def same_content(a, b, key=None):
    """Content equality of docs/protocol.md: strings by UTF-16 code units, Floats by their bits,
    integers exactly, `ents` null and [] alike in a document without tokens."""
    if key in FLOAT_KEYS:
        x = f32_bits(a)
        return x is not None and x == f32_bits(b)
    ua, ub = str_units(a), str_units(b)
    if ua is not None or ub is not None:
        return ua == ub
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return False
        for k in a:
            if k == "ents" and _no_tokens(a) and _no_tokens(b) and a[k] in (None, []) and b[k] in (None, []):
                continue
            if not same_content(a[k], b[k], k):
                return False
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_content(x, y, key) for x, y in zip(a, b))
    if isinstance(a, Number) or isinstance(b, Number):  # only -0 reaches here in an integer field
        return str(a).lstrip("-") == str(b).lstrip("-") == "0"
    return type(a) is type(b) and a == b

