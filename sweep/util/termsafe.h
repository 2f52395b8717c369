/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one sanitiser for text bound for a terminal or a table: tabs and
 * printable UTF-8 pass; other control characters are written as \r \n \e
 * or \xNN, and so is every byte of invalid UTF-8 or of a C1 control
 * (U+0080..U+009F, since a terminal takes U+009B for ESC [) or of a bidi
 * control (U+202A..U+202E, U+2066..U+2069, U+200E, U+200F, U+061C, which
 * show the text after them in another order than it is).  A cell of a
 * result file, a meta value, a host's output or a spec's file name then
 * cannot set a window title, fill the clipboard (OSC 52), clear the
 * screen, overwrite a line with CR or show a label or number reversed.
 * diag.c prints through it.
 */
#ifndef SWEEP_TERMSAFE_H
#define SWEEP_TERMSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* text[0..n) to f, escaped. */
void term_put(FILE *f, const char *text, size_t n);

/* Does s hold anything term_put() would escape? */
bool term_unsafe(const char *s);

/*
 * The first bidi control in text[0..len) (its code point, its byte offset
 * in *at), or 0: for readers that refuse one where it is (a spec, import)
 * rather than show it escaped.
 */
unsigned int term_bidi_control(const char *text, size_t len, size_t *at);

/* s escaped, as a new string (free()); NULL when out of memory. */
char *term_escape(const char *s);

#endif
