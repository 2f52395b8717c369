// SPDX-License-Identifier: GPL-2.0
/* Turning one point's raw interval counts into per-second rates. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
 * Metric m's rate in every measured interval, and the repetition of each
 * (rep may be NULL).  Each interval's rate uses that interval's own
 * measured length: the sampler wakes on absolute deadlines but may still
 * wake late, and a late wake-up must not read as a faster benchmark.
 */
static int measured_rates(const struct point_result *r, int m, double *rates, int *rep)
{
	int n = 0;

	for (int i = 0; i < r->nr_iv; i++) {
		const struct interval *iv = &r->iv[i];

		if (iv->warmup || !iv->elapsed_ns)
			continue;
		if (rep)
			rep[n] = iv->rep;
		rates[n++] = iv->value[m] * 1e9 / iv->elapsed_ns;
	}
	return n;
}

int point_result_summarize(struct point_result *r)
{
	const struct workload *wl = r->pt->wp.wl;
	double *rates;
	int n;

	rates = malloc((r->nr_iv ? r->nr_iv : 1) * sizeof(*rates));
	if (!rates)
		return -ENOMEM;
	for (int m = 0; m < wl->nr_metrics; m++) {
		n = measured_rates(r, m, rates, NULL);
		stats_summarize(rates, n, &r->stat[m]);
	}
	free(rates);
	return 0;
}

/* Flags of the headline metric (metric 0) and of the point's CPU load. */
int point_result_assess(struct point_result *r, int max_cv_pct)
{
	double *rates = malloc((r->nr_iv ? r->nr_iv : 1) * sizeof(*rates));
	int *rep = malloc((r->nr_iv ? r->nr_iv : 1) * sizeof(*rep));
	int n;

	if (!rates || !rep) {
		free(rates);
		free(rep);
		return -ENOMEM;
	}
	n = measured_rates(r, 0, rates, rep);
	quality_assess(rates, rep, n, max_cv_pct, &r->quality);
	quality_assess_load(&r->load, sysconf(_SC_CLK_TCK), &r->quality);
	free(rates);
	free(rep);
	return 0;
}

void point_result_reset(struct point_result *r)
{
	free(r->iv);
	r->iv = NULL;
	r->nr_iv = 0;
	r->reason[0] = '\0';
	memset(&r->load, 0, sizeof(r->load));
	memset(r->stat, 0, sizeof(r->stat));
	memset(&r->quality, 0, sizeof(r->quality));
}
