// SPDX-License-Identifier: GPL-2.0
/* --format and the helpers its printers share: see outfmt.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "diag.h"
#include "outfmt.h"

static const char *const format_names[] = {
	[OF_TEXT] = "text", [OF_MARKDOWN] = "markdown", [OF_CSV] = "csv", [OF_JSON] = "json",
};

int out_format_parse(const char *arg, enum out_format *fmt)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
		if (!strcmp(arg, format_names[i])) {
			*fmt = i;
			return 0;
		}
	}
	diag_err("--format expects text, markdown, csv or json, not '%s'", arg);
	return -EINVAL;
}

void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; *s; s++)
		fprintf(f, *s == '|' ? "\\|" : "%c", *s);
	fputc(' ', f);
}

void num_shortest(double v, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (!isfinite(v))
		return;
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
}

struct json_object *json_num(double v)
{
	char text[32];

	if (!isfinite(v))
		return NULL;
	num_shortest(v, text, sizeof(text));
	return json_object_new_double_s(v, text);
}

int json_print(FILE *f, struct json_object *root)
{
	const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_NOSLASHESCAPE);
	int err = !text || fprintf(f, "%s\n", text) < 0 ? -EIO : 0;

	json_object_put(root);
	return err;
}
