#!/bin/sh
# Lab mode on the host dealer (docs/ENTROPY.md "Lab mode"): a capture of LAB
# RAW and LAB CARDS replies turns into the assessment files with
# tools/lab_capture.py and round-trips (the .bin holds exactly the captured
# samples, the card list exactly the indices); a voided or cut capture is
# refused; the release image refuses lab mode, human mode and dealing
# outside a link session (docs/LINK.md "Roles").
# usage: test_lab.sh DEALER DEALER_RELEASE
set -u
dealer=$1
release=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/checks.sh"

printf 'LAB RAW 2048\nLAB RAW 1952\nLAB CARDS 500 52\nLAB CARDS 100 432\nQUIT\n' | "$dealer" | tr -d '\r' >"$work/capture"
if python3 "$root/tools/lab_capture.py" "$work/capture" "$work/lab" >"$work/log"; then
  want=$(sed -n 's/^OK LAB RAW n=[0-9]* hex=\([0-9a-f]*\) end=ok$/\1/p' "$work/capture" | tr -d '\n')
  got=$(od -An -v -tx1 "$work/lab.raw.bin" | tr -d ' \n')
  if [ "$(wc -c <"$work/lab.raw.bin")" -eq 4000 ] && [ "$got" = "$want" ]; then
    pass "raw capture round-trips: 4000 samples, one per byte"
  else
    fail "raw capture: $(wc -c <"$work/lab.raw.bin") bytes"
  fi
  want=$(sed -n 's/^OK LAB CARDS n=[0-9]* bound=[0-9]* idx=\([0-9,]*\) end=ok$/\1/p' "$work/capture" | tr ',' '\n')
  got=$(grep -v '^#' "$work/lab.cards.txt")
  if [ "$got" = "$want" ] && [ "$(printf '%s\n' "$got" | grep -c .)" -eq 600 ] &&
    [ "$(awk 'NR <= 500 && $1 >= 52' <<EOT | grep -c . || true
$got
EOT
)" -eq 0 ]; then
    pass "card indices round-trip: 600 in order, the first 500 below 52"
  else
    fail "card indices"
  fi
  [ ! -e "$work/lab.cards.bin" ] && pass "no .cards.bin when a bound exceeds 256" || fail "cards.bin written with bound 432"
else
  fail "lab_capture.py refused a good capture: $(cat "$work/log")"
fi
sed 's/end=ok/end=trng-hw/' "$work/capture" >"$work/void"
python3 "$root/tools/lab_capture.py" "$work/void" "$work/v" 2>/dev/null && fail "voided capture accepted" ||
  pass "a capture ending end=<error> is void"
sed '/^OK LAB RAW/s/hex=../hex=/' "$work/capture" >"$work/cut"
python3 "$root/tools/lab_capture.py" "$work/cut" "$work/c" 2>/dev/null && fail "cut capture accepted" ||
  pass "a capture with a sample missing is void"
[ ! -e "$work/v.raw.bin" ] && [ ! -e "$work/c.raw.bin" ] && pass "nothing written for a void capture" ||
  fail "files written for a void capture"

# The release image has no open cleartext console (docs/LINK.md "Roles"):
# outside a link session only ID, HELP, VERIFY and the first PROVISION run;
# lab mode, human mode, rounds and QUIT are refused before the dealer sees
# them.
printf 'STATUS\nLAB RAW 10\nLAB CARDS 10\nSHUFFLE\nSHUFFLE full\nPROVISION 8d3f0a61c2e94b57a6d0e1f2c3b4a5968778695a4b3c2d1e0f00112233445566\nSHUFFLE\nMODE human\nID\nQUIT\n' |
  FD_PROVISION_BUTTON=held "$release" | tr -d '\r' | grep -E '^(OK|ERR) ' >"$work/release"
link='ERR link outside an authenticated link session only ID, HELP and VERIFY run'
printf '%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n' "$link" "$link" "$link" "$link" "$link" "$link" "$link" "$link" >"$work/want"
if grep -q '^OK PROVISION device=[0-9a-f]\{16\} restart=required$' "$work/release" &&
  grep -q '^OK ID .* secret=missing device=none ' "$work/release" &&
  [ "$(grep -v '^OK ID\|^OK PROVISION' "$work/release")" = "$(cat "$work/want")" ]; then
  pass "release image: outside a link session no lab mode, no human mode, no rounds, no QUIT; the first PROVISION and ID answered"
else
  fail "release image: $(cat "$work/release")"
fi
# ... and without the physical act (docs/LINK.md "Provisioning and
# controller keys") the first PROVISION is refused as well
printf 'PROVISION 8d3f0a61c2e94b57a6d0e1f2c3b4a5968778695a4b3c2d1e0f00112233445566\nID\n' | "$release" | tr -d '\r' |
  grep -E '^(OK|ERR) ' >"$work/release2"
if [ "$(sed -n 1p "$work/release2")" = "$link" ] && sed -n 2p "$work/release2" | grep -q '^OK ID .* secret=missing '; then
  pass "release image: the first PROVISION without the provisioning button held at start is refused"
else
  fail "release image without the button: $(cat "$work/release2")"
fi
finish test_lab
