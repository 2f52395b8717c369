// SPDX-License-Identifier: GPL-2.0
/* A point's flame graph from its result directory: see flamefile.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "flame.h"
#include "flamefile.h"
#include "profiles.h"
#include "resultdir.h"

int flame_of_point(FILE *f, const char *dir, long long point, char *why, size_t why_len)
{
	struct flame_opts o = { .width = FLAME_WIDTH };
	struct folded sum;
	char title[160];
	int reps, err;

	err = profiles_sum_point(dir, point, &sum, &reps, why, why_len);
	if (err)
		return err;
	snprintf(title, sizeof(title), "point %lld: %" PRIu64 " samples of %d repetition%s", point,
		 sum.total, reps, reps == 1 ? "" : "s");
	o.title = title;
	err = flame_svg(f, &sum, &o);
	if (err == -ENODATA)
		snprintf(why, why_len, "no samples");
	folded_free(&sum);
	return err;
}

int flame_draw_point(const char *dir, long long point, struct flame_graph *g)
{
	FILE *m;

	*g = (struct flame_graph){ .point = point };
	m = open_memstream(&g->svg, &g->len);
	if (!m)
		g->err = -ENOMEM;
	else
		g->err = flame_of_point(m, dir, point, g->why, sizeof(g->why));
	if (m && fclose(m) && !g->err)
		g->err = -ENOMEM;
	if (g->err) {
		free(g->svg);
		g->svg = NULL;
		g->len = 0;
	}
	return g->err == -ENOMEM ? -ENOMEM : 0;
}

void flame_graph_free(struct flame_graph *g)
{
	free(g->svg);
	*g = (struct flame_graph){ 0 };
}

const struct flame_graph *flame_graph_of(const struct flame_graphs *fg, long long point)
{
	int lo = 0, hi = fg->nr;

	while (lo < hi) {	/* fg->g ascends by point, as profiles_points() lists them */
		int mid = lo + (hi - lo) / 2;

		if (fg->g[mid].point == point)
			return &fg->g[mid];
		if (fg->g[mid].point < point)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* g written as pdir/<point>.svg (none without a sample); 0 or -errno, reported. */
static int write_graph(const char *pdir, const struct flame_graph *g)
{
	char name[40];
	int err;

	if (g->err == -ENODATA)	/* no graph to draw: summary.csv's profile says why */
		return 0;
	snprintf(name, sizeof(name), PROFILES_FLAME_NAME, g->point);
	err = g->err ?: resultdir_put_file(pdir, name, g->svg, g->len, true);
	if (err)
		diag_err("cannot write %s/%s: %s", pdir, name, g->why[0] ? g->why : strerror(-err));
	return err;
}

int flame_write_dir(const char *dir, struct flame_graphs *keep)
{
	char pdir[4200];
	long long *points;
	int nr = profiles_points(dir, &points), err = nr < 0 ? nr : 0;

	snprintf(pdir, sizeof(pdir), "%s/" PROFILES_DIR, dir);
	if (nr < 0)
		diag_err("cannot read %s: %s", pdir, strerror(-err));
	if (keep)
		*keep = (struct flame_graphs){ 0 };
	if (keep && nr > 0 && !(keep->g = calloc(nr, sizeof(*keep->g)))) {
		diag_err("cannot draw the flame graphs of %s: %s", dir, strerror(ENOMEM));
		err = -ENOMEM;
	}
	for (int i = 0; !err && i < nr; i++) {
		struct flame_graph one, *g = keep ? &keep->g[keep->nr++] : &one;

		flame_draw_point(dir, points[i], g);	/* -ENOMEM: g->err, reported below */
		err = write_graph(pdir, g);
		if (!keep)
			flame_graph_free(g);
	}
	free(points);
	return err ?: nr > 0 ? resultdir_sync(pdir) : 0;
}

void flame_graphs_free(struct flame_graphs *fg)
{
	for (int i = 0; i < fg->nr; i++)
		flame_graph_free(&fg->g[i]);
	free(fg->g);
	*fg = (struct flame_graphs){ 0 };
}
