#!/bin/sh
# The host restart test with stored state: one dealer run makes a journal
# (--storage F: seed file, a revealed round) and a provisioned secret
# (F.secret); then N power-ups each start from a fresh copy of the same F
# and F.secret (tests/qemu/restart.sh) and must deal N different first rounds.
# usage: restart_host.sh DEALER N
set -eu
dealer=$1
n=$2
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'PROVISION 5f0e3a91c27d84b6a5f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4e5f6071\nQUIT\n' |
  "$dealer" --storage "$work/F" | tr -d '\r' | grep -q '^OK PROVISION device=' ||
  { echo "FAIL: PROVISION"; exit 1; }
printf 'SHUFFLE\nREVEAL\nQUIT\n' | "$dealer" --storage "$work/F" | tr -d '\r' >"$work/first"
grep -q '^OK STATUS\|^OK SHUFFLE mode=round' "$work/first" || { cat "$work/first"; echo "FAIL: setup run"; exit 1; }
printf 'STATUS\nQUIT\n' | "$dealer" --storage "$work/F" | tr -d '\r' | grep -q ' secret=provisioned .* seedfile=saved' ||
  { echo "FAIL: the stored state is not provisioned with a saved seed file"; exit 1; }
FD_RESTART_STATE=$work/F "$here/qemu/restart.sh" "$n" -- "$dealer" --storage @STATE@
