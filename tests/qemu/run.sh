#!/bin/sh
# Run one image under QEMU with the console on stdio and semihosting on; the
# exit status is the image's (semihosting SYS_EXIT_EXTENDED), or 124 when the
# timeout stops a hung image.
# usage: run.sh MACHINE IMAGE.elf [INPUT_FILE | -] ; env FD_QEMU_TIMEOUT (s),
#        FD_QEMU_EXTRA (more QEMU options, e.g. -icount shift=0,sleep=off)
set -eu
machine=$1
image=$2
input=${3:-/dev/null}
[ "$input" = "-" ] && input=/dev/stdin
# shellcheck disable=SC2086
exec timeout "${FD_QEMU_TIMEOUT:-120}" qemu-system-arm -M "$machine" \
  -display none -monitor none -serial stdio \
  -semihosting-config enable=on,target=native ${FD_QEMU_EXTRA:-} \
  -kernel "$image" < "$input"
