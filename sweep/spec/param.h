/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workload parameters: the table a workload publishes, and the typed value
 * of one parameter.  Every value is held as a long long:
 *   PT_INT   the number; or 0 for the word zero_word, where the table has one
 *   PT_SIZE  bytes (spec text may use K/M/G suffixes, powers of 1024)
 *   PT_BOOL  0 or 1 (spec text: on/off)
 *   PT_ENUM  index into choices[]
 */
#ifndef SWEEP_PARAM_H
#define SWEEP_PARAM_H

#include <stdbool.h>
#include <stddef.h>

enum param_type {
	PT_INT,
	PT_SIZE,
	PT_BOOL,
	PT_ENUM,
};

struct param_def {
	const char *name;
	enum param_type type;
	const char *def;		/* default, written as in a spec */
	long long min, max;		/* bounds for PT_INT and PT_SIZE */
	const char *const *choices;	/* PT_ENUM: NULL-terminated */
	const char *help;
	bool rodata;			/* load-time knob (BPF .rodata) */
	/*
	 * PT_INT: a word a spec may write instead of a number ("all"), held
	 * as 0 and shown as the word, whose meaning the workload gives it at
	 * setup ("every allowed CPU").  min is above 0, so that the number 0
	 * is refused and 0 means only the word.  NULL: numbers only.
	 */
	const char *zero_word;
};

/*
 * Parse one scalar token (no lists or ranges) of type p->type.
 * Returns 0, or -EINVAL with a lowercase message in err.
 * Bounds are checked too.
 */
int param_parse_scalar(const struct param_def *p, const char *text, size_t len,
		       long long *out, char *err, size_t errlen);

/*
 * Format a value the way CSV columns hold it: integers and sizes in
 * decimal (sizes in bytes), booleans as on/off, enums by name.
 */
void param_format(const struct param_def *p, long long v, char *buf, size_t len);

/* "int", "size", "on/off", or "a|b|c" for enums; for help output */
void param_type_text(const struct param_def *p, char *buf, size_t len);

/* Index of the parameter called name in params[0..n), or -1. */
int param_index(const struct param_def *params, int n, const char *name);

#endif
