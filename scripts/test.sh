#!/bin/sh
# Every test: host unit/statistical tests, static analysis, and the on-target
# test images of every QEMU board, plus builds of every board; then the
# host tests again under ASan + UBSan with every fuzz target for
# FD_FUZZ_SECONDS (default 30) each. Ends with ctest's summaries.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh test
cmake --preset host
cmake --build --preset host
ctest --preset host
cmake --preset host-sanitize
cmake --build --preset host-sanitize
ctest --preset host-sanitize
