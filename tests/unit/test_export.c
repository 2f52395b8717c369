// SPDX-License-Identifier: GPL-2.0
/*
 * export.c and the markdown table: hand-made results of a workload with
 * every kind of parameter and metric (a per-producer counter, a gauge, the
 * program counters), exported as JSON and parsed back with json-c, as CSV,
 * and as markdown.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "check.h"
#include "export.h"
#include "render.h"
#include "table.h"
#include "table_text.h"

enum { P_PRODUCERS, P_SIZE, P_FLAG, P_MODE, P_CPUS, NR_P };
enum { M_OPS, M_MEM, M_RUNS, M_NS, NR_M };

static const char *const modes[] = { "add", "del", NULL };

static const struct param_def params[] = {
	[P_PRODUCERS] = { .name = "producers", .type = PT_INT, .def = "1", .min = 1, .max = 64,
		     .help = "producers" },
	[P_SIZE] = { .name = "size", .type = PT_SIZE, .def = "4K", .min = 1, .max = 1 << 30,
		     .help = "a size" },
	[P_FLAG] = { .name = "flag", .type = PT_BOOL, .def = "off", .min = 0, .max = 1,
		     .help = "a switch" },
	[P_MODE] = { .name = "mode", .type = PT_ENUM, .def = "add", .min = 0, .max = 0,
		     .choices = modes, .help = "a choice" },
	[P_CPUS] = { .name = "cpus", .type = PT_INT, .def = "all", .min = 1, .max = 64,
		     .help = "CPUs", .zero_word = "all" },
};

static const struct metric_def metrics[] = {
	[M_OPS] = { .name = "ops", .kind = MK_COUNTER, .unit = "k/s", .per_thread = true },
	[M_MEM] = { .name = "mem", .kind = MK_GAUGE, .unit = "MiB", .source = MS_MEMCG_USAGE },
	[M_RUNS] = { .name = "prog_runs", .kind = MK_COUNTER, .unit = "M/s", .source = MS_PROG_RUNS },
	[M_NS] = { .name = "prog_ns", .kind = MK_COUNTER, .unit = "M/s", .source = MS_PROG_NS },
};

static const struct workload wl = {
	.name = "exportfake", .params = params, .nr_params = NR_P,
	.metrics = metrics, .nr_metrics = NR_M,
};

static long long vals[NR_P][2] = { { 2, 4 }, { 4096 }, { 1 }, { 1 }, { 0 } };
#define AXIS(p, n)	{ .param = (p), .vals = vals[p], .nr_vals = (n) }
static struct experiment exp_ = {
	.title = "Ops | mem", .label = "prod {producers}", .group = -1,
	.axes = { AXIS(P_PRODUCERS, 2), AXIS(P_SIZE, 1), AXIS(P_FLAG, 1), AXIS(P_MODE, 1),
		  AXIS(P_CPUS, 1) },
	.nr_axes = NR_P,
};
static struct sweep_cfg cfg = { .wl = &wl, .exps = &exp_, .nr_exps = 1 };
static struct point pts[2];
static struct point_result res[2];
static struct interval ivs[3];
static double rates[2] = { 1500.25, 2500.75 };

/* Point 0 ok: two measured intervals; point 1 unsupported. */
static void setup(void)
{
	for (int i = 0; i < 2; i++) {
		pts[i] = (struct point){ .id = i, .wp = { .wl = &wl,
							  .v = { vals[0][i], 4096, 1, 1, 0 } } };
	}
	for (int i = 0; i < 3; i++)
		ivs[i] = (struct interval){ .idx = i, .warmup = !i, .elapsed_ns = 100000000 };
	res[0] = (struct point_result){ .pt = &pts[0], .status = PS_OK, .iv = ivs, .nr_iv = 3,
					.nr_producers = 2, .nr_cpus = 2, .cpus = "prod 0,1",
					.tries = 1, .thread_rate = rates };
	res[0].stat[M_OPS] = (struct summary){ 4001, 12.5, 4000, 3990, 4012, 30.25, 2 };
	res[0].stat[M_MEM] = (struct summary){ 1048576, NAN, 1048576, 1048576, 1048576, NAN, 2 };
	res[0].worker_rate = (struct summary){ .mean = 2000.5, .min = 1500.25, .median = 2000.5,
					       .max = 2500.75 };
	res[0].per_run = (struct summary){ 42.5, 0.5, 42.5, 42, 43, 1.25, 2 };
	res[1] = (struct point_result){ .pt = &pts[1], .status = PS_UNSUPPORTED,
					.reason = "no such thing" };
}

/* The block of res's view (the previous block's view freed). */
static struct render_block block(void)
{
	static struct view_of vo;

	view_of_free(&vo);
	memset(&vo, 0, sizeof(vo));
	if (view_of(&cfg, res, 2, &vo))
		return (struct render_block){ 0 };
	return (struct render_block){ .view = vo.v, .rows = vo.rows, .nr_rows = 2,
				      .dir = "results/x" };
}

/* What a printer wrote into a string (caller frees); NULL on error. */
#define PRINTED(call) ({							\
	char *t_ = NULL;							\
	size_t l_ = 0;								\
	FILE *f_ = open_memstream(&t_, &l_);					\
	int e_ = f_ ? (call) : -1;						\
	if (f_)									\
		fclose(f_);							\
	if (e_) {								\
		free(t_);							\
		t_ = NULL;							\
	}									\
	t_;									\
})

static struct json_object *get(struct json_object *o, const char *path)
{
	char buf[256], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); o && tok; tok = strtok_r(NULL, ".", &save)) {
		if (json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, atoi(tok));
		else if (!json_object_object_get_ex(o, tok, &o))
			return NULL;
	}
	return o;
}

static bool is_num(struct json_object *o, const char *path, double want)
{
	struct json_object *v = get(o, path);

	/* "4001" reads back as an int: a number either way */
	return v && (json_object_is_type(v, json_type_double) ||
		     json_object_is_type(v, json_type_int)) && json_object_get_double(v) == want;
}

static bool is_int(struct json_object *o, const char *path, long long want)
{
	struct json_object *v = get(o, path);

	return v && json_object_is_type(v, json_type_int) && json_object_get_int64(v) == want;
}

static bool is_str(struct json_object *o, const char *path, const char *want)
{
	struct json_object *v = get(o, path);

	return v && json_object_is_type(v, json_type_string) &&
	       !strcmp(json_object_get_string(v), want);
}

TEST(json_parses_back_typed)
{
	struct render_block b = (setup(), block());
	char *text = PRINTED(export_json(f_, &b, 1));
	struct json_object *doc = text ? json_tokener_parse(text) : NULL;
	struct json_object *p;

	free(text);
	CHECK(doc);
	p = get(doc, "runs.0.points.0");
	CHECK(is_str(doc, "schema", "bpfsweep-summary") && is_int(doc, "version", 1));
	CHECK(is_str(doc, "runs.0.dir", "results/x") &&
	      is_str(doc, "runs.0.workload", "exportfake"));
	CHECK(p && is_int(p, "id", 0) && is_str(p, "experiment", "Ops | mem"));
	CHECK(is_str(p, "label", "prod 2") && is_str(p, "status", "ok") && is_int(p, "n", 2));
	/* numbers as numbers, switches as booleans, choices and words as text */
	CHECK(is_int(p, "parameters.producers", 2) && is_int(p, "parameters.size", 4096));
	CHECK(json_object_is_type(get(p, "parameters.flag"), json_type_boolean) &&
	      json_object_get_boolean(get(p, "parameters.flag")));
	CHECK(is_str(p, "parameters.mode", "del") && is_str(p, "parameters.cpus", "all"));
	/* base units, unrounded */
	CHECK(is_str(p, "metrics.ops.unit", "ops/s") &&
	      is_str(p, "metrics.ops.display_unit", "k/s"));
	CHECK(is_str(p, "metrics.ops.kind", "counter") && is_num(p, "metrics.ops.mean", 4001));
	CHECK(is_num(p, "metrics.ops.stddev", 12.5) && is_num(p, "metrics.ops.ci95", 30.25));
	CHECK(is_num(p, "metrics.ops.worker.max", 2500.75) &&
	      is_num(p, "metrics.ops.per_producer.1", 2500.75));
	CHECK(json_object_array_length(get(p, "metrics.ops.per_producer")) == 2);
	CHECK(is_str(p, "metrics.mem.unit", "bytes") && is_str(p, "metrics.mem.kind", "gauge"));
	CHECK(is_num(p, "metrics.mem.mean", 1048576));
	/* JSON has no NaN: an unknown figure is null */
	CHECK(json_object_object_get_ex(get(p, "metrics.mem"), "stddev", NULL) &&
	      !get(p, "metrics.mem.stddev"));
	CHECK(is_str(p, "ns_per_run.unit", "ns") && is_num(p, "ns_per_run.mean", 42.5));
	/* not ok: no figures, and no program time */
	p = get(doc, "runs.0.points.1");
	CHECK(is_str(p, "status", "unsupported") && is_str(p, "reason", "no such thing"));
	CHECK(json_object_object_length(get(p, "metrics")) == 0 && !get(p, "ns_per_run"));
	CHECK(json_object_object_get_ex(p, "ns_per_run", NULL));
	json_object_put(doc);
}

TEST(csv_rows_per_metric)
{
	struct render_block b = (setup(), block());
	char *text = PRINTED(export_csv(f_, &b, 1));
	int lines = 0;

	CHECK(text);
	for (char *s = text; *s; s++)
		lines += *s == '\n';
	/* header, ops, mem, prog_runs, prog_ns, ns_per_run, the unsupported point */
	CHECK_INT(lines, 7);
	CHECK(!strncmp(text, "run,experiment,point,label,producers,size,flag,mode,cpus,status,"
		       "reason,metric,unit,n,mean,stddev,median,min,max,ci95\n", 104));
	CHECK(strstr(text, "\n1,Ops | mem,0,prod 2,2,4096,on,del,all,ok,,ops,ops/s,2,4001,12.5,"
		      "4000,3990,4012,30.25\n"));
	CHECK(strstr(text, "\n1,Ops | mem,0,prod 2,2,4096,on,del,all,ok,,mem,bytes,2,1048576,,"
		      "1048576,1048576,1048576,\n"));
	CHECK(strstr(text, ",ok,,ns_per_run,ns,2,42.5,0.5,42.5,42,43,1.25\n"));
	CHECK(strstr(text, "\n1,Ops | mem,1,prod 4,4,4096,on,del,all,unsupported,no such thing,"
		      ",,,,,,,,\n"));
	free(text);
}

/* A column per metric; ns_per_run, in the exports above, is not one of the table's. */
TEST(markdown_table)
{
	char *text;
	const char *want =
		"### Ops | mem\n"
		"\n"
		"| point | ops | mem |\n"
		"| --- | ---: | ---: |\n"
		"| prod 2 | 4.00 ± 0.01k/s | 1.00MiB |\n"
		"| prod 4 | unsupported: no such thing | |\n";

	setup();
	text = PRINTED(table_render_results(f_, &cfg, NULL, res, 2, true));
	if (!text || strcmp(text, want))
		printf("got:\n%s\nwant:\n%s\n", text ? text : "(null)", want);
	CHECK(text && !strcmp(text, want));
	free(text);
}

TEST(markdown_escapes_labels)
{
	static struct experiment e;
	struct sweep_cfg c = { .wl = &wl, .exps = &e, .nr_exps = 1 };
	char *text;

	setup();
	e = exp_;
	e.label = "a|b {producers}";
	text = PRINTED(table_render_results(f_, &c, NULL, res, 1, true));
	CHECK(text && strstr(text, "\n| a\\|b 2 | 4.00"));
	free(text);
}

RUN_TESTS(json_parses_back_typed, csv_rows_per_metric, markdown_table, markdown_escapes_labels)
