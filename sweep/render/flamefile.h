/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A point's flame graph from its result directory: the folded stacks of
 * its repetitions summed (profiles_sum_point(): BPF programs by their
 * kallsyms names, "bpf_prog_<tag>_<name>", as perf shows them) and
 * drawn by flame.h, once at a run's end (flame_write_dir()), written as
 * profiles/<point>.svg and kept in memory to be shown inline on the page,
 * the same bytes both ways; a page of a directory read later draws its
 * graphs from the folded files, so one without .svg files gets them too
 * (docs/profile.md).
 */
#ifndef SWEEP_FLAMEFILE_H
#define SWEEP_FLAMEFILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * The flame graph of point `point` of the result directory dir on f, its
 * title naming the point, its samples and repetitions.  -ENOENT when the
 * point has no profile, -ENODATA when its profiles have no sample (why
 * says so; nothing written); -EINVAL with why when a file does not parse;
 * -ENOMEM, -EIO.
 */
int flame_of_point(FILE *f, const char *dir, long long point, char *why, size_t why_len);

/* A point's flame graph drawn once: its SVG, or why it has none. */
struct flame_graph {
	long long point;
	char *svg;		/* the whole <svg> element (flame_of_point()), or NULL */
	size_t len;
	int err;		/* flame_of_point()'s: 0, -ENODATA (no sample), -EINVAL... */
	char why[256];		/* with err, what flame_of_point() said, or "" */
};

/*
 * Point `point`'s graph of dir drawn into g, in memory (a graph that
 * fails half-way is no half <svg>): g->svg, or g->err and g->why as
 * flame_of_point() says (-ENOENT: no profile).  -ENOMEM, else 0.
 */
int flame_draw_point(const char *dir, long long point, struct flame_graph *g);

void flame_graph_free(struct flame_graph *g);

/* Every profiled point's graph of a result directory, ascending by point. */
struct flame_graphs {
	struct flame_graph *g;
	int nr;
};

/* Point's graph in fg, or NULL when it has no profile (flame_of_point()'s -ENOENT). */
const struct flame_graph *flame_graph_of(const struct flame_graphs *fg, long long point);

/*
 * profiles/<point>.svg for every point of dir with a profile of a sample
 * or more, each whole or not at all (one there replaced), each graph drawn
 * once: with keep, kept there in point order (flame_graphs_free()) for the
 * page of a run's end to show the same bytes (htmlexp.h), else freed once
 * written.  Nothing when dir has no profiles.  0 or the first -errno (a
 * graph that could not be drawn, a file not written: reported with the
 * file's name).
 */
int flame_write_dir(const char *dir, struct flame_graphs *keep);

void flame_graphs_free(struct flame_graphs *fg);

#endif
