/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A finished comparison of BASE with one NEW result set, as cmd_compare.c
 * builds it, and its output in the four formats of --format.
 */
#ifndef SWEEP_COMPARE_PRINT_H
#define SWEEP_COMPARE_PRINT_H

#include <stdio.h>

#include "compare.h"
#include "metric.h"
#include "outfmt.h"
#include "results_read.h"
#include "viewtypes.h"

/* What a metric's numbers are: a counter's rates, a gauge's levels, or ns per program run. */
enum cmp_kind { CMP_RATE, CMP_LEVEL, CMP_PER_RUN };

/* A metric both sets have, as their meta says (metricmeta.h). */
struct cmp_metric {
	enum cmp_kind kind;
	enum cmp_better dir;
	bool guessed;			/* from its name: a set without metric lines */
	bool deterministic;		/* the same every repetition: compared exactly */
	const struct metric_unit *unit;	/* how text and markdown show it */
};

/* One metric of one point both sets ran. */
struct metric_cmp {
	const char *metric;
	const struct cmp_metric *info;
	struct cmp_moments base, new;	/* of the per-second rates, a gauge's levels, ns per run */
	struct cmp_test test;
	struct decide_result decision;	/* its interval of NEW / BASE, and the word */
	enum cmp_verdict tested;	/* the test's verdict */
	enum cmp_verdict verdict;	/* after the noise veto (cmp_veto()) */
	double delta_pct;		/* NaN when base's mean is 0 */
};

struct prog_cmp;
struct prog_figs;
struct prog_table;

enum point_state { PS_COMPARED, PS_BASE_ONLY, PS_NEW_ONLY, PS_NOT_COMPARED };

struct point_cmp {
	int base_row, new_row;		/* summary rows; -1 on the side without it */
	const char *experiment;
	char label[256];		/* the parameters that vary in the experiment */
	enum point_state state;
	char reason[512];		/* PS_NOT_COMPARED: "new: unsupported: ..." */
	char flags[2][256];		/* PS_COMPARED: base's and new's quality flags, or "" */
	struct metric_cmp *m;		/* PS_COMPARED: one per metric both sets have */
	struct prog_cmp *progs;		/* PS_COMPARED, both sets with programs.csv: its programs */
	int nr_progs;
};

/*
 * A fact the two sets' meta gives differently (compare_meta.c): key is
 * meta's ("duration", "cpu_model"), a config option ("CONFIG_HZ"), or
 * "system_warning" for a warning one side only has ("" on the other).
 */
struct cmp_difference {
	char key[64];
	char base[256], new[256];
};

struct comparison {
	const char *base_dir, *new_dir;
	const struct result_set *base, *new;
	const struct result_view *base_view, *new_view;	/* their views (view.h) */
	struct cmp_join join;
	char **metrics;			/* both sets have them, in base's order; [0] the headline */
	struct cmp_metric *info;	/* per metric: what it is */
	int nr_metrics;
	struct point_cmp *pts;		/* one per join match, in its order */
	int nr_pts;
	char notes[8][512];		/* one-side parameters and metrics, --ignore, titles,
					 * directions */
	int nr_notes;
	struct cmp_difference *diffs;	/* what else differs between the sets */
	int nr_diffs;
	int *show;			/* the metrics printed, as indices of metrics[], in order */
	int nr_show;
	bool picked;			/* by -e: shown even where a side did not record them */
	const struct prog_table *progs[2];	/* BASE's, NEW's programs.csv (compare_programs.h) */
	struct prog_figs *pfigs;	/* the figures both have; NULL: no programs section */
	bool all_programs;		/* --all-programs: text and markdown show the same ones too */
};

/* Add a note ("only in BASE: ...") to c's header; printf-like, cut to a note's size. */
__attribute__((format(printf, 2, 3)))
void compare_note(struct comparison *c, const char *fmt, ...);

/*
 * c->metrics and c->info (compare_metrics.c): the metrics both sets have,
 * in base's order, then ns_per_run where both have it, each with its
 * kind, unit and direction; notes for the metrics of one set only and
 * for directions taken from names.  0 or -ENOMEM.
 */
int compare_common_metrics(struct comparison *c);

/*
 * Does each set's headline metric (its first) have its statistics in the
 * other?  A metric missing from one side would read as nothing measured
 * (a column renamed by hand): false, why saying which.
 */
bool compare_headlines_shared(const struct comparison *c, char *why, size_t len);

/*
 * What metric name of kind is in c (its kind, direction and unit): BASE's
 * metric line, NEW's where BASE has none, else its name's (cm->guessed).
 * Sets saying different directions leave none, with a note.
 */
void compare_describe_metric(struct comparison *c, const char *name, enum cmp_kind kind,
			     struct cmp_metric *cm);

/*
 * c->diffs (compare_meta.c): the machine facts, timing settings, config
 * options and bpfsweep version the sets' meta gives differently, and the
 * system warnings of one side only.  0 or -ENOMEM.
 */
int compare_meta_differences(struct comparison *c);

/* "duration differs: base 5s, new 1s", "system warning in NEW only: load 6.3 on 2 CPUs". */
void compare_difference_text(const struct cmp_difference *d, char *buf, size_t len);

/* p->flags: each side's quality flags (summary.csv's quality cell). */
void compare_point_flags(const struct comparison *c, struct point_cmp *p);

/* Did either side of p flag a deterministic metric that varied (quality "varied")? */
bool compare_point_varied(const struct point_cmp *p);

/* Has either side of p a quality flag that vetoes a verdict of change (cmp_vetoing_flags())? */
bool compare_point_flagged(const struct point_cmp *p);

/*
 * m's verdict as text and markdown show it, with the interval it rests on:
 * "faster: +10.0 % [+9.7, +10.3]", "same: no change beyond ±0.8 %",
 * "undecided: changes up to ±7.0 % not ruled out", "inconclusive (new bimodal)".
 */
void compare_verdict_text(const struct point_cmp *p, const struct metric_cmp *m, char *buf,
			  size_t len);

/* p's value of the parameter called name, or "" where c has none by that name. */
const char *compare_param_by_name(const struct comparison *c, const struct point_cmp *p,
				  const char *name);

/* The value of a common parameter of p (base's row, else new's). */
const char *point_param(const struct comparison *c, const struct point_cmp *p, int param);

/*
 * Every point's label (compare_label.c): the stored spec's label template
 * of its experiment, where it tells the experiment's points apart, else
 * the parameters that vary among them.  Returns 0 or -errno.
 */
int compare_labels(struct comparison *c);

/*
 * "experiment: label", how a message names p; the label alone where it is
 * the experiment's title (a point alone in its experiment is labelled by
 * it), or the title alone without a label: "null", not "null: null".
 */
void compare_point_name(const struct point_cmp *p, char *buf, size_t len);

/* " (6.18.0, x86_64, kernel=patched)": the meta facts that tell sets apart. */
void compare_describe_set(const struct result_set *rs, char *buf, size_t len);

/*
 * compare --paired (compare_paired.c): cs[r] is round r's BASE against its
 * NEW; per point and metric, NEW / BASE over the rounds and its decision
 * (decide.h, one look: "same" within bound_pct), as text or CSV.
 * 0 or -errno.
 */
int compare_paired_print(FILE *f, enum out_format fmt, const struct comparison *cs, int nr,
			 double alpha, double bound_pct);

/*
 * c->show (compare_metrics.c): the metrics named in the comma-separated
 * lists of pick[0..nr_pick-1] (-e), in their order, or every one where
 * nr_pick is 0.  A name c has not is -EINVAL, said on stderr with the
 * names it has; -ENOMEM.
 */
int compare_pick_metrics(struct comparison *c, const char *const *pick, int nr_pick);

/* Characters, not bytes: "→" is three bytes, a label may hold more. */
int compare_text_width(const char *s);

/* "compared", "base only", "new only", "not compared". */
const char *compare_state_text(enum point_state s);

/*
 * c as a text table, one line per point and metric, or markdown's
 * (compare_text.c); first: the first comparison printed.  0 or -errno.
 */
int compare_print_text(FILE *f, const struct comparison *c, double alpha, bool first);
int compare_print_markdown(FILE *f, const struct comparison *c, double alpha, bool first);

/* Print every comparison in fmt; returns 0 or -errno. */
int compare_print(FILE *f, enum out_format fmt, const struct comparison *cs, int nr,
		  double alpha);

#endif
