// SPDX-License-Identifier: GPL-2.0
/*
 * table.c: what frames the cover-letter table's rows: the machine line
 * above it and the rows' quality flags with their notes.
 */
#include <stdlib.h>

#include "check.h"
#include "table_fixture.h"

static long long producers[] = { 1, 2 };
static long long flags[] = { 0, 1 };

/*
 * Rows with quality flags end in " [n]"; the footnotes follow the rows of
 * their block (each titled group is a block), numbered on across blocks.
 */
TEST(noisy_rows_marked)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1, .max_cv = 10 };
	struct point pts[4];
	struct point_result res[4];

	make_exp(&e, "Noisy", "nr_prod {producers}");
	set_axis(&e, P_PRODUCERS, producers, 2);
	set_axis(&e, P_FLAG, flags, 2);
	e.group = P_FLAG;
	for (int i = 0; i < 4; i++) {
		make_point(&pts[i], i, 0, producers[i / 2], flags[i % 2]);
		make_ok(&res[i], &pts[i], 1e6, 1e3);
	}
	res[0].quality = (struct quality){ .flags = QF_CV | QF_ZERO, .n = 5, .nr_zero = 4,
					   .cv_pct = 224 };
	res[0].tries = 3;
	res[3].quality = (struct quality){ .flags = QF_INTERFERENCE, .wait_pct = 23.4 };
	CHECK_TEXT(render(&cfg, res, 4),
		   "Noisy (flag=off)\n"
		   "================\n"
		   "nr_prod 1            1.000 ± 0.001M/s (drops 0.010 ± 0.000M/s) [1]\n"
		   "nr_prod 2            1.000 ± 0.001M/s (drops 0.010 ± 0.000M/s)\n"
		   "[1] cv=224% (stddev over 10% of the mean); zero=4/5 (intervals near zero),"
		   " after 3 tries\n"
		   "\n"
		   "Noisy (flag=on)\n"
		   "===============\n"
		   "nr_prod 1            1.000 ± 0.001M/s (drops 0.010 ± 0.000M/s)\n"
		   "nr_prod 2            1.000 ± 0.001M/s (drops 0.010 ± 0.000M/s) [2]\n"
		   "[2] interference=23% (a thread of the point waited 23% of its measured time"
		   " for a CPU others held)\n");
}

/* The machine above the table, as seed 002 shows it; a smoke run says so in its titles. */
TEST(machine_line_and_smoke_run)
{
	struct experiment e;
	struct sweep_cfg cfg = { .wl = &null_workload, .exps = &e, .nr_exps = 1 };
	struct run_facts facts = { .arch = "x86_64", .cpu_model = "AMD EPYC 9654" };
	struct point pt;
	struct point_result res;

	make_exp(&e, "Ringbuf", "rb-libbpf nr_prod {producers}");
	make_point(&pt, 0, 0, 1, 0);
	make_ok(&res, &pt, 14970123.4, 12000);
	CHECK_TEXT(table_text(&cfg, &facts, &res, 1),
		   "- x86_64 (AMD EPYC 9654)\n"
		   "Ringbuf\n"
		   "=======\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	facts = (struct run_facts){ .arch = "arm64", .cpu_model = "unknown", .quick = true };
	CHECK_TEXT(table_text(&cfg, &facts, &res, 1),
		   "- arm64\n"
		   "Ringbuf (smoke run: --quick)\n"
		   "============================\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	/* nor are a TCG run's numbers, however long it ran: both notes when both hold */
	facts = (struct run_facts){ .arch = "x86_64", .tcg = true };
	CHECK_TEXT(table_text(&cfg, &facts, &res, 1),
		   "- x86_64\n"
		   "Ringbuf (VM under TCG emulation: for function, not performance)\n"
		   "===============================================================\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	facts.quick = true;
	CHECK_TEXT(table_text(&cfg, &facts, &res, 1),
		   "- x86_64\n"
		   "Ringbuf (smoke run: --quick) (VM under TCG emulation: for function, not "
		   "performance)\n"
		   "=========================================="
		   "==========================================\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
	/* a table over several machines (or none known) names none */
	facts = (struct run_facts){ .arch = "unknown", .cpu_model = "x" };
	CHECK_TEXT(table_text(&cfg, &facts, &res, 1),
		   "Ringbuf\n"
		   "=======\n"
		   "rb-libbpf nr_prod 1  14.970 ± 0.012M/s (drops 0.150 ± 0.000M/s)\n");
}

RUN_TESTS(noisy_rows_marked, machine_line_and_smoke_run)
