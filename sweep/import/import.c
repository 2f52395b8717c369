// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel benchmarks' text output parsed into rows: see import.h.
 *
 * A line is cut at its values (a number with a unit, "X ± Y" with a unit)
 * into segments.  The text before the first value is the row's label and
 * maybe the value's name ("overwrite  per-prod-op:"); a segment that starts
 * with "(" or "," (after a closing ")") names the next value of the same
 * row ("(drops ", ", avg mem: "); any other segment starts a new row.  That
 * last rule is what reads a table flattened onto one line.
 */
#define _GNU_SOURCE	/* asprintf */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growarray.h"
#include "import.h"
#include "textfile.h"

/* len cut to at most max, never inside a UTF-8 character. */
static size_t utf8_cut(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return len;
	while (max && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	return max;
}

/* A copy of s[0..len) without edge blanks, cut to IMPORT_MAX_TEXT; NULL on ENOMEM. */
static char *trimmed(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return strndup(s, utf8_cut(s, len, IMPORT_MAX_TEXT));
}

static void set_name(struct import_value *v, const char *name)
{
	snprintf(v->name, sizeof(v->name), "%s", name);
}

/*
 * The text before a row's first value: "label", "label :" or
 * "label  name:".  Fills the label and, when named, the value's name.
 */
static int split_label(const char *seg, size_t len, char **label, struct import_value *v)
{
	char *t = trimmed(seg, len), *sp;
	size_t tl;

	if (!t)
		return -ENOMEM;
	tl = strlen(t);
	if (tl && t[tl - 1] == ':') {
		t[--tl] = '\0';
		sp = strrchr(t, ' ');
		if (tl && t[tl - 1] != ' ' && sp && sp > t) {
			set_name(v, sp + 1);
			*sp = '\0';
		}
	}
	*label = trimmed(t, strlen(t));
	free(t);
	return *label ? 0 : -ENOMEM;
}

/* What may follow a row's last value: closing parentheses, a period, blanks. */
static bool is_tail(const char *s)
{
	for (; *s; s++)
		if (!strchr(" \t).", *s))
			return false;
	return true;
}

/* The default name of a row's first value when the text gives none. */
static const char *default_name(const struct bench_value *f)
{
	if (f->events)
		return "events";
	if (f->v.kind == IMPORT_NS)
		return "latency";
	return f->v.kind == IMPORT_BYTES ? "bytes" : "hits";
}

struct parser {
	struct import_set *set;
	const char *fallback;
	char *para;		/* the paragraph of text being read, lines joined by a blank */
	char *last_para;	/* the last whole paragraph */
	char *last_line;	/* the last non-blank text line (a header's title) */
	char *title;		/* a header's title, for the rows that follow */
	char bench[64];		/* "Setting up benchmark 'NAME'...": Summary rows' label */
	bool text_since_row;	/* other text came between the last row and now */
	int machine;		/* the machine named last (import_machine.c), or -1 */
	int line;
};

/* Called before a line's rows: opens a new block when text or a header came between. */
static int start_rows(struct parser *ps)
{
	const char *title = ps->title;
	int err = 0;

	if (!title && *ps->para)
		title = ps->para;
	if (!title && *ps->last_para)
		title = ps->last_para;
	if (!title)
		title = ps->fallback;
	if (ps->title || ps->text_since_row || !ps->set->nr_titles)
		err = import_title_add(ps->set, title, ps->machine);
	free(ps->title);
	ps->title = NULL;
	ps->para[0] = ps->last_para[0] = '\0';
	ps->text_since_row = false;
	return err;
}

static int new_row(struct parser *ps, struct import_row **out)
{
	struct import_set *set = ps->set;

	if (ARRAY_ROOM(set->rows, set->nr_rows))
		return -ENOMEM;
	*out = &set->rows[set->nr_rows++];
	**out = (struct import_row){ .exp = set->nr_titles - 1, .line = ps->line, .cpu = -1 };
	return 0;
}

/* The row's label from the text before its first value; "Summary:" takes the bench's. */
static int label_row(struct parser *ps, struct import_row *r, const char *seg, size_t len,
		     const struct bench_value *first)
{
	const char *sum = "Summary:";
	char *end;
	int err;
	size_t lead = bench_skip_blanks(seg, 0);

	set_name(&r->v[0], default_name(first));
	seg += lead;
	len -= lead < len ? lead : len;
	if (len >= strlen(sum) && !strncmp(seg, sum, strlen(sum))) {
		char *name = trimmed(seg + strlen(sum), len - strlen(sum));

		if (!name)
			return -ENOMEM;
		if (*name)
			set_name(&r->v[0], name);
		free(name);
		r->label = strdup(*ps->bench ? ps->bench : "Summary");
		return r->label ? 0 : -ENOMEM;
	}
	err = split_label(seg, len, &r->label, &r->v[0]);
	if (!err && isdigit((unsigned char)r->label[0])) {
		long cpu = strtol(r->label, &end, 10);

		if (*end == ':' && end[1] && cpu < 100000)
			r->cpu = cpu;
	}
	return err;
}

/* Drop the rows a line added (it turned out to be no table line). */
static void drop_rows(struct import_set *set, int keep)
{
	while (set->nr_rows > keep)
		free(set->rows[--set->nr_rows].label);
}

/*
 * Rows from a line with values; false (and nothing added) when the line
 * does not read as rows: a value without a name, text after the last one.
 */
static int parse_rows(struct parser *ps, const char *line, const struct bench_value *fs, int nr,
		      bool *ok)
{
	int keep = ps->set->nr_rows, err;
	struct import_row *r = NULL;
	size_t from = 0;
	char name[48];

	*ok = false;
	for (int i = 0; i < nr; i++) {
		const char *seg = line + from;
		size_t len = fs[i].start - from;

		if (i && bench_line_connector(seg, len, name, sizeof(name))) {
			if (fs[i].per_prod)
				goto next;
			if (!*name || r->nr_values == IMPORT_MAX_VALUES)
				goto not_rows;
			r->v[r->nr_values] = fs[i].v;
			set_name(&r->v[r->nr_values++], name);
			goto next;
		}
		if (fs[i].per_prod)
			goto not_rows;
		/* a flattened table: ") next-label" closes the row before */
		while (i && len && (*seg == ')' || *seg == ' ' || *seg == '\t')) {
			seg++;
			len--;
		}
		err = new_row(ps, &r);
		if (!err)
			err = label_row(ps, r, seg, len, &fs[i]);
		if (err)
			return err;
		if (!*r->label)
			goto not_rows;
		snprintf(name, sizeof(name), "%s", r->v[0].name);
		r->v[0] = fs[i].v;
		set_name(&r->v[0], name);
		r->nr_values = 1;
next:
		from = fs[i].end;
	}
	if (!is_tail(line + from))
		goto not_rows;
	*ok = true;
	return 0;
not_rows:
	drop_rows(ps->set, keep);
	return 0;
}

static bool is_underline(const char *line)
{
	size_t n = 0;

	line += bench_skip_blanks(line, 0);
	while (line[n] == '=')
		n++;
	return n >= 3 && !line[bench_skip_blanks(line, n)];
}

/* " ===" inside a line: the end of a flattened header, or NULL. */
static const char *inline_underline(const char *line)
{
	for (const char *p = strstr(line, "==="); p; p = strstr(p + 1, "===")) {
		const char *end = p;

		while (*end == '=')
			end++;
		if (p > line && p[-1] == ' ' && (!*end || *end == ' ' || *end == '\t'))
			return p;
	}
	return NULL;
}

/* A text line: part of the paragraph a following block may take as its title. */
static int add_text(struct parser *ps, const char *line)
{
	char *t = trimmed(line, strlen(line)), *joined;

	if (!t)
		return -ENOMEM;
	if (!*t) {
		if (*ps->para) {
			free(ps->last_para);
			ps->last_para = ps->para;
			ps->para = strdup("");
		}
		free(t);
		return ps->para ? 0 : -ENOMEM;
	}
	ps->text_since_row = true;
	if (asprintf(&joined, "%s%s%s", ps->para, *ps->para ? " " : "", t) < 0) {
		free(t);
		return -ENOMEM;
	}
	joined[utf8_cut(joined, strlen(joined), IMPORT_MAX_TEXT)] = '\0';
	free(ps->para);
	ps->para = joined;
	free(ps->last_line);
	ps->last_line = t;
	return 0;
}

static int set_header(struct parser *ps, char *title)
{
	if (!title)
		return -ENOMEM;
	free(ps->title);
	ps->title = title;
	ps->para[0] = ps->last_para[0] = '\0';
	return 0;
}

/* Lines of the bench's own progress, which neither hold rows nor split blocks. */
static bool is_bench_chatter(struct parser *ps, const char *line)
{
	const char *setup = "Setting up benchmark '";
	const char *q;

	if (!strncmp(line, setup, strlen(setup))) {
		q = strchr(line + strlen(setup), '\'');
		snprintf(ps->bench, sizeof(ps->bench), "%.*s",
			 q ? (int)(q - line - strlen(setup)) : 0, line + strlen(setup));
		return true;
	}
	return !strncmp(line, "Iter ", 5) || !strncmp(line, "Benchmark '", 11);
}

/* The line being read as skipped, for why; what (of len bytes) is the text not read. */
static int add_skipped(struct parser *ps, const char *why, const char *what, size_t len)
{
	struct import_set *set = ps->set;
	struct import_skip *sk;

	if (ARRAY_ROOM(set->skipped, set->nr_skipped))
		return -ENOMEM;
	sk = &set->skipped[set->nr_skipped++];
	*sk = (struct import_skip){ .line = ps->line, .why = why };
	/* a value and its unit fit; a longer text is cut, and says so */
	if (len < sizeof(sk->what))
		snprintf(sk->what, sizeof(sk->what), "%.*s", (int)len, what);
	else
		snprintf(sk->what, sizeof(sk->what), "%.*s...",
			 (int)utf8_cut(what, len, sizeof(sk->what) - 4), what);
	return 0;
}

/* The text is refused at the line being read: -EINVAL, the set saying where and why. */
static int refuse(struct parser *ps, const char *why)
{
	ps->set->bad_line = ps->line;
	ps->set->bad_why = why;
	return -EINVAL;
}

static int parse_line(struct parser *ps, const char *line)
{
	struct import_machine m;
	struct bench_value fs[256];
	const char *ul, *why;
	size_t from, to;
	int nr, err;
	bool ok;

	/* replies quote with "> ", "> > ", ">>> " */
	while (*line == '>' || *line == ' ' || *line == '\t')
		line++;
	if (is_bench_chatter(ps, line))
		return 0;
	if (import_machine_line(line, &m)) {
		/* a machine's name is no title: the blocks after it are that machine's */
		ps->machine = import_machine_add(ps->set, &m);
		ps->text_since_row = true;
		return ps->machine < 0 ? ps->machine : 0;
	}
	if (is_underline(line))
		return set_header(ps, ps->last_line ? strdup(ps->last_line) : NULL);
	ul = inline_underline(line);
	if (ul) {
		err = set_header(ps, trimmed(line, ul - line));
		if (err)
			return err;
		while (*ul == '=')
			ul++;
		line = ul;
	}
	nr = bench_line_values(line, fs, sizeof(fs) / sizeof(fs[0]));
	for (int i = 0; i < nr; i++)
		if (fs[i].too_large)
			return refuse(ps, "a number of 2^63 or more (after its unit): no count or "
				      "size is that large, and a double would not hold it");
	/* a row with a value not read is said, and is no text: the table goes on after it */
	why = bench_line_unread(line, fs, nr, &from, &to);
	if (why)
		return add_skipped(ps, why, line + from, to - from);
	if (!nr)
		return add_text(ps, line);
	err = start_rows(ps);
	if (err)
		return err;
	err = parse_rows(ps, line, fs, nr, &ok);
	if (err || ok)
		return err;
	err = add_skipped(ps, "holds numbers but reads as no bench row", "", 0);
	return err ?: add_text(ps, line);
}

/*
 * Control characters (C0 but tab, DEL, C1 as UTF-8) as blanks: a published page is anyone's
 * text, and its titles and labels reach the terminal, table.txt and the CSVs as they are.
 */
static void blank_controls(char *line)
{
	unsigned char *s = (unsigned char *)line;

	for (; *s; s++) {
		if ((*s < 0x20 && *s != '\t') || *s == 0x7f)
			*s = ' ';
		else if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
			*s = s[1] = ' ';
	}
}

/*
 * A line with a bidi override is refused whole (it shows its text in another order than it
 * is: a label, a number), and is no text either: said, and the table goes on after it.
 */
static int read_line(struct parser *ps, const char *line)
{
	unsigned int bidi = import_bidi_control(line);
	int err;

	if (!bidi)
		return parse_line(ps, line);
	err = add_skipped(ps, "a bidi control, which shows text in another order than it is",
			  "", 0);
	if (!err)
		ps->set->skipped[ps->set->nr_skipped - 1].bidi = bidi;
	return err;
}

static void parser_free(struct parser *ps)
{
	free(ps->para);
	free(ps->last_para);
	free(ps->last_line);
	free(ps->title);
}

int import_parse_len(const char *text, size_t len, const char *fallback_title,
		     struct import_set *set)
{
	struct parser ps = { .set = set, .fallback = fallback_title, .machine = -1 };
	char *copy, *line, *next;
	int err = 0;

	free(set->skipped);
	set->skipped = NULL;
	set->nr_skipped = 0;
	/* a NUL would end the text there, and the rows after it be lost unsaid */
	ps.line = text_nul_line(text, len);
	if (ps.line)
		return refuse(&ps, "a NUL byte: this is no text");
	copy = strndup(text, len);
	ps.para = strdup("");
	ps.last_para = strdup("");
	if (!copy || !ps.para || !ps.last_para)
		err = -ENOMEM;
	for (line = copy; !err && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		blank_controls(line);
		ps.line++;
		err = read_line(&ps, line);
	}
	free(copy);
	parser_free(&ps);
	return err;
}

int import_parse(const char *text, const char *fallback_title, struct import_set *set)
{
	return import_parse_len(text, strlen(text), fallback_title, set);
}

void import_set_free(struct import_set *set)
{
	for (int i = 0; i < set->nr_titles; i++)
		free(set->titles[i]);
	for (int i = 0; i < set->nr_rows; i++)
		free(set->rows[i].label);
	for (int i = 0; i < set->nr_machines; i++)
		import_machine_free(&set->machines[i]);
	free(set->machines);
	import_title_index_free(set);
	free(set->title_machine);
	free(set->titles);
	free(set->rows);
	free(set->skipped);
	*set = (struct import_set){ 0 };
}
