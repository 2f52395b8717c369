/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tells runs apart, from their meta: host, arch, CPU model, kernel
 * release and --tag values.  report names each run's table block and
 * chart series by them, merge writes them into every row.
 */
#ifndef SWEEP_RUNFACTS_H
#define SWEEP_RUNFACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "results_read.h"

/*
 * What the table says about the run besides its rows, from meta: the
 * machine (a line "- x86_64 (AMD EPYC 9654)" above the table, as cover
 * letters show it; NULL or "unknown" arch leaves it out, as for a table
 * that spans several machines), whether it was a --quick smoke run, and
 * whether it ran in a VM under TCG.
 * Charts also name the kernel release and the --tag values in their
 * subtitle.
 */
struct run_facts {
	const char *arch;
	const char *cpu_model;
	const char *kernel_release;	/* NULL when meta does not say */
	char tags[256];			/* "kernel=base, machine=a": every --tag, or "" */
	bool quick;
	bool tcg;			/* in a VM under TCG: numbers for function only */
	bool icount;			/* in a VM under TCG icount: rates in instruction time */
	bool per_run_pass;		/* ns per run from a pass of its own (statspass.h) */
	double pass_s;			/* how long each such pass measured, in seconds */
};

/* What marks a TCG run wherever its numbers are shown. */
#define RUN_TCG_NOTE " (VM under TCG emulation: for function, not performance)"

/*
 * And a TCG icount run's (vm_accel = tcg-icount): its clock counts guest
 * instructions, so its rates repeat, but as path length, not speed.
 */
#define RUN_ICOUNT_NOTE " (TCG icount: instruction path length, not hardware time)"

/* The meta facts every row of a merged set carries, and --by accepts. */
extern const char *const run_fact_names[];	/* NULL-terminated */

/*
 * The value of `by` in set's meta into buf: a fact ("arch"), or "tag:NAME",
 * the value of --tag NAME=value.  "" when the run does not say.  Returns
 * 0, or -EINVAL when by names neither.
 */
int run_fact(const struct result_set *set, const char *by, char *buf, size_t len);

/* A run's label: "x86_64 AMD EPYC 9654" is 20 bytes, a --by of every fact rarely 200. */
#define RUN_LABEL_LEN	256

/*
 * Is by a --by: a fact, "tag:NAME", or several joined by commas
 * ("arch,cpu_model")?  0, or -EINVAL.
 */
int run_by_check(const struct result_set *set, const char *by);

/*
 * The default --by, as a list into buf: NULL when nothing differs between
 * the runs (they are then named by their index).  Else the fewest facts
 * and tags that name every run apart: arch and cpu_model (those the runs
 * say) when the machines differ, with another fact or tag if those two do
 * not tell the runs apart; else the first fact, then tag, that does
 * (kernel_release when only the kernel differs), or as many as it takes.
 */
const char *run_pick_by(const struct result_set *const *sets, int nr, char *buf, size_t len);

/*
 * A run's series label: the values of the facts of by, joined by a blank,
 * a tag as NAME=value ("x86_64 AMD EPYC 9654", "machine=a"); facts it does
 * not say left out, and of a list those it says are "unknown"; "run 2"
 * when it says none, or without by.
 */
void run_label(const struct result_set *set, const char *by, int idx, char *buf, size_t len);

/*
 * "run 1: host, x86_64 (CPU), kernel 6.18.0, machine=a": the line above its
 * table block, ending in " (VM under TCG emulation: for function, not
 * performance)" for a TCG run, in RUN_ICOUNT_NOTE for a TCG icount one.
 */
void run_heading(const struct result_set *set, int idx, char *buf, size_t len);

/*
 * Did (some of) the run's points run in a VM under TCG emulation?  Its meta
 * says vm_accel: tcg, or, for a merged kernel sweep, its summary has an
 * accel column that says tcg on a row.
 */
bool run_is_tcg(const struct result_set *set);

/*
 * Did (some of) the run's points run under TCG icount: vm_accel:
 * tcg-icount, or an accel column that says so?  Not run_is_tcg(): its
 * rates repeat, in instruction time.
 */
bool run_is_icount(const struct result_set *set);

/* RUN_TCG_NOTE, RUN_ICOUNT_NOTE, both (a merged set of both), or "". */
const char *run_accel_note(const struct result_set *set);

/* The machine (arch, cpu_model, kernel release), tags, --quick, TCG and icount of a run. */
struct run_facts run_facts_of(const struct result_set *set);

/* The NAME of the i-th --tag NAME=value line of meta, or NULL past the last. */
const char *run_tag_name(const struct result_set *set, int i, char *buf, size_t len);

#endif
