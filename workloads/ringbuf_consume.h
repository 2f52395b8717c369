/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Our own reader of a BPF ring buffer (BPF_MAP_TYPE_RINGBUF) over its
 * mmapped pages, for normal and overwrite-mode (BPF_F_RB_OVERWRITE) rings.
 * rb-custom measures with it; tests/integ/test_ringbuf_overwrite.c proves
 * it against the kernel with numbered records.
 *
 * One consumer thread per ring: consumer_pos is ours alone.
 */
#ifndef WORKLOADS_RINGBUF_CONSUME_H
#define WORKLOADS_RINGBUF_CONSUME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rb_ring {
	unsigned long *consumer_pos;		/* consumer page, read-write */
	const unsigned long *producer_pos;	/* producer page, read-only */
	const unsigned long *overwrite_pos;	/* on the producer page; NULL unless overwrite */
	const char *data;			/* data pages, mapped twice in a row */
	unsigned long mask;			/* data size - 1 */
	size_t page_sz;
};

/*
 * What a drain did: records handed over (discarded ones excluded) and, in
 * overwrite mode, bytes the producers overran before we could read them,
 * and runs dropped because they were overrun while we read them.
 */
struct rb_drain_res {
	uint64_t records;
	uint64_t lost_bytes;
	uint64_t torn_runs;
};

/*
 * Called once per record, in ring order.  In overwrite mode data is a copy
 * taken before the record was checked to be intact, so it may be kept.
 */
typedef void (*rb_record_fn)(void *ctx, const void *data, uint32_t len);

/* Map the ring of map_fd (data size sz, a power of 2); 0 or -errno. */
int rb_ring_map(struct rb_ring *r, int map_fd, size_t sz, bool overwrite);
void rb_ring_unmap(struct rb_ring *r);

/*
 * Read what the producers committed, up to the first record still being
 * written, and advance consumer_pos past it.  Without overwrite, as the
 * kernel bench's rb-custom consumer: passes until the ring is empty,
 * consumer_pos stored once per pass.  In overwrite mode, runs of at most
 * 256 records, each checked against overwrite_pos, consumer_pos stored
 * after each, and at most a ring's size of records per call (skipping what
 * was overrun costs nothing), so that a consumer chasing overwriting
 * producers still returns to report and to check whether to stop.  fn may
 * be NULL (count only).  Adds to *res; 0, or -E2BIG for an overwrite-mode record too big
 * to copy, or -EBADMSG for a header that cannot be (a corrupt ring).
 */
int rb_drain(struct rb_ring *r, rb_record_fn fn, void *ctx, struct rb_drain_res *res);

#endif
