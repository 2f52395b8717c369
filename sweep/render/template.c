// SPDX-License-Identifier: GPL-2.0
/* "{name}" templates: see template.h. */
#include <stdio.h>
#include <string.h>

#include "template.h"

/*
 * "{name?text}": text where name's value is "on", nothing where it is
 * anything else; "{name?text|other}": other there.  As run_bench_ringbufs.sh
 * names its points "rb-custom-sampled", "reserve" and "output".  false when
 * value() does not know name.
 */
static bool expand_cond(const char *name, template_value_fn value, const void *ctx, char *buf,
			size_t len)
{
	const char *q = strchr(name, '?'), *bar = strchr(q, '|');
	char key[64], v[16];
	bool on;

	snprintf(key, sizeof(key), "%.*s", (int)(q - name), name);
	if (!value(key, ctx, v, sizeof(v)))
		return false;
	on = !strcmp(v, "on");
	if (on)
		snprintf(buf, len, "%.*s", (int)(bar ? bar - q - 1 : (long)strlen(q + 1)), q + 1);
	else
		snprintf(buf, len, "%s", bar ? bar + 1 : "");
	return true;
}

void template_expand(const char *tpl, template_value_fn value, const void *ctx, char *buf,
		     size_t len)
{
	size_t n = 0;

	if (!len)
		return;
	buf[0] = '\0';
	while (*tpl && n < len - 1) {
		const char *end = *tpl == '{' ? strchr(tpl, '}') : NULL;
		char name[64];

		if (end && (size_t)(end - tpl - 1) < sizeof(name)) {
			snprintf(name, sizeof(name), "%.*s", (int)(end - tpl - 1), tpl + 1);
			if (strchr(name, '?') ? expand_cond(name, value, ctx, buf + n, len - n) :
			    value(name, ctx, buf + n, len - n)) {
				n += strlen(buf + n);
				tpl = end + 1;
				continue;
			}
		}
		buf[n++] = *tpl++;
		buf[n] = '\0';
	}
}
