// SPDX-License-Identifier: GPL-2.0
/*
 * --quick (quick.h): enough to see that every point runs, not to publish.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "quick.h"

#define QUICK_WARMUP_NS		250000000ULL
#define QUICK_DURATION_NS	1000000000ULL
#define QUICK_INTERVAL_NS	250000000ULL

/*
 * The timing --quick shortens, each unless a --set gives it: a test or a
 * user that asks for shorter points than --quick's gets them, in a sub-run
 * too (whose --set are in its resolved spec: its settings name them,
 * quick-keeps in subrun.h).  Its one repetition, precision off, always.
 */
static const struct quick_timing {
	const char *key;		/* the [sweep] key */
	size_t off;			/* of its uint64_t in struct sweep_cfg */
	uint64_t ns;
} quick_timing[] = {
	{ .key = "warmup", .off = offsetof(struct sweep_cfg, warmup_ns),
	  .ns = QUICK_WARMUP_NS },
	{ .key = "duration", .off = offsetof(struct sweep_cfg, duration_ns),
	  .ns = QUICK_DURATION_NS },
	{ .key = "interval", .off = offsetof(struct sweep_cfg, interval_ns),
	  .ns = QUICK_INTERVAL_NS },
};

#define NR_QUICK_TIMING	((int)(sizeof(quick_timing) / sizeof(quick_timing[0])))

/* Whether the assignment "KEY = value" (a --set) gives key. */
static bool assigns(const char *assignment, const char *key)
{
	size_t len = strlen(key);

	assignment += strspn(assignment, " \t");
	if (strncmp(assignment, key, len))
		return false;
	assignment += len;
	return assignment[strspn(assignment, " \t")] == '=';
}

/* Whether the space-separated words of list hold word. */
static bool has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; p && *p; p += strcspn(p, " "), p += strspn(p, " "))
		if (!strncmp(p, word, len) && (p[len] == ' ' || !p[len]))
			return true;
	return false;
}

/* Bit k set: quick_timing[k] is the user's, from a --set or a sub-run's quick-keeps. */
static unsigned int quick_kept(const char *keeps, const char *const *sets, int nr_sets)
{
	unsigned int kept = 0;

	for (int k = 0; k < NR_QUICK_TIMING; k++) {
		if (has_word(keeps, quick_timing[k].key))
			kept |= 1U << k;
		for (int i = 0; i < nr_sets; i++)
			if (assigns(sets[i], quick_timing[k].key))
				kept |= 1U << k;
	}
	return kept;
}

const char *quick_keeps(const char *keeps, const char *const *sets, int nr_sets)
{
	/* every subset of quick_timing's keys, in its order, by bit */
	static const char *const lists[1 << NR_QUICK_TIMING] = {
		[0] = NULL, [1] = "warmup", [2] = "duration", [3] = "warmup duration",
		[4] = "interval", [5] = "warmup interval", [6] = "duration interval",
		[7] = "warmup duration interval",
	};

	return lists[quick_kept(keeps, sets, nr_sets)];
}

/*
 * One repetition: no precision to aim at, nor rounds to decide.  decide
 * shapes the files (samples.csv's slot, summary.csv's decision columns),
 * so the spec stored with them says it is off too: a report or a resume
 * reads them back by it.
 */
int quick_apply(struct sweep_cfg *cfg, struct spec *spec, const char *keeps,
		const char *const *sets, int nr_sets)
{
	unsigned int kept = quick_kept(keeps, sets, nr_sets);
	bool decide = cfg->decide_pct > 0;

	for (int k = 0; k < NR_QUICK_TIMING; k++)
		if (!(kept & (1U << k)))
			*(uint64_t *)((char *)cfg + quick_timing[k].off) = quick_timing[k].ns;
	cfg->repeat = 1;
	cfg->precision_pct = 0;
	cfg->decide_pct = 0;
	return decide ? spec_set(spec, "decide=off") : 0;
}
