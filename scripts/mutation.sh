#!/bin/sh
# Mutation testing (docs/RELIABILITY.md "Mutation testing"): every mutant in
# the lists (tests/mutation/*.mutants by default) is applied to a worker's
# copy of the tree; only what links the mutated file is built and only the
# tests that run it (from the build graph: scripts/mutation_run.py) run, one
# at a time, the likeliest killer first. A mutant is killed when a test
# fails (or times out: after ten times the test's unmutated duration, at
# least 60 s, marked "(timeout)" in the report; a loaded machine can slow a
# test tenfold, so a kill by timeout alone deserves a second look),
# survives when they all pass, and is "stillborn" when it does not compile
# (-Werror; not counted). Long run, not part of the default tests (only
# --check is). FD_MUTATION_WORKERS (default 2) workers, each with a build
# tree of its own kept between runs (build/mutation/w<N>). Writes
# build/mutation/results.tsv and, with --report, the per-file score table
# into docs/RELIABILITY.md between the "mutation-score" markers.
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
# Files only a board's code reaches (the Cortex-M storage drivers and
# assembly loops) run against that board's QEMU suites instead.
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
results=$work/${name:-results}.tsv
if [ $from_results = 0 ]; then
  mkdir -p "$work"
  previous=$work/previous.tsv
  if [ $keep_killed != 0 ] && [ -f "$results" ]; then cp "$results" "$previous"; else : >"$previous"; fi
  # the tree as it is now (tracked and new files, with uncommitted edits),
  # named in the report by the commit it was copied at
  tested=$(git rev-parse --short HEAD)
  git diff --quiet HEAD -- lib firmware tools boards tests || tested="$tested + uncommitted edits"
  case $keep_killed in 0) keep=none ;; 1) keep=killed ;; *) keep=all ;; esac
  python3 scripts/mutants.py run --results "$results" --previous "$previous" --keep $keep \
    --workers "${FD_MUTATION_WORKERS:-2}" "$@"
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
