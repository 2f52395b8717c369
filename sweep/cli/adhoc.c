// SPDX-License-Identifier: GPL-2.0
/* Ad hoc runs and the kernel bench's options: see adhoc.h. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adhoc.h"
#include "cliopt.h"
#include "diag.h"
#include "param.h"
#include "workload.h"

/*
 * The timing written out in full, so that --save-spec gives a spec to
 * edit: the kernel bench's -w 1 and 1 s intervals, but three repetitions
 * of 2 s where the bench takes one of 5 s, so that the run has the three
 * independent units a comparison and a chart's error bar stand on
 * (docs/statistics.md), in 9 s a point instead of 6.  The title is the
 * workload's: the saved spec, under any file name, shows the same table
 * headings.
 */
static const char adhoc_text[] =
	"[sweep]\n"
	"title    = %s\n"
	"workload = %s\n"
	"warmup   = 1s\n"
	"duration = 2s\n"
	"interval = 1s\n"
	"repeat   = 3\n"
	"affinity = off\n";

int adhoc_spec(const char *workload, struct spec **out)
{
	char *text;
	int err;

	*out = NULL;
	if (asprintf(&text, adhoc_text, workload, workload) < 0)
		return -ENOMEM;
	/* the "path" names the results: results/<workload>/<stamp> */
	err = spec_parse_string(workload, text, out);
	free(text);
	return err;
}

/* The value of key in the first section called name, or NULL. */
static const char *spec_value(const struct spec *spec, const char *name, const char *key)
{
	for (int i = 0; i < spec->nr_sections; i++) {
		const struct spec_section *sec = &spec->sections[i];

		if (strcmp(sec->name, name))
			continue;
		for (int j = 0; j < sec->nr_entries; j++)
			if (!strcmp(sec->entries[j].key, key))
				return sec->entries[j].value;
		return NULL;
	}
	return NULL;
}

/* Longer than this, a title says less than the table's rows: the workload alone. */
#define ADHOC_TITLE_MAX 100

int adhoc_title(struct spec *spec)
{
	const char *wl = spec_value(spec, "sweep", "workload");
	const char *title = spec_value(spec, "sweep", "title");
	char buf[ADHOC_TITLE_MAX + sizeof("title=")];
	size_t off;

	if (!wl || !title || strcmp(title, wl))
		return 0;
	off = snprintf(buf, sizeof(buf), "title=%s", wl);
	for (int i = 0; i < spec->nr_sections && off < sizeof(buf); i++) {
		const struct spec_section *sec = &spec->sections[i];

		if (strcmp(sec->name, "params"))
			continue;
		for (int j = 0; j < sec->nr_entries && off < sizeof(buf); j++)
			off += snprintf(buf + off, sizeof(buf) - off, " %s=%s", sec->entries[j].key,
					sec->entries[j].value);
	}
	if (off >= sizeof(buf))
		return 0;
	return spec_set(spec, buf);
}

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
	const char *name = spec_value(spec, "sweep", "workload");
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

/* The axes with more than one value; the first numeric one is the x axis. */
bool adhoc_plot(const struct sweep_cfg *cfg, char *buf, size_t len)
{
	const struct workload *wl = cfg->wl;
	const struct experiment *x = &cfg->exps[0];
	int varying[2], nr = 0, xa = -1;

	/* an ad hoc spec has one experiment (no [params] title to tell two apart) */
	if (cfg->nr_exps != 1)
		return false;
	for (int a = 0; a < x->nr_axes; a++) {
		const struct param_def *p = &wl->params[x->axes[a].param];

		if (x->axes[a].nr_vals < 2 || x->axes[a].linked)
			continue;
		if (nr == 2)
			return false;
		if (xa < 0 && (p->type == PT_INT || p->type == PT_SIZE))
			xa = nr;
		varying[nr++] = x->axes[a].param;
	}
	if (xa < 0)
		return false;
	if (nr == 1)
		snprintf(buf, len, "plot=%s vs %s", wl->params[varying[0]].name,
			 wl->metrics[0].name);
	else
		snprintf(buf, len, "plot=%s vs %s by %s", wl->params[varying[xa]].name,
			 wl->metrics[0].name, wl->params[varying[!xa]].name);
	return true;
}

/*
 * Created exclusively: an existing file is not overwritten, and O_EXCL
 * fails on a symlink too (dangling or not), so root writes nowhere else.
 */
int adhoc_save_spec(const struct spec *spec, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	int err;

	if (!f) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		if (err == -EEXIST)
			diag_err("--save-spec: %s exists; not overwritten", path);
		else
			diag_err("--save-spec: cannot create %s: %s", path, strerror(-err));
		return err;
	}
	err = spec_write(spec, f);
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		diag_err("--save-spec: cannot write %s: %s", path, strerror(-err));
	return err;
}
