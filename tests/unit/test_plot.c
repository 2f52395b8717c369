// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c: charts of a hand-made result rendered into a temporary directory.
 * Run from the top of the tree, where plots/lines.gp is.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "plot.h"
#include "table.h"
#include "view_of.h"

extern const struct workload null_workload;

enum { P_PRODUCERS, P_RATE, P_DROP_PCT, P_VALUE_SIZE, P_MODE, P_FLAG, P_FAIL, NR_P };
enum { M_HITS, M_DROPS };

static long long one_val[NR_P][1] = { { 1 }, { 1000000 }, { 0 }, { 64 }, { 0 }, { 0 }, { 0 } };
static long long producers[] = { 1, 2, 4 };
static long long flags[] = { 0, 1 };
static long long modes[] = { 0, 1 };

#define NR_PTS 8	/* 3 producers x 2 flags in exp 0, 2 points in exp 1 */

struct fixture {
	char dir[64];
	char plots[96];
	struct experiment e[2];
	struct sweep_cfg cfg;
	struct point pts[NR_PTS];
	struct point_result res[NR_PTS];
};

/* The charts of hand-made results: plot_render_rows() of their view, as a run draws them. */
static int plot_render(const char *dir, const struct sweep_cfg *cfg, const struct run_facts *facts,
		       const struct point_result *res, int nr, unsigned int timeout_s)
{
	struct view_of vo;
	int err = view_of(cfg, res, nr, &vo);

	if (!err)
		err = plot_render_rows(dir, vo.v, facts, vo.rows, nr, NULL, timeout_s);
	view_of_free(&vo);
	return err;
}

static void make_exp(struct experiment *e, const char *title)
{
	*e = (struct experiment){ .title = (char *)title, .group = -1 };
	for (int p = 0; p < NR_P; p++)
		e->axes[e->nr_axes++] = (struct axis){ .param = p, .vals = one_val[p], .nr_vals = 1 };
}

static void make_point(struct fixture *fx, int i, int exp, int nr_prod, int flag)
{
	struct point *pt = &fx->pts[i];
	struct point_result *r = &fx->res[i];

	*pt = (struct point){ .id = i, .exp = exp, .wp.wl = &null_workload };
	for (int p = 0; p < NR_P; p++)
		pt->wp.v[p] = one_val[p][0];
	pt->wp.v[P_PRODUCERS] = nr_prod;
	pt->wp.v[P_FLAG] = flag;
	*r = (struct point_result){ .pt = pt, .status = PS_OK };
	r->stat[M_HITS] = (struct summary){ .mean = 1e6 * (nr_prod + flag), .stddev = 5e4, .n = 10,
					    .ci95 = 4e4 };
	r->stat[M_DROPS] = (struct summary){ .mean = 1e3 * nr_prod, .stddev = 10 };
	/* hits over 3 repetitions, an error bar each; drops without units, none */
	r->unit[M_HITS] = (struct units){ .kind = UK_REP, .n = 3, .ci95 = 4e4 };
}

/*
 * Experiment 0: producers {1,2,4} x flag {off,on}, "producers vs hits by flag"
 * and "flag vs drops"; the point producers=2 flag=on is unsupported.
 * Experiment 1 has the same title and chart, named by its number; its
 * mode varies too, so its series are flag and mode combined.
 */
static int fixture_init(struct fixture *fx)
{
	struct experiment *e = fx->e;

	memset(fx, 0, sizeof(*fx));
	make_exp(&e[0], "Null: \"quoted\" title");
	e[0].axes[P_PRODUCERS] = (struct axis){ .param = P_PRODUCERS, .vals = producers, .nr_vals = 3 };
	e[0].axes[P_FLAG] = (struct axis){ .param = P_FLAG, .vals = flags, .nr_vals = 2 };
	e[0].plots[0] = (struct plot_req){ .x = P_PRODUCERS, .y = M_HITS, .by = P_FLAG };
	e[0].plots[1] = (struct plot_req){ .x = P_FLAG, .y = M_DROPS, .by = -1 };
	e[0].nr_plots = 2;
	make_exp(&e[1], "Null: \"quoted\" title");
	e[1].axes[P_PRODUCERS] = (struct axis){ .param = P_PRODUCERS, .vals = producers, .nr_vals = 2 };
	e[1].axes[P_MODE] = (struct axis){ .param = P_MODE, .vals = modes, .nr_vals = 2 };
	e[1].plots[0] = e[0].plots[0];
	e[1].nr_plots = 1;
	fx->cfg = (struct sweep_cfg){ .wl = &null_workload, .exps = e, .nr_exps = 2 };
	for (int i = 0; i < 6; i++)
		make_point(fx, i, 0, producers[i / 2], flags[i % 2]);
	fx->res[3].status = PS_UNSUPPORTED;
	make_point(fx, 6, 1, 1, 0);
	make_point(fx, 7, 1, 2, 0);
	fx->pts[7].wp.v[P_MODE] = 1;
	strcpy(fx->dir, "/tmp/test_plot.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -errno;
	snprintf(fx->plots, sizeof(fx->plots), "%s/plots", fx->dir);
	return 0;
}

static void fixture_clean(struct fixture *fx)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(fx->plots);

	while (d && (de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", fx->plots, de->d_name);
		if (de->d_name[0] != '.')
			unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(fx->plots);
	rmdir(fx->dir);
}

/* The whole of plots/<name> as a string, or NULL (free()). */
static char *slurp(const struct fixture *fx, const char *name)
{
	char path[PATH_MAX], *text = NULL;
	size_t len = 0;
	FILE *in, *mem;
	int c;

	snprintf(path, sizeof(path), "%s/%s", fx->plots, name);
	in = fopen(path, "r");
	if (!in)
		return NULL;
	mem = open_memstream(&text, &len);
	while (mem && (c = getc(in)) != EOF)
		putc(c, mem);
	if (mem)
		fclose(mem);
	fclose(in);
	return text;
}

/* Does plots/<name> contain needle?  -1 when the file is missing. */
static int contains(const struct fixture *fx, const char *name, const char *needle)
{
	char *text = slurp(fx, name);
	int found;

	if (!text)
		return -1;
	found = strstr(text, needle) != NULL;
	free(text);
	return found;
}

#define CHART0 "1-hits-vs-producers-by-flag"
#define CHART1 "1-drops-vs-flag"
#define CHART2 "2-hits-vs-producers-by-flag"
#define GAUGE "1-mem-peak-vs-flag"
#define MIB (1024.0 * 1024)

static void check_dat(const struct fixture *fx)
{
	CHECK_INT(contains(fx, CHART0 ".dat",
			   "# flag=off\n"
			   "1 1.000000 0.040000 \"1\" 0\n"
			   "2 2.000000 0.040000 \"2\" 0\n"
			   "4 4.000000 0.040000 \"4\" 0\n"
			   "\n\n# flag=on\n"
			   "1 2.000000 0.040000 \"1\" 0\n"
			   "4 5.000000 0.040000 \"4\" 0\n"), 1);
	/* categorical x: by position, named; the other varying parameter splits series */
	CHECK_INT(contains(fx, CHART1 ".dat",
			   "# producers=1\n"
			   "0 0.001000 0.000000 \"off\" 0\n"
			   "1 0.001000 0.000000 \"on\" 0\n"
			   "\n\n# producers=2\n"
			   "0 0.002000 0.000000 \"off\" 0\n"
			   "\n\n# producers=4\n"), 1);
	CHECK_INT(contains(fx, CHART2 ".dat", "# flag=off mode=fast\n1 1.000000"), 1);
	CHECK_INT(contains(fx, CHART2 ".dat", "\n\n# flag=off mode=slow\n2 2.000000"), 1);
}

static void check_gp(const struct fixture *fx)
{
	CHECK_INT(contains(fx, CHART0 ".gp", "set title 'Null: \"quoted\" title' "), 1);
	/* under the plot, titled with what the bars are */
	CHECK_INT(contains(fx, CHART0 ".gp", "set key below center horizontal noenhanced height 1 "
			   "title 'error bars: 95% CI of the mean over 3 repetitions'\n"), 1);
	CHECK_INT(contains(fx, CHART0 ".gp", "background \"white\" name "
			   "\"_1_hits_vs_producers_by_flag\"\n"), 1);
	CHECK_INT(contains(fx, CHART0 ".gp", "set xlabel 'producers'"), 1);
	CHECK_INT(contains(fx, CHART0 ".gp", "set ylabel 'hits (M/s)'"), 1);
	/* producers 1 2 4 double: log2, the values its tics, the ends clear of the frame */
	CHECK_INT(contains(fx, CHART0 ".gp", "set logscale x 2\nset xrange [0.959264:4.16986]\n"
			   "set xtics ('1' 1, '2' 2, '4' 4)\n"), 1);
	/* producers 1 2: linear, tics at the values only */
	CHECK_INT(contains(fx, CHART2 ".gp", "set logscale"), 0);
	CHECK_INT(contains(fx, CHART2 ".gp", "set xrange [0.97:2.03]\nset xtics ('1' 1, '2' 2)\n"),
		  1);
	/* its files named after the chart, unless gnuplot is given another name (render) */
	CHECK_INT(contains(fx, CHART0 ".gp", "if (!exists('out')) out = '" CHART0 "'\n"), 1);
	CHECK_INT(contains(fx, CHART0 ".gp", "set output out . \".png\""), 1);
	CHECK_INT(contains(fx, CHART0 ".gp", "set output out . \".svg\""), 1);
	CHECK_INT(contains(fx, CHART0 ".gp",
			   "plot \"" CHART0 ".dat\" index 0 using 1:2:3 title 'flag=off' "
			   "with yerrorlines linecolor 1 pointtype 7, \\\n"
			   "     \"\" index 1 using 1:2:3 title 'flag=on' "
			   "with yerrorlines linecolor 2 pointtype 7\n"), 1);
	/* no point flagged: every marker filled, no hollow ones in the key */
	CHECK_INT(contains(fx, CHART0 ".gp", "pointtype 6"), 0);
	CHECK_INT(contains(fx, CHART0 ".gp", "@"), 0);
	CHECK_INT(contains(fx, CHART1 ".gp", "set ylabel 'drops (M/s)'"), 1);
	/* drops have no units: no bars, and the key says so */
	CHECK_INT(contains(fx, CHART1 ".gp", "using 1:2:xtic(4) title 'producers=4' with linespoints"),
		  1);
	CHECK_INT(contains(fx, CHART1 ".gp", "with yerrorlines"), 0);
	CHECK_INT(contains(fx, CHART1 ".gp", "title 'no error bars: fewer than 2 independent units "
			   "per point'\n"), 1);
	CHECK_INT(contains(fx, CHART1 ".gp", "set logscale"), 0);
	/* off and on by position, half a step of room each side */
	CHECK_INT(contains(fx, CHART1 ".gp", "set xrange [-0.5:1.5]\n"), 1);
}

/* Does dir hold a file named with ".part", a chart gnuplot wrote and nothing renamed? */
static bool has_part_file(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool found = false;

	while (d && (de = readdir(d)))
		found |= strstr(de->d_name, ".part") != NULL;
	if (d)
		closedir(d);
	return found;
}

static void check_images(const struct fixture *fx, const char *chart)
{
	static const unsigned char png_sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	unsigned char head[8] = { 0 };
	char name[256];
	FILE *f;

	snprintf(name, sizeof(name), "%s/%s.png", fx->plots, chart);
	f = fopen(name, "rb");
	CHECK(f);
	CHECK_INT(fread(head, 1, sizeof(head), f), 8);
	fclose(f);
	CHECK(!memcmp(head, png_sig, sizeof(png_sig)));
	snprintf(name, sizeof(name), "%s.svg", chart);
	CHECK_INT(contains(fx, name, "<svg"), 1);
	/* escaped as the pages escape text, which XML reads */
	CHECK_INT(contains(fx, name, "<title>Null: &quot;quoted&quot; title</title>"), 1);
	CHECK_INT(contains(fx, name, "fill=\"#ffffff\"/>"), 1);
	/* drawn under a name of its own, then renamed into place */
	CHECK(!has_part_file(fx->plots));
}

/* s as gnuplot's svg terminal writes text: & and < escaped, nothing else. */
static void svg_text(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; *s && n + 6 < len; s++) {
		if (*s == '&')
			n += snprintf(buf + n, len - n, "&amp;");
		else if (*s == '<')
			n += snprintf(buf + n, len - n, "&lt;");
		else
			buf[n++] = *s;
	}
	buf[n] = '\0';
}

/* Does plots/<chart>.svg draw s, as written, as one text element? */
static int svg_draws(const struct fixture *fx, const char *chart, const char *s)
{
	char name[256], want[1024], text[960];

	svg_text(s, text, sizeof(text));
	snprintf(want, sizeof(want), "<text>%s</text>", text);
	snprintf(name, sizeof(name), "%s.svg", chart);
	return contains(fx, name, want);
}

/*
 * Every text reads back in the chart as written, by the real gnuplot: each
 * of ! " # $ % & ' * ; < > ? before a digit (their octal escapes ran on
 * into it: "1..8*2" was drawn "1..8R"), and what gnuplot would substitute
 * or take as markup, in the title, the machine line under it, and the
 * named tics of a .dat.
 */
TEST(titles_round_trip)
{
	static const char title[] = "producers=1..8*2 !1\"2#3$4%5&6'7*8;9<0>1?2 "
				    "\\3`4`@5{6}7^8_9~0 \xc3\xa9" "1";
	static const char *const modes[] = { "a*2 \"3\"", "b'4 &5 <6", NULL };
	struct run_facts facts = { .arch = "x86_64", .kernel_release = "6.18.0" };
	struct param_def params[WL_MAX_PARAMS];
	struct workload wl;
	struct fixture fx;
	int err;

	wl = null_workload;
	memcpy(params, null_workload.params, null_workload.nr_params * sizeof(*params));
	params[P_MODE].choices = modes;
	wl.params = params;
	snprintf(facts.tags, sizeof(facts.tags), "m=*2 '3 \"4 ?5");
	CHECK_INT(fixture_init(&fx), 0);
	fx.cfg.wl = &wl;
	for (int i = 0; i < NR_PTS; i++)
		fx.pts[i].wp.wl = &wl;
	fx.e[0].title = (char *)title;
	fx.e[1].plots[1] = (struct plot_req){ .x = P_MODE, .y = M_HITS, .by = -1 };
	fx.e[1].nr_plots = 2;
	err = plot_render(fx.dir, &fx.cfg, &facts, fx.res, NR_PTS, 0);
	if (err == -ENOENT) {
		fixture_clean(&fx);
		SKIP("gnuplot is not installed");
	}
	CHECK_INT(err, 0);
	CHECK_INT(svg_draws(&fx, CHART0, title), 1);
	CHECK_INT(svg_draws(&fx, CHART0, "x86_64, kernel 6.18.0, m=*2 '3 \"4 ?5"), 1);
	CHECK_INT(svg_draws(&fx, "2-hits-vs-mode", modes[0]), 1);
	CHECK_INT(svg_draws(&fx, "2-hits-vs-mode", modes[1]), 1);
	fixture_clean(&fx);
}

TEST(template_is_found)
{
	char path[PATH_MAX];

	CHECK_INT(plot_template_find("lines.gp", path, sizeof(path)), 0);
	CHECK(strstr(path, "plots/lines.gp"));
	CHECK_INT(plot_template_find("no-such-template.gp", path, sizeof(path)), -ENOENT);
}

TEST(render_charts)
{
	struct fixture fx;
	int err;

	CHECK_INT(fixture_init(&fx), 0);
	err = plot_render(fx.dir, &fx.cfg, NULL, fx.res, NR_PTS, 0);
	check_dat(&fx);
	if (!check_cur.failed)
		check_gp(&fx);
	if (!check_cur.failed && err == -ENOENT) {
		fixture_clean(&fx);
		SKIP("gnuplot is not installed");
	}
	if (!check_cur.failed)
		CHECK_INT(err, 0);
	if (!check_cur.failed)
		check_images(&fx, CHART0);
	if (!check_cur.failed)
		check_images(&fx, CHART1);
	if (!check_cur.failed)
		check_images(&fx, CHART2);
	fixture_clean(&fx);
}

/* No gnuplot on PATH: one error, -ENOENT, and the scripts still there to run later. */
TEST(missing_gnuplot)
{
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	char *msgs = NULL;
	size_t len = 0;
	FILE *diag = open_memstream(&msgs, &len);
	struct fixture fx;
	int before = diag_error_count(), err, found;

	CHECK(diag);
	CHECK_INT(fixture_init(&fx), 0);
	diag_set_stream(diag);
	setenv("PATH", "/nonexistent", 1);
	err = plot_render(fx.dir, &fx.cfg, NULL, fx.res, NR_PTS, 0);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	diag_set_stream(NULL);
	fclose(diag);
	found = strstr(msgs, "gnuplot not found") != NULL;
	free(msgs);
	CHECK_INT(err, -ENOENT);
	CHECK_INT(diag_error_count() - before, 1);
	CHECK(found);
	CHECK_INT(contains(&fx, CHART0 ".gp", "plot "), 1);
	CHECK_INT(contains(&fx, CHART0 ".png", ""), -1);
	fixture_clean(&fx);
}

/* Only failed points: no chart, no error, nothing for gnuplot to choke on. */
TEST(nothing_to_draw)
{
	struct fixture fx;
	FILE *diag = fopen("/dev/null", "w");

	CHECK_INT(fixture_init(&fx), 0);
	for (int i = 0; i < NR_PTS; i++)
		fx.res[i].status = PS_FAILED;
	diag_set_stream(diag);
	CHECK_INT(plot_render(fx.dir, &fx.cfg, NULL, fx.res, NR_PTS, 0), 0);
	diag_set_stream(NULL);
	if (diag)
		fclose(diag);
	CHECK_INT(contains(&fx, CHART0 ".gp", ""), -1);
	fixture_clean(&fx);
}

/* A series none of whose points ran is named in the key, with why. */
TEST(unsupported_series_in_key)
{
	struct fixture fx;
	int err;

	CHECK_INT(fixture_init(&fx), 0);
	for (int i = 1; i < 6; i += 2)		/* every flag=on point of experiment 0 */
		fx.res[i].status = PS_UNSUPPORTED;
	err = plot_render(fx.dir, &fx.cfg, NULL, fx.res, NR_PTS, 0);
	CHECK_INT(contains(&fx, CHART0 ".gp",
			   "index 0 using 1:2:3 title 'flag=off' with yerrorlines linecolor 1 "
			   "pointtype 7, \\\n"
			   "     keyentry with points pointtype -1 title 'flag=on: unsupported'\n"),
		  1);
	CHECK_INT(contains(&fx, CHART0 ".dat", "# flag=on"), 0);
	/* producers=2 still has its flag=off point: no key entry of its own */
	CHECK_INT(contains(&fx, CHART1 ".gp", "keyentry"), 0);
	/* only off drawn: a range around it, where gnuplot warned of an empty one */
	CHECK_INT(contains(&fx, CHART1 ".gp", "set xrange [-0.5:0.5]\n"), 1);
	if (err != -ENOENT)
		CHECK_INT(err, 0);
	fixture_clean(&fx);
}

/*
 * A point with quality flags is drawn hollow: the .dat's last column says
 * which, the .gp draws a white disc and an open circle over those points
 * of its series only, and the key names the flags.  A stalled point is
 * left out (never a 0), and the caption says so.
 */
TEST(flagged_points_hollow)
{
	struct fixture fx;
	int err;

	CHECK_INT(fixture_init(&fx), 0);
	fx.res[2].quality.flags = QF_CV | QF_INTERFERENCE;	/* producers=2 flag=off */
	fx.res[4].quality.flags = QF_ZERO;			/* producers=4 flag=off */
	fx.res[5].status = PS_STALLED;				/* producers=4 flag=on */
	err = plot_render(fx.dir, &fx.cfg, NULL, fx.res, NR_PTS, 0);
	CHECK_INT(contains(&fx, CHART0 ".dat",
			   "# flag=off\n"
			   "1 1.000000 0.040000 \"1\" 0\n"
			   "2 2.000000 0.040000 \"2\" 1\n"
			   "4 4.000000 0.040000 \"4\" 1\n"
			   "\n\n# flag=on\n"
			   "1 2.000000 0.040000 \"1\" 0\n"), 1);
	CHECK_INT(contains(&fx, CHART0 ".dat", "\n4 5.000000"), 0);	/* stalled: not drawn */
	CHECK_INT(contains(&fx, CHART0 ".gp",
			   "index 0 using 1:2:3 title 'flag=off' with yerrorlines linecolor 1 "
			   "pointtype 7, \\\n"
			   "     \"\" index 0 using 1:($5 > 0 ? $2 : 1/0) notitle with points "
			   "linecolor rgb \"white\" pointtype 7, \\\n"
			   "     \"\" index 0 using 1:($5 > 0 ? $2 : 1/0) notitle with points "
			   "linecolor 1 pointtype 6, \\\n"
			   "     \"\" index 1 using 1:2:3 title 'flag=on' with yerrorlines "
			   "linecolor 2 pointtype 7, \\\n"
			   "     keyentry with points linecolor rgb \"black\" pointtype 6 title "
			   "'hollow: flagged cv, zero, interference (see the table)'\n"), 1);
	/* the clean series has no hollow markers */
	CHECK_INT(contains(&fx, CHART0 ".gp", "index 1 using 1:($5"), 0);
	CHECK_INT(contains(&fx, CHART0 ".gp", "title 'error bars: 95% CI of the mean over 3 "
			   "repetitions, 1 stalled point left out (counted nothing)'\n"), 1);
	/* the other chart of the experiment draws drops: the same points hollow */
	CHECK_INT(contains(&fx, CHART1 ".gp", "hollow: flagged cv, zero, interference"), 1);
	if (err != -ENOENT)
		CHECK_INT(err, 0);
	if (!err)
		check_images(&fx, CHART0);
	fixture_clean(&fx);
}

/* A --quick run's chart says it is a smoke run, in its escaped title. */
TEST(smoke_run_title)
{
	const struct run_facts facts = { .quick = true };
	struct fixture fx;
	int err;

	CHECK_INT(fixture_init(&fx), 0);
	err = plot_render(fx.dir, &fx.cfg, &facts, fx.res, NR_PTS, 0);
	CHECK_INT(contains(&fx, CHART0 ".gp",
			   "set title 'Null: \"quoted\" title (smoke run: --quick)'"), 1);
	if (err != -ENOENT)
		CHECK_INT(err, 0);
	fixture_clean(&fx);
}

/* So does a TCG run's chart, without a machine for a chart of several runs. */
TEST(tcg_run_title)
{
	const struct run_facts facts = { .tcg = true };
	struct fixture fx;
	int err;

	CHECK_INT(fixture_init(&fx), 0);
	err = plot_render(fx.dir, &fx.cfg, &facts, fx.res, NR_PTS, 0);
	CHECK_INT(contains(&fx, CHART0 ".gp", "set title 'Null: \"quoted\" title (VM under "
			   "TCG emulation: for function, not performance)'"), 1);
	if (err != -ENOENT)
		CHECK_INT(err, 0);
	fixture_clean(&fx);
}

/* Notes that would run the title off the chart go on a line of their own. */
TEST(long_notes_own_line)
{
	const struct run_facts facts = { .quick = true, .tcg = true };
	struct fixture fx;
	int err;

	CHECK_INT(fixture_init(&fx), 0);
	err = plot_render(fx.dir, &fx.cfg, &facts, fx.res, NR_PTS, 0);
	CHECK_INT(contains(&fx, CHART0 ".gp", "set title 'Null: \"quoted\" title' . \"\\n\" . '(smoke "
			   "run: --quick) (VM under TCG emulation: for function, not performance)'"),
		  1);
	if (err != -ENOENT)
		CHECK_INT(err, 0);
	fixture_clean(&fx);
}

/*
 * The .dat and .gp only: gnuplot off $PATH, its "not found" silenced.
 * For the tests of what the scripts say, which need no image.
 */
static void write_scripts(struct fixture *fx, const struct run_facts *facts)
{
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	FILE *null = fopen("/dev/null", "w");

	diag_set_stream(null);
	setenv("PATH", "/nonexistent", 1);
	plot_render(fx->dir, &fx->cfg, facts, fx->res, NR_PTS, 0);
	if (path)
		setenv("PATH", path, 1);
	free(path);
	diag_set_stream(NULL);
	if (null)
		fclose(null);
}

/* One run's machine, kernel and tags under the title, escaped like every user string. */
TEST(subtitle)
{
	struct run_facts facts = { .arch = "x86_64", .cpu_model = "AMD EPYC 9654",
				   .kernel_release = "6.18.0" };
	struct fixture fx;

	snprintf(facts.tags, sizeof(facts.tags), "m=`id`@x, k=b");
	CHECK_INT(fixture_init(&fx), 0);
	write_scripts(&fx, &facts);
	CHECK_INT(contains(&fx, CHART0 ".gp", "set title 'Null: \"quoted\" title' . \"\\n\" . "
			   "'x86_64 (AMD EPYC 9654), kernel 6.18.0, m=`id`@x, k=b' "),
		  1);
	fixture_clean(&fx);
	/* unknown facts are left out; no facts (several runs): no second line */
	facts = (struct run_facts){ .arch = "unknown", .kernel_release = "6.1" };
	CHECK_INT(fixture_init(&fx), 0);
	write_scripts(&fx, &facts);
	CHECK_INT(contains(&fx, CHART0 ".gp", "title' . \"\\n\" . 'kernel 6.1' "), 1);
	write_scripts(&fx, NULL);
	CHECK_INT(contains(&fx, CHART0 ".gp", "\\n"), 0);
	fixture_clean(&fx);
}

/*
 * The bars are the 95 % interval over independent units, and the key says
 * over how many and of what; a point with fewer than 2 units (one
 * repetition, imported numbers) gets none, and the key says that too.
 */
TEST(caption)
{
	struct fixture fx;

	CHECK_INT(fixture_init(&fx), 0);
	fx.res[0].unit[M_HITS].n = 5;
	write_scripts(&fx, NULL);
	CHECK_INT(contains(&fx, CHART0 ".gp", "'error bars: 95% CI of the mean over 3-5 "
			   "repetitions'\n"), 1);
	fx.res[0].unit[M_HITS] = (struct units){ .kind = UK_BATCH, .n = 12, .ci95 = 1e4 };
	write_scripts(&fx, NULL);
	CHECK_INT(contains(&fx, CHART0 ".gp", "over 3-12 units (repetitions, batches)'\n"), 1);
	CHECK_INT(contains(&fx, CHART0 ".dat", "\n1 1.000000 0.010000 \"1\" 0\n"), 1);
	/* one repetition, and an imported row: no bar, said */
	fx.res[0].unit[M_HITS] = (struct units){ .kind = UK_REP, .n = 1, .ci95 = NAN };
	fx.res[1].unit[M_HITS] = (struct units){ .kind = UK_NONE };
	write_scripts(&fx, NULL);
	CHECK_INT(contains(&fx, CHART0 ".gp", "'error bars: 95% CI of the mean over 3 repetitions, "
			   "none on 2 points with fewer than 2'\n"), 1);
	CHECK_INT(contains(&fx, CHART0 ".dat", "\n1 1.000000 0.000000 \"1\" 0\n"), 1);
	CHECK_INT(contains(&fx, CHART0 ".gp", "with yerrorlines"), 1);
	/* none has 2: lines and points, no bar in the key either */
	for (int i = 0; i < NR_PTS; i++)
		fx.res[i].unit[M_HITS] = (struct units){ .kind = UK_REP, .n = 1, .ci95 = NAN };
	write_scripts(&fx, NULL);
	CHECK_INT(contains(&fx, CHART0 ".gp", "'no error bars: fewer than 2 independent units per "
			   "point'\n"), 1);
	CHECK_INT(contains(&fx, CHART0 ".gp", "index 0 using 1:2 title 'flag=off' with linespoints"),
		  1);
	CHECK_INT(contains(&fx, CHART0 ".gp", "with yerrorlines"), 0);
	fixture_clean(&fx);
}

/*
 * logx: auto logs x that spans more than 8 times, on any positive x, off
 * never; a log axis is base 2 with the x values as tics.
 */
TEST(logx)
{
	struct fixture fx;

	CHECK_INT(fixture_init(&fx), 0);
	fx.e[0].logx = LOGX_OFF;
	fx.e[1].logx = LOGX_ON;
	write_scripts(&fx, NULL);
	CHECK_INT(contains(&fx, CHART0 ".gp", "set logscale"), 0);
	/* producers 1 2: a span of 2, logged only because logx = on */
	CHECK_INT(contains(&fx, CHART2 ".gp", "set logscale x 2\n"), 1);
	CHECK_INT(contains(&fx, CHART2 ".gp", "set xtics ('1' 1, '2' 2)\n"), 1);
	fx.e[0].logx = LOGX_ON;
	fx.e[1].logx = LOGX_AUTO;
	write_scripts(&fx, NULL);
	CHECK_INT(contains(&fx, CHART0 ".gp", "set logscale x 2\n"), 1);
	CHECK_INT(contains(&fx, CHART0 ".gp", "set xtics ('1' 1, '2' 2, '4' 4)\n"), 1);
	CHECK_INT(contains(&fx, CHART2 ".gp", "set logscale"), 0);
	/* on/off x has no log axis: drawn by position */
	CHECK_INT(contains(&fx, CHART1 ".gp", "set logscale"), 0);
	CHECK_INT(contains(&fx, CHART1 ".gp", "set xtics"), 0);
	fixture_clean(&fx);
}

/* auto: producers 1 3 52 span 52 times, log2, every value a tic, the range just around them. */
TEST(logx_auto_span)
{
	static const long long prod[] = { 1, 1, 3, 3, 52, 52 };
	struct fixture fx;

	CHECK_INT(fixture_init(&fx), 0);
	for (int i = 0; i < 6; i++)
		fx.pts[i].wp.v[P_PRODUCERS] = prod[i];
	write_scripts(&fx, NULL);
	CHECK_INT(contains(&fx, CHART0 ".gp", "set logscale x 2\nset xrange [0.888219:58.5441]\n"), 1);
	CHECK_INT(contains(&fx, CHART0 ".gp", "set xtics ('1' 1, '3' 3, '52' 52)\n"),
		  1);
	CHECK_INT(contains(&fx, CHART0 ".dat", "\n52 4.000000 0.040000 \"52\" 0\n"), 1);
	/* 1 2 (experiment 2) span twice: linear */
	CHECK_INT(contains(&fx, CHART2 ".gp", "set logscale"), 0);
	fixture_clean(&fx);
}

/* Names: the experiment's number, not its title; the same chart twice gets "-2". */
TEST(short_names)
{
	static char long_title[400];
	struct fixture fx;

	memset(long_title, 'w', sizeof(long_title) - 1);
	CHECK_INT(fixture_init(&fx), 0);
	fx.e[0].title = long_title;
	fx.e[0].plots[2] = fx.e[0].plots[0];
	fx.e[0].nr_plots = 3;
	write_scripts(&fx, NULL);
	CHECK_INT(contains(&fx, CHART0 ".dat", "# flag=off"), 1);
	CHECK_INT(contains(&fx, CHART0 "-2.dat", "# flag=off"), 1);
	CHECK_INT(contains(&fx, CHART0 "-2.gp", "out = '" CHART0 "-2'"), 1);
	CHECK_INT(contains(&fx, CHART2 ".gp", "plot \"" CHART2 ".dat\""), 1);
	fixture_clean(&fx);
}

/*
 * Each metric in its own unit, as the table shows it: a counter in k/s, a
 * gauge in MiB; a gauge that could not be read is no point of the chart.
 */
TEST(units_and_gauges)
{
	static const struct metric_def metrics[] = {
		{ .name = "hits", .kind = MK_COUNTER, .unit = "k/s" },
		{ .name = "mem_peak", .kind = MK_GAUGE, .unit = "MiB", .source = MS_MEMCG_PEAK },
	};
	static struct workload wl;
	struct fixture fx;

	wl = null_workload;
	wl.metrics = metrics;
	CHECK_INT(fixture_init(&fx), 0);
	fx.cfg.wl = &wl;
	fx.cfg.nr_exps = 1;
	for (int i = 0; i < NR_PTS; i++) {
		fx.pts[i].wp.wl = &wl;
		fx.res[i].stat[1] = (struct summary){ .mean = fx.pts[i].wp.v[P_PRODUCERS] * MIB,
						      .stddev = MIB / 2, .n = 10 };
	}
	fx.res[0].stat[1].mean = NAN;	/* producers=1 flag=off: no memory controller */
	write_scripts(&fx, NULL);
	CHECK_INT(contains(&fx, CHART0 ".gp", "set ylabel 'hits (k/s)'"), 1);
	CHECK_INT(contains(&fx, CHART0 ".dat", "# flag=off\n1 1000.000000 40.000000 \"1\" 0\n"), 1);
	CHECK_INT(contains(&fx, GAUGE ".gp", "set ylabel 'mem_peak (MiB)'"), 1);
	CHECK_INT(contains(&fx, GAUGE ".dat",
			   "# producers=1\n"
			   "1 1.000000 0.000000 \"on\" 0\n"
			   "\n\n# producers=2\n"
			   "0 2.000000 0.000000 \"off\" 0\n"), 1);
	CHECK_INT(contains(&fx, GAUGE ".dat", "nan"), 0);
	fixture_clean(&fx);
}

RUN_TESTS(titles_round_trip, template_is_found, render_charts, missing_gnuplot, nothing_to_draw,
	  unsupported_series_in_key, flagged_points_hollow, smoke_run_title, tcg_run_title,
	  long_notes_own_line,
	  subtitle, caption, logx, logx_auto_span, short_names, units_and_gauges)
