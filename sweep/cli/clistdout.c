// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a command has said that standard output failed (cli.h): main's
 * last check of stdout reads it, and commands in the library set it, so it
 * lives here rather than in main.c, which the test binaries do not link.
 */
#include <stdbool.h>

#include "cli.h"

static bool said;

void cli_stdout_failure_said(void)
{
	said = true;
}

bool cli_stdout_failure_was_said(void)
{
	return said;
}
