// SPDX-License-Identifier: GPL-2.0
/*
 * merge.c and runfacts.c: the union of the runs' columns, and the facts
 * that name runs in a merged set, a report's table blocks and its series.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "merge.h"
#include "runfacts.h"

static char *names(const struct colset *cs)
{
	static char buf[512];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < cs->nr && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? "," : "", cs->names[i]);
	return buf;
}

TEST(union_of_equal_headers_is_the_header)
{
	const char *const h[] = { "point", "experiment", "rate", "status" };
	struct colset cs = { 0 };

	CHECK_INT(colset_merge(&cs, h, 4), 0);
	CHECK_INT(colset_merge(&cs, h, 4), 0);
	CHECK_STR(names(&cs), "point,experiment,rate,status");
	CHECK_INT(colset_find(&cs, "rate"), 2);
	CHECK_INT(colset_find(&cs, "hits"), -1);
	colset_free(&cs);
}

/* A parameter only the second run has lands after its neighbour, not at the end. */
TEST(a_column_of_one_run_lands_beside_its_neighbour)
{
	const char *const a[] = { "point", "experiment", "producers", "status", "hits" };
	const char *const b[] = { "point", "experiment", "producers", "overwrite", "status",
				  "hits", "drops" };
	const char *const c[] = { "batch", "point" };
	struct colset cs = { 0 };

	CHECK_INT(colset_merge(&cs, a, 5), 0);
	CHECK_INT(colset_merge(&cs, b, 7), 0);
	CHECK_STR(names(&cs), "point,experiment,producers,overwrite,status,hits,drops");
	CHECK_INT(colset_merge(&cs, c, 2), 0);
	CHECK_STR(names(&cs), "batch,point,experiment,producers,overwrite,status,hits,drops");
	colset_free(&cs);
}

TEST(many_columns_grow_the_set)
{
	static char cols[40][8];
	const char *h[40];
	struct colset cs = { 0 };

	for (int i = 0; i < 40; i++) {
		snprintf(cols[i], sizeof(cols[i]), "c%d", i);
		h[i] = cols[i];
	}
	CHECK_INT(colset_merge(&cs, h, 40), 0);
	CHECK_INT(cs.nr, 40);
	CHECK_INT(colset_find(&cs, "c39"), 39);
	colset_free(&cs);
}

static struct result_meta meta_a[] = {
	{ "host", "epyc" }, { "arch", "x86_64" }, { "cpu_model", "AMD EPYC 9654" },
	{ "kernel_release", "6.18.0" }, { "tag", "kernel=base" }, { "tag", "machine=a" },
};
static struct result_meta meta_b[] = {
	{ "host", "kunpeng" }, { "arch", "aarch64" }, { "cpu_model", "Kunpeng 920" },
	{ "kernel_release", "6.18.0" }, { "tag", "machine=b" },
};
static struct result_meta meta_c[] = {
	{ "host", "epyc" }, { "arch", "x86_64" }, { "cpu_model", "AMD EPYC 9654" },
	{ "kernel_release", "6.18.0" }, { "tag", "kernel=patched" }, { "tag", "machine=a" },
};

/* an imported set: facts unknown or given as tags too */
static struct result_meta meta_imported[] = {
	{ "host", "unknown" }, { "arch", "arm64" }, { "cpu_model", "Kunpeng 920" },
	{ "kernel_release", "unknown" }, { "tag", "arch=arm64" }, { "tag", "machine=b" },
};

#define SET(m) { .meta = m, .nr_meta = sizeof(m) / sizeof(m[0]) }

TEST(facts_and_tags_by_name)
{
	struct result_set a = SET(meta_a), b = SET(meta_b);
	char v[64];

	CHECK_INT(run_fact(&a, "arch", v, sizeof(v)), 0);
	CHECK_STR(v, "x86_64");
	CHECK_INT(run_fact(&a, "tag:machine", v, sizeof(v)), 0);
	CHECK_STR(v, "a");
	CHECK_INT(run_fact(&b, "tag:kernel", v, sizeof(v)), 0);
	CHECK_STR(v, "");
	CHECK_INT(run_fact(&a, "tag:mach", v, sizeof(v)), 0);	/* a prefix is not the name */
	CHECK_STR(v, "");
	CHECK_INT(run_fact(&a, "colour", v, sizeof(v)), -EINVAL);
	CHECK_INT(run_fact(&a, "tag:", v, sizeof(v)), -EINVAL);
	CHECK_STR(run_tag_name(&a, 1, v, sizeof(v)), "machine");
	CHECK(!run_tag_name(&b, 1, v, sizeof(v)));
}

TEST(series_labels_and_headings)
{
	struct result_set a = SET(meta_a), b = SET(meta_b);
	char buf[256];

	run_label(&a, "arch", 0, buf, sizeof(buf));
	CHECK_STR(buf, "x86_64");
	run_label(&b, "tag:machine", 1, buf, sizeof(buf));
	CHECK_STR(buf, "machine=b");
	run_label(&b, "tag:kernel", 1, buf, sizeof(buf));	/* the run does not say */
	CHECK_STR(buf, "run 2");
	run_label(&a, NULL, 0, buf, sizeof(buf));
	CHECK_STR(buf, "run 1");
	run_heading(&a, 0, buf, sizeof(buf));
	CHECK_STR(buf, "run 1: epyc, x86_64 (AMD EPYC 9654), kernel 6.18.0, kernel=base, "
		  "machine=a");
}

/* What a run does not say is left out; a tag that repeats a fact too. */
TEST(heading_leaves_out_the_unknown)
{
	struct result_set im = SET(meta_imported), none = { 0 };
	char buf[256];

	run_heading(&im, 1, buf, sizeof(buf));
	CHECK_STR(buf, "run 2: arm64 (Kunpeng 920), machine=b");
	run_heading(&none, 0, buf, sizeof(buf));
	CHECK_STR(buf, "run 1:");
}

/* A run of this bpfsweep on the host, one in a VM under TCG, and one from before kernel was. */
static struct result_meta meta_host[] = {
	{ "host", "epyc" }, { "kernel_release", "6.18.0" }, { "kernel", "host" },
	{ "executor", "host" }, { "tag", "kernel=base" }, { "start", "2026-11-30T17:00:00Z" },
};
static struct result_meta meta_tcg[] = {
	{ "host", "epyc" }, { "kernel_release", "7.3.4" }, { "kernel", "vmlinuz-7.3.4" },
	{ "executor", "vm" }, { "vm_accel", "tcg" }, { "tag", "kernel=vmlinuz-7.3.4" },
	{ "start", "2026-11-30T17:00:00Z" },
};
static struct result_meta meta_new[] = {
	{ "host", "epyc" }, { "kernel_release", "6.18.0" }, { "kernel", "host" },
	{ "executor", "host" }, { "start", "2026-11-30T17:00:00Z" },
};
static struct result_meta meta_old[] = {
	{ "host", "epyc" }, { "kernel_release", "6.18.0" }, { "start", "2026-01-01T00:00:00Z" },
};

TEST(kernel_and_accel_facts)
{
	struct result_set host = SET(meta_host), tcg = SET(meta_tcg), old = SET(meta_old);
	struct result_set im = SET(meta_imported), new = SET(meta_new);
	const struct result_set *runs[] = { &new, &old }, *vm[] = { &new, &tcg };
	char v[64];

	CHECK_INT(run_fact(&tcg, "kernel", v, sizeof(v)), 0);
	CHECK_STR(v, "vmlinuz-7.3.4");
	CHECK_INT(run_fact(&tcg, "accel", v, sizeof(v)), 0);	/* meta's vm_accel */
	CHECK_STR(v, "tcg");
	CHECK_INT(run_fact(&host, "accel", v, sizeof(v)), 0);
	CHECK_STR(v, "");
	CHECK_INT(run_fact(&old, "kernel", v, sizeof(v)), 0);	/* where it could: the host */
	CHECK_STR(v, "host");
	CHECK_INT(run_fact(&im, "kernel", v, sizeof(v)), 0);	/* an import does not say */
	CHECK_STR(v, "");
	CHECK_INT(run_fact(&old, "executor", v, sizeof(v)), 0);
	CHECK_STR(v, "host");
	CHECK_INT(run_fact(&tcg, "executor", v, sizeof(v)), 0);
	CHECK_STR(v, "vm");
	/* an old run and a new one on the same kernel differ in nothing */
	CHECK(!run_pick_by(runs, 2, v, sizeof(v)));
	CHECK_STR(run_pick_by(vm, 2, v, sizeof(v)), "kernel_release");
	CHECK(!run_is_tcg(&host) && run_is_tcg(&tcg) && !run_is_tcg(&old));
	CHECK(!run_facts_of(&host).tcg && run_facts_of(&tcg).tcg);
}

/* A TCG run's heading says so; a tag named like a fact stays when it says more. */
TEST(tcg_heading)
{
	struct result_set host = SET(meta_host), tcg = SET(meta_tcg);
	char buf[256];

	run_heading(&host, 0, buf, sizeof(buf));
	CHECK_STR(buf, "run 1: epyc, kernel 6.18.0, kernel=base");
	run_heading(&tcg, 1, buf, sizeof(buf));
	CHECK_STR(buf, "run 2: epyc, kernel 7.3.4 (VM under TCG emulation: for function, not "
		  "performance)");	/* its tag only repeats the kernel fact */
}

/* A merged kernel sweep: TCG when any row's accel column says so. */
TEST(tcg_in_a_merged_summary)
{
	struct result_set set = { 0 };

	CHECK_INT(csv_read_string("run,kernel,accel,exp\n1,host,,0\n2,vmlinuz,kvm,0\n",
				  &set.summary), 0);
	CHECK(!run_is_tcg(&set));
	csv_table_free(&set.summary);
	CHECK_INT(csv_read_string("run,kernel,accel,exp\n1,host,,0\n2,vmlinuz,tcg,0\n",
				  &set.summary), 0);
	CHECK(run_is_tcg(&set));
	CHECK(run_facts_of(&set).tcg);
	csv_table_free(&set.summary);
}

static struct result_meta meta_x86_import[] = {
	{ "host", "unknown" }, { "arch", "x86_64" }, { "cpu_model", "AMD EPYC 9654" },
	{ "kernel_release", "unknown" }, { "tag", "arch=x86_64" },
	{ "tag", "cpu_model=AMD EPYC 9654" },
};
static struct result_meta meta_arch_only_a[] = { { "arch", "x86_64" }, { "cpu_model", "unknown" } };
static struct result_meta meta_arch_only_b[] = { { "arch", "arm64" }, { "cpu_model", "unknown" } };
static struct result_meta meta_twin[] = {
	{ "host", "epyc2" }, { "arch", "x86_64" }, { "cpu_model", "AMD EPYC 9654" },
	{ "kernel_release", "6.18.0" }, { "tag", "machine=a" },
};

/*
 * The default --by names runs by the fewest facts that tell them apart:
 * machines by arch and CPU model, a kernel by its release, else a tag.
 */
TEST(default_by_names_runs_apart)
{
	struct result_set a = SET(meta_a), b = SET(meta_b), c = SET(meta_c);
	struct result_set xi = SET(meta_x86_import), ai = SET(meta_imported);
	struct result_set oa = SET(meta_arch_only_a), ob = SET(meta_arch_only_b);
	struct result_set twin = SET(meta_twin), host = SET(meta_host), tcg = SET(meta_tcg);
	const struct result_set *machines[] = { &a, &b }, *kernels[] = { &a, &c };
	const struct result_set *same[] = { &a, &a }, *imports[] = { &xi, &ai };
	const struct result_set *arch_only[] = { &oa, &ob }, *three[] = { &a, &b, &c };
	const struct result_set *hosts[] = { &a, &twin }, *releases[] = { &host, &tcg };
	char buf[64], label[RUN_LABEL_LEN];

	CHECK_STR(run_pick_by(machines, 2, buf, sizeof(buf)), "arch,cpu_model");
	CHECK_STR(run_pick_by(imports, 2, buf, sizeof(buf)), "arch,cpu_model");
	run_label(&xi, buf, 0, label, sizeof(label));
	CHECK_STR(label, "x86_64 AMD EPYC 9654");
	run_label(&ai, buf, 1, label, sizeof(label));
	CHECK_STR(label, "arm64 Kunpeng 920");
	/* a CPU model no run says is no part of the name */
	CHECK_STR(run_pick_by(arch_only, 2, buf, sizeof(buf)), "arch");
	CHECK_STR(run_pick_by(kernels, 2, buf, sizeof(buf)), "tag:kernel");
	CHECK_STR(run_pick_by(releases, 2, buf, sizeof(buf)), "kernel_release");
	/* two machines of one kind: the host tells them apart */
	CHECK_STR(run_pick_by(hosts, 2, buf, sizeof(buf)), "host");
	/* two kernels on one machine beside another machine: both, the fewest that do */
	CHECK_STR(run_pick_by(three, 3, buf, sizeof(buf)), "arch,cpu_model,tag:kernel");
	run_label(&b, buf, 1, label, sizeof(label));
	CHECK_STR(label, "aarch64 Kunpeng 920");
	run_label(&c, buf, 2, label, sizeof(label));
	CHECK_STR(label, "x86_64 AMD EPYC 9654 kernel=patched");
	CHECK(!run_pick_by(same, 2, buf, sizeof(buf)));
	/* of a list, what a run says is unknown is left out */
	run_label(&oa, "arch,cpu_model", 0, label, sizeof(label));
	CHECK_STR(label, "x86_64");
	run_label(&oa, "cpu_model", 0, label, sizeof(label));
	CHECK_STR(label, "unknown");
}

/* --by takes a fact, a tag or a list of them. */
TEST(by_lists)
{
	struct result_set a = SET(meta_a);

	CHECK_INT(run_by_check(&a, "arch"), 0);
	CHECK_INT(run_by_check(&a, "arch,cpu_model,tag:machine"), 0);
	CHECK_INT(run_by_check(&a, "arch,colour"), -EINVAL);
	CHECK_INT(run_by_check(&a, "arch,"), -EINVAL);
	CHECK_INT(run_by_check(&a, ""), -EINVAL);
}

RUN_TESTS(union_of_equal_headers_is_the_header, a_column_of_one_run_lands_beside_its_neighbour,
	  many_columns_grow_the_set, facts_and_tags_by_name,
	  default_by_names_runs_apart, by_lists,
	  series_labels_and_headings, heading_leaves_out_the_unknown, kernel_and_accel_facts,
	  tcg_heading, tcg_in_a_merged_summary)
