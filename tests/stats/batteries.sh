#!/bin/sh
# External test batteries on both DRBGs' output (fairdeal-tool bytes, fixed
# seeds, so every run reads the same bytes) and, when the fairness harness is
# given, on the combined source's XOR stream (the dealer's default: fairness
# --bytes, conditioned blocks of the tests' fake TRNG XOR a ChaCha20 DRBG):
# rngtest (FIPS 140-2) and ent over 2.5 MB, and dieharder -g 200 (raw bytes
# on stdin, an endless stream).
#   quick: dieharder birthdays, 32x32 rank, runs, STS monobit, STS runs, on
#          both DRBGs
#   full:  every test dieharder -a runs (0-17, 100-102, 200-209, with
#          -a's ntuples: bit distribution 1-12, minimum distance and
#          permutations 2-5, lagged sums 0-32) on ChaCha20, the dealer's
#          DRBG, one run per test and ntuple, over two workers (the lagged
#          sums are ~85% of the ~260 GB read; lag L reads L+1 units); the
#          quick five on HMAC_DRBG, whose ~12 MB/s would make the full set a
#          day-long run
#   combined: the quick five in both modes (its ~1.3 MB/s, the health tests
#          on every raw sample, would make dieharder -a a week-long run;
#          the quick five take ~12 min, so the default test run leaves it
#          out: it runs in scripts/fairness.sh)
#   STREAMS="chacha20 hmac combined" picks the streams (default: both DRBGs,
#   and combined when the harness is given).# Pass: rngtest at most 5 failed blocks of 1,000 (about 0.8 expected from a
# perfect source), ent's chi-square tail between 0.1% and 99.9%, every
# dieharder run exits cleanly with results and none FAILED (WEAK is
# reported, as dieharder expects some).
# usage: batteries.sh quick|full <fairdeal-tool> [report-file [fairness]]
set -eu
mode=$1 tool=$2 report=${3:-/dev/stdout} harness=${4:-}
streams=${STREAMS:-chacha20 hmac${harness:+ combined}}
tmp=$(mktemp -d)
stream() {
  if [ "$1" = combined ]; then
    "$harness" --bytes "$2" --seed "$3"
  else
    "$tool" bytes --drbg "$1" --count "$2" --seed "$3"
  fi
}
has() { case " $streams " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# One dieharder run: dieharder_run DRBG TEST [NTUPLE] >> lines; status 1
# if dieharder stopped, gave no result, or FAILED.
dieharder_run() {
  if [ $# -ge 3 ]; then
    args="-d $2 -n $3" seed="5eed$(printf %04x%02x "$2" "$3")"
  else
    args="-d $2" seed="5eed$(printf %04x "${2}0")"
  fi
  # shellcheck disable=SC2086
  raw=$(stream "$1" 0 "$seed" 2>/dev/null | dieharder -g 200 $args 2>&1) ||
    { echo "batteries: $1 dieharder $args stopped" >&2; return 1; }
  res=$(echo "$raw" | grep -E '\|[ ]*(PASSED|WEAK|FAILED)' || true)
  [ -n "$res" ] || { echo "batteries: $1 dieharder $args gave no result" >&2; return 1; }
  echo "$res"
  if echo "$res" | grep -q FAILED; then echo "batteries: $1 dieharder $args FAILED" >&2; return 1; fi
}

# dieharder_list DRBG OUT ITEM...: each ITEM is TEST or TEST:NTUPLE, run in
# order, results into OUT.
dieharder_list() {
  drbg=$1 out=$2 fail=0
  shift 2
  : >"$out"
  for item in "$@"; do
    case $item in
      *:*) dieharder_run "$drbg" "${item%:*}" "${item#*:}" >>"$out" || fail=1 ;;
      *) dieharder_run "$drbg" "$item" >>"$out" || fail=1 ;;
    esac
  done
  return $fail
}

# TEST:FIRST..LAST as items
ntuples() { for n in $(seq "$2" "$3"); do printf ' %s:%s' "$1" "$n"; done; }

quick_tests="0 2 15 100 101"
status=0
for drbg in $streams; do
  fails=$(stream "$drbg" 2500000 f00d | rngtest -c 1000 2>&1 | sed -n 's/.*FIPS 140-2 failures: //p')
  [ "${fails:-99}" -le 5 ] || { echo "batteries: $drbg rngtest $fails failures" >&2; status=1; }
  ent_out=$(stream "$drbg" 2500000 beef | ent)
  pct=$(echo "$ent_out" | sed -n 's/.*would exceed this value \([0-9.]*\) percent.*/\1/p')
  entropy=$(echo "$ent_out" | sed -n 's/^Entropy = \([0-9.]*\) bits per byte.*/\1/p')
  awk -v p="$pct" 'BEGIN { exit !(p > 0.1 && p < 99.9) }' || { echo "batteries: $drbg ent chi-square at $pct%" >&2; status=1; }
  {
    echo "- rngtest (FIPS 140-2), 1,000 blocks of 20,000 bits: $fails failed"
    echo "- ent, 2.5 MB: $entropy bits per byte, chi-square exceeded $pct% of the time"
  } >"$tmp/$drbg.head"
done

if has combined; then
  # shellcheck disable=SC2086
  dieharder_list combined "$tmp/combined" $quick_tests & wc=$!
fi
if [ "$mode" = full ] && has chacha20; then
  # -n 0 means the test's default, lag 0 for the lagged sums
  # shellcheck disable=SC2046
  dieharder_list chacha20 "$tmp/w1" 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 100 101 102 \
    $(ntuples 200 1 12) $(ntuples 201 2 5) $(ntuples 202 2 5) 203 $(ntuples 203 1 20) \
    204 205 206 207 208 209 & w1=$!
  # shellcheck disable=SC2046
  dieharder_list chacha20 "$tmp/w2" $(ntuples 203 21 32) & w2=$!
  if has hmac; then
    # shellcheck disable=SC2086
    dieharder_list hmac "$tmp/hmac" $quick_tests || status=1
  fi
  wait $w1 || status=1
  wait $w2 || status=1
  # dieharder -a's order: tests up to 202, the lagged sums by lag, then 204-209
  grep -v -E 'rgb_lagged_sum|rgb_kstest_test|dab_' "$tmp/w1" >"$tmp/chacha20"
  grep -E 'rgb_lagged_sum' "$tmp/w1" >>"$tmp/chacha20"
  cat "$tmp/w2" >>"$tmp/chacha20"
  grep -E 'rgb_kstest_test|dab_' "$tmp/w1" >>"$tmp/chacha20"
  chacha_scope="every dieharder test (the dieharder -a set)"
  hmac_scope="the quick dieharder set"
else
  for drbg in chacha20 hmac; do
    if has $drbg; then
      # shellcheck disable=SC2086
      dieharder_list $drbg "$tmp/$drbg" $quick_tests || status=1
    fi
  done
  chacha_scope="the quick dieharder set" hmac_scope="the quick dieharder set"
fi
if has combined; then
  wait "$wc" || status=1
fi

for drbg in $streams; do
  case $drbg in
    chacha20) scope=$chacha_scope ;;
    hmac) scope=$hmac_scope ;;
    *) scope="the quick dieharder set" ;;
  esac
  {
    case $drbg in
      combined) echo "### combined source (fake TRNG blocks XOR ChaCha20 DRBG: \`fairness --bytes\`)" ;;
      *) echo "### $drbg" ;;
    esac
    cat "$tmp/$drbg.head"
    echo "- dieharder -g 200, $scope: $(grep -c PASSED "$tmp/$drbg" || true) PASSED, $(grep -c WEAK "$tmp/$drbg" || true) WEAK, $(grep -c FAILED "$tmp/$drbg" || true) FAILED"
    echo '```'
    echo "         test_name   |ntup| tsamples |psamples|  p-value |Assessment"
    cat "$tmp/$drbg"
    echo '```'
  } >>"$report"
done
rm -rf "$tmp"
exit $status
