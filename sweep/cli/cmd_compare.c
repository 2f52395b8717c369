// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsweep compare BASE NEW [NEW...]: each NEW result set against BASE,
 * point by point (matched by parameter values, compare.c), metric by metric
 * (Welch t-test of the independent units of the interval rates: units.h),
 * printed by compare_print.c.
 * Exit 1 when --fail-above finds a regression, 2 for usage errors.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cmd_compare.h"
#include "compare_profile.h"
#include "compare_print.h"
#include "diag.h"
#include "htmlcompare.h"
#include "opterr.h"
#include "readlock.h"
#include "runfacts.h"
#include "units.h"

struct compare_opts {
	double alpha;
	enum out_format fmt;
	double fail_above;	/* percent; < 0: not given */
	const char *ignore[CLI_MAX_ARGS];	/* --ignore PARAM: not part of the match */
	int nr_ignore;
	bool allow_tcg;		/* --allow-tcg: compare a TCG set with one that is not */
	bool paired;		/* --paired: BASE NEW of each round, NEW / BASE over them */
	bool profile;		/* --profile: per point, the symbols whose share moved */
	bool html;		/* --html: one HTML page (htmlcompare.h) instead of -f */
};

static const char compare_help[] =
	"usage: bpfsweep compare BASE NEW [NEW...] [OPTIONS]\n"
	"       bpfsweep compare --paired BASE NEW [BASE NEW...] [OPTIONS]\n"
	"compare result directories point by point: Δ% and a Welch t-test per metric\n\n"
	"  -a, --alpha A        significance level of the test (default 0.05)\n"
	"  -f, --format F       text (default), markdown, csv or json\n"
	"      --html           one static HTML page on stdout, regressions first\n"
	"                       (docs/html.md)\n"
	"      --fail-above PCT exit 1 when the headline metric of a point got\n"
	"                       significantly worse by more than PCT percent (a\n"
	"                       point flagged noisy is inconclusive, not counted)\n"
	"  -i, --ignore PARAM   match points without this parameter (repeatable)\n"
	"      --paired         the directories are rounds run interleaved, BASE NEW\n"
	"                       BASE NEW ...: per point NEW / BASE, the geometric\n"
	"                       mean of the rounds' ratios (text or csv)\n"
	"      --profile        per point, the kernel symbols whose share of its profile\n"
	"                       moved most (sets run with profile = on; text)\n"
	"      --allow-tcg      compare a set run in a VM under TCG emulation with one\n"
	"                       that was not (refused otherwise: TCG numbers are for\n"
	"                       function, not performance)\n"
	"  -h, --help           this help\n\n"
	"exit status: 0 done, 1 a regression beyond --fail-above, 2 usage error\n"
	"details: docs/compare.md\n";

/* A number in (0, 1) for --alpha, [0, inf) for --fail-above, or -EINVAL. */
static int parse_number(const char *arg, const char *opt, bool level, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (errno || end == arg || *end || !(level ? *v > 0 && *v < 1 : *v >= 0 && *v < INFINITY)) {
		diag_err("%s expects %s, not '%s'", opt, level ? "a level between 0 and 1 (0.05)" :
			 "a percentage (5 for 5%)", arg);
		return -EINVAL;
	}
	return 0;
}

static int add_ignore(struct compare_opts *o, const char *param)
{
	if (o->nr_ignore == CLI_MAX_ARGS) {
		diag_err("too many --ignore options (at most %d)", CLI_MAX_ARGS);
		return -E2BIG;
	}
	o->ignore[o->nr_ignore++] = param;
	return 0;
}

/* --paired gives ratios, not verdicts: no --fail-above, text or csv, pairs of sets. */
static int check_paired(const struct compare_opts *o, int nr_dirs)
{
	if (!o->paired)
		return 0;
	if (nr_dirs % 2) {
		diag_err("--paired takes BASE NEW of each round: an even number of directories");
		return -EINVAL;
	}
	if (o->fail_above >= 0) {
		diag_err("--paired gives ratios, no verdicts: --fail-above does not apply");
		return -EINVAL;
	}
	if ((o->fmt != OF_TEXT && o->fmt != OF_CSV) || o->html) {
		diag_err("--paired prints text or csv");
		return -EINVAL;
	}
	return 0;
}

/* --profile prints text, after the table of sets compared point by point. */
static int check_profile(const struct compare_opts *o)
{
	if (o->profile && (o->paired || o->html || o->fmt != OF_TEXT)) {
		diag_err("--profile prints text: not with --paired or --html");
		return -EINVAL;
	}
	return 0;
}

/* Returns -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, struct compare_opts *o)
{
	static const struct option longopts[] = {
		{ "alpha", required_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'f' },
		{ "fail-above", required_argument, NULL, 'F' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "allow-tcg", no_argument, NULL, 'T' },
		{ "paired", no_argument, NULL, 'P' },
		{ "profile", no_argument, NULL, 'R' },
		{ "html", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int opt, err = 0;

	*o = (struct compare_opts){ .alpha = 0.05, .fmt = OF_TEXT, .fail_above = -1 };
	while (!err && (opt = getopt_long(argc, argv, ":a:f:i:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			err = parse_number(optarg, "--alpha", true, &o->alpha);
			break;
		case 'f':
			err = out_format_parse(optarg, &o->fmt);
			break;
		case 'F':
			err = parse_number(optarg, "--fail-above", false, &o->fail_above);
			break;
		case 'i':
			err = add_ignore(o, optarg);
			break;
		case 'T':
			o->allow_tcg = true;
			break;
		case 'P':
			o->paired = true;
			break;
		case 'R':
			o->profile = true;
			break;
		case 'H':
			o->html = true;
			break;
		case 'h':
			fputs(compare_help, stdout);
			return EXIT_OK;
		default:
			/* one line and a pointer to --help, not the help itself */
			opt_error(opt, argv, longopts, "bpfsweep compare");
			return EXIT_USAGE;
		}
	}
	if (!err && argc - optind < 2) {
		diag_err("compare needs BASE and at least one NEW result directory");
		err = -EINVAL;
	}
	if (!err)
		err = check_paired(o, argc - optind) ?: check_profile(o);
	if (err)
		fputs(compare_help, stderr);
	return err ? EXIT_USAGE : -1;
}

static int load_set(const char *dir, struct result_set **rs)
{
	char why[512];
	struct stat st;
	int err;

	if (stat(dir, &st)) {
		err = -errno;
		diag_err("%s: %s", dir, strerror(-err));
		return err;
	}
	if (!S_ISDIR(st.st_mode)) {
		diag_err("%s: not a result directory", dir);
		return -ENOTDIR;
	}
	err = results_read(dir, rs, why, sizeof(why));
	if (err) {
		results_read_diag(dir, err, why);
		return err;
	}
	if (!(*rs)->has_summary || (*rs)->summary.nr_rows < 1) {
		diag_err("%s: not a result directory (no summary.csv)", dir);
		result_set_free(*rs);
		*rs = NULL;
		return -EINVAL;
	}
	return 0;
}

/* A cell as a count; false when empty: a value not recorded (a gauge unread, stats off). */
static bool cell_count(const char *cell, double *x)
{
	if (!*cell)
		return false;
	*x = strtod(cell, NULL);
	return true;
}

/* The columns a metric's value comes from: its own, or ns_per_run's two counters. */
struct value_cols {
	enum cmp_kind kind;
	int col;		/* the metric's; prog_ns for ns_per_run */
	int runs_col;		/* prog_runs, for ns_per_run */
};

/*
 * Metric's value in a measured samples row: a counter's per-second rate,
 * a gauge's level, ns per program run; false for a warmup row, one of no
 * length, an interval where no program ran, or a value not recorded
 * (*unknown set).
 */
static bool measured_value(char **f, const struct value_cols *vc, double *x, bool *unknown)
{
	double ns = strtod(f[RS_S_ELAPSED], NULL), runs = 0;
	bool per_run = vc->kind == CMP_PER_RUN;

	if (strcmp(f[RS_S_WARMUP], "0") || !(ns > 0))
		return false;
	if (vc->col < 0 || !cell_count(f[vc->col], x) ||
	    (per_run && (vc->runs_col < 0 || !cell_count(f[vc->runs_col], &runs)))) {
		*unknown = true;
		return false;
	}
	if (vc->kind == CMP_RATE)
		*x = *x * 1e9 / ns;
	else if (per_run && runs > 0)
		*x /= runs;
	return !per_run || runs > 0;
}

static void value_cols_of(const struct result_set *rs, const char *metric, enum cmp_kind kind,
			  struct value_cols *vc)
{
	*vc = (struct value_cols){ .kind = kind, .col = csv_column(&rs->samples, metric),
				   .runs_col = -1 };
	if (kind == CMP_PER_RUN) {
		vc->col = csv_column(&rs->samples, "prog_ns");
		vc->runs_col = csv_column(&rs->samples, "prog_runs");
	}
}

/* A summary cell as a number; NaN when absent or empty. */
static double summary_number(const struct result_set *rs, int row, const char *metric,
			     const char *stat)
{
	char col[300];
	int c;

	snprintf(col, sizeof(col), "%s_%s", metric, stat);
	c = result_summary_col(rs, col);
	return c < 0 || !*rs->summary.rows[row][c] ? NAN : strtod(rs->summary.rows[row][c], NULL);
}

/*
 * Where samples.csv holds no value (an imported set, ns_per_run measured
 * apart from the intervals), the summary row: a metric's mean with its
 * independent units' sd and count (units.h) where the row has them, else
 * its mean and stddev with n -1, not known: the bench's own samples are
 * intervals of one run, whose independence nobody measured; ns_per_run's
 * statistics are of one pass's intervals, n not known either.
 */
static void summary_moments(const struct result_set *rs, int row, const char *metric,
			    enum cmp_kind kind, struct cmp_moments *m)
{
	double units;

	if (kind == CMP_PER_RUN) {
		*m = (struct cmp_moments){ .mean = summary_number(rs, row, metric, "mean"),
					   .sd = summary_number(rs, row, metric, "stddev"),
					   .n = -1 };
		return;
	}
	*m = (struct cmp_moments){ .mean = result_summary_stat(rs, row, metric, "mean"),
				   .sd = result_summary_stat(rs, row, metric, "stddev"), .n = -1 };
	units = result_summary_stat(rs, row, metric, "units");
	if (!isnan(units)) {
		m->sd = result_summary_stat(rs, row, metric, "unit_sd");
		m->n = (long)units;
	}
}

/*
 * A point's moments: of the independent units (units.h, the run's own
 * rule) its measured intervals' values in samples.csv make, or, where
 * samples.csv holds none, from its summary row.  A value a side did not
 * record (an empty cell) has none: its mean is NaN, shown as n/a.
 */
static int point_moments(const struct result_set *rs, int row, const char *metric,
			 enum cmp_kind kind, struct cmp_moments *m)
{
	const struct result_point *pt = &rs->points[row - 1];
	int *rep = calloc(pt->nr_samples + 1, sizeof(*rep));
	double *x = calloc(pt->nr_samples + 1, sizeof(*x));
	struct value_cols vc;
	bool unknown = false;
	struct units u;
	int n = 0, err = x && rep ? 0 : -ENOMEM;

	if (!err)
		value_cols_of(rs, metric, kind, &vc);
	for (int i = 0; !err && vc.col >= 0 && i < pt->nr_samples; i++) {
		char **f = rs->samples.rows[pt->sample_rows[i]];

		rep[n] = (int)strtol(f[RS_S_REP], NULL, 10);
		n += measured_value(f, &vc, &x[n], &unknown);
	}
	if (!err)
		err = units_of(x, rep, n, &u);
	free(x);
	free(rep);
	if (err)
		return err;
	*m = (struct cmp_moments){ .mean = u.mean, .sd = u.sd, .n = u.n };
	if (n == 0 && pt->n != 0 && (kind == CMP_PER_RUN || !unknown))
		summary_moments(rs, row, metric, kind, m);
	else if (unknown || (kind == CMP_PER_RUN && n == 0))
		*m = (struct cmp_moments){ .mean = NAN, .sd = NAN, .n = n };
	return 0;
}

static int compare_metrics(struct comparison *c, struct point_cmp *p, double alpha)
{
	int err = 0;

	p->m = calloc(c->nr_metrics + 1, sizeof(*p->m));
	if (!p->m)
		return -ENOMEM;
	compare_point_flags(c, p);
	for (int i = 0; !err && i < c->nr_metrics; i++) {
		struct metric_cmp *m = &p->m[i];

		m->metric = c->metrics[i];
		m->info = &c->info[i];
		err = point_moments(c->base, p->base_row, m->metric, m->info->kind, &m->base);
		if (!err)
			err = point_moments(c->new, p->new_row, m->metric, m->info->kind, &m->new);
		cmp_welch(&m->base, &m->new, &m->test);
		m->tested = cmp_verdict_of(&m->base, &m->new, &m->test, alpha, m->info->dir);
		m->verdict = cmp_veto(m->tested, compare_point_flagged(p));
		m->delta_pct = cmp_delta_pct(m->base.mean, m->new.mean);
	}
	return err;
}

/* "unsupported: why" of a point not ok, "" of one that is. */
static void not_ok_text(const struct result_set *rs, const struct result_point *pt, char *buf,
			size_t len)
{
	int col = result_summary_col(rs, "reason");
	const char *why = col >= 0 ? rs->summary.rows[pt->row][col] : "";

	buf[0] = '\0';
	if (strcmp(pt->status, "ok"))
		snprintf(buf, len, "%s%s%s", pt->status, *why ? ": " : "", why);
}

/* Both sides must be ok to compare; say why not otherwise, the same cause once. */
static void state_of(const struct comparison *c, struct point_cmp *p)
{
	const struct result_point *b = p->base_row > 0 ? &c->base->points[p->base_row - 1] : NULL;
	const struct result_point *n = p->new_row > 0 ? &c->new->points[p->new_row - 1] : NULL;
	char bwhy[200], nwhy[200];

	p->state = !b ? PS_NEW_ONLY : !n ? PS_BASE_ONLY : PS_COMPARED;
	if (p->state != PS_COMPARED)
		return;
	not_ok_text(c->base, b, bwhy, sizeof(bwhy));
	not_ok_text(c->new, n, nwhy, sizeof(nwhy));
	if (!*bwhy && !*nwhy)
		return;
	p->state = PS_NOT_COMPARED;
	if (!strcmp(bwhy, nwhy))
		snprintf(p->reason, sizeof(p->reason), "both %s", bwhy);
	else
		snprintf(p->reason, sizeof(p->reason), "%s%s%s%s%s", *bwhy ? "base " : "", bwhy,
			 *bwhy && *nwhy ? "; " : "", *nwhy ? "new " : "", nwhy);
}

/* Is name a parameter of the match, or one --ignore leaves out of it? */
static bool matched_or_ignored(const struct comparison *c, const struct compare_opts *o,
			       const char *name)
{
	for (int p = 0; p < c->join.nr_params; p++)
		if (!strcmp(c->join.params[p], name))
			return true;
	for (int i = 0; i < o->nr_ignore; i++)
		if (!strcmp(o->ignore[i], name))
			return true;
	return false;
}

/*
 * Parameters of one set only (constant there, cmp_join checked) are not
 * part of the match: one note per side names them with their values.
 */
static void one_side_note(struct comparison *c, const struct compare_opts *o,
			  const struct result_set *rs, const char *side)
{
	char list[400];
	size_t n = 0;

	list[0] = '\0';
	for (int k = rs->first_param; rs->summary.nr_rows > 1 &&
	     k < rs->first_param + rs->nr_params && n < sizeof(list); k++)
		if (!matched_or_ignored(c, o, rs->summary.rows[0][k]))
			n += snprintf(list + n, sizeof(list) - n, "%s%s=%s", n ? " " : "",
				      rs->summary.rows[0][k], rs->summary.rows[1][k]);
	if (n)
		compare_note(c, "only in %s, not part of the match: %s", side, list);
}

static void ignore_note(struct comparison *c, const struct compare_opts *o)
{
	char list[400];
	size_t n = 0;

	for (int i = 0; i < o->nr_ignore && n < sizeof(list); i++)
		n += snprintf(list + n, sizeof(list) - n, "%s%s", i ? " " : "", o->ignore[i]);
	if (n)
		compare_note(c, "left out of the match (--ignore): %s", list);
}

static int build(struct comparison *c, const struct compare_opts *o)
{
	char why[512];
	int err = cmp_join(&c->base->summary, &c->new->summary, o->ignore, o->nr_ignore,
			   &c->join, why, sizeof(why));

	if (err) {
		diag_err("%s vs %s: %s", c->base_dir, c->new_dir, why);
		return err;
	}
	one_side_note(c, o, c->base, "BASE");
	one_side_note(c, o, c->new, "NEW");
	ignore_note(c, o);
	if (!c->join.by_title)
		compare_note(c, "experiment titles differ: points matched by parameters alone");
	if (!compare_headlines_shared(c, why, sizeof(why))) {
		diag_err("%s vs %s: %s", c->base_dir, c->new_dir, why);
		return -EINVAL;
	}
	err = compare_common_metrics(c);
	c->pts = calloc(c->join.nr + 1, sizeof(*c->pts));
	if (err || !c->pts)
		return -ENOMEM;
	for (int i = 0; i < c->join.nr; i++) {
		struct point_cmp *p = &c->pts[c->nr_pts++];

		p->base_row = c->join.m[i].base_row;
		p->new_row = c->join.m[i].new_row;
		p->experiment = p->base_row > 0 ? c->base->points[p->base_row - 1].experiment :
			c->new->points[p->new_row - 1].experiment;
		state_of(c, p);
		if (p->state == PS_COMPARED)
			err = err ?: compare_metrics(c, p, o->alpha);
	}
	return err ?: compare_labels(c);
}

/* Both sets must share metrics and at least one point. */
static int check_common(const struct comparison *c)
{
	int matched = 0;

	for (int i = 0; i < c->nr_pts; i++)
		matched += c->pts[i].base_row > 0 && c->pts[i].new_row > 0;
	if (c->nr_metrics && matched)
		return 0;
	diag_err("%s vs %s: nothing in common (%s)", c->base_dir, c->new_dir,
		 c->nr_metrics ? "no point has the same parameter values" : "no metric");
	return -EINVAL;
}

/* A point ok in BASE that failed or was cut short in NEW: a CI gate must not pass it. */
static bool broke(const struct comparison *c, const struct point_cmp *p)
{
	const char *was, *now;

	if (p->state != PS_NOT_COMPARED)
		return false;
	was = c->base->points[p->base_row - 1].status;
	now = c->new->points[p->new_row - 1].status;
	return !strcmp(was, "ok") && (!strcmp(now, "failed") || !strcmp(now, "interrupted"));
}

/* Is m's change a regression beyond pct, by the test alone? */
static bool beyond(const struct metric_cmp *m, double pct)
{
	return m->tested == CMP_REGRESSED && fabs(m->delta_pct) > pct;
}

/*
 * Regressions of the headline metric beyond pct, and points that broke,
 * named on stderr.  A flagged point's change is inconclusive, not one of
 * them: *inconclusive counts those points, and those the test alone would
 * have called a regression beyond pct are named.
 */
static int count_regressions(const struct comparison *c, double pct, int *inconclusive)
{
	int nr = 0;

	for (int i = 0; i < c->nr_pts; i++) {
		const struct point_cmp *p = &c->pts[i];
		const struct metric_cmp *m = p->m;

		if (broke(c, p)) {
			diag_err("regression: %s: %s: %s: %s", c->new_dir, p->experiment,
				 p->label, p->reason);
			nr++;
			continue;
		}
		if (p->state != PS_COMPARED)
			continue;
		*inconclusive += m->verdict == CMP_INCONCLUSIVE;
		if (!beyond(m, pct))
			continue;
		if (m->verdict == CMP_INCONCLUSIVE) {
			diag_warn("inconclusive, not counted: %s: %s: %s: %s %+.2f%% (p=%.3g), "
				  "flagged: %s%s%s", c->new_dir, p->experiment, p->label, m->metric,
				  m->delta_pct, m->test.p, p->flags[0], *p->flags[0] &&
				  *p->flags[1] ? "; " : "", p->flags[1]);
			continue;
		}
		diag_err("regression beyond %g%%: %s: %s: %s: %s %+.2f%% (p=%.3g)", pct,
			 c->new_dir, p->experiment, p->label, m->metric, m->delta_pct,
			 m->test.p);
		nr++;
	}
	return nr;
}

static void comparison_free(struct comparison *c)
{
	for (int i = 0; i < c->nr_pts; i++)
		free(c->pts[i].m);
	free(c->pts);
	for (int i = 0; i < c->nr_metrics; i++)
		free(c->metrics[i]);
	free(c->metrics);
	free(c->info);
	cmp_join_free(&c->join);
}

/*
 * An emulated CPU's numbers against a real one's would show a "regression"
 * of the emulation, not of the change: refused unless --allow-tcg.
 */
static int check_tcg(const struct comparison *c, const struct compare_opts *o)
{
	bool base = run_is_tcg(c->base), new = run_is_tcg(c->new);

	if (base == new || o->allow_tcg)
		return 0;
	diag_err("%s vs %s: %s ran in a VM under TCG emulation and %s did not: TCG numbers are "
		 "for function, not performance (--allow-tcg compares them anyway)",
		 c->base_dir, c->new_dir, base ? "BASE" : "NEW", base ? "NEW" : "BASE");
	return -EINVAL;
}

static int compare_all(struct comparison *cs, int nr, const struct compare_opts *o)
{
	int err = 0, regressions = 0, inconclusive = 0;

	for (int i = 0; !err && i < nr; i++) {
		err = check_tcg(&cs[i], o);
		if (!err)
			err = build(&cs[i], o);
		if (!err)
			err = check_common(&cs[i]);
	}
	if (err)
		return EXIT_USAGE;
	if (o->paired)
		err = compare_paired_print(stdout, o->fmt, cs, nr, o->alpha);
	else if (o->html)
		err = html_compare(stdout, cs, nr, o->alpha);
	else
		err = compare_print(stdout, o->fmt, cs, nr, o->alpha);
	if (!err && o->profile)
		err = compare_profiles_print(stdout, cs, nr, o->alpha);
	if (err || fflush(stdout)) {
		diag_err("writing the comparison: %s", strerror(err ? -err : errno));
		return EXIT_POINTS_FAILED;
	}
	for (int i = 0; o->fail_above >= 0 && i < nr; i++)
		regressions += count_regressions(&cs[i], o->fail_above, &inconclusive);
	if (o->fail_above >= 0)
		diag_warn("--fail-above %g%%: %d regression%s; %d point%s inconclusive (quality "
			  "flags), not counted", o->fail_above, regressions,
			  regressions == 1 ? "" : "s", inconclusive, inconclusive == 1 ? "" : "s");
	return regressions ? EXIT_POINTS_FAILED : EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	struct result_set **sets;
	struct comparison *cs;
	struct read_locks locks = { 0 };
	int status = parse_args(argc, argv, &o), nr_sets = argc - optind, nr_cs = 0, err = 0;

	if (status >= 0)
		return status;
	sets = calloc(nr_sets, sizeof(*sets));
	cs = calloc(nr_sets, sizeof(*cs));
	if (!sets || !cs)
		err = -ENOMEM;
	/* read under shared locks: a set a run is writing is refused (readlock.h) */
	if (!err)
		err = read_locks_take(&locks, (const char *const *)argv + optind, nr_sets);
	for (int i = 0; !err && i < nr_sets; i++)
		err = load_set(argv[optind + i], &sets[i]);
	read_locks_release(&locks);
	/* each NEW against the one BASE, or (--paired) each round's NEW against its BASE */
	nr_cs = o.paired ? nr_sets / 2 : nr_sets - 1;
	for (int i = 0; !err && i < nr_cs; i++) {
		int b = o.paired ? 2 * i : 0, n = o.paired ? 2 * i + 1 : i + 1;

		cs[i] = (struct comparison){ .base_dir = argv[optind + b],
					     .new_dir = argv[optind + n], .base = sets[b],
					     .new = sets[n] };
	}
	status = err ? EXIT_USAGE : compare_all(cs, nr_cs, &o);
	for (int i = 0; cs && i < nr_cs; i++)
		comparison_free(&cs[i]);
	for (int i = 0; sets && i < nr_sets; i++)
		result_set_free(sets[i]);
	free(cs);
	free(sets);
	return status;
}
