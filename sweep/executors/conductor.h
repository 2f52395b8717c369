/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rounds across kernels ([sweep] decide with two or more kernels,
 * docs/kernel.md "Base vs patched, decided"): every kernel's sub-run runs
 * at once, its guest kept up, and each point's units alternate between
 * them in rounds, in an order shuffled anew each round (GSL's mt19937
 * seeded with the point id + 1, as rounds.c's arms), through each
 * sub-run's gate (gate.h, gateline.h).  The first kernel is the baseline:
 * every other kernel's log ratio to it, round by round, is decided by
 * decide.h's sequential rule, and rounds are added until each is decided
 * or the budget (max_repeat rounds, max_time) ends.  Each sub-run's row
 * then carries its decision.  What boots cost is why the guests are kept:
 * a TCG boot takes 9 to 16 s here, a unit a few.
 */
#ifndef SWEEP_CONDUCTOR_H
#define SWEEP_CONDUCTOR_H

#include <pthread.h>
#include <stdbool.h>

#include "executor.h"
#include "gateline.h"
#include "kernels.h"
#include "plan.h"

struct conductor {
	const struct sweep_cfg *cfg;
	const struct plan *plan;	/* names the points in what it prints */
	int nr;				/* sub-runs, a kernel each; 0 is the baseline */
	struct subrun_slot *slots;	/* their ended flags: a sub-run gone is let go */
	char dir[64];			/* a private directory of the FIFO pairs */
	char pipes[MAX_KERNELS][96];	/* each pair's name, as gate_open() takes it */
	int to[MAX_KERNELS];		/* <pipe>.in: our words to it */
	int from[MAX_KERNELS];		/* <pipe>.out: its words to us */
	struct gate_reader readers[MAX_KERNELS];
	bool live[MAX_KERNELS];		/* still speaking the gate's words */
	pthread_t thread;
	bool started;
	int nr_points, nr_decided;	/* points run in rounds, and of them decided */
};

/* The nr FIFO pairs, made and held open; 0 or -errno (said). */
int conductor_open(struct conductor *c, const struct sweep_cfg *cfg, const struct plan *plan,
		   int nr);

/* The rounds, in a thread of their own, over slots[0..c->nr): 0 or -errno. */
int conductor_start(struct conductor *c, struct subrun_slot *slots);

/* After the sub-runs: the thread joined, the FIFOs closed and removed. */
void conductor_finish(struct conductor *c);

#endif
