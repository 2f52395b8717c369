// SPDX-License-Identifier: GPL-2.0
/*
 * Profiles read back from a result directory: BPF programs' tags dropped
 * (symname.c), a point's repetitions summed (profiles.c) with exact
 * shares, and report --profile's lines under a row (profilerows.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "heldir.h"
#include "profilerows.h"
#include "profiles.h"
#include "symname.h"

static char tmpdir[64];

/* text as tmpdir/profiles/name. */
static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/" PROFILES_DIR "/%s", tmpdir, name);
	f = fopen(path, "w");
	CHECK(f);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static void rm(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/" PROFILES_DIR "/%s", tmpdir, name);
	unlink(path);
}

/* A result directory with profiles of point 3 (two repetitions) and a decoy of point 13. */
static int make_dir(void)
{
	char path[128];

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_profiles.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(path, sizeof(path), "%s/" PROFILES_DIR, tmpdir);
	if (mkdir(path, 0755))
		return -1;
	put("3-r0.folded", "bpfsweep;sys;bpf_prog_34a21376cd98fc2a_csum_run;csum_partial 30\n"
			   "bpfsweep;[user] 10\n");
	put("3-r1.folded", "bpfsweep;sys;bpf_prog_0123456789abcdef_csum_run;csum_partial 20\n"
			   "bpfsweep;sys;bpf_prog_0123456789abcdef_csum_run 15\n"
			   "cc1;[user] 25\n");
	put("13-r0.folded", "other;x 1000\n");
	put("3-r1.folded.tmp", "other;x 1000\n");
	put("03-r2.folded", "other;x 1000\n");
	return 0;
}

static void remove_dir(void)
{
	char path[128];

	rm("3-r0.folded");
	rm("3-r1.folded");
	rm("13-r0.folded");
	rm("3-r1.folded.tmp");
	rm("03-r2.folded");
	rm("4-r0.folded");
	snprintf(path, sizeof(path), "%s/" PROFILES_DIR, tmpdir);
	rmdir(path);
	rmdir(tmpdir);
}

TEST(untag_drops_bpf_tags_and_merges)
{
	struct folded f = { 0 };
	char buf[16];

	CHECK_INT(folded_add(&f, "t;bpf_prog_34a21376cd98fc2a_run;leaf", 2), 0);
	CHECK_INT(folded_add(&f, "t;bpf_prog_0123456789ABCDEF_run;leaf", 3), 0);
	/* not a tag: 15 digits, or no name after it */
	CHECK_INT(folded_add(&f, "t;bpf_prog_0123456789abcde_run", 1), 0);
	CHECK_INT(folded_add(&f, "bpf_prog_0123456789abcdef_", 1), 0);
	folded_untag(&f);
	CHECK_INT(f.nr, 3);
	CHECK_STR(f.l[0].stack, "bpf_prog_0123456789abcdef_");
	CHECK_STR(f.l[1].stack, "t;bpf_prog_0123456789abcde_run");
	CHECK_STR(f.l[2].stack, "t;bpf_prog_run;leaf");
	CHECK_INT(f.l[2].count, 5);
	CHECK_INT(f.total, 7);
	folded_free(&f);
	CHECK_STR(sym_short("csum_partial", 12, buf, sizeof(buf)), "csum_partial");
	CHECK_STR(sym_short("csum_partial", 8, buf, sizeof(buf)), "csum_...");
}

TEST(point_profile_summed_over_repetitions)
{
	struct profile_top t;
	struct folded sum;
	char why[256];
	int reps;

	CHECK_INT(make_dir(), 0);
	CHECK_INT(profiles_read_point(tmpdir, 3, &sum, &reps, why, sizeof(why)), 0);
	CHECK_INT(reps, 2);
	CHECK_INT(sum.total, 100);
	CHECK_INT(sum.nr, 4);
	CHECK_STR(sum.l[1].stack, "bpfsweep;sys;bpf_prog_csum_run");
	CHECK_STR(sum.l[2].stack, "bpfsweep;sys;bpf_prog_csum_run;csum_partial");
	CHECK_INT(sum.l[2].count, 50);
	folded_free(&sum);

	CHECK_INT(profiles_top_of_point(tmpdir, 3, &t), 0);
	CHECK_INT(t.samples, 100);
	CHECK_INT(t.reps, 2);
	CHECK_INT(t.nr, 4);
	CHECK_STR(t.sym[0].name, "csum_partial");
	CHECK_INT(t.sym[0].self, 50);
	CHECK_STR(t.sym[1].name, "[user]");
	CHECK_INT(t.sym[1].self, 35);
	CHECK_STR(t.sym[2].name, "bpf_prog_csum_run");
	CHECK_INT(t.sym[2].self, 15);
	CHECK_INT(t.sym[2].total, 65);
	profile_top_free(&t);

	CHECK_INT(profiles_top_of_point(tmpdir, 4, &t), -ENOENT);
	put("4-r0.folded", "a;b 1\n;c 2\n");
	CHECK_INT(profiles_read_point(tmpdir, 4, &sum, &reps, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "profiles/4-r0.folded: line 2: an empty frame");
	CHECK_INT(profiles_top_of_point("/nonexistent", 3, &t), -ENOENT);
	remove_dir();
}

TEST(report_rows_show_top_symbols)
{
	struct view_row rows[2] = { { .id = 3, .status = PS_OK }, { .id = 4, .status = PS_OK } };
	struct result_view v = { .rows = rows, .nr_rows = 2 };
	struct result_view *views[] = { &v };
	const char *dirs[] = { tmpdir };
	struct profile_rows *pr;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	CHECK_INT(make_dir(), 0);
	out = open_memstream(&buf, &len);
	CHECK(out);
	pr = profile_rows_attach(views, dirs, 1, out);
	CHECK(pr && v.under_row);
	v.under_row(out, &rows[0], 4, v.under_ctx);
	/* point 4 has none: nothing */
	v.under_row(out, &rows[1], 4, v.under_ctx);
	/* another stream (table.txt): nothing either */
	v.under_row(stderr, &rows[0], 4, v.under_ctx);
	fclose(out);
	CHECK_STR(buf, "    profile: 100 samples of 2 repetitions, self share\n"
		       "      50.0%  csum_partial\n"
		       "      35.0%  [user]\n"
		       "      15.0%  bpf_prog_csum_run\n");
	free(buf);
	profile_rows_free(pr);
	remove_dir();
}

/* A merge keeps the profile files, and only those. */
TEST(profiles_copied_into_a_merged_run)
{
	char to[128], path[256];
	struct profile_top t;
	struct stat st;

	CHECK_INT(make_dir(), 0);
	snprintf(to, sizeof(to), "%s/runs-1", tmpdir);
	CHECK_INT(mkdir(to, 0755), 0);
	put("3-r0.top", "# top\n");
	put("3.svg", "<svg/>\n");	/* the point's flame graph */
	put("03.svg", "<svg/>\n");
	CHECK_INT(profiles_copy(tmpdir, to), 0);
	CHECK_INT(profiles_top_of_point(to, 3, &t), 0);
	CHECK_INT(t.samples, 100);
	CHECK_INT(t.reps, 2);
	profile_top_free(&t);
	snprintf(path, sizeof(path), "%s/" PROFILES_DIR "/3-r0.top", to);
	CHECK_INT(stat(path, &st), 0);
	/* not a profile's name: left behind */
	snprintf(path, sizeof(path), "%s/" PROFILES_DIR "/3-r1.folded.tmp", to);
	CHECK(stat(path, &st) && errno == ENOENT);
	snprintf(path, sizeof(path), "%s/" PROFILES_DIR "/03-r2.folded", to);
	CHECK(stat(path, &st) && errno == ENOENT);
	snprintf(path, sizeof(path), "%s/" PROFILES_DIR "/03.svg", to);
	CHECK(stat(path, &st) && errno == ENOENT);
	/* a run without profiles: nothing made */
	CHECK_INT(profiles_copy("/nonexistent", to), 0);
	for (const char *const *n = (const char *const[]){ "3-r0.folded", "3-r1.folded",
		"3-r0.top", "13-r0.folded", "3.svg", NULL }; *n; n++) {
		snprintf(path, sizeof(path), "%s/" PROFILES_DIR "/%s", to, *n);
		CHECK_INT(unlink(path), 0);
	}
	snprintf(path, sizeof(path), "%s/" PROFILES_DIR, to);
	CHECK_INT(rmdir(path), 0);
	CHECK_INT(rmdir(to), 0);
	rm("3-r0.top");
	rm("3.svg");
	rm("03.svg");
	remove_dir();
}

TEST(points_with_a_profile_listed)
{
	long long *points;

	CHECK_INT(make_dir(), 0);
	/* 3-r0, 3-r1 and 13-r0 are profiles' names; 03-r2 and 3-r1.folded.tmp are not */
	CHECK_INT(profiles_points(tmpdir, &points), 2);
	CHECK_INT(points[0], 3);
	CHECK_INT(points[1], 13);
	free(points);
	remove_dir();
	CHECK_INT(profiles_points("/nonexistent", &points), 0);
	CHECK(!points);
}

/*
 * A held result directory's profiles are read beneath its descriptor: after
 * the directory is renamed away and a symlink to another set put at its
 * path, its points and stacks are still the held set's (opendir() of the
 * path read the other set's).
 */
TEST(profiles_read_beneath_the_held_directory)
{
	char set[96], moved[160], path[192], why[256];
	long long *points;
	struct folded sum;
	int reps;
	FILE *f;

	CHECK_INT(make_dir(), 0);	/* point 3 (two repetitions) and point 13 */
	snprintf(set, sizeof(set), "%s/set", tmpdir);
	CHECK_INT(mkdir(set, 0755), 0);
	snprintf(path, sizeof(path), "%s/" PROFILES_DIR, tmpdir);
	snprintf(moved, sizeof(moved), "%s/" PROFILES_DIR, set);
	CHECK_INT(rename(path, moved), 0);
	snprintf(path, sizeof(path), "%s/other", tmpdir);
	CHECK_INT(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/other/" PROFILES_DIR, tmpdir);
	CHECK_INT(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/other/" PROFILES_DIR "/5-r0.folded", tmpdir);
	f = fopen(path, "w");
	CHECK(f);
	if (f) {
		fputs("decoy;y 7\n", f);
		fclose(f);
	}
	CHECK_INT(heldir_hold(set), 0);
	snprintf(moved, sizeof(moved), "%s/moved", tmpdir);
	CHECK_INT(rename(set, moved), 0);
	CHECK_INT(symlink("other", set), 0);
	CHECK_INT(profiles_points(set, &points), 2);
	CHECK_INT(points ? points[0] : -1, 3);
	free(points);
	CHECK_INT(profiles_sum_point(set, 3, &sum, &reps, why, sizeof(why)), 0);
	CHECK_INT(reps, 2);
	CHECK_INT(sum.total, 100);
	folded_free(&sum);
	CHECK_INT(profiles_sum_point(set, 5, &sum, &reps, why, sizeof(why)), -ENOENT);
	heldir_release(set);
	/* released: the path is a path again, the other set's */
	CHECK_INT(profiles_points(set, &points), 1);
	CHECK_INT(points ? points[0] : -1, 5);
	free(points);
	CHECK_INT(heldir_remove_tree(tmpdir), 0);
}

/*
 * Repetitions whose samples, each file's below 2^63, add up past 2^63 - 1
 * (a hostile or corrupt set: a profile has thousands): refused, naming a
 * file, rather than summed into a total that wrapped ("self share 200.0%").
 */
TEST(repetitions_that_add_up_past_the_limit_refused)
{
	struct profile_top t;
	struct folded sum;
	char why[256];
	int reps;

	CHECK_INT(make_dir(), 0);
	put("4-r0.folded", "t;a 9223372036854775807\n");
	put("4-r1.folded", "t;a 9223372036854775807\n");
	put("4-r2.folded", "t;b 9223372036854775807\n");
	CHECK_INT(profiles_read_point(tmpdir, 4, &sum, &reps, why, sizeof(why)), -EOVERFLOW);
	CHECK(!strncmp(why, "profiles/4-r", 12));
	CHECK(strstr(why, ".folded: the repetitions' samples add up past 2^63 - 1"));
	CHECK_INT(profiles_top_of_point(tmpdir, 4, &t), -EOVERFLOW);
	rm("4-r1.folded");
	rm("4-r2.folded");
	remove_dir();
}

RUN_TESTS(untag_drops_bpf_tags_and_merges, point_profile_summed_over_repetitions,
	  report_rows_show_top_symbols, profiles_copied_into_a_merged_run,
	  points_with_a_profile_listed, profiles_read_beneath_the_held_directory,
	  repetitions_that_add_up_past_the_limit_refused)
