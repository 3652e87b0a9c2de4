#!/bin/sh
# End to end: boot a board's dealer image in QEMU, send a scripted session on
# its serial port, check every reply, and recompute each commitment on the
# host with sha256sum from the REVEAL reply (as docs/PROTOCOL.md tells a
# player to).
# usage: dealer_e2e.sh BOARD MACHINE DEALER.elf
set -eu
here=$(cd "$(dirname "$0")" && pwd)
board=$1
machine=$2
image=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/in" <<'EOF'
STATUS
DEAL 1
NEW spanish40 2
SHUFFLE
DEAL 5
DEAL 2 3
BURN
this is not a command
DEAL 0
REVEAL
DEAL 1
NEW french 1 2
SHUFFLE full
DEAL 13 4
DEAL 2
DEAL 2
REVEAL
STATUS
QUIT
EOF

rc=0
"$here/run.sh" "$machine" "$image" "$work/in" >"$work/raw" || rc=$?
tr -d '\r' <"$work/raw" >"$work/out"
if [ "$rc" -ne 0 ]; then
  cat "$work/out"
  echo "FAIL: the dealer exited with status $rc"
  exit 1
fi
# the replies, one per command, in order (echo and prompts dropped)
grep -E '^(OK|ERR) ' "$work/out" >"$work/replies" || true

failures=0
expect() { # expect LINE_NO EXTENDED_REGEX
  got=$(sed -n "$1p" "$work/replies")
  if printf '%s\n' "$got" | grep -Eq "^$2\$"; then
    echo "ok   $1: $got" | cut -c1-120
  else
    echo "FAIL $1: got '$got'"
    echo "         want /^$2\$/"
    failures=$((failures + 1))
  fi
}
hex64='[0-9a-f]{64}'
expect 1 "OK STATUS board=$board deck=french decks=1 cards=52 left=0 state=factory shuffles=0 .* entropy=ok health=ok .*"
expect 2 'ERR state not shuffled: SHUFFLE first'
expect 3 'OK NEW deck=spanish40 decks=2 jokers=0 cards=80'
expect 4 "OK SHUFFLE id=1 mode=drbg cards=80 commit=$hex64"
expect 5 'OK DEAL( (1[0-2]|[1-7])[OCEB]){5} left=75'
expect 6 'OK DEAL 1:[^ ]+ 2:[^ ]+ 3:[^ ]+ left=69'
expect 7 'OK BURN left=68'
expect 8 'ERR unknown .*'
expect 9 'ERR range n must be 1 to 432'
expect 10 "OK REVEAL id=1 salt=[0-9a-f]{32} order=.*"
expect 11 'ERR state order already revealed: SHUFFLE first'
expect 12 'OK NEW deck=french decks=1 jokers=2 cards=54'
expect 13 "OK SHUFFLE id=2 mode=full cards=54 commit=$hex64"
expect 14 'OK DEAL 1:[^ ]+ 2:[^ ]+ 3:[^ ]+ 4:[^ ]+ left=2'
expect 15 'OK DEAL [^ ]+ [^ ]+ left=0'
expect 16 'ERR exhausted only 0 cards left'
expect 17 "OK REVEAL id=2 salt=[0-9a-f]{32} order=.*"
expect 18 "OK STATUS board=$board deck=french decks=1 cards=54 left=0 state=revealed shuffles=2 .*"
expect 19 'OK BYE'
[ "$(wc -l <"$work/replies")" -eq 19 ] || { echo "FAIL: expected 19 replies"; failures=$((failures + 1)); }

# commitments: sha256(salt + " " + order) must equal the SHUFFLE reply's
check_commitment() { # SHUFFLE_LINE REVEAL_LINE DECKS JOKER_COUNT
  commit=$(sed -n "$1p" "$work/replies" | sed 's/.* commit=//')
  reveal=$(sed -n "$2p" "$work/replies")
  salt=$(printf '%s\n' "$reveal" | sed 's/.* salt=\([0-9a-f]*\) order=.*/\1/')
  order=$(printf '%s\n' "$reveal" | sed 's/.* order=//')
  got=$(printf '%s %s' "$salt" "$order" | sha256sum | cut -d' ' -f1)
  if [ "$got" = "$commit" ]; then
    echo "ok   commitment of shuffle on reply $1 verifies with sha256sum"
  else
    echo "FAIL commitment: sha256sum gives $got, dealer committed to $commit"
    failures=$((failures + 1))
  fi
  # the revealed order holds each card of the shoe exactly once per deck
  printf '%s\n' "$order" | tr ' ' '\n' | sort | uniq -c | awk -v d="$3" -v j="$4" '($2 == "JK" && $1 != j) || ($2 != "JK" && $1 != d) { bad = 1 } END { exit bad }' ||
    { echo "FAIL: revealed order is not the shoe"; failures=$((failures + 1)); }
}
check_commitment 4 10 2 0
check_commitment 13 17 1 2
# the first 5 dealt cards are the first 5 of the revealed order
dealt=$(sed -n 5p "$work/replies" | sed 's/^OK DEAL //; s/ left=.*//')
first=$(sed -n 10p "$work/replies" | sed 's/.* order=//' | cut -d' ' -f1-5)
[ "$dealt" = "$first" ] || { echo "FAIL: dealt '$dealt' but order begins '$first'"; failures=$((failures + 1)); }

if [ "$failures" -ne 0 ]; then
  echo "---- console ----"
  cat "$work/out"
  exit 1
fi
echo "PASS: $board dealer end to end (QEMU $machine)"
