/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fleet's engines (fleet_host.c over ssh, fleet_slurm.c over
 * Slurm) do alike for one host's job (fleet_host.h): each step a child
 * started from an argv, its output appended to the host's log, cut short
 * by a stop request (stop.h); the answers and the reason of a failure
 * read back from that log; the probe every host runs; which bpfsweep runs
 * there; a result that came back moved into OUT/hosts/<label>; and the
 * job's outcome said on stderr.
 */
#ifndef SWEEP_FLEET_STEP_H
#define SWEEP_FLEET_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "fleet_job.h"

#define FLEET_STEP_TIMEOUT_MS	(120 * 1000)
/* once a host is being stopped: each step, and the run's end after its SIGINT, at most */
#define FLEET_STOP_STEP_MS	(10 * 1000)
#define FLEET_STOP_GRACE_MS	(15 * 1000)

/*
 * The probe, a shell script of constants run there with "$1" the
 * directory an earlier attempt kept (or ""): its answers are tagged lines
 * (arch:, kernel_release:, nproc:, cpu_model:, dir:, version:, ...).
 */
extern const char fleet_probe_script[];

/*
 * argv with its output appended to j's log, in a process group of its own
 * (a Ctrl-C at the terminal reaches fleet alone), pass_fd (above 2) left
 * open in it.  -EINTR without starting it after a stop request, unless j
 * is being stopped.
 */
int fleet_start(struct fleet_job *j, const char *const *argv, int pass_fd, pid_t *pid);

/*
 * argv as fleet_start() starts it: its exit status, or -errno; -EINTR when
 * a stop request cut it (killed).  Once j is being stopped, a step is not
 * cut but takes FLEET_STOP_STEP_MS at most.
 */
int fleet_step(struct fleet_job *j, const char *const *argv, int pass_fd,
	       unsigned int timeout_ms);

/* The size of j's log: where a step's output begins. */
off_t fleet_log_size(const struct fleet_job *j);

/* j->why: what, then the last lines the log got since from, joined by " / ". */
void fleet_reason(struct fleet_job *j, off_t from, const char *what);

/* Bytes that a terminal or a meta line must not get, replaced by '?'. */
void fleet_clean(char *s);

/* The value of text's first line "key: value" into buf ("" when none), cleaned. */
void fleet_answer(const char *text, const char *key, char *buf, size_t len);

/* An absolute path of plain characters, without "..": one passed on as it is. */
bool fleet_plain_path(const char *p);

/* "host LABEL: what" on stderr. */
void fleet_progress(const struct fleet_job *j, const char *what);

double fleet_seconds_since(const struct timespec *t0);

/*
 * The probe's answers in j's log since from: j's arch, installed version
 * and facts, and its directory into dir (-EIO with j->why when it is no
 * plain path).  *text: the whole log, for more answers (free() it).
 */
int fleet_read_probe(struct fleet_job *j, off_t from, char *dir, size_t len, char **text);

/*
 * Which bpfsweep runs there (j->bin): the installed one when it is this
 * very version and commit (0); this build shipped before to shipped (0);
 * on another machine the installed one, said in j->note (0), or none
 * (-ENOEXEC with j->why); else 1: this build is to be shipped to shipped.
 */
int fleet_which_binary(struct fleet_job *j, const char *shipped);

/* OUT/remote/<label>: j->remote_dir, what fleet --resume continues; forgotten once whole. */
void fleet_record_remote(struct fleet_job *j);
void fleet_forget_remote(const struct fleet_job *j);

/*
 * tmp (beneath OUT/hosts) into OUT/hosts/<label>, replacing a copy that
 * is there (had) only once the new one is in place.  0, or -EIO with why.
 */
int fleet_result_into_place(struct fleet_job *j, const char *tmp, bool had);

/* A run that was stopped brings back what it finished if it ended by itself (130). */
bool fleet_came_back(const struct fleet_job *j, int st);

/*
 * The job's end said: "FAILED after T s: why" (or STOPPED, why then saying
 * when it was interrupted) when no result came back, else "done in T s"
 * (or what a stopped run brought back).
 */
void fleet_say_end(struct fleet_job *j);

struct fleet_job *fleet_job_of(struct executor *ex);

/* Its share came back whole: every point has its row, ok, unsupported or failed. */
bool fleet_shard_done(const struct fleet_job *j);

#endif
