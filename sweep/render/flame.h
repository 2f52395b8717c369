/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flame graph of folded stacks as SVG, drawn here rather than by
 * flamegraph.pl (no interpreter): Brendan Gregg's layout, the root ("all")
 * at the bottom, each frame a rect as wide as its samples, its callees
 * above it sorted by name, so that the same stacks give the same bytes.
 * Frames under FLAME_MIN_PERMILLE of all samples are merged, per parent,
 * into one grey frame (dropped when that too is narrower).  Each frame has
 * a <title> (symbol, samples, share) for hover and a label cut to its
 * width; colours come from a hash of the name, in a hue per kind (kernel,
 * BPF program by its kallsyms name "bpf_prog_<tag>_<name>", [user] or
 * [kernel], task).  Every name goes through
 * html_put(): the file is XML and the same markup sits inline in an HTML
 * page.  No script, no style element, no id, nothing loaded.
 */
#ifndef SWEEP_FLAME_H
#define SWEEP_FLAME_H

#include <stdio.h>

#include "folded.h"

#define FLAME_WIDTH		1200	/* pixels, flamegraph.pl's default */
#define FLAME_MIN_PERMILLE	1	/* of all samples: narrower frames merged */

struct flame_opts {
	int width;		/* of the image in pixels; 0: FLAME_WIDTH */
	const char *title;	/* the line above the frames, or NULL */
};

/*
 * The flame graph of fd (its lines "root;...;leaf count", any order) as a
 * whole <svg> element on f.  0, -ENODATA (no samples: nothing written),
 * -ENOMEM or -EIO.
 */
int flame_svg(FILE *f, const struct folded *fd, const struct flame_opts *o);

#endif
