/* urat.c - an expression of one variable as a rational function num/den
 * over Q (gcd 1, den monic): sums, products and integer powers are
 * followed; the caller says what each call holding the variable is
 * (pieces.c: a kernel on the current piece); any other atom must have a
 * rational value. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/urat.h"

/* Records that 'e' holds the variable where it cannot be handled (see
 * urat.h); -1. */
int segc_urat_refuse(const segc_urat_conv *c, const segc_expr *e)
{
	char *t = segc_expr_to_string(e);

	segc_error(c->ctx, SEGC_ERR_INPUT, c->file, 0, 0, "'%s' occurs inside "
		"'%.200s', which is not handled exactly (only rational "
		"functions of %s, with ceil(log2(%s)), floor(log2(%s)), and "
		"max, min, if() of rational functions)", c->var, t, c->var,
		c->var, c->var);
	free(t);
	return -1;
}

/* Makes 'r' 0/0, to be set. */
void segc_urat_init(segc_urat *r)
{
	segc_upoly_init(&r->num);
	segc_upoly_init(&r->den);
}

/* Releases 'r'. */
void segc_urat_clear(segc_urat *r)
{
	segc_upoly_clear(&r->num);
	segc_upoly_clear(&r->den);
}

/* Divides num and den by their gcd and makes den monic. */
static void reduce(segc_urat *r)
{
	segc_upoly g, rem;
	mpq_t l;
	size_t i;

	segc_upoly_init(&g);
	segc_upoly_init(&rem);
	segc_upoly_gcd(&g, &r->num, &r->den);
	if (segc_upoly_degree(&g) > 0) {
		segc_upoly_divrem(&r->num, &rem, &r->num, &g);
		segc_upoly_divrem(&r->den, &rem, &r->den, &g);
	}
	mpq_init(l);
	mpq_set(l, r->den.c[r->den.len - 1]);
	for (i = 0; i < r->den.len; i++)
		mpq_div(r->den.c[i], r->den.c[i], l);
	for (i = 0; i < r->num.len; i++)
		mpq_div(r->num.c[i], r->num.c[i], l);
	mpq_clear(l);
	segc_upoly_clear(&g);
	segc_upoly_clear(&rem);
}

/* r = a * b (or a + b when 'add'). */
static void combine(segc_urat *r, segc_urat *a, segc_urat *b, int add)
{
	segc_upoly t;

	segc_upoly_init(&t);
	if (add) {
		segc_upoly_mul(&t, &a->num, &b->den);
		segc_upoly_mul(&r->num, &b->num, &a->den);
		segc_upoly_add(&r->num, &r->num, &t);
	} else
		segc_upoly_mul(&r->num, &a->num, &b->num);
	segc_upoly_mul(&r->den, &a->den, &b->den);
	segc_upoly_clear(&t);
	reduce(r);
}

/* Records a degree past the limit (see urat.h); -1. */
int segc_urat_too_high(const segc_urat_conv *c)
{
	segc_error(c->ctx, SEGC_ERR_LIMIT, c->file, 0, 0, "the formula has "
		"degree more than %d in '%s'", SEGC_URAT_MAX_DEGREE, c->var);
	return -1;
}

/* r = the sum ('add') or product of the arguments of 'e'. */
static int fold_args(const segc_urat_conv *c, const segc_expr *e,
	segc_urat *r, int add)
{
	segc_urat a;
	size_t i;
	mpq_t one;

	mpq_init(one);
	mpq_set_ui(one, add ? 0 : 1, 1);
	segc_upoly_set_q(&r->num, one);
	mpq_set_ui(one, 1, 1);
	segc_upoly_set_q(&r->den, one);
	mpq_clear(one);
	for (i = 0; i < segc_expr_nargs(e); i++) {
		segc_urat_init(&a);
		if (segc_urat_of(c, segc_expr_arg(e, i), &a)) {
			segc_urat_clear(&a);
			return -1;
		}
		combine(r, r, &a, add);
		segc_urat_clear(&a);
		if (r->num.len > SEGC_URAT_MAX_DEGREE + 1 ||
		    r->den.len > SEGC_URAT_MAX_DEGREE + 1)
			return segc_urat_too_high(c);
	}
	return 0;
}

/* r = base ^ exponent, the exponent an integer. */
static int pow_of(const segc_urat_conv *c, const segc_expr *e,
	segc_urat *r)
{
	const segc_expr *x = segc_expr_arg(e, 1);
	mpq_srcptr q = segc_expr_kind(x) == SEGC_NUM ? segc_expr_value(x)
		: NULL;
	segc_urat b;
	long n, i;
	int rc = -1;

	if (!q || mpz_cmp_ui(mpq_denref(q), 1) ||
	    !mpz_fits_slong_p(mpq_numref(q)))
		return segc_urat_refuse(c, e);
	n = mpz_get_si(mpq_numref(q));
	segc_urat_init(&b);
	if (segc_urat_of(c, segc_expr_arg(e, 0), &b))
		goto out;
	if ((n > 0 ? n : -n) * (long)(b.num.len + b.den.len) >
	    2L * SEGC_URAT_MAX_DEGREE) {
		rc = segc_urat_too_high(c);
		goto out;
	}
	if (n < 0 && !b.num.len) {
		segc_error(c->ctx, SEGC_ERR_INPUT, c->file, 0, 0,
			"division by zero");
		goto out;
	}
	segc_upoly_set(&r->num, n < 0 ? &b.den : &b.num);
	segc_upoly_set(&r->den, n < 0 ? &b.num : &b.den);
	segc_upoly_set(&b.num, &r->num);
	segc_upoly_set(&b.den, &r->den);
	for (i = 1; i < (n > 0 ? n : -n); i++)
		combine(r, r, &b, 0);
	if (!n) {
		mpq_t one;

		mpq_init(one);
		mpq_set_ui(one, 1, 1);
		segc_upoly_set_q(&r->num, one);
		segc_upoly_set_q(&r->den, one);
		mpq_clear(one);
	}
	reduce(r);
	rc = 0;
out:
	segc_urat_clear(&b);
	return rc;
}

/* Records a name left without a value or an atom that is no rational
 * number; -1. */
static int not_rational(const segc_urat_conv *c, const segc_expr *e)
{
	char *t = segc_expr_to_string(e);

	if (segc_expr_kind(e) == SEGC_SYM)
		segc_error(c->ctx, SEGC_ERR_INPUT, c->file, 0, 0, "'%s' has no "
			"value: give %s=VALUE or -D %s=VALUE", t, t, t);
	else
		segc_error(c->ctx, SEGC_ERR_INPUT, c->file, 0, 0, "'%.200s' is "
			"not a rational number: the exact analysis needs every "
			"atom but '%s' to be one", t, c->var);
	free(t);
	return -1;
}

/* r = the atom 'e' free of the variable when its exact value is a
 * rational number (ceil(log2(1)) is 0); else -1 (recorded). */
static int constant_atom(const segc_urat_conv *c, const segc_expr *e,
	segc_urat *r)
{
	mpq_t q;
	int rc = -1;

	mpq_init(q);
	if (!segc_expr_has_sym(e, c->var) &&
	    !segc_expr_eval_q(q, e, 0, NULL, NULL)) {
		segc_upoly_set_q(&r->num, q);
		rc = 0;
	}
	mpq_clear(q);
	return rc ? not_rational(c, e) : 0;
}

/* r = 'e' as a rational function of the variable (see urat.h). */
int segc_urat_of(const segc_urat_conv *c, const segc_expr *e, segc_urat *r)
{
	mpq_t one;
	int rc;

	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	segc_upoly_set_q(&r->den, one);
	mpq_clear(one);
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		segc_upoly_set_q(&r->num, segc_expr_value(e));
		return 0;
	case SEGC_SYM:
		if (strcmp(segc_expr_name(e), c->var))
			return not_rational(c, e);
		segc_upoly_set_x(&r->num);
		return 0;
	case SEGC_ADD:
		return fold_args(c, e, r, 1);
	case SEGC_MUL:
		return fold_args(c, e, r, 0);
	case SEGC_POW:
		return pow_of(c, e, r);
	default:
		rc = c->atom(c, e, r);
		return rc <= 0 ? rc : constant_atom(c, e, r);
	}
}

