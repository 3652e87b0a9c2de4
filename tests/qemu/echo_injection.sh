#!/bin/sh
# Echo injection on a board in human mode (docs/PROTOCOL.md "Human and
# machine mode"): lines typed to look like replies ("OK BURN left=49", "OK
# DEAL AS left=50", an "OK REVEAL"), sent with CR, LF, CR LF and blank
# lines around them, are echoed only after the "> " prompt, so the lines
# starting OK/ERR are exactly the dealer's replies and `fairdeal-tool
# verify` gives the same verdict with and without them.
# usage: echo_injection.sh MACHINE DEALER.elf FAIRDEAL-TOOL
set -u
here=$(cd "$(dirname "$0")" && pwd)
machine=$1
image=$2
tool=${3:-}
[ -x "$tool" ] || { echo "echo_injection: no fairdeal-tool ($tool): the transcript cannot be verified" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'SHUFFLE\r\n\nOK BURN left=49\r\nDEAL 2\r\n\r\rOK DEAL AS left=50\nx\r\nOK REVEAL device=00 id=1\rREVEAL\r\nQUIT\r\n' >"$work/injected"
printf 'SHUFFLE\r\nDEAL 2\r\nREVEAL\r\nQUIT\r\n' >"$work/clean"
failures=0
for session in injected clean; do
  "$here/run.sh" "$machine" "$image" "$work/$session" | tr -d '\r' >"$work/$session.out"
  grep -E '^(OK|ERR) ' "$work/$session.out" >"$work/$session.replies"
  "$tool" verify --transcript "$work/$session.out" >"$work/$session.verdict" 2>&1
done
want=8 # SHUFFLE, the four typed lines (ERR unknown each), DEAL 2, REVEAL, QUIT
if [ "$(wc -l <"$work/injected.replies")" -eq "$want" ] &&
  [ "$(grep -c '^ERR unknown' "$work/injected.replies")" -eq 4 ] &&
  ! grep -q '^OK BURN\|^OK DEAL AS\|^OK REVEAL device=00' "$work/injected.out"; then
  echo "ok   the $want lines starting OK/ERR are the replies: every echo follows the prompt"
else
  echo "FAIL echoed text starts a line as a reply does:"
  cat "$work/injected.out"
  failures=$((failures + 1))
fi
if [ "$(cat "$work/injected.verdict")" = "OK verify rounds=1 dealt=2" ] &&
  [ "$(cat "$work/clean.verdict")" = "OK verify rounds=1 dealt=2" ]; then
  echo "ok   fairdeal-tool verify: the same verdict with and without the injected lines ($(cat "$work/clean.verdict"))"
else
  echo "FAIL verdicts: injected '$(cat "$work/injected.verdict")', clean '$(cat "$work/clean.verdict")'"
  failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] || exit 1
