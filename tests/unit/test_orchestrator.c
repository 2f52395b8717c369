// SPDX-License-Identifier: GPL-2.0
/*
 * The sub-run orchestrator (orchestrator.h) through the host-child
 * executor: a sub-run of the real bpfsweep writes OUT/runs/1 from the
 * resolved spec file, a place that cannot be prepared gets a failed row
 * per point saying why, and the two runs are merged in OUT; the same
 * through the two-phase driver of places with shares (a fleet's), whose
 * check sees every place prepared before anything runs and may refuse
 * them all.  The VM executor goes through the same orchestrator in
 * tests/e2e/kernel.sh, the ssh executor in tests/e2e/fleet.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "orchestrator.h"
#include "resultdir.h"
#include "spec.h"
#include "textfile.h"

#define SPEC		"tests/e2e/kernel.spec"	/* null workload, 3 points, ~2 s */
#define NR_POINTS	3
#define GONE		"the test's place is gone"
#define META		"kernel_sweep: 2 kernels\n"

/* An executor whose place cannot be made: the orchestrator fails the kernel's points. */
static int gone_prepare(struct executor *ex, struct subrun_slot *s)
{
	(void)ex;
	snprintf(s->why, sizeof(s->why), GONE);
	return -ENODEV;
}

static int gone_run(struct executor *ex, struct subrun_slot *s, const char *const *argv,
		    uint64_t timeout_ns)
{
	(void)ex, (void)s, (void)argv, (void)timeout_ns;
	return -ENODEV;
}

static int gone_fetch(struct executor *ex, struct subrun_slot *s)
{
	(void)ex, (void)s;
	return 0;
}

static const struct executor_ops gone_ops = {
	.prepare = gone_prepare, .run = gone_run, .fetch = gone_fetch,
};

static struct executor gone = { .ops = &gone_ops };

static bool file_has(const char *path, const char *what)
{
	char *text;
	bool has;

	if (read_text_file(path, &text))
		return false;
	has = strstr(text, what) != NULL;
	free(text);
	return has;
}

static int lines_of(const char *path)
{
	char *text;
	int n = 0;

	if (read_text_file(path, &text))
		return -1;
	for (const char *p = text; (p = strchr(p, '\n')); p++)
		n++;
	free(text);
	return n;
}

/* The merge's table goes to stdout: kept out of the test's PASS/FAIL lines. */
static int draw_quietly(struct orchestrator *or)
{
	struct draw_opts d = { .no_plots = true };
	int out = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY), st;

	fflush(stdout);
	dup2(null, STDOUT_FILENO);
	st = orch_merge_and_draw(or->dir, or->run_dirs, or->nr_runs, &d, NULL, "kernel");
	fflush(stdout);
	dup2(out, STDOUT_FILENO);
	close(out);
	close(null);
	return st;
}

/*
 * This build's path into self (PATH_MAX), and OUT = tmpl/out made with
 * its runs/ (out: PATH_MAX), as a sweep's driver makes them.  Fails or
 * skips the calling test through check_cur.
 */
static void make_out(char *tmpl, char *out, char *self)
{
	const char *bin = getenv("BPFSWEEP") ?: "./bpfsweep";
	char path[PATH_MAX + 16];

	if (!realpath(bin, self) || access(SPEC, R_OK))
		SKIP("no ./bpfsweep or " SPEC ": run from the source tree after make");
	CHECK(mkdtemp(tmpl));
	snprintf(out, PATH_MAX, "%s/out", tmpl);
	CHECK_INT(resultdir_create(out), 0);
	snprintf(path, sizeof(path), "%s/runs", out);
	CHECK_INT(mkdir(path, 0755), 0);
}

TEST(host_child_and_failed_place_merged)
{
	static struct orchestrator or;
	char tmpl[] = "/tmp/test_orch.XXXXXX", out[PATH_MAX], self[PATH_MAX], path[PATH_MAX + 64];
	struct spec *spec;

	make_out(tmpl, out, self);
	if (check_cur.failed || check_cur.skipped)
		return;
	or = (struct orchestrator){ .dir = out, .nr_todo = NR_POINTS,
				    .timeout_ns = 120 * 1000000000ULL };
	CHECK_INT(spec_parse_file(SPEC, &spec), 0);
	/* OUT's own spec and meta, as the kernel sweep writes them: the merged set's */
	CHECK_INT(resultdir_write_spec(out, spec, false), 0);
	CHECK_INT(resultdir_put_file(out, "meta", META, strlen(META), false), 0);
	CHECK_INT(orch_write_spec(&or, spec, "kernel"), 0);
	spec_free(spec);
	or.sub = (struct subrun){ .self = self, .spec_path = or.spec_file };
	orch_add(&or, "host", &executor_host, NULL);
	orch_add(&or, "/k/gone", &gone, NULL);
	orch_run(&or, 0);
	orch_run(&or, 1);
	CHECK_INT(or.slots[0].status, 0);
	CHECK_INT(orch_rows_in(or.runs[0], true), NR_POINTS);
	snprintf(path, sizeof(path), "%s/meta", or.runs[0]);
	CHECK(file_has(path, "/subrun/kernel.spec"));		/* the resolved spec ran */
	/* with its settings from a file beside it, no option words */
	CHECK(file_has(path, "--subrun "));
	CHECK(!file_has(path, "--guest-of") && !file_has(path, "--kernel"));
	snprintf(path, sizeof(path), "%s/subrun/1.settings", out);
	CHECK(file_has(path, "\nguest-of = host\n"));
	snprintf(path, sizeof(path), "%s/subrun/2-failed.settings", out);
	CHECK(file_has(path, "\nfail-all = " GONE "\n"));
	CHECK_INT(or.status, 1);				/* the failed rows' */
	CHECK_INT(orch_rows_in(or.runs[1], false), NR_POINTS);
	CHECK_INT(orch_rows_in(or.runs[1], true), 0);
	snprintf(path, sizeof(path), "%s/summary.csv", or.runs[1]);
	CHECK(file_has(path, GONE));
	orch_collect(&or);
	CHECK_INT(or.nr_runs, 2);
	CHECK_INT(draw_quietly(&or), 0);
	snprintf(path, sizeof(path), "%s/summary.csv", out);
	CHECK_INT(lines_of(path), 1 + 2 * NR_POINTS);		/* the header, each run's rows */
	snprintf(path, sizeof(path), "%s/meta", out);
	CHECK(file_has(path, "report_by: kernel"));
	resultdir_remove_tree(tmpl);
}

/* The host child, its prepares and cleanups counted. */
static int nr_prepared, nr_cleaned;

static int counted_prepare(struct executor *ex, struct subrun_slot *s)
{
	__atomic_add_fetch(&nr_prepared, 1, __ATOMIC_SEQ_CST);
	return executor_host.ops->prepare(ex, s);
}

static int counted_run(struct executor *ex, struct subrun_slot *s, const char *const *argv,
		       uint64_t timeout_ns)
{
	return executor_host.ops->run(ex, s, argv, timeout_ns);
}

static int counted_fetch(struct executor *ex, struct subrun_slot *s)
{
	return executor_host.ops->fetch(ex, s);
}

static void counted_cleanup(struct executor *ex, struct subrun_slot *s)
{
	(void)ex, (void)s;
	__atomic_add_fetch(&nr_cleaned, 1, __ATOMIC_SEQ_CST);
}

static const struct executor_ops counted_ops = {
	.prepare = counted_prepare, .run = counted_run, .fetch = counted_fetch,
	.cleanup = counted_cleanup,
};

static struct executor counted = { .ops = &counted_ops };

/* What the check saw: 1 when the host child's place was ready and the gone one's not. */
static int check_saw;

static int check_refuse(struct orchestrator *or, void *arg)
{
	(void)arg;
	check_saw = or->slots[0].prepared && !or->slots[1].prepared;
	return -EINVAL;
}

static int check_accept(struct orchestrator *or, void *arg)
{
	(void)arg;
	check_saw = or->slots[0].prepared && !or->slots[1].prepared;
	return 0;
}

/* Two places, shares 1/2 (points 0 and 2) and 2/2 (point 1), each with its tag. */
static void add_places(struct orchestrator *or, const char *out, const char *self)
{
	struct subrun_slot *s;

	*or = (struct orchestrator){ .dir = out, .places = true, .noun = "host",
				     .nr_todo = NR_POINTS, .timeout_ns = 120 * 1000000000ULL };
	or->sub = (struct subrun){ .self = self, .spec_path = NULL };
	s = orch_add(or, "a", &counted, NULL);
	s->shard = (struct shard){ 1, 2 };
	s->nr_todo = 2;
	s->tag = "fleet_host=a";
	s = orch_add(or, "b", &gone, NULL);
	s->shard = (struct shard){ 2, 2 };
	s->nr_todo = 1;
	s->tag = "fleet_host=b";
}

TEST(places_in_two_phases)
{
	static struct orchestrator or;
	static char spec_file[sizeof(or.spec_file)], sub_dir[sizeof(or.sub_dir)];
	char tmpl[] = "/tmp/test_orch.XXXXXX", out[PATH_MAX], self[PATH_MAX], path[PATH_MAX + 64];
	struct spec *spec;

	make_out(tmpl, out, self);
	if (check_cur.failed || check_cur.skipped)
		return;
	CHECK_INT(spec_parse_file(SPEC, &spec), 0);
	add_places(&or, out, self);
	CHECK_INT(orch_write_spec(&or, spec, "fleet"), 0);
	spec_free(spec);
	or.sub.spec_path = or.spec_file;

	/* refused after every place was prepared: nothing runs, every place cleaned up */
	CHECK_INT(orch_run_all(&or, check_refuse, NULL), -EINVAL);
	CHECK_INT(check_saw, 1);
	CHECK_INT(nr_prepared, 1);
	CHECK_INT(nr_cleaned, 1);
	CHECK(access(or.runs[0], F_OK) && access(or.runs[1], F_OK));

	memcpy(spec_file, or.spec_file, sizeof(spec_file));
	memcpy(sub_dir, or.sub_dir, sizeof(sub_dir));
	add_places(&or, out, self);
	memcpy(or.spec_file, spec_file, sizeof(spec_file));
	memcpy(or.sub_dir, sub_dir, sizeof(sub_dir));
	or.sub.spec_path = or.spec_file;
	check_saw = 0;
	CHECK_INT(orch_run_all(&or, check_accept, NULL), 0);
	CHECK_INT(check_saw, 1);
	CHECK_INT(or.slots[0].status, 0);
	CHECK_INT(orch_rows_in(or.runs[0], true), 2);		/* its share, run */
	snprintf(path, sizeof(path), "%s/meta", or.runs[0]);
	CHECK(file_has(path, "shard: 1/2") && file_has(path, "tag: fleet_host=a"));
	CHECK_INT(orch_rows_in(or.runs[1], false), 1);		/* its share, failed rows */
	CHECK_INT(orch_rows_in(or.runs[1], true), 0);
	snprintf(path, sizeof(path), "%s/meta", or.runs[1]);
	CHECK(file_has(path, "shard: 2/2") && file_has(path, "tag: fleet_host=b"));
	snprintf(path, sizeof(path), "%s/summary.csv", or.runs[1]);
	CHECK(file_has(path, GONE));
	CHECK_INT(orch_rows_status(&or), 1);			/* a failed row: 1 */
	resultdir_remove_tree(tmpl);
}

/* Without failed rows, a place that could not be made leaves no result at all. */
TEST(no_failed_rows_switch)
{
	static struct orchestrator or;

	or = (struct orchestrator){ .dir = "/nonexistent/out", .nr_todo = NR_POINTS,
				    .no_failed_rows = true };
	orch_add(&or, "/k/gone", &gone, NULL);
	orch_run(&or, 0);
	CHECK_INT(or.slots[0].prepared, 0);
	CHECK_INT(orch_rows_in(or.runs[0], false), -1);
	CHECK_INT(or.status, 0);
	CHECK_INT(orch_rows_status(&or), 1);			/* its points have no row */
}

RUN_TESTS(host_child_and_failed_place_merged, places_in_two_phases, no_failed_rows_switch)
