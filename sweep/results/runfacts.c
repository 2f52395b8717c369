// SPDX-License-Identifier: GPL-2.0
/* Facts that tell runs apart: see runfacts.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "progrun.h"
#include "runfacts.h"

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

/* The element of a --by list at *by ("arch" of "arch,cpu_model") into buf; *by past it. */
static bool next_by(const char **by, char *buf, size_t len)
{
	size_t n = strcspn(*by, ",");

	if (!**by)
		return false;
	snprintf(buf, len, "%.*s", (int)n, *by);
	*by += n + ((*by)[n] == ',');
	return true;
}

/* Is item an element of the --by list? */
static bool list_has(const char *list, const char *item)
{
	char one[136];

	while (next_by(&list, one, sizeof(one)))
		if (!strcmp(one, item))
			return true;
	return false;
}

int run_by_check(const struct result_set *set, const char *by)
{
	char one[136], v[8];

	if (!*by || by[strlen(by) - 1] == ',')
		return -EINVAL;
	while (next_by(&by, one, sizeof(one)))
		if (run_fact(set, one, v, sizeof(v)))
			return -EINVAL;
	return 0;
}

void run_label(const struct result_set *set, const char *by, int idx, char *buf, size_t len)
{
	bool list = by && strchr(by, ',');
	char one[136], v[256];
	size_t n = 0;

	buf[0] = '\0';
	while (by && n < len && next_by(&by, one, sizeof(one))) {
		/* "x86_64", not "x86_64 unknown", for an import told no CPU model */
		if (run_fact(set, one, v, sizeof(v)) || !v[0] || (list && !strcmp(v, "unknown")))
			continue;
		if (!strncmp(one, "tag:", 4))
			n += snprintf(buf + n, len - n, "%s%s=%s", n ? " " : "", one + 4, v);
		else
			n += snprintf(buf + n, len - n, "%s%s", n ? " " : "", v);
	}
	if (!buf[0])
		snprintf(buf, len, "run %d", idx + 1);
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

/* Does any run know this fact (a value, not "unknown")? */
static bool said(const struct result_set *const *sets, int nr, const char *fact)
{
	char v[256];

	for (int i = 0; i < nr; i++) {
		run_fact(sets[i], fact, v, sizeof(v));
		if (v[0] && strcmp(v, "unknown"))
			return true;
	}
	return false;
}

/* A tag NAME that says in every run what the fact NAME does (import's --tag arch=...). */
static bool tag_repeats_fact(const struct result_set *const *sets, int nr, const char *name)
{
	char by[136], tag[256], fact[256];

	snprintf(by, sizeof(by), "tag:%s", name);
	if (!is_fact(name))
		return false;
	for (int i = 0; i < nr; i++) {
		run_fact(sets[i], by, tag, sizeof(tag));
		run_fact(sets[i], name, fact, sizeof(fact));
		if (strcmp(tag, fact))
			return false;
	}
	return true;
}

/* Does the --by list name every run apart? */
static bool names_apart(const struct result_set *const *sets, int nr, const char *by)
{
	char a[RUN_LABEL_LEN], b[RUN_LABEL_LEN];

	for (int i = 1; i < nr; i++) {
		run_label(sets[i], by, i, a, sizeof(a));
		for (int j = 0; j < i; j++) {
			run_label(sets[j], by, j, b, sizeof(b));
			if (!strcmp(a, b))
				return false;
		}
	}
	return true;
}

/* what added to the --by list in buf. */
static void by_append(char *buf, size_t len, const char *what)
{
	size_t n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "%s%s", n ? "," : "", what);
}

/* The facts, then the tags, whose value differs between the runs: a --by list into out. */
static void differing(const struct result_set *const *sets, int nr, char *out, size_t len)
{
	char name[128], by[136];

	out[0] = '\0';
	for (int i = 0; run_fact_names[i]; i++)
		if (differs(sets, nr, run_fact_names[i]))
			by_append(out, len, run_fact_names[i]);
	for (int r = 0; r < nr; r++) {
		for (int t = 0; run_tag_name(sets[r], t, name, sizeof(name)); t++) {
			snprintf(by, sizeof(by), "tag:%s", name);
			if (differs(sets, nr, by) && !tag_repeats_fact(sets, nr, name) &&
			    !list_has(out, by))
				by_append(out, len, by);
		}
	}
}

/*
 * Machines that differ are named by what they are, arch and CPU model (as
 * far as the runs say them); then the first other fact or tag that names
 * the runs apart with those is added, or, when no one does, each in turn
 * until they are.
 */
const char *run_pick_by(const struct result_set *const *sets, int nr, char *buf, size_t len)
{
	char cands[1024], one[136], tried[1024];
	const char *c;

	differing(sets, nr, cands, sizeof(cands));
	buf[0] = '\0';
	if (!cands[0])
		return NULL;
	if (list_has(cands, "arch") || list_has(cands, "cpu_model")) {
		if (said(sets, nr, "arch"))
			by_append(buf, len, "arch");
		if (said(sets, nr, "cpu_model"))
			by_append(buf, len, "cpu_model");
	}
	if (buf[0] && names_apart(sets, nr, buf))
		return buf;
	for (c = cands; next_by(&c, one, sizeof(one)); ) {
		if (list_has(buf, one))
			continue;
		snprintf(tried, sizeof(tried), "%s", buf);
		by_append(tried, sizeof(tried), one);
		if (names_apart(sets, nr, tried))
			return snprintf(buf, len, "%s", tried), buf;
	}
	for (c = cands; !names_apart(sets, nr, buf) && next_by(&c, one, sizeof(one)); )
		if (!list_has(buf, one))
			by_append(buf, len, one);
	return buf;
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

/* Does a row of the summary say accel (a merged kernel sweep)? */
static bool summary_says_accel(const struct result_set *set, const char *accel)
{
	int col = result_summary_col(set, "accel");

	for (int r = 1; col >= 0 && r < set->summary.nr_rows; r++)
		if (!strcmp(set->summary.rows[r][col], accel))
			return true;
	return false;
}

/* Does the run's meta or a row of its summary say it ran under accel? */
static bool run_accel_is(const struct result_set *set, const char *accel)
{
	const char *meta = result_meta(set, "vm_accel");

	return (meta && !strcmp(meta, accel)) || summary_says_accel(set, accel);
}

bool run_is_tcg(const struct result_set *set)
{
	return run_accel_is(set, "tcg");
}

bool run_is_icount(const struct result_set *set)
{
	return run_accel_is(set, "tcg-icount");
}

const char *run_accel_note(const struct result_set *set)
{
	bool tcg = run_is_tcg(set), icount = run_is_icount(set);

	if (tcg && icount)
		return RUN_TCG_NOTE RUN_ICOUNT_NOTE;
	return tcg ? RUN_TCG_NOTE : icount ? RUN_ICOUNT_NOTE : "";
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
	if (n < len)
		snprintf(buf + n, len - n, "%s", run_accel_note(set));
}

/*
 * How long meta's bpf_stats line says each point's pass measured ("in a
 * separate 0.3 s pass"); 1 s where it does not say.
 */
static double pass_seconds(const char *stats)
{
	const char *p = stats ? strstr(stats, " separate ") : NULL;
	double s;

	return p && sscanf(p, " separate %lf s pass", &s) == 1 ? s : STATS_PASS_NS / 1e9;
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
		.icount = run_is_icount(set),
		.per_run_pass = stats && !strncmp(stats, STATS_PASS_META, strlen(STATS_PASS_META)),
		.pass_s = pass_seconds(stats),
	};
	size_t n = 0;

	for (int i = 0; (tag = nth_tag(set, i)) && n < sizeof(f.tags); i++)
		n += snprintf(f.tags + n, sizeof(f.tags) - n, "%s%s", i ? ", " : "", tag);
	return f;
}
