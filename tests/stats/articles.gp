# Bar chart of one articles' table: count per order for each shuffle, the
# ideal count as a line. Called by scripts/fairness.sh with datafile,
# outfile and title set. Columns: order ideal durstenfeld sattolo inside-out
# naive naive-exact.
set terminal pngcairo size 1200,600 noenhanced
set output outfile
set title title
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -45
set ylabel "shuffles"
set key outside right
plot datafile using 3:xtic(1) title "durstenfeld", \
     '' using 5 title "inside-out", \
     '' using 6 title "naive (control)", \
     '' using 7 title "naive, exact law" with linespoints lw 2, \
     '' using 2 title "ideal" with lines lw 3 lc rgb "black"
