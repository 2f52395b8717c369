// SPDX-License-Identifier: GPL-2.0
/*
 * sweep/run/memcg.c against the running kernel, and the runner's use of it:
 * needs root.  The cgroup a test sees is found from /proc/self/cgroup and
 * /proc/self/mountinfo, not from memcg.c, so that the two are checked
 * against each other.  Usage figures seen are printed as "# ..." lines.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "check.h"
#include "memcg.h"
#include "runner.h"
#include "textfile.h"

#define MiB		(1024 * 1024ULL)
/* a cgroup's usage lags by the charges a CPU holds in stock (64 pages each) */
#define SLACK		(512 * 1024ULL)
#define MAP_ENTRIES	10000
#define MAP_VALUE	256

#define REQUIRE_ROOT() do {							\
	if (geteuid() != 0)							\
		SKIP("needs root to create memory cgroups");			\
} while (0)

/* "bpfsweep-<our pid>-" */
static void our_prefix(char *buf, size_t len)
{
	snprintf(buf, len, "bpfsweep-%d-", getpid());
}

/*
 * The path (in its hierarchy) of the bpfsweep cgroup tid is in, from
 * /proc/<tid>/cgroup; false if it is in none.
 */
static bool cgroup_of(pid_t tid, char *path, size_t len)
{
	char file[64], prefix[40], *text, *line, *save = NULL;
	bool found = false;

	snprintf(file, sizeof(file), "/proc/self/task/%d/cgroup", tid);
	our_prefix(prefix, sizeof(prefix));
	if (read_text_file(file, &text))
		return false;
	for (line = strtok_r(text, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save)) {
		char *cg = strchr(line, ':'), *base;

		cg = cg ? strchr(cg + 1, ':') : NULL;
		base = cg ? strrchr(cg, '/') : NULL;
		if (base && !strncmp(base + 1, prefix, strlen(prefix))) {
			snprintf(path, len, "%s", cg + 1);
			found = true;
		}
	}
	free(text);
	return found;
}

/* The directory of cgroup path in the cgroup (v1 or v2) mount that has it. */
static bool cgroup_dir(const char *path, char *dir, size_t len)
{
	char *text, *line, *save = NULL;
	bool found = false;

	if (read_text_file("/proc/self/mountinfo", &text))
		return false;
	for (line = strtok_r(text, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save)) {
		char point[512], type[32];
		struct stat st;

		if (sscanf(line, "%*s %*s %*s %*s %511s", point) != 1 ||
		    !strstr(line, " - ") || sscanf(strstr(line, " - "), " - %31s", type) != 1 ||
		    strncmp(type, "cgroup", 6))
			continue;
		snprintf(dir, len, "%s%s", point, path);
		found = !stat(dir, &st) && S_ISDIR(st.st_mode);
	}
	free(text);
	return found;
}

/* Is pid a line of dir/cgroup.procs? */
static bool lists_pid(const char *dir, pid_t pid)
{
	char file[600], *text, *line, *save = NULL;
	bool found = false;

	snprintf(file, sizeof(file), "%s/cgroup.procs", dir);
	if (read_text_file(file, &text))
		return false;
	for (line = strtok_r(text, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save))
		found = atoi(line) == pid;
	free(text);
	return found;
}

/* Entries of dir named bpfsweep-<pid>-*, for pid, or for any pid when 0. */
static int count_ours(const char *dir, pid_t pid)
{
	char prefix[40] = "bpfsweep-";
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	if (pid)
		snprintf(prefix, sizeof(prefix), "bpfsweep-%d-", pid);
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

/*
 * Where memcg_create() puts its cgroups and a directory of one it made:
 * create one and look.  0, or memcg_create()'s error with why.
 */
static int learn_parent(char *parent, size_t len, char *why, size_t whylen)
{
	struct memcg *mc;
	char path[512];
	int err = memcg_create(&mc, why, whylen);

	if (err)
		return err;
	if (!cgroup_of(gettid(), path, sizeof(path)) || !cgroup_dir(path, parent, len))
		err = -ENOENT;
	else
		*strrchr(parent, '/') = '\0';
	memcg_destroy(mc);
	return err;
}

/* memcg_create(), or the test skips: not this machine's fault without a controller. */
#define CREATE_OR_SKIP(mc) do {							\
	char why_[256];								\
	int err_ = memcg_create(mc, why_, sizeof(why_));			\
	if (err_ == -ENOENT)							\
		SKIP(why_);							\
	if (err_)								\
		CHECK_FAIL_("memcg_create: %s", why_);				\
} while (0)

static atomic_bool thread_stop;
static atomic_int thread_tid;

static void *idle_thread(void *arg)
{
	atomic_store(&thread_tid, gettid());
	while (!atomic_load(&thread_stop))
		usleep(1000);
	return NULL;
}

/* Both threads of the process move in and back, and the directory goes. */
TEST(memcg_moves_whole_process)
{
	char *before, *after = NULL, path[512] = "", dir[600] = "", tpath[512] = "";
	bool found, listed, thread_in, thread_out;
	struct memcg *mc;
	char why[256];
	pthread_t t;
	int err;

	REQUIRE_ROOT();
	CHECK_INT(read_text_file("/proc/self/cgroup", &before), 0);
	atomic_store(&thread_stop, false);
	atomic_store(&thread_tid, 0);
	CHECK_INT(pthread_create(&t, NULL, idle_thread, NULL), 0);
	while (!atomic_load(&thread_tid))
		usleep(1000);
	err = memcg_create(&mc, why, sizeof(why));
	found = !err && cgroup_of(gettid(), path, sizeof(path)) &&
		cgroup_dir(path, dir, sizeof(dir));
	listed = found && lists_pid(dir, getpid());
	thread_in = cgroup_of(atomic_load(&thread_tid), tpath, sizeof(tpath)) &&
		    !strcmp(tpath, path);
	memcg_destroy(mc);
	thread_out = !cgroup_of(atomic_load(&thread_tid), tpath, sizeof(tpath));
	atomic_store(&thread_stop, true);
	pthread_join(t, NULL);
	read_text_file("/proc/self/cgroup", &after);
	if (err == -ENOENT)
		SKIP(why);
	printf("# in %s\n", dir);
	CHECK_INT(err, 0);
	CHECK(found);
	CHECK(listed);
	CHECK(thread_in);
	CHECK(thread_out);
	CHECK(access(dir, F_OK) && errno == ENOENT);
	CHECK_STR(after, before);
	free(before);
	free(after);
}

TEST(memcg_counts_touched_memory)
{
	uint64_t u0, p0, u1, p1;
	struct memcg *mc;
	char *buf;

	REQUIRE_ROOT();
	CREATE_OR_SKIP(&mc);
	CHECK_INT(memcg_read(mc, &u0, &p0), 0);
	CHECK(p0 >= u0);
	buf = malloc(8 * MiB);
	CHECK(buf);
	memset(buf, 1, 8 * MiB);
	CHECK_INT(memcg_read(mc, &u1, &p1), 0);
	printf("# usage %llu -> %llu, peak %llu -> %llu after touching 8 MiB\n",
	       (unsigned long long)u0, (unsigned long long)u1,
	       (unsigned long long)p0, (unsigned long long)p1);
	CHECK(u1 >= u0 + 8 * MiB - SLACK);
	CHECK(p1 >= u1);
	free(buf);
	memcg_destroy(mc);
}

/* len bytes of anonymous memory, every page touched (charged); NULL on failure. */
static char *touch(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 1, len);
	return p;
}

/*
 * A v2 memory.peak that cannot be written: a kernel before 6.12, which
 * cannot reset it.  v1 has no memory.peak.
 */
static bool peak_is_read_only(void)
{
	char path[512], dir[600], file[640];
	struct stat st;

	if (!cgroup_of(gettid(), path, sizeof(path)) || !cgroup_dir(path, dir, sizeof(dir)))
		return false;
	snprintf(file, sizeof(file), "%s/memory.peak", dir);
	return !stat(file, &st) && !(st.st_mode & S_IWUSR);
}

static void print_levels(const char *when, uint64_t usage, uint64_t peak)
{
	printf("# %-28s usage %10llu, peak %10llu\n", when, (unsigned long long)usage,
	       (unsigned long long)peak);
}

/* Touch len bytes, read the cgroup with them, free them; false if mmap failed. */
static bool touch_and_read(struct memcg *mc, size_t len, uint64_t *usage, uint64_t *peak)
{
	char *buf = touch(len);

	if (!buf)
		return false;
	memcg_read(mc, usage, peak);
	munmap(buf, len);
	return true;
}

/*
 * After a reset the peak is the level from then on: 8 MiB touched and
 * freed before it no longer count, 4 MiB touched after it do, and the
 * peak read is the reset one (v2: through the descriptor that reset it),
 * not the cgroup's peak since it was made.  A second reset works too.
 * Everything is read before the checks, so that a failed one does not
 * leave this process in the cgroup.
 */
TEST(memcg_reset_peak_forgets_earlier_peak)
{
	uint64_t u0, p0, u1 = 0, p1 = 0, u2 = 0, p2 = 0, u3 = 0, p3 = 0, u4 = 0, p4 = 0;
	int err, err2 = -1, read_err;
	bool touched8, touched4 = false, read_only;
	struct memcg *mc;
	char *buf;

	REQUIRE_ROOT();
	CREATE_OR_SKIP(&mc);
	read_err = memcg_read(mc, &u0, &p0);
	buf = touch(8 * MiB);
	touched8 = buf;
	if (buf)
		munmap(buf, 8 * MiB);
	read_err |= memcg_read(mc, &u1, &p1);
	err = memcg_reset_peak(mc);
	read_only = err && peak_is_read_only();
	if (!err) {
		read_err |= memcg_read(mc, &u2, &p2);
		touched4 = touch_and_read(mc, 4 * MiB, &u3, &p3);
		err2 = memcg_reset_peak(mc);
		read_err |= memcg_read(mc, &u4, &p4);
	}
	memcg_destroy(mc);

	CHECK(touched8);
	CHECK_INT(read_err, 0);
	print_levels("touched 8 MiB, freed it:", u1, p1);
	CHECK(p1 >= u0 + 8 * MiB - SLACK);
	CHECK(u1 + 8 * MiB <= p1 + SLACK);
	if (read_only)
		SKIP("memory.peak is read-only: this kernel cannot reset it (Linux 6.12+ can)");
	CHECK_INT(err, 0);
	print_levels("reset:", u2, p2);
	CHECK(p2 >= u2);
	CHECK(p2 <= u2 + SLACK);
	CHECK(p2 + 8 * MiB <= p1 + SLACK);

	CHECK(touched4);
	print_levels("touched 4 MiB:", u3, p3);
	CHECK(u3 >= u2 + 4 * MiB - SLACK);
	CHECK(p3 >= u3);
	/* the reset peak, not the 8 MiB one from before */
	CHECK(p3 + 4 * MiB <= p1 + SLACK);

	CHECK_INT(err2, 0);
	print_levels("freed it, reset again:", u4, p4);
	CHECK(p4 <= u4 + SLACK);
	CHECK(p4 + 4 * MiB <= p3 + SLACK);
}

/* A map charges the cgroup of the process that creates it, element by element. */
TEST(memcg_charges_bpf_map)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC);
	static char value[MAP_VALUE];
	uint64_t u0, p0, u1, p1, u2, p2;
	struct memcg *mc;
	int fd, err = 0;

	REQUIRE_ROOT();
	CREATE_OR_SKIP(&mc);
	CHECK_INT(memcg_read(mc, &u0, &p0), 0);
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "memcg_test", sizeof(uint32_t), MAP_VALUE,
			    MAP_ENTRIES, &opts);
	if (fd < 0) {
		memcg_destroy(mc);
		CHECK_FAIL_("bpf_map_create: %s", strerror(errno));
	}
	CHECK_INT(memcg_read(mc, &u1, &p1), 0);
	for (uint32_t k = 0; k < MAP_ENTRIES && !err; k++)
		err = bpf_map_update_elem(fd, &k, value, BPF_NOEXIST);
	CHECK_INT(memcg_read(mc, &u2, &p2), 0);
	close(fd);
	memcg_destroy(mc);
	printf("# usage %llu empty map, %llu after %d x %d-byte elements (+%llu), peak %llu\n",
	       (unsigned long long)u1, (unsigned long long)u2, MAP_ENTRIES, MAP_VALUE,
	       (unsigned long long)(u2 - u1), (unsigned long long)p2);
	CHECK_INT(err, 0);
	CHECK(u2 >= u1 + (uint64_t)MAP_ENTRIES * MAP_VALUE);
	CHECK(p2 >= u2);
}

/* A pid that is gone, as a crashed run's would be. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

/* A cgroup of a dead process goes at the next create; one of a live process stays. */
TEST(memcg_removes_stale)
{
	char parent[512], why[256], stale[600], live[600];
	pid_t dead = dead_pid();
	struct memcg *mc;
	int err;

	REQUIRE_ROOT();
	CHECK(dead > 0);
	err = learn_parent(parent, sizeof(parent), why, sizeof(why));
	if (err == -ENOENT)
		SKIP(why);
	CHECK_INT(err, 0);
	snprintf(stale, sizeof(stale), "%s/bpfsweep-%d-0", parent, dead);
	snprintf(live, sizeof(live), "%s/bpfsweep-%d-0", parent, getppid());
	CHECK_INT(mkdir(stale, 0755), 0);
	if (mkdir(live, 0755)) {
		rmdir(stale);
		CHECK_FAIL_("mkdir %s: %s", live, strerror(errno));
	}
	err = memcg_create(&mc, why, sizeof(why));
	memcg_destroy(mc);
	CHECK(access(stale, F_OK) && errno == ENOENT);
	CHECK_INT(rmdir(live), 0);
	CHECK_INT(err, 0);
}

/*
 * A workload with the memory gauges, for the runner: its setup notes
 * whether it ran inside a bpfsweep cgroup and touches 4 MiB; it fails
 * where told to, or its second sample sends SIGINT as a Ctrl-C would.
 */
enum gw_fail { GW_NONE, GW_SETUP, GW_SAMPLE, GW_SIGINT };

static enum gw_fail gw_fail;
static bool gw_setup_in_memcg;

#define GW_TOUCH	(4 * MiB)

struct gw_state {
	atomic_ullong ops;
	int nr_samples;
	char *mem;
};

static const struct metric_def gw_metrics[] = {
	{ .name = "ops", .kind = MK_COUNTER, .unit = "/s" },
	{ .name = "mem", .kind = MK_GAUGE, .unit = "MiB", .source = MS_MEMCG_USAGE },
	{ .name = "mem_peak", .kind = MK_GAUGE, .unit = "MiB", .source = MS_MEMCG_PEAK },
};

static int gw_setup(const struct wl_point *pt, void **state, struct wl_threads *thr, char *why,
		    size_t whylen)
{
	struct gw_state *s;
	char path[512];

	gw_setup_in_memcg = cgroup_of(gettid(), path, sizeof(path));
	if (gw_fail == GW_SETUP)
		return -EIO;
	s = calloc(1, sizeof(*s));
	if (s)
		s->mem = malloc(GW_TOUCH);
	if (!s || !s->mem) {
		free(s);
		return -ENOMEM;
	}
	memset(s->mem, 1, GW_TOUCH);
	thr->nr_producers = 1;
	*state = s;
	return 0;
}

static int gw_produce(void *state, int idx, const atomic_bool *stop)
{
	struct gw_state *s = state;

	while (!atomic_load(stop)) {
		atomic_fetch_add(&s->ops, 1);
		sched_yield();
	}
	return 0;
}

static int gw_sample(void *state, uint64_t *counts, uint64_t *thread_counts)
{
	struct gw_state *s = state;

	if (gw_fail >= GW_SAMPLE && ++s->nr_samples == 2) {
		if (gw_fail == GW_SAMPLE)
			return -EIO;
		kill(getpid(), SIGINT);
	}
	counts[0] = atomic_load(&s->ops);
	return 0;
}

static void gw_teardown(void *state)
{
	struct gw_state *s = state;

	if (s)
		free(s->mem);
	free(s);
}

static const struct workload gauge_workload = {
	.name = "gauges",
	.metrics = gw_metrics,
	.nr_metrics = 3,
	.setup = gw_setup,
	.produce = gw_produce,
	.sample = gw_sample,
	.teardown = gw_teardown,
};

/* One point of gauge_workload through runner_run(): 3 intervals of 10 ms. */
static int run_gauges(enum gw_fail fail, struct point_result **res)
{
	struct experiment exp = { .group = -1 };
	struct sweep_cfg cfg = {
		.name = "memcg", .wl = &gauge_workload, .duration_ns = 30000000,
		.interval_ns = 10000000, .repeat = 1, .exps = &exp, .nr_exps = 1,
	};
	struct point pt = { .wp.wl = &gauge_workload };
	struct plan pl = { 0 };
	int nr_run;

	gw_fail = fail;
	gw_setup_in_memcg = false;
	*res = NULL;
	return runner_run(&cfg, &pl, &pt, 1, NULL, NULL, res, &nr_run);
}

/* The gauges hold the cgroup's levels; the point is ok and says nothing. */
TEST(runner_fills_memory_gauges)
{
	struct point_result *res;
	char parent[512], why[256];
	int err;

	REQUIRE_ROOT();
	err = learn_parent(parent, sizeof(parent), why, sizeof(why));
	if (err == -ENOENT)
		SKIP(why);
	CHECK_INT(err, 0);
	CHECK_INT(run_gauges(GW_NONE, &res), 0);
	CHECK(gw_setup_in_memcg);
	CHECK_INT(res->status, PS_OK);
	CHECK_STR(res->reason, "");
	CHECK(res->nr_iv == 3);
	for (int i = 0; i < res->nr_iv; i++) {
		CHECK(res->iv[i].value[1] >= GW_TOUCH - SLACK);
		CHECK(res->iv[i].value[1] != METRIC_UNKNOWN);
		CHECK(res->iv[i].value[2] >= res->iv[i].value[1]);
	}
	printf("# mem %llu, mem_peak %llu after setup touched 4 MiB\n",
	       (unsigned long long)res->iv[0].value[1], (unsigned long long)res->iv[0].value[2]);
	point_results_free(res, 1);
	CHECK_INT(count_ours(parent, getpid()), 0);
}

/*
 * A failed setup or measurement has its own reason, and leaves no cgroup;
 * nor does a Ctrl-C.
 */
TEST(runner_failure_leaves_no_cgroup)
{
	static const struct {
		enum gw_fail fail;
		int ret;
		enum point_status status;
		const char *reason;
	} cases[] = {
		{ GW_SETUP, 0, PS_FAILED, "setup: Input/output error" },
		{ GW_SAMPLE, 0, PS_FAILED, "measure: Input/output error" },
		{ GW_SIGINT, -EINTR, PS_INTERRUPTED, "interrupted by signal" },
	};
	char *before, *after;
	char parent[512], why[256];
	int err;

	REQUIRE_ROOT();
	err = learn_parent(parent, sizeof(parent), why, sizeof(why));
	if (err == -ENOENT)
		SKIP(why);
	CHECK_INT(err, 0);
	CHECK_INT(read_text_file("/proc/self/cgroup", &before), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct point_result *res;

		CHECK_INT(run_gauges(cases[i].fail, &res), cases[i].ret);
		CHECK(gw_setup_in_memcg);
		CHECK_INT(res->status, cases[i].status);
		CHECK_STR(res->reason, cases[i].reason);
		point_results_free(res, 1);
		CHECK_INT(count_ours(parent, getpid()), 0);
		CHECK_INT(read_text_file("/proc/self/cgroup", &after), 0);
		CHECK_STR(after, before);
		free(after);
	}
	free(before);
}

/* What a child without privileges got: status, gauge, reason. */
struct unprivileged {
	int err;
	int status;
	int nr_iv;
	uint64_t mem;
	char reason[384];
	char failed_reason[384];	/* of a run whose setup failed */
};

/*
 * Without root there is no cgroup: the point is still measured, its
 * gauges unknown and its reason why; a point that fails says why it
 * failed instead.
 */
TEST(runner_without_memcg_is_ok)
{
	struct unprivileged got = { 0 };
	const char *want = "memory: cannot create a memory cgroup: ";
	int fds[2], st;
	pid_t pid;

	REQUIRE_ROOT();
	CHECK_INT(pipe(fds), 0);
	pid = fork();
	if (!pid) {
		struct point_result *res = NULL;

		close(fds[0]);
		if (setgid(65534) || setuid(65534))
			_exit(1);
		got.err = run_gauges(GW_NONE, &res);
		if (res) {
			got.status = res->status;
			got.nr_iv = res->nr_iv;
			got.mem = res->nr_iv ? res->iv[0].value[1] : 0;
			snprintf(got.reason, sizeof(got.reason), "%s", res->reason);
		}
		point_results_free(res, 1);
		if (!run_gauges(GW_SETUP, &res) && res)
			snprintf(got.failed_reason, sizeof(got.failed_reason), "%s", res->reason);
		_exit(write(fds[1], &got, sizeof(got)) == sizeof(got) ? 0 : 1);
	}
	close(fds[1]);
	CHECK(pid > 0);
	CHECK_INT(read(fds[0], &got, sizeof(got)), sizeof(got));
	close(fds[0]);
	CHECK_INT(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && !WEXITSTATUS(st));
	printf("# %s\n", got.reason);
	CHECK_INT(got.err, 0);
	CHECK_INT(got.status, PS_OK);
	CHECK_INT(got.nr_iv, 3);
	CHECK(got.mem == METRIC_UNKNOWN);
	CHECK(!strncmp(got.reason, want, strlen(want)));
	CHECK(strstr(got.reason, "Permission denied (needs root)"));
	CHECK_STR(got.failed_reason, "setup: Input/output error");
}

RUN_TESTS(memcg_moves_whole_process, memcg_counts_touched_memory,
	  memcg_reset_peak_forgets_earlier_peak, memcg_charges_bpf_map,
	  memcg_removes_stale, runner_fills_memory_gauges, runner_failure_leaves_no_cgroup,
	  runner_without_memcg_is_ok);
