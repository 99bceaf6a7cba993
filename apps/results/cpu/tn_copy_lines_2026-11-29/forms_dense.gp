set terminal pngcairo noenhanced size 1100,700 font 'sans,10'
set output '/tmp/tnb/forms_dense.png'
set datafile separator ','
set key outside right top
set grid
set logscale y
set title 'forms_bench dense: median time per T'
set xlabel 'T'
set ylabel 'seconds (log)'
plot '/tmp/tnb/forms_dense.csv' using 1:2 with lines lw 1.5 title 'dense/canonical', '/tmp/tnb/forms_dense.csv' using 1:3 with lines lw 1.5 title 'layout/NN', '/tmp/tnb/forms_dense.csv' using 1:4 with lines lw 1.5 title 'layout/TN', '/tmp/tnb/forms_dense.csv' using 1:5 with lines lw 1.5 title 'layout/TT', '/tmp/tnb/forms_dense.csv' using 1:6 with lines lw 3 title 'openblas', '/tmp/tnb/forms_dense.csv' using 1:7 with lines lw 3 title 'onednn'
