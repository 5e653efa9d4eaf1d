/* evalball.c - the ball backend of the evaluation plan against exact
 * rationals: every formula of a file (one a line) at many points.
 *
 *   evalball FILE [POINTS]
 *
 * At each point (small integers and fractions for every free name, by a
 * fixed generator) where the exact walk of src/algebra/evalq.c gives a
 * rational value:
 *   - the plan's exact run (segc_eval_plan_exact, the plan compiled once
 *     per formula as check, sensitivity and fit compile it) must give
 *     that same value, exactly;
 *   - the plan run over balls at 24, 64 and 200 bits, the exact
 *     decisions left to the walk, must hold the exact value in its ball
 *     whenever the run completes;
 *   - segc_eval_mpfr_n() (balls, refined) at 53 and 113 bits must give
 *     the exact value correctly rounded (mpfr_set_q);
 *   - one name is then given the interval [v, v + 1/3]: the enclosure
 *     of segc_eval_enclose() must hold the exact values at seven points
 *     of it, or the enclosure must be refused with an error recorded.
 * Prints the failures and a summary; exits 0 when nothing failed and
 * values were compared, 1 otherwise, 2 on bad use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>

#include <segc/segc.h>
#include <segc/eval.h>
#include "output/evalball_private.h"

/* The values a name may take. */
static const char *const pool[] = {
	"1", "2", "3", "4", "5", "6", "7", "8", "12", "16", "31", "32",
	"64", "100", "1/2", "3/4", "7/3", "0"
};

/* The counts of a run. */
typedef struct tally {
	long points, enclosed, open, wrong;    /* balls */
	long rounded, misrounded;              /* segc_eval_mpfr_n */
	long boxes, box_ok, box_refused, box_wrong;
	long same, differ, unvalued;           /* segc_eval_plan_exact */
} tally;

/* A fixed linear congruential generator. */
static unsigned long next(unsigned long *s)
{
	*s = *s * 6364136223846793005UL + 1442695040888963407UL;
	return *s >> 33;
}

/* Non-zero when the ball 'x' holds the rational 'q'. */
static int holds(const arb_t x, const mpq_t q)
{
	fmpq_t f;
	int in;

	fmpq_init(f);
	fmpz_set_mpz(fmpq_numref(f), mpq_numref(q));
	fmpz_set_mpz(fmpq_denref(f), mpq_denref(q));
	in = arb_contains_fmpq(x, f);
	fmpq_clear(f);
	return in;
}

/* The plan of 'e' run over balls at the point 'pt' at three precisions:
 * each completed run must hold 'exact'. */
static void check_balls(const segc_expr *e, const segc_point *pt,
	const mpq_t exact, tally *t, const char *text)
{
	static const slong precs[] = { 24, 64, 200 };
	segc_ctx *ctx = segc_ctx_new();
	segc_evaluator cev;
	segc_eplan plan;
	segc_ball_run r;
	arb_t x;
	size_t k;

	memset(&cev, 0, sizeof cev);
	cev.ctx = ctx;
	cev.pt = pt;
	arb_init(x);
	if (!segc_eplan_compile(&plan, &cev, 1, &e)) {
		for (k = 0; k < 3; k++) {
			memset(&r, 0, sizeof r);
			r.p = &plan;
			r.pt = pt;
			r.ctx = ctx;
			r.prec = precs[k];
			if (segc_ball_plan_run(&r, x) != SEGC_BALL_OK) {
				t->open++;
			} else if (holds(x, exact)) {
				t->enclosed++;
			} else {
				t->wrong++;
				printf("NOT ENCLOSED at %ld bits: %s\n",
					(long)precs[k], text);
			}
		}
		segc_eplan_free(&plan);
	}
	arb_clear(x);
	segc_ctx_free(ctx);
}

/* segc_eval_mpfr_n() at 53 and 113 bits against 'exact' rounded. */
static void check_rounding(const segc_expr *e, const segc_point *pt,
	const mpq_t exact, tally *t, const char *text)
{
	static const mpfr_prec_t precs[] = { 53, 113 };
	segc_ctx *ctx = segc_ctx_new();
	mpfr_t got, want;
	mpfr_ptr g;
	size_t k;

	for (k = 0; k < 2; k++) {
		mpfr_inits2(precs[k], got, want, (mpfr_ptr)0);
		g = got;
		mpfr_set_q(want, exact, MPFR_RNDN);
		if (!segc_eval_mpfr_n(ctx, 1, &g, &e, pt, NULL) &&
		    mpfr_equal_p(got, want)) {
			t->rounded++;
		} else {
			t->misrounded++;
			mpfr_printf("MISROUNDED at %ld bits: %s: %.30Rg, not "
				"%.30Rg\n", (long)precs[k], text, got, want);
		}
		mpfr_clears(got, want, (mpfr_ptr)0);
	}
	segc_ctx_free(ctx);
}

/* Name 'j' of the point given [v, v + 1/3]: the enclosure must hold the
 * exact values at v + i/18, i = 0 .. 6 (by the walk), or be refused. */
static void check_box(const segc_expr *e, const char **names, size_t n,
	mpq_t *v, size_t j, tally *t, const char *text)
{
	segc_ctx *ctx = segc_ctx_new();
	mpq_t lo, hi, q, saved;
	mpfr_t l, h;
	mpfr_ptr pl = l, ph = h;
	segc_point pt;
	segc_box box;
	int i;

	mpq_inits(lo, hi, q, saved, (mpq_ptr)0);
	mpfr_inits2(64, l, h, (mpfr_ptr)0);
	mpq_set(saved, v[j]);
	mpq_set(lo, v[j]);
	mpq_set_ui(hi, 1, 3);
	mpq_add(hi, hi, lo);
	pt.n = n;
	pt.names = names;
	pt.values = (const mpq_t *)v;
	box.n = 1;
	box.names = &names[j];
	box.lo = (const mpq_t *)&lo;
	box.hi = (const mpq_t *)&hi;
	t->boxes++;
	if (segc_eval_enclose(ctx, 1, &pl, &ph, NULL, &e, &pt, &box, NULL)) {
		if (segc_ctx_status(ctx) == SEGC_OK) {
			t->box_wrong++;
			printf("REFUSED WITHOUT AN ERROR: %s\n", text);
		} else
			t->box_refused++;
		goto out;
	}
	for (i = 0; i <= 6; i++) {
		mpq_set_si(v[j], i, 18);
		mpq_add(v[j], v[j], lo);
		if (segc_expr_eval_q(q, e, n, names, (const mpq_t *)v))
			continue;
		if (mpfr_cmp_q(l, q) > 0 || mpfr_cmp_q(h, q) < 0) {
			t->box_wrong++;
			gmp_printf("OUTSIDE the enclosure at %s = %Qd: %s\n",
				names[j], v[j], text);
			goto out;
		}
	}
	t->box_ok++;
out:
	mpq_set(v[j], saved);
	mpq_clears(lo, hi, q, saved, (mpq_ptr)0);
	mpfr_clears(l, h, (mpfr_ptr)0);
	segc_ctx_free(ctx);
}

/* The exact run of the plan 'ep' (compiled once for the formula) at
 * 'pt' against 'exact', the value of the walk. */
static void check_exact(const segc_eval_plan *ep, const segc_point *pt,
	const mpq_t exact, tally *t, const char *text)
{
	segc_ctx *ctx = segc_ctx_new();
	mpq_t q;
	int rc;

	mpq_init(q);
	rc = ep ? segc_eval_plan_exact(ctx, q, ep, pt, NULL) : -1;
	if (rc) {
		t->unvalued++;
		printf("NO EXACT VALUE from the plan (%d): %s\n", rc, text);
	} else if (mpq_equal(q, exact)) {
		t->same++;
	} else {
		t->differ++;
		gmp_printf("EXACT VALUES DIFFER: plan %Qd, walk %Qd: %s\n", q,
			exact, text);
	}
	mpq_clear(q);
	segc_ctx_free(ctx);
}

/* Checks 'e' at 'npoints' points. */
static void check(const segc_expr *e, int npoints, unsigned long *seed,
	tally *t, const char *text)
{
	const char **names = NULL;
	size_t n = segc_output_names(e, 0, &names), i;
	mpq_t *v = calloc(n + 1, sizeof(mpq_t)), exact;
	segc_ctx *ctx = segc_ctx_new();
	segc_eval_plan *ep;
	segc_point pt0;
	int p;

	mpq_init(exact);
	for (i = 0; i < n; i++)
		mpq_init(v[i]);
	pt0.n = n;
	pt0.names = names;
	pt0.values = (const mpq_t *)v;
	ep = segc_eval_plan_new(ctx, e, &pt0);
	for (p = 0; p < npoints; p++) {
		segc_point pt;

		for (i = 0; i < n; i++) {
			mpq_set_str(v[i], pool[next(seed) % (sizeof pool /
				sizeof *pool - (p < npoints / 2 ? 4 : 0))], 10);
			mpq_canonicalize(v[i]);
		}
		pt.n = n;
		pt.names = names;
		pt.values = (const mpq_t *)v;
		if (segc_expr_eval_q(exact, e, n, names, (const mpq_t *)v))
			continue;
		t->points++;
		check_exact(ep, &pt, exact, t, text);
		check_balls(e, &pt, exact, t, text);
		check_rounding(e, &pt, exact, t, text);
		if (n && p % 4 == 0)
			check_box(e, names, n, v, next(seed) % n, t, text);
	}
	for (i = 0; i < n; i++)
		mpq_clear(v[i]);
	segc_eval_plan_free(ep);
	segc_ctx_free(ctx);
	mpq_clear(exact);
	free(v);
	free(names);
}

int main(int argc, char **argv)
{
	tally t;
	unsigned long seed = 54321;
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
	printf("%ld formulas, %ld points: exact plan %ld equal, %ld differ, "
		"%ld without a value; balls %ld enclose, %ld not, %ld "
		"left to the exact plan; rounding %ld right, %ld wrong; "
		"intervals %ld: %ld enclose, %ld refused, %ld wrong\n",
		formulas, t.points, t.same, t.differ, t.unvalued, t.enclosed,
		t.wrong, t.open, t.rounded, t.misrounded, t.boxes, t.box_ok,
		t.box_refused, t.box_wrong);
	segc_library_cleanup();
	mpfr_free_cache();
	flint_cleanup();
	return t.wrong || t.misrounded || t.box_wrong || !t.enclosed ||
		t.differ || t.unvalued || !t.same ? 1 : 0;
}
