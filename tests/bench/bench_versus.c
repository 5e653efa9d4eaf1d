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
#include <time.h>
#include <flint/fmpq_mpoly.h>
#include <segc/segc.h>
#include "algebra/poly/poly.h"

/* Seconds of CPU time of this process. */
static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Sorts 'v' (n values) and returns the median. */
static double median(double *v, int n)
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
static segc_poly s_ag, s_bg, s_r;

/* The polynomial of 'text' over x1..x8, canonical, into 'p' (text of
 * sums of products "k*x1^a*x2^b"). */
static void spoly_of(segc_poly *p, const char *text)
{
	const char *s = text;
	int32_t e[8];
	mpq_t c;

	segc_poly_init(p, 8);
	mpq_init(c);
	while (*s) {
		int v;

		for (v = 0; v < 8; v++)
			e[v] = 0;
		mpq_set_ui(c, 1, 1);
		while (*s && *s != '+') {
			if (*s == 'x') {
				int k = 1;

				v = s[1] - '1';
				s += 2;
				if (*s == '^')
					k = (int)strtol(s + 1, (char **)&s, 10);
				e[v] += k;
			} else if (*s >= '0' && *s <= '9') {
				mpq_set_si(c, strtol(s, (char **)&s, 10), 1);
			} else {
				s++;
			}
		}
		segc_poly_push(p, e, c);
		if (*s == '+')
			s++;
	}
	segc_poly_normalise(NULL, p);
	mpq_clear(c);
}

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

/* The 10^5-term sum of ANCHORS.md, built with the constructors. */
static segc_expr *long_sum(void)
{
	segc_expr **terms = malloc(100000 * sizeof(*terms)), *e;
	segc_expr *x1 = segc_expr_sym("x1"), *x2 = segc_expr_sym("x2");
	segc_expr *x3 = segc_expr_sym("x3");
	long i;

	for (i = 0; i < 100000; i++) {
		segc_expr *f[4];

		f[0] = segc_expr_rat(i % 97 + 1, (unsigned long)(i % 13 + 1));
		f[1] = segc_expr_powi(segc_expr_copy(x1), i % 50);
		f[2] = segc_expr_powi(segc_expr_copy(x2), (i / 50) % 40);
		f[3] = segc_expr_powi(segc_expr_copy(x3), (i / 2000) % 7);
		terms[i] = segc_expr_mul(4, f);
	}
	e = segc_expr_add(100000, terms);
	free(terms);
	segc_expr_free(x1);
	segc_expr_free(x2);
	segc_expr_free(x3);
	return e;
}

static segc_expr *s_sum;

/* The long sum made anew for segc_sum, as bench_algebra makes it. */
static void make_sum(void)
{
	segc_expr_free(s_sum);
	s_sum = long_sum();
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

/* P = the polynomial of 'text' over x1..x8. */
static void fpoly_of(fmpq_mpoly_t P, const char *text)
{
	const char *vars[8] = { "x1", "x2", "x3", "x4", "x5", "x6", "x7",
		"x8" };

	fmpq_mpoly_init(P, fctx);
	if (fmpq_mpoly_set_str_pretty(P, text, vars, fctx)) {
		fprintf(stderr, "bench_versus: cannot parse %s\n", text);
		exit(1);
	}
}

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
	fmpq_t c;
	ulong e[8] = { 0 };
	long i;

	fmpq_init(c);
	fmpq_mpoly_zero(f_r, fctx);
	for (i = 0; i < 100000; i++) {
		fmpq_set_si(c, i % 97 + 1, (ulong)(i % 13 + 1));
		e[0] = (ulong)(i % 50);
		e[1] = (ulong)((i / 50) % 40);
		e[2] = (ulong)((i / 2000) % 7);
		fmpq_mpoly_push_term_fmpq_ui(f_r, c, e, fctx);
	}
	fmpq_mpoly_sort_terms(f_r, fctx);
	fmpq_mpoly_combine_like_terms(f_r, fctx);
	fmpq_clear(c);
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
		t0 = now();
		f();
		t += now() - t0;
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
	ms = median(ts, rounds) / w->reps;
	mf = median(tf, rounds) / w->reps;
	printf("%-40s segc %8.3f ms  FLINT %8.3f ms  ratio %.2f "
		"(%.2f-%.2f)  %d of %d rounds <= 1.5\n", w->name, ms * 1e3,
		mf * 1e3, median(q, rounds), lo, hi, within, rounds);
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
	fpoly_of(f_s, "x1+x2+x3+x4+x5+x6+x7+x8+1");
	fpoly_of(f_ag, "(x1*x2+x3+x4^2+x5+x6+2)^3*(x1+x2+x3+x4+1)^4");
	fpoly_of(f_bg, "(x1+x5*x6+3*x7+x8+x2^2+5)^3*(x1+x2+x3+x4+1)^4");
	fmpq_mpoly_init(f_r, fctx);
	{
		segc_poly g, a, b;

		spoly_of(&g, "x1+x2+x3+x4+1");
		spoly_of(&a, "x1*x2+x3+x4^2+x5+x6+2");
		spoly_of(&b, "x1+x5*x6+3*x7+x8+x2^2+5");
		segc_poly_pow(NULL, &g, &g, 4);
		segc_poly_pow(NULL, &a, &a, 3);
		segc_poly_pow(NULL, &b, &b, 3);
		segc_poly_init(&s_ag, 8);
		segc_poly_init(&s_bg, 8);
		segc_poly_init(&s_r, 8);
		segc_poly_mul(NULL, &s_ag, &a, &g);
		segc_poly_mul(NULL, &s_bg, &b, &g);
		segc_poly_clear(&g);
		segc_poly_clear(&a);
		segc_poly_clear(&b);
	}
	for (k = 0; k < sizeof(all) / sizeof(all[0]); k++)
		versus(&all[k], rounds);
	segc_expr_free(s_sum);
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
