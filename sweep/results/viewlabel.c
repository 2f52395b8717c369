// SPDX-License-Identifier: GPL-2.0
/*
 * A set's stored label templates (viewlabel.h): the spec stored beside
 * its results parsed once, its label entries copied, the spec let go.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "spec.h"
#include "viewlabel.h"

/* The last value of key in sec (a later entry overrides), or NULL. */
static const char *entry(const struct spec_section *sec, const char *key)
{
	const char *value = NULL;

	for (int i = 0; i < sec->nr_entries; i++)
		if (!strcmp(sec->entries[i].key, key))
			value = sec->entries[i].value;
	return value;
}

/* The stored spec of set, or NULL when it has none or it does not parse (said nowhere). */
static struct spec *stored_spec(const struct result_set *set)
{
	FILE *sink;
	struct spec *s = NULL;

	if (!set->spec)
		return NULL;
	sink = fopen("/dev/null", "w");
	if (!sink)
		return NULL;
	diag_set_stream(sink);
	if (spec_parse_string("spec", set->spec, &s))
		s = NULL;
	diag_set_stream(NULL);
	fclose(sink);
	return s;
}

/* *to = a copy of the label of sec when it has one (later sections override). */
static int take(char **to, const struct spec_section *sec)
{
	const char *label = entry(sec, "label");
	char *copy;

	if (!label)
		return 0;
	copy = strdup(label);
	if (!copy)
		return -ENOMEM;
	free(*to);
	*to = copy;
	return 0;
}

/* A titled [params] section's label, kept in the order of the spec. */
static int take_own(struct view_labels *l, const struct spec_section *sec)
{
	struct view_own_label *own;

	if (!entry(sec, "label"))
		return 0;
	own = realloc(l->own, (l->nr_own + 1) * sizeof(*own));
	if (!own)
		return -ENOMEM;
	l->own = own;
	own = &l->own[l->nr_own];
	*own = (struct view_own_label){ .title = strdup(sec->arg) };
	if (!own->title)
		return -ENOMEM;
	l->nr_own++;
	return take(&own->tpl, sec);
}

int viewlabel_read(const struct result_set *set, struct view_labels *l)
{
	struct spec *s = stored_spec(set);
	int err = 0;

	*l = (struct view_labels){ 0 };
	for (int i = 0; s && !err && i < s->nr_sections; i++) {
		const struct spec_section *sec = &s->sections[i];

		if (!strcmp(sec->name, "report"))
			err = take(&l->report, sec);
		else if (strcmp(sec->name, "params"))
			continue;
		else if (sec->arg && *sec->arg)
			err = take_own(l, sec);
		else
			err = take(&l->untitled, sec);
	}
	spec_free(s);
	return err;
}

const char *viewlabel_of(const struct view_labels *l, const char *title)
{
	const char *own = NULL;

	for (int i = 0; i < l->nr_own; i++)
		if (!strcmp(l->own[i].title, title))
			own = l->own[i].tpl;
	return own ?: l->untitled ?: l->report;
}

void viewlabel_free(struct view_labels *l)
{
	for (int i = 0; i < l->nr_own; i++) {
		free(l->own[i].title);
		free(l->own[i].tpl);
	}
	free(l->own);
	free(l->untitled);
	free(l->report);
	*l = (struct view_labels){ 0 };
}
