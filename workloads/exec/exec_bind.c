// SPDX-License-Identifier: GPL-2.0
/*
 * `workload = exec`: the spec's [exec] and [param "NAME"] sections made
 * into a workload descriptor (exec.h, docs/exec.md).  Every error is
 * reported at its place in the spec, as bind.c reports its own.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bindval.h"
#include "exec.h"
#include "metricdef.h"

#define MAX_REGEX	1024

static const char *const exec_keys[] = {
	"argv", "parser", "metrics", "regex", "fields", "timeout", "producers",
	"warmup_intervals", "better", "build", NULL,
};
enum { EK_ARGV, EK_PARSER, EK_METRICS, EK_REGEX, EK_FIELDS, EK_TIMEOUT, EK_PRODUCERS,
       EK_WARMUP, EK_BETTER, EK_BUILD };

static const char *const param_keys[] = { "type", "default", "min", "max", "choices", "help", NULL };
enum { PK_TYPE, PK_DEFAULT, PK_MIN, PK_MAX, PK_CHOICES, PK_HELP };

static const char *const type_names[] = { "int", "size", "bool", "enum", NULL };

/* The metrics each format names unless [exec] metrics says otherwise. */
static const char *const default_metrics[] = {
	[EXEC_KBENCH] = "hits drops", [EXEC_MAP_PERF] = "events",
};
static const char *const default_units[] = {
	[EXEC_KBENCH] = "M/s", [EXEC_MAP_PERF] = "k/s", [EXEC_REGEX] = "/s", [EXEC_CSV] = "/s",
	[EXEC_JSONL] = "/s",
};

static const char *const elapsed_fields[] = { "elapsed_s", "elapsed_ms", "elapsed_us",
					      "elapsed_ns", NULL };
static const double elapsed_scale[] = { 1e9, 1e6, 1e3, 1 };

static int index_of(const char *const *list, const char *w, size_t len)
{
	for (int i = 0; list[i]; i++)
		if (strlen(list[i]) == len && !strncmp(list[i], w, len))
			return i;
	return -1;
}

/* A name a CSV column and a template can hold: [a-z][a-z0-9_]*, at most 31. */
static bool good_name(const char *s, size_t len)
{
	if (!len || len > 31 || !islower((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* The next blank-separated word of *s: its start and length (0 at the end). */
static size_t next_word(const char **s, const char **w)
{
	size_t n;

	while (**s == ' ' || **s == '\t')
		(*s)++;
	*w = *s;
	n = strcspn(*s, " \t");
	*s += n;
	return n;
}

static const struct spec_entry *entry(const struct spec_section *sec, const char *key)
{
	for (int i = 0; i < sec->nr_entries; i++)
		if (!strcmp(sec->entries[i].key, key))
			return &sec->entries[i];
	return NULL;
}

static void unknown_keys(const struct spec_section *sec, const char *const *keys)
{
	for (int i = 0; i < sec->nr_entries; i++)
		if (index_of(keys, sec->entries[i].key, strlen(sec->entries[i].key)) < 0)
			diag_at(&sec->entries[i].key_loc, "unknown key '%s' in [%s]",
				sec->entries[i].key, sec->name);
}

static int parse_choices(struct param_def *p, const struct spec_entry *e)
{
	const char *s = e->value, *w;
	char **c = calloc(strlen(s) / 2 + 2, sizeof(*c));
	size_t n;
	int nr = 0;

	if (!c)
		return -ENOMEM;
	p->choices = (const char *const *)c;
	while ((n = next_word(&s, &w))) {
		if (index_of((const char *const *)c, w, n) >= 0)
			diag_at(&e->val_loc, "choice '%.*s' given twice", (int)n, w);
		c[nr] = strndup(w, n);
		if (!c[nr++])
			return -ENOMEM;
	}
	if (!nr)
		diag_at(&e->val_loc, "an enum needs its choices");
	return 0;
}

static void bind_bound(const struct spec_entry *e, long long *v)
{
	static const struct param_def any = {
		.name = "bound", .type = PT_INT, .min = LLONG_MIN, .max = LLONG_MAX,
	};

	bind_scalar(&any, e, v);
}

/* One [param "NAME"] section into p: its type, bounds, choices, default. */
static int bind_param(const struct spec_section *sec, struct param_def *p)
{
	const struct spec_entry *e;
	long long v;
	int t = PT_INT;

	unknown_keys(sec, param_keys);
	e = entry(sec, param_keys[PK_TYPE]);
	if (e && (t = index_of(type_names, e->value, strlen(e->value))) < 0) {
		diag_at(&e->val_loc, "unknown type '%s' (int, size, bool or enum)", e->value);
		t = PT_INT;
	}
	*p = (struct param_def){ .type = t, .min = 0, .max = LLONG_MAX };
	p->name = strdup(sec->arg);
	if (!p->name)
		return -ENOMEM;
	if ((e = entry(sec, param_keys[PK_MIN])))
		bind_bound(e, &p->min);
	if ((e = entry(sec, param_keys[PK_MAX])))
		bind_bound(e, &p->max);
	if ((e = entry(sec, param_keys[PK_HELP])) && !(p->help = strdup(e->value)))
		return -ENOMEM;
	e = entry(sec, param_keys[PK_CHOICES]);
	if (e && t != PT_ENUM)
		diag_at(&e->key_loc, "choices are for type = enum");
	else if (t == PT_ENUM && !e)
		diag_at(&sec->loc, "[param \"%s\"]: type = enum needs choices", sec->arg);
	else if (e && parse_choices(p, e))
		return -ENOMEM;
	e = entry(sec, param_keys[PK_DEFAULT]);
	if (!e) {
		diag_at(&sec->loc, "[param \"%s\"] needs a default", sec->arg);
		return 0;
	}
	if (!(p->def = strdup(e->value)))
		return -ENOMEM;
	if (t != PT_ENUM || p->choices)
		bind_scalar(p, e, &v);
	return 0;
}

static bool is_param_section(const struct spec_section *sec)
{
	return !strcmp(sec->name, "param");
}

static int bind_params(const struct spec *s, struct exec_def *d)
{
	int err = 0;

	for (int i = 0; i < s->nr_sections && !err; i++) {
		const struct spec_section *sec = &s->sections[i];
		const char *name = sec->arg ? sec->arg : "";

		if (!is_param_section(sec))
			continue;
		if (!good_name(name, strlen(name))) {
			diag_at(&sec->loc, "[param \"%s\"]: a name is [a-z][a-z0-9_]*, at most 31",
				name);
			continue;
		}
		/* --set routes these names to [sweep] and [report]: never to a parameter */
		if (index_of(spec_sweep_keys, name, strlen(name)) >= 0 ||
		    index_of(spec_report_keys, name, strlen(name)) >= 0) {
			diag_at(&sec->loc, "'%s' is a [sweep] or [report] key, not a parameter name",
				name);
			continue;
		}
		if (param_index(d->params, d->wl.nr_params, name) >= 0 ||
		    !strcmp(name, "warmup_s") || !strcmp(name, "duration_s")) {
			diag_at(&sec->loc, "parameter '%s' declared twice or built in", name);
			continue;
		}
		if (d->wl.nr_params == WL_MAX_PARAMS) {
			diag_at(&sec->loc, "more than %d parameters", WL_MAX_PARAMS);
			break;
		}
		err = bind_param(sec, &d->params[d->wl.nr_params++]);
	}
	return err;
}

static bool metric_named(const struct exec_def *d, const char *w, size_t n)
{
	for (int i = 0; i < d->wl.nr_metrics; i++)
		if (strlen(d->metrics[i].name) == n && !strncmp(d->metrics[i].name, w, n))
			return true;
	return false;
}

/* One metric, a counter of the rate the output names w[0..n); errors at l. */
static int add_metric(struct exec_def *d, const char *w, size_t n, const struct loc *l)
{
	struct metric_def *m = &d->metrics[d->wl.nr_metrics];

	if (!good_name(w, n)) {
		diag_at(l, "metric '%.*s': a name is [a-z][a-z0-9_]*", (int)n, w);
		return 0;
	}
	if (d->wl.nr_metrics == WL_MAX_METRICS) {
		diag_at(l, "more than %d metrics", WL_MAX_METRICS);
		return 0;
	}
	if (d->wl.nr_metrics && d->parser.fmt == EXEC_MAP_PERF) {
		diag_at(l, "parser = map_perf has one metric, per worker");
		return 0;
	}
	if (metric_named(d, w, n)) {
		diag_at(l, "metric '%.*s' given twice", (int)n, w);
		return 0;
	}
	*m = (struct metric_def){ .kind = MK_COUNTER, .unit = default_units[d->parser.fmt],
				  .per_thread = d->parser.fmt == EXEC_MAP_PERF };
	m->name = strndup(w, n);
	if (!m->name)
		return -ENOMEM;
	/* a name the benches use (drops: lower), else a rate of work: `better` says otherwise */
	m->better = metric_better_known(m->name);
	if (m->better == MB_UNSET)
		m->better = MB_HIGHER;
	d->parser.metrics[d->wl.nr_metrics++] = m->name;
	d->parser.nr_metrics = d->wl.nr_metrics;
	return 0;
}

/* One word of `better`, "NAME=lower"; errors at l. */
static void bind_one_better(struct exec_def *d, const char *w, size_t n, const struct loc *l)
{
	const char *eq = memchr(w, '=', n);
	size_t nl = eq ? (size_t)(eq - w) : n;
	enum metric_better b;

	for (int i = 0; i < d->wl.nr_metrics; i++) {
		if (strlen(d->metrics[i].name) != nl || strncmp(d->metrics[i].name, w, nl))
			continue;
		if (eq && metric_better_parse(eq + 1, n - nl - 1, &b) && b != MB_UNSET)
			d->metrics[i].better = b;
		else
			diag_at(l, "'%.*s': better is METRIC=higher, METRIC=lower or "
				"METRIC=neither", (int)n, w);
		return;
	}
	diag_at(l, "better: '%.*s' is no metric of this [exec]", (int)nl, w);
}

/*
 * `better = drops=lower x=neither`: which way each metric gets better,
 * for compare's verdicts (docs/exec.md); after the metrics are known.
 */
static void bind_better(struct exec_def *d, const struct spec_section *sec)
{
	const struct spec_entry *e = entry(sec, exec_keys[EK_BETTER]);
	const char *s, *w;
	size_t n;

	for (s = e ? e->value : ""; (n = next_word(&s, &w));) {
		struct loc l = loc_plus(&e->val_loc, w - e->value);

		bind_one_better(d, w, n, &l);
	}
}

/* A metric per name of `metrics` (or the format's own). */
static int bind_metrics(struct exec_def *d, const char *text, const struct loc *at)
{
	const char *s = text, *w;
	size_t n;
	int err = 0;

	while (!err && (n = next_word(&s, &w))) {
		struct loc l = loc_plus(at, w - text);

		err = add_metric(d, w, n, &l);
	}
	if (!err && !d->wl.nr_metrics)
		diag_at(at, "no metric");
	return err;
}

/* The formats whose `fields` name the metrics: regex's groups, csv's columns, jsonl's keys. */
static bool has_fields(enum exec_format fmt)
{
	return fmt == EXEC_REGEX || fmt == EXEC_CSV || fmt == EXEC_JSONL;
}

/*
 * A csv or jsonl field's column (the header's name, the key) from
 * "NAME=COLUMN", else the name itself; *n is cut to NAME.  A column no
 * two fields share.
 */
static int bind_column(struct exec_def *d, const char *w, size_t *n, const struct loc *l)
{
	const char *eq = memchr(w, '=', *n);
	const char *col = eq ? eq + 1 : w;
	size_t cn = eq ? *n - (eq + 1 - w) : *n;
	char *c;

	if (eq)
		*n = eq - w;
	if (!cn) {
		diag_at(l, "field '%.*s=': no column after '='", (int)*n, w);
		return 0;
	}
	for (int f = 0; f < d->parser.nr_fields - 1; f++) {
		const char *o = d->parser.column[f];

		if (o && strlen(o) == cn && !strncmp(o, col, cn)) {
			diag_at(l, "column '%.*s' used twice", (int)cn, col);
			return 0;
		}
	}
	c = strndup(col, cn);
	if (!c)
		return -ENOMEM;
	d->parser.column[d->parser.nr_fields - 1] = c;
	return 0;
}

/*
 * One word of `fields`: a metric name, "-" (regex), or one elapsed_*; a
 * metric in the order of the fields.  csv and jsonl take NAME=COLUMN.
 */
static int bind_field(struct exec_def *d, const char *w, size_t n, const struct loc *l,
		      int *elapsed)
{
	int *f = &d->parser.field[d->parser.nr_fields++];
	int el, err = 0;

	if (d->parser.fmt != EXEC_REGEX)
		err = bind_column(d, w, &n, l);
	if (err)
		return err;
	if (n == 1 && *w == '-' && d->parser.fmt == EXEC_REGEX) {
		*f = EXEC_FIELD_SKIP;
	} else if ((el = index_of(elapsed_fields, w, n)) >= 0) {
		*f = EXEC_FIELD_ELAPSED;
		d->parser.elapsed_scale = elapsed_scale[el];
		if ((*elapsed)++)
			diag_at(l, "a second elapsed field");
	} else {
		*f = d->wl.nr_metrics;
		err = add_metric(d, w, n, l);
	}
	return err;
}

static int bind_fields(struct exec_def *d, const struct spec_entry *e)
{
	const char *s = e->value, *w;
	int elapsed = 0, err = 0;
	size_t n;

	while (!err && (n = next_word(&s, &w))) {
		struct loc l = loc_plus(&e->val_loc, w - e->value);

		if (d->parser.nr_fields == EXEC_MAX_FIELDS) {
			diag_at(&l, "too many fields");
			break;
		}
		err = bind_field(d, w, n, &l, &elapsed);
	}
	if (!err && !d->wl.nr_metrics)
		diag_at(&e->val_loc, "no metric among the fields");
	return err;
}

static int bind_regex(struct exec_def *d, const struct spec_section *sec)
{
	const struct spec_entry *re = entry(sec, exec_keys[EK_REGEX]);
	const struct spec_entry *fields = entry(sec, exec_keys[EK_FIELDS]);
	char msg[160];
	int err;

	if (!re || !fields) {
		diag_at(&sec->loc, "parser = regex needs regex and fields");
		return 0;
	}
	/*
	 * glibc expands a bounded repetition into copies of its operand, so
	 * "(a{1000}){1000}" takes regcomp() minutes: a spec is no place for it.
	 */
	if (strchr(re->value, '{') || strlen(re->value) > MAX_REGEX) {
		diag_at(&re->val_loc, "regex: no {m,n} repetition, at most %d characters",
			MAX_REGEX);
		return 0;
	}
	/* glibc's regexec() backtracks on them: a 2 KB line took 532 s, deaf to the timeout */
	if (exec_regex_backref(re->value) >= 0) {
		struct loc at = loc_plus(&re->val_loc, exec_regex_backref(re->value));

		diag_at(&at, "regex: no backreference (\\N): glibc matches them by backtracking, "
			"exponential in the line's length");
		return 0;
	}
	err = regcomp(&d->parser.re, re->value, REG_EXTENDED);
	if (err) {
		regerror(err, &d->parser.re, msg, sizeof(msg));
		diag_at(&re->val_loc, "regex: %s", msg);
		return 0;
	}
	d->has_regex = true;
	err = bind_fields(d, fields);
	if (!err && d->parser.nr_fields != (int)d->parser.re.re_nsub)
		diag_at(&fields->val_loc, "%d fields for the regex's %zu groups",
			d->parser.nr_fields, d->parser.re.re_nsub);
	return err;
}

/* csv and jsonl: the fields name the columns or keys; no regex. */
static int bind_rows(struct exec_def *d, const struct spec_section *sec)
{
	const struct spec_entry *fields = entry(sec, exec_keys[EK_FIELDS]);

	if (!fields) {
		diag_at(&sec->loc, "parser = %s needs fields", exec_format_names[d->parser.fmt]);
		return 0;
	}
	return bind_fields(d, fields);
}

static int bind_parser(struct exec_def *d, const struct spec_section *sec)
{
	const struct spec_entry *e = entry(sec, exec_keys[EK_PARSER]);
	const struct spec_entry *m = entry(sec, exec_keys[EK_METRICS]);
	int fmt = EXEC_KBENCH;

	if (e && (fmt = index_of(exec_format_names, e->value, strlen(e->value))) < 0) {
		diag_at(&e->val_loc, "unknown parser '%s' (kbench, map_perf, regex, csv or jsonl)",
			e->value);
		fmt = EXEC_KBENCH;
	}
	d->parser.fmt = fmt;
	if (fmt != EXEC_REGEX && (e = entry(sec, exec_keys[EK_REGEX])))
		diag_at(&e->key_loc, "regex is for parser = regex");
	if (has_fields(fmt)) {
		if (m)
			diag_at(&m->key_loc, "with parser = %s, the fields name the metrics",
				exec_format_names[fmt]);
		return fmt == EXEC_REGEX ? bind_regex(d, sec) : bind_rows(d, sec);
	}
	if ((e = entry(sec, exec_keys[EK_FIELDS])))
		diag_at(&e->key_loc, "fields are for parser = regex, csv or jsonl");
	if (m)
		return bind_metrics(d, m->value, &m->val_loc);
	return bind_metrics(d, default_metrics[fmt], &sec->loc);
}

static int set_tmpl(struct exec_tmpl *t, const struct spec_entry *e)
{
	if (!e)
		return 0;
	t->text = strdup(e->value);
	t->loc = e->val_loc;
	return t->text ? 0 : -ENOMEM;
}

/* argv's words, each one argv element: no shell, no quoting. */
static int bind_argv(struct exec_def *d, const struct spec_entry *e)
{
	const char *s = e->value, *w;
	size_t n;

	d->argv = calloc(strlen(s) / 2 + 1, sizeof(*d->argv));
	if (!d->argv)
		return -ENOMEM;
	while ((n = next_word(&s, &w))) {
		struct exec_tmpl *t = &d->argv[d->argc++];

		t->text = strndup(w, n);
		t->loc = loc_plus(&e->val_loc, w - e->value);
		if (!t->text)
			return -ENOMEM;
	}
	if (!d->argc)
		diag_at(&e->val_loc, "argv is empty");
	return 0;
}

static void bind_timeout(const struct spec_entry *e, uint64_t *ns)
{
	char err[256];

	if (parse_duration(e->value, ns, err, sizeof(err)))
		diag_at(&e->val_loc, "%s", err);
	else if (!*ns)
		diag_at(&e->val_loc, "timeout must be positive");
}

static int bind_exec_section(struct exec_def *d, const struct spec_section *sec)
{
	const struct spec_entry *e;
	int err;

	unknown_keys(sec, exec_keys);
	if ((e = entry(sec, exec_keys[EK_TIMEOUT])))
		bind_timeout(e, &d->timeout_ns);
	/* text for the user to read when the program is missing, never run */
	if ((e = entry(sec, exec_keys[EK_BUILD])) && !(d->build = strdup(e->value)))
		return -ENOMEM;
	err = set_tmpl(&d->producers, entry(sec, exec_keys[EK_PRODUCERS]));
	if (!err)
		err = set_tmpl(&d->warmup_intervals, entry(sec, exec_keys[EK_WARMUP]));
	if (!err)
		err = bind_parser(d, sec);
	if (err)
		return err;
	bind_better(d, sec);
	e = entry(sec, exec_keys[EK_ARGV]);
	if (!e) {
		diag_at(&sec->loc, "[exec] needs argv");
		return 0;
	}
	err = bind_argv(d, e);
	for (int i = 0; !err && i < d->argc; i++)
		exec_tmpl_check(d, &d->argv[i], true);
	if (!err && d->producers.text)
		exec_tmpl_check(d, &d->producers, false);
	if (!err && d->warmup_intervals.text)
		exec_tmpl_check(d, &d->warmup_intervals, false);
	return err;
}

/* The one [exec] section; duplicates and arguments are errors. */
static const struct spec_section *find_exec(const struct spec *s)
{
	const struct spec_section *found = NULL;

	for (int i = 0; i < s->nr_sections; i++) {
		const struct spec_section *sec = &s->sections[i];

		if (strcmp(sec->name, "exec"))
			continue;
		if (sec->arg)
			diag_at(&sec->loc, "section '[exec]' takes no argument");
		if (found)
			diag_at(&sec->loc, "duplicate section '[exec]' (first at line %d)",
				found->loc.line);
		else
			found = sec;
	}
	return found;
}

int exec_bind(const struct spec *s, const struct sweep_cfg *cfg, struct workload **out)
{
	const struct spec_section *sec = find_exec(s);
	struct exec_def *d = calloc(1, sizeof(*d));
	int errors = diag_error_count(), err;

	*out = NULL;
	if (!d)
		return -ENOMEM;
	d->cfg = cfg;
	d->said = calloc(1, sizeof(*d->said));
	if (!d->said) {
		free(d);
		return -ENOMEM;
	}
	d->wl = (struct workload){ .name = EXEC_WORKLOAD, .params = d->params,
				   .metrics = d->metrics, .data = d,
				   .help = "an existing benchmark program, run per point (docs/exec.md)" };
	exec_set_callbacks(&d->wl);
	err = bind_params(s, d);
	if (!err && !sec) {
		struct loc top = { .file = s->path, .line = 1, .col = 1 };

		diag_at(&top, "workload = exec needs an [exec] section");
	}
	if (!err && sec)
		err = bind_exec_section(d, sec);
	if (!err && diag_error_count() != errors)
		err = -EINVAL;
	if (err) {
		exec_free(&d->wl);
		return err;
	}
	*out = &d->wl;
	return 0;
}

void exec_sections_unused(const struct spec *s)
{
	for (int i = 0; i < s->nr_sections; i++)
		if (!strcmp(s->sections[i].name, "exec") || is_param_section(&s->sections[i]))
			diag_at(&s->sections[i].loc, "[%s] is for workload = exec",
				s->sections[i].name);
}

static void free_param(struct param_def *p)
{
	for (int i = 0; p->choices && p->choices[i]; i++)
		free((char *)p->choices[i]);
	free((char **)p->choices);
	free((char *)p->name);
	free((char *)p->def);
	free((char *)p->help);
}

void exec_free(struct workload *wl)
{
	struct exec_def *d;

	if (!wl)
		return;
	d = (struct exec_def *)wl->data;
	for (int i = 0; i < d->wl.nr_params; i++)
		free_param(&d->params[i]);
	for (int i = 0; i < d->wl.nr_metrics; i++)
		free((char *)d->metrics[i].name);
	for (int i = 0; i < d->argc; i++)
		free(d->argv[i].text);
	free(d->argv);
	free(d->producers.text);
	free(d->warmup_intervals.text);
	free((char *)d->build);
	for (int i = 0; i < d->parser.nr_fields; i++)
		free((char *)d->parser.column[i]);
	if (d->has_regex)
		regfree(&d->parser.re);
	for (int i = 0; d->said && i < d->said->nr; i++)
		free(d->said->keys[i]);
	if (d->said)
		free(d->said->keys);
	free(d->said);
	free(d);
}

/*
 * After [sweep]: the descriptor of a spec whose workload is exec (its
 * timing is the program's too), or errors at [exec] and [param] sections
 * that no such workload uses.
 */
static int section_bind(const struct spec *s, struct sweep_cfg *cfg, bool declared)
{
	int err;

	if (!declared) {
		if (cfg->wl)
			exec_sections_unused(s);
		return 0;
	}
	err = exec_bind(s, cfg, &cfg->own_wl);
	cfg->wl = cfg->own_wl;
	return err;
}

static void section_free(struct sweep_cfg *cfg)
{
	exec_free(cfg->own_wl);
}

static const char *const exec_sections[] = { "exec", "param", NULL };

const struct section_binder exec_section_binder = {
	.name = "exec family",
	.workload = EXEC_WORKLOAD,
	.sections = exec_sections,
	.bind = section_bind,
	.free = section_free,
};
