#!/bin/sh
# Usage: library-only-test.sh SOURCE_DIR CXX
# Configures the library-only build (the `lib` preset) with every other dependency of the project
# made unfindable (a REQUIRED one would stop the configure), then checks that what it compiles
# is the codec's own sources and nothing else: no test, fuzz, tool or benchmark source.
set -eu
src=$1 cxx=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Threads is not in the list: the codec's threads (the CRC of a large container) are the C
# library's own POSIX threads, part of the compiler's platform, not a package to install.
for pkg in GTest benchmark CLI11 nlohmann_json rapidcheck OpenSSL Python3 Protobuf FlatBuffers; do
  set -- "$@" "-DCMAKE_DISABLE_FIND_PACKAGE_$pkg=ON"
done
shift 2
cmake -S "$src" --preset lib -B "$work" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@" >"$work/configure.log" 2>&1 || {
  cat "$work/configure.log" >&2
  exit 1
}
files=$(sed -n 's/^ *"file": "\(.*\)",\{0,1\}$/\1/p' "$work/compile_commands.json" | sort -u)
count=$(printf '%s\n' "$files" | grep -c . || true)
[ "$count" -ge 20 ] || { echo "only $count sources compiled: $files" >&2; exit 1; }
others=$(printf '%s\n' "$files" | grep -v "^$src/codec/src/[a-z0-9_]*\.cpp$" || true)
tests=$(printf '%s\n' "$files" | grep '_test\.cpp$\|_main\.cpp$' || true)
if [ -n "$others$tests" ]; then
  printf 'the library-only build compiles more than the codec:\n%s\n%s\n' "$others" "$tests" >&2
  exit 1
fi
echo "library-only: $count codec sources"
