/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Saturating arithmetic for estimates (run time, timeouts) made from spec
 * values: a spec may ask for a million repetitions of a three-year
 * duration, and a product that wrapped would print as a short run and set
 * a short timeout.  At UINT64_MAX an estimate means "longer than can be
 * said", and its readers show it so.
 */
#ifndef SWEEP_SATMATH_H
#define SWEEP_SATMATH_H

#include <stdint.h>

static inline uint64_t sat_add_u64(uint64_t a, uint64_t b)
{
	uint64_t sum;

	return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

static inline uint64_t sat_mul_u64(uint64_t a, uint64_t b)
{
	uint64_t prod;

	return __builtin_mul_overflow(a, b, &prod) ? UINT64_MAX : prod;
}

#endif
