#!/bin/sh
# External test batteries on both DRBGs' output (fairdeal-tool bytes, fixed
# seeds, so every run reads the same bytes): rngtest (FIPS 140-2) and ent over
# 2.5 MB, and dieharder -g 200 (raw bytes on stdin).
#   quick: dieharder birthdays, 32x32 rank, runs, STS monobit, STS runs
#   full:  dieharder -a
# Pass: rngtest at most 5 failed blocks of 1,000 (about 0.8 expected from a
# perfect source), ent's chi-square tail between 0.1% and 99.9%, no
# dieharder FAILED (WEAK is reported, as dieharder expects some).
# usage: batteries.sh quick|full <fairdeal-tool> [report-file]
set -eu
mode=$1 tool=$2 report=${3:-/dev/stdout}
tmp=$(mktemp -d)
stream() { "$tool" bytes --drbg "$1" --count "$2" --seed "$3"; }
# One DRBG's section of the report into $2; exit status 1 on any failure.
battery() {
  drbg=$1 out=$2 fail=0
  : >"$out"
  echo "### $drbg" >>"$out"
  fails=$(stream "$drbg" 2500000 f00d | rngtest -c 1000 2>&1 | sed -n 's/.*FIPS 140-2 failures: //p')
  echo "- rngtest (FIPS 140-2), 1,000 blocks of 20,000 bits: $fails failed" >>"$out"
  [ "${fails:-99}" -le 5 ] || { echo "batteries: $drbg rngtest $fails failures" >&2; fail=1; }
  ent_out=$(stream "$drbg" 2500000 beef | ent)
  pct=$(echo "$ent_out" | sed -n 's/.*would exceed this value \([0-9.]*\) percent.*/\1/p')
  entropy=$(echo "$ent_out" | sed -n 's/^Entropy = \([0-9.]*\) bits per byte.*/\1/p')
  echo "- ent, 2.5 MB: $entropy bits per byte, chi-square exceeded $pct% of the time" >>"$out"
  awk -v p="$pct" 'BEGIN { exit !(p > 0.1 && p < 99.9) }' || { echo "batteries: $drbg ent chi-square at $pct%" >&2; fail=1; }
  if [ "$mode" = full ]; then
    tests="-a"
  else
    tests="-d 0 -d 2 -d 15 -d 100 -d 101"
  fi
  echo '```' >>"$out"
  echo "         test_name   |ntup| tsamples |psamples|  p-value |Assessment" >>"$out"
  for t in $(echo "$tests" | sed 's/-d //g'); do
    if [ "$t" = "-a" ]; then args="-a"; else args="-d $t"; fi
    # shellcheck disable=SC2086
    res=$(stream "$drbg" 100000000000 "5eed$(printf %04x "$(echo "$t" | tr -d -- -a)0")" 2>/dev/null | dieharder -g 200 $args 2>&1 |
          grep -E '\|[ ]*(PASSED|WEAK|FAILED)' || true)
    echo "$res" >>"$out"
    [ -n "$res" ] || { echo "batteries: dieharder $args gave no result" >&2; fail=1; }
    if echo "$res" | grep -q FAILED; then echo "batteries: $drbg dieharder FAILED" >&2; fail=1; fi
  done
  echo '```' >>"$out"
  return $fail
}

status=0
if [ "$mode" = full ]; then
  # dieharder -a takes about an hour per stream: run both DRBGs at once.
  battery chacha20 "$tmp/chacha20" & chacha_pid=$!
  battery hmac "$tmp/hmac" & hmac_pid=$!
  wait $chacha_pid || status=1
  wait $hmac_pid || status=1
else
  battery chacha20 "$tmp/chacha20" || status=1
  battery hmac "$tmp/hmac" || status=1
fi
cat "$tmp/chacha20" "$tmp/hmac" >>"$report"
rm -rf "$tmp"
exit $status
