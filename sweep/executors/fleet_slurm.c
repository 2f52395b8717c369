// SPDX-License-Identifier: GPL-2.0
/*
 * One machine of a fleet over Slurm: allocate, probe, ship, run, fetch,
 * cancel (fleet_slurm.h).  Each step appends its output to the machine's
 * log, as the ssh engine's do (fleet_step.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exitcode.h"
#include "fleet_slurm.h"
#include "fleet_step.h"
#include "heldir.h"
#include "resultdir.h"
#include "stop.h"
#include "subproc.h"
#include "textfile.h"

#define SLURM_MAX_ARGS	(SUBRUN_MAX_ARGS + 32)
#define SLURM_MAX_WORDS	(NR_SLURM_KEYS + 8)
/* a time limit Slurm adds to the sub-run's timeout: the probe, the copies, the clean-up */
#define SLURM_SETUP_MIN	5

/* The node's name, then the probe every host runs: "$1" is empty, its directory new. */
static const char probe_prefix[] = "printf 'node: %s\\n' \"$SLURMD_NODENAME\"; ";

/*
 * The run on the node: "$1" its directory, the rest bpfsweep's argv.  An
 * earlier attempt's result, shipped as prev.tar, is unpacked to continue
 * (run --resume); bpfsweep's stdout joins its stderr, so that the step's
 * stdout is the tar of the result alone; a SIGINT (scancel --signal=INT)
 * reaches bpfsweep, which ends at a point boundary, and the shell goes on
 * to send what it finished.  Its status is bpfsweep's, or 125 when the
 * result could not be packed or unpacked, and its last line says it:
 * srun exits 0 when the node fails under the step (Slurm 22.05), so a
 * step without that line did not end by itself.
 */
static const char run_script[] =
	"d=$1; shift; trap 'stopped=1' INT TERM; "
	"if [ -f \"$d/prev.tar\" ]; then mkdir -p \"$d/result\" && "
	"tar -xf \"$d/prev.tar\" -C \"$d/result\" --strip-components=1 || exit 125; fi; "
	"\"$@\" >&2; st=$?; "
	"if [ -d \"$d/result\" ]; then tar -cf - -C \"$d\" result || st=125; fi; "
	"printf 'run_status: %s\\n' \"$st\" >&2; exit $st";

/* An argv and the words formatted for it. */
struct slurm_argv {
	const char *argv[SLURM_MAX_ARGS + 1];
	int n;
	char words[SLURM_MAX_WORDS][SLURM_VALUE_LEN + PATH_MAX];
	int nr_words;
};

static void add(struct slurm_argv *a, const char *arg)
{
	if (a->n < SLURM_MAX_ARGS)
		a->argv[a->n++] = arg;
	a->argv[a->n] = NULL;
}

/* One formatted word, added. */
static void addf(struct slurm_argv *a, const char *fmt, ...)
{
	va_list ap;

	if (a->nr_words == SLURM_MAX_WORDS)
		return;
	va_start(ap, fmt);
	vsnprintf(a->words[a->nr_words], sizeof(a->words[0]), fmt, ap);
	va_end(ap);
	add(a, a->words[a->nr_words++]);
}

/* srun --jobid=J, one task on the node: the start of every step in the allocation. */
static void srun(struct slurm_argv *a, const struct fleet_job *j)
{
	a->n = a->nr_words = 0;
	add(a, "srun");
	addf(a, "--jobid=%s", j->slurm_job);
	add(a, "--nodes=1");
	add(a, "--ntasks=1");
	add(a, "--quiet");
}

/* The time limit: the machine's, else the sub-run's timeout and the set-up, in minutes. */
static void time_limit(struct slurm_argv *a, const struct fleet_job *j)
{
	unsigned long long min = j->ctx->timeout_ns / 60000000000ULL + 1 + SLURM_SETUP_MIN;

	if (j->machine->v[SK_TIME][0])
		addf(a, "--time=%s", j->machine->v[SK_TIME]);
	else
		addf(a, "--time=%llu", min);
}

/* "salloc: Granted job allocation 12" (or Pending): its job id, digits only. */
static void read_job_id(struct fleet_job *j, off_t from)
{
	char *text, *at;
	size_t len, n;

	if (read_text_file_max(j->log, 64 << 20, &text, &len))
		return;
	at = (size_t)from <= len ? strstr(text + from, "job allocation ") : NULL;
	n = at ? strspn(at + 15, "0123456789") : 0;
	if (n && n < sizeof(j->slurm_job))
		snprintf(j->slurm_job, sizeof(j->slurm_job), "%.*s", (int)n, at + 15);
	free(text);
}

/*
 * salloc --no-shell: an exclusive node, for as long as the sub-run's
 * timeout allows it to be pending.  A stop request revokes a pending
 * request (SIGINT to salloc, then scancel in cleanup with the job id it
 * printed).
 */
static int allocate(struct fleet_job *j)
{
	struct slurm_argv a = { .n = 0 };
	uint64_t ms = j->ctx->timeout_ns / 1000000;
	off_t from = fleet_log_size(j);
	pid_t pid;
	int st;

	add(&a, "salloc");
	add(&a, "--no-shell");
	add(&a, "--exclusive");
	add(&a, "--nodes=1");
	add(&a, "--ntasks=1");
	addf(&a, "--job-name=bpfsweep-%s", j->h->label);
	for (int k = 0; k < SK_TIME; k++)
		if (j->machine->v[k][0])
			addf(&a, "--%s=%s", slurm_key_names[k], j->machine->v[k]);
	time_limit(&a, j);
	st = fleet_start(j, a.argv, -1, &pid);
	if (!st) {
		st = spawn_wait_stop(pid, ms > UINT32_MAX ? UINT32_MAX : ms, &stop_requested);
		if (st == -EINTR) {
			j->interrupted = j->stopping = true;
			kill(pid, SIGINT);
			spawn_wait(pid, FLEET_STOP_STEP_MS);
		}
	}
	read_job_id(j, from);
	if (!st && j->slurm_job[0])
		return 0;
	fleet_reason(j, from, st == -ETIMEDOUT || st == 137 ? "no node within the sub-run's "
		     "timeout" : "salloc failed");
	return -EIO;
}

/* The node's facts and a new directory there, from the probe every host runs. */
static int probe(struct fleet_job *j)
{
	struct slurm_argv a;
	char script[4096], node[128], *text, dir[PATH_MAX];
	off_t from = fleet_log_size(j);
	int st;

	snprintf(script, sizeof(script), "%s%s", probe_prefix, fleet_probe_script);
	srun(&a, j);
	add(&a, "sh");
	add(&a, "-c");
	add(&a, script);
	add(&a, "sh");
	st = fleet_step(j, a.argv, -1, FLEET_STEP_TIMEOUT_MS);
	if (st) {
		fleet_reason(j, from, "the probe on the node failed");
		return -EIO;
	}
	if (fleet_read_probe(j, from, dir, sizeof(dir), &text))
		return -EIO;
	fleet_answer(text + from, "node", node, sizeof(node));
	free(text);
	snprintf(j->remote_dir, sizeof(j->remote_dir), "%s", dir);
	snprintf(j->note, sizeof(j->note), "Slurm job %s on node %s", j->slurm_job,
		 node[0] ? node : "unknown");
	fleet_progress(j, j->note);
	return 0;
}

/*
 * The Slurm executor's place: a node allocated and probed; under --resume,
 * the result that came back from an earlier attempt (OUT/remote/<label>
 * says it is not whole) is continued there.
 */
static int slurm_prepare(struct executor *ex, struct subrun_slot *s)
{
	struct fleet_job *j = fleet_job_of(ex);

	j->run_status = -1;
	clock_gettime(CLOCK_MONOTONIC, &j->t0);
	fleet_progress(j, "asking Slurm for a node of its own");
	if (allocate(j) || probe(j)) {
		snprintf(s->why, sizeof(s->why), "%s", j->why);
		return -EIO;
	}
	j->resumes = j->old_dir[0] && !heldir_access(j->result);
	if (j->resumes)
		fleet_progress(j, "its earlier result came back partial: continuing it there");
	snprintf(s->dir, sizeof(s->dir), "%s/result", j->remote_dir);
	s->resume = j->resumes;
	return 0;
}

/* src (here; pass_fd above 2: left open for it) to DIR/name on the node. */
static int bcast(struct fleet_job *j, const char *src, const char *name, int pass_fd)
{
	struct slurm_argv a = { .n = 0 };
	off_t from = fleet_log_size(j);
	int st;

	add(&a, "sbcast");
	addf(&a, "--jobid=%s", j->slurm_job);
	add(&a, "--force");
	add(&a, "--preserve");
	add(&a, "--");
	add(&a, src);
	addf(&a, "%s/%s", j->remote_dir, name);
	st = fleet_step(j, a.argv, pass_fd, FLEET_STEP_TIMEOUT_MS);
	if (st)
		fleet_reason(j, from, "sbcast to the node failed");
	return st ? -EIO : 0;
}

/* The bpfsweep the node runs: installed there, or this build, shipped and started once. */
static int pick_binary(struct fleet_job *j, char *shipped, size_t len)
{
	struct slurm_argv a;
	off_t from;
	int st;

	snprintf(shipped, len, "%s/bpfsweep", j->remote_dir);
	st = fleet_which_binary(j, shipped);
	if (st <= 0)
		return st;
	if (bcast(j, j->ctx->self, "bpfsweep", -1))
		return -EIO;
	srun(&a, j);
	add(&a, shipped);
	add(&a, "--version");
	from = fleet_log_size(j);
	/* a node without libbpf, libelf, json-c, gsl or libcsv fails here, with the loader's words */
	if (fleet_step(j, a.argv, -1, FLEET_STEP_TIMEOUT_MS)) {
		fleet_reason(j, from, "the shipped bpfsweep does not start there");
		return -ENOEXEC;
	}
	j->bin = shipped;
	return 0;
}

/*
 * OUT/hosts/<label>, the partial result of an earlier attempt, as
 * OUT/hosts/.<label>.prev.tar: tar reads and writes beneath OUT/hosts as
 * held here (/proc/self/fd/N), shipped to DIR/prev.tar and removed.
 */
static int ship_partial(struct fleet_job *j)
{
	struct slurm_argv a = { .n = 0 };
	char name[HOST_LABEL_LEN + 16], file[HOST_LABEL_LEN + 64];
	int hosts = heldir_open_dir(j->ctx->hosts_dir), err;
	off_t from = fleet_log_size(j);

	if (hosts < 0)
		return hosts;
	snprintf(name, sizeof(name), ".%s.prev.tar", j->h->label);
	snprintf(file, sizeof(file), "/proc/self/fd/%d/%s", hosts, name);
	add(&a, "tar");
	addf(&a, "--directory=/proc/self/fd/%d", hosts);
	addf(&a, "--file=%s", file);
	add(&a, "--create");
	add(&a, "--");
	add(&a, j->h->label);
	err = fleet_step(j, a.argv, hosts, FLEET_STEP_TIMEOUT_MS) ? -EIO : 0;
	if (err)
		fleet_reason(j, from, "cannot pack its earlier result");
	err = err ?: bcast(j, file, "prev.tar", hosts);
	unlinkat(hosts, name, 0);
	close(hosts);
	return err;
}

/*
 * The spec and the settings into DIR/spec, read by sbcast beneath OUT as
 * held here, through its inherited descriptor (/proc/self/fd/N/subrun/...):
 * a swap of OUT cannot send the node another file.  Their base names stay.
 */
static int ship_spec(struct fleet_job *j, const struct subrun_slot *s)
{
	char spec[PATH_MAX + 64], settings[PATH_MAX + 64], name[PATH_MAX];
	int out = heldir_open_dir(s->out), err;

	if (out < 0) {
		snprintf(j->why, sizeof(j->why), "cannot open %.700s: %s", s->out,
			 strerror(-out));
		return out;
	}
	snprintf(name, sizeof(name), "spec/%s", j->ctx->spec_name);
	err = bcast(j, executor_through_fd(s, j->ctx->spec_path, out, spec, sizeof(spec)), name,
		    out);
	snprintf(name, sizeof(name), "spec/%s", strrchr(s->settings, '/') + 1);
	err = err ?: bcast(j, executor_through_fd(s, s->settings, out, settings,
						  sizeof(settings)), name, out);
	close(out);
	return err;
}

/* SIGINT to the job's steps: the run's bpfsweep ends the point it runs, and the tar follows. */
static void stop_run(struct fleet_job *j)
{
	struct slurm_argv a = { .n = 0 };

	j->interrupted = j->stopping = true;
	fleet_progress(j, "stopping its run: SIGINT there (scancel --signal=INT), which ends "
		       "the point it runs");
	add(&a, "scancel");
	add(&a, "--signal=INT");
	add(&a, j->slurm_job);
	fleet_step(j, a.argv, -1, FLEET_STOP_STEP_MS);
}

/*
 * The run as a job step: its stderr into the log, its stdout (the tar of
 * its result) into OUT/hosts/.<label>.tar.  Its exit status, or -errno.
 */
static int run_step(struct fleet_job *j, const struct slurm_argv *a, unsigned int timeout_ms)
{
	char tar[HOST_LABEL_LEN + 16];
	int hosts = heldir_open_dir(j->ctx->hosts_dir), out, log, st;
	pid_t pid;

	if (hosts < 0)
		return hosts;
	snprintf(tar, sizeof(tar), ".%s.tar", j->h->label);
	out = openat(hosts, tar, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	close(hosts);
	log = heldir_open(j->log, O_WRONLY | O_APPEND | O_CREAT, 0644);
	st = out < 0 || log < 0 ? -errno : stop_requested ? -EINTR :
	     spawn(a->argv, &(struct spawn_opts){ .out_fd = out, .err_fd = log,
						  .own_group = true }, &pid);
	if (out >= 0)
		close(out);
	if (log >= 0)
		close(log);
	if (st) {
		j->interrupted = st == -EINTR;
		return st;
	}
	st = spawn_wait_stop(pid, timeout_ms, &stop_requested);
	if (st != -EINTR)
		return st;
	stop_run(j);
	/* past the grace srun is killed; cleanup's scancel ends what is left of the job */
	return spawn_wait(pid, FLEET_STOP_GRACE_MS);
}

/* The run's script said its status ("run_status: N") in the log since from. */
static bool said_status(const struct fleet_job *j, off_t from)
{
	char *text, st[16];
	size_t len;

	if (read_text_file_max(j->log, 64 << 20, &text, &len))
		return false;
	fleet_answer((size_t)from <= len ? text + from : "", "run_status", st, sizeof(st));
	free(text);
	return st[0];
}

/*
 * argv there: its bpfsweep (argv[0], this one's path), its spec and its
 * settings (the files here, subrun.h) are the node's, shipped as need be.
 * 0 when a result came back to unpack.
 */
static int slurm_run(struct executor *ex, struct subrun_slot *s, const char *const *argv,
		     uint64_t timeout_ns)
{
	struct fleet_job *j = fleet_job_of(ex);
	char shipped[PATH_MAX + 16];
	uint64_t ms = timeout_ns / 1000000;
	struct slurm_argv a;
	off_t from;
	int st;

	if (pick_binary(j, shipped, sizeof(shipped)) || ship_spec(j, s) ||
	    (j->resumes && ship_partial(j)))
		goto fail;
	srun(&a, j);
	add(&a, "sh");
	add(&a, "-c");
	add(&a, run_script);
	add(&a, "sh");
	add(&a, j->remote_dir);
	for (int i = 0; argv[i]; i++) {
		if (i == SUBRUN_ARGV_SELF)
			add(&a, j->bin);
		else if (i == SUBRUN_ARGV_SPEC || i == SUBRUN_ARGV_SETTINGS)
			addf(&a, "%s/spec/%s", j->remote_dir, i == SUBRUN_ARGV_SPEC ?
			     j->ctx->spec_name : strrchr(s->settings, '/') + 1);
		else
			add(&a, argv[i]);
	}
	fleet_progress(j, j->resumes ? "running the spec's points left" : "running the spec");
	from = fleet_log_size(j);
	st = run_step(j, &a, ms > UINT32_MAX ? UINT32_MAX : ms);
	if (st >= 0 && !said_status(j, from))
		st = st ?: -EIO;
	j->run_status = s->status = st;
	s->interrupted = j->interrupted;
	/*
	 * srun's own failure (a node that died) is 1 too, bpfsweep's status for
	 * a failed row: the reason is kept for a run whose result does not
	 * come back whole, and unused otherwise
	 */
	if (st != 0 && !j->interrupted)
		fleet_reason(j, from, "the run failed");
	j->to_fetch = true;
	return 0;
fail:
	snprintf(s->why, sizeof(s->why), "%s", j->why);
	return -EIO;
}

/* The tar that came back, unpacked into OUT/hosts/.<label>.new (beneath OUT/hosts as held). */
static int unpack(struct fleet_job *j, int hosts, const char *tar, const char *tmp)
{
	struct slurm_argv a = { .n = 0 };
	off_t from = fleet_log_size(j);
	struct stat st;
	int err;

	if (fstatat(hosts, tar, &st, AT_SYMLINK_NOFOLLOW) || !st.st_size) {
		if (!j->why[0])
			snprintf(j->why, sizeof(j->why), "no result came back from the node");
		return -ENOENT;
	}
	err = mkdirat(hosts, tmp, 0755) ? -errno : 0;
	add(&a, "tar");
	addf(&a, "--directory=/proc/self/fd/%d/%s", hosts, tmp);
	addf(&a, "--file=/proc/self/fd/%d/%s", hosts, tar);
	add(&a, "--extract");
	add(&a, "--strip-components=1");
	add(&a, "--no-same-owner");
	err = err ?: fleet_step(j, a.argv, hosts, FLEET_STEP_TIMEOUT_MS) ? -EIO : 0;
	if (err && !j->why[0])
		fleet_reason(j, from, "what came back from the node is no whole tar");
	return err;
}

/*
 * What the run sent back into OUT/hosts/<label>, replacing an earlier copy
 * only once whole.  A result that is not its share's whole (the run
 * stopped or failed) is recorded in OUT/remote/<label>, the node's
 * directory it ran in, so that --resume continues it.
 */
static int slurm_fetch(struct executor *ex, struct subrun_slot *s)
{
	struct fleet_job *j = fleet_job_of(ex);
	char tar[HOST_LABEL_LEN + 16], tmp[HOST_LABEL_LEN + 16], path[sizeof(j->result) + 8];
	int hosts = j->to_fetch ? heldir_open_dir(j->ctx->hosts_dir) : -ENOENT, err;
	bool had;

	if (hosts < 0) {
		snprintf(s->why, sizeof(s->why), "%s", j->why);
		return hosts;
	}
	snprintf(tar, sizeof(tar), ".%s.tar", j->h->label);
	snprintf(tmp, sizeof(tmp), ".%s.new", j->h->label);
	snprintf(path, sizeof(path), "%s/%s", j->ctx->hosts_dir, tmp);
	resultdir_remove_tree(path);
	err = unpack(j, hosts, tar, tmp);
	had = !faccessat(hosts, j->h->label, F_OK, AT_SYMLINK_NOFOLLOW);
	unlinkat(hosts, tar, 0);
	close(hosts);
	err = err ?: fleet_result_into_place(j, path, had);
	if (err)
		resultdir_remove_tree(path);
	j->ok = !err;
	if (j->ok && fleet_shard_done(j))
		fleet_forget_remote(j);
	else if (j->ok)
		fleet_record_remote(j);
	if (err)
		snprintf(s->why, sizeof(s->why), "%s", j->why);
	return err;
}

/* The node's directory removed, then the allocation cancelled: nothing stays queued or running. */
static void release(struct fleet_job *j)
{
	struct slurm_argv a;

	/* the job's last steps: a stop request does not cut them */
	j->stopping = true;
	if (!j->slurm_job[0])
		return;
	if (j->remote_dir[0]) {
		srun(&a, j);
		/* beside a run step that outlived its srun, if any: scancel ends both next */
		add(&a, "--overlap");
		add(&a, "rm");
		add(&a, "-rf");
		add(&a, "--");
		add(&a, j->remote_dir);
		if (fleet_step(j, a.argv, -1, FLEET_STOP_STEP_MS))
			fleet_progress(j, "could not remove its directory on the node");
	}
	a.n = a.nr_words = 0;
	add(&a, "scancel");
	add(&a, j->slurm_job);
	/* its time limit still ends it (the log says why scancel failed) */
	if (fleet_step(j, a.argv, -1, FLEET_STOP_STEP_MS))
		fleet_progress(j, "scancel of its job failed: Slurm ends it at its time limit");
}

/* The job's end: the node released, whatever happened before, and the outcome said. */
static void slurm_cleanup(struct executor *ex, struct subrun_slot *s)
{
	struct fleet_job *j = fleet_job_of(ex);

	release(j);
	if (s->refused && s->prepared)
		return;
	j->interrupted = j->interrupted || s->interrupted;
	/* a run that finished before its stop came to it is whole: not interrupted */
	if (j->ok && fleet_shard_done(j))
		j->interrupted = false;
	fleet_say_end(j);
}

static const struct executor_ops slurm_ops = {
	.prepare = slurm_prepare,
	.run = slurm_run,
	.fetch = slurm_fetch,
	.cleanup = slurm_cleanup,
};

void fleet_slurm_init(struct fleet_job *j, const struct slurm_machine *m)
{
	j->ex.ops = &slurm_ops;
	j->machine = m;
}
