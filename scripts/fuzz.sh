#!/bin/sh
# The long fuzz run: every libFuzzer target for SECONDS each (default 3600),
# one after another, in the host-sanitize build (ASan + UBSan). New inputs
# collect in build/host-sanitize/tests/fuzz/work/<target>/corpus; copy the
# interesting ones into tests/fuzz/corpus/<target>/ to keep them.
# usage: scripts/fuzz.sh [seconds-per-target] [target ...]
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-3600}
[ $# -gt 0 ] && shift
targets=${*:-dealer library drbg cards journal}
scripts/deps.sh test
cmake --preset host-sanitize >/dev/null
cmake --build --preset host-sanitize
for t in $targets; do
  echo "== fuzz_$t for $seconds s"
  FD_FUZZ_SECONDS=$seconds tests/fuzz/run.sh build/host-sanitize/tests/fuzz/fuzz_$t \
    tests/fuzz/corpus/$t build/host-sanitize/tests/fuzz/work/$t
done
