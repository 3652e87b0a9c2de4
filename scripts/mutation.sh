#!/bin/sh
# Mutation testing of lib/ and firmware/ against the host tests: every mutant
# in the lists (tests/mutation/*.mutants by default) is applied to a copy of
# the tree, the host tree is rebuilt and the host unit tests and the tool
# test run; a mutant is killed when the build's tests fail (or time out:
# after 120 s in the quick pass, 300 s in the full one, marked "(timeout)"
# in the report; a loaded machine can slow
# a test tenfold, so a kill by timeout alone deserves a second look),
# survives when they all pass, and is "stillborn" when it does not compile
# (-Werror; not counted). Long run (a few seconds per killed mutant, ~20 s
# per survivor on 2 cores), not part
# of the default tests. Writes build/mutation/results.tsv and, with
# --report, the per-file score table into docs/RELIABILITY.md between the
# "mutation-score" markers.
# List format, one mutant per line, tab-separated (\n and \t escaped):
#   file <TAB> anchor text (must occur exactly once) <TAB> replacement <TAB> note
#   [<TAB> why it is equivalent: a survivor with this field counts as
#   equivalent, not in the score]
# Backslashes in a field are escaped as \\ (scripts/mutants.py writes them
# so; a backslash before any other letter stays as it is).
# --from-results skips the run and rebuilds the table (and, with --report,
# the RELIABILITY.md section) from the last results.tsv.
# --keep-killed reuses a "killed" (or "equivalent") verdict of the last
# results.tsv for a mutant whose list line and target file are byte for
# byte the same (the key column): tests are only ever added, so a killed
# mutant stays killed; everything else runs again. --incremental reuses
# every verdict (survivors and stillborn too) of a mutant whose line and
# file are unchanged: only the mutants of changed files run (after adding a
# test against a survivor, run with --keep-killed). --name N keeps this
# run's results in build/mutation/N.tsv and its --report table between the
# "mutation-score-N" markers (the drawn sample: --name drawn), so a run of
# one list does not overwrite another's. --check only checks that every anchor occurs
# exactly once (seconds; run it after merging changes to lib/ or firmware/).
# Files only a board compiles (the Cortex-M storage drivers and assembly
# loops) run against that board's QEMU suites instead of the host tests.
# usage: scripts/mutation.sh [--check] [--report] [--name N] [--from-results|--keep-killed|--incremental] [list...]
# (options in any order)
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
report=0 from_results=0 keep_killed=0 check=0 name=
# options in any order, before the lists; anything else starting with "-"
# is refused (it used to be read as a list file, emptying results.tsv)
while [ $# -gt 0 ]; do
  case $1 in
    --check) check=1 ;;
    --report) report=1 ;;
    --from-results) from_results=1 ;;
    --keep-killed) keep_killed=1 ;;
    --incremental) keep_killed=2 ;;
    --name) shift; name=${1:?--name needs a name}
      case $name in *[!a-z0-9_-]*) echo "mutation: --name takes [a-z0-9_-]" >&2; exit 2 ;; esac ;;
    -*) echo "mutation: unknown option $1 (usage: scripts/mutation.sh [--check] [--report] [--name N] [--from-results|--keep-killed|--incremental] [list...])" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
if [ $from_results = 1 ] && [ $keep_killed != 0 ]; then
  echo "mutation: --from-results excludes --keep-killed and --incremental" >&2
  exit 2
fi
for list in "$@"; do
  [ -f "$list" ] || { echo "mutation: no such list: $list" >&2; exit 2; }
done
[ $# -gt 0 ] || set -- tests/mutation/*.mutants
set -f # the test regexes below are never file names
# Applies one list line to the file at path (a copy of the tree's file);
# with "check", only counts the anchor.
apply_mutant() {
  python3 - "$@" <<'PY'
import sys
path, line = sys.argv[1], sys.argv[2]
import re
fields = line.split("\t")
escapes = {"n": "\n", "t": "\t", "\\": "\\"}
unescape = lambda s: re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(0)), s)
anchor, repl = unescape(fields[1]), unescape(fields[2])
text = open(path).read()
if text.count(anchor) != 1:
    sys.stderr.write("mutation: anchor occurs %d times in %s: %r\n" % (text.count(anchor), path, anchor))
    sys.exit(1)
if len(sys.argv) < 4:
    open(path, "w").write(text.replace(anchor, repl))
PY
}
if [ $check = 1 ]; then
  # One python process for every list line (one per line took minutes on a
  # loaded machine): the same anchor rule as apply_mutant.
  python3 - "$@" <<'PY'
import re, sys
escapes = {"n": "\n", "t": "\t", "\\": "\\"}
unescape = lambda s: re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(0)), s)
texts, bad, total = {}, 0, 0
for lst in sys.argv[1:]:
    for line in open(lst).read().splitlines():
        if not line or line.startswith("#"):
            continue
        total += 1
        fields = line.split("\t")
        path, anchor = fields[0], unescape(fields[1])
        try:
            text = texts.setdefault(path, open(path).read())
        except OSError as e:
            sys.stderr.write("mutation: %s\n" % e)
            bad += 1
            continue
        if text.count(anchor) != 1:
            sys.stderr.write("mutation: anchor occurs %d times in %s: %r\n" % (text.count(anchor), path, anchor))
            bad += 1
sys.stderr.write("mutation: %d mutants, %d with a missing or repeated anchor\n" % (total, bad))
sys.exit(1 if bad else 0)
PY
  exit
fi
scripts/deps.sh mutation
work=$root/build/mutation
src=$work/src
results=$work/${name:-results}.tsv
if [ $from_results = 0 ]; then
start=$(date +%s)
mkdir -p "$work"
previous=$work/previous.tsv
if [ $keep_killed != 0 ] && [ -f "$results" ]; then cp "$results" "$previous"; else : >"$previous"; fi
rm -rf "$src" && mkdir -p "$src" "$work/build"
# the tree as it is now (tracked and new files, with uncommitted edits),
# named in the report by the commit it was copied at
tested=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- lib firmware tools boards tests || tested="$tested + uncommitted edits"
git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - | tar -xmf - -C "$src"
# FD_WITH_BOARDS: the boards' trees are there to build (board-<b>, into
# $src/build/<b>) and their tests registered; only what a mutant's tests
# need is ever built
cmake -S "$src" -B "$work/build" -DFD_BOARD=host -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFD_WITH_BOARDS=ON >/dev/null
all_tests='^host\.(unit\..*|tool)$'
# the executables tests matching a ctest regex run: host.unit.X is test_X
# (host.unit.test_X is test_X), host.tool runs fairdeal-tool and the host dealer
targets_for() {
  (cd "$work/build" && ctest -N -R "$1") | sed -n 's/.*Test *#[0-9]*: host\.unit\.\(test_[a-z0-9_]*\)$/\1/p; t; s/.*Test *#[0-9]*: host\.unit\.\([a-z0-9_]*\)$/test_\1/p; t; s/.*Test *#[0-9]*: host\.tool\.lms$/fairdeal-tool lms_kat_files/p; t; s/.*Test *#[0-9]*: host\.tools*\(\..*\)*$/fairdeal-tool dealer/p; t; s/.*Test *#[0-9]*: host\.drivers\.\([a-z0-9_]*\)$/\1/p; t; s/.*Test *#[0-9]*: host\.dealer\..*/dealer dealer_release fairdeal-tool/p; t; s/.*Test *#[0-9]*: \([a-z0-9-]*\)\.[a-z_]*\.[a-z0-9_]*$/board-\1 fairdeal-tool/p' | sort -u | tr '\n' ' '
}
# The board whose QEMU suites test a file no host test compiles (empty:
# the host tests reach it).
board_of() {
  case $1 in
    boards/common/cortex-m/ram_storage.c|lib/src/shuffle_v7m.c) echo mps2-an386 ;;
    boards/common/nrf5x/nvmc.c|lib/src/chacha20_v6m.c) echo microbit ;;
  esac
}
# Every test a mutant of the file must pass to survive: the host unit tests
# and the tool test, the host dealer's scripts for the firmware and tools,
# the board drivers' tests for the UART code; a board's QEMU tests for a
# file only the board compiles.
full_tests() {
  b=$(board_of "$1")
  if [ -n "$b" ]; then echo "^$b\.(unit\..*|dealer\..*|journal\..*)\$"; return; fi
  case $1 in
    firmware/*) echo '^host\.(unit\..*|tool|dealer\..*)$' ;;
    tools/*) echo '^host\.(unit\..*|tool|tools?\..*|dealer\..*)$' ;;
    boards/common/uart/*) echo '^host\.(unit\..*|tool|drivers\..*)$' ;;
    *) echo "$all_tests" ;;
  esac
}
# Builds and runs the tests matching $1 (each given $2 seconds): 0 all pass,
# 1 one fails, 2 no build.
run_tests() {
  # shellcheck disable=SC2046
  nice cmake --build "$work/build" -j2 --target $(targets_for "$1") >"$work/build.log" 2>&1 || return 2
  if ! (cd "$work/build" && ctest -R "$1" -j2 --timeout "$2" >"$work/test.log" 2>&1); then
    sed -n 's/^[[:space:]]*[0-9]* - \([a-z0-9-]*\.[^ ]*\) (Timeout)/\1(timeout)/p; t; s/^[[:space:]]*[0-9]* - \([a-z0-9-]*\.[^ ]*\).*/\1/p' "$work/test.log" | tr '\n' ' ' >"$work/failed"
    return 1
  fi
  return 0
}
# The quick suites that test a file directly run first (a fraction of the
# build and test time; the golden digests take seconds, so they wait for
# the second pass); a mutant they all pass runs again against every test
# before it counts as surviving, so the verdicts are those of the full set.
direct_tests() {
  case $1 in
    lib/src/shuffle.c|lib/src/bounded.c|lib/src/word.h) s='shuffle|bounded|guards' ;;
    lib/src/health.c|lib/src/entropy.c) s='entropy|guards|cutoffs' ;;
    lib/src/fullentropy.c) s='entropy|guards|round' ;;
    lib/src/chacha20.c|lib/src/chacha20_simd.c|lib/src/hmac_drbg.c|lib/src/drbg.c) s='crypto|guards|seeded' ;;
    lib/src/deck.c) s='deck|guards' ;;
    lib/src/combined.c|lib/src/roots.c) s='entropy|guards' ;;
    lib/src/seeded.c) s='seeded|guards' ;;
    lib/src/commit.c) s='commit|guards' ;;
    lib/src/round.c) s='round|guards' ;;
    lib/src/journal.c) s='journal|guards' ;;
    firmware/device_secret.c) s='device_secret|dealer' ;;
    firmware/persist.c) s='persist|dealer' ;;
    firmware/*) s='dealer' ;;
    boards/common/uart/*) s='rx_ring' ;;
    tools/*) echo '^host\.(tool|tools?\..*)$'; return ;;
    *) full_tests "$1"; return ;;
  esac
  echo "^host\.unit\.($s)\$"
}
# The key of a list line: the line and its file as they are now.
key_of() {
  { printf '%s\n' "$1"; cat "$src/$(printf '%s' "$1" | cut -f1)"; } | sha1sum | cut -c1-16
}
# the mutants no earlier verdict is kept for (--incremental: none may be
# left, and then nothing is built)
to_run=0
for list in "$@"; do
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in ''|'#'*) continue ;; esac
    k=$(key_of "$line")
    awk -F'\t' -v k="$k" -v all=$keep_killed '($4 == "killed" || $4 == "equivalent" || all == 2) && $7 == k { f = 1 } END { exit !f }' "$previous" ||
      to_run=$((to_run + 1))
  done <"$list"
done
echo "mutation: $to_run mutants to run" >&2
# the widest set any listed file's mutants meet, once
baseline=$(for list in "$@"; do grep -v '^#' "$list" | cut -f1; done | sort -u | while read -r f; do full_tests "$f"; done | sort -u)
[ $to_run -gt 0 ] || baseline=''
[ -z "$baseline" ] || echo "mutation: building the unmutated tree" >&2
for set in $baseline; do
  run_tests "$set" 300 || { echo "mutation: the unmutated tree fails $set (see $work/test.log)" >&2; exit 2; }
done
printf 'list\tline\tfile\tverdict\tnote\tfailed tests or equivalence\tkey\n' >"$results"
for list in "$@"; do
  lineno=0
  while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    case $line in ''|'#'*) continue ;; esac
    file=$(printf '%s' "$line" | cut -f1)
    note=$(printf '%s' "$line" | cut -f4)
    why=$(printf '%s' "$line" | cut -f5)
    cp "$src/$file" "$work/original"
    key=$(key_of "$line")
    kept=$(awk -F'\t' -v k="$key" -v all=$keep_killed '($4 == "killed" || $4 == "equivalent" || all == 2) && $7 == k { print $4 "\t" $6; exit }' "$previous")
    if [ -n "$kept" ]; then
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$list" "$lineno" "$file" "$(printf '%s' "$kept" | cut -f1)" "$note" "$(printf '%s' "$kept" | cut -f2)	$key" >>"$results"
      echo "mutation: $list:$lineno $file: $(printf '%s' "$kept" | cut -f1), kept from the last run ($note)" >&2
      continue
    fi
    if ! apply_mutant "$src/$file" "$line"; then
      verdict='bad-anchor'
    else
      status=0
      : >"$work/failed"
      run_tests "$(direct_tests "$file")" 120 || status=$?
      if [ $status = 0 ]; then run_tests "$(full_tests "$file")" 300 || status=$?; fi
      case $status in
        0) verdict=SURVIVED ;;
        1) verdict=killed ;;
        *) verdict=stillborn ;;
      esac
      [ $verdict = SURVIVED ] && [ -n "$why" ] && verdict=equivalent
    fi
    cp "$work/original" "$src/$file"
    detail=$why
    [ $verdict = killed ] && detail="by $(cat "$work/failed")"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$list" "$lineno" "$file" "$verdict" "$note" "$detail" "$key" >>"$results"
    echo "mutation: $list:$lineno $file: $verdict ($note)" >&2
  done <"$list"
done
# restore the build of the unmutated tree for whoever looks next
for set in $baseline; do
  # shellcheck disable=SC2046
  nice cmake --build "$work/build" -j2 --target $(targets_for "$set") >/dev/null 2>&1 || true
done
echo "mutation: run took $(( $(date +%s) - start )) s" >&2
fi
table=$work/score${name:+-$name}.md
awk -F'\t' 'NR > 1 && ($4 == "killed" || $4 == "SURVIVED") {
    total[$3]++; all++; if ($4 == "killed") { kill[$3]++; killed++ } }
  NR > 1 && ($4 == "stillborn" || $4 == "bad-anchor") { bad++ }
  NR > 1 && $4 == "equivalent" { eq[$3]++; equivalent++ }
  END {
    print "| file | mutants | killed | survived | equivalent | score |"; print "|---|---|---|---|---|---|"
    n = 0; for (f in total) names[++n] = f
    for (f in eq) if (!(f in total)) { names[++n] = f; total[f] = 0 }
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (names[j] < names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
    for (i = 1; i <= n; i++) { f = names[i]
      printf "| %s | %d | %d | %d | %d | %.1f%% |\n", f, total[f] + eq[f], kill[f], total[f] - kill[f], eq[f], total[f] ? 100 * kill[f] / total[f] : 100 }
    printf "| **all** | %d | %d | %d | %d | %.1f%% |\n", all + equivalent, killed, all - killed, equivalent, all ? 100 * killed / all : 0
    print "\nScore = killed / (killed + survived); equivalent mutants (no test can tell them apart) are listed below with the argument."
    if (bad) printf "\n%d mutant(s) did not compile or lost their anchor (not counted).\n", bad
  }' "$results" >"$table"
{
  echo
  echo "Survivors:"
  echo
  awk -F'\t' '$4 == "SURVIVED" { printf "- %s:%s %s: %s\n", $1, $2, $3, $5; n++ } END { if (!n) print "- none" }' "$results"
  echo
  echo "Equivalent:"
  echo
  awk -F'\t' '$4 == "equivalent" { printf "- %s:%s %s: %s. Why: %s\n", $1, $2, $3, $5, $6; n++ } END { if (!n) print "- none" }' "$results"
  echo
  echo "Killed, and by which tests:"
  echo
  awk -F'\t' '$4 == "killed" { printf "- %s:%s %s: %s (%s)\n", $1, $2, $3, $5, $6 }' "$results"
} >>"$table"
cat "$table"
if [ $report = 1 ]; then
  python3 - docs/RELIABILITY.md "$table" "${tested:-$(git rev-parse --short HEAD)}" "mutation-score${name:+-$name}" <<'PY'
import sys
doc, table, commit, marker = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3], sys.argv[4]
text = open(doc).read()
begin, end = "<!-- %s begin -->" % marker, "<!-- %s end -->" % marker
if begin not in text or end not in text:
    sys.exit("mutation: markers missing in " + doc)
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
body = "\n(`scripts/mutation.sh --report` at commit %s)\n\n%s" % (commit, table)
open(doc, "w").write(head + begin + "\n" + body + end + tail)
PY
fi
