// SPDX-License-Identifier: GPL-2.0
/*
 * Binding: the syntax tree of a spec, checked against the workload's
 * parameter table, becomes a typed sweep configuration (model.h).  Every
 * mistake is reported at the file:line:col of the text that made it, and
 * binding goes on after one so that a single run of `check` shows them all.
 *
 * Here: which section is which, [sweep], and each [params] section's axes.
 * The value grammar is bindval.c's, [report] bind_report.c's, and the
 * sections a module owns (the kernel axis, the exec family) are bound by
 * the section binders of binders.c, walked in table order.
 *
 * Functions here return 0 or -ENOMEM; errors in the spec are counted by
 * diag.c, and bind_spec() turns any into -EINVAL at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"
#include "bindsec.h"
#include "diag.h"
#include "suggest.h"
#include "termsafe.h"

#define NSEC_PER_SEC	1000000000ULL

/* The sections binding itself knows; the section binders add theirs after these. */
static const char *const own_sections[] = { "sweep", "report", "params", NULL };
#define NR_OWN_SECTIONS		3
#define MAX_SECTION_NAMES	16

static const struct param_def repeat_def = {
	.name = "repeat", .type = PT_INT, .def = "1", .min = 1, .max = 1000000,
};
static const struct param_def affinity_def = { .name = "affinity", .type = PT_BOOL, .def = "off" };
static const struct param_def max_cv_def = {
	.name = "max_cv", .type = PT_INT, .def = "10", .min = 0, .max = 1000,
};
static const struct param_def retry_noisy_def = {
	.name = "retry_noisy", .type = PT_INT, .def = "0", .min = 0, .max = 100,
};
static const struct param_def bpf_stats_def = { .name = "bpf_stats", .type = PT_BOOL, .def = "on" };
static const struct param_def profile_def = { .name = "profile", .type = PT_BOOL, .def = "off" };
static const struct param_def profile_hz_def = {
	.name = "profile_hz", .type = PT_INT, .def = "99", .min = 1, .max = PROFILE_MAX_HZ,
};
static const struct param_def max_repeat_def = {
	.name = "max_repeat", .type = PT_INT, .def = "20", .min = 1, .max = 1000000,
};

struct binder {
	const struct spec *s;
	struct sweep_cfg *cfg;
	const struct spec_section *sweep, *report;
	/* keys of --set parameters already reported (see set_failed()) */
	const char *failed_sets[WL_MAX_PARAMS];
	int nr_failed_sets;
	long long nr_points;	/* of the experiments bound so far */
	bool too_many_points;	/* reported: bind no more experiments */
	/* the section binder whose workload [sweep] names (exec), or NULL */
	const struct section_binder *declarer;
};

static const struct section_binder *const no_binders[] = { NULL };

/* cfg's section binders, NULL-terminated: its catalog's (bindsec.h). */
static const struct section_binder *const *binders_of(const struct sweep_cfg *cfg)
{
	return cfg->catalog ? cfg->catalog->binders : no_binders;
}

/* Every section name a spec may hold: ours, then the section binders' in table order. */
static void section_names(const struct sweep_cfg *cfg, const char **names)
{
	const struct section_binder *const *binders = binders_of(cfg);
	int n = 0;

	for (; own_sections[n]; n++)
		names[n] = own_sections[n];
	for (int i = 0; binders[i]; i++)
		for (int j = 0; binders[i]->sections && binders[i]->sections[j]; j++)
			if (n < MAX_SECTION_NAMES)
				names[n++] = binders[i]->sections[j];
	names[n] = NULL;
}

/* "unknown section" at sec, with the fix when one is near; true when it meant [sweep]. */
static bool unknown_section(const struct spec_section *sec, const char *const *names)
{
	const char *best = suggest_list(sec->name, names);
	char name[160], hint[200];

	snprintf(name, sizeof(name), "[%s]", best ? best : "");
	diag_at(&sec->loc, "unknown section '[%s]'%s", sec->name,
		best ? suggest_hint(hint, sizeof(hint), name) :
		" (expected [sweep], [report] or [params])");
	return best == names[0];
}

/* Which section is which: [sweep] once, [report] at most once, [params] any number. */
static void find_sections(struct binder *b)
{
	const char *names[MAX_SECTION_NAMES + 1];
	const struct spec_section **seen;
	bool misspelt_sweep = false;
	char list[512];

	section_names(b->cfg, names);
	for (int i = 0; i < b->s->nr_sections; i++) {
		const struct spec_section *sec = &b->s->sections[i];
		int which = bind_list_index(names, sec->name);

		if (which < 0)
			misspelt_sweep |= unknown_section(sec, names);
		if (which < 0 || which > 1)
			continue;
		seen = which ? &b->report : &b->sweep;
		if (*seen) {
			diag_at(&sec->loc, "duplicate section '[%s]' (first at line %d)",
				sec->name, (*seen)->loc.line);
			continue;
		}
		if (sec->arg)
			diag_at(&sec->loc, "section '[%s]' takes no argument", sec->name);
		*seen = sec;
	}
	/* a misspelt [sweep] was said already, with the fix */
	if (!b->sweep && !misspelt_sweep) {
		struct loc top = { .file = b->s->path, .line = 1, .col = 1 };

		b->cfg->catalog->names(list, sizeof(list));
		diag_at(&top, "missing [sweep] section: start the spec with '[sweep]' and "
			"'workload = NAME' (NAME: %s)", list);
	}
}

/* A [sweep] key of a section binder's (the kernel axis): true when one took it. */
static bool binders_sweep_entry(struct sweep_cfg *cfg, int key, const struct spec_entry *e)
{
	const struct section_binder *const *binders = binders_of(cfg);

	for (int i = 0; binders[i]; i++)
		if (binders[i]->sweep_entry &&
		    binders[i]->sweep_entry(cfg, key, e))
			return true;
	return false;
}

/* After [sweep]: each section binder's sections, the declared workload's among them. */
static int binders_bind(struct binder *b)
{
	const struct section_binder *const *binders = binders_of(b->cfg);

	for (int i = 0; binders[i]; i++) {
		const struct section_binder *sb = binders[i];
		int err;

		if (!sb->bind)
			continue;
		err = sb->bind(b->s, b->cfg, sb == b->declarer);
		if (err && err != -EINVAL)
			return err;
	}
	return 0;
}

static void bind_workload(struct binder *b, const struct spec_entry *e)
{
	const struct bind_catalog *cat = b->cfg->catalog;
	const struct section_binder *const *binders = cat->binders;
	char hint[640];

	b->declarer = NULL;
	for (int i = 0; binders[i]; i++)
		if (binders[i]->workload && !strcmp(e->value, binders[i]->workload))
			b->declarer = binders[i];
	b->cfg->wl = cat->find(e->value);
	if (!b->cfg->wl && !b->declarer)
		diag_at(&e->val_loc, "unknown workload '%s'%s", e->value,
			cat->hint(e->value, hint, sizeof(hint)));
}

/*
 * [sweep]'s keys for how long and how often a point is measured; false when
 * @key is none of them.
 */
static bool bind_timing_entry(struct sweep_cfg *cfg, int key, const struct spec_entry *e)
{
	char err[256];

	switch (key) {
	case SK_WARMUP:
		bind_span(e, &cfg->warmup_ns, true);
		break;
	case SK_DURATION:
		bind_span(e, &cfg->duration_ns, false);
		break;
	case SK_INTERVAL:
		bind_duration(e, &cfg->interval_ns);
		if (cfg->interval_ns < TIMING_MIN_INTERVAL_NS)
			diag_at(&e->val_loc, "interval %s is below the minimum of 10ms", e->value);
		break;
	case SK_REPEAT:
		bind_int(&repeat_def, e, &cfg->repeat);
		break;
	case SK_MAX_CV:
		bind_int(&max_cv_def, e, &cfg->max_cv);
		break;
	case SK_RETRY_NOISY:
		bind_int(&retry_noisy_def, e, &cfg->retry_noisy);
		break;
	case SK_PRECISION:
		if (precision_parse(e->value, "precision", &cfg->precision_pct, err, sizeof(err)))
			diag_at(&e->val_loc, "%s", err);
		break;
	case SK_DECIDE:
		if (precision_parse(e->value, "decide", &cfg->decide_pct, err, sizeof(err)))
			diag_at(&e->val_loc, "%s", err);
		cfg->decide_loc = e->val_loc;
		break;
	case SK_MAX_REPEAT:
		bind_int(&max_repeat_def, e, &cfg->max_repeat);
		break;
	case SK_MAX_TIME:
		bind_duration(e, &cfg->max_time_ns);
		break;
	default:
		return false;
	}
	return true;
}

static void bind_sweep_entry(struct binder *b, const struct spec_entry *e, const char **title)
{
	struct sweep_cfg *cfg = b->cfg;
	int key = bind_list_index(spec_sweep_keys, e->key);

	if (key >= 0 && binders_sweep_entry(cfg, key, e))
		return;
	if (bind_timing_entry(cfg, key, e))
		return;
	switch (key) {
	case SK_TITLE:
		*title = e->value;
		break;
	case SK_WORKLOAD:
		bind_workload(b, e);
		break;
	case SK_AFFINITY:
		bind_bool(&affinity_def, e, &cfg->affinity);
		break;
	case SK_BPF_STATS:
		bind_bool(&bpf_stats_def, e, &cfg->bpf_stats);
		break;
	case SK_PROFILE:
		bind_bool(&profile_def, e, &cfg->profile);
		break;
	case SK_PROFILE_HZ:
		bind_int(&profile_hz_def, e, &cfg->profile_hz);
		break;
	default:
		bind_unknown_key(e, "sweep", spec_sweep_keys);
		break;
	}
}

static int bind_sweep(struct binder *b)
{
	const char *title = NULL;
	bool has_workload = false;
	int err;

	for (int i = 0; i < b->sweep->nr_entries; i++) {
		const struct spec_entry *e = &b->sweep->entries[i];

		has_workload |= !strcmp(e->key, "workload");
		bind_sweep_entry(b, e, &title);
	}
	if (!has_workload) {
		char names[512];

		b->cfg->catalog->names(names, sizeof(names));
		diag_at(&b->sweep->loc, "missing key 'workload' in [sweep]: add 'workload = NAME' "
			"(NAME: %s)", names);
	}
	/* after the whole [sweep]: the timing is a declared workload's too */
	err = binders_bind(b);
	if (err)
		return err;
	b->cfg->title = strdup(title && *title ? title : b->cfg->name);
	return b->cfg->title ? 0 : -ENOMEM;
}

/* "{name}": the value is another parameter's, point by point. */
static bool is_link(const char *v)
{
	size_t len = strlen(v);

	return len > 2 && v[0] == '{' && v[len - 1] == '}';
}

static int bind_link(const struct binder *b, const struct spec_entry *e, struct axis *ax)
{
	struct loc at = loc_plus(&e->val_loc, 1);

	ax->linked = true;
	ax->link = bind_param_name(b->cfg->wl, e->value + 1, strlen(e->value) - 2, &at, false);
	ax->nr_vals = 1;
	ax->vals = calloc(1, sizeof(*ax->vals));
	return ax->vals ? 0 : -ENOMEM;
}

/* The values of one [params] entry into ax. */
static int bind_axis(const struct binder *b, const struct param_def *p,
		     const struct spec_entry *e, struct axis *ax)
{
	ax->loc = e->val_loc;
	/* The tree may be freed before the configuration: point at our copy. */
	if (ax->loc.file == b->s->path)
		ax->loc.file = b->cfg->spec_path;
	if (is_link(e->value))
		return bind_link(b, e, ax);
	return bind_value_list(p, e, &ax->vals, &ax->nr_vals);
}

static int default_axis(const struct workload *wl, int i, struct axis *ax)
{
	const struct param_def *p = &wl->params[i];
	char err[256];

	ax->param = i;
	ax->nr_vals = 1;
	ax->vals = malloc(sizeof(*ax->vals));
	if (!ax->vals)
		return -ENOMEM;
	if (param_parse_scalar(p, p->def, strlen(p->def), ax->vals, err, sizeof(err)))
		diag_err("workload '%s': bad default of '%s': %s", wl->name, p->name, err);
	return 0;
}

/* Can a value of parameter `from` stand for one of `to`, as it is? */
static bool same_kind(const struct param_def *to, const struct param_def *from)
{
	bool num_to = to->type == PT_INT || to->type == PT_SIZE;
	bool num_from = from->type == PT_INT || from->type == PT_SIZE;

	if (num_to || num_from)
		return num_to && num_from;
	return to->type == from->type && to->choices == from->choices;
}

/* A linked axis needs a target of its kind whose every value fits its bounds. */
static void check_link(const struct workload *wl, const struct experiment *x,
		       const struct axis *ax)
{
	const struct param_def *to = &wl->params[ax->param], *from = &wl->params[ax->link];
	const struct axis *target = experiment_axis(x, ax->link);
	char err[256];

	if (target->linked) {
		diag_at(&ax->loc, "'%s' cannot follow '%s', which follows another parameter",
			to->name, from->name);
		return;
	}
	if (!same_kind(to, from)) {
		diag_at(&ax->loc, "'%s' cannot take the values of '%s': different types",
			to->name, from->name);
		return;
	}
	for (int i = 0; i < target->nr_vals; i++) {
		char text[64];

		param_format(from, target->vals[i], text, sizeof(text));
		if (param_parse_scalar(to, text, strlen(text), &(long long){ 0 }, err,
				       sizeof(err))) {
			diag_at(&ax->loc, "'%s' follows '%s': %s", to->name, from->name, err);
			return;
		}
	}
}

/*
 * --set puts a parameter in every [params] section, so a bad one would be
 * reported once per experiment: remember which failed, and say it once.
 */
static bool set_failed(const struct binder *b, const char *key)
{
	for (int i = 0; i < b->nr_failed_sets; i++)
		if (!strcmp(b->failed_sets[i], key))
			return true;
	return false;
}

static void remember_failed_set(struct binder *b, const char *key, int errors)
{
	if (diag_error_count() != errors && b->nr_failed_sets < WL_MAX_PARAMS)
		b->failed_sets[b->nr_failed_sets++] = key;
}

/* The links of x; one that a --set made is checked once for all experiments. */
static void check_links(struct binder *b, const struct experiment *x)
{
	const struct workload *wl = b->cfg->wl;

	for (int a = 0; a < x->nr_axes; a++) {
		const struct axis *ax = &x->axes[a];
		const char *key = wl->params[ax->param].name;
		int errors = diag_error_count();

		if (!ax->linked || ax->link < 0 || (ax->loc.set && set_failed(b, key)))
			continue;
		check_link(wl, x, ax);
		if (ax->loc.set)
			remember_failed_set(b, key, errors);
	}
}

/* One workload parameter of a [params] section becomes the next axis of x. */
static int bind_param_entry(struct binder *b, const struct spec_entry *e,
			    struct experiment *x, bool *used)
{
	const struct workload *wl = b->cfg->wl;
	bool from_set = e->key_loc.set;
	int errors = diag_error_count(), p, err;

	if (from_set && set_failed(b, e->key))
		return 0;
	p = bind_param_name(wl, e->key, strlen(e->key), &e->key_loc, true);
	err = 0;
	if (p >= 0 && !used[p]) {
		used[p] = true;
		x->axes[x->nr_axes].param = p;
		err = bind_axis(b, &wl->params[p], e, &x->axes[x->nr_axes++]);
	}
	if (from_set)
		remember_failed_set(b, e->key, errors);
	return err;
}

/* The entries of one [params] section (NULL: none at all) into x. */
static int bind_entries(struct binder *b, const struct spec_section *sec,
			struct experiment *x, struct report_opts *rep, bool *used)
{
	bool own_plots = false;
	int err;

	for (int i = 0; sec && i < sec->nr_entries; i++) {
		const struct spec_entry *e = &sec->entries[i];

		/* A plot of the section replaces every plot of [report]. */
		if (!own_plots && !strcmp(e->key, "plot")) {
			own_plots = true;
			rep->nr_plots = 0;
		}
		if (bind_report_entry(b->cfg->wl, e, rep))
			continue;
		err = bind_param_entry(b, e, x, used);
		if (err)
			return err;
	}
	return 0;
}

/*
 * The cap on points, counted before anything is expanded: a product of
 * axes within the cap times one more axis of at most BIND_MAX_AXIS_VALS
 * values fits a long long.  An axis without values (an error, already
 * reported) counts as one.  Reported at the axis that crosses the cap.
 */
static void count_points(struct binder *b, const struct experiment *x)
{
	long long n = 1;

	for (int a = 0; a < x->nr_axes; a++) {
		const struct axis *ax = &x->axes[a];
		const struct param_def *p = &b->cfg->wl->params[ax->param];

		n *= ax->nr_vals > 1 ? ax->nr_vals : 1;
		if (b->nr_points + n <= BIND_MAX_POINTS)
			continue;
		if (ax->nr_vals > 1)
			diag_at(&ax->loc, "'%s' takes the sweep past %d points, the most it may have",
				p->name, BIND_MAX_POINTS);
		else
			diag_at(&x->loc, "experiment '%s' takes the sweep past %d points, the most "
				"it may have", x->title, BIND_MAX_POINTS);
		b->too_many_points = true;
		return;
	}
	b->nr_points += n;
}

static int bind_experiment(struct binder *b, const struct spec_section *sec,
			   const struct report_opts *base, struct experiment *x)
{
	const struct workload *wl = b->cfg->wl;
	struct report_opts rep = *base;
	bool used[WL_MAX_PARAMS] = { 0 };
	const char *title = sec && sec->arg && *sec->arg ? sec->arg : b->cfg->title;
	int err;

	x->title = strdup(title);
	if (!x->title)
		return -ENOMEM;
	x->loc = sec ? sec->loc : b->sweep->loc;
	/* The tree may be freed before the configuration: point at our copy. */
	if (x->loc.file == b->s->path)
		x->loc.file = b->cfg->spec_path;
	err = bind_entries(b, sec, x, &rep, used);
	for (int i = 0; !err && i < wl->nr_params; i++)
		if (!used[i])
			err = default_axis(wl, i, &x->axes[x->nr_axes++]);
	if (!err) {
		check_links(b, x);
		report_check_baseline(wl, x, &rep);
		count_points(b, x);
	}
	if (rep.baseline.loc.file == b->s->path)
		rep.baseline.loc.file = b->cfg->spec_path;
	return err ? err : report_apply(x, &rep);
}

static int bind_experiments(struct binder *b)
{
	const struct spec *s = b->s;
	struct report_opts rep = { .group = -1 };
	struct sweep_cfg *cfg = b->cfg;
	int n = 0, err = 0;

	if (cfg->wl->nr_params > WL_MAX_PARAMS) {
		diag_err("workload '%s' has more than %d parameters", cfg->wl->name,
			 WL_MAX_PARAMS);
		return 0;
	}
	bind_report_entries(cfg->wl, b->report, &rep);
	for (int i = 0; i < s->nr_sections; i++)
		n += !strcmp(s->sections[i].name, "params");
	cfg->exps = calloc(n ? n : 1, sizeof(*cfg->exps));
	if (!cfg->exps)
		return -ENOMEM;
	if (!n) {
		cfg->nr_exps = 1;
		return bind_experiment(b, NULL, &rep, &cfg->exps[0]);
	}
	/* Past the cap on points, the later experiments would only take memory. */
	for (int i = 0; i < s->nr_sections && !err && !b->too_many_points; i++) {
		if (strcmp(s->sections[i].name, "params"))
			continue;
		err = bind_experiment(b, &s->sections[i], &rep, &cfg->exps[cfg->nr_exps++]);
	}
	return err;
}

/*
 * decide decides how many rounds run, which precision would decide per
 * point.  That it has a baseline to compare with is bind_check_decide()'s.
 */
static void check_decide(const struct sweep_cfg *cfg)
{
	if (!(cfg->decide_pct > 0))
		return;
	if (cfg->precision_pct > 0)
		diag_at(&cfg->decide_loc, "decide and precision both set: decide runs rounds until "
			"each point's ratio to its baseline is decided, precision repetitions until "
			"each point's interval is narrow; set one");
}

int bind_check_decide(const struct sweep_cfg *cfg, bool gated)
{
	bool baseline = gated || cfg->kernels.list.nr > 1;

	if (!(cfg->decide_pct > 0))
		return 0;
	for (int i = 0; i < cfg->nr_exps; i++)
		baseline |= cfg->exps[i].baseline.on;
	if (baseline)
		return 0;
	diag_at(&cfg->decide_loc, "decide needs a baseline to compare each point with: add "
		"'baseline = PARAM=VALUE' to [report], or give two kernels (the first is the "
		"baseline)");
	return -EINVAL;
}

/*
 * "specs/ringbuf.spec" → "ringbuf": the default title and result directory,
 * so a control character in the file's name is an escape (termsafe.h).
 */
static char *spec_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char *stem, *name;
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".spec"))
		len -= 5;
	/* the default result directory is results/<name>/: "." and ".." leave it */
	if (len <= 2 && !strncmp(base, "..", len))
		return strdup("spec");
	stem = strndup(base, len);
	name = stem ? term_escape(stem) : NULL;
	free(stem);
	return name;
}

static struct sweep_cfg *cfg_new(const char *path, const struct bind_catalog *cat)
{
	struct sweep_cfg *cfg = calloc(1, sizeof(*cfg));

	if (!cfg)
		return NULL;
	cfg->catalog = cat;
	cfg->spec_path = strdup(path);
	cfg->name = spec_name(path);
	if (!cfg->spec_path || !cfg->name) {
		sweep_cfg_free(cfg);
		return NULL;
	}
	cfg->warmup_ns = NSEC_PER_SEC;
	cfg->duration_ns = 5 * NSEC_PER_SEC;
	cfg->interval_ns = NSEC_PER_SEC;
	cfg->repeat = 1;
	cfg->max_cv = QUALITY_DEFAULT_MAX_CV;
	cfg->max_repeat = PRECISION_MAX_REPEAT;
	cfg->bpf_stats = true;
	cfg->profile_hz = PROFILE_DEFAULT_HZ;
	for (int i = 0; cat->binders[i]; i++)
		if (cat->binders[i]->init)
			cat->binders[i]->init(cfg);
	return cfg;
}

int bind_spec(const struct spec *s, const struct bind_catalog *cat, struct sweep_cfg **out)
{
	struct binder b = { .s = s };
	int errors = diag_error_count();
	int err = 0;

	*out = NULL;
	b.cfg = cfg_new(s->path, cat);
	if (!b.cfg)
		return -ENOMEM;
	find_sections(&b);
	if (b.sweep)
		err = bind_sweep(&b);
	/* Without a workload, there is no table to check the rest against. */
	if (!err && b.cfg->wl)
		err = bind_experiments(&b);
	if (!err && b.cfg->wl)
		check_decide(b.cfg);
	if (!err && diag_error_count() != errors)
		err = -EINVAL;
	if (err) {
		sweep_cfg_free(b.cfg);
		return err;
	}
	*out = b.cfg;
	return 0;
}

void sweep_cfg_free(struct sweep_cfg *cfg)
{
	if (!cfg)
		return;
	for (int i = 0; i < cfg->nr_exps; i++) {
		struct experiment *x = &cfg->exps[i];

		for (int j = 0; j < x->nr_axes; j++)
			free(x->axes[j].vals);
		free(x->title);
		free(x->label);
		free(x->values);
	}
	free(cfg->exps);
	for (int i = 0; binders_of(cfg)[i]; i++)
		if (binders_of(cfg)[i]->free)
			binders_of(cfg)[i]->free(cfg);
	free(cfg->spec_path);
	free(cfg->name);
	free(cfg->title);
	free(cfg);
}

