/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values in one line of a kernel benchmark's text output: a number
 * with a unit ("13.825M/s", "194677 events per sec", "1.23MiB"), or
 * "X ± Y" with one, normalised to events per second, bytes or ns.  The
 * one scanner of such lines: `import` reads published pages with it
 * (import.c), the exec workload a program's own output (execparse.c).
 */
#ifndef SWEEP_BENCHLINE_H
#define SWEEP_BENCHLINE_H

#include <stdbool.h>
#include <stddef.h>

enum import_kind {
	IMPORT_RATE,		/* normalised to events per second */
	IMPORT_BYTES,		/* normalised to bytes */
	IMPORT_NS,		/* a time per operation, normalised to nanoseconds */
};

/* One number of a row, as the bench names it ("hits", "avg mem"). */
struct import_value {
	char name[48];
	enum import_kind kind;
	double mean;
	double stddev;
	bool has_stddev;	/* "X ± Y"; "peak mem: X" and "X events per sec" have none */
};

/* A value found in a line: where it is and what it holds (v.name is empty). */
struct bench_value {
	size_t start, end;	/* line[start..end): the number(s) and the unit */
	struct import_value v;
	bool per_prod;		/* "M/prod": a per-producer copy of hits, not a metric */
	bool events;		/* "events per sec" */
	bool too_large;		/* mean or stddev, in the unit's base, is BENCH_VALUE_MAX or more */
};

/*
 * The largest value a line may give (2^63, after its unit): a count or a size
 * past it fits no int64, and a 400-digit number would be inf.  Callers refuse
 * a value marked too_large, naming the line, rather than store it.
 */
#define BENCH_VALUE_MAX	0x1p63

/* Every value of line, in order, at most max; their number. */
int bench_line_values(const char *line, struct bench_value *vs, int max);

/*
 * A segment between two values: "(drops ", "), drops ", ", avg mem: " name
 * the next value (true, *name set, maybe empty before "(14.970M/prod)");
 * anything else is the start of the next row (false).
 */
bool bench_line_connector(const char *seg, size_t len, char *name, size_t namelen);

/*
 * Why a line's text that shows a value is not read as one, or NULL: a unit
 * after a number the scanner does not read ("-5.0M/s", "nan M/s", "+5M/s"),
 * or a value that the text before it makes another ("1,000.5M/s", read as
 * 000.5; "nan ± 0.1M/s").  line[*start..*end) is that text.  vs[0..nr) are
 * bench_line_values()' of line.  Linear in the line's length.
 */
const char *bench_line_unread(const char *line, const struct bench_value *vs, int nr,
			      size_t *start, size_t *end);

/* The index of the first character of s at or after i that is no blank or tab. */
size_t bench_skip_blanks(const char *s, size_t i);

#endif
