/* test_plan.c - evaluation plans: rounding of coefficients, C
 * identifiers, templates, value numbering, and plans run in double against
 * the exact value (MPFR) on random polynomials in N and P. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "output.h"

static const char *const args2[] = { "N", "P" };

/* Runs the plan 'p' in double at 'x' (one value per argument). */
static double run_plan(const segc_plan *p, const double *x)
{
	double *v = malloc((p->n + 1) * sizeof *v), r;
	size_t i;

	for (i = 0; i < p->n; i++) {
		const segc_plan_insn *in = &p->insn[i];
		double a = in->op >= SEGC_OP_ADD ? v[in->a] : 0;
		double b = in->op >= SEGC_OP_ADD ? v[in->b] : 0;

		switch (in->op) {
		case SEGC_OP_CONST: v[i] = in->value; break;
		case SEGC_OP_ARG: v[i] = x[in->a]; break;
		case SEGC_OP_ADD: v[i] = a + b; break;
		case SEGC_OP_SUB: v[i] = a - b; break;
		case SEGC_OP_MUL: v[i] = a * b; break;
		case SEGC_OP_DIV: v[i] = a / b; break;
		case SEGC_OP_NEG: v[i] = -a; break;
		case SEGC_OP_CEIL: v[i] = ceil(a); break;
		case SEGC_OP_FLOOR: v[i] = floor(a); break;
		case SEGC_OP_SQRT: v[i] = sqrt(a); break;
		case SEGC_OP_LOG2: v[i] = log2(a); break;
		case SEGC_OP_FMAX: v[i] = fmax(a, b); break;
		case SEGC_OP_FMIN: v[i] = fmin(a, b); break;
		}
	}
	r = v[p->result];
	free(v);
	return r;
}

/* Distance of 'a' from 'b' in ulp (both positive). */
static double ulps(double a, double b)
{
	int64_t x, y;

	memcpy(&x, &a, sizeof x);
	memcpy(&y, &b, sizeof y);
	return (double)(x > y ? x - y : y - x);
}

/* The exact value of 'e' at (N, P), rounded to double. */
static double exact(segc_ctx *ctx, const segc_expr *e, double n, double p)
{
	mpq_t v[2];
	mpfr_t r;
	segc_point pt;
	double d;

	mpq_init(v[0]);
	mpq_init(v[1]);
	mpq_set_d(v[0], n);
	mpq_set_d(v[1], p);
	pt.n = 2;
	pt.names = args2;
	pt.values = (const mpq_t *)v;
	mpfr_init2(r, 53);
	segc_eval_mpfr(ctx, r, e, &pt, NULL);
	d = mpfr_get_d(r, MPFR_RNDN);
	mpfr_clear(r);
	mpq_clear(v[0]);
	mpq_clear(v[1]);
	return d;
}

/* A random dense polynomial in N and P (degrees 0..9 and -2..6) with
 * positive rational coefficients, as text. */
static char *random_poly(unsigned *seed)
{
	segc_strbuf b;
	int i, j;

	segc_strbuf_init(&b);
	for (i = 0; i <= 9; i++)
		for (j = -2; j <= 6; j++) {
			*seed = *seed * 1103515245u + 12345u;
			segc_strbuf_appendf(&b, "%s%u/%u*N^%d*P^%d", i || j > -2 ?
				" + " : "", (*seed >> 8) % 1000 + 1,
				(*seed >> 20) % 97 + 1, i, j);
		}
	return segc_strbuf_take(&b);
}

/* Plans of random polynomials agree with the exact values. */
static void test_random(segc_ctx *ctx)
{
	unsigned seed = 12345;
	double worst = 0;
	int k;

	for (k = 0; k < 20; k++) {
		char *text = random_poly(&seed);
		segc_expr *e = segc_canonical(ctx, NULL,
			segc_expr_parse(ctx, text, NULL));
		segc_plan *p = e ? segc_plan_build(ctx, e, 2, args2, NULL) : NULL;
		double x[2];
		int i, j;

		for (i = 0; p && i < 8; i++)
			for (j = 0; j < 8; j++) {
				double u;

				x[0] = ldexp(1.0 + i / 7.0, 3 * i);
				x[1] = 1 + 3 * j;
				u = ulps(run_plan(p, x), exact(ctx, e, x[0], x[1]));
				if (u > worst)
					worst = u;
			}
		if (k == 0)
			tap_ok(p && p->flops <= 2 * 90 + 10, "a 90-term polynomial "
				"takes %lu operations", p ? p->flops : 0);
		segc_plan_free(p);
		segc_expr_free(e);
		free(text);
	}
	tap_ok(worst <= 8, "random dense polynomials: max error %.0f ulp",
		worst);
}

/* Correct rounding of coefficients, subnormals and overflow included. */
static void test_round(void)
{
	mpq_t q;
	double d;

	mpq_init(q);
	mpq_set_ui(q, 1, 3);
	tap_ok(!segc_plan_round(&d, q) && d == 1.0 / 3, "1/3 rounds to nearest");
	mpq_set_str(q, "1/80000000", 10);
	tap_ok(!segc_plan_round(&d, q) && d == 12.5e-9, "12.5e-9");
	mpz_ui_pow_ui(mpq_denref(q), 2, 1075);
	mpz_set_ui(mpq_numref(q), 3);
	mpq_canonicalize(q);
	tap_ok(!segc_plan_round(&d, q) && d == 4.9406564584124654e-324 * 2,
		"3/2^1075 rounds to even among subnormals");
	mpz_ui_pow_ui(mpq_numref(q), 2, 1024);
	mpz_set_ui(mpq_denref(q), 1);
	tap_ok(segc_plan_round(&d, q) != 0, "2^1024 overflows");
	mpq_clear(q);
}

/* Identifiers of the emitted C. */
static void test_identifiers(void)
{
	static const struct { const char *in, *want; } c[] = {
		{ "N", "N" }, { "double", "double_" }, { "fmax", "fmax_" },
		{ "_x", "m_x" }, { "EDOM", "EDOM_" }, { "t_stmt", "t_stmt" },
		{ "main", "main_" }, { "class", "class_" }
	};
	size_t i;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		char *got = segc_emit_identifier(c[i].in);

		tap_is(got, c[i].want, c[i].in);
		free(got);
	}
}

/* Templates: placeholders replaced, unknown ones refused. */
static void test_templates(segc_ctx *ctx)
{
	static const char *const keys[] = { "A", "BC" };
	static const char *const values[] = { "1", "two" };
	char *s = segc_template_fill(ctx, "x@A@y@BC@z@ @q@", "t", 2, keys,
		values);

	tap_is(s, "x1ytwoz@ @q@", "template placeholders");
	free(s);
	s = segc_template_fill(ctx, "@NOPE@", "t", 2, keys, values);
	tap_ok(!s && segc_ctx_status(ctx) == SEGC_ERR_INPUT,
		"an unknown placeholder is an error");
	segc_ctx_clear(ctx);
}

/* Refusals and sharing. */
static void test_plans(segc_ctx *ctx)
{
	segc_expr *e = segc_expr_parse(ctx, "(N + 1)^2 + (N + 1)^3 + "
		"max(N, P) + max(N, P)^2", NULL);
	segc_plan *p = segc_plan_build(ctx, e, 2, args2, NULL);

	tap_ok(p != NULL, "plan of a structural formula");
	tap_ok(p && p->flops <= 9, "shared subexpressions computed once "
		"(%lu operations)", p ? p->flops : 0);
	segc_plan_free(p);
	segc_expr_free(e);
	e = segc_expr_parse(ctx, "x*f(N) + y", NULL);
	p = segc_plan_build(ctx, e, 2, args2, NULL);
	tap_ok(!p && segc_ctx_status(ctx) == SEGC_ERR_INPUT,
		"an unbound name or a call is refused");
	segc_ctx_clear(ctx);
	segc_expr_free(e);
}

/* Runs every test. */
int main(void)
{
	segc_ctx *ctx = segc_ctx_new();

	test_round();
	test_identifiers();
	test_templates(ctx);
	test_plans(ctx);
	test_random(ctx);
	segc_ctx_free(ctx);
	segc_library_cleanup();
	return tap_done();
}
