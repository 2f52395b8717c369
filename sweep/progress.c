// SPDX-License-Identifier: GPL-2.0
/* Progress output; see progress.h for when it may print. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void progress_init(struct progress *p, int nr_points, uint64_t point_ns)
{
	p->tty = isatty(STDERR_FILENO);
	p->nr_points = nr_points;
	p->done = 0;
	p->point_ns = point_ns;
	p->start_ns = now_ns();
}

/*
 * The ETA trusts what the finished points really took once there are any,
 * since setup, unsupported points and teardown make the estimate wrong.
 */
static uint64_t eta_s(const struct progress *p)
{
	uint64_t per_point = p->point_ns;

	if (p->done)
		per_point = (now_ns() - p->start_ns) / p->done;
	return per_point * (p->nr_points - p->done) / 1000000000ULL;
}

void progress_begin(struct progress *p, const char *name, int rep, int nr_reps)
{
	const int width = 20;
	int filled = p->nr_points ? p->done * width / p->nr_points : 0;
	uint64_t eta = eta_s(p);

	if (!p->tty)
		return;
	fprintf(stderr, "\r\033[K[%.*s%*s] %d/%d %s", filled, "####################",
		width - filled, "", p->done + 1, p->nr_points, name);
	if (nr_reps > 1)
		fprintf(stderr, " rep %d/%d", rep + 1, nr_reps);
	fprintf(stderr, " ETA %um%02us", (unsigned)(eta / 60), (unsigned)(eta % 60));
	fflush(stderr);
}

void progress_retry(struct progress *p, const char *name, const struct point_result *r,
		    int max_tries)
{
	char flags[160];

	quality_format(&r->quality, flags, sizeof(flags));
	if (p->tty)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "[%d/%d] %s: noisy (%s), try %d/%d\n", p->done + 1, p->nr_points, name,
		flags, r->tries + 1, max_tries);
}

void progress_end(struct progress *p, const char *name, const struct point_result *r)
{
	const struct summary *s = &r->rate[0];
	char flags[160];

	p->done++;
	if (p->tty)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "[%d/%d] %s: %s", p->done, p->nr_points, name,
		point_status_name(r->status));
	if (r->status == PS_OK)
		fprintf(stderr, " %s %.3f ± %.3fM/s", r->pt->wp.wl->metrics[0],
			s->mean / 1e6, s->stddev / 1e6);
	quality_format(&r->quality, flags, sizeof(flags));
	if (r->status == PS_OK && flags[0])
		fprintf(stderr, " noisy (%s)", flags);
	if (r->status != PS_OK && r->reason[0])
		fprintf(stderr, ": %s", r->reason);
	fputc('\n', stderr);
}

void progress_finish(struct progress *p)
{
	if (p->tty)
		fputs("\r\033[K", stderr);
}
