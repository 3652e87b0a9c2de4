#!/bin/sh
# The host store's file (dealer --storage FILE; docs/RECORDS.md "The host
# store"): a file of the wrong size or content is refused and left as it is;
# a missing one is created; --new-storage replaces; two dealers cannot share
# a file; a failed write or sync (eio_shim.so, LD_PRELOAD) fails the command
# and nothing unjournalled is acknowledged; a rollback (the newest page
# erased) shows as power_on_seq below the last seq a controller saw.
# usage: test_host_store.sh DEALER EIO_SHIM
set -u
dealer=$1
shim=$2
# tmpfs where there is one: the checks are about which calls fail, not the
# disk's speed (each write is fdatasync'd)
work=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'exec 3>&-; rm -rf "$work"' EXIT
fails=0
pass() { echo "PASS $1"; }
fail() {
  echo "FAIL $1"
  fails=$((fails + 1))
}

# run FILE INPUT [OPTION]: the dealer's replies in $work/out, stderr in
# $work/err, exit status in $rc
run() {
  { printf "$2" | "$dealer" "${3:---storage}" "$1" 2>"$work/err"; echo $? >"$work/rc"; } | tr -d '\r' >"$work/out"
  rc=$(cat "$work/rc")
}

# a new file where none is
F=$work/F
run "$F" 'SHUFFLE\nDEAL 3\nSTATUS\n'
size=$(stat -c %s "$F" 2>/dev/null || echo 0)
ssize=$(stat -c %s "$F.secret" 2>/dev/null || echo 0)
if [ "$rc" = 0 ] && [ "$size" -gt 0 ] && [ "$ssize" -gt 0 ] && grep -q '^OK STATUS .* journal=ok ' "$work/out"; then
  pass "a missing file is created ($size bytes, .secret $ssize bytes)"
else
  fail "new file: rc=$rc size=$size secret=$ssize $(cat "$work/err")"
fi

# wrong files: refused with a clear error, the dealer does not start, the file is left as it is
refused() { # name file
  cp "$2" "$work/before"
  run "$2" 'SHUFFLE\nSTATUS\n'
  if [ "$rc" = 1 ] && grep -q 'refused and left as it is' "$work/err" && ! grep -q '^OK' "$work/out" &&
    cmp -s "$2" "$work/before"; then
    pass "$1: refused ($(cat "$work/err"))"
  else
    fail "$1: rc=$rc err=$(cat "$work/err") out=$(head -c 200 "$work/out")"
  fi
}
head -c $((size - 1)) "$F" >"$work/short"
refused "one byte short" "$work/short"
: >"$work/empty"
refused "empty" "$work/empty"
head -c 16384 "$F" >"$work/16k"
refused "16 KiB" "$work/16k"
{ cat "$F"; printf 'x'; } >"$work/long"
refused "one byte long" "$work/long"
head -c "$size" /dev/zero >"$work/zeros"
refused "all zeros" "$work/zeros"
head -c "$size" /dev/urandom >"$work/random"
refused "random bytes" "$work/random"
cp "$F" "$work/S"
head -c $((ssize - 1)) "$F.secret" >"$work/S.secret"
cp "$work/S.secret" "$work/secret_before"
refused ".secret one byte short" "$work/S"
cmp -s "$work/S.secret" "$work/secret_before" || fail ".secret changed"
: >"$work/S.secret"
refused ".secret empty" "$work/S"

# a command line it does not know: the usage line, exit status 2, nothing
# started or created (an unknown option, a store option without its path,
# a second store option)
usage='usage: dealer [--storage PATH | --new-storage PATH]'
for args in "--frobnicate $work/U1" "--storage" "--new-storage" "--storage $work/U2 --storage $work/U3"; do
  # shellcheck disable=SC2086 # the words of args are the dealer's arguments
  printf 'STATUS\n' | "$dealer" $args >"$work/out" 2>"$work/err"
  rc=$?
  if [ "$rc" = 2 ] && [ "$(cat "$work/out")" = "$usage" ] && [ ! -e "$work/U1" ] && [ ! -e "$work/U2" ] &&
    [ ! -e "$work/U3" ]; then
    pass "dealer $(echo "$args" | sed "s|$work/||g"): the usage line, exit 2, no store"
  else
    fail "dealer $args: rc=$rc out=$(head -c 200 "$work/out") $(find "$work" -maxdepth 1 -name 'U*' -printf '%f ')"
  fi
done

# --new-storage: explicit, a blank journal whatever the file held
run "$work/random" 'STATUS\n' --new-storage
if [ "$rc" = 0 ] && grep -q '^OK STATUS .* next_id=1 journal=ok ' "$work/out" &&
  [ "$(stat -c %s "$work/random")" = "$size" ]; then
  pass "--new-storage starts a blank journal over a refused file"
else
  fail "--new-storage: rc=$rc $(cat "$work/err")"
fi

# two dealers on one file: the second is refused while the first runs
mkfifo "$work/in"
"$dealer" --storage "$F" <"$work/in" >"$work/first" 2>&1 &
first=$!
exec 3>"$work/in"
for _ in $(seq 100); do
  grep -q '^Type HELP' "$work/first" 2>/dev/null && break
  sleep 0.1
done
run "$F" 'SHUFFLE\n'
if [ "$rc" = 1 ] && grep -q 'in use by another dealer' "$work/err" && ! grep -q '^OK' "$work/out"; then
  pass "a second dealer on the file is refused while the first runs"
else
  fail "lock: rc=$rc $(cat "$work/err") $(head -c 200 "$work/out")"
fi
printf 'REVEAL\nSHUFFLE\n' >&3
exec 3>&-
wait "$first"
run "$F" 'STATUS\n'
if [ "$rc" = 0 ] && grep -q '^OK STATUS .* next_id=3 ' "$work/out"; then
  pass "the file is free again once the first dealer exits (its round 2 kept)"
else
  fail "after the lock: rc=$rc $(cat "$work/err") $(cat "$work/out")"
fi

# Failed writes and syncs. Each run: a new file, SHUFFLE, DEAL 3, DEAL 2,
# with the n-th pwrite (or fdatasync) and every later one failing; then a
# clean start REVEALs. Nothing acknowledged may be lost: an OK SHUFFLE's
# round comes back with its commitment and at least its acknowledged cards,
# and after the first ERR no command that writes is acknowledged.
eio() { # variable
  n=1
  while [ "$n" -le 60 ]; do
    G=$work/eio_$1_$n
    { printf 'SHUFFLE\nDEAL 3\nDEAL 2\n' | env LD_PRELOAD="$shim" "$1=$n" "$dealer" --storage "$G" 2>"$work/err"; } |
      tr -d '\r' >"$work/run1"
    if sed -n '/^ERR/,$p' "$work/run1" | grep -q '^OK \(SHUFFLE\|DEAL\)'; then
      fail "$1=$n: a command acknowledged after a failed write: $(cat "$work/run1")"
    fi
    commitment=$(sed -n 's/^OK SHUFFLE .* commitment=\([0-9a-f]*\) .*/\1/p' "$work/run1")
    cards=$(grep '^OK DEAL' "$work/run1" | sed 's/^OK DEAL //; s/ left=.*//' | wc -w)
    if [ -n "$commitment" ]; then
      printf 'REVEAL\n' | "$dealer" --storage "$G" 2>&1 | tr -d '\r' >"$work/run2"
      at=$(sed -n 's/.*RECOVERED open round id=1 after a power cut at card \([0-9]*\).*/\1/p' "$work/run2")
      if ! grep -q "^OK REVEAL .* commitment=$commitment " "$work/run2" || [ "${at:-0}" -lt "$cards" ]; then
        fail "$1=$n: acknowledged round lost (commitment $commitment, $cards cards): $(cat "$work/run2")"
      fi
    fi
    if [ "$(grep -c '^OK' "$work/run1")" = 3 ] && ! grep -q 'JOURNAL FAILED' "$work/run1"; then
      break # the n-th call comes after the commands: every run before failed one
    fi
    if ! grep -q '^ERR\|JOURNAL FAILED' "$work/run1" && ! grep -q 'write\|sync\|cannot' "$work/err"; then
      fail "$1=$n: the failure was not reported: $(cat "$work/run1")"
    fi
    n=$((n + 1))
  done
  # a run with no failure must come only after many calls: a dealer that
  # skipped the call (no sync) would never fail
  if [ "$n" -gt 8 ] && [ "$n" -le 60 ]; then
    pass "$1: the first $((n - 1)) failure points each fail the command in flight, nothing acknowledged lost"
  else
    fail "$1: runs end at n=$n"
  fi
}
eio FD_EIO_PWRITE
eio FD_EIO_SYNC

# The .secret companion the same way: PROVISION acknowledged only when the
# secret is on disk (a clean restart shows it provisioned, same device id).
secret=5f0e3a91c27d84b6a5f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4e5f6071
provision() { # variable
  n=1
  while [ "$n" -le 400 ]; do
    P=$work/prov_$1_$n
    run "$P" 'STATUS
' # created without faults
    { printf 'PROVISION %s\n' "$secret" | env LD_PRELOAD="$shim" "$1=$n" "$dealer" --storage "$P" 2>"$work/err"; } |
      tr -d '\r' >"$work/run1"
    device=$(sed -n 's/^OK PROVISION device=\([0-9a-f]*\).*/\1/p' "$work/run1")
    run "$P" 'STATUS\n'
    if [ -n "$device" ]; then
      grep -q "^OK STATUS .* secret=provisioned device=$device " "$work/out" ||
        fail "$1=$n: PROVISION acknowledged, not on disk: $(grep '^OK STATUS' "$work/out")"
      break
    fi
    grep -q '^ERR' "$work/run1" || fail "$1=$n: PROVISION neither acknowledged nor refused: $(cat "$work/run1")"
    # refused: the secret is not there, or the reply says it was written
    # (only the erase of the test journal after it failed)
    written=$(sed -n 's/^ERR storage .*: secret written (device=\([0-9a-f]*\)).*/\1/p' "$work/run1")
    if [ -n "$written" ]; then
      grep -q "^OK STATUS .* secret=provisioned device=$written " "$work/out" ||
        fail "$1=$n: PROVISION said written, not on disk: $(grep '^OK STATUS' "$work/out")"
    elif grep -q '^ERR state already provisioned' "$work/run1"; then
      fail "$1=$n: a failed write reported as already provisioned"
    elif ! grep -q '^OK STATUS .* secret=test ' "$work/out"; then
      # a failed sync: the bytes may have reached the file anyway
      [ "$1" = FD_EIO_SYNC ] && grep -q "^OK STATUS .* secret=provisioned " "$work/out" ||
        fail "$1=$n: a refused PROVISION left: $(grep '^OK STATUS' "$work/out") after $(cat "$work/run1")"
    fi
    # every point through the secret's write, then every 7th (the erase of
    # the development journal after it: one write per page)
    n=$((n + (n < 24 ? 1 : 7)))
  done
  if [ "$n" -gt 2 ] && [ "$n" -le 400 ]; then
    pass "$1: PROVISION failing at write $((n - 1)) or before: refused or said written, the secret file unchanged or on disk; acknowledged once durable"
  else
    fail "$1: PROVISION runs end at n=$n"
  fi
}
provision FD_EIO_PWRITE
provision FD_EIO_SYNC

# A rollback the device cannot see: the newest page erased. The controller
# kept the seq of its last STATUS; power_on_seq after the restart is lower.
R=$work/R
run "$R" 'SHUFFLE\nREVEAL\nSHUFFLE\nREVEAL\nSHUFFLE\nDEAL 2\nSTATUS\n'
seen=$(sed -n 's/^OK STATUS .* seq=\([0-9]*\) .*/\1/p' "$work/out")
python3 - "$R" <<'EOF'
import struct, sys
path = sys.argv[1]
data = bytearray(open(path, 'rb').read())
page = 1024
newest, at = 0, None
for p in range(len(data) // page):
    magic, page_seq = struct.unpack_from('<II', data, p * page)
    if magic == 0x314A4446 and page_seq > newest:
        newest, at = page_seq, p
data[at * page:(at + 1) * page] = b'\xff' * page
open(path, 'wb').write(data)
EOF
run "$R" 'STATUS\n'
after=$(sed -n 's/^journal: .* power_on_seq=\([0-9]*\) seq=.*/\1/p' "$work/out")
if [ -n "$seen" ] && [ -n "$after" ] && [ "$after" -lt "$seen" ]; then
  pass "rollback: power_on_seq=$after after the restart, below seq=$seen last seen"
else
  fail "rollback not visible: seen=$seen power_on_seq=$after $(head -c 600 "$work/out")"
fi
# and without a rollback it is never below
run "$R" 'STATUS\n'
seen2=$(sed -n 's/^OK STATUS .* seq=\([0-9]*\) .*/\1/p' "$work/out")
run "$R" 'STATUS\n'
after2=$(sed -n 's/^OK STATUS .* power_on_seq=\([0-9]*\) .*/\1/p' "$work/out")
if [ -n "$after2" ] && [ "$after2" -ge "$seen2" ]; then
  pass "no rollback: power_on_seq=$after2 >= seq=$seen2 last seen"
else
  fail "power_on_seq=$after2 seq=$seen2"
fi

[ "$fails" = 0 ] || {
  echo "$fails failure(s)"
  exit 1
}
echo "host store: all checks passed"
