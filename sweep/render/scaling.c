// SPDX-License-Identifier: GPL-2.0
/* Per-unit and relative rates of a chart series: see scaling.h. */
#include <errno.h>

#include "scaling.h"

int scaling_apply(struct series_pt *p, int nr, bool per, bool relative)
{
	double first;

	for (int i = 0; per && i < nr; i++)
		if (p[i].per == 0)
			return -EDOM;
	if (nr && relative && (per ? p[0].mean / p[0].per : p[0].mean) == 0)
		return -EDOM;
	for (int i = 0; per && i < nr; i++) {
		p[i].mean /= p[i].per;
		p[i].err /= p[i].per;
	}
	first = nr ? p[0].mean : 1;
	for (int i = 0; relative && i < nr; i++) {
		p[i].mean /= first;
		p[i].err /= first;
	}
	return 0;
}
