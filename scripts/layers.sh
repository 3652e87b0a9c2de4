#!/bin/sh
# The firmware's layers (README.md "The firmware's layers"): calls go down
# only. From the host build's objects: every symbol an object uses that
# another firmware object defines must be defined in the same layer or a
# lower one. A file not listed counts as a transport (layer 4).
# usage: scripts/layers.sh [build-dir]     (default: build/host; run after a build)
set -eu
cd "$(dirname "$0")/.."
objs=${1:-build/host}/firmware/CMakeFiles/fd_dealer.dir
[ -d "$objs" ] || { echo "layers: build the host preset first ($objs)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
for o in "$objs"/*.c.o; do
  f=$(basename "$o" .c.o)
  nm -g --defined-only "$o" | awk -v f="$f" 'NF == 3 { print "D", $3, f }' >>"$work/symbols"
  nm -u "$o" | awk -v f="$f" '{ print "U", $NF, f }' >>"$work/symbols"
  n=$((n + 1))
done
# defined symbols first, then each use checked against its definer's layer
sort -k1,1 "$work/symbols" | awk -v n="$n" '
  function layer(f) {
    if (f == "device_secret" || f == "program_verify" || f == "reply") return 0 # leaves: no call into the dealer
    if (f == "persist") return 1                                               # the journal
    if (f == "dealer_sources") return 2                                        # device secret, seed file, sources
    if (f == "dealer") return 3                                                # the state machine and its commands
    return 4                                                                   # transports: protocol, recall, link_console
  }
  $1 == "D" { owner[$2] = $3; next }
  ($2 in owner) && layer(owner[$2]) > layer($3) {
    printf "layers: %s.c (layer %d) calls %s of %s.c (layer %d)\n", $3, layer($3), $2, owner[$2], layer(owner[$2])
    bad = 1
  }
  END {
    if (!bad) printf "layers: %d objects, every call goes down\n", n
    exit bad
  }'
