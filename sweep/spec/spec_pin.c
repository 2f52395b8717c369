// SPDX-License-Identifier: GPL-2.0
/*
 * A --set that changes a value an experiment pins on purpose.  --set
 * applies to every [params] section (spec.c), and that stays: the command
 * line has the last word.  But a section that gives a parameter one value
 * of its own, one the other experiments do not all share, says that this
 * experiment needs it (ringbuf_overwrite's producer-only block: overwrite
 * = on, where the first block sweeps off and on); overriding it silently
 * would measure something else under the experiment's title.  So it warns.
 */
#include <stdbool.h>
#include <string.h>

#include "diag.h"
#include "spec.h"

/* One scalar: no list, no range, no {link}. */
static bool is_one_value(const char *v)
{
	return v[0] && v[0] != '{' && !v[strcspn(v, " \t,")] && !strstr(v, "..");
}

static const struct spec_entry *entry_of(const struct spec_section *sec, const char *key)
{
	for (int i = 0; i < sec->nr_entries; i++)
		if (!strcmp(sec->entries[i].key, key))
			return &sec->entries[i];
	return NULL;
}

/* Does every [params] section but sec give key the value v too? */
static bool shared_by_all(const struct spec *s, const struct spec_section *sec,
			  const char *key, const char *v, int *nr_params)
{
	bool all = true;

	*nr_params = 0;
	for (int i = 0; i < s->nr_sections; i++) {
		const struct spec_section *o = &s->sections[i];
		const struct spec_entry *e;

		if (strcmp(o->name, "params"))
			continue;
		++*nr_params;
		if (o == sec)
			continue;
		e = entry_of(o, key);
		all &= e && !strcmp(e->value, v);
	}
	return all;
}

void spec_warn_pin(const struct spec *s, const struct spec_section *sec,
		   const struct spec_entry *e, const char *val, size_t val_len, int set)
{
	int nr_params;

	/* a value an earlier --set gave was no experiment's choice */
	if (e->key_loc.set || !is_one_value(e->value))
		return;
	if (strlen(e->value) == val_len && !strncmp(e->value, val, val_len))
		return;
	if (shared_by_all(s, sec, e->key, e->value, &nr_params) || nr_params < 2)
		return;
	diag_warn("--set #%d %s=%.*s overrides experiment '%s', which pins %s = %s (%s:%d): "
		  "--set changes every experiment, --only TITLE runs one", set, e->key,
		  (int)val_len, val, sec->arg && sec->arg[0] ? sec->arg : "[params]", e->key,
		  e->value, e->key_loc.file, e->key_loc.line);
}
