// SPDX-License-Identifier: GPL-2.0
/*
 * A chart's files (plotchart.h): its gnuplot data (one block per series)
 * and its script, made from a template in plots/ (kept, so a user can
 * restyle and rerun it).  Nothing in a title or label reaches gnuplot but
 * as an inert string (gnuplot_put_quoted(), gnuplot_put_data_text()).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "plotaxis.h"
#include "plotchart.h"
#include "scaling.h"
#include "table.h"
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
	const struct workload *wl = &c->v->schema;
	const struct param_def *xp = &wl->params[c->req->x];
	const struct metric_unit *u = chart_y_unit(c);

	if (y && c->per >= 0)
		snprintf(buf, len, "%s per %s (%s)", chart_y_name(c),
			 wl->params[c->per].name, c->po->relative ? "relative to the first" :
			 u->name);
	else if (y)
		snprintf(buf, len, "%s (%s)", chart_y_name(c), c->po->relative ?
			 "relative to the first" : u->name);
	else if (xp->type == PT_SIZE)
		snprintf(buf, len, "%s (bytes)", xp->name);
	else
		snprintf(buf, len, "%s", xp->name);
}

/*
 * The series' means and error bars (chart_y_err()), entries first..end-1,
 * in the chart's unit: the table's (M/s, MiB), per unit of --per, or
 * relative to the first.
 */
static int series_values(const struct chart *c, int first, int end, struct series_pt *v)
{
	const struct plot_opts *po = c->po;
	const struct metric_unit *u = chart_y_unit(c);
	int err;

	for (int i = first; i < end; i++) {
		const struct view_row *r = c->ent[i].r;
		struct series_pt *p = &v[i - first];

		*p = (struct series_pt){ c->per >= 0 ? r->v[c->per] : 1,
					 chart_y_summary(c, r)->mean, 0 };
		chart_y_err(c, r, &p->err);
	}
	err = scaling_apply(v, end - first, c->per >= 0, po->relative);
	for (int i = 0; !err && !po->relative && i < end - first; i++) {
		v[i].mean /= u->div;
		v[i].err /= u->div;
	}
	return err;
}

/*
 * Columns: x, mean, err (the error bar's half-width, 0 for none; both in
 * the chart's unit), x as text, and 1 where the point has quality flags
 * (drawn hollow), else 0; series 2 blank lines apart.
 */
static int write_dat(FILE *f, const struct chart *c, struct series_pt *v)
{
	const struct param_def *xp = &c->v->params[c->req->x];
	char val[128], unit[128];
	int end, err = 0;

	axis_label(c, true, unit, sizeof(unit));
	fputs("# ", f);
	put_comment(f, view_exp_title(c->v, c->e));
	fprintf(f, ": %s vs %s\n", unit, xp->name);
	fprintf(f, "# x mean err label flagged\n");
	for (int i = 0; !err && i < c->nr_ent; i++) {
		const struct chart_entry *en = &c->ent[i];

		if (!i || en->series != c->ent[i - 1].series) {
			fputs(i ? "\n\n# " : "# ", f);
			put_comment(f, c->series[en->series]);
			fputc('\n', f);
			for (end = i; end < c->nr_ent && c->ent[end].series == en->series; )
				end++;
			err = series_values(c, i, end, v + i);
		}
		param_format(xp, en->r->v[c->req->x], val, sizeof(val));
		fprintf(f, "%.17g %.6f %.6f ", en->x, v[i].mean, v[i].err);
		gnuplot_put_data_text(f, val);
		fprintf(f, " %d\n", en->r->quality.flags ? 1 : 0);
	}
	return err;
}

/*
 * The axis plotaxis.c chose: log2 or linear, a range a little past the end
 * values (gnuplot's own would end on them, or run on to the next power of
 * two), and tics at the values, labelled as the table writes them, or at
 * whole steps.
 */
static void put_axis(FILE *f, const struct chart *c, const struct plot_xaxis *ax)
{
	const struct param_def *xp = &c->v->params[c->req->x];
	char val[128];

	if (ax->log)
		fputs("set logscale x 2\n", f);
	fprintf(f, "set xrange [%.6g:%.6g]\n", ax->lo, ax->hi);
	if (!ax->nr_ticks) {
		fprintf(f, "set xtics %lld", ax->step);
		return;
	}
	fputs("set xtics (", f);
	for (int i = 0; i < ax->nr_ticks; i++) {
		param_format(xp, ax->ticks[i], val, sizeof(val));
		fputs(i ? ", " : "", f);
		gnuplot_put_quoted(f, val);
		fprintf(f, " %lld", ax->ticks[i]);
	}
	fputs(")", f);
}

/*
 * On/off and enum x by position, named by the .dat's tics: half a step of
 * room each side, which one value alone needs too (gnuplot would warn of
 * an empty x range).
 */
static void put_names_range(FILE *f, const struct chart *c)
{
	double lo = c->ent[0].x, hi = c->ent[0].x;

	for (int i = 1; i < c->nr_ent; i++) {
		lo = fmin(lo, c->ent[i].x);
		hi = fmax(hi, c->ent[i].x);
	}
	fprintf(f, "set xrange [%g:%g]", lo - 0.5, hi + 0.5);
}

/*
 * logx = auto: log2 when x spans more than 8 times or doubles, on: log2
 * where every x is above 0, off: linear (plotaxis.h); names by position.
 */
static void put_xsetup(FILE *f, const struct chart *c)
{
	long long *vals = malloc((c->nr_ent ?: 1) * sizeof(*vals));
	struct plot_xaxis ax = { 0 };

	if (c->names) {
		put_names_range(f, c);
		ax.cannot_log = c->e->logx == LOGX_ON;
	} else if (vals) {
		for (int i = 0; i < c->nr_ent; i++)
			vals[i] = c->ent[i].r->v[c->req->x];
		plot_axis_choose(vals, c->nr_ent, c->e->logx, &ax);
	}
	if (ax.has_range)
		put_axis(f, c, &ax);
	if (ax.cannot_log)
		diag_warn("chart %s: logx = on, but a log axis cannot show its x values: "
			  "drawn linear", c->slug);
	free(vals);
}

/* What a chart's error bars stand on. */
struct bar_stats {
	int lo, hi;		/* units of the points with a bar; 0 when none has one */
	unsigned int kinds;	/* 1 << enum unit_kind of those points */
	int without;		/* points drawn without a bar */
};

static void bar_stats(const struct chart *c, struct bar_stats *b)
{
	double half;

	*b = (struct bar_stats){ 0 };
	for (int i = 0; i < c->nr_ent; i++) {
		const struct view_row *r = c->ent[i].r;
		const struct units *u = chart_y_units(c, r);

		if (!chart_y_err(c, r, &half)) {
			b->without++;
			continue;
		}
		b->lo = b->lo && b->lo < u->n ? b->lo : u->n;
		b->hi = b->hi > u->n ? b->hi : u->n;
		b->kinds |= 1u << u->kind;
	}
}

static const char *units_name(unsigned int kinds)
{
	if (kinds == 1u << UK_REP)
		return "repetitions";
	if (kinds == 1u << UK_BATCH)
		return "batches of intervals";
	return "units (repetitions, batches)";
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
 * Each series a line with error bars (if any point has one) and filled
 * markers, in its own colour; points with quality flags hollow, named in
 * the key.  No text of the spec or the results goes in but quoted
 * (gnuplot_put_quoted()).
 */
static void put_plot(FILE *f, const struct chart *c)
{
	static const char *const cols[2][2] = { { "1:2", "1:2:xtic(4)" },
						{ "1:2:3", "1:2:3:xtic(4)" } };
	char key[SERIES_LEN + 32], flags[128];
	struct bar_stats b;
	int idx = 0;

	/* no point with a bar: a key without one */
	bar_stats(c, &b);

	for (int i = 0; i < c->nr_ent; i++) {
		if (i && c->ent[i].series == c->ent[i - 1].series)
			continue;
		if (idx)
			fputs(", \\\n     \"\"", f);
		else
			fprintf(f, "\"%s.dat\"", c->slug);
		fprintf(f, " index %d using %s title ", idx, cols[b.hi > 0][c->names]);
		gnuplot_put_quoted(f, c->series[c->ent[i].series]);
		fprintf(f, " with %s linecolor %d pointtype 7", b.hi ? "yerrorlines" : "linespoints",
			idx + 1);
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
 * What the error bars are: the 95 % interval of the mean over how many
 * independent units (the range, when points differ), and which points
 * have none (one repetition, imported rows): a stddev over neighbouring
 * intervals, which correlate, drawn as a bar would claim what it cannot.
 */
static void caption(const struct chart *c, char *buf, size_t len)
{
	struct bar_stats b;
	size_t n;

	bar_stats(c, &b);
	if (!b.hi)
		n = snprintf(buf, len, "no error bars: fewer than 2 independent units per point");
	else if (b.lo == b.hi)
		n = snprintf(buf, len, "error bars: 95%% CI of the mean over %d %s", b.lo,
			     units_name(b.kinds));
	else
		n = snprintf(buf, len, "error bars: 95%% CI of the mean over %d-%d %s", b.lo, b.hi,
			     units_name(b.kinds));
	if (b.hi && b.without && n < len)
		n += snprintf(buf + n, len - n, ", none on %d point%s with fewer than 2",
			      b.without, b.without == 1 ? "" : "s");
	/* a stalled point measured nothing: no 0 drawn, but not a silent gap either */
	if (c->nr_stalled && n < len)
		snprintf(buf + n, len - n, ", %d stalled point%s left out (counted nothing)",
			 c->nr_stalled, c->nr_stalled == 1 ? "" : "s");
}

/* The title and its notes on one line: the SVG's <title>. */
void chart_title(const struct chart *c, char *buf, size_t len)
{
	size_t n = snprintf(buf, len, "%s", view_exp_title(c->v, c->e));

	if (n < len)
		table_title_notes(c->facts, buf + n, len - n);
}

/* Beyond this many characters a title line runs off a 1024-pixel chart. */
#define CHART_TITLE_WIDTH	80

/*
 * The title, its notes (--quick, TCG) on a line of their own when both
 * would not fit, and the machine on the next line: one string, its lines
 * apart, for gnuplot_put_quoted().
 */
static void put_chart_title(FILE *f, const struct chart *c)
{
	const char *title = view_exp_title(c->v, c->e);
	char notes[256], machine[512], *text = NULL;
	size_t len = 0;
	FILE *mem;

	table_title_notes(c->facts, notes, sizeof(notes));
	subtitle(c, machine, sizeof(machine));
	mem = open_memstream(&text, &len);
	if (!mem)
		return;
	fputs(title, mem);
	if (notes[0] && strlen(title) + strlen(notes) > CHART_TITLE_WIDTH)
		fprintf(mem, "\n%s", notes + 1);	/* without the space that joins it */
	else
		fputs(notes, mem);
	if (machine[0])
		fprintf(mem, "\n%s", machine);
	if (!fclose(mem))
		gnuplot_put_quoted(f, text);
	free(text);
}

/*
 * One @NAME@ of the template; false if NAME is not ours (left as is).
 * TITLE, CAPTION, XLABEL and YLABEL are whole gnuplot strings, quotes and
 * all (gnuplot_put_quoted()).
 */
static bool put_placeholder(FILE *f, const struct chart *c, const char *name, size_t len)
{
	char key[32], label[512];

	snprintf(key, sizeof(key), "%.*s", (int)len, name);
	if (!strcmp(key, "TITLE")) {
		put_chart_title(f, c);
	} else if (!strcmp(key, "CAPTION")) {
		caption(c, label, sizeof(label));
		gnuplot_put_quoted(f, label);
	} else if (!strcmp(key, "XLABEL") || !strcmp(key, "YLABEL")) {
		axis_label(c, key[0] == 'Y', label, sizeof(label));
		gnuplot_put_quoted(f, label);
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

int chart_write(const char *dir, const struct chart *c, const char *tpl)
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
	if (!err)
		err = gnuplot_open_out(dir, c->slug, "gp", &f);
	if (!err) {
		write_gp(f, c, tpl);
		err = gnuplot_close_out(f, dir, c->slug, "gp");
		if (err)
			gnuplot_remove_out(dir, c->slug, "gp");
	}
	/* a chart left out, or one cut short (a full disk): none of its files stays */
	if (err)
		gnuplot_remove_out(dir, c->slug, "dat");
	return err;
}

