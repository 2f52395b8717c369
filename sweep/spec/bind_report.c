// SPDX-License-Identifier: GPL-2.0
/*
 * The [report] section (bind_report.h): every key checked against the
 * workload's parameters and metrics, each mistake reported at its column
 * and binding going on after it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bind_report.h"
#include "bindval.h"
#include "diag.h"
#include "matrix.h"
#include "metricdef.h"

/* By enum plot_logx. */
static const char *const plot_logx_names[] = { "auto", "on", "off", NULL };

/*
 * "ns_per_run" on a chart's y, as summary.csv names it, for a workload
 * with the kernel's program counters: the prog_ns metric, per run.
 */
static int plot_per_run(const struct workload *wl, const char *name, size_t len, bool *per_run)
{
	int runs, ns;

	*per_run = len == strlen("ns_per_run") && !strncmp(name, "ns_per_run", len) &&
		   prog_metrics(wl, &runs, &ns);
	return *per_run ? ns : -1;
}

/* Every {name} and {name?text} of a label must name a parameter. */
static void check_label(const struct workload *wl, const struct spec_entry *e)
{
	const char *v = e->value, *open, *close, *q;
	struct loc at;

	for (open = strchr(v, '{'); open; open = strchr(close + 1, '{')) {
		close = strchr(open + 1, '}');
		if (!close) {
			at = loc_plus(&e->val_loc, open - v);
			diag_at(&at, "unterminated '{' in label");
			return;
		}
		at = loc_plus(&e->val_loc, open + 1 - v);
		q = memchr(open + 1, '?', close - open - 1);
		bind_param_name(wl, open + 1, (q ? q : close) - open - 1, &at, false);
	}
}

/* Every {field} of a values template must be a metric[.stat][:unit] of the workload. */
static void check_values(const struct workload *wl, const struct spec_entry *e)
{
	const char *v = e->value, *open, *close;
	struct metric_field f;
	char why[768];
	struct loc at;
	size_t off;

	for (open = strchr(v, '{'); open; open = strchr(close + 1, '{')) {
		close = strchr(open + 1, '}');
		if (!close) {
			at = loc_plus(&e->val_loc, open - v);
			diag_at(&at, "unterminated '{' in values");
			return;
		}
		if (!metric_field_parse(wl, open + 1, close - open - 1, &f, &off, why,
					sizeof(why)))
			continue;
		at = loc_plus(&e->val_loc, open + 1 + off - v);
		diag_at(&at, "%s", why);
	}
}

/* worker_rows = on|off; on needs a metric with per-producer counts. */
static void bind_worker_rows(const struct workload *wl, const struct spec_entry *e,
			     struct report_opts *rep)
{
	static const struct param_def def = { .name = "worker_rows", .type = PT_BOOL,
					      .def = "off" };
	long long on = rep->worker_rows;
	int errors = diag_error_count();

	bind_scalar(&def, e, &on);
	if (diag_error_count() != errors)
		return;
	if (on && wl_thread_metric(wl) < 0) {
		diag_at(&e->val_loc, "worker_rows needs a per-thread metric, and workload '%s' "
			"has none", wl->name);
		return;
	}
	rep->worker_rows = on;
}

static void bind_group(const struct workload *wl, const struct spec_entry *e,
		       struct report_opts *rep)
{
	if (!e->value[0]) {
		diag_at(&e->val_loc, "missing value for 'group'");
		return;
	}
	rep->group = bind_param_name(wl, e->value, strlen(e->value), &e->val_loc, false);
}

/* logx = auto|on|off; a wrong value is reported and leaves rep->logx as it was. */
static void bind_logx(const struct spec_entry *e, struct report_opts *rep)
{
	int i = bind_list_index(plot_logx_names, e->value);

	if (i < 0)
		diag_at(&e->val_loc, "logx must be auto, on or off, not '%s'", e->value);
	else
		rep->logx = i;
}

/* Up to max whitespace-separated words of text, with their offsets. */
static int split_words(const char *text, const char **w, size_t *len, int max)
{
	int n = 0;

	for (const char *p = text; *p;) {
		size_t l;

		p += strspn(p, " \t");
		l = strcspn(p, " \t");
		if (!l)
			break;
		if (n == max)
			return max + 1;
		w[n] = p;
		len[n++] = l;
		p += l;
	}
	return n;
}

static bool word_is(const char *w, size_t len, const char *s)
{
	return strlen(s) == len && !strncmp(w, s, len);
}

/* "X vs Y" or "X vs Y by Z". */
static void bind_plot(const struct workload *wl, const struct spec_entry *e,
		      struct report_opts *rep)
{
	const char *w[5];
	size_t len[5];
	struct plot_req pr = { .by = -1 };
	struct loc at[5];
	int n = split_words(e->value, w, len, 5);

	if (rep->nr_plots == MAX_PLOTS) {
		diag_at(&e->key_loc, "too many plots (at most %d)", MAX_PLOTS);
		return;
	}
	if ((n != 3 && n != 5) || !word_is(w[1], len[1], "vs") ||
	    (n == 5 && !word_is(w[3], len[3], "by"))) {
		diag_at(&e->val_loc, "expected 'X vs Y' or 'X vs Y by Z'");
		return;
	}
	for (int i = 0; i < n; i++)
		at[i] = loc_plus(&e->val_loc, w[i] - e->value);
	pr.x = bind_param_name(wl, w[0], len[0], &at[0], false);
	pr.y = plot_per_run(wl, w[2], len[2], &pr.per_run);
	if (!pr.per_run)
		pr.y = bind_metric_name(wl, w[2], len[2], &at[2]);
	if (n == 5)
		pr.by = bind_param_name(wl, w[4], len[4], &at[4], false);
	if (pr.x >= 0 && pr.y >= 0 && (n == 3 || pr.by >= 0))
		rep->plots[rep->nr_plots++] = pr;
}

/*
 * "baseline = PARAM=VALUE": the parameter and its value, checked against
 * the parameter's type here and against the experiment's axis by
 * report_check_baseline(); "baseline =" asks for none (a [params] override).
 */
static void bind_baseline(const struct workload *wl, const struct spec_entry *e,
			  struct report_opts *rep)
{
	const char *v = e->value, *eq = strchr(v, '=');
	struct baseline_ref ref = { .on = true, .loc = e->val_loc };
	char err[256];
	struct loc at;

	rep->baseline = (struct baseline_ref){ 0 };
	rep->baseline_bad = true;
	if (!v[0]) {
		rep->baseline_bad = false;
		return;
	}
	if (!eq || eq == v || !eq[1]) {
		diag_at(&e->val_loc, "expected 'baseline = PARAM=VALUE', as in overwrite=off");
		return;
	}
	ref.param = bind_param_name(wl, v, eq - v, &e->val_loc, false);
	if (ref.param < 0)
		return;
	at = loc_plus(&e->val_loc, eq + 1 - v);
	if (param_parse_scalar(&wl->params[ref.param], eq + 1, strlen(eq + 1),
			       &ref.val, err, sizeof(err))) {
		diag_at(&at, "baseline value of '%s': %s", wl->params[ref.param].name, err);
		return;
	}
	ref.loc = at;
	rep->baseline = ref;
	rep->baseline_bad = false;
}

bool bind_report_entry(const struct workload *wl, const struct spec_entry *e,
		       struct report_opts *rep)
{
	switch (bind_list_index(spec_report_keys, e->key)) {
	case RK_LABEL:
		check_label(wl, e);
		/* "label =" asks for the default label, e.g. in a [params] override */
		rep->label = e->value[0] ? e->value : NULL;
		return true;
	case RK_VALUES:
		check_values(wl, e);
		/* likewise "values =": the workload's own row */
		rep->values = e->value[0] ? e->value : NULL;
		rep->values_loc = e->val_loc;
		return true;
	case RK_BASELINE:
		bind_baseline(wl, e, rep);
		return true;
	case RK_WORKER_ROWS:
		bind_worker_rows(wl, e, rep);
		return true;
	case RK_GROUP:
		bind_group(wl, e, rep);
		return true;
	case RK_PLOT:
		bind_plot(wl, e, rep);
		return true;
	case RK_LOGX:
		bind_logx(e, rep);
		return true;
	default:
		return false;
	}
}

void bind_report_entries(const struct workload *wl, const struct spec_section *sec,
			 struct report_opts *rep)
{
	for (int i = 0; sec && i < sec->nr_entries; i++) {
		const struct spec_entry *e = &sec->entries[i];

		if (!bind_report_entry(wl, e, rep))
			bind_unknown_key(e, "report", spec_report_keys);
	}
}

/* Is the baseline's value one that x's axis of its parameter takes? */
static bool axis_has(const struct axis *ax, long long v)
{
	for (int i = 0; i < ax->nr_vals; i++)
		if (ax->vals[i] == v)
			return true;
	return false;
}

/* Does the values template use a field relative to the baseline?  Where, into *at. */
static bool values_need_baseline(const struct workload *wl, const char *v, size_t *at)
{
	const char *open, *close;
	struct metric_field f;
	char why[256];
	size_t off;

	for (open = strchr(v, '{'); open; open = strchr(close + 1, '{')) {
		close = strchr(open + 1, '}');
		if (!close)
			return false;
		if (metric_field_parse(wl, open + 1, close - open - 1, &f, &off, why, sizeof(why)))
			continue;
		if (metric_field_needs_baseline(&f)) {
			*at = open + 1 - v;
			return true;
		}
	}
	return false;
}

/* No axis may follow the baseline's parameter or be followed by it (bind_report.h). */
void report_check_baseline(const struct workload *wl, const struct experiment *x,
			   const struct report_opts *rep)
{
	const struct baseline_ref *ref = &rep->baseline;
	const struct axis *ax;
	char text[128];
	size_t at;

	if (!ref->on) {
		if (!rep->baseline_bad && rep->values && values_need_baseline(wl, rep->values, &at)) {
			struct loc l = loc_plus(&rep->values_loc, at);

			diag_at(&l, "this field is relative to a baseline, and experiment '%s' has "
				"none: add 'baseline = PARAM=VALUE' to [report]", x->title);
		}
		return;
	}
	ax = experiment_axis(x, ref->param);
	param_format(&wl->params[ref->param], ref->val, text, sizeof(text));
	if (ax->linked) {
		diag_at(&ref->loc, "baseline parameter '%s' follows '%s' in experiment '%s': "
			"a baseline needs an axis of its own", wl->params[ref->param].name,
			wl->params[ax->link].name, x->title);
		return;
	}
	for (int a = 0; a < x->nr_axes; a++) {
		if (!x->axes[a].linked || x->axes[a].link != ref->param)
			continue;
		diag_at(&ref->loc, "'%s' follows baseline parameter '%s' in experiment '%s': "
			"a point and its baseline would differ in both",
			wl->params[x->axes[a].param].name, wl->params[ref->param].name, x->title);
		return;
	}
	if (!axis_has(ax, ref->val))
		diag_at(&ref->loc, "baseline %s=%s is not a point of experiment '%s': '%s' "
			"takes other values there", wl->params[ref->param].name, text, x->title,
			wl->params[ref->param].name);
}

int report_apply(struct experiment *x, const struct report_opts *rep)
{
	x->baseline = rep->baseline;
	x->group = rep->group;
	x->logx = rep->logx;
	x->nr_plots = rep->nr_plots;
	memcpy(x->plots, rep->plots, sizeof(x->plots));
	x->worker_rows = rep->worker_rows;
	if (rep->values) {
		x->values = strdup(rep->values);
		if (!x->values)
			return -ENOMEM;
	}
	if (!rep->label)
		return 0;
	x->label = strdup(rep->label);
	return x->label ? 0 : -ENOMEM;
}
