// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers workload.h gives every family and the libbpf adapters: a
 * parameter's value, the words of a failed probe or setup, and where a
 * state keeps its load's figures.  Here, below them, rather than in
 * workloads/registry.c: adapters/ (stacksampler.c) sits below workloads/
 * and may not call into it (scripts/check-includes.py).
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "param.h"
#include "workload.h"

long long wl_param(const struct wl_point *pt, const char *name)
{
	int i = param_index(pt->wl->params, pt->wl->nr_params, name);

	assert(i >= 0);
	return pt->v[i];
}

const struct wl_load_stats *wl_load_stats_of(const struct workload *wl, const void *state)
{
	const struct wl_load_stats *ls;

	if (!wl->load_stats.set || !state)
		return NULL;
	ls = (const void *)((const char *)state + wl->load_stats.offset);
	return ls->nr_progs ? ls : NULL;
}

int wl_err_is_unsupported(int err)
{
	return err == -EOPNOTSUPP || err == -EPERM || err == -ENOSYS;
}

int wl_fail(char *why, size_t len, const char *what, int err)
{
	snprintf(why, len, "%s: %s", what, strerror(-err));
	return err;
}
