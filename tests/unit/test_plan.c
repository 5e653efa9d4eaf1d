/* test_plan.c - evaluation plans: rounding of coefficients, C
 * identifiers, templates, value numbering, plans run in double against
 * the exact value (MPFR) on random polynomials in N and P, and plans of
 * piecewise formulas and of sums with no closed form run against the same
 * computations done literally (loops in long double). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "output/output.h"

static const char *const args2[] = { "N", "P" };

static void run_block(const segc_plan *p, size_t blk, const double *x,
	double *v);

/* Computes instruction 'i' of 'p' into v[i]: the values it reads are in
 * 'v' already; its blocks run as C would run them. */
static void run_insn(const segc_plan *p, size_t i, const double *x,
	double *v)
{
	const segc_plan_insn *in = &p->insn[i];
	unsigned n = segc_plan_noperands(in);
	double a = n >= 1 ? v[in->a] : 0, b = n >= 2 ? v[in->b] : 0;

	switch (in->op) {
	case SEGC_OP_CONST: v[i] = in->value; break;
	case SEGC_OP_ARG: v[i] = x[in->a]; break;
	case SEGC_OP_COUNTER: break;
	case SEGC_OP_ADD: v[i] = a + b; break;
	case SEGC_OP_SUB: v[i] = a - b; break;
	case SEGC_OP_MUL: v[i] = a * b; break;
	case SEGC_OP_DIV: v[i] = a / b; break;
	case SEGC_OP_NEG: v[i] = -a; break;
	case SEGC_OP_CEIL: v[i] = ceil(a); break;
	case SEGC_OP_FLOOR: v[i] = floor(a); break;
	case SEGC_OP_SQRT: v[i] = sqrt(a); break;
	case SEGC_OP_LOG2: v[i] = log2(a); break;
	case SEGC_OP_EXP2: v[i] = exp2(a); break;
	case SEGC_OP_FMAX: v[i] = fmax(a, b); break;
	case SEGC_OP_FMIN: v[i] = fmin(a, b); break;
	case SEGC_OP_LT: v[i] = a < b; break;
	case SEGC_OP_LE: v[i] = a <= b; break;
	case SEGC_OP_GT: v[i] = a > b; break;
	case SEGC_OP_GE: v[i] = a >= b; break;
	case SEGC_OP_EQ: v[i] = a <= b && a >= b; break;
	case SEGC_OP_NE: v[i] = !(a <= b && a >= b); break;
	case SEGC_OP_NOT: v[i] = !(a != 0); break;
	case SEGC_OP_AND: case SEGC_OP_OR:
		v[i] = a != 0;
		if ((in->op == SEGC_OP_AND) == (a != 0)) {
			run_block(p, in->sub[0], x, v);
			v[i] = v[in->b] != 0;
		}
		break;
	case SEGC_OP_SELECT:
		run_block(p, in->sub[a != 0 ? 0 : 1], x, v);
		v[i] = a != 0 ? v[in->b] : v[in->c];
		break;
	case SEGC_OP_SUM:
		v[i] = 0;
		for (v[in->counter] = a; v[in->counter] <= b;
		     v[in->counter] += 1) {
			run_block(p, in->sub[0], x, v);
			v[i] += v[in->c];
		}
		break;
	case SEGC_OP_ROOT:
		v[i] = in->b == 3 ? cbrt(a) : pow(a, 1.0 / (double)in->b);
		break;
	case SEGC_OP_MAXPLUS: /* in no plan here: test_cyclic, forward*.sh */
	case SEGC_OP_TASKPATH: /* in no plan here: emit_taskpath.sh */
		v[i] = NAN;
		break;
	}
}

/* Runs the instructions of block 'blk' of 'p' in order. */
static void run_block(const segc_plan *p, size_t blk, const double *x,
	double *v)
{
	size_t i;

	for (i = p->blocks[blk].first; i < p->blocks[blk].end; i++)
		if (p->insn[i].block == blk)
			run_insn(p, i, x, v);
}

/* Runs the plan 'p' in double at 'x' (one value per argument). */
static double run_plan(const segc_plan *p, const double *x)
{
	double *v = calloc(p->n + 1, sizeof *v), r;

	run_block(p, 0, x, v);
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
		{ "main", "main_" }, { "class", "class_" }, { "linux", "linux_" },
		{ "i386", "i386_" }, { "BUFSIZ", "BUFSIZ_" }, { "NULL", "NULL_" },
		{ "size_t", "size_t_" }, { "INT_MAX", "INT_MAX_" },
		{ "M_PI", "M_PI_" }, { "M_x", "M_x" }, { "SIGINT", "SIGINT_" },
		{ "PRIORITY", "PRIORITY" }, { "PRId64", "PRId64_" },
		{ "dd_add", "dd_add_" }, { "uint", "uint_" }, { "I", "I_" },
		{ "t_max", "t_max" }, { "N_MAX", "N_MAX_" }
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

/* Parses 'text' (no errors expected). */
static segc_expr *parse(segc_ctx *ctx, const char *text)
{
	return segc_expr_parse(ctx, text, NULL);
}

/* The call 'name'(a) or 'name'(a, b) or 'name'(a, b, c) (NULL args left
 * out); takes its arguments. */
static segc_expr *call(const char *name, segc_expr *a, segc_expr *b,
	segc_expr *c)
{
	segc_expr *args[3];

	args[0] = a;
	args[1] = b;
	args[2] = c;
	return segc_expr_call(name, c ? 3 : b ? 2 : 1, args);
}

/* Plans 'e' over N and P (taking it); NULL when refused. */
static segc_plan *plan_of(segc_ctx *ctx, segc_expr *e)
{
	segc_plan *p = e ? segc_plan_build(ctx, e, 2, args2, NULL) : NULL;

	segc_expr_free(e);
	return p;
}

/* The plan 'p' at (n, pp). */
static double at(const segc_plan *p, double n, double pp)
{
	double x[2];

	x[0] = n;
	x[1] = pp;
	return run_plan(p, x);
}

/* Non-zero when 'got' is within a relative 1e-12 of 'want'. */
static int close_to(double got, long double want)
{
	return fabsl((long double)got - want) <= 1e-12L * (1 + fabsl(want));
}

/* Sums with no closed form become loops: bounds as in C's for (i =
 * ceil(lo); i <= hi; i++), nested loops using the outer counter, a
 * variable shadowing an outer one, empty ranges. */
static void test_sums(segc_ctx *ctx)
{
	segc_plan *p = plan_of(ctx, parse(ctx, "sum(i, 1/2, N/3, "
		"floor(N/i)*sqrt(i)) + sum(i, 1, N, sum(j, i, N - P, "
		"sqrt(i*j) + i)) + sum(i, 1, N, sum(i, -7/3, 3, i^2))"));
	int n, pp, bad = 0;
	size_t i;

	tap_ok(p != NULL, "plan of sums with no closed form");
	for (n = 0; p && n <= 30; n++)
		for (pp = 1; pp <= 4; pp++) {
			long double want = 0;
			long k, j;

			for (k = 1; k <= n / 3; k++)
				want += (long double)(n / k) * sqrtl((long double)k);
			for (k = 1; k <= n; k++)
				for (j = k; j <= n - pp; j++)
					want += sqrtl((long double)(k * j)) + k;
			for (k = 1; k <= n; k++)
				for (j = -2; j <= 3; j++)
					want += (long double)(j * j);
			if (!close_to(at(p, n, pp), want)) {
				tap_diag("N=%d P=%d: %.17g, want %.17Lg", n, pp,
					at(p, n, pp), want);
				bad++;
			}
		}
	tap_ok(p && !bad, "sums run as the literal loops at 124 points");
	segc_plan_free(p);
	p = plan_of(ctx, parse(ctx, "sum(i, 1, N, i*log2(P) + sqrt(P))"));
	for (i = 0; p && i < p->n; i++)
		if ((p->insn[i].op == SEGC_OP_LOG2 ||
		     p->insn[i].op == SEGC_OP_SQRT) && p->insn[i].block)
			bad++;
	tap_ok(p && !bad && close_to(at(p, 4, 8), 10 * 3 + 4 * sqrtl(8)),
		"a loop body's invariant part is computed once, before it");
	segc_plan_free(p);
}

/* The value of if(cond, N + 1, sqrt(N - 3)) for the condition 'c'. */
static segc_expr *if_of(segc_ctx *ctx, segc_expr *c)
{
	return call("if", c, parse(ctx, "N + 1"), parse(ctx, "sqrt(N - 3)"));
}

/* Piecewise formulas: the comparisons, and/or/not, laziness, exact
 * comparisons with constants, refusals of misplaced conditions. */
static void test_ifs(segc_ctx *ctx)
{
	static const char *const rel[] = { "<", "<=", ">", ">=", "==", "!=" };
	segc_plan *p;
	size_t r, i;
	int n, bad = 0, lazy = 1;

	for (r = 0; r < 6; r++) {
		p = plan_of(ctx, if_of(ctx, call(rel[r], parse(ctx, "N"),
			parse(ctx, "P + 2"), NULL)));
		for (n = 0; p && n <= 8; n++) {
			int pp = n % 3 + 1, c = r == 0 ? n < pp + 2 : r == 1 ?
				n <= pp + 2 : r == 2 ? n > pp + 2 : r == 3 ?
				n >= pp + 2 : r == 4 ? n == pp + 2 : n != pp + 2;
			double want = c ? n + 1 : sqrt(n - 3.0);

			if (!(at(p, n, pp) == want || (isnan(want) &&
			    isnan(at(p, n, pp)))))
				bad++;
		}
		for (i = 0; p && i < p->n; i++)
			if (p->insn[i].op == SEGC_OP_SQRT && !p->insn[i].block)
				lazy = 0;
		tap_ok(p != NULL, "plan of if(N %s P + 2, ...)", rel[r]);
		segc_plan_free(p);
	}
	tap_ok(!bad, "if with each comparison chooses as C does");
	tap_ok(lazy, "each side is computed in a block of its own");
	p = plan_of(ctx, if_of(ctx, call("or", call("not", call(">=",
		parse(ctx, "N"), parse(ctx, "3"), NULL), NULL, NULL),
		call("and", call(">", parse(ctx, "sqrt(N - 3)"), parse(ctx,
		"P"), NULL), call("<", parse(ctx, "log2(N - 3)"), parse(ctx,
		"2*P"), NULL), NULL), NULL)));
	bad = !p;
	for (n = 0; p && n <= 40; n++) {
		int pp, c;

		for (pp = 1; pp <= 3; pp++) {
			c = !(n >= 3) || (sqrt(n - 3.0) > pp &&
				log2(n - 3.0) < 2 * pp);
			if (at(p, n, pp) != (c ? n + 1 : sqrt(n - 3.0)) &&
			    !isnan(sqrt(n - 3.0)))
				bad++;
		}
	}
	tap_ok(!bad, "or(not(...), and(...)) as C's || ! &&");
	segc_plan_free(p);
	p = plan_of(ctx, call("if", call(">=", parse(ctx, "N"), parse(ctx,
		"1/3"), NULL), parse(ctx, "1"), parse(ctx, "0")));
	tap_ok(p && at(p, 1.0 / 3, 1) == 0 && at(p, nextafter(1.0 / 3, 1), 1)
		== 1, "N >= 1/3 is exact at the doubles next to 1/3");
	segc_plan_free(p);
	p = plan_of(ctx, call("if", call("==", parse(ctx, "N"), parse(ctx,
		"1/10"), NULL), parse(ctx, "1"), parse(ctx, "0")));
	tap_ok(p && at(p, 0.1, 1) == 0, "N == 1/10 is false at the double 0.1");
	segc_plan_free(p);
	p = plan_of(ctx, call("if", call("<", parse(ctx, "2"), parse(ctx,
		"1"), NULL), parse(ctx, "x"), parse(ctx, "N")));
	tap_ok(p && at(p, 5, 1) == 5, "a condition decided while planning "
		"plans only its side");
	segc_plan_free(p);
	p = plan_of(ctx, call("if", parse(ctx, "N"), parse(ctx, "1"),
		parse(ctx, "2")));
	tap_ok(!p && segc_ctx_status(ctx) == SEGC_ERR_INPUT,
		"a number as a condition is refused");
	segc_ctx_clear(ctx);
	p = plan_of(ctx, parse(ctx, "N + 1"));
	segc_plan_free(p);
	p = plan_of(ctx, call("<", parse(ctx, "N"), parse(ctx, "P"), NULL));
	tap_ok(!p && segc_ctx_status(ctx) == SEGC_ERR_INPUT,
		"a condition as the formula is refused");
	segc_ctx_clear(ctx);
}

/* Runs every test. */
int main(void)
{
	segc_ctx *ctx = segc_ctx_new();

	test_round();
	test_identifiers();
	test_templates(ctx);
	test_plans(ctx);
	test_sums(ctx);
	test_ifs(ctx);
	test_random(ctx);
	segc_ctx_free(ctx);
	segc_library_cleanup();
	return tap_done();
}
