// SPDX-License-Identifier: GPL-2.0
/*
 * One host of a fleet: probe, ship, run, fetch, clean (fleet.h).  Each
 * step appends its ssh or scp output to the host's log; a step that fails
 * gives the host's reason from the last lines it added there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exitcode.h"
#include "fleet_host.h"
#include "fleet_step.h"
#include "heldir.h"
#include "resultdir.h"
#include "shquote.h"
#include "stop.h"
#include "subproc.h"
#include "subrun.h"
#include "textfile.h"

#define SSH_MAX_ARGS		(SUBRUN_MAX_ARGS + 32)
#define REMOTE_CMD_LEN		(64 * 1024)

/* The run's shell says the pid bpfsweep will have (exec keeps it): stop_remote() needs it. */
static const char run_prefix[] = "printf 'remote_pid: %s\\n' \"$$\"; exec ";

struct argv_buf {
	const char *argv[SSH_MAX_ARGS + 1];
	int n;
	int pass_fd;		/* above 2: left open in the child (spawn_opts.pass_fd) */
	char port[16];
	char ctl[PATH_MAX + 16];
	char target[PATH_MAX + HOST_NAME_LEN * 2 + 32];
};

static void add(struct argv_buf *a, const char *arg)
{
	if (a->n < SSH_MAX_ARGS)
		a->argv[a->n++] = arg;
	a->argv[a->n] = NULL;
}

/* ssh or scp, with the options every step has: no prompt, no hang on a dead host. */
static void tool(struct argv_buf *a, const struct fleet_job *j, const char *prog)
{
	const struct host *h = j->h;

	a->n = 0;
	a->pass_fd = -1;
	add(a, prog);
	if (j->ctx->ssh_config) {
		add(a, "-F");
		add(a, j->ctx->ssh_config);
	}
	add(a, "-o");
	add(a, "BatchMode=yes");
	add(a, "-o");
	add(a, "ConnectTimeout=10");
	add(a, "-o");
	add(a, "ServerAliveInterval=5");
	add(a, "-o");
	add(a, "ServerAliveCountMax=3");
	/* the first step opens the connection, the others ride on it; see mux_close() */
	add(a, "-o");
	add(a, "ControlMaster=auto");
	add(a, "-o");
	add(a, "ControlPersist=60");
	snprintf(a->ctl, sizeof(a->ctl), "ControlPath=%s", j->ctl);
	add(a, "-o");
	add(a, a->ctl);
	if (h->port) {
		snprintf(a->port, sizeof(a->port), "%u", h->port);
		add(a, strcmp(prog, "scp") ? "-p" : "-P");
		add(a, a->port);
	}
}

/* ssh ... -- [user@]host COMMAND: the remote line, already quoted or constant. */
static void ssh_argv(struct argv_buf *a, const struct fleet_job *j, const char *line)
{
	const struct host *h = j->h;

	tool(a, j, "ssh");
	if (h->user[0]) {
		add(a, "-l");
		add(a, h->user);
	}
	add(a, "--");
	add(a, h->name);
	add(a, line);
}

/* [user@]host:path for scp, IPv6 in brackets. */
static const char *scp_target(struct argv_buf *a, const struct host *h, const char *path)
{
	bool v6 = strchr(h->name, ':');

	snprintf(a->target, sizeof(a->target), "%s%s%s%s%s:%s", h->user, h->user[0] ? "@" : "",
		 v6 ? "[" : "", h->name, v6 ? "]" : "", path);
	return a->target;
}

/* "set -- 'DIR'; <fleet_probe_script>": the directory an earlier attempt kept, or "". */
static int probe_line(const struct fleet_job *j, char *buf, size_t len)
{
	size_t n = snprintf(buf, len, "set -- ");

	if (n >= len || shquote(j->old_dir, buf + n, len - n))
		return -ENAMETOOLONG;
	n += strlen(buf + n);
	return snprintf(buf + n, len - n, "; %s", fleet_probe_script) < (int)(len - n) ? 0 :
	       -ENAMETOOLONG;
}

/* What the probe found of an earlier attempt's directory, said on the terminal. */
static void take_again(struct fleet_job *j, const char *text)
{
	char yes[8];

	fleet_answer(text, "reused", yes, sizeof(yes));
	if (j->old_dir[0] && strcmp(yes, "yes"))
		fleet_progress(j, "its directory of an earlier attempt is gone: starting over");
	fleet_answer(text, "result", yes, sizeof(yes));
	j->resumes = !strcmp(yes, "yes");
	if (j->resumes)
		fleet_progress(j, "its directory of an earlier attempt is there: continuing its run");
	fleet_answer(text, "shipped", j->shipped_version, sizeof(j->shipped_version));
}

static int probe(struct fleet_job *j)
{
	char line[4096 + PATH_MAX * 4 + 32];
	struct argv_buf a;
	off_t from = fleet_log_size(j);
	char *text, dir[PATH_MAX];
	int st;

	if (probe_line(j, line, sizeof(line))) {
		snprintf(j->why, sizeof(j->why), "its remote directory's name is too long");
		return -ENAMETOOLONG;
	}
	ssh_argv(&a, j, line);
	st = fleet_step(j, a.argv, a.pass_fd, FLEET_STEP_TIMEOUT_MS);
	if (st) {
		fleet_reason(j, from, st == 255 ? "ssh failed" : "probe failed");
		return -EIO;
	}
	if (fleet_read_probe(j, from, dir, sizeof(dir), &text))
		return -EIO;
	take_again(j, text + from);
	free(text);
	snprintf(j->remote_dir, sizeof(j->remote_dir), "%s", dir);
	fleet_record_remote(j);
	return 0;
}

/* scp local files into the remote directory; pass_fd above 2: left open for scp (fleet_start()). */
static int put(struct fleet_job *j, const char *const *files, int nr, const char *sub,
	       int pass_fd)
{
	char to[PATH_MAX + 16];

	struct argv_buf a;
	off_t from = fleet_log_size(j);
	int st;

	tool(&a, j, "scp");
	a.pass_fd = pass_fd;
	add(&a, "-q");
	add(&a, "--");
	for (int i = 0; i < nr; i++)
		add(&a, files[i]);
	snprintf(to, sizeof(to), "%s%s", j->remote_dir, sub);
	add(&a, scp_target(&a, j->h, to));
	st = fleet_step(j, a.argv, a.pass_fd, FLEET_STEP_TIMEOUT_MS);
	if (st)
		fleet_reason(j, from, "copying to the host failed");
	return st ? -EIO : 0;
}

/* A remote command of quoted words, output to the log; its exit status or -errno. */
static int remote(struct fleet_job *j, const char *const *words, unsigned int timeout_ms)
{
	char line[REMOTE_CMD_LEN];
	struct argv_buf a;

	if (shquote_argv(words, line, sizeof(line)))
		return -ENAMETOOLONG;
	ssh_argv(&a, j, line);
	return fleet_step(j, a.argv, a.pass_fd, timeout_ms);
}

/*
 * Which bpfsweep runs there: the installed one when it is this very
 * version and commit, else this build, shipped, when the host's machine
 * is ours; else the installed one (said so) or none.
 */
static int pick_binary(struct fleet_job *j)
{
	char *shipped = j->shipped_bin;
	const char *files[] = { j->ctx->self };
	const char *ver[] = { shipped, "--version", NULL };
	off_t from;
	int st;

	snprintf(shipped, sizeof(j->shipped_bin), "%s/bpfsweep", j->remote_dir);
	st = fleet_which_binary(j, shipped);
	if (st <= 0)
		return st;
	if (put(j, files, 1, "", -1))
		return -EIO;
	from = fleet_log_size(j);
	/* a host without libbpf, libelf, json-c, gsl or libcsv fails here, with the loader's words */
	if (remote(j, ver, FLEET_STEP_TIMEOUT_MS)) {
		fleet_reason(j, from, "the shipped bpfsweep does not start there");
		return -ENOEXEC;
	}
	j->bin = shipped;
	return 0;
}

/*
 * A stop request during the run: SIGINT to the remote bpfsweep, whose pid
 * is the first line its shell printed (run_prefix).  It ends the point it
 * runs as "interrupted", as at a terminal, writes its table and exits 130,
 * and its ssh ends with it.  The pid is still the run's: its ssh is alive,
 * and ends when the remote process does.  Without a pid (the shell had
 * not begun), killing ssh is enough: the run then dies of SIGPIPE at its
 * first line of progress, before its first point.
 */
static void stop_remote(struct fleet_job *j, off_t from)
{
	char *text, pid[32];
	const char *kill_int[] = { "kill", "-INT", pid, NULL };
	size_t len;

	if (read_text_file_max(j->log, 64 << 20, &text, &len))
		return;
	fleet_answer((size_t)from <= len ? text + from : "", "remote_pid", pid, sizeof(pid));
	free(text);
	if (pid[0] && strspn(pid, "0123456789") == strlen(pid))
		remote(j, kill_int, FLEET_STOP_STEP_MS);
}

/* The run's ssh: its exit status, once the run ends or has been stopped. */
static int run_wait(struct fleet_job *j, pid_t pid, off_t from, unsigned int timeout_ms)
{
	int st = spawn_wait_stop(pid, timeout_ms, &stop_requested);

	if (st != -EINTR)
		return st;
	j->interrupted = j->stopping = true;
	fleet_progress(j, "stopping its run: SIGINT there, which ends the point it runs");
	stop_remote(j, from);
	/* past the grace, ssh is killed: the remote run then stops at its next line */
	return spawn_wait(pid, FLEET_STOP_GRACE_MS);
}

static int run_spec(struct fleet_job *j, const struct subrun_argv *a, unsigned int timeout_ms)
{
	char line[REMOTE_CMD_LEN];
	struct argv_buf ssh;
	size_t n = snprintf(line, sizeof(line), "%s", run_prefix);
	off_t from = fleet_log_size(j);
	pid_t pid;
	int st;

	if (shquote_argv(a->argv, line + n, sizeof(line) - n)) {
		snprintf(j->why, sizeof(j->why), "the remote command line is too long");
		return -ENAMETOOLONG;
	}
	ssh_argv(&ssh, j, line);
	fleet_progress(j, j->resumes ? "running the spec's points left" : "running the spec");
	st = fleet_start(j, ssh.argv, ssh.pass_fd, &pid);
	if (!st)
		st = run_wait(j, pid, from, timeout_ms);
	j->run_status = st;
	if (st != 0 && st != EXIT_POINTS_FAILED && !j->interrupted)
		fleet_reason(j, from, st == 255 ? "ssh failed during the run" : "the run failed");
	return st;
}

/*
 * DIR/result into OUT/hosts/<label>, through OUT/hosts/.<label>.new: a
 * resumed host's earlier copy is replaced only by a whole new one.
 */
static int fetch(struct fleet_job *j)
{
	char src[PATH_MAX + 16], tmp[sizeof(j->result) + 8];
	char dst[HOST_LABEL_LEN + 64];
	struct argv_buf a;
	off_t from = fleet_log_size(j);
	int st, hosts = heldir_open_dir(j->ctx->hosts_dir);
	bool had;

	snprintf(src, sizeof(src), "%s/result", j->remote_dir);
	snprintf(tmp, sizeof(tmp), "%s/.%s.new", j->ctx->hosts_dir, j->h->label);
	/* scp makes it beneath OUT/hosts as held here, through its inherited descriptor */
	snprintf(dst, sizeof(dst), "/proc/self/fd/%d/.%s.new", hosts, j->h->label);
	resultdir_remove_tree(tmp);
	tool(&a, j, "scp");
	a.pass_fd = hosts;
	add(&a, "-q");
	add(&a, "-r");
	add(&a, "--");
	add(&a, scp_target(&a, j->h, src));
	add(&a, dst);
	st = hosts < 0 ? hosts : fleet_step(j, a.argv, a.pass_fd, FLEET_STEP_TIMEOUT_MS);
	/* what is there is looked for beneath the held OUT/hosts too, not at a swapped path */
	st = st ?: faccessat(hosts, strrchr(dst, '/') + 1, F_OK, AT_SYMLINK_NOFOLLOW);
	had = hosts >= 0 && !faccessat(hosts, j->h->label, F_OK, AT_SYMLINK_NOFOLLOW);
	if (hosts >= 0)
		close(hosts);
	if (st && !j->why[0])
		fleet_reason(j, from, "copying the result back failed");
	if (st) {
		resultdir_remove_tree(tmp);
		return -EIO;
	}
	return fleet_result_into_place(j, tmp, had);
}

/*
 * The remote directory goes once its whole result is here; a failed host
 * keeps it.  Forgotten first: the host is done whether or not rm works.
 */
static void cleanup(struct fleet_job *j)
{
	const char *rm[] = { "rm", "-rf", "--", j->remote_dir, NULL };

	fleet_forget_remote(j);
	j->stopping = true;
	if (remote(j, rm, FLEET_STEP_TIMEOUT_MS))
		fleet_progress(j, "could not remove its temporary directory");
}

/* The host's shared connection ends with its job (ControlPersist is only a safety net). */
static void mux_close(struct fleet_job *j)
{
	struct argv_buf a;

	/* the job's last step: a stop request does not cut it */
	j->stopping = true;
	tool(&a, j, "ssh");
	add(&a, "-O");
	add(&a, "exit");
	add(&a, "--");
	add(&a, j->h->name);
	fleet_step(j, a.argv, a.pass_fd, FLEET_STEP_TIMEOUT_MS);
}

/* The ssh executor's place: the host probed, its remote directory made or taken again. */
static int ssh_prepare(struct executor *ex, struct subrun_slot *s)
{
	struct fleet_job *j = fleet_job_of(ex);

	j->run_status = -1;
	clock_gettime(CLOCK_MONOTONIC, &j->t0);
	fleet_progress(j, "connecting");
	if (probe(j)) {
		snprintf(s->why, sizeof(s->why), "%s", j->why);
		return -EIO;
	}
	snprintf(s->dir, sizeof(s->dir), "%s/result", j->remote_dir);
	s->resume = j->resumes;
	return 0;
}

/*
 * The spec and the settings into DIR/spec, read by scp beneath OUT as held
 * here, through its inherited descriptor (/proc/self/fd/N/subrun/...): a
 * swap of OUT cannot send the host another file.  Their base names stay.
 */
static int upload_spec(struct fleet_job *j, const struct subrun_slot *s)
{
	char spec[PATH_MAX + 64], settings[PATH_MAX + 64];
	const char *files[2];
	int out = heldir_open_dir(s->out), err;

	if (out < 0) {
		snprintf(j->why, sizeof(j->why), "cannot open %.700s: %s", s->out,
			 strerror(-out));
		return out;
	}
	files[0] = executor_through_fd(s, j->ctx->spec_path, out, spec, sizeof(spec));
	files[1] = executor_through_fd(s, s->settings, out, settings, sizeof(settings));
	err = put(j, files, 2, "/spec", out);
	close(out);
	return err;
}

/*
 * argv there: its bpfsweep (argv[0], this one's path), its spec and its
 * settings (the files here, subrun.h) are the host's, this build and the
 * two files shipped as need be.  0 when a result is there to fetch.
 */
static int ssh_run(struct executor *ex, struct subrun_slot *s, const char *const *argv,
		   uint64_t timeout_ns)
{
	char spec[PATH_MAX + 300], settings[PATH_MAX + 300];
	struct fleet_job *j = fleet_job_of(ex);
	uint64_t ms = timeout_ns / 1000000;
	struct subrun_argv a = { .n = 0 };
	int st;

	/* DIR/spec/<its name here>: the run's name comes from it, and no name clashes with ours */
	if (pick_binary(j) || upload_spec(j, s))
		goto fail;
	snprintf(spec, sizeof(spec), "%s/spec/%s", j->remote_dir, j->ctx->spec_name);
	snprintf(settings, sizeof(settings), "%s/spec/%s", j->remote_dir,
		 strrchr(s->settings, '/') + 1);
	for (int i = 0; argv[i]; i++)
		subrun_arg(&a, i == SUBRUN_ARGV_SELF ? j->bin : i == SUBRUN_ARGV_SPEC ? spec :
			   i == SUBRUN_ARGV_SETTINGS ? settings : argv[i]);
	st = run_spec(j, &a, ms > UINT32_MAX ? UINT32_MAX : ms);
	s->status = st;
	s->interrupted = j->interrupted;
	j->to_fetch = fleet_came_back(j, st);
	if (j->to_fetch)
		return 0;
fail:
	snprintf(s->why, sizeof(s->why), "%s", j->why);
	return -EIO;
}

/* DIR/result into OUT/hosts/<label>, when the run left one to copy. */
static int ssh_fetch(struct executor *ex, struct subrun_slot *s)
{
	struct fleet_job *j = fleet_job_of(ex);
	int err = j->to_fetch ? fetch(j) : -ENOENT;

	j->ok = !err;
	if (err)
		snprintf(s->why, sizeof(s->why), "%s", j->why);
	return err;
}

/*
 * The job's end: the remote directory goes once its whole result is here
 * (or when the fleet refused the host: nothing ran there), the
 * connection ends, and the outcome is said.
 */
static void ssh_cleanup(struct executor *ex, struct subrun_slot *s)
{
	struct fleet_job *j = fleet_job_of(ex);

	if (s->refused && s->prepared) {
		cleanup(j);
		mux_close(j);
		return;
	}
	j->interrupted = j->interrupted || s->interrupted;
	/* a run that finished before its stop came to it is whole: not interrupted */
	if (j->ok && fleet_shard_done(j)) {
		j->interrupted = false;
		cleanup(j);
	}
	mux_close(j);
	fleet_say_end(j);
}

static const struct executor_ops ssh_ops = {
	.prepare = ssh_prepare,
	.run = ssh_run,
	.fetch = ssh_fetch,
	.cleanup = ssh_cleanup,
};

void fleet_host_init(struct fleet_job *j)
{
	j->ex.ops = &ssh_ops;
}
