// SPDX-License-Identifier: GPL-2.0
/*
 * Lines of a published text that name the machine its tables come from:
 * seed 002's "- x86_64 (AMD EPYC 9654)" before its x86 table and
 * "- arm64 (HiSilicon Kunpeng 920)" before its arm64 one, and bpfsweep's
 * own "- x86_64 (AMD EPYC 9654), kernel 6.18.0" above a table.  import.c makes
 * the blocks that follow that machine's, so that one file of two machines
 * imports as two runs named by what they ran on (import.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

/* uname -m and Debian's names of the architectures the kernel's benches run on */
static const char *const arches[] = {
	"x86_64", "amd64", "i386", "i686", "arm64", "aarch64", "armv7l", "armhf", "riscv64",
	"s390x", "ppc64le", "ppc64", "loongarch64", "mips64", "mips64el", NULL,
};

static bool is_arch(const char *s, size_t len)
{
	for (int i = 0; arches[i]; i++)
		if (strlen(arches[i]) == len && !strncmp(arches[i], s, len))
			return true;
	return false;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* "(MODEL)" at s, the model's start and length into *model, *len; s past it or NULL. */
static const char *model_part(const char *s, const char **model, size_t *len)
{
	const char *close;

	*model = NULL;
	*len = 0;
	if (*s != '(')
		return s;
	close = strrchr(s, ')');
	if (!close)
		return NULL;
	*model = skip_blanks(s + 1);
	*len = close - *model;
	while (*len && isspace((unsigned char)(*model)[*len - 1]))
		(*len)--;
	return *len && !memchr(*model, '(', *len) ? close + 1 : NULL;
}

/*
 * ", kernel 6.18.0" at s, as bpfsweep's tables end their machine line:
 * the release's start and length into *rel, *len; s past it, s itself
 * without one, or NULL for ", kernel" without a release.
 */
static const char *kernel_part(const char *s, const char **rel, size_t *len)
{
	static const char lead[] = ", kernel ";

	*rel = NULL;
	*len = 0;
	if (strncmp(s, lead, sizeof(lead) - 1))
		return s;
	*rel = skip_blanks(s + sizeof(lead) - 1);
	for (s = *rel; *s && !isspace((unsigned char)*s) && *s != ':'; s++)
		;
	*len = s - *rel;
	return *len ? s : NULL;
}

bool import_machine_line(const char *line, struct import_machine *m)
{
	const char *s = skip_blanks(line), *arch, *model, *rel;
	size_t arch_len, model_len, rel_len;

	if ((*s == '-' || *s == '*') && (s[1] == ' ' || s[1] == '\t'))
		s = skip_blanks(s + 1);
	arch = s;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	arch_len = s - arch;
	if (!is_arch(arch, arch_len))
		return false;
	s = model_part(skip_blanks(s), &model, &model_len);
	if (s)
		s = kernel_part(s, &rel, &rel_len);
	if (!s)
		return false;
	s = skip_blanks(s);
	if (*s == ':')
		s = skip_blanks(s + 1);
	if (*s)
		return false;
	m->arch = strndup(arch, arch_len);
	m->cpu_model = model ? strndup(model, model_len) : NULL;
	m->kernel_release = rel ? strndup(rel, rel_len) : NULL;
	if (m->arch && (!model || m->cpu_model) && (!rel || m->kernel_release))
		return true;
	import_machine_free(m);
	return false;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

int import_machine_add(struct import_set *set, struct import_machine *m)
{
	struct import_machine *ms;

	for (int i = 0; i < set->nr_machines; i++) {
		if (same(set->machines[i].arch, m->arch) &&
		    same(set->machines[i].cpu_model, m->cpu_model) &&
		    same(set->machines[i].kernel_release, m->kernel_release)) {
			import_machine_free(m);
			return i;
		}
	}
	ms = realloc(set->machines, (set->nr_machines + 1) * sizeof(*ms));
	if (!ms) {
		import_machine_free(m);
		return -ENOMEM;
	}
	set->machines = ms;
	ms[set->nr_machines] = *m;
	return set->nr_machines++;
}

void import_machine_free(struct import_machine *m)
{
	free(m->arch);
	free(m->cpu_model);
	free(m->kernel_release);
	m->arch = m->cpu_model = m->kernel_release = NULL;
}
