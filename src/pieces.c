/* pieces.c - a canonical formula of one variable cut into pieces where
 * it is a rational function of that variable with rational coefficients:
 * the points where a kernel ceil(log2(x)) or floor(log2(x)) jumps, and
 * the open intervals between them. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "util.h"

/* The largest degree of a piece's numerator or denominator. */
#define MAX_DEGREE 1000
/* The largest number of pieces. */
#define MAX_PIECES 100000

/* What the pieces are built from. */
typedef struct builder {
	segc_ctx *ctx;
	const char *var, *file;
	size_t nk;
	const segc_expr **kernel;  /* ceil/floor(log2(var)) */
	mpq_t *kval;               /* their values on the current piece */
} builder;

/* ------------------------------------------------------------- kernels */

/* Non-zero when 'e' is ceil(log2(var)) or floor(log2(var)). */
static int is_log2_kernel(const segc_expr *e, const char *var)
{
	const segc_expr *a;

	if (segc_expr_kind(e) != SEGC_CALL || segc_expr_nargs(e) != 1 ||
	    (strcmp(segc_expr_name(e), "ceil") &&
	     strcmp(segc_expr_name(e), "floor")))
		return 0;
	a = segc_expr_arg(e, 0);
	if (segc_expr_kind(a) != SEGC_CALL || strcmp(segc_expr_name(a),
	    "log2") || segc_expr_nargs(a) != 1)
		return 0;
	a = segc_expr_arg(a, 0);
	return segc_expr_kind(a) == SEGC_SYM && !strcmp(segc_expr_name(a), var);
}

/* Records that 'e' holds the variable where it cannot be handled. */
static int refuse_atom(builder *B, const segc_expr *e)
{
	char *t = segc_expr_to_string(e);

	segc_error(B->ctx, SEGC_ERR_INPUT, B->file, 0, 0, "'%s' occurs inside "
		"'%.200s', which is not handled exactly (only rational "
		"functions of %s, with ceil(log2(%s)) and floor(log2(%s)))",
		B->var, t, B->var, B->var, B->var);
	free(t);
	return -1;
}

/* Adds kernel 'e' to 'B' unless it is there. */
static void add_kernel(builder *B, const segc_expr *e)
{
	size_t i;

	for (i = 0; i < B->nk; i++)
		if (B->kernel[i] == e)
			return;
	B->kernel = segc_xrealloc(B->kernel, (B->nk + 1) * sizeof *B->kernel);
	B->kernel[B->nk++] = e;
}

/* Collects the kernels of the variable in 'e'; -1 on one not handled. */
static int collect_kernels(builder *B, const segc_expr *e)
{
	size_t i;

	if (!segc_expr_has_sym(e, B->var))
		return 0;
	switch (segc_expr_kind(e)) {
	case SEGC_ADD:
	case SEGC_MUL:
		for (i = 0; i < segc_expr_nargs(e); i++)
			if (collect_kernels(B, segc_expr_arg(e, i)))
				return -1;
		return 0;
	case SEGC_POW:
		if (segc_expr_has_sym(segc_expr_arg(e, 1), B->var))
			return refuse_atom(B, e);
		return collect_kernels(B, segc_expr_arg(e, 0));
	case SEGC_CALL:
		if (!is_log2_kernel(e, B->var))
			return refuse_atom(B, e);
		add_kernel(B, e);
		return 0;
	case SEGC_SUM:
		return refuse_atom(B, e);
	default:
		return 0;
	}
}

/* k = floor(log2(x)) for x > 0. */
static long floor_log2(mpq_srcptr x)
{
	long k = (long)mpz_sizeinbase(mpq_numref(x), 2) -
		(long)mpz_sizeinbase(mpq_denref(x), 2);
	mpq_t p;

	mpq_init(p);
	for (;;) {
		mpq_set_ui(p, 1, 1);
		if (k >= 0)
			mpq_mul_2exp(p, p, (mp_bitcnt_t)k);
		else
			mpq_div_2exp(p, p, (mp_bitcnt_t)-k);
		if (mpq_cmp(p, x) > 0)
			k--;
		else if (mpq_mul_2exp(p, p, 1), mpq_cmp(p, x) <= 0)
			k++;
		else
			break;
	}
	mpq_clear(p);
	return k;
}

/* Sets the values of the kernels at the point 'x' (> 0). */
static void kernels_at(builder *B, mpq_srcptr x)
{
	long f = floor_log2(x);
	mpq_t p;
	size_t i;

	mpq_init(p);
	mpq_set_ui(p, 1, 1);
	if (f >= 0)
		mpq_mul_2exp(p, p, (mp_bitcnt_t)f);
	else
		mpq_div_2exp(p, p, (mp_bitcnt_t)-f);
	for (i = 0; i < B->nk; i++) {
		int up = !strcmp(segc_expr_name(B->kernel[i]), "ceil");

		mpq_set_si(B->kval[i], f + (up && !mpq_equal(p, x)), 1);
	}
	mpq_clear(p);
}

/* ----------------------------------------------- rational functions */

/* A rational function num/den being built. */
typedef struct urat {
	segc_upoly num, den;
} urat;

static void urat_init(urat *r)
{
	segc_upoly_init(&r->num);
	segc_upoly_init(&r->den);
}

static void urat_clear(urat *r)
{
	segc_upoly_clear(&r->num);
	segc_upoly_clear(&r->den);
}

/* Divides num and den by their gcd and makes den monic. */
static void urat_reduce(urat *r)
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
static void urat_combine(urat *r, urat *a, urat *b, int add)
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
	urat_reduce(r);
}

/* Records a degree past MAX_DEGREE; -1. */
static int too_high(builder *B)
{
	segc_error(B->ctx, SEGC_ERR_LIMIT, B->file, 0, 0, "the formula has "
		"degree more than %d in '%s'", MAX_DEGREE, B->var);
	return -1;
}

static int to_urat(builder *B, const segc_expr *e, urat *r);

/* r = the sum ('add') or product of the arguments of 'e'. */
static int fold_args(builder *B, const segc_expr *e, urat *r, int add)
{
	urat a;
	size_t i;
	mpq_t one;

	mpq_init(one);
	mpq_set_ui(one, add ? 0 : 1, 1);
	segc_upoly_set_q(&r->num, one);
	mpq_set_ui(one, 1, 1);
	segc_upoly_set_q(&r->den, one);
	mpq_clear(one);
	for (i = 0; i < segc_expr_nargs(e); i++) {
		urat_init(&a);
		if (to_urat(B, segc_expr_arg(e, i), &a)) {
			urat_clear(&a);
			return -1;
		}
		urat_combine(r, r, &a, add);
		urat_clear(&a);
		if (r->num.len > MAX_DEGREE + 1 || r->den.len > MAX_DEGREE + 1)
			return too_high(B);
	}
	return 0;
}

/* r = base ^ exponent, the exponent an integer. */
static int to_urat_pow(builder *B, const segc_expr *e, urat *r)
{
	const segc_expr *x = segc_expr_arg(e, 1);
	mpq_srcptr q = segc_expr_kind(x) == SEGC_NUM ? segc_expr_value(x)
		: NULL;
	urat b;
	long n, i;
	int rc = -1;

	if (!q || mpz_cmp_ui(mpq_denref(q), 1) ||
	    !mpz_fits_slong_p(mpq_numref(q)))
		return refuse_atom(B, e);
	n = mpz_get_si(mpq_numref(q));
	urat_init(&b);
	if (to_urat(B, segc_expr_arg(e, 0), &b))
		goto out;
	if ((n > 0 ? n : -n) * (long)(b.num.len + b.den.len) > 2L * MAX_DEGREE) {
		rc = too_high(B);
		goto out;
	}
	if (n < 0 && !b.num.len) {
		segc_error(B->ctx, SEGC_ERR_INPUT, B->file, 0, 0,
			"division by zero");
		goto out;
	}
	segc_upoly_set(&r->num, n < 0 ? &b.den : &b.num);
	segc_upoly_set(&r->den, n < 0 ? &b.num : &b.den);
	segc_upoly_set(&b.num, &r->num);
	segc_upoly_set(&b.den, &r->den);
	for (i = 1; i < (n > 0 ? n : -n); i++)
		urat_combine(r, r, &b, 0);
	if (!n) {
		mpq_t one;

		mpq_init(one);
		mpq_set_ui(one, 1, 1);
		segc_upoly_set_q(&r->num, one);
		segc_upoly_set_q(&r->den, one);
		mpq_clear(one);
	}
	urat_reduce(r);
	rc = 0;
out:
	urat_clear(&b);
	return rc;
}

/* Records a name left without a value or an atom that is no rational
 * number; -1. */
static int not_rational(builder *B, const segc_expr *e)
{
	char *t = segc_expr_to_string(e);

	if (segc_expr_kind(e) == SEGC_SYM)
		segc_error(B->ctx, SEGC_ERR_INPUT, B->file, 0, 0, "'%s' has no "
			"value: give %s=VALUE or -D %s=VALUE", t, t, t);
	else
		segc_error(B->ctx, SEGC_ERR_INPUT, B->file, 0, 0, "'%.200s' is "
			"not a rational number: the exact analysis needs every "
			"atom but '%s' to be one", t, B->var);
	free(t);
	return -1;
}

/* r = the atom 'e' free of the variable when its exact value is a
 * rational number (ceil(log2(1)) is 0); else -1 (recorded). */
static int constant_atom(builder *B, const segc_expr *e, urat *r)
{
	mpq_t q;
	int rc = -1;

	mpq_init(q);
	if (!segc_expr_has_sym(e, B->var) &&
	    !segc_expr_eval_q(q, e, 0, NULL, NULL)) {
		segc_upoly_set_q(&r->num, q);
		rc = 0;
	}
	mpq_clear(q);
	return rc ? not_rational(B, e) : 0;
}

/* r = 'e' as a rational function of the variable, the kernels at their
 * current values. */
static int to_urat(builder *B, const segc_expr *e, urat *r)
{
	size_t i;
	mpq_t one;

	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	segc_upoly_set_q(&r->den, one);
	mpq_clear(one);
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		segc_upoly_set_q(&r->num, segc_expr_value(e));
		return 0;
	case SEGC_SYM:
		if (strcmp(segc_expr_name(e), B->var))
			return not_rational(B, e);
		segc_upoly_set_x(&r->num);
		return 0;
	case SEGC_ADD:
		return fold_args(B, e, r, 1);
	case SEGC_MUL:
		return fold_args(B, e, r, 0);
	case SEGC_POW:
		return to_urat_pow(B, e, r);
	default:
		for (i = 0; i < B->nk; i++)
			if (B->kernel[i] == e) {
				segc_upoly_set_q(&r->num, B->kval[i]);
				return 0;
			}
		return constant_atom(B, e, r);
	}
}

/* --------------------------------------------------------------- pieces */

/* Appends the piece (lo, hi) (a point when equal) of 'f' to 'ps'. */
static int add_piece(builder *B, segc_pieces *ps, const segc_expr *f,
	mpq_srcptr lo, mpq_srcptr hi)
{
	segc_upiece *p;
	urat r;
	mpq_t m;

	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 8;
		ps->p = segc_xrealloc(ps->p, segc_xmul_size(ps->cap,
			sizeof *ps->p));
	}
	mpq_init(m);
	mpq_add(m, lo, hi);
	mpq_div_2exp(m, m, 1);
	if (B->nk)
		kernels_at(B, m);
	mpq_clear(m);
	urat_init(&r);
	if (to_urat(B, f, &r)) {
		urat_clear(&r);
		return -1;
	}
	p = &ps->p[ps->n++];
	mpq_init(p->lo);
	mpq_init(p->hi);
	mpq_set(p->lo, lo);
	mpq_set(p->hi, hi);
	p->num = r.num;
	p->den = r.den;
	return 0;
}

/* The points where a kernel jumps inside (lo, hi): the powers of two;
 * appended to 'pts' after lo, then hi.  Returns their number, or 0 after
 * a diagnostic. */
static size_t cut_points(builder *B, mpq_t **pts, mpq_srcptr lo,
	mpq_srcptr hi)
{
	size_t n = 0, cap = 8;
	long k;
	mpq_t x;

	*pts = segc_xmalloc(cap * sizeof **pts);
	mpq_init((*pts)[n]);
	mpq_set((*pts)[n++], lo);
	mpq_init(x);
	if (B->nk) {
		k = floor_log2(lo) + 1;
		mpq_set_ui(x, 1, 1);
		if (k >= 0)
			mpq_mul_2exp(x, x, (mp_bitcnt_t)k);
		else
			mpq_div_2exp(x, x, (mp_bitcnt_t)-k);
	}
	while (B->nk && mpq_cmp(x, hi) < 0 && n < MAX_PIECES) {
		if (n + 2 > cap) {
			cap *= 2;
			*pts = segc_xrealloc(*pts, segc_xmul_size(cap,
				sizeof **pts));
		}
		mpq_init((*pts)[n]);
		mpq_set((*pts)[n++], x);
		mpq_mul_2exp(x, x, 1);
	}
	mpq_init((*pts)[n]);
	mpq_set((*pts)[n++], hi);
	mpq_clear(x);
	return n;
}

/* Cuts 'f' into pieces (see analysis.h). */
int segc_pieces_build(segc_ctx *ctx, segc_pieces *out, const segc_expr *f,
	const char *var, mpq_srcptr lo, mpq_srcptr hi, const char *file)
{
	builder B;
	mpq_t *pts = NULL;
	size_t n = 0, i;
	int rc = -1;

	memset(out, 0, sizeof *out);
	memset(&B, 0, sizeof B);
	B.ctx = ctx;
	B.var = var;
	B.file = file;
	if (collect_kernels(&B, f))
		goto out;
	if (B.nk && mpq_sgn(lo) <= 0) {
		segc_error(ctx, SEGC_ERR_INPUT, file, 0, 0, "the range of '%s' "
			"must be positive: the formula has log2(%s)", var, var);
		goto out;
	}
	B.kval = segc_xcalloc(B.nk ? B.nk : 1, sizeof *B.kval);
	for (i = 0; i < B.nk; i++)
		mpq_init(B.kval[i]);
	n = cut_points(&B, &pts, lo, hi);
	if (n > MAX_PIECES) {
		segc_error(ctx, SEGC_ERR_LIMIT, file, 0, 0, "the range of '%s' "
			"has more than %d pieces", var, MAX_PIECES);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (i && mpq_equal(pts[i], pts[i - 1]))
			continue;
		if (add_piece(&B, out, f, pts[i], pts[i]))
			break;
		if (i + 1 < n && !mpq_equal(pts[i], pts[i + 1]) &&
		    add_piece(&B, out, f, pts[i], pts[i + 1]))
			break;
	}
	rc = segc_ctx_status(ctx) == SEGC_OK ? 0 : -1;
	out->nkernels = B.nk;
out:
	for (i = 0; i < n; i++)
		mpq_clear(pts[i]);
	free(pts);
	for (i = 0; B.kval && i < B.nk; i++)
		mpq_clear(B.kval[i]);
	free(B.kval);
	free(B.kernel);
	return rc;
}

/* Releases 'ps'. */
void segc_pieces_clear(segc_pieces *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		mpq_clear(ps->p[i].lo);
		mpq_clear(ps->p[i].hi);
		segc_upoly_clear(&ps->p[i].num);
		segc_upoly_clear(&ps->p[i].den);
	}
	free(ps->p);
	memset(ps, 0, sizeof *ps);
}
