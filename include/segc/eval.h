/* eval.h - a formula evaluated at a point with MPFR (what 'segc eval'
 * prints, point by point): rational parts exactly, the result correctly
 * rounded when it is rational.  The ownership rule of segc.h applies;
 * nothing here prints. */
#ifndef SEGC_EVAL_H
#define SEGC_EVAL_H

#include <mpfr.h>
#include <segc/segc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A point: names and their exact values.  A plain data record of
 * borrowed arrays, filled by the caller. */
typedef struct segc_point {
	size_t n;
	const char *const *names;
	const mpq_t *values;
} segc_point;

/* Evaluates 'e' at 'pt' to 'out' (whose precision is used): rational
 * subexpressions exactly, log2/sqrt of non-squares with MPFR, the result
 * correctly rounded when the value is rational.  An unbound name, an
 * uninterpreted call, a division by zero, a log2/sqrt out of domain: an
 * error recorded (naming it, located at 'where', which may be NULL) and
 * -1 returned; else 0. */
SEGC_API int segc_eval_mpfr(SEGC_KEEP segc_ctx *ctx, mpfr_t out,
	SEGC_KEEP const segc_expr *e, SEGC_KEEP const segc_point *pt,
	SEGC_KEEP const segc_where *where);

/* Evaluates the 'n' formulas 'e' at 'pt' into 'out' (n values, each
 * rounded to its own precision) as segc_eval_mpfr() does each, computing
 * once what they share (the components of one model: comp and total run
 * one recurrence).  0, or -1 when any fails (the error recorded; the
 * formulas run in the order given). */
SEGC_API int segc_eval_mpfr_n(SEGC_KEEP segc_ctx *ctx, size_t n,
	mpfr_ptr const *out, SEGC_KEEP const segc_expr *const *e,
	SEGC_KEEP const segc_point *pt, SEGC_KEEP const segc_where *where);
/* The arithmetic a formula's plan runs in: arb balls (the default of
 * segc_eval_mpfr() and segc_eval_mpfr_n()), whose precision is raised
 * until each result is certain, with the exact rationals of
 * SEGC_EVAL_RATIONALS where they cannot decide; or exact rationals
 * throughout (MPFR only past log2 and sqrt of non-squares and values too
 * large to keep exactly).  Both give the same correctly rounded result
 * of a rational formula, and the same errors. */
enum segc_eval_arith { SEGC_EVAL_BALLS, SEGC_EVAL_RATIONALS };

/* segc_eval_mpfr_n() in the arithmetic 'arith'. */
SEGC_API int segc_eval_mpfr_n_with(SEGC_KEEP segc_ctx *ctx,
	enum segc_eval_arith arith, size_t n, mpfr_ptr const *out,
	SEGC_KEEP const segc_expr *const *e, SEGC_KEEP const segc_point *pt,
	SEGC_KEEP const segc_where *where);

/* A box: names and the exact closed intervals [lo, hi] they range over
 * (lo <= hi).  A plain data record of borrowed arrays. */
typedef struct segc_box {
	size_t n;
	const char *const *names;
	const mpq_t *lo, *hi;
} segc_box;

/* Encloses the values of the 'n' formulas 'e' over the box 'box' (its
 * names among those of 'pt', whose values elsewhere are used): lo[i] is
 * at most, hi[i] at least every value of e[i] there (rounded outward to
 * their precisions), by interval evaluation over arb balls with the box
 * split where the enclosure is loose (see doc/analysis.md).  'slack'
 * (may be NULL) gets for each formula an estimate of the fraction of the
 * enclosure's width past the values seen at sample points.  0, or -1
 * with an error recorded: the error of the formulas at the centre of the
 * box, or what could not be enclosed (the number of terms of a sum that
 * varies over the box, an atom with no interval form). */
SEGC_API int segc_eval_enclose(SEGC_KEEP segc_ctx *ctx, size_t n,
	mpfr_ptr const *lo, mpfr_ptr const *hi, double *slack,
	SEGC_KEEP const segc_expr *const *e, SEGC_KEEP const segc_point *pt,
	SEGC_KEEP const segc_box *box, SEGC_KEEP const segc_where *where);

/* The exact value of 'e' at 'pt' into 'out', under the same rules and
 * limits as segc_eval_mpfr(): 0; 1 when the value is not rational (a
 * log2 or sqrt that is not exact) or too large to keep exactly (nothing
 * recorded then); -1 on an error, recorded as by segc_eval_mpfr(). */
SEGC_API int segc_eval_exact(SEGC_KEEP segc_ctx *ctx, mpq_t out,
	SEGC_KEEP const segc_expr *e, SEGC_KEEP const segc_point *pt,
	SEGC_KEEP const segc_where *where);

/* A formula compiled once into the plan segc_eval_mpfr() runs, for the
 * commands that evaluate it at many points (optimize's and solve's scans,
 * whatif's rows): the points must give the names of the 'pt' it was
 * compiled for (its values are not used), looked up by name at each run.
 * NULL (the error recorded) when the formula cannot be compiled. */
typedef struct segc_eval_plan segc_eval_plan;
SEGC_API SEGC_GIVE segc_eval_plan *segc_eval_plan_new(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_expr *e, SEGC_KEEP const segc_point *pt);
SEGC_API void segc_eval_plan_free(SEGC_TAKE segc_eval_plan *ep);
/* segc_eval_exact() and segc_eval_mpfr() of the plan's formula at 'pt':
 * the same values, results and errors. */
SEGC_API int segc_eval_plan_exact(SEGC_KEEP segc_ctx *ctx, mpq_t out,
	SEGC_KEEP const segc_eval_plan *ep, SEGC_KEEP const segc_point *pt,
	SEGC_KEEP const segc_where *where);
SEGC_API int segc_eval_plan_mpfr(SEGC_KEEP segc_ctx *ctx, mpfr_t out,
	SEGC_KEEP const segc_eval_plan *ep, SEGC_KEEP const segc_point *pt,
	SEGC_KEEP const segc_where *where);

/* Two formulas valued exactly by their plans at the points of a
 * witness search (<segc/check.h>): pass segc_eval_pair_exact and the
 * pair to segc_witness_search_with(), so that the points are valued as
 * segc_eval_plan_exact() values them.  The plans are compiled at the
 * first point and run at each; 'a' and 'b' are borrowed (they must
 * outlive the pair), the limits are those of 'ctx' (copied, but each
 * side at each point may use only a hundredth of max_eval_terms), and the
 * errors of a point are not recorded: a side with no exact value there
 * (an error, a limit, an irrational value, an uninterpreted function)
 * is left to the search. */
typedef struct segc_eval_pair segc_eval_pair;
SEGC_API SEGC_GIVE segc_eval_pair *segc_eval_pair_new(
	SEGC_KEEP segc_ctx *ctx, SEGC_KEEP const segc_expr *a,
	SEGC_KEEP const segc_expr *b);
SEGC_API void segc_eval_pair_free(SEGC_TAKE segc_eval_pair *p);
/* The segc_witness_exact of a pair 'arg': 0 with the exact value of
 * side 'side' (0: 'a', 1: 'b') at the point, else 1. */
SEGC_API int segc_eval_pair_exact(void *arg, int side, mpq_t value,
	size_t n, SEGC_KEEP const char *const *names,
	SEGC_KEEP const mpq_t *values);

/* Encloses the values of the 'n' formulas 'e' at 'pt' in doubles,
 * cheaply: 0 with lo[i] <= the exact value of e[i] <= hi[i], both
 * finite; 1 when doubles with a certified error do not give them (a
 * comparison or rounding they do not decide, an error, a limit, an atom
 * they do not evaluate): nothing is recorded in 'ctx' (its limits are
 * read), and segc_eval_mpfr_n() gives the value or the error.  When both
 * ends print alike to some digits, so does the exact value. */
SEGC_API int segc_eval_double_n(SEGC_KEEP segc_ctx *ctx, size_t n,
	double *lo, double *hi, SEGC_KEEP const segc_expr *const *e,
	SEGC_KEEP const segc_point *pt);
/* segc_eval_double_n() of the plan's formula, declining also where its
 * value is not rational (a log2 or sqrt that is not exact), where
 * segc_eval_plan_exact() gives no value. */
SEGC_API int segc_eval_plan_double(SEGC_KEEP segc_ctx *ctx, double *lo,
	double *hi, SEGC_KEEP const segc_eval_plan *ep,
	SEGC_KEEP const segc_point *pt);

/* The free names of 'e' (or, when 'calls' is non-zero, the names of its
 * uninterpreted calls): sorted, distinct; '*out' gets a malloc'd array
 * (GIVEn, NULL when empty; free() it) of strings borrowed from 'e'.
 * Returns how many. */
SEGC_API size_t segc_output_names(SEGC_KEEP const segc_expr *e, int calls,
	SEGC_KEEP const char ***out);

#ifdef __cplusplus
}
#endif

#endif
