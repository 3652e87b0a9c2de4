#!/bin/sh
# Build and run one example as a user would, from a clean build directory.
# usage: test_example.sh NAME SOURCE_ROOT WORK_DIR [INSTALL_TREE]
#   seeded-deal     INSTALL_TREE = the host build: installed, found by pkg-config
#   shuffle-structs (add_subdirectory of SOURCE_ROOT)
#   cortex-m        INSTALL_TREE = the mps2-an386 build: installed, found by
#                   find_package, run under qemu-system-arm
set -eu
name=$1 src=$2 work=$3 tree=${4:-}
ex=$src/examples/$name
rm -rf "$work"
mkdir -p "$work"
quiet() { "$@" > "$work/log" 2>&1 || { cat "$work/log"; exit 1; }; }

case $name in
seeded-deal)
  quiet cmake --install "$tree" --prefix "$work/prefix"
  PKG_CONFIG_PATH=$(dirname "$(find "$work/prefix" -name fairdeal.pc)")
  export PKG_CONFIG_PATH
  quiet cmake -S "$ex" -B "$work/b"
  quiet cmake --build "$work/b"
  for app in seeded-deal seeded-deal-cxx; do
    "$work/b/$app" > "$work/$app.out"
    diff -u "$ex/expected.txt" "$work/$app.out"
  done ;;
shuffle-structs)
  quiet cmake -S "$ex" -B "$work/b" -DFAIRDEAL_DIR="$src"
  quiet cmake --build "$work/b"
  players=$(printf '%s\n' ada ben cleo dev eli fay gus hana ivo jun)
  for app in seat seat-cxx; do
    for run in 1 2 3; do
      "$work/b/$app" > "$work/$app.$run"
      seated=$(sed -n 's/^seat [0-9]*: \([a-z]*\) (.*/\1/p' "$work/$app.$run" | sort)
      [ "$seated" = "$players" ] || { echo "$app: not a seating of every player:"; cat "$work/$app.$run"; exit 1; }
    done
    # three identical orders of 10 players: probability 1/(10!)^2
    if cmp -s "$work/$app.1" "$work/$app.2" && cmp -s "$work/$app.2" "$work/$app.3"; then
      echo "$app: the same order three times"; exit 1
    fi
  done ;;
cortex-m)
  quiet cmake --install "$tree" --prefix "$work/prefix"
  quiet cmake -S "$ex" -B "$work/b" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/arm-none-eabi.cmake" \
    -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=MinSizeRel
  quiet cmake --build "$work/b"
  for app in deal deal-cxx; do
    status=0
    # as the example's README line runs it; semihosting output arrives on stderr
    timeout 120 qemu-system-arm -M mps2-an386 -display none -monitor none -serial null \
      -semihosting-config enable=on,target=native -kernel "$work/b/$app.elf" > "$work/$app.out" 2>&1 || status=$?
    [ "$status" -eq 0 ] || { echo "$app.elf exited $status:"; cat "$work/$app.out"; exit 1; }
    diff -u "$src/examples/seeded-deal/expected.txt" "$work/$app.out"
  done ;;
*)
  echo "unknown example $name" >&2; exit 2 ;;
esac
echo "example $name: ok"
