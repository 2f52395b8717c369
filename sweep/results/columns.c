// SPDX-License-Identifier: GPL-2.0
/*
 * summary.csv's column table (columns.h).  A row of col_defs is one
 * column, or one per parameter or metric: columns_of() lays them out in
 * the file's order, and the header, the rows and columns.csv all walk
 * what it returns.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "columns.h"
#include "csvfile.h"
#include "diag.h"
#include "metric.h"
#include "metricmeta.h"
#include "precision.h"
#include "profiles.h"
#include "progrun.h"
#include "spec.h"

/* Which part of the row a definition is in, in file order. */
enum col_group {
	CG_POINT,	/* once */
	CG_PARAM,	/* once per parameter */
	CG_RUN,		/* once */
	CG_STATS,	/* once per metric, and of ns_per_run (program counters) */
	CG_UNITS,	/* once per metric, after its CG_STATS */
	CG_WORKER,	/* once, for the per-thread metric, after its CG_UNITS */
	CG_BASELINE,	/* once per counter, with a [report] baseline */
	CG_DECIDE,	/* once, with decide: the point against its baseline (rounds.h) */
	CG_PROFILE,	/* once, with profile = on */
};

typedef const char *(*col_get)(const struct column *c, const struct col_src *s, char *buf,
			       size_t len);

struct col_def {
	const char *name;	/* a fixed column's name, or a metric's statistic */
	enum col_group group;
	col_get get;
	size_t off;		/* of the double it shows in struct summary or baseline_delta */
	int decimals;		/* of a baseline figure */
	const char *unit;	/* of a column that is no metric's: "%" */
	bool since_units;	/* absent from summary.csv before the units' columns */
	bool spread;		/* a spread or a count: no direction */
	bool inverse;		/* better the other way than its metric (ns over the baseline) */
};

static const char *cell_u64(uint64_t v, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static const char *cell_str(const char *s)
{
	return s ? s : "";
}

/* Rates keep three decimals: %g would round 14970123.4 to 1.49701e+07. */
static const char *cell_fixed(double v, int decimals, char *buf, size_t len)
{
	if (!isfinite(v))
		return "";
	snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

static bool ok(const struct col_src *s)
{
	return s->pr->status == PS_OK;
}

static const char *get_exp(const struct column *c, const struct col_src *s, char *buf,
			   size_t len)
{
	return cell_u64(s->pr->pt->exp, buf, len);
}

static const char *get_point(const struct column *c, const struct col_src *s, char *buf,
			     size_t len)
{
	return cell_u64(s->pr->pt->id, buf, len);
}

static const char *get_experiment(const struct column *c, const struct col_src *s, char *buf,
				  size_t len)
{
	return cell_str(experiment_title(s->cfg, &s->cfg->exps[s->pr->pt->exp]));
}

static const char *get_param(const struct column *c, const struct col_src *s, char *buf,
			     size_t len)
{
	param_format(&s->cfg->wl->params[c->idx], s->pr->pt->wp.v[c->idx], buf, len);
	return buf;
}

static const char *get_status(const struct column *c, const struct col_src *s, char *buf,
			      size_t len)
{
	return point_status_name(s->pr->status);
}

static const char *get_reason(const struct column *c, const struct col_src *s, char *buf,
			      size_t len)
{
	return s->pr->reason;
}

/* The run's counts, by name: nr_producers, nr_consumers, nr_cpus, n, tries. */
static const char *get_count(const struct column *c, const struct col_src *s, char *buf,
			     size_t len)
{
	const struct point_result *pr = s->pr;
	const char *n = c->def->name;

	if (!strcmp(n, "nr_producers"))
		return cell_u64(pr->nr_producers, buf, len);
	if (!strcmp(n, "nr_consumers"))
		return cell_u64(pr->nr_consumers, buf, len);
	if (!strcmp(n, "nr_cpus"))
		return cell_u64(pr->nr_cpus, buf, len);
	if (!strcmp(n, "n"))
		return cell_u64(point_measured_intervals(pr), buf, len);
	return cell_u64(pr->tries, buf, len);
}

/* Longer than a row's buffers may be (the cpus of 1024 threads): not copied. */
static const char *get_cpus(const struct column *c, const struct col_src *s, char *buf,
			    size_t len)
{
	return cell_str(s->pr->cpus);
}

/* A stalled point's flags say how many of its intervals counted nothing. */
static const char *get_quality(const struct column *c, const struct col_src *s, char *buf,
			       size_t len)
{
	if (!ok(s) && s->pr->status != PS_STALLED)
		return "";
	quality_format(&s->pr->quality, buf, len);
	return buf;
}

static const char *get_unit_kind(const struct column *c, const struct col_src *s, char *buf,
				 size_t len)
{
	return ok(s) ? unit_kind_name(point_unit_kind(s->pr)) : "";
}

static const char *get_stop(const struct column *c, const struct col_src *s, char *buf,
			    size_t len)
{
	return ok(s) ? s->pr->stop : "";
}

/* An arm's decision against its baseline: empty for the baseline itself. */
static bool decided(const struct col_src *s)
{
	return ok(s) && s->pr->has_decision;
}

/*
 * "different: +5.0 % [+4.9, +5.1]", or "inconclusive (bimodal): different:
 * ...", or "baseline" for the point arms ran in rounds with; "" for one that
 * ran on its own.
 */
static const char *get_decision(const struct column *c, const struct col_src *s, char *buf,
				size_t len)
{
	int n = 0;

	if (ok(s) && s->pr->set_baseline)
		return "baseline";
	if (!decided(s))
		return "";
	if (s->pr->decision_veto) {
		char names[128];

		quality_names(s->pr->decision_veto, names, sizeof(names));
		n = snprintf(buf, len, "inconclusive (%s): ", names);
	}
	if (n < (int)len)
		decide_text(&s->pr->decision, NULL, buf + n, len - n);
	return buf;
}

static const char *get_decision_end(const struct column *c, const struct col_src *s, char *buf,
				    size_t len)
{
	const struct decide_result *d = &s->pr->decision;

	if (!decided(s))
		return "";
	return cell_fixed(c->def->off ? d->hi_pct : d->lo_pct, 3, buf, len);
}

static const char *get_rounds(const struct column *c, const struct col_src *s, char *buf,
			      size_t len)
{
	return decided(s) ? cell_u64(s->pr->decision.n, buf, len) : "";
}

static const char *get_half_width(const struct column *c, const struct col_src *s, char *buf,
				  size_t len)
{
	return ok(s) ? cell_fixed(precision_half_width_pct(s->pr), 3, buf, len) : "";
}

static const char *summary_cell(const struct summary *sum, const struct column *c,
				const struct col_src *s, char *buf, size_t len)
{
	if (!ok(s))
		return "";
	return cell_fixed(*(const double *)((const char *)sum + c->def->off), 3, buf, len);
}

/* A metric's statistic (or ns_per_run's) of an ok point; empty otherwise. */
static const char *get_stat(const struct column *c, const struct col_src *s, char *buf,
			    size_t len)
{
	if (c->kind == CK_RATIO)
		return summary_cell(&s->pr->per_run, c, s, buf, len);
	return summary_cell(&s->pr->stat[c->idx], c, s, buf, len);
}

/* How many independent units (an empty cell when none) and their sd, of an ok point. */
static const char *get_units(const struct column *c, const struct col_src *s, char *buf,
			     size_t len)
{
	const struct units *u = &s->pr->unit[c->idx];

	if (!ok(s) || u->kind == UK_NONE)
		return "";
	if (!strcmp(c->def->name, "units"))
		return cell_u64(u->n, buf, len);
	return cell_fixed(u->sd, 3, buf, len);
}

static const char *get_worker(const struct column *c, const struct col_src *s, char *buf,
			      size_t len)
{
	return summary_cell(&s->pr->worker_rate, c, s, buf, len);
}

/* The profiler's counts of the point (profiles.h): empty where no repetition was profiled. */
static const char *get_profile(const struct column *c, const struct col_src *s, char *buf,
			       size_t len)
{
	uint64_t samples, lost;

	if (!profiles_sum(s->pr, &samples, &lost, buf, len))
		return "";
	if (!strcmp(c->def->name, "profile_samples"))
		return cell_u64(samples, buf, len);
	if (!strcmp(c->def->name, "profile_lost"))
		return cell_u64(lost, buf, len);
	return buf;
}

/*
 * Relative to the baseline point, which may run after this one: empty as
 * the row is appended, filled by column_baseline_cell() once the run's
 * whole set is known (results_fill_baseline()).
 */
static const char *get_baseline(const struct column *c, const struct col_src *s, char *buf,
				size_t len)
{
	return "";
}

#define STAT(n, g, fn) { .name = #n, .group = g, .get = fn, .off = offsetof(struct summary, n) }
#define BASE(n, field, dec, ...) { .name = n, .group = CG_BASELINE, .get = get_baseline, \
	.off = offsetof(struct baseline_delta, field), .decimals = dec, __VA_ARGS__ }

/*
 * The table.  Thread counts are nr_producers/nr_consumers because
 * "producers" is a parameter of several workloads, and a header must not
 * name a column twice.
 */
static const struct col_def col_defs[] = {
	/* exp first: a number, so `cut -d,` counts fields right despite quoted titles */
	{ .name = "exp", .group = CG_POINT, .get = get_exp },
	{ .name = "point", .group = CG_POINT, .get = get_point },
	{ .name = "experiment", .group = CG_POINT, .get = get_experiment },
	{ .group = CG_PARAM, .get = get_param },
	{ .name = "status", .group = CG_RUN, .get = get_status },
	{ .name = "reason", .group = CG_RUN, .get = get_reason },
	{ .name = "nr_producers", .group = CG_RUN, .get = get_count },
	{ .name = "nr_consumers", .group = CG_RUN, .get = get_count },
	{ .name = "nr_cpus", .group = CG_RUN, .get = get_count },
	{ .name = "cpus", .group = CG_RUN, .get = get_cpus },
	{ .name = "n", .group = CG_RUN, .get = get_count },
	{ .name = "tries", .group = CG_RUN, .get = get_count },
	{ .name = "quality", .group = CG_RUN, .get = get_quality },
	/* the point's units, why its repetitions stopped, its half-width (precision.h) */
	{ .name = "unit_kind", .group = CG_RUN, .get = get_unit_kind, .since_units = true },
	{ .name = "stop", .group = CG_RUN, .get = get_stop, .since_units = true },
	{ .name = "half_width_pct", .group = CG_RUN, .get = get_half_width, .unit = "%",
	  .since_units = true },
	STAT(mean, CG_STATS, get_stat),
	{ .name = "stddev", .group = CG_STATS, .get = get_stat,
	  .off = offsetof(struct summary, stddev), .spread = true },
	STAT(median, CG_STATS, get_stat),
	STAT(min, CG_STATS, get_stat),
	STAT(max, CG_STATS, get_stat),
	{ .name = "ci95", .group = CG_STATS, .get = get_stat,
	  .off = offsetof(struct summary, ci95), .spread = true },
	/* each metric's independent units (units.h): how many, and their sd (ci95 is theirs) */
	{ .name = "units", .group = CG_UNITS, .get = get_units, .since_units = true,
	  .spread = true },
	{ .name = "unit_sd", .group = CG_UNITS, .get = get_units, .since_units = true,
	  .spread = true },
	/* the per-thread metric's spread across producers (worker_rate) */
	{ .name = "worker_mean", .group = CG_WORKER, .get = get_worker,
	  .off = offsetof(struct summary, mean) },
	{ .name = "worker_min", .group = CG_WORKER, .get = get_worker,
	  .off = offsetof(struct summary, min) },
	{ .name = "worker_median", .group = CG_WORKER, .get = get_worker,
	  .off = offsetof(struct summary, median) },
	{ .name = "worker_max", .group = CG_WORKER, .get = get_worker,
	  .off = offsetof(struct summary, max) },
	BASE("over_base_ns_mean", over_ns, 3, .inverse = true),
	BASE("over_base_ns_sd", over_ns_sd, 3, .spread = true),
	BASE("vs_base_mean", ratio, 6),
	BASE("vs_base_sd", ratio_sd, 6, .spread = true),
	/* with decide: the rounds, and the point's ratio to its baseline decided (decide.h) */
	{ .name = "rounds", .group = CG_DECIDE, .get = get_rounds },
	{ .name = "decision", .group = CG_DECIDE, .get = get_decision },
	{ .name = "decision_lo_pct", .group = CG_DECIDE, .get = get_decision_end, .unit = "%" },
	{ .name = "decision_hi_pct", .group = CG_DECIDE, .get = get_decision_end, .unit = "%",
	  .off = 1 },
	/* the sampler's own counts: what the profile stands on, and what it missed */
	{ .name = "profile_samples", .group = CG_PROFILE, .get = get_profile, .spread = true },
	{ .name = "profile_lost", .group = CG_PROFILE, .get = get_profile, .spread = true },
	{ .name = "profile", .group = CG_PROFILE, .get = get_profile },
};

#define NR_COL_DEFS (sizeof(col_defs) / sizeof(col_defs[0]))

/* A growing list of columns. */
struct col_list {
	struct column *c;
	int nr, max;
	bool units;
};

static struct column *col_add(struct col_list *l, const struct col_def *d, int idx)
{
	struct column *c;

	if (l->nr == l->max) {
		int max = l->max ? 2 * l->max : 64;
		struct column *grown = realloc(l->c, max * sizeof(*grown));

		if (!grown)
			return NULL;
		l->c = grown;
		l->max = max;
	}
	c = &l->c[l->nr++];
	*c = (struct column){ .def = d, .idx = idx, .kind = CK_RUN, .unit = cell_str(d->unit) };
	snprintf(c->name, sizeof(c->name), "%s", d->name ? d->name : "");
	return c;
}

/* A metric's statistic: its name, kind, unit and direction. */
static void col_metric(struct column *c, const char *metric, enum col_kind k,
		       enum metric_better better)
{
	c->metric = metric;
	c->stat = c->def->name;
	c->kind = k;
	c->unit = col_unit(k, c->stat);
	c->has_better = !c->def->spread;
	c->better = better;
	if (c->def->inverse)
		c->better = better == MB_HIGHER ? MB_LOWER :
			    better == MB_LOWER ? MB_HIGHER : better;
	colname_stat(c->name, sizeof(c->name), metric, k, c->stat);
}

/* Every definition of group g, for index idx (a parameter's, a metric's, or -1), unnamed. */
static int add_defs(struct col_list *l, enum col_group g, int idx)
{
	for (size_t i = 0; i < NR_COL_DEFS; i++) {
		const struct col_def *d = &col_defs[i];
		struct column *c;

		if (d->group != g || (d->since_units && !l->units))
			continue;
		c = col_add(l, d, idx);
		if (!c)
			return -ENOMEM;
		if (g == CG_POINT)
			c->kind = CK_ID;
		if (g == CG_PARAM)
			c->kind = CK_PARAM;
	}
	return 0;
}

/* Parameter column c named name. */
static void col_param(struct column *c, const char *name)
{
	snprintf(c->name, sizeof(c->name), "%s", name);
}

/* Every definition of group g, for index idx, named after cfg's parameter or metric. */
static int add_group(struct col_list *l, const struct sweep_cfg *cfg, enum col_group g, int idx)
{
	/* CG_STATS without a metric: ns_per_run's */
	const struct metric_def *md = idx >= 0 && g != CG_PARAM ? &cfg->wl->metrics[idx] : NULL;
	int first = l->nr, err = add_defs(l, g, idx);

	for (int i = first; !err && i < l->nr; i++) {
		struct column *c = &l->c[i];

		if (g == CG_PARAM)
			col_param(c, cfg->wl->params[idx].name);
		else if (g == CG_STATS && idx < 0)
			col_metric(c, METRIC_NS_PER_RUN, CK_RATIO, MB_LOWER);
		else if (md)
			col_metric(c, md->name, md->kind == MK_GAUGE ? CK_GAUGE : CK_COUNTER,
				   md->better);
		/* a gauge that counts no bytes: a load figure's insns, states, us */
		if (md && md->kind == MK_GAUGE && !strcmp(c->unit, "bytes"))
			c->unit = metric_default_unit(md)->base;
	}
	return err;
}

static int add_metrics(struct col_list *l, const struct sweep_cfg *cfg)
{
	const struct workload *wl = cfg->wl;
	int tm = wl_thread_metric(wl), runs, ns, err = 0;

	for (int m = 0; !err && m < wl->nr_metrics; m++) {
		err = add_group(l, cfg, CG_STATS, m) ?: add_group(l, cfg, CG_UNITS, m);
		if (!err && m == tm)
			err = add_group(l, cfg, CG_WORKER, m);
	}
	if (!err && prog_metrics(wl, &runs, &ns))
		err = add_group(l, cfg, CG_STATS, -1);
	/* last, and only when the spec sets a baseline: every other run's file stays as it was */
	for (int m = 0; !err && cfg_has_baseline(cfg) && m < wl->nr_metrics; m++)
		if (wl->metrics[m].kind == MK_COUNTER)
			err = add_group(l, cfg, CG_BASELINE, m);
	/* and only with decide */
	if (!err && cfg->decide_pct > 0)
		err = add_group(l, cfg, CG_DECIDE, -1);
	/* and only with profile = on */
	if (!err && cfg->profile)
		err = add_group(l, cfg, CG_PROFILE, -1);
	return err;
}

int columns_of(const struct sweep_cfg *cfg, bool units, struct column **out, int *nr)
{
	struct col_list l = { .units = units };
	int err;

	err = add_group(&l, cfg, CG_POINT, -1);
	for (int p = 0; !err && p < cfg->wl->nr_params; p++)
		err = add_group(&l, cfg, CG_PARAM, p);
	err = err ?: add_group(&l, cfg, CG_RUN, -1);
	err = err ?: add_metrics(&l, cfg);
	if (err) {
		free(l.c);
		return err;
	}
	*out = l.c;
	*nr = l.nr;
	return 0;
}

/* Every definition of group g, for index idx, named after l's parameter or metric. */
static int add_published_group(struct col_list *cl, const struct published_layout *l,
			       enum col_group g, int idx)
{
	const struct published_metric *m = g == CG_STATS ? &l->metrics[idx] : NULL;
	int first = cl->nr, err = add_defs(cl, g, idx);

	for (int i = first; !err && i < cl->nr; i++) {
		struct column *c = &cl->c[i];

		if (g == CG_PARAM)
			col_param(c, l->params[idx]);
		if (!m)
			continue;
		col_metric(c, m->name, m->kind, m->better);
		/* a level's unit is in its names and is its cells' (a count's stays "") */
		if (m->unit) {
			colname_level(c->name, sizeof(c->name), m->name, m->unit, c->stat);
			c->unit = *c->unit ? m->unit : c->unit;
		}
	}
	return err;
}

int columns_of_published(const struct published_layout *l, struct column **out, int *nr)
{
	/* no units, stop nor half-width is known: a summary.csv's columns from before them */
	struct col_list cl = { .units = false };
	int err;

	err = add_defs(&cl, CG_POINT, -1);
	for (int p = 0; !err && p < l->nr_params; p++)
		err = add_published_group(&cl, l, CG_PARAM, p);
	err = err ?: add_defs(&cl, CG_RUN, -1);
	for (int m = 0; !err && m < l->nr_metrics; m++)
		err = add_published_group(&cl, l, CG_STATS, m);
	if (err) {
		free(cl.c);
		return err;
	}
	*out = cl.c;
	*nr = cl.nr;
	return 0;
}

/* A published row's statistic: the mean and stddev its text gave, in its metric's decimals. */
static const char *published_stat(const struct column *c, const struct col_src *s, char *buf,
				  size_t len)
{
	const struct published_metric *m = &s->layout->metrics[c->idx];

	if (c->def->off == offsetof(struct summary, mean))
		return cell_fixed(s->row->mean[c->idx], m->decimals, buf, len);
	if (c->def->off == offsetof(struct summary, stddev))
		return cell_fixed(s->row->stddev[c->idx], m->decimals, buf, len);
	return "";
}

/* Column c's cell of a published row: an ok point of which little is known. */
static const char *published_cell(const struct column *c, const struct col_src *s, char *buf,
				  size_t len)
{
	const struct published_row *r = s->row;

	switch (c->def->group) {
	case CG_POINT:
		if (!strcmp(c->def->name, "experiment"))
			return r->experiment;
		return cell_u64(!strcmp(c->def->name, "exp") ? r->exp : r->point, buf, len);
	case CG_PARAM:
		return r->params[c->idx];
	case CG_RUN:
		return !strcmp(c->def->name, "status") ? point_status_name(PS_OK) : "";
	case CG_STATS:
		return published_stat(c, s, buf, len);
	default:
		return "";
	}
}

const char *column_cell(const struct column *c, const struct col_src *s, char *buf, size_t len)
{
	return cell_str(s->row ? published_cell(c, s, buf, len) : c->def->get(c, s, buf, len));
}

bool column_is_baseline(const struct column *c)
{
	return c->def->group == CG_BASELINE;
}

/* Empty where a figure is not known.  A ratio keeps six decimals. */
const char *column_baseline_cell(const struct column *c, const struct view_row *r,
				 const struct view_row *base, char *buf, size_t len)
{
	struct baseline_delta d;

	baseline_of_exact(r, base, c->idx, &d);
	return cell_fixed(*(const double *)((const char *)&d + c->def->off), c->def->decimals,
			  buf, len);
}

int columns_write(FILE *f, const struct column *cols, int nr)
{
	int err = csv_write_row(f, colname_csv_header, COLNAME_CSV_COLS);

	for (int i = 0; !err && i < nr; i++) {
		const struct column *c = &cols[i];
		const char *row[COLNAME_CSV_COLS] = {
			c->name, cell_str(c->metric), cell_str(c->stat), col_kind_name(c->kind), c->unit,
			c->has_better ? metric_better_name(c->better) : "",
		};

		err = csv_write_row(f, row, COLNAME_CSV_COLS);
	}
	return err;
}

int point_measured_intervals(const struct point_result *pr)
{
	int n = 0;

	/* an ok point's statistics leave out intervals of no length, as result.c does */
	for (int i = 0; i < pr->nr_iv; i++)
		n += !pr->iv[i].warmup && (pr->status != PS_OK || pr->iv[i].elapsed_ns);
	return n;
}

/* Is name one of the fixed columns' (any group's: a later --set may turn decide on) or cols'? */
static bool column_named(const char *name, const struct column *cols, int nr)
{
	for (size_t i = 0; i < NR_COL_DEFS; i++)
		if (col_defs[i].name && col_defs[i].group != CG_STATS &&
		    col_defs[i].group != CG_UNITS && col_defs[i].group != CG_WORKER &&
		    col_defs[i].group != CG_BASELINE && !strcmp(col_defs[i].name, name))
			return true;
	for (int i = 0; i < nr; i++)
		if (cols[i].kind != CK_PARAM && !strcmp(cols[i].name, name))
			return true;
	return false;
}

/* Where parameter name is declared: its [param "NAME"] section, else the spec's start. */
static struct loc param_loc(const struct spec *spec, const char *name)
{
	for (int i = 0; i < spec->nr_sections; i++) {
		const struct spec_section *sec = &spec->sections[i];

		if (!strcmp(sec->name, "param") && sec->arg && !strcmp(sec->arg, name))
			return sec->loc;
	}
	return (struct loc){ .file = spec->path, .line = 1, .col = 1 };
}

int columns_check_params(const struct sweep_cfg *cfg, const struct spec *spec)
{
	struct column *cols;
	int nr, bad = 0;

	if (columns_of(cfg, true, &cols, &nr))
		return -ENOMEM;
	for (int p = 0; p < cfg->wl->nr_params; p++) {
		const char *name = cfg->wl->params[p].name;
		struct loc at;

		if (!column_named(name, cols, nr))
			continue;
		at = param_loc(spec, name);
		diag_at(&at, "parameter '%s' is named as a column of summary.csv: a reader would "
			"take one for the other (docs/results.md); rename it", name);
		bad++;
	}
	free(cols);
	return bad ? -EINVAL : 0;
}
