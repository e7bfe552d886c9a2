#!/usr/bin/env bash
# The tool alone, packaged and installed: makes the .deb with cpack, unpacks it into a scratch
# root with `dpkg -x`, and runs the installed `ond conform` against the reference codec over the
# installed corpus (found beside the binary, with no OND_CORPUS_DIR). Prints the package's name and
# the run's last line; exits non-zero unless the run PASSED.
#   scripts/package-test.sh [BUILD_DIR]
# Without BUILD_DIR it builds the `tool` preset (a compiler, CMake, CLI11, nlohmann-json, libcrypto
# and zlib; no tests, benchmarks or fuzzers). With one (CI passes its default build, whose `ond` is
# built the same way) it packages that build: only the `tool` component goes into the package.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(cat VERSION)
build=${1:-}
if [ -z "$build" ]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  cmake --preset tool "${launcher[@]}" >/dev/null
  cmake --build --preset tool -j"${OND_JOBS:-$(nproc)}"
  build=build/tool
fi
(cd "$build" && rm -f ond_*.deb && cpack -G DEB >/dev/null)
deb=$(ls "$build"/ond_*.deb)
echo "package: $deb"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] ||
  { echo "package-test: the package's version is $(dpkg-deb -f "$deb" Version), VERSION says $version" >&2; exit 1; }

# Depends as dpkg-shlibdeps finds it for the binary (cmake/deb_depends.cmake): the C and C++ runtimes at least.
depends=$(dpkg-deb -f "$deb" Depends)
case "$depends" in
  *"libc6 (>= "*"libstdc++6 (>= "*) ;;
  *) echo "package-test: the package's Depends is \"$depends\", without the C and C++ runtimes" >&2; exit 1 ;;
esac

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg -x "$deb" "$root"
ond=$root/usr/bin/ond
[ -x "$ond" ] || { echo "package-test: no usr/bin/ond in $deb" >&2; exit 1; }
[ -f "$root/usr/share/ond/corpus/manifest.json" ] || { echo "package-test: no corpus in $deb" >&2; exit 1; }
# The licences: the corpus's beside it, both in Debian's machine-readable copyright file.
[ -f "$root/usr/share/ond/corpus/LICENSE" ] || { echo "package-test: no corpus LICENSE in $deb" >&2; exit 1; }
python3 tests/release/check_copyright.py "$root/usr/share/doc/ond/copyright" ||
  { echo "package-test: no valid /usr/share/doc/ond/copyright in $deb" >&2; exit 1; }
# Nothing but the tool, its corpus and its copyright file: no library, header or CMake file of the codec.
if dpkg-deb -c "$deb" | grep -E '\.(a|so|hpp|cmake)$'; then
  echo "package-test: the package holds more than the tool" >&2; exit 1
fi

# Run from elsewhere, with no corpus named: the installed one is used.
cd "$root"
unset OND_CORPUS_DIR
"$ond" --version
"$ond" conform -q --json "$root/report.json" > "$root/conform.out" 2>&1 || true
last=$(tail -n 1 "$root/conform.out")
echo "$last"
grep -q "\"path\": \"$root/usr/share/ond/corpus\"" "$root/report.json" ||
  { echo "package-test: the run did not use the installed corpus" >&2; exit 1; }
# The installed corpus is an export: its VERSION names the version, and an export of it by the
# installed tool and by its own Python exporter are the same tree.
[ "$(sed -n 2p "$root/usr/share/ond/corpus/VERSION")" = "corpus_version $version" ] ||
  { echo "package-test: the installed corpus's VERSION does not name VERSION's version" >&2; exit 1; }
"$ond" corpus export "$root/export-ond" >/dev/null
python3 "$root/usr/share/ond/corpus/tools/export.py" "$root/export-py" >/dev/null
diff -r "$root/export-ond" "$root/export-py" >&2 ||
  { echo "package-test: ond corpus export and tools/export.py differ on the installed corpus" >&2; exit 1; }
cmp -s "$root/export-ond/VERSION" "$root/usr/share/ond/corpus/VERSION" ||
  { echo "package-test: an export of the installed corpus differs from it" >&2; exit 1; }
case "$last" in
  "CONFORMANCE PASSED: "*) echo "package-test: ok" ;;
  *) cat "$root/conform.out" >&2; exit 1 ;;
esac
