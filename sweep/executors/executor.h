/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a sub-run runs: one interface with an implementation per place (a
 * child of this process, a VM that boots a kernel under test; docs/kernel.md)
 * and the orchestrator (orchestrator.h) that drives every one of them the
 * same way: prepare the place, run the sub-run's argv there with a timeout,
 * fetch the result directory it wrote into OUT/runs/<n>, clean up.
 */
#ifndef SWEEP_EXECUTOR_H
#define SWEEP_EXECUTOR_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels.h"
#include "meta.h"
#include "shard.h"
#include "vm_probe.h"

/* One sub-run: what the orchestrator asks for, and what its executor found. */
struct subrun_slot {
	int index;			/* from 0: OUT/runs/<index + 1> */
	const char *label;		/* what it is for: a kernel value of the axis, a host */
	const char *local;		/* OUT/runs/<n> (or the caller's): where its result ends up */
	struct executor *ex;		/* what runs it (orch_add()) */
	int nr_todo;			/* the points it runs (a fleet's host: its share's) */
	struct shard shard;		/* a place's share of the points (count 0: all) */
	const char *tag;		/* one more --tag K=V of a new result, or NULL */
	/*
	 * A sweep over kernels with decide (conductor.h): the gate the sub-run
	 * opens (gate.h; NULL: none), and the FIFO pair here that its place
	 * connects to it (a VM's second serial port), named as gate_open() does
	 */
	const char *gate;
	const char *gate_pipe;
	int ended;			/* its run returned (__atomic: the conductor reads it) */
	bool done;			/* nothing to run: its result is whole from before */
	bool prepared;			/* its place is ready: run it */
	bool refused;			/* the check before the runs refused: nothing runs */
	/* by prepare: where the sub-run writes, as it names it (-o or --resume) */
	char dir[PATH_MAX + 32];
	bool resume;			/* dir holds a partial result to continue */
	/* its settings file here (subrun.h): a place with other files gets a copy */
	char settings[PATH_MAX + 32];
	const char *accel;		/* a VM's accelerator (guest-accel), or NULL */
	const char *accel_reason;	/* why vm_accel = auto is tcg, or NULL */
	/* OUT (held) and OUT/subrun as realpath() names it: see executor_host_spawn() */
	const char *out, *sub_dir;
	/* a place that is another machine (a fleet's host): its facts, for failed rows */
	struct told_host place;
	/* by run: how it ended */
	int status;			/* bpfsweep's exit status; -1: it did not finish */
	bool interrupted;		/* a stop request (stop.h) cut it short */
	char why[1100];			/* why its points that have no row have none */
};

struct executor;

struct executor_ops {
	/* The place for slot s: s->dir and s->resume; -errno with s->why. */
	int (*prepare)(struct executor *ex, struct subrun_slot *s);
	/* argv there, at most timeout_ns: 0 with s->status and s->why, or -errno with s->why. */
	int (*run)(struct executor *ex, struct subrun_slot *s, const char *const *argv,
		   uint64_t timeout_ns);
	/* Whatever result directory it wrote, into s->local (after run, or a failed prepare). */
	int (*fetch)(struct executor *ex, struct subrun_slot *s);
	/* What prepare made and the result does not need; may be NULL. */
	void (*cleanup)(struct executor *ex, struct subrun_slot *s);
};

/* Embedded first in each implementation's state. */
struct executor {
	const struct executor_ops *ops;
};

/* A child of this process, on this machine's kernel (executor_host.c). */
extern struct executor executor_host;

/*
 * argv as a child of this process, at most timeout_ms (then killed): its
 * exit status as a shell says it, or -errno (reported).  The sub-run shares
 * the terminal: a Ctrl-C reaches it, and it stops at a point boundary.
 * Its paths beneath s->out (OUT as held here, or OUT/subrun as s->sub_dir
 * names it) reach it as /proc/self/fd/FD/..., FD its inherited descriptor
 * of the held OUT: a user who can rename OUT away and put a symlink there
 * cannot hand this root child another spec, settings or directory.
 */
int executor_host_spawn(const struct subrun_slot *s, const char *const *argv,
			uint64_t timeout_ns);

/*
 * path, when it lies beneath s->out or s->sub_dir, as /proc/self/fd/FD/...
 * in buf (FD a descriptor of the held OUT that the child inherits); else
 * path itself.
 */
const char *executor_through_fd(const struct subrun_slot *s, const char *path, int fd, char *buf,
				size_t len);

/* A VM that boots a kernel of the axis (executor_vm.c). */
struct executor_vm {
	struct executor ex;
	const struct kernel_axis *ka;	/* CPUs, memory, boot timeout; the kernel values */
	const char *out;		/* OUT: its shares go in OUT/vm/<n> */
	const char *cwd;		/* the sub-run's working directory (the host's path) */
	struct vm_accel_pick accel;	/* what runs every VM of the sweep, probed once */
	int accel_err;			/* vm_accel = kvm that cannot run: every VM fails */
	char accel_why[700];
	/* the current slot's share and console */
	char share[PATH_MAX + 40];
	char console[PATH_MAX + 64];
	char result[PATH_MAX + 64];
};

/*
 * vm ready to run the VMs of the kernel axis ka, sharing OUT/vm; the
 * accelerator probed once (its refusal said on stderr: every VM then fails).
 */
void executor_vm_init(struct executor_vm *vm, const struct kernel_axis *ka, const char *out,
		      const char *cwd);

#endif
