# Sourced by the shell tests here: a scratch directory $work (removed on
# exit), pass/fail lines, and `finish NAME`, which reports and exits 1 on
# any failure.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
finish() {
  [ $failures -eq 0 ] && echo "$1: all passed" || echo "$1: $failures failure(s)"
  exit $((failures != 0))
}
