// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: bench text as import reads it (import_parse_len()),
 * then its rows' parameters from a --label template (import_params_build()).
 * An input is the text alone, or a template line, a line "%%" and the text:
 *
 *	rb-libbpf nr_prod {producers}
 *	%%
 *	rb-libbpf nr_prod 1  1.0 ± 0.1M/s
 *
 * Built with -fsanitize=fuzzer,address,undefined (make fuzz); run by
 * tests/fuzz/run.sh import.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *sep = memmem(text, size, "\n%%\n", 4);
	struct import_set set = { 0 };
	struct import_params params;
	char *tmpl = NULL, why[256];

	if (sep) {
		tmpl = strndup(text, sep - text);
		if (!tmpl)
			return 0;
		size -= sep + 4 - text;
		text = sep + 4;
	}
	if (!import_parse_len(text, size, "fuzz", &set) &&
	    !import_params_build(&set, tmpl, &params, why, sizeof(why)))
		import_params_free(&params);
	import_set_free(&set);
	free(tmpl);
	return 0;
}
