// SPDX-License-Identifier: GPL-2.0
/*
 * What `bpfsweep list` prints of the workloads (wl_list.h): each one's
 * metrics, with their kind, unit and source, and its parameters, with
 * their type, default and range.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "exec.h"
#include "metricdef.h"
#include "param.h"
#include "wl_list.h"
#include "workload.h"

/* "ops            counter, shown in k/s, counted per producer" */
static void list_metric(const struct metric_def *d)
{
	static const char *const from[] = {
		[MS_WORKLOAD] = "",
		[MS_MEMCG_USAGE] = ", the memory cgroup's usage",
		[MS_MEMCG_PEAK] = ", the memory cgroup's peak usage",
		[MS_MEMCG_KMEM] = ", the memory cgroup's kernel memory",
		[MS_PROG_RUNS] = ", the kernel's run count of its BPF programs",
		[MS_PROG_NS] = ", the kernel's run time of its BPF programs in ns (.per_run: "
			       "ns per run)",
		[MS_LOAD] = ", what loading its BPF programs cost (the verifier's and the "
			    "JIT's figures)",
	};
	/* a source this table lacks prints nothing rather than "(null)" */
	const char *source = (size_t)d->source < sizeof(from) / sizeof(*from) && from[d->source] ?
			     from[d->source] : "";

	printf("    %-14s %s, shown in %s%s%s%s%s%s\n", d->name,
	       d->kind == MK_GAUGE ? "gauge" : "counter", metric_default_unit(d)->name,
	       d->per_thread ? ", counted per producer" : "", source,
	       d->deterministic ? ", deterministic" : "",
	       d->less ? " less " : "", d->less ? d->less : "");
}

static void list_workload(const struct workload *wl)
{
	char type[128];

	printf("%s: %s\n  metrics:\n", wl->name, wl->help);
	for (int m = 0; m < wl->nr_metrics; m++)
		list_metric(&wl->metrics[m]);
	printf("  parameters:\n");
	for (int i = 0; i < wl->nr_params; i++) {
		const struct param_def *p = &wl->params[i];

		param_type_text(p, type, sizeof(type));
		printf("    %-14s %s, default %s", p->name, type, p->def);
		if (p->type == PT_INT || p->type == PT_SIZE)
			printf(", %lld..%lld", p->min, p->max);
		printf("%s\n    %-14s %s\n", p->rodata ? ", load time" : "", "", p->help);
	}
}

int wl_list(const char *name)
{
	const struct workload *wl;

	if (name && !strcmp(name, EXEC_WORKLOAD)) {
		printf("%s: an existing benchmark program, run per point; its parameters and\n"
		       "  metrics are the spec's ([exec], [param \"NAME\"]: docs/exec.md)\n",
		       EXEC_WORKLOAD);
		return 0;
	}
	if (name) {
		char hint[640];

		wl = workload_find(name);
		if (!wl) {
			diag_err("unknown workload '%s'%s", name, workload_hint(name, hint,
										 sizeof(hint)));
			return -ENOENT;
		}
		list_workload(wl);
		return 0;
	}
	/* the kernel's benchmarks first; the harness's own (no BPF) test it */
	for (int pass = 0; pass < 2; pass++) {
		bool first = true;

		if (pass)
			printf("\nthe harness's own, without BPF (its tests, its ceiling):\n\n");
		for (int i = 0; i < nr_workloads; i++) {
			if (workloads[i]->needs_bpf != !pass)
				continue;
			printf("%s", first ? "" : "\n");
			first = false;
			list_workload(workloads[i]);
		}
	}
	return 0;
}

