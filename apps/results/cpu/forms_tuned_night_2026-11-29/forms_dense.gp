set terminal pngcairo noenhanced size 1100,700 font 'sans,10'
set output '/tmp/tun/forms_dense.png'
set datafile separator ','
set key outside right top
set grid
set logscale y
set title 'forms_bench dense: median time per T'
set xlabel 'T'
set ylabel 'seconds (log)'
plot '/tmp/tun/forms_dense.csv' using 1:2 with lines lw 1.5 title 'dense/canonical', '/tmp/tun/forms_dense.csv' using 1:3 with lines lw 1.5 title 'dense/inline_sum', '/tmp/tun/forms_dense.csv' using 1:4 with lines lw 1.5 title 'dense/inline_sum@tuned', '/tmp/tun/forms_dense.csv' using 1:5 with lines lw 1.5 title 'dense/update_on_output', '/tmp/tun/forms_dense.csv' using 1:6 with lines lw 1.5 title 'dense/update_on_output@tuned', '/tmp/tun/forms_dense.csv' using 1:7 with lines lw 1.5 title 'layout/TN', '/tmp/tun/forms_dense.csv' using 1:8 with lines lw 1.5 title 'layout/TN@tuned', '/tmp/tun/forms_dense.csv' using 1:9 with lines lw 3 title 'openblas', '/tmp/tun/forms_dense.csv' using 1:10 with lines lw 3 title 'onednn'
