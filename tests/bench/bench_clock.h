/* bench_clock.h - the clock and the median that the algebra benchmarks
 * (bench_algebra, bench_flint, bench_versus) share. */
#ifndef SEGC_BENCH_CLOCK_H
#define SEGC_BENCH_CLOCK_H

#include <time.h>

/* Seconds of CPU time of this process: on a shared machine the other
 * processes' load does not enter, as it does into a wall clock. */
static inline double bench_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Sorts 'v' (n values) and returns the median. */
static inline double bench_median(double *v, int n)
{
	int i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[n / 2];
}

#endif
