#!/bin/sh
# End to end: boot a board's dealer image in QEMU, send a scripted session on
# its serial port, check every reply, and recompute each commitment on the
# host with sha256sum from the REVEAL reply (as docs/PROTOCOL.md tells a
# player to), and check the whole console transcript with `fairdeal-tool
# verify` too.
# usage: dealer_e2e.sh BOARD MACHINE DEALER.elf FAIRDEAL-TOOL
set -eu
here=$(cd "$(dirname "$0")" && pwd)
board=$1
machine=$2
image=$3
tool=${4:-}
[ -x "$tool" ] || { echo "dealer_e2e: no fairdeal-tool ($tool): the transcript cannot be verified" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The whole script arrives while the dealer runs its power-on self-tests:
# it must fit the boards' 256-byte receive ring (boards/common/uart/rx_ring.h).
cat >"$work/in" <<'EOF'
STATUS
DEAL 1
NEW spanish40 2
SHUFFLE drbg
DEAL 5
DEAL 2 3
BURN
bogus
DEAL 0
REVEAL
DEAL 1
NEW french 1 2
SHUFFLE full
DEAL 13 4
DEAL 2
DEAL 2
REVEAL
NEW french
SHUFFLE slots=2 beacon=0:7
DEAL 1
SEED 0 cafe
SEED 0 00
CLOSE
DEAL 3
REVEAL
STATUS
QUIT
EOF
[ "$(wc -c <"$work/in")" -lt 256 ] || { echo "FAIL: the script does not fit the 256-byte receive ring"; exit 1; }

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
chain="seq=[0-9]+ head=$hex64" # the journal's chain head, exported by REVEAL and STATUS
expect 1 "OK STATUS board=$board deck=french decks=1 cards=52 left=0 state=factory shuffles=0 .* entropy=ok health=ok .*"
expect 2 'ERR state not shuffled: SHUFFLE first'
expect 3 'OK NEW deck=spanish40 decks=2 jokers=0 cards=80'
expect 4 "OK SHUFFLE id=1 mode=drbg cards=80 commit=$hex64"
expect 5 'OK DEAL( (1[0-2]|[1-7])[OCEB]){5} left=75'
expect 6 'OK DEAL 1:[^ ]+ 2:[^ ]+ 3:[^ ]+ left=69'
expect 7 'OK BURN left=68'
expect 8 'ERR unknown .*'
expect 9 'ERR range n must be 1 to 432'
expect 10 "OK REVEAL id=1 $chain salt=[0-9a-f]{32} order=.*"
expect 11 'ERR state order already revealed: SHUFFLE first'
expect 12 'OK NEW deck=french decks=1 jokers=2 cards=54'
expect 13 "OK SHUFFLE id=2 mode=full cards=54 commit=$hex64"
expect 14 'OK DEAL 1:[^ ]+ 2:[^ ]+ 3:[^ ]+ 4:[^ ]+ left=2'
expect 15 'OK DEAL [^ ]+ [^ ]+ left=0'
expect 16 'ERR exhausted only 0 cards left'
expect 17 "OK REVEAL id=2 $chain salt=[0-9a-f]{32} order=.*"
# a verifiable round whose slot 0 takes a public beacon value (docs/VERIFY.md)
expect 18 'OK NEW deck=french decks=1 jokers=0 cards=52'
round="device=[0-9a-f]+ id=3 shoe=french:1:0 slots=03 beacon=0:7"
expect 19 "OK SHUFFLE mode=round $round cards=52 commitment=$hex64 state=seeding"
expect 20 'ERR state round open for seeds: CLOSE first'
expect 21 'OK SEED id=3 slot=0 state=seeding'
expect 22 'ERR state slot already filled: a seed is never replaced'
expect 23 'OK CLOSE id=3 state=closed label=seeded'
expect 24 'OK DEAL [^ ]+ [^ ]+ [^ ]+ left=49'
expect 25 "OK REVEAL $round secret=[0-9a-f]+ seeds=0:cafe commitment=$hex64 order=[0-9,]+ $chain label=seeded"
expect 26 "OK STATUS board=$board deck=french decks=1 cards=52 left=0 state=revealed shuffles=3 .* next_id=4 journal=ok $chain"
expect 27 'OK BYE'
[ "$(wc -l <"$work/replies")" -eq 27 ] || { echo "FAIL: expected 27 replies"; failures=$((failures + 1)); }
# the reference verifier recomputes the round from the REVEAL line alone
# (VERIFY.md's round line after "OK REVEAL "), and rejects its tamperings
if sed -n 25p "$work/replies" | sed 's/^OK REVEAL //' | python3 "$here/../../tools/verify.py" check; then
  echo "ok   verify.py recomputes the seeded round"
else
  echo "FAIL verify.py rejected the seeded round"
  failures=$((failures + 1))
fi

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
if "$tool" verify --transcript "$work/out"; then
  echo "ok   fairdeal-tool verify accepts the console transcript"
else
  echo "FAIL fairdeal-tool verify rejected the console transcript"
  failures=$((failures + 1))
fi

if [ "$failures" -ne 0 ]; then
  echo "---- console ----"
  cat "$work/out"
  exit 1
fi
echo "PASS: $board dealer end to end (QEMU $machine)"
