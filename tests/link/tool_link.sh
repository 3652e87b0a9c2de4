#!/bin/sh
# fairdeal-tool link against the host dealer (docs/LINK.md "The controller:
# fairdeal-tool link"): a round through the tool, its state file holds the
# device's journal seq; a journal file rolled back to an earlier copy is
# refused (ERR rollback, exit 1), a wrong device secret gets no session
# (exit 1), a state line whose seq is no number stops the tool (exit 2), and a
# device that moved on is taken again.
# usage: tool_link.sh FAIRDEAL_TOOL DEALER
set -u
tool=$1
dealer=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

link() { # state store: stdin lines through the tool
  "$tool" link --test-secret yes --state "$work/state" -- "$dealer" --storage "$work/$1"
}

printf 'NEW french\nSHUFFLE\nDEAL 2 3\nREVEAL\n' | link store >"$work/out1"
rc=$?
seq1=$(sed -n 's/^device=[0-9a-f]* seq=\([0-9]*\) .*/\1/p' "$work/state")
if [ "$rc" = 0 ] && grep -q '^OK LINK session=[0-9a-f]\{64\} ID version=.* device=[0-9a-f]\{16\} seq=' "$work/out1" &&
  grep -q '^OK REVEAL ' "$work/out1" && [ -n "$seq1" ] && grep -q "seq=$seq1 " "$work/out1"; then
  pass "a round through fairdeal-tool link; the state file holds the device's seq $seq1"
else
  fail "round: rc=$rc $(cat "$work/out1") state: $(cat "$work/state")"
fi

cp "$work/store" "$work/store.old"
printf 'SHUFFLE\nDEAL 1\nREVEAL\n' | link store >"$work/out2"
rc=$?
seq2=$(sed -n 's/^device=[0-9a-f]* seq=\([0-9]*\) .*/\1/p' "$work/state")
[ "$rc" = 0 ] && [ "$seq2" -gt "$seq1" ] && pass "a second round: seq $seq1 -> $seq2" || fail "second round: $(cat "$work/out2")"

cp "$work/store.old" "$work/store"
printf 'SHUFFLE\n' | link store >"$work/out3"
rc=$?
if [ "$rc" = 1 ] && grep -q '^ERR rollback device=[0-9a-f]* seq=[0-9]* is below the seq='"$seq2" "$work/out3" &&
  ! grep -q '^OK SHUFFLE' "$work/out3"; then
  pass "the journal rolled back to an earlier copy: refused before any command ($(sed -n 's/^ERR rollback .*\(seq=[0-9]* is below the seq=[0-9]*\).*/\1/p' "$work/out3"))"
else
  fail "rollback not refused: rc=$rc $(cat "$work/out3")"
fi

# the state file's line for this device with a seq that is no number: the
# rollback check must not be skipped (the tool stops, exit 2, no command)
sed 's/ seq=[0-9]* / seq=x1 /' "$work/state" >"$work/state.bad" && mv "$work/state.bad" "$work/state"
printf 'SHUFFLE\n' | link store >"$work/out5" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "state file .* a malformed line for this device" "$work/out5" &&
  ! grep -q '^OK SHUFFLE' "$work/out5"; then
  pass "a state file line with seq=x1: refused, no command sent"
else
  fail "a malformed state line taken: rc=$rc $(cat "$work/out5")"
fi

printf 'STATUS\n' | "$tool" link --secret 0101010101010101010101010101010101010101010101010101010101010101 \
  -- "$dealer" >"$work/out4"
rc=$?
[ "$rc" = 1 ] && grep -q '^ERR link no WELCOME' "$work/out4" && ! grep -q '^OK STATUS' "$work/out4" &&
  pass "a wrong device secret: no session, exit 1" || fail "wrong secret: rc=$rc $(cat "$work/out4")"

[ "$failures" = 0 ] || exit 1
