"""Which canonical-writer rules (W1-W5) some bytes break, standard library only.

Given the bytes a writer produced for an encode case's content and the case's canonical bytes (its
`expected` file), names each writer rule the bytes break, with the rule's id and level from
corpus/writer-rules.json: the same findings as the conformance runner's writer judge. Every check
is a function keyed by its `check` name in that file.

    python3 writer_rules.py [--relax CODE] CANONICAL TESTEE   # a JSON line per finding; exit 1 if required

Two findings are not writer rules: "decode" (required) when the bytes do not read at all, and
"unidentified" (recommended) when they differ from the canonical bytes but break no rule. The
rules judge only the bytes' form: whether they decode to the case's content is a separate check
(same_content of their decoding), which the caller makes.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ond_format as fmt  # noqa: E402

RULES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "writer-rules.json")

# Implementation-defined checks a testee's section may meet only because the canonical writer would
# leave the section out (a section 4 without tokens, a section 7 without groups): read past them so
# that W2 names the section.
_LEFT_OUT = ("entities.without-tokens", "spans.no-groups")


def load_rules(path=RULES_FILE):
    with open(path, encoding="utf-8") as f:
        return json.load(f)["writer_rules"]


class Finding:
    def __init__(self, rule, level, message):
        self.rule, self.level, self.message = rule, level, message

    def to_json(self):
        return {"rule": self.rule, "level": self.level, "message": self.message}


def _traverse(doc, token_by_token):
    """String ids in one traversal: the body's bytes (columns one after another) or token by token;
    then entity labels, category labels, group names and span labels."""
    if token_by_token:
        for i in range(len(doc.starts)):
            for col in doc.columns:
                yield col[i]
    else:
        for col in doc.columns:
            yield from col
    for e in doc.ents or ():
        yield e[2]
    for c in doc.cats or ():
        yield c[0]
    for name, spans in doc.spans:
        yield name
        for s in spans:
            yield s[2]


def _first_uses(c, token_by_token):
    seen, firsts = set(), []
    for d in c.docs:
        for i in _traverse(d, token_by_token):
            if i and i not in seen:
                seen.add(i)
                firsts.append(i)
    return firsts


def _out_of_order(firsts):
    return next((k for k in range(1, len(firsts)) if firsts[k] < firsts[k - 1]), None)


# ---- the checks, keyed by their name in writer-rules.json; each returns a message or None --------

def utf8_strings(canon, testee):
    for i, s in enumerate(testee.strings[1:], 1):
        if s.utf16 and not s.has_lone_surrogate():
            return f"W1: string table entry {i} is stored as UTF-16, though it is well-formed"
    for k, d in enumerate(testee.docs):
        if d.text.utf16 and not d.text.has_lone_surrogate():
            return f"W1: the text of document {k} is stored as UTF-16, though it is well-formed"
    return None


def minimal_varints(canon, testee):
    """A field with the same place, name and value as a canonical one, written in more bytes."""
    want = {}
    for part, name, value, length in canon.fields:
        want.setdefault((part, name), (value, length))
    for part, name, value, length in testee.fields:
        w = want.get((part, name))
        if w and w[0] == value and w[1] < length:
            return f"W1: {part} {name} takes {length} bytes; its minimal form takes {w[1]}"
    return None


def sections_written(canon, testee):
    for part in sorted(testee.sections):
        if testee.sections[part] != canon.sections.get(part, []):
            return f"W2: the {part} has sections {testee.sections[part]}, the canonical writer writes " \
                   f"{canon.sections.get(part, [])}"
    return None


def table_only_used(canon, testee):
    used = set(_first_uses(testee, False))
    unused = [i for i in range(1, len(testee.strings)) if i not in used]
    return f"W3: string table entry {unused[0]} is not referenced by the body" if unused else None


def first_use_order(canon, testee):
    by_bytes, by_tokens = _first_uses(testee, False), _first_uses(testee, True)
    k = _out_of_order(by_bytes)
    if k is not None and _out_of_order(by_tokens) is not None:
        return f"W3: string table entry {by_bytes[k]} is first used after entry {max(by_bytes[:k])} " \
               "(neither the body's byte order nor token-by-token order)"
    return None


def canonical_numbering(canon, testee):
    by_bytes, by_tokens = _first_uses(testee, False), _first_uses(testee, True)
    k = _out_of_order(by_bytes)
    if k is not None and _out_of_order(by_tokens) is None:
        return f"W3: the string table is numbered token by token (entry {by_bytes[k]} comes too early)"
    seen = {}
    for i, s in enumerate(testee.strings[1:], 1):
        if not s.units:
            return f"W3: string table entry {i} is a stored empty string"
        if s.units in seen:
            return f"W3: string table entries {seen[s.units]} and {i} hold the same string"
        seen[s.units] = i
    return None


def confidence_mode(canon, testee):
    for k, d in enumerate(testee.docs):
        if d.conf_mode == 1 and all(b == fmt.ONE for b in d.conf):
            return f"W4: document {k} writes confidence mode 1, though every confidence is 1.0"
    return None


def zero_padding(canon, testee):
    return None  # a non-zero padding bit stops the reading: judge() reports it before any check


def crc_flag(canon, testee):
    if canon.crc != testee.crc:
        return f"W5: flags bit 0 is {int(testee.crc)}, but a trailer was {'' if canon.crc else 'not '}asked for"
    return None


CHECKS = {f.__name__: f for f in (utf8_strings, minimal_varints, sections_written, table_only_used,
                                  first_use_order, canonical_numbering, confidence_mode, zero_padding,
                                  crc_flag)}


def _read_testee(testee, relax):
    relax = list(relax)
    while True:
        try:
            return fmt.read(testee, relax), None
        except fmt.FormatError as e:
            if e.code in _LEFT_OUT and e.code not in relax:
                relax.append(e.code)
                continue
            return None, e


def judge(canonical, testee, rules=None, relax=()):
    """The findings for `testee`, bytes written for the content whose canonical bytes are `canonical`.

    `relax`: implementation-defined reader checks to let through in both (for an encode-impl
    case, the check its content meets: its canonical bytes are the if-accepted bytes)."""
    rules = rules if rules is not None else load_rules()
    if canonical == testee:
        return []
    by_check = {r["check"]: r for r in rules}
    canon = fmt.read(canonical, relax)
    tc, fault = _read_testee(testee, relax)
    if fault is not None:
        if fault.code == "tokens.sentence-padding":
            r = by_check["zero_padding"]
            return [Finding(r["id"], r["level"], f"W5: sentence padding bits are not 0 ({fault})")]
        return [Finding("decode", "required", f"the bytes do not decode: {fault}")]
    found = []
    for r in rules:
        message = CHECKS[r["check"]](canon, tc)
        if message:
            found.append(Finding(r["id"], r["level"], message))
    return found or [Finding("unidentified", "recommended",
                             "the bytes differ from the canonical bytes, but no writer rule was identified")]


def main(argv):
    relax = []
    while len(argv) > 2 and argv[1] == "--relax":
        relax.append(argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) != 3:
        print("usage: writer_rules.py [--relax CODE] CANONICAL TESTEE", file=sys.stderr)
        return 2
    with open(argv[1], "rb") as a, open(argv[2], "rb") as b:
        found = judge(a.read(), b.read(), relax=relax)
    for f in found:
        print(json.dumps(f.to_json()))
    return 1 if any(f.level == "required" for f in found) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
