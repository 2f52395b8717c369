// SPDX-License-Identifier: GPL-2.0
/*
 * Blocks' titles made unique per machine (import.h): "T", "T (2)", "T (3)".
 * A hash of the titles taken, each with the next number to try after it,
 * so that 40,000 blocks of one title cost a lookup or two each, not a scan
 * of every title before them (a page is anyone's text).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growarray.h"
#include "import.h"

struct title_slot {
	const char *title;	/* set->titles[i]; NULL: a free slot */
	int machine;
	int next_dup;		/* the first n of "title (n)" that may be free */
};

struct import_title_index {
	struct title_slot *slots;
	size_t cap;		/* a power of two */
	size_t used;
};

static uint64_t title_hash(const char *title, int machine)
{
	uint64_t h = 14695981039346656037ULL ^ (uint32_t)machine;

	for (; *title; title++)
		h = (h ^ (unsigned char)*title) * 1099511628211ULL;
	return h;
}

/* The slot holding title of machine, or the free slot where it would go. */
static struct title_slot *slot_of(const struct import_title_index *x, const char *title,
				  int machine)
{
	size_t i = title_hash(title, machine) & (x->cap - 1);

	while (x->slots[i].title &&
	       (x->slots[i].machine != machine || strcmp(x->slots[i].title, title)))
		i = (i + 1) & (x->cap - 1);
	return &x->slots[i];
}

/* Room for one more title, at most half the slots in use. */
static int index_grow(struct import_title_index *x)
{
	struct import_title_index bigger = { .cap = x->cap ? 2 * x->cap : 64 };

	if (2 * (x->used + 1) <= x->cap)
		return 0;
	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -ENOMEM;
	for (size_t i = 0; i < x->cap; i++)
		if (x->slots[i].title)
			*slot_of(&bigger, x->slots[i].title, x->slots[i].machine) = x->slots[i];
	bigger.used = x->used;
	free(x->slots);
	*x = bigger;
	return 0;
}

/* title (cut at IMPORT_MAX_TEXT) into buf, or "title (n)" with the first n free. */
static void unique_title(struct import_title_index *x, const char *title, int machine,
			 char *buf, size_t len)
{
	struct title_slot *base;

	snprintf(buf, len, "%.*s", IMPORT_MAX_TEXT, title);
	base = slot_of(x, buf, machine);
	if (!base->title)
		return;
	/* titles are only ever added: a number found taken stays taken */
	for (int n = base->next_dup;; n++) {
		snprintf(buf, len, "%.*s (%d)", IMPORT_MAX_TEXT, title, n);
		if (!slot_of(x, buf, machine)->title) {
			base->next_dup = n + 1;
			return;
		}
	}
}

static int add_slot(struct import_set *set, int machine, char *title)
{
	if (ARRAY_ROOM(set->titles, set->nr_titles) ||
	    ARRAY_ROOM(set->title_machine, set->nr_titles)) {
		free(title);
		return -ENOMEM;
	}
	set->titles[set->nr_titles] = title;
	set->title_machine[set->nr_titles++] = machine;
	*slot_of(set->title_index, title, machine) = (struct title_slot){
		.title = title, .machine = machine, .next_dup = 2 };
	set->title_index->used++;
	return 0;
}

int import_title_add(struct import_set *set, const char *title, int machine)
{
	char buf[IMPORT_MAX_TEXT + 24], *copy;
	int err;

	if (!set->title_index) {
		set->title_index = calloc(1, sizeof(*set->title_index));
		if (!set->title_index)
			return -ENOMEM;
	}
	err = index_grow(set->title_index);
	if (err)
		return err;
	unique_title(set->title_index, title, machine, buf, sizeof(buf));
	copy = strdup(buf);
	return copy ? add_slot(set, machine, copy) : -ENOMEM;
}

void import_title_index_free(struct import_set *set)
{
	if (set->title_index)
		free(set->title_index->slots);
	free(set->title_index);
	set->title_index = NULL;
}
