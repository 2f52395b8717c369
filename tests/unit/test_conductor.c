// SPDX-License-Identifier: GPL-2.0
/*
 * Rounds across kernels: the gate's lines (gateline.c) and the conductor
 * (conductor.c) against fake sub-runs, a thread each, that speak the
 * gate's words through the FIFO pairs as a sub-run on the host does
 * (gate_open()): a 10 % faster kernel is found different, an A/A pair
 * the same; a point one kernel cannot run goes solo on the other; a unit
 * that fails, or a sub-run that goes away, ends the point for the rest.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "conductor.h"
#include "gate.h"
#include "gateline.h"
#include "quality.h"

TEST(lines_round_trip)
{
	struct gate_line in = { .kind = GATE_END, .baseline = false, .decided = true,
				.d = { .word = DECIDE_DIFFERENT, .n = 10, .est_pct = -31.1,
				       .lo_pct = -32.0, .hi_pct = -30.2, .level = 0.9857,
				       .far_pct = 32.0, .final = true, .exact_pct = 0.1,
				       .exact = true }, .veto = QF_BIMODAL };
	struct gate_line out;
	char buf[GATE_LINE_MAX];

	snprintf(in.stop, sizeof(in.stop), "decided");
	CHECK(gate_line_format(&in, buf, sizeof(buf)) > 0);
	buf[strlen(buf) - 1] = '\0';
	CHECK_INT(gate_line_parse(buf, &out), 0);
	CHECK_INT(out.kind, GATE_END);
	CHECK_STR(out.stop, "decided");
	CHECK(out.decided && !out.baseline && out.d.final);
	CHECK_INT(out.d.word, DECIDE_DIFFERENT);
	CHECK_INT(out.d.n, 10);
	CHECK(out.d.est_pct == -31.1 && out.d.lo_pct == -32.0 && out.d.hi_pct == -30.2);
	CHECK_INT(out.veto, QF_BIMODAL);
	CHECK(out.d.exact_pct == 0.1 && out.d.exact);
	CHECK_INT(gate_line_parse("unit 3 4 nan 0", &out), 0);
	CHECK(isnan(out.value) && out.id == 3 && out.round == 4);
}

TEST(lines_refused)
{
	static const char *const bad[] = {
		"", "point", "point 1", "point 1 2", "point x 1", "unit 1 2 3", "run 1",
		"end decided 0 1 9 5 1 1 1 1 1 0 0", "bye now", "hello", "run 1 2 3",
		"unit 1 2 3.5 -1", "point 99999999999 1",
	};
	struct gate_line l;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(gate_line_parse(bad[i], &l) == -EPROTO);
}

/* Lines split across reads, \r\n ends and empty lines: each whole line once. */
TEST(reader_takes_lines_as_they_come)
{
	struct gate_reader r = { 0 };
	struct gate_line l;
	int p[2];

	CHECK(!pipe(p));
	CHECK(write(p[1], "\r\npoint 4 ", 10) == 10);
	CHECK_INT(gate_read(p[0], &r, 10, &l), 0);
	CHECK(write(p[1], "1\r\nbye\n", 7) == 7);
	CHECK_INT(gate_read(p[0], &r, 10, &l), 1);
	CHECK(l.kind == GATE_POINT && l.id == 4 && l.runnable);
	CHECK_INT(gate_read(p[0], &r, 10, &l), 1);
	CHECK_INT(l.kind, GATE_BYE);
	close(p[1]);
	CHECK_INT(gate_read(p[0], &r, 10, &l), -EPIPE);
	close(p[0]);
}

/* A sub-run as the conductor sees it: what it does, and what it was told. */
struct fake {
	const char *pipe;
	int *ended;		/* the slot's flag: set when it goes */
	double level;		/* its units' mean */
	int phase;		/* where its wobble starts */
	double wobble;		/* its step, 0: 0.2 % (a timed unit's); icount's is far less */
	double first;		/* round 0's unit times this (a guest not settled), 0: 1 */
	bool runnable;
	int fail_round;		/* -1: none */
	int vanish_round;	/* -1: none; else it stops answering there */
	/* what it was told */
	int runs;
	struct gate_line last;
	bool got_end, got_solo;
	int slots_seen;		/* bit per slot it ran at */
};

/* Round r's unit: the level with a small, fixed, round-to-round wobble. */
static double unit_value(const struct fake *f, int r)
{
	double v = f->level * (1 + (f->wobble ?: 0.002) * ((r * 7 + f->phase) % 5 - 2));

	return r || !f->first ? v : v * f->first;
}

static bool answer(struct gate *g, struct fake *f, const struct gate_line *l)
{
	struct gate_line u = { .kind = GATE_UNIT, .id = 0, .round = l->round };

	if (l->kind != GATE_RUN) {
		f->last = *l;
		f->got_end |= l->kind == GATE_END;
		f->got_solo |= l->kind == GATE_SOLO;
		return false;
	}
	f->runs++;
	f->slots_seen |= 1 << l->slot;
	if (l->round == f->vanish_round)
		return false;
	if (l->round == f->fail_round)
		u.kind = GATE_FAIL;
	u.value = unit_value(f, l->round);
	gate_write(g->wfd, &u);
	return u.kind == GATE_UNIT;
}

static void *fake_run(void *arg)
{
	struct fake *f = arg;
	struct gate g;
	struct gate_line l;
	int got = 0;

	if (gate_open(&g, f->pipe))
		goto out;
	gate_write(g.wfd, &(struct gate_line){ .kind = GATE_POINT, .id = 0,
					       .runnable = f->runnable });
	for (int waited = 0; f->runnable && waited < 100; waited++) {
		got = gate_read(g.rfd, &g.reader, 100, &l);
		if (got < 0)
			break;
		if (got && !answer(&g, f, &l))
			break;
		waited = got ? 0 : waited;
	}
	if (f->vanish_round < 0)
		gate_write(g.wfd, &(struct gate_line){ .kind = GATE_BYE });
	gate_close(&g);
out:
	__atomic_store_n(f->ended, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Two kernels, fakes a (the baseline) and b, through one conductor; icount: both guests so. */
static int conduct_as(struct fake *a, struct fake *b, bool icount)
{
	struct sweep_cfg cfg = { .decide_pct = 2, .repeat = 1, .max_repeat = 20 };
	struct plan plan = { 0 };
	struct subrun_slot slots[2] = { { .label = "base" }, { .label = "new" } };
	struct fake *f[2] = { a, b };
	struct conductor c;
	pthread_t t[2];

	if (icount)
		cfg.kernels = (struct kernel_axis){
			.list = { .vals = { "base.img", "new.img" }, .nr = 2 },
			.accel = VM_ACCEL_TCG_ICOUNT };
	if (conductor_open(&c, &cfg, &plan, 2))
		return -1;
	for (int k = 0; k < 2; k++) {
		f[k]->pipe = c.pipes[k];
		f[k]->ended = &slots[k].ended;
		pthread_create(&t[k], NULL, fake_run, f[k]);
	}
	conductor_start(&c, slots);
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	conductor_finish(&c);
	return 0;
}

static int conduct(struct fake *a, struct fake *b)
{
	return conduct_as(a, b, false);
}

#define FAKE(lv) { .level = (lv), .runnable = true, .fail_round = -1, .vanish_round = -1 }
#define FAKE_B(lv) { .level = (lv), .phase = 2, .runnable = true, .fail_round = -1, \
		     .vanish_round = -1 }

TEST(ten_percent_faster_is_different)
{
	struct fake a = FAKE(100), b = FAKE_B(110);

	CHECK_INT(conduct(&a, &b), 0);
	CHECK(a.got_end && b.got_end);
	CHECK(a.last.baseline && !a.last.decided);
	CHECK(!b.last.baseline && b.last.decided);
	CHECK_STR(b.last.stop, "decided");
	CHECK_INT(b.last.d.word, DECIDE_DIFFERENT);
	CHECK_NEAR(b.last.d.est_pct, 10, 0.5);
	/* decided at the first look, 5 rounds, each kernel at both places of a round */
	CHECK_INT(b.last.d.n, 5);
	CHECK_INT(a.runs, 5);
	CHECK_INT(b.runs, 5);
	CHECK_INT(a.slots_seen, 3);
}

TEST(same_machine_is_the_same)
{
	struct fake a = FAKE(100), b = FAKE_B(100);

	CHECK_INT(conduct(&a, &b), 0);
	CHECK_INT(b.last.d.word, DECIDE_SAME);
	CHECK(b.last.d.far_pct > 0 && b.last.d.far_pct < 2);
}

/* icount guests: units that repeat within 0.02 % decide at 2 rounds, exactly */
TEST(icount_decides_in_two_rounds)
{
	struct fake a = FAKE(100), b = FAKE_B(110), c = FAKE(100), d = FAKE_B(100);

	a.wobble = b.wobble = c.wobble = d.wobble = 0.0001;
	CHECK_INT(conduct_as(&a, &b, true), 0);
	CHECK_STR(b.last.stop, "decided");
	CHECK_INT(b.last.d.word, DECIDE_DIFFERENT);
	CHECK(b.last.d.exact && b.last.d.exact_pct == 0.1);
	CHECK_INT(b.last.d.n, 2);
	CHECK_INT(a.runs, 2);
	CHECK_INT(b.runs, 2);
	/* the same kernel twice: the same, within the tolerance */
	CHECK_INT(conduct_as(&c, &d, true), 0);
	CHECK_INT(d.last.d.word, DECIDE_SAME);
	CHECK(d.last.d.exact && d.last.d.far_pct < 0.2);
	CHECK_INT(d.last.d.n, 2);
}

/* A first unit off by 1 % breaks the agreement: the sequential rule decides, and says so */
TEST(icount_rounds_that_disagree_fall_back)
{
	struct fake a = FAKE(100), b = FAKE_B(110);

	a.wobble = b.wobble = 0.0001;
	b.first = 0.99;
	CHECK_INT(conduct_as(&a, &b, true), 0);
	CHECK_INT(b.last.d.word, DECIDE_DIFFERENT);
	CHECK(!b.last.d.exact && b.last.d.exact_pct == 0.1);
	CHECK_INT(b.last.d.n, 5);
	/* a timed sweep has no tolerance at all */
	a = (struct fake)FAKE(100);
	b = (struct fake)FAKE_B(110);
	a.wobble = b.wobble = 0.0001;
	CHECK_INT(conduct(&a, &b), 0);
	CHECK(!b.last.d.exact && b.last.d.exact_pct == 0);
	CHECK_INT(b.last.d.n, 5);
}

TEST(unrunnable_on_one_kernel_goes_solo)
{
	struct fake a = FAKE(100), b = FAKE(100);

	b.runnable = false;
	CHECK_INT(conduct(&a, &b), 0);
	CHECK(a.got_solo && !a.got_end);
	CHECK_INT(a.runs, 0);
	/* and with the baseline unable, the other runs it on its own */
	a = (struct fake)FAKE(100);
	b = (struct fake)FAKE(100);
	a.runnable = false;
	CHECK_INT(conduct(&a, &b), 0);
	CHECK(b.got_solo && !b.got_end);
}

TEST(failed_unit_ends_the_point)
{
	struct fake a = FAKE(100), b = FAKE(100);

	b.fail_round = 3;
	CHECK_INT(conduct(&a, &b), 0);
	CHECK(a.got_end && !b.got_end);
	CHECK_STR(a.last.stop, "failed");
	CHECK_INT(b.runs, 4);
}

TEST(lost_subrun_ends_the_point)
{
	struct fake a = FAKE(100), b = FAKE(100);

	b.vanish_round = 1;
	CHECK_INT(conduct(&a, &b), 0);
	CHECK(a.got_end);
	CHECK_STR(a.last.stop, "lost");
	CHECK(!a.last.decided);
}

RUN_TESTS(lines_round_trip, lines_refused, reader_takes_lines_as_they_come,
	  ten_percent_faster_is_different, same_machine_is_the_same, icount_decides_in_two_rounds,
	  icount_rounds_that_disagree_fall_back,
	  unrunnable_on_one_kernel_goes_solo, failed_unit_ends_the_point,
	  lost_subrun_ends_the_point)
