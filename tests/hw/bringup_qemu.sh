#!/bin/sh
# scripts/bringup.py exercised without hardware: the same images under QEMU
# in place of flashing and the USB serial port. One unit-test image (deck:
# no TRNG wait, which a loaded host can stretch past the driver's bound), the
# dealer's banner and SELFTEST, and a raw TRNG capture of 6,000 samples
# (two blocks, the second cut short) that must come back byte-exact in
# size and pass the board's health tests.
# usage: bringup_qemu.sh BOARD MACHINE BUILD_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bringup=$here/../../scripts/bringup.py
board=$1
machine=$2
build=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$bringup" suites "$board" --qemu "$machine" --build "$build" --only deck --timeout 120
python3 "$bringup" dealer "$board" --qemu "$machine" --build "$build" --timeout 60
python3 "$bringup" trng "$board" --qemu "$machine" --build "$build" --bytes 6000 --out "$work/raw.bin" --timeout 120
size=$(wc -c <"$work/raw.bin")
[ "$size" -eq 6000 ] || { echo "FAIL: raw capture has $size bytes, expected 6000"; exit 1; }
echo "PASS: bring-up script on $board under QEMU"
