// SPDX-License-Identifier: GPL-2.0
/*
 * Our own BPF ring buffer reader, for normal and overwrite-mode rings.
 * A normal ring is read as the kernel bench's rb-custom reads it
 * (drain_plain()); the rest of this comment is about overwrite rings.
 *
 * Layout (kernel/bpf/ringbuf.c, struct bpf_ringbuf): the consumer page
 * holds consumer_pos; the producer page holds producer_pos, pending_pos
 * and, since 6.19 ("bpf: Add overwrite mode for BPF ring buffer", commit
 * feeaf1346f80), overwrite_pos; then the data pages, mapped twice so that
 * a record that wraps reads as one piece.  Positions only grow.  The
 * series as posted (v3) put overwrite_pos before pending_pos; it was moved
 * after it when applied, so as not to shift pending_pos, which user space
 * sees: overwrite_pos is the third word of the producer page, and reading
 * the second one takes pending_pos, the oldest record still being written,
 * for where the overwritten ones end.
 *
 * Overwrite mode, as that commit implements it: a reservation checks space
 * against pending_pos (the oldest record still being written) and never
 * against consumer_pos, which the kernel then only reads for wakeups and
 * poll.  When the new record needs room it walks overwrite_pos forward
 * over whole records until new producer_pos - overwrite_pos <= size - 1,
 * stores it (WRITE_ONCE) before it publishes producer_pos (store-release),
 * and only then writes the new header; the program fills the record after
 * the reservation returns.  Bytes below overwrite_pos may therefore change
 * under a reader at any time, and nothing tells the reader but
 * overwrite_pos itself.  libbpf's reader does not look at it (see
 * docs/ringbuf-overwrite.md), hence this one.
 *
 * How we read an overwrite ring: take a run of records starting at a
 * record boundary, copying what the caller wants to see, then read
 * overwrite_pos again.  If it is still at or below the run's start, no
 * record of the run was overwritten before we read it (overwrite_pos only
 * grows, and a record's bytes change only after overwrite_pos has passed
 * it), so the copies are intact and the run is handed over.  Otherwise the
 * whole run is dropped, even its part at or above overwrite_pos: a torn
 * header in the overwritten part may have led us off the record
 * boundaries.  Reading resumes at overwrite_pos, which the kernel keeps on
 * a boundary, and what lies between is counted as lost.
 *
 * That check relies on seeing the producer's stores in order: a record's
 * new bytes never before the overwrite_pos that let them be written.  The
 * kernel orders only producer_pos (a release) after overwrite_pos; header
 * and data stores are plain.  x86 (TSO) keeps stores in order; on weakly
 * ordered CPUs a torn record can in principle pass the check.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "ringbuf_consume.h"

/* Ring buffer record header, as in the uapi (BPF_RINGBUF_*). */
#define RB_BUSY_BIT		(1U << 31)
#define RB_DISCARD_BIT		(1U << 30)
#define RB_HDR_SZ		8

/* A run: records read before one check; its copies stay on the stack. */
#define RUN_MAX			256
#define COPY_SZ			(16 * 1024)

#define load_acquire(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

struct run {
	unsigned long start;		/* the first record's position */
	unsigned long end;		/* the position after the last one */
	bool busy;			/* ended at a record not yet committed */
	bool bad;			/* ended at a header no producer writes */
	unsigned int nr;
	uint32_t hdr[RUN_MAX];
	const char *at[RUN_MAX];	/* each record's data: in copy, or in the ring */
	size_t used;
	char copy[COPY_SZ];
};

int rb_ring_map(struct rb_ring *r, int map_fd, size_t sz, bool overwrite)
{
	void *p;

	r->page_sz = getpagesize();
	r->mask = sz - 1;
	p = mmap(NULL, r->page_sz, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	r->consumer_pos = p;
	p = mmap(NULL, r->page_sz + 2 * sz, PROT_READ, MAP_SHARED, map_fd, r->page_sz);
	if (p == MAP_FAILED)
		return -errno;
	r->producer_pos = p;
	/* producer_pos, pending_pos, overwrite_pos: see the top of this file */
	r->overwrite_pos = overwrite ? r->producer_pos + 2 : NULL;
	r->data = (const char *)p + r->page_sz;
	return 0;
}

void rb_ring_unmap(struct rb_ring *r)
{
	if (r->producer_pos)
		munmap((void *)r->producer_pos, r->page_sz + 2 * (r->mask + 1));
	if (r->consumer_pos)
		munmap(r->consumer_pos, r->page_sz);
	r->producer_pos = NULL;
	r->consumer_pos = NULL;
}

static uint32_t hdr_size(uint32_t hdr)
{
	return hdr & ~(RB_BUSY_BIT | RB_DISCARD_BIT);
}

static unsigned long record_len(uint32_t hdr)
{
	return (hdr_size(hdr) + RB_HDR_SZ + 7) & ~7UL;
}

static const char *at_pos(const struct rb_ring *r, unsigned long pos)
{
	return r->data + (pos & r->mask);
}

/*
 * Where the caller will find the record's data: in the ring, or, when an
 * overwrite ring may change it after the check, in a copy.  NULL when the
 * copy space is full: the run ends before this record.
 */
static const char *keep(const struct rb_ring *r, struct run *run, unsigned long pos,
			uint32_t size, bool copy)
{
	const char *src = at_pos(r, pos + RB_HDR_SZ);

	if (!copy)
		return src;
	if (size > COPY_SZ - run->used)
		return NULL;
	memcpy(run->copy + run->used, src, size);
	run->used += size;
	return run->copy + run->used - size;
}

/*
 * Read records from cons up to prod (at most RUN_MAX), like libbpf: stop
 * at a record not yet committed.  -E2BIG if the first record cannot be
 * copied at all.
 */
static int read_run(const struct rb_ring *r, struct run *run, unsigned long cons,
		    unsigned long prod, bool copy)
{
	uint32_t hdr;

	run->start = cons;
	run->nr = 0;
	run->used = 0;
	run->busy = run->bad = false;
	while (cons < prod && run->nr < RUN_MAX) {
		hdr = load_acquire((const uint32_t *)at_pos(r, cons));
		if (hdr & RB_BUSY_BIT) {
			run->busy = true;
			break;
		}
		/* A record never exceeds the ring; more means a torn header. */
		if (record_len(hdr) > r->mask + 1) {
			run->bad = true;
			break;
		}
		run->at[run->nr] = NULL;
		if (!(hdr & RB_DISCARD_BIT)) {
			run->at[run->nr] = keep(r, run, cons, hdr_size(hdr), copy);
			if (!run->at[run->nr]) {
				if (!run->nr)
					return -E2BIG;
				break;
			}
		}
		run->hdr[run->nr++] = hdr;
		cons += record_len(hdr);
	}
	run->end = cons;
	return 0;
}

/*
 * Overwrite mode: the first position not yet overrun.  The acquire fence
 * keeps every read of the run (headers and copies) before this load.
 */
static unsigned long overrun_to(const struct rb_ring *r)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return load_acquire(r->overwrite_pos);
}

static void hand_over(const struct run *run, rb_record_fn fn, void *ctx,
		      struct rb_drain_res *res)
{
	for (unsigned int i = 0; i < run->nr; i++) {
		if (run->hdr[i] & RB_DISCARD_BIT)
			continue;
		if (fn)
			fn(ctx, run->at[i], hdr_size(run->hdr[i]));
		res->records++;
	}
}

/* Overwrite mode: skip what the producers overran; returns the new position. */
static unsigned long skip_lost(const struct rb_ring *r, unsigned long cons, unsigned long over,
			       struct rb_drain_res *res)
{
	if (!r->overwrite_pos || over <= cons)
		return cons;
	res->lost_bytes += over - cons;
	return over;
}

/* Store consumer_pos if it moved: each store dirties a line every producer reads. */
static void publish(struct rb_ring *r, unsigned long cons, unsigned long *published)
{
	if (cons == *published)
		return;
	store_release(r->consumer_pos, cons);
	*published = cons;
}

/*
 * A ring without overwrite, as the kernel bench's rb-custom consumer reads
 * it (ringbuf_custom_process_ring()): pass after pass, each from
 * consumer_pos up to the producer_pos read at its start, storing
 * consumer_pos once at the pass's end, until a pass finds nothing new.
 * Producers never write below consumer_pos here, so records are read in
 * place.  Where the bench returns at a record still being written without
 * storing consumer_pos (and counts the pass's records again at its next
 * wakeup), this stores it first, as libbpf does.
 */
static int drain_plain(struct rb_ring *r, rb_record_fn fn, void *ctx, struct rb_drain_res *res)
{
	unsigned long cons, prod, start;
	uint32_t hdr;
	int err = 0;

	cons = __atomic_load_n(r->consumer_pos, __ATOMIC_RELAXED);
	do {
		start = cons;
		prod = load_acquire(r->producer_pos);
		while (cons < prod) {
			hdr = load_acquire((const uint32_t *)at_pos(r, cons));
			if (hdr & RB_BUSY_BIT)
				break;
			if (record_len(hdr) > r->mask + 1) {
				err = -EBADMSG;
				break;
			}
			if (!(hdr & RB_DISCARD_BIT)) {
				if (fn)
					fn(ctx, at_pos(r, cons + RB_HDR_SZ), hdr_size(hdr));
				res->records++;
			}
			cons += record_len(hdr);
		}
		if (cons != start)
			store_release(r->consumer_pos, cons);
	} while (cons != start && cons == prod);
	return err;
}

/* An overwrite ring: runs checked against overwrite_pos (the top of this file). */
static int drain_overwrite(struct rb_ring *r, rb_record_fn fn, void *ctx,
			   struct rb_drain_res *res)
{
	bool copy = fn && r->overwrite_pos;
	unsigned long cons, prod, over, published, budget = r->mask + 1;
	struct run run;
	int err = 0;

	/* ours alone: no other thread stores it */
	cons = published = __atomic_load_n(r->consumer_pos, __ATOMIC_RELAXED);
	while (budget) {
		prod = load_acquire(r->producer_pos);
		/* read after producer_pos: at least as recent as what it published */
		if (r->overwrite_pos)
			cons = skip_lost(r, cons, load_acquire(r->overwrite_pos), res);
		if (cons >= prod)
			break;
		err = read_run(r, &run, cons, prod, copy);
		if (err)
			break;
		budget -= run.end - run.start < budget ? run.end - run.start : budget;
		over = r->overwrite_pos ? overrun_to(r) : 0;
		if (over > run.start) {
			/* overrun while we read: drop the run, resume where it ends */
			cons = skip_lost(r, cons, over, res);
			res->torn_runs++;
			continue;
		}
		if (run.bad) {
			err = -EBADMSG;
			break;
		}
		hand_over(&run, fn, ctx, res);
		cons = run.end;
		publish(r, cons, &published);
		if (run.busy)
			break;
	}
	publish(r, cons, &published);
	return err;
}

int rb_drain(struct rb_ring *r, rb_record_fn fn, void *ctx, struct rb_drain_res *res)
{
	return r->overwrite_pos ? drain_overwrite(r, fn, ctx, res) : drain_plain(r, fn, ctx, res);
}
