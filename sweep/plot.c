// SPDX-License-Identifier: GPL-2.0
/*
 * Charts.  For each "plot = X vs Y by Z" of each experiment: a gnuplot data
 * file (one block per series), a script made from a template in plots/
 * (kept, so a user can restyle and rerun it), then gnuplot itself, run
 * without a shell (gnuplot.c), to make the .png and .svg.  Everything is written before
 * gnuplot runs, so a machine without gnuplot still gets the .gp and .dat.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "gnuplot.h"
#include "metric.h"
#include "plot.h"
#include "plotaxis.h"
#include "scaling.h"
#include "table.h"
#include "textfile.h"

#define PLOT_TEMPLATE	"lines.gp"
#define SLUG_LEN	GNUPLOT_SLUG_LEN
#define SERIES_LEN	256
#define TITLE_LEN	GNUPLOT_TITLE_LEN

/* One ok point of a chart: which series it belongs to, and where on x. */
struct entry {
	const struct point_result *r;
	int series;
	double x;
	int pos;		/* point order, keeps the sort stable */
};

struct chart {
	const struct sweep_cfg *cfg;
	const struct run_facts *facts;	/* may be NULL */
	const struct experiment *e;
	const struct plot_req *req;
	const struct point_result *results;
	const struct plot_opts *po;
	int per;		/* po->per's parameter index, or -1 */
	char slug[SLUG_LEN];
	bool names;		/* x is on/off or an enum: plotted by position, named tics */
	struct entry *ent;
	int nr_ent;
	char (*series)[SERIES_LEN];
	int nr_series;
	/* series with no ok point: named in the key with why, e.g. unsupported */
	struct absent {
		char name[SERIES_LEN];
		enum point_status status;
	} *absent;
	int nr_absent;
	unsigned flags;		/* the quality flags of the points drawn (hollow markers) */
	int nr_stalled;		/* stalled points of the experiment: left out, not drawn as 0 */
};

/* What y shows: a metric, or ns_per_run (the kernel's ns per program run, progrun.h). */
static const char *y_name(const struct chart *c)
{
	return c->req->per_run ? "ns_per_run" : c->cfg->wl->metrics[c->req->y].name;
}

static const struct summary *y_summary(const struct chart *c, const struct point_result *r)
{
	return c->req->per_run ? &r->per_run : &r->stat[c->req->y];
}

static const struct metric_unit *y_unit(const struct chart *c)
{
	return c->req->per_run ? metric_per_run_unit() :
				 metric_default_unit(&c->cfg->wl->metrics[c->req->y]);
}

/* Lowercase ASCII letters and digits; every other run of bytes becomes one '-'. */
static void slugify(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	for (; *src && n < len - 1; src++) {
		char c = *src;

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			dst[n++] = c;
		else if (n && dst[n - 1] != '-')
			dst[n++] = '-';
	}
	while (n && dst[n - 1] == '-')
		n--;
	dst[n] = '\0';
}

/*
 * "<experiment number>-<y>-vs-<x>[-by-<z>]": short, the same in every run
 * of a spec, and unique but for two identical plot lines (then "-2").
 */
static void chart_slug(struct chart *c, char (*taken)[SLUG_LEN], int nr_taken)
{
	const struct workload *wl = c->cfg->wl;
	char raw[512], base[SLUG_LEN - 12];	/* room for "-<dup>" */
	int n, dup = 1;

	n = snprintf(raw, sizeof(raw), "%d %s vs %s", (int)(c->e - c->cfg->exps) + 1,
		     y_name(c), wl->params[c->req->x].name);
	if (c->req->by >= 0 && n < (int)sizeof(raw))
		n += snprintf(raw + n, sizeof(raw) - n, " by %s", wl->params[c->req->by].name);
	if (c->per >= 0 && n < (int)sizeof(raw))
		n += snprintf(raw + n, sizeof(raw) - n, " per %s", wl->params[c->per].name);
	if (c->po->relative && n < (int)sizeof(raw))
		snprintf(raw + n, sizeof(raw) - n, " relative");
	slugify(base, sizeof(base), raw);
	snprintf(c->slug, sizeof(c->slug), "%s", base);
	for (int i = 0; i < nr_taken; i++) {
		if (strcmp(taken[i], c->slug))
			continue;
		snprintf(c->slug, sizeof(c->slug), "%s-%d", base, ++dup);
		i = -1;		/* the new name may be taken too */
	}
}

/* Numbers plot as themselves; on/off and enum values by their place on the axis. */
static double x_of(const struct chart *c, const struct point *pt)
{
	const struct axis *ax = experiment_axis(c->e, c->req->x);
	long long v = pt->wp.v[c->req->x];

	for (int i = 0; c->names && ax && i < ax->nr_vals; i++)
		if (ax->vals[i] == v)
			return i;
	return v;
}

/* " name=value" at buf[n], without the space at the start; returns the new n. */
static size_t put_param(const struct chart *c, const struct point *pt, int p,
			char *buf, size_t n, size_t len)
{
	char val[128];

	if (n >= len)
		return n;
	param_format(&c->cfg->wl->params[p], pt->wp.v[p], val, sizeof(val));
	return n + snprintf(buf + n, len - n, "%s%s=%s", n ? " " : "",
			    c->cfg->wl->params[p].name, val);
}

/*
 * A series is the by-parameter's value plus every other parameter that
 * varies besides x: each combination gets its own line, named after it.
 * Charts of several runs put the run's label first: a line per run.
 */
static void series_name(const struct chart *c, const struct point_result *r, char *buf,
			size_t len)
{
	const struct experiment *e = c->e;
	const struct point *pt = r->pt;
	size_t n = 0;

	buf[0] = '\0';
	if (c->po->run_label)
		n = snprintf(buf, len, "%s", c->po->run_label[r - c->results]);
	if (c->req->by >= 0)
		n = put_param(c, pt, c->req->by, buf, n, len);
	for (int a = 0; a < e->nr_axes; a++) {
		int p = e->axes[a].param;

		if (e->axes[a].nr_vals > 1 && p != c->req->x && p != c->req->by)
			n = put_param(c, pt, p, buf, n, len);
	}
	if (!buf[0])
		snprintf(buf, len, "%s", y_name(c));
}

static int series_index(struct chart *c, const char *name)
{
	for (int i = 0; i < c->nr_series; i++)
		if (!strcmp(c->series[i], name))
			return i;
	snprintf(c->series[c->nr_series], SERIES_LEN, "%s", name);
	return c->nr_series++;
}

/* By series in order of first appearance, then by x: what gnuplot draws. */
static bool entry_before(const struct entry *a, const struct entry *b)
{
	if (a->series != b->series)
		return a->series < b->series;
	if (a->x != b->x)
		return a->x < b->x;
	return a->pos < b->pos;
}

static void sort_entries(struct entry *ent, int nr)
{
	for (int i = 1; i < nr; i++) {
		struct entry cur = ent[i];
		int j = i;

		for (; j > 0 && entry_before(&cur, &ent[j - 1]); j--)
			ent[j] = ent[j - 1];
		ent[j] = cur;
	}
}

static bool has_series(const struct chart *c, const char *name)
{
	for (int i = 0; i < c->nr_series; i++)
		if (!strcmp(c->series[i], name))
			return true;
	for (int i = 0; i < c->nr_absent; i++)
		if (!strcmp(c->absent[i].name, name))
			return true;
	return false;
}

/*
 * A series whose every point was unsupported (or failed) still gets a line
 * in the key, so that a chart of overwrite off/on on a kernel without
 * overwrite mode says why "on" is missing.
 */
static void note_absent(struct chart *c, const struct point_result *r)
{
	struct absent *a = &c->absent[c->nr_absent];

	series_name(c, r, a->name, sizeof(a->name));
	if (has_series(c, a->name))
		return;
	a->status = r->status;
	c->nr_absent++;
}

/*
 * The ok points of the experiment; the others have no value to draw, nor
 * has an ok point whose gauge could not be read (no memory controller).
 */
static int chart_build(struct chart *c, const struct point_result *results, int nr)
{
	enum param_type xt = c->cfg->wl->params[c->req->x].type;
	int exp = c->e - c->cfg->exps;
	char name[SERIES_LEN];

	c->names = xt == PT_BOOL || xt == PT_ENUM;
	c->ent = calloc(nr ? nr : 1, sizeof(*c->ent));
	c->series = calloc(nr ? nr : 1, sizeof(*c->series));
	c->absent = calloc(nr ? nr : 1, sizeof(*c->absent));
	if (!c->ent || !c->series || !c->absent)
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		const struct point_result *r = &results[i];
		struct entry *en = &c->ent[c->nr_ent];

		if (r->pt->exp != exp || r->status != PS_OK || isnan(y_summary(c, r)->mean))
			continue;
		series_name(c, r, name, sizeof(name));
		*en = (struct entry){ r, series_index(c, name), x_of(c, r->pt), i };
		c->nr_ent++;
	}
	for (int i = 0; i < nr; i++)
		if (results[i].pt->exp == exp && results[i].status != PS_OK)
			note_absent(c, &results[i]);
	for (int i = 0; i < c->nr_ent; i++)
		c->flags |= c->ent[i].r->quality.flags;
	for (int i = 0; i < nr; i++)
		c->nr_stalled += results[i].pt->exp == exp && results[i].status == PS_STALLED;
	sort_entries(c->ent, c->nr_ent);
	return 0;
}

static void chart_free(struct chart *c)
{
	free(c->ent);
	free(c->series);
	free(c->absent);
}

/* A .dat comment stays one line, whatever the title holds. */
static void put_comment(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

/*
 * "hits (M/s)", "mem_peak (MiB)", "hits per producers (M/s)" or "hits
 * (relative to the first)" on y, in the metric's unit as the table shows
 * it; the parameter's name, with its unit if it has one, on x.
 */
static void axis_label(const struct chart *c, bool y, char *buf, size_t len)
{
	const struct workload *wl = c->cfg->wl;
	const struct param_def *xp = &wl->params[c->req->x];
	const struct metric_unit *u = y_unit(c);

	if (y && c->per >= 0)
		snprintf(buf, len, "%s per %s (%s)", y_name(c),
			 wl->params[c->per].name, c->po->relative ? "relative to the first" :
			 u->name);
	else if (y)
		snprintf(buf, len, "%s (%s)", y_name(c), c->po->relative ?
			 "relative to the first" : u->name);
	else if (xp->type == PT_SIZE)
		snprintf(buf, len, "%s (bytes)", xp->name);
	else
		snprintf(buf, len, "%s", xp->name);
}

/*
 * The series' means and stddevs, entries first..end-1, in the chart's
 * unit: the table's (M/s, MiB), per unit of --per, or relative to the first.
 */
static int series_values(const struct chart *c, int first, int end, struct series_pt *v)
{
	const struct plot_opts *po = c->po;
	const struct metric_unit *u = y_unit(c);
	int err;

	for (int i = first; i < end; i++) {
		const struct point_result *r = c->ent[i].r;
		const struct summary *s = y_summary(c, r);

		v[i - first] = (struct series_pt){ c->per >= 0 ? r->pt->wp.v[c->per] : 1,
						   s->mean, s->stddev };
	}
	err = scaling_apply(v, end - first, c->per >= 0, po->relative);
	for (int i = 0; !err && !po->relative && i < end - first; i++) {
		v[i].mean /= u->div;
		v[i].stddev /= u->div;
	}
	return err;
}

/*
 * Columns: x, mean, stddev (in the chart's unit), x as text, and 1 where
 * the point has quality flags (drawn hollow), else 0; series 2 blank
 * lines apart.
 */
static int write_dat(FILE *f, const struct chart *c, struct series_pt *v)
{
	const struct workload *wl = c->cfg->wl;
	const struct param_def *xp = &wl->params[c->req->x];
	char val[128], unit[128];
	int end, err = 0;

	axis_label(c, true, unit, sizeof(unit));
	fputs("# ", f);
	put_comment(f, experiment_title(c->cfg, c->e));
	fprintf(f, ": %s vs %s\n", unit, xp->name);
	fprintf(f, "# x mean stddev label flagged\n");
	for (int i = 0; !err && i < c->nr_ent; i++) {
		const struct entry *en = &c->ent[i];

		if (!i || en->series != c->ent[i - 1].series) {
			fputs(i ? "\n\n# " : "# ", f);
			put_comment(f, c->series[en->series]);
			fputc('\n', f);
			for (end = i; end < c->nr_ent && c->ent[end].series == en->series; )
				end++;
			err = series_values(c, i, end, v + i);
		}
		param_format(xp, en->r->pt->wp.v[c->req->x], val, sizeof(val));
		fprintf(f, "%.17g %.6f %.6f ", en->x, v[i].mean, v[i].stddev);
		gnuplot_put_quoted(f, val);
		fprintf(f, " %d\n", en->r->quality.flags ? 1 : 0);
	}
	return err;
}

/*
 * A log2 axis from a little below the smallest x to a little above the
 * largest (gnuplot's own range would run on to the next power of two), its
 * tics at the values plotaxis.c chose, labelled as the table writes them.
 */
static void put_log_axis(FILE *f, const struct chart *c, const struct plot_xaxis *ax)
{
	const struct param_def *xp = &c->cfg->wl->params[c->req->x];
	double lo = ax->ticks[0], hi = ax->ticks[0], pad;
	char val[128];

	for (int i = 0; i < c->nr_ent; i++) {
		lo = fmin(lo, c->ent[i].x);
		hi = fmax(hi, c->ent[i].x);
	}
	pad = pow(hi / lo, 0.03);
	fprintf(f, "set logscale x 2\nset xrange [%.6g:%.6g]\nset xtics (", lo / pad, hi * pad);
	for (int i = 0; i < ax->nr_ticks; i++) {
		param_format(xp, ax->ticks[i], val, sizeof(val));
		fputs(i ? ", " : "", f);
		gnuplot_put_quoted(f, val);
		fprintf(f, " %lld", ax->ticks[i]);
	}
	fputs(")", f);
}

/*
 * logx = auto: log2 when x spans more than 8 times, on: log2 where every x
 * is above 0, off: linear (plotaxis.h); on/off and enum x by position.
 */
static void put_xsetup(FILE *f, const struct chart *c)
{
	long long *vals = malloc((c->nr_ent ?: 1) * sizeof(*vals));
	struct plot_xaxis ax = { 0 };

	if (c->names) {
		fputs("set offsets 0.5, 0.5, 0, 0", f);
		ax.cannot_log = c->e->logx == LOGX_ON;
	} else if (vals) {
		for (int i = 0; i < c->nr_ent; i++)
			vals[i] = c->ent[i].r->pt->wp.v[c->req->x];
		plot_axis_choose(vals, c->nr_ent, c->e->logx, &ax);
	}
	if (ax.log)
		put_log_axis(f, c, &ax);
	if (ax.cannot_log)
		diag_warn("chart %s: logx = on, but a log axis cannot show its x values: "
			  "drawn linear", c->slug);
	free(vals);
}

/* Has the series that starts at entry first a point with quality flags? */
static bool series_flagged(const struct chart *c, int first)
{
	for (int i = first; i < c->nr_ent && c->ent[i].series == c->ent[first].series; i++)
		if (c->ent[i].r->quality.flags)
			return true;
	return false;
}

/*
 * A flagged point's marker, hollow: a white disc over the series' filled
 * one, then an open circle in the series' colour (the .dat's 5th column
 * says which points; the others are left undefined, 1/0).
 */
static void put_hollow(FILE *f, int idx)
{
	static const char flagged_y[] = "1:($5 > 0 ? $2 : 1/0) notitle with points";

	fprintf(f, ", \\\n     \"\" index %d using %s linecolor rgb \"white\" pointtype 7", idx,
		flagged_y);
	fprintf(f, ", \\\n     \"\" index %d using %s linecolor %d pointtype 6", idx, flagged_y,
		idx + 1);
}

/*
 * Each series a line with error bars and filled markers, in its own colour;
 * points with quality flags hollow, named in the key.  No text of the spec
 * or the results goes in but escaped (put_quoted).
 */
static void put_plot(FILE *f, const struct chart *c)
{
	const char *cols = c->names ? "1:2:3:xtic(4)" : "1:2:3";
	char key[SERIES_LEN + 32], flags[128];
	int idx = 0;

	for (int i = 0; i < c->nr_ent; i++) {
		if (i && c->ent[i].series == c->ent[i - 1].series)
			continue;
		if (idx)
			fputs(", \\\n     \"\"", f);
		else
			fprintf(f, "\"%s.dat\"", c->slug);
		fprintf(f, " index %d using %s title ", idx, cols);
		gnuplot_put_quoted(f, c->series[c->ent[i].series]);
		fprintf(f, " with yerrorlines linecolor %d pointtype 7", idx + 1);
		if (series_flagged(c, i))
			put_hollow(f, idx);
		idx++;
	}
	if (c->flags) {
		quality_names(c->flags, flags, sizeof(flags));
		snprintf(key, sizeof(key), "hollow: flagged %s (see the table)", flags);
		fputs(", \\\n     keyentry with points linecolor rgb \"black\" pointtype 6 title ", f);
		gnuplot_put_quoted(f, key);
	}
	for (int i = 0; i < c->nr_absent; i++) {
		snprintf(key, sizeof(key), "%s: %s", c->absent[i].name,
			 point_status_name(c->absent[i].status));
		fputs(", \\\n     keyentry with points pointtype -1 title ", f);
		gnuplot_put_quoted(f, key);
	}
}

/*
 * The machine under the title: "x86_64 (AMD EPYC 9654), kernel 6.18.0,
 * machine=a", from one run's meta; empty for a chart of several runs
 * (facts NULL), whose series name their runs.
 */
static void subtitle(const struct chart *c, char *buf, size_t len)
{
	const struct run_facts *f = c->facts;
	size_t n = 0;

	buf[0] = '\0';
	if (!f)
		return;
	if (f->arch && *f->arch && strcmp(f->arch, "unknown"))
		n += snprintf(buf, len, "%s", f->arch);
	if (f->cpu_model && *f->cpu_model && strcmp(f->cpu_model, "unknown") && n < len)
		n += snprintf(buf + n, len - n, n ? " (%s)" : "%s", f->cpu_model);
	if (f->kernel_release && *f->kernel_release && strcmp(f->kernel_release, "unknown") &&
	    n < len)
		n += snprintf(buf + n, len - n, "%skernel %s", n ? ", " : "", f->kernel_release);
	if (f->tags[0] && n < len)
		snprintf(buf + n, len - n, "%s%s", n ? ", " : "", f->tags);
}

/*
 * What the error bars are: the stddev of the interval rates, over how many
 * intervals (the range, when points differ), or the stddev a bench printed
 * for imported rows, which have no intervals.
 */
static void caption(const struct chart *c, char *buf, size_t len)
{
	int lo = 0, hi = 0, published = 0;
	size_t n;

	for (int i = 0; i < c->nr_ent; i++) {
		int k = y_summary(c, c->ent[i].r)->n;

		if (k <= 0)
			published++;
		else if (!lo || k < lo)
			lo = k;
		if (k > hi)
			hi = k;
	}
	n = snprintf(buf, len, "error bars: ±1 stddev");
	if (lo == hi && lo)
		n += snprintf(buf + n, len - n, " over %d intervals", lo);
	else if (lo)
		n += snprintf(buf + n, len - n, " over %d-%d intervals", lo, hi);
	if (published && n < len)
		n += snprintf(buf + n, len - n, "%s as published", lo ? ", or" : "");
	/* a stalled point measured nothing: no 0 drawn, but not a silent gap either */
	if (c->nr_stalled && n < len)
		snprintf(buf + n, len - n, ", %d stalled point%s left out (counted nothing)",
			 c->nr_stalled, c->nr_stalled == 1 ? "" : "s");
}

/* The title and its notes on one line: the SVG's <title>. */
static void chart_title(const struct chart *c, char *buf, size_t len)
{
	size_t n = snprintf(buf, len, "%s", experiment_title(c->cfg, c->e));

	if (n < len)
		table_title_notes(c->facts, buf + n, len - n);
}

/* Beyond this many characters a title line runs off a 1024-pixel chart. */
#define CHART_TITLE_WIDTH	80

/* The title, and its notes (--quick, TCG) on a line of their own when both would not fit. */
static void put_chart_title(FILE *f, const struct chart *c)
{
	const char *title = experiment_title(c->cfg, c->e);
	char notes[256];

	table_title_notes(c->facts, notes, sizeof(notes));
	plot_escape(f, title);
	if (notes[0] && strlen(title) + strlen(notes) > CHART_TITLE_WIDTH) {
		fputs("\\n", f);
		plot_escape(f, notes + 1);	/* without the space that joins it to the title */
	} else {
		plot_escape(f, notes);
	}
}

/*
 * One @NAME@ of the template; false if NAME is not ours (left as is).
 * The template already has quotes around TITLE, SUBTITLE, CAPTION, XLABEL
 * and YLABEL; SUBTITLE is a second title line, "\n" and the text, or
 * nothing.
 */
static bool put_placeholder(FILE *f, const struct chart *c, const char *name, size_t len)
{
	char key[32], label[512];

	snprintf(key, sizeof(key), "%.*s", (int)len, name);
	if (!strcmp(key, "TITLE")) {
		put_chart_title(f, c);
	} else if (!strcmp(key, "SUBTITLE")) {
		subtitle(c, label, sizeof(label));
		if (label[0])
			fputs("\\n", f);
		plot_escape(f, label);
	} else if (!strcmp(key, "CAPTION")) {
		caption(c, label, sizeof(label));
		plot_escape(f, label);
	} else if (!strcmp(key, "XLABEL") || !strcmp(key, "YLABEL")) {
		axis_label(c, key[0] == 'Y', label, sizeof(label));
		plot_escape(f, label);
	} else if (!strcmp(key, "XSETUP")) {
		put_xsetup(f, c);
	} else if (!strcmp(key, "PLOT")) {
		put_plot(f, c);
	} else if (!strcmp(key, "OUTPUT")) {
		fputs(c->slug, f);
	} else if (!strcmp(key, "SVGNAME")) {
		gnuplot_svg_name(c->slug, label, sizeof(label));
		fputs(label, f);
	} else {
		return false;
	}
	return true;
}

static void write_gp(FILE *f, const struct chart *c, const char *tpl)
{
	while (*tpl) {
		const char *end = *tpl == '@' ? strchr(tpl + 1, '@') : NULL;

		if (end && end - tpl < 32 && put_placeholder(f, c, tpl + 1, end - tpl - 1)) {
			tpl = end + 1;
			continue;
		}
		fputc(*tpl++, f);
	}
}

static int chart_write(const char *dir, const struct chart *c, const char *tpl)
{
	struct series_pt *v = calloc(c->nr_ent + 1, sizeof(*v));
	FILE *f;
	int err;

	err = v ? gnuplot_open_out(dir, c->slug, "dat", &f) : -ENOMEM;
	if (err) {
		free(v);
		return err;
	}
	err = write_dat(f, c, v);
	free(v);
	if (err)
		diag_err("chart %s left out: it would divide by 0 (%s)", c->slug,
			 c->per >= 0 ? "a point's value of the --per parameter, or the first "
			 "rate of a series" : "the first rate of a series");
	err = gnuplot_close_out(f, dir, c->slug, "dat") ?: err;
	if (err == -EDOM)
		gnuplot_remove_out(dir, c->slug, "dat");
	if (!err)
		err = gnuplot_open_out(dir, c->slug, "gp", &f);
	if (err)
		return err;
	write_gp(f, c, tpl);
	return gnuplot_close_out(f, dir, c->slug, "gp");
}

struct plot_job {
	const struct sweep_cfg *cfg;
	const struct run_facts *facts;
	const struct point_result *results;
	const struct plot_opts *po;
	int nr;
	char dir[PATH_MAX];
	char *tpl;
	char (*slugs)[SLUG_LEN];
	char (*titles)[TITLE_LEN];	/* of slugs[i]'s chart, for its SVG */
	int nr_slugs;
	int skipped;		/* -EDOM when a scaling chart was left out */
};

static int plot_one(struct plot_job *job, const struct experiment *e, const struct plot_req *req)
{
	struct chart c = { .cfg = job->cfg, .facts = job->facts, .e = e, .req = req,
			   .results = job->results, .po = job->po, .per = -1 };
	const struct workload *wl = job->cfg->wl;
	int err;

	if (job->po->per) {
		c.per = param_index(wl->params, wl->nr_params, job->po->per);
		if (c.per < 0) {
			diag_err("--per: %s has no parameter '%s'", wl->name, job->po->per);
			return -EINVAL;
		}
	}
	chart_slug(&c, job->slugs, job->nr_slugs);
	err = chart_build(&c, job->results, job->nr);
	if (err)
		diag_err("chart %s: %s", c.slug, strerror(-err));
	/* an experiment with no point in the set (--only, a cut run) is not news */
	if (!err && !c.nr_ent && c.nr_absent)
		diag_warn("chart %s: no point finished ok, nothing to draw", c.slug);
	if (!err && c.nr_ent)
		err = chart_write(job->dir, &c, job->tpl);
	if (err == -EDOM) {
		/* the other charts are still drawn */
		job->skipped = err;
		c.nr_ent = err = 0;
	}
	if (!err && c.nr_ent) {
		chart_title(&c, job->titles[job->nr_slugs], TITLE_LEN);
		memcpy(job->slugs[job->nr_slugs++], c.slug, SLUG_LEN);
	}
	chart_free(&c);
	return err;
}

static int nr_plot_reqs(const struct sweep_cfg *cfg)
{
	int nr = 0;

	for (int x = 0; x < cfg->nr_exps; x++)
		nr += cfg->exps[x].nr_plots;
	return nr;
}

int plot_check_gnuplot(const struct sweep_cfg *cfg)
{
	char gnuplot[PATH_MAX];

	if (!nr_plot_reqs(cfg) || !gnuplot_find(gnuplot, sizeof(gnuplot)))
		return 0;
	diag_err("gnuplot not found, and the spec asks for charts: install gnuplot-nox, "
		 "or pass --no-plots");
	return -ENOENT;
}

static int plot_prepare(struct plot_job *job, const char *dir)
{
	char path[PATH_MAX];
	int nr = nr_plot_reqs(job->cfg), err;

	if (!nr)
		return 0;
	snprintf(job->dir, sizeof(job->dir), "%s/plots", dir);
	if (mkdir(job->dir, 0755) && errno != EEXIST) {
		err = -errno;
		diag_err("cannot create %s: %s", job->dir, strerror(errno));
		return err;
	}
	if (plot_template_find(PLOT_TEMPLATE, path, sizeof(path))) {
		diag_err("chart template %s not found in plots/ or ../share/bpfsweep/plots/ "
			 "beside the executable, in %s/plots/, nor in ./plots/", PLOT_TEMPLATE,
			 BPFSWEEP_DATADIR);
		return -ENOENT;
	}
	err = read_text_file(path, &job->tpl);
	if (err) {
		diag_err("cannot read %s: %s", path, strerror(-err));
		return err;
	}
	job->slugs = calloc(nr, sizeof(*job->slugs));
	job->titles = calloc(nr, sizeof(*job->titles));
	if (!job->slugs || !job->titles) {
		diag_err("charts: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	return 0;
}

int plot_render(const char *dir, const struct sweep_cfg *cfg, const struct run_facts *facts,
		const struct point_result *results, int nr, unsigned int timeout_s)
{
	return plot_render_runs(dir, cfg, facts, results, nr, NULL, timeout_s);
}

int plot_render_runs(const char *dir, const struct sweep_cfg *cfg, const struct run_facts *facts,
		     const struct point_result *results, int nr, const struct plot_opts *po,
		     unsigned int timeout_s)
{
	static const struct plot_opts plain;
	struct plot_job job = { .cfg = cfg, .facts = facts, .results = results, .nr = nr,
				.po = po ?: &plain };
	int err;

	err = plot_prepare(&job, dir);
	for (int x = 0; !err && job.slugs && x < cfg->nr_exps; x++) {
		const struct experiment *e = &cfg->exps[x];

		for (int p = 0; !err && p < e->nr_plots; p++)
			err = plot_one(&job, e, &e->plots[p]);
	}
	if (!err)
		err = gnuplot_render_all(job.dir, job.slugs, job.titles, job.nr_slugs,
				 timeout_s ?: PLOT_TIMEOUT_S) ?: job.skipped;
	free(job.tpl);
	free(job.slugs);
	free(job.titles);
	return err;
}
