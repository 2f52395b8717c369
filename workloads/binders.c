// SPDX-License-Identifier: GPL-2.0
/*
 * The section binders (bindsec.h), in the order bind.c walks them: a
 * module that owns [sweep] keys or sections of its own adds one line here,
 * and the binder itself learns no new name.
 */
#include <stddef.h>

#include "bindsec.h"
#include "exec.h"
#include "kernels.h"

const struct section_binder *const section_binders[] = {
	&kernel_section_binder,
	&exec_section_binder,
	NULL,
};
