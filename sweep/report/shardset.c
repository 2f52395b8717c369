// SPDX-License-Identifier: GPL-2.0
/* The shards of one run drawn as that run: see shardset.h. */
#include <stdio.h>
#include <string.h>

#include "matrix.h"
#include "shardset.h"

void shardset_of(const struct result_set *set, struct shard *sh)
{
	const char *v = result_meta(set, "shard");
	char why[128];

	if (!v || shard_parse(v, sh, why, sizeof(why)))
		*sh = (struct shard){ 0 };
}

bool shardset_whole(const struct shard *sh, int nr)
{
	if (nr < 2)
		return false;
	for (int i = 0; i < nr; i++) {
		if (!sh[i].count || sh[i].count != sh[0].count)
			return false;
		for (int j = 0; j < i; j++)
			if (sh[j].index == sh[i].index)
				return false;
	}
	return true;
}

static bool same(const char *a, const char *b)
{
	return !strcmp(a ?: "", b ?: "");
}

bool shardset_same_machine(const struct run_facts *a, const struct run_facts *b)
{
	return same(a->arch, b->arch) && same(a->cpu_model, b->cpu_model) &&
	       same(a->kernel_release, b->kernel_release);
}

struct run_facts shardset_facts(const struct run_facts *facts, int nr)
{
	struct run_facts f = facts[0];

	for (int i = 1; i < nr; i++) {
		if (!shardset_same_machine(&facts[i], &f))
			f.arch = f.cpu_model = f.kernel_release = NULL;
		if (strcmp(facts[i].tags, f.tags))
			f.tags[0] = '\0';
		f.quick |= facts[i].quick;
		f.tcg |= facts[i].tcg;
		f.icount |= facts[i].icount;
	}
	return f;
}

static void put_machine(FILE *f, const struct run_facts *m)
{
	fprintf(f, "; %s", m->arch && *m->arch ? m->arch : "unknown");
	if (m->cpu_model && *m->cpu_model)
		fprintf(f, " (%s)", m->cpu_model);
	if (m->kernel_release && *m->kernel_release)
		fprintf(f, ", kernel %s", m->kernel_release);
}

void shardset_line(FILE *f, const struct loaded_run *lr, const struct shard *sh,
		   const char *label, const struct run_facts *machine)
{
	char name[256];

	fprintf(f, "shard %d/%d (%s", sh->index, sh->count, label);
	if (machine)
		put_machine(f, machine);
	fputs("):", f);
	for (int i = 0; i < lr->nr_shown; i++) {
		point_name(lr->cfg, lr->pts[i], name, sizeof(name));
		fprintf(f, "%s %s", i ? "," : "", name);
	}
	fprintf(f, "%s\n", lr->nr_shown ? "" : " none");
}
