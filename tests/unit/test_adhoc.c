// SPDX-License-Identifier: GPL-2.0
/*
 * adhoc.c and specfind.c: an ad hoc run is the spec a workload's name and
 * the bench's options amount to; run's argument resolves to a file, a
 * workload or an installed spec, else an error naming what is nearest.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adhoc.h"
#include "bind.h"
#include "check.h"
#include "cli.h"
#include "diag_capture.h"
#include "specfind.h"

#define NS 1000000000ULL

/* The spec as run, as text (what --save-spec and the result's spec hold). */
static const char *spec_text(const struct spec *s)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	buf[0] = '\0';
	if (f) {
		spec_write(s, f);
		fclose(f);
	}
	return buf;
}

static int nr_vals(const struct sweep_cfg *cfg, const char *param)
{
	const struct experiment *x = &cfg->exps[0];

	for (int a = 0; a < x->nr_axes; a++)
		if (!strcmp(cfg->wl->params[x->axes[a].param].name, param))
			return x->axes[a].nr_vals;
	return 0;
}

/* The bench's seconds become durations; a unit given stays; -a is affinity=on. */
TEST(shorthands_are_sets)
{
	struct cli_spec o = { 0 };

	CHECK_INT(adhoc_shorthand(&o, 'w', "3"), 0);
	CHECK_INT(adhoc_shorthand(&o, 'd', "250ms"), 0);
	CHECK_INT(adhoc_shorthand(&o, 'd', "0.5"), 0);
	CHECK_INT(adhoc_shorthand(&o, 'p', "1..8*2"), 0);
	CHECK_INT(adhoc_shorthand(&o, 'a', NULL), 0);
	CHECK_INT(o.nr_sets, 5);
	CHECK_STR(o.sets[0], "warmup=3s");
	CHECK_STR(o.sets[1], "duration=250ms");
	CHECK_STR(o.sets[2], "duration=0.5s");
	CHECK_STR(o.sets[3], "producers=1..8*2");
	CHECK_STR(o.sets[4], "affinity=on");
	CHECK_STR(o.set_opt[3], "-p/--producers");
	CHECK_STR(adhoc_option_name('c'), "-c/--consumers");
	CHECK_INT(adhoc_shorthand(&o, 'x', "1"), -EINVAL);
	for (int i = 0; i < o.nr_sets; i++)
		free((char *)o.sets[i]);
}

/* run count -w 0 -d 2 -a -p 1..4: the timing, the axis, a title and a chart. */
TEST(adhoc_sweep_binds)
{
	struct cli_spec o = { .spec_path = "count", .adhoc = true };
	struct sweep_cfg *cfg;
	struct spec *spec;

	adhoc_shorthand(&o, 'w', "0");
	adhoc_shorthand(&o, 'd', "2");
	adhoc_shorthand(&o, 'a', NULL);
	adhoc_shorthand(&o, 'p', "1..4");
	capture();
	CHECK_INT(cli_load(&o, &spec, &cfg), 0);
	CHECK_STR(diags(), "");
	CHECK_STR(cfg->name, "count");
	CHECK_INT(cfg->warmup_ns, 0);
	CHECK_INT(cfg->duration_ns, 2 * NS);
	CHECK(cfg->affinity);
	CHECK_INT(nr_vals(cfg, "producers"), 4);
	CHECK_INT(cfg->exps[0].nr_plots, 1);
	CHECK_STR(spec_text(spec),
		  "[sweep]\ntitle = count producers=1..4\nworkload = count\nwarmup = 0s\n"
		  "duration = 2s\ninterval = 1s\nrepeat = 3\naffinity = on\n\n"
		  "[params]\nproducers = 1..4\n\n[report]\nplot = producers vs hits\n");
	sweep_cfg_free(cfg);
	spec_free(spec);
	for (int i = 0; i < o.nr_sets; i++)
		free((char *)o.sets[i]);
}

/* The chart: x the first numeric axis, by a second; none for three, or for none. */
TEST(adhoc_chart_choice)
{
	static const char *const two[] = { "producers=1,2", "rate=10,20" };
	static const char *const three[] = { "producers=1,2", "rate=10,20", "drop_pct=1,2" };
	static const char *const mine[] = { "producers=1,2", "plot=rate vs drops" };
	struct cli_spec o = { .spec_path = "null", .adhoc = true };
	struct sweep_cfg *cfg;
	struct spec *spec;

	memcpy(o.sets, two, sizeof(two));
	o.nr_sets = 2;
	CHECK_INT(cli_load(&o, &spec, &cfg), 0);
	CHECK(strstr(spec_text(spec), "plot = producers vs hits by rate\n"));
	sweep_cfg_free(cfg);
	spec_free(spec);

	memcpy(o.sets, three, sizeof(three));
	o.nr_sets = 3;
	CHECK_INT(cli_load(&o, &spec, &cfg), 0);
	CHECK(!strstr(spec_text(spec), "plot"));
	sweep_cfg_free(cfg);
	spec_free(spec);

	/* one point: nothing to chart; a plot asked for is kept */
	o.nr_sets = 0;
	CHECK_INT(cli_load(&o, &spec, &cfg), 0);
	CHECK_INT(cfg->exps[0].nr_plots, 0);
	CHECK_STR(experiment_title(cfg, &cfg->exps[0]), "null");
	sweep_cfg_free(cfg);
	spec_free(spec);
	memcpy(o.sets, mine, sizeof(mine));
	o.nr_sets = 2;
	CHECK_INT(cli_load(&o, &spec, &cfg), 0);
	CHECK(strstr(spec_text(spec), "plot = rate vs drops\n"));
	CHECK_INT(cfg->exps[0].nr_plots, 1);
	sweep_cfg_free(cfg);
	spec_free(spec);
}

/* -c where the workload has no consumers: named, with what it has; nothing bound. */
TEST(shorthand_without_param)
{
	struct cli_spec o = { .spec_path = "count", .adhoc = true };
	struct sweep_cfg *cfg;
	struct spec *spec;

	adhoc_shorthand(&o, 'c', "2");
	capture();
	CHECK_INT(cli_load(&o, &spec, &cfg), -EINVAL);
	CHECK(!cfg && !spec);
	CHECK_STR(diags(), "bpfsweep: error: -c/--consumers: workload 'count' has no 'consumers' "
		  "parameter (it has: producers; see 'bpfsweep list count')\n");
	free((char *)o.sets[0]);
	/* a shorthand's error is located at it, a --set's at its own number */
	o.nr_sets = 0;
	adhoc_shorthand(&o, 'p', "0");
	o.sets[o.nr_sets++] = "producers=5000";
	capture();
	CHECK_INT(cli_load(&o, &spec, &cfg), -EINVAL);
	CHECK_STR(diags(), "--set #1:1:11: error: value 5000 out of range for 'producers' "
		  "(1..1024)\n");
	o.nr_sets = 1;
	capture();
	CHECK_INT(cli_load(&o, &spec, &cfg), -EINVAL);
	CHECK_STR(diags(), "-p/--producers:1:11: error: value 0 out of range for 'producers' "
		  "(1..1024)\n");
	free((char *)o.sets[0]);
}

/* --save-spec's file, run as a spec, is the same sweep: the same spec as run. */
TEST(save_spec_round_trip)
{
	char path[] = "/tmp/test_adhoc_XXXXXX";
	struct cli_spec o = { .spec_path = "null", .adhoc = true, .save_spec = path };
	struct cli_spec again = { .spec_path = path };
	struct sweep_cfg *cfg, *cfg2;
	struct spec *spec, *spec2;
	char first[4096];
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	unlink(path);	/* --save-spec creates its file, and refuses one that exists */
	o.sets[o.nr_sets++] = "producers=1..8*2";
	adhoc_shorthand(&o, 'd', "1");
	CHECK_INT(cli_load(&o, &spec, &cfg), 0);
	snprintf(first, sizeof(first), "%s", spec_text(spec));
	CHECK_INT(cli_load(&again, &spec2, &cfg2), 0);
	CHECK_STR(spec_text(spec2), first);
	CHECK_INT(nr_vals(cfg2, "producers"), 4);
	CHECK_INT(cfg2->duration_ns, NS);
	CHECK_STR(cfg2->title, cfg->title);
	sweep_cfg_free(cfg);
	sweep_cfg_free(cfg2);
	spec_free(spec);
	spec_free(spec2);
	free((char *)o.sets[1]);
	unlink(path);
}

/* A file, then a workload, then specs/NAME.spec; else what is nearest. */
TEST(argument_resolution)
{
	static const char *const cmds[] = { "run", "check", NULL };
	char dir[] = "/tmp/test_adhoc_dir_XXXXXX", old[PATH_MAX], path[PATH_MAX];
	FILE *f;

	CHECK(mkdtemp(dir) && getcwd(old, sizeof(old)));
	CHECK(!chdir(dir) && !mkdir("specs", 0755));
	f = fopen("specs/my_sweep.spec", "w");
	CHECK(f);
	fputs("[sweep]\nworkload = null\n", f);
	fclose(f);
	f = fopen("count", "w");	/* a file wins over the workload's name */
	CHECK(f);
	fclose(f);

	CHECK_INT(specfind_resolve("count", NULL, path, sizeof(path)), SPEC_ARG_FILE);
	CHECK_STR(path, "count");
	CHECK_INT(specfind_resolve("null", NULL, path, sizeof(path)), SPEC_ARG_WORKLOAD);
	CHECK_INT(specfind_resolve("my_sweep", NULL, path, sizeof(path)), SPEC_ARG_INSTALLED);
	CHECK_STR(path, "specs/my_sweep.spec");
	CHECK_INT(specfind_resolve("my_sweep.spec", NULL, path, sizeof(path)),
		  SPEC_ARG_INSTALLED);
	CHECK_STR(path, "specs/my_sweep.spec");

	capture();
	CHECK_INT(specfind_resolve("specs/my_swep.spec", NULL, path, sizeof(path)), -ENOENT);
	CHECK_STR(diags(), "bpfsweep: error: specs/my_swep.spec: No such file (did you mean "
		  "'specs/my_sweep.spec'?)\n");
	capture();
	CHECK_INT(specfind_resolve("my_swep", NULL, path, sizeof(path)), -ENOENT);
	CHECK_STR(diags(), "bpfsweep: error: 'my_swep' is not a spec file, a workload or an "
		  "installed spec (did you mean 'my_sweep'?)\n");
	capture();
	CHECK_INT(specfind_resolve("chekc", cmds, path, sizeof(path)), -ENOENT);
	CHECK_STR(diags(), "bpfsweep: error: 'chekc' is not a spec file, a command, a workload "
		  "or an installed spec (did you mean 'check'?)\n");
	capture();
	CHECK_INT(specfind_resolve("nul_workload_x", NULL, path, sizeof(path)), -ENOENT);
	CHECK(strstr(diags(), "; workloads: null, count, ringbuf"));
	CHECK(strstr(diags(), "installed specs: ") && strstr(diags(), "my_sweep"));

	unlink("specs/my_sweep.spec");
	unlink("count");
	rmdir("specs");
	CHECK(!chdir(old));
	rmdir(dir);
}

RUN_TESTS(shorthands_are_sets, adhoc_sweep_binds, adhoc_chart_choice, shorthand_without_param,
	  save_spec_round_trip, argument_resolution)
