/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "{name}" templates, as in [report] label = rb-libbpf nr_prod {producers}:
 * the one expander behind the table's labels and compare's.
 */
#ifndef SWEEP_TEMPLATE_H
#define SWEEP_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

/* The value of name into buf; false when name is not one the caller knows. */
typedef bool (*template_value_fn)(const char *name, const void *ctx, char *buf, size_t len);

/*
 * tpl into buf (always terminated, cut at len), each {name} that value()
 * knows replaced by its value, each {name?text} by text where that value
 * is "on" and by nothing otherwise ({name?text|other}: by other); anything
 * else, unknown names included, is copied as it stands.
 */
void template_expand(const char *tpl, template_value_fn value, const void *ctx, char *buf,
		     size_t len);

#endif
