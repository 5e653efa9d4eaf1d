/* evalmp_private.h - what the pieces of the MPFR evaluator share
 * (evalmp.c: the walk over a formula, sums and the precision loop;
 * evalmp_val.c: values with rigorous error bounds and their arithmetic;
 * evalmp_call.c: the built-in calls and conditions). */
#ifndef SEGC_EVALMP_PRIVATE_H
#define SEGC_EVALMP_PRIVATE_H

#include "output/output.h"
#include "expr/expr_private.h"
#include "expr/builtin.h"

/* An exact value larger than this (bits of numerator and denominator) is
 * continued in MPFR: exactness is not worth unbounded memory. */
#define MAX_EXACT_BITS 100000UL
/* Most terms a sum binder may expand to at one point, and the number of
 * terms beyond which its closed form is evaluated instead. */
#define MAX_SUM_TERMS 10000000L
#define SUM_CLOSED_FORM_TERMS 1000L
/* The precision of error bounds. */
#define ERR_PREC 64

/* A value: exact (q) or approximate (f, within err of the true value). */
typedef struct segc_val {
	int exact;
	mpq_t q;
	mpfr_t f;
	mpfr_t err;
} segc_val;

/* A binder variable in scope with its value. */
typedef struct segc_eval_binder {
	const char *name;
	mpq_t value;
} segc_eval_binder;

/* The state of one evaluation. */
typedef struct segc_evaluator {
	segc_ctx *ctx;
	const segc_point *pt;
	const segc_where *where;
	mpfr_prec_t prec;
	segc_eval_binder *binders;
	size_t nbinders, capbinders;
	segc_expr_map memo;      /* node -> val*, only outside binders */
	segc_expr **kept;        /* closed forms computed, alive till the end */
	size_t nkept;
	unsigned long terms;     /* terms of sums, iterations and instances
				  * so far (max_eval_terms) */
	int no_closed;           /* no closed forms of sums (inside one) */
	unsigned long closed_n;  /* inside a closed form: the terms of the
				  * sum it closes */
	int closed_long;         /* the closed form holds a sum nearly as
				  * long as the one it closes: given up */
	int undecided;           /* a decision needs more precision */
	char *undecided_what;    /* what, for the message (malloc'd) */
} segc_evaluator;

enum segc_val_op { SEGC_VAL_ADD, SEGC_VAL_MUL, SEGC_VAL_DIV };

/* ---------------------------------------------- values (evalmp_val.c) */

/* Makes 'v' the exact value 0 at precision 'prec'. */
void segc_val_init(segc_val *v, mpfr_prec_t prec);
/* Releases 'v'. */
void segc_val_clear(segc_val *v);
/* Copies 'src' to 'dst'. */
void segc_val_set(segc_val *dst, const segc_val *src);
/* Makes 'v' approximate (its f holds the value, err bounds the error). */
void segc_val_inexact(segc_val *v);
/* Sign of the approximation of 'v'. */
int segc_val_sgn(const segc_val *v);
/* Non-zero when the sign of 'v' stands beyond its error bound. */
int segc_val_sign_certain(const segc_val *v);
/* Compares the approximations of 'a' and 'b'. */
int segc_val_cmp(const segc_val *a, const segc_val *b);
/* The size of the exact value of 'v' in bits. */
unsigned long segc_val_bits(const segc_val *v);
/* acc = acc OP x, exactly when both are exact and not too large. */
void segc_val_op(segc_val *acc, segc_val *x, enum segc_val_op op);
/* Raises the exact 'q' to the integer 'k' (may be negative, q != 0). */
void segc_val_mpq_pow_si(mpq_t q, long k);
/* Raises the approximate 'v' to the integer 'k', with its error bound. */
void segc_val_pow_inexact(segc_val *v, long k);
/* Sets 'z' to ceil (when 'up') or floor of 'v'; -1 when not certain. */
int segc_val_round_to_z(mpz_t z, const segc_val *v, int up);
/* log2 of the positive value in 'out', exactly when a power of 2. */
void segc_val_log2(segc_val *out);
/* sqrt of the non-negative value in 'out', exactly when a square. */
void segc_val_sqrt(segc_val *out);
/* 2^v of the value in 'out', exactly of a small integer. */
void segc_val_exp2(segc_val *out);
/* The 'q'-th root (q >= 2) of the non-negative value in 'out', exactly
 * when it is a q-th power. */
void segc_val_root(segc_val *out, unsigned long q);
/* Compares 'a' and 'b' into '*c'; -1 when the order is not certain. */
int segc_val_compare_certain(const segc_val *a, const segc_val *b,
	int *c);

/* ------------------------------------------------ the walk (evalmp.c) */

/* Records an evaluation error; returns -1. */
int segc_eval_fail(segc_evaluator *ev, enum segc_status code,
	const char *fmt, const char *name);
/* Records that deciding 'what' needs more precision; returns -1. */
int segc_eval_undecided(segc_evaluator *ev, const char *what,
	const char *name);
/* Evaluates 'e' into a fresh value 'v' (to be cleared by the caller). */
int segc_eval_new(segc_evaluator *ev, const segc_expr *e, segc_val *v);
/* Evaluates 'e' into 'out', through the memo outside binders. */
int segc_eval_node(segc_evaluator *ev, const segc_expr *e, segc_val *out);
/* Counts 'n' more terms against max_eval_terms; -1 with the error 'fmt'
 * (its %lu the limit) recorded once past it. */
int segc_eval_charge(segc_evaluator *ev, unsigned long n, const char *fmt);
/* The closed form of the sum 'e' from 'lo' to 'hi' (binders in scope
 * pushed) into 'out': 0, 1 when it has none, -1 on an error. */
int segc_eval_closed_sum(segc_evaluator *ev, const segc_expr *e,
	mpz_srcptr lo, mpz_srcptr hi, segc_val *out);
/* Pushes the binder 'name' (value 0); pops the innermost binder. */
void segc_eval_push_binder(segc_evaluator *ev, const char *name);
void segc_eval_pop_binder(segc_evaluator *ev);

/* ------------------------------------------ built-ins (evalmp_call.c) */

/* A call: a built-in function, else an error naming it. */
int segc_eval_call(segc_evaluator *ev, const segc_expr *e, segc_val *out);
/* The atom taskpath(...) of indexed nodes (evalmp_taskpath.c). */
int segc_eval_taskpath(segc_evaluator *ev, const segc_expr *e,
	segc_val *out);
/* The same from the exact values 'q' of its 'n' arguments. */
int segc_eval_taskpath_q(segc_evaluator *ev, size_t n, const mpq_t *q,
	segc_val *out);
/* max ('want' 1) or min ('want' -1) of the 'n' values 'x' into 'out'. */
void segc_eval_extremum_vals(segc_val *const *x, size_t n, segc_val *out,
	int want);
/* ceil, floor, log2 or sqrt ('id', named 'f') of the value in 'out', in
 * place. */
int segc_eval_unary_val(segc_evaluator *ev, enum segc_builtin id,
	const char *f, segc_val *out);
/* The value in 'out' to the power 'y', a rational that is not an
 * integer (x^(p/q) = (x^(1/q))^p, defined for x >= 0), in place. */
int segc_eval_root_pow(segc_evaluator *ev, segc_val *out, mpq_srcptr y);
/* mva_mem of the values 'p' (changed), 'a', 'b' into 'out'. */
int segc_eval_mva_vals(segc_evaluator *ev, segc_val *p, segc_val *a,
	segc_val *b, segc_val *out);
/* The truth of the relation 'e' between the values 'a' and 'b'. */
int segc_eval_relation_vals(segc_evaluator *ev, const segc_expr *e,
	const segc_val *a, const segc_val *b, int *truth);
/* The recurrence maxplus(...) of the exact values 'q' into 'out', its
 * iterations counted against max_eval_terms. */
int segc_eval_maxplus_q(segc_evaluator *ev, size_t n, const mpq_t *q,
	segc_val *out);

#endif
