/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel benchmarks' own text output parsed into rows of numbers, for
 * `bpfsweep import` (docs/import.md).  Pure: text in, rows out, no files, so
 * every format is tested on strings.  Accepted: run_bench_*.sh tables (a
 * header underlined with '=', rows "label  X ± YM/s (drops A ± BM/s)"), the
 * bench's "Summary: hits X ± YM/s (ZM/prod), drops ..." lines, htab-mem's
 * "label  per-prod-op: X ± Yk/s, avg mem: ..., peak mem: ...MiB" rows,
 * map_perf_test's and test_overhead's "label X[K] events per sec" lines,
 * the map benches' "Summary: throughput X ± Y M ops/s (...), latency Z ns/op",
 * each also flattened onto one line as mailing-list archives show them, and
 * quoted ("> ") as replies show them.
 */
#ifndef SWEEP_IMPORT_H
#define SWEEP_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "benchline.h"

#define IMPORT_MAX_VALUES 8
#define IMPORT_MAX_TEXT 200	/* labels, names and titles are cut here (bytes) */

struct import_row {
	int exp;		/* index into the set's titles */
	int line;		/* 1-based line of the text it came from */
	char *label;
	int cpu;		/* map_perf_test's "N:" prefix; -1 when absent */
	struct import_value v[IMPORT_MAX_VALUES];
	int nr_values;
};

/*
 * A machine a text names on a line of its own: "- x86_64 (AMD EPYC 9654)",
 * or as bpfsweep's own tables name it, with the kernel: "..., kernel 6.18.0".
 */
struct import_machine {
	char *arch;
	char *cpu_model;	/* NULL when the line gives none */
	char *kernel_release;	/* NULL when the line gives none */
};

struct import_title_index;

/* A line that holds something like a value or a row but is not read, and why. */
struct import_skip {
	int line;
	const char *why;	/* static text */
	char what[32];		/* the text not read ("-5.0M/s"), cut; "" when why says all */
	unsigned int bidi;	/* the bidi control (U+202A..U+202E, U+2066..U+2069) refused, or 0 */
};

struct import_set {
	char **titles;		/* one per block (experiment), unique per machine */
	int *title_machine;	/* per block: index into machines, -1 when none was named */
	int nr_titles;
	struct import_title_index *title_index;	/* import_titles.c: the titles taken */
	struct import_machine *machines;	/* each once, in the order first named */
	int nr_machines;
	struct import_row *rows;
	int nr_rows;
	struct import_skip *skipped;	/* lines not read: numbers but no row, a bad value, bidi */
	int nr_skipped;
	/* why import_parse() refused the text (-EINVAL): the line and what is wrong with it */
	int bad_line;
	const char *bad_why;
};

/*
 * Parse a whole file's text of len bytes, appending its blocks and rows to set.  A block
 * is a header's rows, or a run of rows after other text; an untitled block
 * takes the text paragraph before it as its title, or fallback_title.  A
 * line that names a machine, its arch and in parentheses its CPU model
 * ("- x86_64 (AMD EPYC 9654)", "arm64:"), makes the blocks after it, to
 * the end of the file or the next such line, that machine's.
 * Lines holding values that read as no row, lines with a value that is
 * not read ("-5.0M/s", "1,000.5M/s", "nan M/s": benchline.h) and lines
 * with a bidi override are listed in set->skipped (reset on each call);
 * the last two are neither rows nor text, so a table around them stays one
 * block.  A NUL byte in the text, or a value
 * of BENCH_VALUE_MAX or more (benchline.h), is refused: -EINVAL, with
 * set->bad_line and set->bad_why saying where and what.  The time taken
 * is linear in len.  Returns 0, -EINVAL or -ENOMEM.
 */
int import_parse_len(const char *text, size_t len, const char *fallback_title,
		     struct import_set *set);

/* import_parse_len() of a NUL-terminated text. */
int import_parse(const char *text, const char *fallback_title, struct import_set *set);

/* A block titled title (made unique among machine's: "T (2)") appended to set's. */
int import_title_add(struct import_set *set, const char *title, int machine);

void import_title_index_free(struct import_set *set);

void import_set_free(struct import_set *set);

/*
 * Does line name a machine: an arch (x86_64, arm64, aarch64, ...), maybe
 * led by "- " or "* ", maybe followed by its CPU model in parentheses, by
 * ", kernel RELEASE" (a table of bpfsweep's) and a colon, and nothing
 * else?  Then *m gets copies of them (cpu_model, kernel_release NULL when
 * not given), freed with import_machine_free().
 */
bool import_machine_line(const char *line, struct import_machine *m);

/* m's index in set->machines, added there (owning m) or, when known, freed; or -ENOMEM. */
int import_machine_add(struct import_set *set, struct import_machine *m);

void import_machine_free(struct import_machine *m);

/*
 * Does s start as a spreadsheet formula would ('=', '+', '-', '@'), and is
 * no plain number ("-5")?  Such a label or title is written as a cell with
 * an apostrophe before it, the spreadsheets' mark of text (import_safe.c).
 */
bool import_formula_led(const char *s);

/* s, or "'" and s in buf (of len) when import_formula_led(s). */
const char *import_defused(const char *s, char *buf, size_t len);

/*
 * The first bidi control of line (overrides and isolates U+202A..U+202E,
 * U+2066..U+2069, marks U+200E, U+200F, U+061C: termsafe.h), or 0.
 */
unsigned int import_bidi_control(const char *line);

/* Parameter columns of a set: "label", "cpu" when any row has one, then the template's. */
struct import_params {
	char **names;
	int nr;
	char ***vals;		/* vals[row][param]; NULL where a row has no value */
	int nr_rows;
	int matched;		/* rows the template matched */
};

/*
 * Parameters of every row.  With tmpl ("rb-libbpf nr_prod {producers}"),
 * each {name} captures that part of the label (blanks match any run of
 * blanks); rows it does not match leave those empty.  Without one, a label
 * ending in a number gives it as a parameter named after the word before
 * it ("nr_prod 4" gives nr_prod=4), or "x" when that word is no identifier.
 * Returns 0, -EINVAL for a bad template (why says what), or -ENOMEM.
 */
int import_params_build(const struct import_set *set, const char *tmpl, struct import_params *p,
			char *why, size_t whylen);

void import_params_free(struct import_params *p);

/* The longest --label template: with labels of IMPORT_MAX_TEXT, a match is a few ms at most. */
#define IMPORT_MAX_LABEL 1024

/*
 * Match label against tmpl; on success vals[i] gets the text of the i-th
 * {name} (the caller frees them) and true is returned.  No backtracking
 * blow-up: the work is bounded by strlen(tmpl) x strlen(label) steps, and
 * by strlen(label) more for each of those steps that starts a {name}.
 */
bool import_label_match(const char *tmpl, const char *label, char **vals, int nr_vals);

#endif
