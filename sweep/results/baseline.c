// SPDX-License-Identifier: GPL-2.0
/* Figures relative to a baseline point: see baseline.h. */
#include <math.h>

#include "baseline.h"
#include "pointkey.h"

#define NS_PER_S	1e9

void baseline_delta(double r, double sd_r, double b, double sd_b, struct baseline_delta *d)
{
	double rel_r, rel_b, ns_r, ns_b;

	d->ratio = d->ratio_sd = d->over_ns = d->over_ns_sd = NAN;
	/* no time per event at a rate of zero; NaN compares false and stays out too */
	if (!(r > 0) || !(b > 0) || !isfinite(r) || !isfinite(b))
		return;
	d->ratio = r / b;
	d->over_ns = NS_PER_S / r - NS_PER_S / b;
	rel_r = sd_r / r;
	rel_b = sd_b / b;
	d->ratio_sd = d->ratio * hypot(rel_r, rel_b);
	/* d(1e9/x)/dx = -1e9/x²: each point's sd scaled, the two in quadrature */
	ns_r = NS_PER_S * sd_r / (r * r);
	ns_b = NS_PER_S * sd_b / (b * b);
	d->over_ns_sd = hypot(ns_r, ns_b);
	/* hypot() of an infinity is infinite even beside a NaN: keep unknown unknown */
	if (isnan(sd_r) || isnan(sd_b))
		d->ratio_sd = d->over_ns_sd = NAN;
}

bool baseline_pairs(const struct baseline_ref *ref, int nr_params, const long long *v,
		    const long long *bv)
{
	struct point_key a = point_key_of_values(v, nr_params);
	struct point_key b = point_key_of_values(bv, nr_params);

	return ref->on && bv[ref->param] == ref->val && point_same(&a, &b, ref->param);
}

/* Statistics r against b (NULL: unknown); self: b is r's own point. */
static void baseline_of_summary(const struct summary *r, const struct summary *b, bool self,
				struct baseline_delta *d)
{
	if (!b) {
		baseline_delta(NAN, NAN, NAN, NAN, d);
		return;
	}
	baseline_delta(r->mean, r->stddev, b->mean, b->stddev, d);
	/* the baseline against itself: one measurement, no difference to be unsure of */
	if (self && !isnan(d->ratio))
		d->ratio_sd = d->over_ns_sd = 0;
}

void baseline_of_row(const struct view_row *r, const struct view_row *base, int m,
		     struct baseline_delta *d)
{
	bool known = base && r->status == PS_OK;

	baseline_of_summary(&r->stat[m], known ? &base->stat[m] : NULL, base == r, d);
}

void baseline_of_exact(const struct view_row *r, const struct view_row *base, int m,
		       struct baseline_delta *d)
{
	bool known = base && r->status == PS_OK;

	baseline_of_summary(&r->exact.stat[m], known ? &base->exact.stat[m] : NULL, base == r, d);
}

const struct view_row *baseline_find_row(const struct result_view *v, const struct view_row *r,
					 const struct view_row *const *rows, int nr)
{
	const struct baseline_ref *ref = &v->exps[r->exp].baseline;

	if (!ref->on)
		return NULL;
	for (int i = 0; i < nr; i++)
		if (rows[i]->exp == r->exp &&
		    baseline_pairs(ref, v->schema.nr_params, r->v, rows[i]->v))
			return rows[i]->status == PS_OK ? rows[i] : NULL;
	return NULL;
}

bool cfg_has_baseline(const struct sweep_cfg *cfg)
{
	for (int x = 0; x < cfg->nr_exps; x++)
		if (cfg->exps[x].baseline.on)
			return true;
	return false;
}
