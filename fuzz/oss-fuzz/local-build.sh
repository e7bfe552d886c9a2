#!/usr/bin/env bash
# Runs fuzz/oss-fuzz/build.sh on this machine with the variables set the way OSS-Fuzz sets them
# for a libFuzzer + AddressSanitizer build (clang-14), into a temporary $OUT, then runs every
# fuzzer it built for a few runs on its seed corpus zip, with its .options. Fails if the build
# fails, a fuzzer, zip, dict or options file is missing, or a fuzzer finds anything.
#
#   fuzz/oss-fuzz/local-build.sh [RUNS]     (RUNS per fuzzer, default 200)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=${1:-200}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ond-oss-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src" "$tmp/out" "$tmp/work"
# $SRC as OSS-Fuzz lays it out: the checkout under $SRC/ond-conform (a link here), no zlib
# sources (the system's zlib is used: fine for ASan, not for MSan).
ln -s "$root" "$tmp/src/ond-conform"

export SRC="$tmp/src" OUT="$tmp/out" WORK="$tmp/work"
export CC=clang-14 CXX=clang++-14
export SANITIZER=address FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE="-fsanitize=fuzzer"
export OND_JOBS=${OND_JOBS:-2}

bash "$here/build.sh"

status=0
count=0
for f in "$OUT"/*_fuzzer; do
  name=$(basename "$f")
  count=$((count + 1))
  for need in "${name}.options" "${name}_seed_corpus.zip"; do
    [ -f "$OUT/$need" ] || { echo "missing $need"; status=1; }
  done
  corpus="$WORK/corpus-$name"
  mkdir -p "$corpus"
  (cd "$corpus" && unzip -q -o "$OUT/${name}_seed_corpus.zip")
  dict=()
  [ -f "$OUT/${name}.dict" ] && dict=(-dict="$OUT/${name}.dict")
  if "$f" "${dict[@]}" -runs="$runs" -max_len=4096 "$corpus" > "$WORK/$name.log" 2>&1; then
    echo "ok      $name ($(grep -c . "$WORK/$name.log") log lines)"
  else
    echo "FAILED  $name"; tail -30 "$WORK/$name.log"; status=1
  fi
done
[ "$count" -ge 16 ] || { echo "expected 16 fuzzers, built $count"; status=1; }
exit $status
