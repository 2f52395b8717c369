// SPDX-License-Identifier: GPL-2.0
/*
 * A benchmark program's output into intervals: see execparse.h.  The
 * values of the kernel's own formats are read by benchline.c, the scanner
 * `import` reads the same lines with from published pages.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchline.h"
#include "execparse.h"
#include "textfile.h"

const char *const exec_format_names[] = { "kbench", "map_perf", "regex", "csv", "jsonl", NULL };

#define MAX_VALUES	32	/* of one line */
#define QUOTE_LEN	80	/* of a line quoted in an error */

/* "output line 7: <what>: Iter   3 ..." with the line's control characters blanked. */
int exec_line_error(char *why, size_t len, int line, const char *text, const char *what)
{
	char quote[QUOTE_LEN + 1];
	size_t n = 0;

	for (; text[n] && n < QUOTE_LEN; n++)
		quote[n] = (unsigned char)text[n] < 0x20 || text[n] == 0x7f ? ' ' : text[n];
	quote[n] = '\0';
	snprintf(why, len, "output line %d: %s: %s%s", line, what, quote, text[n] ? "..." : "");
	return -EBADMSG;
}

/*
 * exec_run.c makes each rate a count over the interval (a nominal second
 * when the program gave no time): one that would pass an int64 is refused,
 * not wrapped into 9.2e18 events.
 */
static int check_counts(const struct exec_parser *p, const struct exec_iv *iv, char *why,
			size_t len)
{
	double secs = iv->elapsed_ns ? iv->elapsed_ns / 1e9 : 1;

	for (int m = 0; m < p->nr_metrics; m++) {
		if (iv->rate[m] * secs < 0x1p63)
			continue;
		snprintf(why, len, "output line %d: '%s' of %g/s over %g s is 2^63 events or more",
			 iv->line, p->metrics[m], iv->rate[m], secs);
		return -EBADMSG;
	}
	return 0;
}

static int add_iv(const struct exec_parser *p, struct exec_output *out, const struct exec_iv *iv,
		  char *why, size_t len)
{
	struct exec_iv *grown;
	int err = check_counts(p, iv, why, len);

	if (err)
		return err;
	grown = realloc(out->iv, (out->nr_iv + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	out->iv = grown;
	out->iv[out->nr_iv++] = *iv;
	return 0;
}

/*
 * Line nr is left out for text[0..len) not read, why: said by the caller.
 * Returns 1 (the line is no interval), or -ENOMEM.
 */
static int skip_line(struct exec_output *out, int nr, const char *why, const char *text,
		     size_t len)
{
	struct exec_skip *sk, *grown = realloc(out->skipped,
					       (out->nr_skipped + 1) * sizeof(*grown));
	size_t max = sizeof(sk->what) - 4;

	if (!grown)
		return -ENOMEM;
	out->skipped = grown;
	sk = &out->skipped[out->nr_skipped++];
	*sk = (struct exec_skip){ .line = nr, .why = why };
	if (len < sizeof(sk->what)) {
		snprintf(sk->what, sizeof(sk->what), "%.*s", (int)len, text);
		return 1;
	}
	/* cut at a character's start, and say so */
	while (max && ((unsigned char)text[max] & 0xc0) == 0x80)
		max--;
	snprintf(sk->what, sizeof(sk->what), "%.*s...", (int)max, text);
	return 1;
}

/* "total operations" is the metric total_operations. */
static bool same_name(const char *metric, const char *text)
{
	for (; *metric && *text; metric++, text++)
		if (*metric != *text && !(*metric == '_' && *text == ' '))
			return false;
	return !*metric && !*text;
}

/* The name of the first value: the text before it, "hits   " or "hits:". */
static void first_name(const char *s, size_t len, char *name, size_t namelen)
{
	size_t i = bench_skip_blanks(s, 0);

	while (len > i && (isspace((unsigned char)s[len - 1]) || s[len - 1] == ':'))
		len--;
	snprintf(name, namelen, "%.*s", (int)(len - i), s + i);
}

/*
 * The named rates of "hits 13.825M/s (6.912M/prod), drops 0.000M/s" (the
 * text after "Iter N (...):" or "Summary:") into iv->rate, by metric; the
 * per-producer copies are left out.  1 when a value is not read: the line
 * is left out, into out->skipped.
 */
static int kbench_values(const struct exec_parser *p, const char *s, struct exec_iv *iv,
			 struct exec_output *out, char *why, size_t len, const char *line)
{
	struct bench_value vs[MAX_VALUES];
	bool seen[WL_MAX_METRICS] = { false };
	int nr = bench_line_values(s, vs, MAX_VALUES);
	const char *unread;
	size_t from = 0, to;
	char name[48], what[96];

	unread = bench_line_unread(s, vs, nr, &from, &to);
	if (unread)
		return skip_line(out, iv->line, unread, s + from, to - from);
	from = 0;
	for (int i = 0; i < nr; i++) {
		if (!i)
			first_name(s, vs[i].start, name, sizeof(name));
		else if (!bench_line_connector(s + from, vs[i].start - from, name, sizeof(name)))
			return exec_line_error(why, len, iv->line, line, "a value without a name");
		from = vs[i].end;
		if (vs[i].too_large)
			return exec_line_error(why, len, iv->line, line, "a number of 2^63 or more");
		if (vs[i].per_prod)
			continue;
		for (int m = 0; m < p->nr_metrics; m++) {
			if (!same_name(p->metrics[m], name))
				continue;
			if (vs[i].v.kind != IMPORT_RATE)
				return exec_line_error(why, len, iv->line, line, "not a rate");
			iv->rate[m] = vs[i].v.mean;
			seen[m] = true;
		}
	}
	for (int m = 0; m < p->nr_metrics; m++) {
		if (!seen[m]) {
			snprintf(what, sizeof(what), "no value '%s'", p->metrics[m]);
			return exec_line_error(why, len, iv->line, line, what);
		}
	}
	return 0;
}

/*
 * "Iter   3 ( -8.107us): ..." : bench.c prints how far the iteration's
 * length was from one second, in us.  *rest is the text after the colon.
 */
static int kbench_iter(const char *line, uint64_t *elapsed_ns, const char **rest)
{
	const char *s = line + strlen("Iter");
	char *end;
	double dev_us;

	strtol(s, &end, 10);
	if (end == s)
		return -EBADMSG;
	s = end + bench_skip_blanks(end, 0);
	if (*s++ != '(')
		return -EBADMSG;
	dev_us = strtod(s, &end);
	if (end == s || strncmp(end, "us):", 4) || dev_us <= -1e6 || dev_us >= 1e9)
		return -EBADMSG;
	*elapsed_ns = (uint64_t)(1e9 + dev_us * 1e3 + 0.5);
	*rest = end + 4;
	return 0;
}

static int kbench_line(const struct exec_parser *p, const char *line, int nr,
		       struct exec_output *out, struct exec_iv *summary, char *why, size_t len)
{
	struct exec_iv iv = { .line = nr };
	const char *rest;
	int err;

	if (!strncmp(line, "Summary:", 8)) {
		*summary = iv;
		err = kbench_values(p, line + 8, summary, out, why, len, line);
		if (err > 0)
			*summary = (struct exec_iv){ 0 };	/* left out: no interval */
		return err > 0 ? 0 : err;
	}
	if (strncmp(line, "Iter ", 5))
		return 0;
	if (kbench_iter(line, &iv.elapsed_ns, &rest))
		return exec_line_error(why, len, nr, line, "not 'Iter N (X.XXXus): ...'");
	err = kbench_values(p, rest, &iv, out, why, len, line);
	if (err > 0)
		return 0;
	return err ?: add_iv(p, out, &iv, why, len);
}

/* "3:hash_map_perf kmalloc 299175 events per sec": worker 3's rate. */
static int map_perf_line(const char *line, int nr, struct exec_output *out, char *why,
			 size_t len)
{
	double **rates = &out->thread_rate;
	int *nr_rates = &out->nr_threads;
	struct bench_value vs[2];
	const char *unread;
	size_t from, to;
	char *end;
	long n;

	if (!isdigit((unsigned char)line[0]) || !strstr(line, "events per sec"))
		return 0;
	n = strtol(line, &end, 10);
	if (*end != ':')
		return 0;
	if (bench_line_values(line, vs, 2) != 1 || !vs[0].events || line[vs[0].end])
		return exec_line_error(why, len, nr, line, "not 'N:name X events per sec'");
	if (vs[0].too_large)
		return exec_line_error(why, len, nr, line, "a number of 2^63 or more");
	/* "1,000 events per sec" is not 000 (its worker's line missing is then the error) */
	unread = bench_line_unread(line, vs, 1, &from, &to);
	if (unread)
		return skip_line(out, nr, unread, line + from, to - from) < 0 ? -ENOMEM : 0;
	if (n >= 4096)
		return exec_line_error(why, len, nr, line, "worker number above 4095");
	if (n >= *nr_rates) {
		double *grown = realloc(*rates, (n + 1) * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		for (int i = *nr_rates; i <= n; i++)
			grown[i] = -1;
		*rates = grown;
		*nr_rates = n + 1;
	}
	if ((*rates)[n] >= 0)
		return exec_line_error(why, len, nr, line, "worker printed twice");
	(*rates)[n] = vs[0].v.mean;
	return 0;
}

/* The workers' lines as one interval of the total; every worker 0..N must be there. */
static int map_perf_done(const struct exec_parser *p, struct exec_output *out, int first_line,
			 char *why, size_t len)
{
	struct exec_iv iv = { .line = first_line };

	for (int i = 0; i < out->nr_threads; i++) {
		if (out->thread_rate[i] < 0) {
			snprintf(why, len, "output: no line of worker %d (workers 0..%d printed)",
				 i, out->nr_threads - 1);
			return -EBADMSG;
		}
		iv.rate[0] += out->thread_rate[i];
	}
	return add_iv(p, out, &iv, why, len);
}

bool exec_good_number(double v)
{
	return v >= 0 && v < 1e300;	/* false for NaN too */
}

bool exec_set_field(const struct exec_parser *p, int f, double v, struct exec_iv *iv)
{
	double ns;

	if (p->field[f] != EXEC_FIELD_ELAPSED) {
		iv->rate[p->field[f]] = v;
		return true;
	}
	/* a double past 2^64 cast to uint64_t is undefined: refused before */
	ns = v * p->elapsed_scale + 0.5;
	if (ns >= 0x1p63)
		return false;
	iv->elapsed_ns = (uint64_t)ns;
	return true;
}

/* A group's text as a number: all of it, finite and not negative. */
static bool group_number(const char *line, const regmatch_t *m, double *v)
{
	char buf[64], *end;
	int n = m->rm_eo - m->rm_so;

	if (m->rm_so < 0 || n <= 0 || n >= (int)sizeof(buf))
		return false;
	memcpy(buf, line + m->rm_so, n);
	buf[n] = '\0';
	*v = strtod(buf, &end);
	return end != buf && !*end && exec_good_number(*v);
}

static int regex_line(const struct exec_parser *p, const char *line, int nr,
		      struct exec_output *out, char *why, size_t len)
{
	regmatch_t m[EXEC_MAX_FIELDS + 1];
	struct exec_iv iv = { .line = nr };
	char what[64];
	double v;

	if (strlen(line) > EXEC_MAX_REGEX_LINE) {
		snprintf(what, sizeof(what), "longer than %d bytes, the most a regex is tried on",
			 EXEC_MAX_REGEX_LINE);
		return exec_line_error(why, len, nr, line, what);
	}
	if (regexec(&p->re, line, p->nr_fields + 1, m, 0))
		return 0;
	for (int g = 0; g < p->nr_fields; g++) {
		if (p->field[g] == EXEC_FIELD_SKIP)
			continue;
		if (!group_number(line, &m[g + 1], &v)) {
			snprintf(what, sizeof(what), "group %d is no number", g + 1);
			return exec_line_error(why, len, nr, line, what);
		}
		if (!exec_set_field(p, g, v, &iv))
			return exec_line_error(why, len, nr, line, "an elapsed time of 2^63 ns or more");
	}
	return add_iv(p, out, &iv, why, len);
}

/* What one parse carries from line to line. */
struct parse_state {
	struct exec_iv summary;		/* kbench: its Summary line */
	struct exec_csv_state csv;
};

/* A csv or jsonl line: an interval, or none. */
static int row_line(const struct exec_parser *p, const char *line, int nr,
		    struct exec_output *out, struct parse_state *st, char *why, size_t len)
{
	struct exec_iv iv = { .line = nr };
	int ret = p->fmt == EXEC_CSV ? exec_csv_line(p, &st->csv, line, &iv, why, len) :
		  exec_jsonl_line(p, line, &iv, why, len);

	return ret > 0 ? add_iv(p, out, &iv, why, len) : ret;
}

static int parse_line(const struct exec_parser *p, const char *line, int nr,
		      struct exec_output *out, struct parse_state *st, char *why, size_t len)
{
	switch (p->fmt) {
	case EXEC_KBENCH:
		return kbench_line(p, line, nr, out, &st->summary, why, len);
	case EXEC_MAP_PERF:
		return map_perf_line(line, nr, out, why, len);
	case EXEC_REGEX:
		return regex_line(p, line, nr, out, why, len);
	default:
		return row_line(p, line, nr, out, st, why, len);
	}
}

/* What the output lacks when it has no interval. */
static const char *none_found(const struct exec_parser *p, const struct parse_state *st)
{
	switch (p->fmt) {
	case EXEC_KBENCH:
		return "no 'Iter' or 'Summary' line";
	case EXEC_MAP_PERF:
		return "no 'N:name X events per sec' line";
	case EXEC_REGEX:
		return "no line matching the regex";
	case EXEC_CSV:
		return st->csv.header ? "no CSV row after the header" :
		       "no CSV header line naming the fields' columns";
	default:
		return "no JSON object line";
	}
}

/* After the last line: what the whole output makes. */
static int parse_end(const struct exec_parser *p, struct exec_output *out,
		     const struct parse_state *st, char *why, size_t len)
{
	if (p->fmt == EXEC_MAP_PERF && out->nr_threads)
		return map_perf_done(p, out, 1, why, len);
	/* bench -q prints no Iter lines: its Summary is the one interval */
	if (p->fmt == EXEC_KBENCH && !out->nr_iv && st->summary.line)
		return add_iv(p, out, &st->summary, why, len);
	if (!out->nr_iv) {
		snprintf(why, len, "output: %s", none_found(p, st));
		return -EBADMSG;
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Before line nr: stopped (-EINTR), past the deadline (-ETIMEDOUT), or 0 to go on. */
static int bounded(const struct exec_parse_bounds *b, int nr, char *why, size_t len)
{
	if (!b)
		return 0;
	if (b->stop && b->stop())
		return -EINTR;
	if (b->deadline_ns && now_ns() >= b->deadline_ns) {
		snprintf(why, len, "timed out parsing the output, at line %d", nr);
		return -ETIMEDOUT;
	}
	return 0;
}

int exec_parse(const struct exec_parser *p, const char *text, size_t len,
	       const struct exec_parse_bounds *b, struct exec_output *out, char *why,
	       size_t whylen)
{
	struct parse_state st = { 0 };
	char *copy, *line, *next;
	int err = 0, nr = text_nul_line(text, len);

	*out = (struct exec_output){ 0 };
	/* a NUL would end the text there, the lines after it unread and unsaid */
	if (nr) {
		snprintf(why, whylen, "output line %d: a NUL byte: no text output", nr);
		return -EBADMSG;
	}
	copy = strndup(text, len);
	if (!copy)
		return -ENOMEM;
	for (line = copy; !err && line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		nr++;
		err = bounded(b, nr, why, whylen) ?: parse_line(p, line, nr, out, &st, why, whylen);
	}
	free(copy);
	if (!err)
		err = parse_end(p, out, &st, why, whylen);
	if (err)
		exec_output_free_intervals(out);
	return err;
}

/* A bracket expression from s[0] == '[': the index just past its closing ']' (or the end). */
static size_t skip_bracket(const char *s)
{
	size_t i = 1;

	if (s[i] == '^')
		i++;
	if (s[i] == ']')
		i++;		/* a leading ']' is a member, not the end */
	for (; s[i] && s[i] != ']'; i++) {
		/* "[:alpha:]", "[.-.]", "[=e=]" may hold a ']' of their own */
		if (s[i] == '[' && (s[i + 1] == ':' || s[i + 1] == '.' || s[i + 1] == '=')) {
			const char *end = strchr(s + i + 2, ']');

			if (!end)
				return strlen(s);
			i = end - s;
		}
	}
	return s[i] ? i + 1 : i;
}

int exec_regex_backref(const char *re)
{
	for (size_t i = 0; re[i];) {
		if (re[i] == '[') {
			i += skip_bracket(re + i);
			continue;
		}
		if (re[i] == '\\' && re[i + 1] >= '1' && re[i + 1] <= '9')
			return i;
		i += re[i] == '\\' && re[i + 1] ? 2 : 1;
	}
	return -1;
}

void exec_output_free_intervals(struct exec_output *out)
{
	free(out->iv);
	free(out->thread_rate);
	out->iv = NULL;
	out->nr_iv = 0;
	out->thread_rate = NULL;
	out->nr_threads = 0;
}

void exec_output_free(struct exec_output *out)
{
	exec_output_free_intervals(out);
	free(out->skipped);
	*out = (struct exec_output){ 0 };
}
