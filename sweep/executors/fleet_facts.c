// SPDX-License-Identifier: GPL-2.0
/* The hosts of a sharded fleet, compared by the facts their shares depend on (fleet_facts.h). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fleet_facts.h"

const char *const host_fact_names[NR_HOST_FACTS] = {
	[HF_CPU_MODEL] = "cpu_model", [HF_NPROC] = "nproc", [HF_KERNEL_RELEASE] = "kernel_release",
};

struct out {
	char *buf;
	size_t len, off;
};

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->off >= o->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->off, o->len - o->off, fmt, ap);
	va_end(ap);
	o->off = n < 0 ? o->len : o->off + n;
}

static const char *value(const struct host_facts *f, int fact)
{
	return f->v[fact][0] ? f->v[fact] : "unknown";
}

/* Has a host before i the value host i has? Then host i was listed with it. */
static bool seen_before(const struct host_facts *facts, int fact, int i)
{
	for (int j = 0; j < i; j++)
		if (!strcmp(value(&facts[j], fact), value(&facts[i], fact)))
			return true;
	return false;
}

/* "'VALUE' on a, c; 'OTHER' on b": every value, with its hosts. */
static void list_values(struct out *o, const struct host_facts *facts,
			const char *const *labels, int nr, int fact)
{
	bool first_value = true;

	for (int i = 0; i < nr; i++) {
		const char *v = value(&facts[i], fact);

		if (seen_before(facts, fact, i))
			continue;
		put(o, "%s'%s' on %s", first_value ? "" : "; ", v, labels[i]);
		first_value = false;
		for (int j = i + 1; j < nr; j++)
			if (!strcmp(value(&facts[j], fact), v))
				put(o, ", %s", labels[j]);
	}
}

int host_facts_differ(const struct host_facts *facts, const char *const *labels, int nr,
		      char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	int differ = 0;

	if (len)
		buf[0] = '\0';
	for (int fact = 0; fact < NR_HOST_FACTS; fact++) {
		bool same = true;

		for (int i = 1; same && i < nr; i++)
			same = !strcmp(value(&facts[i], fact), value(&facts[0], fact));
		if (same)
			continue;
		differ++;
		put(&o, "%s: ", host_fact_names[fact]);
		list_values(&o, facts, labels, nr, fact);
		put(&o, "\n");
	}
	return differ;
}
