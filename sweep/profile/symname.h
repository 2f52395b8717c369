/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbol names as a reader compares and shows them: a BPF program's
 * kallsyms name "bpf_prog_<tag>_<name>" without its tag, which changes
 * with the program's bytes (another kernel, another compiler), so that
 * two runs' programs meet by name; and a name cut short for a table.
 */
#ifndef SWEEP_SYMNAME_H
#define SWEEP_SYMNAME_H

#include <stdbool.h>
#include <stddef.h>

#include "folded.h"

/* The length of a BPF program's tag in its kallsyms name: 8 bytes in hex. */
#define SYM_BPF_TAG_LEN	16

/* Is the frame at s (len bytes) a BPF program by its kallsyms name, "bpf_prog_<tag>_<name>"? */
bool sym_bpf_tagged(const char *s, size_t len);

/*
 * Every frame "bpf_prog_<16 hex digits>_<name>" of f's stacks becomes
 * "bpf_prog_<name>", in place; the lines that then name one stack are
 * merged (folded_merge()).  Other frames stay as they are.
 */
void folded_untag(struct folded *f);

/*
 * name into buf as a table shows it: at most width characters, a longer
 * one cut with "..." at its end.  Returns buf.
 */
const char *sym_short(const char *name, int width, char *buf, size_t len);

#endif
