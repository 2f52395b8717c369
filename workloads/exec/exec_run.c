// SPDX-License-Identifier: GPL-2.0
/*
 * The exec workload's callbacks (exec.h): per repetition, run the program
 * with the point's argv, collect its output, parse it into intervals.
 *
 * The program keeps its own clock: a kernel bench's Iter lines say how
 * long each of its seconds really lasted, and the intervals take that
 * time; a count is the printed rate times it.  Where the program prints
 * rates and no time (map_perf_test, a regex without an elapsed field),
 * an interval is a nominal second and its counts are the rates as
 * printed: the process's wall time is no measure of them (it includes
 * loading the programs), and counts over a short run would round the
 * rates away (docs/exec.md).
 *
 * The program runs in a process group and a cgroup of its own (subproc.h):
 * a timeout or a Ctrl-C kills the whole group, and the sweep goes on
 * (timeout) or ends (Ctrl-C); after its reap, whatever it left is killed.
 */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bind.h"
#include "exec.h"
#include "subproc.h"

#define MAX_STDOUT	(16 << 20)	/* a bench prints a few KiB */
#define KEEP_STDERR	4096		/* the end of stderr, for the reason */
#define TAIL_LINES	3		/* stderr lines a failed point's reason quotes */
#define TICK_MS		100		/* how often Ctrl-C and the timeout are looked at */
#define LINGER_NS	1000000000ULL	/* pipes held open after the program exited */
#define NOMINAL_NS	1000000000ULL	/* an interval whose program printed no time */

struct exec_state {
	const struct exec_def *d;
	char **argv;			/* NULL-terminated */
	long long warm;			/* the program's first intervals that are warmup */
};

/* Output collected from one pipe. */
struct capture {
	int fd;				/* -1 at EOF */
	char *buf;
	size_t len;
	size_t max;			/* stdout: fail beyond; stderr: keep the end */
	bool keep_end;
	bool overflow;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static const struct exec_def *def_of(const struct wl_point *pt)
{
	return pt->wl->data;
}

static void free_argv(char **argv)
{
	for (int i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* The point's argv: a word per template word, "{flag?x}" words of flags off left out. */
static int build_argv(const struct exec_def *d, const struct wl_point *pt, char ***out)
{
	char **argv = calloc(d->argc + 1, sizeof(*argv));
	int n = 0, err = 0;
	bool omit;

	if (!argv)
		return -ENOMEM;
	for (int i = 0; i < d->argc && !err; i++) {
		err = exec_tmpl_expand(d, pt, d->argv[i].text, &argv[n], &omit);
		if (!err && omit) {
			free(argv[n]);
			argv[n] = NULL;
		} else if (!err) {
			n++;
		}
	}
	if (!err && !n)
		err = -EINVAL;
	if (err) {
		free_argv(argv);
		return err;
	}
	*out = argv;
	return 0;
}

/*
 * Is the program there?  A missing bench would fail every point, on any
 * kernel: the sweep is refused before it starts or boots a guest, naming
 * what builds it ([exec] build).
 */
static int exec_preflight(const struct wl_point *pt, char *why, size_t len)
{
	const struct exec_def *d = def_of(pt);
	char **argv, path[4096];
	int err = build_argv(d, pt, &argv);

	/* an argv with no word left is the probe's to say, per point */
	if (err)
		return err == -EINVAL ? 0 : err;
	if (strchr(argv[0], '/'))
		err = access(argv[0], X_OK) ? -errno : 0;
	else
		err = spawn_find_in_path(argv[0], path, sizeof(path));
	if (err)
		snprintf(why, len, "program '%s': %s%s%s", argv[0], strerror(-err),
			 d->build ? "; build it: " : "", d->build ?: "");
	free_argv(argv);
	return err;
}

/* Does the point have a program to run?  (Whether it is there: exec_preflight().) */
static int exec_probe(const struct wl_point *pt, char *why, size_t len)
{
	char **argv;
	int err = build_argv(def_of(pt), pt, &argv);

	if (err == -EINVAL)
		snprintf(why, len, "argv: no word left for this point");
	if (!err)
		free_argv(argv);
	return err;
}

static int exec_setup(const struct wl_point *pt, void **state, struct wl_threads *thr,
		      char *why, size_t len)
{
	const struct exec_def *d = def_of(pt);
	struct exec_state *st = calloc(1, sizeof(*st));
	long long nr_prod = 1;
	int err;

	if (!st)
		return -ENOMEM;
	st->d = d;
	err = build_argv(d, pt, &st->argv);
	if (!err)
		err = exec_tmpl_number(d, pt, &d->producers, 1, &nr_prod, why, len);
	if (!err)
		err = exec_tmpl_number(d, pt, &d->warmup_intervals, 0, &st->warm, why, len);
	if (err) {
		free_argv(st->argv);
		free(st);
		return err;
	}
	/* no threads of ours: the count divides the rate into per-producer figures */
	*thr = (struct wl_threads){ .nr_producers = nr_prod };
	*state = st;
	return 0;
}

static void exec_teardown(void *state)
{
	struct exec_state *st = state;

	if (!st)
		return;
	free_argv(st->argv);
	free(st);
}

/* Read what the pipe has; EOF closes it. */
static int capture_read(struct capture *c)
{
	char chunk[16384], *grown;
	ssize_t n = read(c->fd, chunk, sizeof(chunk));
	size_t drop;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (!n) {
		close(c->fd);
		c->fd = -1;
		return 0;
	}
	if (c->keep_end && (size_t)n > c->max) {
		memmove(chunk, chunk + n - c->max, c->max);
		n = c->max;
	}
	if (c->len + n > c->max) {
		if (!c->keep_end) {
			c->overflow = true;
			return 0;
		}
		/* stderr: only its end makes the reason */
		drop = c->len + n - c->max;
		memmove(c->buf, c->buf + drop, c->len - drop);
		c->len -= drop;
	}
	grown = realloc(c->buf, c->len + n + 1);
	if (!grown)
		return -ENOMEM;
	c->buf = grown;
	memcpy(c->buf + c->len, chunk, n);
	c->len += n;
	c->buf[c->len] = '\0';
	return 0;
}

static int poll_pipes(struct capture *c, int nr, int ms)
{
	struct pollfd pfd[2];
	int n = 0, err = 0;

	for (int i = 0; i < nr; i++)
		if (c[i].fd >= 0)
			pfd[n++] = (struct pollfd){ .fd = c[i].fd, .events = POLLIN };
	if (poll(pfd, n, ms) < 0)
		return errno == EINTR ? 0 : -errno;
	for (int i = 0, j = 0; i < nr && !err; i++)
		if (c[i].fd >= 0 && (pfd[j++].revents & (POLLIN | POLLHUP | POLLERR)))
			err = capture_read(&c[i]);
	return err;
}

/* How one run of the program ended. */
struct ending {
	int status;		/* waitpid's */
	bool timed_out;
	bool interrupted;
};

/* Done when the program is reaped and its pipes closed, or given up on after a kill. */
static bool collected(bool reaped, const struct capture *c, uint64_t killed_at, uint64_t t)
{
	if (reaped && c[0].fd < 0 && c[1].fd < 0)
		return true;
	/* a process outside the group may hold the pipes: they are not waited for */
	return reaped && killed_at && t - killed_at >= LINGER_NS;
}

/*
 * Collect both pipes until the program has exited and they are closed,
 * killing the process group at the timeout or at Ctrl-C, or when the
 * pipes stay open a while after the program exited (its children).
 */
static int collect(pid_t pid, struct capture *c, uint64_t timeout_ns, bool (*stop)(void),
		   struct ending *end)
{
	uint64_t start = now_ns(), exited = 0, killed_at = 0, t = start;
	bool reaped = false;
	int err = 0;

	while (!err && !collected(reaped, c, killed_at, t)) {
		if (!killed_at && (stop() || t - start >= timeout_ns ||
				   (reaped && t - exited >= LINGER_NS))) {
			end->interrupted = stop();
			end->timed_out = !reaped && !end->interrupted;
			kill(-pid, SIGKILL);
			killed_at = t;
		}
		err = poll_pipes(c, 2, TICK_MS);
		if (!reaped && waitpid(pid, &end->status, WNOHANG) == pid) {
			reaped = true;
			exited = now_ns();
		}
		t = now_ns();
	}
	if (!reaped) {
		kill(-pid, SIGKILL);
		while (waitpid(pid, &end->status, 0) < 0 && errno == EINTR)
			;
	}
	/* with its cgroup: what it left, in its group or not (setsid), goes too */
	spawn_reaped(pid);
	return err;
}

/* stderr's last non-empty lines, " | "-joined, control characters blanked. */
static void stderr_tail(const struct capture *c, char *buf, size_t len)
{
	const char *s = c->buf ? c->buf : "";
	size_t e = c->len, n = 0;
	const char *lines[TAIL_LINES];
	size_t lens[TAIL_LINES];

	while (e && n < TAIL_LINES) {
		size_t b = e;

		while (b && s[b - 1] != '\n')
			b--;
		if (e > b && !(e - b == 1 && s[b] == '\r')) {
			lines[n] = s + b;
			lens[n++] = e - b;
		}
		e = b ? b - 1 : 0;
	}
	buf[0] = '\0';
	for (size_t i = n, off = 0; i-- && off + 1 < len;) {
		off += snprintf(buf + off, len - off, "%s%.*s", i + 1 < n ? " | " : "",
				(int)lens[i], lines[i]);
		off = off < len ? off : len - 1;
	}
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
}

/* The end of tail in room bytes: the last lines are the program's last word. */
static const char *tail_fit(char *tail, size_t room)
{
	size_t n = strlen(tail);
	char *t;

	if (n < room || room < 4)
		return tail;
	t = tail + n - (room - 4);
	/* not inside a UTF-8 character */
	while (*t && ((unsigned char)*t & 0xc0) == 0x80)
		t++;
	memcpy(t - 3, "...", 3);
	return t - 3;
}

/* The reason of a run that did not end well: how it ended, then its own words. */
static int ending_error(const struct ending *end, const struct capture *err_cap,
			uint64_t timeout_ns, char *why, size_t len)
{
	char tail[KEEP_STDERR + 3 * TAIL_LINES + 1], how[64];	/* all of the kept end */
	int ret = -EIO;

	if (end->interrupted)
		return -EINTR;
	if (end->timed_out) {
		snprintf(how, sizeof(how), "timed out after %.1fs, killed", timeout_ns / 1e9);
		ret = -ETIMEDOUT;
	} else if (WIFSIGNALED(end->status)) {
		snprintf(how, sizeof(how), "killed by signal %d (%s)", WTERMSIG(end->status),
			 strsignal(WTERMSIG(end->status)));
	} else if (WEXITSTATUS(end->status)) {
		snprintf(how, sizeof(how), "exit status %d", WEXITSTATUS(end->status));
	} else {
		return 0;
	}
	stderr_tail(err_cap, tail, sizeof(tail));
	snprintf(why, len, "%s%s%s", how, *tail ? ": " : "", tail_fit(tail, len - strlen(how) - 2));
	return ret;
}

static uint64_t count_of(double rate, uint64_t elapsed_ns)
{
	return (uint64_t)llround(rate * (elapsed_ns / 1e9));
}

/* Parsed rates into the engine's intervals: counts over each one's real time. */
static int make_intervals(const struct exec_state *st, const struct exec_output *o,
			  struct wl_run_out *out, char *why, size_t len)
{
	int nr_metrics = st->d->wl.nr_metrics;

	if (st->warm >= o->nr_iv) {
		snprintf(why, len, "output: %d intervals, all warmup (warmup_intervals = %lld)",
			 o->nr_iv, st->warm);
		return -EBADMSG;
	}
	out->iv = calloc(o->nr_iv, sizeof(*out->iv));
	if (!out->iv)
		return -ENOMEM;
	out->nr_iv = o->nr_iv;
	out->nr_threads = o->nr_threads;
	for (int i = 0; i < o->nr_iv; i++) {
		struct wl_interval *w = &out->iv[i];

		w->warmup = i < st->warm;
		w->elapsed_ns = o->iv[i].elapsed_ns ?: NOMINAL_NS;
		for (int m = 0; m < nr_metrics; m++)
			w->value[m] = count_of(o->iv[i].rate[m], w->elapsed_ns);
		if (!o->nr_threads)
			continue;
		w->thread_delta = calloc(o->nr_threads, sizeof(*w->thread_delta));
		if (!w->thread_delta)
			return -ENOMEM;
		/* the total is the workers' sum, as the engine's own per_thread metrics are */
		w->value[0] = 0;
		for (int t = 0; t < o->nr_threads; t++) {
			w->thread_delta[t] = count_of(o->thread_rate[t], w->elapsed_ns);
			w->value[0] += w->thread_delta[t];
		}
	}
	return 0;
}

/* Has the sweep said this key before? */
static bool said_before(const struct exec_said *s, const char *key)
{
	for (int i = 0; i < s->nr; i++)
		if (!strcmp(s->keys[i], key))
			return true;
	return false;
}

/* key said now (on no memory it is not kept, and may be said again) */
static void remember_said(struct exec_said *s, const char *key)
{
	char **grown = realloc(s->keys, (s->nr + 1) * sizeof(*grown));

	if (!grown)
		return;
	s->keys = grown;
	s->keys[s->nr] = strdup(key);
	s->nr += !!s->keys[s->nr];
}

/*
 * The lines the parse left out for a value it does not read, said as
 * import says them ("program 'bench': output line 7: '1,000.5M/s' not
 * read: ...; line skipped"), each once over the sweep.  After the
 * program has ended: nothing measured runs while this prints.
 */
static void say_skipped(const struct exec_state *st, const struct exec_output *o)
{
	struct exec_said *s = st->d->said;
	char key[160];

	for (int i = 0; i < o->nr_skipped; i++) {
		const struct exec_skip *sk = &o->skipped[i];

		snprintf(key, sizeof(key), "%d\t%s\t%s", sk->line, sk->what, sk->why);
		if (said_before(s, key))
			continue;
		if (s->nr >= EXEC_MAX_SAID) {
			if (!s->full)
				diag_warn("program '%s': more output lines left out for values not "
					  "read than the %d said", st->argv[0], EXEC_MAX_SAID);
			s->full = true;
			continue;
		}
		remember_said(s, key);
		diag_warn("program '%s': output line %d: '%s' not read: %s; line skipped",
			  st->argv[0], sk->line, sk->what, sk->why);
	}
}

static void free_out(struct wl_run_out *out)
{
	for (int i = 0; i < out->nr_iv; i++)
		free(out->iv[i].thread_delta);
	free(out->iv);
	*out = (struct wl_run_out){ 0 };
}

static uint64_t timeout_of(const struct exec_def *d)
{
	return d->timeout_ns ?: d->cfg->warmup_ns + d->cfg->duration_ns + EXEC_GRACE_NS;
}

static int run_program(const struct exec_state *st, bool (*stop)(void), struct capture *c,
		       struct ending *end, char *why, size_t len)
{
	int out[2], errp[2], err;
	pid_t pid;

	if (pipe2(out, O_CLOEXEC))
		return -errno;
	if (pipe2(errp, O_CLOEXEC)) {
		err = -errno;
		goto close_out;
	}
	err = spawn((const char *const *)st->argv,
		    &(struct spawn_opts){ .own_group = true, .out_fd = out[1], .err_fd = errp[1] },
		    &pid);
	close(out[1]);
	close(errp[1]);
	c[0].fd = out[0];
	c[1].fd = errp[0];
	if (err) {
		snprintf(why, len, "program '%s': %s", st->argv[0], strerror(-err));
		close(out[0]);
		close(errp[0]);
		return err;
	}
	err = collect(pid, c, timeout_of(st->d), stop, end);
	for (int i = 0; i < 2; i++)
		if (c[i].fd >= 0)
			close(c[i].fd);
	return err;
close_out:
	close(out[0]);
	close(out[1]);
	return err;
}

static int exec_run(void *state, bool (*stop)(void), struct wl_run_out *out, char *why,
		    size_t len)
{
	struct exec_state *st = state;
	struct capture c[2] = {
		{ .fd = -1, .max = MAX_STDOUT },
		{ .fd = -1, .max = KEEP_STDERR, .keep_end = true },
	};
	struct ending end = { 0 };
	struct exec_output o = { 0 };
	/* the parse too is bounded by the point's timeout and Ctrl-C */
	const struct exec_parse_bounds bounds = {
		.deadline_ns = now_ns() + timeout_of(st->d), .stop = stop };
	int err = run_program(st, stop, c, &end, why, len);

	if (!err)
		err = ending_error(&end, &c[1], timeout_of(st->d), why, len);
	if (!err && c[0].overflow) {
		snprintf(why, len, "output: more than %d MiB", MAX_STDOUT >> 20);
		err = -EFBIG;
	}
	if (!err) {
		err = exec_parse(&st->d->parser, c[0].buf ? c[0].buf : "", c[0].len, &bounds, &o,
				 why, len);
		say_skipped(st, &o);
	}
	if (!err)
		err = make_intervals(st, &o, out, why, len);
	if (err)
		free_out(out);
	exec_output_free(&o);
	free(c[0].buf);
	free(c[1].buf);
	return err;
}

void exec_set_callbacks(struct workload *wl)
{
	wl->probe = exec_probe;
	wl->preflight = exec_preflight;
	wl->setup = exec_setup;
	wl->teardown = exec_teardown;
	wl->run = exec_run;
}
