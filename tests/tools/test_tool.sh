#!/bin/sh
# fairdeal-tool: published known answers through the command line, seeded
# determinism, every algorithm's output shape, and exit status 2 with one
# stderr line for each kind of bad argument.
# With the host dealer: `verify` accepts the dealer's real transcripts
# (checked independently with sha256sum too) and rejects each kind of lie.
# usage: test_tool.sh PATH/TO/fairdeal-tool [PATH/TO/host/dealer]
set -u
tool=$1
dealer=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd) # the source tree: tools/verify.py
failures=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
same() { # NAME GOT WANT
  if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got $2, want $3"; fi
}

# RFC 8439 2.3.2 (one block) and 2.4.2 (keystream of the 114-byte example)
key=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
same "chacha20 RFC 8439 2.3.2" "$("$tool" chacha20 --key $key --nonce 000000090000004a00000000 --counter 1 --bytes 64)" \
  10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e
same "chacha20 RFC 8439 2.4.2 keystream" \
  "$("$tool" chacha20 --key $key --nonce 000000000000004a00000000 --counter 1 --bytes 114 | cut -c1-64)" \
  224f51f3401bd9e12fde276fb8631ded8c131f823d2c06e27e4fcaec9ef3cf78
same "chacha20 --bytes 0" "$("$tool" chacha20 --key $key --nonce 000000000000004a00000000 --counter 1 --bytes 0)" ""

# NIST CAVP HMAC_DRBG SHA-256, no reseed COUNT 0, and pr_false COUNT 0
same "hmac-drbg CAVP no_reseed COUNT 0" \
  "$("$tool" hmac-drbg --entropy ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488 \
      --nonce 659ba96c601dc69fc902940805ec0ca8 --bytes 128)" \
  e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89d54fbb978a15b5c443c9ec21036d2460b6f73ebad0dc2aba6e624abf07745bc107694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668961df86803482cb37ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8
same "hmac-drbg CAVP pr_false COUNT 0 (with reseed)" \
  "$("$tool" hmac-drbg --entropy 06032cd5eed33f39265f49ecb142c511da9aff2af71203bffaf34a9ca5bd9c0d \
      --nonce 0e66f71edc43e42a45ad3c6fc6cdc4df \
      --reseed 01920a4e669ed3a85ae8a33b35a74ad7fb2a6bb4cf395ce00334a9c9a5a5d552 --bytes 128)" \
  76fc79fe9b50beccc991a11b5635783a83536add03c157fb30645e611c2898bb2b1bc215000209208cd506cb28da2a51bdb03826aaf2bd2335d576d519160842e7158ad0949d1a9ec3e66ea1b1a064b005de914eac2e9d4f2d72a8616a80225422918250ff66a41bd2f864a6a38cc5b6499dc43f7f2bd09e1e0f8f5885935124

# bytes: exact counts, seeded determinism, two DRBGs differ, TRNG runs differ
for d in hmac chacha20; do
  same "bytes --drbg $d count" "$("$tool" bytes --drbg $d --count 100000 --seed 01 | wc -c)" 100000
  a=$("$tool" bytes --drbg $d --count 64 --seed 0badc0de | od -An -tx1 | tr -d ' \n')
  b=$("$tool" bytes --drbg $d --count 64 --seed 0badc0de | od -An -tx1 | tr -d ' \n')
  same "bytes --drbg $d seeded is deterministic" "$a" "$b"
  c=$("$tool" bytes --drbg $d --count 64 | od -An -tx1 | tr -d ' \n')
  e=$("$tool" bytes --drbg $d --count 64 | od -An -tx1 | tr -d ' \n')
  [ "$c" != "$e" ] && [ "$c" != "$a" ] && pass "bytes --drbg $d from the TRNG differs run to run" ||
    fail "bytes --drbg $d from the TRNG repeated"
  # a prefix of a longer stream is the shorter stream
  same "bytes --drbg $d prefix" "$("$tool" bytes --drbg $d --count 1000 --seed 0badc0de | head -c 64 | od -An -tx1 | tr -d ' \n')" "$a"
done
[ "$("$tool" bytes --drbg hmac --count 64 --seed 01 | od -An -tx1)" != "$("$tool" bytes --drbg chacha20 --count 64 --seed 01 | od -An -tx1)" ] &&
  pass "hmac and chacha20 streams differ" || fail "hmac and chacha20 streams equal"
# the seeded derivation README.md "fairdeal-tool" states, recomputed here from
# it alone (SP 800-90A HMAC_DRBG in Python): entropy input block 0, nonce the
# first 16 bytes of block 1, personalization "fairdeal-tool", one generate
kat=$(python3 -c '
import hashlib, hmac, struct, sys
seed = bytes.fromhex(sys.argv[1])
h = lambda k, m: hmac.new(k, m, hashlib.sha256).digest()
block = lambda i: h(seed, b"fairdeal-tool block" + struct.pack(">I", i))
def update(k, v, data):
    k = h(k, v + b"\x00" + data); v = h(k, v)
    k = h(k, v + b"\x01" + data); v = h(k, v)
    return k, v
k, v = update(bytes(32), b"\x01" * 32, block(0) + block(1)[:16] + b"fairdeal-tool")
out = b""
while len(out) < int(sys.argv[2]):
    v = h(k, v); out += v
print(out[:int(sys.argv[2])].hex())' 0badc0de 100)
same "bytes --drbg hmac --seed: the documented derivation" \
  "$("$tool" bytes --drbg hmac --count 100 --seed 0badc0de | od -An -tx1 | tr -d ' \n')" "$kat"
same "bytes --count 0 streams until the reader stops" "$("$tool" bytes --drbg chacha20 --count 0 --seed 01 | head -c 300000 | wc -c)" 300000

# perms: every line the right shape, for every algorithm and source
check_perms() { # NAME AWK_CHECK ARGS...
  name=$1
  check=$2
  shift 2
  if "$tool" perms "$@" | awk "$check" >/dev/null; then pass "$name"; else fail "$name"; fi
}
perm='{ if (NF != n) exit 1; delete s; for (i = 1; i <= NF; i++) { if ($i < 0 || $i >= n || ($i in s)) exit 1; s[$i] = 1 } c++ } END { if (c != count) exit 1 }'
for src in "--drbg hmac" "--drbg chacha20" "--full-entropy"; do
  # shellcheck disable=SC2086
  check_perms "perms durstenfeld $src" "BEGIN { n = 52; count = 200 } $perm" --algo durstenfeld --n 52 --count 200 $src --seed 02
  # shellcheck disable=SC2086
  check_perms "perms inside-out $src" "BEGIN { n = 9; count = 300 } $perm" --algo inside-out --n 9 --count 300 $src --seed 03
done
check_perms "perms sattolo: single cycles" \
  'BEGIN { n = 8 } { if (NF != n) exit 1; j = 0; len = 0; do { j = $(j + 1); len++ } while (j != 0 && len <= n); if (len != n) exit 1 }' \
  --algo sattolo --n 8 --count 500 --seed 04
check_perms "perms partial k of n" \
  '{ if (NF != 5) exit 1; delete s; for (i = 1; i <= NF; i++) { if ($i >= 52 || ($i in s)) exit 1; s[$i] = 1 } }' \
  --algo partial --n 52 --k 5 --count 500 --seed 05
check_perms "perms sample: sorted distinct" \
  '{ if (NF != 6) exit 1; for (i = 2; i <= NF; i++) if ($i <= $(i - 1)) exit 1; if ($NF >= 49) exit 1 }' \
  --algo sample --n 49 --k 6 --count 500 --full-entropy --seed 06
same "perms seeded is deterministic" "$("$tool" perms --algo durstenfeld --n 10 --count 5 --seed aa | md5sum)" \
  "$("$tool" perms --algo durstenfeld --n 10 --count 5 --seed aa | md5sum)"
# all 6 orders of 3 appear
same "perms n=3 reaches all 6 orders" "$("$tool" perms --algo durstenfeld --n 3 --count 600 --seed 07 | sort -u | wc -l)" 6

# bad arguments: exit 2, one line on stderr, nothing on stdout
bad() { # ARGS...
  out=$("$tool" "$@" 2>/tmp/fd_tool_err.$$)
  rc=$?
  lines=$(wc -l </tmp/fd_tool_err.$$)
  if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && [ -z "$out" ]; then pass "rejects: $*"; else
    fail "bad args '$*': status $rc, $lines stderr lines, stdout '$out'"
  fi
  rm -f /tmp/fd_tool_err.$$
}
bad
bad frobnicate
bad chacha20 --key $key --nonce 000000000000004a00000000 --counter 1
bad chacha20 --key 00 --nonce 000000000000004a00000000 --counter 1 --bytes 1
bad chacha20 --key $key --nonce 0000 --counter 1 --bytes 1
bad chacha20 --key $key --nonce 000000000000004a00000000 --counter x --bytes 1
bad chacha20 --key $key --nonce 000000000000004a00000000 --counter -1 --bytes 1
bad chacha20 --key $key --nonce 000000000000004a00000000 --counter 1x --bytes 1
bad chacha20 --key $key --nonce 000000000000004a00000000 --counter 1 --bytes 64x
bad chacha20 --key $key --nonce 000000000000004a00000000 --counter 4294967296 --bytes 1
bad chacha20 --key $key --nonce 000000000000004a00000000 --counter 4294967295 --bytes 65
bad chacha20 --key zz --nonce 000000000000004a00000000 --counter 1 --bytes 1
bad chacha20 --key $key --key $key --nonce 000000000000004a00000000 --counter 1 --bytes 1
bad chacha20 --key
bad hmac-drbg --entropy 00 --nonce 00 --bytes 1
bad hmac-drbg --nonce 00 --bytes 1
bad hmac-drbg --entropy ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488 --nonce 00 --bytes 65537
bad hmac-drbg --entropy ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488 --nonce 00 --reseed 00 --bytes 1
bad bytes --count 10
bad bytes --drbg aes --count 10
bad bytes --drbg hmac --count 10 --seed xyz
bad bytes --drbg hmac --count 10 --seed ""
bad perms --algo bogo --n 5 --count 1
bad perms --algo durstenfeld --n 0 --count 1
bad perms --algo durstenfeld --n 513 --count 1
bad perms --algo sattolo --n 1 --count 1
bad perms --algo partial --n 5 --count 1
bad perms --algo partial --n 5 --k 6 --count 1
bad perms --algo durstenfeld --n 5 --k 2 --count 1
bad perms --algo durstenfeld --n 5 --count 1 --drbg hmac --full-entropy
bad perms --algo durstenfeld --n 5

# verify: real transcripts from the host dealer, then each kind of lie
if [ -n "$dealer" ]; then
  work=$(mktemp -d)
  printf 'NEW french 2 2\nSHUFFLE drbg\nDEAL 5\nDEAL 2 3\nBURN\nDEAL 1\nREVEAL\nNEW spanish40 1\nSHUFFLE full\nDEAL 40\nREVEAL\nNEW spanish48 8\nSHUFFLE drbg\nDEAL 12 8\nREVEAL\n' |
    "$dealer" >"$work/t"
  tr -d '\r' <"$work/t" >"$work/good"
  out=$("$tool" verify --transcript "$work/good" 2>&1) && [ "$out" = "OK verify rounds=3 dealt=148" ] &&
    pass "verify accepts a host dealer transcript ($out)" || fail "verify rejected a real transcript: $out"
  same "verify reads stdin" "$("$tool" verify <"$work/good")" "OK verify rounds=3 dealt=148"
  same "verify.py reads the same commit-only transcript" "$(python3 "$root/tools/verify.py" transcript "$work/good")" \
    "verify.py: transcript rounds=3 dealt=148"
  # independent recomputation: sha256(salt + " " + order) is each SHUFFLE's commit
  grep '^OK SHUFFLE' "$work/good" | sed 's/.* commit=//' >"$work/commits"
  grep '^OK REVEAL' "$work/good" | while read -r line; do
    salt=$(printf '%s\n' "$line" | sed 's/.* salt=\([0-9a-f]*\) order=.*/\1/')
    order=$(printf '%s\n' "$line" | sed 's/.* order=//')
    printf '%s %s' "$salt" "$order" | sha256sum | cut -d' ' -f1
  done >"$work/recomputed"
  same "sha256sum of every REVEAL is its SHUFFLE's commit" "$(cat "$work/recomputed")" "$(cat "$work/commits")"

  rejects() { # NAME EXPECTED_WORDS FILE
    out=$("$tool" verify --transcript "$3" 2>"$work/err")
    rc=$?
    lines=$(wc -l <"$work/err")
    if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [ -z "$out" ] && grep -q "$2" "$work/err"; then
      pass "verify rejects $1: $(cat "$work/err")"
    else
      fail "verify accepted or misreported $1: status $rc, stdout '$out', stderr '$(cat "$work/err")'"
    fi
  }
  # the first REVEAL's order: its 1st card, and the first card after it with
  # another code (two decks: the 2nd card may be the 1st's twin)
  reveal_no=$(grep -n '^OK REVEAL' "$work/good" | head -1 | cut -d: -f1)
  first=$(sed -n "${reveal_no}p" "$work/good" | sed 's/.* order=//' | cut -d' ' -f1)
  other_at=$(sed -n "${reveal_no}p" "$work/good" | sed 's/.* order=//' | tr ' ' '\n' |
    awk -v f="$first" '$0 != f { print NR; exit }')
  second=$(sed -n "${reveal_no}p" "$work/good" | sed 's/.* order=//' | cut -d' ' -f"$other_at")
  edit_order() { # AWK_ACTION_ON_ARRAY_c OUTPUT: rewrite the first REVEAL's order
    awk -v n="$reveal_no" -v kv="$other_at" "NR == n { k = kv + 0; i = index(\$0, \" order=\"); head = substr(\$0, 1, i + 6);
      m = split(substr(\$0, i + 7), c, \" \"); $1; line = head c[1]; for (j = 2; j <= m; j++) line = line \" \" c[j];
      print line; next } { print }" "$work/good" >"$2"
  }
  # a flipped card: two cards of the order swapped (still the shoe)
  edit_order 't = c[1]; c[1] = c[k]; c[k] = t' "$work/swapped"
  rejects "a flipped card" "commitment does not match" "$work/swapped"
  # a duplicated card: a card of the order replaced by the 1st
  edit_order 'c[k] = c[1]' "$work/dup"
  rejects "a duplicated card" "not a permutation" "$work/dup"
  # a flipped salt digit
  sed "${reveal_no}s/ salt=\\(.\\)/ salt=X\\1/; ${reveal_no}s/ salt=X0/ salt=1/; ${reveal_no}s/ salt=X[0-9a-f]/ salt=0/" \
    "$work/good" >"$work/salt"
  rejects "a flipped salt digit" "commitment does not match" "$work/salt"
  # a dealt card that is not the order's next: the first DEAL's first card changed
  deal_no=$(grep -n '^OK DEAL' "$work/good" | head -1 | cut -d: -f1)
  sed "${deal_no}s/^OK DEAL $first /OK DEAL $second /" "$work/good" >"$work/deal"
  rejects "a dealt card that is not the order's next card" "dealt card 1 was $second" "$work/deal"
  # a DEAL showing no card code: the error names it, a long one by its first 8 characters
  sed "${deal_no}s/^OK DEAL $first /OK DEAL Xyzzy12345 /" "$work/good" >"$work/noncard"
  rejects "a dealt non-card" "'Xyzzy123' is not a card of the shoe$" "$work/noncard"
  # a round dropped (its REVEAL missing) and a round left open
  sed "${reveal_no}d" "$work/good" >"$work/dropped"
  rejects "a round replaced before its REVEAL" "never revealed" "$work/dropped"
  grep -v '^OK REVEAL id=3' "$work/good" >"$work/open"
  rejects "a round left open" "round 3 was never revealed" "$work/open"
  printf 'OK STATUS board=x\n' >"$work/none"
  rejects "a transcript with no round" "no revealed round" "$work/none"

  # verifiable rounds (docs/VERIFY.md): seeded, house-only, one slot left
  # empty at CLOSE; fairdeal-tool and the reference verify.py both check them
  printf 'NEW french 2 2\nSHUFFLE slots=2\nSEED 0 706c61796572\nSEED 1 %s\nDEAL 5\nBURN\nDEAL 2 3\nREVEAL\nNEW spanish40 1\nSHUFFLE\nDEAL 40\nREVEAL\nNEW spanish48 8\nSHUFFLE slots=3 beacon=2:1000000\nSEED 1 616c696365\nSEED 2 %s\nCLOSE\nDEAL 12 8\nREVEAL\n' \
    "$(printf '%0128d' 7)" b3ac0e | "$dealer" | tr -d '\r' >"$work/rounds"
  same "verify accepts a transcript of verifiable rounds" "$("$tool" verify --transcript "$work/rounds" 2>&1)" \
    "OK verify rounds=3 dealt=147"
  same "verify.py reads the same transcript of verifiable rounds" \
    "$(python3 "$root/tools/verify.py" transcript "$work/rounds" 2>&1)" "verify.py: transcript rounds=3 dealt=147"
  # the documented conversion for verify.py: the REVEAL lines without "OK REVEAL "
  # (verify.py also rejects five tamperings of each: seed, S, id, shoe, swap)
  same "verify.py checks the dealer's verifiable rounds" \
    "$(grep '^OK REVEAL device=' "$work/rounds" | sed 's/^OK REVEAL //' | python3 "$root/tools/verify.py" check)" \
    "verify.py: 3 rounds, 0 failures"
  same "a house-only round is labelled so" "$(grep -c 'seeds=none .* label=house-only$' "$work/rounds")" 1
  rnd=$(grep -n '^OK REVEAL device=' "$work/rounds" | head -1 | cut -d: -f1)
  sed "${rnd}s/ seeds=0:706c61796572/ seeds=0:706c61796573/" "$work/rounds" >"$work/r_seed"
  rejects "a changed client seed" "order does not match" "$work/r_seed"
  sed "${rnd}s/ secret=\(.\)/ secret=X\1/; ${rnd}s/ secret=X0/ secret=1/; ${rnd}s/ secret=X[0-9a-f]/ secret=0/" \
    "$work/rounds" >"$work/r_secret"
  rejects "a changed S" "commitment does not match" "$work/r_secret"
  sed 's/ id=1 / id=9 /' "$work/rounds" >"$work/r_id"
  rejects "a changed round id (SHUFFLE and REVEAL alike)" "commitment does not match" "$work/r_id"
  sed "${rnd}s/ id=1 / id=9 /" "$work/rounds" >"$work/r_id2"
  rejects "a REVEAL id other than SHUFFLE's" "differ from SHUFFLE" "$work/r_id2"
  sed 's/ shoe=french:2:2 / shoe=french:2:1 /' "$work/rounds" >"$work/r_shoe"
  rejects "a changed shoe" "not the shoe NEW set up (french:2:2)" "$work/r_shoe"
  sed "${rnd}s/ order=\([0-9]*\),\([0-9]*\),/ order=\2,\1,/" "$work/rounds" >"$work/r_swap"
  rejects "two swapped cards" "order does not match" "$work/r_swap"
  sed "${rnd}s/ label=seeded$/ label=house-only/" "$work/rounds" >"$work/r_label"
  rejects "a seeded round labelled house-only" "mislabelled" "$work/r_label"
  sed "${rnd}s/ commitment=\(.\)/ commitment=X\1/; ${rnd}s/ commitment=X0/ commitment=1/; ${rnd}s/ commitment=X[0-9a-f]/ commitment=0/" \
    "$work/rounds" >"$work/r_commit"
  rejects "a REVEAL commitment other than SHUFFLE's" "not the one SHUFFLE published" "$work/r_commit"
  # round 3 named beacon slot 2, index 1000000, in its commitment; the beacon
  # value came as SEED 2. Another index or slot in the REVEAL line, or in both
  # lines, is caught by both verifiers.
  same "a beacon round: SHUFFLE and REVEAL show beacon=2:1000000" \
    "$(grep -c '^OK \(SHUFFLE mode=round\|REVEAL\) device=.* id=3 .* slots=07 beacon=2:1000000 ' "$work/rounds")" 2
  bcn=$(grep -n '^OK REVEAL device=.* id=3 ' "$work/rounds" | cut -d: -f1)
  sed "${bcn}s/ beacon=2:1000000 / beacon=2:1000001 /" "$work/rounds" >"$work/r_beacon"
  rejects "a REVEAL beacon index other than SHUFFLE's" "differ from SHUFFLE" "$work/r_beacon"
  sed "s/ beacon=2:1000000 / beacon=1:1000000 /" "$work/rounds" >"$work/r_beacon2"
  rejects "another beacon slot (SHUFFLE and REVEAL alike)" "commitment does not match" "$work/r_beacon2"
  sed "s/ beacon=2:1000000 / beacon=2:1000001 /" "$work/rounds" >"$work/r_beacon3"
  rejects "another beacon index (SHUFFLE and REVEAL alike)" "commitment does not match" "$work/r_beacon3"
  sed "s/ beacon=2:1000000 / beacon=2:x /" "$work/rounds" >"$work/r_beacon4"
  rejects "a malformed beacon" "beacon index=x is not a decimal number" "$work/r_beacon4"
  for f in r_beacon r_beacon2 r_beacon3; do
    out=$(grep '^OK REVEAL device=.* id=3 ' "$work/$f" | sed 's/^OK REVEAL //' | python3 "$root/tools/verify.py" check 2>&1)
    case "$out" in
    "verify.py: line 1: commitment does not match the header and S") pass "verify.py rejects $f: $out" ;;
    *) fail "verify.py accepted $f: $out" ;;
    esac
  done
  grep -v '^OK REVEAL device=.* id=3 ' "$work/rounds" >"$work/r_open"
  rejects "a verifiable round left open" "round 3 was never revealed" "$work/r_open"

  # machine mode when piped: the banner's documented lines, then exactly one
  # reply line per command line, each OK or ERR; no prompt, no echo
  printf 'SHUFFLE\nDEAL 5\nREVEAL\n' | "$dealer" | tr -d '\r' >"$work/piped"
  # the banner ends at "Type HELP for commands." (6 lines here: the journal
  # in memory, the development build's secret=test warning)
  nb=$(grep -n '^Type HELP for commands\.$' "$work/piped" | head -1 | cut -d: -f1)
  head -"${nb:-0}" "$work/piped" >"$work/banner"
  if [ -n "$nb" ] && grep -q '^fairdeal dealer ' "$work/banner" && grep -q '^entropy: ' "$work/banner" &&
    grep -q '^device: test secret, id [0-9a-f]\{16\}$' "$work/banner" && grep -q 'secret=test' "$work/banner" &&
    grep -q '^journal: .* seq=[0-9]* head=[0-9a-f]\{64\}$' "$work/banner" &&
    grep -q '^\*\*\* JOURNAL IN MEMORY ONLY' "$work/banner" &&
    [ "$(wc -l <"$work/piped")" -eq $((nb + 3)) ] &&
    sed -n "$((nb + 1))p" "$work/piped" | grep -q '^OK SHUFFLE mode=round device=[0-9a-f]* id=1 ' &&
    sed -n "$((nb + 2))p" "$work/piped" | grep -q '^OK DEAL ' &&
    sed -n "$((nb + 3))p" "$work/piped" | grep -q '^OK REVEAL device=[0-9a-f]* id=1 ' && ! grep -q '>' "$work/piped"; then
    pass "piped dealer: the banner, then one reply line per command"
  else
    fail "piped dealer output: $(cat "$work/piped")"
  fi
  rm -rf "$work"
fi
bad verify --transcript /nonexistent/transcript
bad verify --frobnicate

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS: fairdeal-tool"
