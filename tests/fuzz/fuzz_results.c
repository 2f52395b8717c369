// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: result files as report, compare, merge and --resume
 * read them (results_read()), and the CSV parser under them.  An input is
 * a summary.csv, optionally followed by a line "%%" and a samples.csv:
 *
 *	exp,point,experiment,producers,status,...
 *	0,0,count,1,ok,...
 *	%%
 *	point,experiment,rep,interval,warmup,elapsed_ns,hits
 *	0,count,0,0,0,250000000,10
 *
 * The two are written into a directory of the process's own for each
 * input.  Built with -fsanitize=fuzzer,address,undefined (make fuzz); run
 * by tests/fuzz/run.sh results.
 */
#define _GNU_SOURCE	/* memmem */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvfile.h"
#include "results_read.h"

static char dir[] = "/tmp/fuzz_results_XXXXXX";

/* dir/name holds len bytes of data, or is absent when data is NULL. */
static int put_file(const char *name, const char *data, size_t len)
{
	char path[sizeof(dir) + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	if (!data)
		return 0;
	f = fopen(path, "w");
	if (!f)
		return -1;
	fwrite(data, 1, len, f);
	return fclose(f);
}

/* What the renderers ask of a set: every row's statistics of every metric. */
static void use(const struct result_set *rs)
{
	for (int r = 1; r < rs->summary.nr_rows; r++)
		for (int c = 0; c < rs->summary.nr_cols; c++) {
			char metric[128];
			bool gauge;

			if (result_mean_column(rs, rs->summary.rows[0][c], metric, sizeof(metric),
					       &gauge))
				result_summary_stat(rs, r, metric, "mean");
		}
}

static void remove_dir(void)
{
	put_file("summary.csv", NULL, 0);
	put_file("samples.csv", NULL, 0);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *sep;
	size_t summary_len = size;
	struct result_set *rs;
	static bool made;
	char why[512];

	if (!made) {
		if (!mkdtemp(dir))
			abort();
		atexit(remove_dir);
		made = true;
	}
	sep = memmem(text, size, "\n%%\n", 4);
	if (sep)
		summary_len = sep - text + 1;
	if (put_file("summary.csv", text, summary_len) ||
	    put_file("samples.csv", sep ? sep + 4 : NULL, sep ? size - summary_len - 3 : 0))
		abort();
	if (!results_read(dir, &rs, why, sizeof(why))) {
		use(rs);
		result_set_free(rs);
	}
	return 0;
}
