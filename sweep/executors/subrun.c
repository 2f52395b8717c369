// SPDX-License-Identifier: GPL-2.0
/* A sub-run's argv and settings file: see subrun.h. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "resultdir.h"
#include "subrun.h"
#include "textfile.h"

void subrun_arg(struct subrun_argv *a, const char *arg)
{
	if (a->n < SUBRUN_MAX_ARGS)
		a->argv[a->n++] = arg;
	a->argv[a->n] = NULL;
}

void subrun_settings_tag(struct subrun_settings *set, const char *tag)
{
	if (set->nr_tags < SUBRUN_MAX_TAGS)
		set->tags[set->nr_tags++] = tag;
	set->tags[set->nr_tags] = NULL;
}

/*
 * What every sub-run of the sweep gets: its quick (and the timing its --set
 * gave, which the resolved spec has: quick leaves it), only, the warnings
 * it quiets and, in a new directory, tags.
 */
static void sweep_settings(const struct subrun *s, bool resume, struct subrun_settings *set)
{
	*set = (struct subrun_settings){ .quick = s->quick, .only = s->only, .no_plots = true,
					 .quick_keeps = s->quick ? s->quick_keeps : NULL };
	for (int i = 0; !resume && i < s->nr_tags; i++)
		subrun_settings_tag(set, s->tags[i]);
	for (int i = 0; i < s->nr_quiet && set->nr_quiet < SUBRUN_MAX_QUIET; i++)
		set->quiet[set->nr_quiet++] = s->quiet[i];
}

void subrun_kernel_settings(const struct subrun *s, const char *kernel, const char *accel,
			    const char *accel_reason, bool resume, struct subrun_settings *set)
{
	sweep_settings(s, resume, set);
	set->guest_of = kernel;
	set->guest_accel = accel;
	if (accel && accel_reason && accel_reason[0])
		set->guest_accel_reason = accel_reason;
}

void subrun_place_settings(const struct subrun *s, const struct shard *sh, bool resume,
			   struct subrun_settings *set)
{
	sweep_settings(s, resume, set);
	set->shard = *sh;
}

void subrun_argv(const char *self, const char *spec, const char *settings, const char *dir,
		 bool resume, struct subrun_argv *a)
{
	a->n = 0;
	subrun_arg(a, self);
	subrun_arg(a, "run");
	subrun_arg(a, spec);
	subrun_arg(a, "--subrun");
	subrun_arg(a, settings);
	subrun_arg(a, resume ? "--resume" : "-o");
	subrun_arg(a, dir);
}

/* How a setting is held in struct subrun_settings, and written. */
enum setting_kind {
	SET_FLAG,	/* bool: "yes" */
	SET_TEXT,	/* const char *, any text but NUL */
	SET_TAG,		/* one of tags[], a line each */
	SET_QUIET,	/* one of quiet[], a line each */
	SET_SHARD,	/* "I/N" */
};

/* One table writes the file and reads it back: a line "name = value" per setting. */
static const struct setting {
	/*
	 * the run option it stands for, without "--"; guest-of, guest-accel,
	 * guest-accel-reason, fail-all and the place-* facts are a sub-run's
	 * own, no option at all
	 */
	const char *name;
	enum setting_kind kind;
	size_t off;		/* of its field in struct subrun_settings */
} settings[] = {
	{ .name = "quick", .kind = SET_FLAG, .off = offsetof(struct subrun_settings, quick) },
	{ .name = "quick-keeps", .kind = SET_TEXT,
	  .off = offsetof(struct subrun_settings, quick_keeps) },
	{ .name = "only", .kind = SET_TEXT, .off = offsetof(struct subrun_settings, only) },
	{ .name = "tag", .kind = SET_TAG, .off = offsetof(struct subrun_settings, tags) },
	{ .name = "quiet-warning", .kind = SET_QUIET,
	  .off = offsetof(struct subrun_settings, quiet) },
	{ .name = "guest-of", .kind = SET_TEXT,
	  .off = offsetof(struct subrun_settings, guest_of) },
	{ .name = "guest-accel", .kind = SET_TEXT,
	  .off = offsetof(struct subrun_settings, guest_accel) },
	{ .name = "guest-accel-reason", .kind = SET_TEXT,
	  .off = offsetof(struct subrun_settings, guest_accel_reason) },
	{ .name = "shard", .kind = SET_SHARD, .off = offsetof(struct subrun_settings, shard) },
	{ .name = "fail-all", .kind = SET_TEXT,
	  .off = offsetof(struct subrun_settings, fail_all) },
	{ .name = "place-host", .kind = SET_TEXT,
	  .off = offsetof(struct subrun_settings, place.name) },
	{ .name = "place-kernel-release", .kind = SET_TEXT,
	  .off = offsetof(struct subrun_settings, place.kernel_release) },
	{ .name = "place-arch", .kind = SET_TEXT,
	  .off = offsetof(struct subrun_settings, place.arch) },
	{ .name = "place-cpu-model", .kind = SET_TEXT,
	  .off = offsetof(struct subrun_settings, place.cpu_model) },
	{ .name = "place-nproc", .kind = SET_TEXT,
	  .off = offsetof(struct subrun_settings, place.nproc) },
	{ .name = "no-plots", .kind = SET_FLAG,
	  .off = offsetof(struct subrun_settings, no_plots) },
	{ .name = "gate", .kind = SET_TEXT, .off = offsetof(struct subrun_settings, gate) },
};

#define NR_SETTINGS	((int)(sizeof(settings) / sizeof(settings[0])))
#define FIELD(set, k, type)	((type *)((char *)(set) + settings[k].off))
#define CFIELD(set, k, type)	((const type *)((const char *)(set) + settings[k].off))

/* "name = value\n", value's backslashes and newlines escaped: a value is one line. */
static void put_line(FILE *f, const char *name, const char *value)
{
	fprintf(f, "%s = ", name);
	for (const char *p = value; *p; p++)
		if (*p == '\\' || *p == '\n')
			fprintf(f, "\\%c", *p == '\n' ? 'n' : '\\');
		else
			fputc(*p, f);
	fputc('\n', f);
}

static void put_setting(FILE *f, const struct subrun_settings *set, int k)
{
	const struct shard *sh = CFIELD(set, k, struct shard);
	const char *text;
	char shard[32];

	switch (settings[k].kind) {
	case SET_FLAG:
		if (*CFIELD(set, k, bool))
			put_line(f, settings[k].name, "yes");
		return;
	case SET_TEXT:
		/* the field is a pointer only for this kind: read it here */
		text = *CFIELD(set, k, const char *);
		if (text)
			put_line(f, settings[k].name, text);
		return;
	case SET_TAG:
		for (int i = 0; i < set->nr_tags; i++)
			put_line(f, settings[k].name, set->tags[i]);
		return;
	case SET_QUIET:
		for (int i = 0; i < set->nr_quiet; i++)
			put_line(f, settings[k].name, set->quiet[i]);
		return;
	case SET_SHARD:
		snprintf(shard, sizeof(shard), "%d/%d", sh->index, sh->count);
		if (sh->count)
			put_line(f, settings[k].name, shard);
		return;
	}
}

static int fill_settings(FILE *f, const void *arg)
{
	fprintf(f, "# a bpfsweep sub-run's settings, read by run --subrun (docs/kernel.md)\n");
	for (int k = 0; k < NR_SETTINGS; k++)
		put_setting(f, arg, k);
	return 0;
}

int subrun_settings_write(const char *dir, const char *name, const struct subrun_settings *set,
			  char *path, size_t len)
{
	int err = resultdir_write_file(dir, name, true, fill_settings, set);

	if (err)
		diag_err("cannot write %s/%s: %s", dir, name, strerror(-err));
	else if ((size_t)snprintf(path, len, "%s/%s", dir, name) >= len)
		err = -ENAMETOOLONG;
	return err;
}

/* value's escapes undone in place; false for a lone or unknown one. */
static bool unescape(char *value)
{
	char *to = value;

	for (const char *p = value; *p; p++) {
		if (*p != '\\') {
			*to++ = *p;
			continue;
		}
		p++;
		if (*p != '\\' && *p != 'n')
			return false;
		*to++ = *p == 'n' ? '\n' : '\\';
	}
	*to = '\0';
	return true;
}

/* Setting k's value into set; false when it is not one of its values. */
static bool take_setting(struct subrun_settings *set, int k, char *value, char *why, size_t len)
{
	switch (settings[k].kind) {
	case SET_FLAG:
		*FIELD(set, k, bool) = true;
		return !strcmp(value, "yes");
	case SET_TEXT:
		*FIELD(set, k, const char *) = value;
		return true;
	case SET_TAG:
		subrun_settings_tag(set, value);
		return strchr(value, '=') && value[0] != '=';
	case SET_QUIET:
		if (set->nr_quiet < SUBRUN_MAX_QUIET)
			set->quiet[set->nr_quiet++] = value;
		return true;
	case SET_SHARD:
		return !shard_parse(value, FIELD(set, k, struct shard), why, len);
	}
	return false;
}

/* Line nr of the file: a comment, or "name = value". */
static int read_line(struct subrun_settings *set, char *line, int nr, char *why, size_t len)
{
	char *eq = strstr(line, " = "), bad[160] = "";
	int k;

	if (line[0] == '#' || !line[0])
		return 0;
	if (!eq) {
		snprintf(why, len, "line %d: expected 'name = value', not '%.64s'", nr, line);
		return -EINVAL;
	}
	*eq = '\0';
	for (k = 0; k < NR_SETTINGS && strcmp(settings[k].name, line); k++)
		;
	if (k == NR_SETTINGS) {
		snprintf(why, len, "line %d: unknown setting '%.64s'", nr, line);
		return -EINVAL;
	}
	if (unescape(eq + 3) && take_setting(set, k, eq + 3, bad, sizeof(bad)))
		return 0;
	if (bad[0])
		snprintf(why, len, "line %d: %s: %s", nr, line, bad);
	else
		snprintf(why, len, "line %d: %s: not a value of it: '%.64s'", nr, line, eq + 3);
	return -EINVAL;
}

int subrun_settings_read(const char *path, struct subrun_settings *set, char **text, char *why,
			 size_t len)
{
	char *line, *end;
	size_t size;
	int err = 0, nr = 0;

	*set = (struct subrun_settings){ 0 };
	err = read_text_file_max(path, SUBRUN_SETTINGS_MAX, text, &size);
	if (err) {
		snprintf(why, len, "%s", textfile_strerror(err));
		return err;
	}
	if (strlen(*text) != size) {
		snprintf(why, len, "a NUL byte in it");
		return -EINVAL;
	}
	for (line = *text; !err && *line; line = end) {
		end = line + strcspn(line, "\n");
		if (*end)
			*end++ = '\0';
		err = read_line(set, line, ++nr, why, len);
	}
	return err;
}
