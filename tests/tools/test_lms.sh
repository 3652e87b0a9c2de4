#!/bin/sh
# fairdeal-tool lms-keygen / lms-sign / lms-verify from the command line,
# checked against Bouncy Castle (Debian's libbcprov-java, an independent
# LMS/HSS implementation; tests/tools/LmsInterop.java):
# - fairdeal-tool and Bouncy Castle both accept RFC 8554 Appendix F's
#   signatures and refuse them with one bit flipped;
# - a 64 KiB image fairdeal-tool signs (default set, and two levels)
#   verifies with Bouncy Castle, and one flipped bit is refused by both;
# - signatures Bouncy Castle makes (W1, W2, W4, W8; one and two levels)
#   verify with fairdeal-tool;
# - the state file: keygen never overwrites; a write that cannot happen
#   (the temporary file's name taken by a directory) gives no signature and
#   leaves the index; signers started at once never share an index.
# usage: test_lms.sh PATH/TO/fairdeal-tool PATH/TO/lms_kat_files
set -u
tool=$1
katfiles=$2
src=$(cd "$(dirname "$0")" && pwd)
bcjar=/usr/share/java/bcprov.jar
failures=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
expect() { # NAME WANT_STATUS COMMAND...
  name=$1 want=$2
  shift 2
  "$@" >/dev/null 2>&1
  got=$?
  if [ "$got" -eq "$want" ]; then pass "$name"; else fail "$name: exit $got, want $want"; fi
}
flip() { # FILE OFFSET: xor one byte with 0x01 into FILE.bad
  cp "$1" "$1.bad"
  b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  printf "$(printf '\\%03o' $((b ^ 1)))" | dd of="$1.bad" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
q_of() { # FILE: the root level's q (bytes 4..7), the index of a one-level signature
  od -An -tu4 --endian=big -j 4 -N4 "$1" | tr -d ' '
}

[ -r "$bcjar" ] || { echo "FAIL $bcjar missing: scripts/deps.sh test installs libbcprov-java"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -cp "$bcjar" -d "$work" "$src/LmsInterop.java" || { echo "FAIL javac LmsInterop.java"; exit 1; }
bc() { java -cp "$bcjar:$work" LmsInterop "$@"; }
cd "$work" || exit 1

# Appendix F through both implementations
"$katfiles" . || { echo "FAIL lms_kat_files"; exit 1; }
for n in 1 2; do
  expect "fairdeal-tool verifies Appendix F test case $n" 0 "$tool" lms-verify --pub tc$n.pub --in tc$n.msg --sig tc$n.sig
  expect "Bouncy Castle verifies Appendix F test case $n" 0 bc verify tc$n.pub tc$n.msg tc$n.sig
  flip tc$n.sig 2000
  expect "fairdeal-tool refuses test case $n with a flipped bit" 1 "$tool" lms-verify --pub tc$n.pub --in tc$n.msg --sig tc$n.sig.bad
  expect "Bouncy Castle refuses test case $n with a flipped bit" 1 bc verify tc$n.pub tc$n.msg tc$n.sig.bad
done

# images fairdeal-tool signs, verified by Bouncy Castle
head -c 65536 /dev/urandom >image.bin
for set in h10w4 h5w8,h5w2; do
  rm -f key key.pub
  expect "lms-keygen --set $set" 0 "$tool" lms-keygen --key key --pub key.pub --set $set
  expect "lms-sign --set $set" 0 "$tool" lms-sign --key key --in image.bin --out image.sig
  expect "fairdeal-tool verifies its $set signature" 0 "$tool" lms-verify --pub key.pub --in image.bin --sig image.sig
  expect "Bouncy Castle verifies fairdeal-tool's $set signature" 0 bc verify key.pub image.bin image.sig
  flip image.sig 1000
  expect "Bouncy Castle refuses it with a flipped bit ($set)" 1 bc verify key.pub image.bin image.sig.bad
  expect "fairdeal-tool refuses it with a flipped bit ($set)" 1 "$tool" lms-verify --pub key.pub --in image.bin --sig image.sig.bad
  flip image.bin 65535
  expect "Bouncy Castle refuses a flipped image bit ($set)" 1 bc verify key.pub image.bin.bad image.sig
  expect "fairdeal-tool refuses a flipped image bit ($set)" 1 "$tool" lms-verify --pub key.pub --in image.bin.bad --sig image.sig
done
same_size=$(wc -c <image.sig)
[ "$same_size" -eq $((4 + 1292 + 56 + 4 + 4 + 32 + 133 * 32 + 4 + 5 * 32)) ] && pass "two-level signature size" ||
  fail "two-level signature size $same_size"

# signatures Bouncy Castle makes, verified by fairdeal-tool
for set in h5w1 h5w2 h5w4 h5w8 h10w4 h5w4,h5w8; do
  bc sign $set bc.pub image.bin bc.sig || fail "Bouncy Castle sign $set"
  expect "fairdeal-tool verifies Bouncy Castle's $set signature" 0 "$tool" lms-verify --pub bc.pub --in image.bin --sig bc.sig
  flip bc.sig 100
  expect "fairdeal-tool refuses Bouncy Castle's $set signature with a flipped bit" 1 "$tool" lms-verify --pub bc.pub --in image.bin --sig bc.sig.bad
done

# the state file from the command line
rm -f key key.pub
"$tool" lms-keygen --key key --pub key.pub --set h5w8 >/dev/null 2>&1
cp key key.before
expect "lms-keygen refuses an existing key file" 1 "$tool" lms-keygen --key key --pub other.pub --set h5w8
cmp -s key key.before && pass "the existing key file is unchanged" || fail "lms-keygen changed an existing key"
mkdir key.tmp # the new state cannot be written
rm -f out.sig
expect "lms-sign with an unwritable state gives exit 1" 1 "$tool" lms-sign --key key --in image.bin --out out.sig
[ ! -e out.sig ] && pass "... and no signature file" || fail "a signature was written without a durable state"
cmp -s key key.before && pass "... and the key file keeps its index" || fail "the key file changed"
rmdir key.tmp
expect "lms-sign once the state is writable" 0 "$tool" lms-sign --key key --in image.bin --out out.sig
same_q=$(q_of out.sig)
[ "$same_q" = 0 ] && pass "the first signature uses index 0" || fail "first index $same_q"
i=0
while [ $i -lt 4 ]; do
  (j=0; while [ $j -lt 4 ]; do "$tool" lms-sign --key key --in image.bin --out race.$i.$j || exit 1; j=$((j + 1)); done) &
  i=$((i + 1))
done
wait
n=$(ls race.* | wc -l)
distinct=$(for f in race.*; do q_of "$f"; done | sort -u | wc -l)
[ "$n" -eq 16 ] && [ "$distinct" -eq 16 ] && pass "16 racing signatures, 16 indices" || fail "racing: $n signatures, $distinct indices"
for f in race.*; do
  "$tool" lms-verify --pub key.pub --in image.bin --sig "$f" >/dev/null || fail "racing signature $f does not verify"
done
expect "bad option: exit 2" 2 "$tool" lms-sign --key key --in image.bin --out x --bogus 1
expect "bad --set: exit 2" 2 "$tool" lms-keygen --key k2 --pub k2.pub --set h20w4

[ "$failures" -eq 0 ] && echo "all lms tests passed" || echo "$failures lms test(s) failed"
[ "$failures" -eq 0 ]
