// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel axis without a VM: [sweep] kernel and vm_* binding (kernels.c),
 * the command lines of qemu and virtiofsd (vm_cmdline.c), and the console's
 * last lines that become a failed point's reason (vm.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bind.h"
#include "check.h"
#include "diag_capture.h"
#include "kernels.h"
#include "spec.h"
#include "vm.h"
#include "vm_cmdline.h"

static char tmp[64];

/* A file that passes for a bzImage: "HdrS" at 0x202, as the boot protocol puts it. */
static void make_bzimage(const char *path)
{
	char img[1024] = { 0 };
	FILE *f = fopen(path, "w");

	memcpy(img + 0x202, "HdrS", 4);
	fwrite(img, 1, sizeof(img), f);
	fclose(f);
}

static void make_tmp(void)
{
	char path[128];

	if (tmp[0])
		return;
	snprintf(tmp, sizeof(tmp), "/tmp/test_vm.XXXXXX");
	if (!mkdtemp(tmp))
		abort();
	snprintf(path, sizeof(path), "%s/bzImage", tmp);
	make_bzimage(path);
	snprintf(path, sizeof(path), "%s/tree/arch/x86/boot", tmp);
	for (char *p = path + strlen(tmp) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
	strcat(path, "/bzImage");
	make_bzimage(path);
	snprintf(path, sizeof(path), "%s/vmlinux", tmp);
	fclose(fopen(path, "w"));
}

__attribute__((destructor)) static void remove_tmp(void)
{
	static const char *const files[] = { "bzImage", "vmlinux", "console.log",
					     "tree/.config", "tree/arch/x86/boot/bzImage",
					     "tree/arch/x86/boot",
					     "tree/arch/x86", "tree/arch", "tree" };
	char path[192];

	if (!tmp[0])
		return;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, files[i]);
		if (unlink(path))
			rmdir(path);
	}
	rmdir(tmp);
}

static struct sweep_cfg *bind_text(const char *sweep_extra)
{
	char text[1024];
	struct spec *s;
	struct sweep_cfg *cfg = NULL;

	snprintf(text, sizeof(text), "[sweep]\nworkload = null\n%s\n[params]\nproducers = 1\n",
		 sweep_extra);
	capture();
	if (spec_parse_string("k.spec", text, &s))
		return NULL;
	bind_spec(s, &workloads_catalog, &cfg);
	spec_free(s);
	return cfg;
}

TEST(kernel_absent_is_the_host_only)
{
	struct sweep_cfg *cfg = bind_text("");

	CHECK(cfg);
	CHECK_INT(cfg->kernels.list.nr, 0);
	CHECK(!kernel_axis_has_vm(&cfg->kernels));
	CHECK_INT(cfg->kernels.accel, VM_ACCEL_AUTO);
	CHECK_INT(cfg->kernels.cpus, 2);
	CHECK_INT(cfg->kernels.mem, 2LL << 30);
	CHECK_INT(cfg->kernels.ssh_port, 0);
	sweep_cfg_free(cfg);
}

TEST(kernel_list_host_image_and_tree)
{
	char line[512];
	struct sweep_cfg *cfg;

	make_tmp();
	snprintf(line, sizeof(line), "kernel = host %s/bzImage  %s/tree\nvm_accel = tcg\n"
		 "vm_cpus = 4\nvm_mem = 1G\nvm_boot_timeout = 30s\nvm_ssh_port = 2222", tmp, tmp);
	cfg = bind_text(line);
	CHECK(cfg);
	CHECK_STR(diags(), "");
	CHECK_INT(cfg->kernels.list.nr, 3);
	CHECK_STR(cfg->kernels.list.vals[0], "host");
	CHECK(kernel_axis_has_vm(&cfg->kernels));
	CHECK_INT(cfg->kernels.accel, VM_ACCEL_TCG);
	CHECK_INT(cfg->kernels.cpus, 4);
	CHECK_INT(cfg->kernels.mem, 1LL << 30);
	CHECK_INT(cfg->kernels.boot_timeout_ns, 30000000000ULL);
	CHECK_INT(cfg->kernels.ssh_port, 2222);
	/* the third value is at its own column: "kernel = " + "host " + path + 2 spaces */
	CHECK_INT(cfg->kernels.list.locs[2].col, 10 + 5 + (int)strlen(tmp) + 8 + 2);
	sweep_cfg_free(cfg);
}

TEST(kernel_image_resolves_a_build_tree)
{
	char value[128], path[256], why[256], want[256];

	make_tmp();
	snprintf(value, sizeof(value), "%s/tree", tmp);
	CHECK_INT(kernel_image(value, path, sizeof(path), why, sizeof(why)), 0);
	snprintf(want, sizeof(want), "%s/tree/arch/x86/boot/bzImage", tmp);
	CHECK_STR(path, want);
	snprintf(value, sizeof(value), "%s", tmp);
	CHECK_INT(kernel_image(value, path, sizeof(path), why, sizeof(why)), -ENOENT);
	CHECK(strstr(why, "has no arch/x86/boot/bzImage"));
}

TEST(kernel_errors_are_located)
{
	char line[512], want[1024];
	struct sweep_cfg *cfg;

	make_tmp();
	cfg = bind_text("kernel = host /nonexistent/bzImage host");
	CHECK(!cfg);
	CHECK_STR(diags(), "k.spec:3:15: error: kernel image /nonexistent/bzImage: No such file "
		  "or directory\nk.spec:3:36: error: kernel 'host' is listed twice\n");
	snprintf(line, sizeof(line), "kernel = %s/vmlinux", tmp);
	cfg = bind_text(line);
	CHECK(!cfg);
	snprintf(want, sizeof(want), "k.spec:3:10: error: %s/vmlinux is not a bootable x86 "
		 "kernel image (no bzImage header; give arch/x86/boot/bzImage or "
		 "/boot/vmlinuz-*, not vmlinux)\n", tmp);
	CHECK_STR(diags(), want);
	cfg = bind_text("kernel =\nvm_accel = xen\nvm_mem = 64M\nvm_cpus = 0\n"
			"vm_boot_timeout = 10ms\nvm_ssh_port = 65536");
	CHECK(!cfg);
	CHECK(strstr(diags(), "k.spec:3:"));
	CHECK(strstr(diags(), "kernel needs a value"));
	CHECK(strstr(diags(), "k.spec:4:12: error:"));
	CHECK(strstr(diags(), "k.spec:5:10: error: value 64M out of range for 'vm_mem'"));
	CHECK(strstr(diags(), "k.spec:6:11: error: value 0 out of range for 'vm_cpus'"));
	CHECK(strstr(diags(), "k.spec:7:19: error: vm_boot_timeout below 1s"));
	CHECK(strstr(diags(), "k.spec:8:15: error: value 65536 out of range for 'vm_ssh_port'"));
}

/*
 * The list's text form (kernellist.h): parsed at each value's column,
 * printed with one space between values, and read back the same.
 */
TEST(kernel_list_text_round_trips)
{
	const struct loc at = { .file = "k.spec", .line = 3, .col = 10 };
	struct kernel_list kl = { 0 }, again = { 0 };
	char text[256], printed[256], small[8];

	make_tmp();
	capture();
	snprintf(text, sizeof(text), "host\t%s/bzImage  ", tmp);
	CHECK_INT(kernel_list_parse(&kl, text, &at), 0);
	CHECK_INT(kl.nr, 2);
	CHECK_INT(kl.locs[1].col, 10 + 5);
	CHECK(kernel_list_has_vm(&kl));
	CHECK_INT(kernel_list_print(&kl, printed, sizeof(printed)), 0);
	snprintf(text, sizeof(text), "host %s/bzImage", tmp);
	CHECK_STR(printed, text);
	CHECK_INT(kernel_list_parse(&again, printed, &at), 0);
	CHECK_INT(again.nr, 2);
	CHECK_STR(again.vals[1], kl.vals[1]);
	/* too long for the buffer: said, not cut */
	CHECK_INT(kernel_list_print(&kl, small, sizeof(small)), -E2BIG);
	CHECK_STR(diags(), "");
	kernel_list_free(&kl);
	kernel_list_free(&again);
}

/* --kernel's words: each checked once by the list, an error said as --kernel's. */
TEST(kernel_words_are_checked_as_the_option)
{
	const char *twice[] = { "host", "host" }, *spaced[] = { "a b" };
	struct kernel_list kl = { 0 };

	capture();
	CHECK_INT(kernel_list_from_words(&kl, twice, 2, "--kernel"), -EEXIST);
	CHECK(strstr(diags(), "error: --kernel: kernel 'host' is listed twice\n"));
	kernel_list_free(&kl);
	capture();
	CHECK_INT(kernel_list_from_words(&kl, spaced, 1, "--kernel"), -EINVAL);
	CHECK(strstr(diags(), "error: --kernel 'a b': a kernel path cannot be empty or hold "
		     "spaces\n"));
	CHECK_INT(kl.nr, 0);
}

/*
 * The list into the spec's kernel key: the spec as run (OUT/spec, which
 * --resume compares byte for byte) is what the --set kernel="A B" that
 * --kernel A --kernel B once became made of it, the key replaced where
 * it is, or added to [sweep].
 */
TEST(kernel_list_into_the_spec_as_the_set_did)
{
	static const char *const texts[] = {
		"[sweep]\nworkload = null\nkernel = host\nwarmup = 1s\n\n[params]\nproducers = 1\n",
		"[sweep]\nworkload = null\n\n[params]\nproducers = 1\n",
	};
	const char *words[] = { NULL, "host" };
	char image[128], assign[256];

	make_tmp();
	snprintf(image, sizeof(image), "%s/bzImage", tmp);
	words[0] = image;
	snprintf(assign, sizeof(assign), "kernel=%s host", image);
	for (int i = 0; i < 2; i++) {
		struct spec *mine, *set;
		struct kernel_list kl = { 0 };
		char *a = NULL, *b = NULL;
		size_t la, lb;
		FILE *fa = open_memstream(&a, &la), *fb = open_memstream(&b, &lb);

		CHECK_INT(spec_parse_string("k.spec", texts[i], &mine), 0);
		CHECK_INT(spec_parse_string("k.spec", texts[i], &set), 0);
		CHECK_INT(kernel_list_from_words(&kl, words, 2, "--kernel"), 0);
		CHECK_INT(kernel_list_set_spec(&kl, mine), 0);
		CHECK_INT(spec_set(set, assign), 0);
		spec_write(mine, fa);
		spec_write(set, fb);
		fclose(fa);
		fclose(fb);
		CHECK_STR(a, b);
		CHECK(strstr(a, assign + strlen("kernel=")));
		free(a);
		free(b);
		kernel_list_free(&kl);
		spec_free(mine);
		spec_free(set);
	}
}

/* The build tree's .config: the root's three drivers as given, the rest built in. */
static void write_tree_config(const char *pci, const char *fs, const char *fuse)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tree/.config", tmp);
	f = fopen(path, "w");
	fprintf(f, "CONFIG_VIRTIO_PCI=%s\nCONFIG_VIRTIO_FS=%s\nCONFIG_FUSE_FS=%s\n"
		"CONFIG_BPF_SYSCALL=y\nCONFIG_DEBUG_INFO_BTF=y\nCONFIG_SERIAL_8250=y\n"
		"CONFIG_SERIAL_8250_CONSOLE=y\nCONFIG_DEVTMPFS=y\n", pci, fs, fuse);
	fclose(f);
}

TEST(kernel_config_lacking_virtiofs_is_refused)
{
	char path[256], image[256], why[1024];

	make_tmp();
	write_tree_config("y", "m", "y");
	snprintf(path, sizeof(path), "%s/tree", tmp);
	CHECK_INT(kernel_image(path, image, sizeof(image), why, sizeof(why)), -ENOEXEC);
	CHECK(strstr(why, "cannot boot as a bpfsweep guest"));
	CHECK(strstr(why, "lacks CONFIG_VIRTIO_FS (=m"));
	/* the same options built in: it may boot */
	write_tree_config("y", "y", "y");
	CHECK_INT(kernel_image(path, image, sizeof(image), why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s/tree/.config", tmp);
	unlink(path);
}

/*
 * The root's drivers as modules boot with the initramfs beside the image
 * (what scripts/vm-kernel.sh packs for 6.1), and qemu is given it.
 */
TEST(initrd_beside_the_image_loads_the_root_s_modules)
{
	char path[256], image[256], why[1024], initrd[256], tree[256];

	make_tmp();
	write_tree_config("m", "m", "m");
	snprintf(tree, sizeof(tree), "%s/tree", tmp);
	CHECK_INT(kernel_image(tree, image, sizeof(image), why, sizeof(why)), -ENOEXEC);
	CHECK(strstr(why, "CONFIG_VIRTIO_PCI (=m: a module, and no initrd.cpio beside the image"));
	vm_image_initrd(image, initrd, sizeof(initrd));
	CHECK_STR(initrd, "");

	snprintf(path, sizeof(path), "%s/tree/arch/x86/boot/initrd.cpio", tmp);
	fclose(fopen(path, "w"));
	CHECK_INT(kernel_image(tree, image, sizeof(image), why, sizeof(why)), 0);
	vm_image_initrd(image, initrd, sizeof(initrd));
	CHECK_STR(initrd, path);
	/* a buffer too short for the path: none rather than a cut one */
	vm_image_initrd(image, initrd, 8);
	CHECK_STR(initrd, "");
	unlink(path);
	snprintf(path, sizeof(path), "%s/tree/.config", tmp);
	unlink(path);
}

static int find_arg(const struct vm_argv *av, const char *a)
{
	for (int i = 0; i < av->argc; i++)
		if (!strcmp(av->argv[i], a))
			return i;
	return -1;
}

static const char *after(const struct vm_argv *av, const char *a)
{
	int i = find_arg(av, a);

	return i >= 0 && i + 1 < av->argc ? av->argv[i + 1] : "(none)";
}

TEST(qemu_argv_tcg)
{
	struct vm_boot b = {
		.qemu = "/usr/bin/qemu-system-x86_64", .machine = "x86_64", .image = "/k/bzImage",
		.accel = VM_ACCEL_TCG, .cpus = 3, .mem = 1536LL << 20, .init = "/w/bpfsweep",
		.root_sock = "/tmp/s/root.sock", .out_sock = "/tmp/s/out.sock",
		.console = "/r/a,b/console.log",
	};
	struct vm_argv av;
	char why[256];

	CHECK_INT(vm_qemu_argv(&b, &av, why, sizeof(why)), 0);
	CHECK_STR(av.argv[0], "/usr/bin/qemu-system-x86_64");
	CHECK(av.argv[av.argc] == NULL);
	CHECK_STR(after(&av, "-accel"), "tcg,thread=single");
	CHECK_STR(after(&av, "-cpu"), "max");
	CHECK_STR(after(&av, "-smp"), "3");
	CHECK_STR(after(&av, "-m"), "1536M");
	CHECK_STR(after(&av, "-object"), "memory-backend-memfd,id=mem,size=1536M,share=on");
	CHECK_STR(after(&av, "-numa"), "node,memdev=mem");
	CHECK_STR(after(&av, "-kernel"), "/k/bzImage");
	CHECK_STR(after(&av, "-append"), "console=ttyS0 rootfstype=virtiofs root=bpfsweep-root "
		  "ro init=/w/bpfsweep panic=-1 quiet");
	CHECK_STR(after(&av, "-serial"), "chardev:con");
	CHECK(find_arg(&av, "-no-reboot") > 0);
	CHECK(find_arg(&av, "-nodefaults") > 0);
	/* a comma in a path would start a new qemu suboption: doubled */
	CHECK(find_arg(&av, "file,id=con,path=/r/a,,b/console.log") > 0);
	CHECK(find_arg(&av, "socket,id=root,path=/tmp/s/root.sock") > 0);
	CHECK(find_arg(&av, "vhost-user-fs-pci,chardev=root,tag=bpfsweep-root") > 0);
	CHECK(find_arg(&av, "vhost-user-fs-pci,chardev=out,tag=bpfsweep-out") > 0);
	/* no vm_ssh_port, no NIC (-nodefaults gives none either) */
	CHECK(find_arg(&av, "-netdev") < 0);
	CHECK(find_arg(&av, "-device") > 0);
	for (int i = 0; i < av.argc; i++)
		CHECK(!strstr(av.argv[i], "virtio-net"));
	/* timed by the host's clock: no instruction counter */
	CHECK(find_arg(&av, "-icount") < 0);
	/* no initramfs unless given one */
	CHECK(find_arg(&av, "-initrd") < 0);
	b.initrd = "/k/initrd.cpio";
	CHECK_INT(vm_qemu_argv(&b, &av, why, sizeof(why)), 0);
	CHECK_STR(after(&av, "-initrd"), "/k/initrd.cpio");
	CHECK_STR(after(&av, "-kernel"), "/k/bzImage");
}

/* TCG icount: the same single-threaded TCG, with the instruction-count clock, one vCPU */
TEST(qemu_argv_tcg_icount)
{
	struct vm_boot b = {
		.qemu = "qemu-system-x86_64", .machine = "x86_64", .image = "/k/bzImage",
		.accel = VM_ACCEL_TCG_ICOUNT, .cpus = 1, .mem = 512LL << 20, .init = "/w/bpfsweep",
		.root_sock = "/r", .out_sock = "/o", .console = "/c",
	};
	struct vm_argv av;
	char why[256];

	CHECK_INT(vm_qemu_argv(&b, &av, why, sizeof(why)), 0);
	CHECK_STR(after(&av, "-accel"), "tcg,thread=single");
	CHECK_STR(after(&av, "-icount"), "shift=0,sleep=off");
	CHECK_STR(after(&av, "-cpu"), "max");
	CHECK_STR(after(&av, "-smp"), "1");
	CHECK_STR(after(&av, "-kernel"), "/k/bzImage");
	CHECK(av.argv[av.argc] == NULL);
}

/*
 * vm_accel = tcg-icount runs one vCPU: vm_cpus left out becomes 1, 1 is
 * taken, and more is refused at its value, whichever key comes first.
 */
TEST(kernel_tcg_icount_is_one_vcpu)
{
	struct sweep_cfg *cfg = bind_text("vm_accel = tcg-icount");

	CHECK(cfg);
	CHECK_STR(diags(), "");
	CHECK_INT(cfg->kernels.accel, VM_ACCEL_TCG_ICOUNT);
	CHECK_INT(cfg->kernels.cpus, 1);
	sweep_cfg_free(cfg);
	cfg = bind_text("vm_cpus = 1\nvm_accel = tcg-icount");
	CHECK(cfg);
	CHECK_STR(diags(), "");
	CHECK_INT(cfg->kernels.cpus, 1);
	sweep_cfg_free(cfg);
	cfg = bind_text("vm_cpus = 2\nvm_accel = tcg-icount");
	CHECK(!cfg);
	CHECK_STR(diags(), "k.spec:3:11: error: vm_cpus = 2 with vm_accel = tcg-icount: qemu's "
		  "instruction counter runs one vCPU (vm_cpus = 1, or leave it out)\n");
	cfg = bind_text("vm_accel = tcg-icount\nvm_cpus = 4");
	CHECK(!cfg);
	CHECK(strstr(diags(), "k.spec:4:11: error: vm_cpus = 4 with vm_accel = tcg-icount"));
	/* other accelerators keep their CPUs */
	cfg = bind_text("vm_accel = tcg\nvm_cpus = 4");
	CHECK(cfg);
	CHECK_INT(cfg->kernels.cpus, 4);
	sweep_cfg_free(cfg);
}

TEST(qemu_argv_ssh_port)
{
	struct vm_boot b = {
		.qemu = "qemu-system-x86_64", .machine = "x86_64", .image = "/k/bzImage",
		.accel = VM_ACCEL_TCG, .cpus = 1, .mem = 512LL << 20, .init = "/w/bpfsweep",
		.root_sock = "/r", .out_sock = "/o", .console = "/c", .ssh_port = 20022,
	};
	struct vm_argv av;
	char why[256];

	CHECK_INT(vm_qemu_argv(&b, &av, why, sizeof(why)), 0);
	/* the guest reaches nothing; 127.0.0.1 only, not every address here */
	CHECK_STR(after(&av, "-netdev"), "user,id=net,restrict=on,hostfwd=tcp:127.0.0.1:20022-:22");
	CHECK(find_arg(&av, "virtio-net-pci,netdev=net,romfile=") > 0);
}

TEST(qemu_argv_kvm_and_bad_init)
{
	struct vm_boot b = {
		.qemu = "qemu-system-x86_64", .machine = "x86_64", .image = "/k/bzImage",
		.accel = VM_ACCEL_KVM, .cpus = 1, .mem = 512LL << 20, .init = "/w/bpfsweep",
		.root_sock = "/r", .out_sock = "/o", .console = "/c",
	};
	struct vm_argv av;
	char why[256];

	CHECK_INT(vm_qemu_argv(&b, &av, why, sizeof(why)), 0);
	CHECK_STR(after(&av, "-accel"), "kvm");
	CHECK_STR(after(&av, "-cpu"), "host");
	b.init = "/my dir/bpfsweep";
	CHECK_INT(vm_qemu_argv(&b, &av, why, sizeof(why)), -EINVAL);
	CHECK(strstr(why, "space or control character"));
	b.init = "bpfsweep";
	CHECK_INT(vm_qemu_argv(&b, &av, why, sizeof(why)), -EINVAL);
}

/* A gate (rounds across kernels) is the second serial port, qemu's pipe on the FIFO pair. */
TEST(qemu_argv_gate_is_the_second_serial_port)
{
	struct vm_boot b = {
		.qemu = "qemu-system-x86_64", .machine = "x86_64", .image = "/k/bzImage",
		.accel = VM_ACCEL_TCG, .cpus = 1, .mem = 512LL << 20, .init = "/w/bpfsweep",
		.root_sock = "/r", .out_sock = "/o", .console = "/c", .gate = "/tmp/g,x/1",
	};
	struct vm_argv av;
	char why[256];
	int con, gate;

	CHECK_INT(vm_qemu_argv(&b, &av, why, sizeof(why)), 0);
	gate = find_arg(&av, "pipe,id=gate,path=/tmp/g,,x/1");
	con = find_arg(&av, "chardev:con");
	CHECK(gate > 0 && con > 0);
	/* ttyS0 stays the console: the gate's -serial comes after it */
	CHECK(find_arg(&av, "chardev:gate") > con);
	b.gate = NULL;
	CHECK_INT(vm_qemu_argv(&b, &av, why, sizeof(why)), 0);
	CHECK(find_arg(&av, "chardev:gate") < 0);
	/* arm64's virt machine has one UART: said, not booted without it */
	b.gate = "/tmp/g/1";
	b.machine = "aarch64";
	CHECK_INT(vm_qemu_argv(&b, &av, why, sizeof(why)), -EOPNOTSUPP);
	CHECK(strstr(why, "second serial port"));
}

/* The probe boots the stub with the real boot's machine choices, and nothing of a kernel's. */
TEST(probe_argv_is_the_boot_s_machine_with_the_stub)
{
	struct vm_boot b = {
		.qemu = "/usr/bin/qemu-system-x86_64", .machine = "x86_64", .accel = VM_ACCEL_KVM,
		.cpus = 2, .mem = 64LL << 20,
	};
	struct vm_argv av;

	CHECK_INT(vm_probe_argv(&b, "/tmp/p/firmware", &av), 0);
	CHECK_STR(av.argv[0], "/usr/bin/qemu-system-x86_64");
	CHECK(find_arg(&av, "-nodefaults") > 0);
	CHECK(find_arg(&av, "-no-reboot") > 0);
	CHECK_STR(after(&av, "-display"), "none");
	CHECK_STR(after(&av, "-accel"), "kvm");
	CHECK_STR(after(&av, "-cpu"), "host");
	CHECK_STR(after(&av, "-smp"), "2");
	CHECK_STR(after(&av, "-bios"), "/tmp/p/firmware");
	CHECK_STR(after(&av, "-device"), "isa-debug-exit,iobase=0xf4,iosize=0x04");
	CHECK_INT(find_arg(&av, "-kernel"), -1);
	CHECK_INT(find_arg(&av, "-serial"), -1);
	CHECK_INT(VM_PROBE_EXIT_STATUS, 99);
	b.machine = "aarch64";
	CHECK_INT(vm_probe_argv(&b, "/tmp/p/firmware", &av), -EOPNOTSUPP);
}

TEST(virtiofsd_argv)
{
	struct vm_argv av;

	CHECK_INT(vm_virtiofsd_argv("/usr/lib/qemu/virtiofsd", "/tmp/s/out.sock", "/r/a,b\\c",
				    true, &av), 0);
	CHECK_INT(av.argc, 8);
	CHECK_STR(av.argv[1], "--socket-path=/tmp/s/out.sock");
	/* FUSE options split at commas and unescape backslashes */
	CHECK_STR(av.argv[3], "source=/r/a\\,b\\\\c");
	CHECK_STR(av.argv[5], "cache=none");
	CHECK_STR(av.argv[7], "sandbox=chroot");
	CHECK_INT(vm_virtiofsd_argv("v", "s", "/", false, &av), 0);
	CHECK_STR(av.argv[5], "cache=always");
}

TEST(console_tail_is_one_clean_line)
{
	char path[128], tail[300];
	FILE *f;

	make_tmp();
	snprintf(path, sizeof(path), "%s/console.log", tmp);
	f = fopen(path, "w");
	fputs("[    0.1] early\n[    1.2] VFS: Cannot open root device\n\n"
	      "\x1b[K[1/2] progress\r[2/2] done \x1b[1m\n"
	      "---[ end Kernel panic - not syncing: VFS: Unable to mount root fs ]---\n\n", f);
	fclose(f);
	vm_console_tail(path, 3, tail, sizeof(tail));
	CHECK_STR(tail, "[1/2] progress | [2/2] done | ---[ end Kernel panic - not syncing: "
		  "VFS: Unable to mount root fs ]---");
	vm_console_tail("/nonexistent", 3, tail, sizeof(tail));
	CHECK_STR(tail, "");
}

RUN_TESTS(qemu_argv_gate_is_the_second_serial_port, kernel_absent_is_the_host_only, kernel_list_host_image_and_tree,
	  kernel_image_resolves_a_build_tree, kernel_errors_are_located,
	  kernel_list_text_round_trips, kernel_words_are_checked_as_the_option,
	  kernel_list_into_the_spec_as_the_set_did, kernel_config_lacking_virtiofs_is_refused,
	  initrd_beside_the_image_loads_the_root_s_modules, qemu_argv_tcg, qemu_argv_tcg_icount,
	  kernel_tcg_icount_is_one_vcpu, qemu_argv_ssh_port,
	  qemu_argv_kvm_and_bad_init, probe_argv_is_the_boot_s_machine_with_the_stub,
	  virtiofsd_argv, console_tail_is_one_clean_line)
