/* evalmp_pieces.h - the body of a sum split into pieces whose sums over a
 * range of the counter have closed forms (evalmp_pieces.c): the affine
 * part, max and min of two affine functions, floor and ceil of one, each
 * times a factor free of the counter.  The plan computes the pieces'
 * coefficients in the sum's preheader, so that an arithmetic that knows
 * the closed forms (evaldbl.c) sums the body without running it once per
 * term; the others run the body as before. */
#ifndef SEGC_EVALMP_PIECES_H
#define SEGC_EVALMP_PIECES_H

#include "output/output.h"

/* What a piece is, the counter j being its variable and
 * A_k = a[k] + b[k]*j: */
enum segc_piece_kind {
	SEGC_PIECE_AFFINE,  /* m * A_0 */
	SEGC_PIECE_MAX,     /* m * max(A_0, A_1) */
	SEGC_PIECE_MIN,     /* m * min(A_0, A_1) */
	SEGC_PIECE_FLOOR,   /* m * floor(A_0) */
	SEGC_PIECE_CEIL     /* m * ceil(A_0) */
};

/* The most pieces a body is split into; a body that needs more is
 * summed term by term. */
#define SEGC_PIECES_MAX 8

/* One piece: its factor and its arguments' coefficients, all free of the
 * counter (a[1], b[1] NULL unless MAX or MIN). */
typedef struct segc_piece {
	enum segc_piece_kind kind;
	segc_expr *m, *a[2], *b[2];
} segc_piece;

/* The body 'e' of a sum over 'var' as the sum of the pieces p[0 ..
 * *n - 1], equal to it wherever it is defined (only sums, products by
 * factors free of 'var' and the built-ins named above are taken apart):
 * 0, with new references in 'p'; -1 when it has another shape ('p'
 * then holds nothing). */
int segc_sum_split(const segc_expr *e, const char *var,
	segc_piece p[SEGC_PIECES_MAX], size_t *n);

/* Releases the references of the 'n' pieces 'p'. */
void segc_sum_pieces_clear(segc_piece *p, size_t n);

#endif
