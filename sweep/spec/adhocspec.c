// SPDX-License-Identifier: GPL-2.0
/*
 * The spec of an ad hoc run (adhocspec.h): built in memory from the
 * workload's name, its title and chart from what the options vary, and
 * --save-spec's file of it.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adhocspec.h"
#include "diag.h"

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

const char *spec_first_value(const struct spec *spec, const char *name, const char *key)
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
	const char *wl = spec_first_value(spec, "sweep", "workload");
	const char *title = spec_first_value(spec, "sweep", "title");
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
