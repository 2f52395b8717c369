// SPDX-License-Identifier: GPL-2.0
/* A summary row against a spec's point: see rowpoint.h. */
#include <stdio.h>

#include "pointkey.h"
#include "rowpoint.h"

static const char *wl_param_name(const struct point_key *k, int p)
{
	return ((const struct workload *)k->with)->params[p].name;
}

static const char *wl_param_value(const struct point_key *k, int p, char *buf, size_t len)
{
	const struct workload *wl = k->with;

	param_format(&wl->params[p], ((const struct point *)k->of)->wp.v[p], buf, len);
	return buf;
}

bool result_row_is_point(const struct result_set *set, const struct result_point *p,
			 const struct sweep_cfg *cfg, const struct point *pt, char *why,
			 size_t len)
{
	const struct workload *wl = cfg->wl;
	const char *title = experiment_title(cfg, &cfg->exps[pt->exp]);
	char **row = set->summary.rows[p->row], val[256];
	int col[WL_MAX_PARAMS], d;
	struct point_key there, now = {
		.experiment = title, .nr = wl->nr_params, .name = wl_param_name,
		.value = wl_param_value, .of = pt, .with = wl,
	};

	/* the header check has made the parameter columns wl's, in its order */
	for (int c = 0; c < wl->nr_params && c < WL_MAX_PARAMS; c++)
		col[c] = set->first_param + c;
	there = point_key_of_row(p->experiment, set->summary.rows[0], row, col, wl->nr_params);
	d = point_key_diff(&now, &there, -1);
	if (d == POINT_KEY_EXPERIMENT)
		snprintf(why, len, "experiment '%s' there, '%s' now", p->experiment, title);
	else if (d >= 0 && d < wl->nr_params)
		snprintf(why, len, "%s=%s there, %s=%s now", wl->params[d].name, row[col[d]],
			 wl->params[d].name, wl_param_value(&now, d, val, sizeof(val)));
	else if (d >= 0)
		snprintf(why, len, "other parameters there");
	return d == POINT_KEY_SAME;
}
