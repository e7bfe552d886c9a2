#!/usr/bin/env python3
"""Every place that names the release's version says what the file VERSION says: `ond --version`,
the corpus manifest's corpus_version, the CMake package's version file, the .deb's version
(CPackConfig.cmake), the README's find_package and action tag, and the install test's and
the examples' find_package.

  versions_agree.py --ond PATH_TO_ond --build BUILD_DIR
"""

import argparse
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ond", required=True)
    parser.add_argument("--build", required=True)
    args = parser.parse_args()
    build = pathlib.Path(args.build)
    version = (ROOT / "VERSION").read_text().strip()
    major_minor = ".".join(version.split(".")[:2])
    found = {
        "ond --version": subprocess.run([args.ond, "--version"], capture_output=True, text=True,
                                        timeout=60).stdout.strip(),
        "corpus/manifest.json corpus_version": json.loads((ROOT / "corpus/manifest.json").read_text())["corpus_version"],
    }
    want = {"ond --version": f"ond {version}", "corpus/manifest.json corpus_version": version}

    def grep(label, path, pattern, expected):
        m = re.search(pattern, path.read_text(), re.M)
        found[label] = m.group(1) if m else None
        want[label] = expected

    grep("CMake package version", build / "ondConfigVersion.cmake", r'^set\(PACKAGE_VERSION "([^"]*)"\)', version)
    grep(".deb version (CPACK_PACKAGE_VERSION)", build / "CPackConfig.cmake",
         r'^set\(CPACK_PACKAGE_VERSION "([^"]*)"\)', version)
    grep("README find_package", ROOT / "README.md", r"find_package\(ond ([0-9.]+) REQUIRED\)", major_minor)
    grep("README action tag", ROOT / "README.md", r"recursive-ai-oss/ond-conform@v([0-9.]+)", version)
    grep("install test find_package", ROOT / "cmake/install-test/CMakeLists.txt",
         r"find_package\(ond ([0-9.]+) REQUIRED\)", major_minor)
    grep("examples find_package", ROOT / "examples/CMakeLists.txt", r"find_package\(ond ([0-9.]+) REQUIRED\)",
         major_minor)
    bad = [f"{k}: {found[k]!r}, want {want[k]!r}" for k in want if found[k] != want[k]]
    for b in bad:
        print(f"version disagrees with VERSION ({version}): {b}")
    if not bad:
        print(f"all {len(want)} places say {version}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
