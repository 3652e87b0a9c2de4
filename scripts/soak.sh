#!/bin/sh
# The long soak: the dealer protocol suite with COMMANDS random commands in
# its soak test (default 10,000,000; every shuffle must deal each card once,
# counters must agree, every commitment must verify) and the fault matrix
# over SEEDS seeds (default 10,000), in the plain host build and under
# ASan + UBSan.
# usage: scripts/soak.sh [commands] [seeds]
set -eu
cd "$(dirname "$0")/.."
commands=${1:-10000000}
seeds=${2:-10000}
scripts/deps.sh test
for preset in host host-sanitize; do
  cmake --preset $preset >/dev/null
  cmake --build --preset $preset --target test_dealer
  echo "== $preset: $commands commands, fault matrix over $seeds seeds"
  FD_SOAK_COMMANDS=$commands FD_FAULT_SEEDS=$seeds build/$preset/tests/test_dealer
done
