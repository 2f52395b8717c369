// SPDX-License-Identifier: GPL-2.0
/*
 * One host of a fleet: probe, ship, run, fetch, clean (fleet.h).  Each
 * step appends its ssh or scp output to the host's log; a step that fails
 * gives the host's reason from the last lines it added there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fleet.h"
#include "shquote.h"
#include "subproc.h"
#include "subrun.h"
#include "textfile.h"

#define SSH_MAX_ARGS		(SUBRUN_MAX_ARGS + 32)
#define STEP_TIMEOUT_MS		(120 * 1000)
#define REMOTE_CMD_LEN		(64 * 1024)
#define REASON_LINES		3

/*
 * The probe, a constant: the remote shell runs nothing from the host file
 * or the command line.  Each answer on its own tagged line, so that ssh's
 * own messages in the same log do not get in the way.
 */
static const char probe_script[] =
	"printf 'arch: %s\\n' \"$(uname -m)\"; "
	"printf 'kernel_release: %s\\n' \"$(uname -r)\"; "
	"printf 'nproc: %s\\n' \"$(getconf _NPROCESSORS_ONLN)\"; "
	/* meta.c's cpu_model: model name, else Hardware, else implementer and part */
	"awk '{ k = $0; sub(/[ \\t]*:.*/, \"\", k); v = $0; sub(/^[^:]*:[ \\t]*/, \"\", v) } "
	"k == \"model name\" && m == \"\" { m = v } k == \"Hardware\" && h == \"\" { h = v } "
	"k == \"CPU implementer\" && i == \"\" { i = v } k == \"CPU part\" && p == \"\" { p = v } "
	"END { if (m == \"\") m = h; "
	"if (m == \"\" && p != \"\") "
	"m = \"implementer \" (i == \"\" ? \"unknown\" : i) \" part \" p; "
	"if (m == \"\") m = \"unknown\"; print \"cpu_model: \" m }' /proc/cpuinfo; "
	"d=$(mktemp -d -t bpfsweep-fleet.XXXXXX) && mkdir \"$d/spec\" && printf 'dir: %s\\n' \"$d\"; "
	"if v=$(bpfsweep --version 2>/dev/null); then printf 'version: %s\\n' \"$v\"; fi";

struct argv_buf {
	const char *argv[SSH_MAX_ARGS + 1];
	int n;
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

static off_t log_size(const struct fleet_job *j)
{
	struct stat st;

	return stat(j->log, &st) ? 0 : st.st_size;
}

/* Bytes that a terminal or a meta line must not get, replaced. */
static void clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

/* The last REASON_LINES non-empty lines the log got from offset from, joined by " / ". */
static void tail_reason(struct fleet_job *j, off_t from, const char *what)
{
	char *text, *lines[REASON_LINES] = { 0 }, *save = NULL;
	size_t len, off;
	int n = 0, first;

	off = snprintf(j->why, sizeof(j->why), "%s", what);
	if (read_text_file_max(j->log, 64 << 20, &text, &len))
		return;
	if ((size_t)from > len)
		from = 0;
	for (char *l = strtok_r(text + from, "\r\n", &save); l; l = strtok_r(NULL, "\r\n", &save))
		lines[n++ % REASON_LINES] = l;
	first = n > REASON_LINES ? n - REASON_LINES : 0;
	for (int i = first; i < n && off < sizeof(j->why); i++)
		off += snprintf(j->why + off, sizeof(j->why) - off, "%s%s", i == first ? ": " : " / ",
				lines[i % REASON_LINES]);
	clean(j->why);
	free(text);
}

/* Start argv with its output appended to the log; its exit status, or -errno. */
static int step(struct fleet_job *j, const struct argv_buf *a, unsigned int timeout_ms)
{
	pid_t pid;
	int err = spawn_argv(a->argv, j->log, &pid);

	return err ?: spawn_wait(pid, timeout_ms);
}

static void progress(const struct fleet_job *j, const char *what)
{
	fprintf(stderr, "host %s: %s\n", j->h->label, what);
}

/* The value of the first line "key: value" of text, into buf ("" when there is none). */
static void answer(const char *text, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	const char *l = text;

	buf[0] = '\0';
	while (*l && (strncmp(l, key, kl) || strncmp(l + kl, ": ", 2))) {
		l += strcspn(l, "\n");
		l += *l == '\n';
	}
	if (!*l)
		return;
	snprintf(buf, len, "%.*s", (int)strcspn(l + kl + 2, "\r\n"), l + kl + 2);
	clean(buf);
}

/* mktemp's directory: an absolute path of plain characters, or nothing we pass on. */
static bool plain_path(const char *p)
{
	if (p[0] != '/' || strstr(p, ".."))
		return false;
	return strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-") ==
	       strlen(p);
}

static int probe(struct fleet_job *j)
{
	struct argv_buf a;
	off_t from = log_size(j);
	char *text, dir[PATH_MAX];
	size_t len;
	int st;

	ssh_argv(&a, j, probe_script);
	st = step(j, &a, STEP_TIMEOUT_MS);
	if (st) {
		tail_reason(j, from, st == 255 ? "ssh failed" : "probe failed");
		return -EIO;
	}
	if (read_text_file_max(j->log, 64 << 20, &text, &len) || (size_t)from > len)
		return -EIO;
	answer(text + from, "arch", j->remote_arch, sizeof(j->remote_arch));
	answer(text + from, "dir", dir, sizeof(dir));
	answer(text + from, "version", j->remote_version, sizeof(j->remote_version));
	for (int f = 0; f < NR_HOST_FACTS; f++)
		answer(text + from, host_fact_names[f], j->facts.v[f], sizeof(j->facts.v[f]));
	free(text);
	if (!plain_path(dir)) {
		snprintf(j->why, sizeof(j->why), "mktemp -d on the host gave no usable "
			 "directory ('%.600s')", dir);
		return -EIO;
	}
	snprintf(j->remote_dir, sizeof(j->remote_dir), "%s", dir);
	return 0;
}

/* scp local files into the remote directory. */
static int put(struct fleet_job *j, const char *const *files, int nr, const char *sub)
{
	static __thread char to[PATH_MAX + 16];

	struct argv_buf a;
	off_t from = log_size(j);
	int st;

	tool(&a, j, "scp");
	add(&a, "-q");
	add(&a, "--");
	for (int i = 0; i < nr; i++)
		add(&a, files[i]);
	snprintf(to, sizeof(to), "%s%s", j->remote_dir, sub);
	add(&a, scp_target(&a, j->h, to));
	st = step(j, &a, STEP_TIMEOUT_MS);
	if (st)
		tail_reason(j, from, "copying to the host failed");
	return st ? -EIO : 0;
}

/* A remote command of quoted words, output to the log; its exit status or -errno. */
static int remote(struct fleet_job *j, const char *const *words, unsigned int timeout_ms)
{
	static __thread char line[REMOTE_CMD_LEN];
	struct argv_buf a;

	if (shquote_argv(words, line, sizeof(line)))
		return -ENAMETOOLONG;
	ssh_argv(&a, j, line);
	return step(j, &a, timeout_ms);
}

/*
 * Which bpfsweep runs there: the installed one when it is this very
 * version and commit, else this build, shipped, when the host's machine
 * is ours; else the installed one (said so) or none.
 */
static int pick_binary(struct fleet_job *j)
{
	static __thread char shipped[PATH_MAX + 16];
	const char *files[] = { j->ctx->self };
	const char *ver[] = { shipped, "--version", NULL };
	bool same_arch = !strcmp(j->remote_arch, j->ctx->arch);
	off_t from;

	if (!strcmp(j->remote_version, j->ctx->version)) {
		j->bin = "bpfsweep";
		progress(j, "bpfsweep installed there is this version");
		return 0;
	}
	if (!same_arch) {
		if (!j->remote_version[0]) {
			snprintf(j->why, sizeof(j->why), "no bpfsweep there, and its machine (%s) is "
				 "not this one's (%s): cannot ship this build", j->remote_arch,
				 j->ctx->arch);
			return -ENOEXEC;
		}
		snprintf(j->note, sizeof(j->note), "runs its installed %s, not %s (machine %s)",
			 j->remote_version, j->ctx->version, j->remote_arch);
		progress(j, j->note);
		j->bin = "bpfsweep";
		return 0;
	}
	snprintf(shipped, sizeof(shipped), "%s/bpfsweep", j->remote_dir);
	progress(j, j->remote_version[0] ? "bpfsweep there is another version: shipping this build"
		 : "no bpfsweep there: shipping this build");
	if (put(j, files, 1, ""))
		return -EIO;
	from = log_size(j);
	/* a host without libbpf, libelf, json-c, gsl or libcsv fails here, with the loader's words */
	if (remote(j, ver, STEP_TIMEOUT_MS)) {
		tail_reason(j, from, "the shipped bpfsweep does not start there");
		return -ENOEXEC;
	}
	j->bin = shipped;
	return 0;
}

/*
 * bpfsweep run SPEC [--set ...] [--quick] [--only T] [--shard K/N] --tag fleet_host=LABEL
 * [--tag ...] -o DIR.
 */
static int run_spec(struct fleet_job *j)
{
	static __thread char spec[PATH_MAX + 300], out[PATH_MAX + 16], tag[HOST_LABEL_LEN + 16];
	static __thread char shard[32];
	const struct cli_opts *o = j->ctx->o;
	struct subrun_argv a = { .n = 0 };
	off_t from = log_size(j);
	int st;

	snprintf(spec, sizeof(spec), "%s/spec/%s", j->remote_dir, j->ctx->spec_name);
	snprintf(out, sizeof(out), "%s/result", j->remote_dir);
	snprintf(tag, sizeof(tag), "fleet_host=%s", j->h->label);
	subrun_arg(&a, j->bin);
	subrun_arg(&a, "run");
	subrun_arg(&a, spec);
	for (int i = 0; i < o->nr_sets; i++) {
		subrun_arg(&a, "--set");
		subrun_arg(&a, o->sets[i]);
	}
	if (o->quick)
		subrun_arg(&a, "--quick");
	if (o->only) {
		subrun_arg(&a, "--only");
		subrun_arg(&a, o->only);
	}
	if (j->shard.count) {
		snprintf(shard, sizeof(shard), "%d/%d", j->shard.index, j->shard.count);
		subrun_arg(&a, "--shard");
		subrun_arg(&a, shard);
	}
	subrun_arg(&a, "--tag");
	subrun_arg(&a, tag);
	for (int i = 0; i < o->nr_tags; i++) {
		subrun_arg(&a, "--tag");
		subrun_arg(&a, o->tags[i]);
	}
	subrun_arg(&a, "--no-plots");
	subrun_arg(&a, "-o");
	subrun_arg(&a, out);
	progress(j, "running the spec");
	st = remote(j, a.argv, j->ctx->run_timeout_ms);
	j->run_status = st;
	if (st != 0 && st != EXIT_POINTS_FAILED)
		tail_reason(j, from, st == 255 ? "ssh failed during the run" : "the run failed");
	return st;
}

static int fetch(struct fleet_job *j)
{
	static __thread char src[PATH_MAX + 16];
	struct argv_buf a;
	off_t from = log_size(j);
	int st;

	snprintf(src, sizeof(src), "%s/result", j->remote_dir);
	tool(&a, j, "scp");
	add(&a, "-q");
	add(&a, "-r");
	add(&a, "--");
	add(&a, scp_target(&a, j->h, src));
	add(&a, j->result);
	st = step(j, &a, STEP_TIMEOUT_MS);
	if (st && !j->why[0])
		tail_reason(j, from, "copying the result back failed");
	return !st && !access(j->result, F_OK) ? 0 : -EIO;
}

/* The remote directory goes once its result is here; a failed host keeps it. */
static void cleanup(struct fleet_job *j)
{
	const char *rm[] = { "rm", "-rf", "--", j->remote_dir, NULL };

	if (remote(j, rm, STEP_TIMEOUT_MS))
		progress(j, "could not remove its temporary directory");
}

/* The host's shared connection ends with its job (ControlPersist is only a safety net). */
static void mux_close(struct fleet_job *j)
{
	struct argv_buf a;

	tool(&a, j, "ssh");
	add(&a, "-O");
	add(&a, "exit");
	add(&a, "--");
	add(&a, j->h->name);
	step(j, &a, STEP_TIMEOUT_MS);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void *failed(struct fleet_job *j)
{
	char msg[sizeof(j->why) + 64];

	mux_close(j);
	snprintf(msg, sizeof(msg), "FAILED after %.1f s: %s", seconds_since(&j->t0), j->why);
	progress(j, msg);
	return NULL;
}

void *fleet_host_probe(void *arg)
{
	struct fleet_job *j = arg;

	j->run_status = -1;
	clock_gettime(CLOCK_MONOTONIC, &j->t0);
	progress(j, "connecting");
	if (probe(j))
		return failed(j);
	j->probed = true;
	return NULL;
}

void *fleet_host_run(void *arg)
{
	struct fleet_job *j = arg;
	const char *spec[] = { j->ctx->spec_path };
	char msg[128];
	int st;

	/* DIR/spec/<its name here>: the run's name comes from it, and no name clashes with ours */
	if (pick_binary(j) || put(j, spec, 1, "/spec"))
		return failed(j);
	st = run_spec(j);
	if (fetch(j))
		return failed(j);
	j->ok = true;
	if (st == 0 || st == EXIT_POINTS_FAILED)
		cleanup(j);
	mux_close(j);
	snprintf(msg, sizeof(msg), "done in %.1f s (bpfsweep exited %d)", seconds_since(&j->t0),
		 st);
	progress(j, msg);
	return NULL;
}

void fleet_host_release(struct fleet_job *j)
{
	cleanup(j);
	mux_close(j);
}
