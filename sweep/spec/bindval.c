// SPDX-License-Identifier: GPL-2.0
/*
 * The value grammar of a spec (bindval.h): scalars, durations,
 * percentages, lists and ranges, and parameter and metric names.  Each
 * mistake is reported at its column through diag.c; the functions return
 * 0 or -ENOMEM, and what binds the sections counts the errors.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bindval.h"
#include "diag.h"
#include "metricdef.h"
#include "model.h"
#include "suggest.h"

#define NSEC_PER_SEC	1000000000ULL
#define NSEC_PER_MSEC	1000000ULL

/* A list of values being built, with the column of the item each came from. */
struct vals {
	long long *v;
	int *col;
	int n, cap;
};

int bind_list_index(const char *const *list, const char *word)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(list[i], word))
			return i;
	return -1;
}

int bind_param_name(const struct workload *wl, const char *name, size_t len,
		    const struct loc *at, bool with_report_keys)
{
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

/* A metric of a chart's y; ns_per_run (bind_report.c) is one more choice where it exists. */
int bind_metric_name(const struct workload *wl, const char *name, size_t len,
		     const struct loc *at)
{
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

void bind_unknown_key(const struct spec_entry *e, const char *section, const char *const *keys)
{
	char hint[640];
	struct suggest sg;

	suggest_init(&sg, e->key);
	for (; *keys; keys++)
		suggest_add(&sg, *keys);
	diag_at(&e->key_loc, "unknown key '%s' in [%s]%s", e->key, section,
		suggest_hint_or_list(&sg, hint, sizeof(hint)));
}

static const char *const duration_units[] = { "ns", "us", "ms", "s", NULL };
static const uint64_t duration_mult[] = { 1, 1000, NSEC_PER_MSEC, NSEC_PER_SEC };

/* A duration's number: whole part, and the fraction as frac / scale. */
struct duration_number {
	uint64_t whole, frac, scale;
};

/*
 * The digits of @text and an optional fraction; *end is left after them.
 * -EINVAL when there is no digit (before or after the point), -ERANGE when
 * the whole part does not fit.
 */
static int read_duration_number(const char *text, struct duration_number *n, const char **end)
{
	const char *p = text;

	*n = (struct duration_number){ .scale = 1 };
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (n->whole > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		n->whole = n->whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return -EINVAL;
		/* Digits past nanoseconds cannot matter; they are dropped. */
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (n->scale < NSEC_PER_SEC) {
				n->frac = n->frac * 10 + (*p - '0');
				n->scale *= 10;
			}
		}
	}
	*end = p;
	return 0;
}

/* The index in duration_units[] of @unit, what follows the number of @text, or -EINVAL. */
static int duration_unit(const char *text, const char *unit, char *err, size_t errlen)
{
	const char *after_spaces = unit + strspn(unit, " ");
	int u;

	if (!*unit) {
		snprintf(err, errlen, "missing unit in duration '%s' (use s or ms)", text);
		return -EINVAL;
	}
	u = bind_list_index(duration_units, unit);
	if (u >= 0)
		return u;
	/* "10 s": the unit is known, the space is not */
	if (*unit == ' ' && bind_list_index(duration_units, after_spaces) >= 0) {
		snprintf(err, errlen, "a space in duration '%s': write it as %.*s%s", text,
			 (int)(unit - text), text, after_spaces);
		return -EINVAL;
	}
	snprintf(err, errlen, "unknown unit '%s' in duration '%s' (use ns, us, ms or s)",
		 unit, text);
	return -EINVAL;
}

/* "1.5s", "250ms", "100us", "20ns": digits, an optional fraction, a unit. */
int parse_duration(const char *text, uint64_t *ns, char *err, size_t errlen)
{
	struct duration_number n;
	const char *unit;
	uint64_t mult;
	int ret = read_duration_number(text, &n, &unit);

	if (ret == -EINVAL) {
		snprintf(err, errlen, "invalid duration '%s'", text);
		return -EINVAL;
	}
	if (ret)
		goto too_long;
	/* zero is zero in any unit: "max_time = 0", as the docs write "no limit" */
	if (!*unit && !n.whole && !n.frac) {
		*ns = 0;
		return 0;
	}
	ret = duration_unit(text, unit, err, errlen);
	if (ret < 0)
		return ret;
	mult = duration_mult[ret];
	if (n.whole > (UINT64_MAX - NSEC_PER_SEC) / mult)
		goto too_long;
	*ns = n.whole * mult + n.frac * mult / n.scale;
	/* "0.5ns" is no zero: it would read as max_time's "no limit" */
	if (!*ns && (n.whole || n.frac)) {
		snprintf(err, errlen, "duration '%s' is under 1ns", text);
		return -EINVAL;
	}
	return 0;

too_long:
	snprintf(err, errlen, "duration '%s' is too long", text);
	return -EINVAL;
}

/* The share of the mean a precision run aims at (precision.h), or decide's bound (key). */
int precision_parse(const char *text, const char *key, double *pct, char *err, size_t errlen)
{
	char *end;

	if (!strcmp(text, "off")) {
		*pct = 0;
		return 0;
	}
	/* decimal digits and a point only: strtod() would take 0x10 as 16, 1e1, inf */
	if (text[strspn(text, "0123456789.")] && strcmp(text + strspn(text, "0123456789."), "%"))
		end = (char *)text;
	else
		*pct = strtod(text, &end);
	if (end != text && *end == '%')
		end++;
	if (end == text || *end || !(*pct >= 0 && *pct <= 100)) {
		snprintf(err, errlen, "invalid %s '%s': a percentage of the mean such as "
			 "'2%%', or 'off'", key, text);
		return -EINVAL;
	}
	if (!(*pct > 0)) {
		snprintf(err, errlen, "%s '%s': no interval is that narrow; 'off' for none", key,
			 text);
		return -EINVAL;
	}
	return 0;
}

void bind_duration(const struct spec_entry *e, uint64_t *ns)
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
void bind_span(const struct spec_entry *e, uint64_t *ns, bool may_be_0)
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
void bind_int(const struct param_def *def, const struct spec_entry *e, int *out)
{
	long long v = *out;

	bind_scalar(def, e, &v);
	*out = v;
}

void bind_bool(const struct param_def *def, const struct spec_entry *e, bool *out)
{
	long long v = *out;

	bind_scalar(def, e, &v);
	*out = v;
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

int bind_value_list(const struct param_def *p, const struct spec_entry *e, long long **vals,
		    int *nr)
{
	struct vals vs = { 0 };
	int before = diag_error_count();
	int err = parse_items(p, e, &vs);

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
	*vals = vs.v;
	*nr = vs.n;
	return err;
}
