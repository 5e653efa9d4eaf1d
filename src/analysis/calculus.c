/* calculus.c - exact derivatives of formulas with respect to one name:
 * sums, products, integer and rational powers, sqrt; max, min and if()
 * piecewise (an if() choosing the derivative of the branch that holds);
 * ceil and floor, constant between their jumps, have derivative 0 there.
 * log2 of the name (whose derivative needs ln 2, not a number of the
 * expression language) and uninterpreted calls of it are refused. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "expr/builtin.h"
#include "base/util.h"

static segc_expr *diff(segc_ctx *ctx, const segc_expr *e, const char *x);

/* Records that 'e' has no derivative here; NULL. */
static segc_expr *refuse(segc_ctx *ctx, const segc_expr *e, const char *x,
	const char *why)
{
	char *t = segc_expr_to_string(e);

	segc_error(ctx, SEGC_ERR_INPUT, NULL, 0, 0, "cannot differentiate "
		"'%.200s' with respect to '%s': %s", t, x, why);
	free(t);
	return NULL;
}

/* The derivative of a sum: the sum of the derivatives. */
static segc_expr *diff_add(segc_ctx *ctx, const segc_expr *e, const char *x)
{
	size_t n = segc_expr_nargs(e), i;
	segc_expr **t = segc_xcalloc(n, sizeof *t);

	for (i = 0; i < n; i++)
		if (!(t[i] = diff(ctx, segc_expr_arg(e, i), x)))
			break;
	if (i == n) {
		segc_expr *sum = segc_expr_add(n, t);

		free(t);
		return sum;
	}
	while (i-- > 0)
		segc_expr_free(t[i]);
	free(t);
	return NULL;
}

/* The product 'e' with factor 'k' replaced by 'd' (taken). */
static segc_expr *replace_factor(const segc_expr *e, size_t k, segc_expr *d)
{
	size_t n = segc_expr_nargs(e), i;
	segc_expr **f = segc_xcalloc(n, sizeof *f), *p;

	for (i = 0; i < n; i++)
		f[i] = i == k ? d : segc_expr_copy(segc_expr_arg(e, i));
	p = segc_expr_mul(n, f);
	free(f);
	return p;
}

/* The product rule. */
static segc_expr *diff_mul(segc_ctx *ctx, const segc_expr *e, const char *x)
{
	size_t n = segc_expr_nargs(e), i, k = 0;
	segc_expr **t = segc_xcalloc(n, sizeof *t), *d;

	for (i = 0; i < n; i++) {
		if (!segc_expr_has_sym(segc_expr_arg(e, i), x))
			continue;
		d = diff(ctx, segc_expr_arg(e, i), x);
		if (!d) {
			while (k-- > 0)
				segc_expr_free(t[k]);
			free(t);
			return NULL;
		}
		t[k++] = replace_factor(e, i, d);
	}
	d = k ? segc_expr_add(k, t) : segc_expr_int(0);
	free(t);
	return d;
}

/* (b^c)' = c*b^(c - 1)*b' for 'c' free of the name. */
static segc_expr *diff_pow(segc_ctx *ctx, const segc_expr *e, const char *x)
{
	segc_expr *b = segc_expr_arg(e, 0), *c = segc_expr_arg(e, 1), *d;

	if (segc_expr_has_sym(c, x))
		return refuse(ctx, e, x, "the name is in the exponent");
	d = diff(ctx, b, x);
	if (!d)
		return NULL;
	return segc_expr_mul2(segc_expr_mul2(segc_expr_copy(c),
		segc_expr_pow(segc_expr_copy(b), segc_expr_sub2(
		segc_expr_copy(c), segc_expr_int(1)))), d);
}

/* if(cond, da, db). */
static segc_expr *choose(segc_expr *cond, segc_expr *da, segc_expr *db)
{
	segc_expr *args[3];

	args[0] = cond;
	args[1] = da;
	args[2] = db;
	return segc_expr_call_builtin(SEGC_BUILTIN_IF, 3, args);
}

/* The derivative of max or min of the arguments from 'first' on:
 * if(a >= rest, a', rest') (<= for min). */
static segc_expr *diff_extremum(segc_ctx *ctx, const segc_expr *e,
	const char *x, size_t first)
{
	size_t n = segc_expr_nargs(e) - first, i;
	int is_max = segc_expr_is_builtin(e, SEGC_BUILTIN_MAX);
	segc_expr *a = segc_expr_arg(e, first), *rest, *da, *dr, **args;
	segc_expr *rel[2];

	if (n == 1)
		return diff(ctx, a, x);
	args = segc_xcalloc(n - 1, sizeof *args);
	for (i = 1; i < n; i++)
		args[i - 1] = segc_expr_copy(segc_expr_arg(e, first + i));
	rest = n == 2 ? args[0] : segc_expr_call(segc_expr_name(e), n - 1,
		args);
	free(args);
	da = diff(ctx, a, x);
	dr = da ? diff_extremum(ctx, e, x, first + 1) : NULL;
	if (!dr) {
		segc_expr_free(da);
		segc_expr_free(rest);
		return NULL;
	}
	rel[0] = segc_expr_copy(a);
	rel[1] = rest;
	return choose(segc_expr_call(is_max ? ">=" : "<=", 2, rel), da, dr);
}

/* The derivative of a call. */
static segc_expr *diff_call(segc_ctx *ctx, const segc_expr *e, const char *x)
{
	enum segc_builtin id = segc_expr_builtin(e);
	segc_expr *da, *db;

	switch (segc_builtin_get(id)->eval) {
	case SEGC_EVAL_ROUND:
		return segc_expr_int(0);
	case SEGC_EVAL_EXTREMUM:
		return diff_extremum(ctx, e, x, 0);
	default:
		break;
	}
	if (id == SEGC_BUILTIN_SQRT) {
		da = diff(ctx, segc_expr_arg(e, 0), x);
		return da ? segc_expr_div2(da, segc_expr_mul2(segc_expr_int(2),
			segc_expr_copy(e))) : NULL;
	}
	if (id == SEGC_BUILTIN_IF && segc_expr_nargs(e) == 3) {
		da = diff(ctx, segc_expr_arg(e, 1), x);
		db = da ? diff(ctx, segc_expr_arg(e, 2), x) : NULL;
		if (!db) {
			segc_expr_free(da);
			return NULL;
		}
		return choose(segc_expr_copy(segc_expr_arg(e, 0)), da, db);
	}
	if (id == SEGC_BUILTIN_LOG2)
		return refuse(ctx, e, x, "the derivative of log2 needs ln 2, "
			"which is not a rational number");
	if (id == SEGC_BUILTIN_EXP2)
		return refuse(ctx, e, x, "the derivative of exp2 needs ln 2, "
			"which is not a rational number");
	return refuse(ctx, e, x, "the name is an argument of a function "
		"whose derivative is not known");
}

/* The derivative of sum(i, lo, hi, body): the bounds count integers,
 * constant between jumps, so only the body is differentiated. */
static segc_expr *diff_sum(segc_ctx *ctx, const segc_expr *e, const char *x)
{
	segc_expr *d;

	if (!strcmp(segc_expr_name(e), x))
		return segc_expr_int(0);
	d = diff(ctx, segc_expr_arg(e, 2), x);
	if (!d)
		return NULL;
	return segc_expr_sum(segc_expr_name(e), segc_expr_copy(
		segc_expr_arg(e, 0)), segc_expr_copy(segc_expr_arg(e, 1)), d);
}

/* The derivative of 'e' with respect to 'x' (not simplified). */
static segc_expr *diff(segc_ctx *ctx, const segc_expr *e, const char *x)
{
	if (!segc_expr_has_sym(e, x))
		return segc_expr_int(0);
	switch (segc_expr_kind(e)) {
	case SEGC_SYM:
		return segc_expr_int(1);
	case SEGC_ADD:
		return diff_add(ctx, e, x);
	case SEGC_MUL:
		return diff_mul(ctx, e, x);
	case SEGC_POW:
		return diff_pow(ctx, e, x);
	case SEGC_CALL:
		return diff_call(ctx, e, x);
	case SEGC_SUM:
		return diff_sum(ctx, e, x);
	default:
		return segc_expr_int(0);
	}
}

/* The derivative of 'e' with respect to 'name' (see analysis.h). */
segc_expr *segc_expr_diff(segc_ctx *ctx, const segc_expr *e,
	const char *name)
{
	return diff(ctx, e, name);
}

/* Non-zero when 'e' has a ceil or floor of 'name' (see analysis.h). */
int segc_expr_has_jump(const segc_expr *e, const char *name)
{
	size_t i;

	if (!segc_expr_has_sym(e, name))
		return 0;
	if (segc_expr_nargs(e) == 1 &&
	    segc_builtin_get(segc_expr_builtin(e))->eval == SEGC_EVAL_ROUND)
		return 1;
	for (i = 0; i < segc_expr_nargs(e); i++)
		if (segc_expr_has_jump(segc_expr_arg(e, i), name))
			return 1;
	return 0;
}
