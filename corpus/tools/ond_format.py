"""A small reader and writer of ONDC/ONDB bytes, standard library only.

Enough of the format to check a writer's output without the C++ tools: it walks the header, the
string table, every document body (text, tokens with their columns, sentence marks, padding bits
and confidence mode, entities, categories, span groups) and the bin's records, with the reader
checks of docs/rulings.md, and records every varint-bearing field it reads (for the minimal-varint
writer rule). `write` turns what `read` gives back into bytes; it writes the canonical bytes of a
canonical input, and its options write the non-canonical variants the writer-rule tests use.

    container = read(data)                   # raises FormatError(code, offset)
    content = to_content(container)          # the content model of docs/protocol.md
    data == write(container)                 # for canonical bytes

The reader, the content it gives and the writer share one model of a container, so they are one
file. Error codes are the reference's (docs/error-codes.md) for the faults this reader tells apart; a
reader that meets several faults may name another one than the reference does (rulings R28).
"""

import struct
import zlib

TOKEN_COLUMNS = ("norm", "lemma", "pos", "tag", "dep", "morph")
MAX_TOKENS = 33554432
ONE = 0x3F800000  # the bits of 1.0f


class FormatError(Exception):
    def __init__(self, code, offset, detail=""):
        super().__init__(f"{code} at byte {offset}" + (f": {detail}" if detail else ""))
        self.code, self.offset = code, offset


class Str:
    """A stored string: its UTF-16 code units, and whether it was stored as UTF-16."""

    def __init__(self, units, utf16=False):
        self.units, self.utf16 = tuple(units), utf16

    def has_lone_surrogate(self):
        u, i = self.units, 0
        while i < len(u):
            if 0xD800 <= u[i] <= 0xDBFF and i + 1 < len(u) and 0xDC00 <= u[i + 1] <= 0xDFFF:
                i += 2
            elif 0xD800 <= u[i] <= 0xDFFF:
                return True
            else:
                i += 1
        return False


def units_of(text):
    b = text.encode("utf-16-le", "surrogatepass")
    return struct.unpack(f"<{len(b) // 2}H", b)


def text_of(units):
    return struct.pack(f"<{len(units)}H", *units).decode("utf-16-le", "surrogatepass")


class Doc:
    def __init__(self):
        self.text = Str(())
        self.starts, self.lengths = [], []
        self.columns = [[] for _ in TOKEN_COLUMNS]  # string ids per column
        self.heads = []  # stored deltas
        self.sent = []
        self.padding = 0  # the bits after the last mark
        self.conf_mode, self.conf = 0, []  # conf: 32-bit patterns, one per token
        self.ents = None  # None, or [(start, length, label id, conf bits)]
        self.cats = None  # None, or [(label id, score bits)]
        self.spans = []  # [(name id, [(start, length, label id, conf bits)])]


class Container:
    def __init__(self, fmt, crc):
        self.format, self.crc = fmt, crc
        self.strings = [Str(())]  # entry 0 is the unstored empty string
        self.docs = []
        self.sections = {}  # part ("body", "record N") -> section ids in order, unknown ones too
        self.fields = []  # (part, name, value, length) of every varint-bearing field


class _Cursor:
    def __init__(self, data, pos, end):
        self.data, self.pos, self.end = data, pos, end

    def left(self):
        return self.end - self.pos

    def take(self, n, code="field.truncated"):
        if n > self.left():
            raise FormatError(code, self.pos)
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def u8(self):
        return self.take(1)[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def varint(self):
        value, at = 0, self.pos
        for k in range(5):
            if self.pos >= self.end:
                raise FormatError("varint.truncated", at)
            b = self.data[self.pos]
            self.pos += 1
            if k == 4 and b & 0x80:
                raise FormatError("varint.too-long", at)
            if k == 4 and b & 0x70:
                raise FormatError("varint.overflow", at)
            value |= (b & 0x7F) << (7 * k)
            if not b & 0x80:
                return value
        raise AssertionError("unreachable")

    def signed(self):
        u = self.varint()
        return (u >> 1) ^ -(u & 1)

    def float_bits(self):
        return self.u32()


def _confidence_ok(bits):
    f = struct.unpack("<f", struct.pack("<I", bits))[0]
    return 0.0 <= f <= 1.0  # False for NaN


class _Reader:
    def __init__(self, data, relax):
        self.data, self.relax, self.c = bytes(data), frozenset(relax), None

    def fail(self, code, at, detail=""):
        if code not in self.relax:
            raise FormatError(code, at, detail)

    def field(self, part, name, value, start, cur):
        self.c.fields.append((part, name, value, cur.pos - start))

    def container(self):
        d = self.data
        if len(d) < 12:
            raise FormatError("header.truncated", len(d))
        if d[:4] not in (b"ONDC", b"ONDB"):
            raise FormatError("header.bad-magic", 0)
        version, flags, body = struct.unpack("<HHI", d[4:12])
        if version != 1:
            raise FormatError("header.bad-version", 4)
        if flags not in (0, 1):
            raise FormatError("header.bad-flags", 6)
        end = 12 + body + 4 * flags
        if len(d) < end:
            raise FormatError("container.truncated", len(d))
        if len(d) > end:
            raise FormatError("container.trailing-bytes", end)
        self.c = Container(d[:4].decode(), bool(flags))
        self.sections(_Cursor(d, 12, 12 + body), "body")
        if flags and zlib.crc32(d[:end - 4]) != struct.unpack("<I", d[end - 4:end])[0]:
            raise FormatError("crc.mismatch", end - 4)
        return self.c

    def sections(self, cur, part):
        """The sections of a body or a record, each handed to its reader."""
        if part == "body":
            known = {1, 2, 3, 4, 6, 7} if self.c.format == "ONDC" else {1, 5}
            required = [1, 2, 3] if self.c.format == "ONDC" else [1, 5]
        else:
            known, required = {2, 3, 4}, [2, 3]
        ids, doc, last = self.c.sections.setdefault(part, []), Doc(), -1
        while cur.left():
            at = cur.pos
            if cur.left() < 5:
                raise FormatError("section.truncated", at)
            sid = cur.u8()
            length = cur.u32()
            if length > cur.left():
                raise FormatError("section.length-out-of-range", at + 1)
            if sid <= last:
                raise FormatError("section.out-of-order", at)
            if sid in known and any(r < sid and r not in ids for r in required):
                raise FormatError("section.missing", at)  # where the missing one was due
            last = sid
            ids.append(sid)
            sec = _Cursor(self.data, cur.pos, cur.pos + length)
            cur.pos += length
            if sid not in known:
                if 1 <= sid <= 7:
                    self.fail("section.misplaced", at)  # relaxed: skipped like an unknown id
                continue
            {1: self.table, 2: self.text, 3: self.tokens, 4: self.entities, 5: self.records,
             6: self.categories, 7: self.span_groups}[sid](sec, part, doc)
            if sec.left():
                raise FormatError("section.trailing-bytes", sec.pos)
            if sid == 4 and not doc.starts:  # checked once the section read well (rulings R22)
                self.fail("entities.without-tokens", at)
            if sid == 7 and not doc.spans:
                self.fail("spans.no-groups", at)
        for r in required:
            if r not in ids:
                raise FormatError("section.missing", cur.pos)
        if not (part == "body" and self.c.format == "ONDB"):
            self.c.docs.append(doc)

    def table(self, cur, part, doc):
        at = cur.pos
        count = cur.varint()
        self.field(part, "strings.count", (count,), at, cur)
        if count > cur.left():
            raise FormatError("table.count-out-of-range", at)
        for i in range(1, count + 1):
            at = cur.pos
            self.c.strings.append(self.string(cur, "string"))
            s = self.c.strings[-1]
            self.field(part, f"strings[{i}]", (s.units, s.utf16), at, cur)

    def string(self, cur, kind, h=None, at=None):
        at = cur.pos if at is None else at
        h = cur.varint() if h is None else h
        if h >> 1 > cur.left():  # reported at the string's first byte, its length varint
            raise FormatError("string.truncated", at)
        raw = cur.take(h >> 1)
        if h & 1:
            if len(raw) % 2:
                raise FormatError(f"{kind}.odd-utf16-length", at)
            return Str(struct.unpack(f"<{len(raw) // 2}H", raw), True)
        try:
            return Str(units_of(raw.decode("utf-8")))
        except UnicodeDecodeError:
            raise FormatError(f"{kind}.invalid-utf8", at) from None

    def text(self, cur, part, doc):
        at = cur.pos
        enc = cur.u8()
        if enc not in (0, 1):
            raise FormatError("text.bad-encoding", at)
        doc.text = self.string(cur, "text", (cur.left() << 1) | enc, at + 1)

    def index(self, cur, code="table.index-out-of-range"):
        at = cur.pos
        i = cur.varint()
        if i >= len(self.c.strings):
            raise FormatError(code, at)
        return i

    def label(self, cur, what, missing):
        at = cur.pos
        i = self.index(cur)
        if i == 0:
            raise FormatError(missing, at)
        if not self.c.strings[i].units:
            self.fail(f"{what}-empty", at)
        return i

    def tokens(self, cur, part, doc):
        at = cur.pos
        n = cur.varint()
        self.field(part, "tokens.count", (n,), at, cur)
        if n > MAX_TOKENS:
            raise FormatError("tokens.count-too-large", at)
        if 9 * n > cur.left():
            raise FormatError("tokens.count-exceeds-bytes", at)
        end, size = 0, len(doc.text.units)
        for i in range(n):
            at = cur.pos
            gap, length = cur.varint(), cur.varint()
            if length == 0:
                raise FormatError("tokens.empty", at)
            if end + gap + length > size:
                raise FormatError("tokens.out-of-text", at)
            doc.starts.append(end + gap)
            doc.lengths.append(length)
            end += gap + length
            self.field(part, f"tokens.span[{i}]", (gap, length), at, cur)
        for c, name in enumerate(TOKEN_COLUMNS):
            for i in range(n):
                at = cur.pos
                sid = self.index(cur)
                doc.columns[c].append(sid)
                self.field(part, f"tokens.{name}[{i}]", (sid, self.c.strings[sid].units), at, cur)
        for i in range(n):
            at = cur.pos
            delta = cur.signed()
            if not 0 <= i + delta < n:
                raise FormatError("tokens.head-out-of-range", at)
            doc.heads.append(delta)
            self.field(part, f"tokens.head[{i}]", (delta,), at, cur)
        at = cur.pos
        marks = cur.take(-(-n // 4))  # one field: a cut one is reported at its first byte
        for b, byte in enumerate(marks):
            for k in range(4):
                v = (byte >> (2 * k)) & 3
                if 4 * b + k < n:
                    if v == 3:
                        raise FormatError("tokens.bad-sentence-value", at + b)
                    doc.sent.append(v)
                elif v:
                    doc.padding |= v << (2 * k)
            if doc.padding:
                self.fail("tokens.sentence-padding", at + b)
        at = cur.pos
        doc.conf_mode = cur.u8()
        if doc.conf_mode not in (0, 1):
            raise FormatError("tokens.bad-confidence-mode", at)
        at = cur.pos
        floats = cur.take(4 * n if doc.conf_mode else 0)  # one field, like the sentence marks
        for i in range(n if doc.conf_mode else 0):
            bits = struct.unpack_from("<I", floats, 4 * i)[0]
            if not _confidence_ok(bits):
                raise FormatError("tokens.confidence-out-of-range", at + 4 * i)
            doc.conf.append(bits)
        if not doc.conf_mode:
            doc.conf = [ONE] * n

    def entities(self, cur, part, doc):
        at = cur.pos
        count = cur.varint()
        self.field(part, "entities.count", (count,), at, cur)
        if 7 * count > cur.left():
            raise FormatError("entities.count-exceeds-bytes", at)
        doc.ents, end = [], 0
        for i in range(count):
            at = cur.pos
            gap, length = cur.varint(), cur.varint()
            if length == 0:
                raise FormatError("entities.empty", at)
            if end + gap + length > len(doc.starts):
                raise FormatError("entities.out-of-range", at)
            label = self.label(cur, "entities.label", "entities.label-missing")
            conf_at = cur.pos
            conf = cur.float_bits()
            if not _confidence_ok(conf):
                raise FormatError("entities.confidence-out-of-range", conf_at)
            doc.ents.append((end + gap, length, label, conf))
            end += gap + length
            self.field(part, f"entities[{i}]", (gap, length, label, self.c.strings[label].units, conf), at, cur)

    def categories(self, cur, part, doc):
        at = cur.pos
        count = cur.varint()
        self.field(part, "categories.count", (count,), at, cur)
        if 5 * count > cur.left():
            raise FormatError("categories.count-exceeds-bytes", at)
        doc.cats, seen = [], set()
        for i in range(count):
            at = cur.pos
            label = self.label(cur, "categories.label", "categories.label-missing")
            units = self.c.strings[label].units
            if units in seen:
                raise FormatError("categories.duplicate-label", at)
            seen.add(units)
            score_at = cur.pos
            score = cur.float_bits()
            if not _confidence_ok(score):
                self.fail("categories.score-out-of-range", score_at)
            doc.cats.append((label, score))
            self.field(part, f"categories[{i}]", (label, units, score), at, cur)

    def span_groups(self, cur, part, doc):
        at = cur.pos
        groups = cur.varint()
        self.field(part, "spans.groups", (groups,), at, cur)
        if 2 * groups > cur.left():
            raise FormatError("spans.group-count-exceeds-bytes", at)
        names = set()
        for g in range(groups):
            at = cur.pos
            name = self.label(cur, "spans.group-name", "spans.group-name-missing")
            units = self.c.strings[name].units
            if units in names:
                self.fail("spans.duplicate-group-name", at)
            names.add(units)
            count_at = cur.pos
            count = cur.varint()
            if 7 * count > cur.left():
                raise FormatError("spans.count-exceeds-bytes", count_at)
            self.field(part, f"spans[{g}]", (name, units, count), at, cur)
            spans = []
            for i in range(count):
                at = cur.pos
                start, length = cur.varint(), cur.varint()
                if length == 0:
                    raise FormatError("spans.empty", at)
                if start + length > len(doc.starts):
                    raise FormatError("spans.out-of-range", at)
                label = self.label(cur, "spans.label", "spans.label-missing")
                conf_at = cur.pos
                conf = cur.float_bits()
                if not _confidence_ok(conf):
                    raise FormatError("spans.confidence-out-of-range", conf_at)
                spans.append((start, length, label, conf))
                self.field(part, f"spans[{g}][{i}]", (start, length, label, self.c.strings[label].units, conf), at, cur)
            doc.spans.append((name, spans))

    def records(self, cur, part, doc):
        at = cur.pos
        count = cur.u32()
        if count > cur.left() // 4:
            raise FormatError("bin.count-exceeds-bytes", at)
        for r in range(count):
            at = cur.pos
            length = cur.u32()
            if length > cur.left():
                raise FormatError("bin.record-length-out-of-range", at)
            self.sections(_Cursor(self.data, cur.pos, cur.pos + length), f"record {r}")
            cur.pos += length
        if cur.left():
            raise FormatError("bin.trailing-bytes", cur.pos)
        if cur.end != 12 + struct.unpack("<I", self.data[8:12])[0]:
            raise FormatError("bin.section-after-records", cur.end)


def read(data, relax=()):
    """The container in `data`; `relax` names implementation-defined checks to let through."""
    return _Reader(data, relax).container()


# ---- content -----------------------------------------------------------------------------------

def _str_json(s):
    if s.has_lone_surrogate():
        return {"utf16": list(s.units)}
    return text_of(s.units)


def _doc_content(c, d, record):
    s = lambda i: _str_json(c.strings[i])
    f = lambda bits: {"f32bits": bits}
    tokens = [{"start": d.starts[i], "length": d.lengths[i],
               **{name: s(d.columns[k][i]) for k, name in enumerate(TOKEN_COLUMNS)},
               "head": i + d.heads[i], "sent": d.sent[i], "conf": f(d.conf[i])} for i in range(len(d.starts))]
    return {"text": _str_json(d.text), "tokens": tokens,
            "ents": None if d.ents is None else [{"start": a, "length": n, "label": s(l), "conf": f(b)}
                                                 for a, n, l, b in d.ents],
            "cats": None if record or d.cats is None else [{"label": s(l), "score": f(b)} for l, b in d.cats],
            "spans": [] if record else [{"name": s(n), "spans": [{"start": a, "length": k, "label": s(l), "conf": f(b)}
                                                                 for a, k, l, b in sp]} for n, sp in d.spans]}


def to_content(c):
    """The content model (docs/protocol.md) of a container read; every Float as {"f32bits": N}."""
    if c.format == "ONDC":
        return {"format": "ONDC", "crc": c.crc, "doc": _doc_content(c, c.docs[0], False)}
    return {"format": "ONDB", "crc": c.crc, "docs": [_doc_content(c, d, True) for d in c.docs]}


# ---- writing -----------------------------------------------------------------------------------

def varint(v, width=None):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v or (width and len(out) + 1 < width):
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def string_bytes(s, utf16=None):
    utf16 = s.utf16 if utf16 is None else utf16
    raw = struct.pack(f"<{len(s.units)}H", *s.units) if utf16 else text_of(s.units).encode("utf-8")
    return varint((len(raw) << 1) | utf16) + raw


def _section(sid, content):
    return bytes([sid]) + struct.pack("<I", len(content)) + content


class Writer:
    """Writes a container read by `read` back to bytes.

    The defaults write what was read (for canonical input, the canonical bytes). Options for
    variants: `ids` maps each old string id to a new one and `table` gives the new table's entries
    (after entry 0); `wide` maps (part, field name) to a varint width for that field;
    `conf_mode` writes that mode byte (and the floats, unless it is 0) for every document; `padding` ORs bits into
    the last sentence byte of every document with a token count not a multiple of 4; `crc`
    overrides the flag.
    """

    def __init__(self, ids=None, table=None, wide=None, conf_mode=None, padding=0, crc=None):
        self.ids, self.table, self.wide = ids, table, wide or {}
        self.conf_mode, self.padding, self.crc = conf_mode, padding, crc

    def id(self, i):
        return self.ids[i] if self.ids else i

    def v(self, part, name, value):
        return varint(value, self.wide.get((part, name)))

    def write(self, c):
        table = self.table if self.table is not None else c.strings[1:]
        t = self.v("body", "strings.count", len(table)) + b"".join(string_bytes(s) for s in table)
        body = _section(1, t)
        if c.format == "ONDC":
            body += self.doc(c.docs[0], "body", True)
        else:
            records = b"".join(struct.pack("<I", len(r)) + r
                               for r in (self.doc(d, f"record {k}", False) for k, d in enumerate(c.docs)))
            body += _section(5, struct.pack("<I", len(c.docs)) + records)
        crc = c.crc if self.crc is None else self.crc
        out = c.format.encode() + struct.pack("<HHI", 1, int(crc), len(body)) + body
        return out + struct.pack("<I", zlib.crc32(out)) if crc else out

    def doc(self, d, part, ondc):
        out = _section(2, self.text(d))
        n = len(d.starts)
        tok = bytearray(self.v(part, "tokens.count", n))
        end = 0
        for i in range(n):
            tok += varint(d.starts[i] - end) + varint(d.lengths[i])
            end = d.starts[i] + d.lengths[i]
        for col in d.columns:
            for sid in col:
                tok += varint(self.id(sid))
        for h in d.heads:
            tok += varint(((h << 1) ^ (h >> 31)) & 0xFFFFFFFF)
        marks = bytearray(-(-n // 4))
        for i, m in enumerate(d.sent):
            marks[i // 4] |= m << (2 * (i % 4))
        if marks:
            marks[-1] |= d.padding | (self.padding if n % 4 else 0)
        tok += marks
        mode = d.conf_mode if self.conf_mode is None else self.conf_mode
        tok += bytes([mode]) + (b"".join(struct.pack("<I", b) for b in d.conf) if mode else b"")
        out += _section(3, bytes(tok))
        if d.ents is not None:
            ents, end = bytearray(varint(len(d.ents))), 0
            for a, k, l, b in d.ents:
                ents += varint(a - end) + varint(k) + varint(self.id(l)) + struct.pack("<I", b)
                end = a + k
            out += _section(4, bytes(ents))
        if ondc and d.cats is not None:
            out += _section(6, varint(len(d.cats)) + b"".join(varint(self.id(l)) + struct.pack("<I", b) for l, b in d.cats))
        if ondc and d.spans:
            sp = bytearray(varint(len(d.spans)))
            for name, spans in d.spans:
                sp += varint(self.id(name)) + varint(len(spans))
                for a, k, l, b in spans:
                    sp += varint(a) + varint(k) + varint(self.id(l)) + struct.pack("<I", b)
            out += _section(7, bytes(sp))
        return out

    @staticmethod
    def text(d):
        s = d.text
        raw = struct.pack(f"<{len(s.units)}H", *s.units) if s.utf16 else text_of(s.units).encode("utf-8")
        return bytes([int(s.utf16)]) + raw


def write(c, **options):
    return Writer(**options).write(c)
