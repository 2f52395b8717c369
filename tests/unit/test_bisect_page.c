// SPDX-License-Identifier: GPL-2.0
/*
 * bisect_page.c and render/axischart.c over bisects made up in memory (no
 * run, no guest): a functional bisect's page puts each kernel at the level
 * of the status it ran with (a step that ran as the old end did sits with
 * it), names the first new and last old kernel, marks and numbers every
 * step; a metric bisect's page draws a skipped step on the axis and holds
 * every figure; a hostile point name and kernel label are text; an
 * undecided bisect shades its span; ends that never ran give no chart.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_page.h"
#include "check.h"

#define HOSTILE		"</svg><script>x()</script>"

static struct bisect_kernel kernels[5] = {
	{ .label = "6.12.118", .release = "6.12.118+deb13-cloud-amd64" },
	{ .label = "6.16.3", .release = "6.16.3+deb13-cloud-amd64" },
	{ .label = "6.18.15", .release = "6.18.15+deb13-cloud-amd64" },
	{ .label = "7.2.6<b>", .release = "7.2.6+deb13-cloud-amd64" },
	{ .label = "7.3.4", .release = "7.3.4+deb13-cloud-amd64" },
};

/* The page of pg into a string (free() it); NULL when it failed. */
static char *page_of(const struct bisect_page *pg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int err = f ? bisect_page_html(f, pg) : -1;

	if (f)
		fclose(f);
	if (err) {
		free(text);
		return NULL;
	}
	return text;
}

static int count(const char *text, const char *what)
{
	int n = 0;

	for (const char *at = text; (at = strstr(at, what)); at++)
		n++;
	return n;
}

/* The y of the mark whose title begins with title: its circle's cy, or its square's centre. */
static double mark_y(const char *page, const char *title)
{
	char want[256];
	const char *at, *shape;
	double v;

	snprintf(want, sizeof(want), "<g><title>%s", title);
	at = strstr(page, want);
	if (!at || !(shape = strstr(at, "</title>")))
		return NAN;
	if (sscanf(shape, "</title><circle cx=\"%*f\" cy=\"%lf\"", &v) == 1)
		return v;
	if (sscanf(shape, "</title><rect x=\"%*f\" y=\"%lf\"", &v) == 1)
		return v + 6;
	return NAN;
}

static void step(struct bisect *b, int k, enum bisect_verdict v, const char *figure,
		 double est, double lo, double hi)
{
	b->steps[b->nr_steps] = (struct bisect_step){ .kernel = k, .verdict = v, .est_pct = est,
						      .lo_pct = lo, .hi_pct = hi, .rounds = 1 };
	snprintf(b->steps[b->nr_steps].figure, sizeof(b->steps[0].figure), "%s", figure);
	snprintf(b->steps[b->nr_steps].why, sizeof(b->steps[0].why), "why %d", b->nr_steps + 1);
	b->state[k] = v;
	b->nr_steps++;
}

TEST(status_steps_sit_at_their_ends_levels)
{
	struct bisect_list l = { .k = kernels, .n = 5 };
	struct bisect_terms t = { "old", "new" };
	struct bisect_point p = { .name = "overwrite, producer only", .by = BB_STATUS,
				  .good = { .status = "unsupported" }, .bad = { .status = "ok" } };
	struct bisect b;
	char *page;

	CHECK_INT(bisect_init(&b, 5), 0);
	step(&b, 2, BV_GOOD, "unsupported", NAN, NAN, NAN);
	step(&b, 3, BV_BAD, "ok", NAN, NAN, NAN);
	b.last_good = 2;
	b.first_bad = 3;
	b.outcome = BO_FOUND;
	snprintf(b.ends_why, sizeof(b.ends_why), "by status, 1 point");
	page = page_of(&(struct bisect_page){ &b, &l, &t, &p, 1 });
	bisect_free(&b);
	CHECK(page);
	CHECK(strstr(page, "<dt>first new</dt><dd>7.2.6&lt;b&gt; (7.2.6+deb13-cloud-amd64)</dd>"));
	CHECK(strstr(page, "<dt>last old</dt><dd>6.18.15 (6.18.15+deb13-cloud-amd64)</dd>"));
	/* the y axis is the two statuses; each step beside the end it ran as */
	CHECK(strstr(page, "text-anchor=\"end\">unsupported</text>"));
	CHECK(strstr(page, "text-anchor=\"end\">ok</text>"));
	CHECK(!isnan(mark_y(page, "6.12.118: the old end")));
	CHECK(mark_y(page, "6.12.118: the old end") == mark_y(page, "6.18.15: step 1: old"));
	CHECK(mark_y(page, "7.3.4: the new end") == mark_y(page, "7.2.6&lt;b&gt;: step 2: new"));
	CHECK(mark_y(page, "7.3.4: the new end") < mark_y(page, "6.12.118: the old end"));
	CHECK(strstr(page, "font-weight=\"600\">1</text>"));
	CHECK(strstr(page, "font-weight=\"600\">2</text>"));
	CHECK(strstr(page, ">the change</text>"));
	CHECK(strstr(page, "<tr id=\"step-2\">"));
	CHECK(!strstr(page, "<b>"));
	free(page);
}

TEST(metric_figures_and_hostile_names)
{
	struct bisect_list l = { .k = kernels, .n = 5 };
	struct bisect_terms t = { "good", "bad" };
	struct bisect_point p = { .name = HOSTILE, .by = BB_METRIC,
				  .good = { .status = "ok" }, .bad = { .status = "ok" },
				  .ends = { .est_pct = -9.81, .lo_pct = -11.02, .hi_pct = -8.47 } };
	struct bisect b;
	char *page;

	CHECK_INT(bisect_init(&b, 5), 0);
	step(&b, 2, BV_SKIP, "", NAN, NAN, NAN);
	step(&b, 1, BV_UNDECIDED, "-4.2 % [-8.9, +0.6] (6 units)", -4.217, -8.871, 0.612);
	b.last_good = 0;
	b.first_bad = 4;
	b.outcome = BO_UNDECIDED;
	snprintf(b.ends_why, sizeof(b.ends_why), "by metric, 1 point: %s", HOSTILE);
	page = page_of(&(struct bisect_page){ &b, &l, &t, &p, 1 });
	bisect_free(&b);
	CHECK(page);
	CHECK(!strstr(page, HOSTILE));
	CHECK(strstr(page, "&lt;/svg&gt;&lt;script&gt;x()&lt;/script&gt;"));
	/* the one script is the sorting script, at the end */
	CHECK_INT(count(page, "<script"), 1);
	CHECK(strstr(page, "<script>function sortBy("));
	CHECK(strstr(page, "the bad end: -9.8 % [-11.0, -8.5] against the good end"));
	CHECK(strstr(page, "data-v=\"-4.217\">-4.217</td>"));
	CHECK(strstr(page, "data-v=\"-8.871\">-8.871</td>"));
	CHECK(strstr(page, "data-v=\"0.612\">0.612</td>"));
	CHECK(strstr(page, "6.16.3: step 2: undecided: -4.2 % [-8.9, +0.6] (6 units): why 2"));
	/* a step with no figure: a cross on the x axis, its why on hover */
	CHECK(strstr(page, "6.18.15: step 1: skip: -: why 1</title><path d=\"M"));
	CHECK(strstr(page, ">undecided</text>"));
	CHECK(strstr(page, "<dt>first bad that ran</dt>"));
	free(page);
}

TEST(no_chart_when_the_ends_never_ran)
{
	struct bisect_list l = { .k = kernels, .n = 5 };
	struct bisect_terms t = { "good", "bad" };
	struct bisect b;
	char *page;

	CHECK_INT(bisect_init(&b, 5), 0);
	b.outcome = BO_NO_STEP;
	snprintf(b.ends_why, sizeof(b.ends_why), "the good end 6.12.118 did not run");
	page = page_of(&(struct bisect_page){ &b, &l, &t, NULL, 0 });
	bisect_free(&b);
	CHECK(page);
	CHECK(!strstr(page, "<svg"));
	CHECK(strstr(page, "<dt>no step to bisect</dt><dd>the good end 6.12.118 did not run</dd>"));
	CHECK(strstr(page, "No step ran."));
	free(page);
}

RUN_TESTS(status_steps_sit_at_their_ends_levels, metric_figures_and_hostile_names,
	  no_chart_when_the_ends_never_ran)
