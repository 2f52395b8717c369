// SPDX-License-Identifier: GPL-2.0
/*
 * The profile of a repetition (profiler.h) over the sampler
 * (stacksampler.h) and the kernel's symbols (ksyms.h).  A counted stack
 * becomes the folded line "task;root;...;leaf": the task's name first, so
 * that the idle task and the workload's threads stay apart, its kernel
 * frames named by symbol (no offset: lines of one function merge), or
 * "[user]" for a sample taken in user mode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"
#include "profiler.h"
#include "stacksampler.h"

#define KALLSYMS	"/proc/kallsyms"
#define FRAME_MAX	512	/* the kernel's KSYM_NAME_LEN */

struct profiler {
	struct stack_sampler *s;
};

struct profiler *profiler_start(int hz, const int *cpus, int nr, struct rep_profile *rp)
{
	struct profiler *p = calloc(1, sizeof(*p));

	if (!p) {
		rp->err = -ENOMEM;
		snprintf(rp->why, sizeof(rp->why), "profile: %s", strerror(-rp->err));
		return NULL;
	}
	rp->err = stack_sampler_open(hz, cpus, nr, &p->s, rp->why, sizeof(rp->why));
	if (rp->err) {
		free(p);
		return NULL;
	}
	return p;
}

void profiler_enable(struct profiler *p, const int *cpus, int nr)
{
	if (p)
		stack_sampler_enable(p->s, cpus, nr);
}

void profiler_disable(struct profiler *p)
{
	if (p)
		stack_sampler_disable(p->s);
}

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

/* The counted stacks named and folded into rp->folded. */
static int fold(const struct stack_counts *c, const struct ksyms *ks, struct rep_profile *rp)
{
	size_t room = (STACK_MAX_DEPTH + 2) * (FRAME_MAX + 1);
	char *buf = malloc(room);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (int i = 0; !err && i < c->nr; i++) {
		stack_line(&c->s[i], ks, rp->hidden, buf, room);
		err = folded_add(&rp->folded, buf, c->s[i].count);
	}
	free(buf);
	folded_merge(&rp->folded);
	return err;
}

void profiler_finish(struct profiler *p, struct rep_profile *rp)
{
	struct stack_counts c = { 0 };
	struct ksyms ks = { 0 };
	int err;

	if (!p)
		return;
	stack_sampler_disable(p->s);
	err = stack_sampler_read(p->s, &c, rp->why, sizeof(rp->why));
	if (!err) {
		rp->samples = c.samples;
		rp->lost = c.lost;
		err = ksyms_load(KALLSYMS, &ks);
		if (err)
			snprintf(rp->why, sizeof(rp->why), "profile: reading %s: %s", KALLSYMS,
				 strerror(-err));
	}
	if (!err && ks.hidden) {
		rp->hidden = true;
		snprintf(rp->why, sizeof(rp->why), "%s hides kernel addresses (kptr_restrict, or "
			 "not root): kernel frames shown as [kernel]", KALLSYMS);
	}
	if (!err) {
		err = fold(&c, &ks, rp);
		if (err)
			snprintf(rp->why, sizeof(rp->why), "profile: %s", strerror(-err));
	}
	rp->err = err;
	ksyms_free(&ks);
	stack_counts_free(&c);
	stack_sampler_close(p->s);
	free(p);
}

void rep_profile_free(struct rep_profile *rp)
{
	folded_free(&rp->folded);
}
