set terminal pngcairo noenhanced size 1100,700 font 'sans,10'
set output 'apps/results/cpu/forms_row_copy_2026-11-29/dense_inputs/forms_bmm.png'
set datafile separator ','
set key outside right top
set grid
set logscale y
set title 'forms_bench bmm: median time per T'
set xlabel 'T'
set ylabel 'seconds (log)'
plot 'apps/results/cpu/forms_row_copy_2026-11-29/dense_inputs/forms_bmm.csv' using 1:2 with lines lw 1.5 title 'bmm_nt/canonical', 'apps/results/cpu/forms_row_copy_2026-11-29/dense_inputs/forms_bmm.csv' using 1:3 with lines lw 1.5 title 'bmm_nt/lhs_transposed', 'apps/results/cpu/forms_row_copy_2026-11-29/dense_inputs/forms_bmm.csv' using 1:4 with lines lw 3 title 'openblas', 'apps/results/cpu/forms_row_copy_2026-11-29/dense_inputs/forms_bmm.csv' using 1:5 with lines lw 3 title 'onednn'
