// SPDX-License-Identifier: GPL-2.0
/* "{name}" templates: see template.h. */
#include <stdio.h>
#include <string.h>

#include "template.h"

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
			if (value(name, ctx, buf + n, len - n)) {
				n += strlen(buf + n);
				tpl = end + 1;
				continue;
			}
		}
		buf[n++] = *tpl++;
		buf[n] = '\0';
	}
}
