/* evalmp_pieces.c - the body of a sum split into pieces with closed sums
 * (see evalmp_pieces.h).
 *
 * A term is affine in the counter j when it is free of j, is j, is a sum
 * of affine terms, or a product of one affine factor by factors free of
 * j; its coefficients a + b*j are built as expressions from the term's
 * own parts (products of its factors, sums of its terms), so the plan
 * finds most of them computed already.  A body is a sum of terms each
 * affine, or max/min of two affine arguments, or floor/ceil of one,
 * optionally times factors free of j.  Anything else (a power of j, a
 * product of two factors with j, another function of j) leaves the body
 * to be summed term by term.  The walk goes at most AFFINE_DEPTH levels
 * down and visits at most SPLIT_WORK nodes (a shared node once for each
 * path to it: a formula of lets could otherwise make it exponential);
 * past either, the body is left as it is. */
#include <stdlib.h>
#include <string.h>

#include "output/evalmp_pieces.h"
#include "expr/builtin.h"
#include "base/util.h"

/* How deep the affine walk goes into sums and products, and how many
 * nodes one split visits in all. */
#define AFFINE_DEPTH 32
#define SPLIT_WORK 65536L

/* The product 'e' as one factor with 'var' (its index into '*w') times
 * the others, whose product (a new reference) goes into '*rest': 0; -1
 * when not exactly one factor has 'var'. */
static int split_product(const segc_expr *e, const char *var, size_t *w,
	segc_expr **rest)
{
	size_t i, k = 0, n = segc_expr_nargs(e);
	segc_expr **fs;

	for (i = 0; i < n; i++)
		if (segc_expr_has_sym(segc_expr_arg(e, i), var)) {
			*w = i;
			if (k++)
				return -1;
		}
	if (k != 1)
		return -1;
	fs = segc_xmalloc(n * sizeof *fs);
	for (i = 0, k = 0; i < n; i++)
		if (i != *w)
			fs[k++] = segc_expr_copy(segc_expr_arg(e, i));
	*rest = segc_expr_mul(k, fs);
	free(fs);
	return 0;
}

/* 'e' as a + b*var, with new references: 0; -1 when it is not affine
 * (or the walk passes its bounds; '*work' counts down the nodes left). */
static int affine(const segc_expr *e, const char *var, segc_expr **a,
	segc_expr **b, int depth, long *work)
{
	size_t i, n, w;
	segc_expr **as, **bs, *fa, *fb, *rest;
	int rc = 0;

	if (--*work < 0)
		return -1;
	if (!segc_expr_has_sym(e, var)) {
		*a = segc_expr_copy(e);
		*b = segc_expr_int(0);
		return 0;
	}
	if (segc_expr_kind(e) == SEGC_SYM) {
		*a = segc_expr_int(0);
		*b = segc_expr_int(1);
		return 0;
	}
	if (depth >= AFFINE_DEPTH)
		return -1;
	switch (segc_expr_kind(e)) {
	case SEGC_ADD:
		n = segc_expr_nargs(e);
		as = segc_xcalloc(n, sizeof *as);
		bs = segc_xcalloc(n, sizeof *bs);
		for (i = 0; i < n && !rc; i++)
			rc = affine(segc_expr_arg(e, i), var, &as[i], &bs[i],
				depth + 1, work);
		if (rc) {
			for (i = 0; i < n; i++) {
				segc_expr_free(as[i]);
				segc_expr_free(bs[i]);
			}
		} else {
			*a = segc_expr_add(n, as);
			*b = segc_expr_add(n, bs);
		}
		free(as);
		free(bs);
		return rc;
	case SEGC_MUL:
		/* one affine factor, the others free of var */
		if (split_product(e, var, &w, &rest))
			return -1;
		if (affine(segc_expr_arg(e, w), var, &fa, &fb, depth + 1,
		    work)) {
			segc_expr_free(rest);
			return -1;
		}
		*a = segc_expr_mul2(segc_expr_copy(rest), fa);
		*b = segc_expr_mul2(rest, fb);
		return 0;
	default:
		return -1;
	}
}

/* The built-ins a piece may be, with their arities. */
static const struct {
	enum segc_builtin id;
	enum segc_piece_kind kind;
	size_t nargs;
} piece_calls[] = {
	{ SEGC_BUILTIN_MAX, SEGC_PIECE_MAX, 2 },
	{ SEGC_BUILTIN_MIN, SEGC_PIECE_MIN, 2 },
	{ SEGC_BUILTIN_FLOOR, SEGC_PIECE_FLOOR, 1 },
	{ SEGC_BUILTIN_CEIL, SEGC_PIECE_CEIL, 1 }
};

/* The kind of the call 'e' when it is a piece of affine arguments, with
 * their coefficients in 'p'; -1 otherwise. */
static int piece_call(const segc_expr *e, const char *var, segc_piece *p,
	long *work)
{
	enum segc_builtin id;
	size_t i, k, n;

	if (segc_expr_kind(e) != SEGC_CALL)
		return -1;
	id = segc_expr_builtin(e);
	n = segc_expr_nargs(e);
	for (k = 0; k < sizeof piece_calls / sizeof *piece_calls; k++)
		if (piece_calls[k].id == id && piece_calls[k].nargs == n)
			break;
	if (k == sizeof piece_calls / sizeof *piece_calls)
		return -1;
	p->kind = piece_calls[k].kind;
	for (i = 0; i < n; i++)
		if (affine(segc_expr_arg(e, i), var, &p->a[i], &p->b[i], 0,
		    work)) {
			/* the first argument's, when the second failed */
			segc_expr_free(p->a[0]);
			segc_expr_free(p->b[0]);
			p->a[0] = p->b[0] = NULL;
			return -1;
		}
	return 0;
}

/* The term 'e' of the body as a piece of its own: 0, or -1. */
static int piece_term(const segc_expr *e, const char *var, segc_piece *p,
	long *work)
{
	size_t w;
	segc_expr *rest;

	memset(p, 0, sizeof *p);
	if (!piece_call(e, var, p, work)) {
		p->m = segc_expr_int(1);
		return 0;
	}
	if (segc_expr_kind(e) != SEGC_MUL || split_product(e, var, &w, &rest))
		return -1;
	if (piece_call(segc_expr_arg(e, w), var, p, work)) {
		segc_expr_free(rest);
		return -1;
	}
	p->m = rest;
	return 0;
}

/* Splits the body 'e' (see evalmp_pieces.h). */
int segc_sum_split(const segc_expr *e, const char *var,
	segc_piece p[SEGC_PIECES_MAX], size_t *n)
{
	size_t i, nt, np = 1, na = 0;
	segc_expr **as, **bs;
	long work = SPLIT_WORK;
	int rc = 0;

	if (!segc_expr_has_sym(e, var))
		return -1;  /* a constant body: no term to gain */
	nt = segc_expr_kind(e) == SEGC_ADD ? segc_expr_nargs(e) : 1;
	as = segc_xmalloc(nt * sizeof *as);
	bs = segc_xmalloc(nt * sizeof *bs);
	memset(p, 0, sizeof *p);
	for (i = 0; i < nt && !rc; i++) {
		const segc_expr *t = nt == 1 ? e : segc_expr_arg(e, i);

		if (!affine(t, var, &as[na], &bs[na], 0, &work))
			na++;
		else if (work < 0 || np == SEGC_PIECES_MAX ||
		    piece_term(t, var, &p[np], &work))
			rc = -1;
		else
			np++;
	}
	/* p[0]: the affine terms together */
	p[0].kind = SEGC_PIECE_AFFINE;
	p[0].m = segc_expr_int(1);
	p[0].a[0] = segc_expr_add(na, as);
	p[0].b[0] = segc_expr_add(na, bs);
	free(as);
	free(bs);
	if (rc) {
		segc_sum_pieces_clear(p, np);
		return -1;
	}
	*n = np;
	return 0;
}

/* Releases the pieces (see evalmp_pieces.h). */
void segc_sum_pieces_clear(segc_piece *p, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		segc_expr_free(p[i].m);
		for (k = 0; k < 2; k++) {
			segc_expr_free(p[i].a[k]);
			segc_expr_free(p[i].b[k]);
		}
		memset(&p[i], 0, sizeof p[i]);
	}
}
