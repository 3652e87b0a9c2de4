#!/bin/sh
# A whole 8-deck + 2-joker shoe on the dealer image under QEMU: NEW french 8 2,
# a seeded verifiable round, every one of its 432 cards dealt with its own
# DEAL 1 (the journal writes one DEALT per card: docs/RECORDS.md
# "Capacity"), REVEAL; no reply may be an ERR, and `fairdeal-tool verify`
# accepts the transcript (every card is the order's card at its place).
# Commands go in batches of 20 (the 256-byte receive ring).
# usage: dealer_shoe.sh MACHINE DEALER.elf FAIRDEAL-TOOL
set -eu
machine=$1
image=$2
# the board's QEMU flags (qemu.env of the image's build tree)
. "$(dirname "$0")/board_env.sh"
fd_board_env "$image"
tool=${3:-}
[ -x "$tool" ] || { echo "dealer_shoe: no fairdeal-tool ($tool): the transcript cannot be verified" >&2; exit 1; }
work=$(mktemp -d)
qpid=""
trap '[ -n "$qpid" ] && kill "$qpid" 2>/dev/null; rm -rf "$work"' EXIT

fail() { echo "dealer_shoe: $*" >&2; tail -5 "$work/out" >&2 2>/dev/null || true; exit 1; }

mkfifo "$work/in"
# shellcheck disable=SC2086
qemu-system-arm -M "$machine" -display none -serial stdio -monitor none \
  $FD_QEMU_FLAGS -kernel "$image" <"$work/in" >"$work/raw" 2>&1 &
qpid=$!
exec 4>"$work/in"

# wait_for REGEX COUNT: until COUNT output lines match
wait_for() {
  waited=0
  while [ "$(tr -d '\r' <"$work/raw" | grep -cE "$1" || true)" -lt "$2" ]; do
    sleep 0.05
    waited=$((waited + 1))
    [ "$waited" -lt 2400 ] || fail "no '$1' x$2"
    kill -0 "$qpid" 2>/dev/null || fail "QEMU stopped early"
  done
}

wait_for '^Type HELP' 1
printf 'NEW french 8 2\rSHUFFLE slots=2\r' >&4
wait_for '^OK SHUFFLE' 1
printf 'SEED 0 00112233445566778899aabbccddeeff\rSEED 1 7a\r' >&4
wait_for '^OK SEED' 2
dealt=0
while [ $dealt -lt 432 ]; do
  n=20
  [ $((432 - dealt)) -ge $n ] || n=$((432 - dealt))
  i=0
  while [ $i -lt $n ]; do printf 'DEAL 1\r' >&4; i=$((i + 1)); done
  dealt=$((dealt + n))
  wait_for '^(OK DEAL|ERR )' $dealt
done
printf 'REVEAL\rQUIT\r' >&4
wait "$qpid" || true
qpid=""
exec 4>&-
tr -d '\r' <"$work/raw" >"$work/out"
if grep -q '^ERR ' "$work/out"; then fail "an ERR reply: $(grep '^ERR ' "$work/out" | head -1)"; fi
[ "$(grep -c '^OK DEAL' "$work/out")" -eq 432 ] || fail "$(grep -c '^OK DEAL' "$work/out") DEAL replies, not 432"
grep -q '^OK DEAL .* left=0' "$work/out" || fail "the shoe did not end at left=0"
grep -q '^OK REVEAL ' "$work/out" || fail "no REVEAL"
got=$("$tool" verify <"$work/out" 2>&1) || fail "fairdeal-tool verify: $got"
echo "fairdeal-tool verify: $got"
echo "dealer_shoe: 432 cards dealt one per DEAL, revealed, no ERR"
