// SPDX-License-Identifier: GPL-2.0
/*
 * A point's profiles as files, written after its repetitions and read back
 * summed over them: see profiles.h and docs/profile.md.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "growarray.h"
#include "heldir.h"
#include "matrix.h"
#include "profiles.h"
#include "resultdir.h"
#include "satmath.h"
#include "symname.h"
#include "textfile.h"

struct top_ctx {
	const struct sweep_cfg *cfg;
	const struct point_result *pr;
	const struct rep_profile *rp;
};

static int fill_folded(FILE *f, const void *ctx)
{
	const struct top_ctx *t = ctx;

	return folded_write(f, &t->rp->folded);
}

/* A header that ties the table to its point, then the table. */
static int fill_top(FILE *f, const void *ctx)
{
	const struct top_ctx *t = ctx;
	const struct rep_profile *rp = t->rp;
	char name[256];

	point_name(t->cfg, t->pr->pt, name, sizeof(name));
	fprintf(f, "# point %d (%s), repetition %d: %" PRIu64 " samples at %d Hz "
		"(cpu-clock, the measured intervals only), %" PRIu64 " lost\n",
		t->pr->pt->id, name, rp->rep, rp->samples, t->cfg->profile_hz, rp->lost);
	if (rp->why[0])
		fprintf(f, "# %s\n", rp->why);
	fprintf(f, "# self: samples with the symbol as the leaf; total: with it anywhere in "
		"the stack\n");
	return folded_write_top(f, &rp->folded, 1, PROFILES_TOP_N);
}

static int write_rep(const char *pdir, const struct top_ctx *t)
{
	char name[64];
	int err;

	snprintf(name, sizeof(name), "%d-r%d.folded", t->pr->pt->id, t->rp->rep);
	err = resultdir_write_file(pdir, name, true, fill_folded, t);
	if (err)
		return err;
	snprintf(name, sizeof(name), "%d-r%d.top", t->pr->pt->id, t->rp->rep);
	return resultdir_write_file(pdir, name, true, fill_top, t);
}

static bool any_profile(const struct point_result *pr)
{
	for (int i = 0; i < pr->nr_prof; i++)
		if (!pr->prof[i].err)
			return true;
	return false;
}

int profiles_write(const char *dir, const struct sweep_cfg *cfg, const struct point_result *pr)
{
	char pdir[4200];
	int err = 0;

	if (!cfg->profile || !any_profile(pr))
		return 0;
	snprintf(pdir, sizeof(pdir), "%s/" PROFILES_DIR, dir);
	err = heldir_mkdir(pdir, 0755);	/* beneath the run's held directory */
	if (err && err != -EEXIST)
		return err;
	err = 0;
	for (int i = 0; !err && i < pr->nr_prof; i++) {
		const struct top_ctx t = { .cfg = cfg, .pr = pr, .rp = &pr->prof[i] };

		if (!pr->prof[i].err)
			err = write_rep(pdir, &t);
	}
	return err ?: resultdir_sync(dir);
}

bool profiles_sum(const struct point_result *pr, uint64_t *samples, uint64_t *lost,
		  char *status, size_t len)
{
	bool said = false;

	*samples = *lost = 0;
	snprintf(status, len, "ok");
	for (int i = 0; i < pr->nr_prof; i++) {
		const struct rep_profile *rp = &pr->prof[i];

		*samples = sat_add_u64(*samples, rp->samples);
		*lost = sat_add_u64(*lost, rp->lost);
		if (rp->why[0] && !said)
			snprintf(status, len, "%s%s", rp->err ? "unsupported: " : "", rp->why);
		said |= rp->why[0] != '\0';
	}
	return pr->nr_prof > 0;
}

/*
 * Is name "<point>-r<rep>.<ext>", spelled as profiles_write() spells it
 * (no sign, no leading zero)?  *point gets its point.
 */
static bool profile_name(const char *name, const char *ext, long long *point)
{
	char want[80];
	int rep;

	if (sscanf(name, "%lld-r%d.", point, &rep) != 2 || *point < 0 || rep < 0)
		return false;
	snprintf(want, sizeof(want), "%lld-r%d.%s", *point, rep, ext);
	return !strcmp(want, name);
}

static bool folded_of(const char *name, long long point)
{
	long long pt;

	return profile_name(name, "folded", &pt) && pt == point;
}

/*
 * dir/profiles as a directory stream, opened beneath dir's held descriptor
 * (heldir.h: a run's own directory, or one a reader locked), so that a
 * directory renamed away or a symlink put at dir's path mid-read is not
 * what is listed; its files are read beneath the same descriptor
 * (read_text_file_max() opens through heldir.h).  pdir gets the path.
 * NULL with errno set (ENOENT: no profiles).
 */
static DIR *open_profiles(const char *dir, char *pdir, size_t len)
{
	int fd;
	DIR *d;

	snprintf(pdir, len, "%s/" PROFILES_DIR, dir);
	fd = heldir_open_dir(pdir);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		int saved = errno;

		close(fd);
		errno = saved;
	}
	return d;
}

/* pdir/name parsed and added to sum; 0 or -errno, why saying which file and line. */
static int add_file(const char *pdir, const char *name, struct folded *sum, char *why,
		    size_t why_len)
{
	char path[4500], line_why[128];
	struct folded one;
	size_t len;
	char *text;
	int err;

	snprintf(path, sizeof(path), "%s/%s", pdir, name);
	err = read_text_file_max(path, PROFILES_MAX_FILE, &text, &len);
	if (err) {
		snprintf(why, why_len, PROFILES_DIR "/%s: %s", name, textfile_strerror(err));
		return err;
	}
	err = folded_parse(text, len, &one, line_why, sizeof(line_why));
	free(text);
	if (err) {
		snprintf(why, why_len, PROFILES_DIR "/%s: %s", name, line_why);
		return err;
	}
	for (int i = 0; !err && i < one.nr; i++)
		err = folded_add(sum, one.l[i].stack, one.l[i].count);
	folded_free(&one);
	/* each file's total is below 2^63 (folded_parse()); theirs must be too */
	if (!err && sum->total > INT64_MAX) {
		snprintf(why, why_len, PROFILES_DIR "/%s: the repetitions' samples add up past "
			 "2^63 - 1", name);
		err = -EOVERFLOW;
	}
	return err;
}

int profiles_sum_point(const char *dir, long long point, struct folded *sum, int *reps,
		       char *why, size_t why_len)
{
	char pdir[4200];
	struct dirent *e;
	DIR *d;
	int err = 0;

	*sum = (struct folded){ 0 };
	*reps = 0;
	why[0] = '\0';
	d = open_profiles(dir, pdir, sizeof(pdir));
	if (!d)
		return errno == ENOENT ? -ENOENT : -errno;
	while (!err && (e = readdir(d)))
		if (folded_of(e->d_name, point)) {
			err = add_file(pdir, e->d_name, sum, why, why_len);
			*reps += !err;
		}
	closedir(d);
	if (!err && !*reps)
		err = -ENOENT;
	if (err)
		folded_free(sum);
	return err;
}

int profiles_read_point(const char *dir, long long point, struct folded *sum, int *reps,
			char *why, size_t why_len)
{
	int err = profiles_sum_point(dir, point, sum, reps, why, why_len);

	if (!err)
		folded_untag(sum);
	return err;
}

int profiles_top_of_point(const char *dir, long long point, struct profile_top *top)
{
	struct folded sum;
	char why[256];
	int err = profiles_read_point(dir, point, &sum, &top->reps, why, sizeof(why));

	*top = (struct profile_top){ .reps = top->reps };
	if (err)
		return err;
	top->samples = sum.total;
	err = folded_shares(&sum, 1, &top->sym, &top->nr);
	folded_free(&sum);
	return err;
}

void profile_top_free(struct profile_top *top)
{
	sym_shares_free(top->sym, top->nr);
	*top = (struct profile_top){ 0 };
}

/* Is name "<point>.svg", spelled as PROFILES_FLAME_NAME spells it? */
static bool flame_name(const char *name)
{
	char want[40];
	long long pt;

	if (sscanf(name, "%lld.", &pt) != 1 || pt < 0)
		return false;
	snprintf(want, sizeof(want), PROFILES_FLAME_NAME, pt);
	return !strcmp(want, name);
}

/* A file of a point's profile: "<point>-r<rep>.folded", ".top" or its flame graph. */
static bool profile_file(const char *name)
{
	long long pt;

	return profile_name(name, "folded", &pt) || profile_name(name, "top", &pt) ||
	       flame_name(name);
}

static int by_point(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* points[0..nr) sorted, each point once (a point has a file per repetition); how many. */
static int sort_unique(long long *points, int nr)
{
	int kept = 0;

	qsort(points, nr, sizeof(*points), by_point);
	for (int i = 0; i < nr; i++)
		if (!kept || points[kept - 1] != points[i])
			points[kept++] = points[i];
	return kept;
}

int profiles_points(const char *dir, long long **points)
{
	char pdir[4200];
	struct dirent *e;
	int nr = 0, err = 0;
	long long pt;
	DIR *d;

	*points = NULL;
	d = open_profiles(dir, pdir, sizeof(pdir));
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!err && (e = readdir(d)))
		if (profile_name(e->d_name, "folded", &pt) && !(err = ARRAY_ROOM(*points, nr)))
			(*points)[nr++] = pt;
	closedir(d);
	if (err) {
		free(*points);
		*points = NULL;
		return err;
	}
	return sort_unique(*points, nr);
}

static int copy_file(const char *from, const char *to, const char *name)
{
	char path[4500], *text;
	size_t len;
	int err;

	snprintf(path, sizeof(path), "%s/%s", from, name);
	err = read_text_file_max(path, PROFILES_MAX_FILE, &text, &len);
	if (err)
		return err;
	err = resultdir_put_file(to, name, text, len, false);
	free(text);
	return err;
}

int profiles_copy(const char *from_dir, const char *to_dir)
{
	char from[4200], to[4200];
	struct dirent *e;
	DIR *d;
	int err;

	snprintf(to, sizeof(to), "%s/" PROFILES_DIR, to_dir);
	d = open_profiles(from_dir, from, sizeof(from));
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	err = heldir_mkdir(to, 0755);
	while (!err && (e = readdir(d)))
		if (profile_file(e->d_name))
			err = copy_file(from, to, e->d_name);
	closedir(d);
	return err;
}
