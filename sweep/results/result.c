// SPDX-License-Identifier: GPL-2.0
/*
 * One point's raw intervals summarized: counters as per-second rates,
 * gauges as levels, and the per-thread metric's rate of each producer.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metricdef.h"
#include "progrun.h"
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
	case PS_STALLED:
		return "stalled";
	case NR_POINT_STATUS:
		break;
	}
	return "unknown";
}

/* An interval the statistics count: past the warmup, with time that passed. */
static bool is_measured(const struct interval *iv)
{
	return !iv->warmup && iv->elapsed_ns;
}

static bool is_gauge(const struct point_result *r, int m)
{
	return r->pt->wp.wl->metrics[m].kind == MK_GAUGE;
}

/*
 * Metric m in every measured interval, and the repetition of each (rep
 * may be NULL): a counter's per-second rate, a gauge's level.  Each rate
 * uses that interval's own measured length: the sampler wakes on absolute
 * deadlines but may still wake late, and a late wake-up must not read as a
 * faster benchmark.  Returns how many, or -1 when a gauge's level is not
 * known in one of them (nor a counter's increase: progrun.h).
 */
static int measured_values(const struct point_result *r, int m, double *x, int *rep)
{
	bool gauge = is_gauge(r, m);
	int n = 0;

	for (int i = 0; i < r->nr_iv; i++) {
		const struct interval *iv = &r->iv[i];

		if (!is_measured(iv))
			continue;
		/* a gauge not read, or the kernel's program counters where it keeps none */
		if (iv->value[m] == METRIC_UNKNOWN)
			return -1;
		if (rep)
			rep[n] = iv->rep;
		x[n++] = gauge ? (double)iv->value[m] : iv->value[m] * 1e9 / iv->elapsed_ns;
	}
	return n;
}

/*
 * What is not known: every statistic NaN (an empty cell).  A gauge with
 * one unknown level gets no summary at all rather than one of fewer
 * intervals than the row's n says.
 */
static void summary_unknown(struct summary *s)
{
	*s = (struct summary){ NAN, NAN, NAN, NAN, NAN, NAN, 0 };
}

uint64_t point_result_measured_ns(const struct point_result *r)
{
	uint64_t ns = 0;

	for (int i = 0; i < r->nr_iv; i++)
		ns += is_measured(&r->iv[i]) ? r->iv[i].elapsed_ns : 0;
	return ns;
}

/*
 * Each producer's rate of per-thread metric: its increases over all the
 * measured intervals divided by their summed length (so that a long
 * interval weighs as long as it was), then the spread across producers.
 * Unknown (NaN, no thread_rate) when an interval lacks its per-producer
 * increases, as rows read back without their thread rows do.
 */
static int summarize_workers(struct point_result *r)
{
	int nr = r->nr_producers;
	uint64_t ns = point_result_measured_ns(r);
	double *rate;

	free(r->thread_rate);
	r->thread_rate = NULL;
	summary_unknown(&r->worker_rate);
	if (wl_thread_metric(r->pt->wp.wl) < 0 || nr <= 0 || !ns)
		return 0;
	for (int i = 0; i < r->nr_iv; i++)
		if (is_measured(&r->iv[i]) && !r->iv[i].thread_delta)
			return 0;
	rate = calloc(nr, sizeof(*rate));
	if (!rate)
		return -ENOMEM;
	for (int i = 0; i < r->nr_iv; i++)
		for (int t = 0; is_measured(&r->iv[i]) && t < nr; t++)
			rate[t] += r->iv[i].thread_delta[t];
	for (int t = 0; t < nr; t++)
		rate[t] = rate[t] * 1e9 / ns;
	stats_summarize(rate, nr, &r->worker_rate);
	r->thread_rate = rate;
	return 0;
}

/*
 * Metric m's statistics: those that describe the intervals (mean, sd,
 * median, min, max) of all of them, the confidence interval of the
 * independent units (units.h) they make: neighbouring intervals are not
 * independent samples, and t * sd / sqrt(intervals) would be too narrow.
 */
static int summarize_metric(struct point_result *r, int m, double *x, int *rep)
{
	int n = measured_values(r, m, x, rep), err;

	if (n < 0) {
		summary_unknown(&r->stat[m]);
		units_unknown(&r->unit[m]);
		return 0;
	}
	stats_summarize(x, n, &r->stat[m]);
	err = units_of(x, rep, n, &r->unit[m]);
	if (!err && n)
		r->stat[m].ci95 = r->unit[m].ci95;
	/* the same in every repetition by construction: no interval to give */
	if (r->pt->wp.wl->metrics[m].deterministic)
		r->stat[m].ci95 = NAN;
	return err;
}

/*
 * Did a deterministic metric (metric_def.deterministic) take two values
 * over the point's measured intervals?  Then its repetitions did not load
 * the same programs: the set-up differed (quality "varied").
 */
static bool deterministic_varied(const struct point_result *r)
{
	const struct workload *wl = r->pt->wp.wl;

	for (int m = 0; m < wl->nr_metrics; m++)
		if (wl->metrics[m].deterministic && r->stat[m].n &&
		    r->stat[m].min != r->stat[m].max)
			return true;
	return false;
}

int point_result_summarize(struct point_result *r)
{
	const struct workload *wl = r->pt->wp.wl;
	int *rep = malloc((r->nr_iv ? r->nr_iv : 1) * sizeof(*rep));
	double *x = malloc((r->nr_iv ? r->nr_iv : 1) * sizeof(*x));
	int err = x && rep ? 0 : -ENOMEM;

	for (int m = 0; !err && m < wl->nr_metrics; m++)
		err = summarize_metric(r, m, x, rep);
	free(x);
	free(rep);
	return err ?: summarize_workers(r) ?: prog_summarize(r);
}

enum unit_kind point_unit_kind(const struct point_result *r)
{
	for (int m = 0; m < r->pt->wp.wl->nr_metrics; m++)
		if (r->unit[m].kind != UK_NONE)
			return r->unit[m].kind;
	return UK_NONE;
}

/*
 * Each producer's CPU time as a percentage of the measured time, -1 where
 * unknown; NULL without per-producer rates or CPU times (or memory).
 */
static double *worker_cpu_pct(const struct point_result *r)
{
	uint64_t ns = point_result_measured_ns(r);
	double *pct;

	if (!r->thread_rate || !r->thread_cpu_ns)
		return NULL;
	pct = ns ? malloc(r->nr_producers * sizeof(*pct)) : NULL;
	for (int t = 0; pct && t < r->nr_producers; t++)
		pct[t] = r->thread_cpu_ns[t] == THREAD_CPU_UNKNOWN ? -1 :
			 r->thread_cpu_ns[t] * 100.0 / ns;
	return pct;
}

/*
 * Flags of the headline metric (metric 0), of each worker's share of the
 * per_thread metric (summarized first), of the point's CPU load and of
 * its threads' wait for a CPU.
 */
int point_result_assess(struct point_result *r, int max_cv_pct)
{
	double *rates = malloc((r->nr_iv ? r->nr_iv : 1) * sizeof(*rates));
	int *rep = malloc((r->nr_iv ? r->nr_iv : 1) * sizeof(*rep));
	double *cpu_pct;
	int n;

	if (!rates || !rep) {
		free(rates);
		free(rep);
		return -ENOMEM;
	}
	/* a headline gauge of unknown levels has nothing to judge */
	n = measured_values(r, 0, rates, rep);
	quality_assess(rates, rep, n < 0 ? 0 : n, max_cv_pct, &r->quality);
	cpu_pct = worker_cpu_pct(r);
	quality_assess_workers(r->thread_rate, cpu_pct, r->thread_rate ? r->nr_producers : 0,
			       &r->quality);
	free(cpu_pct);
	quality_assess_load(&r->load, sysconf(_SC_CLK_TCK), &r->quality);
	quality_assess_wait(r->thread_wait, r->nr_thread_wait, r->nr_cpus, &r->quality);
	if (deterministic_varied(r))
		r->quality.flags |= QF_VARIED;
	free(rates);
	free(rep);
	return 0;
}

/* Did counter m count anything in a measured interval? */
static bool counter_moved(const struct point_result *r, int m)
{
	for (int i = 0; i < r->nr_iv; i++) {
		uint64_t v = r->iv[i].value[m];

		if (is_measured(&r->iv[i]) && v && v != METRIC_UNKNOWN)
			return true;
	}
	return false;
}

/*
 * The headline counter all zero is not enough: rb-prod with a full ring
 * and no consumer counts no hits but its drops, a true rate of 0 hits.
 * The kernel's program counters do not count: a program on a syscall
 * hook runs for every process's calls, stalled producers or not.
 */
bool point_result_counted_nothing(const struct point_result *r)
{
	const struct workload *wl = r->pt->wp.wl;

	if (wl->metrics[0].kind != MK_COUNTER || !quality_all_zero(&r->quality))
		return false;
	for (int m = 1; m < wl->nr_metrics; m++)
		if (wl->metrics[m].kind == MK_COUNTER && wl->metrics[m].source == MS_WORKLOAD &&
		    counter_moved(r, m))
			return false;
	return true;
}

void point_result_free_intervals(struct point_result *r)
{
	for (int i = 0; r->iv && i < r->nr_iv; i++)
		free(r->iv[i].thread_delta);
	free(r->iv);
	r->iv = NULL;
	r->nr_iv = 0;
	free(r->thread_rate);
	r->thread_rate = NULL;
	free(r->thread_cpu_ns);
	r->thread_cpu_ns = NULL;
	free(r->thread_wait);
	r->thread_wait = NULL;
	r->nr_thread_wait = 0;
	for (int i = 0; i < r->nr_prof; i++)
		rep_profile_free(&r->prof[i]);
	free(r->prof);
	r->prof = NULL;
	r->nr_prof = 0;
	free(r->loads);
	r->loads = NULL;
	r->nr_loads = 0;
}

void point_result_reset(struct point_result *r)
{
	point_result_free_intervals(r);
	r->reason[0] = '\0';
	r->stop[0] = '\0';
	memset(&r->load, 0, sizeof(r->load));
	memset(r->stat, 0, sizeof(r->stat));
	memset(r->unit, 0, sizeof(r->unit));
	memset(&r->worker_rate, 0, sizeof(r->worker_rate));
	memset(&r->per_run, 0, sizeof(r->per_run));
	memset(&r->per_run_unit, 0, sizeof(r->per_run_unit));
	memset(&r->quality, 0, sizeof(r->quality));
}

/*
 * ns per run of a point: each interval's ratio of increases, not the ratio
 * of the rates' means: an interval's ns per run is what the kernel measured
 * over it, and their spread says how steady the program's cost was.  Its
 * independent units too (units.h): what compare's test of ns_per_run
 * stands on, as the metrics' units are.
 */
int prog_summarize(struct point_result *r)
{
	int runs_m, ns_m, n = 0, err;
	int *rep;
	double *x;

	r->per_run = (struct summary){ NAN, NAN, NAN, NAN, NAN, NAN, 0 };
	units_unknown(&r->per_run_unit);
	if (!prog_metrics(r->pt->wp.wl, &runs_m, &ns_m))
		return 0;
	x = malloc((r->nr_iv ? r->nr_iv : 1) * sizeof(*x));
	rep = malloc((r->nr_iv ? r->nr_iv : 1) * sizeof(*rep));
	err = x && rep ? 0 : -ENOMEM;
	for (int i = 0; !err && i < r->nr_iv; i++) {
		const struct interval *iv = &r->iv[i];
		double v;

		if (iv->warmup || !iv->elapsed_ns)
			continue;
		v = prog_ns_per_run(iv->value[runs_m], iv->value[ns_m]);
		if (isnan(v))
			continue;
		rep[n] = iv->rep;
		x[n++] = v;
	}
	if (!err && n)
		stats_summarize(x, n, &r->per_run);
	if (!err)
		err = units_of(x, rep, n, &r->per_run_unit);
	free(x);
	free(rep);
	return err;
}

double point_result_rep_mean(const struct point_result *r, int m, int rep)
{
	bool gauge = is_gauge(r, m);
	double sum = 0;
	int n = 0;

	for (int i = 0; i < r->nr_iv; i++) {
		const struct interval *iv = &r->iv[i];

		if (iv->rep != rep || !is_measured(iv))
			continue;
		if (iv->value[m] == METRIC_UNKNOWN)
			return NAN;
		sum += gauge ? (double)iv->value[m] : iv->value[m] * 1e9 / iv->elapsed_ns;
		n++;
	}
	return n ? sum / n : NAN;
}
