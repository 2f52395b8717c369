/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssh joins its command words with spaces and hands the line to the
 * remote user's shell.  Each word is therefore single-quoted here ('\''
 * for a quote inside), so that the remote shell sees exactly the argv it
 * was given: no expansion, no splitting, no second command.
 */
#ifndef SWEEP_SHQUOTE_H
#define SWEEP_SHQUOTE_H

#include <stddef.h>

/* word quoted into buf; 0, or -ENAMETOOLONG when it does not fit. */
int shquote(const char *word, char *buf, size_t len);

/* argv (NULL-terminated) quoted and joined by spaces into buf; 0 or -ENAMETOOLONG. */
int shquote_argv(const char *const *argv, char *buf, size_t len);

/*
 * argv[0..argc) as a command line for people (meta's `command:`): a word
 * the shell would read as itself stays bare, any other is quoted, so the
 * line pasted into a shell is the same command.  A line that does not fit
 * ends in " ..." and returns -ENAMETOOLONG.
 */
int shquote_line(const char *const *argv, int argc, char *buf, size_t len);

#endif
