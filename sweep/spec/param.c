// SPDX-License-Identifier: GPL-2.0
/* Typed values of workload parameters: parse one scalar, format, describe. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "param.h"
#include "suggest.h"

/* Parse [0-9]+ of text[0..len) into *out; false on junk or overflow. */
static bool parse_digits(const char *text, size_t len, long long *out)
{
	unsigned long long v = 0;

	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return false;
		if (v > (ULLONG_MAX - 9) / 10)
			return false;
		v = v * 10 + (text[i] - '0');
	}
	if (v > LLONG_MAX)
		return false;
	*out = v;
	return true;
}

static int parse_int(const char *text, size_t len, long long *out)
{
	bool neg = len && text[0] == '-';

	if (!parse_digits(text + neg, len - neg, out))
		return -EINVAL;
	if (neg)
		*out = -*out;
	return 0;
}

/* Digits with an optional K, M or G (either case), in powers of 1024. */
static int parse_size(const char *text, size_t len, long long *out)
{
	static const char units[] = "kmg";
	const char *u;
	int shift = 0;

	if (len && (u = strchr(units, text[len - 1] | 0x20))) {
		shift = 10 * (u - units + 1);
		len--;
	}
	if (!parse_digits(text, len, out) || *out > (LLONG_MAX >> shift))
		return -EINVAL;
	*out <<= shift;
	return 0;
}

static int parse_bool(const char *text, size_t len, long long *out)
{
	static const char *const yes[] = { "on", "yes", "true", "1" };
	static const char *const no[] = { "off", "no", "false", "0" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strlen(yes[i]) == len && !strncasecmp(text, yes[i], len)) {
			*out = 1;
			return 0;
		}
		if (strlen(no[i]) == len && !strncasecmp(text, no[i], len)) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_enum(const struct param_def *p, const char *text, size_t len,
		      long long *out, char *err, size_t errlen)
{
	char word[128], hint[320], list[256];

	for (int i = 0; p->choices && p->choices[i]; i++) {
		if (strlen(p->choices[i]) == len && !strncmp(text, p->choices[i], len)) {
			*out = i;
			return 0;
		}
	}
	snprintf(word, sizeof(word), "%.*s", (int)len, text);
	suggest_hint(hint, sizeof(hint), suggest_list(word, p->choices));
	if (!hint[0]) {
		param_type_text(p, list, sizeof(list));
		snprintf(hint, sizeof(hint), " (expected %s)", list);
	}
	snprintf(err, errlen, "unknown value '%.*s' for '%s'%s", (int)len, text, p->name, hint);
	return -EINVAL;
}

/* Sizes read best with the largest suffix that divides them exactly. */
static void size_text(long long v, char *buf, size_t len)
{
	static const char units[] = "GMK";

	for (int i = 0; i < 3; i++) {
		int shift = 10 * (3 - i);

		if (v && v % (1LL << shift) == 0) {
			snprintf(buf, len, "%lld%c", v >> shift, units[i]);
			return;
		}
	}
	snprintf(buf, len, "%lld", v);
}

static void bound_text(const struct param_def *p, long long v, char *buf, size_t len)
{
	if (p->type == PT_SIZE)
		size_text(v, buf, len);
	else
		snprintf(buf, len, "%lld", v);
}

/* A table entry with min == max == 0 means "no bounds": 0..0 is no range. */
static int check_bounds(const struct param_def *p, const char *text, size_t len,
			long long v, char *err, size_t errlen)
{
	char lo[32], hi[32];

	if (p->type != PT_INT && p->type != PT_SIZE)
		return 0;
	if ((!p->min && !p->max) || (v >= p->min && v <= p->max))
		return 0;
	bound_text(p, p->min, lo, sizeof(lo));
	bound_text(p, p->max, hi, sizeof(hi));
	snprintf(err, errlen, "value %.*s out of range for '%s' (%s..%s)", (int)len, text,
		 p->name, lo, hi);
	return -EINVAL;
}

static bool is_zero_word(const struct param_def *p, const char *text, size_t len)
{
	return p->type == PT_INT && p->zero_word && strlen(p->zero_word) == len &&
	       !strncmp(text, p->zero_word, len);
}

/*
 * What an integer that does not parse may have meant: "1-4" a range,
 * "1,2,4" a list, as a shell's or another tool's syntax writes them.
 */
static const char *int_hint(const char *text, size_t len, char *buf, size_t buflen)
{
	size_t digits = strspn(text, "0123456789");

	if (!digits || digits >= len || digits + 1 >= len ||
	    strspn(text + digits + 1, "0123456789") != len - digits - 1)
		return "";
	if (text[digits] == '-')
		snprintf(buf, buflen, " (a range is written %.*s..%.*s)", (int)digits, text,
			 (int)(len - digits - 1), text + digits + 1);
	else if (text[digits] == ',')
		snprintf(buf, buflen, " (a list is written with spaces: %.*s %.*s)",
			 (int)digits, text, (int)(len - digits - 1), text + digits + 1);
	else
		return "";
	return buf;
}

int param_parse_scalar(const struct param_def *p, const char *text, size_t len,
		       long long *out, char *err, size_t errlen)
{
	char hint[96];

	/* below min on purpose: the bounds are the numbers' */
	if (is_zero_word(p, text, len)) {
		*out = 0;
		return 0;
	}
	switch (p->type) {
	case PT_INT:
		if (parse_int(text, len, out)) {
			snprintf(err, errlen, "invalid integer '%.*s'%s%s%s%s", (int)len, text,
				 p->zero_word ? " (expected a number or '" : "",
				 p->zero_word ? p->zero_word : "", p->zero_word ? "')" : "",
				 int_hint(text, len, hint, sizeof(hint)));
			return -EINVAL;
		}
		break;
	case PT_SIZE:
		if (parse_size(text, len, out)) {
			snprintf(err, errlen, "invalid size '%.*s' (expected a size like 512K, "
				 "4M, 1G or 4096)", (int)len, text);
			return -EINVAL;
		}
		break;
	case PT_BOOL:
		if (parse_bool(text, len, out)) {
			snprintf(err, errlen, "expected on or off, not '%.*s'", (int)len, text);
			return -EINVAL;
		}
		break;
	case PT_ENUM:
		return parse_enum(p, text, len, out, err, errlen);
	default:
		snprintf(err, errlen, "parameter '%s' has an unknown type", p->name);
		return -EINVAL;
	}
	return check_bounds(p, text, len, *out, err, errlen);
}

static int nr_choices(const struct param_def *p)
{
	int n = 0;

	while (p->choices && p->choices[n])
		n++;
	return n;
}

void param_format(const struct param_def *p, long long v, char *buf, size_t len)
{
	switch (p->type) {
	case PT_BOOL:
		snprintf(buf, len, "%s", v ? "on" : "off");
		return;
	case PT_ENUM:
		if (v >= 0 && v < nr_choices(p)) {
			snprintf(buf, len, "%s", p->choices[v]);
			return;
		}
		break;
	case PT_INT:
		if (!v && p->zero_word) {
			snprintf(buf, len, "%s", p->zero_word);
			return;
		}
		break;
	default:
		break;
	}
	snprintf(buf, len, "%lld", v);
}

void param_type_text(const struct param_def *p, char *buf, size_t len)
{
	size_t off = 0;

	switch (p->type) {
	case PT_INT:
		snprintf(buf, len, "int%s%s", p->zero_word ? "|" : "",
			 p->zero_word ? p->zero_word : "");
		return;
	case PT_SIZE:
		snprintf(buf, len, "size");
		return;
	case PT_BOOL:
		snprintf(buf, len, "on/off");
		return;
	case PT_ENUM:
		break;
	}
	if (len)
		buf[0] = '\0';
	for (int i = 0; p->choices && p->choices[i] && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? "|" : "", p->choices[i]);
}

int param_index(const struct param_def *params, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(params[i].name, name))
			return i;
	return -1;
}
