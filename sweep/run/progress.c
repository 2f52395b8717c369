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

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void progress_init(struct progress *p, int nr_points, int nr_runnable, uint64_t point_ns)
{
	memset(p, 0, sizeof(*p));
	p->tty = isatty(STDERR_FILENO);
	p->nr_points = nr_points;
	p->nr_runnable = nr_runnable;
	p->point_ns = point_ns;
	p->start_ns = now_ns();
	p->exp = -1;
}

/* The terminal's width now (it may have been resized), or 80 if it does not say. */
static int term_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) || !ws.ws_col)
		return 80;
	return ws.ws_col;
}

/*
 * The ETA counts the points left that will run, and trusts what the
 * finished ones really took once there are any, since setup and teardown
 * make the estimate wrong (points ruled out take next to no time).
 */
static uint64_t eta_s(const struct progress *p)
{
	uint64_t per_point = p->point_ns;
	int left = p->nr_runnable - p->done_runnable;

	if (p->done_runnable)
		per_point = (now_ns() - p->start_ns) / p->done_runnable;
	return sat_mul_u64(per_point, left > 0 ? left : 0) / 1000000000ULL;
}

/* The pending run of unsupported points, as one line. */
static void flush_run(struct progress *p)
{
	struct progress_run *run = &p->run;

	if (!run->nr)
		return;
	if (p->tty)
		fputs("\r\033[K", stderr);
	if (run->nr == 1)
		fprintf(stderr, "[%d/%d] %s", run->first, p->nr_points, run->first_name);
	else
		fprintf(stderr, "[%d-%d/%d] %s .. %s", run->first, run->first + run->nr - 1,
			p->nr_points, run->first_name, run->last_name);
	fprintf(stderr, ": %s%s%s\n", point_status_name(PS_UNSUPPORTED), run->reason[0] ? ": " : "",
		run->reason);
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
		fputs("\r\033[K", stderr);
	fprintf(stderr, "experiment %d/%d: %s\n", exp + 1, nr_exps, title);
}

void progress_begin(struct progress *p, const char *name, int rep, int nr_reps)
{
	struct progress_view v = {
		.done = p->done, .nr_points = p->nr_points, .title = p->title, .name = name,
		.rep = rep, .nr_reps = nr_reps, .eta_s = eta_s(p),
	};
	char line[1024];

	flush_run(p);
	p->running = true;
	if (!p->tty)
		return;
	/* "\033[K" clears what a longer line before it left */
	fprintf(stderr, "\r%s\033[K", progress_line(line, sizeof(line), term_width(), &v));
	fflush(stderr);
}

void progress_retry(struct progress *p, const char *name, const struct point_result *r,
		    int max_tries)
{
	char flags[160];

	quality_format(&r->quality, flags, sizeof(flags));
	if (p->tty)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "[%d/%d] %s: %s (%s), try %d/%d\n", p->done + 1, p->nr_points, name,
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
	if (r->status == PS_UNSUPPORTED) {
		add_to_run(p, name, r);
		return;
	}
	flush_run(p);
	if (p->tty)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "[%d/%d] %s: %s", p->done, p->nr_points, name,
		point_status_name(r->status));
	if (r->status == PS_OK) {
		metric_format_sd_n(s->mean, s->stddev, s->n, metric_default_unit(d), val,
				   sizeof(val));
		fprintf(stderr, " %s %s", d->name, val);
	}
	/* with decide, against its baseline: what the table's row will end with */
	if (r->status == PS_OK && r->has_decision) {
		decide_text(&r->decision, NULL, val, sizeof(val));
		fprintf(stderr, ", %s", val);
	}
	quality_format(&r->quality, flags, sizeof(flags));
	if (r->status == PS_OK && flags[0])
		fprintf(stderr, " noisy (%s)", flags);
	/* an ok point's reason is a caveat: why a gauge is unknown */
	if (r->status == PS_OK && r->reason[0])
		fprintf(stderr, " (%s)", r->reason);
	if (r->status != PS_OK && r->reason[0])
		fprintf(stderr, ": %s", r->reason);
	fputc('\n', stderr);
}

void progress_finish(struct progress *p)
{
	flush_run(p);
	if (p->tty)
		fputs("\r\033[K", stderr);
}
