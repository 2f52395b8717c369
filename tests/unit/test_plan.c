// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c, caps.c and the runner's use of the plan, with the null workload:
 * its test rule (mode=pairs needs an even number of producers) and its
 * probe (fail=probe: unsupported).  Diagnostics are compared in full.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>

#include "bind.h"
#include "caps.h"
#include "check.h"
#include "diag_capture.h"
#include "plan.h"
#include "runner.h"
#include "spec.h"
#include "timing.h"

extern const struct workload null_workload;
extern const struct workload ringbuf_workload;
extern const struct workload count_workload;

/* A spec and its configuration: the plan's locations point into the spec. */
struct loaded {
	struct spec *spec;
	struct sweep_cfg *cfg;
};

static int load(const char *text, const char *set, struct loaded *l)
{
	int err;

	capture();
	l->cfg = NULL;
	err = spec_parse_string("p.spec", text, &l->spec);
	if (!err && set)
		err = spec_set(l->spec, set);
	if (!err)
		err = bind_spec(l->spec, &workloads_catalog, &l->cfg);
	return err;
}

static void unload(struct loaded *l)
{
	sweep_cfg_free(l->cfg);
	spec_free(l->spec);
}

/* The diagnostics of planning text (with one --set, or NULL); "(valid)" if none. */
static const char *plan_errors(const char *text, const char *set)
{
	struct loaded l;
	struct plan pl;
	int err;

	if (load(text, set, &l))
		return "(does not bind)";
	err = plan_build(l.cfg, &pl);
	plan_free(&pl);
	unload(&l);
	diag_finish();	/* as main() does: the count of errors not shown */
	return err == -EINVAL ? diags() : err ? "(other error)" : "(valid)";
}

TEST(validate_locates_the_value)
{
	CHECK_STR(plan_errors("[sweep]\nworkload = null\n[params]\n"
			      "mode = fast pairs\nproducers = 2 3 4 5\n", NULL),
		  "p.spec:5:13: error: mode=pairs needs an even number of producers "
		  "(in null{mode=pairs,producers=3} and 1 other point)\n");
	CHECK_STR(plan_errors("[sweep]\nworkload = null\n[params]\n"
			      "mode = pairs\nproducers = 2 4\n", NULL), "(valid)");
}

TEST(validate_default_points_at_experiment)
{
	/* at the [params] section, or where --set made one */
	CHECK_STR(plan_errors("[sweep]\nworkload = null\n\n[params \"x\"]\nmode = pairs\n", NULL),
		  "p.spec:4:1: error: mode=pairs needs an even number of producers "
		  "(producers = 1, its default)\n");
	CHECK_STR(plan_errors("[sweep]\nworkload = null\n", "mode=pairs"),
		  "--set #1:1:1: error: mode=pairs needs an even number of producers "
		  "(producers = 1, its default)\n");
}

TEST(validate_linked_and_set)
{
	CHECK_STR(plan_errors("[sweep]\nworkload = null\n[params]\nmode = pairs\n"
			      "rate = 2 3 4\nproducers = {rate}\n", NULL),
		  "p.spec:6:13: error: mode=pairs needs an even number of producers "
		  "(in null{rate=3})\n");
	/* --set reaches every experiment: one error, not one per section */
	CHECK_STR(plan_errors("[sweep]\nworkload = null\n[params \"a\"]\nmode = pairs\n"
			      "[params \"b\"]\nmode = pairs\nflag = off on\n", "producers=3"),
		  "--set #1:1:11: error: mode=pairs needs an even number of producers "
		  "(in 3 points)\n");
}

TEST(validate_one_error_per_location_and_reason)
{
	/* two sections, two locations; in each, every bad point is one error */
	CHECK_STR(plan_errors("[sweep]\nworkload = null\n"
			      "[params \"a\"]\nmode = pairs\nproducers = 1 3 5 7\n"
			      "[params \"b\"]\nmode = pairs\nproducers = 9\n", NULL),
		  "p.spec:5:13: error: mode=pairs needs an even number of producers "
		  "(in null{producers=1} and 3 other points)\n"
		  "p.spec:8:13: error: mode=pairs needs an even number of producers\n");
}

/* A spec that breaks the rule in many places says so in a bounded number of lines. */
TEST(validate_errors_bounded)
{
	char text[4096] = "[sweep]\nworkload = null\n";
	const char *d, *last;
	int lines = 0;

	for (int i = 0; i < 40; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "[params \"%d\"]\nmode = pairs\n", i);
	d = plan_errors(text, NULL);
	for (const char *c = d; *c; c++)
		lines += *c == '\n';
	CHECK_INT(lines, 21);
	last = strstr(d, "bpfsweep: ");
	CHECK(last != NULL);
	CHECK_STR(last, "bpfsweep: 20 more errors not shown\n");
}

/* Plan text (built and probed), its report into buf; nr_runnable or -errno. */
static int probe_report(const char *text, char *buf, size_t len)
{
	struct loaded l;
	struct plan pl;
	FILE *f;
	int n;

	if (load(text, NULL, &l))
		return -EINVAL;
	n = plan_build(l.cfg, &pl) ?: plan_probe(l.cfg, &pl);
	if (!n)
		n = pl.probed ? pl.nr_runnable : -EPERM;
	buf[0] = '\0';
	f = fmemopen(buf, len, "w");
	plan_report(f, &pl, pl.pts, pl.nr_pts);
	fclose(f);
	plan_free(&pl);
	unload(&l);
	return n;
}

TEST(probe_groups_by_reason)
{
	char buf[512];

	CHECK_INT(probe_report("[sweep]\nworkload = null\n[params]\n"
			       "fail = none probe\nproducers = 2 4\n", buf, sizeof(buf)), 2);
	CHECK_STR(buf, "2 of 4 points unsupported: null: unsupported on request (fail=probe)\n");
	CHECK_INT(probe_report("[sweep]\nworkload = null\n", buf, sizeof(buf)), 1);
	CHECK_STR(buf, "");
}

TEST(estimate_counts_runnable_points)
{
	struct loaded l;
	struct plan pl;

	CHECK_INT(load("[sweep]\nworkload = null\nwarmup = 1s\nduration = 2s\nrepeat = 2\n"
		       "[params]\nfail = none probe\nflag = off on\n", NULL, &l), 0);
	CHECK_INT(plan_build(l.cfg, &pl), 0);
	/* 1s + 2s and the setup's guess, twice: of each point, runnable or not yet probed */
	CHECK_INT(plan_estimate_ns(l.cfg, &pl), 4 * 2 * (3000000000ULL + timing_setup_ns(l.cfg)));
	CHECK_INT(plan_probe(l.cfg, &pl), 0);
	CHECK_INT(plan_estimate_ns(l.cfg, &pl), 2 * 2 * (3000000000ULL + timing_setup_ns(l.cfg)));
	CHECK_INT(plan_runnable(&pl, pl.pts + 1, 2), 1);
	plan_free(&pl);
	unload(&l);
}

/*
 * The runner takes the plan's verdict and asks the probe nothing: a point
 * the plan rules out is unsupported with the plan's reason, and a point
 * whose probe would refuse it runs when the plan says it may.
 */
TEST(runner_takes_plan_verdict)
{
	struct point_result *res = NULL;
	struct loaded l;
	struct plan pl;
	int nr_run = 0;

	CHECK_INT(load("[sweep]\nworkload = null\nwarmup = 0s\nduration = 20ms\n"
		       "interval = 10ms\n[params]\nfail = none probe\n", NULL, &l), 0);
	CHECK_INT(plan_build(l.cfg, &pl), 0);
	CHECK_INT(plan_probe(l.cfg, &pl), 0);
	/* swap the verdicts */
	pl.verdicts[1] = pl.verdicts[0];
	pl.verdicts[0] = (struct plan_verdict){ -EOPNOTSUPP, 0 };
	free(pl.reasons[0]);
	pl.reasons[0] = strdup("ruled out by the plan");
	CHECK_INT(runner_run(l.cfg, &pl, pl.pts, pl.nr_pts, NULL, NULL, &res, &nr_run), 0);
	CHECK_INT(nr_run, 2);
	CHECK_INT(res[0].status, PS_UNSUPPORTED);
	CHECK_STR(res[0].reason, "ruled out by the plan");
	CHECK_INT(res[1].status, PS_OK);
	point_results_free(res, pl.nr_pts);
	plan_free(&pl);
	unload(&l);
}

TEST(caps_needed)
{
	const uint64_t bpf = 1ULL << CAP_BPF, perfmon = 1ULL << CAP_PERFMON;
	char buf[128];

	CHECK_INT(caps_lacking(&ringbuf_workload, 0, buf, sizeof(buf)), 2);
	CHECK_STR(buf, "CAP_BPF, CAP_PERFMON");
	CHECK_INT(caps_lacking(&ringbuf_workload, bpf, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "CAP_PERFMON");
	CHECK_INT(caps_lacking(&ringbuf_workload, bpf | perfmon, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
	CHECK_INT(caps_lacking(&ringbuf_workload, 1ULL << CAP_SYS_ADMIN, buf, sizeof(buf)), 0);
	CHECK_INT(caps_lacking(&null_workload, 0, buf, sizeof(buf)), 0);
	CHECK_INT(caps_lacking(&count_workload, 0, buf, sizeof(buf)), 0);
}

RUN_TESTS(validate_locates_the_value, validate_default_points_at_experiment,
	  validate_linked_and_set, validate_one_error_per_location_and_reason, validate_errors_bounded,
	  probe_groups_by_reason, estimate_counts_runnable_points, runner_takes_plan_verdict,
	  caps_needed)
