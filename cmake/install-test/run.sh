#!/usr/bin/env bash
# Usage: run.sh BUILD_DIR CXX "CXXFLAGS" "LDFLAGS"
# Installs BUILD_DIR into a fresh prefix, then configures, builds and runs examples/ (with its
# tests) and the consumer against it.
set -euo pipefail
build=$1 cxx=$2 cxxflags=${3:-} ldflags=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
# The installed package: no absolute path to a library, no empty $<LINK_ONLY:>, C++20 stated.
pkg="$work/prefix/lib/cmake/ond"
[ -d "$pkg" ] || pkg=$(dirname "$(find "$work/prefix" -name ondConfig.cmake | head -1)")
if grep -nE 'LINK_ONLY:>|[":; ]/[^":; >]*\.(so|a)([.":; >]|$)' "$pkg"/ondTargets*.cmake; then
  echo "the installed targets hold an absolute library path or an empty \$<LINK_ONLY:>" >&2
  exit 1
fi
# Both builds of the library are exported (ond::codec_noexcept: built with -fno-exceptions, for
# examples/no_exceptions.cpp and programs built that way), each requiring C++20.
for target in codec codec_noexcept; do
  sed -n "/^set_target_properties(ond::$target PROPERTIES/,/^)/p" "$pkg/ondTargets.cmake" |
    grep -q 'INTERFACE_COMPILE_FEATURES "cxx_std_20"' || {
    echo "the installed package has no ond::$target, or it does not require C++20" >&2
    exit 1
  }
done
# Only the API is installed: not the project's helpers, and ond.hpp does not pull in the tooling.
inc="$work/prefix/include/ond"
for f in hex.hpp splitmix64.hpp; do
  [ ! -e "$inc/$f" ] || { echo "ond/$f is installed" >&2; exit 1; }
done
# Nor the codec's internal surface (codec/internal/ond/internal/, ond::codec_internal).
[ ! -e "$inc/internal" ] && [ ! -e "$inc/internal.hpp" ] || { echo "ond/internal is installed" >&2; exit 1; }
if grep -n 'codec_internal\|framing\|/internal' "$pkg"/ondTargets*.cmake; then
  echo "the installed targets name the codec's internal surface" >&2
  exit 1
fi
if grep -nE '#include.*(inspect|listing)\.hpp' "$inc/ond.hpp"; then
  echo "ond/ond.hpp includes the tooling headers" >&2
  exit 1
fi
# examples/ as a consumer project of the installed package: its programs built against the
# prefix, and its tests (each program's exact output on corpus files) run.
examples="$(cd "$(dirname "$0")/../../examples" && pwd)"
cmake -S "$examples" -B "$work/examples" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$cxxflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" >/dev/null
cmake --build "$work/examples" >/dev/null
ctest --test-dir "$work/examples" --output-on-failure >"$work/examples.log" 2>&1 || { cat "$work/examples.log" >&2; exit 1; }
grep -q "100% tests passed" "$work/examples.log" || { cat "$work/examples.log" >&2; exit 1; }
cmake -S "$(dirname "$0")" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$cxxflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer"
