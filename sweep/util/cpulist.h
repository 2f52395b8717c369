/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `cpus` column: where every thread of a point ran, in a form that
 * stays short for a thousand threads and never drops one.
 */
#ifndef SWEEP_CPULIST_H
#define SWEEP_CPULIST_H

/*
 * "cons 0 prod 1,0,1"; a list whose pattern repeats at least
 * CPULIST_MIN_REPEATS times is written "(0,1)x512", followed by ",0" for a
 * partial last round: "prod (0,1)x511,0" is 1023 producers.  cpu[] holds
 * the consumers' CPUs first, then the producers'.  *out is malloc()ed.
 * Returns 0 or -ENOMEM.
 */
#define CPULIST_MIN_REPEATS	4
int cpulist_describe(const int *cpu, int nr_cons, int nr_prod, char **out);

#endif
