// SPDX-License-Identifier: GPL-2.0
/* Progress output; see progress.h for when it may print. */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "metric.h"
#include "progress.h"
#include "satmath.h"

#define NS_PER_S	1000000000ULL
/* while a repetition runs, the bar's ETA and phase are at most this old */
#define REDRAW_NS	NS_PER_S

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

void progress_init(struct progress *p, int nr_points, int nr_runnable, uint64_t point_ns,
		   const struct progress_term *term)
{
	memset(p, 0, sizeof(*p));
	if (term)
		p->term = *term;
	else
		p->term = (struct progress_term){ .out = stderr, .tty = isatty(STDERR_FILENO),
						  .clock = monotonic_ns };
	p->tty = p->term.tty;
	p->nr_points = nr_points;
	p->nr_runnable = nr_runnable;
	p->point_ns = point_ns;
	p->start_ns = p->ended_ns = p->term.clock();
	p->exp = -1;
}

/* The terminal's width now (it may have been resized), or 80 if it does not say. */
static int term_width(const struct progress *p)
{
	struct winsize ws;

	if (p->term.width)
		return p->term.width;
	if (ioctl(fileno(p->term.out), TIOCGWINSZ, &ws) || !ws.ws_col)
		return 80;
	return ws.ws_col;
}

/*
 * The ETA: the points left that will run, each at what one took so far
 * (the finished ones' average once there are any, since setup and
 * teardown make the plan's estimate wrong; points ruled out take next to
 * no time), less what the running point has run of its share.  Counting
 * the running point whole until it ended made the ETA climb while it ran;
 * this way it falls as time passes, and a point that overruns its share
 * holds it still instead.  To the nearest second.
 */
static unsigned int eta_s(const struct progress *p, uint64_t now)
{
	uint64_t per_point = p->point_ns, ran = 0, left_ns;
	int left = p->nr_runnable - p->done_runnable;

	if (p->done_runnable)
		per_point = (p->ended_ns - p->start_ns) / p->done_runnable;
	if (left <= 0)
		return 0;
	if (p->running)
		ran = now - p->point_start_ns < per_point ? now - p->point_start_ns : per_point;
	left_ns = sat_mul_u64(per_point, left) - ran;
	left_ns = left_ns / NS_PER_S + (left_ns % NS_PER_S >= NS_PER_S / 2);
	return left_ns > 0xffffffffULL ? 0xffffffffU : (unsigned int)left_ns;
}

/* The bar line as it is now: one formatted line, one write. */
static void draw(struct progress *p, uint64_t now)
{
	struct progress_view v = {
		.done = p->done, .nr_points = p->nr_points, .title = p->title, .name = p->name,
		.rep = p->rep, .nr_reps = p->nr_reps, .phase = p->phase, .eta_s = eta_s(p, now),
	};
	char line[1024];

	p->drawn_ns = now;
	if (!p->tty)
		return;
	/* "\033[K" clears what a longer line before it left */
	fprintf(p->term.out, "\r%s\033[K", progress_line(line, sizeof(line), term_width(p), &v));
	fflush(p->term.out);
}

/* The pending run of unsupported points, as one line. */
static void flush_run(struct progress *p)
{
	struct progress_run *run = &p->run;

	if (!run->nr)
		return;
	if (p->tty)
		fputs("\r\033[K", p->term.out);
	if (run->nr == 1)
		fprintf(p->term.out, "[%d/%d] %s", run->first, p->nr_points, run->first_name);
	else
		fprintf(p->term.out, "[%d-%d/%d] %s .. %s", run->first, run->first + run->nr - 1,
			p->nr_points, run->first_name, run->last_name);
	fprintf(p->term.out, ": %s%s%s\n", point_status_name(PS_UNSUPPORTED),
		run->reason[0] ? ": " : "", run->reason);
	run->nr = 0;
}

/* An unsupported point: joins the pending run if it has the same reason. */
static void add_to_run(struct progress *p, const char *name, const struct point_result *r)
{
	struct progress_run *run = &p->run;

	if (run->nr && strcmp(run->reason, r->reason))
		flush_run(p);
	if (!run->nr) {
		run->first = p->done;
		snprintf(run->first_name, sizeof(run->first_name), "%s", name);
		snprintf(run->reason, sizeof(run->reason), "%s", r->reason);
	}
	snprintf(run->last_name, sizeof(run->last_name), "%s", name);
	run->nr++;
}

void progress_experiment(struct progress *p, int exp, int nr_exps, const char *title)
{
	if (exp == p->exp)
		return;
	p->exp = exp;
	p->title = title;
	if (nr_exps < 2)
		return;
	flush_run(p);
	if (p->tty)
		fputs("\r\033[K", p->term.out);
	fprintf(p->term.out, "experiment %d/%d: %s\n", exp + 1, nr_exps, title);
}

void progress_begin(struct progress *p, const char *name, int rep, int nr_reps)
{
	uint64_t now = p->term.clock();

	flush_run(p);
	/* a retry's repetitions, and rounds' arms, are of the point that began first */
	if (!p->running)
		p->point_start_ns = now;
	p->running = true;
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->rep = rep;
	p->nr_reps = nr_reps;
	p->phase = PROGRESS_SETUP;
	draw(p, now);
}

void progress_woke(void *ctx, bool warmup)
{
	struct progress *p = ctx;
	enum progress_phase phase = warmup ? PROGRESS_WARMUP : PROGRESS_MEASURING;
	uint64_t now;

	/* a log gets the finished points only: nothing to do here */
	if (!p->tty)
		return;
	if (p->phase == PROGRESS_STATS_PASS)
		phase = PROGRESS_STATS_PASS;
	now = p->term.clock();
	if (phase == p->phase && now - p->drawn_ns < REDRAW_NS)
		return;
	p->phase = phase;
	draw(p, now);
}

struct rep_watch progress_watch(struct progress *p, bool (*stop_requested)(void))
{
	return (struct rep_watch){ .stop_requested = stop_requested, .woke = progress_woke,
				   .ctx = p };
}

void progress_stats_pass(struct progress *p, const char *name)
{
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->phase = PROGRESS_STATS_PASS;
	draw(p, p->term.clock());
}

void progress_retry(struct progress *p, const char *name, const struct point_result *r,
		    int max_tries)
{
	char flags[160];

	quality_format(&r->quality, flags, sizeof(flags));
	if (p->tty)
		fputs("\r\033[K", p->term.out);
	fprintf(p->term.out, "[%d/%d] %s: %s (%s), try %d/%d\n", p->done + 1, p->nr_points, name,
		point_result_counted_nothing(r) ? "stalled" : "noisy", flags, r->tries + 1,
		max_tries);
}

void progress_end(struct progress *p, const char *name, const struct point_result *r)
{
	const struct metric_def *d = &r->pt->wp.wl->metrics[0];
	const struct summary *s = &r->stat[0];
	char flags[160], val[128];

	p->done++;
	if (p->running)
		p->done_runnable++;
	p->running = false;
	p->ended_ns = p->term.clock();
	if (r->status == PS_UNSUPPORTED) {
		add_to_run(p, name, r);
		return;
	}
	flush_run(p);
	if (p->tty)
		fputs("\r\033[K", p->term.out);
	fprintf(p->term.out, "[%d/%d] %s: %s", p->done, p->nr_points, name,
		point_status_name(r->status));
	if (r->status == PS_OK) {
		metric_format_sd_n(s->mean, s->stddev, s->n, metric_default_unit(d), val,
				   sizeof(val));
		fprintf(p->term.out, " %s %s", d->name, val);
	}
	/* with decide, against its baseline: what the table's row will end with */
	if (r->status == PS_OK && r->has_decision) {
		decide_text(&r->decision, NULL, val, sizeof(val));
		fprintf(p->term.out, ", %s", val);
	}
	quality_format(&r->quality, flags, sizeof(flags));
	if (r->status == PS_OK && flags[0])
		fprintf(p->term.out, " noisy (%s)", flags);
	/* an ok point's reason is a caveat: why a gauge is unknown */
	if (r->status == PS_OK && r->reason[0])
		fprintf(p->term.out, " (%s)", r->reason);
	if (r->status != PS_OK && r->reason[0])
		fprintf(p->term.out, ": %s", r->reason);
	fputc('\n', p->term.out);
}

void progress_finish(struct progress *p)
{
	flush_run(p);
	if (p->tty)
		fputs("\r\033[K", p->term.out);
}
