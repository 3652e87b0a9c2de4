#!/bin/sh
# The dealer image across a stand-in for a power cut on the microbit under
# QEMU (how the stand-in works and why: journal_cut.sh): SHUFFLE, DEAL 5,
# then one-card DEALs streamed in; QEMU is frozen after a random number of
# their replies (wherever the CPU is, possibly inside a journal write), the
# storage area saved with "memsave", and a fresh QEMU booted with it loaded
# back. Checked: the banner reports the open round recovered, REVEAL
# publishes it with SHUFFLE's commitment, `fairdeal-tool verify` accepts
# both runs' output as one transcript (every card shown before the cut is
# the order's card at its place: none dealt twice), STATUS shows next_id=2,
# and after a second cut-and-boot the next SHUFFLE gets id 2.
# usage: dealer_cut.sh MACHINE DEALER.elf AREA_BASE AREA_BYTES FAIRDEAL-TOOL
set -eu
machine=$1
image=$2
# the board's QEMU flags (qemu.env of the image's build tree)
. "$(dirname "$0")/board_env.sh"
fd_board_env "$image"
base=$3
bytes=$4
tool=${5:-}
[ -x "$tool" ] || { echo "dealer_cut: no fairdeal-tool ($tool): the transcript cannot be verified" >&2; exit 1; }
work=$(mktemp -d)
qpid=""
trap '[ -n "$qpid" ] && kill "$qpid" 2>/dev/null; rm -rf "$work"' EXIT

fail() { echo "dealer_cut: $*" >&2; cat "$work/out" >&2 2>/dev/null || true; exit 1; }

# start_qemu [FLASH]: the dealer in the background; console input from the
# $work/in pipe (fd 4), output to $work/raw; monitor on $work/mon.in (fd 3)
start_qemu() {
  rm -f "$work/raw" "$work/mon.in" "$work/mon.out" "$work/in"
  mkfifo "$work/mon.in" "$work/mon.out" "$work/in"
  loader=""
  [ -n "${1:-}" ] && loader="-device loader,file=$1,addr=$base,force-raw=on"
  # shellcheck disable=SC2086
  qemu-system-arm -M "$machine" -display none -serial stdio -monitor "pipe:$work/mon" \
    $FD_QEMU_FLAGS $loader -kernel "$image" <"$work/in" >"$work/raw" 2>&1 &
  qpid=$!
  exec 4>"$work/in" # first: QEMU's stdin opens once it has a writer
  cat "$work/mon.out" >/dev/null &
  exec 3>"$work/mon.in"
}

# whole output lines so far: a line still being written is left out (a cut
# right after its first bytes matched would keep only its head)
lines() {
  tr -d '\r' <"$work/raw" >"$work/snap"
  if [ -n "$(tail -c1 "$work/snap")" ]; then sed '$d' "$work/snap"; else cat "$work/snap"; fi
}

# wait_for REGEX COUNT: until COUNT whole output lines match
wait_for() {
  waited=0
  while [ "$(lines | grep -cE "$1" || true)" -lt "$2" ]; do
    sleep 0.05
    waited=$((waited + 1))
    [ "$waited" -lt 1200 ] || fail "no '$1' x$2"
    kill -0 "$qpid" 2>/dev/null || fail "QEMU stopped early"
  done
}

# cut OUT: freeze, save the area, quit; the console output to OUT
cut() {
  echo "stop" >&3
  echo "memsave $base $bytes \"$work/flash.new\"" >&3
  echo "quit" >&3
  wait "$qpid" || true
  qpid=""
  exec 3>&- 4>&-
  tr -d '\r' <"$work/raw" >"$1"
  [ -s "$work/flash.new" ] || fail "memsave wrote nothing"
  mv "$work/flash.new" "$work/flash.bin"
}

# run 1: a round dealt into, cut after 1 to 8 one-card DEAL replies
start_qemu
wait_for '^Type HELP' 1
printf 'SHUFFLE\r' >&4
wait_for '^OK SHUFFLE' 1
printf 'DEAL 5\r' >&4
wait_for '^OK DEAL' 1
more=$(($(od -An -N2 -tu2 /dev/urandom) % 8 + 1))
i=0
while [ $i -lt 12 ]; do printf 'DEAL 1\r' >&4; i=$((i + 1)); done
wait_for '^OK DEAL' $((1 + more))
cut "$work/out1"
# whole reply lines only: the cut can stop QEMU in the middle of one
if [ -n "$(tail -c1 "$work/out1")" ]; then sed -i '$d' "$work/out1"; fi
shown=$(grep -c '^OK DEAL' "$work/out1")
commit=$(sed -n 's/^OK SHUFFLE .* commitment=\([0-9a-f]*\) .*/\1/p' "$work/out1")
[ -n "$commit" ] || fail "no SHUFFLE commitment"

# run 2: the round comes back; REVEAL it, STATUS, then cut again
start_qemu "$work/flash.bin"
wait_for '^Type HELP' 1
printf 'REVEAL\rSTATUS\r' >&4
wait_for '^OK STATUS' 1
cut "$work/out2"
grep -q '^\*\*\* RECOVERED open round id=1 after a power cut at card [0-9]*' "$work/out2" ||
  fail "no RECOVERED banner: $(cat "$work/out2")"
reveal=$(grep '^OK REVEAL ' "$work/out2") || fail "no REVEAL after the cut"
echo "$reveal" | grep -q " commitment=$commit " || fail "REVEAL's commitment is not SHUFFLE's"
grep -q '^OK STATUS .* next_id=2 journal=ok seq=' "$work/out2" || fail "STATUS: $(grep '^OK STATUS' "$work/out2")"
got=$(cat "$work/out1" "$work/out2" | "$tool" verify 2>&1) || fail "fairdeal-tool verify: $got"
echo "fairdeal-tool verify over both runs: $got"

# run 3: ids continue
start_qemu "$work/flash.bin"
wait_for '^Type HELP' 1
printf 'SHUFFLE\r' >&4
wait_for '^OK SHUFFLE' 1
cut "$work/out3"
grep -q '^OK SHUFFLE mode=round device=[0-9a-f]* id=2 ' "$work/out3" || fail "ids: $(grep '^OK SHUFFLE' "$work/out3")"
echo "dealer_cut: round 1 cut after $shown DEAL replies, recovered and revealed with its commitment; next id 2"
