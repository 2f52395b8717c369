// SPDX-License-Identifier: GPL-2.0
/* Run's positional argument: a spec file, a workload or an installed spec (specfind.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "specfind.h"
#include "suggest.h"
#include "workload.h"

#ifndef BPFSWEEP_DATADIR
#define BPFSWEEP_DATADIR "/usr/local/share/bpfsweep"
#endif

#define NR_SPEC_DIRS 4

/*
 * Where specs live by name: the working directory's specs/ (a checkout),
 * the one beside the binary (./bpfsweep of a checkout run from anywhere),
 * ../share/bpfsweep/specs beside it (a prefix staged by make install
 * DESTDIR=..., or moved: as the chart template is found, gnuplot.h),
 * then the installed ones.  Unused slots are "".
 */
static void spec_dirs(char dirs[NR_SPEC_DIRS][PATH_MAX])
{
	static const char *const beside[] = { "%.*s/specs", "%.*s/../share/bpfsweep/specs" };
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash = NULL;

	snprintf(dirs[0], PATH_MAX, "specs");
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
	}
	for (int i = 0; i < 2; i++) {
		dirs[1 + i][0] = '\0';
		if (slash && snprintf(dirs[1 + i], PATH_MAX, beside[i], (int)(slash - exe), exe) >=
			     PATH_MAX)
			dirs[1 + i][0] = '\0';
	}
	snprintf(dirs[3], PATH_MAX, "%s/specs", BPFSWEEP_DATADIR);
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static bool ends_with_spec(const char *s)
{
	size_t len = strlen(s);

	return len > 5 && !strcmp(s + len - 5, ".spec");
}

/* NAME or NAME.spec in one of the spec directories. */
static bool find_installed(const char *arg, char *path, size_t len)
{
	char dirs[NR_SPEC_DIRS][PATH_MAX], real[PATH_MAX];
	const char *ext = ends_with_spec(arg) ? "" : ".spec";

	if (strchr(arg, '/') || !arg[0])
		return false;
	spec_dirs(dirs);
	for (int i = 0; i < NR_SPEC_DIRS; i++) {
		if (!dirs[i][0] || (size_t)snprintf(path, len, "%s/%s%s", dirs[i], arg, ext) >= len)
			continue;
		if (!is_file(path))
			continue;
		/* ".../bin/../share/...": said as the directory it is */
		if (i == 2 && realpath(path, real) && strlen(real) < len)
			memcpy(path, real, strlen(real) + 1);
		return true;
	}
	return false;
}

#define MAX_SPEC_NAMES 256

/* Spec names (NAME of NAME.spec), each once, found in directories. */
struct spec_names {
	char name[MAX_SPEC_NAMES][NAME_MAX + 1];
	int nr;
};

static bool has_name(const struct spec_names *sn, const char *name)
{
	for (int i = 0; i < sn->nr; i++)
		if (!strcmp(sn->name[i], name))
			return true;
	return false;
}

static void add_dir_specs(struct spec_names *sn, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char name[NAME_MAX + 1];

	if (!d)
		return;
	while ((de = readdir(d)) && sn->nr < MAX_SPEC_NAMES) {
		if (!ends_with_spec(de->d_name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(strlen(de->d_name) - 5), de->d_name);
		if (!has_name(sn, name))
			snprintf(sn->name[sn->nr++], NAME_MAX + 1, "%s", name);
	}
	closedir(d);
}

/* The specs that may be given by name, sorted the way ls shows them. */
static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void installed_specs(struct spec_names *sn)
{
	char dirs[NR_SPEC_DIRS][PATH_MAX];

	spec_dirs(dirs);
	for (int i = 0; i < NR_SPEC_DIRS; i++)
		if (dirs[i][0])
			add_dir_specs(sn, dirs[i]);
	qsort(sn->name, sn->nr, sizeof(sn->name[0]), cmp_names);
}

static const char *nearest(const char *word, const struct spec_names *sn,
			   const char *const *cmds, bool workloads_too)
{
	struct suggest sg;

	suggest_init(&sg, word);
	for (int i = 0; cmds && cmds[i]; i++)
		suggest_add(&sg, cmds[i]);
	for (int i = 0; workloads_too && i < nr_workloads; i++)
		suggest_add(&sg, workloads[i]->name);
	for (int i = 0; i < sn->nr; i++)
		suggest_add(&sg, sn->name[i]);
	return suggest_best(&sg);
}

/*
 * A path ("specs/x.spec", "x.spec"): the file is missing.  The nearest spec
 * of the same directory is the hint, else the nearest installed one.
 */
static void say_no_file_in(const char *arg, struct spec_names *sn)
{
	char dir[PATH_MAX], word[NAME_MAX + 1];
	const char *slash = strrchr(arg, '/'), *base = slash ? slash + 1 : arg, *best;
	size_t len = strlen(base);

	snprintf(word, sizeof(word), "%.*s", (int)(ends_with_spec(base) ? len - 5 : len), base);
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - arg) : 1, slash ? arg : ".");
	sn->nr = 0;
	add_dir_specs(sn, dir);
	best = nearest(word, sn, NULL, false);
	if (best) {
		diag_err("%s: No such file (did you mean '%s%s%s.spec'?)", arg,
			 slash ? dir : "", slash ? "/" : "", best);
		return;
	}
	sn->nr = 0;
	installed_specs(sn);
	best = nearest(word, sn, NULL, false);
	if (best)
		diag_err("%s: No such file (did you mean the installed spec '%s'?)", arg, best);
	else
		diag_err("%s: No such file", arg);
}

/* The names are 64 KiB: on the heap; without them, the plain message. */
static void say_no_file(const char *arg)
{
	struct spec_names *sn = calloc(1, sizeof(*sn));

	if (!sn) {
		diag_err("%s: No such file", arg);
		return;
	}
	say_no_file_in(arg, sn);
	free(sn);
}

/* "a, b, c" of up to len bytes. */
static void join(char *buf, size_t len, const char *const *names, int nr)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < nr && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", names[i]);
}

/* A name: the nearest command, workload or installed spec, or what there is. */
static void say_unknown_in(const char *arg, const char *const *cmds, struct spec_names *sn)
{
	const char *wl_names[64], *spec_list[MAX_SPEC_NAMES], *best;
	char wls[1024], specs[4096];
	int nr_wl = nr_workloads < 64 ? nr_workloads : 64;

	sn->nr = 0;
	installed_specs(sn);
	best = nearest(arg, sn, cmds, true);
	if (best) {
		diag_err("'%s' is not a spec file, %sa workload or an installed spec "
			 "(did you mean '%s'?)", arg, cmds ? "a command, " : "", best);
		return;
	}
	for (int i = 0; i < nr_wl; i++)
		wl_names[i] = workloads[i]->name;
	for (int i = 0; i < sn->nr; i++)
		spec_list[i] = sn->name[i];
	join(wls, sizeof(wls), wl_names, nr_wl);
	join(specs, sizeof(specs), spec_list, sn->nr);
	diag_err("'%s' is not a spec file, %sa workload or an installed spec; workloads: %s; "
		 "installed specs: %s%s", arg, cmds ? "a command, " : "", wls,
		 sn->nr ? specs : "none", cmds ? "; commands: bpfsweep --help" : "");
}

static void say_unknown(const char *arg, const char *const *cmds)
{
	struct spec_names *sn = calloc(1, sizeof(*sn));

	if (!sn) {
		diag_err("'%s' is not a spec file, %sa workload or an installed spec", arg,
			 cmds ? "a command, " : "");
		return;
	}
	say_unknown_in(arg, cmds, sn);
	free(sn);
}

int specfind_resolve(const char *arg, const char *const *cmds, char *path, size_t len)
{
	if (!access(arg, F_OK)) {
		snprintf(path, len, "%s", arg);
		return SPEC_ARG_FILE;
	}
	if (workload_find(arg)) {
		snprintf(path, len, "%s", arg);
		return SPEC_ARG_WORKLOAD;
	}
	if (find_installed(arg, path, len))
		return SPEC_ARG_INSTALLED;
	if (strchr(arg, '/') || ends_with_spec(arg))
		say_no_file(arg);
	else
		say_unknown(arg, cmds);
	return -ENOENT;
}
