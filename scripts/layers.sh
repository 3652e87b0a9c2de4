#!/bin/sh
# The firmware's layers (README.md "The firmware's layers"): calls go down
# only. From the host build's objects: every symbol an object uses that
# another firmware object defines must be defined in the same layer or a
# lower one, and no firmware file includes a header of a higher layer. A
# file not listed counts as a transport (layer 4); a transport's .c defines
# FD_DEALER_OPAQUE before any include (it sees none of fd_dealer's fields).
# Names (README.md, same section): every symbol the firmware's objects
# export (main.c's too, but main) starts with fd_, and every macro, type,
# struct or enum tag and enum constant of firmware/*.h with FD_ or fd_.
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
# a file's layer by its name without .c/.h (the table of README.md)
layer_fn='
  function layer(f) {
    if (f == "device_secret" || f == "program_verify" || f == "reply") return 0 # leaves: no call into the dealer
    if (f == "dealer_round") return 0                                          # the state and round types
    if (f == "persist") return 1                                               # the journal
    if (f == "dealer_sources") return 2                                        # device secret, seed file, sources
    if (f == "dealer") return 3                                                # the state machine and its commands
    return 4                                                                   # transports: protocol, recall, link_console, update
  }'

# exported names: fd_ (the board's main.c defines main, and nothing else unprefixed)
fail=0
for o in "$objs"/*.c.o "$objs"/../dealer.dir/main.c.o; do
  [ -f "$o" ] || continue
  for s in $(nm -g --defined-only "$o" | awk 'NF == 3 { print $3 }'); do
    case $s in
      fd_*) ;;
      main) [ "$(basename "$o")" = main.c.o ] || { echo "names: $(basename "$o" .o) exports main"; fail=1; } ;;
      *) echo "names: $(basename "$o" .o) exports $s without the fd_ prefix"; fail=1 ;;
    esac
  done
done
awk '
  function bad(kind, name) {
    printf "names: %s:%d: %s %s lacks the FD_/fd_ prefix\n", FILENAME, FNR, kind, name
    nbad++
  }
  /^[ \t]*#[ \t]*define[ \t]/ {
    n = $0; sub(/^[ \t]*#[ \t]*define[ \t]+/, "", n); sub(/[^A-Za-z0-9_].*/, "", n)
    if (n !~ /^FD_/) bad("macro", n)
  }
  /^(typedef[ \t]+)?(struct|enum|union)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\{/ {
    n = $0; sub(/^(typedef[ \t]+)?(struct|enum|union)[ \t]+/, "", n); sub(/[^A-Za-z0-9_].*/, "", n)
    if (n !~ /^fd_/) bad("tag", n)
  }
  /^(typedef[ \t]+)?enum[ \t]/ && /\{/ { inenum = 1; next }
  inenum && /^\}/ { inenum = 0 }
  inenum && /^[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*(=|,|$|\/)/ {
    n = $0; sub(/^[ \t]+/, "", n); sub(/[^A-Za-z0-9_].*/, "", n)
    if (n !~ /^FD_/) bad("enum constant", n)
  }
  /^\}[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*;/ {
    n = $0; sub(/^\}[ \t]*/, "", n); sub(/[^A-Za-z0-9_].*/, "", n)
    if (n !~ /^fd_/) bad("type", n)
  }
  /^typedef[^{]*;/ {
    n = $0
    if (n ~ /\(\*/) { sub(/^[^(]*\(\*[ \t]*/, "", n) } else { sub(/[ \t]*;.*$/, "", n); sub(/^.*[^A-Za-z0-9_]/, "", n) }
    sub(/[^A-Za-z0-9_].*/, "", n)
    if (n !~ /^fd_/) bad("type", n)
  }
  END { exit nbad > 0 }' firmware/*.h || fail=1
[ $fail = 0 ] && echo "names: every exported symbol and header name carries the prefix"

# defined symbols first, then each use checked against its definer's layer
sort -k1,1 "$work/symbols" | awk -v n="$n" "$layer_fn"'
  $1 == "D" { owner[$2] = $3; next }
  ($2 in owner) && layer(owner[$2]) > layer($3) {
    printf "layers: %s.c (layer %d) calls %s of %s.c (layer %d)\n", $3, layer($3), $2, owner[$2], layer(owner[$2])
    bad = 1
  }
  END {
    if (!bad) printf "layers: %d objects, every call goes down\n", n
    exit bad
  }' || fail=1

# includes go down too: a firmware file includes no firmware header of a
# higher layer (the journal sees no dealer.h). Not yet: dealer_sources.c
# and .h include dealer.h (the sources keep their state in fd_dealer).
for f in firmware/*.c firmware/*.h; do
  sed -n 's/^#[ \t]*include[ \t]*"\([a-z_]*\)\.h".*/\1/p' "$f" | while read -r h; do
    [ -f "firmware/$h.h" ] && echo "$f $h"
  done
done | awk "$layer_fn"'
  { f = $1; sub(/^.*\//, "", f); sub(/\.[ch]$/, "", f) }
  f == "dealer_sources" && $2 == "dealer" { next } # the exception above
  layer($2) > layer(f) {
    printf "layers: %s (layer %d) includes %s.h (layer %d)\n", $1, layer(f), $2, layer($2)
    bad = 1
  }
  END {
    if (!bad) print "layers: every include goes down"
    exit bad
  }' || fail=1
# a transport sees none of fd_dealer's contents: it defines FD_DEALER_OPAQUE
# before its first #include (dealer.h); main.c, which holds the dealer, aside
for f in firmware/*.c; do
  [ "$f" = firmware/main.c ] && continue
  echo "$f"
done | awk "$layer_fn"'
  { f = $1; sub(/^.*\//, "", f); sub(/\.c$/, "", f) }
  layer(f) == 4 {
    n++
    first = ""
    while ((getline line < $1) > 0) {
      if (line ~ /^#[ \t]*(include|define[ \t]+FD_DEALER_OPAQUE)/) { first = line; break }
    }
    close($1)
    if (first !~ /FD_DEALER_OPAQUE/) {
      printf "layers: %s (a transport) includes dealer.h without FD_DEALER_OPAQUE first\n", $1
      bad = 1
    }
  }
  END {
    if (!bad) printf "layers: %d transports, fd_dealer opaque in each\n", n
    exit bad
  }' || fail=1
exit $fail
