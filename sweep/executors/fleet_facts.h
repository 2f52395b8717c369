/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fleet --shard splits one spec's points across hosts (shard.h): the
 * shares are one set of numbers only when the hosts are alike.  The facts
 * that decide it are those a run's meta records and `merge` puts on every
 * row: the CPU model, the CPU count and the kernel release.  The probe of
 * each host reads them (fleet_host.c); this compares them, pure, so that
 * a fleet that differs can be tested without one.
 */
#ifndef SWEEP_FLEET_FACTS_H
#define SWEEP_FLEET_FACTS_H

#include <stddef.h>

enum host_fact { HF_CPU_MODEL, HF_NPROC, HF_KERNEL_RELEASE, NR_HOST_FACTS };

#define HOST_FACT_LEN	256

/* meta's names of them: "cpu_model", "nproc", "kernel_release" */
extern const char *const host_fact_names[NR_HOST_FACTS];

struct host_facts {
	char v[NR_HOST_FACTS][HOST_FACT_LEN];	/* "" when the probe did not say */
};

/*
 * How many facts are not the same on all nr hosts (labels[i] names
 * facts[i]).  For each that differs, one line into buf: the fact, then
 * each value it has, first seen first, and the hosts that have it:
 *
 *   nproc: '2' on a, c; '4' on b
 *
 * A value a probe did not give is 'unknown'.  buf is "" when none differs.
 */
int host_facts_differ(const struct host_facts *facts, const char *const *labels, int nr,
		      char *buf, size_t len);

#endif
