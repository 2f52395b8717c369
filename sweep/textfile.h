/* SPDX-License-Identifier: GPL-2.0 */
/* Reading a whole text file into memory (specs, chart templates). */
#ifndef SWEEP_TEXTFILE_H
#define SWEEP_TEXTFILE_H

/* *out gets the NUL-terminated contents (free()); returns 0 or -errno. */
int read_text_file(const char *path, char **out);

#endif
