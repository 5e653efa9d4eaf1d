/* check.h - comparing two formulas, as 'segc check' does: equal canonical
 * forms (segc_canonical() of <segc/segc.h>) prove them equal; otherwise
 * this looks for a point of the declared domains where they differ, each
 * evaluated exactly (or, where sqrt or log2 of a non-square or non-power
 * occurs, in rational intervals that surely hold the value): a witness of
 * a MISMATCH, or, when none is found, the number of points that agreed
 * (UNPROVEN).  The ownership rule of segc.h applies. */
#ifndef SEGC_CHECK_H
#define SEGC_CHECK_H

#include <segc/segc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The value of a formula at a point: 'lo' <= value <= 'hi', both
 * rational; exact when 'lo' == 'hi'. */
typedef struct segc_witness_value {
	mpq_t lo, hi;
} segc_witness_value;

/* The outcome of a search.  'found': a point where the two formulas
 * differ ('names'[i] = 'values'[i], sorted by name; 'a' and 'b' the two
 * values there, exactly equal never, and disjoint when not exact).
 * Otherwise the counts say what the points gave: 'exact' agreed exactly,
 * 'close' agreed to 'bits' bits (irrational values whose intervals never
 * separated), 'skipped' had no value on one side (a division by zero, a
 * sum too long to add up, a log2 of a non-positive number).
 * 'functions' are the definitions given to uninterpreted functions
 * ("f(x1) = 1 + 2*x1 + x1^2"): any function will do for them, and a
 * witness holds for those. */
/* A plain data record, public so that a caller reads the point and the
 * counts directly; only segc_witness_init/clear manage its memory. */
typedef struct segc_witness {
	int found;
	unsigned long tried, exact, close, skipped, bits;
	size_t n;
	char **names;
	mpq_t *values;
	segc_witness_value a, b;
	size_t nfunctions;
	char **functions;
} segc_witness;

/* Makes 'w' empty (nothing found, no counts); clear it after use. */
SEGC_API void segc_witness_init(SEGC_KEEP segc_witness *w);
/* Releases what 'w' holds and leaves it empty. */
SEGC_API void segc_witness_clear(SEGC_KEEP segc_witness *w);

/* Evaluates 'a' and 'b' at 'npoints' points of the domains 'dom' (names
 * not declared there take any rational value): the corners of the box and
 * next to them, small integers and rationals, a few large values, the
 * integrality declared respected; chosen by a fixed seed, so the result
 * is deterministic.  Stops at the first point where they differ.  Fills
 * 'w' (initialised) and returns 1 when a witness was found, else 0. */
SEGC_API int segc_witness_search(SEGC_KEEP segc_witness *w,
	SEGC_KEEP const segc_domains *dom, SEGC_KEEP const segc_expr *a,
	SEGC_KEEP const segc_expr *b, unsigned long npoints);
/* segc_witness_search() at the points 'admit' accepts (non-zero; NULL:
 * every point), called with 'arg' and the point: a point it refuses (one
 * outside the model's domain, where a loop count is negative) is skipped,
 * as one where a side has no value. */
typedef int segc_witness_admit(void *arg, size_t n,
	const char *const *names, const mpq_t *values);
SEGC_API int segc_witness_search_admitted(SEGC_KEEP segc_witness *w,
	SEGC_KEEP const segc_domains *dom, segc_witness_admit *admit,
	void *arg, SEGC_KEEP const segc_expr *a, SEGC_KEEP const segc_expr *b,
	unsigned long npoints);

/* segc_witness_search_admitted() with an exact evaluator of the two
 * formulas: 'exact' is called with 'exact_arg', the side (0: 'a', 1: 'b'),
 * the value to set and the point (the same names, sorted, at every
 * point of one search) and returns 0 with the exact value of that side
 * there, non-zero when it has none to give.  Where it gives both, they
 * decide the point; elsewhere the search evaluates the sides itself.
 * 'check' passes the evaluation plan of eval (segc_eval_pair_exact of
 * <segc/eval.h>), so that its sample points are valued as eval values
 * them; NULL: the search's own evaluation throughout. */
typedef int segc_witness_exact(void *exact_arg, int side, mpq_t value,
	size_t n, const char *const *names, const mpq_t *values);
SEGC_API int segc_witness_search_with(SEGC_KEEP segc_witness *w,
	SEGC_KEEP const segc_domains *dom, segc_witness_admit *admit,
	void *arg, segc_witness_exact *exact, void *exact_arg,
	SEGC_KEEP const segc_expr *a, SEGC_KEEP const segc_expr *b,
	unsigned long npoints);

/* Evaluates 'e' at the point 'names'[i] = 'values'[i] the way the search
 * does, to at least 'bits' bits where a value is irrational.  Returns 0 with
 * 'v' (initialised) set, -1 when 'e' has no value there (or one too costly
 * to find). */
SEGC_API int segc_witness_eval(SEGC_KEEP segc_witness_value *v,
	SEGC_KEEP const segc_expr *e, size_t n,
	SEGC_KEEP const char *const *names, SEGC_KEEP const mpq_t *values,
	unsigned long bits);

/* The text of 'v': the rational when exact, else "[LO, HI]" with
 * decimal ends rounded outwards (malloc'd). */
SEGC_API SEGC_GIVE char *segc_witness_value_text(
	SEGC_KEEP const segc_witness_value *v);

#ifdef __cplusplus
}
#endif

#endif
