/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frames a flame graph draws (flame.h), laid out from folded stacks
 * without a tree and without recursion: the stacks sorted frame by frame
 * and walked once, as flamegraph.pl's flow() walks them, so that each
 * frame is followed by its callees' frames sorted by name (preorder) and
 * no depth of input reaches the C stack (a stack of 80,000 frames
 * overflowed it in a recursive prune).  What is drawn is capped, and what
 * is left out counted, for the graph to say:
 *   - a stack's frames past FLAME_MAX_DEPTH are cut (its samples still
 *     count in the frames kept);
 *   - frames under FLAME_MIN_PERMILLE of all samples are merged, per
 *     caller, into one frame, itself left out when narrower still (a gap);
 *   - past FLAME_MAX_FRAMES frames the share is raised until they fit:
 *     1.7 MB of stacks made a 24.5 MB page that took a browser 30 s.
 */
#ifndef SWEEP_FLAMELAYOUT_H
#define SWEEP_FLAMELAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "folded.h"
#include "stacksampler.h"

/* The task and the kernel's deepest stack: a profile of bpfsweep's own is never cut. */
#define FLAME_MAX_DEPTH		(STACK_MAX_DEPTH + 1)
#define FLAME_MIN_PERMILLE	1	/* of all samples: narrower frames merged */
/* About 600 KB of SVG with kernel symbols' names (150 bytes a frame, measured) */
#define FLAME_MAX_FRAMES	4000

struct flame_frame {
	const char *name;	/* in the folded lines' text (not copied) */
	size_t len;
	uint64_t count;
	int depth;		/* 0: the root, "all"; 1: the task */
	int merged;		/* > 0: this many narrow frames merged, no name */
};

struct flame_layout {
	struct flame_frame *fr;	/* preorder: a frame, then its callees' by name */
	int nr;
	int levels;		/* the deepest frame's depth + 1 */
	uint64_t total;		/* the root's samples */
	double min_pct;		/* narrower frames merged or left out, in % of total */
	bool capped;		/* min_pct raised over FLAME_MIN_PERMILLE for FLAME_MAX_FRAMES */
	long long left_out;	/* distinct frames not drawn as themselves (merged or gaps) */
	long long cut;		/* distinct stacks deeper than FLAME_MAX_DEPTH, cut there */
};

/*
 * fd's lines ("root;...;leaf count", any order, duplicates summed) laid
 * out under a root "all".  The frames' names point into fd's lines:
 * keep fd until flame_layout_free().  0, -ENODATA (no samples) or -ENOMEM.
 */
int flame_layout(const struct folded *fd, struct flame_layout *l);

void flame_layout_free(struct flame_layout *l);

#endif
