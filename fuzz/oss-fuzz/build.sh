#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script: builds every harness of fuzz/ with the compiler,
# flags and fuzzing engine that the infrastructure sets ($CC, $CXX, $CFLAGS, $CXXFLAGS,
# $LIB_FUZZING_ENGINE), and puts into $OUT each fuzzer with its seed corpus zip, dictionary and
# .options. $SRC holds the checkout (ond-conform, or $OND_SRC_DIR) and, optionally, zlib's
# sources, which are then built with the same flags (MemorySanitizer needs every linked
# library instrumented).
SRC_DIR=${OND_SRC_DIR:-$SRC/ond-conform}
BUILD_DIR=${OND_BUILD_DIR:-$WORK/ond-build}
JOBS=${OND_JOBS:-$(nproc)}

extra=()
if [ -d "$SRC/zlib" ]; then
  (cd "$SRC/zlib" && CC="$CC" CFLAGS="$CFLAGS -fPIC" ./configure --static --prefix="$WORK/zlib" >/dev/null &&
   make -j"$JOBS" install >/dev/null)
  extra+=(-DZLIB_ROOT="$WORK/zlib" -DZLIB_USE_STATIC_LIBS=ON)
fi

# ISA-L's CRC is assembly that MemorySanitizer cannot see into: use zlib's (built above) there.
if [ "${SANITIZER:-}" = memory ]; then extra+=(-DOND_CRC_ISAL=OFF); fi

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
for exe in "$BUILD_DIR"/fuzz/*_fuzzer; do
  fuzzer=$(basename "$exe")
  name=${fuzzer%_fuzzer}
  cp "$exe" "$OUT/"
  # Seeds: the harness's own, and for whole-container harnesses the golden corpus's binaries.
  zip_list=$(mktemp)
  find "$SRC_DIR/fuzz/seeds/$name" -type f > "$zip_list"
  case "$name" in
    container|differential|roundtrip|doc_bin|stream|records)
      if [ -d "$SRC_DIR/corpus/cases" ]; then
        find "$SRC_DIR/corpus/cases" -type f \( -name '*.ondc' -o -name '*.ondb' \) >> "$zip_list"
      fi ;;
  esac
  if [ -d "$SRC_DIR/corpus/regressions" ]; then
    find "$SRC_DIR/corpus/regressions" -type f \( -name '*.ondc' -o -name '*.ondb' -o -name '*.bin' \) >> "$zip_list"
  fi
  rm -f "$OUT/${fuzzer}_seed_corpus.zip"
  # Flat names in the zip, numbered: cases in different folders may share a base name.
  stage=$(mktemp -d)
  i=0
  while IFS= read -r f; do
    i=$((i + 1))
    cp "$f" "$stage/$(printf '%05d' "$i")-$(basename "$f")"
  done < "$zip_list"
  if [ "$i" -gt 0 ]; then (cd "$stage" && zip -q "$OUT/${fuzzer}_seed_corpus.zip" ./*); fi
  rm -rf "$stage" "$zip_list"
  if [[ "$section_harnesses" == *" $name "* ]]; then
    cp "$SRC_DIR/fuzz/dict/primitives.dict" "$OUT/${fuzzer}.dict"
  elif [ "$name" != writer ]; then
    cp "$SRC_DIR/fuzz/dict/ond.dict" "$OUT/${fuzzer}.dict"
  fi
  cp "$SRC_DIR/fuzz/dict/${fuzzer}.options" "$OUT/"
done
echo "built $(ls "$OUT"/*_fuzzer | wc -l) fuzzers into $OUT"
