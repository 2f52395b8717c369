// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML writer: its one escaping function and its CSP; a chart as a
 * data: URI image; compare --html's order of rows.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "heldir.h"
#include "html.h"
#include "htmlcompare.h"
#include "htmlexp.h"

static char out[8192];

static const char *escaped(const char *s, size_t n)
{
	FILE *f = fmemopen(out, sizeof(out), "w");

	html_put(f, s, n);
	fclose(f);
	return out;
}

TEST(specials_become_references)
{
	const char *s = "<script>alert(\"x\")</script> & 'q' </svg>";

	CHECK_STR(escaped(s, strlen(s)), "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; "
		  "&amp; &#39;q&#39; &lt;/svg&gt;");
	CHECK_STR(escaped("4 ± 0.1M/s µs", strlen("4 ± 0.1M/s µs")), "4 ± 0.1M/s µs");
}

TEST(controls_shown_as_escapes)
{
	CHECK_STR(escaped("a\033]0;t\007b\r\n<", 11), "a\\e]0;t\\x07b\\r\\n&lt;");
	CHECK_STR(escaped("nul\0<x", 6), "nul\\x00&lt;x");
	CHECK_STR(escaped("bad\xff&", 5), "bad\\xff&amp;");
}

TEST(lines_keep_newlines)
{
	FILE *f = fmemopen(out, sizeof(out), "w");

	html_lines(f, "a<b\n\tc\033\n", 8);
	fclose(f);
	CHECK_STR(out, "a&lt;b\n\tc\\e\n");
}

TEST(page_is_framed_with_csp)
{
	const char *script;
	char directive[128];
	FILE *f = fmemopen(out, sizeof(out), "w");

	html_page_begin(f, "t</title><script>");
	html_page_end(f);
	fclose(f);
	CHECK(strstr(out, "<title>t&lt;/title&gt;&lt;script&gt;</title>"));
	CHECK(strstr(out, "content=\"default-src 'none';"));
	CHECK(strstr(out, "script-src 'sha256-"));
	/* the charts are data: images; nothing else loads, no script but the one */
	CHECK(strstr(out, "; img-src data:;"));
	script = strstr(out, "script-src ");
	CHECK(script);
	snprintf(directive, sizeof(directive), "%.*s", (int)strcspn(script, ";"), script);
	CHECK(!strstr(directive, "unsafe"));
	CHECK(strstr(out, "</body>\n</html>\n"));
}

/* dir/plots/name holding text; 0 or -1 */
static int put_chart(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/plots/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

/*
 * A chart is an <img> of its file's bytes as a data: URI, whatever they
 * hold (a browser runs no script of an SVG image): the page carries no
 * element of the SVG, and only the charts of the experiment asked for.
 */
TEST(chart_is_data_uri_image)
{
	static const char hostile[] =
		"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>top.x()</script></svg>\n";
	char dir[] = "/tmp/test_html.XXXXXX", plots[64];
	char *page = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(mkdtemp(dir));
	snprintf(plots, sizeof(plots), "%s/plots", dir);
	CHECK(!mkdir(plots, 0700));
	CHECK(!put_chart(dir, "1-a\"b.svg", hostile) && !put_chart(dir, "2-c.svg", "<svg/>"));
	f = open_memstream(&page, &len);
	CHECK(f);
	html_charts(f, dir, "1-");
	fclose(f);
	CHECK_STR(page, "<figure class=\"chart\">\n<img alt=\"chart plots/1-a&quot;b.svg\" "
		  "src=\"data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAw"
		  "MC9zdmciPjxzY3JpcHQ+dG9wLngoKTwvc2NyaXB0Pjwvc3ZnPgo=\">\n"
		  "<figcaption>plots/1-a&quot;b.svg</figcaption>\n</figure>\n");
	free(page);
	/* no shell: by descriptor, no symlink followed */
	CHECK_INT(heldir_remove_tree(dir), 0);
}

/* The metric names of compare --html's rows (third cell), in page order, blank-separated. */
static void row_metrics(const char *page, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const char *p = strstr(page, "<tr class="); p; p = strstr(p + 1, "<tr class=")) {
		const char *cell = p;

		for (int td = 0; td < 3 && cell; td++)
			cell = strstr(cell + 1, "<td");
		if (cell && (cell = strchr(cell, '>')) && n < len)
			n += snprintf(buf + n, len - n, "%s%.*s", n ? " " : "",
				      (int)strcspn(cell + 1, "<"), cell + 1);
	}
}

/*
 * ns_per_run's rows come after every other metric's, however large their
 * change (it comes from a separate pass under bpf_stats and is not stable
 * between runs), with a note saying so; a page without them has no note.
 */
TEST(compare_per_run_last)
{
	const struct cmp_metric rate = { .kind = CMP_RATE, .dir = CMP_HIGHER_BETTER,
					 .unit = metric_unit_find("M/s", MK_COUNTER) },
				per_run = { .kind = CMP_PER_RUN, .dir = CMP_LOWER_BETTER,
					    .unit = metric_per_run_unit() };
	struct result_set base = { 0 }, new = { 0 };
	struct metric_cmp m[2][2] = {
		{ { .metric = "hits", .info = &rate, .verdict = CMP_SAME, .delta_pct = 1.5 },
		  { .metric = "ns_per_run", .info = &per_run, .verdict = CMP_REGRESSED,
		    .delta_pct = 220 } },
		{ { .metric = "hits", .info = &rate, .verdict = CMP_IMPROVED, .delta_pct = 12 },
		  { .metric = "ns_per_run", .info = &per_run, .verdict = CMP_SAME,
		    .delta_pct = -80 } },
	};
	struct point_cmp pts[2] = {
		{ .experiment = "e", .label = "p1", .state = PS_COMPARED, .m = m[0] },
		{ .experiment = "e", .label = "p2", .state = PS_COMPARED, .m = m[1] },
	};
	struct comparison c = { .base_dir = "a", .new_dir = "b", .base = &base, .new = &new,
				.nr_metrics = 2, .pts = pts, .nr_pts = 2 };
	char *page = NULL, order[128];
	size_t len = 0;
	FILE *f = open_memstream(&page, &len);

	CHECK(f && !html_compare(f, &c, 1, 0.05));
	if (f)
		fclose(f);
	row_metrics(page ? page : "", order, sizeof(order));
	CHECK_STR(order, "hits hits ns_per_run ns_per_run");
	CHECK(page && strstr(page, "<p>note: ns_per_run rows come last"));
	free(page);
	/* hits alone: no note about rows that are not there */
	c.nr_metrics = 1;
	page = NULL;
	f = open_memstream(&page, &len);
	CHECK(f && !html_compare(f, &c, 1, 0.05));
	if (f)
		fclose(f);
	CHECK(page && !strstr(page, "ns_per_run"));
	free(page);
}

RUN_TESTS(specials_become_references, controls_shown_as_escapes, lines_keep_newlines,
	  page_is_framed_with_csp, chart_is_data_uri_image, compare_per_run_last)
