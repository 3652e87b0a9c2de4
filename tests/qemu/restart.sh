#!/bin/sh
# The restart test (docs/ENTROPY.md "Lab mode", SP 800-90B's restart tests in spirit):
# N power-ups of the same image with the same stored state each deal one
# default round; the N commitments (and the orders they bind) must all
# differ, while the device id stays the same. Used for a QEMU board
# (through run.sh) and for the host dealer (a plain command).
# usage: restart.sh N -- COMMAND... (the dealer, reading stdin); env
#        FD_RESTART_STATE=FILE: an argument @STATE@ becomes a fresh copy of
#        FILE (and of FILE.secret, when it exists) for every power-up, so
#        every power-up starts from the same stored state
set -eu
n=$1
shift
[ "$1" = "--" ] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'SHUFFLE\nREVEAL\nQUIT\n' >"$work/in"
: >"$work/commitments"
: >"$work/devices"
state=${FD_RESTART_STATE:-}
retries=0
i=0
while [ "$i" -lt "$n" ]; do
  if [ -n "$state" ]; then
    cp "$state" "$work/state"
    if [ -f "$state.secret" ]; then cp "$state.secret" "$work/state.secret"; fi
  fi
  for arg in "$@"; do
    [ "$arg" = "@STATE@" ] && arg=$work/state
    printf '%s\n' "$arg"
  done >"$work/argv"
  # shellcheck disable=SC2046
  (IFS='
'; exec $(cat "$work/argv")) <"$work/in" | tr -d '\r' >"$work/out" ||
    { cat "$work/out"; echo "FAIL: power-up $i exited nonzero"; exit 1; }
  line=$(grep -E '^OK SHUFFLE mode=round ' "$work/out" | head -1)
  if [ -z "$line" ] && grep -q '^ERR entropy TRNG timeout' "$work/out" && [ "$retries" -lt 2 ]; then
    # a micro:bit under QEMU on a loaded host: the RNG's timer starves and
    # the dealer fails closed; that power-up gave no output, so take another
    retries=$((retries + 1))
    echo "power-up $i: TRNG timeout (host load), failed closed; powering up again"
    continue
  fi
  [ -n "$line" ] || { cat "$work/out"; echo "FAIL: power-up $i dealt no round"; exit 1; }
  printf '%s\n' "$line" | sed -n 's/.* commitment=\([0-9a-f]*\).*/\1/p' >>"$work/commitments"
  printf '%s\n' "$line" | sed -n 's/.* device=\([0-9a-f]*\) .*/\1/p' >>"$work/devices"
  i=$((i + 1))
done
distinct=$(sort -u "$work/commitments" | grep -c .)
devices=$(sort -u "$work/devices" | grep -c .)
echo "restart test: $n power-ups, $distinct distinct first commitments, $devices device id(s)"
[ "$distinct" -eq "$n" ] || { echo "FAIL: repeated first outputs"; exit 1; }
[ "$devices" -eq 1 ] || { echo "FAIL: the device id changed across power-ups"; exit 1; }
echo "ok   restart test"
