#!/bin/sh
# The reference verifier (tools/verify.py) and the C implementation agree:
# on COUNT random rounds of every shoe size (1..8 decks) that the C side
# derives and Python checks, and on docs/VERIFY.md's vectors, which both
# check; both reject five tamperings of every round they check; and on
# rounds whose S runs out (the keystream continues it, VERIFY.md §6).
# usage: test_verify.sh ROUND_LINES_BINARY SOURCE_ROOT [COUNT]
set -eu
tool=$1
root=$2
count=${3:-1000}
lines=$(mktemp)
trap 'rm -f "$lines"' EXIT
seed=$(date +%s)
echo "test_verify.sh: random rounds from seed $seed"
"$tool" random "$count" "$seed" >"$lines"
test "$(wc -l <"$lines")" -eq $((8 * count))
python3 "$root/tools/verify.py" check "$lines" --tamper-every 5
python3 "$root/tools/verify.py" vectors "$root/docs/VERIFY.md"
"$tool" check "$root/docs/VERIFY.md"
"$tool" check "$lines"
# S that runs out: the draws continue into the keystream alike on both sides
"$tool" exhaust | python3 "$root/tools/verify.py" exhaust
