/* fuzz_expr.c - fuzz target of the expression language: any text is
 * parsed; what parses must print and parse back to the same pointer, its
 * canonical form (with and without domains) must be idempotent and print
 * back to itself, and where the input and its canonical form both
 * evaluate exactly at a point inside the domains, the values must agree.
 * A broken invariant aborts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "output/output.h"

/* Most nodes visited when deciding whether evaluating is cheap. */
#define WALK_BUDGET 4000

/* The work the canonical forms of the current input may still spend.
 * One input gets one max_work of the fuzz context for its four forms
 * (without and with domains, each twice): with a budget each, an input
 * near the limit spent four, about 30 s under the sanitizers, past the
 * smoke run's timeout. */
static unsigned long work_left;

/* Non-zero when exact evaluation of 'e' is cheap: small, no sum, small
 * constant exponents, small mva_mem.  '*budget' bounds the walk. */
static int cheap_to_eval(const segc_expr *e, long *budget)
{
	size_t i, n;
	mpq_srcptr q;

	if (--*budget < 0)
		return 0;
	switch (segc_expr_kind(e)) {
	case SEGC_SUM:
		return 0;
	case SEGC_POW:
		if (!segc_expr_is_num(segc_expr_arg(e, 1)))
			return 0;
		q = segc_expr_value(segc_expr_arg(e, 1));
		if (mpz_cmp_ui(mpq_denref(q), 1) ||
		    mpz_cmpabs_ui(mpq_numref(q), 64) > 0)
			return 0;
		return cheap_to_eval(segc_expr_arg(e, 0), budget);
	case SEGC_CALL:
		if (!strcmp(segc_expr_name(e), "mva_mem") &&
		    (!segc_expr_nargs(e) ||
		     !segc_expr_is_num(segc_expr_arg(e, 0)) ||
		     mpq_cmp_ui(segc_expr_value(segc_expr_arg(e, 0)), 16, 1)
		     > 0))
			return 0;
		break;
	default:
		break;
	}
	n = segc_expr_kind(e) == SEGC_NUM || segc_expr_kind(e) == SEGC_SYM ?
		0 : segc_expr_nargs(e);
	for (i = 0; i < n; i++)
		if (!cheap_to_eval(segc_expr_arg(e, i), budget))
			return 0;
	return 1;
}

/* The value a name takes at the test point: inside the domains of
 * make_domains(), else a small positive rational from its spelling. */
static void point_value(mpq_t v, const char *name)
{
	unsigned long h = 5381;
	const char *p;

	if (!strcmp(name, "N"))
		mpq_set_ui(v, 6, 1);
	else if (!strcmp(name, "P"))
		mpq_set_ui(v, 4, 1);
	else if (!strcmp(name, "x"))
		mpq_set_ui(v, 1, 3);
	else if (!strcmp(name, "y"))
		mpq_set_ui(v, 5, 2);
	else {
		for (p = name; *p; p++)
			h = h * 33 + (unsigned char)*p;
		mpq_set_ui(v, h % 11 + 1, h / 11 % 4 + 1);
		mpq_canonicalize(v);
	}
}

/* Domains the test point lies in: N, P positive integers, 0 <= x <= 1,
 * y >= 0. */
static segc_domains *make_domains(void)
{
	segc_domains *d = segc_domains_new();
	mpq_t zero, one;

	mpq_init(zero);
	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	segc_domains_set(d, "N", one, NULL, 1);
	segc_domains_set(d, "P", one, NULL, 1);
	segc_domains_set(d, "x", zero, one, 0);
	segc_domains_set(d, "y", zero, NULL, 0);
	mpq_clear(zero);
	mpq_clear(one);
	return d;
}

/* Evaluates 'a' and 'b' at the test point; where both have a value,
 * they must be equal. */
static void check_same_value(const segc_expr *a, const segc_expr *b)
{
	const char **names = NULL;
	size_t i, n;
	mpq_t *vals, ra, rb;
	long budget = WALK_BUDGET;

	if (!cheap_to_eval(a, &budget))
		return;
	budget = WALK_BUDGET;
	if (!cheap_to_eval(b, &budget))
		return;
	n = segc_output_names(a, 0, &names);
	vals = calloc(n + 1, sizeof *vals);
	fuzz_check(vals != NULL, "memory");
	for (i = 0; i < n; i++) {
		mpq_init(vals[i]);
		point_value(vals[i], names[i]);
	}
	mpq_init(ra);
	mpq_init(rb);
	if (!segc_expr_eval_q(ra, a, n, names, (const mpq_t *)vals) &&
	    !segc_expr_eval_q(rb, b, n, names, (const mpq_t *)vals) &&
	    !mpq_equal(ra, rb)) {
		char *sa = segc_expr_to_string(a), *sb = segc_expr_to_string(b);

		fprintf(stderr, "fuzz: %s\nfuzz: canonical: %s\n", sa, sb);
		gmp_fprintf(stderr, "fuzz: values %Qd and %Qd\n", ra, rb);
		free(sa);
		free(sb);
		fuzz_check(0, "an expression and its canonical form agree");
	}
	mpq_clear(ra);
	mpq_clear(rb);
	for (i = 0; i < n; i++)
		mpq_clear(vals[i]);
	free(vals);
	free(names);
}

/* A fuzz context whose max_work is what the input has left (0 would
 * mean no limit: 1 stops at the first charge). */
static segc_ctx *budget_ctx(void)
{
	segc_ctx *ctx = fuzz_ctx_new();

	segc_ctx_limits(ctx)->max_work = work_left ? work_left : 1;
	return ctx;
}

/* Takes what 'ctx' spent from the input's budget and frees 'ctx'. */
static void spend_and_free(segc_ctx *ctx)
{
	unsigned long long w = segc_ctx_work(ctx);

	work_left = w >= work_left ? 0 : work_left - (unsigned long)w;
	segc_ctx_free(ctx);
}

/* Checks the canonical form of 'e' under 'dom' (may be NULL). */
static void check_canonical(const segc_expr *e, const segc_domains *dom)
{
	segc_ctx *ctx = budget_ctx();
	segc_expr *c, *c2;

	c = segc_canonical(ctx, dom, segc_expr_copy(e));
	if (!c) {
		fuzz_check_failure(ctx);
		spend_and_free(ctx);
		return;
	}
	fuzz_check_diags(ctx);
	c2 = segc_canonical(ctx, dom, segc_expr_copy(c));
	/* Doing it again may reach a limit the first pass did not (the gcd
	 * of numerator and denominator is computed again, from another
	 * start); any other failure is a bug. */
	if (!c2)
		fuzz_check(segc_ctx_status(ctx) == SEGC_ERR_LIMIT,
			"a canonical form canonicalizes again");
	else if (c2 != c) {
		char *s1 = segc_expr_to_string(c), *s2 = segc_expr_to_string(c2);

		fprintf(stderr, "fuzz: once: %s\nfuzz: twice: %s\n", s1, s2);
		free(s1);
		free(s2);
		fuzz_check(0, "the canonical form is idempotent");
	}
	fuzz_check_roundtrip(c);
	check_same_value(e, c);
	segc_expr_free(c2);
	segc_expr_free(c);
	spend_and_free(ctx);
}

/* One input: an expression's text. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	segc_ctx *ctx = fuzz_ctx_new();
	segc_domains *dom;
	segc_expr *e;

	work_left = segc_ctx_limits(ctx)->max_work;
	e = segc_expr_parse(ctx, text, NULL);
	if (!e) {
		fuzz_check_failure(ctx);
	} else {
		fuzz_check_diags(ctx);
		fuzz_check_roundtrip(e);
		check_canonical(e, NULL);
		dom = make_domains();
		check_canonical(e, dom);
		segc_domains_free(dom);
		segc_expr_free(e);
	}
	segc_ctx_free(ctx);
	free(text);
	return 0;
}
