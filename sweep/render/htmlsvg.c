// SPDX-License-Identifier: GPL-2.0
/*
 * A chart's SVG inline in a page, rebuilt from its parts (htmlsvg.h): a
 * small XML scanner that keeps the elements and attributes of a chart and
 * refuses the rest, writing each text and value again through html_put().
 */
#define _GNU_SOURCE	/* memmem */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "html.h"
#include "htmlsvg.h"
#include "termsafe.h"

#define SVG_MAX_DEPTH	64
#define SVG_NAME_LEN	32

/* What a chart of gnuplot's is made of, and a little more: nothing that loads or runs. */
static const char *const svg_elements[] = {
	"svg", "g", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
	"text", "tspan", "title", "desc", "defs", "use", "symbol", "marker", "clipPath",
	"filter", "feFlood", "feComposite", "linearGradient", "radialGradient", "stop", NULL,
};

/* The elements that hold text only. */
static const char *const svg_text_only[] = { "title", "desc", NULL };

/* The attributes with a colon that are kept; href only as "#id". */
static const char *const svg_colon_attrs[] = { "xlink:href", "xmlns:xlink", "xml:space", NULL };

static const struct {
	const char *name;
	char c;
} xml_entities[] = {
	{ .name = "lt", .c = '<' }, { .name = "gt", .c = '>' }, { .name = "amp", .c = '&' },
	{ .name = "quot", .c = '"' }, { .name = "apos", .c = '\'' },
};

struct svg_parse {
	const char *s;
	size_t n, at;
	FILE *out;
	const char *prefix;
	char stack[SVG_MAX_DEPTH][SVG_NAME_LEN];
	int depth;
	bool root_seen;
	char *buf;		/* a text or value decoded: never longer than its source */
	char *why;
	size_t why_len;
};

static int refuse(struct svg_parse *p, const char *what)
{
	snprintf(p->why, p->why_len, "%s at byte %zu", what, p->at);
	return -EINVAL;
}

static bool in_list(const char *const *list, const char *name)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static bool name_char(char c, bool first)
{
	return isalpha((unsigned char)c) || c == '_' || c == ':' ||
	       (!first && (isdigit((unsigned char)c) || c == '-' || c == '.'));
}

/* The name at p->at into name; 0 or -EINVAL. */
static int parse_name(struct svg_parse *p, char *name, size_t len)
{
	size_t k = 0;

	while (p->at < p->n && name_char(p->s[p->at], k == 0)) {
		if (k + 1 == len)
			return refuse(p, "a name too long");
		name[k++] = p->s[p->at++];
	}
	name[k] = '\0';
	return k ? 0 : refuse(p, "a name expected");
}

/* Does the input at p->at begin with lit?  The input has no NUL after its n bytes. */
static bool at_str(const struct svg_parse *p, const char *lit)
{
	size_t k = strlen(lit);

	return p->n - p->at >= k && !memcmp(p->s + p->at, lit, k);
}

static void skip_space(struct svg_parse *p)
{
	while (p->at < p->n && isspace((unsigned char)p->s[p->at]))
		p->at++;
}

/* Code point c as UTF-8 into out: its length, 0 for one XML has no character for. */
static size_t utf8_put(unsigned long c, char *out)
{
	if (c == 0 || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	if (c < 0x80) {
		out[0] = c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = 0xc0 | c >> 6;
		out[1] = 0x80 | (c & 0x3f);
		return 2;
	}
	if (c < 0x10000) {
		out[0] = 0xe0 | c >> 12;
		out[1] = 0x80 | (c >> 6 & 0x3f);
		out[2] = 0x80 | (c & 0x3f);
		return 3;
	}
	out[0] = 0xf0 | c >> 18;
	out[1] = 0x80 | (c >> 12 & 0x3f);
	out[2] = 0x80 | (c >> 6 & 0x3f);
	out[3] = 0x80 | (c & 0x3f);
	return 4;
}

/* The reference "&...;" at s (len bytes to its end) into out: bytes written, 0 if none. */
static size_t decode_ref(const char *s, size_t len, char *out, size_t *used)
{
	const char *semi = memchr(s, ';', len < 12 ? len : 12);
	size_t k = semi ? (size_t)(semi - s) : 0;
	char ref[12];

	if (k < 2)
		return 0;
	memcpy(ref, s + 1, k - 1);
	ref[k - 1] = '\0';
	*used = k + 1;
	if (ref[0] == '#') {
		bool hex = ref[1] == 'x';
		char *end;
		unsigned long c = strtoul(ref + 1 + hex, &end, hex ? 16 : 10);

		return *end || end == ref + 1 + hex || !isxdigit((unsigned char)ref[1 + hex]) ?
		       0 : utf8_put(c, out);
	}
	for (size_t i = 0; i < sizeof(xml_entities) / sizeof(xml_entities[0]); i++)
		if (!strcmp(ref, xml_entities[i].name)) {
			out[0] = xml_entities[i].c;
			return 1;
		}
	return 0;
}

/* s[from..to) with its references decoded into p->buf: the length, or -EINVAL. */
static long decode(struct svg_parse *p, size_t from, size_t to)
{
	size_t k = 0;

	for (size_t i = from; i < to;) {
		size_t used = 0, w;

		if (p->s[i] != '&') {
			p->buf[k++] = p->s[i++];
			continue;
		}
		w = decode_ref(p->s + i, to - i, p->buf + k, &used);
		if (!w) {
			p->at = i;
			return refuse(p, "an unknown character reference");
		}
		k += w;
		i += used;
	}
	return k;
}

/* Is attribute name one that neither runs (on*) nor styles (style: CSS can load)? */
static bool allowed_attr(const char *name)
{
	if (!strncasecmp(name, "on", 2) || !strcasecmp(name, "style"))
		return false;
	return !strchr(name, ':') || in_list(svg_colon_attrs, name);
}

/* The first "url(" of v[0..len), in any case as CSS reads it, or NULL. */
static const char *find_url(const char *v, size_t len)
{
	for (size_t i = 0; i + 4 <= len; i++)
		if (!strncasecmp(v + i, "url(", 4))
			return v + i;
	return NULL;
}

/*
 * A value's url() references: each must be to "#id", and gets the prefix.
 * No backslash: a CSS escape ("\75 rl(") would spell a url() unseen.
 */
static int put_value(struct svg_parse *p, const char *v, size_t len)
{
	const char *u;

	if (memchr(v, '\\', len))
		return refuse(p, "a backslash in a value (a CSS escape)");
	while ((u = find_url(v, len))) {
		size_t head = u - v + 4;

		if (head == len || v[head] != '#')
			return refuse(p, "a url() to other than #id");
		html_put(p->out, v, head + 1);
		html_text(p->out, p->prefix);
		v += head + 1;
		len -= head + 1;
	}
	html_put(p->out, v, len);
	return 0;
}

/*
 * An id, or the one a link names: letters, digits, '-', '_' and '.', as
 * gnuplot writes them.  Anything else could carry what a value must not
 * (an id "url(p" was a url() in the page's output; the fuzzer found it).
 */
static bool id_ok(const char *id, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)id[i]) && !strchr("-_.", id[i]))
			return false;
	return len > 0;
}

/* The value of attribute name, decoded in p->buf, written again: 0 or -EINVAL. */
static int put_attr(struct svg_parse *p, const char *name, size_t len)
{
	/* in any case: the HTML parser lowers attribute names */
	bool href = !strcasecmp(name, "href") || !strcasecmp(name, "xlink:href");

	for (size_t i = 0; i < len; i++)
		if (p->buf[i] == '\n' || p->buf[i] == '\r' || p->buf[i] == '\t')
			p->buf[i] = ' ';	/* as XML reads a value */
	/* term_put() would write such bytes as "\xNN": a CSS escape in a value */
	p->buf[len] = '\0';
	if (strlen(p->buf) != len || term_unsafe(p->buf))
		return refuse(p, "a control character or invalid UTF-8 in a value");
	fprintf(p->out, " %s=\"", name);
	if (href) {
		if (!len || p->buf[0] != '#' || !id_ok(p->buf + 1, len - 1))
			return refuse(p, "a link to other than #id");
		fputc('#', p->out);
		html_text(p->out, p->prefix);
		html_put(p->out, p->buf + 1, len - 1);
	} else if (!strcasecmp(name, "id")) {
		if (!id_ok(p->buf, len))
			return refuse(p, "an id of other than letters, digits, '-', '_' and '.'");
		html_text(p->out, p->prefix);
		html_put(p->out, p->buf, len);
	} else if (put_value(p, p->buf, len)) {
		return -EINVAL;
	}
	fputc('"', p->out);
	return 0;
}

/* One attribute at p->at: name="value" or name='value'; 0 or -EINVAL. */
static int parse_attr(struct svg_parse *p)
{
	char name[SVG_NAME_LEN];
	const char *end;
	char quote;
	long len;

	if (parse_name(p, name, sizeof(name)))
		return -EINVAL;
	if (!allowed_attr(name))
		return refuse(p, "an attribute that may run or load something");
	skip_space(p);
	if (p->at >= p->n || p->s[p->at++] != '=')
		return refuse(p, "'=' expected");
	skip_space(p);
	quote = p->at < p->n ? p->s[p->at] : 0;
	if (quote != '"' && quote != '\'')
		return refuse(p, "a quoted value expected");
	end = memchr(p->s + p->at + 1, quote, p->n - p->at - 1);
	if (!end || memchr(p->s + p->at + 1, '<', end - p->s - p->at - 1))
		return refuse(p, "an unterminated value");
	len = decode(p, p->at + 1, end - p->s);
	if (len < 0)
		return -EINVAL;
	p->at = end - p->s + 1;
	return put_attr(p, name, len);
}

/* A start tag at p->at (after '<'), written again; 0 or -EINVAL. */
static int start_tag(struct svg_parse *p)
{
	char name[SVG_NAME_LEN];
	bool empty = false;

	if (parse_name(p, name, sizeof(name)))
		return -EINVAL;
	if (!in_list(svg_elements, name))
		return refuse(p, "an element a chart has no use for");
	if (p->depth == 0 && (p->root_seen || strcmp(name, "svg")))
		return refuse(p, "not one <svg> element");
	/* their content the HTML parser reads as HTML (integration points): text only */
	if (p->depth && in_list(svg_text_only, p->stack[p->depth - 1]))
		return refuse(p, "an element inside <title> or <desc>");
	p->root_seen = true;
	fprintf(p->out, "<%s", name);
	for (;;) {
		skip_space(p);
		if (p->at >= p->n)
			return refuse(p, "an unterminated tag");
		if (p->s[p->at] == '>' || at_str(p, "/>"))
			break;
		if (p->at && !isspace((unsigned char)p->s[p->at - 1]))
			return refuse(p, "a space expected");
		if (parse_attr(p))
			return -EINVAL;
	}
	empty = p->s[p->at] == '/';
	p->at += empty ? 2 : 1;
	fputs(empty ? "/>" : ">", p->out);
	if (empty)
		return 0;
	if (p->depth == SVG_MAX_DEPTH)
		return refuse(p, "elements nested too deep");
	strcpy(p->stack[p->depth++], name);
	return 0;
}

/* An end tag at p->at (after "</"): it must close the open element. */
static int end_tag(struct svg_parse *p)
{
	char name[SVG_NAME_LEN];

	if (parse_name(p, name, sizeof(name)))
		return -EINVAL;
	skip_space(p);
	if (p->at >= p->n || p->s[p->at] != '>')
		return refuse(p, "'>' expected");
	if (!p->depth || strcmp(p->stack[p->depth - 1], name))
		return refuse(p, "an end tag of no open element");
	p->at++;
	p->depth--;
	fprintf(p->out, "</%s>", name);
	return 0;
}

/* A comment, processing instruction or doctype at p->at ("<!", "<?"), skipped. */
static int skip_markup(struct svg_parse *p)
{
	const char *s = p->s + p->at, *end;
	size_t left = p->n - p->at;
	const char *close = at_str(p, "<!--") ? "-->" : s[1] == '?' ? "?>" : ">";

	if (!strcmp(close, ">") && !at_str(p, "<!DOCTYPE"))
		return refuse(p, "markup a chart has no use for");
	end = memmem(s + 2, left - 2, close, strlen(close));
	if (!end || (!strcmp(close, ">") && memchr(s, '[', end - s)))
		return refuse(p, "an unterminated or internal declaration");
	p->at = end - p->s + strlen(close);
	return 0;
}

/* Text up to the next '<': decoded, escaped again; outside the root only blanks. */
static int text(struct svg_parse *p)
{
	const char *lt = memchr(p->s + p->at, '<', p->n - p->at);
	size_t end = lt ? (size_t)(lt - p->s) : p->n;
	long len = decode(p, p->at, end);

	if (len < 0)
		return -EINVAL;
	if (!p->depth) {
		for (long i = 0; i < len; i++)
			if (!isspace((unsigned char)p->buf[i]))
				return refuse(p, "text outside <svg>");
	} else {
		html_lines(p->out, p->buf, len);
	}
	p->at = end;
	return 0;
}

static int scan(struct svg_parse *p)
{
	int err = 0;

	while (!err && p->at < p->n) {
		const char *s = p->s + p->at;

		if (s[0] != '<')
			err = text(p);
		else if (p->at + 1 < p->n && (s[1] == '!' || s[1] == '?'))
			err = skip_markup(p);
		else if (p->at + 1 < p->n && s[1] == '/')
			p->at += 2, err = end_tag(p);
		else if (p->depth == 0 && p->root_seen)
			err = refuse(p, "an element after </svg>");
		else
			p->at += 1, err = start_tag(p);
	}
	if (!err && (p->depth || !p->root_seen))
		err = refuse(p, "no complete <svg> element");
	return err;
}

static bool prefix_ok(const char *prefix)
{
	for (const char *c = prefix; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-')
			return false;
	return true;
}

int html_svg(FILE *f, const char *svg, size_t n, const char *prefix, char *why, size_t len)
{
	char *out = NULL;
	size_t out_len = 0;
	struct svg_parse p = { .s = svg, .n = n, .prefix = prefix, .why = why, .why_len = len };
	int err;

	if (!prefix_ok(prefix)) {
		snprintf(why, len, "an id prefix of other than letters, digits and '-'");
		return -EINVAL;
	}
	p.buf = malloc(n + 1);
	p.out = p.buf ? open_memstream(&out, &out_len) : NULL;
	if (!p.out) {
		free(p.buf);
		return -ENOMEM;
	}
	err = scan(&p);
	if (fclose(p.out) && !err)
		err = -ENOMEM;
	if (!err)
		fwrite(out, 1, out_len, f);
	free(out);
	free(p.buf);
	return err;
}
