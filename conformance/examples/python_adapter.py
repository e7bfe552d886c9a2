#!/usr/bin/env python3
"""A complete example adapter for `ond conform`: a small ONDC/ONDB decoder in pure Python.

It implements the *decode* operation of the testee protocol from scratch (standard library only,
no `ond` involved), so it doubles as a second, independent reading of the format:

    python3 python_adapter.py decode      one container on stdin -> content JSON on stdout
    python3 python_adapter.py serve       persistent mode: framed requests (docs/protocol.md)

Exit status 0 = accepted, 1 = rejected (with `error: CODE` as the first line of stderr).
Run it with:

    ond conform --decoder "python3 conformance/examples/python_adapter.py decode"
    ond conform --persistent "python3 conformance/examples/python_adapter.py serve"
"""

import json
import struct
import sys
import zlib

MAX_TOKENS = 33_554_432


class Reject(Exception):
    """The input is not a valid container; `code` is one of the corpus's error codes."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class Cursor:
    """Bounded reads over data[pos:end]; every read checks that the bytes are there."""

    def __init__(self, data, pos=0, end=None):
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else end

    def remaining(self):
        return self.end - self.pos

    def need(self, n):
        if n > self.remaining():
            raise Reject("field.truncated", f"a {n}-byte field at byte {self.pos} runs past its section")

    def u8(self):
        self.need(1)
        self.pos += 1
        return self.data[self.pos - 1]

    def u32(self):
        self.need(4)
        (v,) = struct.unpack_from("<I", self.data, self.pos)
        self.pos += 4
        return v

    def f32(self):
        self.need(4)
        (v,) = struct.unpack_from("<f", self.data, self.pos)
        self.pos += 4
        return v

    def take(self, n):
        self.need(n)
        self.pos += n
        return self.data[self.pos - n:self.pos]

    def sub(self, n):
        child = Cursor(self.data, self.pos, self.pos + n)
        self.pos += n
        return child

    def varint(self):
        value = 0
        for i in range(5):
            if self.pos >= self.end:
                raise Reject("varint.truncated", f"a varint runs past its section at byte {self.pos}")
            b = self.data[self.pos]
            self.pos += 1
            if i == 4:
                if b & 0x80:
                    raise Reject("varint.too-long", "a varint's 5th byte has its continuation bit set")
                if b > 0x0F:
                    raise Reject("varint.overflow", "a varint's value exceeds 32 bits")
            value |= (b & 0x7F) << (7 * i)
            if not b & 0x80:
                return value
        raise AssertionError("unreachable")

    def svarint(self):
        u = self.varint()
        return (u >> 1) ^ -(u & 1)


def decode_utf16(raw):
    # Lone surrogates survive as surrogate code points; a valid pair becomes one character.
    return raw.decode("utf-16-le", "surrogatepass")


def read_string(c):
    h = c.varint()
    n = h >> 1
    if n > c.remaining():
        raise Reject("string.truncated", "a string runs past its section")
    raw = c.take(n)
    if h & 1 == 0:
        try:
            return raw.decode("utf-8")  # Python's decoder is strict RFC 3629
        except UnicodeDecodeError:
            raise Reject("string.invalid-utf8", "a UTF-8 string is not well-formed")
    if n % 2:
        raise Reject("string.odd-utf16-length", "a UTF-16 string has an odd byte count")
    return decode_utf16(raw)


def utf16_length(s):
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def json_string(s):
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in s):
        raw = s.encode("utf-16-le", "surrogatepass")
        return {"utf16": list(struct.unpack(f"<{len(raw) // 2}H", raw))}
    return s


def check_conf(value, code):
    if not (0.0 <= value <= 1.0):  # false for NaN
        raise Reject(code, f"confidence {value} is outside [0, 1]")


class Table:
    def __init__(self, strings):
        self.strings = strings  # index i >= 1 is strings[i - 1]

    def get(self, idx):
        if idx > len(self.strings):
            raise Reject("table.index-out-of-range", f"string index {idx} is beyond the table of {len(self.strings)}")
        return "" if idx == 0 else self.strings[idx - 1]

    def label(self, idx, area, missing="label-missing", empty="label-empty"):
        if idx == 0:
            raise Reject(f"{area}.{missing}", "a label index is 0")
        s = self.get(idx)
        if s == "":
            raise Reject(f"{area}.{empty}", "a label names a stored empty string")
        return s


def string_table(c):
    count = c.varint()
    if count > c.remaining():
        raise Reject("table.count-out-of-range", "the string count exceeds the table's bytes")
    return Table([read_string(c) for _ in range(count)])


def text_section(c):
    enc = c.u8()
    raw = c.take(c.remaining())
    if enc == 0:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Reject("text.invalid-utf8", "the text is not well-formed UTF-8")
    if enc == 1:
        if len(raw) % 2:
            raise Reject("text.odd-utf16-length", "UTF-16 text has an odd byte count")
        return decode_utf16(raw)
    raise Reject("text.bad-encoding", f"text encoding byte {enc}")


def tokens_section(c, table, text_len):
    n = c.varint()
    if n > MAX_TOKENS:
        raise Reject("tokens.count-too-large", f"{n} tokens")
    if 9 * n > c.remaining():
        raise Reject("tokens.count-exceeds-bytes", f"{n} tokens cannot fit in {c.remaining()} bytes")
    tokens = []
    end = 0
    for _ in range(n):
        start = end + c.varint()
        length = c.varint()
        if length == 0:
            raise Reject("tokens.empty", "a token has length 0")
        end = start + length
        if end > text_len:
            raise Reject("tokens.out-of-text", f"a token ends at {end}, past the text's {text_len}")
        tokens.append({"start": start, "length": length})
    for column in ("norm", "lemma", "pos", "tag", "dep", "morph"):
        for t in tokens:
            t[column] = json_string(table.get(c.varint()))
    for i, t in enumerate(tokens):
        head = i + c.svarint()
        if not 0 <= head < n:
            raise Reject("tokens.head-out-of-range", f"token {i} has head {head}")
        t["head"] = head
    bits = c.take((n + 3) // 4)
    for i, t in enumerate(tokens):
        v = (bits[i // 4] >> (2 * (i % 4))) & 3
        if v == 3:
            raise Reject("tokens.bad-sentence-value", f"token {i} has sentence value 3")
        t["sent"] = v
    if n % 4 and bits[-1] >> (2 * (n % 4)):
        raise Reject("tokens.sentence-padding", "padding bits after the last sentence value are set")
    mode = c.u8()
    if mode == 0:
        for t in tokens:
            t["conf"] = 1.0
    elif mode == 1:
        for t in tokens:
            t["conf"] = c.f32()
            check_conf(t["conf"], "tokens.confidence-out-of-range")
    else:
        raise Reject("tokens.bad-confidence-mode", f"confidence mode {mode}")
    return tokens


def entities_section(c, table, n):
    count = c.varint()
    if 7 * count > c.remaining():
        raise Reject("entities.count-exceeds-bytes", f"{count} entities cannot fit")
    ents = []
    end = 0
    for _ in range(count):
        start = end + c.varint()
        length = c.varint()
        label_idx = c.varint()
        conf = c.f32()
        if length == 0:
            raise Reject("entities.empty", "an entity has length 0")
        end = start + length
        if end > n:
            raise Reject("entities.out-of-range", f"an entity ends at token {end} of {n}")
        label = table.label(label_idx, "entities")
        check_conf(conf, "entities.confidence-out-of-range")
        ents.append({"start": start, "length": length, "label": json_string(label), "conf": conf})
    return ents


def categories_section(c, table):
    count = c.varint()
    if 5 * count > c.remaining():
        raise Reject("categories.count-exceeds-bytes", f"{count} categories cannot fit")
    cats, seen = [], set()
    for _ in range(count):
        label = table.label(c.varint(), "categories")
        score = c.f32()
        if not (0.0 <= score <= 1.0):
            raise Reject("categories.score-out-of-range", f"category score {score}")
        if label in seen:
            raise Reject("categories.duplicate-label", "two categories have equal labels")
        seen.add(label)
        cats.append({"label": json_string(label), "score": score})
    return cats


def span_groups_section(c, table, n):
    groups = c.varint()
    if 2 * groups > c.remaining():
        raise Reject("spans.group-count-exceeds-bytes", f"{groups} span groups cannot fit")
    out, names = [], set()
    for _ in range(groups):
        name = table.label(c.varint(), "spans", "group-name-missing", "group-name-empty")
        if name in names:
            raise Reject("spans.duplicate-group-name", "two span groups have equal names")
        names.add(name)
        count = c.varint()
        if 7 * count > c.remaining():
            raise Reject("spans.count-exceeds-bytes", f"{count} spans cannot fit")
        spans = []
        for _ in range(count):
            start = c.varint()
            length = c.varint()
            label_idx = c.varint()
            conf = c.f32()
            if length == 0:
                raise Reject("spans.empty", "a span has length 0")
            if start + length > n:
                raise Reject("spans.out-of-range", f"a span ends at token {start + length} of {n}")
            label = table.label(label_idx, "spans")
            check_conf(conf, "spans.confidence-out-of-range")
            spans.append({"start": start, "length": length, "label": json_string(label), "conf": conf})
        out.append({"name": json_string(name), "spans": spans})
    return out


def sections(body):
    """Yields (id, cursor over the content) with the framing checks of every body and record."""
    last = -1
    while body.remaining():
        if body.remaining() < 5:
            raise Reject("section.truncated", "a section frame does not fit")
        sid = body.u8()
        length = body.u32()
        if sid <= last:
            raise Reject("section.out-of-order", f"section {sid} after section {last}")
        if length > body.remaining():
            raise Reject("section.length-out-of-range", f"section {sid} runs past its body")
        last = sid
        yield sid, body.sub(length)


def finish(sec):
    if sec.remaining():
        raise Reject("section.trailing-bytes", "a section is longer than its contents")


def document(body, table, place):
    """The sections of one ONDC body (place 'ondc', table read here) or of one ONDB record."""
    known = {1, 2, 3, 4, 6, 7} if place == "ondc" else {2, 3, 4}
    defined = {1, 2, 3, 4, 5, 6, 7}
    doc = {"text": None, "tokens": None, "ents": None, "cats": None, "spans": []}
    text_len = n = None
    for sid, sec in sections(body):
        if sid not in known:
            if sid in defined:
                raise Reject("section.misplaced", f"section {sid} does not belong here")
            continue  # unknown: skipped by length
        if sid == 1:
            table = string_table(sec)
        elif table is None:
            raise Reject("section.missing", "the string table is missing")
        elif sid == 2:
            text = text_section(sec)
            doc["text"], text_len = json_string(text), utf16_length(text)
        elif text_len is None:
            raise Reject("section.missing", "the text section is missing")
        elif sid == 3:
            doc["tokens"] = tokens_section(sec, table, text_len)
            n = len(doc["tokens"])
        elif n is None:
            raise Reject("section.missing", "the tokens section is missing")
        elif sid == 4:
            doc["ents"] = entities_section(sec, table, n)
        elif sid == 6:
            doc["cats"] = categories_section(sec, table)
        elif sid == 7:
            doc["spans"] = span_groups_section(sec, table, n)
        finish(sec)
    if table is None or text_len is None or n is None:
        raise Reject("section.missing", "a required section is missing")
    return doc


def bin_body(body):
    table = None
    docs = None
    for sid, sec in sections(body):
        if docs is not None:
            raise Reject("bin.section-after-records", "a section follows section 5")
        if sid == 1:
            table = string_table(sec)
            finish(sec)
        elif sid == 5:
            if table is None:
                raise Reject("section.missing", "the string table is missing")
            count = sec.u32()
            if count > sec.remaining() // 4:
                raise Reject("bin.count-exceeds-bytes", f"{count} records cannot fit")
            docs = []
            for _ in range(count):
                length = sec.u32()
                if length > sec.remaining():
                    raise Reject("bin.record-length-out-of-range", "a record runs past section 5")
                doc = document(sec.sub(length), table, "record")
                doc["cats"], doc["spans"] = None, []
                docs.append(doc)
            if sec.remaining():
                raise Reject("bin.trailing-bytes", "the records do not fill section 5")
        elif sid in (2, 3, 4, 6, 7):
            raise Reject("section.misplaced", f"section {sid} in an ONDB body")
    if docs is None:
        raise Reject("section.missing", "section 5 is missing")
    return docs


def decode(data):
    if len(data) < 12:
        raise Reject("header.truncated", "shorter than the 12-byte header")
    magic = data[:4]
    if magic not in (b"ONDC", b"ONDB"):
        raise Reject("header.bad-magic", f"magic {magic!r}")
    version, flags, body_len = struct.unpack_from("<HHI", data, 4)
    if version != 1:
        raise Reject("header.bad-version", f"version {version}")
    if flags & ~1:
        raise Reject("header.bad-flags", f"flags {flags:#x}")
    crc = bool(flags & 1)
    total = 12 + body_len + (4 if crc else 0)
    if len(data) < total:
        raise Reject("container.truncated", f"{len(data)} bytes, the header declares {total}")
    if len(data) > total:
        raise Reject("container.trailing-bytes", f"{len(data) - total} bytes after the container")
    body = Cursor(data, 12, 12 + body_len)
    if magic == b"ONDC":
        result = {"format": "ONDC", "crc": crc, "doc": document(body, None, "ondc")}
    else:
        result = {"format": "ONDB", "crc": crc, "docs": bin_body(body)}
    if crc:
        (stored,) = struct.unpack_from("<I", data, 12 + body_len)
        if zlib.crc32(data[:12 + body_len]) & 0xFFFFFFFF != stored:
            raise Reject("crc.mismatch", "the CRC-32 trailer does not match")
    return result


def answer(data):
    """(status, payload): 0 with the JSON text, or 1 with the error code."""
    try:
        return 0, json.dumps(decode(data), allow_nan=False).encode()
    except Reject as e:
        return 1, e.code.encode()


def serve():
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = inp.read(4)
        if not head:
            return 0
        (n,) = struct.unpack("<I", head)
        payload = inp.read(n)
        if n == 0 or len(payload) != n:
            return 1
        if payload[:1] == b"D":
            status, body = answer(payload[1:])
        else:
            status, body = 2, b""  # this adapter implements decode only
        reply = bytes([status]) + body
        out.write(struct.pack("<I", len(reply)) + reply)
        out.flush()


def main(argv):
    if len(argv) != 2 or argv[1] not in ("decode", "serve"):
        print("usage: python_adapter.py decode|serve", file=sys.stderr)
        return 2
    if argv[1] == "serve":
        return serve()
    status, body = answer(sys.stdin.buffer.read())
    if status == 0:
        sys.stdout.buffer.write(body + b"\n")
        return 0
    print(f"error: {body.decode()}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
