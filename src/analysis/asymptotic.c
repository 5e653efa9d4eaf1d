/* asymptotic.c - the leading term of a canonical formula as one name x
 * grows without bound, the other names fixed: c * x^a * log2(x)^b with
 * the largest (a, b), and its coefficient c exact (an expression of the
 * other names).  ceil(log2(x)) and floor(log2(x)) grow as log2(x). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "expr/builtin.h"

/* The leading behaviour of a subformula: coef * x^a * log2(x)^b. */
typedef struct lead {
	segc_expr *coef;
	long a, b;
} lead;

static int leading(segc_ctx *ctx, const segc_expr *e, const char *x,
	lead *out);

/* Records that the growth of 'e' is not known; -1. */
static int unknown(segc_ctx *ctx, const segc_expr *e, const char *x)
{
	char *t = segc_expr_to_string(e);

	segc_error(ctx, SEGC_ERR_INPUT, NULL, 0, 0, "the growth of '%.200s' "
		"as '%s' grows is not known exactly (only rational functions of "
		"it, with log2, ceil(log2()) and floor(log2()) of it)", t, x);
	free(t);
	return -1;
}

/* Non-zero when 'e' is log2(x), ceil(log2(x)) or floor(log2(x)). */
static int is_log(const segc_expr *e, const char *x)
{
	enum segc_builtin id = segc_expr_builtin(e);

	if (segc_expr_kind(e) != SEGC_CALL || segc_expr_nargs(e) != 1)
		return 0;
	if (segc_builtin_get(id)->eval == SEGC_EVAL_ROUND)
		return is_log(segc_expr_arg(e, 0), x);
	e = segc_expr_arg(e, 0);
	return id == SEGC_BUILTIN_LOG2 && segc_expr_kind(e) == SEGC_SYM &&
		!strcmp(segc_expr_name(e), x);
}

/* The leading behaviour of a product. */
static int leading_mul(segc_ctx *ctx, const segc_expr *e, const char *x,
	lead *out)
{
	size_t i;
	lead f;

	out->coef = segc_expr_int(1);
	out->a = out->b = 0;
	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (leading(ctx, segc_expr_arg(e, i), x, &f))
			return -1;
		out->coef = segc_expr_mul2(out->coef, f.coef);
		out->a += f.a;
		out->b += f.b;
	}
	return 0;
}

/* The leading behaviour of a sum: the terms of the largest order, their
 * coefficients added (the canonical form has merged like terms). */
static int leading_add(segc_ctx *ctx, const segc_expr *e, const char *x,
	lead *out)
{
	size_t i;
	lead t;

	out->coef = NULL;
	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (leading(ctx, segc_expr_arg(e, i), x, &t)) {
			segc_expr_free(out->coef);
			return -1;
		}
		if (out->coef && (t.a < out->a || (t.a == out->a &&
		    t.b < out->b))) {
			segc_expr_free(t.coef);
			continue;
		}
		if (out->coef && t.a == out->a && t.b == out->b)
			t.coef = segc_expr_add2(out->coef, t.coef);
		else
			segc_expr_free(out->coef);
		*out = t;
	}
	return 0;
}

/* The leading behaviour of base^k, k an integer. */
static int leading_pow(segc_ctx *ctx, const segc_expr *e, const char *x,
	lead *out)
{
	const segc_expr *k = segc_expr_arg(e, 1);
	mpq_srcptr q = segc_expr_kind(k) == SEGC_NUM ? segc_expr_value(k)
		: NULL;
	long n;

	if (!q || mpz_cmp_ui(mpq_denref(q), 1) ||
	    !mpz_fits_slong_p(mpq_numref(q)) ||
	    labs(mpz_get_si(mpq_numref(q))) > 1000000)
		return unknown(ctx, e, x);
	n = mpz_get_si(mpq_numref(q));
	if (leading(ctx, segc_expr_arg(e, 0), x, out))
		return -1;
	out->coef = segc_expr_powi(out->coef, n);
	out->a *= n;
	out->b *= n;
	return 0;
}

/* The leading behaviour of 'e'. */
static int leading(segc_ctx *ctx, const segc_expr *e, const char *x,
	lead *out)
{
	out->a = out->b = 0;
	if (!segc_expr_has_sym(e, x)) {
		out->coef = segc_expr_copy(e);
		return 0;
	}
	switch (segc_expr_kind(e)) {
	case SEGC_SYM:
		out->coef = segc_expr_int(1);
		out->a = 1;
		return 0;
	case SEGC_ADD:
		return leading_add(ctx, e, x, out);
	case SEGC_MUL:
		return leading_mul(ctx, e, x, out);
	case SEGC_POW:
		return leading_pow(ctx, e, x, out);
	default:
		if (!is_log(e, x))
			return unknown(ctx, e, x);
		out->coef = segc_expr_int(1);
		out->b = 1;
		return 0;
	}
}

/* The leading term of 'e' as 'x' grows (see analysis.h). */
segc_expr *segc_asymptotic(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *e, const char *x)
{
	lead l;
	segc_expr *t, *log;

	if (leading(ctx, e, x, &l))
		return NULL;
	l.coef = segc_canonical(ctx, dom, l.coef);
	if (!l.coef)
		return NULL;
	if (segc_expr_is_zero(l.coef) && segc_expr_has_sym(e, x)) {
		segc_expr_free(l.coef);
		segc_error(ctx, SEGC_ERR_INPUT, NULL, 0, 0, "the leading terms "
			"in '%s' cancel: the growth is not known exactly", x);
		return NULL;
	}
	log = segc_expr_sym(x);
	log = segc_expr_call1(SEGC_BUILTIN_LOG2, log);
	t = segc_expr_mul2(segc_expr_mul2(l.coef, segc_expr_powi(
		segc_expr_sym(x), l.a)), segc_expr_powi(log, l.b));
	return segc_canonical(ctx, dom, t);
}
