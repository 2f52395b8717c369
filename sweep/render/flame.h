/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flame graph of folded stacks as SVG, drawn here rather than by
 * flamegraph.pl (no interpreter): Brendan Gregg's layout, the root ("all")
 * at the bottom, each frame a rect as wide as its samples, its callees
 * above it sorted by name, so that the same stacks give the same bytes.
 * What is drawn is capped (flamelayout.h: depth, narrow frames merged
 * per caller into one grey frame, FLAME_MAX_FRAMES at most), and a line under the
 * title says what was not drawn.  Each frame has a <title> (symbol, its
 * first FLAME_MAX_NAME bytes, samples, share) for hover and a label cut
 * to its width; colours come from a hash of the name, in a hue per kind
 * (kernel, BPF program by its kallsyms name "bpf_prog_<tag>_<name>",
 * [user] or [kernel], task).  Every name goes through html_put(): the
 * file is XML and the same markup sits inline in an HTML page.  No
 * script, no style element, no id, nothing loaded.
 */
#ifndef SWEEP_FLAME_H
#define SWEEP_FLAME_H

#include <stdio.h>

#include "folded.h"

#define FLAME_WIDTH		1200	/* pixels, flamegraph.pl's default */
/* Of a name in a frame's title: kallsyms' longest is 512; a file's could be megabytes */
#define FLAME_MAX_NAME		256

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
