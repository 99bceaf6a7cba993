set terminal pngcairo noenhanced size 1100,700 font 'sans,10'
set output 'apps/results/cpu/forms_lifted_2026-12-07/forms_int.png'
set datafile separator ','
set key outside right top
set grid
set logscale y
set title 'forms_bench int: median time per T'
set xlabel 'T'
set ylabel 'seconds (log)'
plot 'apps/results/cpu/forms_lifted_2026-12-07/forms_int.csv' using 1:2 with lines lw 1.5 title 'int/f32', 'apps/results/cpu/forms_lifted_2026-12-07/forms_int.csv' using 1:3 with lines lw 1.5 title 'int/u8i8', 'apps/results/cpu/forms_lifted_2026-12-07/forms_int.csv' using 1:4 with lines lw 1.5 title 'int/i16', 'apps/results/cpu/forms_lifted_2026-12-07/forms_int.csv' using 1:5 with lines lw 1.5 title 'int/f32_nn', 'apps/results/cpu/forms_lifted_2026-12-07/forms_int.csv' using 1:6 with lines lw 1.5 title 'int/u8i8_nn', 'apps/results/cpu/forms_lifted_2026-12-07/forms_int.csv' using 1:7 with lines lw 1.5 title 'int/i16_nn'
