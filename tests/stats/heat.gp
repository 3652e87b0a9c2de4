# 52 x 52 position heat map: z-score of each (card, final position) count,
# fairdeal's Durstenfeld and the 16-bit modulo control as measured, and the
# control's exact bias at the same number of decks. Called by
# scripts/fairness.sh with datafile, outfile and title set.
set terminal pngcairo size 1800,620 noenhanced
set output outfile
set multiplot layout 1,3 title title
set xlabel "final position (0 = top)"
set ylabel "card (its position before the shuffle)"
set cblabel "(count - expected) / sqrt(expected)"
set cbrange [-4:4]
set palette defined (-4 "#2166ac", 0 "white", 4 "#b2182b")
set xrange [-0.5:51.5]
set yrange [-0.5:51.5]
set size ratio 1
set title "fairdeal Durstenfeld (measured)"
plot datafile using 2:1:3 with image notitle
set title "16-bit modulo control (measured)"
plot datafile using 2:1:4 with image notitle
stats datafile using 5 nooutput
extent = (abs(STATS_min) > abs(STATS_max) ? abs(STATS_min) : STATS_max)
set cbrange [-extent:extent]
set title sprintf("16-bit modulo: exact bias as expected z (own scale, +-%.2f)", extent)
plot datafile using 2:1:5 with image notitle
unset multiplot
