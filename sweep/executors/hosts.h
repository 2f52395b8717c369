/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fleet's host file: GNU parallel's --sshloginfile format, one login per
 * line, '#' lines and blank lines skipped (docs/fleet.md):
 *
 *   [@LABEL/][NCPUS/][ssh -p PORT ][USER@]HOST[:PORT]
 *
 * parallel's host group (@LABEL/) names the host: its directory in the
 * result and its value in the merged rows.  Every part is checked against
 * a narrow alphabet, so that no string of the file can become an option of
 * ssh or a word of a shell; what parallel would pass to a shell (any other
 * ssh command, a password) is refused with its place in the file.
 */
#ifndef SWEEP_HOSTS_H
#define SWEEP_HOSTS_H

#include <stddef.h>

#define HOSTS_MAX	64
#define HOSTS_MAX_TEXT	"64"
#define HOST_NAME_LEN	256
#define HOST_LABEL_LEN	64

struct host {
	char label[HOST_LABEL_LEN];	/* @LABEL/, else HOST */
	char user[HOST_NAME_LEN];	/* "" when the file gives none */
	char name[HOST_NAME_LEN];	/* a DNS name or an address, IPv6 without brackets */
	unsigned int port;		/* 0: ssh's default */
	unsigned int ncpus;		/* parallel's NCPUS/, 0 when absent; kept, unused */
	int line;			/* where it is in the file */
};

struct hosts {
	struct host h[HOSTS_MAX];
	int nr;
};

/* One line of a host file being scanned: p moves, col says where p is for diagnostics. */
struct hosts_line {
	const char *file;
	const char *start, *p, *end;	/* the line without its blanks; p: what is not yet read */
	int line;
};

/*
 * fn(line, arg) for each line of text[0..len) that is not blank nor a
 * '#' comment, its blanks cut; a UTF-8 byte order mark at the start is
 * skipped, and a line with a control character (a NUL, ESC, ...) outside
 * a comment is reported and not given to fn.  -EINVAL when a line was bad
 * or fn refused one (having reported it), else 0.  The host file's, and
 * the Slurm machine file's (slurm_machines.h).
 */
int hosts_each_line(const char *file, const char *text, size_t len,
		    int (*fn)(struct hosts_line *s, void *arg), void *arg);

/* "file:line:col: error: why", col that of at. */
void hosts_line_err(const struct hosts_line *s, const char *at, const char *why);

/*
 * A run of letters, digits, '.', '_' and '-' into buf; 0, or -EINVAL
 * (reported, as "what: ...") for an empty or long one, or one led by '-'
 * (an option) or '.' (a label names a directory: no "..").
 */
int hosts_take_name(struct hosts_line *s, char *buf, size_t len, const char *what);

/* "@LABEL/" into h->label, when the line starts with '@'; 0 or -EINVAL (reported). */
int hosts_take_label(struct hosts_line *s, struct host *h);

/* h's label names no host of hs yet (a label names a directory); 0 or -EINVAL (reported). */
int hosts_check_unique(const struct hosts_line *s, const struct hosts *hs, const struct host *h);

/*
 * Parse text[0..len) (the file's contents) named file in diagnostics:
 * every bad line is reported "file:line:col: error: ..." and -EINVAL
 * returned after the last; a file without a host is -EINVAL.  A UTF-8 byte
 * order mark at the start is skipped; a control character (a NUL, ESC, ...)
 * outside a comment is a bad line.
 */
int hosts_parse_len(const char *file, const char *text, size_t len, struct hosts *hs);

/* hosts_parse_len() of a NUL-terminated text. */
int hosts_parse(const char *file, const char *text, struct hosts *hs);

/* Read and parse the file at path: 0, -EINVAL (reported) or -errno (reported). */
int hosts_load(const char *path, struct hosts *hs);

#endif
