/* bench_flint.c - the three polynomial workloads of the reference timings
 * (expand, gcd, canonical form of a long sum) done directly on FLINT's
 * fmpq_mpoly, without segc: the floor that segc's own figures
 * (bench_algebra) are set beside.  Medians of several runs. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <flint/fmpq_mpoly.h>
#include "bench_clock.h"
#include "workloads_flint.h"

/* Prints one result line. */
static void report(const char *name, double *t, int n, const char *extra)
{
	printf("%-44s median %9.6f s  (%d runs)  %s\n", name, bench_median(t, n), n,
		extra);
}

/* Workload 1: expand (x1 + ... + x8 + 1)^8. */
static void bench_expand(const fmpq_mpoly_ctx_t ctx)
{
	fmpq_mpoly_t s, r;
	double t[7];
	char extra[64];
	int i;

	fmpq_mpoly_init(s, ctx);
	fmpq_mpoly_init(r, ctx);
	workload_fpoly_of(s, "x1+x2+x3+x4+x5+x6+x7+x8+1", ctx);
	for (i = 0; i < 7; i++) {
		t[i] = bench_now();
		fmpq_mpoly_pow_ui(r, s, 8, ctx);
		t[i] = bench_now() - t[i];
	}
	snprintf(extra, sizeof(extra), "%ld terms",
		(long)fmpq_mpoly_length(r, ctx));
	report("expand (x1+...+x8+1)^8 (fmpq_mpoly_pow_ui)", t, 7, extra);
	fmpq_mpoly_clear(s, ctx);
	fmpq_mpoly_clear(r, ctx);
}

/* Workload 1 into a new polynomial each time (made, computed, cleared
 * inside the timing), as segc makes each result anew: beside the reused
 * one above, what the allocation of 12 870 terms adds. */
static void bench_expand_fresh(const fmpq_mpoly_ctx_t ctx)
{
	fmpq_mpoly_t s, r;
	double t[7];
	char extra[64];
	slong len = 0;
	int i;

	fmpq_mpoly_init(s, ctx);
	workload_fpoly_of(s, "x1+x2+x3+x4+x5+x6+x7+x8+1", ctx);
	for (i = 0; i < 7; i++) {
		t[i] = bench_now();
		fmpq_mpoly_init(r, ctx);
		fmpq_mpoly_pow_ui(r, s, 8, ctx);
		len = fmpq_mpoly_length(r, ctx);
		fmpq_mpoly_clear(r, ctx);
		t[i] = bench_now() - t[i];
	}
	snprintf(extra, sizeof(extra), "%ld terms", (long)len);
	report("expand, a new result each time", t, 7, extra);
	fmpq_mpoly_clear(s, ctx);
}

/* Workload 2: gcd(A*G, B*G). */
static void bench_gcd(const fmpq_mpoly_ctx_t ctx)
{
	fmpq_mpoly_t g, a, b, r;
	double t[7];
	char extra[96];
	int i;

	fmpq_mpoly_init(g, ctx);
	fmpq_mpoly_init(a, ctx);
	fmpq_mpoly_init(b, ctx);
	fmpq_mpoly_init(r, ctx);
	workload_fpoly_of(g, "(x1+x2+x3+x4+1)^4", ctx);
	workload_fpoly_of(a, "(x1*x2+x3+x4^2+x5+x6+2)^3", ctx);
	workload_fpoly_of(b, "(x1+x5*x6+3*x7+x8+x2^2+5)^3", ctx);
	fmpq_mpoly_mul(a, a, g, ctx);
	fmpq_mpoly_mul(b, b, g, ctx);
	for (i = 0; i < 7; i++) {
		t[i] = bench_now();
		fmpq_mpoly_gcd(r, a, b, ctx);
		t[i] = bench_now() - t[i];
	}
	snprintf(extra, sizeof(extra), "%ld and %ld terms, gcd %ld terms%s",
		(long)fmpq_mpoly_length(a, ctx), (long)fmpq_mpoly_length(b, ctx),
		(long)fmpq_mpoly_length(r, ctx),
		fmpq_mpoly_equal(r, g, ctx) ? "" : " WRONG");
	report("gcd(A*G, B*G) (fmpq_mpoly_gcd)", t, 7, extra);
	fmpq_mpoly_clear(g, ctx);
	fmpq_mpoly_clear(a, ctx);
	fmpq_mpoly_clear(b, ctx);
	fmpq_mpoly_clear(r, ctx);
}

/* Workload 3: the 10^5-term sum, pushed, sorted and merged. */
static void bench_long_sum(const fmpq_mpoly_ctx_t ctx)
{
	fmpq_mpoly_t s;
	double t[5];
	char extra[64];
	int k;

	fmpq_mpoly_init(s, ctx);
	for (k = 0; k < 5; k++) {
		t[k] = bench_now();
		workload_flint_sum(s, ctx);
		t[k] = bench_now() - t[k];
	}
	snprintf(extra, sizeof(extra), "%ld terms",
		(long)fmpq_mpoly_length(s, ctx));
	report("the 10^5-term sum (push, sort, merge)", t, 5, extra);
	fmpq_mpoly_clear(s, ctx);
}

int main(void)
{
	fmpq_mpoly_ctx_t ctx;

	fmpq_mpoly_ctx_init(ctx, 8, ORD_LEX);
	bench_expand(ctx);
	bench_expand_fresh(ctx);
	bench_gcd(ctx);
	bench_long_sum(ctx);
	fmpq_mpoly_ctx_clear(ctx);
	flint_cleanup();
	return 0;
}
