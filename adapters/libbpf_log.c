// SPDX-License-Identifier: GPL-2.0
/* Keeping libbpf's first warning and the verifier's verdict; see libbpf_log.h. */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "libbpf_log.h"

static struct {
	libbpf_print_fn_t saved;
	char first[256];	/* first warning, "libbpf: " and newline dropped */
	char verdict[256];	/* the verifier's last word before its statistics */
} capture;

/* Copy src[0..len) into dst without a trailing newline. */
static void keep(char *dst, size_t size, const char *src, size_t len)
{
	while (len && (src[len - 1] == '\n' || src[len - 1] == ' '))
		len--;
	snprintf(dst, size, "%.*s", (int)len, src);
}

/*
 * Lines of the load log that are not the verifier's verdict: the
 * instruction trace ("39: (61) r1 = ..."), register states, branches
 * ("from 3 to 5: ..."), and the statistics it ends with.
 */
static bool is_trace(const char *line, size_t len)
{
	static const char *const prefixes[] = {
		"processed ", "verification time", "stack depth", "-- END", "from ", "func#",
		NULL,
	};

	if (len <= 1 || isdigit((unsigned char)line[0]) || line[0] == ' ' ||
	    line[0] == '\t' || line[0] == ';')
		return true;
	for (int i = 0; prefixes[i]; i++)
		if (!strncmp(line, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/*
 * The verdict is the last line of the log that is not trace or statistics;
 * a log truncated in the middle of the trace has none.
 */
void libbpf_log_verdict(const char *log, char *out, size_t size)
{
	const char *line = log, *next, *verdict = NULL;
	size_t verdict_len = 0;

	for (; *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (is_trace(line, next - line))
			continue;
		verdict = line;
		verdict_len = next - line;
	}
	keep(out, size, verdict ? verdict : "", verdict_len);
}

static int on_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char msg[8192];
	const char *text = msg, *log;

	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (!strncmp(text, "libbpf: ", 8))
		text += 8;
	log = strstr(text, "-- BEGIN PROG LOAD LOG --\n");
	if (log)
		libbpf_log_verdict(log + strlen("-- BEGIN PROG LOAD LOG --\n"), capture.verdict,
				   sizeof(capture.verdict));
	else if (!capture.first[0])
		keep(capture.first, sizeof(capture.first), text, strlen(text));
	return 0;
}

void libbpf_log_keep_verdict(const char *log)
{
	libbpf_log_verdict(log, capture.verdict, sizeof(capture.verdict));
}

void libbpf_log_begin(void)
{
	capture.first[0] = '\0';
	capture.verdict[0] = '\0';
	capture.saved = libbpf_set_print(on_print);
}

void libbpf_log_end(void)
{
	libbpf_set_print(capture.saved);
}

void libbpf_log_explain(char *why, size_t len)
{
	size_t n = strlen(why);

	if (!capture.first[0] && !capture.verdict[0])
		return;
	snprintf(why + n, len - n, " (libbpf: %s%s%s)", capture.first,
		 capture.verdict[0] ? "; verifier: " : "", capture.verdict);
}
