#!/bin/sh
# A release image (-DFD_RELEASE=ON) on a QEMU board, unprovisioned: no open
# cleartext console (docs/LINK.md "Roles"): outside a link session it runs
# only ID, HELP and VERIFY; the first PROVISION needs button A held at start,
# which QEMU cannot press; it starts in machine mode (no prompt, no echo). No semihosting in a release
# image, so QEMU runs until the timeout stops it (exit 124 expected).
# usage: release_refusal.sh MACHINE DEALER.elf
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'STATUS\nSHUFFLE\nSHUFFLE full\nLAB RAW 4\nPROVISION 5f0e3a91c27d84b6a5f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4e5f6071\nSHUFFLE\nPROVISION 5f0e3a91c27d84b6a5f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4e5f6071\nMODE human\nSTATUS\nID\n' >"$work/in"
FD_QEMU_TIMEOUT=${FD_QEMU_TIMEOUT:-20} FD_QEMU_FLAGS="" "$here/run.sh" "$1" "$2" "$work/in" 2>/dev/null | tr -d '\r' >"$work/out"
grep -E '^(OK|ERR) ' "$work/out" >"$work/replies"
link='ERR link outside an authenticated link session only ID, HELP and VERIFY run'
cat >"$work/want" <<EOT
$link
$link
$link
$link
$link
$link
$link
$link
$link
EOT
if grep -q '^\*\*\* NO DEVICE SECRET' "$work/out" &&
  sed -n 10p "$work/replies" | grep -q '^OK ID .* secret=missing device=none' && ! grep -q '^> ' "$work/out" &&
  [ "$(sed -e 10d "$work/replies")" = "$(cat "$work/want")" ]; then
  echo "ok   release image: no open cleartext console (only ID, HELP and VERIFY outside a link session; the first PROVISION needs button A held at start, which QEMU cannot press); machine mode only"
  exit 0
fi
cat "$work/out"
echo "FAIL: release image replies"
exit 1
