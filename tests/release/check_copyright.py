#!/usr/bin/env python3
"""Checks a Debian copyright file in the machine-readable format 1.0 (DEP-5) as the .deb installs
it (/usr/share/doc/ond/copyright): a header paragraph with Format, Upstream-Name and Source;
Files paragraphs each with Files, Copyright and License; every licence they name given its text
in a License paragraph; the code under Apache-2.0 and corpus/* under CC0-1.0.

  check_copyright.py FILE
"""

import re
import sys

FORMAT = "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"


def paragraphs(text):
    """Each paragraph as {field: value}, a continuation line (leading space) joined to its field."""
    out = []
    for block in re.split(r"\n[ \t]*\n", text.strip("\n")):
        fields, last = {}, None
        for line in block.split("\n"):
            if line.startswith((" ", "\t")) and last:
                fields[last] += "\n" + line.strip()
            elif re.match(r"^[A-Za-z][A-Za-z0-9-]*:", line):
                last, _, value = line.partition(":")
                if last in fields:
                    raise ValueError(f"field {last} twice in one paragraph")
                fields[last] = value.strip()
            else:
                raise ValueError(f"not a field or a continuation line: {line!r}")
        out.append(fields)
    return out


def check(text):
    paras = paragraphs(text)
    problems = []
    header = paras[0]
    if header.get("Format") != FORMAT:
        problems.append(f"the first paragraph's Format is {header.get('Format')!r}, not {FORMAT}")
    for field in ("Upstream-Name", "Source"):
        if not header.get(field):
            problems.append(f"the header has no {field}")
    files = [p for p in paras[1:] if "Files" in p]
    texts = {p["License"].split("\n")[0]: p["License"] for p in paras[1:] if "Files" not in p and "License" in p}
    licence_of = {}
    for p in files:
        for field in ("Copyright", "License"):
            if not p.get(field):
                problems.append(f"Files: {p['Files']} has no {field}")
        name = p.get("License", "").split("\n")[0]
        licence_of[p["Files"]] = name
        if "\n" not in p.get("License", "") and "\n" not in texts.get(name, ""):
            problems.append(f"licence {name} (Files: {p['Files']}) has no text")
    for pattern, want in (("*", "Apache-2.0"), ("corpus/*", "CC0-1.0")):
        if licence_of.get(pattern) != want:
            problems.append(f"Files: {pattern} is under {licence_of.get(pattern)!r}, not {want}")
    return problems


def main(path):
    try:
        problems = check(open(path, encoding="utf-8").read())
    except (OSError, ValueError, IndexError) as e:
        problems = [str(e)]
    for p in problems:
        print(f"{path}: {p}")
    if not problems:
        print(f"{path}: Debian copyright format 1.0, Apache-2.0 and CC0-1.0")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
