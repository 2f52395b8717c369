/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Section binders: the parts of a spec that a module of its own binds
 * (the kernel axis's [sweep] keys, the exec family's [exec] and [param]
 * sections and the workload they declare).  Each module fills one struct
 * section_binder; binders.c lists them, and bind.c walks that table, so
 * the binder needs no module's name to bind what it owns.
 */
#ifndef SWEEP_BINDSEC_H
#define SWEEP_BINDSEC_H

#include <stdbool.h>

#include "model.h"
#include "spec.h"

struct section_binder {
	const char *name;		/* what it binds, for docs and debugging */
	/* a workload that the spec declares in sections of its own ("exec"), or NULL */
	const char *workload;
	/* the sections it owns beside [sweep], [report] and [params]; NULL-terminated or NULL */
	const char *const *sections;
	/* cfg's defaults, before any binding (NULL: none) */
	void (*init)(struct sweep_cfg *cfg);
	/*
	 * One [sweep] entry, key from enum sweep_key: 1 when it was ours (its
	 * errors reported at the value), 0 when the key is another's.
	 */
	int (*sweep_entry)(struct sweep_cfg *cfg, int key, const struct spec_entry *e);
	/*
	 * After the whole [sweep] (the timing is known): the sections it owns;
	 * declared when [sweep] named its workload.  0, or -errno other than
	 * -EINVAL (errors in the spec are counted by diag.c).
	 */
	int (*bind)(const struct spec *s, struct sweep_cfg *cfg, bool declared);
	/* What it gave cfg (NULL: nothing) */
	void (*free)(struct sweep_cfg *cfg);
};

/* Every section binder, NULL-terminated (binders.c). */
extern const struct section_binder *const section_binders[];

/*
 * What a spec is bound against, which lives above spec/: the workloads'
 * registry and the section binders (workloads/registry.c's
 * workloads_catalog).  bind_spec() is handed it, so that spec/ calls
 * nothing of a folder above it (scripts/check-includes.py).
 */
struct bind_catalog {
	const struct section_binder *const *binders;	/* NULL-terminated */
	const struct workload *(*find)(const char *name);
	/* " (did you mean 'X'?)" for a word that names no workload, into buf */
	const char *(*hint)(const char *word, char *buf, size_t len);
	/* "null, ringbuf, ... or exec" into buf */
	void (*names)(char *buf, size_t len);
};

#endif
