// SPDX-License-Identifier: GPL-2.0
/*
 * Capabilities through capget(2) itself: one syscall does not justify
 * libcap as a dependency.  CAP_SYS_ADMIN stands in for CAP_BPF and
 * CAP_PERFMON, as it does in the kernel (and is all that kernels before
 * 5.8 know).
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#include "caps.h"

const char caps_bpf_rule[] = "CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN)";

static const struct {
	int cap;
	const char *name;
} bpf_caps[] = {
	{ .cap = CAP_BPF, .name = "CAP_BPF" },
	{ .cap = CAP_PERFMON, .name = "CAP_PERFMON" },
};

static bool has_cap(uint64_t eff, int cap)
{
	return eff >> cap & 1;
}

int caps_lacking(const struct workload *wl, uint64_t eff, char *buf, size_t len)
{
	size_t off = 0;
	int n = 0;

	if (len)
		buf[0] = '\0';
	if (!wl->needs_bpf || has_cap(eff, CAP_SYS_ADMIN))
		return 0;
	for (size_t i = 0; i < sizeof(bpf_caps) / sizeof(bpf_caps[0]); i++) {
		if (has_cap(eff, bpf_caps[i].cap))
			continue;
		if (off < len)
			off += snprintf(buf + off, len - off, "%s%s", n ? ", " : "",
					bpf_caps[i].name);
		n++;
	}
	return n;
}

int caps_effective(uint64_t *eff)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { 0 };

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	*eff = (uint64_t)data[1].effective << 32 | data[0].effective;
	return 0;
}

int caps_missing(const struct workload *wl, char *buf, size_t len)
{
	uint64_t eff;
	int err;

	if (!wl->needs_bpf)
		return caps_lacking(wl, 0, buf, len);
	err = caps_effective(&eff);
	return err ? err : caps_lacking(wl, eff, buf, len);
}
