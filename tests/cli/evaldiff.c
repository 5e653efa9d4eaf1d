/* evaldiff.c - the evaluation plan against the walk it replaced: every
 * formula of a file (one a line) evaluated at many points by
 * segc_eval_exact (the plan of src/output/evalmp_plan.c) and by
 * segc_expr_eval_q (the exact walk of src/algebra/evalq.c), which must
 * give the same rational wherever the walk gives one.
 *
 *   evaldiff FILE [POINTS]
 *
 * The points give each free name of a formula a value drawn (by a fixed
 * generator) from small integers and a few fractions.  Prints one line a
 * formula and a summary; exits 0 when no value differs and at least one
 * was compared, 1 otherwise, 2 on bad use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>

#include <segc/segc.h>
#include <segc/eval.h>

/* The values a name may take. */
static const char *const pool[] = {
	"1", "2", "3", "4", "5", "6", "7", "8", "12", "16", "31", "32",
	"64", "100", "1/2", "3/4", "7/3", "0"
};

/* A fixed linear congruential generator. */
static unsigned long next(unsigned long *s)
{
	*s = *s * 6364136223846793005UL + 1442695040888963407UL;
	return *s >> 33;
}

/* Compares the two evaluators on 'e' at 'npoints' points: adds to
 * '*same', '*differ' and '*only_plan'. */
static void compare(segc_ctx *ctx, const segc_expr *e, int npoints,
	unsigned long *seed, long *same, long *differ, long *only_plan,
	const char *text)
{
	const char **names = NULL;
	size_t n = segc_output_names(e, 0, &names), i;
	mpq_t *v = calloc(n + 1, sizeof(mpq_t)), a, b;
	int p;

	mpq_inits(a, b, (mpq_ptr)0);
	for (i = 0; i < n; i++)
		mpq_init(v[i]);
	for (p = 0; p < npoints; p++) {
		segc_point pt;
		int ra, rb;

		for (i = 0; i < n; i++) {
			mpq_set_str(v[i], pool[next(seed) % (sizeof pool /
				sizeof *pool - (p < npoints / 2 ? 4 : 0))], 10);
			mpq_canonicalize(v[i]);
		}
		pt.n = n;
		pt.names = names;
		pt.values = (const mpq_t *)v;
		rb = segc_expr_eval_q(b, e, n, names, (const mpq_t *)v);
		ra = segc_eval_exact(ctx, a, e, &pt, NULL);
		if (rb == 0 && ra == 0 && mpq_equal(a, b)) {
			++*same;
		} else if (rb == 0) {
			++*differ;
			printf("DIFFER at point %d of %s\n", p, text);
			for (i = 0; i < n; i++)
				gmp_printf("  %s = %Qd\n", names[i], v[i]);
			gmp_printf("  walk %Qd, plan %s %Qd\n", b,
				ra ? "failed" : "", a);
		} else if (ra == 0) {
			++*only_plan;
		}
	}
	for (i = 0; i < n; i++)
		mpq_clear(v[i]);
	mpq_clears(a, b, (mpq_ptr)0);
	free(v);
	free(names);
}

int main(int argc, char **argv)
{
	long same = 0, differ = 0, only = 0, formulas = 0;
	unsigned long seed = 12345;
	int npoints = argc > 2 ? atoi(argv[2]) : 40;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	if (argc < 2 || npoints <= 0 || !(f = fopen(argv[1], "r")))
		return 2;
	while (getline(&line, &cap, f) > 0) {
		segc_ctx *ctx = segc_ctx_new();
		segc_expr *e;

		line[strcspn(line, "\n")] = 0;
		e = *line ? segc_expr_parse(ctx, line, NULL) : NULL;
		if (e) {
			formulas++;
			compare(ctx, e, npoints, &seed, &same, &differ, &only,
				line);
		}
		segc_expr_free(e);
		segc_ctx_free(ctx);
	}
	fclose(f);
	free(line);
	printf("%ld formulas, %ld values equal, %ld differ, %ld only the "
		"plan gives\n", formulas, same, differ, only);
	segc_library_cleanup();
	mpfr_free_cache();
	return differ == 0 && same > 0 ? 0 : 1;
}
