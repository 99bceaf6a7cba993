set terminal pngcairo noenhanced size 1100,1000 font 'sans,10'
set output 'apps/results/cpu/dense_out.png'
set datafile separator ','
set datafile missing 'nan'
set multiplot layout 2,1 title "dense_out: y[16T,768] = x[16T,768] · w[768,768]ᵀ"
set grid
set key outside right top
set logscale y
set xrange [0:129]
set title 'median time per T'
set ylabel 'time (ms, log scale)'
plot 'apps/results/cpu/dense_out.csv' using 1:2 with lines lc rgb '#7b3294' lw 1.5 title 'openblas', 'apps/results/cpu/dense_out.csv' using 1:3 with lines lc rgb '#008837' lw 1.5 title 'onednn', 'apps/results/cpu/dense_out.csv' using 1:4 with linespoints pt 7 ps 0.5 lc rgb '#56b4e9' lw 1.5 title 'adams2019_per_shape', 'apps/results/cpu/dense_out.csv' using 1:5 with linespoints pt 7 ps 0.5 lc rgb '#e69f00' lw 1.5 dt 2 title 'adams2019_max_shape', 'apps/results/cpu/dense_out.csv' using 1:6 with linespoints pt 7 ps 0.5 lc rgb '#b8a000' lw 1.5 title 'mullapudi2016_per_shape', 'apps/results/cpu/dense_out.csv' using 1:7 with linespoints pt 7 ps 0.5 lc rgb '#0072b2' lw 1.5 dt 2 title 'mullapudi2016_max_shape', 'apps/results/cpu/dense_out.csv' using 1:8 with lines lc rgb '#d7191c' lw 3 title 'diet_joint', 'apps/results/cpu/dense_out.csv' using 1:9 with lines lc rgb '#000000' lw 3 title 'diet_per_shape', 'apps/results/cpu/dense_out.csv' using 1:10 with lines lc rgb '#f781bf' lw 3 dt 2 title 'diet_max_shape'
set title "time / diet_joint time (above 1: diet_joint is faster)"
set xlabel 'T'
set ylabel 'ratio (log scale)'
plot 1 with lines lc 'black' lw 1 notitle, 'apps/results/cpu/dense_out.csv' using 1:(column(2)/column(8)) with lines lc rgb '#7b3294' lw 1.5 title 'openblas', 'apps/results/cpu/dense_out.csv' using 1:(column(3)/column(8)) with lines lc rgb '#008837' lw 1.5 title 'onednn', 'apps/results/cpu/dense_out.csv' using 1:(column(4)/column(8)) with linespoints pt 7 ps 0.5 lc rgb '#56b4e9' lw 1.5 title 'adams2019_per_shape', 'apps/results/cpu/dense_out.csv' using 1:(column(5)/column(8)) with linespoints pt 7 ps 0.5 lc rgb '#e69f00' lw 1.5 dt 2 title 'adams2019_max_shape', 'apps/results/cpu/dense_out.csv' using 1:(column(6)/column(8)) with linespoints pt 7 ps 0.5 lc rgb '#b8a000' lw 1.5 title 'mullapudi2016_per_shape', 'apps/results/cpu/dense_out.csv' using 1:(column(7)/column(8)) with linespoints pt 7 ps 0.5 lc rgb '#0072b2' lw 1.5 dt 2 title 'mullapudi2016_max_shape', 'apps/results/cpu/dense_out.csv' using 1:(column(9)/column(8)) with lines lc rgb '#000000' lw 3 title 'diet_per_shape', 'apps/results/cpu/dense_out.csv' using 1:(column(10)/column(8)) with lines lc rgb '#f781bf' lw 3 dt 2 title 'diet_max_shape'
unset multiplot
