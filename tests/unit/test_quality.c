// SPDX-License-Identifier: GPL-2.0
/*
 * quality.c, cpustat.c, schedstat.c and cpulist.c on vectors worked out by hand: each
 * flag is raised by the data it describes and by nothing else.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "cpulist.h"
#include "cpustat.h"
#include "quality.h"
#include "schedstat.h"

static const int one_rep[64];		/* every interval in repetition 0 */

static void assess(const double *x, int n, struct quality *q)
{
	quality_assess(x, one_rep, n, QUALITY_DEFAULT_MAX_CV, q);
}

static const char *flags_of(const struct quality *q)
{
	static char buf[256];

	quality_format(q, buf, sizeof(buf));
	return buf;
}

/* Steady numbers with 0.5% noise: nothing to say. */
TEST(clean_gets_no_flags)
{
	const double x[] = { 100.0, 100.5, 99.5, 100.2, 99.8, 100.4, 99.6, 100.1, 99.9, 100.0 };
	struct quality q;

	assess(x, 10, &q);
	CHECK_INT(q.flags, 0);
	CHECK_STR(flags_of(&q), "");
	CHECK_INT(q.n, 10);
	CHECK_NEAR(q.wait_pct, -1, 0);		/* no threads read: not measured */
}

/*
 * The point: 0, 0, 0, 0, 0.2 M/s.  mean 0.04, sample sd
 * sqrt(0.032 / 4) = 0.0894, cv 224%; four intervals below 1% of the max.
 */
TEST(zero_intervals)
{
	const double x[] = { 0, 0, 0, 0, 0.2e6 };
	struct quality q;

	assess(x, 5, &q);
	CHECK_INT(q.flags, QF_ZERO | QF_CV);
	CHECK_INT(q.nr_zero, 4);
	CHECK_NEAR(q.cv_pct, 0.0894427191 / 0.04 * 100, 1e-6);
	CHECK_STR(flags_of(&q), "cv=224%;zero=4/5");
}

/*
 * A stall counts nothing in every interval: all zero, the runner's
 * "stalled"; one interval that counted anything keeps the point ok.
 */
TEST(all_zero_is_stalled)
{
	const double none[] = { 0, 0, 0, 0 }, one[] = { 0, 0, 0, 1 };
	struct quality q;

	assess(none, 4, &q);
	CHECK(quality_all_zero(&q));
	CHECK_STR(flags_of(&q), "zero=4/4");
	assess(one, 4, &q);
	CHECK(!quality_all_zero(&q));
	CHECK_STR(flags_of(&q), "cv=200%;zero=3/4");
	/* nothing measured is not a stall: there is nothing to judge */
	assess(none, 0, &q);
	CHECK(!quality_all_zero(&q));
}

/* 1% of the largest interval is still "near zero"; 1.1% is not. */
TEST(near_zero_line)
{
	const double x[] = { 100, 100, 100, 100, 1, 100, 100, 1.1 };
	struct quality q;

	quality_assess(x, one_rep, 8, 0, &q);
	CHECK_INT(q.nr_zero, 1);
	CHECK(q.flags & QF_ZERO);
}

/*
 * 90, 110 alternating: sd = 10 * sqrt(10/9) = 10.54, cv 10.5% over the
 * default 10; two clusters with no spread inside: bimodal.
 */
TEST(jitter_is_cv_and_bimodal)
{
	double x[10];
	struct quality q;

	for (int i = 0; i < 10; i++)
		x[i] = i % 2 ? 90 : 110;
	assess(x, 10, &q);
	CHECK_NEAR(q.cv_pct, 10 * sqrt(10.0 / 9), 1e-9);
	CHECK_INT(q.flags, QF_CV | QF_BIMODAL);
	CHECK_STR(flags_of(&q), "cv=11%;bimodal");
	/* max_cv is the user's: 11 lets it pass, 0 turns the flag off */
	quality_assess(x, one_rep, 10, 11, &q);
	CHECK_INT(q.flags, QF_BIMODAL);
	quality_assess(x, one_rep, 10, 0, &q);
	CHECK_INT(q.flags, QF_BIMODAL);
}

/* Two clusters 2% apart are bimodal; 1% apart they are not material. */
TEST(bimodal_needs_a_material_gap)
{
	double x[10];
	struct quality q;

	for (int i = 0; i < 10; i++)
		x[i] = i % 2 ? 99 : 101.02;
	assess(x, 10, &q);
	CHECK_INT(q.flags, QF_BIMODAL);
	for (int i = 0; i < 10; i++)
		x[i] = i % 2 ? 99.5 : 100.5;
	assess(x, 10, &q);
	CHECK_INT(q.flags, 0);
}

/*
 * One outlier is not a cluster (clusters need 2 and a fifth of the
 * intervals), and under 8 intervals bimodality is not tested at all.
 */
TEST(bimodal_small_n)
{
	const double outlier[] = { 100, 100.1, 99.9, 100, 100.2, 99.8, 100, 100.1, 99.9, 130 };
	const double seven[] = { 90, 110, 90, 110, 90, 110, 90 };
	struct quality q;

	quality_assess(outlier, one_rep, 10, 0, &q);
	CHECK_INT(q.flags & QF_BIMODAL, 0);
	quality_assess(seven, one_rep, 7, 0, &q);
	CHECK_INT(q.flags & QF_BIMODAL, 0);
}

/*
 * Warming up: 100, 102, ..., 118 (+2 per interval) with ±0.5 noise.
 * Least squares: slope 2 + sum((i - 4.5) * noise[i]) / 82.5 = 2 - 0.5 / 82.5,
 * drift over the repetition 9 * slope = 17.945, mean 109: trend +16.46%.
 */
TEST(trend_warming_up)
{
	const double noise[] = { 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5 };
	double x[10];
	struct quality q;

	for (int i = 0; i < 10; i++)
		x[i] = 100 + 2 * i + noise[i];
	quality_assess(x, one_rep, 10, 0, &q);
	CHECK_INT(q.flags, QF_TREND);
	CHECK_NEAR(q.trend_pct, 9 * (2 - 0.5 / 82.5) / 109 * 100, 1e-9);
	CHECK_STR(flags_of(&q), "trend=+16%");
}

/* A significant slope too small to matter (2% drift) is not flagged. */
TEST(trend_small_is_not_flagged)
{
	double x[10];
	struct quality q;

	for (int i = 0; i < 10; i++)
		x[i] = 100 + 0.2 * i;
	quality_assess(x, one_rep, 10, 0, &q);
	CHECK_NEAR(q.trend_pct, 1.8 / 100.9 * 100, 1e-9);
	CHECK_INT(q.flags, 0);
}

/*
 * Two repetitions at different levels, each flat: pooled without the
 * per-repetition centring this would read as a trend; it is none.
 */
TEST(trend_within_repetitions)
{
	const double x[] = { 100, 101, 99, 100, 101, 99, 120, 121, 119, 120, 121, 119 };
	const int rep[] = { 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1 };
	struct quality q;

	quality_assess(x, rep, 12, 0, &q);
	CHECK_INT(q.flags & QF_TREND, 0);
}

static const char proc_stat_a[] =
	"cpu  1000 0 500 8000 10 0 0 0 0 0\n"
	"cpu0 500 0 250 4000 5 0 0 0 0 0\n"
	"cpu1 500 0 250 4000 5 0 0 0 0 0\n"
	"intr 12345 1 2 3\n";
/* 1 s at USER_HZ 100: cpu0 busy 90 ticks, steal 5, idle 5; cpu1 idle */
static const char proc_stat_b[] =
	"cpu  1000 0 500 8000 10 0 0 0 0 0\n"
	"cpu0 560 10 270 4005 5 0 0 5 0 0\n"
	"cpu1 500 0 250 4100 5 0 0 0 0 0\n"
	"ctxt 99\n";

TEST(cpustat_parses_proc_stat)
{
	struct cpustat *s = calloc(1, sizeof(*s));

	CHECK(s);
	CHECK_INT(cpustat_parse(proc_stat_a, s), 0);
	CHECK_INT(s->present[0] && s->present[1] && !s->present[2], 1);
	CHECK_INT(s->cpu[0].busy, 750);
	CHECK_INT(s->cpu[0].all, 4755);
	CHECK_INT(cpustat_parse("intr 1 2\n", s), -EINVAL);
	free(s);
}

/*
 * cpu0 was busy 90 of its 100 ticks in that second, 40 of them for other
 * processes: that alone is no flag any more (a point's threads that sleep
 * did not wait for it); steal 5 of 100 ticks is.  cpu1's idleness does
 * not dilute it.
 */
TEST(steal_not_others_cpu)
{
	struct cpustat *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct cpu_load load = { 0 };
	const int cpus[] = { 0 };
	struct quality q = { .wait_pct = -1 };

	CHECK(a && b);
	CHECK_INT(cpustat_parse(proc_stat_a, a), 0);
	CHECK_INT(cpustat_parse(proc_stat_b, b), 0);
	cpustat_add_window(&load, a, b, cpus, 1);
	free(a);
	free(b);
	CHECK_INT(load.all_ticks, 100);
	quality_assess_load(&load, 100, &q);
	CHECK_NEAR(q.steal_pct, 5, 1e-9);
	CHECK_INT(q.flags, QF_STEAL);
	CHECK_NEAR(q.wait_pct, -1, 0);
	CHECK_STR(flags_of(&q), "steal=5%");
}

/*
 * The state letter of a stat line, after the command's last ')' (a command
 * may hold ") S "); this running thread's own is R.
 */
TEST(thread_state_parses)
{
	char state, wchan[48];

	CHECK_INT(schedstat_state_parse("1234 (bpfsweep) S 1 1234"), 'S');
	CHECK_INT(schedstat_state_parse("1234 (a) R (b) D 1 1234"), 'D');
	CHECK_INT(schedstat_state_parse("1234 (x) "), 0);
	CHECK_INT(schedstat_state_parse("1234 bpfsweep S"), 0);
	CHECK_INT(schedstat_state(gettid(), &state, wchan, sizeof(wchan)), 0);
	CHECK_INT(state, 'R');
	CHECK_INT(schedstat_state(0, &state, wchan, sizeof(wchan)), -ESRCH);
}

/* "run_ns delay_ns timeslices" as the kernel writes it, and nothing else. */
TEST(schedstat_parses)
{
	struct sched_times t;

	CHECK_INT(schedstat_parse("1644855 406392 2\n", &t), 0);
	CHECK_INT(t.run_ns, 1644855);
	CHECK_INT(t.delay_ns, 406392);
	CHECK_INT(schedstat_parse("1644855 406392\n", &t), -EINVAL);
	CHECK_INT(schedstat_parse("1644855 406392 2 x\n", &t), -EINVAL);
	CHECK_INT(schedstat_parse("", &t), -EINVAL);
	/* this thread's own, read back: it has run */
	CHECK_INT(schedstat_read(gettid(), &t), 0);
	CHECK(t.run_ns > 0);
	CHECK_INT(schedstat_read(0, &t), -ESRCH);
}

/* A window whose counts went backwards is not a measurement. */
TEST(schedstat_windows_add)
{
	const struct sched_times a = { 100, 10 }, b = { 600, 210 }, back = { 50, 210 };
	struct thread_wait w = { .cpu = -1 };

	schedstat_add_window(&w, &a, &b, 1000);
	schedstat_add_window(&w, &a, &b, 1000);
	CHECK_INT(w.run_ns, 1000);
	CHECK_INT(w.delay_ns, 400);
	CHECK_INT(w.window_ns, 2000);
	CHECK_INT(w.unknown, 0);
	schedstat_add_window(&w, &a, &back, 1000);
	CHECK_INT(w.unknown, 1);
}

static const char *wait_flags(const struct thread_wait *tw, int n, int nr_cpus, double *pct)
{
	struct quality q = { .wait_pct = -1, .steal_pct = -1 };

	quality_assess_wait(tw, n, nr_cpus, &q);
	*pct = q.wait_pct;
	return flags_of(&q);
}

/*
 * The flag is the most any thread waited for others, as a share of its
 * measured time: one producer of two waited 0.5 s of its 1 s while a hog
 * held its CPU (the other 0.02 s): interference=50%.  What waited is
 * judged, not what ran: the same point with both threads asleep (a null
 * point on a machine whose other processes took 90% of the CPUs) waited
 * 0.1% and is clean.
 */
TEST(interference_from_wait)
{
	struct thread_wait tw[] = {
		{ .run_ns = 500000000, .delay_ns = 500000000, .window_ns = 1000000000, .cpu = 0 },
		{ .run_ns = 980000000, .delay_ns = 20000000, .window_ns = 1000000000, .cpu = 1 },
	};
	const struct thread_wait asleep[] = {
		{ .run_ns = 5000000, .delay_ns = 1000000, .window_ns = 1000000000, .cpu = 0 },
		{ .run_ns = 5000000, .delay_ns = 800000, .window_ns = 1000000000, .cpu = 1 },
	};
	double pct;

	CHECK_STR(wait_flags(tw, 2, 2, &pct), "interference=50%");
	CHECK_NEAR(pct, 50, 1e-9);
	CHECK_STR(wait_flags(asleep, 2, 2, &pct), "");
	CHECK_NEAR(pct, 0.1, 1e-9);
	/* just under and at the threshold */
	tw[0].delay_ns = 99999999;
	CHECK_STR(wait_flags(tw, 2, 2, &pct), "");
	tw[0].delay_ns = 100000000;
	CHECK_STR(wait_flags(tw, 2, 2, &pct), "interference=10%");
}

/*
 * Unknown is not 0: no threads, or none read, is no figure and no flag;
 * a thread not read leaves the figure to those that were.
 */
TEST(interference_unknown)
{
	struct thread_wait tw[] = {
		{ .run_ns = 500000000, .delay_ns = 500000000, .window_ns = 1000000000, .cpu = 0,
		  .unknown = true },
		{ .run_ns = 980000000, .delay_ns = 20000000, .window_ns = 1000000000, .cpu = 1 },
	};
	double pct;

	CHECK_STR(wait_flags(NULL, 0, 2, &pct), "");
	CHECK_NEAR(pct, -1, 0);
	CHECK_STR(wait_flags(tw, 2, 2, &pct), "");
	CHECK_NEAR(pct, 2, 1e-9);
	tw[1].unknown = true;
	CHECK_STR(wait_flags(tw, 2, 2, &pct), "");
	CHECK_NEAR(pct, -1, 0);
	/* a thread with no measured time says nothing either */
	tw[0] = (struct thread_wait){ .delay_ns = 500000000, .cpu = 0 };
	CHECK_STR(wait_flags(tw, 1, 2, &pct), "");
	CHECK_NEAR(pct, -1, 0);
}

/*
 * A point's threads that share a CPU by design wait for each other: not
 * interference.  Producers pinned 0,1,0, spinning: the two on CPU 0 each
 * ran 0.5 s and waited 0.5 s of 1 s, the sibling's run explains it all.
 * A hog on CPU 0 then takes a third: each ran 1/3 s, waited 2/3 s, of
 * which the sibling explains 1/3 s: 33%.  Unpinned, 3 threads on 2 CPUs
 * may wait for any sibling; 2 on 2 CPUs wait for others only.
 */
TEST(interference_not_own_threads)
{
	struct thread_wait tw[] = {
		{ .run_ns = 500000000, .delay_ns = 500000000, .window_ns = 1000000000, .cpu = 0 },
		{ .run_ns = 1000000000, .delay_ns = 0, .window_ns = 1000000000, .cpu = 1 },
		{ .run_ns = 500000000, .delay_ns = 500000000, .window_ns = 1000000000, .cpu = 0 },
	};
	double pct;

	CHECK_STR(wait_flags(tw, 3, 2, &pct), "");
	CHECK_NEAR(pct, 0, 1e-9);
	tw[0].run_ns = tw[2].run_ns = 333333333;
	tw[0].delay_ns = tw[2].delay_ns = 666666667;
	CHECK_STR(wait_flags(tw, 3, 2, &pct), "interference=33%");
	/* unpinned: 3 threads on 2 CPUs may all wait for each other */
	for (int i = 0; i < 3; i++)
		tw[i] = (struct thread_wait){ .run_ns = 666666667, .delay_ns = 333333333,
					      .window_ns = 1000000000, .cpu = -1 };
	CHECK_STR(wait_flags(tw, 3, 2, &pct), "");
	/* 2 on 2 CPUs with a hog: a third of each one's time went to it */
	CHECK_STR(wait_flags(tw, 2, 2, &pct), "interference=33%");
	/* a sibling not read: how long it ran is not known, nor what it explains */
	tw[1].unknown = true;
	CHECK_STR(wait_flags(tw, 3, 2, &pct), "");
	CHECK_NEAR(pct, -1, 0);
}

/*
 * A worker at or below 1% of the busiest one's rate is starved, the
 * others are not; nothing is said without per-worker counts, of a lone
 * worker, or when no worker counted anything (the zero flag's case).
 */
TEST(starved_workers)
{
	static const double idle_first[] = { 0, 146038 }, near[] = { 1460, 146038, 90000 };
	static const double above[] = { 1461, 146038 }, spread[] = { 55816, 91791 };
	static const double none[] = { 0, 0 }, alone[] = { 0 };
	struct quality q = { 0 };

	quality_assess_workers(idle_first, NULL, 2, &q);
	CHECK_INT(q.flags, QF_STARVED);
	CHECK_STR(flags_of(&q), "starved=1/2");
	q = (struct quality){ 0 };
	quality_assess_workers(near, NULL, 3, &q);
	CHECK_STR(flags_of(&q), "starved=1/3");
	q = (struct quality){ .flags = QF_CV };
	quality_assess_workers(above, NULL, 2, &q);
	CHECK_INT(q.flags, QF_CV);
	quality_assess_workers(spread, NULL, 2, &q);
	CHECK_INT(q.flags, QF_CV);
	quality_assess_workers(none, NULL, 2, &q);
	CHECK_INT(q.flags, QF_CV);
	quality_assess_workers(alone, NULL, 1, &q);
	CHECK_INT(q.flags, QF_CV);
	quality_assess_workers(NULL, NULL, 0, &q);
	CHECK_INT(q.flags, QF_CV);
	CHECK_INT(q.nr_starved, 0);
}

/*
 * The starved flag says how much CPU the starved workers had: the most any
 * of them had, known ones only; the busy workers' CPU is not its business.
 */
TEST(starved_workers_cpu)
{
	static const double rates[] = { 0, 146038, 1000 };
	static const double ran[] = { 97.4, 99, 3 }, part[] = { -1, 99, 3 }, none[] = { -1, 99, -1 };
	struct quality q = { 0 };

	quality_assess_workers(rates, ran, 3, &q);
	CHECK_STR(flags_of(&q), "starved=2/3:cpu=97%");
	quality_assess_workers(rates, part, 3, &q);
	CHECK_STR(flags_of(&q), "starved=2/3:cpu=3%");
	quality_assess_workers(rates, none, 3, &q);
	CHECK_STR(flags_of(&q), "starved=2/3");
}

/*
 * A row's mark carries its own figures; the legend under the table says
 * once what each flag means, for every row (it was one footnote per row).
 */
TEST(marks_and_legend)
{
	struct quality q = { .flags = QF_CV | QF_ZERO, .n = 5, .nr_zero = 4, .cv_pct = 224 };
	char buf[1024];

	quality_marks(&q, buf, sizeof(buf));
	CHECK_STR(buf, "cv=224%, zero=4/5");
	quality_marks(&q, buf, 6);
	CHECK_STR(buf, "cv=22");
	quality_legend(q.flags, 10, "\n", buf, sizeof(buf));
	CHECK_STR(buf, "[cv=N%] the intervals' stddev is N% of their mean, over 10%\n"
		  "[zero=K/N] K of the N measured intervals near zero");
	q = (struct quality){ .flags = QF_STARVED, .nr_starved = 1, .nr_workers = 2,
			      .starved_cpu_pct = 98 };
	quality_marks(&q, buf, sizeof(buf));
	CHECK_STR(buf, "starved=1/2:cpu=98%");
	/* every flag, in the marks' order, each once */
	quality_legend(~0u, 20, "|", buf, sizeof(buf));
	CHECK_STR(buf, "[varied] a deterministic metric (the verifier's counts, program sizes) "
		  "differed between repetitions: they did not load the same programs|"
		  "[cv=N%] the intervals' stddev is N% of their mean, over 20%|"
		  "[zero=K/N] K of the N measured intervals near zero|"
		  "[starved=K/N:cpu=C%] K of N workers counted at most 1% of the busiest one's "
		  "events; none of them ran more than C% of the time (when known)|"
		  "[trend=±N%] the rate drifted N% within a repetition: still warming up?|"
		  "[bimodal] the intervals form two clusters: the mean is of neither|"
		  "[interference=N%] a thread of the point waited N% of its measured time for a "
		  "CPU others held|"
		  "[steal=N%] N% of the point's CPU time went to the hypervisor");
	quality_legend(0, 10, "\n", buf, sizeof(buf));
	CHECK_STR(buf, "");
	quality_legend(QF_BIMODAL | QF_STEAL, 10, "\n", buf, 20);
	CHECK_STR(buf, "[bimodal] the inter");
}

/* What summary.csv's quality column holds comes back as the same flags. */
TEST(parsed_back_from_csv)
{
	struct quality q = { .flags = QF_CV | QF_ZERO | QF_STARVED | QF_TREND | QF_BIMODAL |
				      QF_INTERFERENCE | QF_STEAL, .n = 5, .nr_zero = 4,
			     .nr_starved = 1, .nr_workers = 8, .starved_cpu_pct = 2, .cv_pct = 224,
			     .trend_pct = -12, .wait_pct = 23, .steal_pct = 5 };
	struct quality back;
	char text[256], again[256];

	quality_format(&q, text, sizeof(text));
	CHECK_STR(text, "cv=224%;zero=4/5;starved=1/8:cpu=2%;trend=-12%;bimodal;"
		  "interference=23%;steal=5%");
	CHECK_INT(quality_parse(text, &back), 0);
	CHECK_INT(back.flags, q.flags);
	CHECK_INT(back.nr_zero, 4);
	CHECK_INT(back.n, 5);
	CHECK_INT(back.nr_starved, 1);
	CHECK_INT(back.nr_workers, 8);
	CHECK_NEAR(back.starved_cpu_pct, 2, 1e-9);
	CHECK_NEAR(back.wait_pct, 23, 1e-9);
	quality_format(&back, again, sizeof(again));
	CHECK_STR(again, text);
	CHECK_INT(quality_parse("starved=1/2", &back), 0);
	CHECK_NEAR(back.starved_cpu_pct, -1, 1e-9);
	CHECK_INT(quality_parse("", &back), 0);
	CHECK_INT(back.flags, 0);
	CHECK_INT(quality_parse("cv=3%;noise", &back), -EINVAL);
	/* a deterministic metric that varied leads, and vetoes a change */
	q = (struct quality){ .flags = QF_VARIED | QF_CV, .cv_pct = 12 };
	quality_format(&q, text, sizeof(text));
	CHECK_STR(text, "varied;cv=12%");
	CHECK_INT(quality_parse(text, &back), 0);
	CHECK_INT(back.flags, QF_VARIED | QF_CV);
	CHECK(QUALITY_VETO_FLAGS & QF_VARIED);
}

/* Only what quality_format() writes is read back: anything else is refused whole. */
TEST(parse_refuses_what_is_not_written)
{
	static const char *const bad[] = {
		"cv=3%x", "cv=3", "cv= 3%", "cv=nan%", "cv=inf%", "cv=%", "zero=4/5x", "zero=5/4",
		"zero=-1/5", "zero=4/ 5", "zero=4/+5", "zero=4", "starved=1/2:", "starved=1/2:cpu=",
		"starved=1/2:cpu=5", "starved=1/2;starved=1/2", "bimodal;bimodal", "bimodalx",
		"trend=12", "interference=23%%", "steal=5% ", "=5%", "cv=3%;;zero=1/2",
	};
	static const char *const good[] = {
		"cv=3%", "zero=0/5", "starved=1/2", "starved=1/2:cpu=97%", "trend=-12%",
		"trend=+12%", "interference=23%", "steal=5%", "cv=224%;zero=4/5;bimodal",
	};
	struct quality q;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (quality_parse(bad[i], &q) != -EINVAL)
			CHECK_FAIL_("'%s' was read", bad[i]);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (quality_parse(good[i], &q))
			CHECK_FAIL_("'%s' was refused", good[i]);
}

/* Expand "cons 0 prod (0,1)x3,0" back into one CPU per thread. */
static int expand_list(const char *s, int *cpu, int max)
{
	int n = 0;

	while (*s && n < max) {
		if (*s == '(') {
			const char *close = strchr(s, ')');
			int reps = atoi(close + 2), start = n;

			for (s++; s < close; s += *s == ',')
				cpu[n++] = strtol(s, (char **)&s, 10);
			for (int r = 1, len = n - start; r < reps; r++)
				for (int i = 0; i < len && n < max; i++)
					cpu[n++] = cpu[start + i];
			s = strchr(close, 'x') + 1;
			strtol(s, (char **)&s, 10);
		} else if (*s >= '0' && *s <= '9') {
			cpu[n++] = strtol(s, (char **)&s, 10);
		} else {
			s++;
		}
	}
	return n;
}

/* Every thread is accounted for, however many there are. */
TEST(cpus_every_thread)
{
	static const int nr_cpus[] = { 1, 2, 3, 64 };
	static const int nr_threads[] = { 1, 3, 4, 7, 1023, 1024 };
	int cpu[1100], back[1100];

	for (size_t c = 0; c < sizeof(nr_cpus) / sizeof(nr_cpus[0]); c++) {
		for (size_t t = 0; t < sizeof(nr_threads) / sizeof(nr_threads[0]); t++) {
			int n = nr_threads[t];
			char *s;

			for (int i = 0; i < n; i++)
				cpu[i] = i % nr_cpus[c];
			CHECK_INT(cpulist_describe(cpu, 0, n, &s), 0);
			CHECK_INT(expand_list(s + 5, back, 1100), n);
			for (int i = 0; i < n; i++)
				CHECK_INT(back[i], cpu[i]);
			free(s);
		}
	}
}

TEST(cpus_compact_form)
{
	int cpu[1024];
	char *s;

	for (int i = 0; i < 1024; i++)
		cpu[i] = i % 2;
	CHECK_INT(cpulist_describe(cpu, 0, 1024, &s), 0);
	CHECK_STR(s, "prod (0,1)x512");
	free(s);
	CHECK_INT(cpulist_describe(cpu, 1, 1022, &s), 0);
	CHECK_STR(s, "cons 0 prod (1,0)x511");
	free(s);
	CHECK_INT(cpulist_describe(cpu, 0, 1023, &s), 0);
	CHECK_STR(s, "prod (0,1)x511,0");
	free(s);
	/* short lists stay as they were */
	CHECK_INT(cpulist_describe(cpu, 1, 3, &s), 0);
	CHECK_STR(s, "cons 0 prod 1,0,1");
	free(s);
}

RUN_TESTS(clean_gets_no_flags, zero_intervals, all_zero_is_stalled, near_zero_line,
	  jitter_is_cv_and_bimodal,
	  bimodal_needs_a_material_gap, bimodal_small_n, trend_warming_up,
	  trend_small_is_not_flagged, trend_within_repetitions, cpustat_parses_proc_stat,
	  steal_not_others_cpu, thread_state_parses, schedstat_parses, schedstat_windows_add,
	  interference_from_wait,
	  interference_unknown, interference_not_own_threads, starved_workers,
	  starved_workers_cpu, parse_refuses_what_is_not_written, marks_and_legend, parsed_back_from_csv,
	  cpus_every_thread, cpus_compact_form)
