#!/usr/bin/env bash
# Installs everything the project builds, tests and benchmarks with, from Debian 12's archive.
# Idempotent: packages already present are left as they are.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git python3
  clang libclang-rt-14-dev llvm-14
  zlib1g-dev
  libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev
  libssl-dev  # corpus: SHA-256 of the corpus files (libcrypto)
  libisal-dev
  zip unzip  # fuzz/tools/oss-fuzz-build.sh: seed corpus zips
  afl++  # fuzz/tools/oss-fuzz-emulate.py: the AFL++ build (afl-clang-fast, libAFLDriver.a, afl-fuzz)
  libc++-14-dev libc++abi-14-dev  # fuzz/tools/oss-fuzz-emulate.py: the AFL++ build uses libc++ as OSS-Fuzz does
  python3-yaml  # fuzz/tools/oss-fuzz-emulate.py (project.yaml), .github/check_workflows.py
  chromium  # conformance: renders the HTML results page headless in a test
  nodejs mono-mcs  # conformance/examples: the JavaScript and C# adapter templates, run through the suite by CTest
)
# Opt-in: the peers the benchmarks compare against (bench/ only; the codec never links them).
for arg in "$@"; do
  case "$arg" in
    --bench) packages+=(libprotobuf-dev protobuf-compiler libmsgpack-cxx-dev libflatbuffers-dev flatbuffers-compiler) ;;
    *) echo "usage: $0 [--bench]" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "dependencies: ok (${#packages[@]} packages)"
