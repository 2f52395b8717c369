// SPDX-License-Identifier: GPL-2.0
/*
 * Our ring buffer reader (workloads/ringbuf_consume.c) against the running
 * kernel, with numbered records: the workload's BPF producer, loaded with
 * number_records, writes 0, 1, 2, ... into its 8-byte records from one
 * thread, so a record's number is its position / 16.  Needs root; the
 * overwrite-mode tests need a kernel with BPF_F_RB_OVERWRITE (6.19+), and
 * elsewhere say SKIP.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/utsname.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "check.h"
#include "ringbuf.skel.h"
#include "ringbuf_consume.h"

#define RB_F_OVERWRITE	(1U << 19)
#define RECORD_SZ	16		/* 8-byte header + 8-byte number */
#define RING_SZ		(16 * 1024)
#define BATCH		100		/* records per getpgid() */
#define MAX_SEEN	(1 << 20)

struct producer {
	struct ringbuf_bpf *skel;
	struct bpf_link *link;
	struct rb_ring ring;
};

/* What a reader saw: the numbers in order, or (check only) how they ran. */
struct seen {
	uint64_t *seq;
	size_t nr;
	uint64_t last;			/* the last number seen */
	uint64_t gaps;			/* numbers skipped between seen ones */
	uint64_t bad_len, out_of_order;
};

static void record_seen(void *ctx, const void *data, uint32_t len)
{
	struct seen *s = ctx;
	uint64_t seq;

	if (len != sizeof(seq)) {
		s->bad_len++;
		return;
	}
	memcpy(&seq, data, sizeof(seq));
	if (s->nr && seq <= s->last)
		s->out_of_order++;
	else if (s->nr)
		s->gaps += seq - s->last - 1;
	else
		s->gaps += seq;		/* the ones before the first seen */
	if (s->seq && s->nr < MAX_SEEN)
		s->seq[s->nr] = seq;
	s->nr++;
	s->last = seq;
}

/* 0 if the kernel has overwrite mode; -EOPNOTSUPP with why if not. */
static int probe_overwrite(char *why, size_t len)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = RB_F_OVERWRITE);
	struct utsname u;
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rb_probe", 0, 0, getpagesize(), &opts);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (fd != -EINVAL) {
		snprintf(why, len, "ringbuf: %s", strerror(-fd));
		return fd;
	}
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	snprintf(why, len, "BPF_F_RB_OVERWRITE: not supported by kernel %s", u.release);
	return -EOPNOTSUPP;
}

static void close_producer(struct producer *p)
{
	rb_ring_unmap(&p->ring);
	bpf_link__destroy(p->link);
	ringbuf_bpf__destroy(p->skel);
}

/* The workload's raw_tp producer on a ring of RING_SZ, mapped. */
static int open_ring_producer(struct producer *p, bool overwrite)
{
	struct bpf_program *prog;
	struct bpf_map *rb;
	int err;

	memset(p, 0, sizeof(*p));
	p->skel = ringbuf_bpf__open();
	if (!p->skel)
		return -errno;
	p->skel->rodata->bench_tgid = getpid();
	p->skel->rodata->getpgid_nr = SYS_getpgid;
	p->skel->rodata->batch_cnt = BATCH;
	p->skel->rodata->number_records = true;
	bpf_object__for_each_program(prog, p->skel->obj)
		bpf_program__set_autoload(prog, prog == p->skel->progs.rb_raw_tp);
	bpf_map__set_autocreate(p->skel->maps.perfbuf, false);
	rb = p->skel->maps.ringbuf;
	err = bpf_map__set_max_entries(rb, RING_SZ);
	if (!err && overwrite)
		err = bpf_map__set_map_flags(rb, bpf_map__map_flags(rb) | RB_F_OVERWRITE);
	if (!err)
		err = ringbuf_bpf__load(p->skel);
	if (err)
		return err;
	p->link = bpf_program__attach(p->skel->progs.rb_raw_tp);
	if (!p->link)
		return -errno;
	return rb_ring_map(&p->ring, bpf_map__fd(rb), RING_SZ, overwrite);
}

static int open_producer(struct producer *p)
{
	return open_ring_producer(p, true);
}

static void produce(int calls)
{
	for (int i = 0; i < calls; i++)
		syscall(SYS_getpgid);
}

static uint64_t produced(const struct producer *p)
{
	return __atomic_load_n(&p->skel->bss->next_seq, __ATOMIC_ACQUIRE);
}

#define NEED_OVERWRITE() do {							\
	char why_[160];								\
	int err_;								\
	if (geteuid() != 0)							\
		SKIP("needs root to load BPF programs");			\
	err_ = probe_overwrite(why_, sizeof(why_));				\
	if (err_ == -EOPNOTSUPP)						\
		SKIP(why_);							\
	if (err_)								\
		CHECK_FAIL_("probe: %s", why_);					\
} while (0)

/*
 * A ring of 16 KiB keeps the newest records whose span is at most its size
 * - 1 (the kernel's new producer_pos - overwrite_pos <= mask): 1023 of 16 B.
 */
static const uint64_t kept = (RING_SZ - RECORD_SZ) / RECORD_SZ;

/*
 * Fill the ring five times over with no reader, then read: exactly the
 * newest records, in order, consecutive, the last one produced last, and
 * all the others reported lost.  A second read finds nothing.
 */
TEST(overfilled_then_read)
{
	struct seen s = { .seq = calloc(MAX_SEEN, sizeof(uint64_t)) };
	struct rb_drain_res res = { 0 }, again = { 0 };
	struct producer p;
	uint64_t total = 0;
	int err;

	NEED_OVERWRITE();
	CHECK(s.seq != NULL);
	err = open_producer(&p);
	if (!err) {
		produce(50);
		total = produced(&p);
		err = rb_drain(&p.ring, record_seen, &s, &res);
		if (!err)
			err = rb_drain(&p.ring, record_seen, &s, &again);
	}
	if (!err) {
		printf("# produced %llu, read %llu, lost %llu records\n",
		       (unsigned long long)total, (unsigned long long)res.records,
		       (unsigned long long)(res.lost_bytes / RECORD_SZ));
		CHECK_INT(p.skel->bss->dropped, 0);
	}
	close_producer(&p);
	CHECK_INT(err, 0);
	CHECK_INT(total, 50 * BATCH);
	CHECK_INT(res.records, kept);
	CHECK_INT(s.nr, kept);
	CHECK_INT(s.bad_len, 0);
	for (uint64_t i = 0; i < kept; i++)
		if (s.seq[i] != total - kept + i)
			CHECK_FAIL_("record %llu: number %llu, expected %llu",
				    (unsigned long long)i, (unsigned long long)s.seq[i],
				    (unsigned long long)(total - kept + i));
	CHECK_INT(s.seq[kept - 1], total - 1);
	CHECK_INT(res.lost_bytes, (total - kept) * RECORD_SZ);
	CHECK_INT(again.records, 0);
	CHECK_INT(again.lost_bytes, 0);
	free(s.seq);
}

/* The same, counting only (fn NULL), as rb-custom reads: no copies taken. */
TEST(overfilled_then_counted)
{
	struct rb_drain_res res = { 0 };
	struct producer p;
	uint64_t total = 0;
	int err;

	NEED_OVERWRITE();
	err = open_producer(&p);
	if (!err) {
		produce(50);
		total = produced(&p);
		err = rb_drain(&p.ring, NULL, NULL, &res);
	}
	close_producer(&p);
	CHECK_INT(err, 0);
	CHECK_INT(res.records, kept);
	CHECK_INT(res.lost_bytes, (total - kept) * RECORD_SZ);
}

struct producer_thread {
	pthread_t tid;
	int calls;
	atomic_bool done;
};

static void *producer_main(void *arg)
{
	struct producer_thread *t = arg;

	produce(t->calls);
	atomic_store(&t->done, true);
	return NULL;
}

static void sleep_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* What a concurrent test saw, for the log (lines starting "#" are not counted). */
static void print_counts(uint64_t total, const struct rb_drain_res *res)
{
	printf("# produced %llu, read %llu, lost %llu records; %llu runs overrun while read\n",
	       (unsigned long long)total, (unsigned long long)res->records,
	       (unsigned long long)(res->lost_bytes / RECORD_SZ),
	       (unsigned long long)res->torn_runs);
}

/*
 * A reader running while the producer overruns it: what it hands over is
 * in order without repeats, every record is either read or reported lost,
 * the gaps it sees are exactly what it reported lost, and after the
 * producer stops it reads up to the last record.  The reader pauses
 * between drains so that the producer laps it.
 */
TEST(read_while_overrun)
{
	struct rb_drain_res res = { 0 };
	struct producer_thread t = { .calls = 5000 };
	struct seen s = { 0 };
	struct producer p;
	bool done = false;
	uint64_t total;
	int err;

	NEED_OVERWRITE();
	err = open_producer(&p);
	if (err) {
		close_producer(&p);
		CHECK_FAIL_("producer: %d", err);
	}
	if (pthread_create(&t.tid, NULL, producer_main, &t)) {
		close_producer(&p);
		CHECK_FAIL_("pthread_create");
	}
	/* done is read before the drain: the last drain starts after the last record */
	while (!err && !done) {
		done = atomic_load(&t.done);
		err = rb_drain(&p.ring, record_seen, &s, &res);
		sleep_us(200);
	}
	pthread_join(t.tid, NULL);
	if (!err)
		err = rb_drain(&p.ring, record_seen, &s, &res);
	total = produced(&p);
	print_counts(total, &res);
	close_producer(&p);
	CHECK_INT(err, 0);
	CHECK_INT(total, (uint64_t)t.calls * BATCH);
	CHECK_INT(s.bad_len, 0);
	CHECK_INT(s.out_of_order, 0);
	CHECK_INT(s.nr, res.records);
	CHECK_INT(s.last, total - 1);
	CHECK_INT(res.records * RECORD_SZ + res.lost_bytes, total * RECORD_SZ);
	CHECK_INT(s.gaps * RECORD_SZ, res.lost_bytes);
	/* the point of the test: the producer did overrun the reader */
	CHECK(res.lost_bytes > 0);
	CHECK(res.records > kept);
}

static volatile sig_atomic_t interrupts;

/*
 * The producer, run from inside the reader: half a lap of the ring per
 * signal, over the oldest records, where the reader starts each drain.
 */
static void produce_on_signal(int sig)
{
	int saved = errno;

	produce(RING_SZ / RECORD_SZ / BATCH / 2);
	interrupts++;
	errno = saved;
}

static void set_timer_us(long us)
{
	struct itimerval it = { { 0, us }, { 0, us } };

	setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * Runs overrun in the middle of being read, made to happen: a timer signal
 * interrupts the reader at any instruction and, from its handler, the
 * producer writes half a lap of the ring.  Whenever that lands between a
 * run's copies and the check after them, the reader must drop the run:
 * nothing it hands over may be out of order or repeated, and the gaps must
 * still be exactly what it reported lost.
 */
TEST(read_interrupted_by_producer)
{
	struct sigaction sa = { .sa_handler = produce_on_signal, .sa_flags = SA_RESTART };
	struct sigaction old;
	struct rb_drain_res res = { 0 };
	struct seen s = { 0 };
	struct producer p;
	uint64_t total;
	int err;

	NEED_OVERWRITE();
	err = open_producer(&p);
	if (err) {
		close_producer(&p);
		CHECK_FAIL_("producer: %d", err);
	}
	interrupts = 0;
	sigaction(SIGALRM, &sa, &old);
	set_timer_us(50);
	/*
	 * Where an interrupt lands is chance: on an emulated CPU (TCG) 3000 of
	 * them can all miss the window, so go on, up to 20 times as many,
	 * until one run has been overrun while read.
	 */
	while (!err && (interrupts < 3000 || (!res.torn_runs && interrupts < 60000)))
		err = rb_drain(&p.ring, record_seen, &s, &res);
	set_timer_us(0);
	sigaction(SIGALRM, &old, NULL);
	if (!err)
		err = rb_drain(&p.ring, record_seen, &s, &res);
	total = produced(&p);
	print_counts(total, &res);
	close_producer(&p);
	CHECK_INT(err, 0);
	CHECK_INT(s.bad_len, 0);
	CHECK_INT(s.out_of_order, 0);
	CHECK_INT(s.last, total - 1);
	CHECK_INT(res.records * RECORD_SZ + res.lost_bytes, total * RECORD_SZ);
	CHECK_INT(s.gaps * RECORD_SZ, res.lost_bytes);
	/* the point of the test: some runs were overrun while being read */
	CHECK(res.torn_runs > 0);
}

static int libbpf_record(void *ctx, void *data, size_t len)
{
	record_seen(ctx, data, len);
	return 0;
}

/*
 * Why rb-libbpf refuses overwrite mode: libbpf's reader, given the ring
 * filled five times over, walks from consumer_pos and hands over the
 * overrun slots as records, numbers going back when it wraps.  If this
 * fails, the libbpf linked in reads overwrite rings: let rb-libbpf use
 * them from that version on (probe_libbpf_overwrite() in ringbuf.c).
 */
TEST(libbpf_misreads_overfilled)
{
	struct seen s = { 0 };
	struct ring_buffer *rb;
	struct producer p;
	int err, n = -1;

	NEED_OVERWRITE();
	err = open_producer(&p);
	if (!err) {
		produce(50);
		rb = ring_buffer__new(bpf_map__fd(p.skel->maps.ringbuf), libbpf_record, &s, NULL);
		err = rb ? 0 : -errno;
		if (rb)
			n = ring_buffer__consume(rb);
		ring_buffer__free(rb);
	}
	close_producer(&p);
	printf("# libbpf %u.%u handed over %d records, %llu out of order\n",
	       libbpf_major_version(), libbpf_minor_version(), n,
	       (unsigned long long)s.out_of_order);
	CHECK_INT(err, 0);
	CHECK(s.nr > kept || s.out_of_order > 0);
}

/*
 * A ring without overwrite, read as the kernel bench's rb-custom reads it:
 * one call takes every record there (more than one 256-record run of the
 * overwrite reader), in order, and leaves consumer_pos at producer_pos;
 * twice, so that the second batch wraps around the ring's end.
 */
TEST(plain_ring_read_until_empty)
{
	struct seen s = { .seq = calloc(MAX_SEEN, sizeof(uint64_t)) };
	struct rb_drain_res res[2] = { 0 }, again = { 0 };
	struct producer p;
	int err;

	if (geteuid() != 0)
		SKIP("needs root to load BPF programs");
	CHECK(s.seq != NULL);
	err = open_ring_producer(&p, false);
	for (int i = 0; i < 2 && !err; i++) {
		produce(10);
		err = rb_drain(&p.ring, record_seen, &s, &res[i]);
		if (!err)
			CHECK_INT(*p.ring.consumer_pos, *p.ring.producer_pos);
	}
	if (!err)
		err = rb_drain(&p.ring, record_seen, &s, &again);
	if (!err)
		CHECK_INT(p.skel->bss->dropped, 0);
	close_producer(&p);
	CHECK_INT(err, 0);
	CHECK_INT(res[0].records, 10 * BATCH);
	CHECK_INT(res[1].records, 10 * BATCH);
	CHECK_INT(again.records, 0);
	CHECK_INT(s.nr, 20 * BATCH);
	CHECK_INT(s.bad_len + s.out_of_order + s.gaps, 0);
	CHECK_INT(s.last, 20 * BATCH - 1);
	free(s.seq);
}

RUN_TESTS(plain_ring_read_until_empty, overfilled_then_read, overfilled_then_counted,
	  read_while_overrun,
	  read_interrupted_by_producer, libbpf_misreads_overfilled)
