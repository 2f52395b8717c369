// SPDX-License-Identifier: GPL-2.0
/*
 * The sampling intervals of a repetition.  An interval used to be whole
 * multiples of `interval`: `-d 0.3 -w 0.1` warmed up and measured a full
 * second each, while meta said 300ms.  Now each span is cut into equal
 * intervals that end exactly at its end, so that the measured time is the
 * duration asked (bar the sampler's wake-up latency, which the intervals'
 * real elapsed_ns record).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "timing.h"

/*
 * Setup and teardown of a repetition, measured here (2 CPUs, under load):
 * null about 17 ms a point (its rows written and fsync'd); ringbuf with
 * 1-10 producers about 220 ms (programs loaded and verified, threads).
 */
#define SETUP_NS		20000000ULL
#define SETUP_BPF_NS		200000000ULL

struct span_split timing_split(uint64_t span_ns, uint64_t interval_ns)
{
	struct span_split s = { .span_ns = span_ns };
	uint64_t most;

	if (!span_ns)
		return s;
	s.nr = interval_ns ? (span_ns + interval_ns - 1) / interval_ns : 1;
	most = span_ns / TIMING_MIN_INTERVAL_NS;
	if (s.nr > most)
		s.nr = most;
	if (!s.nr)
		s.nr = 1;
	return s;
}

uint64_t timing_end_ns(const struct span_split *s, uint64_t i)
{
	/* (i + 1) * span / nr without overflow for any span a spec can give */
	return s->span_ns / s->nr * (i + 1) + s->span_ns % s->nr * (i + 1) / s->nr;
}

double timing_interval_ns(const struct span_split *s)
{
	return s->nr ? (double)s->span_ns / s->nr : 0;
}

/* "100ms", "333.333ms", "1s", "2.5s": a length for people, not for parsing. */
static int put_length(char *buf, size_t len, double ns)
{
	if (ns >= 1e9)
		return snprintf(buf, len, "%gs", ns / 1e9);
	return snprintf(buf, len, "%gms", ns / 1e6);
}

static int put_span(char *buf, size_t len, const struct span_split *s, const char *what)
{
	int n = snprintf(buf, len, "%llu x ", (unsigned long long)s->nr);

	if (n < (int)len)
		n += put_length(buf + n, len - n, timing_interval_ns(s));
	if (n < (int)len)
		n += snprintf(buf + n, len - n, " %s", what);
	return n;
}

static uint64_t whole_seconds_ns(uint64_t ns)
{
	return (ns + 999999999ULL) / 1000000000ULL * 1000000000ULL;
}

/*
 * A workload that measures itself (exec: a program with its own clock)
 * gets the warmup and duration as {warmup_s} and {duration_s}, in whole
 * seconds rounded up (exec_tmpl.c): say so rather than the sampler's
 * intervals, which it does not use.
 */
static void describe_own_clock(const struct sweep_cfg *cfg, char *buf, size_t len)
{
	uint64_t w = whole_seconds_ns(cfg->warmup_ns), d = whole_seconds_ns(cfg->duration_ns);

	snprintf(buf, len, "{warmup_s} %llu + {duration_s} %llu of the program's own",
		 (unsigned long long)(w / 1000000000ULL), (unsigned long long)(d / 1000000000ULL));
	if (w != cfg->warmup_ns || d != cfg->duration_ns)
		snprintf(buf + strlen(buf), len - strlen(buf), " (whole seconds, rounded up)");
}

static bool own_clock(const struct sweep_cfg *cfg)
{
	return cfg->wl && cfg->wl->run;
}

void timing_describe(const struct sweep_cfg *cfg, char *buf, size_t len)
{
	struct span_split warm = timing_split(cfg->warmup_ns, cfg->interval_ns);
	struct span_split dur = timing_split(cfg->duration_ns, cfg->interval_ns);
	int n = 0;

	buf[0] = '\0';
	if (own_clock(cfg)) {
		describe_own_clock(cfg, buf, len);
		return;
	}
	if (warm.nr)
		n = put_span(buf, len, &warm, "warmup + ");
	if (n < (int)len)
		put_span(buf + n, len - n, &dur, "measured");
}

uint64_t timing_setup_ns(const struct sweep_cfg *cfg)
{
	return cfg->wl && cfg->wl->needs_bpf ? SETUP_BPF_NS : SETUP_NS;
}

uint64_t timing_rep_ns(const struct sweep_cfg *cfg)
{
	if (own_clock(cfg))
		return whole_seconds_ns(cfg->warmup_ns) + whole_seconds_ns(cfg->duration_ns) +
		       timing_setup_ns(cfg);
	return cfg->warmup_ns + cfg->duration_ns + timing_setup_ns(cfg);
}
