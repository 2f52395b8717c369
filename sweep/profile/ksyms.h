/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's text symbols from /proc/kallsyms, to name the frames of a
 * profile.  BPF programs are there as bpf_prog_<tag>_<name> only while
 * they are loaded: read the table before the workload's teardown.
 */
#ifndef SWEEP_KSYMS_H
#define SWEEP_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ksym {
	uint64_t addr;
	const char *name;	/* into ksyms.names */
};

struct ksyms {
	struct ksym *sym;	/* sorted by address */
	int nr;
	char *names;		/* the file's text, its names cut out in place */
	bool hidden;		/* every address read 0: kptr_restrict, or not root */
};

/*
 * The text symbols (types t, T, w, W) of path, a kallsyms file: 0 or
 * -errno (-EFBIG beyond 64 MiB).  A file whose addresses are all 0 loads
 * with no symbols and hidden set.
 */
int ksyms_load(const char *path, struct ksyms *ks);

/* The name of the symbol ip falls in (the last at or below it), or NULL. */
const char *ksyms_name(const struct ksyms *ks, uint64_t ip);

void ksyms_free(struct ksyms *ks);

#endif
