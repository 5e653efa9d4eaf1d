/* evaldbl.c - the double backend of the evaluation plan against exact
 * rationals: every formula of a file (one a line) at many points.
 *
 *   evaldbl FILE [POINTS]
 *
 * At each point (small integers and fractions for every free
 * name, by a fixed generator) where the exact walk of
 * src/algebra/evalq.c gives a rational value, segc_eval_double_n() must
 * either decline or give doubles lo <= the exact value <= hi; and when
 * lo and hi print alike to 6 significant digits, the exact value must
 * print so too (mpfr_set_q, correctly rounded, at 128 bits as 'segc
 * eval' rounds it).  Prints the failures and a summary; exits 0 when
 * nothing failed and some enclosures were compared, 1 otherwise, 2 on
 * bad use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>

#include <segc/segc.h>
#include <segc/eval.h>

/* The values a name may take. */
static const char *const pool[] = {
	"1", "2", "3", "4", "5", "6", "7", "8", "12", "16", "31", "32",
	"64", "100", "1/2", "3/4", "7/3", "1/10", "0"
};

/* The counts of a run. */
typedef struct tally {
	long points, enclosed, declined, wrong, printed, misprinted;
} tally;

/* A fixed linear congruential generator. */
static unsigned long next(unsigned long *s)
{
	*s = *s * 6364136223846793005UL + 1442695040888963407UL;
	return *s >> 33;
}

/* 'x' printed to 6 significant digits into 'buf' (64 bytes). */
static void print6(char *buf, mpfr_srcptr x)
{
	mpfr_snprintf(buf, 64, "%.6Rg", x);
}

/* The doubles of 'e' at 'pt' against 'exact'. */
static void check_point(const segc_expr *e, const segc_point *pt,
	const mpq_t exact, tally *t, const char *text)
{
	segc_ctx *ctx = segc_ctx_new();
	double lo, hi;
	mpq_t l, h;
	mpfr_t x;
	char a[64], b[64], c[64];

	if (segc_eval_double_n(ctx, 1, &lo, &hi, &e, pt)) {
		t->declined++;
		segc_ctx_free(ctx);
		return;
	}
	mpq_inits(l, h, (mpq_ptr)0);
	mpfr_init2(x, 128);
	mpq_set_d(l, lo);
	mpq_set_d(h, hi);
	if (segc_ctx_n_diags(ctx) || mpq_cmp(l, exact) > 0 ||
	    mpq_cmp(exact, h) > 0) {
		t->wrong++;
		printf("NOT ENCLOSED: %s: [%.17g, %.17g]\n", text, lo, hi);
	} else {
		t->enclosed++;
		mpfr_set_d(x, lo, MPFR_RNDN);
		print6(a, x);
		mpfr_set_d(x, hi, MPFR_RNDN);
		print6(b, x);
		mpfr_set_q(x, exact, MPFR_RNDN);
		print6(c, x);
		if (strcmp(a, b)) {
			/* not certain to 6 digits: 'segc eval' runs MPFR */
		} else if (!strcmp(a, c)) {
			t->printed++;
		} else {
			t->misprinted++;
			printf("MISPRINTED: %s: %s, not %s\n", text, a, c);
		}
	}
	mpq_clears(l, h, (mpq_ptr)0);
	mpfr_clear(x);
	segc_ctx_free(ctx);
}

/* 'e' at 'npoints' points. */
static void check(const segc_expr *e, int npoints, unsigned long *seed,
	tally *t, const char *text)
{
	const char **names = NULL;
	size_t n = segc_output_names(e, 0, &names), i;
	mpq_t *v = calloc(n + 1, sizeof(mpq_t)), exact;
	int p;

	mpq_init(exact);
	for (i = 0; i < n; i++)
		mpq_init(v[i]);
	for (p = 0; p < npoints; p++) {
		segc_point pt;

		for (i = 0; i < n; i++) {
			mpq_set_str(v[i], pool[next(seed) % (sizeof pool /
				sizeof *pool - (p < npoints / 2 ? 5 : 0))], 10);
			mpq_canonicalize(v[i]);
		}
		pt.n = n;
		pt.names = names;
		pt.values = (const mpq_t *)v;
		if (segc_expr_eval_q(exact, e, n, names, (const mpq_t *)v))
			continue;
		t->points++;
		check_point(e, &pt, exact, t, text);
	}
	for (i = 0; i < n; i++)
		mpq_clear(v[i]);
	mpq_clear(exact);
	free(v);
	free(names);
}

int main(int argc, char **argv)
{
	tally t;
	unsigned long seed = 12345;
	int npoints = argc > 2 ? atoi(argv[2]) : 40;
	long formulas = 0;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	if (argc < 2 || npoints <= 0 || !(f = fopen(argv[1], "r")))
		return 2;
	memset(&t, 0, sizeof t);
	while (getline(&line, &cap, f) > 0) {
		segc_ctx *ctx = segc_ctx_new();
		segc_expr *e;

		line[strcspn(line, "\n")] = 0;
		e = *line ? segc_expr_parse(ctx, line, NULL) : NULL;
		if (e) {
			formulas++;
			check(e, npoints, &seed, &t, line);
		}
		segc_expr_free(e);
		segc_ctx_free(ctx);
	}
	fclose(f);
	free(line);
	printf("%ld formulas, %ld points: doubles %ld enclose, %ld not, %ld "
		"declined; 6 digits certain %ld right, %ld wrong\n", formulas,
		t.points, t.enclosed, t.wrong, t.declined, t.printed,
		t.misprinted);
	segc_library_cleanup();
	mpfr_free_cache();
	return t.wrong || t.misprinted || !t.enclosed ? 1 : 0;
}
