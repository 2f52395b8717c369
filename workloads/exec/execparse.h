/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output of a benchmark program the exec workload ran, parsed into
 * intervals (docs/exec.md).  Pure: text in, rates out, so every format is
 * tested on strings (tests/unit/test_execparse.c).
 *
 *   kbench    the kernel selftests' bench: "Iter N (X.XXXus): hits A M/s
 *             (B M/prod), drops C M/s, ..." per second of its run, X the
 *             deviation of the iteration's length from 1 s as bench.c
 *             prints it; without Iter lines (bench -q), its one
 *             "Summary: hits A ± S M/s ..." line
 *   map_perf  samples/bpf/map_perf_test: "N:name ... X events per sec", one
 *             line per worker N, one interval; the metric is per worker
 *   regex     a POSIX extended regular expression; every matching line is
 *             an interval, its groups in order named by `fields`
 *   csv       a header line naming the columns `fields` uses, then one row
 *             per interval (execparse_rows.c)
 *   jsonl     one JSON object per interval line, `fields` naming its keys
 *             (execparse_rows.c)
 */
#ifndef SWEEP_EXECPARSE_H
#define SWEEP_EXECPARSE_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload.h"

enum exec_format {
	EXEC_KBENCH,
	EXEC_MAP_PERF,
	EXEC_REGEX,
	EXEC_CSV,
	EXEC_JSONL,
};

extern const char *const exec_format_names[];	/* by enum exec_format, NULL-terminated */

/*
 * What a regex group, CSV column or JSON key holds: a metric's rate per
 * second, or the interval's length.
 */
#define EXEC_FIELD_SKIP		-1	/* "-", regex only */
#define EXEC_FIELD_ELAPSED	-2	/* "elapsed_s", "elapsed_ms", "elapsed_us", "elapsed_ns" */

#define EXEC_MAX_FIELDS	(WL_MAX_METRICS + 8)

struct exec_parser {
	enum exec_format fmt;
	/* the metrics in workload order: the names the output gives them */
	const char *metrics[WL_MAX_METRICS];
	int nr_metrics;
	/* EXEC_REGEX: the compiled expression and what each group is */
	regex_t re;
	/* metric index or EXEC_FIELD_*: by group - 1 (regex), by column or key (csv, jsonl) */
	int field[EXEC_MAX_FIELDS];
	int nr_fields;
	/* EXEC_CSV: the header's name of each field's column; EXEC_JSONL: its key */
	const char *column[EXEC_MAX_FIELDS];
	double elapsed_scale;		/* ns per unit of the elapsed field */
};

/* One interval of the program's output. */
struct exec_iv {
	int line;			/* 1-based line of the output it came from */
	uint64_t elapsed_ns;		/* 0: the program did not say (see exec_output) */
	double rate[WL_MAX_METRICS];	/* per second */
};

/*
 * A kbench or map_perf line left out for a value the scanner does not read
 * ("1,000.5M/s", "-5.0M/s", "nan M/s": benchline.h): import skips and says
 * such lines alike (cmd_import.c), rather than take 000.5 for 1,000.5.
 */
struct exec_skip {
	int line;		/* 1-based, of the output */
	const char *why;	/* bench_line_unread()'s, static text */
	char what[32];		/* the text not read, cut */
};

struct exec_output {
	struct exec_iv *iv;
	int nr_iv;
	/* EXEC_MAP_PERF: each worker's rate, by its number N; their sum is rate[0] */
	double *thread_rate;
	int nr_threads;
	/* lines left out, in output order: kept when the parse fails too, to be said */
	struct exec_skip *skipped;
	int nr_skipped;
};

/*
 * The longest line the regex parser matches: glibc's regexec() takes time
 * quadratic in a line's length (4 KiB: ~0.15 s at worst, 64 KiB: ~35 s),
 * so a longer line is an error, never a match tried.
 */
#define EXEC_MAX_REGEX_LINE	4096
/* The longest CSV or JSON line: a row of numbers is short, and libcsv grows by 128 bytes. */
#define EXEC_MAX_ROW_LINE	(64 * 1024)

/* What bounds one parse: the point's deadline and its stop flag, each checked every line. */
struct exec_parse_bounds {
	uint64_t deadline_ns;		/* CLOCK_MONOTONIC; 0: none */
	bool (*stop)(void);		/* NULL: none */
};

/*
 * Parse text[0..len), the whole stdout of one run.  Lines of no interest are
 * skipped; a line that starts as one of the format's and does not read as
 * it is an error, as is output without any interval, a NUL byte, and a
 * number a count of which would overflow an int64 (2^63); a line with a
 * value the scanner does not read is left out, into out->skipped (the
 * caller says them, after the program has ended).  0, or -EBADMSG
 * with why naming the output line ("output line 7: no value 'drops': Iter
 * ..."), -ETIMEDOUT past b->deadline_ns, -EINTR when b->stop() says so,
 * or -ENOMEM; on error out holds only the skipped lines.
 */
int exec_parse(const struct exec_parser *p, const char *text, size_t len,
	       const struct exec_parse_bounds *b, struct exec_output *out, char *why,
	       size_t whylen);

/*
 * The offset in re (a POSIX extended expression) of its first backreference
 * ("\1" outside a bracket expression), or -1 when it has none.  glibc's
 * regexec() backtracks on them for minutes on a 2 KB line, so a spec may not
 * use them (exec_bind.c).
 */
int exec_regex_backref(const char *re);

void exec_output_free(struct exec_output *out);

/* out's intervals and workers' rates, its skipped lines kept. */
void exec_output_free_intervals(struct exec_output *out);

/* For the formats of execparse_rows.c. */

/* why = "output line NR: WHAT: LINE" (LINE quoted, bounded); returns -EBADMSG. */
int exec_line_error(char *why, size_t len, int nr, const char *line, const char *what);

/* A value of a column or key: a finite rate, not negative. */
bool exec_good_number(double v);

/* Field f's value v into iv: a rate, or the interval's length (false: 2^63 ns or more). */
bool exec_set_field(const struct exec_parser *p, int f, double v, struct exec_iv *iv);

/* Where a CSV output is: before its header, or the header's columns. */
struct exec_csv_state {
	bool header;			/* seen */
	int nr_cells;			/* of the header, every row has as many */
	int cell[EXEC_MAX_FIELDS];	/* by field: its column's index */
};

/*
 * One line of a csv or jsonl output: 1 when *iv is an interval of it, 0
 * when the line is none (text before the CSV header, a line not starting
 * with '{'), or -EBADMSG (why names the line) or -ENOMEM.
 */
int exec_csv_line(const struct exec_parser *p, struct exec_csv_state *st, const char *line,
		  struct exec_iv *iv, char *why, size_t len);
int exec_jsonl_line(const struct exec_parser *p, const char *line, struct exec_iv *iv,
		    char *why, size_t len);

#endif
