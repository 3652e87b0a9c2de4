# One articles' table as a chart: % deviation from the ideal count per
# order, bars for durstenfeld (the article's Fisher-Yates), inside-out and
# the naive control, the naive shuffle's exact law as black markers on the
# naive bars, and the +-2 sigma band of a fair count (shaded). Called by
# scripts/fairness.sh with datafile, outfile and title set. Columns: order,
# % deviation of durstenfeld, inside-out, naive; naive exact law; 2 sigma.
set terminal pngcairo size 1200,760 noenhanced
set output outfile
set title title
set xlabel "order after the shuffle, top card first\n(A, B, C, D = the cards that started 1st, 2nd, 3rd, 4th from the top)"
set ylabel "deviation from the ideal count (%)"
set key below maxcols 3
set grid ytics
set xzeroaxis lt -1
set style fill solid 0.8 border -1
set xtics rotate by -45
stats datafile using 6 nooutput
band = STATS_max
set object 1 rect from graph 0, first -band to graph 1, first band fc rgb "#bbbbbb" fs solid 0.6 noborder behind
plot datafile using ($0-0.27):2:(0.25) with boxes lc rgb "#1f77b4" title "durstenfeld (the article's Fisher-Yates)", \
     '' using 0:3:(0.25):xtic(1) with boxes lc rgb "#2ca02c" title "inside-out", \
     '' using ($0+0.27):4:(0.25) with boxes lc rgb "#d62728" title "naive (control)", \
     '' using ($0+0.27):5 with points pt 7 ps 1.4 lc rgb "black" title "naive: exact law (all n^n paths)", \
     NaN with boxes fs solid 0.6 lc rgb "#bbbbbb" title sprintf("+-2 sigma of a fair count (+-%.3f%%)", band)
