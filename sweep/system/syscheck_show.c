// SPDX-License-Identifier: GPL-2.0
/*
 * `bpfsweep system`: the verdicts first, a line each, as pyperf's `system
 * show` leads with them (the 60 lines of facts used to come first and
 * bury them), the warnings before the rest; then the facts they stand on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "syscheck.h"
#include "termsafe.h"

static const char *const verdict_word[] = {
	[SC_OK] = "OK", [SC_UNKNOWN] = "unknown", [SC_WARNING] = "WARNING",
};

/* "key: value" as meta has it, control characters blanked: values come from files. */
static void put_line(void *f, const char *key, const char *value)
{
	/* the warnings are above, with their names */
	if (!strcmp(key, "system_warning"))
		return;
	meta_put(f, key, value);
}

/* The checks of verdict v, in order. */
static void show_verdicts(FILE *f, const struct sys_check *sc, enum sc_verdict v)
{
	for (int i = 0; i < sc->nr_checks; i++) {
		const struct sc_result *c = &sc->check[i];

		if (c->verdict != v)
			continue;
		fprintf(f, "%-8s %s", verdict_word[v], c->text);
		/* what a run's warning ends with: the name to quiet it by */
		if (v == SC_WARNING)
			fprintf(f, " [--quiet-warning=%s]", c->name);
		fputc('\n', f);
	}
}

static void show(FILE *f, const struct sys_check *sc)
{
	show_verdicts(f, sc, SC_WARNING);
	show_verdicts(f, sc, SC_OK);
	show_verdicts(f, sc, SC_UNKNOWN);
	if (!sc->nr_warn)
		fprintf(f, "no warnings: nothing found that would distort the numbers\n");
	fprintf(f, "\nfacts:\n");
	meta_system_print(f, &sc->sys);
	syscheck_lines(sc, put_line, f);
}

/*
 * Text of the machine's files (a DMI vendor, a governor's name) goes to a
 * terminal: each line through termsafe.h, so that none can clear the
 * screen or fill the clipboard (OSC 52), C1 controls included.
 */
void syscheck_show(FILE *f, const struct sys_check *sc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m) {
		fprintf(f, "cannot show the system check: out of memory\n");
		return;
	}
	show(m, sc);
	fclose(m);
	for (char *line = text, *nl; line && line < text + len; line = nl + 1) {
		nl = memchr(line, '\n', text + len - line);
		if (!nl)
			nl = text + len;
		term_put(f, line, nl - line);
		fputc('\n', f);
	}
	free(text);
}
