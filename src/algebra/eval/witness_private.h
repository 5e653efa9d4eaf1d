/* witness_private.h - between the evaluation in rational intervals
 * (witness.c) and the search for a point (witness_search.c).  Not
 * installed. */
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
