// SPDX-License-Identifier: GPL-2.0
/* The kernel bench's options as the --set they stand for: see adhoc.h. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adhoc.h"
#include "adhocspec.h"
#include "cliopt.h"
#include "diag.h"
#include "param.h"
#include "workload.h"

/* The bench's options: which key each sets, and how its name is said. */
struct shorthand {
	int opt;
	const char *key;
	const char *name;
	bool param;		/* a workload parameter, not a [sweep] key */
};

static const struct shorthand shorthands[] = {
	{ .opt = 'w', .key = "warmup", .name = "-w/--warmup" },
	{ .opt = 'd', .key = "duration", .name = "-d/--duration" },
	{ .opt = 'p', .key = "producers", .name = "-p/--producers", .param = true },
	{ .opt = 'c', .key = "consumers", .name = "-c/--consumers", .param = true },
	{ .opt = 'a', .key = "affinity", .name = "-a/--affinity" },
	{ .opt = OPT_PROFILE, .key = "profile", .name = "--profile" },
};

static const struct shorthand *find_shorthand(int opt)
{
	for (size_t i = 0; i < sizeof(shorthands) / sizeof(shorthands[0]); i++)
		if (shorthands[i].opt == opt)
			return &shorthands[i];
	return NULL;
}

/* The shorthand a --set came from (cli_spec.set_opt), or NULL for a --set. */
static const struct shorthand *shorthand_named(const char *name)
{
	for (size_t i = 0; name && i < sizeof(shorthands) / sizeof(shorthands[0]); i++)
		if (!strcmp(shorthands[i].name, name))
			return &shorthands[i];
	return NULL;
}

const char *adhoc_option_name(int opt)
{
	const struct shorthand *sh = find_shorthand(opt);

	return sh ? sh->name : "";
}

/* "3" is the bench's seconds, "250ms" already a spec duration. */
static const char *duration_suffix(const char *arg)
{
	size_t len = strlen(arg);

	return len && isdigit((unsigned char)arg[len - 1]) ? "s" : "";
}

int adhoc_shorthand(struct cli_spec *o, int opt, const char *arg)
{
	const struct shorthand *sh = find_shorthand(opt);
	const char *suffix = "";
	char *assign;

	if (!sh)
		return -EINVAL;
	if (opt == 'a' || opt == OPT_PROFILE)
		arg = "on";
	else if (opt == 'w' || opt == 'd')
		suffix = duration_suffix(arg);
	if (o->nr_sets >= CLI_MAX_ARGS) {
		diag_err("too many --set options and their shorthands (at most %d)",
			 CLI_MAX_ARGS);
		return -E2BIG;
	}
	/* owned by o for the whole process, like argv */
	if (asprintf(&assign, "%s=%s%s", sh->key, arg, suffix) < 0)
		return -ENOMEM;
	o->set_opt[o->nr_sets] = sh->name;
	o->sets[o->nr_sets++] = assign;
	return 0;
}

static void say_no_param(const struct workload *wl, const char *opt, const char *key)
{
	char names[512];
	size_t off = 0;

	names[0] = '\0';
	for (int i = 0; i < wl->nr_params && off < sizeof(names); i++)
		off += snprintf(names + off, sizeof(names) - off, "%s%s", i ? ", " : "",
				wl->params[i].name);
	diag_err("%s: workload '%s' has no '%s' parameter (it has: %s; see 'bpfsweep list %s')",
		 opt, wl->name, key, names, wl->name);
}

int adhoc_check_shorthands(const struct cli_spec *o, const struct spec *spec)
{
	const char *name = spec_first_value(spec, "sweep", "workload");
	const struct workload *wl = name ? workload_find(name) : NULL;
	int err = 0;

	/* no such workload: bind says so, at the spec's line */
	if (!wl)
		return 0;
	for (int i = 0; i < o->nr_sets; i++) {
		const struct shorthand *sh = shorthand_named(o->set_opt[i]);

		if (!sh || !sh->param || param_index(wl->params, wl->nr_params, sh->key) >= 0)
			continue;
		say_no_param(wl, sh->name, sh->key);
		err = -EINVAL;
	}
	return err;
}

