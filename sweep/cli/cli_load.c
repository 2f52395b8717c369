// SPDX-License-Identifier: GPL-2.0
/*
 * Loading what the command line names: spec file or an ad hoc run's spec
 * (adhoc.h), --set overrides and their shorthands, --kernel, --quick.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "adhoc.h"
#include "bind.h"
#include "cli.h"
#include "columns.h"
#include "diag.h"
#include "kernels.h"

/* --quick: enough to see that every point runs, not to publish */
#define QUICK_WARMUP_NS		250000000ULL
#define QUICK_DURATION_NS	1000000000ULL
#define QUICK_INTERVAL_NS	250000000ULL

/*
 * The timing --quick shortens, each unless a --set gives it: a test or a
 * user that asks for shorter points than --quick's gets them, in a sub-run
 * too (whose --set are in its resolved spec: its settings name them,
 * quick-keeps in subrun.h).  Its one repetition, precision off, always.
 */
static const struct quick_timing {
	const char *key;		/* the [sweep] key */
	size_t off;			/* of its uint64_t in struct sweep_cfg */
	uint64_t ns;
} quick_timing[] = {
	{ .key = "warmup", .off = offsetof(struct sweep_cfg, warmup_ns),
	  .ns = QUICK_WARMUP_NS },
	{ .key = "duration", .off = offsetof(struct sweep_cfg, duration_ns),
	  .ns = QUICK_DURATION_NS },
	{ .key = "interval", .off = offsetof(struct sweep_cfg, interval_ns),
	  .ns = QUICK_INTERVAL_NS },
};

#define NR_QUICK_TIMING	((int)(sizeof(quick_timing) / sizeof(quick_timing[0])))

/* Whether the assignment "KEY = value" (a --set) gives key. */
static bool assigns(const char *assignment, const char *key)
{
	size_t len = strlen(key);

	assignment += strspn(assignment, " \t");
	if (strncmp(assignment, key, len))
		return false;
	assignment += len;
	return assignment[strspn(assignment, " \t")] == '=';
}

/* Whether the space-separated words of list hold word. */
static bool has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; p && *p; p += strcspn(p, " "), p += strspn(p, " "))
		if (!strncmp(p, word, len) && (p[len] == ' ' || !p[len]))
			return true;
	return false;
}

/* Bit k set: quick_timing[k] is the user's, from a --set or a sub-run's quick-keeps. */
static unsigned int quick_kept(const struct cli_spec *o)
{
	unsigned int kept = 0;

	for (int k = 0; k < NR_QUICK_TIMING; k++) {
		if (has_word(o->quick_keeps, quick_timing[k].key))
			kept |= 1U << k;
		for (int i = 0; i < o->nr_sets; i++)
			if (assigns(o->sets[i], quick_timing[k].key))
				kept |= 1U << k;
	}
	return kept;
}

const char *cli_quick_keeps(const struct cli_spec *o)
{
	/* every subset of quick_timing's keys, in its order, by bit */
	static const char *const lists[1 << NR_QUICK_TIMING] = {
		[0] = NULL, [1] = "warmup", [2] = "duration", [3] = "warmup duration",
		[4] = "interval", [5] = "warmup interval", [6] = "duration interval",
		[7] = "warmup duration interval",
	};

	return o->quick ? lists[quick_kept(o)] : NULL;
}

/*
 * One repetition: no precision to aim at, nor rounds to decide.  decide
 * shapes the files (samples.csv's slot, summary.csv's decision columns),
 * so the spec stored with them says it is off too: a report or a resume
 * reads them back by it.
 */
static int apply_quick(struct sweep_cfg *cfg, struct spec *spec, const struct cli_spec *o)
{
	unsigned int kept = quick_kept(o);
	bool decide = cfg->decide_pct > 0;

	for (int k = 0; k < NR_QUICK_TIMING; k++)
		if (!(kept & (1U << k)))
			*(uint64_t *)((char *)cfg + quick_timing[k].off) = quick_timing[k].ns;
	cfg->repeat = 1;
	cfg->precision_pct = 0;
	cfg->decide_pct = 0;
	return decide ? spec_set(spec, "decide=off") : 0;
}

/*
 * --kernel A --kernel B: the list, checked once here (an error is
 * --kernel's), is the spec's kernel key, after the other --set; its
 * printed form is what OUT/spec keeps (kernellist.h).
 */
static int set_kernels(const struct cli_spec *o, struct spec *spec)
{
	struct kernel_list kl = { 0 };
	int err;

	if (!o->nr_kernels)
		return 0;
	err = kernel_list_from_words(&kl, o->kernels, o->nr_kernels, "--kernel");
	if (!err) {
		err = kernel_list_set_spec(&kl, spec);
		if (err == -E2BIG)
			diag_err("--kernel: the kernel paths are too long");
	}
	kernel_list_free(&kl);
	return err;
}

/*
 * --set and its shorthands, in order.  A user's --set is called by its
 * own number among them ("--set #2"), a shorthand by its name ("-p").
 */
static int apply_sets(const struct cli_spec *o, struct spec *spec)
{
	char label[32];
	int err = 0, nr_user = 0;

	diag_label_sets_clear();
	for (int i = 0; i < o->nr_sets && !err; i++) {
		if (o->set_opt[i])
			snprintf(label, sizeof(label), "%s", o->set_opt[i]);
		else
			snprintf(label, sizeof(label), "--set #%d", ++nr_user);
		diag_label_set(spec->nr_sets + 1, label);
		err = spec_set(spec, o->sets[i]);
	}
	diag_label_set(spec->nr_sets + 1, "--kernel");
	return err;
}

/*
 * An ad hoc run's title and chart (adhoc.h), unless --set asked for its
 * own: set as a --set would be, so the saved spec has them, and bound
 * again.
 */
static int adhoc_name(struct spec *spec, struct sweep_cfg **cfg)
{
	bool chart = !(*cfg)->exps[0].nr_plots;
	char plot[256];
	int err;

	diag_label_set(spec->nr_sets + 1, "the ad hoc title");
	err = adhoc_title(spec);
	if (!err && chart && adhoc_plot(*cfg, plot, sizeof(plot))) {
		diag_label_set(spec->nr_sets + 1, "the ad hoc chart");
		err = spec_set(spec, plot);
	}
	sweep_cfg_free(*cfg);
	*cfg = NULL;
	return err ?: bind_spec(spec, &workloads_catalog, cfg);
}

int cli_load(const struct cli_spec *o, struct spec **spec, struct sweep_cfg **cfg)
{
	int err;

	*cfg = NULL;
	err = o->adhoc ? adhoc_spec(o->spec_path, spec) : spec_parse_file(o->spec_path, spec);
	if (err)
		return err;
	err = apply_sets(o, *spec);
	if (!err)
		err = set_kernels(o, *spec);
	/* of the workload the spec names now: a --set may have changed it */
	if (!err)
		err = adhoc_check_shorthands(o, *spec);
	if (!err)
		err = bind_spec(*spec, &workloads_catalog, cfg);
	if (!err && o->adhoc)
		err = adhoc_name(*spec, cfg);
	if (!err)
		err = bind_check_decide(*cfg, o->gated);
	/* after every --set: what the run's summary.csv will hold is known now */
	if (!err)
		err = columns_check_params(*cfg, *spec);
	/* only a spec that binds is worth keeping: it runs as it is */
	if (!err && o->save_spec)
		err = adhoc_save_spec(*spec, o->save_spec);
	if (err) {
		diag_finish();
		sweep_cfg_free(*cfg);
		*cfg = NULL;
		spec_free(*spec);
		*spec = NULL;
		return err;
	}
	err = o->quick ? apply_quick(*cfg, *spec, o) : 0;
	if (err) {
		sweep_cfg_free(*cfg);
		*cfg = NULL;
		spec_free(*spec);
		*spec = NULL;
	}
	return err;
}
