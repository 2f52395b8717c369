// SPDX-License-Identifier: GPL-2.0
/* kfacts.c: the cause an EPERM load reason gets, from given lockdown and config. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "kconfig_fixture.h"
#include "kfacts.h"


static const char *const fentry_needs[] = { "CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS", NULL };
static const char *const kprobe_needs[] = { "CONFIG_KPROBES", "CONFIG_KPROBE_EVENTS", NULL };

TEST(lockdown_first)
{
	struct kconfig *kc = config_of("# CONFIG_KPROBES is not set\n");
	char buf[256];

	CHECK(kc);
	CHECK_INT(kfacts_eperm_cause("integrity", kc, kprobe_needs, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "kernel lockdown is 'integrity'; try it on another kernel in a VM: "
		  "--kernel IMAGE (docs/kernel.md)");
	CHECK_INT(kfacts_eperm_cause("confidentiality", NULL, NULL, buf, sizeof(buf)), 1);
	CHECK(!strncmp(buf, "kernel lockdown is 'confidentiality'; ", 38));
	kconfig_free(kc);
}

TEST(missing_option)
{
	struct kconfig *kc = config_of("CONFIG_KPROBES=y\nCONFIG_KPROBE_EVENTS=m\n"
				       "# CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS is not set\n");
	char buf[256];

	CHECK(kc);
	CHECK_INT(kfacts_eperm_cause("none", kc, fentry_needs, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "kernel built without CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS; try it on "
		  "another kernel in a VM: --kernel IMAGE (docs/kernel.md)");
	/* =m is not built in: the first option not y is named */
	CHECK_INT(kfacts_eperm_cause("unavailable", kc, kprobe_needs, buf, sizeof(buf)), 1);
	CHECK(!strncmp(buf, "kernel built without CONFIG_KPROBE_EVENTS; ", 43));
	kconfig_free(kc);
}

/* Nothing known that refuses the load: no cause is made up. */
TEST(no_cause)
{
	struct kconfig *kc = config_of("CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y\n");
	char buf[256] = "stale";

	CHECK(kc);
	CHECK_INT(kfacts_eperm_cause("none", kc, fentry_needs, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
	CHECK_INT(kfacts_eperm_cause("unavailable", NULL, fentry_needs, buf, sizeof(buf)), 0);
	CHECK_INT(kfacts_eperm_cause(NULL, kc, NULL, buf, sizeof(buf)), 0);
	kconfig_free(kc);
}

/* A reason stays one line however short the buffer. */
TEST(short_buffer)
{
	char buf[16];

	CHECK_INT(kfacts_eperm_cause("integrity", NULL, NULL, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "kernel lockdown");
}

RUN_TESTS(lockdown_first, missing_option, no_cause, short_buffer)
