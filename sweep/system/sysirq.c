// SPDX-License-Identifier: GPL-2.0
/* IRQ affinities, irqbalance and CPU lists for the system check: see sysirq.h. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysirq.h"
#include "textfile.h"

/* One "a" or "a-b" of a list, from *s: false when it is not one. */
static bool parse_range(const char **s, long *a, long *b)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return false;
	*a = *b = strtol(*s, &end, 10);
	if (*end == '-') {
		if (!isdigit((unsigned char)end[1]))
			return false;
		*b = strtol(end + 1, &end, 10);
	}
	*s = end;
	return *a <= *b && *b < CPU_SETSIZE;
}

int cpus_parse(const char *list, cpu_set_t *set)
{
	const char *s = list;
	long a, b;

	CPU_ZERO(set);
	if (!strcmp(list, "all")) {
		for (int c = 0; c < CPU_SETSIZE; c++)
			CPU_SET(c, set);
		return 0;
	}
	while (*s && *s != '\n') {
		if (!parse_range(&s, &a, &b))
			return -EINVAL;
		for (long c = a; c <= b; c++)
			CPU_SET(c, set);
		if (*s != ',')
			break;
		s++;
	}
	return *s && *s != '\n' ? -EINVAL : 0;
}

void cpus_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && n < len; c++) {
		int last = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		if (last > c)
			n += snprintf(buf + n, len - n, "%s%d-%d", n ? "," : "", c, last);
		else
			n += snprintf(buf + n, len - n, "%s%d", n ? "," : "", c);
		c = last;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

bool cpus_within(const cpu_set_t *a, const cpu_set_t *b)
{
	cpu_set_t both;

	CPU_AND(&both, a, b);
	return CPU_EQUAL(&both, a);
}

static bool all_digits(const char *s)
{
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int sys_proc_running(const char *root, const char *name)
{
	char path[PATH_MAX];
	struct dirent *e;
	int found = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/proc", root);
	d = opendir(path);
	if (!d)
		return -1;
	while (!found && (e = readdir(d))) {
		char *comm;

		if (!all_digits(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/proc/%s/comm", root, e->d_name);
		/* a process that ended meanwhile has no comm: not it */
		comm = read_first_line(path);
		found = comm && !strcmp(comm, name);
		free(comm);
	}
	closedir(d);
	return found;
}

/* IRQ dir's affinity into aff[*nr], when it has one that parses. */
static int add_irq(const char *root, const char *irq, cpu_set_t **aff, int *nr)
{
	char path[PATH_MAX], *list;
	cpu_set_t *grown;
	int err = 0;

	snprintf(path, sizeof(path), "%s/proc/irq/%s/smp_affinity_list", root, irq);
	list = read_first_line(path);
	if (!list)
		return 0;
	grown = realloc(*aff, (*nr + 1) * sizeof(**aff));
	if (!grown)
		err = -ENOMEM;
	else if (!cpus_parse(list, &grown[*nr]))
		(*nr)++;
	if (grown)
		*aff = grown;
	free(list);
	return err;
}

int sys_irq_affinities(const char *root, cpu_set_t **aff, int *nr)
{
	char path[PATH_MAX];
	struct dirent *e;
	int err = 0;
	DIR *d;

	*aff = NULL;
	*nr = 0;
	snprintf(path, sizeof(path), "%s/proc/irq", root);
	d = opendir(path);
	if (!d)
		return -errno;
	while (!err && (e = readdir(d)))
		if (all_digits(e->d_name))
			err = add_irq(root, e->d_name, aff, nr);
	closedir(d);
	return err;
}

bool cmdline_param(const char *cmdline, const char *param, char *buf, size_t len)
{
	size_t n = strlen(param);
	const char *s = cmdline;

	for (; s && *s; s += strcspn(s, " ")) {
		s += strspn(s, " ");
		if (strncmp(s, param, n) || (s[n] && s[n] != '=' && s[n] != ' '))
			continue;
		snprintf(buf, len, "%.*s", s[n] == '=' ? (int)strcspn(s + n + 1, " ") : 0,
			 s[n] == '=' ? s + n + 1 : "");
		return true;
	}
	return false;
}
