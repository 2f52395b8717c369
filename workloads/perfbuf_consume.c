// SPDX-License-Identifier: GPL-2.0
/*
 * pb-custom's reader: the perf rings of a libbpf perf buffer read in
 * place, as the kernel bench's perfbuf_custom_consumer() does (it copies
 * libbpf's private structs; perf_buffer__buffer() gives the same mapping).
 * A ring's first page is its struct perf_event_mmap_page; data_head is
 * the kernel's (load-acquire), data_tail ours (store-release).  A record
 * may wrap at the ring's end, but its 8-byte header, all we read, never
 * does: record sizes are multiples of 8.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <bpf/libbpf.h>

#include "perfbuf_consume.h"

#define WAKE_IDX	(-1U)

int pb_reader_open(struct pb_reader *r, struct perf_buffer *pb, int wake_fd)
{
	struct epoll_event ev = { .events = EPOLLIN };

	r->pb = pb;
	r->page_sz = getpagesize();
	r->nr = perf_buffer__buffer_cnt(pb);
	r->ev = calloc(r->nr + 1, sizeof(*r->ev));
	r->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (!r->ev || r->epoll_fd < 0)
		return r->ev ? -errno : -ENOMEM;
	for (int i = 0; i < r->nr; i++) {
		ev.data.u32 = i;
		if (epoll_ctl(r->epoll_fd, EPOLL_CTL_ADD, perf_buffer__buffer_fd(pb, i), &ev))
			return -errno;
	}
	ev.data.u32 = WAKE_IDX;
	if (epoll_ctl(r->epoll_fd, EPOLL_CTL_ADD, wake_fd, &ev))
		return -errno;
	return 0;
}

void pb_reader_close(struct pb_reader *r)
{
	if (r->epoll_fd >= 0)
		close(r->epoll_fd);
	free(r->ev);
	r->ev = NULL;
	r->epoll_fd = -1;
}

/* One ring, from data_tail to data_head, counting the samples. */
static int read_ring(struct pb_reader *r, int idx, pb_sample_fn fn, void *ctx)
{
	struct perf_event_mmap_page *header;
	const struct perf_event_header *ehdr;
	__u64 head, tail, mask;
	const char *data;
	size_t size;
	void *base;
	int err;

	err = perf_buffer__buffer(r->pb, idx, &base, &size);
	if (err)
		return err;
	header = base;
	data = (const char *)base + r->page_sz;
	mask = size - 1;
	head = __atomic_load_n(&header->data_head, __ATOMIC_ACQUIRE);
	tail = header->data_tail;
	while (tail != head) {
		ehdr = (const void *)(data + (tail & mask));
		if (!ehdr->size)
			return -EBADMSG;	/* the kernel writes none: a corrupt ring */
		if (ehdr->type == PERF_RECORD_SAMPLE)
			fn(ctx);
		tail += ehdr->size;
	}
	__atomic_store_n(&header->data_tail, tail, __ATOMIC_RELEASE);
	return 0;
}

int pb_reader_poll(struct pb_reader *r, int timeout_ms, pb_sample_fn fn, void *ctx)
{
	int n, err = 0;

	n = epoll_wait(r->epoll_fd, r->ev, r->nr + 1, timeout_ms);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n && !err; i++)
		if (r->ev[i].data.u32 != WAKE_IDX)
			err = read_ring(r, r->ev[i].data.u32, fn, ctx);
	/* nothing reported: a sampled point's wakeup may never come (see wait_and_drain()) */
	for (int i = 0; !n && i < r->nr && !err; i++)
		err = read_ring(r, i, fn, ctx);
	return err;
}
