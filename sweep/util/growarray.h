/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Room for one more element at arr[nr] of an array that grows only by
 * appending, from NULL and 0: its allocation is always the power of two at
 * or above nr, so it is reallocated only when nr is 0 or a power of two and
 * n appends copy O(n) elements.  A realloc by one each time is quadratic
 * wherever realloc moves the block (always under ASan: 40,000 imported
 * blocks took minutes).  Evaluates to 0, or -ENOMEM with arr unchanged.
 */
#ifndef SWEEP_GROWARRAY_H
#define SWEEP_GROWARRAY_H

#include <errno.h>
#include <stdlib.h>

#define ARRAY_ROOM(arr, nr) ({							\
	size_t __n = (nr);							\
	int __err = 0;								\
	if (!(__n & (__n - 1))) {						\
		__typeof__(arr) __p = realloc((arr), (__n ? 2 * __n : 1) * sizeof(*(arr))); \
		if (__p)							\
			(arr) = __p;						\
		else								\
			__err = -ENOMEM;					\
	}									\
	__err;									\
})

#endif
