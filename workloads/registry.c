// SPDX-License-Identifier: GPL-2.0
/* The list of workloads, from workloads.def, and lookups into it. */
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bindsec.h"
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

const struct bind_catalog workloads_catalog = {
	.binders = section_binders, .find = workload_find, .hint = workload_hint,
	.names = workload_names,
};

const char *workloads_libbpf_version(void)
{
	return libbpf_version_string();
}
