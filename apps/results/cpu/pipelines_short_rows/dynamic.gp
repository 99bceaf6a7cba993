set terminal pngcairo noenhanced size 1200,600 font 'sans,10'
set output 'apps/results/cpu/pipelines_short_rows/dynamic.png'
set datafile separator ','
set datafile missing 'nan'
set title 'pipelines (dynamic): time relative to the hand schedule (log scale; missing: failed)'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [0.05:*]
set grid ytics
set key outside right top
set xtics rotate by -45 scale 0
set ylabel 'time / hand time'
plot 'apps/results/cpu/pipelines_short_rows/dynamic_ratio.csv' using 2:xtic(1) title 'diet_default', 1 with lines lc 'black' notitle
