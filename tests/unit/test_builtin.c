/* test_builtin.c - the table of built-in functions: every row's name
 * looks up to its id and call nodes carry it; the arities of the table
 * are those the parser and validator enforce (a call with one argument
 * too few or too many is refused); each built-in evaluates exactly to a
 * value computed here by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/segc.h>
#include <segc/segc_model.h>
#include "expr/expr_private.h"
#include "tap.h"

/* Where the models of the arity checks are written. */
#define MODEL_PATH "test_builtin.tmp.xml"

/* A row with 'expand' (a built-in defined by others): a call with the
 * arguments it takes is built as its meaning, not as a call of it. */
static void test_expand(void)
{
	unsigned id;

	for (id = 1; id < SEGC_BUILTIN_COUNT; id++) {
		const segc_builtin_info *b = segc_builtin_get(id);
		segc_expr *a[2], *e;

		if (!b->expand)
			continue;
		a[0] = segc_expr_int(4);
		a[1] = segc_expr_sym("N");
		e = segc_expr_call(b->name, 2, a);
		tap_ok(e && segc_expr_builtin(e) == SEGC_BUILTIN_NONE &&
			segc_expr_kind(e) != SEGC_CALL, "%s(4, N) is built "
			"as its meaning", b->name);
		segc_expr_free(e);
	}
}

/* Every row: its name looks up to its id, and a call node of that name
 * carries the id; other names look up to NONE. */
static void test_lookup(void)
{
	unsigned id;

	for (id = 1; id < SEGC_BUILTIN_COUNT; id++) {
		const segc_builtin_info *b = segc_builtin_get(id);
		segc_expr *a = segc_expr_int(1);
		segc_expr *e = segc_expr_call(b->name, 1, &a);

		tap_ok(b->id == id && segc_builtin_lookup(b->name) == id,
			"%s looks up to its id", b->name);
		tap_ok(segc_expr_builtin(e) == id, "a call of %s carries it",
			b->name);
		segc_expr_free(e);
	}
	test_expand();
	tap_ok(segc_builtin_lookup("tree_bcast") == SEGC_BUILTIN_NONE &&
		segc_builtin_lookup("Max") == SEGC_BUILTIN_NONE &&
		segc_builtin_get(SEGC_BUILTIN_NONE)->name == NULL,
		"other names are not built-ins");
}

/* The text of 'n' arguments of a call of 'b': a name first for a binder,
 * a condition first for a conditional, else twos (not ones: log(1, x)
 * divides by log2(1) = 0). */
static void make_args(char *buf, size_t size, const segc_builtin_info *b,
	size_t n)
{
	size_t i, len = 0;

	buf[0] = 0;
	for (i = 0; i < n; i++) {
		const char *a = "2";

		if (i == 0 && b->kind == SEGC_BUILTIN_BINDER)
			a = "i";
		else if (i == 0 && b->kind == SEGC_BUILTIN_CONDITIONAL)
			a = "2 > 1";
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
			i ? ", " : "", a);
	}
}

/* 0 when the model with a step of cost 'cost' validates. */
static int validates(const char *cost)
{
	segc_ctx *ctx = segc_ctx_new();
	FILE *f = fopen(MODEL_PATH, "w");
	int rc;

	if (!f)
		return -2;
	fprintf(f, "<model name=\"m\" version=\"1\">\n  <graph name=\"main\">"
		"\n    <step cost=\"%s\"/>\n  </graph>\n</model>\n", cost);
	fclose(f);
	rc = segc_validate_file(ctx, MODEL_PATH);
	segc_ctx_free(ctx);
	remove(MODEL_PATH);
	return rc;
}

/* The built-ins written in models: their least number of arguments is
 * accepted, one fewer and (when there is a most) one more refused. */
static void test_arity(void)
{
	char args[256], cost[320];
	unsigned id;

	for (id = 1; id < SEGC_BUILTIN_COUNT; id++) {
		const segc_builtin_info *b = segc_builtin_get(id);

		if (!b->input || b->kind == SEGC_BUILTIN_RELATION ||
		    b->kind == SEGC_BUILTIN_LOGIC)
			continue;
		make_args(args, sizeof args, b, b->min_args);
		snprintf(cost, sizeof cost, "%s(%s)", b->name, args);
		tap_ok(validates(cost) == 0, "%s accepted", cost);
		tap_ok(segc_builtin_arity_ok(id, b->min_args),
			"%s: the table agrees", cost);
		make_args(args, sizeof args, b, b->min_args - 1);
		snprintf(cost, sizeof cost, "%s(%s)", b->name, args);
		tap_ok(validates(cost) != 0 &&
			!segc_builtin_arity_ok(id, b->min_args - 1),
			"%s refused", cost);
		if (!b->max_args)
			continue;
		make_args(args, sizeof args, b, b->max_args + 1);
		snprintf(cost, sizeof cost, "%s(%s)", b->name, args);
		tap_ok(validates(cost) != 0 &&
			!segc_builtin_arity_ok(id, b->max_args + 1),
			"%s refused", cost);
	}
}

/* Each built-in at a point, against values worked out by hand. */
static const struct {
	enum segc_builtin id;
	const char *in, *want;
} values[] = {
	{ SEGC_BUILTIN_MAX, "max(1, 2, 3)", "3" },
	{ SEGC_BUILTIN_MIN, "min(5/2, -1, 3)", "-1" },
	{ SEGC_BUILTIN_CEIL, "ceil(7/2)", "4" },
	{ SEGC_BUILTIN_FLOOR, "floor(-7/2)", "-4" },
	{ SEGC_BUILTIN_LOG2, "log2(8)", "3" },
	{ SEGC_BUILTIN_SQRT, "sqrt(9/4)", "3/2" },
	{ SEGC_BUILTIN_SUM, "sum(i, 1, 4, i)", "10" },
	{ SEGC_BUILTIN_MVA_MEM, "mva_mem(2, 1, 1)", "3/2" },
	{ SEGC_BUILTIN_IF, "if(1 < 2, 5, 6)", "5" },
	{ SEGC_BUILTIN_LT, "if(2 < 2, 1, 0)", "0" },
	{ SEGC_BUILTIN_LE, "if(2 <= 2, 1, 0)", "1" },
	{ SEGC_BUILTIN_GT, "if(3 > 2, 1, 0)", "1" },
	{ SEGC_BUILTIN_GE, "if(1 >= 2, 1, 0)", "0" },
	{ SEGC_BUILTIN_EQ, "if(2 == 2, 1, 0)", "1" },
	{ SEGC_BUILTIN_NE, "if(2 != 2, 1, 0)", "0" },
	{ SEGC_BUILTIN_AND, "if(1 < 2 and 2 < 1, 1, 0)", "0" },
	{ SEGC_BUILTIN_OR, "if(1 < 2 or 2 < 1, 1, 0)", "1" },
	{ SEGC_BUILTIN_NOT, "if(not 2 < 1, 1, 0)", "1" },
	/* Three iterations of one node of cost 2, each after the last. */
	{ SEGC_BUILTIN_MAXPLUS, "maxplus(3, 1, 2, 1, 1, 1, 1, 0)", "6" },
	/* The same with the cost i in iteration i: 1 + 2 + 3. */
	{ SEGC_BUILTIN_MAXPLUSV, "maxplusv(i, 3, 1, i, 1, 1, 1, 1, 0)", "6" },
	/* A 2 x 2 grid of cells of cost 1, messages 10 along x and y from
	 * the first corner: 3 cells and 2 messages on every path. */
	{ SEGC_BUILTIN_TASKPATH, "taskpath(3, 1, 3, 0, 2, 0, 0, 2, 2, 0, 1, "
	  "2, 0, 2, 2, 0, 1, 2, 0, 2, 2, 0, 1, 0, 2, 0, 0, 4, 1, 2, 2, 2, 0, "
	  "1, 2, 0, 1, 2, 0, 0, 2, 2, 2, 5, 1, 1, 0, 1, 2, 2, 1, 2, 2, 0, 10, "
	  "2, 2, 2, 2, 1, 1, 5, 1, 2, 0, 1, 2, 2, 0, 10, 2, 3, 0, 2, 0, 0)",
	  "23" },
	/* log2(8)/log2(4) = 3/2. */
	{ SEGC_BUILTIN_LOG, "log(4, 8)", "3/2" },
	/* 2^10 and 2^-3; 2^(1/2) is not rational. */
	{ SEGC_BUILTIN_EXP2, "exp2(10)", "1024" },
	{ SEGC_BUILTIN_EXP2, "exp2(-3)", "1/8" },
	{ SEGC_BUILTIN_EXP2, "exp2(1/2)", "fail" }
};

/* Evaluates every entry of 'values'; every built-in has one. */
static void test_values(segc_ctx *ctx)
{
	int seen[SEGC_BUILTIN_COUNT] = { 0 };
	size_t i;
	unsigned id;

	for (i = 0; i < sizeof values / sizeof values[0]; i++) {
		segc_expr *e = segc_expr_parse(ctx, values[i].in, NULL);
		char got[64] = "fail";
		mpq_t r;

		mpq_init(r);
		if (e && segc_expr_eval_q(r, e, 0, NULL, NULL) == 0)
			gmp_snprintf(got, sizeof got, "%Qd", r);
		tap_is(got, values[i].want, values[i].in);
		seen[values[i].id] = 1;
		mpq_clear(r);
		segc_expr_free(e);
	}
	for (id = 1; id < SEGC_BUILTIN_COUNT; id++)
		tap_ok(seen[id], "%s has a value in the test",
			segc_builtin_name(id));
}

int main(void)
{
	segc_ctx *ctx = segc_ctx_new();

	test_lookup();
	test_arity();
	test_values(ctx);
	segc_ctx_free(ctx);
	return tap_done();
}
