#!/bin/sh
# Reproducible release images (docs/SECURITY.md "Reproducible images"):
# builds a board's release dealer twice, from two copies of the source at
# different paths into two build trees, one after the other (so at
# different times), and compares the .elf, .hex and .bin byte for byte.
#
#   scripts/reproducible.sh [--keep] BOARD [CONFIGURE-ARGS...]  one board
#   scripts/reproducible.sh --all                                every board
#
# A board with FD_EMULATION_ONLY cannot be built for release: it is built
# as a development image instead. SOURCE_DATE_EPOCH is the last commit's
# time (nothing embeds a date today; should anything start to, it takes
# this one). Exit 0: identical; 1: differ (the first differing files are
# named); 2: a build failed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
keep=0
if [ "${1:-}" = "--keep" ]; then keep=1; shift; fi
if [ "${1:-}" = "--all" ]; then
  status=0
  for b in $(sed -e 's/#.*//' "$root/boards/list.txt"); do
    [ "$b" = host ] && continue
    "$0" "$b" || status=1
  done
  exit $status
fi
board=${1:?usage: reproducible.sh [--keep] BOARD [CONFIGURE-ARGS...] | --all}
shift
release=ON
if grep -q '^set(FD_EMULATION_ONLY ON)' "$root/boards/$board/board.cmake"; then release=OFF; fi

SOURCE_DATE_EPOCH=$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)
export SOURCE_DATE_EPOCH
work=$(mktemp -d "${TMPDIR:-/tmp}/fd-repro.XXXXXX")
[ $keep = 1 ] || trap 'rm -rf "$work"' EXIT

# Two source copies at paths of different lengths: the tracked and new
# files of this tree as they are now (the build trees under build/ are not
# source).
copy() {
  mkdir -p "$1"
  (cd "$root" && git ls-files -z --cached --others --exclude-standard | \
    xargs -0 -I{} sh -c '[ -e "{}" ] && printf "%s\0" "{}"' | tar --null -T - -cf -) | tar -xf - -C "$1"
}
copy "$work/a"
copy "$work/second-source-copy"

build() { # SRC BIN [CONFIGURE-ARGS...]
  src=$1 bin=$2
  shift 2
  nice -n 10 cmake -S "$src" -B "$bin" -DFD_BOARD="$board" -DFD_RELEASE=$release -DCMAKE_BUILD_TYPE=MinSizeRel \
    -DCMAKE_TOOLCHAIN_FILE="$src/cmake/arm-none-eabi.cmake" -DFAIRDEAL_BUILD_TESTS=OFF "$@" >"$bin.log" 2>&1 &&
  nice -n 10 cmake --build "$bin" --target dealer -j 2 >>"$bin.log" 2>&1
}
mkdir -p "$work/build1" "$work/b/build-number-two"
if ! build "$work/a" "$work/build1" "$@"; then
  tail -20 "$work/build1.log"; echo "reproducible: $board: first build failed" >&2; exit 2
fi
sleep 1 # a different second, should anything read the clock
if ! build "$work/second-source-copy" "$work/b/build-number-two" "$@"; then
  tail -20 "$work/b/build-number-two.log"; echo "reproducible: $board: second build failed" >&2; exit 2
fi

status=0
n=0
for f in "$work"/build1/firmware/fairdeal-dealer-*.elf "$work"/build1/firmware/fairdeal-dealer-*.hex \
         "$work"/build1/firmware/fairdeal-dealer-*.bin; do
  [ -e "$f" ] || { echo "reproducible: $board: no artifact $f" >&2; exit 2; }
  other="$work/b/build-number-two/firmware/$(basename "$f")"
  n=$((n + 1))
  if ! cmp -s "$f" "$other"; then
    echo "reproducible: $board: $(basename "$f") differs between the two builds:" >&2
    cmp "$f" "$other" >&2 || true
    status=1
  fi
done
if [ $status = 0 ]; then
  echo "reproducible: $board (release=$release): $n artifacts byte-identical:"
  (cd "$work/build1/firmware" && sha256sum fairdeal-dealer-*.elf fairdeal-dealer-*.hex fairdeal-dealer-*.bin)
fi
[ $keep = 1 ] && echo "reproducible: trees kept in $work"
exit $status
