/* pieces.c - a canonical formula of one variable cut into pieces where
 * it is a rational function of that variable with rational coefficients.
 * The cuts are where a kernel changes: the powers of two for
 * ceil(log2(x)) and floor(log2(x)); the real roots of the differences of
 * the arguments of max and min, and of the sides of the relations of an
 * if(), all of them rational in x.  A rational cut is a point; an
 * irrational one is kept as a narrow open interval (a sliver) holding no
 * integer, which the optimum may skip and the roots must check. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "expr/builtin.h"
#include "analysis/urat.h"
#include "base/util.h"

/* The largest number of pieces. */
#define MAX_PIECES 20000

/* The kinds of kernels of the variable handled. */
enum kernel_kind { K_CEIL_LOG2, K_FLOOR_LOG2, K_MAX, K_MIN, K_IF };

/* A kernel of the variable and what it is on the current piece: the
 * value of a log2 kernel, the argument chosen by max, min or if. */
typedef struct kernel {
	const segc_expr *e;
	enum kernel_kind kind;
	size_t choice;
	mpq_t val;
} kernel;

/* What the pieces are built from. */
typedef struct builder {
	segc_ctx *ctx;
	const char *var, *file;
	size_t nk;
	kernel *k;
	int log2;                  /* some kernel is a log2 one */
	segc_urat_conv conv;       /* the kernels' values as atoms */
} builder;

/* ------------------------------------------------------------- kernels */

/* Non-zero when 'e' is ceil(log2(var)) or floor(log2(var)). */
static int is_log2_kernel(const segc_expr *e, const char *var)
{
	const segc_expr *a;

	if (segc_expr_nargs(e) != 1 ||
	    segc_builtin_get(segc_expr_builtin(e))->eval != SEGC_EVAL_ROUND)
		return 0;
	a = segc_expr_arg(e, 0);
	if (!segc_expr_is_builtin(a, SEGC_BUILTIN_LOG2) ||
	    segc_expr_nargs(a) != 1)
		return 0;
	a = segc_expr_arg(a, 0);
	return segc_expr_kind(a) == SEGC_SYM && !strcmp(segc_expr_name(a), var);
}

/* Records that 'e' holds the variable where it cannot be handled. */
static int refuse_atom(builder *B, const segc_expr *e)
{
	return segc_urat_refuse(&B->conv, e);
}

/* Adds kernel 'e' of 'kind' to 'B' unless it is there. */
static void add_kernel(builder *B, const segc_expr *e, enum kernel_kind kind)
{
	size_t i;

	for (i = 0; i < B->nk; i++)
		if (B->k[i].e == e)
			return;
	B->k = segc_xrealloc(B->k, (B->nk + 1) * sizeof *B->k);
	B->k[B->nk].e = e;
	B->k[B->nk].kind = kind;
	B->k[B->nk].choice = 0;
	mpq_init(B->k[B->nk].val);
	B->nk++;
	B->log2 |= kind == K_CEIL_LOG2 || kind == K_FLOOR_LOG2;
}

/* Non-zero when 'e' is a rational function of the variable (no call or
 * sum holds it). */
static int rational_in(const builder *B, const segc_expr *e)
{
	size_t i;

	if (!segc_expr_has_sym(e, B->var))
		return 1;
	switch (segc_expr_kind(e)) {
	case SEGC_SYM:
		return 1;
	case SEGC_ADD:
	case SEGC_MUL:
		for (i = 0; i < segc_expr_nargs(e); i++)
			if (!rational_in(B, segc_expr_arg(e, i)))
				return 0;
		return 1;
	case SEGC_POW:
		return !segc_expr_has_sym(segc_expr_arg(e, 1), B->var) &&
			rational_in(B, segc_expr_arg(e, 0));
	default:
		return 0;
	}
}

/* Non-zero when 'name' is a relation (<, <=, >, >=, ==, !=). */
static int is_relation(const char *name)
{
	return !strcmp(name, "<") || !strcmp(name, "<=") ||
		!strcmp(name, ">") || !strcmp(name, ">=") ||
		!strcmp(name, "==") || !strcmp(name, "!=");
}

/* Non-zero when condition 'c' is made of relations between rational
 * functions of the variable, with and, or, not. */
static int condition_ok(const builder *B, const segc_expr *c)
{
	const char *f = segc_expr_kind(c) == SEGC_CALL ? segc_expr_name(c)
		: "";
	size_t i;

	if (!strcmp(f, "and") || !strcmp(f, "or") || !strcmp(f, "not")) {
		for (i = 0; i < segc_expr_nargs(c); i++)
			if (!condition_ok(B, segc_expr_arg(c, i)))
				return 0;
		return 1;
	}
	return is_relation(f) && segc_expr_nargs(c) == 2 &&
		rational_in(B, segc_expr_arg(c, 0)) &&
		rational_in(B, segc_expr_arg(c, 1));
}

/* Adds the call 'e' as a kernel when it is handled; -1 (recorded) when
 * not. */
static int call_kernel(builder *B, const segc_expr *e)
{
	enum segc_builtin id = segc_expr_builtin(e);
	size_t i, n = segc_expr_nargs(e);

	if (is_log2_kernel(e, B->var)) {
		add_kernel(B, e, id == SEGC_BUILTIN_CEIL ? K_CEIL_LOG2 :
			K_FLOOR_LOG2);
		return 0;
	}
	if ((id == SEGC_BUILTIN_MAX || id == SEGC_BUILTIN_MIN) && n) {
		for (i = 0; i < n; i++)
			if (!rational_in(B, segc_expr_arg(e, i)))
				return refuse_atom(B, e);
		add_kernel(B, e, id == SEGC_BUILTIN_MAX ? K_MAX : K_MIN);
		return 0;
	}
	if (id == SEGC_BUILTIN_IF && n == 3 && condition_ok(B, segc_expr_arg(e, 0))
	    && rational_in(B, segc_expr_arg(e, 1)) &&
	    rational_in(B, segc_expr_arg(e, 2))) {
		add_kernel(B, e, K_IF);
		return 0;
	}
	return refuse_atom(B, e);
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
		return call_kernel(B, e);
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

/* 2^k. */
static void power_of_two(mpq_t p, long k)
{
	mpq_set_ui(p, 1, 1);
	if (k >= 0)
		mpq_mul_2exp(p, p, (mp_bitcnt_t)k);
	else
		mpq_div_2exp(p, p, (mp_bitcnt_t)-k);
}

/* The value of log2 kernel 'k' at x (> 0). */
static void log2_at(kernel *k, mpq_srcptr x)
{
	long f = floor_log2(x);
	mpq_t p;

	mpq_init(p);
	power_of_two(p, f);
	mpq_set_si(k->val, f + (k->kind == K_CEIL_LOG2 && !mpq_equal(p, x)),
		1);
	mpq_clear(p);
}

/* The argument that max or min 'k' takes at x: the first largest
 * (smallest) of those defined there. */
static void extremum_at(const builder *B, kernel *k, mpq_srcptr x)
{
	mpq_t v, best;
	size_t i;
	int have = 0, c;

	mpq_init(v);
	mpq_init(best);
	k->choice = 0;
	for (i = 0; i < segc_expr_nargs(k->e); i++) {
		if (segc_expr_eval_q(v, segc_expr_arg(k->e, i), 1, &B->var,
		    (const mpq_t *)x))
			continue;
		c = mpq_cmp(v, best);
		if (!have || (k->kind == K_MAX ? c > 0 : c < 0)) {
			mpq_set(best, v);
			k->choice = i;
			have = 1;
		}
	}
	mpq_clear(v);
	mpq_clear(best);
}

/* Whether relation 'op' holds between values compared as 'c'. */
static int relation_holds(const char *op, int c)
{
	return !strcmp(op, "<") ? c < 0 : !strcmp(op, "<=") ? c <= 0 :
		!strcmp(op, ">") ? c > 0 : !strcmp(op, ">=") ? c >= 0 :
		!strcmp(op, "==") ? c == 0 : c != 0;
}

/* The truth of condition 'c' (checked by condition_ok) at x; false
 * where a side is undefined. */
static int holds_at(const builder *B, const segc_expr *c, mpq_srcptr x)
{
	const char *f = segc_expr_name(c);
	mpq_t a, b;
	size_t i;
	int t;

	if (!strcmp(f, "not"))
		return !holds_at(B, segc_expr_arg(c, 0), x);
	if (!strcmp(f, "and") || !strcmp(f, "or")) {
		for (i = 0; i < segc_expr_nargs(c); i++)
			if (holds_at(B, segc_expr_arg(c, i), x) != (f[0] == 'a'))
				return f[0] != 'a';
		return f[0] == 'a';
	}
	mpq_init(a);
	mpq_init(b);
	t = !segc_expr_eval_q(a, segc_expr_arg(c, 0), 1, &B->var,
		(const mpq_t *)x) && !segc_expr_eval_q(b, segc_expr_arg(c, 1),
		1, &B->var, (const mpq_t *)x) && relation_holds(f, mpq_cmp(a, b));
	mpq_clear(a);
	mpq_clear(b);
	return t;
}

/* The branch that if() 'k' takes at x. */
static void branch_at(const builder *B, kernel *k, mpq_srcptr x)
{
	k->choice = holds_at(B, segc_expr_arg(k->e, 0), x) ? 1 : 2;
}

/* Sets what every kernel is at the point 'x'. */
static void kernels_at(builder *B, mpq_srcptr x)
{
	size_t i;

	for (i = 0; i < B->nk; i++)
		if (B->k[i].kind == K_IF)
			branch_at(B, &B->k[i], x);
		else if (B->k[i].kind == K_MAX || B->k[i].kind == K_MIN)
			extremum_at(B, &B->k[i], x);
		else
			log2_at(&B->k[i], x);
}

/* What a call of the formula is on the current piece (a segc_urat_atom_fn):
 * a log2 kernel its value, a max, min or if() the argument it takes; 1
 * for a call that is no kernel. */
static int kernel_atom(const segc_urat_conv *c, const segc_expr *e,
	segc_urat *r)
{
	const builder *B = c->arg;
	size_t i;

	for (i = 0; i < B->nk; i++) {
		if (B->k[i].e != e)
			continue;
		if (B->k[i].kind != K_CEIL_LOG2 && B->k[i].kind != K_FLOOR_LOG2)
			return segc_urat_of(c, segc_expr_arg(e, B->k[i].choice), r);
		segc_upoly_set_q(&r->num, B->k[i].val);
		return 0;
	}
	return 1;
}

/* ------------------------------------------------------------ switches */

/* bp = bp times the numerator and denominator of 'a' - 'b' (rational
 * in the variable); -1 (recorded) on a limit. */
static int times_difference(builder *B, segc_upoly *bp, const segc_expr *a,
	const segc_expr *b)
{
	segc_expr *d = segc_expr_sub2(segc_expr_copy(a),
		segc_expr_copy(b));
	segc_urat r;
	int rc;

	segc_urat_init(&r);
	rc = segc_urat_of(&B->conv, d, &r);
	segc_expr_free(d);
	if (!rc && segc_upoly_degree(&r.num) >= 1)
		segc_upoly_mul(bp, bp, &r.num);
	if (!rc && segc_upoly_degree(&r.den) >= 1)
		segc_upoly_mul(bp, bp, &r.den);
	segc_urat_clear(&r);
	if (!rc && bp->len > SEGC_URAT_MAX_DEGREE + 1)
		rc = segc_urat_too_high(&B->conv);
	return rc;
}

/* The same for every relation of condition 'c'. */
static int times_relations(builder *B, segc_upoly *bp, const segc_expr *c)
{
	size_t i;

	if (is_relation(segc_expr_name(c)))
		return times_difference(B, bp, segc_expr_arg(c, 0),
			segc_expr_arg(c, 1));
	for (i = 0; i < segc_expr_nargs(c); i++)
		if (times_relations(B, bp, segc_expr_arg(c, i)))
			return -1;
	return 0;
}

/* The polynomial whose real roots are all the points where a max, min
 * or if() may switch. */
static int switch_polynomial(builder *B, segc_upoly *bp)
{
	mpq_t one;
	size_t i, a, b;
	int rc = 0;

	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	segc_upoly_set_q(bp, one);
	mpq_clear(one);
	for (i = 0; i < B->nk && !rc; i++) {
		const segc_expr *e = B->k[i].e;

		if (B->k[i].kind == K_IF)
			rc = times_relations(B, bp, segc_expr_arg(e, 0));
		if (B->k[i].kind != K_MAX && B->k[i].kind != K_MIN)
			continue;
		for (a = 0; a < segc_expr_nargs(e) && !rc; a++)
			for (b = a + 1; b < segc_expr_nargs(e) && !rc; b++)
				rc = times_difference(B, bp, segc_expr_arg(e, a),
					segc_expr_arg(e, b));
	}
	return rc;
}

/* Non-zero when [u, v] holds an integer or a power of two (a cut). */
static int holds_cut(const builder *B, mpq_srcptr u, mpq_srcptr v)
{
	mpz_t a, b;
	mpq_t p;
	int r;

	mpz_init(a);
	mpz_init(b);
	mpz_cdiv_q(a, mpq_numref(u), mpq_denref(u));
	mpz_fdiv_q(b, mpq_numref(v), mpq_denref(v));
	r = mpz_cmp(a, b) <= 0;
	if (!r && B->log2 && mpq_sgn(u) > 0) {
		mpq_init(p);
		power_of_two(p, floor_log2(v));
		r = mpq_cmp(p, u) >= 0;
		mpq_clear(p);
	}
	mpz_clear(a);
	mpz_clear(b);
	return r;
}

/* Narrows the sliver of irrational switch 'i' until it lies inside
 * (lo, hi), holds no other cut and does not start at another switch;
 * -1 (recorded) if that takes too long. */
static int narrow_sliver(builder *B, segc_roots *rs, size_t i,
	mpq_srcptr lo, mpq_srcptr hi)
{
	mpq_t w;
	int n;

	mpq_init(w);
	for (n = 0; n < 4096; n++) {
		segc_root *r = &rs->r[i];

		if (mpq_cmp(r->lo, lo) > 0 && mpq_cmp(r->hi, hi) < 0 &&
		    segc_upoly_sign_at(&rs->sqf, r->lo) &&
		    !holds_cut(B, r->lo, r->hi))
			break;
		mpq_sub(w, r->hi, r->lo);
		mpq_div_2exp(w, w, 1);
		segc_root_refine(rs, i, w);
	}
	mpq_clear(w);
	if (n < 4096)
		return 0;
	segc_error(B->ctx, SEGC_ERR_LIMIT, B->file, 0, 0, "a point where a "
		"max, min or if() of '%s' switches could not be separated", B->var);
	return -1;
}

/* --------------------------------------------------------------- pieces */

/* A cut: a point (a == b) or a sliver (a, b) around irrational switch
 * 'root' of the switch roots. */
typedef struct cut {
	mpq_t a, b;
	size_t root;
} cut;

/* The cuts being gathered. */
typedef struct cuts {
	size_t n, cap;
	cut *c;
} cuts;

/* Appends the cut (a, b). */
static void add_cut(cuts *C, mpq_srcptr a, mpq_srcptr b, size_t root)
{
	if (C->n == C->cap) {
		C->cap = C->cap ? 2 * C->cap : 16;
		C->c = segc_xrealloc(C->c, segc_xmul_size(C->cap,
			sizeof *C->c));
	}
	mpq_init(C->c[C->n].a);
	mpq_init(C->c[C->n].b);
	mpq_set(C->c[C->n].a, a);
	mpq_set(C->c[C->n].b, b);
	C->c[C->n++].root = root;
}

/* Orders cuts by their left ends (qsort). */
static int cmp_cut(const void *x, const void *y)
{
	return mpq_cmp(((const cut *)x)->a, ((const cut *)y)->a);
}

/* Releases 'C'. */
static void cuts_clear(cuts *C)
{
	size_t i;

	for (i = 0; i < C->n; i++) {
		mpq_clear(C->c[i].a);
		mpq_clear(C->c[i].b);
	}
	free(C->c);
}

/* The powers of two inside (lo, hi), where log2 kernels jump. */
static int log2_cuts(builder *B, cuts *C, mpq_srcptr lo, mpq_srcptr hi)
{
	mpq_t x;

	mpq_init(x);
	power_of_two(x, floor_log2(lo) + 1);
	while (mpq_cmp(x, hi) < 0 && C->n <= MAX_PIECES) {
		add_cut(C, x, x, (size_t)-1);
		mpq_mul_2exp(x, x, 1);
	}
	mpq_clear(x);
	return 0;
}

/* The points inside (lo, hi) where a max, min or if() switches: exact
 * ones, and slivers around the irrational ones. */
static int switch_cuts(builder *B, cuts *C, segc_roots *rs, mpq_srcptr lo,
	mpq_srcptr hi)
{
	segc_upoly bp;
	size_t i;
	int rc;

	segc_upoly_init(&bp);
	rc = switch_polynomial(B, &bp);
	if (!rc && segc_upoly_degree(&bp) >= 1)
		segc_upoly_roots(rs, &bp, lo, hi);
	segc_upoly_clear(&bp);
	for (i = 0; i < rs->n && !rc; i++) {
		segc_root *r = &rs->r[i];

		if (mpq_equal(r->lo, r->hi)) {
			if (mpq_cmp(r->lo, lo) > 0 && mpq_cmp(r->lo, hi) < 0)
				add_cut(C, r->lo, r->lo, (size_t)-1);
			continue;
		}
		rc = narrow_sliver(B, rs, i, lo, hi);
		if (!rc)
			add_cut(C, rs->r[i].lo, rs->r[i].hi, i);
	}
	return rc;
}

/* Appends a piece: the point or open interval (lo, hi) of 'f', or the
 * sliver of switch 'root' (no formula). */
static int add_piece(builder *B, segc_pieces *ps, const segc_expr *f,
	mpq_srcptr lo, mpq_srcptr hi, size_t root)
{
	segc_upiece *p;
	segc_urat r;
	mpq_t m;

	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 8;
		ps->p = segc_xrealloc(ps->p, segc_xmul_size(ps->cap,
			sizeof *ps->p));
	}
	segc_urat_init(&r);
	if (root == (size_t)-1) {
		mpq_init(m);
		mpq_add(m, lo, hi);
		mpq_div_2exp(m, m, 1);
		kernels_at(B, m);
		mpq_clear(m);
		if (segc_urat_of(&B->conv, f, &r)) {
			segc_urat_clear(&r);
			return -1;
		}
	}
	p = &ps->p[ps->n++];
	mpq_init(p->lo);
	mpq_init(p->hi);
	mpq_set(p->lo, lo);
	mpq_set(p->hi, hi);
	p->num = r.num;
	p->den = r.den;
	p->sliver = root != (size_t)-1;
	p->root = root;
	return 0;
}

/* Makes the pieces from the sorted cuts: each cut, and the open
 * interval up to the next one. */
static int pieces_of_cuts(builder *B, segc_pieces *ps, const segc_expr *f,
	cuts *C)
{
	size_t i;

	for (i = 0; i < C->n; i++) {
		if (i && mpq_equal(C->c[i].a, C->c[i - 1].a))
			continue;
		if (add_piece(B, ps, f, C->c[i].a, C->c[i].b, C->c[i].root))
			return -1;
		if (i + 1 < C->n && mpq_cmp(C->c[i].b, C->c[i + 1].a) < 0 &&
		    add_piece(B, ps, f, C->c[i].b, C->c[i + 1].a, (size_t)-1))
			return -1;
	}
	return 0;
}

/* Cuts 'f' into pieces (see analysis.h). */
int segc_pieces_build(segc_ctx *ctx, segc_pieces *out, const segc_expr *f,
	const char *var, mpq_srcptr lo, mpq_srcptr hi, const char *file)
{
	builder B;
	cuts C;
	size_t i;
	int rc = -1;

	memset(out, 0, sizeof *out);
	segc_roots_init(&out->breaks);
	memset(&B, 0, sizeof B);
	memset(&C, 0, sizeof C);
	B.ctx = ctx;
	B.var = var;
	B.file = file;
	B.conv.ctx = ctx;
	B.conv.var = var;
	B.conv.file = file;
	B.conv.atom = kernel_atom;
	B.conv.arg = &B;
	if (collect_kernels(&B, f))
		goto out;
	if (B.log2 && mpq_sgn(lo) <= 0) {
		segc_error(ctx, SEGC_ERR_INPUT, file, 0, 0, "the range of '%s' "
			"must be positive: the formula has log2(%s)", var, var);
		goto out;
	}
	add_cut(&C, lo, lo, (size_t)-1);
	add_cut(&C, hi, hi, (size_t)-1);
	if ((B.log2 && log2_cuts(&B, &C, lo, hi)) ||
	    switch_cuts(&B, &C, &out->breaks, lo, hi))
		goto out;
	if (C.n > MAX_PIECES) {
		segc_error(ctx, SEGC_ERR_LIMIT, file, 0, 0, "the range of '%s' "
			"has more than %d pieces", var, MAX_PIECES);
		goto out;
	}
	qsort(C.c, C.n, sizeof *C.c, cmp_cut);
	if (!pieces_of_cuts(&B, out, f, &C))
		rc = segc_ctx_status(ctx) == SEGC_OK ? 0 : -1;
	out->nkernels = B.nk;
out:
	cuts_clear(&C);
	for (i = 0; i < B.nk; i++)
		mpq_clear(B.k[i].val);
	free(B.k);
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
	segc_roots_clear(&ps->breaks);
	memset(ps, 0, sizeof *ps);
}
