set terminal pngcairo noenhanced size 1100,700 font 'sans,10'
set output '/tmp/fk/forms_int.png'
set datafile separator ','
set key outside right top
set grid
set logscale y
set title 'forms_bench int: median time per T'
set xlabel 'T'
set ylabel 'seconds (log)'
plot '/tmp/fk/forms_int.csv' using 1:2 with lines lw 1.5 title 'int/f32', '/tmp/fk/forms_int.csv' using 1:3 with lines lw 1.5 title 'int/u8i8', '/tmp/fk/forms_int.csv' using 1:4 with lines lw 1.5 title 'int/i16'
