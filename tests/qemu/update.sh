#!/bin/sh
# Signed updates on a QEMU board with flash writes (docs/SECURITY.md
# "Updates", docs/PROTOCOL.md UPDATE) on its build tree. The signed dealer
# (version V) runs from slot A through the bootloader; `fairdeal-tool update`
# drives UPDATE over QEMU's serial (its stdin/stdout wired to the console).
# UPDATE END restarts the machine and the bootloader installs slot B. "A
# reset" is the power-cut stand-in of journal_cut.sh (QEMU reloads its
# -kernel and loader files at every reset): freeze, save the flash from
# slot A on with "memsave", boot a fresh QEMU with it loaded. Checked:
#   good:     V+1 (the same dealer, signed with the build's key) is accepted,
#             installed, and after the reset the bootloader starts it and
#             STATUS names it, with nothing left pending;
#   rollback: then V again is refused (the counter page holds V+1);
#   from V each of: a flipped signature bit, another key, V-1, a transfer
#             truncated before END, and a transfer cut off (the tool killed
#             and the machine frozen mid-transfer) is refused or never ends,
#             and after the reset V still runs with nothing pending.
# usage: update.sh BUILD_DIR [CASES: comma-separated good,rollback,badsig,otherkey,older,truncated,cut; all]
set -u
bin=$1
cases=${2:-all}
want() { case ",$cases," in ,all,|*,$1,*) return 0 ;; esac; return 1; }
. "$bin/qemu.env"
. "$bin/boot.env"
boot=$bin/bootloader/bootloader.elf
tool=$FD_TOOL
work=$(mktemp -d)
qpid=""
tpid=""
trap 'kill $qpid $tpid 2>/dev/null; rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL $*"; status=1; }
area_bytes=$((FD_MAP_END - FD_SLOT_A_ADDR))

v=$FD_IMAGE_VERSION
"$tool" image-sign --key "$bin/dev-key/key.state" --pub "$bin/dev-key/key.pub" --in "$bin/bootloader/dealer_slot.bin" \
  --version $((v + 1)) --load "$FD_APP_ADDR" --out "$work/new.bin" >/dev/null || { echo "FAIL cannot sign V+1"; exit 1; }
"$tool" lms-keygen --key "$work/other.state" --pub "$work/other.pub" >/dev/null &&
  "$tool" image-sign --key "$work/other.state" --pub "$work/other.pub" --in "$bin/bootloader/dealer_slot.bin" \
    --version $((v + 1)) --load "$FD_APP_ADDR" --out "$work/other.bin" >/dev/null || { echo "FAIL other key"; exit 1; }
size=$(wc -c <"$work/new.bin")
python3 -c "import sys; d = bytearray(open(sys.argv[1], 'rb').read()); d[len(d) - 7] ^= 4; open(sys.argv[2], 'wb').write(d)" \
  "$work/new.bin" "$work/badsig.bin"
hash_of() { "$tool" image-verify --pub "$bin/dev-key/key.pub" --in "$1" | sed -n 's/.* hash=\([0-9a-f]*\)$/\1/p'; }
old_hash=$(hash_of "$bin/bootloader/dealer.signed.bin")
new_hash=$(hash_of "$work/new.bin")

# the first run's flash as separate files (QEMU restores every loader file
# at a reset, so the update's own restart must find slot B unloaded): the
# signed dealer in slot A, an erased counter page
python3 -c "import sys; open(sys.argv[2], 'wb').write(b'\\xff' * int(sys.argv[1], 0))" "$FD_COUNTER_SIZE" \
  "$work/counter.bin"
first="$bin/bootloader/dealer.signed.bin,addr=$FD_SLOT_A_ADDR,force-raw=on -device loader,file=$work/counter.bin,addr=$FD_COUNTER_ADDR"

# start FLASH: QEMU with FLASH loaded at slot A (or "first": the first run's
# files), console from the $work/in pipe (held open on fd 4) into
# $work/raw, monitor on fd 3
start() {
  load="$1,addr=$FD_SLOT_A_ADDR"
  [ "$1" = first ] && load=$first
  rm -f "$work/raw" "$work/in" "$work/mon.in" "$work/mon.out" "$work/out"
  mkfifo "$work/in" "$work/mon.in" "$work/mon.out" "$work/out"
  : >"$work/raw"
  exec 4<>"$work/in"
  # shellcheck disable=SC2086
  qemu-system-arm -M "$FD_QEMU_MACHINE" -display none -serial stdio -monitor "pipe:$work/mon" $FD_QEMU_FLAGS \
    -kernel "$boot" -device loader,file=$load,force-raw=on <"$work/in" >"$work/raw" 2>&1 &
  qpid=$!
  cat "$work/mon.out" >/dev/null &
  exec 3>"$work/mon.in"
  tail -n +1 -f "$work/raw" >"$work/out" &
  tpid=$!
}

# freeze OUT: stop the machine, save the flash from slot A on to OUT, quit
freeze() {
  echo "stop" >&3
  echo "memsave $FD_SLOT_A_ADDR $area_bytes \"$1\"" >&3
  echo "quit" >&3
  wait "$qpid" 2>/dev/null
  qpid=""
  kill "$tpid" 2>/dev/null
  tpid=""
  exec 3>&- 4>&-
  [ -s "$1" ] || fail "memsave wrote nothing"
}

# update NAME FLASH IMAGE [TOOL OPTIONS]: the tool's run from FLASH; its
# status in $rc, its messages in $work/NAME.tool, the flash after in $work/NAME.flash
update() {
  name=$1
  flash=$2
  image=$3
  shift 3
  start "$flash"
  timeout 200 "$tool" update --image "$image" "$@" <"$work/out" >"$work/in" 2>"$work/$name.tool"
  rc=$?
  freeze "$work/$name.flash"
}

# after NAME: a fresh QEMU with $work/NAME.flash: BOOT lines, STATUS, QUIT -> $work/NAME.after
after() {
  printf 'STATUS\nQUIT\n' | timeout 120 qemu-system-arm -M "$FD_QEMU_MACHINE" -display none -monitor none -serial stdio \
    $FD_QEMU_FLAGS -kernel "$boot" -device "loader,file=$work/$1.flash,addr=$FD_SLOT_A_ADDR,force-raw=on" 2>&1 |
    tr -d '\r' >"$work/$1.after"
}

# runs NAME VERSION HASH: after the reset, the bootloader starts that image, nothing pending, STATUS says so
runs() {
  after "$1"
  want=$(printf '0x%08x' "$2")
  if ! grep -qx "BOOT ok version=$want hash=$3" "$work/$1.after" || grep -q '^BOOT update' "$work/$1.after" ||
    ! grep -q "^OK STATUS .* image=$want image_hash=$3" "$work/$1.after"; then
    fail "$1: after the reset, want version $want hash $3 running, nothing pending"
    cat "$work/$1.after"
    return 1
  fi
  return 0
}

# good: V+1 installed, survives the reset (rollback needs it)
update good first "$work/new.bin"
tr -d '\r' <"$work/raw" >"$work/good.console"
if [ $rc -ne 0 ] || ! grep -q "^BOOT update pending in slot B: installed$" "$work/good.console" ||
  ! grep -q "installed version=$(printf '0x%08x' $((v + 1))) hash=$new_hash" "$work/good.tool"; then
  fail "good update: tool exit $rc"; cat "$work/good.tool"; tail -20 "$work/good.console"
elif runs good $((v + 1)) "$new_hash"; then
  echo "ok   good update ($size bytes): installed, the new image runs after a reset: $(grep '^BOOT ok' "$work/good.after")"
fi

# refused NAME FLASH IMAGE WHY VERSION HASH [TOOL OPTIONS]: the tool fails with WHY, the old image stays
refused() {
  name=$1
  flash=$2
  image=$3
  why=$4
  version=$5
  hash=$6
  shift 6
  want "$name" || return 0
  update "$name" "$flash" "$image" "$@"
  if [ $rc -ne 1 ] || ! grep -qF "$why" "$work/$name.tool"; then
    fail "$name: tool exit $rc, want 1 and '$why'"; cat "$work/$name.tool"
  elif runs "$name" "$version" "$hash"; then
    echo "ok   $name refused ($why), the old image runs after a reset"
  fi
}

refused rollback "$work/good.flash" "$bin/bootloader/dealer.signed.bin" \
  "ERR update refused: version older than the minimum (rollback)" $((v + 1)) "$new_hash"
refused badsig first "$work/badsig.bin" "ERR update refused: signature does not verify" "$v" "$old_hash"
refused otherkey first "$work/other.bin" "ERR update refused: signed by another key" "$v" "$old_hash"
refused older first "$bin/bootloader/dealer.older.signed.bin" \
  "ERR update refused: version older than the minimum (rollback)" "$v" "$old_hash"
refused truncated first "$work/new.bin" "ERR update incomplete: received 6000" \
  "$v" "$old_hash" --truncate 6000

# cut off: the tool killed after 100 chunks, the machine frozen mid-transfer
want cut || exit $status
start first
"$tool" update --image "$work/new.bin" <"$work/out" >"$work/in" 2>"$work/cut.tool" &
cpid=$!
waited=0
while [ "$(grep -c '^OK UPDATE DATA' "$work/raw" || true)" -lt 100 ] && [ $waited -lt 2400 ]; do
  sleep 0.05
  waited=$((waited + 1))
done
kill "$cpid" 2>/dev/null
wait "$cpid" 2>/dev/null
freeze "$work/cut.flash"
if runs cut "$v" "$old_hash"; then
  echo "ok   transfer cut off after $(grep -c '^OK UPDATE DATA' "$work/raw") chunks: the old image runs after a reset"
fi
exit $status
