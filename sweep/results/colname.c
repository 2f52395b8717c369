// SPDX-License-Identifier: GPL-2.0
/*
 * Column names of summary.csv's statistics, built and read back
 * (colname.h).  Keep colname_stat() and colname_parse() each other's
 * inverse: tests/unit/test_columns.c checks them together.
 */
#include <stdio.h>
#include <string.h>

#include "colname.h"

static const char *const kind_names[] = {
	[CK_ID] = "id", [CK_PARAM] = "param", [CK_RUN] = "run",
	[CK_COUNTER] = "counter", [CK_GAUGE] = "gauge", [CK_RATIO] = "ratio",
};

#define NR_KINDS (sizeof(kind_names) / sizeof(kind_names[0]))

/* A metric's statistics summary.csv may hold, longest first where one ends another. */
static const char *const metric_stats[] = {
	"worker_median", "worker_mean", "worker_min", "worker_max", "unit_sd", "units",
	"stddev", "median", "mean", "min", "max", "ci95",
};

/* A counter's statistics relative to its baseline point: named without `_per_s`. */
static const char *const baseline_stats[] = {
	"over_base_ns_mean", "over_base_ns_sd", "vs_base_mean", "vs_base_sd",
};

const char *const colname_csv_header[COLNAME_CSV_COLS] = {
	"column", "metric", "stat", "kind", "unit", "better",
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

const char *col_kind_name(enum col_kind k)
{
	return (size_t)k < NR_KINDS ? kind_names[k] : "";
}

bool col_kind_parse(const char *s, enum col_kind *k)
{
	for (size_t i = 0; i < NR_KINDS; i++) {
		if (!strcmp(s, kind_names[i])) {
			*k = i;
			return true;
		}
	}
	return false;
}

bool col_kind_is_metric(enum col_kind k)
{
	return k == CK_COUNTER || k == CK_GAUGE || k == CK_RATIO;
}

static bool is_baseline_stat(const char *stat)
{
	for (size_t i = 0; i < ARRAY_LEN(baseline_stats); i++)
		if (!strcmp(stat, baseline_stats[i]))
			return true;
	return false;
}

const char *col_unit(enum col_kind k, const char *stat)
{
	if (!col_kind_is_metric(k) || !strcmp(stat, "units"))
		return "";
	if (!strncmp(stat, "over_base_ns", 12) || k == CK_RATIO)
		return "ns";
	if (!strncmp(stat, "vs_base", 7))
		return "ratio";
	return k == CK_GAUGE ? "bytes" : "1/s";
}

void colname_stat(char *buf, size_t len, const char *metric, enum col_kind k, const char *stat)
{
	const char *infix = k == CK_COUNTER && !is_baseline_stat(stat) ? "_per_s" : "";

	snprintf(buf, len, "%s%s_%s", metric, infix, stat);
}

/* Does name end with "_" + stat after a stem of at least one character?  Its length, or 0. */
static size_t stem_before(const char *name, const char *infix, const char *stat)
{
	size_t n = strlen(name), k = strlen(infix) + 1 + strlen(stat);

	if (n <= k || strncmp(name + n - k, infix, strlen(infix)) ||
	    name[n - k + strlen(infix)] != '_' || strcmp(name + n - strlen(stat), stat))
		return 0;
	return n - k;
}

static bool fill(struct colname *out, const char *name, size_t stem, const char *stat,
		 enum col_kind k)
{
	if (stem >= sizeof(out->metric))
		return false;
	snprintf(out->unit, sizeof(out->unit), "%s", col_unit(k, stat));
	snprintf(out->metric, sizeof(out->metric), "%.*s", (int)stem, name);
	snprintf(out->stat, sizeof(out->stat), "%s", stat);
	out->kind = k;
	return true;
}

/*
 * An imported level's unit, in its columns' names (docs/import.md): the
 * bench prints sizes and times per operation, and the names say which.
 */
static const struct {
	const char *infix, *unit;
} level_units[] = {
	{ "_bytes", "bytes" }, { "_ns", "ns" },
};

void colname_level(char *buf, size_t len, const char *metric, const char *unit,
		   const char *stat)
{
	const char *infix = "";

	for (size_t i = 0; i < ARRAY_LEN(level_units); i++)
		if (!strcmp(unit, level_units[i].unit))
			infix = level_units[i].infix;
	snprintf(buf, len, "%s%s_%s", metric, infix, stat);
}

/*
 * "avg_mem_bytes_mean" of samples column avg_mem: stem (the name before
 * "_mean") ends in a unit's infix, and what is before it is a metric.
 */
static bool parse_level_unit(const char *name, size_t stem, const char *stat,
			     bool (*is_level)(const void *ctx, const char *metric),
			     const void *ctx, struct colname *out)
{
	for (size_t i = 0; i < ARRAY_LEN(level_units); i++) {
		size_t k = strlen(level_units[i].infix);

		if (stem <= k || strncmp(name + stem - k, level_units[i].infix, k) ||
		    !fill(out, name, stem - k, stat, CK_GAUGE) || !is_level(ctx, out->metric))
			continue;
		/* a count ("units") stays a count */
		if (*out->unit)
			snprintf(out->unit, sizeof(out->unit), "%s", level_units[i].unit);
		return true;
	}
	return false;
}

/* "M_per_s_STAT", "M_vs_base_mean": a counter's. */
static bool parse_counter(const char *name, struct colname *out)
{
	size_t stem;

	for (size_t i = 0; i < ARRAY_LEN(baseline_stats); i++) {
		stem = stem_before(name, "", baseline_stats[i]);
		if (stem)
			return fill(out, name, stem, baseline_stats[i], CK_COUNTER);
	}
	for (size_t i = 0; i < ARRAY_LEN(metric_stats); i++) {
		stem = stem_before(name, "_per_s", metric_stats[i]);
		if (stem)
			return fill(out, name, stem, metric_stats[i], CK_COUNTER);
	}
	return false;
}

bool colname_parse(const char *name, bool (*is_level)(const void *ctx, const char *metric),
		   const void *ctx, struct colname *out)
{
	size_t stem;

	if (parse_counter(name, out))
		return true;
	for (size_t i = 0; i < ARRAY_LEN(metric_stats); i++) {
		stem = stem_before(name, "", metric_stats[i]);
		if (!stem || !fill(out, name, stem, metric_stats[i], CK_GAUGE))
			continue;
		if (!strcmp(out->metric, COLNAME_NS_PER_RUN)) {
			out->kind = CK_RATIO;
			snprintf(out->unit, sizeof(out->unit), "%s", col_unit(CK_RATIO, out->stat));
			return true;
		}
		if (is_level(ctx, out->metric) ||
		    parse_level_unit(name, stem, metric_stats[i], is_level, ctx, out))
			return true;
	}
	return false;
}
