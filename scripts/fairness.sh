#!/bin/sh
# The full fairness run: the null calibration, the harness at scale (10^8
# shuffles for n = 8, 10^7 for 52 cards, 10^7 for n = 512, 2x10^6 for the
# 312-card shoe) with the power table and its simulated spot checks, the
# articles' tables with charts and the 52x52 position heat map (gnuplot,
# PNG), every dieharder -a test on ChaCha20 (the quick set on HMAC_DRBG), ent
# and rngtest on both DRBGs, and the quick dieharder set, ent and rngtest on
# the combined source's XOR stream (the dealer's default). Writes docs/FAIRNESS.md and docs/fairness/*.png
# with the run's provenance (commit and dirty flag, compiler, battery
# versions, seed, sizes, wall times). The harness takes ~10-20 min on 2 cores,
# dieharder -a ~45+ min alongside it.
#   SKIP_DIEHARDER_ALL=1          the quick battery instead of dieharder -a
#   ASSEMBLE_ONLY=1               rewrite docs/FAIRNESS.md from the last run's
#                                 outputs in build/fairness (after editing
#                                 FAIRNESS.head.md); provenance stays that run's
#   REUSE_BATTERIES=file [commit] do not run the DRBGs' batteries: include
#                                 that earlier battery section, labelled with
#                                 the commit it came from (valid while the
#                                 DRBG output streams are unchanged); the
#                                 combined stream's batteries still run
# usage: scripts/fairness.sh [seed-hex]
set -eu
cd "$(dirname "$0")/.."
seed=${1:-fa1dea15eed0}
out=build/fairness
if [ "${ASSEMBLE_ONLY:-0}" = 1 ]; then
  # shellcheck disable=SC1091
  . "$out/provenance.sh"
else
start=$(date +%s)
commit=$(git rev-parse --short HEAD)
dirty=clean
[ -z "$(git status --porcelain --untracked-files=no)" ] || dirty="dirty (uncommitted changes)"
scripts/deps.sh fairness
cmake --preset host >/dev/null
cmake --build --preset host --target fairness fairdeal-tool
rm -rf "$out" && mkdir -p "$out" docs/fairness
battery=full
[ "${SKIP_DIEHARDER_ALL:-0}" = 1 ] && battery=quick
streams="chacha20 hmac combined"
[ -z "${REUSE_BATTERIES:-}" ] || streams=combined
# The batteries (mostly dieharder) run alongside the harness.
STREAMS=$streams tests/stats/batteries.sh $battery build/host/bin/fairdeal-tool "$out/batteries.md" \
  build/host/tests/fairness & batteries_pid=$!
calibration_status=0
build/host/tests/fairness --calibrate --seed "$seed" --out "$out" || calibration_status=$?
mv "$out/report.md" "$out/calibration.md"
harness_status=0
build/host/tests/fairness --full --seed "$seed" --out "$out" || harness_status=$?
rm -f docs/fairness/*.png
for dat in "$out"/articles_*.dat; do
  name=$(basename "$dat" .dat)
  cards=$(echo "$name" | sed 's/articles_n\([0-9]*\)_.*/\1/')
  shuffles=$(echo "$name" | sed 's/.*_//')
  gnuplot -e "datafile='$dat'; outfile='docs/fairness/$name.png'; title='$cards cards, $shuffles shuffles: deviation from the ideal count per order'" \
    tests/stats/articles.gp
done
gnuplot -e "datafile='$out/heat_52.dat'; outfile='docs/fairness/positions_52.png'; title='52 cards, 10^7 decks: card x final position, z-score per cell'" \
  tests/stats/heat.gp
batteries_status=0
if [ -n "$batteries_pid" ]; then
  wait "$batteries_pid" || batteries_status=$?
fi
wall=$(($(date +%s) - start))
cat >"$out/provenance.sh" <<EOF
commit='$commit' dirty='$dirty' wall='$wall' battery='$battery' day='$(date -u +%Y-%m-%d)'
calibration_status='$calibration_status' harness_status='$harness_status' batteries_status='$batteries_status'
EOF
# shellcheck disable=SC1091
. "$out/provenance.sh"
fi
compiler=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' build/host/CMakeCache.txt)
versions() { dpkg-query -W -f='${Package} ${Version}, ' "$@" 2>/dev/null | sed 's/, $//'; }
{
  cat tests/stats/FAIRNESS.head.md
  echo
  echo "## Provenance"
  echo
  echo "- reproduce: \`scripts/fairness.sh $seed\`"
  echo "- commit $commit, $dirty; $day"
  echo "- compiler: $("$compiler" --version | head -1) (host preset, RelWithDebInfo)"
  echo "- batteries: $(versions dieharder ent rng-tools5); charts: $(versions gnuplot-nox)"
  echo "- seed \`$seed\`; sizes in the next section; machine: $(nproc) cores, shared"
  echo "- wall time: $wall s for this script (the harness's own time is at the end of its results)"
  echo
  echo "## Calibration of the null laws"
  echo
  tail -n +3 "$out/calibration.md"
  echo
  cat "$out/report.md"
  echo
  echo "## Charts"
  echo
  for png in docs/fairness/*.png; do
    echo "![$(basename "$png" .png)](fairness/$(basename "$png"))"
  done
  echo
  if [ -n "${REUSE_BATTERIES:-}" ]; then
    echo "## External batteries on the combined source (this run)"
    echo
    cat "$out/batteries.md"
    echo
    set -- $REUSE_BATTERIES
    echo "## External batteries on the DRBGs (full, from commit ${2:-unknown}: not rerun)"
    echo
    echo "These results come from \`scripts/fairness.sh\` at commit ${2:-unknown}; the DRBGs' output streams have not"
    echo "changed since (every known-answer test and recorded output is unchanged), so the same bytes would be read."
    echo
    cat "$1"
  else
    echo "## External batteries ($battery)"
    echo
    cat "$out/batteries.md"
  fi
} >docs/FAIRNESS.md
echo "wrote docs/FAIRNESS.md (calibration exit $calibration_status, harness exit $harness_status, batteries exit $batteries_status)"
[ "$calibration_status" = 0 ] && [ "$harness_status" = 0 ] && [ "$batteries_status" = 0 ]
