/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The value grammar of a spec: scalars of a parameter's type, durations,
 * percentages, lists and ranges ("1 2 4", "8..52:4", "1..64*2"), and the
 * names a value may give (a parameter, a metric).  Every error is reported
 * through diag.c at the file:line:col of the text that made it; binding
 * (bind.c, bind_report.c, and the section binders of bindsec.h) goes on
 * after one, so that a single `check` shows them all.
 */
#ifndef SWEEP_BINDVAL_H
#define SWEEP_BINDVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "param.h"
#include "spec.h"
#include "workload.h"

/* Index of word in the NULL-terminated list, or -1. */
int bind_list_index(const char *const *list, const char *word);

/*
 * Parameter name[0..len) of wl, or -1 after reporting it at `at` with a
 * suggestion (among the [report] keys too with with_report_keys).
 */
int bind_param_name(const struct workload *wl, const char *name, size_t len,
		    const struct loc *at, bool with_report_keys);

/* Metric name[0..len) of wl (ns_per_run suggested where it has one), or -1 after reporting. */
int bind_metric_name(const struct workload *wl, const char *name, size_t len,
		     const struct loc *at);

/* "unknown key 'K' in [section]" at e's key, with a suggestion among keys. */
void bind_unknown_key(const struct spec_entry *e, const char *section, const char *const *keys);

/* "1.5s", "250ms", "100us", "20ns" → *ns; 0, or -EINVAL with a message in err. */
int parse_duration(const char *text, uint64_t *ns, char *err, size_t errlen);

/* "2%", "0.5%" or "2": percent of the mean, up to 100; "off" or "0": 0.  0 or -EINVAL. */
int precision_parse(const char *text, const char *key, double *pct, char *err, size_t errlen);

/* e's duration into *ns, or an error at the value (*ns kept then). */
void bind_duration(const struct spec_entry *e, uint64_t *ns);

/*
 * A warmup (0 allowed with may_be_0) or duration: no shorter than the
 * shortest interval the sampler takes (TIMING_MIN_INTERVAL_NS).
 */
void bind_span(const struct spec_entry *e, uint64_t *ns, bool may_be_0);

/*
 * A [sweep] setting's value of type def into *v, or an error at the value
 * (*v is kept then).
 */
void bind_scalar(const struct param_def *def, const struct spec_entry *e, long long *v);

/* bind_scalar() into an int or a bool. */
void bind_int(const struct param_def *def, const struct spec_entry *e, int *out);
void bind_bool(const struct param_def *def, const struct spec_entry *e, bool *out);

/*
 * The list of values of parameter p that e gives (items, ranges) into
 * *vals (malloc'd) and *nr, in the order written.  A wrong list is
 * reported, not kept (*vals NULL, *nr 0): a spec of many holds no memory.
 * 0 or -ENOMEM.
 */
int bind_value_list(const struct param_def *p, const struct spec_entry *e, long long **vals,
		    int *nr);

#endif
