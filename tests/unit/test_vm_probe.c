// SPDX-License-Identifier: GPL-2.0
/*
 * The KVM probe (vm_probe.c): its stub guest under a real qemu's TCG (the
 * stub and the exit device work), and under the fake qemus of
 * tests/fixtures/fakeqemu, which stand in for a host whose KVM aborts,
 * hangs or works: this machine has no /dev/kvm, and no host here has the
 * broken KVM, so the fakes are the evidence for those verdicts.  Run from
 * the top of the tree, as tests/run.sh does.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "diag_capture.h"
#include "kernels.h"
#include "subproc.h"
#include "vm_probe.h"

#define FAKES		"tests/fixtures/fakeqemu/"
#define ASSERTION	"kvm_buf_set_msrs: Assertion `ret == cpu->kvm_msr_buf->nmsrs' failed."

static char calls[64];

/* The probes the fake qemus ran since the last call (the lines they appended). */
static int nr_calls(void)
{
	FILE *f = fopen(calls, "r");
	int n = 0, c;

	if (!f)
		return 0;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	unlink(calls);
	return n;
}

/* vm_pick_accel() asks FAKES<name> from now on, afresh; it counts the calls. */
static void use_fake(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), FAKES "%s", name);
	if (!calls[0]) {
		snprintf(calls, sizeof(calls), "/tmp/test_vm_probe.%d", (int)getpid());
		setenv("FAKE_QEMU_CALLS", calls, 1);
	}
	setenv(VM_PROBE_ENV, path, 1);
	unlink(calls);
	vm_pick_accel_forget();
	capture();
}

__attribute__((destructor)) static void remove_calls(void)
{
	if (calls[0])
		unlink(calls);
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int probe(const char *qemu, enum vm_accel accel, unsigned int timeout_ms, char *why,
		 size_t len)
{
	struct vm_probe p = { .qemu = qemu, .machine = "x86_64", .accel = accel, .cpus = 2,
			      .timeout_ms = timeout_ms };

	why[0] = '\0';
	return vm_probe_run(&p, why, len);
}

/* The stub itself: a real qemu runs it under TCG and exits as isa-debug-exit says. */
TEST(stub_runs_under_real_qemu_tcg)
{
	char qemu[PATH_MAX], why[600];

	if (spawn_find_in_path("qemu-system-x86_64", qemu, sizeof(qemu)))
		SKIP("qemu-system-x86_64 not installed (make deps installs qemu-system-x86)");
	CHECK_INT(probe(qemu, VM_ACCEL_TCG, VM_PROBE_TIMEOUT_MS, why, sizeof(why)), 0);
	CHECK_STR(why, "");
}

TEST(abort_is_refused_with_qemu_s_last_words)
{
	char why[600];

	CHECK_INT(probe(FAKES "abort", VM_ACCEL_KVM, VM_PROBE_TIMEOUT_MS, why, sizeof(why)),
		  -ENODEV);
	CHECK_STR(why, "qemu-system-x86_64: ../target/i386/kvm/kvm.c:3156: " ASSERTION
		  " (killed by signal 6, Aborted)");
}

/* A qemu that floods its log is killed at the log's bound (SIGXFSZ), not left to fill /tmp. */
TEST(flood_is_cut_off_at_the_log_s_bound)
{
	char why[600];

	CHECK_INT(probe(FAKES "flood", VM_ACCEL_KVM, VM_PROBE_TIMEOUT_MS, why, sizeof(why)),
		  -ENODEV);
	CHECK(strstr(why, "(killed by signal 25, File size limit exceeded)"));
}

TEST(hang_is_refused_after_the_timeout)
{
	char why[600];

	CHECK_INT(probe(FAKES "hang", VM_ACCEL_KVM, 300, why, sizeof(why)), -ENODEV);
	CHECK_STR(why, "no answer in 0.3 s");
}

TEST(work_is_kvm_and_other_ends_are_refused)
{
	char why[600];

	CHECK_INT(probe(FAKES "work", VM_ACCEL_KVM, VM_PROBE_TIMEOUT_MS, why, sizeof(why)), 0);
	/* the working fake checks the probe's command line: -accel tcg is not it */
	CHECK_INT(probe(FAKES "work", VM_ACCEL_TCG, VM_PROBE_TIMEOUT_MS, why, sizeof(why)),
		  -ENODEV);
	CHECK_STR(why, "fake qemu: not the probe's command line (exit status 1)");
	CHECK_INT(probe("/bin/true", VM_ACCEL_KVM, VM_PROBE_TIMEOUT_MS, why, sizeof(why)),
		  -ENODEV);
	CHECK_STR(why, "qemu said nothing (exit status 0)");
	CHECK_INT(probe("/nonexistent/qemu", VM_ACCEL_KVM, 1000, why, sizeof(why)), -ENOENT);
	CHECK_STR(why, "cannot start /nonexistent/qemu: No such file or directory");
}

TEST(auto_falls_back_to_tcg_once_with_a_warning)
{
	struct kernel_axis ka;
	struct vm_accel_pick pick;
	char why[800] = "";

	kernel_axis_init(&ka);
	use_fake("abort");
	CHECK_INT(vm_pick_accel(&ka, &pick, why, sizeof(why)), 0);
	CHECK_INT(pick.accel, VM_ACCEL_TCG);
	CHECK(starts(pick.refused, "kvm refused: qemu-system-x86_64: "));
	CHECK(strstr(pick.refused, ASSERTION " (killed by signal 6, Aborted)"));
	CHECK(strstr(diags(), "bpfsweep: warning: vm_accel = auto: KVM cannot run a guest here "
		      "(qemu-system-x86_64: "));
	CHECK(strstr(diags(), "the VM runs under TCG, emulated, for function, not performance "
		      "(vm_accel = tcg skips this check)\n"));
	/* the verdict is kept: no second probe, no second warning */
	capture();
	CHECK_INT(vm_pick_accel(&ka, &pick, why, sizeof(why)), 0);
	CHECK_INT(pick.accel, VM_ACCEL_TCG);
	CHECK(strstr(pick.refused, ASSERTION));
	CHECK_STR(diags(), "");
	CHECK_INT(nr_calls(), 1);
}

TEST(kvm_that_cannot_run_is_an_error_naming_tcg)
{
	struct kernel_axis ka;
	struct vm_accel_pick pick;
	char why[800] = "";

	kernel_axis_init(&ka);
	ka.accel = VM_ACCEL_KVM;
	use_fake("abort");
	CHECK_INT(vm_pick_accel(&ka, &pick, why, sizeof(why)), -ENODEV);
	CHECK(starts(why, "vm_accel = kvm: KVM cannot run a guest here (qemu-system-x86_64: "));
	CHECK(strstr(why, ASSERTION " (killed by signal 6, Aborted)); vm_accel=tcg runs it "
		      "emulated, slowly"));
	/* an error, not a warning besides */
	CHECK_STR(diags(), "");
	CHECK_INT(nr_calls(), 1);
}

TEST(kvm_that_runs_is_taken_and_tcg_asks_nothing)
{
	struct kernel_axis ka;
	struct vm_accel_pick pick;
	char why[800] = "";

	kernel_axis_init(&ka);
	use_fake("work");
	CHECK_INT(vm_pick_accel(&ka, &pick, why, sizeof(why)), 0);
	CHECK_INT(pick.accel, VM_ACCEL_KVM);
	CHECK_STR(pick.refused, "");
	ka.accel = VM_ACCEL_KVM;
	CHECK_INT(vm_pick_accel(&ka, &pick, why, sizeof(why)), 0);
	CHECK_INT(pick.accel, VM_ACCEL_KVM);
	CHECK_STR(diags(), "");
	CHECK_INT(nr_calls(), 1);
	ka.accel = VM_ACCEL_TCG;
	use_fake("abort");
	CHECK_INT(vm_pick_accel(&ka, &pick, why, sizeof(why)), 0);
	CHECK_INT(pick.accel, VM_ACCEL_TCG);
	CHECK_STR(pick.refused, "");
	CHECK_INT(nr_calls(), 0);
	/* TCG icount is emulation asked for too: kept as asked, no probe */
	ka.accel = VM_ACCEL_TCG_ICOUNT;
	CHECK_INT(vm_pick_accel(&ka, &pick, why, sizeof(why)), 0);
	CHECK_INT(pick.accel, VM_ACCEL_TCG_ICOUNT);
	CHECK_STR(pick.refused, "");
	CHECK_INT(nr_calls(), 0);
}

RUN_TESTS(flood_is_cut_off_at_the_log_s_bound, stub_runs_under_real_qemu_tcg, abort_is_refused_with_qemu_s_last_words,
	  hang_is_refused_after_the_timeout, work_is_kvm_and_other_ends_are_refused,
	  auto_falls_back_to_tcg_once_with_a_warning, kvm_that_cannot_run_is_an_error_naming_tcg,
	  kvm_that_runs_is_taken_and_tcg_asks_nothing)
