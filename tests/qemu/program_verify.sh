#!/bin/sh
# Program verification on a QEMU board (docs/PROTOCOL.md VERIFY): the signed
# dealer booted through the bootloader answers VERIFY <seed> for three random
# seeds with the HMAC `fairdeal-tool program-verify` computes from the
# released files (the bootloader's .bin and dealer.signed.bin, each padded
# to its flash region; QEMU's unwritten flash reads 0x00 where a real chip's
# erased flash reads 0xff: --fill). Controls: the same seeds over an image
# with one bit flipped give other answers; VERIFY without a seed or with
# bad hex is refused.
# usage: program_verify.sh BUILD_DIR
set -u
bin=$1
. "$bin/qemu.env"
. "$bin/boot.env"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
boot_bin=$(ls "$bin"/bootloader/fairdeal-bootloader-*.bin)
sizes=$(sed -n 's/^#define FD_\(BOOTLOADER_SIZE\|SLOT_A_SIZE\) \(0x[0-9a-f]*\)u$/\2/p' "$bin/generated/fd_board_map.h")
boot_size=$(echo "$sizes" | sed -n 1p)
slot_size=$(echo "$sizes" | sed -n 2p)
status=0
seeds=""
input=""
for i in 1 2 3; do
  s=$(od -An -N$((8 * i)) -tx1 /dev/urandom | tr -d ' \n')
  seeds="$seeds $s"
  input="${input}VERIFY $s\n"
done
# shellcheck disable=SC2086
printf "${input}VERIFY\nVERIFY 0g\nQUIT\n" | timeout 120 qemu-system-arm -M "$FD_QEMU_MACHINE" -display none \
  -monitor none -serial stdio $FD_QEMU_FLAGS -kernel "$bin/bootloader/bootloader.elf" \
  -device "loader,file=$bin/bootloader/dealer.signed.bin,addr=$FD_SLOT_A_ADDR,force-raw=on" 2>&1 |
  tr -d '\r' | grep -a '^OK VERIFY\|^ERR' >"$work/replies"
python3 -c "import sys; d = bytearray(open(sys.argv[1], 'rb').read()); d[600] ^= 1; open(sys.argv[2], 'wb').write(d)" \
  "$bin/bootloader/dealer.signed.bin" "$work/flipped.bin"
n=1
for s in $seeds; do
  want=$("$FD_TOOL" program-verify --seed "$s" --boot "$boot_bin" --boot-size "$boot_size" \
    --image "$bin/bootloader/dealer.signed.bin" --slot-size "$slot_size" --fill 0)
  other=$("$FD_TOOL" program-verify --seed "$s" --boot "$boot_bin" --boot-size "$boot_size" \
    --image "$work/flipped.bin" --slot-size "$slot_size" --fill 0)
  got=$(sed -n "${n}p" "$work/replies")
  if [ "$got" = "$want" ] && [ "$other" != "$want" ]; then
    echo "ok   seed $s: $got"
  else
    echo "FAIL seed $s: device '$got', tool '$want' (flipped image: '$other')"; status=1
  fi
  n=$((n + 1))
done
for bad in 4 5; do
  got=$(sed -n "${bad}p" "$work/replies")
  case $got in
    "ERR syntax usage: VERIFY <seed: 2-128 hex digits>") echo "ok   refused: $got" ;;
    *) echo "FAIL reply $bad: '$got', want the usage"; status=1 ;;
  esac
done
exit $status
