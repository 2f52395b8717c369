// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML writer: its one escaping function and the rebuilt inline SVG;
 * compare --html's order of rows.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "html.h"
#include "htmlcompare.h"
#include "htmlsvg.h"

static char out[8192];

static const char *escaped(const char *s, size_t n)
{
	FILE *f = fmemopen(out, sizeof(out), "w");

	html_put(f, s, n);
	fclose(f);
	return out;
}

/* svg rebuilt with prefix "c1-", or "REFUSED: why" */
static const char *svg(const char *s)
{
	char why[256] = "";
	FILE *f = fmemopen(out, sizeof(out), "w");
	int err = html_svg(f, s, strlen(s), "c1-", why, sizeof(why));

	fclose(f);
	if (err)
		snprintf(out, sizeof(out), "REFUSED: %s", why);
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
	FILE *f = fmemopen(out, sizeof(out), "w");

	html_page_begin(f, "t</title><script>");
	html_page_end(f);
	fclose(f);
	CHECK(strstr(out, "<title>t&lt;/title&gt;&lt;script&gt;</title>"));
	CHECK(strstr(out, "content=\"default-src 'none';"));
	CHECK(strstr(out, "script-src 'sha256-"));
	CHECK(strstr(out, "</body>\n</html>\n"));
}

TEST(svg_rebuilt_with_prefixed_ids)
{
	CHECK_STR(svg("<?xml version=\"1.0\"?>\n<svg viewBox='0 0 10 10'>\n<defs><path id='p0' "
		      "d='M0,0\nL1,1'/></defs><use xlink:href='#p0' filter='url(#tb)'/>"
		      "<text>a &lt;b> &amp;#1; &#1;</text></svg>\n"),
		  "<svg viewBox=\"0 0 10 10\">\n<defs><path id=\"c1-p0\" d=\"M0,0 L1,1\"/></defs>"
		  "<use xlink:href=\"#c1-p0\" filter=\"url(#c1-tb)\"/>"
		  "<text>a &lt;b&gt; &amp;#1; \\x01</text></svg>");
}

TEST(svg_hostile_refused)
{
	CHECK(!strncmp(svg("<svg><script>alert(1)</script></svg>"), "REFUSED: an element", 19));
	CHECK(!strncmp(svg("<svg onload='x()'></svg>"), "REFUSED: an attribute", 21));
	CHECK(!strncmp(svg("<svg><use href='http://x/y'/></svg>"), "REFUSED: a link", 15));
	CHECK(!strncmp(svg("<svg><g fill='url(http://x)'/></svg>"), "REFUSED: a url()", 16));
	CHECK(!strncmp(svg("<svg><g style='x'/></svg>"), "REFUSED: an attribute", 21));
	CHECK(!strncmp(svg("<svg><foreignObject/></svg>"), "REFUSED: an element", 19));
	CHECK(!strncmp(svg("<svg></g></svg>"), "REFUSED: an end tag", 19));
	CHECK(!strncmp(svg("<svg><g>"), "REFUSED: no complete", 20));
	CHECK(!strncmp(svg("<svg/><svg/>"), "REFUSED: an element after", 25));
	CHECK(!strncmp(svg("<svg><text>&nbsp;</text></svg>"), "REFUSED: an unknown", 19));
	CHECK(!strncmp(svg("<svg><g x='<'/></svg>"), "REFUSED: an unterminated value", 30));
	CHECK(!strncmp(svg("<!DOCTYPE svg [<!ENTITY x 'y'>]><svg/>"), "REFUSED: an unterm", 18));
	CHECK(!strncmp(svg("x<svg/>"), "REFUSED: text outside", 21));
	/* an id or a link's id that spells what a value must not (the fuzzer's find) */
	CHECK(!strncmp(svg("<svg><path id='url(p'/></svg>"), "REFUSED: an id of", 17));
	CHECK(!strncmp(svg("<svg><use href='#url(p'/></svg>"), "REFUSED: a link", 15));
	CHECK_STR(svg("<svg><path id='gp_1.a-b'/></svg>"), "<svg><path id=\"c1-gp_1.a-b\"/></svg>");
	/* a title gnuplot wrote as it was: it cannot close the element */
	CHECK_STR(svg("<svg><title>a</title></svg>"), "<svg><title>a</title></svg>");
}

/* what the HTML parser or CSS would read otherwise: found by tests/fuzz/fuzz_svg.c */
TEST(svg_case_and_escapes_refused)
{
	char why[128];

	CHECK(!strncmp(svg("<svg><use HREF='//x/y#a'/></svg>"), "REFUSED: a link", 15));
	CHECK(!strncmp(svg("<svg><g fill='URL(//x/y#a)'/></svg>"), "REFUSED: a url()", 16));
	CHECK(!strncmp(svg("<svg><g fill='\\75 rl(//x)'/></svg>"), "REFUSED: a backslash", 20));
	CHECK(!strncmp(svg("<svg><title><g/></title></svg>"), "REFUSED: an element inside", 26));
	/* term_put() would write it as a backslash and x91: a CSS escape in a value */
	CHECK(!strncmp(svg("<svg><g id='a\x91'/></svg>"), "REFUSED: a control", 18));
	CHECK_STR(svg("<svg><g ID='a' fill='url(#a)'/></svg>"),
		  "<svg><g ID=\"c1-a\" fill=\"url(#c1-a)\"/></svg>");
	/* the input ends at n, with no NUL: "<svg/" is cut, not an empty element */
	CHECK(html_svg(stdout, "<svg/>", 5, "c1-", why, sizeof(why)) < 0);
}

TEST(svg_nothing_written_when_refused)
{
	char buf[64] = "";
	char why[128];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	CHECK(html_svg(f, "<svg><g><script/>", 17, "c1-", why, sizeof(why)) < 0);
	fclose(f);
	CHECK_STR(buf, "");
	CHECK(html_svg(stdout, "<svg/>", 6, "c1\"", why, sizeof(why)) < 0);
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
	  page_is_framed_with_csp, svg_rebuilt_with_prefixed_ids, svg_hostile_refused,
	  svg_case_and_escapes_refused, svg_nothing_written_when_refused, compare_per_run_last)
