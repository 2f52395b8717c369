// SPDX-License-Identifier: GPL-2.0
/* Facts that tell runs apart: see runfacts.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "runfacts.h"
#include "statspass.h"

const char *const run_fact_names[] = {
	"host", "arch", "cpu_model", "kernel_release", "kernel", "executor", "accel", NULL,
};

/* The i-th "tag: NAME=value" meta line, or NULL. */
static const char *nth_tag(const struct result_set *set, int i)
{
	for (int m = 0; m < set->nr_meta; m++)
		if (!strcmp(set->meta[m].key, "tag") && !i--)
			return set->meta[m].value;
	return NULL;
}

const char *run_tag_name(const struct result_set *set, int i, char *buf, size_t len)
{
	const char *tag = nth_tag(set, i);

	if (!tag)
		return NULL;
	snprintf(buf, len, "%.*s", (int)strcspn(tag, "="), tag);
	return buf;
}

static bool is_fact(const char *by)
{
	for (int i = 0; run_fact_names[i]; i++)
		if (!strcmp(run_fact_names[i], by))
			return true;
	return false;
}

/*
 * A fact's value in meta.  accel is meta's vm_accel, absent on the host.
 * A run from before kernel and executor were recorded ran on the host's
 * kernel: there was nowhere else to run (an import, which has no start,
 * does not say).
 */
static const char *fact_value(const struct result_set *set, const char *fact)
{
	const char *v = result_meta(set, strcmp(fact, "accel") ? fact : "vm_accel");

	if (!v && !strcmp(fact, "kernel") && result_meta(set, "start"))
		return "host";
	if (!v && !strcmp(fact, "executor") && result_meta(set, "start"))
		return "host";
	return v;
}

int run_fact(const struct result_set *set, const char *by, char *buf, size_t len)
{
	const char *tag, *v;
	size_t n;

	buf[0] = '\0';
	if (is_fact(by)) {
		v = fact_value(set, by);
		snprintf(buf, len, "%s", v ? v : "");
		return 0;
	}
	if (strncmp(by, "tag:", 4) || !by[4])
		return -EINVAL;
	n = strlen(by + 4);
	for (int i = 0; (tag = nth_tag(set, i)); i++) {
		if (!strncmp(tag, by + 4, n) && tag[n] == '=') {
			snprintf(buf, len, "%s", tag + n + 1);
			break;
		}
	}
	return 0;
}

static bool differs(const struct result_set *const *sets, int nr, const char *by)
{
	char first[256], v[256];

	run_fact(sets[0], by, first, sizeof(first));
	for (int i = 1; i < nr; i++) {
		run_fact(sets[i], by, v, sizeof(v));
		if (strcmp(v, first))
			return true;
	}
	return false;
}

const char *run_pick_by(const struct result_set *const *sets, int nr, char *buf, size_t len)
{
	char name[128];

	for (int i = 0; run_fact_names[i]; i++)
		if (differs(sets, nr, run_fact_names[i]))
			return snprintf(buf, len, "%s", run_fact_names[i]), buf;
	for (int r = 0; r < nr; r++) {
		for (int t = 0; run_tag_name(sets[r], t, name, sizeof(name)); t++) {
			snprintf(buf, len, "tag:%s", name);
			if (differs(sets, nr, buf))
				return buf;
		}
	}
	return NULL;
}

void run_label(const struct result_set *set, const char *by, int idx, char *buf, size_t len)
{
	char v[256];

	if (!by || run_fact(set, by, v, sizeof(v)) || !v[0])
		snprintf(buf, len, "run %d", idx + 1);
	else if (!strncmp(by, "tag:", 4))
		snprintf(buf, len, "%s=%s", by + 4, v);
	else
		snprintf(buf, len, "%s", v);
}

static bool known(const char *v)
{
	return v && *v && strcmp(v, "unknown");
}

/*
 * A tag that only repeats a fact (import records --tag arch=... as both);
 * --tag kernel=base names what the kernel fact ("host") does not.
 */
static bool tag_is_fact(const struct result_set *set, const char *tag)
{
	for (int i = 0; run_fact_names[i]; i++) {
		size_t n = strlen(run_fact_names[i]);
		const char *v = fact_value(set, run_fact_names[i]);

		if (!strncmp(tag, run_fact_names[i], n) && tag[n] == '=' && v &&
		    !strcmp(tag + n + 1, v))
			return true;
	}
	return false;
}

/* Does a row of the summary say accel "tcg" (a merged kernel sweep)? */
static bool summary_says_tcg(const struct result_set *set)
{
	int col = result_summary_col(set, "accel");

	for (int r = 1; col >= 0 && r < set->summary.nr_rows; r++)
		if (!strcmp(set->summary.rows[r][col], "tcg"))
			return true;
	return false;
}

bool run_is_tcg(const struct result_set *set)
{
	const char *accel = result_meta(set, "vm_accel");

	return (accel && !strcmp(accel, "tcg")) || summary_says_tcg(set);
}

/* Append sep and value to buf at *n; sep becomes ", " after the first part. */
static void put_part(char *buf, size_t len, size_t *n, const char **sep, const char *prefix,
		     const char *value)
{
	if (*n < len)
		*n += snprintf(buf + *n, len - *n, "%s%s%s", *sep, prefix, value);
	*sep = ", ";
}

void run_heading(const struct result_set *set, int idx, char *buf, size_t len)
{
	const char *host = result_meta(set, "host"), *arch = result_meta(set, "arch");
	const char *cpu = result_meta(set, "cpu_model"), *rel = result_meta(set, "kernel_release");
	const char *tag, *sep = " ";
	size_t n = snprintf(buf, len, "run %d:", idx + 1);

	/* what the run does not say is left out, not written as "unknown" */
	if (known(host))
		put_part(buf, len, &n, &sep, "", host);
	if (known(arch))
		put_part(buf, len, &n, &sep, "", arch);
	if (known(cpu) && known(arch) && n < len)
		n += snprintf(buf + n, len - n, " (%s)", cpu);
	else if (known(cpu))
		put_part(buf, len, &n, &sep, "", cpu);
	if (known(rel))
		put_part(buf, len, &n, &sep, "kernel ", rel);
	for (int i = 0; (tag = nth_tag(set, i)); i++)
		if (!tag_is_fact(set, tag))
			put_part(buf, len, &n, &sep, "", tag);
	if (run_is_tcg(set) && n < len)
		snprintf(buf + n, len - n, RUN_TCG_NOTE);
}

struct run_facts run_facts_of(const struct result_set *set)
{
	const char *quick = result_meta(set, "quick"), *tag;
	const char *stats = result_meta(set, "bpf_stats");
	struct run_facts f = {
		.arch = result_meta(set, "arch"),
		.cpu_model = result_meta(set, "cpu_model"),
		.kernel_release = result_meta(set, "kernel_release"),
		.quick = quick && !strcmp(quick, "yes"),
		.tcg = run_is_tcg(set),
		.per_run_pass = stats && !strncmp(stats, STATS_PASS_META, strlen(STATS_PASS_META)),
	};
	size_t n = 0;

	for (int i = 0; (tag = nth_tag(set, i)) && n < sizeof(f.tags); i++)
		n += snprintf(f.tags + n, sizeof(f.tags) - n, "%s%s", i ? ", " : "", tag);
	return f;
}
