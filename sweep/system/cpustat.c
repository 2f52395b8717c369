// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/stat, per CPU.  The kernel accounts each CPU's time by state in
 * USER_HZ ticks ("cpu3 user nice system idle iowait irq softirq steal
 * guest guest_nice"); guest time is already counted in user and nice.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpustat.h"

enum { USER, NICE, SYSTEM, IDLE, IOWAIT, IRQ, SOFTIRQ, STEAL, NR_FIELDS };

/* One "cpuN f0 f1 ..." line into s; lines of other kinds are skipped. */
static void parse_line(const char *line, struct cpustat *s)
{
	uint64_t f[NR_FIELDS] = { 0 };
	int cpu, used;
	const char *p;

	if (sscanf(line, "cpu%d%n", &cpu, &used) != 1 || cpu < 0 || cpu >= CPUSTAT_MAX_CPUS)
		return;
	p = line + used;
	for (int i = 0; i < NR_FIELDS; i++) {
		char *end;

		f[i] = strtoull(p, &end, 10);
		if (end == p)
			break;		/* old kernels list fewer states */
		p = end;
	}
	s->cpu[cpu].busy = f[USER] + f[NICE] + f[SYSTEM] + f[IRQ] + f[SOFTIRQ];
	s->cpu[cpu].steal = f[STEAL];
	s->cpu[cpu].all = s->cpu[cpu].busy + f[STEAL] + f[IDLE] + f[IOWAIT];
	s->present[cpu] = 1;
}

int cpustat_parse(const char *text, struct cpustat *s)
{
	bool any = false;

	memset(s->present, 0, sizeof(s->present));
	for (const char *line = text; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		parse_line(line, s);
	}
	for (int c = 0; c < CPUSTAT_MAX_CPUS && !any; c++)
		any = s->present[c];
	return any ? 0 : -EINVAL;
}

int cpustat_read(struct cpustat *s)
{
	/* about 150 bytes per CPU: enough for CPUSTAT_MAX_CPUS CPUs and the rest */
	const size_t size = 256 * 1024;
	char *buf = malloc(size);
	ssize_t n = 0, len = 0;
	int fd, err;

	if (!buf)
		return -ENOMEM;
	fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		free(buf);
		return err;
	}
	while ((n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	err = n < 0 ? -EIO : cpustat_parse(buf, s);
	free(buf);
	return err;
}

void cpustat_add_window(struct cpu_load *load, const struct cpustat *a,
			const struct cpustat *b, const int *cpus, int nr)
{
	for (int i = 0; i < nr; i++) {
		int c = cpus[i];

		if (c < 0 || c >= CPUSTAT_MAX_CPUS || !a->present[c] || !b->present[c])
			continue;
		load->steal_ticks += b->cpu[c].steal - a->cpu[c].steal;
		load->all_ticks += b->cpu[c].all - a->cpu[c].all;
	}
	load->windows++;
}
