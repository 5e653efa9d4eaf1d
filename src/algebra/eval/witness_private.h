/* witness_private.h - between the rational intervals (witness_ival.c),
 * the evaluation in them (witness.c) and the search for a point
 * (witness_search.c).  Not installed. */
#ifndef SEGC_WITNESS_PRIVATE_H
#define SEGC_WITNESS_PRIVATE_H

#include <mpfr.h>
#include "expr/expr_private.h"
#include "algebra/eval/witness.h"

/* What an evaluation gives: a value, no value at all (a division by zero),
 * or no decision at this precision (a condition or a sqrt argument whose
 * interval straddles the boundary). */
enum { EV_OK = 0, EV_UNDEFINED = -1, EV_UNDECIDED = -2 };

typedef segc_witness_value ival;

/* Bits of an exact numerator or denominator beyond which a point is
 * given up (a power of a large value). */
#define MAX_EXACT_BITS 65536UL

/* A counter bound by an enclosing sum. */
struct binding {
	const char *name;
	mpq_srcptr value;
	const struct binding *next;
};

/* One evaluation: the point, the precision and the sum terms left. */
struct evaluator {
	size_t n;
	const char *const *names;
	const mpq_t *values;
	mpfr_prec_t prec;
	unsigned long terms_left;
};

/* Initialises 'v' to exactly 0. */
void segc_witness_iv_init(ival *v);
/* Releases 'v'. */
void segc_witness_iv_clear(ival *v);
/* Non-zero when 'v' is exact. */
int segc_witness_iv_exact(const ival *v);
/* Makes 'v' exactly 'q'. */
void segc_witness_iv_set_q(ival *v, mpq_srcptr q);
/* Copies 'a' to 'r'. */
void segc_witness_iv_set(ival *r, const ival *a);
/* Keeps the ends of 'v' small: an inexact interval is widened to ends of
 * the working precision; an exact value too large gives up the point. */
int segc_witness_iv_settle(struct evaluator *ev, ival *v);
/* r = a + b ('sign' -1: a - b). */
void segc_witness_iv_add(ival *r, const ival *a, const ival *b, int sign);
/* r = a * b: the smallest and largest of the products of the ends. */
void segc_witness_iv_mul(ival *r, const ival *a, const ival *b);
/* The sign of 'v': 1, -1, 0 (exactly zero), or 2 when it holds 0 and is
 * not exact. */
int segc_witness_iv_sign(const ival *v);
/* r = a^k for an integer k (a^0 = 1). */
int segc_witness_iv_pow(ival *r, const ival *a, long k);
/* r = the 'root'-th root of a (root >= 2) or log2(a) (root 0): exact
 * where the value is rational, else an interval from MPFR's directed
 * roundings (both increasing functions). */
int segc_witness_iv_root_log(struct evaluator *ev, ival *r, const ival *a,
	unsigned long root);
/* r = the function of one number 'id' of 'a': sqrt and log2 by the
 * roots and logarithms above (the irrational parts this search knows),
 * any other by its row's exact operation at an exact argument with a
 * rational value; else undecided. */
int segc_witness_iv_unary(struct evaluator *ev, ival *r,
	enum segc_builtin id, const ival *a);
/* r = ceil(a) or floor(a), an interval when a's ends round apart. */
void segc_witness_iv_round_int(ival *r, const ival *a, int isceil);
/* r = max (ismax) or min of the values 'v'[0..n-1]. */
void segc_witness_iv_extremum(ival *r, const ival *v, size_t n, int ismax);
/* mva_mem(p, a, b): R(1) = b, R(k+1) = (1 + k*R(k)/(a + R(k)))*b. */
int segc_witness_iv_mva(struct evaluator *ev, ival *r, const ival *v);
/* r = the value of the uninterpreted function 'name' at 'v'[0..n-1]. */
void segc_witness_iv_function(ival *r, const char *name, const ival *v,
	size_t n);
/* The atom maxplus(...) or taskpath(...) 'id' at the exact values 'v',
 * by the evaluators of eval (maxplus.c, taskpath.c), each iteration or
 * instance counting as one of the terms a point may take. */
int segc_witness_iv_recurrence(struct evaluator *ev, ival *r,
	enum segc_builtin id, const ival *v, size_t n);

/* The coefficients c0, c1 of the polynomial that stands for the
 * uninterpreted function 'name'. */
void segc_witness_function_coeffs(const char *name, long *c0, long *c1);
/* Non-zero when the call 'e' is of a function the language defines or an
 * internal one. */
int segc_witness_is_builtin(const segc_expr *e);
/* Evaluates 'e' at the point of 'ev' at precision 'bits': EV_OK,
 * EV_UNDEFINED or EV_UNDECIDED. */
int segc_witness_eval_at(struct evaluator *ev, ival *r, const segc_expr *e,
	unsigned long bits);

#endif
