#!/bin/sh
# Every test: host unit/statistical tests, and the on-target test images of
# both QEMU boards, plus builds of all five boards. Ends with ctest's summary.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh test
cmake --preset host
cmake --build --preset host
ctest --preset host
