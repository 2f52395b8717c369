/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Our own reader of a libbpf perf buffer's per-CPU rings (pb-custom), as
 * the kernel bench's perfbuf_custom_consumer() reads them: epoll over the
 * rings, then each ready ring from data_tail to data_head, data_tail
 * stored once per ring.  One consumer thread.
 */
#ifndef WORKLOADS_PERFBUF_CONSUME_H
#define WORKLOADS_PERFBUF_CONSUME_H

#include <stddef.h>
#include <sys/epoll.h>

struct perf_buffer;

struct pb_reader {
	struct perf_buffer *pb;
	int epoll_fd;
	int nr;				/* rings */
	size_t page_sz;
	struct epoll_event *ev;		/* nr + 1: the rings and the wake fd */
};

/* Called once per PERF_RECORD_SAMPLE read. */
typedef void (*pb_sample_fn)(void *ctx);

/* An epoll set over pb's rings and wake_fd (which ends a wait); 0 or -errno. */
int pb_reader_open(struct pb_reader *r, struct perf_buffer *pb, int wake_fd);
void pb_reader_close(struct pb_reader *r);

/*
 * Wait up to timeout_ms (0: not at all) for rings with data, and read
 * those; after a wait that reports nothing, read every ring anyway.
 * 0 or -errno (-EINTR is the caller's to ignore).
 */
int pb_reader_poll(struct pb_reader *r, int timeout_ms, pb_sample_fn fn, void *ctx);

#endif
