/* analysis.h - exact analysis of a formula in one variable: polynomials
 * of one variable over Q and their real roots (roots.c), and the pieces
 * of a formula of one variable (pieces.c).  What users call, derivatives
 * (calculus.c), asymptotics (asymptotic.c), quantities (quantity.c), the
 * optimum and the roots of an equation (optimize.c), scaled scenarios
 * (scale.c), is declared in <segc/analysis.h>, included here.
 * The ownership rule of segc.h applies; nothing here prints. */
#ifndef SEGC_ANALYSIS_H
#define SEGC_ANALYSIS_H

#include <stddef.h>
#include <gmp.h>
#include <segc/segc.h>
#include <segc/segc_model.h>
#include <segc/analysis.h>

/* ------------------------------------------ polynomials in one variable */

/* A dense polynomial over Q: c[i] is the coefficient of x^i; 'len' is the
 * degree plus one (0 for the zero polynomial), c[len - 1] is not zero. */
typedef struct segc_upoly {
	size_t len, cap;
	mpq_t *c;
} segc_upoly;

void segc_upoly_init(segc_upoly *p);
void segc_upoly_clear(segc_upoly *p);
/* r = a; r may be a. */
void segc_upoly_set(segc_upoly *r, const segc_upoly *a);
/* p = the constant 'c'. */
void segc_upoly_set_q(segc_upoly *p, mpq_srcptr c);
/* p = x. */
void segc_upoly_set_x(segc_upoly *p);
/* The degree; -1 for the zero polynomial. */
long segc_upoly_degree(const segc_upoly *p);
/* r = a + b, a - b, a * b, a' (results may alias operands). */
void segc_upoly_add(segc_upoly *r, const segc_upoly *a, const segc_upoly *b);
void segc_upoly_sub(segc_upoly *r, const segc_upoly *a, const segc_upoly *b);
void segc_upoly_mul(segc_upoly *r, const segc_upoly *a, const segc_upoly *b);
void segc_upoly_deriv(segc_upoly *r, const segc_upoly *a);
/* q, r = a divided by b (b not zero); 'q' may be NULL. */
void segc_upoly_divrem(segc_upoly *q, segc_upoly *r, const segc_upoly *a,
	const segc_upoly *b);
/* g = the monic gcd of a and b (0 when both are 0). */
void segc_upoly_gcd(segc_upoly *g, const segc_upoly *a, const segc_upoly *b);
/* r = a(x) exactly. */
void segc_upoly_eval(mpq_t r, const segc_upoly *a, mpq_srcptr x);
/* The sign of a(x): -1, 0 or 1. */
int segc_upoly_sign_at(const segc_upoly *a, mpq_srcptr x);

/* ------------------------------------------------------------ real roots */

/* One real root, isolated: lo == hi for an exact rational root, else the
 * only root of the square-free part lies in the open interval (lo, hi). */
typedef struct segc_root {
	mpq_t lo, hi;
} segc_root;

/* The distinct real roots of a polynomial in a closed interval, in
 * increasing order, with the square-free part 'sqf' they are roots of. */
typedef struct segc_roots {
	size_t n, cap;
	segc_root *r;
	segc_upoly sqf;
} segc_roots;

void segc_roots_init(segc_roots *rs);
void segc_roots_clear(segc_roots *rs);
/* Isolates every distinct real root of 'p' (not zero) in [lo, hi] by a
 * Sturm sequence and bisection, each rational root found exactly; appends
 * them to 'rs' (which must be empty or hold roots of the same 'p'). */
void segc_upoly_roots(segc_roots *rs, const segc_upoly *p, mpq_srcptr lo,
	mpq_srcptr hi);
/* Narrows the interval of root 'i' by bisection until it is at most
 * 'width' wide (an exact root is left as it is). */
void segc_root_refine(segc_roots *rs, size_t i, mpq_srcptr width);
/* Root 'i' written in decimal: its value correctly rounded to 'digits'
 * significant digits (the interval narrowed until both ends round the
 * same way), or the exact fraction for a rational root.  malloc'd. */
char *segc_root_decimal(segc_roots *rs, size_t i, int digits);
/* Sets 'f' to floor and 'c' to ceil of root 'i' (narrowing it). */
void segc_root_floor_ceil(segc_roots *rs, size_t i, mpz_t f, mpz_t c);

/* ---------------------------------------------- one variable, piecewise */

/* A canonical formula of one variable 'var' cut into pieces on each of
 * which it is a rational function num/den (gcd 1, den monic): a point
 * (lo == hi) or an open interval (lo, hi), in order, covering the range.
 * The kernels ceil(log2(var)) and floor(log2(var)) are constant on each
 * piece, and max, min and if() of rational functions of var take one
 * argument; any other kernel of var is refused.  Where a max, min or
 * if() switches at an irrational point, the piece is a 'sliver': a
 * narrow interval around it that holds no integer, with no formula (the
 * pieces on either side hold the formulas that meet there). */
typedef struct segc_upiece {
	mpq_t lo, hi;
	segc_upoly num, den;
	int sliver;        /* a sliver: no formula, holds no integer */
	size_t root;       /* a sliver's switch, among 'breaks' */
} segc_upiece;

typedef struct segc_pieces {
	size_t n, cap;
	segc_upiece *p;
	size_t nkernels;   /* the kernels of var, constant on each piece */
	segc_roots breaks; /* the points where max, min or if() switch */
} segc_pieces;

/* Cuts 'f' (canonical, every name but 'var' bound) over [lo, hi] into
 * 'out' (initialised here); 0, or -1 with a diagnostic naming 'what'
 * (the command and the quantity) and 'file'. */
int segc_pieces_build(SEGC_KEEP segc_ctx *ctx, segc_pieces *out,
	SEGC_KEEP const segc_expr *f, const char *var, mpq_srcptr lo,
	mpq_srcptr hi, const char *file);
void segc_pieces_clear(segc_pieces *ps);

#endif
