#!/bin/sh
# The journal across power cuts on the microbit under QEMU. QEMU's NVMC
# never tears a write and nothing persists between runs, and a reset reloads
# the image and keeps RAM, so a reset is no power cut. The stand-in: let the
# image append records, freeze the machine at an arbitrary moment (monitor
# "stop" after a random number of acknowledged appends, wherever the CPU
# is, possibly inside a program sequence), save the storage area with
# "memsave" (QEMU 7.2's "pmemsave" reads the microbit's ROM-device flash as
# zeros; "memsave" through the CPU's view reads it right), quit, and boot a
# fresh QEMU with the saved area loaded back ("-device loader", raw). Checked after each cut: the journal mounts, the
# next seq is past every acknowledged one, the newest round is at least the
# last acknowledged one and, if it was not revealed, it is revealed now from
# the seed kept in flash; the next round id is the last one + 1.
# usage: journal_cut.sh MACHINE IMAGE.elf AREA_BASE AREA_BYTES [CUTS]
set -eu
machine=$1
image=$2
# the board's QEMU flags (qemu.env of the image's build tree)
. "$(dirname "$0")/board_env.sh"
fd_board_env "$image"
base=$3
bytes=$4
cuts=${5:-4}
work=$(mktemp -d)
qpid=""
trap '[ -n "$qpid" ] && kill "$qpid" 2>/dev/null; rm -rf "$work"' EXIT

fail() { echo "journal_cut: $*" >&2; cat "$work/out" >&2 2>/dev/null || true; exit 1; }

# start_qemu INPUT [FLASH]: QEMU in the background, console to $work/raw,
# monitor on the $work/mon.in / mon.out pipes
start_qemu() {
  rm -f "$work/raw" "$work/mon.in" "$work/mon.out"
  mkfifo "$work/mon.in" "$work/mon.out"
  loader=""
  [ -n "${2:-}" ] && loader="-device loader,file=$2,addr=$base,force-raw=on"
  # shellcheck disable=SC2086
  qemu-system-arm -M "$machine" -display none -serial stdio -monitor "pipe:$work/mon" \
    $FD_QEMU_FLAGS $loader -kernel "$image" <"$1" >"$work/raw" 2>&1 &
  qpid=$!
  cat "$work/mon.out" >/dev/null &
  exec 3>"$work/mon.in"
}

acks() { grep -c '^ACK' "$work/raw" 2>/dev/null || true; }

# the last acknowledged seq and the last round opened with an ack
last_ack_seq=0
last_open_round=0
last_revealed_round=0
printf 'RUN 0\n' >"$work/run0"
printf 'RUN 2\n' >"$work/run2"
flash=""
cut=0
while [ "$cut" -le "$cuts" ]; do
  if [ "$cut" -lt "$cuts" ]; then start_qemu "$work/run0" $flash; else start_qemu "$work/run2" $flash; fi
  want=$(( $(od -An -N2 -tu2 /dev/urandom) % 60 + 10 ))
  waited=0
  if [ "$cut" -lt "$cuts" ]; then
    while [ "$(acks)" -lt "$want" ]; do
      sleep 0.05
      waited=$((waited + 1))
      [ "$waited" -lt 1200 ] || fail "no progress (cut $cut)"
      kill -0 "$qpid" 2>/dev/null || fail "QEMU stopped early (cut $cut)"
    done
    echo "stop" >&3
    echo "memsave $base $bytes \"$work/flash.new\"" >&3
    echo "quit" >&3
  fi
  wait "$qpid" || true
  qpid=""
  exec 3>&-
  tr -d '\r' <"$work/raw" >"$work/out"
  [ "$cut" -lt "$cuts" ] && { [ -s "$work/flash.new" ] || fail "memsave wrote nothing"; }
  grep -q '^FAIL' "$work/out" && fail "image failed (run $cut)"
  resumed=$(grep '^RESUMED' "$work/out") || fail "no RESUMED line (run $cut)"
  next=$(echo "$resumed" | sed 's/.*next=\([0-9]*\).*/\1/')
  last_round=$(echo "$resumed" | sed 's/.*last_round=\([0-9]*\).*/\1/')
  open=$(echo "$resumed" | sed 's/.*open=\([0-9]*\).*/\1/')
  [ "$next" -gt "$last_ack_seq" ] || fail "next seq $next not past acknowledged $last_ack_seq (run $cut)"
  [ "$last_round" -ge "$last_open_round" ] || fail "round $last_open_round lost (run $cut)"
  if [ "$last_open_round" -gt "$last_revealed_round" ] && [ "$last_round" -eq "$last_open_round" ]; then
    # acknowledged open, reveal not acknowledged: open now, or the reveal made it to flash
    [ "$open" -eq 1 ] && { grep -q "^REVEALED round=$last_round\$" "$work/out" || fail "open round not revealed"; }
  fi
  first=$(grep '^ACK .* type=3 ' "$work/out" | head -1 | sed 's/.*round=\([0-9]*\).*/\1/')
  [ -z "$first" ] || [ "$first" -eq $((last_round + 1)) ] || fail "round ids jump: $last_round then $first"
  echo "run $cut: $resumed; $(acks) appends acknowledged before the cut"
  # what this run acknowledged: whole ACK lines only (the cut can stop QEMU
  # in the middle of one, e.g. "ACK seq", which acknowledges nothing)
  if [ -n "$(tail -c1 "$work/out")" ]; then sed '$d' "$work/out"; else cat "$work/out"; fi |
    grep -E '^ACK seq=[0-9]+ type=[0-9]+ round=[0-9]+$' >"$work/acked" || true
  s=$(tail -1 "$work/acked" | sed 's/.*seq=\([0-9]*\).*/\1/')
  [ -z "$s" ] || last_ack_seq=$s
  r=$(grep ' type=3 ' "$work/acked" | tail -1 | sed 's/.*round=\([0-9]*\).*/\1/')
  [ -z "$r" ] || last_open_round=$r
  r=$(grep ' type=6 ' "$work/acked" | tail -1 | sed 's/.*round=\([0-9]*\).*/\1/')
  [ -z "$r" ] || last_revealed_round=$r
  if [ "$cut" -lt "$cuts" ]; then mv "$work/flash.new" "$work/flash.bin"; flash="$work/flash.bin"; fi
  cut=$((cut + 1))
done
grep -q '^DONE' "$work/out" || fail "last run did not finish"
echo "journal_cut: $cuts cuts, every acknowledged append kept, open rounds revealed, ids continuing"
