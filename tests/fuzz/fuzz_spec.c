// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: spec text → spec_parse_string → spec_set of the
 * --set lines → bind_spec → matrix count and expansion, as `check` and
 * `expand` run them.  An input is a spec, optionally followed by a line
 * "%%" and then one --set argument per line (at most MAX_SETS):
 *
 *	[sweep]
 *	workload = null
 *	%%
 *	producers=1..4
 *
 * Built with -fsanitize=fuzzer,address,undefined (make fuzz); run by
 * tests/fuzz/run.sh.  Diagnostics go to /dev/null, still formatted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"
#include "diag.h"
#include "matrix.h"
#include "runner.h"
#include "spec.h"

#define MAX_SETS 4
/* Expanding a million points per input would leave no time to fuzz anything else. */
#define MAX_EXPAND 20000

static void expand(const struct sweep_cfg *cfg)
{
	struct point *pts;
	char name[256];
	int nr;

	if (matrix_count(cfg) > MAX_EXPAND || matrix_expand(cfg, &pts, &nr))
		return;
	for (int i = 0; i < nr; i++) {
		point_name(cfg, &pts[i], name, sizeof(name));
		point_varying(cfg, &pts[i], ",", name, sizeof(name));
	}
	free(pts);
}

/* Apply every --set line of sets (NUL-terminated, may be NULL); 0 if all applied. */
static int apply_sets(struct spec *s, char *sets)
{
	int n = 0, err = 0;

	for (char *line = sets, *nl; line && n < MAX_SETS && !err; line = nl, n++) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		err = spec_set(s, line);
	}
	return err;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct sweep_cfg *cfg;
	struct spec *s;
	char *text, *sets;

	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		diag_set_stream(devnull);
	}
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	sets = strstr(text, "\n%%\n");
	if (sets) {
		*sets = '\0';
		sets += 4;
	}
	cfg = NULL;
	if (!spec_parse_string("fuzz.spec", text, &s)) {
		if (!apply_sets(s, sets)) {
			spec_write(s, devnull);
			bind_spec(s, &workloads_catalog, &cfg);
		}
		spec_free(s);
	}
	/* The configuration must stand on its own once the tree is gone. */
	if (cfg) {
		expand(cfg);
		sweep_cfg_free(cfg);
	}
	diag_finish();
	free(text);
	return 0;
}
