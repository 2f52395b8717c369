// SPDX-License-Identifier: GPL-2.0
/*
 * compare_meta.c: what the two sets' meta gives differently beside the
 * change compared, one note each (docs/compare.md, "What else differs").
 */
#include <stdlib.h>

#include "check.h"
#include "compare_print.h"

#define M(k, v) { .key = (char *)(k), .value = (char *)(v) }
#define SET(arr) { .meta = (arr), .nr_meta = sizeof(arr) / sizeof((arr)[0]) }

/* Every difference of c as compare prints it, one per line. */
static void texts(const struct comparison *c, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->nr_diffs && n < len; i++) {
		compare_difference_text(&c->diffs[i], buf + n, len - n);
		n += strlen(buf + n);
		n += snprintf(buf + n, len - n, "\n");
	}
}

TEST(settings_machine_and_version)
{
	struct result_meta b[] = {
		M("bpfsweep", "0.1.0"), M("kernel_release", "6.18.0"), M("cpu_model", "AMD EPYC"),
		M("cpu_governor", "performance"), M("cpu_boost", "off"), M("loadavg", "0.1 0 0"),
		M("warmup", "1s"), M("duration", "5s"), M("interval", "100ms"), M("repeat", "3"),
	};
	struct result_meta n[] = {
		M("bpfsweep", "0.2.0"), M("kernel_release", "6.19.0"), M("cpu_model", "AMD EPYC"),
		M("cpu_governor", "powersave on 2 CPUs"), M("cpu_boost", "on"),
		M("loadavg", "3.0 1 1"), M("warmup", "1s"), M("duration", "1s"),
		M("interval", "100ms"), M("repeat", "3"), M("precision", "2% (...)"),
	};
	struct result_set bs = SET(b), ns = SET(n);
	struct comparison c = { .base = &bs, .new = &ns };
	char out[2048];

	CHECK_INT(compare_meta_differences(&c), 0);
	texts(&c, out, sizeof(out));
	/* not the kernel release (what is compared) nor the load average */
	CHECK_STR(out, "bpfsweep differs: base 0.1.0, new 0.2.0\n"
		  "cpu_governor differs: base performance, new powersave on 2 CPUs\n"
		  "cpu_boost differs: base off, new on\n"
		  "duration differs: base 5s, new 1s\n"
		  "precision differs: base none, new 2% (...)\n");
	free(c.diffs);
}

/* An option both configs list with other values; one listed by one set only says nothing. */
TEST(kernel_config)
{
	struct result_meta b[] = {
		M("config", "CONFIG_HZ=250"), M("config", "CONFIG_PREEMPT is not set"),
		M("config", "CONFIG_KASAN is not set"), M("config", "CONFIG_NEW_ONE=y"),
	};
	struct result_meta n[] = {
		M("config", "CONFIG_HZ=1000"), M("config", "CONFIG_PREEMPT=y"),
		M("config", "CONFIG_KASAN is not set"),
	};
	struct result_meta none[] = { M("config", "unavailable (no config file)") };
	struct result_set bs = SET(b), ns = SET(n), us = SET(none);
	struct comparison c = { .base = &bs, .new = &ns };
	char out[2048];

	CHECK_INT(compare_meta_differences(&c), 0);
	texts(&c, out, sizeof(out));
	CHECK_STR(out, "CONFIG_HZ differs: base 250, new 1000\n"
		  "CONFIG_PREEMPT differs: base not set, new y\n");
	free(c.diffs);
	c = (struct comparison){ .base = &bs, .new = &us };
	CHECK_INT(compare_meta_differences(&c), 0);
	CHECK_INT(c.nr_diffs, 0);
	free(c.diffs);
}

/* A warning on one side only; the same warning with other numbers is no difference. */
TEST(system_warnings_one_side)
{
	struct result_meta b[] = {
		M("system_warning", "load 7.0 on 2 CPUs: other work will distort the numbers"),
		M("system_warning", "virtualised: the hypervisor's exits are in the numbers"),
	};
	struct result_meta n[] = {
		M("system_warning", "load 2.5 on 2 CPUs: other work will distort the numbers"),
		M("system_warning", "CPU boost on: the clock follows temperature"),
	};
	struct result_set bs = SET(b), ns = SET(n);
	struct comparison c = { .base = &bs, .new = &ns };
	char out[2048];

	CHECK_INT(compare_meta_differences(&c), 0);
	texts(&c, out, sizeof(out));
	CHECK_STR(out, "system warning in BASE only: virtualised\n"
		  "system warning in NEW only: CPU boost on\n");
	CHECK_STR(c.diffs[0].new, "");
	free(c.diffs);
}

/* Sets of an older bpfsweep lack keys: nothing is said of what one side did not record. */
TEST(missing_keys_say_nothing)
{
	struct result_meta b[] = { M("duration", "5s"), M("cpu_model", "X") };
	struct result_meta n[] = { M("duration", "5s") };
	struct result_set bs = SET(b), ns = SET(n);
	struct comparison c = { .base = &bs, .new = &ns };

	CHECK_INT(compare_meta_differences(&c), 0);
	CHECK_INT(c.nr_diffs, 0);
	free(c.diffs);
}

RUN_TESTS(settings_machine_and_version, kernel_config, system_warnings_one_side,
	  missing_keys_say_nothing)
