// SPDX-License-Identifier: GPL-2.0
/* The kernel axis and the VM settings of [sweep]: see kernels.h. */
#include <errno.h>

#include "bindval.h"
#include "kernels.h"
#include "param.h"

#define NSEC_PER_SEC	1000000000ULL

const char *const vm_accel_names[] = { "auto", "kvm", "tcg", "tcg-icount", NULL };

static const struct param_def accel_def = {
	.name = "vm_accel", .type = PT_ENUM, .def = "auto", .choices = vm_accel_names,
};
static const struct param_def cpus_def = {
	.name = "vm_cpus", .type = PT_INT, .def = "2", .min = 1, .max = 256,
};
/* below 256 MiB a distribution kernel and bpfsweep's maps do not fit */
static const struct param_def mem_def = {
	.name = "vm_mem", .type = PT_SIZE, .def = "2G", .min = 256LL << 20, .max = 1LL << 40,
};

/* a port of 127.0.0.1 here forwarded to the guest's port 22; 0: the guest has no NIC */
static const struct param_def ssh_port_def = {
	.name = "vm_ssh_port", .type = PT_INT, .def = "0", .min = 0, .max = 65535,
};

void kernel_axis_init(struct kernel_axis *ka)
{
	*ka = (struct kernel_axis){
		.accel = VM_ACCEL_AUTO, .cpus = 2, .mem = 2LL << 30,
		.boot_timeout_ns = 120 * NSEC_PER_SEC,
	};
}

void kernel_axis_free(struct kernel_axis *ka)
{
	kernel_list_free(&ka->list);
}

bool kernel_axis_has_vm(const struct kernel_axis *ka)
{
	return kernel_list_has_vm(&ka->list);
}

int kernel_axis_bind(struct kernel_axis *ka, enum sweep_key key, const struct spec_entry *e)
{
	char err[256];
	long long v;

	switch (key) {
	case SK_KERNEL:
		/* a later key replaces: --kernel's is a --set's */
		kernel_list_parse(&ka->list, e->value, &e->val_loc);
		return 1;
	case SK_VM_ACCEL:
		v = ka->accel;
		bind_scalar(&accel_def, e, &v);
		ka->accel = v;
		return 1;
	case SK_VM_CPUS:
		v = ka->cpus;
		bind_scalar(&cpus_def, e, &v);
		ka->cpus = v;
		ka->cpus_loc = e->val_loc;
		return 1;
	case SK_VM_MEM:
		bind_scalar(&mem_def, e, &ka->mem);
		return 1;
	case SK_VM_BOOT_TIMEOUT:
		if (parse_duration(e->value, &ka->boot_timeout_ns, err, sizeof(err)))
			diag_at(&e->val_loc, "%s", err);
		else if (ka->boot_timeout_ns < NSEC_PER_SEC)
			diag_at(&e->val_loc, "vm_boot_timeout below 1s: no kernel boots that fast");
		return 1;
	case SK_VM_SSH_PORT:
		v = ka->ssh_port;
		bind_scalar(&ssh_port_def, e, &v);
		ka->ssh_port = v;
		return 1;
	default:
		return 0;
	}
}

/*
 * qemu's instruction counter runs one vCPU: a guest of -smp 2 under
 * -icount did not finish booting in 300 s here.  vm_cpus left at its
 * default becomes 1; a vm_cpus above 1 that was asked for is refused at
 * its value rather than quietly not given.
 */
int kernel_axis_check(struct kernel_axis *ka)
{
	if (ka->accel != VM_ACCEL_TCG_ICOUNT || ka->cpus == 1)
		return 0;
	if (!ka->cpus_loc.file) {
		ka->cpus = 1;
		return 0;
	}
	diag_at(&ka->cpus_loc, "vm_cpus = %d with vm_accel = tcg-icount: qemu's instruction "
		"counter runs one vCPU (vm_cpus = 1, or leave it out)", ka->cpus);
	return -EINVAL;
}

static void section_init(struct sweep_cfg *cfg)
{
	kernel_axis_init(&cfg->kernels);
}

static int section_sweep_entry(struct sweep_cfg *cfg, int key, const struct spec_entry *e)
{
	return kernel_axis_bind(&cfg->kernels, key, e);
}

static int section_bind(const struct spec *s, struct sweep_cfg *cfg, bool declared)
{
	(void)s;
	(void)declared;
	return kernel_axis_check(&cfg->kernels);
}

static void section_free(struct sweep_cfg *cfg)
{
	kernel_axis_free(&cfg->kernels);
}

const struct section_binder kernel_section_binder = {
	.name = "kernel axis",
	.init = section_init,
	.sweep_entry = section_sweep_entry,
	.bind = section_bind,
	.free = section_free,
};
