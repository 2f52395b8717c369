# SPDX-License-Identifier: GPL-2.0
#
# bpfsweep chart template: one line per series, the mean and its 95 % CI
# over independent units as error bars (none where a point has fewer than 2).
#
# The template is plots/lines.gp in bpfsweep's tree (share/bpfsweep/plots/
# once installed); each result's plots/<chart>.gp is a copy of it with the
# placeholders (names between at signs) filled in:
#   TITLE    the title, and a second line with the machine, kernel and tags
#            of a one-run chart
#   XLABEL   the x parameter;  YLABEL  the metric and its unit
#   CAPTION  what the error bars are, the key's title
#   XSETUP   the x axis: log2 (from [report] logx, the values' span, a
#            doubling series) or linear, a range a little past the end
#            values, tics at the values or whole steps; on/off and enum
#            axes by position, named by the .dat
#   PLOT     the series of <chart>.dat, each in its colour with filled
#            markers, hollow ones on points with quality flags
#   OUTPUT   <chart>, the files' name unless out is set (gnuplot -e "out = 'NAME'");
#            SVGNAME  <chart> as an identifier
# TITLE, XLABEL, YLABEL and CAPTION are whole gnuplot strings in single
# quotes, inside which gnuplot substitutes no command and expands no macro
# and reads no escape: keep them outside "...".
# Restyle one chart: edit its copy, run "gnuplot <chart>.gp" in its plots/.
# Restyle every future chart: edit the template.

set title @TITLE@ noenhanced
set xlabel @XLABEL@ noenhanced
set ylabel @YLABEL@ noenhanced
# under the plot: a key outside right takes a third of the width
set key below center horizontal noenhanced height 1 title @CAPTION@
set grid
set yrange [0:*]
set style data yerrorlines
set pointsize 1
@XSETUP@

# the files: <chart>.png and .svg; bpfsweep sets out to a name of its own
# and renames them into place once they are whole
if (!exists('out')) out = '@OUTPUT@'
set terminal pngcairo size 1024,640 font "sans,13" noenhanced
set output out . ".png"
plot @PLOT@

set terminal svg size 1024,640 dynamic font "sans,13" noenhanced background "white" name "@SVGNAME@"
set output out . ".svg"
replot
unset output
