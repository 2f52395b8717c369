// SPDX-License-Identifier: GPL-2.0
/*
 * The fleet's host file (hosts.h).  A hand-written scanner over one line
 * at a time: each part is taken with the alphabet it may use, and the
 * first byte that does not fit is the column of the error.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "hosts.h"
#include "textfile.h"

void hosts_line_err(const struct hosts_line *s, const char *at, const char *why)
{
	struct loc l = { .file = s->file, .line = s->line, .col = (int)(at - s->start) + 1 };

	diag_at(&l, "%s", why);
}

/* Letters, digits, '.', '_', '-': names that can be neither an option nor a shell word. */
static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-';
}

int hosts_take_name(struct hosts_line *s, char *buf, size_t len, const char *what)
{
	const char *b = s->p;
	char why[128];

	while (s->p < s->end && name_char(*s->p))
		s->p++;
	if (s->p == b || *b == '-' || *b == '.' || (size_t)(s->p - b) >= len) {
		snprintf(why, sizeof(why), "%s: %s", what, s->p == b ? "missing" :
			 *b == '-' || *b == '.' ? "may not start with '-' or '.'" : "too long");
		hosts_line_err(s, b, why);
		return -EINVAL;
	}
	memcpy(buf, b, s->p - b);
	buf[s->p - b] = '\0';
	return 0;
}

/* Digits from 1 to max; 0, or -EINVAL (reported). */
static int take_number(struct hosts_line *s, unsigned int max, unsigned int *out,
		       const char *what)
{
	const char *b = s->p;
	unsigned long v = 0;
	char why[96];

	while (s->p < s->end && isdigit((unsigned char)*s->p) && v <= max)
		v = v * 10 + (*s->p++ - '0');
	if (s->p == b || v < 1 || v > max) {
		snprintf(why, sizeof(why), "%s: expected a number from 1 to %u", what, max);
		hosts_line_err(s, b, why);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int hosts_take_label(struct hosts_line *s, struct host *h)
{
	if (*s->p != '@')
		return 0;
	s->p++;
	if (hosts_take_name(s, h->label, sizeof(h->label), "label"))
		return -EINVAL;
	if (s->p == s->end || *s->p != '/') {
		hosts_line_err(s, s->p, *s->p == '+' ? "one label per host (parallel's "
			       "'@a+b/' groups are not labels)" : "expected '/' after @LABEL");
		return -EINVAL;
	}
	s->p++;
	return 0;
}

/* @LABEL/ and NCPUS/, parallel's prefixes. */
static int take_prefixes(struct hosts_line *s, struct host *h)
{
	const char *slash;

	if (hosts_take_label(s, h))
		return -EINVAL;
	slash = memchr(s->p, '/', s->end - s->p);
	if (slash && isdigit((unsigned char)*s->p)) {
		if (take_number(s, 1u << 20, &h->ncpus, "NCPUS/"))
			return -EINVAL;
		if (*s->p != '/') {
			hosts_line_err(s, s->p, "expected '/' after NCPUS");
			return -EINVAL;
		}
		s->p++;
	}
	return 0;
}

/*
 * parallel takes all before the last space as a command it runs through
 * a shell; here only "ssh" and "ssh -p PORT" are accepted, anything else
 * belongs in --ssh-config.
 */
static int take_ssh_command(struct hosts_line *s, struct host *h)
{
	const char *sp = s->end;

	while (sp > s->p && sp[-1] != ' ')
		sp--;
	if (sp == s->p)
		return 0;
	if (!strncmp(s->p, "ssh -p ", 7)) {
		s->p += 7;
		if (take_number(s, 65535, &h->port, "ssh -p PORT"))
			return -EINVAL;
		s->p += s->p < sp && *s->p == ' ';
	} else if (!strncmp(s->p, "ssh ", 4)) {
		s->p += 4;
	}
	if (s->p != sp) {
		hosts_line_err(s, s->p, "an ssh command other than 'ssh' or 'ssh -p PORT': give ssh "
		       "options in a file for --ssh-config");
		return -EINVAL;
	}
	return 0;
}

/* [USER@]HOST[:PORT], HOST a name or a [bracketed] IPv6 address. */
static int take_login(struct hosts_line *s, struct host *h)
{
	const char *at = memchr(s->p, '@', s->end - s->p), *colon;

	if (at) {
		colon = memchr(s->p, ':', at - s->p);
		if (colon) {
			hosts_line_err(s, colon, "a password in the login: ssh runs with BatchMode, "
			       "use a key");
			return -EINVAL;
		}
		if (hosts_take_name(s, h->user, sizeof(h->user), "user"))
			return -EINVAL;
		if (s->p != at) {
			hosts_line_err(s, s->p, "user: only letters, digits, '.', '_' and '-'");
			return -EINVAL;
		}
		s->p++;
	}
	if (*s->p == '[') {
		const char *b = ++s->p;

		while (s->p < s->end && (isxdigit((unsigned char)*s->p) || *s->p == ':'))
			s->p++;
		if (s->p == b || s->p == s->end || *s->p != ']' ||
		    (size_t)(s->p - b) >= sizeof(h->name)) {
			hosts_line_err(s, s->p, "expected an IPv6 address and ']'");
			return -EINVAL;
		}
		memcpy(h->name, b, s->p - b);
		h->name[s->p++ - b] = '\0';
	} else if (hosts_take_name(s, h->name, sizeof(h->name), "host")) {
		return -EINVAL;
	}
	if (s->p < s->end && *s->p == ':') {
		if (h->port) {
			hosts_line_err(s, s->p, "a port twice: 'ssh -p PORT' and ':PORT'");
			return -EINVAL;
		}
		s->p++;
		if (take_number(s, 65535, &h->port, "port"))
			return -EINVAL;
	}
	if (s->p != s->end) {
		hosts_line_err(s, s->p, "unexpected character in the login");
		return -EINVAL;
	}
	return 0;
}

int hosts_check_unique(const struct hosts_line *s, const struct hosts *hs, const struct host *h)
{
	char why[HOST_LABEL_LEN + 96];

	for (int i = 0; i < hs->nr; i++) {
		if (strcmp(hs->h[i].label, h->label))
			continue;
		snprintf(why, sizeof(why), "label '%s' already names the host of line %d "
			 "(give each host its own @LABEL/)", h->label, hs->h[i].line);
		hosts_line_err(s, s->start, why);
		return -EINVAL;
	}
	return 0;
}

static int parse_line(struct hosts_line *s, void *arg)
{
	struct hosts *hs = arg;
	struct host h = { .line = s->line };

	if (take_prefixes(s, &h) || take_ssh_command(s, &h) || take_login(s, &h))
		return -EINVAL;
	if (!h.label[0])
		snprintf(h.label, sizeof(h.label), "%.*s", (int)sizeof(h.label) - 1, h.name);
	if (hosts_check_unique(s, hs, &h))
		return -EINVAL;
	if (hs->nr == HOSTS_MAX) {
		hosts_line_err(s, s->start, "too many hosts (at most " HOSTS_MAX_TEXT ")");
		return -EINVAL;
	}
	hs->h[hs->nr++] = h;
	return 0;
}

/*
 * A control character of the line (a NUL, ESC, BEL, DEL; not a tab or the
 * blanks around it): no login holds one, and each would otherwise be "host:
 * missing" at best, or, a NUL, the end of the file, the hosts after it
 * dropped unsaid.  Reported at its column; -EINVAL.
 */
static int check_controls(const struct hosts_line *s)
{
	char why[96];

	for (const char *c = s->p; c < s->end; c++) {
		unsigned char b = *c;

		if ((b >= 0x20 && b != 0x7f) || b == '\t')
			continue;
		if (!b)
			snprintf(why, sizeof(why), "a NUL byte: a host file is text");
		else
			snprintf(why, sizeof(why), "a control character (0x%02x%s): a host file "
				 "is text", b, b == 0x1b ? ", ESC" : "");
		hosts_line_err(s, c, why);
		return -EINVAL;
	}
	return 0;
}

int hosts_each_line(const char *file, const char *text, size_t len,
		    int (*fn)(struct hosts_line *s, void *arg), void *arg)
{
	struct hosts_line s = { .file = file };
	const char *p = text, *end = text + len, *nl;
	int err = 0;

	/* a UTF-8 byte order mark, as Windows editors begin a file: no part of the first line */
	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	for (s.line = 1; p < end; s.line++, p = nl + 1) {
		nl = memchr(p, '\n', end - p) ?: end;
		s.start = s.p = p;
		s.end = nl;
		/* leading and trailing blanks, as parallel's chomp and /^\s*#/ allow */
		while (s.p < s.end && isspace((unsigned char)*s.p))
			s.p++;
		while (s.end > s.p && isspace((unsigned char)s.end[-1]))
			s.end--;
		if (s.p < s.end && *s.p != '#' && check_controls(&s)) {
			err = -EINVAL;
			continue;
		}
		if (s.p == s.end || *s.p == '#')
			continue;
		if (fn(&s, arg))
			err = -EINVAL;
	}
	return err;
}

int hosts_parse_len(const char *file, const char *text, size_t len, struct hosts *hs)
{
	int err;

	hs->nr = 0;
	err = hosts_each_line(file, text, len, parse_line, hs);
	if (!err && !hs->nr) {
		diag_err("%s: no host (one ssh login per line, e.g. @box1/root@10.0.0.2)", file);
		err = -EINVAL;
	}
	return err;
}

int hosts_parse(const char *file, const char *text, struct hosts *hs)
{
	return hosts_parse_len(file, text, strlen(text), hs);
}

int hosts_load(const char *path, struct hosts *hs)
{
	char *text;
	size_t len;
	int err = read_text_file_len(path, &text, &len);

	if (err) {
		diag_err("cannot read %s: %s", path, textfile_strerror(err));
		return err;
	}
	err = hosts_parse_len(path, text, len, hs);
	free(text);
	return err;
}
