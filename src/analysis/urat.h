/* urat.h - private interface of urat.c: an expression of one variable
 * as a rational function num/den over Q, for the pieces of the analysis
 * (pieces.c).  The ownership rule of segc.h applies. */
#ifndef SEGC_URAT_H
#define SEGC_URAT_H

#include "analysis/analysis.h"

/* The largest degree of a numerator or denominator. */
#define SEGC_URAT_MAX_DEGREE 64

/* A rational function num/den: gcd 1, den monic once built. */
typedef struct segc_urat {
	segc_upoly num, den;
} segc_urat;

typedef struct segc_urat_conv segc_urat_conv;

/* Asked for each call or sum of the expression: 0 after setting 'r' to
 * what it is, 1 when it is none of the caller's (it must then have a
 * rational value), -1 after recording an error. */
typedef int (*segc_urat_atom_fn)(const segc_urat_conv *c,
	const segc_expr *e, segc_urat *r);

/* A conversion: where errors go, the variable, and the atoms. */
struct segc_urat_conv {
	segc_ctx *ctx;
	const char *var, *file;
	segc_urat_atom_fn atom;
	void *arg;
};

void segc_urat_init(segc_urat *r);
void segc_urat_clear(segc_urat *r);
/* r = 'e' as a rational function of c->var; 0, or -1 with a diagnostic
 * (a name without a value, an atom that is not a rational number, the
 * variable in an exponent, a division by zero, a degree past the
 * limit). */
int segc_urat_of(const segc_urat_conv *c, const segc_expr *e, segc_urat *r);
/* Records that 'e' holds the variable where it cannot be handled; -1. */
int segc_urat_refuse(const segc_urat_conv *c, const segc_expr *e);
/* Records a degree past SEGC_URAT_MAX_DEGREE; -1. */
int segc_urat_too_high(const segc_urat_conv *c);

#endif
