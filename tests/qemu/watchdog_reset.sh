#!/bin/sh
# The watchdog resets a hung dealer and the dealer comes back. The dealer
# test image (dealer_test in firmware/CMakeLists.txt, never built for
# release) has HANG, which replies and then spins without kicking the
# watchdog, and prints "RESET cause=<n>" (hal/reset.h numbering) before its
# banner. Driven through a pipe one step at a time: deal a round, HANG;
# the same QEMU must then print a second banner with cause 3 (watchdog) by
# itself, stay up while idle (3 s wall: under -icount sleep=off an idle
# lm3s6965evb skips ahead in virtual time, so that is many timeouts), have
# the round dealt before the hang recovered from its journal (the RAM store
# is in .noinit: QEMU keeps RAM across the reset, as flash would keep it)
# and revealed under its commitment, continue the round ids, and log the
# second power-on with cause watchdog in the journal (LOG). Also checked: the first boot does not
# claim a watchdog reset, and no fault or refusal happened. The
# wall time from HANG to the second banner is printed (the watchdog counts
# virtual time: FD_WATCHDOG_TIMEOUT_MS in the board's board.cmake).
# First, the production image (DEALER.elf) must not know HANG: a line from
# the wire cannot stop a real dealer.
# usage: watchdog_reset.sh MACHINE DEALER_TEST.elf DEALER.elf
set -eu
here=$(cd "$(dirname "$0")" && pwd)
machine=$1
image=$2
production=$3
work=$(mktemp -d)
qpid=""
trap '[ -n "$qpid" ] && kill "$qpid" 2>/dev/null; rm -rf "$work"' EXIT
fail() {
  echo "watchdog_reset: FAIL: $*"
  tr -d '\r' <"$work/raw" 2>/dev/null || true
  exit 1
}

printf 'MODE machine\nHANG\nQUIT\n' >"$work/prod.in"
"$here/run.sh" "$machine" "$production" "$work/prod.in" >"$work/raw" 2>&1 || fail "the production dealer did not quit cleanly"
tr -d '\r' <"$work/raw" | grep -q '^ERR unknown' || fail "the production dealer does not refuse HANG"
tr -d '\r' <"$work/raw" | grep -q '^OK HANG' && fail "the production dealer knows HANG"
: >"$work/raw"

mkfifo "$work/in"
FD_QEMU_TIMEOUT=${FD_QEMU_TIMEOUT:-240} "$here/run.sh" "$machine" "$image" "$work/in" >"$work/raw" 2>&1 &
qpid=$!
exec 3>"$work/in"

# wait_for PATTERN COUNT SECONDS: until COUNT lines match (CRs dropped)
wait_for() {
  n=0
  while [ "$(tr -d '\r' <"$work/raw" | grep -c -- "$1" || true)" -lt "$2" ]; do
    n=$((n + 1))
    [ "$n" -le $(($3 * 10)) ] || fail "no '$1' (x$2) within $3 s"
    kill -0 "$qpid" 2>/dev/null || fail "QEMU stopped while waiting for '$1'"
    sleep 0.1
  done
}

wait_for '^Type HELP' 1 60
printf 'MODE machine\nSHUFFLE\nDEAL 2\nHANG\n' >&3
wait_for '^OK HANG' 1 60
start=$(date +%s)
wait_for '^RESET cause=' 2 200
wait_for '^Type HELP' 2 30
took=$(($(date +%s) - start))
# idle: waiting for a command must keep the watchdog fed (no third boot)
sleep 3
[ "$(tr -d '\r' <"$work/raw" | grep -c '^RESET cause=')" -eq 2 ] || fail "reset again while idle"
printf 'MODE machine\nSTATUS\nREVEAL\nSTATUS\nLOG\nQUIT\n' >&3
rc=0
wait "$qpid" || rc=$?
qpid=""
exec 3>&-
tr -d '\r' <"$work/raw" >"$work/out"
[ "$rc" -eq 0 ] || fail "the dealer exited with status $rc after the reset"
first=$(grep '^RESET cause=' "$work/out" | sed -n 1p)
second=$(grep '^RESET cause=' "$work/out" | sed -n 2p)
[ "$first" != "RESET cause=3" ] || fail "the first boot already claims a watchdog reset"
[ "$second" = "RESET cause=3" ] || fail "after HANG: '$second', not 'RESET cause=3' (watchdog)"
grep -q '^OK DEAL' "$work/out" || fail "the round before HANG was not dealt"
grep -q '^OK STATUS' "$work/out" || fail "no STATUS reply after the reset"
# the journal (RAM in .noinit on these boards) survived the reset: the round
# dealt before HANG is recovered and revealed with the commitment it was
# shuffled under, and ids continue
committed=$(grep '^OK SHUFFLE' "$work/out" | sed -n 's/.* id=1 .*commitment=\([0-9a-f]*\).*/\1/p')
[ -n "$committed" ] || fail "no round 1 commitment before HANG"
grep -q 'RECOVERED open round id=1' "$work/out" || fail "the open round was not recovered after the reset"
grep -q "^OK REVEAL .* id=1 .*commitment=$committed" "$work/out" || fail "round 1 not revealed with its commitment"
grep '^OK STATUS' "$work/out" | sed -n 1p | grep -q ' next_id=2 ' || fail "round ids do not continue after the reset"
# the journal's power-on records: the first boot's cause, then the watchdog
log=$(grep '^OK LOG' "$work/out") || fail "no LOG reply"
echo "$log" | grep -q '| seq=[0-9]* power-on cause=[a-z-]* |.*| seq=[0-9]* power-on cause=watchdog ' ||
  fail "the journal's power-on record after the reset does not say watchdog: $log"
grep -q '^OK BYE' "$work/out" || fail "no QUIT reply after the reset"
if grep -E '^(FAULT|FATAL)' "$work/out"; then fail "a fault or refusal instead of a clean reset"; fi
echo "watchdog_reset: $machine: HANG -> watchdog reset -> banner again in ${took} s wall; $first, then $second"
