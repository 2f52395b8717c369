// SPDX-License-Identifier: GPL-2.0
/*
 * A sub-run's end of the gate (gate.h).  Every wait polls in short ticks
 * so that a Ctrl-C (the runner's flag) ends it: a read restarted by
 * SA_RESTART would sit on a sweep that is gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "gate.h"
#include "matrix.h"
#include "precision.h"
#include "repetition.h"

#define WAIT_TICK_MS	200

/* A serial port as a byte pipe: no echo, no line editing, no \r\n rewriting. */
static int set_raw(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &t))
		return -errno;
	cfmakeraw(&t);
	/* qemu's UART paces what the guest sends by the rate: the fastest it has */
	cfsetspeed(&t, B115200);
	return tcsetattr(fd, TCSANOW, &t) ? -errno : 0;
}

static int open_fifos(struct gate *g, const char *path)
{
	char in[4200], out[4200];

	snprintf(in, sizeof(in), "%s.in", path);
	snprintf(out, sizeof(out), "%s.out", path);
	/* the sweep holds both open: neither open waits for the other end */
	g->rfd = open(in, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (g->rfd < 0)
		return -errno;
	g->wfd = open(out, O_WRONLY | O_CLOEXEC);
	return g->wfd < 0 ? -errno : 0;
}

int gate_open(struct gate *g, const char *path)
{
	struct stat st;
	int err;

	*g = (struct gate){ .rfd = -1, .wfd = -1 };
	if (!stat(path, &st) && S_ISCHR(st.st_mode)) {
		g->rfd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
		g->wfd = g->rfd;
		err = g->rfd < 0 ? -errno : set_raw(g->rfd);
	} else {
		err = open_fifos(g, path);
	}
	if (err)
		gate_close(g);
	return err;
}

void gate_close(struct gate *g)
{
	if (g->wfd >= 0 && g->wfd != g->rfd)
		close(g->wfd);
	if (g->rfd >= 0)
		close(g->rfd);
	g->rfd = g->wfd = -1;
	g->free = true;
}

static void say(struct gate *g, const struct gate_line *l)
{
	if (!g->free && gate_write(g->wfd, l))
		g->free = true;
}

void gate_say_point(struct gate *g, int id, bool runnable)
{
	say(g, &(struct gate_line){ .kind = GATE_POINT, .id = id, .runnable = runnable });
}

void gate_say_bye(struct gate *g)
{
	say(g, &(struct gate_line){ .kind = GATE_BYE });
}

/* The sweep's next word: 0 with l, -EINTR when asked to stop, or the gate's error. */
static int wait_word(struct gate *g, bool (*stop_requested)(void), struct gate_line *l)
{
	int got = 0;

	while (!got) {
		if (stop_requested())
			return -EINTR;
		got = gate_read(g->rfd, &g->reader, WAIT_TICK_MS, l);
	}
	if (got < 0)
		return got;
	return l->kind >= GATE_RUN ? 0 : -EPROTO;
}

/* rep's intervals from `from` on ran at place slot of their round. */
static void mark_slot(struct point_result *r, int from, int slot)
{
	for (int i = from; i < r->nr_iv; i++)
		r->iv[i].slot = slot;
}

/* One unit as asked: the sweep gets its mean and the point's flags, or that it failed. */
static int run_unit(const struct sweep_cfg *cfg, struct gate *g, struct progress *prog,
		    bool (*stop_requested)(void), const struct gate_line *cmd,
		    struct point_result *r)
{
	struct gate_line l = { .kind = GATE_UNIT, .id = r->pt->id, .round = cmd->round };
	struct rep_watch watch = progress_watch(prog, stop_requested);
	int from = r->nr_iv, err;
	char name[256];

	point_name(cfg, r->pt, name, sizeof(name));
	progress_begin(prog, name, cmd->round, precision_max_reps(cfg));
	err = rep_run(cfg, r->pt, cmd->round, &watch, r);
	mark_slot(r, from, cmd->slot);
	/* the flags so far veto a decision as rounds.c's arms' do (QUALITY_VETO_FLAGS) */
	if (!err && !point_result_summarize(r) && !point_result_assess(r, cfg->max_cv))
		l.flags = r->quality.flags;
	l.value = err ? NAN : point_result_rep_mean(r, 0, cmd->round);
	if (err && err != -EINTR)
		l.kind = GATE_FAIL;
	if (err != -EINTR)
		say(g, &l);
	return err;
}

/* The end's stop and decision into r. */
static void take_end(const struct gate_line *l, struct point_result *r)
{
	snprintf(r->stop, sizeof(r->stop), "%s", l->stop);
	r->set_baseline = l->baseline;
	r->has_decision = l->decided;
	if (l->decided) {
		r->decision = l->d;
		r->decision_veto = l->veto;
	}
}

int gate_units(const struct sweep_cfg *cfg, struct gate *g, struct progress *prog,
	       bool (*stop_requested)(void), struct point_result *r)
{
	int units = 0, err;

	for (;;) {
		struct gate_line l;

		err = wait_word(g, stop_requested, &l);
		if (err) {
			g->free = err != -EINTR;
			return err;
		}
		switch (l.kind) {
		case GATE_RUN:
			err = run_unit(cfg, g, prog, stop_requested, &l, r);
			if (err)
				return err;
			units++;
			break;
		case GATE_END:
			take_end(&l, r);
			return 0;
		default:	/* GATE_SOLO, GATE_FREE: this point, too, on its own */
			g->free |= l.kind == GATE_FREE;
			if (!units)
				return GATE_SOLO_POINT;
			snprintf(r->stop, sizeof(r->stop), "alone");
			return 0;
		}
	}
}
