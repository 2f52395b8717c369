// SPDX-License-Identifier: GPL-2.0
/*
 * A sub-run's command line and settings (subrun.c): its argv is the spec,
 * the settings file and where it writes, no option of the sweep; the
 * settings file read back gives the settings written, a resumed sub-run's
 * without tags; a file that is not one is refused with its line.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "resultdir.h"
#include "subrun.h"

/* The argv joined with spaces, for whole-line comparisons. */
static const char *joined(const struct subrun_argv *a)
{
	static char buf[2048];
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < a->n && off < sizeof(buf); i++)
		off += snprintf(buf + off, sizeof(buf) - off, "%s%s", i ? " " : "", a->argv[i]);
	return buf;
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether set round-trips through a file in dir: written, read back field by field. */
static bool round_trips(const char *dir, const struct subrun_settings *set)
{
	struct subrun_settings got;
	char path[PATH_MAX], why[256], *text = NULL;
	bool same;

	if (subrun_settings_write(dir, "1.settings", set, path, sizeof(path)) ||
	    subrun_settings_read(path, &got, &text, why, sizeof(why))) {
		free(text);
		return false;
	}
	same = got.quick == set->quick && same_text(got.quick_keeps, set->quick_keeps) &&
	       same_text(got.only, set->only) &&
	       got.nr_tags == set->nr_tags &&
	       same_text(got.guest_of, set->guest_of) &&
	       same_text(got.guest_accel, set->guest_accel) &&
	       same_text(got.guest_accel_reason, set->guest_accel_reason) &&
	       got.shard.index == set->shard.index && got.shard.count == set->shard.count &&
	       same_text(got.fail_all, set->fail_all) && got.no_plots == set->no_plots &&
	       same_text(got.place.name, set->place.name) &&
	       same_text(got.place.kernel_release, set->place.kernel_release) &&
	       same_text(got.place.arch, set->place.arch) &&
	       same_text(got.place.cpu_model, set->place.cpu_model) &&
	       same_text(got.place.nproc, set->place.nproc) &&
	       !got.tags[got.nr_tags];
	for (int i = 0; same && i < set->nr_tags; i++)
		same = !strcmp(got.tags[i], set->tags[i]);
	same = same && got.nr_quiet == set->nr_quiet;
	for (int i = 0; same && i < set->nr_quiet; i++)
		same = !strcmp(got.quiet[i], set->quiet[i]);
	free(text);
	return same;
}

static char *tmpdir(void)
{
	static char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/test_subrun.XXXXXX");
	return mkdtemp(dir);
}

TEST(kernel_settings_round_trip)
{
	const char *tags[] = { "machine=a", "note=x = y", NULL };
	struct subrun s = { .self = "/b/bpfsweep", .spec_path = "/s/x.spec", .quick = true,
			    .only = "first block", .tags = tags, .nr_tags = 2 };
	struct subrun_settings set;
	char *dir = tmpdir();

	CHECK(dir);
	subrun_kernel_settings(&s, "/k/bzImage", "tcg", "no /dev/kvm", false, &set);
	CHECK(set.quick && set.no_plots);
	CHECK_INT(set.nr_tags, 2);
	CHECK_STR(set.guest_of, "/k/bzImage");
	/* a reason of several lines, with backslashes: one setting still */
	set.fail_all = "it did not boot:\n\\n is no newline\n";
	CHECK(round_trips(dir, &set));
	set.shard = (struct shard){ .index = 2, .count = 3 };
	CHECK(round_trips(dir, &set));
	set.quick_keeps = "duration interval";
	CHECK(round_trips(dir, &set));
	set.quick = false;
	set.quick_keeps = NULL;
	set.only = NULL;
	CHECK(round_trips(dir, &set));
	/* a fleet host's failed rows: its probed facts ride along, one unknown */
	set.place = (struct told_host){ .name = "10.0.0.2", .kernel_release = "6.1.0",
					.arch = "aarch64", .cpu_model = "Neoverse-N1 \\ r3p1" };
	CHECK(round_trips(dir, &set));
	resultdir_remove_tree(dir);
}

/* --quiet-warning reaches every sub-run, a resumed one too: it is about printing only. */
TEST(quiet_warnings_ride_along)
{
	const char *quiet[] = { "virtualised", "load" };
	struct subrun s = { .self = "/b/bpfsweep", .spec_path = "/s/x.spec", .quiet = quiet,
			    .nr_quiet = 2 };
	struct subrun_settings set;
	char *dir = tmpdir();

	CHECK(dir);
	subrun_kernel_settings(&s, "host", NULL, NULL, true, &set);
	CHECK_INT(set.nr_quiet, 2);
	CHECK_STR(set.quiet[1], "load");
	subrun_place_settings(&s, &(struct shard){ .count = 0 }, false, &set);
	CHECK_INT(set.nr_quiet, 2);
	CHECK(round_trips(dir, &set));
	resultdir_remove_tree(dir);
}

TEST(resumed_sub_run_keeps_its_own_tags)
{
	const char *tags[] = { "a=b", NULL };
	struct subrun s = { .self = "/b/bpfsweep", .spec_path = "/s/x.spec", .tags = tags,
			    .nr_tags = 1 };
	struct subrun_settings set;
	const struct shard sh = { .index = 1, .count = 2 };

	subrun_kernel_settings(&s, "host", NULL, "ignored without an accel", true, &set);
	CHECK_INT(set.nr_tags, 0);
	CHECK(set.guest_accel_reason == NULL);
	subrun_place_settings(&s, &sh, false, &set);
	CHECK_INT(set.nr_tags, 1);
	CHECK(set.guest_of == NULL);
	CHECK_INT(set.shard.count, 2);
}

/*
 * The timing a sweep's --set gave rides with its quick, which would
 * otherwise put --quick's back over the resolved spec's; without quick it
 * means nothing and is not written.
 */
TEST(quick_keeps_the_sets_timing)
{
	struct subrun s = { .self = "/b/bpfsweep", .spec_path = "/s/x.spec", .quick = true,
			    .quick_keeps = "warmup duration" };
	struct subrun_settings set;

	subrun_kernel_settings(&s, "host", NULL, NULL, false, &set);
	CHECK(set.quick);
	CHECK_STR(set.quick_keeps, "warmup duration");
	s.quick = false;
	subrun_place_settings(&s, &(struct shard){ .count = 0 }, false, &set);
	CHECK(!set.quick && set.quick_keeps == NULL);
}

TEST(argv_has_no_option_words)
{
	struct subrun_argv a;

	subrun_argv("/b/bpfsweep", "/s/x.spec", "/o/subrun/1.settings", "OUT/runs/1", false, &a);
	CHECK_STR(joined(&a), "/b/bpfsweep run /s/x.spec --subrun /o/subrun/1.settings "
		  "-o OUT/runs/1");
	CHECK(a.argv[a.n] == NULL);
	CHECK_STR(a.argv[SUBRUN_ARGV_SPEC], "/s/x.spec");
	CHECK_STR(a.argv[SUBRUN_ARGV_SETTINGS], "/o/subrun/1.settings");
	subrun_argv("/b/bpfsweep", "/s/x.spec", "/o/s", "/run/r", true, &a);
	CHECK_INT(a.n, 7);
	/* where it writes is the only option besides the settings file */
	for (int i = 0; i < a.n; i++)
		if (a.argv[i][0] == '-')
			CHECK(!strcmp(a.argv[i], "--subrun") || !strcmp(a.argv[i], "--resume"));
}

/* The text as a settings file, read: 0 or the error, with why. */
static int read_text(const char *dir, const char *text, char *why, size_t len)
{
	struct subrun_settings set;
	char path[PATH_MAX], *got = NULL;
	int err;

	snprintf(path, sizeof(path), "%s/bad.settings", dir);
	if (resultdir_put_file(dir, "bad.settings", text, strlen(text), true))
		return -EIO;
	err = subrun_settings_read(path, &set, &got, why, len);
	free(got);
	return err;
}

TEST(not_a_settings_file)
{
	char why[256], *dir = tmpdir();

	CHECK(dir);
	CHECK_INT(read_text(dir, "# c\nquick = yes\n\nonly = x\n", why, sizeof(why)), 0);
	CHECK_INT(read_text(dir, "quick = yes\nverbose = yes\n", why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "line 2: unknown setting 'verbose'");
	CHECK_INT(read_text(dir, "quick = no\n", why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "line 1: quick: not a value of it: 'no'");
	CHECK_INT(read_text(dir, "fail-all = a\\tb\n", why, sizeof(why)), -EINVAL);
	CHECK_INT(read_text(dir, "tag = novalue\n", why, sizeof(why)), -EINVAL);
	CHECK_INT(read_text(dir, "kernel = /k/bzImage\n", why, sizeof(why)), -EINVAL);
	CHECK_INT(read_text(dir, "shard = 3/2\n", why, sizeof(why)), -EINVAL);
	CHECK(!strncmp(why, "line 1: shard: ", 15));
	CHECK_INT(read_text(dir, "quick\n", why, sizeof(why)), -EINVAL);
	resultdir_remove_tree(dir);
}

TEST(argv_is_bounded)
{
	struct subrun_argv a = { .n = 0 };

	for (int i = 0; i < SUBRUN_MAX_ARGS + 10; i++)
		subrun_arg(&a, "x");
	CHECK_INT(a.n, SUBRUN_MAX_ARGS);
	CHECK(a.argv[SUBRUN_MAX_ARGS] == NULL);
}

RUN_TESTS(kernel_settings_round_trip, quiet_warnings_ride_along,
	  resumed_sub_run_keeps_its_own_tags, quick_keeps_the_sets_timing,
	  argv_has_no_option_words, not_a_settings_file, argv_is_bounded)
