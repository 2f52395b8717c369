// SPDX-License-Identifier: GPL-2.0
/* Errors of the command line's options; see opterr.h. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "opterr.h"
#include "suggest.h"

const char *opt_suggest(const char *name, const struct option *longopts)
{
	struct suggest sg;

	suggest_init(&sg, name);
	for (const struct option *o = longopts; o->name; o++)
		suggest_add(&sg, o->name);
	return suggest_best(&sg);
}

/*
 * The option name[0..len) stands for, as getopt_long() reads it: the one
 * of that name, else the only one it abbreviates.  *nr_prefixed counts
 * the options it abbreviates (2 or more: ambiguous).
 */
static const struct option *find_long(const char *name, size_t len,
				      const struct option *longopts, int *nr_prefixed)
{
	const struct option *found = NULL;

	*nr_prefixed = 0;
	for (const struct option *o = longopts; o->name; o++) {
		if (strncmp(o->name, name, len))
			continue;
		if (strlen(o->name) == len)
			return o;
		found = o;
		++*nr_prefixed;
	}
	return *nr_prefixed == 1 ? found : NULL;
}

/* "option '--p' is ambiguous (--plot-timeout, --per)" */
static void ambiguous(const char *name, size_t len, const struct option *longopts)
{
	char list[512];
	size_t off = 0;

	list[0] = '\0';
	for (const struct option *o = longopts; o->name && off < sizeof(list); o++)
		if (!strncmp(o->name, name, len))
			off += snprintf(list + off, sizeof(list) - off, "%s--%s", off ? ", " : "",
					o->name);
	diag_err("option '--%.*s' is ambiguous (%s)", (int)len, name, list);
}

/* The long option getopt stopped at: "--quik=3" → "quik" (len 4). */
static void long_word(const char *arg, const char **name, size_t *len)
{
	*name = arg + 2;
	*len = strcspn(*name, "=");
}

static void unknown_long(const char *arg, const struct option *longopts)
{
	const struct option *o;
	const char *name, *best;
	char word[80];
	size_t len;
	int nr;

	long_word(arg, &name, &len);
	o = find_long(name, len, longopts, &nr);
	if (!o && nr > 1) {
		ambiguous(name, len, longopts);
		return;
	}
	/* "--quick=1": the option exists but takes no value */
	if (o && name[len] == '=') {
		diag_err("option '--%s' takes no value", o->name);
		return;
	}
	snprintf(word, sizeof(word), "%.*s", (int)len, name);
	best = opt_suggest(word, longopts);
	if (best)
		diag_err("unknown option '--%s' (did you mean '--%s'?)", word, best);
	else
		diag_err("unknown option '--%s'", word);
}

void opt_error(int opt, char *const *argv, const struct option *longopts, const char *cmd)
{
	/* optind is past the word getopt was reading when it gave up */
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	bool is_long = !strncmp(arg, "--", 2) && arg[2];

	if (opt == ':' && is_long) {
		const struct option *o;
		const char *name;
		size_t len;
		int nr;

		long_word(arg, &name, &len);
		o = find_long(name, len, longopts, &nr);
		diag_err("option '--%.*s' needs a value", o ? (int)strlen(o->name) : (int)len,
			 o ? o->name : name);
	} else if (opt == ':') {
		diag_err("option '-%c' needs a value", optopt);
	} else if (is_long && (!optopt || strchr(arg, '='))) {
		unknown_long(arg, longopts);
	} else if (optopt) {
		diag_err("unknown option '-%c'", optopt);
	} else {
		diag_err("unknown option '%s'", arg);
	}
	opt_hint(cmd);
}

void opt_hint(const char *cmd)
{
	fprintf(stderr, "try '%s --help' for the options\n", cmd);
}
