// SPDX-License-Identifier: GPL-2.0
/* The sortable HTML table of an experiment's rows: see htmltable.h. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "html.h"
#include "htmltable.h"
#include "metric.h"
#include "table.h"

/* A number's cell: shown formatted, its summary.csv text in data-v (none when empty). */
static void num_cell(FILE *f, const char *cell, const char *shown)
{
	fputs("<td class=\"num\"", f);
	if (cell[0]) {
		fputs(" data-v=\"", f);
		html_text(f, cell);
		fputc('"', f);
	}
	fputc('>', f);
	html_text(f, shown);
	fputs("</td>", f);
}

/* A metric's columns are left out where no row has a mean of it (program counters unread). */
static void metrics_shown(const struct html_run *run, const struct view_row *const *rows, int nr,
			  bool *shown)
{
	for (int m = 0; m < run->view->schema.nr_metrics; m++) {
		shown[m] = false;
		for (int i = 0; i < nr && !shown[m]; i++)
			shown[m] = !isnan(rows[i]->stat[m].mean) ||
				   html_run_cell(run, rows[i], m, "mean")[0];
	}
}

static void head(FILE *f, const struct result_view *v, const bool *shown)
{
	static const char *const stats[] = { "mean", "sd", "CI95 \xc2\xb1" };

	fputs("<thead><tr><th>point</th><th>label</th><th>status</th>", f);
	for (int m = 0; m < v->schema.nr_metrics; m++) {
		const struct metric_unit *u = metric_default_unit(&v->metrics[m]);

		for (size_t k = 0; shown[m] && k < sizeof(stats) / sizeof(stats[0]); k++) {
			fputs("<th>", f);
			html_text(f, v->metrics[m].name);
			fprintf(f, " %s (", stats[k]);
			html_text(f, u->name);
			fputs(")</th>", f);
		}
	}
	fputs("<th>n</th><th>flags</th><th>reason</th></tr></thead>\n", f);
}

/* Metric m of row r: mean, sd and CI half-width in its unit (the header's). */
static void metric_cells(FILE *f, const struct html_run *run, const struct view_row *r, int m)
{
	const struct metric_unit *u = metric_default_unit(&run->view->metrics[m]);
	const struct summary *s = &r->stat[m];
	char buf[64];

	metric_format(s->mean, u, buf, sizeof(buf));
	num_cell(f, html_run_cell(run, r, m, "mean"), buf);
	metric_format(r->n == 1 ? NAN : s->stddev, u, buf, sizeof(buf));
	num_cell(f, html_run_cell(run, r, m, "stddev"), buf);
	metric_format(s->ci95, u, buf, sizeof(buf));
	num_cell(f, html_run_cell(run, r, m, "ci95"), buf);
}
/* The quality cell's flags ("cv=12%;trend=+3%"), each a span of its own. */
static void flag_cells(FILE *f, const struct html_run *run, const struct view_row *r)
{
	char flags[256];

	quality_format(&r->quality, flags, sizeof(flags));
	fputs("<td class=\"flags\">", f);
	for (char *tok = strtok(flags, ";"); tok; tok = strtok(NULL, ";")) {
		fputs("<span class=\"flag\">", f);
		html_text(f, tok);
		fputs("</span> ", f);
	}
	fputs("</td><td class=\"reason\">", f);
	html_text(f, r->reason);
	fputs("</td>", f);
}

static void row(FILE *f, const struct html_run *run, const struct view_row *r, const bool *shown)
{
	const char *status = point_status_name(r->status);
	char label[512], n[32];

	table_label(run->view, r, label, sizeof(label));
	fprintf(f, "<tr id=\"%sp-%lld\" data-point=\"%lld\" class=\"%s%s\">", run->idp, r->id,
		r->id, status, r->quality.flags ? " flagged" : "");
	fprintf(f, "<td class=\"num\" data-v=\"%lld\">%lld</td><td class=\"label\">", r->id, r->id);
	html_text(f, label);
	fprintf(f, "</td><td>%s</td>", status);
	for (int m = 0; m < run->view->schema.nr_metrics; m++)
		if (shown[m])
			metric_cells(f, run, r, m);
	snprintf(n, sizeof(n), "%lld", r->n);
	num_cell(f, r->n > 0 ? n : "", r->n > 0 ? n : "n/a");
	flag_cells(f, run, r);
	fputs("</tr>\n", f);
}

void html_table(FILE *f, const struct html_run *run, const struct view_row *const *rows, int nr,
		const char *id)
{
	bool shown[WL_MAX_METRICS];

	metrics_shown(run, rows, nr, shown);
	fputs("<div class=\"wide\"><table class=\"sortable\" id=\"", f);
	html_text(f, id);
	fputs("\">\n", f);
	head(f, run->view, shown);
	fputs("<tbody>\n", f);
	for (int i = 0; i < nr; i++)
		row(f, run, rows[i], shown);
	fputs("</tbody>\n</table></div>\n", f);
}
