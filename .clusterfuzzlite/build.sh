#!/bin/bash -eu
# ClusterFuzzLite uses the same build as OSS-Fuzz.
exec bash "$SRC/ond-conform/fuzz/oss-fuzz/build.sh"
