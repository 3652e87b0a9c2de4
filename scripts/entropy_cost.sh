#!/bin/sh
# Instructions per round's randomness on the host (valgrind's callgrind,
# exact and repeatable), per mode, for 52 and 432 cards: raw TRNG samples,
# conditioned blocks and instructions per shuffle, the fake TRNG's own
# instructions subtracted; then the same per round on the micro:bit and
# mps2-an386 under QEMU -icount. Prints Markdown tables (docs/ENTROPY.md).
# usage: scripts/entropy_cost.sh [build-dir]   (default build/host)
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh bench
build=${1:-build/host}
cmake --build "$build" --target bench_entropy >/dev/null
bench="$build/tests/bench_entropy"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rounds=20

instructions() { # toggle-function mode cards
  valgrind --tool=callgrind --toggle-collect="$1" --callgrind-out-file="$tmp/out" \
    "$bench" "$2" "$3" "$rounds" >/dev/null 2>"$tmp/log"
  sed -n 's/^summary: //p' "$tmp/out"
}

echo "| mode | cards | raw samples / round | conditioned blocks / round | instructions / round (without the fake TRNG) |"
echo "|---|---|---|---|---|"
for mode in combined full drbg; do
  for cards in 52 432; do
    line=$("$bench" "$mode" "$cards" "$rounds")
    samples=$(echo "$line" | sed 's/.*: \([0-9.]*\) raw samples.*/\1/')
    blocks=$(echo "$line" | sed 's/.* and \([0-9.]*\) conditioned.*/\1/')
    total=$(instructions measured_rounds "$mode" "$cards")
    source=$(instructions fake_trng_read "$mode" "$cards")
    echo "| $mode | $cards | $samples | $blocks | $(( (total - source) / rounds )) |"
  done
done

# On target (Cortex-M0 micro:bit, Cortex-M4 mps2-an386) under QEMU -icount:
# deterministic instruction counts, the fake TRNG's share subtracted.
for b in microbit mps2-an386; do
  cmake --build "build/$b" --target bench_entropy >/dev/null
  echo
  echo "$b:"
  echo
  FD_QEMU_EXTRA="-icount shift=0,sleep=off" tests/qemu/run.sh "$b" "build/$b/tests/bench_entropy.elf" | tr -d '\r'
done
