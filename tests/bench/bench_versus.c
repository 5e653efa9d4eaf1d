/* bench_versus.c - segc's three polynomial workloads of the reference
 * timings (expand, gcd, canonical form of a long sum) set against the
 * same work done directly on FLINT's fmpq_mpoly, in one process and in
 * alternation: round by round, segc then FLINT or FLINT then segc, so
 * that a machine whose speed drifts slows both alike.  For each workload
 * it prints the medians of the two, the median, least and largest of
 * the rounds' ratios, and in how many rounds segc took at most 1.5
 * times FLINT's time.  Usage: bench_versus [ROUNDS] (15 by default). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include "bench_clock.h"
#include "workloads_flint.h"
#include "workloads_segc.h"

/* One workload: its segc side and its FLINT side, each run 'reps'
 * times per timing; 'prepare', when set, makes segc's operand before
 * each of its runs, outside the timing. */
struct workload {
	const char *name;
	void (*segc)(void);
	void (*flint)(void);
	int reps;
	void (*prepare)(void);
};

/* ------------------------------------------------- the segc side */

static segc_ctx *sctx;
static segc_poly s_g, s_ag, s_bg, s_r;

/* Workload 1: the canonical form of (x1 + ... + x8 + 1)^8. */
static void segc_expand(void)
{
	segc_expr *e = segc_expr_parse(sctx, "(x1+x2+x3+x4+x5+x6+x7+x8+1)^8",
		NULL);
	segc_expr *c = e ? segc_canonical(sctx, NULL, e) : NULL;

	if (!c || segc_expr_nargs(c) != 12870) {
		fprintf(stderr, "bench_versus: the expansion failed\n");
		exit(1);
	}
	segc_expr_free(c);
}

/* Workload 2: gcd(A*G, B*G) behind the polynomial interface. */
static void segc_gcd(void)
{
	segc_poly_gcd(NULL, &s_r, &s_ag, &s_bg);
}

static segc_expr *s_sum;

/* The long sum made anew for segc_sum, as bench_algebra makes it. */
static void make_sum(void)
{
	segc_expr_free(s_sum);
	s_sum = workload_long_sum();
}

/* Workload 3: the canonical form of the long sum (built beforehand,
 * as the reference builds its terms outside the timing). */
static void segc_sum(void)
{
	segc_expr *c = segc_canonical(sctx, NULL, s_sum);

	s_sum = NULL;
	if (!c || segc_expr_nargs(c) != 14000) {
		fprintf(stderr, "bench_versus: the long sum failed\n");
		exit(1);
	}
	segc_expr_free(c);
}

/* ------------------------------------------------ the FLINT side */

static fmpq_mpoly_ctx_t fctx;
static fmpq_mpoly_t f_s, f_r, f_ag, f_bg;

/* Workload 1 on FLINT, into the same polynomial each time. */
static void flint_expand(void)
{
	fmpq_mpoly_pow_ui(f_r, f_s, 8, fctx);
}

/* Workload 1 on FLINT into a new polynomial each time. */
static void flint_expand_new(void)
{
	fmpq_mpoly_t r;

	fmpq_mpoly_init(r, fctx);
	fmpq_mpoly_pow_ui(r, f_s, 8, fctx);
	fmpq_mpoly_clear(r, fctx);
}

/* Workload 2 on FLINT. */
static void flint_gcd(void)
{
	fmpq_mpoly_gcd(f_r, f_ag, f_bg, fctx);
}

/* Workload 3 on FLINT: the terms pushed, sorted and merged. */
static void flint_sum(void)
{
	workload_flint_sum(f_r, fctx);
}

/* ------------------------------------------------------- running */

/* Seconds that 'reps' calls of 'f' take, 'prepare' (when set) called
 * before each, outside the timing. */
static double timed(void (*f)(void), int reps, void (*prepare)(void))
{
	double t = 0, t0;
	int i;

	for (i = 0; i < reps; i++) {
		if (prepare)
			prepare();
		t0 = bench_now();
		f();
		t += bench_now() - t0;
	}
	return t;
}

/* Runs 'w' for 'rounds' rounds and prints its line. */
static void versus(const struct workload *w, int rounds)
{
	double *ts = malloc((size_t)rounds * sizeof(double));
	double *tf = malloc((size_t)rounds * sizeof(double));
	double *q = malloc((size_t)rounds * sizeof(double));
	double lo, hi, ms, mf;
	int i, within = 0;

	/* once each first, so that neither side meets cold caches */
	timed(w->segc, 1, w->prepare);
	timed(w->flint, 1, NULL);
	for (i = 0; i < rounds; i++) {
		if (i % 2) {
			tf[i] = timed(w->flint, w->reps, NULL);
			ts[i] = timed(w->segc, w->reps, w->prepare);
		} else {
			ts[i] = timed(w->segc, w->reps, w->prepare);
			tf[i] = timed(w->flint, w->reps, NULL);
		}
		q[i] = ts[i] / tf[i];
		within += q[i] <= 1.5;
	}
	lo = hi = q[0];
	for (i = 1; i < rounds; i++) {
		lo = q[i] < lo ? q[i] : lo;
		hi = q[i] > hi ? q[i] : hi;
	}
	ms = bench_median(ts, rounds) / w->reps;
	mf = bench_median(tf, rounds) / w->reps;
	printf("%-40s segc %8.3f ms  FLINT %8.3f ms  ratio %.2f "
		"(%.2f-%.2f)  %d of %d rounds <= 1.5\n", w->name, ms * 1e3,
		mf * 1e3, bench_median(q, rounds), lo, hi, within, rounds);
	free(ts);
	free(tf);
	free(q);
}

int main(int argc, char **argv)
{
	static const struct workload all[] = {
		{ "expand: segc_canonical / pow_ui", segc_expand,
			flint_expand, 3, NULL },
		{ "expand: / pow_ui into a new result", segc_expand,
			flint_expand_new, 3, NULL },
		{ "gcd: segc_poly_gcd / fmpq_mpoly_gcd", segc_gcd,
			flint_gcd, 3, NULL },
		{ "sum: segc_canonical / push, sort, merge", segc_sum,
			flint_sum, 1, make_sum },
	};
	int rounds = argc > 1 ? atoi(argv[1]) : 15;
	size_t k;

	if (rounds < 1)
		rounds = 15;
	sctx = segc_ctx_new();
	fmpq_mpoly_ctx_init(fctx, 8, ORD_LEX);
	fmpq_mpoly_init(f_s, fctx);
	fmpq_mpoly_init(f_ag, fctx);
	fmpq_mpoly_init(f_bg, fctx);
	fmpq_mpoly_init(f_r, fctx);
	workload_fpoly_of(f_s, "x1+x2+x3+x4+x5+x6+x7+x8+1", fctx);
	workload_fpoly_of(f_ag, "(x1*x2+x3+x4^2+x5+x6+2)^3*(x1+x2+x3+x4+1)^4",
		fctx);
	workload_fpoly_of(f_bg, "(x1+x5*x6+3*x7+x8+x2^2+5)^3*(x1+x2+x3+x4+1)^4",
		fctx);
	{
		segc_poly g, a, b;

		workload_poly_of(&g, "x1+x2+x3+x4+1");
		workload_poly_of(&a, "x1*x2+x3+x4^2+x5+x6+2");
		workload_poly_of(&b, "x1+x5*x6+3*x7+x8+x2^2+5");
		segc_poly_pow(NULL, &g, &g, 4);
		segc_poly_pow(NULL, &a, &a, 3);
		segc_poly_pow(NULL, &b, &b, 3);
		segc_poly_init(&s_ag, 8);
		segc_poly_init(&s_bg, 8);
		segc_poly_init(&s_r, 8);
		segc_poly_mul(NULL, &s_ag, &a, &g);
		segc_poly_mul(NULL, &s_bg, &b, &g);
		segc_poly_init(&s_g, 8);
		segc_poly_swap(&s_g, &g);
		segc_poly_clear(&g);
		segc_poly_clear(&a);
		segc_poly_clear(&b);
	}
	for (k = 0; k < sizeof(all) / sizeof(all[0]); k++)
		versus(&all[k], rounds);
	if (!segc_poly_equal(&s_r, &s_g)) {
		fprintf(stderr, "bench_versus: the gcd is WRONG\n");
		return 1;
	}
	segc_expr_free(s_sum);
	segc_poly_clear(&s_g);
	segc_poly_clear(&s_ag);
	segc_poly_clear(&s_bg);
	segc_poly_clear(&s_r);
	fmpq_mpoly_clear(f_s, fctx);
	fmpq_mpoly_clear(f_ag, fctx);
	fmpq_mpoly_clear(f_bg, fctx);
	fmpq_mpoly_clear(f_r, fctx);
	fmpq_mpoly_ctx_clear(fctx);
	segc_ctx_free(sctx);
	segc_library_cleanup();
	return 0;
}
