// SPDX-License-Identifier: GPL-2.0
/* Turning one point's raw interval counts into per-second rates. */
#include <errno.h>
#include <stdlib.h>

#include "result.h"

const char *point_status_name(enum point_status st)
{
	switch (st) {
	case PS_OK:
		return "ok";
	case PS_UNSUPPORTED:
		return "unsupported";
	case PS_FAILED:
		return "failed";
	case PS_INTERRUPTED:
		return "interrupted";
	}
	return "unknown";
}

/*
 * Each interval's rate uses that interval's own measured length: the
 * sampler wakes on absolute deadlines but may still wake late, and a late
 * wake-up must not read as a faster benchmark.
 */
int point_result_summarize(struct point_result *r)
{
	const struct workload *wl = r->pt->wp.wl;
	double *rates;
	int n;

	rates = malloc((r->nr_iv ? r->nr_iv : 1) * sizeof(*rates));
	if (!rates)
		return -ENOMEM;
	for (int m = 0; m < wl->nr_metrics; m++) {
		n = 0;
		for (int i = 0; i < r->nr_iv; i++) {
			const struct interval *iv = &r->iv[i];

			if (iv->warmup || !iv->elapsed_ns)
				continue;
			rates[n++] = iv->delta[m] * 1e9 / iv->elapsed_ns;
		}
		stats_summarize(rates, n, &r->rate[m]);
	}
	free(rates);
	return 0;
}
