/* bench_algebra.c - the four algebra workloads of the reference timings
 * (expand, gcd, canonical form of a long sum, closed form of a sum), each
 * timed as the median of several runs, with the peak resident size. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <segc/segc.h>
#include "algebra/poly/poly.h"
#include "bench_clock.h"
#include "workloads_segc.h"

/* The peak resident size so far, in kB. */
static long peak_kb(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return u.ru_maxrss;
}

/* Prints one result line. */
static void report(const char *name, double *t, int n, const char *extra)
{
	printf("%-44s median %9.6f s  (%d runs)  peak RSS %ld kB  %s\n", name,
		bench_median(t, n), n, peak_kb(), extra);
}

/* Canonical form of the parsed 'text'; exits on failure. */
static segc_expr *canon_text(segc_ctx *ctx, const char *text)
{
	segc_expr *e = segc_expr_parse(ctx, text, NULL);
	segc_expr *c = e ? segc_canonical(ctx, NULL, e) : NULL;

	if (!c) {
		fprintf(stderr, "bench_algebra: cannot canonicalise %s\n", text);
		exit(1);
	}
	return c;
}

/* Workload 1: expand (x1 + ... + x8 + 1)^8. */
static void bench_expand(segc_ctx *ctx)
{
	double t[7];
	char extra[64];
	int i;

	for (i = 0; i < 7; i++) {
		segc_expr *c;

		t[i] = bench_now();
		c = canon_text(ctx, "(x1+x2+x3+x4+x5+x6+x7+x8+1)^8");
		t[i] = bench_now() - t[i];
		snprintf(extra, sizeof(extra), "%zu terms", segc_expr_nargs(c));
		segc_expr_free(c);
	}
	report("expand (x1+...+x8+1)^8 (segc_canonical)", t, 7, extra);
}

/* Workload 1 behind the polynomial interface: segc_poly_pow, the
 * operation that FLINT's fmpq_mpoly_pow_ui is set beside. */
static void bench_expand_poly(segc_ctx *ctx)
{
	segc_poly s, r;
	double t[7];
	char extra[64];
	int i;

	(void)ctx;  /* the polynomial interface needs none */
	workload_poly_of(&s, "x1+x2+x3+x4+x5+x6+x7+x8+1");
	segc_poly_init(&r, 8);
	for (i = 0; i < 7; i++) {
		t[i] = bench_now();
		segc_poly_pow(NULL, &r, &s, 8);
		t[i] = bench_now() - t[i];
	}
	snprintf(extra, sizeof(extra), "%zu terms", segc_poly_nterms(&r));
	report("expand (x1+...+x8+1)^8 (segc_poly_pow)", t, 7, extra);
	segc_poly_clear(&s);
	segc_poly_clear(&r);
}

/* Workload 2: gcd(A*G, B*G). */
static void bench_gcd(segc_ctx *ctx)
{
	segc_poly g, a, b, ag, bg, r;
	double t[7];
	char extra[96];
	int i;

	(void)ctx;  /* the polynomial interface needs none */
	workload_poly_of(&g, "x1+x2+x3+x4+1");
	workload_poly_of(&a, "x1*x2+x3+x4^2+x5+x6+2");
	workload_poly_of(&b, "x1+x5*x6+3*x7+x8+x2^2+5");
	segc_poly_init(&ag, 8);
	segc_poly_init(&bg, 8);
	segc_poly_init(&r, 8);
	segc_poly_pow(NULL, &g, &g, 4);
	segc_poly_pow(NULL, &a, &a, 3);
	segc_poly_pow(NULL, &b, &b, 3);
	segc_poly_mul(NULL, &ag, &a, &g);
	segc_poly_mul(NULL, &bg, &b, &g);
	for (i = 0; i < 7; i++) {
		t[i] = bench_now();
		segc_poly_gcd(NULL, &r, &ag, &bg);
		t[i] = bench_now() - t[i];
	}
	snprintf(extra, sizeof(extra), "%zu and %zu terms, gcd %zu terms%s",
		segc_poly_nterms(&ag), segc_poly_nterms(&bg),
		segc_poly_nterms(&r), segc_poly_equal(&r, &g) ? "" : " WRONG");
	report("gcd(A*G, B*G) (segc_poly_gcd)", t, 7, extra);
	segc_poly_clear(&g);
	segc_poly_clear(&a);
	segc_poly_clear(&b);
	segc_poly_clear(&ag);
	segc_poly_clear(&bg);
	segc_poly_clear(&r);
}

/* Workload 3: canonical form of the long sum. */
static void bench_long_sum(segc_ctx *ctx)
{
	double t[5];
	char extra[64];
	int i;

	for (i = 0; i < 5; i++) {
		segc_expr *e = workload_long_sum(), *c;

		t[i] = bench_now();
		c = segc_canonical(ctx, NULL, e);
		t[i] = bench_now() - t[i];
		snprintf(extra, sizeof(extra), "%zu terms",
			c ? segc_expr_nargs(c) : 0);
		segc_expr_free(c);
	}
	report("canonical form of the 10^5-term sum", t, 5, extra);
}

/* c = a/b in lowest terms by a word gcd, as FLINT's fmpq_set_si does
 * for the same coefficients in bench_flint (mpq_canonicalize would take
 * GMP's general gcd, which costs more than the push itself). */
static void set_small_fraction(mpq_t c, unsigned long a, unsigned long b)
{
	unsigned long x = a, y = b;

	while (y) {
		unsigned long t = x % y;

		x = y;
		y = t;
	}
	mpq_set_ui(c, a / x, b / x);
}

/* Workload 3 behind the polynomial interface: the 10^5 terms pushed
 * onto one polynomial, then sorted and merged (segc_poly_normalise), the
 * steps FLINT's push, sort and merge are set beside. */
static void bench_long_sum_poly(segc_ctx *ctx)
{
	segc_poly s;
	int32_t e[3];
	mpq_t c;
	double t[5];
	char extra[64];
	long i;
	int k;

	(void)ctx;  /* the polynomial interface needs none */
	segc_poly_init(&s, 3);
	mpq_init(c);
	for (k = 0; k < 5; k++) {
		t[k] = bench_now();
		segc_poly_zero(&s);
		for (i = 0; i < 100000; i++) {
			set_small_fraction(c, (unsigned long)(i % 97 + 1),
				(unsigned long)(i % 13 + 1));
			e[0] = (int32_t)(i % 50);
			e[1] = (int32_t)((i / 50) % 40);
			e[2] = (int32_t)((i / 2000) % 7);
			segc_poly_push(&s, e, c);
		}
		segc_poly_normalise(NULL, &s);
		t[k] = bench_now() - t[k];
	}
	snprintf(extra, sizeof(extra), "%zu terms", segc_poly_nterms(&s));
	report("the 10^5-term sum (segc_poly push, normalise)", t, 5, extra);
	segc_poly_clear(&s);
	mpq_clear(c);
}

/* Workload 4: sum(k, 1, N, sum_{j=0}^{10} (j+1)/3 k^j), N an integer
 * >= 1 as every model declares it (for a real N the sum runs to
 * floor(N) and is piecewise). */
static void bench_closed_sum(segc_ctx *ctx)
{
	segc_domains *dom = segc_domains_new();
	mpq_t one;
	static const char *text = "sum(k, 1, N, 1/3 + 2/3*k + 3/3*k^2 + "
		"4/3*k^3 + 5/3*k^4 + 6/3*k^5 + 7/3*k^6 + 8/3*k^7 + 9/3*k^8 + "
		"10/3*k^9 + 11/3*k^10)";
	double t[21];
	char extra[64];
	int i;

	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	segc_domains_set(dom, "N", one, NULL, 1);
	mpq_clear(one);
	for (i = 0; i < 21; i++) {
		segc_expr *e = segc_expr_parse(ctx, text, NULL), *c;

		t[i] = bench_now();
		c = segc_canonical(ctx, dom, e);
		t[i] = bench_now() - t[i];
		snprintf(extra, sizeof(extra), "%zu terms",
			c ? segc_expr_nargs(c) : 0);
		segc_expr_free(c);
	}
	segc_domains_free(dom);
	report("closed form of sum(k,1,N, sum_j (j+1)/3 k^j)", t, 21, extra);
}

/* With no argument, every workload; with arguments, only those named
 * (expand, expand_poly, gcd, sum, sum_poly, closed), for profiling one. */
int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*run)(segc_ctx *);
	} all[] = {
		{ "expand", bench_expand }, { "expand_poly", bench_expand_poly },
		{ "gcd", bench_gcd }, { "sum", bench_long_sum },
		{ "sum_poly", bench_long_sum_poly },
		{ "closed", bench_closed_sum },
	};
	segc_ctx *ctx = segc_ctx_new();
	size_t i;
	int a;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		int run = argc < 2;

		for (a = 1; a < argc; a++)
			run |= !strcmp(argv[a], all[i].name);
		if (run)
			all[i].run(ctx);
	}
	segc_ctx_free(ctx);
	segc_library_cleanup();
	return 0;
}
