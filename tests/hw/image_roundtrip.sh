#!/bin/sh
# The flashable artifacts of one image hold exactly the .elf's loadable
# bytes: every PT_LOAD segment's file bytes (taken from the .elf with dd at
# the segment's offset, placed at its physical = load address) are what the
# .hex holds, nothing more, and what the .bin holds from the first load
# address (gaps zero); the .sha256 matches. Checked with srecord, which the
# build does not use (it makes the images with objcopy).
# usage: image_roundtrip.sh DIR STEM      (DIR/STEM.{elf,hex,bin,sha256})
set -eu
dir=$1
stem=$2
elf=$dir/$stem.elf
for ext in elf hex bin sha256; do
  [ -s "$dir/$stem.$ext" ] || { echo "FAIL: missing $dir/$stem.$ext"; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Type Offset VirtAddr PhysAddr FileSiz MemSiz Flg Align
arm-none-eabi-readelf -lW "$elf" | awk '$1 == "LOAD" { print $2, $4, $5 }' >"$work/segments"
set --
n=0
base=
while read -r offset paddr size; do
  [ $((size)) -gt 0 ] || continue
  n=$((n + 1))
  dd if="$elf" of="$work/seg$n" bs=1 skip=$((offset)) count=$((size)) status=none
  set -- "$@" "$work/seg$n" -binary -offset "$paddr"
  if [ -z "$base" ] || [ $((paddr)) -lt $((base)) ]; then base=$paddr; fi
  echo "segment $n: $((size)) bytes at $paddr"
done <"$work/segments"
[ "$n" -gt 0 ] || { echo "FAIL: no loadable bytes in $elf"; exit 1; }

srec_cat "$@" -o "$work/expected.hex" -intel
if ! srec_cmp "$dir/$stem.hex" -intel "$work/expected.hex" -intel; then
  echo "FAIL: $stem.hex differs from the .elf's loadable bytes"; exit 1
fi
srec_cat "$work/expected.hex" -intel -offset "-$((base))" -o "$work/expected.bin" -binary
if ! cmp "$dir/$stem.bin" "$work/expected.bin"; then
  echo "FAIL: $stem.bin differs from the .elf's loadable bytes from $base"; exit 1
fi
(cd "$dir" && sha256sum --quiet -c "$stem.sha256") || { echo "FAIL: $stem.sha256"; exit 1; }
echo "PASS: $stem .hex/.bin = .elf loadable bytes ($n segment(s), base $base), sha256 ok"
