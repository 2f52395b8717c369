/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit-test harness.  A test binary defines its tests with
 * TEST(name) { ... CHECK(...); ... } and lists them in RUN_TESTS(a, b, c).
 * Each test prints one line that tests/run.sh counts:
 *   "PASS name", "FAIL name: file:line: what", or "SKIP name: reason".
 * A failed CHECK ends that test, not the binary.
 */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdio.h>
#include <string.h>
#include <time.h>

struct check_state {
	const char *test;
	int failed;
	int skipped;
};

extern struct check_state check_cur;

#define TEST(name) static void name(void)

#define CHECK_FAIL_(fmt, ...) do {						\
	printf("FAIL %s: %s:%d: " fmt "\n", check_cur.test, __FILE__, __LINE__,	\
	       ##__VA_ARGS__);							\
	check_cur.failed = 1;							\
	return;									\
} while (0)

#define CHECK(cond) do {							\
	if (!(cond))								\
		CHECK_FAIL_("%s", #cond);					\
} while (0)

#define CHECK_INT(a, b) do {							\
	long long a_ = (long long)(a), b_ = (long long)(b);			\
	if (a_ != b_)								\
		CHECK_FAIL_("%s == %lld, expected %lld", #a, a_, b_);		\
} while (0)

#define CHECK_STR(a, b) do {							\
	const char *a_ = (a), *b_ = (b);					\
	if (!a_ || strcmp(a_, b_))						\
		CHECK_FAIL_("%s == \"%s\", expected \"%s\"", #a,		\
			    a_ ? a_ : "(null)", b_);				\
} while (0)

#define CHECK_NEAR(a, b, eps) do {						\
	double a_ = (a), b_ = (b);						\
	if (!(a_ - b_ <= (eps) && b_ - a_ <= (eps)))				\
		CHECK_FAIL_("%s == %.9g, expected %.9g", #a, a_, b_);		\
} while (0)

#define SKIP(reason) do {							\
	printf("SKIP %s: %s\n", check_cur.test, reason);			\
	check_cur.skipped = 1;							\
	return;									\
} while (0)



/* RUN_TESTS(t1, t2, ...) defines main(); exit status 1 if any test failed. */
#define RUN_TESTS(...)								\
struct check_state check_cur;							\
int main(void)									\
{										\
	void (*fns_[])(void) = { __VA_ARGS__ };					\
	const char *names_ = #__VA_ARGS__;					\
	int nr_failed = 0;							\
	for (size_t i_ = 0; i_ < sizeof(fns_) / sizeof(fns_[0]); i_++) {	\
		char name_[128];						\
		check_name_(names_, i_, name_, sizeof(name_));			\
		check_cur = (struct check_state){ .test = name_ };		\
		fflush(stdout);							\
		fns_[i_]();							\
		if (!check_cur.failed && !check_cur.skipped)			\
			printf("PASS %s\n", name_);				\
		nr_failed += check_cur.failed;					\
	}									\
	return nr_failed ? 1 : 0;						\
}

/* The i-th comma-separated name of "a, b, c". */
static inline void check_name_(const char *names, size_t i, char *buf, size_t len)
{
	const char *p = names, *end;
	size_t n;

	while (i-- && (p = strchr(p, ',')))
		p++;
	if (!p) {
		snprintf(buf, len, "?");
		return;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	end = strchr(p, ',');
	n = end ? (size_t)(end - p) : strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\n'))
		n--;
	snprintf(buf, len, "%.*s", (int)(n < len - 1 ? n : len - 1), p);
}

/*
 * CPU seconds this process used since cpu_start(t0): a bound on the work a
 * call does (linear, not exponential), which other load does not move.
 */
static inline void cpu_start(struct timespec *t0)
{
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, t0);
}

/*
 * A CPU-time budget of s seconds for a test that proves a reader linear:
 * ten times that under ASan, whose checks slow every access (a quadratic
 * reader still takes a hundred times its linear time at the sizes used).
 */
#if defined(__SANITIZE_ADDRESS__)		/* gcc's */
#define CHECK_UNDER_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)	/* clang's (make SANITIZE=1: -O0 too) */
#define CHECK_UNDER_ASAN	1
#endif
#endif
/*
 * And a memory budget of b bytes: twice that under ASan, whose allocator
 * puts redzones around every block (2.6 bytes a byte where the reader
 * itself takes 1.6).
 */
#ifdef CHECK_UNDER_ASAN
#define CPU_BUDGET(s)	((s) * 10.0)
#define MEM_BUDGET(b)	((b) * 2)
#else
#define CPU_BUDGET(s)	((double)(s))
#define MEM_BUDGET(b)	(b)
#endif

static inline double cpu_secs_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

#endif
