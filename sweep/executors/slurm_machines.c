// SPDX-License-Identifier: GPL-2.0
/*
 * The Slurm machine file (slurm_machines.h): a line per machine, scanned
 * as the host file's lines are (hosts.h: blanks, comments, control
 * characters, @LABEL/), then KEY=VALUE words, each value in its own
 * alphabet.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "slurm_machines.h"
#include "textfile.h"

const char *const slurm_key_names[NR_SLURM_KEYS] = {
	[SK_PARTITION] = "partition", [SK_CONSTRAINT] = "constraint", [SK_NODELIST] = "nodelist",
	[SK_ACCOUNT] = "account", [SK_QOS] = "qos", [SK_RESERVATION] = "reservation",
	[SK_TIME] = "time",
};

#define NAME_CHARS	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"

/*
 * What each value may hold: names, lists of names (','), Slurm's feature
 * expressions (& | * [ ] ( ) for "a&b", "[a*2&b]") and host lists
 * ("node[1-4,7]"), and a time (minutes, [D-]H:M:S).  None holds a blank,
 * a quote or anything else a shell or salloc's option parser would read.
 */
static const char *const key_chars[NR_SLURM_KEYS] = {
	[SK_PARTITION] = NAME_CHARS ",", [SK_CONSTRAINT] = NAME_CHARS ",&|*[]():",
	[SK_NODELIST] = NAME_CHARS ",[]", [SK_ACCOUNT] = NAME_CHARS, [SK_QOS] = NAME_CHARS,
	[SK_RESERVATION] = NAME_CHARS, [SK_TIME] = "0123456789:-",
};

/* The parse of one file: where machines and hosts go, the options' defaults. */
struct machine_scan {
	struct slurm_machines *ms;
	struct hosts *hs;
	const char *const *defaults;
};

/* Slurm's time formats: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S; numbers only. */
static bool slurm_time_ok(const char *v)
{
	const char *dash = strchr(v, '-');
	int colons = 0;

	for (const char *c = v; *c; c++) {
		colons += *c == ':';
		/* no empty field: a separator is neither first, nor last, nor doubled */
		if (!isdigit((unsigned char)*c) && (c == v || !c[1] || !isdigit((unsigned char)c[1])))
			return false;
	}
	if (dash && (strchr(dash + 1, '-') || memchr(v, ':', dash - v)))
		return false;
	return *v && colons <= 2;
}

/* value (its first byte at `at` of line s, else of no line) is one key may hold; or reported. */
static int check_value(struct hosts_line *s, const char *at, int key, const char *value)
{
	char why[160];
	size_t ok = strspn(value, key_chars[key]);

	if (!value[0] || value[0] == '-' || value[ok] || strlen(value) >= SLURM_VALUE_LEN ||
	    (key == SK_TIME && !slurm_time_ok(value))) {
		snprintf(why, sizeof(why), "%s: %s", slurm_key_names[key],
			 !value[0] ? "missing" : value[0] == '-' ? "may not start with '-'" :
			 value[ok] ? "a character Slurm does not take there" :
			 strlen(value) >= SLURM_VALUE_LEN ? "too long" :
			 "expected minutes, M:S, H:M:S or D-H[:M[:S]]");
		if (s)
			hosts_line_err(s, value[0] && value[0] != '-' && value[ok] ? at + ok : at, why);
		else
			diag_err("--%s: %s", key == SK_TIME ? "time-limit" : slurm_key_names[key],
				 why + strlen(slurm_key_names[key]) + 2);
		return -EINVAL;
	}
	return 0;
}

static int key_of(const char *word, size_t n)
{
	for (int k = 0; k < NR_SLURM_KEYS; k++)
		if (strlen(slurm_key_names[k]) == n && !strncmp(word, slurm_key_names[k], n))
			return k;
	return -1;
}

/* count=N: N machines of this line, LABEL-1 .. LABEL-N. */
static int take_count(struct hosts_line *s, const char *v, size_t n, int *count)
{
	char *end;
	long c = strtol(v, &end, 10);

	if (!isdigit((unsigned char)*v) || end != v + n || c < 1 || c > HOSTS_MAX) {
		hosts_line_err(s, v, "count: expected a number from 1 to " HOSTS_MAX_TEXT);
		return -EINVAL;
	}
	*count = c;
	return 0;
}

/* The KEY=VALUE words of a line, after its @LABEL/. */
static int take_words(struct hosts_line *s, struct slurm_machine *m, int *count)
{
	while (s->p < s->end && isspace((unsigned char)*s->p))
		s->p++;
	while (s->p < s->end) {
		const char *w = s->p, *eq;
		size_t n = strcspn(w, " \t");
		char value[SLURM_VALUE_LEN + 1];
		int k;

		if (w + n > s->end)
			n = s->end - w;
		eq = memchr(w, '=', n);
		k = eq ? key_of(w, eq - w) : -1;
		if (eq && eq - w == 5 && !strncmp(w, "count", 5)) {
			if (take_count(s, eq + 1, w + n - eq - 1, count))
				return -EINVAL;
		} else if (k < 0) {
			hosts_line_err(s, w, eq ? "unknown key (partition, constraint, nodelist, "
				       "account, qos, reservation, time, count)" :
				       "expected KEY=VALUE");
			return -EINVAL;
		} else {
			snprintf(value, sizeof(value), "%.*s", (int)(w + n - eq - 1), eq + 1);
			if (check_value(s, eq + 1, k, value))
				return -EINVAL;
			memcpy(m->v[k], value, strlen(value) + 1);
		}
		s->p = w + n;
		while (s->p < s->end && isspace((unsigned char)*s->p))
			s->p++;
	}
	return 0;
}

/* Without @LABEL/: the node it names, else the partition, else "slurm". */
static void default_label(struct host *h, const struct slurm_machine *m)
{
	const char *v = m->v[SK_NODELIST][0] && !strpbrk(m->v[SK_NODELIST], ",[") ?
			m->v[SK_NODELIST] : m->v[SK_PARTITION][0] &&
			!strchr(m->v[SK_PARTITION], ',') ? m->v[SK_PARTITION] : "slurm";

	snprintf(h->label, sizeof(h->label), "%.*s", (int)sizeof(h->label) - 1, v);
}

/* What the machine asks for, as its host's name: "partition=debug,constraint=a". */
static void describe(struct host *h, const struct slurm_machine *m)
{
	size_t off = 0;

	h->name[0] = '\0';
	for (int k = 0; k < SK_TIME && off < sizeof(h->name); k++)
		if (m->v[k][0])
			off += snprintf(h->name + off, sizeof(h->name) - off, "%s%s=%s",
					off ? "," : "", slurm_key_names[k], m->v[k]);
	if (!off)
		snprintf(h->name, sizeof(h->name), "slurm");
}

/* The machine (count of them) of one line, with the options' defaults. */
static int add_machines(struct hosts_line *s, struct machine_scan *sc,
			const struct slurm_machine *m, const struct host *h, int count)
{
	for (int i = 0; i < count; i++) {
		struct host one = *h;

		if (count > 1)
			snprintf(one.label, sizeof(one.label), "%.*s-%d", HOST_LABEL_LEN - 8,
				 h->label, i + 1);
		if (hosts_check_unique(s, sc->hs, &one))
			return -EINVAL;
		if (sc->hs->nr == HOSTS_MAX) {
			hosts_line_err(s, s->start, "too many machines (at most " HOSTS_MAX_TEXT ")");
			return -EINVAL;
		}
		sc->ms->m[sc->ms->nr++] = *m;
		sc->hs->h[sc->hs->nr++] = one;
	}
	return 0;
}

static int machine_line(struct hosts_line *s, void *arg)
{
	struct machine_scan *sc = arg;
	struct slurm_machine m = { 0 };
	struct host h = { .line = s->line };
	int count = 1;

	if (hosts_take_label(s, &h) || take_words(s, &m, &count))
		return -EINVAL;
	for (int k = 0; k < NR_SLURM_KEYS; k++)
		if (!m.v[k][0] && sc->defaults && sc->defaults[k])
			snprintf(m.v[k], sizeof(m.v[k]), "%s", sc->defaults[k]);
	if (!h.label[0])
		default_label(&h, &m);
	describe(&h, &m);
	return add_machines(s, sc, &m, &h, count);
}

/* The command line's values: checked as a file's are, said as options. */
static int check_defaults(const char *const *defaults)
{
	int err = 0;

	for (int k = 0; defaults && k < NR_SLURM_KEYS; k++)
		if (defaults[k] && check_value(NULL, NULL, k, defaults[k]))
			err = -EINVAL;
	return err;
}

int slurm_machines_parse(const char *file, const char *text, size_t len,
			 const char *const *defaults, struct slurm_machines *ms, struct hosts *hs)
{
	struct machine_scan sc = { .ms = ms, .hs = hs, .defaults = defaults };
	struct hosts_line one = { .file = "command line", .start = "", .p = "", .end = "" };
	int err = check_defaults(defaults);

	ms->nr = hs->nr = 0;
	if (err)
		return err;
	if (!text)
		return machine_line(&one, &sc);
	err = hosts_each_line(file, text, len, machine_line, &sc);
	if (!err && !hs->nr) {
		diag_err("%s: no machine (one per line, e.g. @epyc/partition=batch "
			 "constraint=EPYC_9654)", file);
		err = -EINVAL;
	}
	return err;
}

int slurm_machines_load(const char *path, const char *const *defaults,
			struct slurm_machines *ms, struct hosts *hs)
{
	char *text = NULL;
	size_t len = 0;
	int err = path ? read_text_file_len(path, &text, &len) : 0;

	if (err) {
		diag_err("cannot read %s: %s", path, textfile_strerror(err));
		return err;
	}
	err = slurm_machines_parse(path, text, len, defaults, ms, hs);
	free(text);
	return err;
}

int slurm_machines_text(const struct slurm_machines *ms, const struct hosts *hs, char *buf,
			size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < ms->nr && off < len; i++) {
		off += snprintf(buf + off, len - off, "@%s/", hs->h[i].label);
		for (int k = 0; k < NR_SLURM_KEYS && off < len; k++)
			if (ms->m[i].v[k][0])
				off += snprintf(buf + off, len - off, " %s=%s", slurm_key_names[k],
						ms->m[i].v[k]);
		off += off < len ? snprintf(buf + off, len - off, "\n") : 0;
	}
	return off < len ? 0 : -ENOSPC;
}
