#!/bin/sh
# The full fairness run: the harness at scale (10^8 shuffles for n = 8, 10^7
# for 52 cards, 10^7 for n = 512, 2x10^6 for the 312-card shoe), the
# articles' table with bar charts (gnuplot, PNG), and dieharder -a, ent and
# rngtest on both DRBGs. Writes docs/FAIRNESS.md and docs/fairness/*.png.
# Takes about an hour, most of it dieharder -a; SKIP_DIEHARDER_ALL=1 runs the
# quick battery instead.
# usage: scripts/fairness.sh [seed-hex]
set -eu
cd "$(dirname "$0")/.."
seed=${1:-fa1dea15eed0}
scripts/deps.sh fairness
cmake --preset host >/dev/null
cmake --build --preset host --target fairness fairdeal-tool
out=build/fairness
rm -rf "$out" && mkdir -p "$out" docs/fairness
build/host/tests/fairness --full --seed "$seed" --out "$out"
for dat in "$out"/articles_*.dat; do
  name=$(basename "$dat" .dat)
  gnuplot -e "datafile='$dat'; outfile='docs/fairness/$name.png'; title='$name'" tests/stats/articles.gp
done
battery=full
[ "${SKIP_DIEHARDER_ALL:-0}" = 1 ] && battery=quick
tests/stats/batteries.sh $battery build/host/bin/fairdeal-tool "$out/batteries.md"
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
echo "wrote docs/FAIRNESS.md"
