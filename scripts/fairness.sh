#!/bin/sh
# The full fairness run: the harness at scale (10^8 shuffles for n = 8, 10^7
# for 52 cards, 10^7 for n = 512, 2x10^6 for the 312-card shoe), the
# articles' table with bar charts (gnuplot, PNG), every dieharder -a test
# on ChaCha20 (the quick set on HMAC_DRBG), ent and rngtest on both DRBGs.
# Writes docs/FAIRNESS.md and docs/fairness/*.png. Takes about an hour on 2
# cores (the harness ~20 min, dieharder ~260 GB); SKIP_DIEHARDER_ALL=1 runs
# the quick battery instead.
# usage: scripts/fairness.sh [seed-hex]
set -eu
cd "$(dirname "$0")/.."
seed=${1:-fa1dea15eed0}
scripts/deps.sh fairness
cmake --preset host >/dev/null
cmake --build --preset host --target fairness fairdeal-tool
out=build/fairness
rm -rf "$out" && mkdir -p "$out" docs/fairness
battery=full
[ "${SKIP_DIEHARDER_ALL:-0}" = 1 ] && battery=quick
# The batteries (mostly dieharder -a) run alongside the harness.
tests/stats/batteries.sh $battery build/host/bin/fairdeal-tool "$out/batteries.md" & batteries_pid=$!
harness_status=0
build/host/tests/fairness --full --seed "$seed" --out "$out" || harness_status=$?
rm -f docs/fairness/*.png
for dat in "$out"/articles_*.dat; do
  name=$(basename "$dat" .dat)
  cards=$(echo "$name" | sed 's/articles_n\([0-9]*\)_.*/\1/')
  shuffles=$(echo "$name" | sed 's/.*_//')
  gnuplot -e "datafile='$dat'; outfile='docs/fairness/$name.png'; title='$cards cards, $shuffles shuffles: count per order'" \
    tests/stats/articles.gp
done
batteries_status=0
wait $batteries_pid || batteries_status=$?
{
  cat tests/stats/FAIRNESS.head.md
  echo
  echo "Reproduce: \`scripts/fairness.sh $seed\` (commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%d))."
  echo
  cat "$out/report.md"
  echo
  echo "## Charts"
  echo
  for png in docs/fairness/*.png; do
    echo "![$(basename "$png" .png)](fairness/$(basename "$png"))"
  done
  echo
  echo "## External batteries ($battery)"
  echo
  cat "$out/batteries.md"
} >docs/FAIRNESS.md
echo "wrote docs/FAIRNESS.md (harness exit $harness_status, batteries exit $batteries_status)"
[ "$harness_status" = 0 ] && [ "$batteries_status" = 0 ]
