#!/bin/bash -eu
# ClusterFuzzLite runs the same build as OSS-Fuzz: the one kept in fuzz/tools/oss-fuzz-build.sh.
"$SRC/ond-conform/fuzz/tools/oss-fuzz-build.sh"
