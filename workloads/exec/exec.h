/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exec workload: an existing benchmark program run once per point and
 * repetition, its output parsed into intervals (docs/exec.md).  The engine
 * cannot know the program's parameters, so the spec declares them
 * ([param "NAME"] sections) and says how to run it ([exec]): this module
 * makes a workload descriptor of them at bind time, owned by the sweep.
 *
 *   exec_bind.c  the spec's [exec] and [param] sections → struct exec_def
 *   exec_tmpl.c  argv templates: "{producers}", "{overwrite?--rb-overwrite}"
 *   exec_run.c   the workload's callbacks: run the program, parse its output
 */
#ifndef SWEEP_EXEC_H
#define SWEEP_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "bindsec.h"
#include "diag.h"
#include "execparse.h"
#include "spec.h"
#include "workload.h"

struct sweep_cfg;

/* The name a spec gives the family: `workload = exec`. */
#define EXEC_WORKLOAD	"exec"

/* A template: the spec's text and where it is, for errors found later. */
struct exec_tmpl {
	char *text;
	struct loc loc;
};

/*
 * The output lines a sweep has said it left out (execparse.h's exec_skip),
 * as "LINE\tTEXT\tWHY": every repetition of a point prints the same, and
 * each is said once.  At most EXEC_MAX_SAID, then one line says the rest
 * are not.
 */
struct exec_said {
	char **keys;
	int nr;
	bool full;		/* the line saying so printed */
};

#define EXEC_MAX_SAID	64

struct exec_def {
	struct workload wl;		/* wl.data points back here */
	/* the timing ({warmup_s}, the default timeout), read at run time: --quick sets it after binding */
	const struct sweep_cfg *cfg;
	struct exec_tmpl *argv;		/* one word each */
	int argc;
	struct exec_tmpl producers;	/* text NULL: 1 */
	struct exec_tmpl warmup_intervals;	/* text NULL: 0 */
	uint64_t timeout_ns;		/* 0: warmup + duration + EXEC_GRACE_NS */
	const char *build;		/* [exec] build: how to build a missing program (said, never run) */
	struct exec_parser parser;
	bool has_regex;			/* parser.re is compiled */
	struct exec_said *said;		/* mutable while the points run */
	struct param_def params[WL_MAX_PARAMS];
	struct metric_def metrics[WL_MAX_METRICS];
};

/* What a program may take beyond the sweep's warmup and duration before it is killed. */
#define EXEC_GRACE_NS	(30 * 1000000000ULL)

/*
 * The descriptor of `workload = exec` from s's [exec] and [param "NAME"]
 * sections; cfg's timing is read when the points run.  Errors are reported
 * at their place in the spec: then -EINVAL (and *out NULL).  0 or -ENOMEM.
 */
int exec_bind(const struct spec *s, const struct sweep_cfg *cfg, struct workload **out);

/* [exec] or [param] sections in a spec whose workload is not exec: errors at each. */
void exec_sections_unused(const struct spec *s);

void exec_free(struct workload *wl);

/* Check one template's placeholders against d's parameters; errors at t->loc. */
void exec_tmpl_check(const struct exec_def *d, const struct exec_tmpl *t, bool whole_word_ok);

/*
 * t expanded for pt into *out (malloc'd); *omit when the word is a
 * "{flag?text}" whose flag is off.  0, -ENOMEM, or -EINVAL (a template
 * exec_tmpl_check() passed never gives it).
 */
int exec_tmpl_expand(const struct exec_def *d, const struct wl_point *pt, const char *t,
		     char **out, bool *omit);

/* A template that must make a number (producers): *v, or -EINVAL and why. */
int exec_tmpl_number(const struct exec_def *d, const struct wl_point *pt,
		     const struct exec_tmpl *t, long long dflt, long long *v,
		     char *why, size_t whylen);

/* The [exec] and [param] sections and `workload = exec`, as a section binder (binders.c). */
extern const struct section_binder exec_section_binder;

/* The descriptor's callbacks (exec_run.c). */
void exec_set_callbacks(struct workload *wl);

#endif
