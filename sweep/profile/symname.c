// SPDX-License-Identifier: GPL-2.0
/* Symbol names compared and shown (symname.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "symname.h"

#define BPF_PREFIX	"bpf_prog_"

bool sym_bpf_tagged(const char *s, size_t len)
{
	size_t p = strlen(BPF_PREFIX);

	if (len <= p + SYM_BPF_TAG_LEN + 1 || memcmp(s, BPF_PREFIX, p))
		return false;
	for (size_t i = 0; i < SYM_BPF_TAG_LEN; i++)
		if (!isxdigit((unsigned char)s[p + i]))
			return false;
	return s[p + SYM_BPF_TAG_LEN] == '_';
}

/* The tags of one stack dropped, in place (the text only shrinks). */
static void untag_stack(char *stack)
{
	char *in = stack, *out = stack;

	while (*in) {
		size_t len = strcspn(in, ";");

		if (sym_bpf_tagged(in, len)) {
			size_t p = strlen(BPF_PREFIX), cut = SYM_BPF_TAG_LEN + 1;

			memmove(out, in, p);
			memmove(out + p, in + p + cut, len - p - cut);
			out += len - cut;
		} else {
			memmove(out, in, len);
			out += len;
		}
		in += len;
		if (*in)
			*out++ = *in++;
	}
	*out = '\0';
}

void folded_untag(struct folded *f)
{
	for (int i = 0; i < f->nr; i++)
		untag_stack(f->l[i].stack);
	folded_merge(f);
}

const char *sym_short(const char *name, int width, char *buf, size_t len)
{
	int n = (int)strlen(name);

	if (n <= width || width < 4)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%.*s...", width - 3, name);
	return buf;
}
