/* SPDX-License-Identifier: GPL-2.0 */
/* The sampler's counted stacks, named by the kernel's symbols, as a folded profile. */
#ifndef SWEEP_STACKFOLD_H
#define SWEEP_STACKFOLD_H

#include <stdbool.h>

#include "folded.h"
#include "ksyms.h"
#include "stacksampler.h"

/*
 * Every stack of c as a line of out, merged: "task;frame;...;leaf count",
 * root first, kernel frames by ks (a frame no symbol covers is
 * "[unknown]"; all of them one "[kernel]" when hidden), a sample in user
 * mode "task;[user]".  A ';', blank or control character of a name
 * becomes '_'.  0 or -ENOMEM.
 */
int stack_fold(const struct stack_counts *c, const struct ksyms *ks, bool hidden,
	       struct folded *out);

#endif
