// SPDX-License-Identifier: GPL-2.0
/* The gate's lines (gateline.h): written, parsed, read from an fd as they come. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gateline.h"

#define MAX_WORDS	16

static const char *const kind_words[] = {
	[GATE_POINT] = "point", [GATE_UNIT] = "unit", [GATE_FAIL] = "fail", [GATE_BYE] = "bye",
	[GATE_RUN] = "run", [GATE_END] = "end", [GATE_SOLO] = "solo", [GATE_FREE] = "free",
};

#define NR_KINDS	((int)(sizeof(kind_words) / sizeof(kind_words[0])))

/* The words each kind has after its own (gate_line_parse() checks the count). */
static const int kind_args[] = {
	[GATE_POINT] = 2, [GATE_UNIT] = 4, [GATE_FAIL] = 2, [GATE_BYE] = 0,
	[GATE_RUN] = 2, [GATE_END] = 14, [GATE_SOLO] = 0, [GATE_FREE] = 0,
};

static int format_end(const struct gate_line *l, char *buf, size_t len)
{
	const struct decide_result *d = &l->d;

	return snprintf(buf, len,
			"end %s %d %d %d %d %.17g %.17g %.17g %.17g %.17g %d %u %.17g %d\n",
			l->stop[0] ? l->stop : "-", l->baseline, l->decided, (int)d->word, d->n,
			d->est_pct, d->lo_pct, d->hi_pct, d->level, d->far_pct, d->final,
			l->veto, d->exact_pct, d->exact);
}

int gate_line_format(const struct gate_line *l, char *buf, size_t len)
{
	int n;

	switch (l->kind) {
	case GATE_POINT:
		n = snprintf(buf, len, "point %d %d\n", l->id, l->runnable);
		break;
	case GATE_UNIT:
		n = snprintf(buf, len, "unit %d %d %.17g %u\n", l->id, l->round, l->value,
			     l->flags);
		break;
	case GATE_FAIL:
		n = snprintf(buf, len, "fail %d %d\n", l->id, l->round);
		break;
	case GATE_RUN:
		n = snprintf(buf, len, "run %d %d\n", l->round, l->slot);
		break;
	case GATE_END:
		n = format_end(l, buf, len);
		break;
	default:
		n = snprintf(buf, len, "%s\n", kind_words[l->kind]);
		break;
	}
	return n < 0 || (size_t)n >= len ? -E2BIG : n;
}

static bool parse_int(const char *s, int *v)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(s, &end, 10);
	if (errno || end == s || *end || x < INT_MIN || x > INT_MAX)
		return false;
	*v = (int)x;
	return true;
}

static bool parse_uint(const char *s, unsigned int *v)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || x > UINT_MAX)
		return false;
	*v = (unsigned int)x;
	return true;
}

static bool parse_double(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return end != s && !*end;
}

static bool parse_flag(const char *s, bool *v)
{
	*v = s[0] == '1';
	return (s[0] == '0' || s[0] == '1') && !s[1];
}

/* end's words after "end": the stop, the baseline, the decision. */
static bool parse_end(char **w, struct gate_line *l)
{
	struct decide_result *d = &l->d;
	int word, final;

	if (strlen(w[0]) >= sizeof(l->stop))
		return false;
	snprintf(l->stop, sizeof(l->stop), "%s", strcmp(w[0], "-") ? w[0] : "");
	if (!parse_flag(w[1], &l->baseline) || !parse_flag(w[2], &l->decided) ||
	    !parse_int(w[3], &word) || word < DECIDE_NO_TEST || word > DECIDE_UNDECIDED ||
	    !parse_int(w[4], &d->n) || !parse_double(w[5], &d->est_pct) ||
	    !parse_double(w[6], &d->lo_pct) || !parse_double(w[7], &d->hi_pct) ||
	    !parse_double(w[8], &d->level) || !parse_double(w[9], &d->far_pct) ||
	    !parse_int(w[10], &final) || !parse_uint(w[11], &l->veto) ||
	    !parse_double(w[12], &d->exact_pct) || !parse_flag(w[13], &d->exact))
		return false;
	d->word = word;
	d->final = final;
	d->paired = true;
	return true;
}

static bool parse_args(char **w, struct gate_line *l)
{
	switch (l->kind) {
	case GATE_POINT:
		return parse_int(w[0], &l->id) && parse_flag(w[1], &l->runnable);
	case GATE_UNIT:
		return parse_int(w[0], &l->id) && parse_int(w[1], &l->round) &&
		       parse_double(w[2], &l->value) && parse_uint(w[3], &l->flags);
	case GATE_FAIL:
		return parse_int(w[0], &l->id) && parse_int(w[1], &l->round);
	case GATE_RUN:
		return parse_int(w[0], &l->round) && parse_int(w[1], &l->slot);
	case GATE_END:
		return parse_end(w, l);
	default:
		return true;
	}
}

int gate_line_parse(const char *s, struct gate_line *l)
{
	char copy[GATE_LINE_MAX], *w[MAX_WORDS + 1], *save = NULL;
	int nr = 0, k;

	if (strlen(s) >= sizeof(copy))
		return -EPROTO;
	memcpy(copy, s, strlen(s) + 1);
	for (char *t = strtok_r(copy, " ", &save); t && nr <= MAX_WORDS;
	     t = strtok_r(NULL, " ", &save))
		w[nr++] = t;
	if (!nr || nr > MAX_WORDS)
		return -EPROTO;
	for (k = 0; k < NR_KINDS && strcmp(w[0], kind_words[k]); k++)
		;
	*l = (struct gate_line){ .kind = k, .value = NAN };
	if (k == NR_KINDS || nr - 1 != kind_args[k] || !parse_args(w + 1, l))
		return -EPROTO;
	return 0;
}

/*
 * The next whole line of r's bytes into l, the rest kept: 1, 0 for none
 * yet, or -EPROTO.  Empty lines (a serial port's stray \r\n) are skipped.
 */
static int take_line(struct gate_reader *r, struct gate_line *l)
{
	char *nl;

	while ((nl = memchr(r->buf, '\n', r->len))) {
		char line[GATE_LINE_MAX];
		size_t n = nl - r->buf, used = n + 1;

		memcpy(line, r->buf, n);
		line[n] = '\0';
		memmove(r->buf, r->buf + used, r->len - used);
		r->len -= used;
		/* a serial line may add a \r: the words do not have one */
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (strlen(line) != n)
			return -EPROTO;		/* a NUL in it */
		if (n)
			return gate_line_parse(line, l) ?: 1;
	}
	return r->len == sizeof(r->buf) ? -EPROTO : 0;
}

int gate_read(int fd, struct gate_reader *r, int timeout_ms, struct gate_line *l)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;
	int got;

	for (;;) {
		got = take_line(r, l);
		if (got)
			return got;
		got = poll(&p, 1, timeout_ms);
		if (got <= 0)
			return got < 0 && errno != EINTR ? -errno : 0;
		n = read(fd, r->buf + r->len, sizeof(r->buf) - r->len);
		if (n == 0)
			return -EPIPE;
		if (n < 0)
			return errno == EINTR || errno == EAGAIN ? 0 : -errno;
		r->len += n;
	}
}

int gate_write(int fd, const struct gate_line *l)
{
	char buf[GATE_LINE_MAX];
	int n = gate_line_format(l, buf, sizeof(buf));

	for (int off = 0; n > 0 && off < n;) {
		ssize_t w = write(fd, buf + off, n - off);

		if (w < 0 && errno != EINTR)
			return -errno;
		off += w > 0 ? w : 0;
	}
	return n < 0 ? n : 0;
}
