// SPDX-License-Identifier: GPL-2.0
/*
 * Binding: the syntax tree of a spec, checked against the workload's
 * parameter table, becomes a typed sweep configuration.  Every mistake is
 * reported at the file:line:col of the text that made it, and binding goes
 * on after one so that a single run of `check` shows them all.
 *
 * Functions here return 0 or -ENOMEM; errors in the spec are counted by
 * diag.c, and bind_spec() turns any into -EINVAL at the end.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"
#include "diag.h"
#include "exec.h"
#include "metric.h"
#include "param.h"
#include "precision.h"
#include "progrun.h"
#include "quality.h"
#include "suggest.h"
#include "timing.h"

#define NSEC_PER_SEC	1000000000ULL
#define NSEC_PER_MSEC	1000000ULL

/* [exec] and [param "NAME"] are exec_bind.c's (workload = exec) */
static const char *const section_names[] = { "sweep", "report", "params", "exec", "param", NULL };

static const struct param_def repeat_def = {
	.name = "repeat", .type = PT_INT, .def = "1", .min = 1, .max = 1000000,
};
static const struct param_def affinity_def = { .name = "affinity", .type = PT_BOOL, .def = "off" };
static const struct param_def max_cv_def = {
	.name = "max_cv", .type = PT_INT, .def = "10", .min = 0, .max = 1000,
};
static const struct param_def retry_noisy_def = {
	.name = "retry_noisy", .type = PT_INT, .def = "0", .min = 0, .max = 100,
};
static const struct param_def bpf_stats_def = { .name = "bpf_stats", .type = PT_BOOL, .def = "on" };
static const struct param_def max_repeat_def = {
	.name = "max_repeat", .type = PT_INT, .def = "20", .min = 1, .max = 1000000,
};

/* What [report] says, and what one [params] section makes of it. */
struct report_opts {
	const char *label;	/* into the spec; NULL when absent */
	const char *values;	/* likewise */
	struct loc values_loc;
	bool worker_rows;
	struct baseline_ref baseline;
	bool baseline_bad;	/* reported: say nothing more of it */
	int group;
	struct plot_req plots[MAX_PLOTS];
	int nr_plots;
	enum plot_logx logx;
};

const char *const plot_logx_names[] = { "auto", "on", "off", NULL };

struct binder {
	const struct spec *s;
	struct sweep_cfg *cfg;
	const struct spec_section *sweep, *report;
	/* keys of --set parameters already reported (see set_failed()) */
	const char *failed_sets[WL_MAX_PARAMS];
	int nr_failed_sets;
	long long nr_points;	/* of the experiments bound so far */
	bool too_many_points;	/* reported: bind no more experiments */
	bool is_exec;		/* workload = exec: the spec declares it (exec.h) */
};

/* A list of values being built, with the column of the item each came from. */
struct vals {
	long long *v;
	int *col;
	int n, cap;
};

static int list_index(const char *const *list, const char *word)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(list[i], word))
			return i;
	return -1;
}

/* Look a parameter up, or report it with a suggestion and return -1. */
static int lookup_param(const struct binder *b, const char *name, size_t len,
			const struct loc *at, bool with_report_keys)
{
	const struct workload *wl = b->cfg->wl;
	char word[128], hint[640];
	struct suggest sg;

	snprintf(word, sizeof(word), "%.*s", (int)len, name);
	for (int i = 0; i < wl->nr_params; i++)
		if (strlen(wl->params[i].name) == len && !strncmp(wl->params[i].name, name, len))
			return i;
	suggest_init(&sg, word);
	for (int i = 0; i < wl->nr_params; i++)
		suggest_add(&sg, wl->params[i].name);
	for (int i = 0; with_report_keys && spec_report_keys[i]; i++)
		suggest_add(&sg, spec_report_keys[i]);
	diag_at(at, "unknown parameter '%s' for workload '%s'%s", word, wl->name,
		suggest_hint_or_list(&sg, hint, sizeof(hint)));
	return -1;
}

/* A metric of a chart's y; ns_per_run (plot_per_run()) is one more choice where it exists. */
static int lookup_metric(const struct binder *b, const char *name, size_t len,
			 const struct loc *at)
{
	const struct workload *wl = b->cfg->wl;
	char word[128], hint[640];
	struct suggest sg;
	int runs, ns;

	snprintf(word, sizeof(word), "%.*s", (int)len, name);
	suggest_init(&sg, word);
	for (int i = 0; i < wl->nr_metrics; i++) {
		if (!strcmp(wl->metrics[i].name, word))
			return i;
		suggest_add(&sg, wl->metrics[i].name);
	}
	if (prog_metrics(wl, &runs, &ns))
		suggest_add(&sg, "ns_per_run");
	diag_at(at, "unknown metric '%s' for workload '%s'%s", word, wl->name,
		suggest_hint_or_list(&sg, hint, sizeof(hint)));
	return -1;
}

/*
 * "ns_per_run" on a chart's y, as summary.csv names it, for a workload
 * with the kernel's program counters: the prog_ns metric, per run.
 */
static int plot_per_run(const struct binder *b, const char *name, size_t len, bool *per_run)
{
	int runs, ns;

	*per_run = len == strlen("ns_per_run") && !strncmp(name, "ns_per_run", len) &&
		   prog_metrics(b->cfg->wl, &runs, &ns);
	return *per_run ? ns : -1;
}

static void unknown_key(const struct spec_entry *e, const char *section,
			const char *const *keys)
{
	char hint[640];
	struct suggest sg;

	suggest_init(&sg, e->key);
	for (; *keys; keys++)
		suggest_add(&sg, *keys);
	diag_at(&e->key_loc, "unknown key '%s' in [%s]%s", e->key, section,
		suggest_hint_or_list(&sg, hint, sizeof(hint)));
}

/* Which section is which: [sweep] once, [report] at most once, [params] any number. */
static void find_sections(struct binder *b)
{
	const struct spec_section **seen;
	char name[160], hint[200], names[512];
	bool misspelt_sweep = false;
	const char *best;

	for (int i = 0; i < b->s->nr_sections; i++) {
		const struct spec_section *sec = &b->s->sections[i];

		switch (list_index(section_names, sec->name)) {
		case 0:
			seen = &b->sweep;
			break;
		case 1:
			seen = &b->report;
			break;
		case 2:
		case 3:
		case 4:
			continue;
		default:
			best = suggest_list(sec->name, section_names);
			misspelt_sweep |= best == section_names[0];
			snprintf(name, sizeof(name), "[%s]", best ? best : "");
			diag_at(&sec->loc, "unknown section '[%s]'%s", sec->name,
				best ? suggest_hint(hint, sizeof(hint), name) :
				" (expected [sweep], [report] or [params])");
			continue;
		}
		if (*seen) {
			diag_at(&sec->loc, "duplicate section '[%s]' (first at line %d)",
				sec->name, (*seen)->loc.line);
			continue;
		}
		if (sec->arg)
			diag_at(&sec->loc, "section '[%s]' takes no argument", sec->name);
		*seen = sec;
	}
	/* a misspelt [sweep] was said already, with the fix */
	if (!b->sweep && !misspelt_sweep) {
		struct loc top = { b->s->path, 1, 1 };

		workload_names(names, sizeof(names));
		diag_at(&top, "missing [sweep] section: start the spec with '[sweep]' and "
			"'workload = NAME' (NAME: %s)", names);
	}
}

/* "1.5s", "250ms", "100us", "20ns": digits, an optional fraction, a unit. */
int parse_duration(const char *text, uint64_t *ns, char *err, size_t errlen)
{
	static const char *const units[] = { "ns", "us", "ms", "s", NULL };
	static const uint64_t mult[] = { 1, 1000, NSEC_PER_MSEC, NSEC_PER_SEC };
	uint64_t whole = 0, frac = 0, scale = 1;
	const char *p = text;
	int u;

	if (*p < '0' || *p > '9')
		goto invalid;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			goto too_long;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			goto invalid;
		/* Digits past nanoseconds cannot matter; they are dropped. */
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale < NSEC_PER_SEC) {
				frac = frac * 10 + (*p - '0');
				scale *= 10;
			}
		}
	}
	if (!*p) {
		snprintf(err, errlen, "missing unit in duration '%s' (use s or ms)", text);
		return -EINVAL;
	}
	u = list_index(units, p);
	if (u < 0) {
		snprintf(err, errlen, "unknown unit '%s' in duration '%s' (use ns, us, ms or s)",
			 p, text);
		return -EINVAL;
	}
	if (whole > (UINT64_MAX - NSEC_PER_SEC) / mult[u])
		goto too_long;
	*ns = whole * mult[u] + frac * mult[u] / scale;
	return 0;

invalid:
	snprintf(err, errlen, "invalid duration '%s'", text);
	return -EINVAL;
too_long:
	snprintf(err, errlen, "duration '%s' is too long", text);
	return -EINVAL;
}

static void bind_duration(const struct spec_entry *e, uint64_t *ns)
{
	char err[256];

	if (parse_duration(e->value, ns, err, sizeof(err)))
		diag_at(&e->val_loc, "%s", err);
}

/*
 * A warmup (0 allowed) or duration: the sampler cuts it into intervals
 * (timing.c), none shorter than 10ms, so a shorter span cannot be
 * measured as asked.
 */
static void bind_span(const struct spec_entry *e, uint64_t *ns, bool may_be_0)
{
	bind_duration(e, ns);
	if (!*ns && !may_be_0)
		diag_at(&e->val_loc, "%s must be positive", e->key);
	else if (*ns && *ns < TIMING_MIN_INTERVAL_NS)
		diag_at(&e->val_loc, "%s %s is below 10ms, the shortest interval the sampler "
			"takes%s", e->key, e->value, may_be_0 ? " (0 for none)" : "");
}

void bind_scalar(const struct param_def *def, const struct spec_entry *e, long long *v)
{
	char err[256];

	if (param_parse_scalar(def, e->value, strlen(e->value), v, err, sizeof(err)))
		diag_at(&e->val_loc, "%s", err);
}

/* An int setting: keeps *out when the value is wrong (reported). */
static void bind_int(const struct param_def *def, const struct spec_entry *e, int *out)
{
	long long v = *out;

	bind_scalar(def, e, &v);
	*out = v;
}

static void bind_workload(struct binder *b, const struct spec_entry *e)
{
	char hint[640];

	b->is_exec = !strcmp(e->value, EXEC_WORKLOAD);
	b->cfg->wl = workload_find(e->value);
	if (!b->cfg->wl && !b->is_exec)
		diag_at(&e->val_loc, "unknown workload '%s'%s", e->value,
			workload_hint(e->value, hint, sizeof(hint)));
}

static void bind_sweep_entry(struct binder *b, const struct spec_entry *e, const char **title)
{
	struct sweep_cfg *cfg = b->cfg;
	int key = list_index(spec_sweep_keys, e->key);
	char err[256];
	long long v;

	if (key >= 0 && kernel_axis_bind(&cfg->kernels, key, e))
		return;
	switch (key) {
	case SK_TITLE:
		*title = e->value;
		break;
	case SK_WORKLOAD:
		bind_workload(b, e);
		break;
	case SK_WARMUP:
		bind_span(e, &cfg->warmup_ns, true);
		break;
	case SK_DURATION:
		bind_span(e, &cfg->duration_ns, false);
		break;
	case SK_INTERVAL:
		bind_duration(e, &cfg->interval_ns);
		if (cfg->interval_ns < TIMING_MIN_INTERVAL_NS)
			diag_at(&e->val_loc, "interval %s is below the minimum of 10ms", e->value);
		break;
	case SK_REPEAT:
		bind_int(&repeat_def, e, &cfg->repeat);
		break;
	case SK_AFFINITY:
		v = cfg->affinity;
		bind_scalar(&affinity_def, e, &v);
		cfg->affinity = v;
		break;
	case SK_MAX_CV:
		bind_int(&max_cv_def, e, &cfg->max_cv);
		break;
	case SK_RETRY_NOISY:
		bind_int(&retry_noisy_def, e, &cfg->retry_noisy);
		break;
	case SK_BPF_STATS:
		v = cfg->bpf_stats;
		bind_scalar(&bpf_stats_def, e, &v);
		cfg->bpf_stats = v;
		break;
	case SK_PRECISION:
		if (precision_parse(e->value, &cfg->precision_pct, err, sizeof(err)))
			diag_at(&e->val_loc, "%s", err);
		break;
	case SK_MAX_REPEAT:
		bind_int(&max_repeat_def, e, &cfg->max_repeat);
		break;
	case SK_MAX_TIME:
		bind_duration(e, &cfg->max_time_ns);
		break;
	default:
		unknown_key(e, "sweep", spec_sweep_keys);
		break;
	}
}

static int bind_sweep(struct binder *b)
{
	const char *title = NULL;
	bool has_workload = false;

	for (int i = 0; i < b->sweep->nr_entries; i++) {
		const struct spec_entry *e = &b->sweep->entries[i];

		has_workload |= !strcmp(e->key, "workload");
		bind_sweep_entry(b, e, &title);
	}
	if (!has_workload) {
		char names[512];

		workload_names(names, sizeof(names));
		diag_at(&b->sweep->loc, "missing key 'workload' in [sweep]: add 'workload = NAME' "
			"(NAME: %s)", names);
	}
	if (b->cfg->wl)
		exec_sections_unused(b->s);
	/* after the whole [sweep]: the timing is the program's too */
	if (b->is_exec) {
		int err = exec_bind(b->s, b->cfg, &b->cfg->own_wl);

		if (err && err != -EINVAL)
			return err;
		b->cfg->wl = b->cfg->own_wl;
	}
	b->cfg->title = strdup(title && *title ? title : b->cfg->name);
	return b->cfg->title ? 0 : -ENOMEM;
}

/* Every {name} and {name?text} of a label must name a parameter. */
static void check_label(const struct binder *b, const struct spec_entry *e)
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
		lookup_param(b, open + 1, (q ? q : close) - open - 1, &at, false);
	}
}

/* Every {field} of a values template must be a metric[.stat][:unit] of the workload. */
static void check_values(const struct binder *b, const struct spec_entry *e)
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
		if (!metric_field_parse(b->cfg->wl, open + 1, close - open - 1, &f, &off, why,
					sizeof(why)))
			continue;
		at = loc_plus(&e->val_loc, open + 1 + off - v);
		diag_at(&at, "%s", why);
	}
}

/* worker_rows = on|off; on needs a metric with per-producer counts. */
static void bind_worker_rows(const struct binder *b, const struct spec_entry *e,
			     struct report_opts *rep)
{
	static const struct param_def def = { .name = "worker_rows", .type = PT_BOOL,
					      .def = "off" };
	long long on = rep->worker_rows;
	int errors = diag_error_count();

	bind_scalar(&def, e, &on);
	if (diag_error_count() != errors)
		return;
	if (on && wl_thread_metric(b->cfg->wl) < 0) {
		diag_at(&e->val_loc, "worker_rows needs a per-thread metric, and workload '%s' "
			"has none", b->cfg->wl->name);
		return;
	}
	rep->worker_rows = on;
}

static void bind_group(const struct binder *b, const struct spec_entry *e,
		       struct report_opts *rep)
{
	if (!e->value[0]) {
		diag_at(&e->val_loc, "missing value for 'group'");
		return;
	}
	rep->group = lookup_param(b, e->value, strlen(e->value), &e->val_loc, false);
}

/* logx = auto|on|off; a wrong value is reported and leaves rep->logx as it was. */
static void bind_logx(const struct spec_entry *e, struct report_opts *rep)
{
	int i = list_index(plot_logx_names, e->value);

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
static void bind_plot(const struct binder *b, const struct spec_entry *e,
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
	pr.x = lookup_param(b, w[0], len[0], &at[0], false);
	pr.y = plot_per_run(b, w[2], len[2], &pr.per_run);
	if (!pr.per_run)
		pr.y = lookup_metric(b, w[2], len[2], &at[2]);
	if (n == 5)
		pr.by = lookup_param(b, w[4], len[4], &at[4], false);
	if (pr.x >= 0 && pr.y >= 0 && (n == 3 || pr.by >= 0))
		rep->plots[rep->nr_plots++] = pr;
}

/*
 * "baseline = PARAM=VALUE": the parameter and its value, checked against
 * the parameter's type here and against the experiment's axis by
 * check_baseline(); "baseline =" asks for none (a [params] override).
 */
static void bind_baseline(const struct binder *b, const struct spec_entry *e,
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
	ref.param = lookup_param(b, v, eq - v, &e->val_loc, false);
	if (ref.param < 0)
		return;
	at = loc_plus(&e->val_loc, eq + 1 - v);
	if (param_parse_scalar(&b->cfg->wl->params[ref.param], eq + 1, strlen(eq + 1),
			       &ref.val, err, sizeof(err))) {
		diag_at(&at, "baseline value of '%s': %s", b->cfg->wl->params[ref.param].name,
			err);
		return;
	}
	ref.loc = at;
	rep->baseline = ref;
	rep->baseline_bad = false;
}

/*
 * label, values, worker_rows, baseline, group, plot or logx, in [report]
 * or a [params] override; false for other keys.
 */
static bool bind_report_entry(const struct binder *b, const struct spec_entry *e,
			      struct report_opts *rep)
{
	switch (list_index(spec_report_keys, e->key)) {
	case RK_LABEL:
		check_label(b, e);
		/* "label =" asks for the default label, e.g. in a [params] override */
		rep->label = e->value[0] ? e->value : NULL;
		return true;
	case RK_VALUES:
		check_values(b, e);
		/* likewise "values =": the workload's own row */
		rep->values = e->value[0] ? e->value : NULL;
		rep->values_loc = e->val_loc;
		return true;
	case RK_BASELINE:
		bind_baseline(b, e, rep);
		return true;
	case RK_WORKER_ROWS:
		bind_worker_rows(b, e, rep);
		return true;
	case RK_GROUP:
		bind_group(b, e, rep);
		return true;
	case RK_PLOT:
		bind_plot(b, e, rep);
		return true;
	case RK_LOGX:
		bind_logx(e, rep);
		return true;
	default:
		return false;
	}
}

static void bind_report(const struct binder *b, struct report_opts *rep)
{
	for (int i = 0; b->report && i < b->report->nr_entries; i++) {
		const struct spec_entry *e = &b->report->entries[i];

		if (!bind_report_entry(b, e, rep))
			unknown_key(e, "report", spec_report_keys);
	}
}

static int vals_push(struct vals *vs, long long v, int col)
{
	if (vs->n == vs->cap) {
		int cap = vs->cap ? 2 * vs->cap : 8;
		long long *nv = realloc(vs->v, cap * sizeof(*nv));
		int *nc;

		if (!nv)
			return -ENOMEM;
		vs->v = nv;
		nc = realloc(vs->col, cap * sizeof(*nc));
		if (!nc)
			return -ENOMEM;
		vs->col = nc;
		vs->cap = cap;
	}
	vs->v[vs->n] = v;
	vs->col[vs->n++] = col;
	return 0;
}

/* Parse text[0..len) at column at->col; false after reporting an error. */
static bool parse_at(const struct param_def *p, const char *text, size_t len,
		     const struct loc *at, long long *v)
{
	char err[512];

	if (!param_parse_scalar(p, text, len, v, err, sizeof(err)))
		return true;
	diag_at(at, "%s", err);
	return false;
}

/* Offset of the first ".." in t[0..len), or len. */
static size_t find_dots(const char *t, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++)
		if (t[i] == '.' && t[i + 1] == '.')
			return i;
	return len;
}

/* The pieces of "a..b", "a..b:s" or "a..b*f", as offsets into the item. */
struct range {
	const char *t;
	size_t len;
	size_t b_off, s_off;	/* s_off == 0: no step or factor */
	char op;		/* ':', '*' or 0 */
	long long a, b, s;
};

/* What a range may look like, for errors that are about its shape. */
#define RANGE_FORMS	"expected a..b, a..b:s or a..b*f, as in 1..52, 8..52:4 or 1..64*2"

static void range_error(const struct range *r, const struct loc *at, const char *why)
{
	diag_at(at, "invalid range '%.*s': %s", (int)r->len, r->t, why);
}

/*
 * A piece of a range that is no scalar: a misspelt number ("64KB") is the
 * scalar's error, one with other punctuation ("52;4", ".100" of "1...100")
 * a range of the wrong shape, which the forms explain.
 */
static bool range_piece_ok(const struct range *r, const char *piece, size_t len,
			   const struct loc *at)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = piece[i];

		if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z') &&
		    !(c >= 'A' && c <= 'Z') && !(i == 0 && c == '-')) {
			range_error(r, at, RANGE_FORMS);
			return false;
		}
	}
	return true;
}

/* Parse and check the three numbers of a range; false after an error. */
static bool range_numbers(const struct param_def *p, struct range *r, const struct loc *at)
{
	/* The step counts in the parameter's unit but is no value of it: no bounds. */
	struct param_def step = { .name = p->name, .type = r->op == '*' ? PT_INT : p->type };
	struct loc bl = loc_plus(at, r->b_off), sl = loc_plus(at, r->s_off);
	size_t b_len = (r->op ? r->s_off - 1 : r->len) - r->b_off;
	bool ok;

	if (!range_piece_ok(r, r->t, r->b_off - 2, at) ||
	    !range_piece_ok(r, r->t + r->b_off, b_len, at) ||
	    (r->op && !range_piece_ok(r, r->t + r->s_off, r->len - r->s_off, at)))
		return false;
	ok = parse_at(p, r->t, r->b_off - 2, at, &r->a);
	ok &= parse_at(p, r->t + r->b_off, b_len, &bl, &r->b);
	r->s = 1;
	if (r->op)
		ok &= parse_at(&step, r->t + r->s_off, r->len - r->s_off, &sl, &r->s);
	if (!ok)
		return false;
	/* a zero word ("all") is no number to count from or to */
	if (p->zero_word && (!r->a || !r->b))
		range_error(r, r->a ? &bl : at, "a range takes numbers");
	else if (r->a > r->b)
		range_error(r, at, "start above end");
	else if (r->op == '*' && r->s < 2)
		range_error(r, &sl, "factor must be at least 2");
	else if (r->op == '*' && r->a <= 0)
		range_error(r, at, "a range with a factor must start above 0");
	else if (r->op != '*' && r->s <= 0)
		range_error(r, &sl, "step must be positive");
	else
		return true;
	return false;
}

/* How many values a checked range holds, without making them. */
static unsigned long long range_count(const struct range *r)
{
	unsigned long long n = 1;

	if (r->op != '*') {
		n = ((unsigned long long)r->b - r->a) / r->s;
		return n == ULLONG_MAX ? n : n + 1;
	}
	for (long long v = r->a; v <= r->b / r->s; v *= r->s)
		n++;
	return n;
}

/*
 * The cap on the values of one parameter, checked before an item adds
 * them: past it, a spec is a typo (0..100000000), not a sweep to run.
 * Returns -E2BIG after reporting, to end the list.
 */
static int check_axis_cap(const struct param_def *p, const struct vals *vs,
			  unsigned long long more, const struct loc *at)
{
	if (more <= (unsigned long long)(BIND_MAX_AXIS_VALS - vs->n))
		return 0;
	diag_at(at, "too many values for '%s': more than %d, the most one parameter may have",
		p->name, BIND_MAX_AXIS_VALS);
	return -E2BIG;
}

static int range_expand(const struct range *r, int col, struct vals *vs)
{
	long long v = r->a;

	for (;;) {
		if (vals_push(vs, v, col))
			return -ENOMEM;
		/* Stop before stepping past b, or past what a long long holds. */
		if (r->op == '*' ? v > r->b / r->s :
				   (unsigned long long)r->b - v < (unsigned long long)r->s)
			return 0;
		v = r->op == '*' ? v * r->s : v + r->s;
	}
}

static int parse_range(const struct param_def *p, const char *t, size_t len,
		       const struct loc *at, struct vals *vs)
{
	struct range r = { .t = t, .len = len };
	size_t i;

	if (p->type != PT_INT && p->type != PT_SIZE) {
		diag_at(at, "ranges need a numeric parameter");
		return 0;
	}
	r.b_off = find_dots(t, len) + 2;
	for (i = r.b_off; i < len && !r.op; i++)
		if (t[i] == ':' || t[i] == '*')
			r.op = t[i];
	r.s_off = r.op ? i : 0;
	if (r.b_off == 2 || r.b_off == len || r.s_off == r.b_off + 1 || r.s_off == len) {
		range_error(&r, at, RANGE_FORMS);
		return 0;
	}
	if (!range_numbers(p, &r, at))
		return 0;
	if (check_axis_cap(p, vs, range_count(&r), at))
		return -E2BIG;
	return range_expand(&r, at->col, vs);
}

/* Items of a value list are separated by blanks and/or commas. */
static int parse_items(const struct param_def *p, const struct spec_entry *e,
		       struct vals *vs)
{
	const char *v = e->value, *sep = " \t,";
	size_t off = 0, len;
	long long x;
	int err;

	for (off = strspn(v, sep); v[off]; off += len + strspn(v + off + len, sep)) {
		struct loc at = loc_plus(&e->val_loc, off);

		len = strcspn(v + off, sep);
		if (find_dots(v + off, len) < len) {
			err = parse_range(p, v + off, len, &at, vs);
		} else {
			if (!parse_at(p, v + off, len, &at, &x))
				continue;
			err = check_axis_cap(p, vs, 1, &at);
			if (!err)
				err = vals_push(vs, x, at.col);
		}
		/* Past the cap, every later item would say so again. */
		if (err)
			return err == -E2BIG ? 0 : err;
	}
	return 0;
}

struct ordered {
	long long v;
	int i;
};

static int cmp_ordered(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->i - y->i;
}

/* Report each item holding a value seen before it, once per item. */
static int check_duplicates(const struct param_def *p, const struct spec_entry *e,
			    const struct vals *vs)
{
	struct ordered *o = malloc(vs->n * sizeof(*o));
	bool *dup = calloc(vs->n, sizeof(*dup));
	int last_col = 0;

	if (!o || !dup) {
		free(o);
		free(dup);
		return -ENOMEM;
	}
	for (int i = 0; i < vs->n; i++)
		o[i] = (struct ordered){ vs->v[i], i };
	qsort(o, vs->n, sizeof(*o), cmp_ordered);
	for (int i = 1; i < vs->n; i++)
		dup[o[i].i] = o[i].v == o[i - 1].v;
	for (int i = 0; i < vs->n; i++) {
		struct loc at = loc_plus(&e->val_loc, vs->col[i] - e->val_loc.col);
		char buf[128];

		if (!dup[i] || vs->col[i] == last_col)
			continue;
		last_col = vs->col[i];
		param_format(p, vs->v[i], buf, sizeof(buf));
		diag_at(&at, "duplicate value '%s' for '%s'", buf, p->name);
	}
	free(o);
	free(dup);
	return 0;
}

/* "{name}": the value is another parameter's, point by point. */
static bool is_link(const char *v)
{
	size_t len = strlen(v);

	return len > 2 && v[0] == '{' && v[len - 1] == '}';
}

static int bind_link(const struct binder *b, const struct spec_entry *e, struct axis *ax)
{
	struct loc at = loc_plus(&e->val_loc, 1);

	ax->linked = true;
	ax->link = lookup_param(b, e->value + 1, strlen(e->value) - 2, &at, false);
	ax->nr_vals = 1;
	ax->vals = calloc(1, sizeof(*ax->vals));
	return ax->vals ? 0 : -ENOMEM;
}

/* The values of one [params] entry into ax. */
static int bind_axis(const struct binder *b, const struct param_def *p,
		     const struct spec_entry *e, struct axis *ax)
{
	struct vals vs = { 0 };
	int before = diag_error_count();
	int err;

	ax->loc = e->val_loc;
	/* The tree may be freed before the configuration: point at our copy. */
	if (ax->loc.file == b->s->path)
		ax->loc.file = b->cfg->spec_path;
	if (is_link(e->value))
		return bind_link(b, e, ax);
	err = parse_items(p, e, &vs);

	if (!err && !vs.n && diag_error_count() == before)
		diag_at(&e->val_loc, "missing value for '%s'", p->name);
	if (!err && vs.n)
		err = check_duplicates(p, e, &vs);
	free(vs.col);
	/* A wrong list is reported, not kept: a spec of many holds no memory. */
	if (diag_error_count() != before) {
		free(vs.v);
		vs = (struct vals){ 0 };
	}
	ax->vals = vs.v;
	ax->nr_vals = vs.n;
	return err;
}

static int default_axis(const struct workload *wl, int i, struct axis *ax)
{
	const struct param_def *p = &wl->params[i];
	char err[256];

	ax->param = i;
	ax->nr_vals = 1;
	ax->vals = malloc(sizeof(*ax->vals));
	if (!ax->vals)
		return -ENOMEM;
	if (param_parse_scalar(p, p->def, strlen(p->def), ax->vals, err, sizeof(err)))
		diag_err("workload '%s': bad default of '%s': %s", wl->name, p->name, err);
	return 0;
}

const char *experiment_title(const struct sweep_cfg *cfg, const struct experiment *e)
{
	if (e->title)
		return e->title;
	return cfg->title ? cfg->title : "";
}

const struct axis *experiment_axis(const struct experiment *e, int param)
{
	for (int a = 0; a < e->nr_axes; a++)
		if (e->axes[a].param == param)
			return &e->axes[a];
	return NULL;
}

/* Can a value of parameter `from` stand for one of `to`, as it is? */
static bool same_kind(const struct param_def *to, const struct param_def *from)
{
	bool num_to = to->type == PT_INT || to->type == PT_SIZE;
	bool num_from = from->type == PT_INT || from->type == PT_SIZE;

	if (num_to || num_from)
		return num_to && num_from;
	return to->type == from->type && to->choices == from->choices;
}

/* A linked axis needs a target of its kind whose every value fits its bounds. */
static void check_link(const struct workload *wl, const struct experiment *x,
		       const struct axis *ax)
{
	const struct param_def *to = &wl->params[ax->param], *from = &wl->params[ax->link];
	const struct axis *target = experiment_axis(x, ax->link);
	char err[256];

	if (target->linked) {
		diag_at(&ax->loc, "'%s' cannot follow '%s', which follows another parameter",
			to->name, from->name);
		return;
	}
	if (!same_kind(to, from)) {
		diag_at(&ax->loc, "'%s' cannot take the values of '%s': different types",
			to->name, from->name);
		return;
	}
	for (int i = 0; i < target->nr_vals; i++) {
		char text[64];

		param_format(from, target->vals[i], text, sizeof(text));
		if (param_parse_scalar(to, text, strlen(text), &(long long){ 0 }, err,
				       sizeof(err))) {
			diag_at(&ax->loc, "'%s' follows '%s': %s", to->name, from->name, err);
			return;
		}
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

/*
 * The baseline of x against its axes: its value must be one the
 * experiment runs, and only its parameter may differ between a point and
 * its baseline, so no axis may follow it or be followed by it.  A values
 * field relative to the baseline needs one.
 */
static void check_baseline(const struct binder *b, const struct experiment *x,
			   const struct report_opts *rep)
{
	const struct baseline_ref *ref = &rep->baseline;
	const struct workload *wl = b->cfg->wl;
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

static int set_report_opts(struct experiment *x, const struct report_opts *rep)
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

/* *dst becomes a copy of src (NULL: none); 0 or -ENOMEM. */
static int replace_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? strdup(src) : NULL;
	return !src || *dst ? 0 : -ENOMEM;
}

/* Is key given in sec? */
static bool has_key(const struct spec_section *sec, const char *key)
{
	for (int i = 0; sec && i < sec->nr_entries; i++)
		if (!strcmp(sec->entries[i].key, key))
			return true;
	return false;
}

int bind_report_section(const struct spec *s, const struct workload *wl, struct experiment *x)
{
	struct sweep_cfg cfg = { .wl = wl };
	struct binder b = { .s = s, .cfg = &cfg };
	struct report_opts rep = { .group = x->group, .worker_rows = x->worker_rows };
	int errors = diag_error_count(), err = 0;

	for (int i = 0; i < s->nr_sections; i++)
		if (!strcmp(s->sections[i].name, "report"))
			b.report = &s->sections[i];
	bind_report(&b, &rep);
	if (diag_error_count() != errors)
		return -EINVAL;
	x->group = rep.group;
	if (rep.nr_plots) {
		x->nr_plots = rep.nr_plots;
		memcpy(x->plots, rep.plots, sizeof(x->plots));
	}
	x->worker_rows = rep.worker_rows;
	if (has_key(b.report, "baseline"))
		x->baseline = rep.baseline;
	if (has_key(b.report, "values"))
		err = replace_str(&x->values, rep.values);
	if (!err && has_key(b.report, "label"))
		err = replace_str(&x->label, rep.label);
	return err;
}

/*
 * --set puts a parameter in every [params] section, so a bad one would be
 * reported once per experiment: remember which failed, and say it once.
 */
static bool set_failed(const struct binder *b, const char *key)
{
	for (int i = 0; i < b->nr_failed_sets; i++)
		if (!strcmp(b->failed_sets[i], key))
			return true;
	return false;
}

static void remember_failed_set(struct binder *b, const char *key, int errors)
{
	if (diag_error_count() != errors && b->nr_failed_sets < WL_MAX_PARAMS)
		b->failed_sets[b->nr_failed_sets++] = key;
}

/* The links of x; one that a --set made is checked once for all experiments. */
static void check_links(struct binder *b, const struct experiment *x)
{
	const struct workload *wl = b->cfg->wl;

	for (int a = 0; a < x->nr_axes; a++) {
		const struct axis *ax = &x->axes[a];
		const char *key = wl->params[ax->param].name;
		int errors = diag_error_count();

		if (!ax->linked || ax->link < 0 || (ax->loc.set && set_failed(b, key)))
			continue;
		check_link(wl, x, ax);
		if (ax->loc.set)
			remember_failed_set(b, key, errors);
	}
}

/* One workload parameter of a [params] section becomes the next axis of x. */
static int bind_param_entry(struct binder *b, const struct spec_entry *e,
			    struct experiment *x, bool *used)
{
	const struct workload *wl = b->cfg->wl;
	bool from_set = e->key_loc.set;
	int errors = diag_error_count(), p, err;

	if (from_set && set_failed(b, e->key))
		return 0;
	p = lookup_param(b, e->key, strlen(e->key), &e->key_loc, true);
	err = 0;
	if (p >= 0 && !used[p]) {
		used[p] = true;
		x->axes[x->nr_axes].param = p;
		err = bind_axis(b, &wl->params[p], e, &x->axes[x->nr_axes++]);
	}
	if (from_set)
		remember_failed_set(b, e->key, errors);
	return err;
}

/* The entries of one [params] section (NULL: none at all) into x. */
static int bind_entries(struct binder *b, const struct spec_section *sec,
			struct experiment *x, struct report_opts *rep, bool *used)
{
	bool own_plots = false;
	int err;

	for (int i = 0; sec && i < sec->nr_entries; i++) {
		const struct spec_entry *e = &sec->entries[i];

		/* A plot of the section replaces every plot of [report]. */
		if (!own_plots && !strcmp(e->key, "plot")) {
			own_plots = true;
			rep->nr_plots = 0;
		}
		if (bind_report_entry(b, e, rep))
			continue;
		err = bind_param_entry(b, e, x, used);
		if (err)
			return err;
	}
	return 0;
}

/*
 * The cap on points, counted before anything is expanded: a product of
 * axes within the cap times one more axis of at most BIND_MAX_AXIS_VALS
 * values fits a long long.  An axis without values (an error, already
 * reported) counts as one.  Reported at the axis that crosses the cap.
 */
static void count_points(struct binder *b, const struct experiment *x)
{
	long long n = 1;

	for (int a = 0; a < x->nr_axes; a++) {
		const struct axis *ax = &x->axes[a];
		const struct param_def *p = &b->cfg->wl->params[ax->param];

		n *= ax->nr_vals > 1 ? ax->nr_vals : 1;
		if (b->nr_points + n <= BIND_MAX_POINTS)
			continue;
		if (ax->nr_vals > 1)
			diag_at(&ax->loc, "'%s' takes the sweep past %d points, the most it may have",
				p->name, BIND_MAX_POINTS);
		else
			diag_at(&x->loc, "experiment '%s' takes the sweep past %d points, the most "
				"it may have", x->title, BIND_MAX_POINTS);
		b->too_many_points = true;
		return;
	}
	b->nr_points += n;
}

static int bind_experiment(struct binder *b, const struct spec_section *sec,
			   const struct report_opts *base, struct experiment *x)
{
	const struct workload *wl = b->cfg->wl;
	struct report_opts rep = *base;
	bool used[WL_MAX_PARAMS] = { 0 };
	const char *title = sec && sec->arg && *sec->arg ? sec->arg : b->cfg->title;
	int err;

	x->title = strdup(title);
	if (!x->title)
		return -ENOMEM;
	x->loc = sec ? sec->loc : b->sweep->loc;
	/* The tree may be freed before the configuration: point at our copy. */
	if (x->loc.file == b->s->path)
		x->loc.file = b->cfg->spec_path;
	err = bind_entries(b, sec, x, &rep, used);
	for (int i = 0; !err && i < wl->nr_params; i++)
		if (!used[i])
			err = default_axis(wl, i, &x->axes[x->nr_axes++]);
	if (!err) {
		check_links(b, x);
		check_baseline(b, x, &rep);
		count_points(b, x);
	}
	if (rep.baseline.loc.file == b->s->path)
		rep.baseline.loc.file = b->cfg->spec_path;
	return err ? err : set_report_opts(x, &rep);
}

static int bind_experiments(struct binder *b)
{
	const struct spec *s = b->s;
	struct report_opts rep = { .group = -1 };
	struct sweep_cfg *cfg = b->cfg;
	int n = 0, err = 0;

	if (cfg->wl->nr_params > WL_MAX_PARAMS) {
		diag_err("workload '%s' has more than %d parameters", cfg->wl->name,
			 WL_MAX_PARAMS);
		return 0;
	}
	bind_report(b, &rep);
	for (int i = 0; i < s->nr_sections; i++)
		n += !strcmp(s->sections[i].name, "params");
	cfg->exps = calloc(n ? n : 1, sizeof(*cfg->exps));
	if (!cfg->exps)
		return -ENOMEM;
	if (!n) {
		cfg->nr_exps = 1;
		return bind_experiment(b, NULL, &rep, &cfg->exps[0]);
	}
	/* Past the cap on points, the later experiments would only take memory. */
	for (int i = 0; i < s->nr_sections && !err && !b->too_many_points; i++) {
		if (strcmp(s->sections[i].name, "params"))
			continue;
		err = bind_experiment(b, &s->sections[i], &rep, &cfg->exps[cfg->nr_exps++]);
	}
	return err;
}

/* "specs/ringbuf.spec" → "ringbuf" */
static char *spec_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".spec"))
		len -= 5;
	/* the default result directory is results/<name>/: "." and ".." leave it */
	if (len <= 2 && !strncmp(base, "..", len))
		return strdup("spec");
	return strndup(base, len);
}

static struct sweep_cfg *cfg_new(const char *path)
{
	struct sweep_cfg *cfg = calloc(1, sizeof(*cfg));

	if (!cfg)
		return NULL;
	cfg->spec_path = strdup(path);
	cfg->name = spec_name(path);
	if (!cfg->spec_path || !cfg->name) {
		sweep_cfg_free(cfg);
		return NULL;
	}
	cfg->warmup_ns = NSEC_PER_SEC;
	cfg->duration_ns = 5 * NSEC_PER_SEC;
	cfg->interval_ns = NSEC_PER_SEC;
	cfg->repeat = 1;
	cfg->max_cv = QUALITY_DEFAULT_MAX_CV;
	cfg->max_repeat = PRECISION_MAX_REPEAT;
	cfg->bpf_stats = true;
	kernel_axis_init(&cfg->kernels);
	return cfg;
}

int bind_spec(const struct spec *s, struct sweep_cfg **out)
{
	struct binder b = { .s = s };
	int errors = diag_error_count();
	int err = 0;

	*out = NULL;
	b.cfg = cfg_new(s->path);
	if (!b.cfg)
		return -ENOMEM;
	find_sections(&b);
	if (b.sweep)
		err = bind_sweep(&b);
	/* Without a workload, there is no table to check the rest against. */
	if (!err && b.cfg->wl)
		err = bind_experiments(&b);
	if (!err && diag_error_count() != errors)
		err = -EINVAL;
	if (err) {
		sweep_cfg_free(b.cfg);
		return err;
	}
	*out = b.cfg;
	return 0;
}

void sweep_cfg_free(struct sweep_cfg *cfg)
{
	if (!cfg)
		return;
	for (int i = 0; i < cfg->nr_exps; i++) {
		struct experiment *x = &cfg->exps[i];

		for (int j = 0; j < x->nr_axes; j++)
			free(x->axes[j].vals);
		free(x->title);
		free(x->label);
		free(x->values);
	}
	free(cfg->exps);
	exec_free(cfg->own_wl);
	kernel_axis_free(&cfg->kernels);
	free(cfg->spec_path);
	free(cfg->name);
	free(cfg->title);
	free(cfg);
}
