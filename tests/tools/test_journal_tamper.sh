#!/bin/sh
# The dealer's journal file edited, a record dropped, two records swapped,
# or read with the wrong key, by someone who can rewrite flash but lacks
# the device key: `fairdeal-tool verify --journal` reports each (exit 1,
# naming the first bad record) and the dealer reports it at mount (banner)
# and refuses rounds (ERR journal). The untouched file verifies, and a round
# whose revealed material was changed under a recomputed tag cannot be made
# (no key), so the commitment check is shown with a wrong --key instead.
# usage: test_journal_tamper.sh DEALER FAIRDEAL-TOOL
set -u
dealer=$1
tool=$2
. "$(dirname "$0")/checks.sh"

F=$work/journal.bin
printf 'TIME 1700000000\nSHUFFLE slots=2 beacon=1:1000000\nSEED 0 abcd\nSEED 1 ef\nDEAL 2 3\nBURN\nREVEAL\nSHUFFLE drbg\nDEAL 3\nDEAL 3\nREVEAL\nSHUFFLE full\nDEAL 5 2\nREVEAL\nSHUFFLE\nDEAL 4\n' |
  "$dealer" --storage "$F" >/dev/null
got=$("$tool" verify --journal "$F" 2>&1)
case $got in
"OK journal records="*" rounds_checked=3 "*) pass "the dealer's journal verifies: $got" ;;
*) fail "untouched journal: $got" ;;
esac

# RECALL: every revealed hand recomputes its commitment and its cards (verify --recall);
# a changed card, a changed byte of S, or a changed client seed is rejected
printf 'RECALL\n' | "$dealer" --storage "$F" | tr -d '\r' >"$work/recall"
got=$("$tool" verify --recall "$work/recall" 2>&1)
[ "$got" = "OK recall hands=4 verified=3" ] && pass "RECALL verifies: $got" || fail "RECALL: $got"
recall_rejects() { # WHAT SED_EXPRESSION
  sed -E "$2" "$work/recall" >"$work/recall.bad"
  if cmp -s "$work/recall" "$work/recall.bad"; then
    fail "RECALL $1: the edit changed nothing"
  elif got=$("$tool" verify --recall "$work/recall.bad" 2>&1); then
    fail "RECALL with $1 accepted: $got"
  else
    pass "RECALL with $1 rejected: $got"
  fi
}
recall_rejects "a card changed" 's/(cards@0=1:)(1?[0-9AKQJT])([SHDC])/\1\2X/'
# S's first hex digit replaced by another (0 -> 1, anything else -> 0)
recall_rejects "S changed" 's/ reveal0=0/ reveal0=@/; s/ reveal0=[1-9a-f]/ reveal0=0/; s/ reveal0=@/ reveal0=1/'
recall_rejects "a client seed changed" 's/seed=0:abcd/seed=0:abce/'
recall_rejects "the committed beacon index changed" 's/ beacon=1:1000000 / beacon=1:1000001 /'
recall_rejects "the committed beacon dropped" 's/ beacon=1:1000000 / /'

# Rewrite the file: edit / drop / swap records of page 0 (layout: docs/RELIABILITY.md).
tamper() { # MODE OUT
  python3 - "$F" "$2" "$1" <<'EOF'
import struct, sys
src, dst, mode = sys.argv[1], sys.argv[2], sys.argv[3]
data = bytearray(open(src, "rb").read())
PAGE = 1024
def pad4(n): return (n + 3) & ~3
recs, off = [], 68
while off + 12 <= PAGE:
    w0, _, w2 = struct.unpack_from("<III", data, off)
    if w0 == 0xFFFFFFFF:
        break
    n, copy, slen = w0 >> 16, (w0 >> 8) & 1, w2 & 0xFFFF
    size = 12 + (8 if copy else 0) + pad4(n) + (32 if slen else 0) + pad4(slen) + 16 + 4
    recs.append((off, size, w0 & 0xFF, 12 + (8 if copy else 0), n))
    off += size
assert len(recs) >= 6, recs
if mode == "edit":  # one set bit of the 4th record's payload cleared (1 -> 0 bits need no key)
    o, _, _, head, n = recs[3]
    o = next(i for i in range(o + head, o + head + n) if data[i])
    data[o] &= data[o] - 1
elif mode == "drop":  # the 4th record removed, the rest moved down, the end erased
    o, s = recs[3][:2]
    data[o:PAGE] = data[o + s:PAGE] + b"\xff" * s
else:  # two neighbouring records of the same size swapped
    for (o1, s1, *_), (o2, s2, *_) in zip(recs, recs[1:]):
        if s1 == s2 and data[o1:o1 + s1] != data[o2:o2 + s2]:
            a, b = bytes(data[o1:o1 + s1]), bytes(data[o2:o2 + s2])
            data[o1:o1 + s1], data[o2:o2 + s2] = b, a
            break
    else:
        sys.exit("no two neighbouring records of one size")
open(dst, "wb").write(data)
EOF
}

for mode in edit drop reorder; do
  if ! tamper $mode "$work/$mode.bin"; then
    fail "could not $mode"
    continue
  fi
  cmp -s "$F" "$work/$mode.bin" && fail "$mode changed nothing"
  got=$("$tool" verify --journal "$work/$mode.bin" 2>&1)
  rc=$?
  case "$rc $got" in
  "1 fairdeal-tool: verify: journal: "*" at page 0 offset "*) pass "verify reports the $mode: $got" ;;
  *) fail "verify after $mode: rc $rc: $got" ;;
  esac
  printf 'SHUFFLE\nSTATUS\n' | "$dealer" --storage "$work/$mode.bin" | tr -d '\r' >"$work/$mode.out"
  grep -q '^\*\*\* JOURNAL FAILED: corrupt (.* at seq [0-9]* page 0)' "$work/$mode.out" &&
    pass "the dealer reports the $mode at mount" || fail "dealer banner after $mode: $(cat "$work/$mode.out")"
  grep -q '^ERR journal corrupt' "$work/$mode.out" && grep -q '^OK STATUS .* journal=failed' "$work/$mode.out" &&
    pass "the dealer refuses rounds after the $mode" || fail "dealer after $mode: $(cat "$work/$mode.out")"
done

got=$("$tool" verify --journal "$F" --key 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f 2>&1)
[ $? -eq 1 ] && pass "the wrong key verifies nothing: $got" || fail "wrong key: $got"

finish test_journal_tamper
