# SPDX-License-Identifier: GPL-2.0
#
# bpfsweep chart template: one line per series, mean with stddev error bars.
#
# The template is plots/lines.gp in bpfsweep's tree (share/bpfsweep/plots/
# once installed); each result's plots/<chart>.gp is a copy of it with the
# placeholders (names between at signs) filled in: TITLE, XLABEL, YLABEL
# (metric and unit), XSETUP (log2 scale for doubling sweeps, named tics for
# on/off and enum axes), PLOT (the series of <chart>.dat), OUTPUT (<chart>).
# Restyle one chart: edit its copy, run "gnuplot <chart>.gp" in its plots/.
# Restyle every future chart: edit the template.

set title "@TITLE@" noenhanced
set xlabel "@XLABEL@" noenhanced
set ylabel "@YLABEL@" noenhanced
set key outside right top noenhanced
set grid
set yrange [0:*]
set style data yerrorlines
set pointsize 0.8
@XSETUP@

set terminal pngcairo size 1024,640 noenhanced
set output "@OUTPUT@.png"
plot @PLOT@

set terminal svg size 1024,640 dynamic noenhanced
set output "@OUTPUT@.svg"
replot
unset output
