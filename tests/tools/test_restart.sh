#!/bin/sh
# The host dealer across a kill (docs/PROTOCOL.md "Power loss"): `SHUFFLE`, `DEAL 5`
# into `dealer --storage F`, the process killed (SIGKILL, stdin still open),
# then `REVEAL`, `STATUS` into a fresh `dealer --storage F`: the round is
# revealed with a commitment that verifies (fairdeal-tool verify over both
# runs' output, and tools/verify.py on the round line), the 5 cards shown
# before the kill are the order's first 5, STATUS shows the next id and the
# journal's seq/head that REVEAL exported, and the next SHUFFLE gets id 2.
# usage: test_restart.sh DEALER FAIRDEAL-TOOL
set -u
dealer=$1
tool=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/checks.sh"

F=$work/journal.bin
mkfifo "$work/in"
"$dealer" --storage "$F" <"$work/in" >"$work/run1" &
pid=$!
exec 3>"$work/in" # keeps the dealer's stdin open: it is killed, it does not exit
printf 'SHUFFLE\nDEAL 5\n' >&3
i=0
# the DEAL reply whole: it is written in pieces, and a kill between them
# would leave half a line (nothing follows it until more input comes)
deal_replied() {
  grep -q '^OK DEAL' "$work/run1" && [ "$(tail -c 1 "$work/run1" | od -An -c | tr -d ' ')" = '\n' ]
}
while ! deal_replied && [ $i -lt 300 ]; do
  sleep 0.1
  i=$((i + 1))
done
kill -9 $pid
wait $pid 2>/dev/null
exec 3>&-
tr -d '\r' <"$work/run1" >"$work/out1"
grep -q '^OK DEAL ' "$work/out1" && pass "first run dealt 5 cards, then was killed" ||
  fail "first run: $(cat "$work/out1")"

printf 'REVEAL\nSTATUS\n' | "$dealer" --storage "$F" | tr -d '\r' >"$work/out2"
grep -q '^\*\*\* RECOVERED open round id=1 after a power cut at card 5' "$work/out2" &&
  pass "second run: banner says the open round was recovered" || fail "second run banner: $(cat "$work/out2")"
reveal=$(grep '^OK REVEAL ' "$work/out2")
[ -n "$reveal" ] && pass "REVEAL after the kill" || fail "no REVEAL: $(cat "$work/out2")"
c1=$(sed -n 's/^OK SHUFFLE .* commitment=\([0-9a-f]*\) .*/\1/p' "$work/out1")
c2=$(echo "$reveal" | sed -n 's/.* commitment=\([0-9a-f]*\) .*/\1/p')
[ -n "$c1" ] && [ "$c1" = "$c2" ] && pass "REVEAL's commitment is the one SHUFFLE published" ||
  fail "commitments: SHUFFLE $c1, REVEAL $c2"
got=$(cat "$work/out1" "$work/out2" | "$tool" verify 2>&1)
[ "$got" = "OK verify rounds=1 dealt=5" ] && pass "fairdeal-tool verify over both runs: $got" ||
  fail "fairdeal-tool verify: $got"
echo "$reveal" | sed 's/^OK REVEAL //; s/ seq=[^ ]*//; s/ head=[^ ]*//; s/ label=[^ ]*$//' >"$work/line"
if command -v python3 >/dev/null; then
  python3 "$root/tools/verify.py" check "$work/line" >"$work/py" 2>&1 && pass "verify.py accepts the round line" ||
    fail "verify.py: $(cat "$work/py")"
fi
status=$(grep '^OK STATUS ' "$work/out2")
echo "$status" | grep -q ' next_id=2 ' && pass "STATUS shows the next id" || fail "STATUS: $status"
seq_reveal=$(echo "$reveal" | sed -n 's/.* seq=\([0-9]*\) head=\([0-9a-f]*\).*/\1 \2/p')
seq_status=$(echo "$status" | sed -n 's/.* seq=\([0-9]*\) head=\([0-9a-f]*\).*/\1 \2/p')
[ -n "$seq_reveal" ] && [ "$seq_reveal" = "$seq_status" ] && pass "REVEAL and STATUS export the same chain head" ||
  fail "chain: REVEAL '$seq_reveal', STATUS '$seq_status'"

printf 'SHUFFLE\n' | "$dealer" --storage "$F" | tr -d '\r' >"$work/out3"
grep -q '^OK SHUFFLE mode=round device=[0-9a-f]* id=2 ' "$work/out3" && pass "ids continue: the next SHUFFLE is id 2" ||
  fail "third run: $(cat "$work/out3")"

finish test_restart
