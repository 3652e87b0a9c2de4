#!/bin/sh
# The reference verifier (tools/verify.py) and the C implementation agree:
# on COUNT random rounds of every shoe size (1..8 decks) that the C side
# derives and Python checks, and on docs/VERIFY.md's vectors, which both
# check; both reject five tamperings of every round they check; and on
# rounds whose S runs out (the keystream continues it, VERIFY.md §6); and
# VERIFY.md §2's secret_min examples are the formula's, in Python and in C.
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
# VERIFY.md section 2: "Examples: n = 52: 40 bytes; 312: 296; ..." from the formula
examples=$(python3 - "$root" <<'EOT'
import re, sys
sys.path.insert(0, sys.argv[1] + "/tools")
import verify
text = open(sys.argv[1] + "/docs/VERIFY.md", encoding="utf-8").read()
m = re.search(r"Examples: n = (\d+): (\d+) bytes((?:; \d+: \d+)+)", text.replace("\n  ", " "))
pairs = [(int(m.group(1)), int(m.group(2)))] + [tuple(map(int, p.split(": "))) for p in m.group(3)[2:].split("; ")]
for n, doc in pairs:
    if verify.secret_min(n) != doc:
        sys.exit("VERIFY.md says secret_min(%d) = %d, the formula gives %d" % (n, doc, verify.secret_min(n)))
    print(n, doc)
EOT
)
[ "$(echo "$examples" | wc -l)" -ge 4 ]
echo "$examples" | while read -r n doc; do
  [ "$("$tool" secret-min "$n")" = "$doc" ] || { echo "fd_round_secret_min($n) is not $doc"; exit 1; }
done
echo "VERIFY.md secret_min examples match the formula (verify.py and fd_round_secret_min): $(echo "$examples" | tr '\n' ' ')"
