#!/bin/sh
# Boot the dealer firmware on the micro:bit board in QEMU, console on this
# terminal (quit QEMU with Ctrl-A then X). Also works with piped input.
# usage: scripts/run.sh [board]   (microbit by default; mps2-an386 also runs)
set -eu
cd "$(dirname "$0")/.."
board=${1:-microbit}
scripts/deps.sh run
cmake --preset "$board" >/dev/null
cmake --build --preset "$board" --target dealer >/dev/null
exec qemu-system-arm -M "$board" -nographic \
  -semihosting-config enable=on,target=native \
  -kernel "build/$board/firmware/dealer.elf"
