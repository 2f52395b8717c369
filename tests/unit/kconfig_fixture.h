/* SPDX-License-Identifier: GPL-2.0 */
/* A kernel config for a test, from text (include once per test binary). */
#ifndef TESTS_KCONFIG_FIXTURE_H
#define TESTS_KCONFIG_FIXTURE_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kconfig.h"

/* text written to a temporary file and read back as a config (NULL on failure). */
static struct kconfig *config_of(const char *text)
{
	char path[] = "/tmp/test_kconfig_fixture.XXXXXX";
	struct kconfig *kc = NULL;
	int fd = mkstemp(path);

	if (fd < 0)
		return NULL;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text) || kconfig_open(path, &kc))
		kc = NULL;
	close(fd);
	unlink(path);
	return kc;
}

#endif
