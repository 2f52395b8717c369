// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger workload: what each BPF attach type costs, after the
 * kernel's selftests/bpf/benchs/bench_rename.c (and test_overhead).
 *
 * trigger=user: producers rename themselves in a loop, a
 * prctl(PR_SET_NAME) each: one event per call.  A BPF program of the
 * point's attach type on the rename path counts the events of each
 * producer (the programs are in bpf/trigger.bpf.c); `base` attaches
 * nothing and counts the calls in user space.  The seed's bench writes
 * /proc/self/comm, which reaches the same __set_task_comm() through the
 * VFS (open file, proc inode, a copy and a bounds check); prctl is one
 * syscall straight to it, and passes through security_task_prctl(), a
 * hook fmod_ret may attach to, which __set_task_comm() is not.  Each
 * producer renames itself, so that several do not share a task lock.
 *
 * trigger=kernel, the "true potential" (selftests' bench_trigger.c):
 * each producer runs a driver program through BPF_PROG_TEST_RUN that
 * calls the kfunc bpf_modify_return_test_tp() `batch` times, so that one
 * syscall's cost is shared by `batch` events; the attach points are on
 * that kfunc and the tracepoint it fires.  base attaches nothing and its
 * events are the calls the driver made (batch per run, counted in user
 * space); every other bench's events are counted by its program.
 *
 * Every point loads its own program and no other (bench_rename loads the
 * whole object, so one attach type the kernel refuses fails them all):
 * on a kernel in lockdown kprobe, fentry and the like are `unsupported`
 * rows with the kernel's answer, and the rest run.
 *
 * events counts the triggers the program saw (base: the triggers), per
 * producer; triggers those issued, counted in user space (renames, or
 * batch per driver run), so that the two can be compared; missed the runs
 * of the program the kernel skipped (its recursion_misses: a run would
 * have nested in another on that CPU), which are what events lack of
 * triggers.
 *
 * The two triggers' programs are two BPF objects: trigger=kernel's driver
 * calls a kfunc, and an object with one has libbpf parse the kernel's
 * BTF at every load, which trigger=user's tp, raw_tp and kprobe points
 * then do not pay (bpf/trigger.bpf.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kfacts.h"
#include "libbpf_log.h"
#include "progload.h"
#include "trigger.h"
#include "trigger.skel.h"
#include "trigger_kt.skel.h"
#include "workload.h"

/* The kernel's internal "not supported", which some attach paths return as it is. */
#define KERNEL_ENOTSUPP		524

enum bench { B_BASE, B_TP, B_RAWTP, B_KPROBE, B_KRETPROBE, B_FENTRY, B_FEXIT, B_FMODRET,
	     NR_BENCHES };

static const char *const tr_benches[] = {
	"base", "tp", "rawtp", "kprobe", "kretprobe", "fentry", "fexit", "fmodret", NULL,
};

enum trig { T_USER, T_KERNEL, NR_TRIGS };

static const char *const tr_trigs[] = { "user", "kernel", NULL };

/* What each bench attaches, for reasons; base of kernel: the driver. */
static const char *const tr_what[NR_TRIGS][NR_BENCHES] = {
	[T_USER] = {
		[B_TP]		= "tracepoint task:task_rename",
		[B_RAWTP]	= "raw_tp task_rename",
		[B_KPROBE]	= "kprobe __set_task_comm",
		[B_KRETPROBE]	= "kretprobe __set_task_comm",
		[B_FENTRY]	= "fentry __set_task_comm",
		[B_FEXIT]	= "fexit __set_task_comm",
		[B_FMODRET]	= "fmod_ret security_task_prctl",
	},
	[T_KERNEL] = {
		[B_BASE]	= "driver raw_tp calling kfunc bpf_modify_return_test_tp",
		[B_TP]		= "tracepoint bpf_test_run:bpf_trigger_tp",
		[B_RAWTP]	= "raw_tp bpf_trigger_tp",
		[B_KPROBE]	= "kprobe bpf_modify_return_test_tp",
		[B_KRETPROBE]	= "kretprobe bpf_modify_return_test_tp",
		[B_FENTRY]	= "fentry bpf_modify_return_test_tp",
		[B_FEXIT]	= "fexit bpf_modify_return_test_tp",
		[B_FMODRET]	= "fmod_ret bpf_modify_return_test_tp",
	},
};

/* The build options each needs, besides BPF, for the EPERM hint (sweep/system/kfacts.h). */
static const char *const kprobe_needs[] = { "CONFIG_KPROBES", "CONFIG_KPROBE_EVENTS", NULL };
static const char *const tramp_needs[] = { "CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS", NULL };

static const char *const *const tr_needs[] = {
	[B_KPROBE] = kprobe_needs, [B_KRETPROBE] = kprobe_needs,
	[B_FENTRY] = tramp_needs, [B_FEXIT] = tramp_needs, [B_FMODRET] = tramp_needs,
};

enum { P_BENCH, P_PRODUCERS, P_TRIGGER, P_BATCH };

/* The most kfunc calls per driver run: what the verifier walks through, unrolled. */
#define TRIGGER_MAX_BATCH	10000

static const struct param_def tr_params[] = {
	[P_BENCH]	= { .name = "bench", .type = PT_ENUM, .def = "base", .choices = tr_benches,
			    .help = "what counts the triggers: base (nothing attached; user "
				    "space), tp, rawtp, kprobe, kretprobe, fentry, fexit, fmodret "
				    "(docs/attach.md)", .rodata = true },
	[P_PRODUCERS]	= { .name = "producers", .type = PT_INT, .def = "1", .min = 1,
			    .max = TRIGGER_PRODUCERS,
			    .help = "threads triggering in a loop", .rodata = true },
	[P_TRIGGER]	= { .name = "trigger", .type = PT_ENUM, .def = "user", .choices = tr_trigs,
			    .help = "user: each event a prctl(PR_SET_NAME) rename; kernel: `batch` "
				    "kfunc calls per BPF_PROG_TEST_RUN of a driver program",
			    .rodata = true },
	[P_BATCH]	= { .name = "batch", .type = PT_INT, .def = "100", .min = 1,
			    .max = TRIGGER_MAX_BATCH,
			    .help = "trigger=kernel: events per driver run (trigger=user ignores "
				    "it)", .rodata = true },
};

static const struct metric_def tr_metrics[] = {
	{ .name = "events", .kind = MK_COUNTER, .unit = "M/s", .per_thread = true,
	  .better = MB_HIGHER },
	{ .name = "triggers", .kind = MK_COUNTER, .unit = "M/s", .better = MB_HIGHER },
	{ .name = "missed", .kind = MK_COUNTER, .unit = "/s", .better = MB_LOWER },
	{ .name = "prog_runs", .kind = MK_COUNTER, .unit = "M/s", .source = MS_PROG_RUNS,
	  .better = MB_NEITHER },
	{ .name = "prog_ns", .kind = MK_COUNTER, .unit = "ms/s", .source = MS_PROG_NS,
	  .better = MB_NEITHER },
	WL_LOAD_METRICS,
};

/* A producer's triggers, counted by it alone; on its own cache lines. */
struct tr_issued {
	long n;
} __attribute__((aligned(128)));

struct tr_state {
	struct trigger_bpf *skel;	/* trigger=user, but for base */
	struct trigger_kt_bpf *kskel;	/* trigger=kernel */
	struct bpf_program *prog;	/* the bench's; NULL for base */
	struct trigger_slot *slots;	/* its counts: the loaded object's .bss */
	struct wl_load_stats load;	/* what loading its programs cost */
	struct bpf_link *link;		/* NULL for base */
	enum bench bench;
	enum trig trig;
	int batch;
	int nr_producers;
	int driver_fd;			/* trigger=kernel */
	struct tr_issued *issued;
};

#define KPROBE_PMU_DIR	"/sys/bus/event_source/devices"

/*
 * libbpf attaches a kprobe through the kprobe PMU, else through tracefs's
 * kprobe_events: without both, its ENOENT means the kernel has no kprobes.
 */
static bool has_kprobe_pmu(void)
{
	struct stat st;

	return !stat(KPROBE_PMU_DIR "/kprobe", &st);
}

/*
 * A load or attach the kernel refused.  EPERM as root (the engine checked
 * the capabilities) is the kernel's policy: name lockdown or the missing
 * option.  ENOENT (no kprobes, no tracepoint), ESRCH (no such function in
 * the kernel's BTF) and ENOTSUPP are the kernel's limits too, and so is
 * EINVAL from fmod_ret: the verifier lets it modify only error-injectable
 * functions, security hooks and kfuncs registered for it ("... is not
 * modifiable"; hence security_task_prctl(), not __set_task_comm()), and
 * EACCES from the kernel trigger's driver (a kernel whose kfunc is not
 * callable from raw_tp).  Other errors are failures.
 */
static int refused(char *why, size_t len, enum trig t, enum bench b, int err)
{
	char hint[160];
	size_t n;

	wl_fail(why, len, tr_what[t][b], err);
	n = strlen(why);
	if (err == -EPERM && kfacts_eperm_hint(tr_needs[b], hint, sizeof(hint)) && n < len)
		snprintf(why + n, len - n, ": %s", hint);
	else if (err == -ENOENT && tr_needs[b] == kprobe_needs && !has_kprobe_pmu() && n < len)
		snprintf(why + n, len - n, ": no kprobe PMU in %s (a kernel without kprobe "
			 "events); try it on another kernel in a VM: --kernel IMAGE "
			 "(docs/kernel.md)", KPROBE_PMU_DIR);
	if (err == -ENOENT || err == -ESRCH || err == -KERNEL_ENOTSUPP || err == -EOPNOTSUPP ||
	    (err == -EINVAL && b == B_FMODRET))
		return -EOPNOTSUPP;
	/* the driver's kfunc: absent (libbpf's ESRCH above) or not for raw_tp here */
	if (err == -EACCES && t == T_KERNEL)
		return -EOPNOTSUPP;
	return err;
}

/* The tracepoint's id is in tracefs: mount it where libbpf looks if it is not there. */
static int need_tracefs(char *why, size_t len)
{
	struct stat st;

	if (!stat("/sys/kernel/tracing/events", &st) ||
	    !stat("/sys/kernel/debug/tracing/events", &st))
		return 0;
	if (mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL))
		return wl_fail(why, len, "mount tracefs on /sys/kernel/tracing", -errno);
	return 0;
}

#define TRIGGER_KFUNC	"bpf_modify_return_test_tp"

/*
 * Has the kernel the driver's kfunc (Linux 6.10 on)?  Asked of its BTF
 * first: a weak kfunc libbpf does not find fails the load with words
 * about a poisoned call, not about the kernel.  The answer cannot change
 * while we run, and parsing the BTF costs 20 ms here, 70 ms in a TCG
 * guest: asked once, at the first point's setup (setups run one at a time).
 */
static int need_kfunc(char *why, size_t len)
{
	static int found = -1;	/* not asked */
	struct btf *btf;

	if (found < 0) {
		btf = btf__load_vmlinux_btf();
		if (!btf)
			return wl_fail(why, len, "load the kernel's BTF", -errno);
		found = btf__find_by_name_kind(btf, TRIGGER_KFUNC, BTF_KIND_FUNC) >= 0;
		btf__free(btf);
	}
	if (found)
		return 0;
	snprintf(why, len, "kfunc %s: %s: not in the kernel's BTF (it came in Linux 6.10); "
		 "the in-kernel trigger calls it", TRIGGER_KFUNC, strerror(EOPNOTSUPP));
	return -EOPNOTSUPP;
}

/* Where tracefs may be: need_tracefs() found or mounted one of them. */
static const char *const tracefs_roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

/*
 * Where field lies in the records of tracepoint event ("task/task_rename"),
 * as its tracefs format says ("\tfield:char newcomm[16];\toffset:28;...").
 * The offset, or -errno and why: -EOPNOTSUPP for a kernel without them.
 */
static int tp_field_offset(const char *event, const char *field, char *why, size_t len)
{
	size_t n = strlen(field);
	char path[128], line[256];
	FILE *f = NULL;
	int off = -ENOENT;

	for (size_t r = 0; r < 2 && !f; r++) {
		snprintf(path, sizeof(path), "%s/events/%s/format", tracefs_roots[r], event);
		f = fopen(path, "re");
	}
	if (!f) {
		off = wl_fail(why, len, path, -errno);
		return off == -ENOENT ? -EOPNOTSUPP : off;
	}
	while (off < 0 && fgets(line, sizeof(line), f)) {
		const char *name = strstr(line, field), *at = strstr(line, "offset:");

		if (name && at && name > line && name[-1] == ' ' &&
		    (name[n] == '[' || name[n] == ';'))
			off = atoi(at + strlen("offset:"));
	}
	fclose(f);
	if (off < 0)
		snprintf(why, len, "tracepoint %s: no field %s in its format", event, field);
	return off < 0 ? -EOPNOTSUPP : off;
}

/*
 * trigger=user's object, opened: its bench's program in *prog; the
 * tracepoint's name at newcomm_off in its record.
 */
static struct bpf_object *open_user(struct tr_state *st, int newcomm_off,
				    struct bpf_program **prog)
{
	struct trigger_bpf *skel = st->skel = trigger_bpf__open();

	if (!skel)
		return NULL;
	skel->rodata->bench_tgid = getpid();
	skel->rodata->nr_producers = st->nr_producers;
	skel->rodata->newcomm_off = newcomm_off;
	*prog = (struct bpf_program *[NR_BENCHES]){
		[B_TP] = skel->progs.trig_tp, [B_RAWTP] = skel->progs.trig_rawtp,
		[B_KPROBE] = skel->progs.trig_kprobe, [B_KRETPROBE] = skel->progs.trig_kretprobe,
		[B_FENTRY] = skel->progs.trig_fentry, [B_FEXIT] = skel->progs.trig_fexit,
		[B_FMODRET] = skel->progs.trig_fmodret,
	}[st->bench];
	return skel->obj;
}

/* trigger=kernel's object, opened: the bench's program in *prog, the driver in *driver. */
static struct bpf_object *open_kernel(struct tr_state *st, struct bpf_program **prog,
				      struct bpf_program **driver)
{
	struct trigger_kt_bpf *skel = st->kskel = trigger_kt_bpf__open();

	if (!skel)
		return NULL;
	skel->rodata->bench_tgid = getpid();
	skel->rodata->nr_producers = st->nr_producers;
	skel->rodata->batch_iters = st->batch;
	*driver = skel->progs.kt_driver;
	*prog = (struct bpf_program *[NR_BENCHES]){
		[B_TP] = skel->progs.kt_tp, [B_RAWTP] = skel->progs.kt_rawtp,
		[B_KPROBE] = skel->progs.kt_kprobe, [B_KRETPROBE] = skel->progs.kt_kretprobe,
		[B_FENTRY] = skel->progs.kt_fentry, [B_FEXIT] = skel->progs.kt_fexit,
		[B_FMODRET] = skel->progs.kt_fmodret,
	}[st->bench];
	return skel->obj;
}

/*
 * Open the trigger's object, load only the bench's program (and the
 * kernel trigger's driver: base of trigger=kernel loads the driver
 * alone), attach it.  0 or -errno and why.
 */
static int attach_bench(struct tr_state *st, char *why, size_t len)
{
	struct bpf_program *driver = NULL, *p;
	struct bpf_object *obj;
	int err, off = 0;

	err = st->bench == B_TP ? need_tracefs(why, len) : 0;
	if (!err && st->trig == T_KERNEL)
		err = need_kfunc(why, len);
	if (!err && st->trig == T_USER && st->bench == B_TP) {
		off = tp_field_offset("task/task_rename", "newcomm", why, len);
		err = off < 0 ? off : 0;
	}
	if (err)
		return err;
	obj = st->trig == T_KERNEL ? open_kernel(st, &st->prog, &driver)
				   : open_user(st, off, &st->prog);
	if (!obj)
		return wl_fail(why, len, "open", -errno);
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, p == st->prog || p == driver);
	/* the skeleton's load maps .bss: its slots are the program's only after it */
	err = wl_load_skeleton(st->kskel ? st->kskel->skeleton : st->skel->skeleton, &st->load);
	if (err)
		return refused(why, len, st->trig, st->bench, err);
	st->slots = st->kskel ? st->kskel->bss->slots : st->skel->bss->slots;
	if (driver)
		st->driver_fd = bpf_program__fd(driver);
	if (!st->prog)
		return 0;
	st->link = bpf_program__attach(st->prog);
	if (!st->link)
		return refused(why, len, st->trig, st->bench, -errno);
	return 0;
}

static void trigger_teardown(void *state)
{
	struct tr_state *st = state;

	bpf_link__destroy(st->link);
	trigger_bpf__destroy(st->skel);
	trigger_kt_bpf__destroy(st->kskel);
	free(st->issued);
	free(st);
}

static int trigger_setup(const struct wl_point *pt, void **state, struct wl_threads *thr,
			 char *why, size_t len)
{
	struct tr_state *st;
	int err = 0;

	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->bench = pt->v[P_BENCH];
	st->trig = pt->v[P_TRIGGER];
	st->batch = pt->v[P_BATCH];
	st->nr_producers = pt->v[P_PRODUCERS];
	st->driver_fd = -1;
	st->issued = aligned_alloc(128, st->nr_producers * sizeof(*st->issued));
	if (!st->issued) {
		free(st);
		return -ENOMEM;
	}
	memset(st->issued, 0, st->nr_producers * sizeof(*st->issued));
	if (st->bench != B_BASE || st->trig == T_KERNEL) {
		/* The engine prints diagnostics, not libbpf: keep its words for the reason. */
		libbpf_log_begin();
		err = attach_bench(st, why, len);
		libbpf_log_end();
	}
	if (err) {
		libbpf_log_explain(why, len);
		trigger_teardown(st);
		return err;
	}
	thr->nr_producers = st->nr_producers;
	thr->nr_consumers = 0;
	*state = st;
	return 0;
}

/*
 * Can this kernel run the bench?  Set it up and tear it down: one program,
 * loaded and attached.  The answer cannot change while we run and a
 * trampoline's load reads the kernel's BTF (tens of ms): once per bench.
 */
static int trigger_probe(const struct wl_point *pt, char *why, size_t len)
{
	static char answer_why[NR_TRIGS][NR_BENCHES][256];
	static int answer[NR_TRIGS][NR_BENCHES] = {
		[0 ... NR_TRIGS - 1] = { [0 ... NR_BENCHES - 1] = 1 },	/* not asked */
	};
	struct wl_point one = *pt;
	enum bench b = pt->v[P_BENCH];
	enum trig t = pt->v[P_TRIGGER];
	struct wl_threads thr;
	void *state;

	/*
	 * batch changes only how far the verifier walks the driver's loop:
	 * loaded at the largest, the driver passes for every batch
	 */
	if (answer[t][b] == 1) {
		one.v[P_PRODUCERS] = 1;
		one.v[P_BATCH] = TRIGGER_MAX_BATCH;
		answer[t][b] = trigger_setup(&one, &state, &thr, answer_why[t][b],
					     sizeof(answer_why[t][b]));
		if (!answer[t][b])
			trigger_teardown(state);
	}
	if (answer[t][b])
		snprintf(why, len, "%s", answer_why[t][b]);
	return answer[t][b];
}

/* Producer idx's name (trigger.h), NUL-terminated. */
static void producer_name(int idx, char name[TRIGGER_NAME_LEN + 1])
{
	memcpy(name, TRIGGER_TAG, TRIGGER_TAG_LEN);
	name[TRIGGER_TAG_LEN] = 'A' + idx % TRIGGER_DIGIT;
	name[TRIGGER_TAG_LEN + 1] = 'A' + idx / TRIGGER_DIGIT;
	name[TRIGGER_NAME_LEN] = '\0';
}

/* Rename ourselves until told to stop (bench_rename's producer writes /proc/self/comm). */
static int produce_user(struct tr_state *st, int idx, const atomic_bool *stop)
{
	char name[TRIGGER_NAME_LEN + 1];
	long *n = &st->issued[idx].n;

	producer_name(idx, name);
	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		if (prctl(PR_SET_NAME, name))
			return -errno;
		__atomic_store_n(n, *n + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

/* Run the driver, batch kfunc calls with our index for nonce, until told to stop. */
static int produce_kernel(struct tr_state *st, int idx, const atomic_bool *stop)
{
	__u64 nonce = idx;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &nonce, .ctx_size_in = sizeof(nonce));
	long *n = &st->issued[idx].n;

	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		if (bpf_prog_test_run_opts(st->driver_fd, &opts))
			return -errno;
		__atomic_store_n(n, *n + st->batch, __ATOMIC_RELEASE);
	}
	return 0;
}

static int trigger_produce(void *state, int idx, const atomic_bool *stop)
{
	struct tr_state *st = state;

	if (st->trig == T_KERNEL)
		return produce_kernel(st, idx, stop);
	return produce_user(st, idx, stop);
}

/* The count of producer i: the program's, or base's triggers. */
static long events_of(const struct tr_state *st, int i)
{
	if (st->bench == B_BASE)
		return __atomic_load_n(&st->issued[i].n, __ATOMIC_RELAXED);
	return __atomic_load_n(&st->slots[i].events, __ATOMIC_ACQUIRE);
}

/* The runs of the program the kernel skipped, in *missed; 0 or -errno. */
static int prog_missed(const struct tr_state *st, uint64_t *missed)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	*missed = 0;
	if (st->bench == B_BASE)
		return 0;
	if (bpf_obj_get_info_by_fd(bpf_program__fd(st->prog), &info, &len))
		return -errno;
	*missed = info.recursion_misses;
	return 0;
}

/*
 * Each producer's triggers before its events, and the misses last: a
 * trigger is counted on the BPF side (or missed) before it returns to be
 * counted in user space, so a sample's events and misses are never fewer
 * than its triggers; once the producers stopped, they are as many.
 */
static int trigger_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	struct tr_state *st = state;
	uint64_t events = 0, issued = 0;
	int err;

	for (int i = 0; i < st->nr_producers; i++) {
		uint64_t ev;

		issued += __atomic_load_n(&st->issued[i].n, __ATOMIC_ACQUIRE);
		ev = events_of(st, i);
		if (thread_counts)
			thread_counts[i] = ev;
		events += ev;
	}
	err = prog_missed(st, &counts[2]);
	counts[0] = events;
	counts[1] = issued;
	return err;
}

/* The kernel's run count and time of the bench's program; none for base. */
static int trigger_prog_stats(void *state, uint64_t *run_cnt, uint64_t *run_time_ns)
{
	struct tr_state *st = state;
	int fd;

	*run_cnt = *run_time_ns = 0;
	if (st->bench == B_BASE)
		return 0;
	fd = bpf_program__fd(st->prog);
	return wl_prog_stats_sum(&fd, 1, run_cnt, run_time_ns);
}

const struct workload trigger_workload = {
	.name = "trigger",
	.help = "cost of each BPF attach type on one trigger, a task rename "
		"(the kernel's bench_rename) or in-kernel kfunc calls (bench_trigger)",
	.params = tr_params,
	.nr_params = sizeof(tr_params) / sizeof(tr_params[0]),
	.metrics = tr_metrics,
	.nr_metrics = sizeof(tr_metrics) / sizeof(tr_metrics[0]),
	.needs_bpf = true,
	.probe = trigger_probe,
	.setup = trigger_setup,
	.produce = trigger_produce,
	.sample = trigger_sample,
	.teardown = trigger_teardown,
	.prog_stats = trigger_prog_stats,
	.load_stats = WL_LOAD_STATS_IN(struct tr_state, load),
};
