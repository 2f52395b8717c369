// SPDX-License-Identifier: GPL-2.0
/*
 * What the two sets' meta says differs beyond the change compared: the
 * machine (CPU model, governor, boost, ...), the kernel config's options
 * that move numbers, the timing settings, bpfsweep's version, and system
 * warnings of one side only.  A 10 % "regression" between a 5 s and a 1 s
 * run, or a boosted and an unboosted CPU, is not the patch's: compare says
 * so before its table (docs/compare.md, "What else differs").
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_print.h"
#include "growarray.h"

/*
 * meta's single-valued keys that decide whether numbers compare
 * (docs/results.md "meta").  Not the kernel release (the change itself,
 * usually), nor loadavg (a load that matters is a system warning).
 * absent: the value a key's absence means, or NULL where an older set
 * simply did not record it (then nothing is said).
 */
static const struct {
	const char *key;
	const char *absent;
} facts[] = {
	{ .key = "bpfsweep" },
	{ .key = "cpu_model" },
	{ .key = "nproc" },
	{ .key = "smt" },
	{ .key = "cpu_governor" },
	{ .key = "cpu_boost" },
	{ .key = "virtualised" },
	{ .key = "bpf_jit_enable" },
	{ .key = "bpf_jit_harden" },
	{ .key = "warmup" },
	{ .key = "duration" },
	{ .key = "interval" },
	{ .key = "repeat" },
	{ .key = "affinity" },
	{ .key = "precision", .absent = "none" },
};

static int add(struct comparison *c, const char *key, const char *base, const char *new)
{
	struct cmp_difference *d;

	if (ARRAY_ROOM(c->diffs, c->nr_diffs))
		return -ENOMEM;
	d = &c->diffs[c->nr_diffs++];
	snprintf(d->key, sizeof(d->key), "%s", key);
	snprintf(d->base, sizeof(d->base), "%s", base);
	snprintf(d->new, sizeof(d->new), "%s", new);
	return 0;
}

static int facts_differ(struct comparison *c)
{
	int err = 0;

	for (size_t i = 0; !err && i < sizeof(facts) / sizeof(facts[0]); i++) {
		const char *b = result_meta(c->base, facts[i].key) ?: facts[i].absent;
		const char *n = result_meta(c->new, facts[i].key) ?: facts[i].absent;

		if (b && n && strcmp(b, n))
			err = add(c, facts[i].key, b, n);
	}
	return err;
}

/*
 * A config line's option and value: "CONFIG_HZ=250" is CONFIG_HZ, "250";
 * "CONFIG_KASAN is not set" is CONFIG_KASAN, "not set".  False for
 * "unavailable (...)", a set that read no config.
 */
static bool config_split(const char *line, char *name, size_t len, const char **value)
{
	size_t n = strcspn(line, "= ");

	if (strncmp(line, "CONFIG_", 7) || n >= len)
		return false;
	snprintf(name, len, "%.*s", (int)n, line);
	if (line[n] == '=')
		*value = line + n + 1;
	else if (!strcmp(line + n, " is not set"))
		*value = "not set";
	else
		return false;
	return true;
}

/* rs's value of option name, or NULL where its meta has no line of it. */
static const char *config_of(const struct result_set *rs, const char *name)
{
	char opt[128];
	const char *value;

	for (int i = 0; i < rs->nr_meta; i++)
		if (!strcmp(rs->meta[i].key, "config") &&
		    config_split(rs->meta[i].value, opt, sizeof(opt), &value) && !strcmp(opt, name))
			return value;
	return NULL;
}

/*
 * Options both sets recorded, with different values.  One recorded by one
 * set only (another bpfsweep's list, or no config read) says nothing.
 */
static int configs_differ(struct comparison *c)
{
	char name[128];
	const char *b, *n;
	int err = 0;

	for (int i = 0; !err && i < c->base->nr_meta; i++) {
		if (strcmp(c->base->meta[i].key, "config") ||
		    !config_split(c->base->meta[i].value, name, sizeof(name), &b))
			continue;
		n = config_of(c->new, name);
		if (n && strcmp(b, n))
			err = add(c, name, b, n);
	}
	return err;
}

/*
 * A warning's head, what it found ("load 6.3 on 2 CPUs", "CPU governor
 * powersave"): the text before its first ": ", which the advice follows.
 */
static void warning_head(const char *text, char *buf, size_t len)
{
	const char *end = strstr(text, ": ");

	snprintf(buf, len, "%.*s", end ? (int)(end - text) : (int)strlen(text), text);
}

/* Do two warnings' heads say the same but for their numbers ("load 6.3", "load 2.1")? */
static bool same_warning(const char *a, const char *b)
{
	char ha[256], hb[256];
	const char *x = ha, *y = hb;

	warning_head(a, ha, sizeof(ha));
	warning_head(b, hb, sizeof(hb));
	while (*x && *y) {
		if (isdigit((unsigned char)*x) && isdigit((unsigned char)*y)) {
			x += strspn(x, "0123456789.");
			y += strspn(y, "0123456789.");
			continue;
		}
		if (*x++ != *y++)
			return false;
	}
	return !*x && !*y;
}

static bool has_warning(const struct result_set *rs, const char *text)
{
	for (int i = 0; i < rs->nr_meta; i++)
		if (!strcmp(rs->meta[i].key, "system_warning") &&
		    same_warning(rs->meta[i].value, text))
			return true;
	return false;
}

/* The system warnings of `of` that `other` has not: base's or new's side of each. */
static int warnings_only(struct comparison *c, const struct result_set *of,
			 const struct result_set *other, bool of_base)
{
	char head[256];
	int err = 0;

	for (int i = 0; !err && i < of->nr_meta; i++) {
		if (strcmp(of->meta[i].key, "system_warning") ||
		    has_warning(other, of->meta[i].value))
			continue;
		warning_head(of->meta[i].value, head, sizeof(head));
		err = add(c, "system_warning", of_base ? head : "", of_base ? "" : head);
	}
	return err;
}

int compare_meta_differences(struct comparison *c)
{
	return facts_differ(c) ?: configs_differ(c) ?: warnings_only(c, c->base, c->new, true) ?:
	       warnings_only(c, c->new, c->base, false);
}

void compare_difference_text(const struct cmp_difference *d, char *buf, size_t len)
{
	if (strcmp(d->key, "system_warning"))
		snprintf(buf, len, "%s differs: base %s, new %s", d->key, d->base, d->new);
	else
		snprintf(buf, len, "system warning in %s only: %s", *d->base ? "BASE" : "NEW",
			 *d->base ? d->base : d->new);
}
