/* test_evalq.c - exact evaluation: built-in functions, sums, mva_mem,
 * failures; and the constructors' normalisation preserves values (random
 * expressions against values computed alongside). */
#include <stdlib.h>
#include <string.h>

#include "segc.h"
#include "expr_private.h"
#include "gen_expr.h"
#include "tap.h"

/* Text, and its value at x = 3/2, n = 4, p = -2 ("fail": -1 expected). */
static const struct {
	const char *in, *want;
} cases[] = {
	{ "x + n*p", "-13/2" },
	{ "x^-2", "4/9" },
	{ "p^3", "-8" },
	{ "(x^2)^(1/2)", "3/2" },
	{ "(4/9)^(-3/2)", "27/8" },
	{ "(-8)^(1/3)", "-2" },
	{ "(-4)^(1/2)", "fail" },
	{ "2^(1/2)", "fail" },
	{ "max(x, n, p)", "4" },
	{ "min(x, n, p)", "-2" },
	{ "ceil(x)", "2" },
	{ "floor(x)", "1" },
	{ "ceil(-x)", "-1" },
	{ "floor(-x)", "-2" },
	{ "log2(n^3)", "6" },
	{ "log2(1/8)", "-3" },
	{ "log2(3)", "fail" },
	{ "log2(0)", "fail" },
	{ "sqrt(x^2*n)", "3" },
	{ "sqrt(x)", "fail" },
	{ "sum(i, 1, n, i^2)", "30" },
	{ "sum(i, 1, 0, i)", "0" },
	{ "sum(i, 3, 1, i)", "0" },
	{ "sum(i, 5, 3, 1)", "0" },
	{ "sum(i, n, p, i)", "0" },
	{ "sum(i, p, n, i)", "7" },
	{ "sum(x, 1, 3, x) + x", "15/2" },
	{ "sum(i, 1, n, sum(j, 1, i, 1))", "10" },
	{ "sum(i, 1, n, sum(j, i, 2, j))", "5" },
	{ "sum(i, 1, x, i)", "1" },
	{ "sum(i, 1/2, 7/2, i)", "6" },
	{ "sum(i, -x, x, i^2)", "2" },
	{ "sum(i, x, x, 1)", "0" },
	{ "sum(i, 1, n/3, 1)", "1" },
	{ "sum(i, 1, 10000000, i)", "fail" },
	{ "sum(i, 1, 1000, sum(j, 1, 1000, sum(k, 1, 1000, 1)))", "fail" },
	{ "sum(i, 1, 100, sum(j, 1, 100, sum(k, 1, 100, 1)))", "1000000" },
	{ "if(x < n, 1, 2)", "1" },
	{ "if(x >= n, 1, 2)", "2" },
	{ "if(n <= 4, 1, 2)", "1" },
	{ "if(n > 4, 1, 2)", "2" },
	{ "if(n == 4, 1, 2)", "1" },
	{ "if(n != 4, 1, 2)", "2" },
	{ "if(x == 3/2, 1, 2)", "1" },
	{ "if(p < 0, 1/p, 1/(p - p))", "-1/2" },
	{ "if(p > 0, 1/p, 0)", "0" },
	{ "if(x > 1 and n > 4, 1, 2)", "2" },
	{ "if(x > 1 and n > 3 and p < 0, 1, 2)", "1" },
	{ "if(x > 2 or n > 3, 1, 2)", "1" },
	{ "if(x > 2 or n > 5 or p == -2, 1, 2)", "1" },
	{ "if(x > 2 or n > 5, 1, 2)", "2" },
	{ "if(x < 2 or 1/(n - 4) > 0, 1, 2)", "1" },
	{ "if(x > 2 and 1/(n - 4) > 0, 1, 2)", "2" },
	{ "if(x < 2 and 1/(n - 4) > 0, 1, 2)", "fail" },
	{ "if(not x < 2, 1, 2)", "2" },
	{ "if(not (x > 2 or n < 4), 1, 2)", "1" },
	{ "if(sqrt(x) > 1, 1, 2)", "fail" },
	{ "if(f(x) > 1, 1, 2)", "fail" },
	{ "2*if(n >= 2, n - 1, 0) + if(p >= 2, p - 1, 0)", "6" },
	{ "if(if(x > 1, x, 0) == 3/2, n, p)", "4" },
	{ "sum(i, 1, n, if(i <= 2, i, 10*i))", "73" },
	{ "mva_mem(1, x, n)", "4" },
	{ "mva_mem(2, 1, 1)", "3/2" },
	{ "mva_mem(3, a_0, b_0)", "fail" },
	{ "mva_mem(3, 1, 2)", "66/13" },
	{ "mva_mem(0, 1, 2)", "fail" },
	{ "x/(n - 4)", "fail" },
	{ "0^0", "1" },
	{ "0^-1", "fail" },
	{ "undeclared + 1", "fail" },
	{ "f(x)", "fail" },
	{ "2^100000000", "fail" },
	{ "(-1)^100000001", "-1" },
};

/* A malloc'd copy of 's'. */
static char *copy_string(const char *s)
{
	char *d = malloc(strlen(s) + 1);

	return d ? strcpy(d, s) : NULL;
}

/* Evaluates the parse of 'text' at the point of the cases; "fail" when
 * the evaluation fails.  Returns a malloc'd string. */
static char *eval_text(segc_ctx *ctx, const char *text)
{
	static const char *const names[] = { "x", "n", "p", "n" };
	segc_expr *e = segc_expr_parse(ctx, text, NULL);
	char *s = NULL;
	mpq_t v[4], r;
	size_t i;

	for (i = 0; i < 4; i++)
		mpq_init(v[i]);
	mpq_init(r);
	mpq_set_si(v[0], 3, 2);
	mpq_set_si(v[1], 4, 1);
	mpq_set_si(v[2], -2, 1);
	mpq_set_si(v[3], 99, 1);
	if (!e)
		s = copy_string("parse error");
	else if (segc_expr_eval_q(r, e, 4, names, (const mpq_t *)v))
		s = copy_string("fail");
	else
		s = mpq_get_str(NULL, 10, r);
	for (i = 0; i < 4; i++)
		mpq_clear(v[i]);
	mpq_clear(r);
	segc_expr_free(e);
	return s;
}

/* The table of cases. */
static void test_cases(segc_ctx *ctx)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = eval_text(ctx, cases[i].in);

		tap_is(s, cases[i].want, cases[i].in);
		free(s);
	}
}

/* Random expressions, built through the constructors, evaluate to the
 * value computed while building them. */
static void test_random(void)
{
	struct gen_rng r = { 0x2545f4914f6cdd1dULL };
	const char *scale = getenv("SEGC_TEST_SCALE");
	long i, n = 5000 * (scale && atol(scale) > 0 ? atol(scale) : 1);
	long bad = 0, checked = 0;
	mpq_t want, got, values[GEN_NAMES];
	int ok;

	mpq_init(want);
	mpq_init(got);
	for (i = 0; i < GEN_NAMES; i++) {
		mpq_init(values[i]);
		gen_value_of(values[i], (int)i);
	}
	for (i = 0; i < n; i++) {
		segc_expr *e;

		ok = 1;
		e = gen_expr(&r, (int)gen_range(&r, 1, 5), 0, want, &ok);
		if (ok) {
			checked++;
			if (segc_expr_eval_q(got, e, GEN_NAMES, gen_names,
			    (const mpq_t *)values) || !mpq_equal(got, want)) {
				char *s = segc_expr_to_string(e);

				if (bad++ < 5)
					tap_diag("wrong value of %s", s);
				free(s);
			}
		}
		segc_expr_free(e);
	}
	tap_ok(bad == 0, "%ld random expressions keep their value", checked);
	mpq_clear(want);
	mpq_clear(got);
	for (i = 0; i < GEN_NAMES; i++)
		mpq_clear(values[i]);
}

int main(void)
{
	segc_ctx *ctx = segc_ctx_new();

	test_cases(ctx);
	test_random();
	segc_ctx_free(ctx);
	tap_ok(segc_expr_live_nodes() == 0, "no node leaked");
	segc_library_cleanup();
	return tap_done();
}
