#!/bin/sh
# The bootloader of a QEMU board (docs/SECURITY.md "Boot") on its build
# tree: the signed dealer boots through it (banner, STATUS with the image's
# version and hash as the bootloader printed them, QUIT: exit 0);
# one flipped bit in the body, the header, the key hash, the hash and the
# signature, a dealer signed by another key, one a version older, and an
# empty slot are each refused with their reason and exit status 97. On the
# Cortex-M0 (micro:bit) the bootloader must never store to VTOR (the nRF51
# has none; tests/qemu/vtor_writes.py on its disassembly); on the Cortex-M3/M4
# boards the same check must find the bootloader's one VTOR store (the
# control that it sees one).
# usage: boot.sh BUILD_DIR
set -u
bin=$1
. "$bin/qemu.env"
. "$bin/boot.env"
boot=$bin/bootloader/bootloader.elf
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL $*"; status=1; }

# the counter page as a chip's erased flash (QEMU's unwritten flash reads 0x00)
counter_page() { # VERSION-WORD CHECK-WORD OUT: a page with one pair (or erased: '' '')
  python3 -c "import sys, struct
size = int(sys.argv[1], 0)
page = bytearray(b'\\xff' * size)
if sys.argv[2]:
    page[0:8] = struct.pack('<II', int(sys.argv[2], 0), int(sys.argv[3], 0))
open(sys.argv[4], 'wb').write(page)" "$FD_COUNTER_SIZE" "$1" "$2" "$3"
}
counter_page '' '' "$work/counter.bin"
counter=$work/counter.bin

run() { # IMAGE INPUT -> $work/out, returns QEMU's status (counter page: $counter)
  if [ -n "$1" ]; then
    set -- "$1" "$2" -device "loader,file=$1,addr=$FD_SLOT_A_ADDR,force-raw=on"
  else
    set -- "" "$2"
  fi
  set -- "$@" -device "loader,file=$counter,addr=$FD_COUNTER_ADDR,force-raw=on"
  in=$2
  shift 2
  # shellcheck disable=SC2086
  printf '%b' "$in" | timeout 120 qemu-system-arm -M "$FD_QEMU_MACHINE" -display none -monitor none -serial stdio \
    $FD_QEMU_FLAGS -kernel "$boot" "$@" >"$work/out" 2>&1
}

# a good image boots the dealer and its version goes into the counter page
case $FD_QEMU_MACHINE in
  lm3s6965evb) recorded="not recorded (no flash writes on this board)" ;; # QEMU models no LM3S flash controller
  *) recorded="version recorded" ;;
esac
run "$bin/bootloader/dealer.signed.bin" 'STATUS\nQUIT\n'
rc=$?
tr -d '\r' <"$work/out" >"$work/good"
version=$(printf '0x%08x' "$FD_IMAGE_VERSION")
hash=$(sed -n 's/^BOOT ok version=[0-9a-fx]* hash=\([0-9a-f]\{64\}\)$/\1/p' "$work/good")
if [ $rc -ne 0 ] || ! grep -q "^BOOT ok version=$version hash=[0-9a-f]\{64\}$" "$work/good" ||
  ! grep -qx "image: version=$version hash=$hash" "$work/good" || ! grep -qx "BOOT counter: $recorded" "$work/good" ||
  ! grep -q "^OK STATUS .* image=$version image_hash=$hash" "$work/good" || ! grep -q '^OK BYE' "$work/good"; then
  fail "good image: exit $rc"; head -20 "$work/good"
else
  echo "ok   signed dealer boots: $(grep '^BOOT ok' "$work/good"); counter: $recorded"
fi

# the counter page: a higher version recorded refuses this one; a torn record (no check word) does not count
vplus=$((FD_IMAGE_VERSION + 1))
counter_page "$vplus" "$((0xFFFFFFFF ^ vplus))" "$work/higher.bin"
counter_page "$vplus" 0xFFFFFFFF "$work/torn.bin"
for case in "higher:97:BOOT refused: version older than the minimum (rollback)" "torn:0:BOOT ok version=$version hash=$hash"; do
  name=${case%%:*}
  rest=${case#*:}
  want_rc=${rest%%:*}
  want=${rest#*:}
  counter=$work/$name.bin
  run "$bin/bootloader/dealer.signed.bin" 'QUIT\n'
  rc=$?
  tr -d '\r' <"$work/out" >"$work/got"
  if [ $rc -ne "$want_rc" ] || ! grep -qxF "$want" "$work/got"; then
    fail "counter page $name: exit $rc, want $want_rc and '$want'"; cat "$work/got"
  else
    echo "ok   counter page $name: $want (exit $rc)"
  fi
done
counter=$work/counter.bin

flip() { # OFFSET OUT: the signed dealer with one bit of byte OFFSET flipped
  python3 -c "import sys; d = bytearray(open(sys.argv[1], 'rb').read()); d[int(sys.argv[2])] ^= 4; open(sys.argv[3], 'wb').write(d)" \
    "$bin/bootloader/dealer.signed.bin" "$1" "$2"
}
size=$(wc -c <"$bin/bootloader/dealer.signed.bin")
body=$(python3 -c "import sys; d = open(sys.argv[1], 'rb').read(); print(int.from_bytes(d[8:12], 'little'))" \
  "$bin/bootloader/dealer.signed.bin")
tlv=$(( (512 + body + 3) / 4 * 4 ))
flip 13 "$work/header.bin"                   # the version's second byte
flip $((512 + body / 2)) "$work/body.bin"    # the middle of the image
flip $((tlv + 4 + 4 + 5)) "$work/keyhash.bin"
flip $((tlv + 4 + 36 + 4 + 9)) "$work/hash.bin"
flip $((size - 7)) "$work/signature.bin"     # the last level's authentication path
tool=$FD_TOOL
"$tool" lms-keygen --key "$work/other.state" --pub "$work/other.pub" >/dev/null &&
  "$tool" image-sign --key "$work/other.state" --pub "$work/other.pub" --in "$bin/bootloader/dealer_slot.bin" \
    --version "$FD_IMAGE_VERSION" --load "$FD_APP_ADDR" --out "$work/other.bin" || fail "cannot sign with another key"

for case in "header:hash mismatch: header or image changed" "body:hash mismatch: header or image changed" \
  "keyhash:signed by another key" "hash:hash mismatch: header or image changed" \
  "signature:signature does not verify" "other:signed by another key" \
  "older:version older than the minimum (rollback)" "empty:no image header (bad magic or layout)"; do
  name=${case%%:*}
  why=${case#*:}
  case $name in
    older) image=$bin/bootloader/dealer.older.signed.bin ;;
    empty) image="" ;;
    *) image=$work/$name.bin ;;
  esac
  run "$image" 'QUIT\n'
  rc=$?
  tr -d '\r' <"$work/out" >"$work/got"
  if [ $rc -ne 97 ] || ! grep -qxF "BOOT refused: $why" "$work/got" || grep -q 'fairdeal dealer' "$work/got"; then
    fail "$name: exit $rc, want 97 and 'BOOT refused: $why'"; cat "$work/got"
  else
    echo "ok   $name refused: $why (exit 97)"
  fi
done

# stores to VTOR (0xE000ED08) in the bootloader's disassembly: never on the Cortex-M0
here=$(cd "$(dirname "$0")" && pwd)
if "$here/vtor_writes.py" "$boot" >"$work/vtor"; then vtor=no; else vtor=yes; fi
case $FD_QEMU_MACHINE in
  microbit) [ $vtor = no ] && echo "ok   the Cortex-M0 bootloader never writes VTOR" ||
    { fail "the Cortex-M0 bootloader writes VTOR"; cat "$work/vtor"; } ;;
  *) [ $vtor = yes ] && echo "ok   the Cortex-M3/M4 bootloader's VTOR store is found (the check sees one)" ||
    fail "no VTOR store found in the Cortex-M3/M4 bootloader: the static check cannot see it" ;;
esac
exit $status
