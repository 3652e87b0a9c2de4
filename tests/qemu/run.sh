#!/bin/sh
# Run one image under QEMU with the console on stdio; the exit status is the
# image's (semihosting SYS_EXIT_EXTENDED), or 124 when the timeout stops a
# hung image. The QEMU flags are the board's (FD_QEMU_FLAGS in
# boards/<b>/board.cmake), read from the qemu.env its build tree wrote.
# usage: run.sh MACHINE IMAGE.elf [INPUT_FILE | -] ; env FD_QEMU_TIMEOUT (s),
#        FD_QEMU_FLAGS (instead of the board's flags), FD_QEMU_SERIAL (the
#        -serial backend, default stdio; mon:stdio turns Ctrl-A b into a break),
#        FD_QEMU_EXTRA (more QEMU options, e.g. -icount shift=0,sleep=off)
set -eu
machine=$1
image=$2
input=${3:-/dev/null}
[ "$input" = "-" ] && input=/dev/stdin
if [ -z "${FD_QEMU_FLAGS+set}" ]; then
  . "$(dirname "$0")/board_env.sh"
  fd_board_env "$image"
  [ "$FD_QEMU_MACHINE" = "$machine" ] || { echo "run.sh: $image is built for $FD_QEMU_MACHINE, not $machine" >&2; exit 2; }
fi
# shellcheck disable=SC2086
exec timeout "${FD_QEMU_TIMEOUT:-120}" qemu-system-arm -M "$machine" \
  -display none -monitor none -serial "${FD_QEMU_SERIAL:-stdio}" \
  ${FD_QEMU_FLAGS} ${FD_QEMU_EXTRA:-} \
  -kernel "$image" < "$input"
