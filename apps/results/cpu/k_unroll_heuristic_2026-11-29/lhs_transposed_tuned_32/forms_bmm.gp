set terminal pngcairo noenhanced size 1100,700 font 'sans,10'
set output '/tmp/ltt/forms_bmm.png'
set datafile separator ','
set key outside right top
set grid
set logscale y
set title 'forms_bench bmm: median time per T'
set xlabel 'T'
set ylabel 'seconds (log)'
plot '/tmp/ltt/forms_bmm.csv' using 1:2 with lines lw 1.5 title 'bmm_nt/canonical', '/tmp/ltt/forms_bmm.csv' using 1:3 with lines lw 1.5 title 'bmm_nt/lhs_transposed', '/tmp/ltt/forms_bmm.csv' using 1:4 with lines lw 1.5 title 'bmm_nt/lhs_transposed@tuned', '/tmp/ltt/forms_bmm.csv' using 1:5 with lines lw 3 title 'openblas', '/tmp/ltt/forms_bmm.csv' using 1:6 with lines lw 3 title 'onednn'
