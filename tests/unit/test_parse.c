/* test_parse.c - the parser and the printer: text in, text out; exact
 * numbers; diagnostics with their positions; printing then parsing random
 * expressions gives back the same node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/segc.h>
#include "expr/expr_private.h"
#include "gen_expr.h"
#include "tap.h"

/* Input text and the printed form of its parse. */
static const struct {
	const char *in, *out;
} cases[] = {
	{ "0.46", "23/50" },
	{ "3.18e-4", "159/500000" },
	{ "12.5e-9", "1/80000000" },
	{ ".5", "1/2" },
	{ "1e3", "1000" },
	{ "2.50E+2", "250" },
	{ "007", "7" },
	{ "a - 2*b", "a - 2*b" },
	{ "x-3", "x - 3" },
	{ "3 + x", "3 + x" },
	{ "x + 3", "x + 3" },
	{ "1 - p", "1 - p" },
	{ "x + 1 + 2", "x + 3" },
	{ "2*N^2*t/P", "2*N^2*t/P" },
	{ "1/P", "1/P" },
	{ "-1/P", "-1/P" },
	{ "-x/y", "-x/y" },
	{ "1/x^2", "1/x^2" },
	{ "2^-1", "1/2" },
	{ "-N^2", "-N^2" },
	{ "a/b/c", "a/b/c" },
	{ "a/(b/c)", "a/(b/c)" },
	{ "x/2", "x/2" },
	{ "N*x*3/4", "3*N*x/4" },
	{ "-x/2", "-x/2" },
	{ "(a+b)*(c-d)", "(a + b)*(c - d)" },
	{ "-(a+b)", "-(a + b)" },
	{ "x - (a+b)", "x - (a + b)" },
	{ "x - (-y)", "x + y" },
	{ "x - 2*y*z", "x - 2*y*z" },
	{ "x + -1/2*y", "x - y/2" },
	{ "sum(i,1,N,i^2)", "sum(i, 1, N, i^2)" },
	{ "max(a,b,-c)", "max(a, b, -c)" },
	{ "x^(1/2)", "x^(1/2)" },
	{ "x^(-1/2)", "x^(-1/2)" },
	{ "(x^(1/2))^-1", "1/x^(1/2)" },
	{ "(x^(1/2))^-2", "1/(x^(1/2))^2" },
	{ "0^-2", "0^-2" },
	{ "x^y^z", "x^(y^z)" },
	{ "x^-n", "x^(-n)" },
	{ "(2*x)^-1", "1/(2*x)" },
	{ "a*(b+c)^-2*d", "a/(b + c)^2*d" },
	{ "(x^2)^3", "x^6" },
	{ "2^3^2", "512" },
	{ "(-2)^3", "-8" },
	{ "(-2)^x", "(-2)^x" },
	{ "(1/2)^x", "(1/2)^x" },
	{ "--x", "x" },
	{ "x*0 + 1", "1" },
	{ "f(x)^2", "f(x)^2" },
	{ "tree_bcast(8*N) + 2*tree_bcast(8)",
	  "tree_bcast(8*N) + 2*tree_bcast(8)" },
	{ " a\n +\tb ", "a + b" },
	{ "t_assign + N_element*(t_loop + t_if + P_max*t_assign)",
	  "t_assign + N_element*(t_loop + t_if + P_max*t_assign)" },
	{ "(1 + 2*R2/(a + R2))*b", "(1 + 2*R2/(a + R2))*b" },
	{ "if(N>=2, a, b)", "if(N >= 2, a, b)" },
	{ "if(l<=p, alpha + d*(beta + tau*(l + h)), 0)",
	  "if(l <= p, alpha + d*(beta + tau*(l + h)), 0)" },
	{ "if(a<b and c>d or e==f, 1, 2)", "if(a < b and c > d or e == f, 1, 2)" },
	{ "if(a < b and (c > d or e != f), 1, 2)",
	  "if(a < b and (c > d or e != f), 1, 2)" },
	{ "if((a < b or c < d) and e < f, x, y)",
	  "if((a < b or c < d) and e < f, x, y)" },
	{ "if(not a < b, x, y)", "if(not a < b, x, y)" },
	{ "if(not not a < b, x, y)", "if(not not a < b, x, y)" },
	{ "if(not (a < b and c < d), x, y)", "if(not (a < b and c < d), x, y)" },
	{ "if(not (a < b or c < d) or e < f, x, y)",
	  "if(not (a < b or c < d) or e < f, x, y)" },
	{ "if(((a < b)), x, y)", "if(a < b, x, y)" },
	{ "if((a + 1)*2 > c, x, y)", "if(2*(a + 1) > c, x, y)" },
	{ "if((a + 1)/2 > c, x, y)", "if((a + 1)/2 > c, x, y)" },
	{ "if((a) < (b), x, y)", "if(a < b, x, y)" },
	{ "if((a < b and c < d) and e < f, x, y)",
	  "if(a < b and c < d and e < f, x, y)" },
	{ "if(a < b or (c < d or e < f), x, y)",
	  "if(a < b or c < d or e < f, x, y)" },
	{ "if(f(x, 2) <= max(a, b), if(x > 0, 1, 2), 3)",
	  "if(f(x, 2) <= max(a, b), if(x > 0, 1, 2), 3)" },
	{ "if(if(x > 0, x, 0) == 0, 1, 2)", "if(if(x > 0, x, 0) == 0, 1, 2)" },
	{ "2*if(N == 1, 0, N) + 1", "2*if(N == 1, 0, N) + 1" },
	{ "if(x != 0, 1/x, 0)^2", "if(x != 0, 1/x, 0)^2" },
	{ "1/if(x > 0, x, 1)", "1/if(x > 0, x, 1)" },
	{ "if(-x >= -1, -x, x)", "if(-x >= -1, -x, x)" },
	{ "if(a-b<c-d, a - b, c - d)", "if(a - b < c - d, a - b, c - d)" },
	{ "if(sum(i, 1, N, i) > 3, 1, 0)", "if(sum(i, 1, N, i) > 3, 1, 0)" },
	{ "t_if + if_x + android + order + note + notx",
	  "t_if + if_x + android + order + note + notx" },
};

/* 'text' on one line, for a test name: white space as blanks; static
 * storage. */
static const char *one_line(const char *text)
{
	static char buf[200];
	size_t i;

	for (i = 0; text[i] && i + 1 < sizeof(buf); i++)
		buf[i] = text[i] == '\n' || text[i] == '\t' ? ' ' : text[i];
	buf[i] = '\0';
	return buf;
}

/* Parses 'text' with 'ctx'. */
static segc_expr *parse(segc_ctx *ctx, const char *text)
{
	return segc_expr_parse(ctx, text, NULL);
}

/* Each case prints as expected and parses back to the same node. */
static void test_cases(segc_ctx *ctx)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		segc_expr *e = parse(ctx, cases[i].in), *f;
		char *s = segc_expr_to_string(e);

		tap_is(s, cases[i].out, one_line(cases[i].in));
		f = parse(ctx, s);
		tap_ok(e && f == e, "'%s' parses back", s);
		free(s);
		segc_expr_free(e);
		segc_expr_free(f);
	}
	tap_ok(segc_ctx_n_diags(ctx) == 0, "no diagnostics for valid text");
}

/* Input, where it stands (column 0: unknown), and the diagnostic:
 * line, column, message. */
static const struct {
	const char *in;
	unsigned long col;
	enum segc_status code;
	unsigned long want_line, want_col;
	const char *message;
} errors[] = {
	{ "", 0, SEGC_ERR_INPUT, 7, 0,
	  "attribute 'cost' of <step>: empty expression at column 1 of the value" },
	{ "(a+b", 5, SEGC_ERR_INPUT, 7, 9,
	  "attribute 'cost' of <step>: expected ')' to close '(' at column 5, "
	  "found end of the expression" },
	{ "(a+b", 0, SEGC_ERR_INPUT, 7, 0,
	  "attribute 'cost' of <step>: expected ')' to close '(' at column 1 "
	  "of the value, found end of the expression at column 5 of the value" },
	{ "a+)", 1, SEGC_ERR_INPUT, 7, 3,
	  "attribute 'cost' of <step>: unexpected ')'" },
	{ "f(a b)", 1, SEGC_ERR_INPUT, 7, 5,
	  "attribute 'cost' of <step>: expected ',' or ')' to close '(' of 'f' "
	  "at column 2, found name 'b'" },
	{ "2 x", 1, SEGC_ERR_INPUT, 7, 3,
	  "attribute 'cost' of <step>: unexpected name 'x'" },
	{ "1.", 1, SEGC_ERR_INPUT, 7, 1,
	  "attribute 'cost' of <step>: malformed number '1.'" },
	{ "2e", 1, SEGC_ERR_INPUT, 7, 1,
	  "attribute 'cost' of <step>: malformed number '2e'" },
	{ "a # b", 1, SEGC_ERR_INPUT, 7, 3,
	  "attribute 'cost' of <step>: unexpected character '#'" },
	{ "+x", 1, SEGC_ERR_INPUT, 7, 1,
	  "attribute 'cost' of <step>: unexpected '+'" },
	{ "x^", 1, SEGC_ERR_INPUT, 7, 3,
	  "attribute 'cost' of <step>: unexpected end of the expression" },
	{ "f()", 1, SEGC_ERR_INPUT, 7, 3,
	  "attribute 'cost' of <step>: unexpected ')'" },
	{ "sum(1, 2, 3, 4)", 1, SEGC_ERR_INPUT, 7, 1,
	  "attribute 'cost' of <step>: the first argument of 'sum' must be a "
	  "name" },
	{ "sum(i, 2, 3)", 1, SEGC_ERR_INPUT, 7, 1,
	  "attribute 'cost' of <step>: 'sum' takes 4 arguments (variable, low, "
	  "high, body), found 3" },
	{ "a +\n  (b", 3, SEGC_ERR_INPUT, 8, 5,
	  "attribute 'cost' of <step>: expected ')' to close '(' at column 3, "
	  "found end of the expression" },
	{ "a +\n  (b\n", 3, SEGC_ERR_INPUT, 9, 1,
	  "attribute 'cost' of <step>: expected ')' to close '(' at line 8, "
	  "column 3, found end of the expression" },
	{ "x < 3", 1, SEGC_ERR_INPUT, 7, 3,
	  "attribute 'cost' of <step>: a comparison ('<') may stand only in the "
	  "condition of 'if' (its first argument)" },
	{ "f(x >= 3)", 1, SEGC_ERR_INPUT, 7, 5,
	  "attribute 'cost' of <step>: a comparison ('>=') may stand only in "
	  "the condition of 'if' (its first argument)" },
	{ "(x != 3)", 1, SEGC_ERR_INPUT, 7, 4,
	  "attribute 'cost' of <step>: a comparison ('!=') may stand only in "
	  "the condition of 'if' (its first argument)" },
	{ "if(x < 1, a < b, c)", 1, SEGC_ERR_INPUT, 7, 13,
	  "attribute 'cost' of <step>: a comparison ('<') may stand only in the "
	  "condition of 'if' (its first argument)" },
	{ "x = 1", 1, SEGC_ERR_INPUT, 7, 3,
	  "attribute 'cost' of <step>: '=' is not an operator: compare with "
	  "'==' in the condition of 'if'" },
	{ "if(x = 1, a, b)", 1, SEGC_ERR_INPUT, 7, 6,
	  "attribute 'cost' of <step>: '=' is not a comparison: write '==' to "
	  "test equality" },
	{ "if(x, a, b)", 1, SEGC_ERR_INPUT, 7, 5,
	  "attribute 'cost' of <step>: the condition of 'if' compares two "
	  "values: expected '<', '<=', '>', '>=', '==' or '!=', found ','" },
	{ "if(x and y, a, b)", 1, SEGC_ERR_INPUT, 7, 6,
	  "attribute 'cost' of <step>: the condition of 'if' compares two "
	  "values: expected '<', '<=', '>', '>=', '==' or '!=', found name "
	  "'and'" },
	{ "if(x < 1 && y < 2, a, b)", 1, SEGC_ERR_INPUT, 7, 10,
	  "attribute 'cost' of <step>: unexpected character '&' (conditions are "
	  "written with 'and', 'or', 'not')" },
	{ "if(x < 1, a)", 1, SEGC_ERR_INPUT, 7, 12,
	  "attribute 'cost' of <step>: 'if' takes 3 arguments (condition, value "
	  "where it holds, value elsewhere), found 2" },
	{ "if(x < 1)", 1, SEGC_ERR_INPUT, 7, 9,
	  "attribute 'cost' of <step>: 'if' takes 3 arguments (condition, value "
	  "where it holds, value elsewhere), found 1" },
	{ "if(x < 1, a, b, c)", 1, SEGC_ERR_INPUT, 7, 15,
	  "attribute 'cost' of <step>: 'if' takes 3 arguments (condition, value "
	  "where it holds, value elsewhere), found more" },
	{ "if(x < 1 < 2, a, b)", 1, SEGC_ERR_INPUT, 7, 10,
	  "attribute 'cost' of <step>: comparisons do not chain: join them with "
	  "'and' (a < b and b < c)" },
	{ "if((x < 1) + 1 > 0, a, b)", 1, SEGC_ERR_INPUT, 7, 12,
	  "attribute 'cost' of <step>: a condition is not a value: write "
	  "if(condition, value, value) to use one" },
	{ "if((x < 1 y), a, b)", 1, SEGC_ERR_INPUT, 7, 11,
	  "attribute 'cost' of <step>: expected ')' to close '(' at column 4, "
	  "found name 'y'" },
	{ "if(x <, a, b)", 1, SEGC_ERR_INPUT, 7, 7,
	  "attribute 'cost' of <step>: unexpected ','" },
	{ "a and b", 1, SEGC_ERR_INPUT, 7, 3,
	  "attribute 'cost' of <step>: 'and' is a reserved word of conditions, "
	  "which stand only in the condition of 'if' (its first argument)" },
	{ "not x", 1, SEGC_ERR_INPUT, 7, 1,
	  "attribute 'cost' of <step>: 'not' is a reserved word of conditions, "
	  "which stand only in the condition of 'if' (its first argument)" },
	{ "or(a, b)", 1, SEGC_ERR_INPUT, 7, 1,
	  "attribute 'cost' of <step>: 'or' is a reserved word of conditions, "
	  "which stand only in the condition of 'if' (its first argument)" },
	{ "if + 1", 1, SEGC_ERR_INPUT, 7, 1,
	  "attribute 'cost' of <step>: 'if' is a reserved word: write "
	  "if(condition, value where it holds, value elsewhere)" },
	{ "sum(if, 1, 2, 3)", 1, SEGC_ERR_INPUT, 7, 5,
	  "attribute 'cost' of <step>: 'if' is a reserved word: write "
	  "if(condition, value where it holds, value elsewhere)" },
	{ "!x", 1, SEGC_ERR_INPUT, 7, 1,
	  "attribute 'cost' of <step>: unexpected character '!' (conditions "
	  "are written with 'and', 'or', 'not')" },
	{ "1e100001", 1, SEGC_ERR_LIMIT, 7, 1,
	  "attribute 'cost' of <step>: exponent of number literal too large "
	  "(more than 100000)" },
};

/* Each erroneous text gives the expected diagnostic. */
static void test_errors(segc_ctx *ctx)
{
	segc_where w = { "m.xml", 7, 0, "attribute 'cost' of <step>" };
	size_t i;

	for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		const segc_diag *d;
		segc_expr *e;

		segc_ctx_clear(ctx);
		w.col = errors[i].col;
		e = segc_expr_parse(ctx, errors[i].in, &w);
		d = segc_ctx_diag(ctx, 0);
		tap_ok(!e && segc_ctx_n_diags(ctx) == 1, "'%s' fails once",
			one_line(errors[i].in));
		if (!d)
			continue;
		tap_is(d->message, errors[i].message, "its message");
		tap_ok(d->code == errors[i].code && d->line == errors[i].want_line &&
			d->col == errors[i].want_col && !strcmp(d->file, "m.xml"),
			"its code %d and place %lu:%lu", (int)d->code, d->line,
			d->col);
	}
	segc_ctx_clear(ctx);
}

/* Literal limits and nesting limits give clean limit errors. */
static void test_limits(segc_ctx *ctx)
{
	size_t n = 200000, i;
	char *s = malloc(2 * n + 2);
	segc_expr *e;

	memset(s, '1', 10001);
	s[10001] = '\0';
	e = parse(ctx, s);
	tap_ok(!e && segc_ctx_status(ctx) == SEGC_ERR_LIMIT,
		"a literal of 10001 digits is over the limit");
	tap_is(segc_ctx_diag(ctx, 0)->message,
		"number literal too long (more than 10000 digits) at column 1 of "
		"the value", "its message");
	segc_ctx_clear(ctx);
	for (i = 0; i < n; i++) {
		s[i] = '(';
		s[n + 1 + i] = ')';
	}
	s[n] = 'x';
	s[2 * n + 1] = '\0';
	e = parse(ctx, s);
	tap_ok(!e && segc_ctx_status(ctx) == SEGC_ERR_LIMIT,
		"200000 nested parentheses: a limit error, no crash");
	segc_ctx_clear(ctx);
	memset(s, '-', n);
	e = parse(ctx, s);
	tap_ok(!e && segc_ctx_status(ctx) == SEGC_ERR_LIMIT,
		"200000 minus signs: a limit error");
	segc_ctx_clear(ctx);
	segc_ctx_limits(ctx)->max_depth = 3;
	e = parse(ctx, "((x))");
	tap_ok(e != NULL, "nesting 2 within max_depth 3");
	segc_expr_free(e);
	e = parse(ctx, "f((((x))))");
	tap_ok(!e && segc_ctx_status(ctx) == SEGC_ERR_LIMIT,
		"nesting 5 over max_depth 3");
	segc_ctx_clear(ctx);
	segc_ctx_limits(ctx)->max_depth = 20000;
	free(s);
}

/* Random expressions print and parse back to the same node. */
static void test_round_trip(segc_ctx *ctx)
{
	struct gen_rng r = { 0x9e3779b97f4a7c15ULL };
	const char *scale = getenv("SEGC_TEST_SCALE");
	long i, n = 5000 * (scale ? atol(scale) > 0 ? atol(scale) : 1 : 1);
	long bad = 0, skipped = 0;
	int ok;
	mpq_t v;

	mpq_init(v);
	for (i = 0; i < n; i++) {
		segc_expr *e = gen_expr(&r, (int)gen_range(&r, 1, 6), 1, v, &ok);
		char *s = segc_expr_to_string(e);
		segc_expr *f = parse(ctx, s);

		if (!f && segc_ctx_status(ctx) == SEGC_ERR_LIMIT)
			skipped++;
		else if (f != e && bad++ < 5)
			tap_diag("round trip fails: %s", s);
		segc_ctx_clear(ctx);
		free(s);
		segc_expr_free(e);
		segc_expr_free(f);
	}
	mpq_clear(v);
	tap_ok(bad == 0, "%ld random expressions print and parse back "
		"(%ld with literals over the limit)", n, skipped);
}

static segc_expr *gen_value(struct gen_rng *r, int depth);

/* "and" or "or" ('word') of the 'n' conditions 'ops' (taken), an operand
 * of the same word spliced in, as the parser builds it. */
static segc_expr *gen_chain(const char *word, size_t n, segc_expr **ops)
{
	segc_expr *v[16];
	size_t i, j, k = 0;

	for (i = 0; i < n; i++) {
		if (segc_expr_kind(ops[i]) == SEGC_CALL &&
		    !strcmp(segc_expr_name(ops[i]), word)) {
			for (j = 0; j < segc_expr_nargs(ops[i]); j++)
				v[k++] = segc_expr_copy(segc_expr_arg(ops[i], j));
			segc_expr_free(ops[i]);
		} else {
			v[k++] = ops[i];
		}
	}
	return segc_expr_call(word, k, v);
}

/* A random condition of at most 'depth' levels of logic. */
static segc_expr *gen_cond(struct gen_rng *r, int depth)
{
	static const char *const rel[] = { "<", "<=", ">", ">=", "==", "!=" };
	long op = depth <= 0 ? 0 : gen_range(r, 0, 4);
	segc_expr *a[2];

	if (op <= 1) {
		a[0] = gen_value(r, (int)gen_range(r, 0, 2));
		a[1] = gen_value(r, (int)gen_range(r, 0, 2));
		return segc_expr_call(rel[gen_range(r, 0, 5)], 2, a);
	}
	if (op == 2) {
		a[0] = gen_cond(r, depth - 1);
		return segc_expr_call("not", 1, a);
	}
	a[0] = gen_cond(r, depth - 1);
	a[1] = gen_cond(r, depth - 1);
	return gen_chain(op == 3 ? "and" : "or", 2, a);
}

/* A random value that may hold if(c, a, b) anywhere. */
static segc_expr *gen_value(struct gen_rng *r, int depth)
{
	long op = depth <= 0 ? 0 : gen_range(r, 0, 4);
	segc_expr *a[3];
	int ok;
	mpq_t v;

	if (op == 0) {
		mpq_init(v);
		a[0] = gen_expr(r, depth, 1, v, &ok);
		mpq_clear(v);
		return a[0];
	}
	if (op == 1) {
		a[0] = gen_cond(r, (int)gen_range(r, 0, 3));
		a[1] = gen_value(r, depth - 1);
		a[2] = gen_value(r, depth - 1);
		return segc_expr_call("if", 3, a);
	}
	if (op == 2)
		return segc_expr_sub2(gen_value(r, depth - 1),
			gen_value(r, depth - 1));
	if (op == 3)
		return segc_expr_div2(gen_value(r, depth - 1),
			gen_value(r, depth - 1));
	return segc_expr_powi(gen_value(r, depth - 1), gen_range(r, -2, 3));
}

/* Random formulas with if, comparisons, and, or, not print and parse
 * back to the same node. */
static void test_round_trip_conditions(segc_ctx *ctx)
{
	struct gen_rng r = { 0x2545f4914f6cdd1dULL };
	long i, n = 3000, bad = 0, skipped = 0;

	for (i = 0; i < n; i++) {
		segc_expr *e = gen_value(&r, (int)gen_range(&r, 1, 5));
		char *s = segc_expr_to_string(e);
		segc_expr *f = parse(ctx, s);

		if (!f && segc_ctx_status(ctx) == SEGC_ERR_LIMIT)
			skipped++;
		else if (f != e && bad++ < 5)
			tap_diag("round trip fails: %s", s);
		segc_ctx_clear(ctx);
		free(s);
		segc_expr_free(e);
		segc_expr_free(f);
	}
	tap_ok(bad == 0, "%ld random formulas with conditions print and parse "
		"back (%ld over a limit)", n, skipped);
}

/* A condition that is not parenthesized as the parser would flatten it,
 * and conditions or values standing where the language does not allow
 * them, still print (never crash), the first as the same condition. */
static void test_print_unusual(segc_ctx *ctx)
{
	segc_expr *p = parse(ctx, "if(a < b and c < d and e < f, x, y)");
	segc_expr *a[3], *nested, *c;
	char *s;

	a[0] = segc_expr_copy(segc_expr_arg(segc_expr_arg(p, 0), 0));
	a[1] = segc_expr_copy(segc_expr_arg(segc_expr_arg(p, 0), 1));
	nested = segc_expr_call("and", 2, a);
	a[0] = nested;
	a[1] = segc_expr_copy(segc_expr_arg(segc_expr_arg(p, 0), 2));
	a[0] = segc_expr_call("and", 2, a);
	a[1] = segc_expr_sym("x");
	a[2] = segc_expr_sym("y");
	c = segc_expr_call("if", 3, a);
	s = segc_expr_to_string(c);
	tap_is(s, "if((a < b and c < d) and e < f, x, y)", "nested and keeps "
		"its parentheses");
	free(s);
	segc_expr_free(c);
	a[0] = segc_expr_copy(segc_expr_arg(segc_expr_arg(p, 0), 0));
	a[1] = segc_expr_sym("y");
	c = segc_expr_call("max", 2, a);
	a[0] = segc_expr_sym("x");
	a[1] = c;
	a[2] = segc_expr_int(1);
	c = segc_expr_call("if", 3, a);
	s = segc_expr_to_string(c);
	tap_is(s, "if(x, max((a < b), y), 1)", "misplaced condition and value "
		"print as they are");
	free(s);
	segc_expr_free(c);
	segc_expr_free(p);
}

/* The internal names of canonical sums' variables print as readable
 * names that occur nowhere else in the formula, and the text parses to a
 * formula that prints the same and has the same value. */
static void test_readable_binders(segc_ctx *ctx)
{
	static const struct { const char *in, *out; } t[] = {
		{ "sum(_s1, 1, n, 2*_s1)", "sum(i, 1, n, 2*i)" },
		{ "sum(_s2, 1, n, sum(_s1, 1, _s2, _s1*_s2 + i))",
		  "sum(j, 1, n, sum(k, 1, j, k*j + i))" },
		{ "sum(_s1, 1, n, _s1) + sum(_s1, 1, n^2, _s1^2)",
		  "sum(i, 1, n, i) + sum(i, 1, n^2, i^2)" },
		{ "sum(_s1, 1, n, sum(i, 1, _s1, i*_s1))",
		  "sum(j, 1, n, sum(i, 1, j, i*j))" },
		{ "sum(_s1, 1, i + j + k + l + m, _s1)",
		  "sum(i1, 1, i + j + k + l + m, i1)" },
		{ "sum(_s1, 1, n, sum(_s2, _s1, n, _s1 - _s2))",
		  "sum(i, 1, n, sum(j, i, n, i - j))" },
		{ "sum(_s1x, 1, n, _s1x) + sum(_s, 1, n, _s)",
		  "sum(_s1x, 1, n, _s1x) + sum(_s, 1, n, _s)" },
	};
	static const char *const names[] = { "n", "i", "j", "k", "l", "m" };
	mpq_t v[6], a, b;
	size_t c, q;

	for (q = 0; q < 6; q++) {
		mpq_init(v[q]);
		mpq_set_si(v[q], (long)q + 3, 1);
	}
	mpq_init(a);
	mpq_init(b);
	for (c = 0; c < sizeof t / sizeof t[0]; c++) {
		segc_expr *e = parse(ctx, t[c].in), *f;
		char *s = segc_expr_to_string(e), *s2;

		tap_is(s, t[c].out, t[c].in);
		f = parse(ctx, s);
		s2 = segc_expr_to_string(f);
		tap_ok(f && !strcmp(s, s2) && !segc_expr_eval_q(a, e, 6, names,
			(const mpq_t *)v) && !segc_expr_eval_q(b, f, 6, names,
			(const mpq_t *)v) && mpq_equal(a, b),
			"'%s' parses back to the same formula", s);
		free(s);
		free(s2);
		segc_expr_free(e);
		segc_expr_free(f);
	}
	for (q = 0; q < 6; q++)
		mpq_clear(v[q]);
	mpq_clear(a);
	mpq_clear(b);
}

/* Sums and products too large to be flattened (more than 4096 operands)
 * stay nested in an enclosing one; the text keeps their parentheses and
 * parses back to the same node, and a long flat chain parses to one
 * node, as when it is built at once. */
static void test_long_chains(segc_ctx *ctx)
{
	enum { LONG = 5000 };
	segc_expr **v = malloc(LONG * sizeof(*v));
	segc_expr *flat[2], *nested[2];
	char name[16];
	int k, i;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < LONG; i++) {
			snprintf(name, sizeof name, "x%d", i);
			v[i] = segc_expr_sym(name);
		}
		flat[k] = k ? segc_expr_mul(LONG, v) : segc_expr_add(LONG, v);
		nested[k] = k ? segc_expr_mul2(segc_expr_copy(flat[k]),
				segc_expr_sym("y")) :
			segc_expr_add2(segc_expr_copy(flat[k]),
				segc_expr_sym("y"));
	}
	for (k = 0; k < 2; k++) {
		const char *what = k ? "product" : "sum";
		char *s = segc_expr_to_string(flat[k]);
		segc_expr *f = parse(ctx, s);

		tap_ok(f == flat[k] && segc_expr_nargs(f) == LONG,
			"a %s of %d operands parses to one node", what, LONG);
		segc_expr_free(f);
		free(s);
		s = segc_expr_to_string(nested[k]);
		f = parse(ctx, s);
		tap_ok(segc_expr_nargs(nested[k]) == 2 && f == nested[k] &&
			strchr(s, '(') != NULL, "a %s of %d operands nested in "
			"another prints in parentheses and parses back", what,
			LONG);
		segc_expr_free(f);
		free(s);
		segc_expr_free(flat[k]);
		segc_expr_free(nested[k]);
	}
	free(v);
}

int main(void)
{
	segc_ctx *ctx = segc_ctx_new();

	test_cases(ctx);
	test_errors(ctx);
	test_limits(ctx);
	test_round_trip(ctx);
	test_round_trip_conditions(ctx);
	test_print_unusual(ctx);
	test_readable_binders(ctx);
	test_long_chains(ctx);
	segc_ctx_free(ctx);
	tap_ok(segc_expr_live_nodes() == 0, "no node leaked");
	segc_library_cleanup();
	return tap_done();
}
