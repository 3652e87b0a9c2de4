#!/bin/sh
# A wire attacker's splice: a serial break in the middle of "DEAL 1" (QEMU's
# mux sends one for Ctrl-A b; where it lands among the bytes is QEMU's
# choice). The UART flags it, the driver must report the loss
# (FD_ERR_OVERRUN) and the console must never execute what is left of the
# damaged line: no reply may come from "DEAL 1", "AL 1" or a line with a
# NUL in it, only OK STATUS, ERR overrun and OK BYE; and the loss must show
# (an ERR overrun reply, or the read loop ending before QUIT is answered).
# usage: console_break.sh MACHINE DEALER.elf
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'STATUS\nDE\001bAL 1\nSTATUS\nQUIT\n' >"$work/in"
rc=0
FD_QEMU_SERIAL=mon:stdio "$here/run.sh" "$1" "$2" "$work/in" >"$work/raw" 2>/dev/null || rc=$?
tr -d '\r' <"$work/raw" >"$work/out"
grep -E '^(OK|ERR) ' "$work/out" >"$work/replies" || true
fail() { echo "FAIL: $1"; echo "---- console ----"; cat "$work/out"; exit 1; }
[ "$rc" -eq 0 ] || fail "the dealer exited with status $rc"
bad=$(grep -Ev '^(OK STATUS |ERR overrun|OK BYE)' "$work/replies" || true)
[ -z "$bad" ] || fail "a damaged line was executed: $bad"
grep -q '^ERR overrun' "$work/replies" || ! grep -q '^OK BYE' "$work/replies" ||
  fail "the break left no trace: every line answered as if nothing was lost"
echo "PASS: the break was reported, no damaged line executed ($(wc -l <"$work/replies") replies)"
