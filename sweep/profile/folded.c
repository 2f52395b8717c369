// SPDX-License-Identifier: GPL-2.0
/*
 * Folded profiles (folded.h): lines merged by sorting, written one a
 * line, and parsed back with every line checked (a count below 2^63,
 * no empty frame, no NUL byte, a file's counts adding up below 2^63).
 * Sums saturate (satmath.h): a count wrapped past 2^64 showed as a
 * small one, and a symbol of a profile then had more samples than the
 * profile ("self share 200.0%").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "growarray.h"
#include "satmath.h"

int folded_add(struct folded *f, const char *stack, uint64_t count)
{
	/* folded_merge() only lowers nr: the allocation stays the power of two ARRAY_ROOM needs */
	if (ARRAY_ROOM(f->l, f->nr))
		return -ENOMEM;
	f->l[f->nr].stack = strdup(stack);
	if (!f->l[f->nr].stack)
		return -ENOMEM;
	f->l[f->nr++].count = count;
	f->total = sat_add_u64(f->total, count);
	return 0;
}

static int by_stack(const void *a, const void *b)
{
	return strcmp(((const struct folded_line *)a)->stack,
		      ((const struct folded_line *)b)->stack);
}

void folded_merge(struct folded *f)
{
	int out = 0;

	qsort(f->l, f->nr, sizeof(*f->l), by_stack);
	for (int i = 0; i < f->nr; i++) {
		if (out && !strcmp(f->l[out - 1].stack, f->l[i].stack)) {
			f->l[out - 1].count = sat_add_u64(f->l[out - 1].count, f->l[i].count);
			free(f->l[i].stack);
		} else {
			f->l[out++] = f->l[i];
		}
	}
	f->nr = out;
}

int folded_write(FILE *out, const struct folded *f)
{
	for (int i = 0; i < f->nr; i++)
		if (fprintf(out, "%s %" PRIu64 "\n", f->l[i].stack, f->l[i].count) < 0)
			return -EIO;
	return 0;
}

/* A stack's frames are not empty: no ";;", none at either end. */
static bool frames_ok(const char *s, size_t len)
{
	if (!len || s[0] == ';' || s[len - 1] == ';')
		return false;
	for (size_t i = 1; i < len; i++)
		if (s[i] == ';' && s[i - 1] == ';')
			return false;
	return true;
}

/* One line "stack count" (not empty, no newline) into f; a reason when it is bad. */
static const char *parse_line(const char *s, size_t len, struct folded *f)
{
	const char *sp = NULL;
	char *stack, *end, num[24];
	unsigned long long count;
	size_t nlen;

	for (size_t i = len; i-- > 0 && !sp;)
		if (s[i] == ' ')
			sp = s + i;
	if (!sp)
		return "no count after the stack";
	nlen = len - (sp + 1 - s);
	if (!nlen || nlen >= sizeof(num) || sp[1] == '-' || sp[1] == '+')
		return "the count is not a number";
	memcpy(num, sp + 1, nlen);
	num[nlen] = '\0';
	errno = 0;
	count = strtoull(num, &end, 10);
	if (*end || errno || count > INT64_MAX)
		return "the count is not a number below 2^63";
	/* both below 2^63: the sum cannot wrap */
	if (f->total + count > INT64_MAX)
		return "the counts add up past 2^63 - 1";
	if (!frames_ok(s, sp - s))
		return "an empty frame";
	stack = strndup(s, sp - s);
	if (!stack || folded_add(f, stack, count)) {
		free(stack);
		return "out of memory";
	}
	free(stack);
	return NULL;
}

int folded_parse(const char *text, size_t len, struct folded *f, char *why, size_t why_len)
{
	size_t pos = 0;
	int line = 0;

	*f = (struct folded){ 0 };
	if (memchr(text, '\0', len)) {
		snprintf(why, why_len, "a NUL byte");
		return -EINVAL;
	}
	while (pos < len) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		const char *bad = n ? parse_line(s, n, f) : NULL;

		line++;
		pos += n + 1;
		if (bad) {
			snprintf(why, why_len, "line %d: %s", line, bad);
			folded_free(f);
			return -EINVAL;
		}
	}
	folded_merge(f);
	return 0;
}

void folded_free(struct folded *f)
{
	for (int i = 0; i < f->nr; i++)
		free(f->l[i].stack);
	free(f->l);
	*f = (struct folded){ 0 };
}
