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
status=0
stream() { "$tool" bytes --drbg "$1" --count "$2" --seed "$3"; }
: >"$report.tmp"
for drbg in chacha20 hmac; do
  echo "### $drbg" >>"$report.tmp"
  fails=$(stream $drbg 2500000 f00d | rngtest -c 1000 2>&1 | sed -n 's/.*FIPS 140-2 failures: //p')
  echo "- rngtest (FIPS 140-2), 1,000 blocks of 20,000 bits: $fails failed" >>"$report.tmp"
  [ "${fails:-99}" -le 5 ] || { echo "batteries: $drbg rngtest $fails failures" >&2; status=1; }
  ent_out=$(stream $drbg 2500000 beef | ent)
  pct=$(echo "$ent_out" | sed -n 's/.*would exceed this value \([0-9.]*\) percent.*/\1/p')
  entropy=$(echo "$ent_out" | sed -n 's/^Entropy = \([0-9.]*\) bits per byte.*/\1/p')
  echo "- ent, 2.5 MB: $entropy bits per byte, chi-square exceeded $pct% of the time" >>"$report.tmp"
  awk -v p="$pct" 'BEGIN { exit !(p > 0.1 && p < 99.9) }' || { echo "batteries: $drbg ent chi-square at $pct%" >&2; status=1; }
  if [ "$mode" = full ]; then
    tests="-a"
  else
    tests="-d 0 -d 2 -d 15 -d 100 -d 101"
  fi
  echo '```' >>"$report.tmp"
  for t in $(echo "$tests" | sed 's/-d //g'); do
    if [ "$t" = "-a" ]; then args="-a"; else args="-d $t"; fi
    # shellcheck disable=SC2086
    out=$(stream $drbg 100000000000 "5eed$(printf %04x "$(echo "$t" | tr -d -- -a)0")" 2>/dev/null | dieharder -g 200 $args 2>&1 |
          grep -E '\|[ ]*(PASSED|WEAK|FAILED)' || true)
    echo "$out" >>"$report.tmp"
    [ -n "$out" ] || { echo "batteries: dieharder $args gave no result" >&2; status=1; }
    if echo "$out" | grep -q FAILED; then echo "batteries: $drbg dieharder FAILED" >&2; status=1; fi
  done
  echo '```' >>"$report.tmp"
done
cat "$report.tmp" >>"$report"
rm -f "$report.tmp"
exit $status
