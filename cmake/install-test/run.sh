#!/usr/bin/env bash
# Usage: run.sh BUILD_DIR CXX "CXXFLAGS" "LDFLAGS"
# Installs BUILD_DIR into a fresh prefix, then configures, builds and runs the consumer against it.
set -euo pipefail
build=$1 cxx=$2 cxxflags=${3:-} ldflags=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$(dirname "$0")" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$cxxflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer"
