// SPDX-License-Identifier: GPL-2.0
/* The list of workloads, from workloads.def, and lookups into it. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "exec.h"
#include "suggest.h"
#include "workload.h"

#define WORKLOAD(sym) extern const struct workload sym;
#include "workloads.def"
#undef WORKLOAD

const struct workload *const workloads[] = {
#define WORKLOAD(sym) &sym,
#include "workloads.def"
#undef WORKLOAD
};

const int nr_workloads = sizeof(workloads) / sizeof(workloads[0]);

const struct workload *workload_find(const char *name)
{
	for (int i = 0; i < nr_workloads; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

const char *workload_hint(const char *word, char *buf, size_t len)
{
	struct suggest sg;

	suggest_init(&sg, word);
	for (int i = 0; i < nr_workloads; i++)
		suggest_add(&sg, workloads[i]->name);
	/* not in the registry: a spec's [exec] section makes it (exec.h) */
	suggest_add(&sg, EXEC_WORKLOAD);
	return suggest_hint_or_list(&sg, buf, len);
}

void workload_names(char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < nr_workloads && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", workloads[i]->name);
	if (off < len)
		snprintf(buf + off, len - off, " or %s", EXEC_WORKLOAD);
}

long long wl_param(const struct wl_point *pt, const char *name)
{
	int i = param_index(pt->wl->params, pt->wl->nr_params, name);

	assert(i >= 0);
	return pt->v[i];
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

const char *workloads_libbpf_version(void)
{
	return libbpf_version_string();
}
