// SPDX-License-Identifier: GPL-2.0
/*
 * Axes → points: the cartesian product of each experiment's axes, first
 * axis outermost, last varying fastest (an odometer over value indexes);
 * a linked axis takes its target's value in each point.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

/* Points of one experiment, or -E2BIG past BIND_MAX_POINTS (no overflow on the way). */
static long long experiment_count(const struct experiment *e)
{
	long long n = 1;

	for (int a = 0; a < e->nr_axes; a++)
		if (__builtin_mul_overflow(n, e->axes[a].nr_vals, &n) || n > BIND_MAX_POINTS)
			return -E2BIG;
	return n;
}

long long matrix_count(const struct sweep_cfg *cfg)
{
	long long n = 0, e;

	for (int i = 0; i < cfg->nr_exps; i++) {
		e = experiment_count(&cfg->exps[i]);
		if (e < 0 || (n += e) > BIND_MAX_POINTS)
			return -E2BIG;
	}
	return n;
}

/* Advance the odometer; false once every combination has been produced. */
static bool odometer_next(const struct experiment *e, int *idx)
{
	for (int a = e->nr_axes - 1; a >= 0; a--) {
		if (++idx[a] < e->axes[a].nr_vals)
			return true;
		idx[a] = 0;
	}
	return false;
}

static void expand_experiment(const struct sweep_cfg *cfg, int exp, struct point *pts, int *nr)
{
	const struct experiment *e = &cfg->exps[exp];
	int idx[WL_MAX_PARAMS] = { 0 };

	do {
		struct point *pt = &pts[*nr];

		pt->id = *nr;
		pt->exp = exp;
		pt->wp.wl = cfg->wl;
		for (int a = 0; a < e->nr_axes; a++)
			pt->wp.v[e->axes[a].param] = e->axes[a].vals[idx[a]];
		/* linked axes copy their target once every target has its value */
		for (int a = 0; a < e->nr_axes; a++)
			if (e->axes[a].linked)
				pt->wp.v[e->axes[a].param] = pt->wp.v[e->axes[a].link];
		(*nr)++;
	} while (odometer_next(e, idx));
}

int matrix_expand(const struct sweep_cfg *cfg, struct point **out, int *nr)
{
	long long total = matrix_count(cfg);
	struct point *pts;

	*out = NULL;
	*nr = 0;
	if (total < 0)
		return total;
	pts = calloc(total ? total : 1, sizeof(*pts));
	if (!pts)
		return -ENOMEM;
	for (int i = 0; i < cfg->nr_exps; i++)
		if (experiment_count(&cfg->exps[i]) > 0)
			expand_experiment(cfg, i, pts, nr);
	*out = pts;
	return 0;
}

size_t point_varying(const struct sweep_cfg *cfg, const struct point *pt, const char *sep,
		     char *buf, size_t len)
{
	const struct experiment *e = &cfg->exps[pt->exp];
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (int a = 0; a < e->nr_axes && n < len; a++) {
		const struct param_def *p = &cfg->wl->params[e->axes[a].param];
		char val[128];

		if (e->axes[a].nr_vals < 2)
			continue;
		param_format(p, pt->wp.v[e->axes[a].param], val, sizeof(val));
		n += snprintf(buf + n, len - n, "%s%s=%s", n ? sep : "", p->name, val);
	}
	return n < len ? n : len;
}

void point_name(const struct sweep_cfg *cfg, const struct point *pt, char *buf, size_t len)
{
	size_t n = snprintf(buf, len, "%s{", cfg->wl->name);

	if (n < len)
		n += point_varying(cfg, pt, ",", buf + n, len - n);
	if (n < len)
		snprintf(buf + n, len - n, "}");
}

const char *experiment_title(const struct sweep_cfg *cfg, const struct experiment *e)
{
	if (e->title)
		return e->title;
	return cfg->title ? cfg->title : "";
}

bool point_in_only(const struct sweep_cfg *cfg, const struct point *pt, const char *only)
{
	return !only || !strcmp(experiment_title(cfg, &cfg->exps[pt->exp]), only);
}

const struct axis *experiment_axis(const struct experiment *e, int param)
{
	for (int a = 0; a < e->nr_axes; a++)
		if (e->axes[a].param == param)
			return &e->axes[a];
	return NULL;
}
