// SPDX-License-Identifier: GPL-2.0
/*
 * metricmeta.c and compare's directions: every metric of every workload of
 * the registry says which way it gets better; the meta lines a run writes
 * give compare that direction and unit back, and compare's verdict text
 * follows it (up is faster of a rate, worse of a cost, changed of
 * prog_ns).  Sets without metric lines fall back to the names, and say so.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compare_print.h"
#include "metricmeta.h"
#include "progrun.h"

/* The meta lines of wl, as results_read() holds them (key "metric"). */
static int meta_of(const struct workload *wl, struct result_set *rs, char **text)
{
	size_t len;
	FILE *f = open_memstream(text, &len);
	char *line, *save;

	if (!f)
		return -1;
	metricmeta_print(f, wl);
	fclose(f);
	*rs = (struct result_set){ .meta = calloc(WL_MAX_METRICS + 2, sizeof(*rs->meta)) };
	for (line = strtok_r(*text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "metric: ", 8))
			return -1;
		rs->meta[rs->nr_meta++] = (struct result_meta){ .key = "metric",
								.value = line + 8 };
	}
	return 0;
}

/* The verdict of a clear rise (10 → 15 ± 1 over 5 intervals each) of a metric going dir. */
static const char *rise_verdict(enum cmp_better dir)
{
	const double a[] = { 10, 11, 9, 10, 10 }, b[] = { 15, 16, 14, 15, 15 };
	struct cmp_moments ma, mb;
	struct cmp_test t;

	cmp_moments_of(a, 5, &ma);
	cmp_moments_of(b, 5, &mb);
	cmp_welch(&ma, &mb, &t);
	return cmp_verdict_text(cmp_verdict_of(&ma, &mb, &t, 0.05, dir), dir);
}

static const char *const rise_text[] = {
	[MB_HIGHER] = "faster", [MB_LOWER] = "worse", [MB_NEITHER] = "changed",
};

/* One metric of wl as compare sees it from wl's meta lines. */
static void check_metric(const struct workload *wl, struct comparison *c, const char *name,
			 enum cmp_kind kind, enum metric_better want, const char *unit)
{
	struct cmp_metric cm;

	compare_describe_metric(c, name, kind, &cm);
	if (cm.guessed || strcmp(cm.unit->name, unit) ||
	    strcmp(rise_verdict(cm.dir), rise_text[want]))
		printf("FAIL registry_directions: %s.%s: %s%s, rise is %s\n", wl->name, name,
		       cm.guessed ? "guessed, " : "", cm.unit->name, rise_verdict(cm.dir));
	check_cur.failed |= cm.guessed || strcmp(cm.unit->name, unit) ||
			    strcmp(rise_verdict(cm.dir), rise_text[want]);
}

/* Every metric of every registry workload: a direction, carried to compare's verdict. */
TEST(registry_directions)
{
	for (int w = 0; w < nr_workloads; w++) {
		const struct workload *wl = workloads[w];
		struct result_set rs;
		struct comparison c = { .base = &rs, .new = &rs };
		char *text = NULL;
		int runs, ns;

		CHECK(meta_of(wl, &rs, &text) == 0);
		for (int m = 0; m < wl->nr_metrics; m++) {
			const struct metric_def *d = &wl->metrics[m];

			if (d->better == MB_UNSET)
				printf("FAIL registry_directions: %s.%s says no direction\n",
				       wl->name, d->name);
			check_cur.failed |= d->better == MB_UNSET;
			if (d->better != MB_UNSET)
				check_metric(wl, &c, d->name, d->kind == MK_GAUGE ? CMP_LEVEL :
					     CMP_RATE, d->better, metric_default_unit(d)->name);
		}
		if (prog_metrics(wl, &runs, &ns))
			check_metric(wl, &c, METRIC_NS_PER_RUN, CMP_PER_RUN, MB_LOWER, "ns");
		free(rs.meta);
		free(text);
	}
}

/* The cost metrics the issue found compared as rates of work. */
TEST(cost_metrics)
{
	const struct workload *rb = workload_find("ringbuf"), *mp = workload_find("map_perf");
	const struct workload *tr = workload_find("trigger"), *hm = workload_find("htab_mem");

	CHECK(rb && mp && tr && hm);
	CHECK_INT(rb->metrics[wl_metric_index(rb, "drops")].better, MB_LOWER);
	CHECK_INT(mp->metrics[wl_metric_index(mp, "errors")].better, MB_LOWER);
	CHECK_INT(tr->metrics[wl_metric_index(tr, "missed")].better, MB_LOWER);
	CHECK_INT(hm->metrics[wl_metric_index(hm, "mem_peak")].better, MB_LOWER);
	CHECK_INT(rb->metrics[wl_metric_index(rb, "prog_ns")].better, MB_NEITHER);
	/* prog_ns counts nanoseconds: shown as time per second, not as millions of events */
	CHECK_STR(metric_default_unit(&rb->metrics[wl_metric_index(rb, "prog_ns")])->name,
		  "ms/s");
}

/*
 * Every family that loads BPF programs has the load's metrics and the
 * callback that fills them; each metric's unit is one of the table's (a
 * missing one would show insns as MiB), and only the times vary.
 */
TEST(load_metrics_everywhere)
{
	static const char *const det[] = { "total_insns", "total_states", "peak_states",
					   "stack_depth", "xlated_size", "jited_size" };

	for (int w = 0; w < nr_workloads; w++) {
		const struct workload *wl = workloads[w];
		int nr_load = 0;

		for (int m = 0; m < wl->nr_metrics; m++) {
			const struct metric_def *d = &wl->metrics[m];

			if (d->source != MS_LOAD)
				continue;
			nr_load++;
			CHECK(metric_unit_find(d->unit, d->kind) != NULL);
			CHECK_INT(prog_source_of_name(d->name), MS_LOAD);
			CHECK_INT(metric_better_known(d->name), MB_LOWER);
		}
		if (!wl->needs_bpf)
			continue;
		if (nr_load != NR_LOAD_FIELDS || !wl->load_stats.set)
			printf("FAIL load_metrics_everywhere: %s has %d load metrics%s\n", wl->name,
			       nr_load, wl->load_stats.set ? "" : ", no load_stats");
		check_cur.failed |= nr_load != NR_LOAD_FIELDS || !wl->load_stats.set;
		for (size_t i = 0; i < sizeof(det) / sizeof(det[0]); i++)
			CHECK(wl->metrics[wl_metric_index(wl, det[i])].deterministic);
		CHECK(!wl->metrics[wl_metric_index(wl, "verify_time")].deterministic);
		CHECK(!wl->metrics[wl_metric_index(wl, "load_time")].deterministic);
	}
}

/* A set without metric lines: the names decide, and compare knows they did. */
TEST(old_set_falls_back_to_names)
{
	struct result_set rs = { 0 };
	struct comparison c = { .base = &rs, .new = &rs };
	struct cmp_metric cm;
	struct metric_info mi;

	CHECK(!metricmeta_recorded(&rs));
	metricmeta_of(&rs, "drops", false, &mi);
	CHECK_INT(mi.better, MB_LOWER);
	CHECK(!mi.recorded);
	metricmeta_of(&rs, "whatever_rate", false, &mi);
	CHECK_INT(mi.better, MB_HIGHER);
	metricmeta_of(&rs, "whatever_level", true, &mi);
	CHECK_INT(mi.better, MB_LOWER);
	compare_describe_metric(&c, "prog_ns", CMP_RATE, &cm);
	CHECK(cm.guessed);
	CHECK_INT(cm.dir, CMP_NEITHER_BETTER);
	CHECK_STR(cm.unit->name, "ms/s");
	compare_describe_metric(&c, "mem", CMP_LEVEL, &cm);
	CHECK_STR(cm.unit->name, "MiB");
	CHECK_STR(rise_verdict(cm.dir), "worse");
	compare_describe_metric(&c, METRIC_NS_PER_RUN, CMP_PER_RUN, &cm);
	CHECK_STR(cm.unit->name, "ns");
	CHECK_STR(rise_verdict(cm.dir), "worse");
}

/* A line says what it says: an imported rate of an unknown name has no direction. */
TEST(meta_line_parsed)
{
	struct result_meta lines[] = {
		{ "metric", "hits counter M/s higher" },
		{ "metric", "mystery counter M/s unknown" },
		{ "metric", "ops counter k/s neither" },
		{ "metric", "torn counter" },
		{ "metric", "total_insns gauge insns lower deterministic" },
		{ "metric", "verify_time gauge us lower" },
	};
	struct result_set rs = { .meta = lines, .nr_meta = 6 };
	struct comparison c = { .base = &rs, .new = &rs };
	struct cmp_metric cm;
	struct metric_info mi;

	metricmeta_of(&rs, "hits", false, &mi);
	CHECK(mi.recorded);
	CHECK_STR(mi.unit, "M/s");
	compare_describe_metric(&c, "mystery", CMP_RATE, &cm);
	CHECK(!cm.guessed);
	CHECK_INT(cm.dir, CMP_BETTER_UNKNOWN);
	CHECK_STR(rise_verdict(cm.dir), "changed (direction unknown)");
	compare_describe_metric(&c, "ops", CMP_RATE, &cm);
	CHECK_STR(cm.unit->name, "k/s");
	/* a line cut short says nothing: the name decides */
	metricmeta_of(&rs, "torn", false, &mi);
	CHECK(!mi.recorded);
	/* the fifth word: identical in every repetition, compared exactly */
	metricmeta_of(&rs, "total_insns", true, &mi);
	CHECK(mi.recorded && mi.deterministic);
	CHECK_STR(mi.unit, "insns");
	CHECK_INT(mi.better, MB_LOWER);
	compare_describe_metric(&c, "total_insns", CMP_LEVEL, &cm);
	CHECK(cm.deterministic);
	CHECK_STR(cm.unit->name, "insns");
	metricmeta_of(&rs, "verify_time", true, &mi);
	CHECK(mi.recorded && !mi.deterministic);
	metricmeta_of(&rs, "hits", false, &mi);
	CHECK(!mi.deterministic);
}

/* Two sets that say different directions: none, and a note. */
TEST(directions_disagree)
{
	struct result_meta b[] = { { "metric", "score counter M/s higher" } };
	struct result_meta n[] = { { "metric", "score counter M/s lower" } };
	struct result_set rb = { .meta = b, .nr_meta = 1 }, rn = { .meta = n, .nr_meta = 1 };
	struct comparison c = { .base = &rb, .new = &rn };
	struct cmp_metric cm;

	compare_describe_metric(&c, "score", CMP_RATE, &cm);
	CHECK_INT(cm.dir, CMP_BETTER_UNKNOWN);
	CHECK_INT(c.nr_notes, 1);
	CHECK(strstr(c.notes[0], "BASE says higher") != NULL);
}

RUN_TESTS(registry_directions, cost_metrics, load_metrics_everywhere, old_set_falls_back_to_names, meta_line_parsed,
	  directions_disagree)
