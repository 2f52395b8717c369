// SPDX-License-Identifier: GPL-2.0
/*
 * Quality flags: the ways a mean ± stddev can mislead, each tested on
 * the headline metric's per-interval rates (GSL does the arithmetic).
 *
 * - zero: an interval at or below 1% of the point's largest interval
 *   measured (almost) nothing: a stall, a lost wake-up, a dead producer.
 * - cv: stddev above max_cv percent of the mean.  The default, 10%, is
 *   pyperf's "benchmark seems unstable" limit; kernel cover letters quote
 *   numbers whose ± is a few percent at most.
 * - trend: the rate drifts within repetitions.  A line is fitted to each
 *   repetition's intervals with one slope shared by all (rates and
 *   positions centred per repetition, then gsl_fit_mul); flagged when the
 *   slope differs from 0 at p < 0.01 (Student's t, n - reps - 1 degrees
 *   of freedom) and the fitted drift over a repetition reaches 5% of the
 *   mean: significant alone is too strict for tight numbers, large alone
 *   too loose for noisy ones.
 * - bimodal: the intervals fall into two clusters, so the mean describes
 *   neither.  At 10 intervals moments (the bimodality coefficient) are too
 *   unstable, so a gap test: split the sorted non-zero rates at their
 *   widest gap, with at least 2 and a fifth of them on each side; flagged
 *   when the clusters' means lie 6 pooled within-cluster standard
 *   deviations apart and the gap is 2% of the mean.  Tried on 20000 draws
 *   each: normal data is flagged 1% of the time at n = 10, 0.01% at 20;
 *   right-skewed (exponential, lognormal) 7-9% at 10, 1-2% at 20; two equal
 *   clusters 6 sd apart about half the time.  Near-zero intervals are left
 *   out: the zero flag already names them, and fewer than 8 intervals are
 *   not tested (at 6, normal noise is flagged 5% of the time).
 * - starved: a worker whose count over the measured part is at or below
 *   1% of the busiest worker's, while the point's total moved.  The total
 *   and its intervals can look healthy while one worker did nothing: a
 *   pinned worker whose CPU went to someone else, or whose events were
 *   never counted (map_perf's worker 0 counted nothing in every interval
 *   of a point, twice in make check, while worker 1 counted for both: its
 *   thread had 15 ms of CPU in a repetition, starved by other processes).
 *   The headline rate is then not the rate of the workers the point names.
 *   The flag says how much CPU the starved workers had (the most any of
 *   them had, as a share of the measured time): near none, they were
 *   starved of CPU; near all, they ran and their events went uncounted.
 * - interference: see quality_assess_wait(); steal: quality_assess_load().
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "quality.h"

#define MIN_TREND_DF		2
#define MIN_CLUSTER		2
#define MIN_BIMODAL_N		8	/* below, normal noise looks bimodal 2-5% of the time */
#define MIN_CLUSTER_FRAC	5	/* each cluster holds at least 1/5 */

static void assess_zero(const double *rates, int n, struct quality *q)
{
	double max = n ? gsl_stats_max(rates, 1, n) : 0;

	for (int i = 0; i < n; i++)
		q->nr_zero += rates[i] <= max * QUALITY_NEAR_ZERO_PCT / 100;
	if (q->nr_zero)
		q->flags |= QF_ZERO;
}

/* An interval is near zero at 1% of the largest: all are, only when the largest is 0. */
bool quality_all_zero(const struct quality *q)
{
	return q->n > 0 && q->nr_zero == q->n;
}

static void assess_cv(const double *rates, int n, double mean, int max_cv_pct,
		      struct quality *q)
{
	if (n < 2 || mean <= 0)
		return;
	q->cv_pct = gsl_stats_sd_m(rates, 1, n, mean) / mean * 100;
	if (max_cv_pct > 0 && q->cv_pct > max_cv_pct)
		q->flags |= QF_CV;
}

/* Centre x (position in the repetition) and y within each repetition. */
static int centre_by_rep(const double *y, const int *rep, int n, double *xc, double *yc)
{
	int nr_reps = 0;

	for (int start = 0, end; start < n; start = end) {
		double xm, ym;

		for (end = start; end < n && rep[end] == rep[start]; end++)
			xc[end] = end - start;
		xm = (end - start - 1) / 2.0;
		ym = gsl_stats_mean(y + start, 1, end - start);
		for (int i = start; i < end; i++) {
			xc[i] -= xm;
			yc[i] = y[i] - ym;
		}
		nr_reps++;
	}
	return nr_reps;
}

static void assess_trend(const double *rates, const int *rep, int n, double mean,
			 struct quality *q)
{
	double *xc = malloc(2 * (n ? n : 1) * sizeof(*xc)), *yc = xc + n;
	double slope, cov11, sumsq, sxx, se, t;
	int nr_reps, df;

	if (!xc || mean <= 0)
		goto out;
	nr_reps = centre_by_rep(rates, rep, n, xc, yc);
	df = n - nr_reps - 1;
	if (df < MIN_TREND_DF || gsl_fit_mul(xc, 1, yc, 1, n, &slope, &cov11, &sumsq))
		goto out;
	sxx = gsl_stats_tss_m(xc, 1, n, 0);
	se = sqrt(sumsq / df / sxx);
	t = se > 0 ? fabs(slope) / se : (slope ? INFINITY : 0);
	/* drift from the first to the last interval of an average repetition */
	q->trend_pct = slope * ((double)n / nr_reps - 1) / mean * 100;
	if (2 * gsl_cdf_tdist_Q(t, df) < QUALITY_TREND_P &&
	    fabs(q->trend_pct) >= QUALITY_TREND_PCT)
		q->flags |= QF_TREND;
out:
	free(xc);
}

/* Rates above the near-zero line, sorted; returns how many. */
static int nonzero_sorted(const double *rates, int n, double *out)
{
	double max = n ? gsl_stats_max(rates, 1, n) : 0;
	int m = 0;

	for (int i = 0; i < n; i++)
		if (rates[i] > max * QUALITY_NEAR_ZERO_PCT / 100)
			out[m++] = rates[i];
	gsl_sort(out, 1, m);
	return m;
}

/* (mean of the upper cluster - mean of the lower) / pooled within-cluster sd */
static double separation(const double *v, int m, int split)
{
	double pooled_sd = sqrt((gsl_stats_tss(v, 1, split) +
				 gsl_stats_tss(v + split, 1, m - split)) / (m - 2));
	double diff = gsl_stats_mean(v + split, 1, m - split) - gsl_stats_mean(v, 1, split);

	return pooled_sd > 0 ? diff / pooled_sd : (diff > 0 ? INFINITY : 0);
}

static void assess_bimodal(const double *rates, int n, double mean, struct quality *q)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));
	int m, split = 0, min_cluster;
	double gap = 0;

	if (!v)
		return;
	m = nonzero_sorted(rates, n, v);
	min_cluster = m / MIN_CLUSTER_FRAC > MIN_CLUSTER ? m / MIN_CLUSTER_FRAC : MIN_CLUSTER;
	for (int s = min_cluster; m >= MIN_BIMODAL_N && s <= m - min_cluster; s++) {
		if (v[s] - v[s - 1] > gap) {
			gap = v[s] - v[s - 1];
			split = s;
		}
	}
	if (split && gap >= QUALITY_BIMODAL_GAP_PCT / 100 * mean &&
	    separation(v, m, split) >= QUALITY_BIMODAL_SEPARATION)
		q->flags |= QF_BIMODAL;
	free(v);
}

void quality_assess(const double *rates, const int *rep, int n, int max_cv_pct,
		    struct quality *q)
{
	double mean = n ? gsl_stats_mean(rates, 1, n) : 0;

	*q = (struct quality){ .n = n, .wait_pct = -1, .steal_pct = -1, .starved_cpu_pct = -1 };
	assess_zero(rates, n, q);
	assess_cv(rates, n, mean, max_cv_pct, q);
	assess_trend(rates, rep, n, mean, q);
	assess_bimodal(rates, n, mean, q);
}

void quality_assess_workers(const double *rates, const double *cpu_pct, int n,
			    struct quality *q)
{
	double max = 0;

	q->nr_starved = 0;
	q->starved_cpu_pct = -1;
	q->nr_workers = rates && n > 1 ? n : 0;
	for (int i = 0; i < q->nr_workers; i++)
		max = rates[i] > max ? rates[i] : max;
	if (max <= 0)
		return;		/* nothing counted at all: the zero flag's and the stall's */
	for (int i = 0; i < q->nr_workers; i++) {
		if (rates[i] > max * QUALITY_NEAR_ZERO_PCT / 100)
			continue;
		q->nr_starved++;
		if (cpu_pct && cpu_pct[i] > q->starved_cpu_pct)
			q->starved_cpu_pct = cpu_pct[i];
	}
	if (q->nr_starved)
		q->flags |= QF_STARVED;
}

/*
 * Over the measured part of every repetition, /proc/stat says how much of
 * the point's CPUs (those its threads were pinned to, or all it may use)
 * the hypervisor took, in ticks (1% of a CPU-second at USER_HZ 100);
 * flagged from 2%, which no process on this machine can cause.
 */
void quality_assess_load(const struct cpu_load *load, long ticks_per_s, struct quality *q)
{
	if (!load->windows || !load->all_ticks || ticks_per_s <= 0)
		return;
	q->steal_pct = load->steal_ticks * 100.0 / load->all_ticks;
	if (q->steal_pct >= QUALITY_STEAL_PCT)
		q->flags |= QF_STEAL;
}

/*
 * Could thread j, running, have kept thread i waiting?  Pinned to one CPU,
 * yes; pinned to two, no.  Unpinned, only when the point has more threads
 * than CPUs: up to one each, the scheduler gives each a CPU of its own
 * unless something else holds one, and that is interference.
 */
static bool may_share(const struct thread_wait *tw, int n, int nr_cpus, int i, int j)
{
	if (tw[i].cpu >= 0 && tw[j].cpu >= 0)
		return tw[i].cpu == tw[j].cpu;
	return n > nr_cpus;
}

/*
 * Thread i's wait that the point's own threads cannot explain, as a share
 * of its measured time; < 0 unknown.  A thread waits for its siblings on
 * its CPU at most as long as they ran: 3 spinning producers pinned 0,1,0
 * on 2 CPUs wait 50% of the time on CPU 0, the point's own design, not
 * interference.  So their running time is taken off the wait, which then
 * reads low when others and siblings both held the CPU, never high.
 */
static double others_wait_pct(const struct thread_wait *tw, int n, int nr_cpus, int i)
{
	uint64_t siblings = 0;

	if (tw[i].unknown || !tw[i].window_ns)
		return -1;
	for (int j = 0; j < n; j++) {
		if (j == i || !may_share(tw, n, nr_cpus, i, j))
			continue;
		if (tw[j].unknown)
			return -1;	/* how long it ran is not known */
		siblings += tw[j].run_ns;
	}
	if (tw[i].delay_ns <= siblings)
		return 0;
	return (tw[i].delay_ns - siblings) * 100.0 / tw[i].window_ns;
}

/*
 * The kernel's run delay of each of the point's threads (schedstat.h) over
 * the measured parts: the time it was runnable and did not run.  Others'
 * CPU time alone is not it: the null workload's producer, pinned to a CPU
 * a spinner held throughout (which read interference=95-100% as others'
 * share of that CPU), waited 0.3% of its time here; it wakes every 1 ms
 * and the scheduler runs a waking sleeper soon.  A count producer pinned
 * beside that spinner waited 53%.  The most any thread waited is the
 * figure, not the mean: a hog on one of two producers' CPUs halves that
 * producer's count and the headline with it, and the mean over a thousand
 * producers would drown it.  Threads not read say nothing: unknown when
 * none was, never 0.
 */
void quality_assess_wait(const struct thread_wait *tw, int n, int nr_cpus, struct quality *q)
{
	q->wait_pct = -1;
	for (int i = 0; tw && i < n; i++) {
		double pct = others_wait_pct(tw, n, nr_cpus, i);

		if (pct > q->wait_pct)
			q->wait_pct = pct;
	}
	if (q->wait_pct >= QUALITY_INTERFERENCE_PCT)
		q->flags |= QF_INTERFERENCE;
}

/* "starved=1/2:cpu=97%"; ":cpu=" only when known. */
static int starved_text(const struct quality *q, char *buf, size_t len)
{
	char cpu[32] = "";

	if (q->starved_cpu_pct >= 0)
		snprintf(cpu, sizeof(cpu), ":cpu=%.0f%%", q->starved_cpu_pct);
	return snprintf(buf, len, "starved=%d/%d%s", q->nr_starved, q->nr_workers, cpu);
}

/* One flag's text with its figure: "cv=37%". */
static int flag_text(const struct quality *q, unsigned flag, char *buf, size_t len)
{
	switch (flag) {
	case QF_CV:
		return snprintf(buf, len, "cv=%.0f%%", q->cv_pct);
	case QF_ZERO:
		return snprintf(buf, len, "zero=%d/%d", q->nr_zero, q->n);
	case QF_STARVED:
		return starved_text(q, buf, len);
	case QF_TREND:
		return snprintf(buf, len, "trend=%+.0f%%", q->trend_pct);
	case QF_BIMODAL:
		return snprintf(buf, len, "bimodal");
	case QF_INTERFERENCE:
		return snprintf(buf, len, "interference=%.0f%%", q->wait_pct);
	case QF_STEAL:
		return snprintf(buf, len, "steal=%.0f%%", q->steal_pct);
	case QF_VARIED:
		return snprintf(buf, len, "varied");
	}
	return 0;
}

/*
 * One flag explained for any row, its figures named by letter, as a
 * legend says it once under a table whose rows carry the figures.
 */
static int flag_legend(unsigned flag, int max_cv_pct, char *buf, size_t len)
{
	switch (flag) {
	case QF_CV:
		return snprintf(buf, len, "[cv=N%%] the intervals' stddev is N%% of their mean,"
				" over %d%%", max_cv_pct);
	case QF_ZERO:
		return snprintf(buf, len, "[zero=K/N] K of the N measured intervals near zero");
	case QF_STARVED:
		return snprintf(buf, len, "[starved=K/N:cpu=C%%] K of N workers counted at most 1%%"
				" of the busiest one's events; none of them ran more than C%%"
				" of the time (when known)");
	case QF_TREND:
		return snprintf(buf, len, "[trend=±N%%] the rate drifted N%% within a repetition:"
				" still warming up?");
	case QF_BIMODAL:
		return snprintf(buf, len, "[bimodal] the intervals form two clusters: the mean is"
				" of neither");
	case QF_INTERFERENCE:
		return snprintf(buf, len, "[interference=N%%] a thread of the point waited N%% of"
				" its measured time for a CPU others held");
	case QF_STEAL:
		return snprintf(buf, len, "[steal=N%%] N%% of the point's CPU time went to the"
				" hypervisor");
	case QF_VARIED:
		return snprintf(buf, len, "[varied] a deterministic metric (the verifier's counts,"
				" program sizes) differed between repetitions: they did not"
				" load the same programs");
	}
	return 0;
}

/* The order flags are written in, and their names. */
static const unsigned order[] = {
	QF_VARIED, QF_CV, QF_ZERO, QF_STARVED, QF_TREND, QF_BIMODAL, QF_INTERFERENCE, QF_STEAL,
};
static const char *const flag_names[] = { "varied", "cv", "zero", "starved", "trend",
					  "bimodal", "interference", "steal" };

static void join_flags(const struct quality *q, const char *sep, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]) && off < len; i++) {
		if (!(q->flags & order[i]))
			continue;
		if (off)
			off += snprintf(buf + off, len - off, "%s", sep);
		if (off < len)
			off += flag_text(q, order[i], buf + off, len - off);
	}
}

void quality_names(unsigned flags, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]) && off < len; i++)
		if (flags & order[i])
			off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
					flag_names[i]);
}

void quality_format(const struct quality *q, char *buf, size_t len)
{
	join_flags(q, ";", buf, len);
}

void quality_marks(const struct quality *q, char *buf, size_t len)
{
	join_flags(q, ", ", buf, len);
}

void quality_legend(unsigned flags, int max_cv_pct, const char *sep, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]) && off < len; i++) {
		if (!(flags & order[i]))
			continue;
		if (off)
			off += snprintf(buf + off, len - off, "%s", sep);
		if (off < len)
			off += flag_legend(order[i], max_cv_pct, buf + off, len - off);
	}
}

/*
 * "name=P%" as quality_format() writes it, whole: P finite, nothing
 * around it; P into *v.
 */
static bool pct_item(const char *text, const char *name, double *v)
{
	size_t n = strlen(name);
	const char *num = text + n + 1;
	char *end;

	if (strncmp(text, name, n) || text[n] != '=' ||
	    !(isdigit((unsigned char)*num) || *num == '-' || *num == '+'))
		return false;
	*v = strtod(num, &end);
	return end != num && isfinite(*v) && !strcmp(end, "%");
}

/*
 * "name=K/N" and what follows it (*rest): 0 <= K <= N, both written as
 * quality_format() writes them.
 */
static bool ratio_item(const char *text, const char *name, int *k, int *of, const char **rest)
{
	size_t n = strlen(name);
	const char *num = text + n + 1;
	char *end;
	long a, b;

	if (strncmp(text, name, n) || text[n] != '=' || !isdigit((unsigned char)*num))
		return false;
	a = strtol(num, &end, 10);
	if (*end != '/' || !isdigit((unsigned char)end[1]))
		return false;
	b = strtol(end + 1, &end, 10);
	if (a > b || b > INT_MAX)
		return false;
	*k = a;
	*of = b;
	*rest = end;
	return true;
}

/* "starved=K/N" or "starved=K/N:cpu=P%" into q. */
static bool starved_item(const char *text, struct quality *q)
{
	const char *rest;

	if (!ratio_item(text, "starved", &q->nr_starved, &q->nr_workers, &rest))
		return false;
	return !*rest || (*rest == ':' && pct_item(rest + 1, "cpu", &q->starved_cpu_pct));
}

/* One "name=value" or "name" item of quality_format()'s text into q. */
static int parse_item(const char *item, size_t len, struct quality *q)
{
	char text[64];
	const char *rest;
	unsigned flag;

	if (len >= sizeof(text))
		return -EINVAL;
	memcpy(text, item, len);
	text[len] = '\0';
	if (pct_item(text, "cv", &q->cv_pct))
		flag = QF_CV;
	else if (ratio_item(text, "zero", &q->nr_zero, &q->n, &rest) && !*rest)
		flag = QF_ZERO;
	else if (starved_item(text, q))
		flag = QF_STARVED;
	else if (pct_item(text, "trend", &q->trend_pct))
		flag = QF_TREND;
	else if (!strcmp(text, "bimodal"))
		flag = QF_BIMODAL;
	else if (pct_item(text, "interference", &q->wait_pct))
		flag = QF_INTERFERENCE;
	else if (pct_item(text, "steal", &q->steal_pct))
		flag = QF_STEAL;
	else if (!strcmp(text, "varied"))
		flag = QF_VARIED;
	else
		return -EINVAL;
	/* twice the same flag is not a cell bpfsweep writes */
	if (q->flags & flag)
		return -EINVAL;
	q->flags |= flag;
	return 0;
}

int quality_parse(const char *text, struct quality *q)
{
	*q = (struct quality){ .wait_pct = -1, .steal_pct = -1, .starved_cpu_pct = -1 };
	while (*text) {
		size_t len = strcspn(text, ";");
		int err = parse_item(text, len, q);

		if (err)
			return err;
		text += len + (text[len] == ';');
	}
	return 0;
}
