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
if [ -t 0 ]; then
  console="-nographic" # serial and monitor on this terminal: Ctrl-A X quits
else
  # piped input: QEMU's -nographic multiplexer drops input that arrives
  # before the guest's UART is ready, so give the serial port stdio alone
  console="-display none -monitor none -serial stdio"
fi
# shellcheck disable=SC2086
exec qemu-system-arm -M "$board" $console \
  -semihosting-config enable=on,target=native \
  -kernel "build/$board/firmware/dealer.elf"
