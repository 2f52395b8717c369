// SPDX-License-Identifier: GPL-2.0
/*
 * Parameters of imported rows, read from their labels (import.h): a
 * template's {name}s, or the number a label ends in.  These are what
 * compare and charts match and draw points by, so that two machines'
 * tables of the same script line up on the same axis.
 */
#define _GNU_SOURCE	/* asprintf */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

#define MAX_TMPL_NAMES 16

static bool is_ident(const char *s, size_t len)
{
	if (!len || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * A match in progress.  Whether the template from t on matches the label
 * from l on depends on t and l alone, so a pair that failed once is marked
 * and never tried again: the search visits each pair at most once, and a
 * capture tries each of its lengths once, bounding the work by template
 * length x label length (x label length at a {name}) instead of the
 * exponential backtracking of retrying every pair.
 */
struct matcher {
	const char *tmpl, *label;
	size_t label_len;
	unsigned char *failed;		/* by (t - tmpl) * (label_len + 1) + (l - label) */
	char **vals;
};

static bool failed_before(const struct matcher *m, const char *t, const char *l)
{
	return m->failed[(t - m->tmpl) * (m->label_len + 1) + (l - m->label)];
}

static bool match_from(struct matcher *m, const char *t, const char *l, int k);

/* At a {name}: the shortest capture that lets the rest match. */
static bool match_capture(struct matcher *m, const char *t, const char *l, int k)
{
	const char *close = strchr(t, '}');

	for (size_t len = 1; l[len - 1]; len++) {
		if (!match_from(m, close + 1, l + len, k + 1))
			continue;
		free(m->vals[k]);
		m->vals[k] = strndup(l, len);
		return m->vals[k] != NULL;
	}
	return false;
}

/* The template from t on against the label from l on; vals[k...] get the captures. */
static bool match_step(struct matcher *m, const char *t, const char *l, int k)
{
	if (!*t)
		return !*l;
	if (is_blank(*t)) {
		if (!is_blank(*l))
			return false;
		while (is_blank(*t))
			t++;
		while (is_blank(*l))
			l++;
		return match_from(m, t, l, k);
	}
	if (*t != '{')
		return *t == *l && match_from(m, t + 1, l + 1, k);
	return match_capture(m, t, l, k);
}

static bool match_from(struct matcher *m, const char *t, const char *l, int k)
{
	if (failed_before(m, t, l))
		return false;
	if (match_step(m, t, l, k))
		return true;
	m->failed[(t - m->tmpl) * (m->label_len + 1) + (l - m->label)] = 1;
	return false;
}

bool import_label_match(const char *tmpl, const char *label, char **vals, int nr_vals)
{
	struct matcher m = { .vals = vals };
	bool ok = false;

	for (int i = 0; i < nr_vals; i++)
		vals[i] = NULL;
	while (is_blank(*tmpl))
		tmpl++;
	while (is_blank(*label))
		label++;
	m.tmpl = tmpl;
	m.label = label;
	m.label_len = strlen(label);
	m.failed = calloc((strlen(tmpl) + 1) * (m.label_len + 1), 1);
	if (m.failed)
		ok = match_from(&m, tmpl, label, 0);
	free(m.failed);
	if (!ok)
		for (int i = 0; i < nr_vals; i++) {
			free(vals[i]);
			vals[i] = NULL;
		}
	return ok;
}

static int add_name(struct import_params *p, const char *name, size_t len)
{
	char **names;

	for (int i = 0; i < p->nr; i++)
		if (strlen(p->names[i]) == len && !strncmp(p->names[i], name, len))
			return -EEXIST;
	names = realloc(p->names, (p->nr + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	p->names = names;
	names[p->nr] = strndup(name, len);
	if (!names[p->nr])
		return -ENOMEM;
	p->nr++;
	return 0;
}

/* The {name}s of tmpl appended to p's columns. */
static int template_names(const char *tmpl, struct import_params *p, char *why, size_t whylen)
{
	const char *open = strchr(tmpl, '{'), *close;
	int first = p->nr, err;

	if (!open) {
		snprintf(why, whylen, "--label '%s' has no {name}", tmpl);
		return -EINVAL;
	}
	if (strlen(tmpl) > IMPORT_MAX_LABEL) {
		snprintf(why, whylen, "--label '%.40s...': longer than %d characters", tmpl,
			 IMPORT_MAX_LABEL);
		return -EINVAL;
	}
	for (; open; open = strchr(close, '{')) {
		close = strchr(open, '}');
		if (!close || !is_ident(open + 1, close - open - 1)) {
			snprintf(why, whylen, "--label '%s': a {name} must be a name in braces",
				 tmpl);
			return -EINVAL;
		}
		if (close[1] == '{') {
			snprintf(why, whylen, "--label '%s': two {name}s need text between them",
				 tmpl);
			return -EINVAL;
		}
		err = add_name(p, open + 1, close - open - 1);
		if (err == -EEXIST) {
			snprintf(why, whylen, "--label '%s': {%.*s} is taken", tmpl,
				 (int)(close - open - 1), open + 1);
			return -EINVAL;
		}
		if (err)
			return err;
		if (p->nr - first > MAX_TMPL_NAMES) {
			snprintf(why, whylen, "--label '%s': more than %d {name}s", tmpl,
				 MAX_TMPL_NAMES);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * A label ending in a number: *num gets where it starts and *name the
 * parameter it gives ("nr_prod" in "rb-libbpf nr_prod 4", else "x").
 */
static bool trailing_number(const char *label, const char **num, char *name, size_t namelen)
{
	size_t len = strlen(label), i = len, w;

	while (i && (isdigit((unsigned char)label[i - 1]) || label[i - 1] == '.'))
		i--;
	if (i == len || !i || !is_blank(label[i - 1]) || !isdigit((unsigned char)label[i]) ||
	    label[len - 1] == '.')
		return false;
	*num = label + i;
	while (i && is_blank(label[i - 1]))
		i--;
	w = i;
	while (w && !is_blank(label[w - 1]))
		w--;
	if (is_ident(label + w, i - w) && i - w < namelen)
		snprintf(name, namelen, "%.*s", (int)(i - w), label + w);
	else
		snprintf(name, namelen, "x");
	return true;
}

static int param_index(const struct import_params *p, const char *name)
{
	for (int i = 0; i < p->nr; i++)
		if (!strcmp(p->names[i], name))
			return i;
	return -1;
}

/* Columns: label, cpu, then the template's or the trailing numbers' names. */
static int build_names(const struct import_set *set, const char *tmpl, struct import_params *p,
		       char *why, size_t whylen)
{
	const char *num;
	char name[64];
	int err = add_name(p, "label", 5);

	for (int r = 0; !err && r < set->nr_rows; r++)
		if (set->rows[r].cpu >= 0 && param_index(p, "cpu") < 0)
			err = add_name(p, "cpu", 3);
	if (err || tmpl)
		return err ?: template_names(tmpl, p, why, whylen);
	for (int r = 0; !err && r < set->nr_rows; r++)
		if (trailing_number(set->rows[r].label, &num, name, sizeof(name)) &&
		    param_index(p, name) < 0)
			err = add_name(p, name, strlen(name));
	return err;
}

static int row_values(const struct import_row *row, const char *tmpl, struct import_params *p,
		      char **vals)
{
	char *caps[MAX_TMPL_NAMES + 1], name[64];
	int first = param_index(p, "cpu") >= 0 ? 2 : 1;	/* after label (and cpu) */
	int nr = p->nr - first;
	const char *num;
	int at;

	vals[0] = strdup(row->label);
	if (!vals[0])
		return -ENOMEM;
	if (row->cpu >= 0 && asprintf(&vals[1], "%d", row->cpu) < 0)
		return -ENOMEM;
	if (!tmpl) {
		if (!trailing_number(row->label, &num, name, sizeof(name)))
			return 0;
		/* "rb label 24": a cell the label (or the cpu) filled is kept */
		at = param_index(p, name);
		if (at < 0 || vals[at])
			return 0;
		vals[at] = strdup(num);
		return vals[at] ? 0 : -ENOMEM;
	}
	if (!import_label_match(tmpl, row->label, caps, nr))
		return 0;
	p->matched++;
	for (int i = 0; i < nr; i++)
		vals[first + i] = caps[i];
	return 0;
}

int import_params_build(const struct import_set *set, const char *tmpl, struct import_params *p,
			char *why, size_t whylen)
{
	int err;

	*p = (struct import_params){ 0 };
	snprintf(why, whylen, "%s", "");
	err = build_names(set, tmpl, p, why, whylen);
	if (!err) {
		p->vals = calloc(set->nr_rows ?: 1, sizeof(*p->vals));
		err = p->vals ? 0 : -ENOMEM;
	}
	for (int r = 0; !err && r < set->nr_rows; r++) {
		p->vals[r] = calloc(p->nr, sizeof(**p->vals));
		if (!p->vals[r]) {
			err = -ENOMEM;
			break;
		}
		p->nr_rows++;
		err = row_values(&set->rows[r], tmpl, p, p->vals[r]);
	}
	if (err)
		import_params_free(p);
	return err;
}

void import_params_free(struct import_params *p)
{
	for (int r = 0; r < p->nr_rows; r++) {
		for (int i = 0; i < p->nr; i++)
			free(p->vals[r][i]);
		free(p->vals[r]);
	}
	free(p->vals);
	for (int i = 0; i < p->nr; i++)
		free(p->names[i]);
	free(p->names);
	*p = (struct import_params){ 0 };
}
