#!/bin/sh
# The host TRNG's faults (boards/host/trng.c): its start-up check (hal_trng_init), seen
# from the host dealer: eio_shim.so (LD_PRELOAD) fails the n-th getrandom
# made with GRND_NONBLOCK (the init's probe) and every later one with
# EAGAIN, a kernel pool not yet seeded (FD_EIO_PROBE=n). The dealer calls
# the init at power-on and on every SELFTEST (firmware/dealer.c
# run_selftest): a failed init puts it in the fault state with the init's
# own reason, TRNG timeout (trng-timeout in the LOG), and dealing is
# refused. A dealer that ignored the init's status would fail later, at the
# first read of the source left not ready, with another reason (start-up
# tests not passed, not-ready): the exact reason is what is checked. A
# failed read of the samples (FD_EIO_READ=n: getrandom without
# GRND_NONBLOCK fails with EIO) faults with the read's own reason, TRNG
# hardware error (trng-hw).
# fairdeal-tool's TRNG source (bytes and perms without --seed) starts the
# same way and stops with the init's reason.
# usage: test_trng_faults.sh DEALER EIO_SHIM FAIRDEAL_TOOL
set -u
dealer=$1
shim=$2
tool=$3
. "$(dirname "$0")/checks.sh"

fault='ERR entropy TRNG timeout; SELFTEST required'

# run FAULT INPUT: the dealer's output (banner and replies) in $work/out,
# its exit status in $rc; FAULT is the shim's setting (FD_EIO_PROBE=n or
# FD_EIO_READ=n), empty: the shim preloaded, nothing failed
run() {
  # shellcheck disable=SC2086 # an empty FAULT is no argument
  { printf %b "$2" | env LD_PRELOAD="$shim" $1 "$dealer" 2>&1; echo $? >"$work/rc"; } | tr -d '\r' >"$work/out"
  rc=$(cat "$work/rc")
}
# has LINE: the output holds LINE whole
has() { grep -qxF "$1" "$work/out"; }
# replies: the OK/ERR lines, for a failure's message
replies() { grep '^OK\|^ERR' "$work/out" | cut -c1-160 | tr '\n' '|'; }

# a. the power-on init fails: the dealer starts in the fault state with the
# init's reason, refuses SHUFFLE and DEAL, and so does its SELFTEST (every
# later probe fails too)
run FD_EIO_PROBE=1 'SHUFFLE\nDEAL 2\nSTATUS\nSELFTEST\nLOG\n'
if [ "$rc" = 0 ] && has '*** ENTROPY FAULT: TRNG timeout. Dealing is disabled until SELFTEST passes. ***' &&
  [ "$(grep -cxF "$fault" "$work/out")" = 3 ] && ! grep -q '^OK \(SHUFFLE\|DEAL\|SELFTEST\)' "$work/out" &&
  grep -q '^OK STATUS .* entropy=fault .* raw_samples=0 ' "$work/out" &&
  grep -q '^OK LOG .* selftest result=trng-timeout .* fault status=trng-timeout ' "$work/out"; then
  pass "the power-on init's probe fails: fault state, SHUFFLE, DEAL and SELFTEST answer '$fault', no sample read"
else
  fail "FD_EIO_PROBE=1: rc=$rc $(grep '^\*\*\* ENTROPY' "$work/out") $(replies)"
fi

# b. power-on passes; the SELFTEST's init fails: the fault with its reason,
# and SHUFFLE is refused after it
run FD_EIO_PROBE=2 'SHUFFLE\nREVEAL\nSELFTEST\nSHUFFLE\nSTATUS\nLOG\n'
if [ "$rc" = 0 ] && ! grep -q 'ENTROPY FAULT' "$work/out" && grep -q '^OK SHUFFLE ' "$work/out" &&
  grep -q '^OK REVEAL ' "$work/out" && [ "$(grep -cxF "$fault" "$work/out")" = 2 ] &&
  [ "$(grep -c '^OK SHUFFLE ' "$work/out")" = 1 ] && ! grep -q '^OK SELFTEST' "$work/out" &&
  grep -q '^OK STATUS .* entropy=fault ' "$work/out" &&
  grep -q '^OK LOG .* selftest result=trng-timeout .* fault status=trng-timeout ' "$work/out"; then
  pass "the SELFTEST's init fails after a good power-on: SELFTEST and the next SHUFFLE answer '$fault'"
else
  fail "FD_EIO_PROBE=2: rc=$rc $(replies)"
fi

# c. the shim preloaded, nothing failed: the probe passes through
run '' 'SELFTEST\nSHUFFLE\nSTATUS\n'
if [ "$rc" = 0 ] && ! grep -q 'ENTROPY FAULT' "$work/out" &&
  grep -q '^OK SELFTEST kat=pass startup=pass samples=' "$work/out" && grep -q '^OK SHUFFLE ' "$work/out" &&
  grep -q '^OK STATUS .* entropy=ok ' "$work/out"; then
  pass "the shim without FD_EIO_PROBE: SELFTEST passes and SHUFFLE deals"
else
  fail "no FD_EIO_PROBE: rc=$rc $(replies)"
fi

# d. the init passes, the samples' read fails (FD_EIO_READ=1: the first
# read of the power-on start-up tests): the fault names the read's own
# reason, TRNG hardware error (trng-hw); a dealer that ignored the read's
# status would run the health tests on samples never read
run FD_EIO_READ=1 'SHUFFLE\nSTATUS\nLOG\n'
if [ "$rc" = 0 ] && has '*** ENTROPY FAULT: TRNG hardware error. Dealing is disabled until SELFTEST passes. ***' &&
  has 'ERR entropy TRNG hardware error; SELFTEST required' && ! grep -q '^OK SHUFFLE' "$work/out" &&
  grep -q '^OK LOG .* fault status=trng-hw ' "$work/out"; then
  pass "the samples' read fails: fault state with 'TRNG hardware error' (trng-hw), SHUFFLE refused"
else
  fail "FD_EIO_READ=1: rc=$rc $(grep '^\*\*\* ENTROPY' "$work/out") $(replies)"
fi

# e. fairdeal-tool's TRNG source: the failed init stops it with the init's
# own reason (a tool that went on to the start-up tests would fail there
# with not-ready), nothing on stdout; the shim with nothing failed lets it run
env LD_PRELOAD="$shim" FD_EIO_PROBE=1 "$tool" bytes --drbg chacha20 --count 16 >"$work/tool.out" 2>"$work/tool.err"
rc=$?
if [ "$rc" = 1 ] && [ "$(cat "$work/tool.err")" = "fairdeal-tool: TRNG start-up: trng-timeout" ] &&
  [ ! -s "$work/tool.out" ]; then
  pass "fairdeal-tool bytes: the failed init stops it with 'TRNG start-up: trng-timeout', no output"
else
  fail "fairdeal-tool bytes with FD_EIO_PROBE=1: rc=$rc $(head -c 200 "$work/tool.err")"
fi
env LD_PRELOAD="$shim" "$tool" bytes --drbg chacha20 --count 16 >"$work/tool.out" 2>"$work/tool.err"
rc=$?
if [ "$rc" = 0 ] && [ -s "$work/tool.out" ] && [ ! -s "$work/tool.err" ]; then
  pass "fairdeal-tool bytes with the shim and nothing failed: it runs"
else
  fail "fairdeal-tool bytes without FD_EIO_PROBE: rc=$rc $(head -c 200 "$work/tool.err")"
fi

finish "host TRNG faults"
