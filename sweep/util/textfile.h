/* SPDX-License-Identifier: GPL-2.0 */
/* Reading a whole text file into memory (specs, chart templates), or its keyed lines. */
#ifndef SWEEP_TEXTFILE_H
#define SWEEP_TEXTFILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The most a text file may hold: a spec or a template is a page or two, so
 * anything larger is a wrong path (a log, /dev/zero), not input to read.
 */
#define TEXTFILE_MAX_BYTES	(1 << 20)
#define TEXTFILE_MAX_TEXT	"1 MiB"

/*
 * *out gets the contents plus a terminating NUL (free()), *len (if not NULL)
 * the number of bytes read, which may hold NUL bytes of their own.
 * Returns 0 or -errno: -EISDIR for a directory, -EINVAL for anything else
 * that is not a regular file, -EFBIG above TEXTFILE_MAX_BYTES.
 */
int read_text_file_len(const char *path, char **out, size_t *len);
/* The same with another cap than TEXTFILE_MAX_BYTES: a run's CSVs grow with the sweep. */
int read_text_file_max(const char *path, size_t max, char **out, size_t *len);
int read_text_file(const char *path, char **out);

/*
 * A procfs or cgroup file of a few numbers into buf, NUL-terminated, with
 * one read() and no allocation (read at a measuring window's edges):
 * the bytes read, or -errno.
 */
int read_small_file(const char *path, char *buf, size_t len);

/*
 * The first line of path without its newline (free()), or NULL when it is
 * absent, unreadable or empty: a sysfs or procfs fact.
 */
char *read_first_line(const char *path);

/*
 * Value of the first "key : value" line of path (/proc/cpuinfo style, and
 * meta), or with keyed_value_sep() every such value joined by sep; false
 * if none.
 */
bool keyed_value(const char *path, const char *key, char *buf, size_t len);
bool keyed_value_sep(const char *path, const char *key, const char *sep, char *buf,
		     size_t len);

/*
 * The 1-based line of text[0..len) holding its first NUL byte, or 0 when it
 * holds none: a reader refuses such a text at that line rather than let the
 * NUL end it there (import, the exec workload's output).
 */
int text_nul_line(const char *text, size_t len);

/* A lowercase reason for an error of read_text_file(): "is a directory". */
const char *textfile_strerror(int err);

#endif
