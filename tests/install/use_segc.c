/* use_segc.c - a user's program built against the installed library through
 * pkg-config: reduces a quotient to its canonical form and prints it, then
 * uses the other public headers on it (LaTeX, the check of two formulas,
 * evaluation with MPFR), so that installing proves they are exported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/segc.h>
#include <segc/check.h>
#include <segc/eval.h>
#include <segc/latex.h>

/* 0 when 'e' typesets as non-empty LaTeX; else says so and returns 1. */
static int typeset(const segc_expr *e)
{
	char *t = segc_latex_expr(e, NULL);
	int bad = !t || !*t;

	if (bad)
		fprintf(stderr, "use_segc: no LaTeX for the formula\n");
	free(t);
	return bad;
}

/* 0 when 'e' differs from 'e' + 1 at some point, as the check finds. */
static int differs_from_successor(segc_expr *e)
{
	segc_expr *f = segc_expr_add2(segc_expr_copy(e), segc_expr_int(1));
	segc_witness w;
	int found;

	segc_witness_init(&w);
	found = segc_witness_search(&w, NULL, e, f, 50);
	segc_witness_clear(&w);
	segc_expr_free(f);
	if (!found)
		fprintf(stderr, "use_segc: no witness that e != e + 1\n");
	return !found;
}

/* 0 when 'e' is 5 at x = 2, y = 3 (evaluated with MPFR). */
static int evaluates(segc_ctx *ctx, const segc_expr *e)
{
	const char *names[2] = { "x", "y" };
	mpq_t values[2];
	segc_point pt = { 2, names, (const mpq_t *)values };
	mpfr_t out;
	int bad;

	mpq_init(values[0]);
	mpq_init(values[1]);
	mpq_set_ui(values[0], 2, 1);
	mpq_set_ui(values[1], 3, 1);
	mpfr_init2(out, 64);
	bad = segc_eval_mpfr(ctx, out, e, &pt, NULL) || mpfr_cmp_ui(out, 5);
	if (bad)
		fprintf(stderr, "use_segc: the formula is not 5 at (2, 3)\n");
	mpfr_clear(out);
	mpq_clear(values[0]);
	mpq_clear(values[1]);
	return bad;
}

/* Prints the canonical form of argv[1] (default: a quotient that cancels),
 * then exercises it; exit 1 when one of the uses fails. */
int main(int argc, char **argv)
{
	const char *text = argc > 1 ? argv[1] : "(x^2 - y^2)/(x - y)";
	segc_ctx *ctx = segc_ctx_new();
	segc_expr *e = segc_expr_parse(ctx, text, NULL);
	char *s;
	int bad;

	if (e)
		e = segc_canonical(ctx, NULL, e);
	if (!e) {
		fprintf(stderr, "%s\n", segc_ctx_diag(ctx, 0)->message);
		segc_ctx_free(ctx);
		return 2;
	}
	s = segc_expr_to_string(e);
	printf("%s\n", s);
	free(s);
	bad = typeset(e) | differs_from_successor(e);
	if (argc <= 1)
		bad |= evaluates(ctx, e);
	segc_expr_free(e);
	segc_ctx_free(ctx);
	segc_library_cleanup();
	return bad;
}
