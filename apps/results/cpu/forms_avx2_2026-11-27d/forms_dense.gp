set terminal pngcairo noenhanced size 1100,700 font 'sans,10'
set output 'forms_dense.png'
set datafile separator ','
set key outside right top
set grid
set logscale y
set title 'forms_bench dense: median time per T'
set xlabel 'T'
set ylabel 'seconds (log)'
plot 'forms_dense.csv' using 1:2 with lines lw 1.5 title 'dense/canonical', 'forms_dense.csv' using 1:3 with lines lw 1.5 title 'dense/inline_sum', 'forms_dense.csv' using 1:4 with lines lw 1.5 title 'dense/update_on_output', 'forms_dense.csv' using 1:5 with lines lw 1.5 title 'dense/bias_init', 'forms_dense.csv' using 1:6 with lines lw 1.5 title 'dense/epilogue_chain', 'forms_dense.csv' using 1:7 with lines lw 1.5 title 'dense/bias_relu_chain', 'forms_dense.csv' using 1:8 with lines lw 1.5 title 'dense/split_reduction', 'forms_dense.csv' using 1:9 with lines lw 1.5 title 'dense/product_func', 'forms_dense.csv' using 1:10 with lines lw 1.5 title 'dense/transpose_func', 'forms_dense.csv' using 1:11 with lines lw 1.5 title 'dense/scaled_operand', 'forms_dense.csv' using 1:12 with lines lw 1.5 title 'dense/flat_1d', 'forms_dense.csv' using 1:13 with lines lw 1.5 title 'dense/symbolic_k', 'forms_dense.csv' using 1:14 with lines lw 1.5 title 'dense/sum_of_halves', 'forms_dense.csv' using 1:15 with lines lw 1.5 title 'dense/two_updates', 'forms_dense.csv' using 1:16 with lines lw 1.5 title 'layout/NN', 'forms_dense.csv' using 1:17 with lines lw 1.5 title 'layout/TN', 'forms_dense.csv' using 1:18 with lines lw 1.5 title 'layout/TT', 'forms_dense.csv' using 1:19 with lines lw 1.5 title 'dense/rows_innermost', 'forms_dense.csv' using 1:20 with lines lw 1.5 title 'dense/rows_innermost_update', 'forms_dense.csv' using 1:21 with lines lw 1.5 title 'dense/rows_innermost_epilogue', 'forms_dense.csv' using 1:22 with lines lw 3 title 'openblas', 'forms_dense.csv' using 1:23 with lines lw 3 title 'onednn'
