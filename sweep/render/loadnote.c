// SPDX-License-Identifier: GPL-2.0
/* The verifier's and the JIT's figures of a table's block: see loadnote.h. */
#include <math.h>
#include <stdio.h>

#include "loadnote.h"
#include "metric.h"
#include "metricdef.h"

/* The lowest and highest of metric m over the ok rows that have it; false: none has. */
static bool load_range(const struct view_row *const *rows, int nr, int m, double *lo,
		       double *hi)
{
	bool any = false;

	for (int i = 0; i < nr; i++) {
		double v = rows[i]->stat[m].mean;

		if (rows[i]->status != PS_OK || !isfinite(v))
			continue;
		*lo = any && *lo < v ? *lo : v;
		*hi = any && *hi > v ? *hi : v;
		any = true;
	}
	return any;
}

/* ", total_insns 73insns" or ", total_insns 73insns..112insns" */
static void print_range(FILE *out, const struct metric_def *d, double lo, double hi,
			bool first)
{
	const struct metric_unit *u = metric_default_unit(d);
	char a[64], b[64];

	metric_format(lo, u, a, sizeof(a));
	metric_format(hi, u, b, sizeof(b));
	fprintf(out, "%s%s %s%s%s", first ? "" : ", ", d->name, a, lo == hi ? "" : "..",
		lo == hi ? "" : b);
}

void table_load_note(FILE *out, const struct workload *wl, const struct view_row *const *rows,
		     int nr, bool md)
{
	bool first = true;

	for (int m = 0; m < wl->nr_metrics; m++) {
		const struct metric_def *d = &wl->metrics[m];
		double lo = 0, hi = 0;

		if (d->source != MS_LOAD || !load_range(rows, nr, m, &lo, &hi))
			continue;
		if (first)
			fprintf(out, "%snote: loading the programs (a point's summed; "
				"veristat's names): ", md ? "\n" : "");
		print_range(out, d, lo, hi, first);
		first = false;
	}
	if (!first)
		fputc('\n', out);
}
