// SPDX-License-Identifier: GPL-2.0
/*
 * compare's programs section (compare_programs.h, progread.h): two small
 * programs.csv made here, a program's figures joined by name within a
 * point and compared exactly: a changed figure is "different", an equal
 * one "same", a program of one side "base only"/"new only", a figure one
 * side lacks "n/a (not recorded)", a figure that varied across a side's
 * repetitions "varied"; a hostile prog_name shown escaped; a bad cell
 * refused at file:line:col.  Wall time: a few ms.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "compare_print.h"
#include "compare_programs.h"

#define M(k, v) { .key = (char *)(k), .value = (char *)(v) }

static const char header[] = "point,experiment,rep,prog_name,prog_type,prog_id,total_insns,"
			     "jited_size,verify_time,reason\n";

/* dir/programs.csv with text after the header; 0 or -1. */
static int put(const char *dir, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/programs.csv", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(header, f);
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

static void rm(const char *dir)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/programs.csv", dir);
	unlink(path);
	rmdir(dir);
}

/* BASE: csum_run 52 insns in both repetitions, csum_check, and a hostile name. */
static const char base_rows[] =
	"7,x,0,csum_run,sched_cls,10,52,203,90,\n"
	"7,x,0,csum_check,sched_cls,11,21,92,50,\n"
	"7,x,1,csum_run,sched_cls,12,52,203,70,\n"
	"7,x,1,csum_check,sched_cls,13,21,92,40,\n"
	"7,x,0,\"evil|\x1b[31m\n\",sched_cls,14,5,,1,\n"
	"7,x,0,flaky,sched_cls,15,9,10,1,\n"
	"7,x,1,flaky,sched_cls,16,8,10,1,\n"
	"7,x,0,nojit,sched_cls,17,4,,1,jited_size: not given by this kernel\n";
/* NEW: csum_run grew, csum_check did not, csum_new is new; its point is 3. */
static const char new_rows[] =
	"3,x,0,csum_run,sched_cls,10,60,203,95,\n"
	"3,x,0,csum_check,sched_cls,11,21,92,50,\n"
	"3,x,0,csum_new,sched_cls,15,7,30,5,\n"
	"3,x,0,flaky,sched_cls,16,9,10,1,\n"
	"3,x,0,nojit,sched_cls,17,4,10,1,\n"
	"4,x,,,,,,,,no program loaded\n";

static const struct prog_cmp *prog(const struct point_cmp *p, const char *name)
{
	for (int i = 0; i < p->nr_progs; i++)
		if (!strcmp(p->progs[i].name, name))
			return &p->progs[i];
	return NULL;
}

struct fixture {
	char dir[2][64];
	struct prog_table t[2];
	struct result_meta meta[3];
	struct result_point pt[2];
	struct result_set set[2];
	struct point_cmp p;
	struct comparison c;
};

static int fixture_make(struct fixture *x)
{
	char why[512];
	struct result_meta meta[3] = {
		M("metric", "total_insns counter insns lower deterministic"),
		M("metric", "jited_size counter bytes lower deterministic"),
		M("metric", "verify_time counter us lower"),
	};

	memset(x, 0, sizeof(*x));
	memcpy(x->meta, meta, sizeof(meta));
	for (int s = 0; s < 2; s++) {
		snprintf(x->dir[s], sizeof(x->dir[s]), "/tmp/test_progcmp.XXXXXX");
		if (!mkdtemp(x->dir[s]) || put(x->dir[s], s ? new_rows : base_rows) ||
		    prog_table_read(x->dir[s], &x->t[s], why, sizeof(why)))
			return -1;
		x->pt[s].id = s ? 3 : 7;
		x->set[s] = (struct result_set){ .meta = x->meta, .nr_meta = 3,
						  .points = &x->pt[s], .nr_points = 1 };
	}
	x->p = (struct point_cmp){ .base_row = 1, .new_row = 1, .experiment = "x",
				   .state = PS_COMPARED };
	snprintf(x->p.label, sizeof(x->p.label), "size=16");
	x->c = (struct comparison){ .base_dir = "A", .new_dir = "B", .base = &x->set[0], .new = &x->set[1], .pts = &x->p,
				    .nr_pts = 1, .progs = { &x->t[0], &x->t[1] } };
	return compare_programs(&x->c);
}

static void fixture_free(struct fixture *x)
{
	compare_programs_free(&x->c);
	for (int s = 0; s < 2; s++) {
		prog_table_free(&x->t[s]);
		rm(x->dir[s]);
	}
}

/* x's section as text or markdown, into *out (free()); 0 or -1. */
static int print_section(const struct fixture *x, bool markdown, char **out)
{
	size_t len = 0;
	FILE *f = open_memstream(out, &len);

	if (!f)
		return -1;
	if (compare_programs_print(f, &x->c, markdown)) {
		fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

/* The verdict of figure name of program pc. */
static const char *verdict(const struct fixture *x, const struct prog_cmp *pc, const char *name)
{
	for (int k = 0; k < x->c.pfigs->nr; k++)
		if (!strcmp(x->c.pfigs->name[k], name))
			return prog_fig_verdict(pc, x->c.pfigs, k);
	return "(no such figure)";
}

TEST(joined_by_name_compared_exactly)
{
	struct fixture x;
	const struct prog_cmp *run, *check, *fresh, *flaky;

	CHECK_INT(fixture_make(&x), 0);
	CHECK_INT(x.c.pfigs->nr, 3);
	CHECK(x.c.pfigs->exact[0] && x.c.pfigs->exact[1] && !x.c.pfigs->exact[2]);
	CHECK_INT(x.p.nr_progs, 6);
	run = prog(&x.p, "csum_run");
	check = prog(&x.p, "csum_check");
	fresh = prog(&x.p, "csum_new");
	flaky = prog(&x.p, "flaky");
	CHECK(run && check && fresh && flaky);
	CHECK_STR(verdict(&x, run, "total_insns"), "different");
	CHECK_STR(verdict(&x, run, "jited_size"), "same");
	CHECK_STR(verdict(&x, run, "verify_time"), "");	/* a time: no verdict */
	CHECK_NEAR(prog_fig_value(&run->f[0][2], false), 80, 1e-9);
	CHECK(run->differs);
	CHECK_STR(verdict(&x, check, "total_insns"), "same");
	CHECK(!check->differs);
	CHECK_STR(prog_state_text(fresh), "new only");
	CHECK(fresh->differs);
	/* 9 then 8 instructions in BASE's two repetitions: the setup differed */
	CHECK_STR(verdict(&x, flaky, "total_insns"), "varied");
	/* BASE's kernel did not give it: not compared as a 0 */
	CHECK_STR(verdict(&x, prog(&x.p, "nojit"), "jited_size"), "n/a (not recorded)");
	CHECK_STR(verdict(&x, prog(&x.p, "nojit"), "total_insns"), "same");
	fixture_free(&x);
}

/* Text shows what differs, escaped; the equal program is counted, not listed. */
TEST(text_shows_changes_escaped)
{
	struct fixture x;
	char *out = NULL;

	CHECK_INT(fixture_make(&x), 0);
	CHECK_INT(print_section(&x, false, &out), 0);
	CHECK(strstr(out, "  csum_run       total_insns   52 → 60  +8 (+15.4 %)  different\n"));
	/* csum_run's equal jited_size and csum_check (same in every figure) are not listed */
	CHECK(!strstr(out, "csum_run       jited_size"));
	CHECK(!strstr(out, "csum_check"));
	CHECK(strstr(out, "  evil|\\e[31m\\n  base only\n"));
	CHECK(!strchr(out, '\x1b'));
	CHECK(strstr(out, "  csum_new       new only\n"));
	CHECK(strstr(out, "  flaky          total_insns     9 → 9                varied\n"));
	CHECK(strstr(out, "programs: A -> B: "));
	CHECK(strstr(out, "  nojit          jited_size   n/a → 10                n/a (not recorded)\n"));
	CHECK(strstr(out, "1 of 6 programs the same in every figure, not shown"));
	free(out);
	fixture_free(&x);
}

/* Markdown: a '|' in a name cannot end its cell. */
TEST(markdown_escapes_bar)
{
	struct fixture x;
	char *out = NULL;

	CHECK_INT(fixture_make(&x), 0);
	x.c.all_programs = true;
	CHECK_INT(print_section(&x, true, &out), 0);
	CHECK(strstr(out, "| x: size=16 | evil\\|\\e[31m\\n |  |  |  | base only |\n"));
	/* --all-programs: the equal ones too */
	CHECK(strstr(out, "| x: size=16 | csum_check | total_insns | 21 → 21 |  | same |\n"));
	free(out);
	fixture_free(&x);
}

TEST(bad_cell_refused_where)
{
	char dir[] = "/tmp/test_progcmp.XXXXXX", why[512];
	struct prog_table t;

	CHECK(mkdtemp(dir));
	CHECK_INT(prog_table_read(dir, &t, why, sizeof(why)), 0);	/* no file: no section */
	CHECK(!t.present);
	CHECK_INT(put(dir, "1,x,0,a,sched_cls,1,52,203,90,\n1,x,0,b,sched_cls,2,-3,1,1,\n"), 0);
	CHECK_INT(prog_table_read(dir, &t, why, sizeof(why)), -EINVAL);
	prog_table_free(&t);
	rm(dir);
	CHECK(strstr(why, "/programs.csv:3:7: error: total_insns is '-3', not empty or a whole "
		      "number"));
}

RUN_TESTS(joined_by_name_compared_exactly, text_shows_changes_escaped, markdown_escapes_bar,
	  bad_cell_refused_where)
