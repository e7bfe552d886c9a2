#!/usr/bin/env python3
"""Exports the corpus as a consumer vendors it, without the C++ tool: the same tree, byte for
byte, as `ond corpus export` writes (README "Licence, versions and export" describes it).

  python3 export.py [--corpus DIR] [--no-listings] [--replace-added] OUT

DIR is the corpus folder (default: the folder above this script, i.e. the corpus this script
came with, a checkout's corpus/ or an export). OUT must be new, empty, or an earlier export (then
replaced whole; files a user added there are listed and the export refused, exit 2, unless
--replace-added). Standard library only; Python 3.8 or later.
"""

import argparse
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

TOP_FILES = ("README.md", "manifest.json", "rules.json", "writer-rules.json", "LICENSE", "CHANGELOG.md")
DIRS = ("cases", "regressions", "changes", "tools")
LINK = re.compile(r"\]\(([^) \t\n\r\f\v]+)\)")
RULE_DOC = re.compile(r'"doc": "([^"]*)"')


class ExportError(Exception):
    pass


def release_url(version):
    return f"https://github.com/recursive-ai-oss/ond-conform/blob/v{version}/"


def corpus_files(root):
    """The corpus's files, relative, sorted by their bytes; a link or special file is refused."""
    out = []

    def regular(path):
        if path.is_symlink() or not path.is_file():
            raise ExportError(f"{path} is not a regular file (a link or a special file); the corpus holds none")
        out.append(path.relative_to(root).as_posix())

    for name in TOP_FILES:
        if os.path.lexists(root / name):
            regular(root / name)
    for name in DIRS:
        top = root / name
        if not os.path.lexists(top):
            continue
        if top.is_symlink() or not top.is_dir():
            raise ExportError(f"{top} is not a directory")
        for folder, subdirs, files in os.walk(top):  # does not descend through links
            subdirs[:] = [d for d in subdirs if d != "__pycache__" or (pathlib.Path(folder) / d).is_symlink()]
            for d in subdirs:
                if (pathlib.Path(folder) / d).is_symlink():
                    regular(pathlib.Path(folder) / d)  # refused
            for f in files:
                if not f.endswith(".pyc"):
                    regular(pathlib.Path(folder) / f)
    return sorted(out, key=lambda p: p.encode("utf-8"))


def has_scheme(target):
    colon = target.find(":")
    slash = target.find("/")
    return colon >= 0 and (slash < 0 or colon < slash)


def is_exported(path, exported):
    return path in exported or any(p.startswith(path + "/") for p in exported)


def rewrite_target(target, rel, exported, version):
    """One link of a Markdown file at REL in the export: read from the repository's corpus/
    folder; to the exported file relative to REL's folder, else to the tagged release."""
    if not target or target.startswith("#") or has_scheme(target):
        return target
    path, hash_, fragment = target.partition("#")
    fragment = hash_ + fragment
    slash = "/" if path.endswith("/") else ""
    base = ("corpus/" + rel).split("/")[:-1]
    stack = list(base)
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part != "..":
            stack.append(part)
        elif not stack:
            return target  # above the repository: left as it is (the link test reports it)
        else:
            stack.pop()
    if len(stack) > 1 and stack[0] == "corpus" and is_exported("/".join(stack[1:]), exported):
        common = 0
        while common + 1 < len(base) and common + 1 < len(stack) and base[common + 1] == stack[common + 1]:
            common += 1
        out = [".."] * (len(base) - 1 - common) + stack[common + 1:]
        return ("/".join(out) if out else ".") + slash + fragment
    return release_url(version) + "/".join(stack) + slash + fragment


def rewrite_markdown_links(text, rel, exported, version):
    return LINK.sub(lambda m: "](" + rewrite_target(m.group(1), rel, exported, version) + ")", text)


def rewrite_rule_docs(text, version):
    def one(m):
        doc = m.group(1)
        keep = not doc or has_scheme(doc) or doc.startswith("/")
        return '"doc": "' + (doc if keep else release_url(version) + doc) + '"'
    return RULE_DOC.sub(one, text)


def is_earlier_export(folder):
    version = folder / "VERSION"
    if version.is_symlink() or not version.is_file():
        return False
    return version.read_bytes().split(b"\n", 1)[0].startswith(b"format_version ")


def corpus_commit(root):
    """An export names its commit in VERSION; a checkout's corpus is at git's HEAD; a release's
    source archive names its commit in cmake/source-commit.txt (git archive fills it in)."""
    if is_earlier_export(root):
        for line in (root / "VERSION").read_bytes().decode("utf-8").split("\n"):
            if line.startswith("commit "):
                return line[len("commit "):]
        return "unknown"
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    commit = head.stdout.strip()
    if head.returncode == 0 and re.fullmatch(r"[0-9a-f]+", commit):
        return commit
    archived = root / ".." / "cmake" / "source-commit.txt"
    if archived.is_file():
        commit = archived.read_text(encoding="utf-8").strip()
        if re.fullmatch(r"[0-9a-f]{40}", commit):
            return commit
    return "unknown"


def added_files(folder):
    ours = {"VERSION"}
    for line in (folder / "VERSION").read_bytes().decode("utf-8", "replace").split("\n"):
        if line.find("  ") == 64:
            ours.add(line[66:])
    added = []
    for dirpath, _, files in os.walk(folder):
        for f in files:
            rel = (pathlib.Path(dirpath) / f).relative_to(folder).as_posix()
            if rel not in ours:
                added.append(rel)
    return sorted(added)


def export(root, out, listings=True, replace_added=False):
    root = pathlib.Path(root)
    out = pathlib.Path(out)
    files = corpus_files(root)
    manifest = json.loads((root / "manifest.json").read_bytes())
    for case in manifest["cases"]:
        for rel, want in sorted(case.get("sha256", {}).items()):
            if not listings and rel == case.get("listing"):
                continue  # not read: an export made with --no-listings has none
            if hashlib.sha256((root / rel).read_bytes()).hexdigest() != want:
                raise ExportError(f"{rel} does not match its SHA-256 in the manifest")
    if not listings:
        dropped = {c["listing"] for c in manifest["cases"] if c.get("listing")}
        files = [f for f in files if f not in dropped]
    exported = set(files)
    version = manifest["corpus_version"]

    replacing = False
    if out.is_symlink():
        raise ExportError(f"{out} is a symbolic link; refusing to write through it")
    if out.exists():
        if not out.is_dir():
            raise ExportError(f"{out} exists and is not a directory")
        if any(out.iterdir()):
            if not is_earlier_export(out):
                raise ExportError(f"{out} is not empty and is not an earlier export (no VERSION file); refusing to touch it")
            replacing = True
            added = added_files(out)
            if added and not replace_added:
                print(f"export.py: {out} holds {len(added)} file(s) that the earlier export did not write; they would "
                      "be deleted. Move them out, or pass --replace-added to delete them:", file=sys.stderr)
                for f in added:
                    print(f"  {f}", file=sys.stderr)
                return 2
    out_abs = pathlib.Path(os.path.abspath(out))
    out_abs.parent.mkdir(parents=True, exist_ok=True)
    fresh = pathlib.Path(tempfile.mkdtemp(prefix=f".{out_abs.name}.export-", dir=out_abs.parent))
    try:
        digests = []
        for rel in files:
            data = (root / rel).read_bytes()
            if rel.endswith(".md"):
                data = rewrite_markdown_links(data.decode("utf-8"), rel, exported, version).encode("utf-8")
            if rel == "rules.json":
                data = rewrite_rule_docs(data.decode("utf-8"), version).encode("utf-8")
            dst = fresh / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(data)
            os.chmod(dst, 0o644)
            digests.append(f"{hashlib.sha256(data).hexdigest()}  {rel}\n")
        body = "".join(digests)
        head = (f"format_version {manifest['format_version']}\ncorpus_version {version}\n"
                f"commit {corpus_commit(root)}\ncases {len(manifest['cases'])}\n"
                f"listings {'yes' if listings else 'no'}\n"
                f"files_sha256 {hashlib.sha256(body.encode('utf-8')).hexdigest()}\n")
        (fresh / "VERSION").write_bytes((head + body).encode("utf-8"))
        os.chmod(fresh / "VERSION", 0o644)
        os.chmod(fresh, 0o755)
        if replacing:
            aside = pathlib.Path(tempfile.mkdtemp(prefix=f".{out_abs.name}.old-", dir=out_abs.parent))
            os.rename(out_abs, aside / "old")
            os.rename(fresh, out_abs)
            shutil.rmtree(aside)
        else:
            if out_abs.exists():
                out_abs.rmdir()  # an empty directory
            os.rename(fresh, out_abs)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    print(f"exported {len(files)} files ({len(manifest['cases'])} cases{'' if listings else ', no listings'}) to {out}"
          + (", replacing the earlier export there" if replacing else ""))
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=str(pathlib.Path(__file__).resolve().parent.parent))
    parser.add_argument("--no-listings", action="store_true", help="leave out the cases' annotated listings (.txt)")
    parser.add_argument("--replace-added", action="store_true", help="delete files a user added to an earlier export")
    parser.add_argument("out")
    args = parser.parse_args(argv)
    try:
        return export(args.corpus, args.out, not args.no_listings, args.replace_added)
    except (ExportError, OSError, ValueError, KeyError) as e:
        print(f"export.py: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
