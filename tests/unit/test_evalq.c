/* test_evalq.c - exact evaluation: built-in functions, sums, mva_mem,
 * if and conditions, failures; and the constructors' normalisation
 * preserves values (random expressions against values computed
 * alongside).  MPFR evaluation of the same table agrees with the exact
 * values, and decides comparisons of irrational values only beyond
 * their rounding. */
#include <stdlib.h>
#include <string.h>

#include <segc/segc.h>
#include "expr/expr_private.h"
#include "output/output.h"
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
	{ "floor(log2(x))", "0" },
	{ "ceil(log2(x))", "1" },
	{ "floor(log2(1/x))", "-1" },
	{ "ceil(log2(1/x))", "0" },
	{ "floor(3*log2(x) - 1/2)", "1" },
	{ "floor(log2(n^3) + 1/2)", "6" },
	{ "floor(log2(10^40 + 1))", "132" },
	{ "floor(sqrt(x))", "1" },
	{ "ceil(sqrt(x))", "2" },
	{ "floor(-sqrt(x*n))", "-3" },
	{ "ceil(-sqrt(x*n))", "-2" },
	{ "floor(sqrt(x) + sqrt(n))", "3" },
	{ "floor(10^20*sqrt(2))", "141421356237309504880" },
	{ "floor(100*(x*n)^(1/3))", "181" },
	{ "ceil(7*p^(1/3))", "-8" },
	{ "floor(sqrt(x) + log2(3))", "fail" },
	{ "floor(sqrt(p))", "fail" },
	{ "floor(log2(p))", "fail" },
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

/* The MPFR value of 'text' at the point of the cases, with 'bits' of
 * precision, printed to 40 significant digits into 'buf'; "fail" or
 * "limit" on an error of that class. */
static void eval_mpfr_text(segc_ctx *ctx, const char *text, mpfr_prec_t bits,
	char *buf, size_t size)
{
	static const char *const names[] = { "x", "n", "p" };
	segc_expr *e = segc_expr_parse(ctx, text, NULL);
	segc_point pt;
	mpq_t v[3];
	mpfr_t r;
	int i, rc;

	for (i = 0; i < 3; i++)
		mpq_init(v[i]);
	mpq_set_si(v[0], 3, 2);
	mpq_set_si(v[1], 4, 1);
	mpq_set_si(v[2], -2, 1);
	pt.n = 3;
	pt.names = names;
	pt.values = (const mpq_t *)v;
	mpfr_init2(r, bits);
	segc_ctx_clear(ctx);
	rc = e ? segc_eval_mpfr(ctx, r, e, &pt, NULL) : -1;
	if (rc)
		snprintf(buf, size, "%s", segc_ctx_status(ctx) ==
			SEGC_ERR_LIMIT ? "limit" : "fail");
	else
		mpfr_snprintf(buf, size, "%.40Rg", r);
	segc_ctx_clear(ctx);
	mpfr_clear(r);
	for (i = 0; i < 3; i++)
		mpq_clear(v[i]);
	segc_expr_free(e);
}

/* MPFR evaluation gives the exact values of the table (where they are
 * defined), rounded. */
static void test_mpfr_agrees(segc_ctx *ctx)
{
	size_t i;
	int bad = 0;
	char got[128];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		mpq_t q;
		mpfr_t f;
		char want[128];

		/* rational exponents are for exact evaluation only */
		if (!strcmp(cases[i].want, "fail") || strstr(cases[i].in, "^("))
			continue;
		mpq_init(q);
		mpfr_init2(f, 200);
		mpq_set_str(q, cases[i].want, 10);
		mpfr_set_q(f, q, MPFR_RNDN);
		mpfr_snprintf(want, sizeof want, "%.40Rg", f);
		eval_mpfr_text(ctx, cases[i].in, 200, got, sizeof got);
		if (strcmp(got, want) && bad++ < 5)
			tap_diag("%s: MPFR %s, exact %s", cases[i].in, got, want);
		mpq_clear(q);
		mpfr_clear(f);
	}
	tap_ok(bad == 0, "MPFR evaluation agrees with exact evaluation on "
		"the table (%d differ)", bad);
}

/* Comparisons, floor and ceil of irrational values: decided where the
 * error bounds allow, at a higher precision where needed, refused where
 * no precision decides.  Expected values by hand: sqrt(2) =
 * 1.41421356237309504880168872420969807..., sqrt(10^20 + 1) = 10^10 +
 * 5*10^-11 - ... */
static void test_mpfr_decisions(segc_ctx *ctx)
{
	static const struct { const char *in, *want; } t[] = {
		{ "if(sqrt(2) < 1.4142135623730950488016887242097, 1, 0)", "1" },
		{ "if(sqrt(2) > 1.4142135623730950488016887242096, 1, 0)", "1" },
		{ "if(sqrt(2)*sqrt(2) >= 2 - 1/10^40, 1, 0)", "1" },
		{ "if(sqrt(2)*sqrt(2) == 2, 1, 0)", "limit" },
		{ "if(sqrt(2)^2 != 2, 1, 0)", "limit" },
		{ "floor(sqrt(10^20 + 1)*10)", "100000000000" },
		{ "ceil(sqrt(10^20 + 1)*10)", "100000000001" },
		{ "floor(sqrt(2)*sqrt(2))", "limit" },
		{ "floor(sqrt(8)/sqrt(2))", "limit" },
		{ "floor(log2(3)*1000)", "1584" },
		{ "sum(i, 1, sqrt(10), i)", "6" },
		{ "sum(i, sqrt(2), 2*sqrt(2), i)", "2" },
		{ "sum(i, -sqrt(2), sqrt(5), i^2)", "6" },
		{ "sum(i, 1, sqrt(2)*sqrt(2), i)", "limit" },
		{ "if(x > 1 and sqrt(n) == 2, 7, 8)", "7" },
		{ "if(max(sqrt(2), 1.5) < 1.5 + 1/10^30, 1, 0)", "1" },
		{ "if(1/(sqrt(2) - 1.41421356) > 0, 1, 0)", "1" },
		{ "if((sqrt(2) - 1.4142135623730950488016887242)^3 > 0, 1, 0)", "1" },
		{ "if((sqrt(2) - 1.4142135623730950488016887243)^3 < 0, 1, 0)", "1" },
	};
	size_t i;
	char got[128];

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		eval_mpfr_text(ctx, t[i].in, 53, got, sizeof got);
		tap_is(got, t[i].want, t[i].in);
	}
}

int main(void)
{
	segc_ctx *ctx = segc_ctx_new();

	test_cases(ctx);
	test_random();
	test_mpfr_agrees(ctx);
	test_mpfr_decisions(ctx);
	segc_ctx_free(ctx);
	tap_ok(segc_expr_live_nodes() == 0, "no node leaked");
	segc_library_cleanup();
	return tap_done();
}
