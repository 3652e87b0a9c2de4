#!/bin/sh
# Static analysis of lib/, hal/, boards/ and firmware/: cppcheck and
# clang-tidy (configuration in .clang-tidy), each file compiled the way its
# build compiles it (compile_commands.json of build/host and of every board).
# Any finding fails. Inline suppressions must say why on the same line.
# usage: scripts/lint.sh [build-root]     (default: build; run after a build)
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
builds=$(cd "${1:-build}" && pwd)
status=0

# Source files of one compile database that belong to the product.
product_files() {
  sed -n 's/^ *"file": "\(.*\)".*$/\1/p' "$1" |
    grep -E "^$root/(lib|firmware|boards)/" | sort -u
}

cppcheck_run() {
  # $1: compile database; rest: file filters (absolute paths)
  db=$1; shift
  cppcheck --project="$db" "$@" \
    --enable=warning,style,performance,portability --std=c11 \
    --inline-suppr --error-exitcode=1 --quiet \
    --suppress=missingIncludeSystem --suppress=unmatchedSuppression \
    --suppress='*:*/tests/*' --suppress='*:*/build/*' || status=1
}

tidy_run() {
  # $1: build dir; rest: extra clang args
  db=$1; shift
  files=$(product_files "$db/compile_commands.json")
  case "$db" in
    */host) files=$(echo "$files" | grep -v "/boards/") ;;
    *) files=$(echo "$files" | grep "/boards/") ;;
  esac
  [ -n "$files" ] || return 0
  # shellcheck disable=SC2086
  clang-tidy --quiet -p "$db" "$@" $files >"$db/clang-tidy.log" 2>&1 || { cat "$db/clang-tidy.log"; status=1; }
  if grep -qE '(warning|error):' "$db/clang-tidy.log"; then
    cat "$db/clang-tidy.log"; status=1
  fi
}

[ -f "$builds/host/compile_commands.json" ] || { echo "lint: build the host preset first" >&2; exit 1; }
echo "lint: host (lib/, firmware/, boards/host/)"
cppcheck_run "$builds/host/compile_commands.json" --file-filter="$root/lib/*" --file-filter="$root/firmware/*" --file-filter="$root/boards/host/*"
tidy_run "$builds/host"
# only the boards of boards/list.txt: a stray tree under build/ is not a board
for board in $(grep -v '^#' boards/list.txt); do
  [ "$board" = host ] && continue
  dir=$builds/$board
  db=$dir/compile_commands.json
  [ -f "$db" ] || continue
  echo "lint: $board (boards/)"
  cppcheck_run "$db" --file-filter="$root/boards/*"
  tidy_run "$dir" --extra-arg=--target=arm-none-eabi \
    --extra-arg=-isystem/usr/lib/arm-none-eabi/include \
    --extra-arg=-Wno-unknown-warning-option --extra-arg=-Wno-unused-command-line-argument
done
# formatting: every tracked C source and header against .clang-format (but
# the mutation generator's fixture, whose layout is its test data)
echo "lint: clang-format"
# shellcheck disable=SC2046
clang-format --dry-run --Werror $(git ls-files '*.c' '*.h' | grep -v -e '^examples/.*/build/' -e '^tests/mutation/fixture/') || status=1
[ "$status" -eq 0 ] && echo "lint: no findings"
exit "$status"
