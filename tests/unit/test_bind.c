// SPDX-License-Identifier: GPL-2.0
/*
 * bind.c, param.c and suggest.c: spec text checked against the null
 * workload's parameter table (workloads/null.c):
 *   producers int 0..1024 (1), rate int (1000000), drop_pct int 0..100 (0),
 *   value_size size 1..1M (64), mode fast|slow, flag on/off, fail none|probe|setup|sample
 * Diagnostics are captured and compared in full.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"
#include "check.h"
#include "diag.h"
#include "diag_capture.h"
#include "matrix.h"
#include "metric.h"
#include "param.h"
#include "spec.h"
#include "suggest.h"

#define MS	1000000ULL
#define SEC	1000000000ULL

/*
 * Parse text as path, apply the --set arguments (NULL-terminated, may be
 * NULL) and bind; the tree is freed before returning, so the configuration
 * must stand on its own.  NULL on any error.
 */
static struct sweep_cfg *bind_sets(const char *path, const char *text, const char *const *sets)
{
	struct sweep_cfg *cfg = NULL;
	struct spec *s;

	capture();
	if (spec_parse_string(path, text, &s))
		return NULL;
	for (; sets && *sets; sets++) {
		if (spec_set(s, *sets)) {
			spec_free(s);
			return NULL;
		}
	}
	bind_spec(s, &workloads_catalog, &cfg);
	spec_free(s);
	return cfg;
}

static struct sweep_cfg *bind_text(const char *text)
{
	return bind_sets("t/x.spec", text, NULL);
}

/* The diagnostics of a spec that must not bind ("(bound)" if it did). */
static const char *bind_errors(const char *text)
{
	struct sweep_cfg *cfg = bind_sets("b.spec", text, NULL);

	if (cfg) {
		sweep_cfg_free(cfg);
		return "(bound)";
	}
	return diags();
}

/* "producers: 1 2; rate: 1000000; ..." — every axis of x, in order. */
static const char *axes_text(const struct sweep_cfg *cfg, const struct experiment *x)
{
	static char buf[4096];
	size_t off = 0;

	buf[0] = '\0';
	for (int a = 0; a < x->nr_axes; a++) {
		const struct axis *ax = &x->axes[a];

		off += snprintf(buf + off, sizeof(buf) - off, "%s%s:", a ? "; " : "",
				cfg->wl->params[ax->param].name);
		for (int v = 0; v < ax->nr_vals && off < sizeof(buf); v++)
			off += snprintf(buf + off, sizeof(buf) - off, " %lld", ax->vals[v]);
	}
	return buf;
}

/* "x/y/by x/y/by" of the plots of x. */
static const char *plots_text(const struct experiment *x)
{
	static char buf[256];
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < x->nr_plots; i++)
		off += snprintf(buf + off, sizeof(buf) - off, "%s%d/%d/%d", i ? " " : "",
				x->plots[i].x, x->plots[i].y, x->plots[i].by);
	return buf;
}

/* Everything a configuration holds, as text, to compare two of them. */
static char *cfg_dump(const struct sweep_cfg *cfg)
{
	char *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	fprintf(f, "%s|%s|%s|%s|%llu|%llu|%llu|%d|%d\n", cfg->spec_path, cfg->name, cfg->title,
		cfg->wl->name, (unsigned long long)cfg->warmup_ns,
		(unsigned long long)cfg->duration_ns, (unsigned long long)cfg->interval_ns,
		cfg->repeat, cfg->affinity);
	for (int i = 0; i < cfg->nr_exps; i++) {
		const struct experiment *x = &cfg->exps[i];

		fprintf(f, "%s|%s|%d|%s\n  %s\n", x->title, x->label ? x->label : "-", x->group,
			plots_text(x), axes_text(cfg, x));
	}
	fclose(f);
	return out;
}

TEST(defaults)
{
	struct sweep_cfg *cfg = bind_sets("specs/sub/my-run.spec", "[sweep]\nworkload = null\n",
					  NULL);
	const struct experiment *x;

	CHECK_STR(diags(), "");
	CHECK(cfg != NULL);
	CHECK_STR(cfg->spec_path, "specs/sub/my-run.spec");
	CHECK_STR(cfg->name, "my-run");
	CHECK_STR(cfg->title, "my-run");
	CHECK_STR(cfg->wl->name, "null");
	CHECK_INT(cfg->warmup_ns, 1 * SEC);
	CHECK_INT(cfg->duration_ns, 5 * SEC);
	CHECK_INT(cfg->interval_ns, 1 * SEC);
	CHECK_INT(cfg->repeat, 1);
	CHECK_INT(cfg->affinity, 0);
	/* no [params]: one experiment, every parameter at its default */
	CHECK_INT(cfg->nr_exps, 1);
	x = &cfg->exps[0];
	CHECK_STR(x->title, "my-run");
	CHECK_STR(x->loc.file, "specs/sub/my-run.spec");
	CHECK_INT(x->loc.line, 1);
	CHECK(x->label == NULL);
	CHECK_INT(x->group, -1);
	CHECK_INT(x->nr_plots, 0);
	CHECK_STR(axes_text(cfg, x), "producers: 1; rate: 1000000; drop_pct: 0; value_size: 64; "
		  "mode: 0; flag: 0; fail: 0; zero_every: 0; jitter_pct: 0");
	sweep_cfg_free(cfg);
}

TEST(spec_name)
{
	static const char *const cases[][2] = {
		{ "plain", "plain" },
		{ "a/b/c.spec", "c" },
		{ "dir.spec/x.spec.spec", "x.spec" },
		{ "/abs/.spec", ".spec" },
		{ "noext.txt", "noext.txt" },
		/* results/<name>/ must not lead out of results/ */
		{ "d/...spec", "spec" },
		{ "d/..spec", "spec" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sweep_cfg *cfg = bind_sets(cases[i][0], "[sweep]\nworkload=null\n", NULL);

		CHECK(cfg != NULL);
		CHECK_STR(cfg->name, cases[i][1]);
		CHECK_STR(cfg->spec_path, cases[i][0]);
		sweep_cfg_free(cfg);
	}
}

TEST(sweep_keys)
{
	const char *text =
		"[sweep]\n"
		"title    = Null, tuned   # comment\n"
		"workload = null\n"
		"warmup   = 1.5s\n"
		"duration = 250ms\n"
		"interval = 10ms\n"
		"repeat   = 3\n"
		"affinity = on\n";
	struct sweep_cfg *cfg = bind_text(text);

	CHECK_STR(diags(), "");
	CHECK(cfg != NULL);
	CHECK_STR(cfg->title, "Null, tuned");
	CHECK_STR(cfg->exps[0].title, "Null, tuned");
	CHECK_INT(cfg->warmup_ns, 1500 * MS);
	CHECK_INT(cfg->duration_ns, 250 * MS);
	CHECK_INT(cfg->interval_ns, 10 * MS);
	CHECK_INT(cfg->repeat, 3);
	CHECK_INT(cfg->affinity, 1);
	sweep_cfg_free(cfg);
}

TEST(durations)
{
	static const struct {
		const char *text;
		unsigned long long ns;
	} cases[] = {
		{ "0s", 0 }, { "10ms", 10000000 }, { "10000us", 10000000 },
		{ "10000000ns", 10000000 }, { "0.25s", 250000000 }, { "3s", 3000000000ULL },
		{ "1.0000000019s", 1000000001 }, { "600s", 600000000000ULL },
		/* zero needs no unit: max_time = 0 is "no limit" as documented */
		{ "0", 0 },
	};
	/* not zero, yet under a nanosecond: refused, where it read as max_time's "no limit" */
	CHECK(bind_text("[sweep]\nworkload = null\nmax_time = 0.5ns\n") == NULL);
	CHECK(strstr(diags(), "duration '0.5ns' is under 1ns"));
	/* parsed, then refused: the sampler takes no interval under 10ms */
	static const char *const too_short[] = { "20ns", "100us", "2.5ms", "9999999ns" };
	char text[128], want[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sweep_cfg *cfg;

		snprintf(text, sizeof(text), "[sweep]\nworkload = null\nwarmup = %s\n",
			 cases[i].text);
		cfg = bind_text(text);
		CHECK_STR(diags(), "");
		CHECK(cfg != NULL);
		CHECK_INT(cfg->warmup_ns, cases[i].ns);
		sweep_cfg_free(cfg);
	}
	for (size_t i = 0; i < sizeof(too_short) / sizeof(too_short[0]); i++) {
		snprintf(text, sizeof(text), "[sweep]\nworkload = null\nduration = %s\n",
			 too_short[i]);
		CHECK(bind_text(text) == NULL);
		snprintf(want, sizeof(want), "t/x.spec:3:12: error: duration %s is below 10ms, "
			 "the shortest interval the sampler takes\n", too_short[i]);
		CHECK_STR(diags(), want);
	}
}

TEST(value_forms)
{
	const char *text =
		"[sweep]\n"
		"workload = null\n"
		"[params]\n"
		"producers  = 1 2,3 ,\t8..21:4   # lists, commas, a step\n"
		"rate       = 1..1000*2\n"
		"drop_pct   = 5..7\n"
		"value_size = 4K..64K*2, 1M 512k 3 1K..3k:1K\n"
		"mode       = slow fast\n"
		"flag       = on off\n";
	struct sweep_cfg *cfg = bind_text(text);

	CHECK_STR(diags(), "");
	CHECK(cfg != NULL);
	CHECK_INT(cfg->nr_exps, 1);
	CHECK_STR(axes_text(cfg, &cfg->exps[0]),
		  "producers: 1 2 3 8 12 16 20; "
		  "rate: 1 2 4 8 16 32 64 128 256 512; "
		  "drop_pct: 5 6 7; "
		  "value_size: 4096 8192 16384 32768 65536 1048576 524288 3 1024 2048 3072; "
		  "mode: 1 0; flag: 1 0; fail: 0; zero_every: 0; jitter_pct: 0");
	sweep_cfg_free(cfg);
}

TEST(bool_spellings)
{
	const char *text =
		"[sweep]\n"
		"workload = null\n"
		"[params]\nflag = yes no\n"
		"[params]\nflag = true, false\n"
		"[params]\nflag = 1 0\n"
		"[params]\nflag = On OFF\n";
	struct sweep_cfg *cfg = bind_text(text);

	CHECK_STR(diags(), "");
	CHECK(cfg != NULL);
	CHECK_INT(cfg->nr_exps, 4);
	for (int i = 0; i < 4; i++)
		CHECK_STR(axes_text(cfg, &cfg->exps[i]),
			  "flag: 1 0; producers: 1; rate: 1000000; drop_pct: 0; value_size: 64; "
			  "mode: 0; fail: 0; zero_every: 0; jitter_pct: 0");
	sweep_cfg_free(cfg);
}

TEST(axis_order)
{
	const char *text =
		"[sweep]\n"
		"workload = null\n"
		"[params]\n"
		"mode      = fast slow\n"
		"fail      = probe\n"
		"producers = 4\n";
	struct sweep_cfg *cfg = bind_text(text);

	CHECK(cfg != NULL);
	/* written order first, then the rest in table order, each once */
	CHECK_STR(axes_text(cfg, &cfg->exps[0]),
		  "mode: 0 1; fail: 1; producers: 4; rate: 1000000; drop_pct: 0; "
		  "value_size: 64; flag: 0; zero_every: 0; jitter_pct: 0");
	CHECK_INT(cfg->exps[0].nr_axes, cfg->wl->nr_params);
	sweep_cfg_free(cfg);
}

TEST(experiments_and_overrides)
{
	const char *text =
		"[sweep]\n"				/* 1 */
		"workload = null\n"
		"title = Sweep title\n"
		"[report]\n"
		"label = p {producers}\n"		/* 5 */
		"group = flag\n"
		"plot  = producers vs hits by flag\n"
		"plot  = rate vs drops\n"
		"[params \"A\"]\n"			/* 9 */
		"producers = 1 2\n"
		"[params]\n"				/* 11 */
		"label = q {mode}\n"
		"group = mode\n"
		"plot  = producers vs drops\n"
		"rate  = 5\n"
		"plot  = drop_pct vs hits by mode\n"
		"[params \"C\"]\n"			/* 17 */
		"group = producers\n"
		"label =\n";
	struct sweep_cfg *cfg = bind_text(text);
	const struct experiment *x;

	CHECK_STR(diags(), "");
	CHECK(cfg != NULL);
	CHECK_INT(cfg->nr_exps, 3);

	x = &cfg->exps[0];
	CHECK_STR(x->title, "A");
	CHECK_STR(x->loc.file, "t/x.spec");
	CHECK_INT(x->loc.line, 9);
	CHECK_STR(x->label, "p {producers}");
	CHECK_INT(x->group, 5);
	CHECK_STR(plots_text(x), "0/0/5 1/1/-1");
	CHECK_STR(axes_text(cfg, x), "producers: 1 2; rate: 1000000; drop_pct: 0; "
		  "value_size: 64; mode: 0; flag: 0; fail: 0; zero_every: 0; jitter_pct: 0");

	/* overrides for this experiment only; its plots replace [report]'s */
	x = &cfg->exps[1];
	CHECK_STR(x->title, "Sweep title");
	CHECK_INT(x->loc.line, 11);
	CHECK_STR(x->label, "q {mode}");
	CHECK_INT(x->group, 4);
	CHECK_STR(plots_text(x), "0/1/-1 2/0/4");
	CHECK_STR(axes_text(cfg, x), "rate: 5; producers: 1; drop_pct: 0; "
		  "value_size: 64; mode: 0; flag: 0; fail: 0; zero_every: 0; jitter_pct: 0");

	x = &cfg->exps[2];
	CHECK_STR(x->title, "C");
	CHECK(x->label == NULL);
	CHECK_INT(x->group, 0);
	CHECK_STR(plots_text(x), "0/0/5 1/1/-1");
	sweep_cfg_free(cfg);
}

TEST(set_routing)
{
	const char *text =
		"[sweep]\n"
		"workload = null\n"
		"repeat = 2\n"
		"[report]\n"
		"plot = producers vs hits\n"
		"plot = rate vs hits\n"
		"[params \"A\"]\n"
		"mode = fast slow\n"
		"producers = 1 2\n"
		"[params \"B\"]\n"
		"plot = drop_pct vs hits\n"
		"flag = on\n";
	const char *const sets[] = {
		"repeat=4", "producers = 8, 16", "plot=rate vs drops by mode", "label={rate}", NULL
	};
	struct sweep_cfg *cfg = bind_sets("t/x.spec", text, sets);

	CHECK_STR(diags(), "");
	CHECK(cfg != NULL);
	CHECK_INT(cfg->repeat, 4);
	CHECK_INT(cfg->nr_exps, 2);
	/* replaced in place in A, appended to B; the command line plot wins everywhere */
	CHECK_STR(axes_text(cfg, &cfg->exps[0]), "mode: 0 1; producers: 8 16; rate: 1000000; "
		  "drop_pct: 0; value_size: 64; flag: 0; fail: 0; zero_every: 0; jitter_pct: 0");
	CHECK_STR(axes_text(cfg, &cfg->exps[1]), "flag: 1; producers: 8 16; rate: 1000000; "
		  "drop_pct: 0; value_size: 64; mode: 0; fail: 0; zero_every: 0; jitter_pct: 0");
	CHECK_STR(plots_text(&cfg->exps[0]), "1/1/4");
	CHECK_STR(plots_text(&cfg->exps[1]), "1/1/4");
	CHECK_STR(cfg->exps[1].label, "{rate}");
	sweep_cfg_free(cfg);
}

TEST(set_creates_experiment)
{
	const char *const sets[] = { "workload=null", "producers=3", NULL };
	struct sweep_cfg *cfg = bind_sets("t/x.spec", "", sets);

	CHECK_STR(diags(), "");
	CHECK(cfg != NULL);
	CHECK_INT(cfg->nr_exps, 1);
	CHECK_STR(cfg->exps[0].title, "x");
	CHECK_STR(cfg->exps[0].loc.file, "--set");
	CHECK_INT(cfg->exps[0].loc.set, 2);
	CHECK_STR(axes_text(cfg, &cfg->exps[0]), "producers: 3; rate: 1000000; drop_pct: 0; "
		  "value_size: 64; mode: 0; flag: 0; fail: 0; zero_every: 0; jitter_pct: 0");
	sweep_cfg_free(cfg);
}

TEST(set_error_column)
{
	const char *text =
		"[sweep]\nworkload = null\n[params]\nmode = slow\n[params]\nflag = on\n";
	const char *const bad_value[] = { "producers=2000", NULL };
	const char *const bad_key[] = { "  prodcers=2", NULL };
	const char *const bad_link[] = { "rate=5", "mode={producers}", NULL };

	/* the value lands in both experiments, and is reported once */
	CHECK(bind_sets("t/x.spec", text, bad_value) == NULL);
	CHECK_STR(diags(), "--set #1:1:11: error: value 2000 out of range for "
		  "'producers' (0..1024)\n");
	CHECK(bind_sets("t/x.spec", text, bad_key) == NULL);
	CHECK_STR(diags(), "--set #1:1:3: error: unknown parameter 'prodcers' for workload "
		  "'null' (did you mean 'producers'?)\n");
	/* a bad link was checked, and reported, once per experiment (after the pin's warning) */
	CHECK(bind_sets("t/x.spec", text, bad_link) == NULL);
	CHECK_STR(diags(), "bpfsweep: warning: --set #2 mode={producers} overrides experiment "
		  "'[params]', which pins mode = slow (t/x.spec:4): --set changes every "
		  "experiment, --only TITLE runs one\n"
		  "--set #2:1:6: error: 'mode' cannot take the values of 'producers': "
		  "different types\n");
}

/*
 * A pin is one value of an experiment's own: --set over it warns (and
 * wins); a value all experiments share, a swept one, the same value again,
 * a spec of one experiment or a value an earlier --set gave do not.
 */
TEST(set_over_pinned)
{
	const char *text = "[sweep]\nworkload = null\n"
			   "[params \"both\"]\nmode = fast slow\nrate = 5\nflag = on\n"
			   "[params \"fast\"]\nmode = fast\nrate = 5\n";
	const char *const over[] = { "mode=slow", NULL };
	const char *const quiet[] = { "mode=fast", "rate=7", "flag=on", "producers=2", NULL };
	const char *const twice[] = { "mode=slow", "mode=fast", NULL };
	const char *const flag[] = { "flag=off", NULL };
	struct sweep_cfg *cfg;

	cfg = bind_sets("t/x.spec", text, over);
	CHECK_STR(diags(), "bpfsweep: warning: --set #1 mode=slow overrides experiment 'fast', "
		  "which pins mode = fast (t/x.spec:8): --set changes every experiment, "
		  "--only TITLE runs one\n");
	/* --set still wins */
	CHECK(cfg && cfg->exps[1].axes[0].nr_vals == 1 && cfg->exps[1].axes[0].vals[0] == 1);
	sweep_cfg_free(cfg);
	cfg = bind_sets("t/x.spec", text, quiet);
	CHECK_STR(diags(), "");
	sweep_cfg_free(cfg);
	/* the second --set finds the first's value, no experiment's */
	cfg = bind_sets("t/x.spec", text, twice);
	CHECK_STR(diags(), "bpfsweep: warning: --set #1 mode=slow overrides experiment 'fast', "
		  "which pins mode = fast (t/x.spec:8): --set changes every experiment, "
		  "--only TITLE runs one\n");
	sweep_cfg_free(cfg);
	/* "both" sets flag = on, "fast" leaves it at its default: a pin */
	cfg = bind_sets("t/x.spec", text, flag);
	CHECK(strstr(diags(), "overrides experiment 'both', which pins flag = on (t/x.spec:6)"));
	sweep_cfg_free(cfg);
	cfg = bind_sets("t/x.spec", "[sweep]\nworkload = null\n[params]\nmode = slow\n", over);
	CHECK_STR(diags(), "");
	sweep_cfg_free(cfg);
}

TEST(write_round_trip)
{
	const char *text =
		"# comment\n"
		"[sweep]\n"
		"title = Round, trip\n"
		"workload = null\n"
		"warmup = 0.5s\n"
		"affinity = yes\n"
		"[report]\n"
		"label = n {producers} # inline\n"
		"plot = producers vs hits by mode\n"
		"[params \"Quoted \\\"one\\\"\"]\n"
		"value_size = 4K..64K*2, 1M\n"
		"mode = fast slow\n"
		"plot = rate vs drops\n"
		"plot = producers vs hits\n"
		"[params]\n"
		"producers = 1..9:4 ; not a comment\n";
	const char *const sets[] = { "repeat=2", "drop_pct=1 2", NULL };
	struct sweep_cfg *a, *b;
	char *written, *da, *db;
	struct spec *s;
	size_t len;
	FILE *f;

	/* a bad value must not bind, to prove the parse below uses the text */
	CHECK(bind_sets("t/x.spec", text, NULL) == NULL);
	CHECK_STR(diags(), "t/x.spec:16:20: error: invalid integer ';'\n"
		  "t/x.spec:16:22: error: invalid integer 'not'\n"
		  "t/x.spec:16:26: error: invalid integer 'a'\n"
		  "t/x.spec:16:28: error: invalid integer 'comment'\n");
	text = strndup(text, strstr(text, " ; not") - text);
	CHECK(text != NULL);
	capture();
	CHECK_INT(spec_parse_string("t/x.spec", text, &s), 0);
	free((char *)text);
	for (int i = 0; sets[i]; i++)
		CHECK_INT(spec_set(s, sets[i]), 0);
	CHECK_INT(bind_spec(s, &workloads_catalog, &a), 0);
	f = open_memstream(&written, &len);
	CHECK_INT(spec_write(s, f), 0);
	fclose(f);
	spec_free(s);

	b = bind_sets("t/x.spec", written, NULL);
	CHECK_STR(diags(), "");
	CHECK(b != NULL);
	da = cfg_dump(a);
	db = cfg_dump(b);
	CHECK_STR(db, da);
	CHECK_STR(da, "t/x.spec|x|Round, trip|null|500000000|5000000000|1000000000|2|1\n"
		  "Quoted \"one\"|n {producers}|-1|1/1/-1 0/0/-1\n"
		  "  value_size: 4096 8192 16384 32768 65536 1048576; mode: 0 1; drop_pct: 1 2; "
		  "producers: 1; rate: 1000000; flag: 0; fail: 0; zero_every: 0; jitter_pct: 0\n"
		  "Round, trip|n {producers}|-1|0/0/4\n"
		  "  producers: 1 5 9; drop_pct: 1 2; rate: 1000000; value_size: 64; mode: 0; "
		  "flag: 0; fail: 0; zero_every: 0; jitter_pct: 0\n");
	free(da);
	free(db);
	free(written);
	sweep_cfg_free(a);
	sweep_cfg_free(b);
}

TEST(bad_sections)
{
	CHECK_STR(bind_errors("[sweeep]\n"
			      "[sweep]\n"
			      "workload = null\n"
			      "[report]\n"
			      "[report]\n"
			      "[sweep]\n"
			      "[params \"x\"]\n"
			      "  [reprot]\n"
			      "[zzz]\n"
			      "[report \"r\"]\n"),
		  "b.spec:1:1: error: unknown section '[sweeep]' (did you mean '[sweep]'?)\n"
		  "b.spec:5:1: error: duplicate section '[report]' (first at line 4)\n"
		  "b.spec:6:1: error: duplicate section '[sweep]' (first at line 2)\n"
		  "b.spec:8:3: error: unknown section '[reprot]' (did you mean '[report]'?)\n"
		  "b.spec:9:1: error: unknown section '[zzz]' (expected [sweep], [report] or "
		  "[params])\n"
		  "b.spec:10:1: error: duplicate section '[report]' (first at line 4)\n");
	CHECK_STR(bind_errors("\n[params]\nproducers = 1\n"),
		  "b.spec:1:1: error: missing [sweep] section: start the spec with '[sweep]' and "
		  "'workload = NAME' (NAME: null, count, ringbuf, map_perf, htab_mem, csum_diff, "
		  "trigger or exec)\n");
	CHECK_STR(bind_errors("[sweep \"s\"]\nworkload = null\n"),
		  "b.spec:1:1: error: section '[sweep]' takes no argument\n");
	CHECK_STR(bind_errors("# nothing\n[sweep]\nrepeat = 2\n"),
		  "b.spec:2:1: error: missing key 'workload' in [sweep]: add 'workload = NAME' "
		  "(NAME: null, count, ringbuf, map_perf, htab_mem, csum_diff, trigger or exec)\n");
}

TEST(bad_sweep_keys)
{
	CHECK_STR(bind_errors("[sweep]\n"
			      "workload = nulll\n"
			      "warmpu   = 1s\n"
			      "warmup = 10\n"
			      "duration = 0s\n"
			      "interval = 5ms\n"
			      "repeat = 0\n"
			      "affinity = maybe\n"
			      "title =\n"
			      "[params]\n"
			      "bogus = 1\n"),
		  "b.spec:2:12: error: unknown workload 'nulll' (did you mean 'null'?)\n"
		  "b.spec:3:1: error: unknown key 'warmpu' in [sweep] (did you mean 'warmup'?)\n"
		  "b.spec:4:10: error: missing unit in duration '10' (use s or ms)\n"
		  "b.spec:5:12: error: duration must be positive\n"
		  "b.spec:6:12: error: interval 5ms is below the minimum of 10ms\n"
		  "b.spec:7:10: error: value 0 out of range for 'repeat' (1..1000000)\n"
		  "b.spec:8:12: error: expected on or off, not 'maybe'\n");
	CHECK_STR(bind_errors("[sweep]\n"
			      "workload = null\n"
			      "warmup = 1m\n"
			      "duration = .5s\n"
			      "interval = 1.s\n"
			      "repeat = x\n"
			      "zzzzzz = 1\n"),
		  "b.spec:3:10: error: unknown unit 'm' in duration '1m' (use ns, us, ms or s)\n"
		  "b.spec:4:12: error: invalid duration '.5s'\n"
		  "b.spec:5:12: error: invalid duration '1.s'\n"
		  "b.spec:6:10: error: invalid integer 'x'\n"
		  "b.spec:7:1: error: unknown key 'zzzzzz' in [sweep] (expected title, workload, "
		  "warmup, duration, interval, repeat, affinity, max_cv, retry_noisy, bpf_stats, "
		  "profile, profile_hz, kernel, vm_accel, vm_cpus, vm_mem, vm_boot_timeout, "
		  "vm_ssh_port, precision, max_repeat, max_time or decide)\n");
}

/* precision: a percentage or off; its budget's keys as [sweep]'s other numbers. */
TEST(precision_keys)
{
	CHECK_STR(bind_errors("[sweep]\n"
			      "workload = null\n"
			      "precision = 2 %\n"
			      "max_repeat = 0\n"
			      "max_time = 30\n"),
		  "b.spec:3:13: error: invalid precision '2 %': a percentage of the mean such as "
		  "'2%', or 'off'\n"
		  "b.spec:4:14: error: value 0 out of range for 'max_repeat' (1..1000000)\n"
		  "b.spec:5:12: error: missing unit in duration '30' (use s or ms)\n");
	CHECK_STR(bind_errors("[sweep]\nworkload = null\nprecision = 101%\n"),
		  "b.spec:3:13: error: invalid precision '101%': a percentage of the mean such as "
		  "'2%', or 'off'\n");
}

/* profile and profile_hz of [sweep] (docs/profile.md): off and 99 unless set, 1..10000. */
TEST(profile_keys)
{
	struct sweep_cfg *cfg = bind_text("[sweep]\nworkload = null\n");

	CHECK(cfg);
	CHECK(!cfg->profile);
	CHECK_INT(cfg->profile_hz, 99);
	sweep_cfg_free(cfg);
	cfg = bind_text("[sweep]\nworkload = null\nprofile = on\nprofile_hz = 999\n");
	CHECK(cfg);
	CHECK(cfg->profile);
	CHECK_INT(cfg->profile_hz, 999);
	sweep_cfg_free(cfg);
	CHECK_STR(bind_errors("[sweep]\nworkload = null\nprofile = yes please\n"
			      "profile_hz = 0\n"),
		  "b.spec:3:11: error: expected on or off, not 'yes please'\n"
		  "b.spec:4:14: error: value 0 out of range for 'profile_hz' (1..10000)\n");
}

TEST(bad_values)
{
	CHECK_STR(bind_errors("[sweep]\n"
			      "workload = null\n"
			      "[params]\n"
			      "producers = 1 2000, 4 x1 4\n"
			      "value_size = 12Q 2M 1k 1024\n"
			      "mode = fsat slow bogus\n"
			      "flag = maybe on yes\n"
			      "prodcers = 1\n"
			      "lable = x\n"
			      "drop_pct =\n"
			      "fail = none..probe\n"
			      "rate = 1,,2 1\n"),
		  "b.spec:4:15: error: value 2000 out of range for 'producers' (0..1024)\n"
		  "b.spec:4:23: error: invalid integer 'x1'\n"
		  "b.spec:4:26: error: duplicate value '4' for 'producers'\n"
		  "b.spec:5:14: error: invalid size '12Q' (expected a size like 512K, 4M, 1G or "
		  "4096)\n"
		  "b.spec:5:18: error: value 2M out of range for 'value_size' (1..1M)\n"
		  "b.spec:5:24: error: duplicate value '1024' for 'value_size'\n"
		  "b.spec:6:8: error: unknown value 'fsat' for 'mode' (did you mean 'fast'?)\n"
		  "b.spec:6:18: error: unknown value 'bogus' for 'mode' "
		  "(expected fast|slow|pairs)\n"
		  "b.spec:7:8: error: expected on or off, not 'maybe'\n"
		  "b.spec:7:17: error: duplicate value 'on' for 'flag'\n"
		  "b.spec:8:1: error: unknown parameter 'prodcers' for workload 'null' "
		  "(did you mean 'producers'?)\n"
		  "b.spec:9:1: error: unknown parameter 'lable' for workload 'null' "
		  "(did you mean 'label'?)\n"
		  "b.spec:10:11: error: missing value for 'drop_pct'\n"
		  "b.spec:11:8: error: ranges need a numeric parameter\n"
		  "b.spec:12:13: error: duplicate value '1' for 'rate'\n");
}

#define RANGE_FORMS "expected a..b, a..b:s or a..b*f, as in 1..52, 8..52:4 or 1..64*2"

TEST(bad_ranges)
{
	CHECK_STR(bind_errors("[sweep]\n"
			      "workload = null\n"
			      "[params]\n"
			      "producers = 10..1 1..10:0 1..10*1 0..8*2 1..2000 1.. ..3 1..5: "
			      "2..9:x 1..5*y\n"
			      "rate = 0..100000\n"
			      "drop_pct = 1..4 3 2..3\n"
			      "flag = 0..1\n"),
		  "b.spec:4:13: error: invalid range '10..1': start above end\n"
		  "b.spec:4:25: error: invalid range '1..10:0': step must be positive\n"
		  "b.spec:4:33: error: invalid range '1..10*1': factor must be at least 2\n"
		  "b.spec:4:35: error: invalid range '0..8*2': a range with a factor must start "
		  "above 0\n"
		  "b.spec:4:45: error: value 2000 out of range for 'producers' (0..1024)\n"
		  "b.spec:4:50: error: invalid range '1..': " RANGE_FORMS "\n"
		  "b.spec:4:54: error: invalid range '..3': " RANGE_FORMS "\n"
		  "b.spec:4:58: error: invalid range '1..5:': " RANGE_FORMS "\n"
		  "b.spec:4:69: error: invalid integer 'x'\n"
		  "b.spec:4:76: error: invalid integer 'y'\n"
		  "b.spec:5:8: error: too many values for 'rate': more than 100000, the most one "
		  "parameter may have\n"
		  "b.spec:6:17: error: duplicate value '3' for 'drop_pct'\n"
		  "b.spec:6:19: error: duplicate value '2' for 'drop_pct'\n"
		  "b.spec:7:8: error: ranges need a numeric parameter\n");
}

TEST(range_limit)
{
	struct sweep_cfg *cfg = bind_text("[sweep]\nworkload = null\n[params]\n"
					  "rate = 0..99999\nvalue_size = 1M..1M:1K\n");

	CHECK_STR(diags(), "");
	CHECK(cfg != NULL);
	CHECK_INT(cfg->exps[0].axes[0].nr_vals, 100000);
	CHECK_INT(cfg->exps[0].axes[0].vals[99999], 99999);
	CHECK_INT(cfg->exps[0].axes[1].nr_vals, 1);
	CHECK_INT(cfg->exps[0].axes[1].vals[0], 1 << 20);
	sweep_cfg_free(cfg);
}

/* The cap holds for the whole list, not one item, and is checked before expanding. */
TEST(axis_value_cap)
{
	CHECK_STR(bind_errors("[sweep]\nworkload = null\n[params]\n"
			      "rate = 1..99999 0 200000 300000\n"
			      "producers = 1 2\n"),
		  "b.spec:4:19: error: too many values for 'rate': more than 100000, the most one "
		  "parameter may have\n");
	/* 10^12 values: refused at once, nothing allocated (a timeout otherwise) */
	CHECK_STR(bind_errors("[sweep]\nworkload = null\n[params]\n"
			      "rate = 5 0..1000000000000\n"),
		  "b.spec:4:10: error: too many values for 'rate': more than 100000, the most one "
		  "parameter may have\n");
	/* the spec that took 21 s and 3.5 GB: 600 ranges of 100000 values each */
	{
		static char text[16384];
		size_t off = snprintf(text, sizeof(text), "[sweep]\nworkload = null\n"
				      "[params]\nrate =");

		for (int i = 0; i < 600; i++)
			off += snprintf(text + off, sizeof(text) - off, " %d..%d", i * 100000,
					i * 100000 + 99999);
		CHECK_STR(bind_errors(text), "b.spec:4:17: error: too many values for 'rate': "
			  "more than 100000, the most one parameter may have\n");
	}
}

/* The points of every experiment count, each axis at most 100000, without overflow. */
TEST(point_cap)
{
	struct sweep_cfg *cfg;

	CHECK_STR(bind_errors("[sweep]\nworkload = null\n[params]\n"
			      "rate = 1..100000\nvalue_size = 1..100000\n"
			      "producers = 0..1000\ndrop_pct = 0..100\n"),
		  "b.spec:5:14: error: 'value_size' takes the sweep past 1000000 points, the most "
		  "it may have\n");
	/* two experiments within the cap each, not together; later ones are not bound */
	CHECK_STR(bind_errors("[sweep]\nworkload = null\n"
			      "[params \"a\"]\nrate = 1..1000\nproducers = 1..600\n"
			      "[params \"b\"]\nproducers = 1..500\nrate = 1..1000\n"
			      "[params \"c\"]\nproducers = 1..500\nrate = 1..1000\nflag = maybe\n"),
		  "b.spec:8:8: error: 'rate' takes the sweep past 1000000 points, the most it may "
		  "have\n");
	/* at the cap exactly, one more point is the experiment's */
	CHECK_STR(bind_errors("[sweep]\nworkload = null\n"
			      "[params]\nrate = 1..1000\nproducers = 1..1000\n"
			      "[params \"one\"]\nflag = on\n"),
		  "b.spec:6:1: error: experiment 'one' takes the sweep past 1000000 points, the "
		  "most it may have\n");
	cfg = bind_text("[sweep]\nworkload = null\n[params]\nrate = 1..1000\n"
			"producers = 1..1000\nflag = on\n");
	CHECK_STR(diags(), "");
	CHECK(cfg != NULL);
	CHECK_INT(matrix_count(cfg), 1000000);
	sweep_cfg_free(cfg);
}

TEST(bad_report)
{
	CHECK_STR(bind_errors("[sweep]\n"
			      "workload = null\n"
			      "[report]\n"
			      "label = x {prodcers} {mode} {\n"
			      "group = mdoe\n"
			      "plot = producers vs hit by flg\n"
			      "plot = producers hits\n"
			      "plot = producers vs hits by\n"
			      "colour = red\n"
			      "lable = x\n"
			      "[params]\n"
			      "group =\n"
			      "plot = rate vs hitz\n"),
		  "b.spec:4:12: error: unknown parameter 'prodcers' for workload 'null' "
		  "(did you mean 'producers'?)\n"
		  "b.spec:4:29: error: unterminated '{' in label\n"
		  "b.spec:5:9: error: unknown parameter 'mdoe' for workload 'null' "
		  "(did you mean 'mode'?)\n"
		  "b.spec:6:21: error: unknown metric 'hit' for workload 'null' "
		  "(did you mean 'hits'?)\n"
		  "b.spec:6:28: error: unknown parameter 'flg' for workload 'null' "
		  "(did you mean 'flag'?)\n"
		  "b.spec:7:8: error: expected 'X vs Y' or 'X vs Y by Z'\n"
		  "b.spec:8:8: error: expected 'X vs Y' or 'X vs Y by Z'\n"
		  "b.spec:9:1: error: unknown key 'colour' in [report] (expected label, group, "
		  "plot, logx, values, worker_rows or baseline)\n"
		  "b.spec:10:1: error: unknown key 'lable' in [report] (did you mean 'label'?)\n"
		  "b.spec:12:8: error: missing value for 'group'\n"
		  "b.spec:13:16: error: unknown metric 'hitz' for workload 'null' "
		  "(did you mean 'hits'?)\n");
}

/* logx: auto by default, on/off from [report], a [params] override or --set. */
TEST(logx)
{
	const char *text = "[sweep]\nworkload = null\n[report]\nlogx = on\n"
			   "[params \"A\"]\nproducers = 1 2\n[params \"B\"]\nlogx = off\n";
	const char *const set_auto[] = { "logx=auto", NULL };
	struct sweep_cfg *cfg = bind_text("[sweep]\nworkload = null\n");

	CHECK(cfg != NULL);
	CHECK_INT(cfg ? (int)cfg->exps[0].logx : -1, LOGX_AUTO);
	sweep_cfg_free(cfg);
	cfg = bind_text(text);
	CHECK_STR(diags(), "");
	CHECK(cfg != NULL);
	CHECK_INT(cfg ? (int)cfg->exps[0].logx : -1, LOGX_ON);
	CHECK_INT(cfg ? (int)cfg->exps[1].logx : -1, LOGX_OFF);
	sweep_cfg_free(cfg);
	cfg = bind_sets("t/x.spec", text, set_auto);
	CHECK(cfg != NULL);
	CHECK_INT(cfg ? (int)cfg->exps[0].logx : -1, LOGX_AUTO);
	CHECK_INT(cfg ? (int)cfg->exps[1].logx : -1, LOGX_AUTO);
	sweep_cfg_free(cfg);
	CHECK_STR(bind_errors("[sweep]\nworkload = null\n[report]\nlogx = yes\n"),
		  "b.spec:4:8: error: logx must be auto, on or off, not 'yes'\n");
}

TEST(too_many_plots)
{
	char text[1024] = "[sweep]\nworkload = null\n[report]\n";

	for (int i = 0; i <= MAX_PLOTS; i++)
		strcat(text, "plot = producers vs hits\n");
	CHECK_STR(bind_errors(text), "b.spec:12:1: error: too many plots (at most 8)\n");
}

static const char *const modes[] = { "fast", "slow", NULL };
static const struct param_def test_params[] = {
	{ .name = "producers", .type = PT_INT, .def = "1", .min = 1, .max = 1024 },
	{ .name = "offset", .type = PT_INT, .def = "0", .min = -10, .max = 10 },
	{ .name = "buf", .type = PT_SIZE, .def = "4K", .min = 4096, .max = 1LL << 30 },
	/* 0..0: no bounds */
	{ .name = "any", .type = PT_SIZE, .def = "0" },
	{ .name = "flag", .type = PT_BOOL, .def = "off" },
	{ .name = "mode", .type = PT_ENUM, .def = "fast", .choices = modes },
};

/* param_parse_scalar's value, or its message. */
static const char *scalar(int p, const char *text)
{
	static char buf[256];
	long long v;

	if (param_parse_scalar(&test_params[p], text, strlen(text), &v, buf, sizeof(buf)))
		return buf;
	snprintf(buf, sizeof(buf), "%lld", v);
	return buf;
}

TEST(param_scalars)
{
	CHECK_STR(scalar(0, "1024"), "1024");
	CHECK_STR(scalar(0, "2000"), "value 2000 out of range for 'producers' (1..1024)");
	CHECK_STR(scalar(0, "0"), "value 0 out of range for 'producers' (1..1024)");
	CHECK_STR(scalar(0, "x1"), "invalid integer 'x1'");
	CHECK_STR(scalar(0, ""), "invalid integer ''");
	CHECK_STR(scalar(0, "+3"), "invalid integer '+3'");
	CHECK_STR(scalar(0, "99999999999999999999"), "invalid integer '99999999999999999999'");
	CHECK_STR(scalar(1, "-10"), "-10");
	CHECK_STR(scalar(1, "-11"), "value -11 out of range for 'offset' (-10..10)");
	CHECK_STR(scalar(1, "-"), "invalid integer '-'");
	CHECK_STR(scalar(2, "512K"), "524288");
	CHECK_STR(scalar(2, "2m"), "2097152");
	CHECK_STR(scalar(2, "1G"), "1073741824");
	CHECK_STR(scalar(2, "8192"), "8192");
	CHECK_STR(scalar(2, "2G"), "value 2G out of range for 'buf' (4K..1G)");
#define SIZE_FORMS " (expected a size like 512K, 4M, 1G or 4096)"
	CHECK_STR(scalar(2, "12Q"), "invalid size '12Q'" SIZE_FORMS);
	CHECK_STR(scalar(2, "K"), "invalid size 'K'" SIZE_FORMS);
	CHECK_STR(scalar(2, "-1K"), "invalid size '-1K'" SIZE_FORMS);
	CHECK_STR(scalar(3, "8589934592G"), "invalid size '8589934592G'" SIZE_FORMS);
	CHECK_STR(scalar(3, "0"), "0");
	CHECK_STR(scalar(4, "on"), "1");
	CHECK_STR(scalar(4, "FALSE"), "0");
	CHECK_STR(scalar(4, "maybe"), "expected on or off, not 'maybe'");
	CHECK_STR(scalar(5, "slow"), "1");
	CHECK_STR(scalar(5, "Slow"), "unknown value 'Slow' for 'mode' (did you mean 'slow'?)");
	CHECK_STR(scalar(5, "medium"), "unknown value 'medium' for 'mode' (expected fast|slow)");
}

TEST(param_text)
{
	static const char *const want[] = { "int", "int", "size", "size", "on/off", "fast|slow" };
	char buf[64];

	for (int i = 0; i < 6; i++) {
		param_type_text(&test_params[i], buf, sizeof(buf));
		CHECK_STR(buf, want[i]);
	}
	param_format(&test_params[0], -3, buf, sizeof(buf));
	CHECK_STR(buf, "-3");
	param_format(&test_params[2], 1 << 20, buf, sizeof(buf));
	CHECK_STR(buf, "1048576");
	param_format(&test_params[4], 1, buf, sizeof(buf));
	CHECK_STR(buf, "on");
	param_format(&test_params[4], 0, buf, sizeof(buf));
	CHECK_STR(buf, "off");
	param_format(&test_params[5], 1, buf, sizeof(buf));
	CHECK_STR(buf, "slow");
	CHECK_INT(param_index(test_params, 6, "buf"), 2);
	CHECK_INT(param_index(test_params, 6, "mode"), 5);
	CHECK_INT(param_index(test_params, 6, "bu"), -1);
	CHECK_INT(param_index(test_params, 2, "buf"), -1);
}

TEST(suggestions)
{
	static const char *const keys[] = { "warmup", "duration", "interval", NULL };
	static const char *const params[] = { "producers", "batch_cnt", "overwrite", NULL };
	static const char *const tie[] = { "abcd", "abce", NULL };
	char buf[64];

	CHECK_STR(suggest_list("warmpu", keys), "warmup");	/* a swap is one edit */
	CHECK_STR(suggest_list("Duration", keys), "duration");
	CHECK_STR(suggest_list("intervall", keys), "interval");
	CHECK(suggest_list("repeat", keys) == NULL);
	CHECK(suggest_list("x", keys) == NULL);
	CHECK_STR(suggest_list("batchsz", params), "batch_cnt");	/* shared prefix */
	CHECK_STR(suggest_list("prodcuers", params), "producers");
	CHECK(suggest_list("batch", params) != NULL);
	CHECK(suggest_list("bat", params) == NULL);
	CHECK_STR(suggest_list("abcx", tie), "abcd");
	CHECK(suggest_list("warmup", NULL) == NULL);
	CHECK_STR(suggest_hint(buf, sizeof(buf), "warmup"), " (did you mean 'warmup'?)");
	CHECK_STR(suggest_hint(buf, sizeof(buf), NULL), "");
}

/* Nothing close: the choices, all of them or the first SUGGEST_MAX_CANDS and "...". */
TEST(suggest_or_list)
{
	static const char *const one[] = { "null", NULL };
	static const char *const wls[] = { "null", "ringbuf", "map_perf", NULL };
	char buf[512], name[SUGGEST_MAX_CANDS + 1][8], small[24];
	struct suggest sg;

	suggest_init(&sg, "ring_buffer");
	for (int i = 0; wls[i]; i++)
		suggest_add(&sg, wls[i]);
	/* "ring_buffer" shares 4 of 11 characters with ringbuf: not close */
	CHECK_STR(suggest_hint_or_list(&sg, buf, sizeof(buf)),
		  " (expected null, ringbuf or map_perf)");
	suggest_init(&sg, "rinbguf");
	for (int i = 0; wls[i]; i++)
		suggest_add(&sg, wls[i]);
	CHECK_STR(suggest_hint_or_list(&sg, buf, sizeof(buf)), " (did you mean 'ringbuf'?)");
	suggest_init(&sg, "x");
	suggest_add(&sg, one[0]);
	CHECK_STR(suggest_hint_or_list(&sg, buf, sizeof(buf)), " (expected null)");
	suggest_init(&sg, "x");
	CHECK_STR(suggest_hint_or_list(&sg, buf, sizeof(buf)), "");
	suggest_init(&sg, "zzzzzzzz");
	for (int i = 0; i <= SUGGEST_MAX_CANDS; i++) {
		snprintf(name[i], sizeof(name[i]), "n%d", i);
		suggest_add(&sg, name[i]);
	}
	suggest_hint_or_list(&sg, buf, sizeof(buf));
	CHECK(strstr(buf, " (expected n0, n1, "));
	CHECK(strstr(buf, ", n31, ...)"));
	CHECK(!strstr(buf, "n32"));
	/* a short buffer is cut, still a string */
	suggest_hint_or_list(&sg, small, sizeof(small));
	CHECK_INT(strlen(small), sizeof(small) - 1);
}

/* "batch_cnt = {sample_rate}": a parameter that takes another's value in every point. */
TEST(linked_values)
{
	struct sweep_cfg *cfg = bind_text("[sweep]\n"
					  "workload = null\n"
					  "[params]\n"
					  "value_size = {rate}\n"
					  "rate = 100 4096\n");
	const long long want[] = { 100, 4096 };
	struct point *pts = NULL;
	int nr = 0, ok;

	CHECK(cfg);
	CHECK_STR(diags(), "");
	CHECK(cfg->exps[0].axes[0].linked);
	CHECK_INT(cfg->exps[0].axes[0].link, 1);		/* rate */
	CHECK(!cfg->exps[0].axes[1].linked);
	ok = !matrix_expand(cfg, &pts, &nr) && nr == 2;
	for (int i = 0; ok && i < nr; i++)
		ok = pts[i].wp.v[1] == want[i] && pts[i].wp.v[3] == want[i];
	free(pts);
	sweep_cfg_free(cfg);
	CHECK(ok);
}

TEST(bad_links)
{
	CHECK_STR(bind_errors("[sweep]\n"
			      "workload = null\n"
			      "[params]\n"
			      "producers = {mode}\n"
			      "drop_pct = {rat}\n"
			      "rate = 100 2000000\n"
			      "value_size = {rate}\n"
			      "flag = {fail}\n"),
		  "b.spec:5:13: error: unknown parameter 'rat' for workload 'null' "
		  "(did you mean 'rate'?)\n"
		  "b.spec:4:13: error: 'producers' cannot take the values of 'mode': different types\n"
		  "b.spec:7:14: error: 'value_size' follows 'rate': value 2000000 out of range "
		  "for 'value_size' (1..1M)\n"
		  "b.spec:8:8: error: 'flag' cannot take the values of 'fail': different types\n");
	CHECK_STR(bind_errors("[sweep]\n"
			      "workload = null\n"
			      "[params]\n"
			      "rate = {producers}\n"
			      "producers = {drop_pct}\n"),
		  "b.spec:4:8: error: 'rate' cannot follow 'producers', which follows another "
		  "parameter\n");
}

/* values: every field a metric[.stat][:unit] of the workload, errors at the word at fault. */
TEST(bad_values_template)
{
	CHECK_STR(bind_errors("[sweep]\n"
			      "workload = null\n"
			      "[report]\n"
			      "values = a {hit} b {hits.avg} {hits.meen} {hits:Mb} {drops:MiB}\n"
			      "[params]\n"
			      "values = {hits.per_worker:k/s}, {drops.worker_max} {}\n"
			      "worker_rows = on\n"
			      "[params \"B\"]\n"
			      "values = x {hits\n"
			      "worker_rows = maybe\n"),
		  "b.spec:4:13: error: unknown metric 'hit' for workload 'null' "
		  "(did you mean 'hits'?)\n"
		  "b.spec:4:26: error: unknown statistic 'avg' (use mean, median, min, max, "
		  "stddev, ci95, per_worker, worker_min, worker_median, worker_max, "
		  "worker_mean, ns_per, over_base_ns, vs_base, per_run or per_prod)\n"
		  "b.spec:4:37: error: unknown statistic 'meen' (did you mean 'mean'?)\n"
		  "b.spec:4:49: error: unknown unit 'Mb' for 'hits' (use M/s, k/s or /s)\n"
		  "b.spec:4:60: error: unit 'MiB' is for bytes, and 'drops' is a counter "
		  "(use M/s, k/s or /s)\n"
		  "b.spec:6:16: error: statistic 'per_worker' needs a per-thread metric, and "
		  "'hits' of workload 'null' is not one\n"
		  "b.spec:6:40: error: statistic 'worker_max' needs a per-thread metric, and "
		  "'drops' of workload 'null' is not one\n"
		  "b.spec:6:53: error: missing metric: a field is {metric[.stat][:unit]}\n"
		  "b.spec:7:15: error: worker_rows needs a per-thread metric, and workload "
		  "'null' has none\n"
		  "b.spec:9:12: error: unterminated '{' in values\n"
		  "b.spec:10:15: error: expected on or off, not 'maybe'\n");
}

/* values and worker_rows: [report] for all, a [params] section's own, "values =" the default. */
TEST(values_and_overrides)
{
	struct sweep_cfg *cfg = bind_text("[sweep]\nworkload = null\n[report]\n"
					  "values = {hits.median:k/s} and {drops:/s}\n"
					  "worker_rows = off\n"
					  "[params \"A\"]\nproducers = 1\n"
					  "[params \"B\"]\nvalues = {hits.max}\n"
					  "[params \"C\"]\nvalues =\n");

	CHECK_STR(diags(), "");
	CHECK(cfg != NULL);
	CHECK_INT(cfg->nr_exps, 3);
	CHECK_STR(cfg->exps[0].values, "{hits.median:k/s} and {drops:/s}");
	CHECK_STR(cfg->exps[1].values, "{hits.max}");
	CHECK(cfg->exps[2].values == NULL);
	CHECK(!cfg->exps[0].worker_rows);
	sweep_cfg_free(cfg);
}

/* ns_per_run on y: prog_ns per run for a workload with program counters, unknown otherwise. */
TEST(plot_ns_per_run)
{
	struct sweep_cfg *cfg = bind_text("[sweep]\nworkload = ringbuf\n"
					  "[report]\nplot = producers vs ns_per_run\n"
					  "plot = producers vs prog_ns\n");

	CHECK(cfg != NULL);
	if (!cfg)
		return;
	CHECK_INT(cfg->exps[0].nr_plots, 2);
	CHECK_INT(cfg->exps[0].plots[0].y, wl_metric_index(cfg->wl, "prog_ns"));
	CHECK(cfg->exps[0].plots[0].per_run);
	CHECK_INT(cfg->exps[0].plots[1].y, wl_metric_index(cfg->wl, "prog_ns"));
	CHECK(!cfg->exps[0].plots[1].per_run);
	sweep_cfg_free(cfg);
	CHECK_STR(bind_errors("[sweep]\nworkload = null\n[report]\n"
			      "plot = producers vs ns_per_run\n"),
		  "b.spec:4:21: error: unknown metric 'ns_per_run' for workload 'null' "
		  "(expected hits or drops)\n");
}

RUN_TESTS(defaults, spec_name, sweep_keys, durations, value_forms, bool_spellings, axis_order,
	  experiments_and_overrides, set_routing, set_creates_experiment, set_error_column,
	  set_over_pinned,
	  write_round_trip, bad_sections, bad_sweep_keys, precision_keys, profile_keys,
	  bad_values, bad_ranges, range_limit,
	  axis_value_cap, point_cap, bad_report, logx, too_many_plots, param_scalars, param_text,
	  suggestions, suggest_or_list, linked_values, bad_links, bad_values_template,
	  values_and_overrides,
	  plot_ns_per_run)
