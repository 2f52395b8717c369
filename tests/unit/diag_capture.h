/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Diagnostics captured into memory, for tests that compare them in full.
 * Include once per test binary.
 */
#ifndef TESTS_DIAG_CAPTURE_H
#define TESTS_DIAG_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "diag.h"

static FILE *diag_f;
static char *diag_buf;
static size_t diag_len;

/* Send diagnostics to a fresh buffer (the previous one, if any, is dropped). */
static void capture(void)
{
	if (diag_f)
		fclose(diag_f);
	free(diag_buf);
	diag_buf = NULL;
	diag_f = open_memstream(&diag_buf, &diag_len);
	diag_set_stream(diag_f);
}

/* What was printed since capture(). */
static const char *diags(void)
{
	fflush(diag_f);
	return diag_buf ? diag_buf : "";
}

__attribute__((destructor)) static void release_capture(void)
{
	diag_set_stream(NULL);
	if (diag_f)
		fclose(diag_f);
	free(diag_buf);
}

#endif
