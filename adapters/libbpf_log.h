/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libbpf's own words for a failed load.  Between begin and end libbpf
 * prints nothing (the engine owns stderr); its first warning, and the
 * verifier's verdict when there is a program load log, are kept so that
 * the row of a point that failed says why in the kernel's terms.
 * Setup runs on one thread, one point at a time: a single capture suffices.
 */
#ifndef ADAPTERS_LIBBPF_LOG_H
#define ADAPTERS_LIBBPF_LOG_H

#include <stddef.h>

void libbpf_log_begin(void);
void libbpf_log_end(void);

/*
 * Append " (libbpf: <first warning>; verifier: <verdict>)" to why, for
 * what was captured since libbpf_log_begin(); nothing if nothing was.
 */
void libbpf_log_explain(char *why, size_t len);

/*
 * The verifier's verdict in a program load log: its last line that is not
 * instruction trace, register state or statistics ("" if there is none,
 * as in a log cut short in the middle of the trace).
 */
void libbpf_log_verdict(const char *log, char *out, size_t size);

/*
 * The verdict of a refused program's log that libbpf does not print (one
 * the caller gave it: progload.c's), kept for libbpf_log_explain().
 */
void libbpf_log_keep_verdict(const char *log);

#endif
