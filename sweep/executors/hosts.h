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
