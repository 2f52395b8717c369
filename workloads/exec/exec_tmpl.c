// SPDX-License-Identifier: GPL-2.0
/*
 * The exec workload's templates (exec.h): an argv word, the producers
 * count.  "{name}" is a parameter's value as the CSV shows it (sizes in
 * bytes, on/off, a choice's name); "{flag?text}", a whole word, is text
 * where the on/off parameter flag is on and no word at all where it is
 * off ("--rb-overwrite"); {warmup_s} and {duration_s} are the sweep's
 * warmup and duration in whole seconds, rounded up (bench -w, -d).
 * Nothing here reaches a shell: a word stays one argv element.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"
#include "exec.h"

static const char *const builtins[] = { "warmup_s", "duration_s", NULL };

/* A placeholder "{name}" or "{name?text}" at t (t[0] is '{'). */
struct holder {
	size_t len;		/* of the whole, braces included; 0 without a '}' */
	const char *name;
	size_t name_len;
	const char *text;	/* after '?', or NULL */
	size_t text_len;
};

static void scan_holder(const char *t, struct holder *h)
{
	const char *close = strchr(t, '}'), *q;

	*h = (struct holder){ .name = t + 1 };
	if (!close)
		return;
	h->len = close - t + 1;
	q = memchr(t, '?', close - t);
	h->name_len = (q ? q : close) - h->name;
	if (q) {
		h->text = q + 1;
		h->text_len = close - q - 1;
	}
}

static int builtin_index(const char *name, size_t len)
{
	for (int i = 0; builtins[i]; i++)
		if (strlen(builtins[i]) == len && !strncmp(builtins[i], name, len))
			return i;
	return -1;
}

static int param_of(const struct exec_def *d, const char *name, size_t len)
{
	for (int i = 0; i < d->wl.nr_params; i++)
		if (strlen(d->params[i].name) == len && !strncmp(d->params[i].name, name, len))
			return i;
	return -1;
}

static void check_holder(const struct exec_def *d, const struct holder *h, const char *word,
			 size_t off, const struct loc *at, bool whole_word_ok)
{
	struct loc l = loc_plus(at, off);
	int p = param_of(d, h->name, h->name_len);

	if (p < 0 && (h->text || builtin_index(h->name, h->name_len) < 0)) {
		diag_at(&l, "unknown parameter '%.*s' (declare it in a [param \"%.*s\"] section)",
			(int)h->name_len, h->name, (int)h->name_len, h->name);
		return;
	}
	if (!h->text)
		return;
	if (d->params[p].type != PT_BOOL)
		diag_at(&l, "'{%.*s?...}' needs an on/off parameter", (int)h->name_len, h->name);
	else if (!whole_word_ok || off || word[h->len])
		diag_at(&l, "'{%.*s?...}' must be a whole argv word", (int)h->name_len, h->name);
	else if (!h->text_len)
		diag_at(&l, "'{%.*s?}' needs the word to pass when it is on", (int)h->name_len,
			h->name);
}

void exec_tmpl_check(const struct exec_def *d, const struct exec_tmpl *t, bool whole_word_ok)
{
	struct holder h;

	for (const char *s = t->text; (s = strchr(s, '{')); s += h.len) {
		struct loc l = loc_plus(&t->loc, s - t->text);

		scan_holder(s, &h);
		if (!h.len) {
			diag_at(&l, "'{' without a closing '}'");
			return;
		}
		check_holder(d, &h, t->text, s - t->text, &t->loc, whole_word_ok);
	}
}

static uint64_t whole_seconds(uint64_t ns)
{
	return (ns + 999999999ULL) / 1000000000ULL;
}

static void holder_value(const struct exec_def *d, const struct wl_point *pt,
			 const struct holder *h, char *buf, size_t len)
{
	int p = param_of(d, h->name, h->name_len);

	if (p >= 0) {
		param_format(&d->params[p], pt->v[p], buf, len);
		return;
	}
	snprintf(buf, len, "%llu", (unsigned long long)whole_seconds(
		 builtin_index(h->name, h->name_len) ? d->cfg->duration_ns : d->cfg->warmup_ns));
}

int exec_tmpl_expand(const struct exec_def *d, const struct wl_point *pt, const char *t,
		     char **out, bool *omit)
{
	size_t size = 0;
	FILE *f = open_memstream(out, &size);
	struct holder h;
	char val[128];
	int err = 0;

	if (!f)
		return -ENOMEM;
	*omit = false;
	while (*t && !err) {
		if (*t != '{') {
			fputc(*t++, f);
			continue;
		}
		scan_holder(t, &h);
		if (!h.len) {
			err = -EINVAL;
			break;
		}
		if (h.text) {
			int p = param_of(d, h.name, h.name_len);

			if (p < 0)
				err = -EINVAL;
			else if (pt->v[p])
				fwrite(h.text, 1, h.text_len, f);
			else
				*omit = true;
		} else {
			holder_value(d, pt, &h, val, sizeof(val));
			fputs(val, f);
		}
		t += h.len;
	}
	if (fclose(f))
		err = err ?: -ENOMEM;
	if (err) {
		free(*out);
		*out = NULL;
	}
	return err;
}

int exec_tmpl_number(const struct exec_def *d, const struct wl_point *pt,
		     const struct exec_tmpl *t, long long dflt, long long *v,
		     char *why, size_t whylen)
{
	char *text, *end;
	bool omit;
	int err;

	*v = dflt;
	if (!t->text)
		return 0;
	err = exec_tmpl_expand(d, pt, t->text, &text, &omit);
	if (err)
		return err;
	*v = strtoll(text, &end, 10);
	if (end == text || *end || *v < 0 || *v > 1000000) {
		snprintf(why, whylen, "'%s' (from '%s') is no count", text, t->text);
		err = -EINVAL;
	}
	free(text);
	return err;
}
