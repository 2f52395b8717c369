// SPDX-License-Identifier: GPL-2.0
/* What the fleet's engines do alike for one host's job: fleet_step.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exitcode.h"
#include "fleet_step.h"
#include "heldir.h"
#include "resultdir.h"
#include "stop.h"
#include "subproc.h"
#include "textfile.h"

#define REASON_LINES		3

/*
 * The probe, a constant: the remote shell runs nothing from the host file
 * or the command line but "$1", set before it to the quoted directory an
 * earlier attempt kept (fleet --resume; else empty), which is taken again
 * while it is there.  Each answer on its own tagged line, so that ssh's
 * own messages in the same log do not get in the way.
 */
const char fleet_probe_script[] =
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
	"if [ -n \"$1\" ] && [ -d \"$1\" ]; then d=$1; printf 'reused: yes\\n'; "
	"else d=$(mktemp -d -t bpfsweep-fleet.XXXXXX); fi && mkdir -p \"$d/spec\" && "
	"printf 'dir: %s\\n' \"$d\"; "
	"if [ -d \"$d/result\" ]; then printf 'result: yes\\n'; fi; "
	"if [ -x \"$d/bpfsweep\" ] && v=$(\"$d/bpfsweep\" --version 2>/dev/null); then "
	"printf 'shipped: %s\\n' \"$v\"; fi; "
	"if v=$(bpfsweep --version 2>/dev/null); then printf 'version: %s\\n' \"$v\"; fi";

off_t fleet_log_size(const struct fleet_job *j)
{
	struct stat st;

	return stat(j->log, &st) ? 0 : st.st_size;
}

/* Bytes that a terminal or a meta line must not get, replaced. */
void fleet_clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

/* The last REASON_LINES non-empty lines the log got from offset from, joined by " / ". */
void fleet_reason(struct fleet_job *j, off_t from, const char *what)
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
	fleet_clean(j->why);
	free(text);
}

/*
 * Start argv with its output appended to the log, in a process group of
 * its own: a Ctrl-C at the terminal reaches fleet alone, which stops each
 * host's job as its step needs (run_wait() for the run).
 */
int fleet_start(struct fleet_job *j, const char *const *argv, int pass_fd, pid_t *pid)
{
	if (stop_requested && !j->stopping) {
		j->interrupted = true;
		return -EINTR;
	}
	return spawn(argv, &(struct spawn_opts){ .log = j->log, .own_group = true,
						    .keep = true,
						    .pass_fd = pass_fd > 2 ? pass_fd : 0 },
		     pid);
}

/*
 * A step: its exit status, or -errno; -EINTR when a stop request (stop.h)
 * cut it, its child killed.  Once the host is being stopped, a step is
 * not cut but takes FLEET_STOP_STEP_MS at most.
 */
int fleet_step(struct fleet_job *j, const char *const *argv, int pass_fd,
	       unsigned int timeout_ms)
{
	pid_t pid;
	int err = fleet_start(j, argv, pass_fd, &pid);

	if (err)
		return err;
	if (j->stopping)
		return spawn_wait(pid, timeout_ms < FLEET_STOP_STEP_MS ? timeout_ms : FLEET_STOP_STEP_MS);
	err = spawn_wait_stop(pid, timeout_ms, &stop_requested);
	if (err == -EINTR) {
		j->interrupted = true;
		kill(pid, SIGTERM);
		spawn_wait(pid, FLEET_STOP_STEP_MS);
	}
	return err;
}

void fleet_progress(const struct fleet_job *j, const char *what)
{
	fprintf(stderr, "host %s: %s\n", j->h->label, what);
}

/* The value of the first line "key: value" of text, into buf ("" when there is none). */
void fleet_answer(const char *text, const char *key, char *buf, size_t len)
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
	fleet_clean(buf);
}

/* mktemp's directory: an absolute path of plain characters, or nothing we pass on. */
bool fleet_plain_path(const char *p)
{
	if (p[0] != '/' || strstr(p, ".."))
		return false;
	return strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-") ==
	       strlen(p);
}

/*
 * OUT/remote/<label>: the remote directory, for as long as it is kept on
 * the host (removed with it): what fleet --resume continues.
 */
void fleet_record_remote(struct fleet_job *j)
{
	char text[PATH_MAX + 2];
	int n = snprintf(text, sizeof(text), "%s\n", j->remote_dir);

	if (resultdir_put_file(j->ctx->remote_dir, j->h->label, text, n, true))
		fleet_progress(j, "cannot record its remote directory under OUT/remote: --resume "
			 "will not find it");
}

void fleet_forget_remote(const struct fleet_job *j)
{
	char path[PATH_MAX + HOST_LABEL_LEN + 16];

	snprintf(path, sizeof(path), "%s/%s", j->ctx->remote_dir, j->h->label);
	heldir_unlink(path);
}

double fleet_seconds_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* A run that was stopped brings back what it finished if it ended by itself (130). */
bool fleet_came_back(const struct fleet_job *j, int st)
{
	return !j->interrupted || st == 0 || st == EXIT_POINTS_FAILED || st == EXIT_INTERRUPTED;
}

struct fleet_job *fleet_job_of(struct executor *ex)
{
	return (struct fleet_job *)((char *)ex - offsetof(struct fleet_job, ex));
}

int fleet_read_probe(struct fleet_job *j, off_t from, char *dir, size_t len, char **text)
{
	size_t n;

	if (read_text_file_max(j->log, 64 << 20, text, &n))
		return -EIO;
	if ((size_t)from > n) {
		free(*text);
		return -EIO;
	}
	fleet_answer(*text + from, "arch", j->remote_arch, sizeof(j->remote_arch));
	fleet_answer(*text + from, "dir", dir, len);
	fleet_answer(*text + from, "version", j->remote_version, sizeof(j->remote_version));
	for (int f = 0; f < NR_HOST_FACTS; f++)
		fleet_answer(*text + from, host_fact_names[f], j->facts.v[f], sizeof(j->facts.v[f]));
	if (fleet_plain_path(dir))
		return 0;
	snprintf(j->why, sizeof(j->why), "mktemp -d on the host gave no usable directory "
		 "('%.600s')", dir);
	return -EIO;
}

int fleet_which_binary(struct fleet_job *j, const char *shipped)
{
	bool same_arch = !strcmp(j->remote_arch, j->ctx->arch);

	if (!strcmp(j->remote_version, j->ctx->version)) {
		j->bin = "bpfsweep";
		fleet_progress(j, "bpfsweep installed there is this version");
		return 0;
	}
	/* an earlier attempt's copy, maybe still running there: not written again */
	if (same_arch && !strcmp(j->shipped_version, j->ctx->version)) {
		j->bin = shipped;
		fleet_progress(j, "this build is there from an earlier attempt");
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
		fleet_progress(j, j->note);
		j->bin = "bpfsweep";
		return 0;
	}
	fleet_progress(j, j->remote_version[0] ? "bpfsweep there is another version: shipping "
		       "this build" : "no bpfsweep there: shipping this build");
	return 1;
}

int fleet_result_into_place(struct fleet_job *j, const char *tmp, bool had)
{
	char old[sizeof(j->result) + 8];
	int err;

	snprintf(old, sizeof(old), "%s/.%s.old", j->ctx->hosts_dir, j->h->label);
	resultdir_remove_tree(old);
	err = had ? heldir_rename(j->result, old, 0) : 0;
	err = err ?: heldir_rename(tmp, j->result, 0);
	if (err) {
		snprintf(j->why, sizeof(j->why), "cannot move its result into place: %s",
			 strerror(-err));
		return -EIO;
	}
	resultdir_remove_tree(old);
	return 0;
}

void fleet_say_end(struct fleet_job *j)
{
	char msg[sizeof(j->why) + 64];

	if (!j->ok && j->interrupted) {
		j->stopping = true;
		snprintf(j->why, sizeof(j->why), "interrupted %s", j->run_status < 0 ?
			 "before its run" : "during its run; nothing new came back");
	}
	if (!j->ok)
		snprintf(msg, sizeof(msg), "%s after %.1f s: %s", j->interrupted ? "STOPPED" :
			 "FAILED", fleet_seconds_since(&j->t0), j->why);
	else
		snprintf(msg, sizeof(msg), "%s in %.1f s (bpfsweep exited %d)", j->interrupted ?
			 "stopped, what it finished came back," : "done",
			 fleet_seconds_since(&j->t0), j->run_status);
	fleet_progress(j, msg);
}

/* Its share came back whole: every point has its row, ok, unsupported or failed. */
bool fleet_shard_done(const struct fleet_job *j)
{
	return j->ok && (j->run_status == 0 || j->run_status == EXIT_POINTS_FAILED);
}
