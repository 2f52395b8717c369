/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hand-made experiments, points and results of the null workload, for the
 * tests of the cover-letter table (test_table.c, test_tablenotes.c).
 */
#ifndef TESTS_TABLE_FIXTURE_H
#define TESTS_TABLE_FIXTURE_H

#include <stdio.h>

#include "table_text.h"

extern const struct workload null_workload;

enum { P_PRODUCERS, P_RATE, P_DROP_PCT, P_VALUE_SIZE, P_MODE, P_FLAG, P_FAIL, NR_P };

static long long one_val[NR_P][1] = { { 1 }, { 1000000 }, { 0 }, { 64 }, { 0 }, { 0 }, { 0 } };

/* An experiment over every null parameter, one value each unless vals is given. */
static inline void make_exp(struct experiment *e, const char *title, const char *label)
{
	*e = (struct experiment){ .title = (char *)title, .label = (char *)label, .group = -1 };
	for (int p = 0; p < NR_P; p++)
		e->axes[e->nr_axes++] = (struct axis){ .param = p, .vals = one_val[p], .nr_vals = 1 };
}

static inline void set_axis(struct experiment *e, int p, long long *vals, int nr)
{
	e->axes[p].vals = vals;
	e->axes[p].nr_vals = nr;
}

static inline void make_point(struct point *pt, int id, int exp, int nr_prod, int flag)
{
	*pt = (struct point){ .id = id, .exp = exp, .wp.wl = &null_workload };
	for (int p = 0; p < NR_P; p++)
		pt->wp.v[p] = one_val[p][0];
	pt->wp.v[P_PRODUCERS] = nr_prod;
	pt->wp.v[P_FLAG] = flag;
}

static inline void make_ok(struct point_result *r, const struct point *pt, double mean, double sd)
{
	*r = (struct point_result){ .pt = pt, .status = PS_OK };
	r->stat[0] = (struct summary){ .mean = mean, .stddev = sd, .n = 10 };
	r->stat[1] = (struct summary){ .mean = mean / 100, .stddev = sd / 100, .n = 10 };
}

static inline void make_bad(struct point_result *r, const struct point *pt, enum point_status st,
		     const char *reason)
{
	*r = (struct point_result){ .pt = pt, .status = st };
	snprintf(r->reason, sizeof(r->reason), "%s", reason);
}

/* table_render into a string, with facts; NULL on error (caller frees). */
static inline char *render(const struct sweep_cfg *cfg, const struct point_result *res, int nr)
{
	return table_text(cfg, NULL, res, nr);
}

#endif
