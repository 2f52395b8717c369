// SPDX-License-Identifier: GPL-2.0
/*
 * The Slurm machine file (slurm_machines.c): labels, KEY=VALUE words, the
 * command line's defaults, count=N, and every value that salloc's option
 * parser or a shell could read otherwise refused at its line and column;
 * the text kept as OUT/hostfile parses back to the same machines.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "diag_capture.h"
#include "slurm_machines.h"

static struct slurm_machines ms;
static struct hosts hs;

static int parse(const char *text, const char *const *defaults)
{
	return slurm_machines_parse("m", text, text ? strlen(text) : 0, defaults, &ms, &hs);
}

TEST(parses_labels_keys_and_defaults)
{
	const char *defaults[NR_SLURM_KEYS] = { [SK_PARTITION] = "debug", [SK_TIME] = "30" };
	const char *text =
		"# machine classes\n"
		"@epyc/ partition=batch constraint=EPYC_9654&nvme time=1-02:00:00\n"
		"\n"
		"nodelist=node7 account=lab qos=high reservation=bench\n"
		"@kp/constraint=[Kunpeng_920*2]\n";

	capture();
	CHECK_INT(parse(text, defaults), 0);
	CHECK_STR(diags(), "");
	CHECK_INT(ms.nr, 3);
	CHECK_INT(hs.nr, 3);
	CHECK_STR(hs.h[0].label, "epyc");
	CHECK_STR(ms.m[0].v[SK_PARTITION], "batch");
	CHECK_STR(ms.m[0].v[SK_CONSTRAINT], "EPYC_9654&nvme");
	CHECK_STR(ms.m[0].v[SK_TIME], "1-02:00:00");
	CHECK_STR(hs.h[0].name, "partition=batch,constraint=EPYC_9654&nvme");
	CHECK_INT(hs.h[0].line, 2);
	/* no label: the node it names; the defaults fill in what it leaves out */
	CHECK_STR(hs.h[1].label, "node7");
	CHECK_STR(ms.m[1].v[SK_PARTITION], "debug");
	CHECK_STR(ms.m[1].v[SK_TIME], "30");
	CHECK_STR(ms.m[1].v[SK_QOS], "high");
	CHECK_STR(hs.h[2].label, "kp");
	CHECK_STR(ms.m[2].v[SK_CONSTRAINT], "[Kunpeng_920*2]");
}

TEST(the_command_line_alone_is_one_machine)
{
	const char *defaults[NR_SLURM_KEYS] = { [SK_PARTITION] = "debug" };

	capture();
	CHECK_INT(parse(NULL, defaults), 0);
	CHECK_INT(hs.nr, 1);
	CHECK_STR(hs.h[0].label, "debug");
	CHECK_STR(ms.m[0].v[SK_PARTITION], "debug");
	CHECK_INT(parse(NULL, NULL), 0);
	CHECK_STR(hs.h[0].label, "slurm");
	CHECK_STR(hs.h[0].name, "slurm");
}

TEST(count_makes_labelled_machines)
{
	capture();
	CHECK_INT(parse("@n/partition=p count=3\n@x/\n", NULL), 0);
	CHECK_INT(hs.nr, 4);
	CHECK_STR(hs.h[0].label, "n-1");
	CHECK_STR(hs.h[2].label, "n-3");
	CHECK_STR(ms.m[2].v[SK_PARTITION], "p");
	CHECK_STR(hs.h[3].label, "x");
}

/* One bad file: its diagnostics in full, and -EINVAL. */
static const char *bad(const char *text)
{
	capture();
	if (parse(text, NULL) != -EINVAL)
		return "(accepted)";
	return diags();
}

TEST(refuses_what_salloc_or_a_shell_would_read_otherwise)
{
	CHECK_STR(bad("partition=--uid=0\n"), "m:1:11: error: partition: may not start with '-'\n");
	CHECK_STR(bad("partition=a;reboot\n"),
		  "m:1:12: error: partition: a character Slurm does not take there\n");
	CHECK_STR(bad("constraint=$(id)\n"),
		  "m:1:12: error: constraint: a character Slurm does not take there\n");
	CHECK_STR(bad("nodelist=n'1\n"),
		  "m:1:11: error: nodelist: a character Slurm does not take there\n");
	CHECK_STR(bad("partition=\n"), "m:1:11: error: partition: missing\n");
	CHECK_STR(bad("uid=0\n"), "m:1:1: error: unknown key (partition, constraint, nodelist, "
		  "account, qos, reservation, time, count)\n");
	CHECK_STR(bad("--exclusive\n"), "m:1:1: error: expected KEY=VALUE\n");
	CHECK_STR(bad("time=1:2:3:4\n"),
		  "m:1:6: error: time: expected minutes, M:S, H:M:S or D-H[:M[:S]]\n");
	CHECK_STR(bad("time=1::2\n"),
		  "m:1:6: error: time: expected minutes, M:S, H:M:S or D-H[:M[:S]]\n");
	CHECK_STR(bad("count=0\n"), "m:1:7: error: count: expected a number from 1 to 64\n");
	CHECK_STR(bad("@a/partition=x\n@a/partition=y\n"),
		  "m:2:1: error: label 'a' already names the host of line 1 (give each host its "
		  "own @LABEL/)\n");
	/* every bad line, not only the first; a control character named */
	CHECK_STR(bad("x\n@b/ partition=\x1b[31m\n"),
		  "m:1:1: error: expected KEY=VALUE\n"
		  "m:2:15: error: a control character (0x1b, ESC): a host file is text\n");
	CHECK_STR(bad("# nothing\n"), "bpfsweep: error: m: no machine (one per line, e.g. "
		  "@epyc/partition=batch constraint=EPYC_9654)\n");
}

TEST(the_options_are_checked_as_options)
{
	const char *defaults[NR_SLURM_KEYS] = { [SK_NODELIST] = "-w", [SK_TIME] = "soon" };

	capture();
	CHECK_INT(parse(NULL, defaults), -EINVAL);
	CHECK_STR(diags(), "bpfsweep: error: --nodelist: may not start with '-'\n"
		  "bpfsweep: error: --time-limit: a character Slurm does not take there\n");
}

TEST(the_kept_text_parses_back)
{
	const char *defaults[NR_SLURM_KEYS] = { [SK_PARTITION] = "debug" };
	struct slurm_machines was;
	char text[4096];

	capture();
	CHECK_INT(parse("@a/constraint=x|y count=2\nnodelist=n[1-4] time=90\n", defaults), 0);
	was = ms;
	CHECK_INT(slurm_machines_text(&ms, &hs, text, sizeof(text)), 0);
	CHECK_STR(text, "@a-1/ partition=debug constraint=x|y\n"
		  "@a-2/ partition=debug constraint=x|y\n"
		  "@debug/ partition=debug nodelist=n[1-4] time=90\n");
	CHECK_INT(parse(text, NULL), 0);
	CHECK_INT(memcmp(&was, &ms, sizeof(ms)), 0);
	CHECK_INT(slurm_machines_text(&ms, &hs, text, 20), -ENOSPC);
}

RUN_TESTS(parses_labels_keys_and_defaults, the_command_line_alone_is_one_machine,
	  count_makes_labelled_machines, refuses_what_salloc_or_a_shell_would_read_otherwise,
	  the_options_are_checked_as_options, the_kept_text_parses_back)
