#!/bin/sh
# Run an image under QEMU without the semihosting switch its board needs:
# the console must name the switch and QEMU must stop with a nonzero status
# (not hang until the timeout, not die without a word).
# usage: no_semihosting.sh MACHINE IMAGE.elf
set -eu
here=$(cd "$(dirname "$0")" && pwd)
machine=$1
image=$2
. "$here/board_env.sh"
fd_board_env "$image"
FD_QEMU_FLAGS=$(printf '%s\n' "$FD_QEMU_FLAGS" | sed 's/-semihosting-config [^ ]*//')
export FD_QEMU_FLAGS
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
FD_QEMU_TIMEOUT=60 "$here/run.sh" "$machine" "$image" >"$out" 2>&1 || rc=$?
tr -d '\r' <"$out" | grep -v '^\(R[0-9]\|PSR\|s[0-9]\|FPSCR\)' | head -40
want='run QEMU with -semihosting-config enable=on,target=native'
if ! grep -q -- "$want" "$out"; then
  echo "FAIL: the console does not say '$want'"
  exit 1
fi
case $rc in
  0) echo "FAIL: QEMU exited with status 0"; exit 1 ;;
  124) echo "FAIL: the image hung until the timeout"; exit 1 ;;
esac
echo "PASS: without semihosting the image names the switch and QEMU stops with status $rc"
