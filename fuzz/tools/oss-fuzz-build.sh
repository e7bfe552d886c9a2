#!/bin/bash -eu
# The fuzzing build for OSS-Fuzz and ClusterFuzzLite ("ideal integration": the build.sh of the
# project folder, fuzz/oss-fuzz/ here and projects/ond-conform/ upstream, and
# .clusterfuzzlite/build.sh only call this).
#
# Builds every harness of fuzz/ with exactly what the infrastructure sets: $CC, $CXX, $CFLAGS,
# $CXXFLAGS for every object and $LIB_FUZZING_ENGINE linked after each harness's objects
# (fuzz/CMakeLists.txt adds no sanitizer or fuzzer flag of its own). Then puts into $OUT each
# fuzzer with <fuzzer>_seed_corpus.zip, <fuzzer>.dict and <fuzzer>.options.
#
# $SRC/ond-conform is the checkout (or $OND_SRC_DIR); when $SRC/zlib holds zlib's sources they
# are built with the same flags and linked instead of the system's (MemorySanitizer needs every
# linked library instrumented). CRC-32 comes from zlib in every OSS-Fuzz build: ISA-L is
# assembly that no sanitizer sees into, and the builder image does not have it.
SRC_DIR=${OND_SRC_DIR:-$SRC/ond-conform}
BUILD_DIR=${OND_BUILD_DIR:-$WORK/ond-build}
JOBS=${OND_JOBS:-$(nproc)}

extra=(-DOND_CRC_ISAL=OFF)
if [ -f "$SRC/zlib/zlib.h" ]; then
  (cd "$SRC/zlib" && CC="$CC" CFLAGS="$CFLAGS -fPIC" ./configure --static --prefix="$WORK/zlib" >/dev/null &&
   make -j"$JOBS" install >/dev/null)
  extra+=(-DZLIB_ROOT="$WORK/zlib" -DZLIB_USE_STATIC_LIBS=ON)
fi

# Build type "Release" with its flags emptied: only the infrastructure's flags reach the compiler.
cmake -S "$SRC_DIR" -B "$BUILD_DIR" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DCMAKE_C_FLAGS_RELEASE="" -DCMAKE_CXX_FLAGS_RELEASE="" \
  -DOND_LIBFUZZER=ON -DOND_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DOND_BUILD_TESTS=OFF -DOND_BUILD_TOOLS=OFF -DOND_BUILD_BENCH=OFF -DOND_WERROR=OFF \
  "${extra[@]}"
cmake --build "$BUILD_DIR" --target fuzzers -j"$JOBS"

section_harnesses=" varint string string_table text tokens entities categories span_groups "
whole_harnesses=" container differential roundtrip doc_bin stream records api noexcept "

# Seeds go flat into each zip under numbered names (cases in different folders share names), a
# letter apart per source: s the harness's own, c the golden corpus's binaries (whole-container
# harnesses), r the regression inputs (not their listings). The shared sets are staged once: a
# copy per file and harness took minutes.
stage_seeds() {  # stage_seeds DIR LETTER, the files' paths on stdin
  local i=0 f n
  mkdir -p "$1"
  while IFS= read -r f; do
    i=$((i + 1))
    printf -v n '%s%05d-%s' "$2" "$i" "${f##*/}"
    cp "$f" "$1/$n"
  done
}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/cases" "$stage/regressions"
if [ -d "$SRC_DIR/corpus/cases" ]; then
  find "$SRC_DIR/corpus/cases" -type f \( -name '*.ondc' -o -name '*.ondb' \) | sort | stage_seeds "$stage/cases" c
fi
if [ -d "$SRC_DIR/corpus/regressions" ]; then
  find "$SRC_DIR/corpus/regressions" -type f \( -name '*.ondc' -o -name '*.ondb' -o -name '*.stream' -o -name '*.bin' \) |
    sort | stage_seeds "$stage/regressions" r
fi

count=0
for exe in "$BUILD_DIR"/fuzz/*_fuzzer; do
  fuzzer=$(basename "$exe")
  name=${fuzzer%_fuzzer}
  cp "$exe" "$OUT/"
  count=$((count + 1))
  rm -rf "$stage/own"
  find "$SRC_DIR/fuzz/seeds/$name" -type f | sort | stage_seeds "$stage/own" s
  dirs=("$stage/own" "$stage/regressions")
  if [[ "$whole_harnesses" == *" $name "* ]]; then dirs+=("$stage/cases"); fi
  seeds=()
  for d in "${dirs[@]}"; do
    for f in "$d"/*; do [ -e "$f" ] && seeds+=("$f"); done
  done
  rm -f "$OUT/${fuzzer}_seed_corpus.zip"
  if ((${#seeds[@]})); then zip -q -j "$OUT/${fuzzer}_seed_corpus.zip" "${seeds[@]}"; fi
  if [[ "$section_harnesses" == *" $name "* ]]; then
    cp "$SRC_DIR/fuzz/dict/primitives.dict" "$OUT/${fuzzer}.dict"
  elif [ "$name" != writer ]; then
    cp "$SRC_DIR/fuzz/dict/ond.dict" "$OUT/${fuzzer}.dict"
  fi
  cp "$SRC_DIR/fuzz/dict/${fuzzer}.options" "$OUT/"
done
echo "built $count fuzzers into $OUT"
