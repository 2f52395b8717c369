// SPDX-License-Identifier: GPL-2.0
/*
 * The plan: expand, validate, probe.  What a workload rejects is reported
 * at the value in the spec that is at fault, once per distinct (location,
 * reason) with one point it occurs in; what the kernel cannot run is known,
 * grouped by reason, before the first point starts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "diag.h"
#include "plan.h"
#include "precision.h"
#include "satmath.h"
#include "statspass.h"
#include "timing.h"

struct invalid {
	struct loc loc;
	int defaulted;		/* the parameter at fault, when at its default; else -1 */
	char why[256];
	int first;		/* the first point it occurs in */
	int nr;			/* points it occurs in */
};

/* Distinct (location, reason) pairs; diag.c bounds how many are shown. */
struct invalids {
	struct invalid *list;
	int nr;
};

/*
 * The value text of param in e, or the experiment for a parameter at its
 * default (then *defaulted = param).
 */
static struct loc value_loc(const struct experiment *e, int param, int *defaulted)
{
	const struct axis *ax = param >= 0 && param < WL_MAX_PARAMS ? experiment_axis(e, param)
								    : NULL;

	*defaulted = ax && !ax->loc.file ? param : -1;
	return ax && ax->loc.file ? ax->loc : e->loc;
}

static bool same_loc(const struct loc *a, const struct loc *b)
{
	return a->line == b->line && a->col == b->col && a->file && b->file &&
	       !strcmp(a->file, b->file);
}

static int note_invalid(struct invalids *inv, const struct loc *at, int defaulted,
			const char *why, int pt)
{
	struct invalid *x;

	for (int i = 0; i < inv->nr; i++) {
		x = &inv->list[i];
		if (same_loc(&x->loc, at) && !strcmp(x->why, why)) {
			x->nr++;
			return 0;
		}
	}
	x = realloc(inv->list, (inv->nr + 1) * sizeof(*x));
	if (!x)
		return -ENOMEM;
	inv->list = x;
	x = &inv->list[inv->nr++];
	x->loc = *at;
	x->defaulted = defaulted;
	snprintf(x->why, sizeof(x->why), "%s", why);
	x->first = pt;
	x->nr = 1;
	return 0;
}

/* " (producers = 1, its default)": what the section it points at does not show */
static void describe_default(const struct sweep_cfg *cfg, const struct invalid *x,
			     const struct point *pt, char *buf, size_t len)
{
	const struct param_def *p;
	char val[128];

	buf[0] = '\0';
	if (x->defaulted < 0)
		return;
	p = &cfg->wl->params[x->defaulted];
	param_format(p, pt->wp.v[x->defaulted], val, sizeof(val));
	snprintf(buf, len, " (%s = %s, its default)", p->name, val);
}

/* "back2back needs producers = 1 (in ringbuf{producers=2} and 3 other points)" */
static void report_invalid(const struct sweep_cfg *cfg, const struct plan *pl,
			   const struct invalid *x)
{
	const struct point *pt = &pl->pts[x->first];
	char name[256], others[48] = "", dflt[192];

	describe_default(cfg, x, pt, dflt, sizeof(dflt));
	point_name(cfg, pt, name, sizeof(name));
	/* nothing varies: the location says which point, or the count which points */
	if (strlen(name) == strlen(cfg->wl->name) + 2) {
		if (x->nr > 1)
			snprintf(others, sizeof(others), " (in %d points)", x->nr);
		diag_at(&x->loc, "%s%s%s", x->why, dflt, others);
		return;
	}
	if (x->nr > 1)
		snprintf(others, sizeof(others), " and %d other point%s", x->nr - 1,
			 x->nr == 2 ? "" : "s");
	diag_at(&x->loc, "%s%s (in %s%s)", x->why, dflt, name, others);
}

static int validate_points(const struct sweep_cfg *cfg, const struct plan *pl)
{
	const struct workload *wl = cfg->wl;
	struct invalids inv = { 0 };
	int err = 0;

	if (!wl->validate)
		return 0;
	for (int i = 0; i < pl->nr_pts && !err; i++) {
		const struct point *pt = &pl->pts[i];
		char why[256] = "";
		int param = -1, defaulted;
		struct loc at;

		if (!wl->validate(&pt->wp, &param, why, sizeof(why)))
			continue;
		if (!why[0])
			snprintf(why, sizeof(why), "invalid combination");
		at = value_loc(&cfg->exps[pt->exp], param, &defaulted);
		err = note_invalid(&inv, &at, defaulted, why, i);
	}
	if (err)
		diag_err("cannot validate %s: %s", cfg->spec_path, strerror(-err));
	for (int i = 0; !err && i < inv.nr; i++)
		report_invalid(cfg, pl, &inv.list[i]);
	free(inv.list);
	return err ?: inv.nr ? -EINVAL : 0;
}

int plan_build(const struct sweep_cfg *cfg, struct plan *pl)
{
	int err;

	memset(pl, 0, sizeof(*pl));
	err = matrix_expand(cfg, &pl->pts, &pl->nr_pts);
	if (err) {
		diag_err("cannot expand %s: %s", cfg->spec_path, strerror(-err));
		return err;
	}
	pl->nr_runnable = pl->nr_pts;
	return validate_points(cfg, pl);
}

#define PREFLIGHT_REASONS	8

int plan_preflight(const struct sweep_cfg *cfg, const struct plan *pl, const char *only)
{
	char reasons[PREFLIGHT_REASONS][256];
	int counts[PREFLIGHT_REASONS] = { 0 }, nr = 0, bad = 0;

	for (int i = 0; cfg->wl->preflight && i < pl->nr_pts; i++) {
		char why[256] = "";
		int k;

		if (!point_in_only(cfg, &pl->pts[i], only) ||
		    !cfg->wl->preflight(&pl->pts[i].wp, why, sizeof(why)))
			continue;
		bad++;
		for (k = 0; k < nr && strcmp(reasons[k], why); k++)
			;
		if (k == nr && nr < PREFLIGHT_REASONS)
			snprintf(reasons[nr++], sizeof(reasons[0]), "%s", why);
		if (k < nr)
			counts[k]++;
	}
	for (int k = 0; k < nr; k++)
		diag_err("%s (%d point%s need%s it)", reasons[k], counts[k],
			 counts[k] == 1 ? "" : "s", counts[k] == 1 ? "s" : "");
	return bad ? -EINVAL : 0;
}

/* The index of why in pl->reasons, added if new; -ENOMEM. */
static int intern_reason(struct plan *pl, const char *why)
{
	char **grown, *copy;

	/* runs of points share a reason: try the last one first */
	for (int i = pl->nr_reasons - 1; i >= 0; i--)
		if (!strcmp(pl->reasons[i], why))
			return i;
	copy = strdup(why);
	grown = realloc(pl->reasons, (pl->nr_reasons + 1) * sizeof(*grown));
	if (!copy || !grown) {
		free(copy);
		if (grown)
			pl->reasons = grown;
		return -ENOMEM;
	}
	pl->reasons = grown;
	pl->reasons[pl->nr_reasons] = copy;
	return pl->nr_reasons++;
}

static int probe_point(const struct workload *wl, struct plan *pl, int i)
{
	struct plan_verdict *v = &pl->verdicts[i];
	char why[256] = "";

	v->reason = -1;
	v->err = wl->probe(&pl->pts[i].wp, why, sizeof(why));
	if (!v->err) {
		pl->nr_runnable++;
		return 0;
	}
	if (!why[0])
		snprintf(why, sizeof(why), "probe: %s", strerror(-v->err));
	v->reason = intern_reason(pl, why);
	return v->reason < 0 ? v->reason : 0;
}

/* Can the probes run?  Without the privileges they would answer EPERM for every point. */
static bool may_probe(const struct workload *wl, struct plan *pl)
{
	char missing[128];
	int n = caps_missing(wl, missing, sizeof(missing));

	/* an unreadable set proves nothing: let the probes tell */
	if (n <= 0)
		return true;
	snprintf(pl->unprobed, sizeof(pl->unprobed), "%s needs %s, and this process lacks %s",
		 wl->name, caps_bpf_rule, missing);
	return false;
}

int plan_probe(const struct sweep_cfg *cfg, struct plan *pl)
{
	int err = 0;

	if (!may_probe(cfg->wl, pl))
		return 0;
	pl->verdicts = calloc(pl->nr_pts ? pl->nr_pts : 1, sizeof(*pl->verdicts));
	if (!pl->verdicts) {
		diag_err("cannot probe the kernel: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	pl->nr_runnable = 0;
	for (int i = 0; i < pl->nr_pts && !err; i++)
		err = probe_point(cfg->wl, pl, i);
	pl->probed = !err;
	if (err)
		diag_err("cannot probe the kernel: %s", strerror(-err));
	return err;
}

int plan_verdict(const struct plan *pl, int id, char *why, size_t len)
{
	const struct plan_verdict *v;

	if (!pl->probed || id < 0 || id >= pl->nr_pts)
		return 0;
	v = &pl->verdicts[id];
	if (v->err && v->reason >= 0)
		snprintf(why, len, "%s", pl->reasons[v->reason]);
	return v->err;
}

int plan_runnable(const struct plan *pl, const struct point *pts, int nr)
{
	char why[8];
	int n = 0;

	for (int i = 0; i < nr; i++)
		n += !plan_verdict(pl, pts[i].id, why, sizeof(why));
	return n;
}

void plan_report(FILE *f, const struct plan *pl, const struct point *pts, int nr)
{
	if (!pl->probed) {
		if (pl->unprobed[0])
			fprintf(f, "probes skipped: %s\n", pl->unprobed);
		return;
	}
	for (int r = 0; r < pl->nr_reasons; r++) {
		int n = 0, err = 0;

		for (int i = 0; i < nr; i++) {
			const struct plan_verdict *v = &pl->verdicts[pts[i].id];

			if (v->reason != r)
				continue;
			err = err ? err : v->err;
			n++;
		}
		if (n)
			fprintf(f, "%d of %d point%s %s: %s\n", n, nr, nr == 1 ? "" : "s",
				wl_err_is_unsupported(err) ? "unsupported" : "will fail",
				pl->reasons[r]);
	}
}

/* Each repetition's warmup, duration and a guess at its setup (timing.h); retries not counted. */
uint64_t plan_point_min_ns(const struct sweep_cfg *cfg)
{
	return sat_add_u64(sat_mul_u64(timing_rep_ns(cfg), precision_min_reps(cfg)),
			   stats_pass_ns(cfg));
}

uint64_t plan_estimate_ns(const struct sweep_cfg *cfg, const struct plan *pl)
{
	uint64_t rep = timing_rep_ns(cfg), point = sat_mul_u64(rep, precision_max_reps(cfg));
	uint64_t least = sat_mul_u64(rep, precision_min_reps(cfg));

	/* max_time stops a point before the repetition that would pass it */
	if ((cfg->precision_pct > 0 || cfg->decide_pct > 0) && cfg->max_time_ns &&
	    cfg->max_time_ns < point)
		point = cfg->max_time_ns > least ? cfg->max_time_ns : least;
	/* each point's ns_per_run pass too (statspass.h) */
	return sat_mul_u64(sat_add_u64(point, stats_pass_ns(cfg)), pl->nr_runnable);
}

uint64_t plan_estimate_min_ns(const struct sweep_cfg *cfg, const struct plan *pl)
{
	return sat_mul_u64(plan_point_min_ns(cfg), pl->nr_runnable);
}

void plan_free(struct plan *pl)
{
	for (int i = 0; i < pl->nr_reasons; i++)
		free(pl->reasons[i]);
	free(pl->reasons);
	free(pl->verdicts);
	free(pl->pts);
	memset(pl, 0, sizeof(*pl));
}
