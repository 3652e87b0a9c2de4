#!/bin/sh
# Positions skipped at power loss (docs/PROTOCOL.md "Power loss"), end to
# end: tests/tools/skipped_session runs the real dealer over the host flash
# simulator through two power cuts after a write-ahead (the first before
# DEAL 1 2's reply: positions 7-8 never shown; the second after DEAL 3's:
# 9-11 shown), in a verifiable and a drbg round. Checked: REVEAL says
# skipped=7-8,9-11 and RECALL lists skipped=7-8 and skipped=9-11; verify.py
# and fairdeal-tool accept the session, the round line and the RECALL; an
# edited skipped= (left out, shifted, widened, invented) is rejected by
# both transcript verifiers and the RECALL verifier; the session is the
# base input frozen in tests/tools/make_malformed.py (whose cases the verify
# page runs too: host.web.verify_page).
# usage: test_skipped.sh SKIPPED_SESSION SOURCE_ROOT FAIRDEAL_TOOL
set -eu
session=$1
root=$2
tool=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
pass() { echo "ok   $*"; }
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}
accepts() { # NAME COMMAND...: exit 0
  name=$1
  shift
  if "$@" >"$work/stdout" 2>"$work/stderr"; then pass "$name"; else fail "$name: $(cat "$work/stderr")"; fi
}
rejects() { # NAME PHRASE COMMAND...: exit non-zero, one stderr line with PHRASE
  name=$1
  phrase=$2
  shift 2
  if "$@" >"$work/stdout" 2>"$work/stderr"; then
    fail "$name: accepted"
  elif [ "$(wc -l <"$work/stderr")" -ne 1 ] || ! grep -q -- "$phrase" "$work/stderr"; then
    fail "$name: want one line with '$phrase', got: $(cat "$work/stderr")"
  else
    pass "$name: $(cat "$work/stderr")"
  fi
}

for mode in round drbg; do
  s=$work/$mode.txt
  if [ "$mode" = drbg ]; then "$session" drbg | tr -d '\r' >"$s"; else "$session" | tr -d '\r' >"$s"; fi
  reveal=$(grep '^OK REVEAL ' "$s")
  recall=$(grep '^OK RECALL ' "$s")
  [ "$(grep -c '^\*\*\* RECOVERED open round id=1 after a power cut at card 9: ' "$s")" -eq 1 ] &&
    [ "$(grep -c '^\*\*\* RECOVERED open round id=1 after a power cut at card 12: ' "$s")" -eq 1 ] &&
    pass "$mode: two RECOVERED banners, at card 9 and card 12" || fail "$mode: banners: $(grep RECOVERED "$s")"
  # exactly one skipped= in REVEAL, one per SKIPPED record in RECALL
  [ "$(echo "$reveal" | grep -o ' skipped=[^ ]*' | tr '\n' '|')" = " skipped=7-8,9-11|" ] &&
    pass "$mode: REVEAL says skipped=7-8,9-11" || fail "$mode: REVEAL: $reveal"
  [ "$(echo "$recall" | grep -o ' skipped=[^ ]*' | tr '\n' '|')" = " skipped=7-8| skipped=9-11|" ] &&
    pass "$mode: RECALL lists skipped=7-8 and skipped=9-11" || fail "$mode: RECALL: $recall"
  echo "$recall" >"$work/recall.txt"
  accepts "$mode: verify.py transcript" python3 "$root/tools/verify.py" transcript "$s"
  accepts "$mode: fairdeal-tool verify --transcript" "$tool" verify --transcript "$s"
  accepts "$mode: fairdeal-tool verify --recall" "$tool" verify --recall "$work/recall.txt"
  if [ "$mode" = round ]; then
    echo "$reveal" | sed 's/^OK REVEAL //' >"$work/line.txt"
    accepts "round line: verify.py check" python3 "$root/tools/verify.py" check "$work/line.txt"
    accepts "round line: fairdeal-tool verify --round" "$tool" verify --round "$work/line.txt"
  fi
  # edits of REVEAL's skipped=: each rejected by both transcript verifiers
  for edit in "removed||hidden by a power cut" "hidden-left-out|skipped=9-11|hidden by a power cut" \
    "invented|skipped=7-8,9-11,30|ends at no power cut" "widened|skipped=7-8,9-12|ends at no power cut" \
    "shifted|skipped=8,9-11|does not start where" "early|skipped=6-8,9-11|does not start where"; do
    name=${edit%%|*}
    rest=${edit#*|}
    value=${rest%%|*}
    phrase=${rest#*|}
    if [ -z "$value" ]; then
      sed 's/ skipped=7-8,9-11//' "$s" >"$work/edited.txt"
    else
      sed "s/ skipped=7-8,9-11 / $value /" "$s" >"$work/edited.txt"
    fi
    cmp -s "$s" "$work/edited.txt" && fail "$mode: edit $name changed nothing"
    rejects "$mode: skipped $name: verify.py" "$phrase" python3 "$root/tools/verify.py" transcript "$work/edited.txt"
    rejects "$mode: skipped $name: fairdeal-tool" "$phrase" "$tool" verify --transcript "$work/edited.txt"
  done
  # edits of RECALL's skipped=
  for edit in "skipped=7-8|skipped=7|not one deal" "skipped=9-11|skipped=9-10|not one deal" \
    "skipped=7-8|skipped=30-31|never dealt" "skipped=9-11|skipped=8-11|overlap"; do
    from=${edit%%|*}
    rest=${edit#*|}
    to=${rest%%|*}
    phrase=${rest#*|}
    echo "$recall" | sed "s/ $from / $to /" >"$work/edited.txt"
    rejects "$mode: RECALL $from -> $to" "$phrase" "$tool" verify --recall "$work/edited.txt"
  done
done

# the frozen base inputs of the shared table are this session's output
python3 - "$root" "$work/round.txt" "$work/drbg.txt" <<'EOF' && pass "tests/tools/make_malformed.py's bases tk, tkd, rk are this session's output" || fail "make_malformed.py's bases differ from the session: refreeze them (its comment says how)"
import sys
sys.path.insert(0, sys.argv[1] + "/tests/tools")
from make_malformed import BASES
def read(path):
    return [l for l in open(path).read().splitlines() if l.startswith("OK ") or l.startswith("*** RECOVERED")]
rnd, drbg = read(sys.argv[2]), read(sys.argv[3])
want = ("".join(l + "\n" for l in rnd if not l.startswith("OK RECALL")),
        "".join(l + "\n" for l in drbg if not l.startswith("OK RECALL")),
        "".join(l + "\n" for l in rnd if l.startswith("OK RECALL")))
sys.exit(0 if (BASES["tk"], BASES["tkd"], BASES["rk"]) == want else 1)
EOF

[ "$failures" -eq 0 ] || { echo "test_skipped.sh: $failures failure(s)"; exit 1; }
echo "test_skipped.sh: all passed"
