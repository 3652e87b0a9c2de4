#!/bin/sh
# A release image (-DFD_RELEASE=ON) on a QEMU board, unprovisioned: no
# device secret, so no journal key, no lab mode and no round; PROVISION is
# taken once and dealing waits for the restart; it starts in machine mode (no
# prompt, no echo) and refuses MODE human. No semihosting in a release
# image, so QEMU runs until the timeout stops it (exit 124 expected).
# usage: release_refusal.sh MACHINE DEALER.elf
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'STATUS\nSHUFFLE\nSHUFFLE full\nLAB RAW 4\nPROVISION 5f0e3a91c27d84b6a5f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4e5f6071\nSHUFFLE\nPROVISION 5f0e3a91c27d84b6a5f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4e5f6071\nMODE human\nSTATUS\n' >"$work/in"
FD_QEMU_TIMEOUT=${FD_QEMU_TIMEOUT:-20} FD_QEMU_FLAGS="" "$here/run.sh" "$1" "$2" "$work/in" 2>/dev/null | tr -d '\r' >"$work/out"
grep -E '^(OK|ERR) ' "$work/out" >"$work/replies"
cat >"$work/want" <<'EOT'
ERR secret not provisioned: PROVISION <64 hex> first (release build)
ERR secret not provisioned: PROVISION <64 hex> first (release build)
ERR state lab mode is refused in release builds
ERR secret secret provisioned: restart the device to use it
ERR state already provisioned: written once only
ERR state human mode is refused in release builds: machine mode only
EOT
if grep -q '^\*\*\* NO DEVICE SECRET' "$work/out" &&
  sed -n 1p "$work/replies" | grep -q '^OK STATUS .* secret=missing device=none ' &&
  sed -n 5p "$work/replies" | grep -q '^OK PROVISION device=[0-9a-f]\{16\} restart=required$' &&
  sed -n 9p "$work/replies" | grep -q '^OK STATUS ' && ! grep -q '^> ' "$work/out" &&
  [ "$(sed -e 1d -e 5d -e 9d "$work/replies")" = "$(cat "$work/want")" ]; then
  echo "ok   release image: machine mode only (MODE human refused); refuses rounds and lab mode until provisioned; PROVISION once, then restart"
  exit 0
fi
cat "$work/out"
echo "FAIL: release image replies"
exit 1
