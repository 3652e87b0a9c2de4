#!/bin/sh
# Boot the dealer firmware on the micro:bit board in QEMU, console on this
# terminal (quit QEMU with Ctrl-A then X). Also works with piped input. The
# bootloader starts first and checks the dealer's signature (docs/SECURITY.md
# "Boot"; the development key is made in the build tree the first time).
# usage: scripts/run.sh [board]   (microbit by default; any QEMU board of
#        boards/list.txt: mps2-an386, lm3s6965evb)
set -eu
cd "$(dirname "$0")/.."
board=${1:-microbit}
scripts/deps.sh run
cmake --preset "$board" >/dev/null
cmake --build --preset "$board" --target bootloader dealer_signed >/dev/null
if [ -t 0 ]; then
  console="-nographic" # serial and monitor on this terminal: Ctrl-A X quits
else
  # piped input: QEMU's -nographic multiplexer drops input that arrives
  # before the guest's UART is ready, so give the serial port stdio alone
  console="-display none -monitor none -serial stdio"
fi
# the machine and its flags, from boards/$board/board.cmake
[ -f "build/$board/qemu.env" ] || { echo "$board does not run in QEMU (boards/$board/board.cmake)" >&2; exit 2; }
. "build/$board/qemu.env"
. "build/$board/boot.env"
# the anti-rollback counter page as erased flash (QEMU's unwritten flash reads 0x00): fresh at every run
counter="build/$board/bootloader/counter_erased.bin"
head -c $((FD_COUNTER_SIZE)) /dev/zero | tr '\0' '\377' >"$counter"
# shellcheck disable=SC2086
exec qemu-system-arm -M "$FD_QEMU_MACHINE" $console $FD_QEMU_FLAGS \
  -kernel "build/$board/bootloader/bootloader.elf" \
  -device "loader,file=build/$board/bootloader/dealer.signed.bin,addr=$FD_SLOT_A_ADDR,force-raw=on" \
  -device "loader,file=$counter,addr=$FD_COUNTER_ADDR,force-raw=on"
