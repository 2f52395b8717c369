// SPDX-License-Identifier: GPL-2.0
/*
 * Counted stacks into a folded profile (stackfold.h).  A stack becomes the
 * line "task;root;...;leaf": the task's name first, so that the idle task
 * and the workload's threads stay apart, its kernel frames named by symbol
 * (no offset: the lines of one function merge), or "[user]" for a sample
 * taken in user mode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "stackfold.h"

#define FRAME_MAX	512	/* the kernel's KSYM_NAME_LEN */

/* A frame as folded files take it: no ';', no blanks, no control characters. */
static size_t put_frame(char *out, size_t room, const char *name)
{
	size_t n = 0;

	for (; name[n] && n + 1 < room && n < FRAME_MAX; n++) {
		unsigned char c = name[n];

		out[n] = c == ';' || c <= ' ' || c == 0x7f ? '_' : c;
	}
	return n;
}

/* One counted stack as a folded line into buf (room bytes). */
static void stack_line(const struct stack_sample *ss, const struct ksyms *ks, bool hidden,
		       char *buf, size_t room)
{
	size_t n = put_frame(buf, room, ss->comm[0] ? ss->comm : "[unknown]");

	if (!ss->nr_kips) {
		n += snprintf(buf + n, room - n, ";%s", ss->user ? "[user]" : "[unknown]");
	} else if (hidden) {
		n += snprintf(buf + n, room - n, ";[kernel]");
	} else {
		for (int i = ss->nr_kips - 1; i >= 0 && n + 2 < room; i--) {
			const char *name = ksyms_name(ks, ss->kips[i]);

			buf[n++] = ';';
			n += put_frame(buf + n, room - n, name ? name : "[unknown]");
		}
	}
	buf[n < room ? n : room - 1] = '\0';
}

int stack_fold(const struct stack_counts *c, const struct ksyms *ks, bool hidden,
	       struct folded *out)
{
	size_t room = (STACK_MAX_DEPTH + 2) * (FRAME_MAX + 1);
	char *buf = malloc(room);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (int i = 0; !err && i < c->nr; i++) {
		stack_line(&c->s[i], ks, hidden, buf, room);
		err = folded_add(out, buf, c->s[i].count);
	}
	free(buf);
	folded_merge(out);
	return err;
}
