/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bench-util.h - what the benchmark's programs (capbench, policy-update)
 * share: messages and exits under the program's name, the clock, sorted
 * samples and their percentiles, and counts from the command line.
 *
 * Each is static inline: a program uses what it needs. The including
 * program defines, before including this file:
 *   static const char *prog;   its name, for messages
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Print "PROG: message" and exit 1: something failed. */
static inline void __attribute__((format(printf, 1, 2), noreturn)) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Print "PROG: message (see PROG -h)" and exit 2: the command line is wrong. */
static inline void __attribute__((format(printf, 1, 2), noreturn)) usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s -h)\n", prog);
	exit(2);
}

/* CLOCK_MONOTONIC in ns. */
static inline int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* qsort() order of int64_t samples. */
static inline int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The nearest-rank percentile P (0-100] of N sorted samples. */
static inline int64_t percentile(const int64_t *sorted, unsigned long n, double p)
{
	unsigned long rank = (unsigned long)(p / 100.0 * n + 0.999999);

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

/* The count S given to option OPT: MIN .. 2^32 - 1, else a usage error. */
static inline unsigned long parse_count(const char *opt, const char *s, unsigned long min)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || *s == '-' || v < min || v > UINT32_MAX)
		usage_error("%s takes a number >= %lu, not '%s'", opt, min, s);
	return v;
}

#endif /* BENCH_UTIL_H */
