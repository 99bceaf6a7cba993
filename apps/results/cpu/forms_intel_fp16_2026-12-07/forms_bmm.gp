set terminal pngcairo noenhanced size 1100,700 font 'sans,10'
set output '/tmp/forms19/forms_bmm.png'
set datafile separator ','
set key outside right top
set grid
set logscale y
set title 'forms_bench bmm: median time per T'
set xlabel 'T'
set ylabel 'seconds (log)'
plot '/tmp/forms19/forms_bmm.csv' using 1:2 with lines lw 1.5 title 'bmm_nt/canonical', '/tmp/forms19/forms_bmm.csv' using 1:3 with lines lw 1.5 title 'bmm_nt/inline_sum', '/tmp/forms19/forms_bmm.csv' using 1:4 with lines lw 1.5 title 'bmm_nt/update_on_output', '/tmp/forms19/forms_bmm.csv' using 1:5 with lines lw 1.5 title 'bmm_nn/canonical', '/tmp/forms19/forms_bmm.csv' using 1:6 with lines lw 1.5 title 'bmm_nn/inline_sum', '/tmp/forms19/forms_bmm.csv' using 1:7 with lines lw 1.5 title 'bmm_nn/update_on_output', '/tmp/forms19/forms_bmm.csv' using 1:8 with lines lw 1.5 title 'bmm_nt/batch_innermost', '/tmp/forms19/forms_bmm.csv' using 1:9 with lines lw 1.5 title 'bmm_nn/batch_innermost', '/tmp/forms19/forms_bmm.csv' using 1:10 with lines lw 1.5 title 'bmm_nt/lhs_transposed', '/tmp/forms19/forms_bmm.csv' using 1:11 with lines lw 1.5 title 'bmm_nn/lhs_transposed', '/tmp/forms19/forms_bmm.csv' using 1:12 with lines lw 3 title 'openblas', '/tmp/forms19/forms_bmm.csv' using 1:13 with lines lw 3 title 'onednn', '/tmp/forms19/forms_bmm.csv' using 1:14 with lines lw 3 title 'openblas_nn', '/tmp/forms19/forms_bmm.csv' using 1:15 with lines lw 3 title 'onednn_nn', '/tmp/forms19/forms_bmm.csv' using 1:16 with lines lw 3 title 'openblas_own_layout', '/tmp/forms19/forms_bmm.csv' using 1:17 with lines lw 3 title 'onednn_own_layout', '/tmp/forms19/forms_bmm.csv' using 1:18 with lines lw 3 title 'openblas_nn_own_layout', '/tmp/forms19/forms_bmm.csv' using 1:19 with lines lw 3 title 'onednn_nn_own_layout'
