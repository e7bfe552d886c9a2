"""The codec's internal surface holds: nothing of codec/src is reachable from outside codec/.

Fails (exit 1, one line per finding) when
  - a source file outside codec/ includes a header of codec/src (by a path naming codec/src, or by
    the name of a codec/src header that is not beside the including file);
  - a CMake file (CMakeLists.txt, *.cmake) outside codec/ names codec/src;
  - the headers of codec/internal/ond/internal/ and the list in codec/internal/ond/internal.hpp
    differ (each header must be listed there with what it is for and who uses it);
  - with --build DIR (a Ninja build): a compile step of a target outside codec/ has codec/src on
    its include path.

  check_codec_surface.py --root SOURCE_DIR [--build BUILD_DIR]
  check_codec_surface.py --self-test    (plants each kind of fault in a scratch tree)
"""
import argparse
import re
import sys
import tempfile
from pathlib import Path

SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".cc", ".c", ".inc", ".def"}
SKIPPED_DIRS = {".git", "build", "node_modules"}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
LISTED = re.compile(r"^//\s*(ond/internal/[A-Za-z0-9_]+\.hpp)\b", re.M)


def files_outside_codec(root):
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if rel.parts[0] == "codec" or SKIPPED_DIRS & set(rel.parts[:-1]) or not path.is_file():
            continue
        yield path, rel


def check_sources(root):
    src = root / "codec" / "src"
    private = {p.name for p in src.iterdir() if p.suffix in {".hpp", ".h", ".inc"}}
    for path, rel in files_outside_codec(root):
        if path.suffix not in SOURCE_SUFFIXES:
            continue
        for m in INCLUDE.finditer(path.read_text(errors="replace")):
            name = m.group(1)
            line = path.read_text(errors="replace").count("\n", 0, m.start()) + 1
            if "codec/src" in name or "../src/" in name:
                yield f"{rel}:{line}: includes {name}, a path into codec/src"
            elif "/" not in name and name in private and not (path.parent / name).exists():
                yield f"{rel}:{line}: includes {name}, a header of codec/src (use ond/internal/ or the public API)"


def check_cmake(root):
    for path, rel in files_outside_codec(root):
        if path.name != "CMakeLists.txt" and path.suffix != ".cmake":
            continue
        for n, text in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if "codec/src" in text:
                yield f"{rel}:{n}: names codec/src (link ond::codec_internal instead)"


def check_listing(root):
    folder = root / "codec" / "internal" / "ond" / "internal"
    present = {f"ond/internal/{p.name}" for p in folder.glob("*.hpp")}
    doc = root / "codec" / "internal" / "ond" / "internal.hpp"
    listed = set(LISTED.findall(doc.read_text())) if doc.exists() else set()
    for h in sorted(present - listed):
        yield f"codec/internal/{h}: not listed in codec/internal/ond/internal.hpp"
    for h in sorted(listed - present):
        yield f"codec/internal/ond/internal.hpp: lists {h}, which does not exist"


def check_build(root, build):
    ninja = build / "build.ninja"
    if not ninja.exists():
        yield f"{ninja}: no Ninja build to check the include paths of"
        return
    src = str((root / "codec" / "src").resolve())
    target = None
    for text in ninja.read_text().splitlines():
        m = re.match(r"build (?:(\S+?)/)?CMakeFiles/([^/]+)\.dir/\S*\.o: ", text)
        if m or text.startswith("build "):
            target = m and (m.group(1) or "", m.group(2))
        elif target and text.startswith("  INCLUDES = ") and target[0].split("/")[0] != "codec":
            if re.search(re.escape(src) + r"(\s|/?$)", text):
                yield f"target {target[1]} ({target[0]}/): codec/src is on its include path"


def run(root, build):
    findings = [*check_sources(root), *check_cmake(root), *check_listing(root)]
    if build:
        findings += list(check_build(root, build))
    return findings


def self_test():
    """Each planted fault is found; the clean tree passes."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "codec/src").mkdir(parents=True)
        (root / "codec/src/cursor.hpp").write_text("#pragma once\n")
        (root / "codec/internal/ond/internal").mkdir(parents=True)
        (root / "codec/internal/ond/internal/framing.hpp").write_text("#pragma once\n")
        (root / "codec/internal/ond/internal.hpp").write_text("// ond/internal/framing.hpp  the framing\n")
        (root / "fuzz").mkdir()
        (root / "fuzz/ok.cpp").write_text('#include "ond/internal/framing.hpp"\n#include "mine.hpp"\n')
        (root / "fuzz/mine.hpp").write_text("#pragma once\n")
        (root / "fuzz/CMakeLists.txt").write_text("add_library(x ok.cpp)\n")
        (root / "build/fuzz").mkdir(parents=True)
        ninja = root / "build/build.ninja"
        clean_rule = f"build fuzz/CMakeFiles/x.dir/ok.cpp.o: CXX {root}/fuzz/ok.cpp\n  INCLUDES = -I{root}/codec/internal\n"
        ninja.write_text(clean_rule)
        if run(root, root / "build"):
            print("self-test: the clean tree fails:", run(root, root / "build"))
            return 1
        plants = [
            ("fuzz/a.cpp", '#include "cursor.hpp"\n', "a header of codec/src"),
            ("tests/b.hpp", '#include "../../codec/src/cursor.hpp"\n', "a path into codec/src"),
            ("fuzz/sub/CMakeLists.txt", "add_library(y ${PROJECT_SOURCE_DIR}/codec/src/framing.cpp)\n", "names codec/src"),
            ("codec/internal/ond/internal/extra.hpp", "#pragma once\n", "not listed"),
        ]
        failures = 0
        for rel, text, expected in plants:
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            found = run(root, None)
            if len(found) != 1 or expected not in found[0]:
                print(f"self-test: planting {rel} gave {found}, expected one finding with '{expected}'")
                failures += 1
            path.unlink()
        doc = root / "codec/internal/ond/internal.hpp"
        doc.write_text(doc.read_text() + "// ond/internal/gone.hpp  a header that was removed\n")
        found = run(root, None)
        if len(found) != 1 or "does not exist" not in found[0]:
            print(f"self-test: a stale list entry gave {found}")
            failures += 1
        doc.write_text("// ond/internal/framing.hpp  the framing\n")
        ninja.write_text(clean_rule.replace("codec/internal", "codec/internal -I" + str(root) + "/codec/src"))
        found = run(root, root / "build")
        if len(found) != 1 or "include path" not in found[0]:
            print(f"self-test: codec/src on a fuzz target's include path gave {found}")
            failures += 1
        ninja.write_text(clean_rule.replace("fuzz/CMakeFiles", "codec/CMakeFiles") + "  INCLUDES = -I" + str(root) + "/codec/src\n")
        if run(root, root / "build"):
            print("self-test: codec/src on a codec target's include path was reported")
            failures += 1
        print("self-test:", "ok" if not failures else f"{failures} failures")
        return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path)
    ap.add_argument("--build", type=Path)
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if not args.root:
        ap.error("--root is required")
    findings = run(args.root.resolve(), args.build)
    for f in findings:
        print(f)
    print("codec internal surface:", "ok" if not findings else f"{len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
