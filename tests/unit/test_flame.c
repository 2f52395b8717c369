// SPDX-License-Identifier: GPL-2.0
/*
 * The flame graph (sweep/render/flame.c) of synthetic folded stacks:
 * exact frames of a small tree, narrow frames merged or dropped, hostile
 * names escaped, the same bytes whatever the lines' order.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "flame.h"
#include "flamelayout.h"

/* The flame graph of the stacks "stack count" (an array ended by NULL), or NULL. */
static char *draw(const char *const *lines, int width, int *err)
{
	struct flame_opts o = { .width = width, .title = "t" };
	struct folded fd = { 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);

	for (int i = 0; lines[i]; i += 2)
		folded_add(&fd, lines[i], strtoull(lines[i + 1], NULL, 10));
	*err = flame_svg(m, &fd, &o);
	fclose(m);
	folded_free(&fd);
	return out;
}

/* Does s hold a, then b after it? */
static bool in_order(const char *s, const char *a, const char *b)
{
	const char *x = strstr(s, a);

	return x && strstr(x + strlen(a), b);
}

TEST(small_tree_exact_frames)
{
	static const char *const lines[] = {
		"d", "2", "a;c_long_function_name_of_forty_chars", "2", "a;b", "6", NULL,
	};
	int err;
	char *svg = draw(lines, 1020, &err);	/* 1000 pixels of frames: 100 a sample */

	CHECK_INT(err, 0);
	/* three levels: 34 above, 16 each, 8 below */
	CHECK(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1020\" "
			  "height=\"90\" viewBox=\"0 0 1020 90\""));
	CHECK(strstr(svg, "<title>all (10 samples, 100.00%)</title><rect x=\"10.0\" y=\"66.0\" "
			  "width=\"1000.0\" height=\"15\""));
	CHECK(strstr(svg, "<title>a (8 samples, 80.00%)</title><rect x=\"10.0\" y=\"50.0\" "
			  "width=\"800.0\""));
	CHECK(strstr(svg, "<title>b (6 samples, 60.00%)</title><rect x=\"10.0\" y=\"34.0\" "
			  "width=\"600.0\""));
	CHECK(strstr(svg, "<title>c_long_function_name_of_forty_chars (2 samples, 20.00%)"
			  "</title><rect x=\"610.0\" y=\"34.0\" width=\"200.0\""));
	CHECK(strstr(svg, "<title>d (2 samples, 20.00%)</title><rect x=\"810.0\" y=\"50.0\" "
			  "width=\"200.0\""));
	/* 200 pixels hold 26 characters at 7.2: 24 of the name and ".." */
	CHECK(strstr(svg, "<text x=\"613.0\" y=\"45.0\">c_long_function_name_of_..</text>"));
	CHECK(strstr(svg, "<text x=\"13.0\" y=\"45.0\">b</text>"));
	/* by name on each level, callees after their caller */
	CHECK(in_order(svg, "<title>all ", "<title>a ") && in_order(svg, "<title>a ", "<title>b ") &&
	      in_order(svg, "<title>b ", "<title>c_long") && in_order(svg, "<title>c_long", "<title>d "));
	CHECK(!strstr(svg, "<script") && !strstr(svg, "style"));
	free(svg);
}

TEST(narrow_frames_merged_or_dropped)
{
	static const char *const lines[] = {
		"a;x", "9978", "a;x;p", "2", "a;n1", "3", "a;n2", "4", "a;n3", "3",
		"c", "5", "d", "5", NULL,
	};
	int err;
	char *svg = draw(lines, 1020, &err);	/* 10000 samples: 0.1 % is 10 */

	CHECK_INT(err, 0);
	/* a line under the title says so, and moves the frames 16 pixels down */
	CHECK(strstr(svg, "<text x=\"10\" y=\"44\">not drawn: 6 frames under 0.1% of the samples "
			  "each (the grey frames merge them per caller)</text>"));
	/* n1..n3 under 10 each, 10 together: one grey frame after x (998 px), unlabelled */
	CHECK(strstr(svg, "<title>3 frames under 0.1% each (10 samples, 0.10%)</title>"
			  "<rect x=\"1008.0\" y=\"50.0\" width=\"1.0\" height=\"15\" fill=\"#d8d8d8\""));
	/* c and d likewise at the top, beside a */
	CHECK(strstr(svg, "<title>2 frames under 0.1% each (10 samples, 0.10%)</title>"
			  "<rect x=\"1009.0\" y=\"66.0\""));
	/* p alone, 2 samples: merged into a frame still too narrow, so dropped */
	CHECK(!strstr(svg, "<title>p ") && !strstr(svg, "1 frames"));
	CHECK(!strstr(svg, "n1") && !strstr(svg, ">c<") && !strstr(svg, "<title>c "));
	CHECK(strstr(svg, "<title>x (9980 samples, 99.80%)</title>"));
	free(svg);
}

/* Every '<' of svg opens or closes one of the elements flame.c writes. */
static bool only_own_elements(const char *svg)
{
	static const char *const ok[] = { "svg ", "/svg>", "rect ", "text ", "text>", "/text>",
					  "title>", "/title>", "g>", "/g>" };

	for (const char *s = strchr(svg, '<'); s; s = strchr(s + 1, '<')) {
		bool known = false;

		for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
			known |= !strncmp(s + 1, ok[i], strlen(ok[i]));
		if (!known)
			return false;
	}
	return true;
}

TEST(hostile_names_escaped)
{
	static const char *const lines[] = {
		"</svg><script>alert(1)</script>;a&b\"c'd;bell\x01\x1b[31mred", "10", NULL,
	};
	int err;
	char *svg = draw(lines, 1200, &err);

	CHECK_INT(err, 0);
	CHECK(only_own_elements(svg));
	CHECK(strstr(svg, "<title>&lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt; (10 samples"));
	CHECK(strstr(svg, "<title>a&amp;b&quot;c&#39;d (10 samples"));
	CHECK(strstr(svg, "<title>bell\\x01\\e[31mred (10 samples"));
	for (const char *s = svg; *s; s++)
		CHECK(*s == '\n' || (unsigned char)*s >= 0x20);
	free(svg);
}

/* The strongest channel of the fill of the frame whose title starts with title. */
static char hue(const char *svg, const char *title)
{
	const char *s = strstr(svg, title);
	unsigned int r, g, b;

	s = s ? strstr(s, "fill=\"#") : NULL;
	if (!s || sscanf(s, "fill=\"#%2x%2x%2x", &r, &g, &b) != 3)
		return '?';
	return r > g && r > b ? 'r' : g > b ? 'g' : 'b';
}

TEST(same_bytes_whatever_the_order)
{
	static const char *const one[] = {
		"t;k;bpf_prog_0123456789abcdef_x", "3", "t;k;csum_partial", "5", "t;[user]", "4",
		"u;bpf_prog_test_run_skb", "1", NULL,
	};
	static const char *const two[] = {
		"u;bpf_prog_test_run_skb", "1", "t;[user]", "4", "t;k;csum_partial", "3",
		"t;k;bpf_prog_0123456789abcdef_x", "3",
		"t;k;csum_partial", "2", NULL,
	};
	int e1, e2;
	char *a = draw(one, 1200, &e1), *b = draw(two, 1200, &e2);

	CHECK_INT(e1, 0);
	CHECK_INT(e2, 0);
	CHECK_STR(a, b);
	/* after [user] (4 samples of 13 in 1180 px); a BPF program (by its kallsyms name,
	 * with its tag) green, [user] blue, the kernel red
	 */
	CHECK(strstr(a, "bpf_prog_0123456789abcdef_x (3 samples, 23.08%)</title>"
			"<rect x=\"373.1\" y=\"34.0\" width=\"272.3\" height=\"15\" fill=\"#"));
	CHECK(hue(a, "<title>bpf_prog_0123456789abcdef_x ") == 'g');
	CHECK(hue(a, "<title>bpf_prog_test_run_skb ") == 'r');	/* a kernel function */
	CHECK(hue(a, "<title>[user] ") == 'b');
	CHECK(hue(a, "<title>csum_partial ") == 'r');
	free(a);
	free(b);
}

TEST(no_samples_nothing_drawn)
{
	static const char *const lines[] = { NULL };
	int err;
	char *svg = draw(lines, 1200, &err);

	CHECK_INT(err, -ENODATA);
	CHECK_STR(svg, "");
	free(svg);
}

/*
 * Counts near the limit: 3 * 2^62 samples, each frame a third, drawn as
 * thirds (count * 1000 wrapped to 0 in the narrowness test, and every
 * frame was merged away).
 */
TEST(counts_near_the_limit_drawn_whole)
{
	static const char *const lines[] = {
		"a", "4611686018427387904", "b", "4611686018427387904",
		"c;d", "4611686018427387904", NULL,
	};
	int err;
	char *svg = draw(lines, 1210, &err);	/* 1190 pixels of frames */

	CHECK_INT(err, 0);
	CHECK(strstr(svg, "<title>all (13835058055282163712 samples, 100.00%)</title>"));
	CHECK(strstr(svg, "<title>a (4611686018427387904 samples, 33.33%)</title>"
			  "<rect x=\"10.0\" y=\"50.0\" width=\"396.7\""));
	CHECK(strstr(svg, "<title>d (4611686018427387904 samples, 33.33%)</title>"
			  "<rect x=\"803.3\" y=\"34.0\" width=\"396.7\""));
	CHECK(!strstr(svg, "frames under"));
	free(svg);
}

/* fd's flame graph, 1200 pixels wide; fd freed. */
static char *draw_folded(struct folded *fd, int *err)
{
	struct flame_opts o = { .width = 1200, .title = "t" };
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);

	*err = flame_svg(m, fd, &o);
	fclose(m);
	folded_free(fd);
	return out;
}

/* "<prefix><sep>f<from>;...;f<to - 1>" (or the one name f when same) in a new string. */
static char *chain(const char *prefix, int from, int to, bool same)
{
	char *s = malloc(strlen(prefix) + (size_t)(to - from) * 9 + 1), *p = s;

	if (!s)
		return NULL;
	p += sprintf(p, "%s", prefix);
	for (int i = from; i < to; i++)
		p += same ? sprintf(p, "%sf", p == s ? "" : ";") :
			    sprintf(p, "%sf%d", p == s ? "" : ";", i);
	return s;
}

static int count_of(const char *s, const char *what)
{
	int n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

/*
 * A stack of 200,000 frames (twice, as two repetitions give it): no walk
 * recurses (prune() overflowed the C stack at 80,000), the stack is cut
 * after FLAME_MAX_DEPTH frames and the graph says so, once.
 */
TEST(deep_stack_cut_not_recursed)
{
	struct folded fd = { 0 };
	char *stack = chain("t", 0, 200000, false), *svg;
	struct timespec t0;
	int err;

	CHECK(stack);
	CHECK_INT(folded_add(&fd, stack, 1), 0);
	CHECK_INT(folded_add(&fd, stack, 2), 0);
	free(stack);
	cpu_start(&t0);
	svg = draw_folded(&fd, &err);
	CHECK(cpu_secs_since(&t0) < 2);
	CHECK_INT(err, 0);
	/* the root, the task and 127 frames of the stack */
	CHECK_INT(count_of(svg, "<g>"), FLAME_MAX_DEPTH + 1);
	CHECK(strstr(svg, "<title>f126 (3 samples, 100.00%)</title>"));
	CHECK(!strstr(svg, "<title>f127 "));
	CHECK(strstr(svg, ">not drawn: 1 stack cut after 128 frames</text>"));
	/* 34 + 16 above (title, note), 129 levels, 8 below */
	CHECK(strstr(svg, " height=\"2122\" viewBox=\"0 0 1200 2122\""));
	free(svg);
}

/*
 * 100,000 callees of one frame: each a name compared with its neighbour in
 * sorted order, not looked for among all the callees before it.
 */
TEST(many_callees_fast)
{
	struct folded fd = { 0 };
	struct timespec t0;
	char stack[32], *svg;
	int err;

	for (int i = 0; i < 100000; i++) {
		snprintf(stack, sizeof(stack), "t;f%d", i);
		CHECK_INT(folded_add(&fd, stack, 1), 0);
	}
	CHECK_INT(folded_add(&fd, "t;wide", 100000), 0);
	cpu_start(&t0);
	svg = draw_folded(&fd, &err);
	CHECK(cpu_secs_since(&t0) < 2);
	CHECK_INT(err, 0);
	CHECK_INT(count_of(svg, "<g>"), 4);
	CHECK(strstr(svg, "<title>wide (100000 samples, 50.00%)"));
	CHECK(strstr(svg, "<title>100000 frames under 0.1% each (100000 samples, 50.00%)"));
	CHECK(strstr(svg, ">not drawn: 100000 frames under 0.1% of the samples each (the grey "
			  "frames merge them per caller)</text>"));
	free(svg);
}

/*
 * 1,000 stacks of 100 frames, stack i with i + 1 samples: 50,000 frames
 * over 0.1 % (a 24.5 MB page took a browser 30 s).  The widest are drawn,
 * FLAME_MAX_FRAMES at most, and the graph says at what share it cut.
 */
TEST(frames_capped)
{
	struct folded fd = { 0 };
	char prefix[16], *svg;
	int err;

	for (int i = 0; i < 1000; i++) {
		char *stack;

		snprintf(prefix, sizeof(prefix), "s%03d", i);
		stack = chain(prefix, 1, 100, false);
		CHECK(stack);
		CHECK_INT(folded_add(&fd, stack, i + 1), 0);
		free(stack);
	}
	svg = draw_folded(&fd, &err);
	CHECK_INT(err, 0);
	/* the 2,000th widest frame is of the 20th widest stack, 981 samples: 19 drawn */
	CHECK_INT(count_of(svg, "<g>"), 1 + 19 * 100 + 1);
	CHECK(strlen(svg) < 1 << 20);
	CHECK(strstr(svg, "<title>s999 (1000 samples, 0.20%)"));
	CHECK(strstr(svg, "<title>s981 (982 samples, 0.20%)"));
	CHECK(!strstr(svg, "<title>s980 "));
	CHECK(strstr(svg, "<title>981 frames under 0.196204% each (481671 samples, 96.24%)"));
	CHECK(strstr(svg, ">not drawn: 98100 frames under 0.196204% of the samples each, to draw "
			  "4000 at most (the grey frames merge them per caller)</text>"));
	free(svg);
}

/* A name of 100,000 bytes: its title holds the first FLAME_MAX_NAME. */
TEST(long_name_cut)
{
	struct folded fd = { 0 };
	char *name = malloc(100001), *svg;
	int err;

	CHECK(name);
	memset(name, 'n', 100000);
	name[100000] = '\0';
	CHECK_INT(folded_add(&fd, name, 1), 0);
	free(name);
	svg = draw_folded(&fd, &err);
	CHECK_INT(err, 0);
	CHECK(strlen(svg) < 4096);
	name = malloc(FLAME_MAX_NAME + 64);
	CHECK(name);
	memset(name, 'n', FLAME_MAX_NAME);
	strcpy(name + FLAME_MAX_NAME, ".. (1 sample, 100.00%)</title>");
	CHECK(strstr(svg, name));
	name[FLAME_MAX_NAME] = 'n';
	CHECK(!strstr(svg, name));	/* not one n more */
	free(name);
	free(svg);
}

RUN_TESTS(small_tree_exact_frames, narrow_frames_merged_or_dropped, hostile_names_escaped,
	  same_bytes_whatever_the_order, no_samples_nothing_drawn,
	  counts_near_the_limit_drawn_whole, deep_stack_cut_not_recursed, many_callees_fast,
	  frames_capped, long_name_cut)
