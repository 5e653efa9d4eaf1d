/* canon_private.h - the state shared by the modules of the canonical form:
 * rational functions over a table of atoms (canon*.c), simplification of
 * kernels (kernels.c, kernel_*.c) and closed forms of sums (summation.c).
 * Not installed. */
#ifndef SEGC_CANON_PRIVATE_H
#define SEGC_CANON_PRIVATE_H

#include <segc/segc.h>
#include "expr/expr_private.h"
#include "algebra/poly/poly.h"

/* A rational function num/den.  Invariant after every operation: den has
 * non-negative exponents, no monomial content, and is 1 or has at least
 * two terms. */
typedef struct segc_rf {
	segc_poly num, den;
} segc_rf;

/* The modes of one canonicalisation: what the conversion is inside of,
 * which changes what some rules may do.  Every mode is set here and
 * nowhere else, in the field's own words: the function named sets it
 * around its work and restores the value it found (a depth is raised and
 * lowered again, a stage saved and put back), except check_only, set
 * once for a whole conversion.  The readers are named too; no other file
 * reads a mode.
 *   combining   depth; raised by kernel_extremum.c (the normal form of
 *               an extremum's alternatives) and kernel_dual.c (an
 *               extremum written as its dual); read by canon_normal.c and
 *               segc_kernel_combine (kernel_extremum.c): no coefficient
 *               is combined into an extremum while one is being built.
 *   relaxing    depth; raised by kernel_sign.c around a sign test with
 *               the roundings of a polynomial replaced by their bounds;
 *               read there: at SEGC_RELAX_DEPTH no deeper relaxation.
 *   quasi       depth; raised by segc_sum_quasi (summation_quasi.c)
 *               around the sums of each residue class; read by
 *               summation.c: no sum by residues inside one.
 *   splits      count; raised by segc_sum_split_piece
 *               (summation_split.c), reset to 0 for each new sum and put
 *               back after it by segc_sum_to_rf (summation.c); read by
 *               summation_split.c: at SEGC_SUM_SPLITS no more splits.
 *   sum_stage   stage of the normal form of the sum being converted;
 *               set to 0 for each new sum and put back by segc_sum_to_rf
 *               (summation.c), set for each stage by sum_at
 *               (summation_norm.c); read by segc_sum_normal_atom
 *               (summation_norm.c).
 *   check_only  set by segc_canonical_refused (canon.c) for its whole
 *               conversion: a sum whose bounds are not both numbers, and
 *               a max or min of symbolic arguments, stay atoms once their
 *               parts are converted; read by segc_sum_to_rf (summation.c)
 *               and the kernels (kernels.c). */
typedef struct segc_canon_mode {
	int combining;
	int relaxing;
	int quasi;
	int splits;
	int sum_stage;
	int check_only;
} segc_canon_mode;

/* Values at points of the domains, cached (kernel_points.c). */
typedef struct segc_point_cache segc_point_cache;
/* Releases 'c' (may be NULL). */
void segc_point_cache_free(segc_point_cache *c);

/* Factorials and Bernoulli numbers modulo word primes, cached for the
 * closed sums (sum_primes.c). */
typedef struct segc_sum_primes segc_sum_primes;
/* Releases 'c' (may be NULL). */
void segc_sum_primes_free(segc_sum_primes *c);

/* Entries of the cache of recent atoms in segc_canon (a power of 2). */
#define SEGC_CANON_RECENT 8

/* One canonicalisation: the atoms met so far (variable i of every
 * polynomial is atoms[i]), memoised conversions, cached Bernoulli
 * numbers. */
typedef struct segc_canon {
	segc_ctx *ctx;
	const segc_domains *dom;
	segc_domains *own_dom;    /* 'dom' with the counters of sums declared
	                           * (summation.c), or NULL */
	segc_poly_lim lim;
	segc_expr **atoms;        /* references held */
	unsigned char *flags;     /* SEGC_ATOM_* of each atom */
	size_t natoms, cap;
	segc_expr_map atom_index; /* atom -> index + 1 */
	/* the last atoms looked up, by their address (segc_canon_var): a
	 * long sum names the same few atoms again and again */
	const segc_expr *recent[SEGC_CANON_RECENT];
	size_t recent_index[SEGC_CANON_RECENT];
	segc_expr_map memo;       /* node -> segc_rf * (keys referenced) */
	segc_expr_map seen;       /* nodes converted once */
	mpq_t *bernoulli;         /* B_0 .. B_{nbern-1}, B_1 = -1/2 */
	size_t nbern;
	segc_sum_primes *primes;  /* the same modulo word primes, or NULL */
	unsigned long fresh;      /* counter for names of bound variables */
	int has_extrema;          /* some atom is a max or min */
	int has_roots;            /* some atom is a root x^(1/q), q >= 3 */
	int has_ifs;              /* some atom is an if (kernel_ifmerge.c) */
	int has_sqrts;            /* some atom is a sqrt (canon_normal.c,
	                           * kernel_sign.c, kernel_content.c) */
	const char **bound;       /* counters of the sums being converted */
	size_t nbound, capbound;
	unsigned char *lowb;      /* lower bound known of each atom: 0 not
	                           * yet computed, 1 none, 2 >= 0, 3 >= 1,
	                           * 4 >= lowq[i] (a sqrt) */
	unsigned char *intb;      /* whether each max, min or if atom is an
	                           * integer on the box: 0 not yet computed,
	                           * 1 not proved, 2 proved (kernel_sign.c) */
	mpq_t zero, one;          /* the bounds that 'lowb' stands for */
	mpq_ptr *lowq;            /* the lower bound of each sqrt atom whose
	                           * lowb is 4, else NULL (kernel_sign.c);
	                           * each allocated alone, so that a bound
	                           * given out stays where it is */
	size_t nlowq;             /* entries of 'lowq' */
	segc_canon_mode mode;     /* see segc_canon_mode */
	segc_point_cache *points; /* values of alternatives at points of
	                           * 'dom' before any counter is declared
	                           * (kernel_extremum.c), or NULL */
} segc_canon;

/* What an atom is, for the sign test and the normal form of max/min. */
enum {
	SEGC_ATOM_EXTREMUM = 1,  /* a max or a min */
	SEGC_ATOM_UNBOUNDED = 2, /* no bound known: neither declared nor a sqrt */
	SEGC_ATOM_NONNEG = 4     /* >= 0 with no other bound: declared with
	                          * minimum 0 and no maximum, or a sqrt */
};

void segc_rf_init(segc_rf *r);
void segc_rf_clear(segc_rf *r);
void segc_rf_set(segc_rf *r, const segc_rf *a);
void segc_rf_set_q(segc_canon *st, segc_rf *r, mpq_srcptr c);
void segc_rf_set_si(segc_canon *st, segc_rf *r, long c);
int segc_rf_is_poly(const segc_rf *r);
int segc_rf_add(segc_canon *st, segc_rf *r, segc_rf *a, segc_rf *b);
int segc_rf_sub(segc_canon *st, segc_rf *r, segc_rf *a, segc_rf *b);
int segc_rf_mul(segc_canon *st, segc_rf *r, segc_rf *a, segc_rf *b);
int segc_rf_div(segc_canon *st, segc_rf *r, segc_rf *a, segc_rf *b);
int segc_rf_pow(segc_canon *st, segc_rf *r, segc_rf *a, long e);
/* Restores the invariant of segc_rf 'r' (monomial content of the
 * denominator into the numerator); 0 or -1 with a diagnostic. */
int segc_rf_absorb(segc_canon *st, segc_rf *r);
/* r = the atom 'atom' itself (its variable, added if new). */
void segc_rf_atom(segc_canon *st, segc_rf *r, segc_expr *atom);
/* r = 'a' with variable 'v' replaced by 'x' ('r' may be 'a'): 0, -1 on
 * error, 1 when 'a' has a negative power of x_v. */
int segc_rf_subst_var(segc_canon *st, segc_rf *r, const segc_rf *a,
	size_t v, segc_rf *x);

/* The variable of 'atom' (a canonical SYM, CALL or SUM), added if new. */
size_t segc_canon_var(segc_canon *st, segc_expr *atom);
/* r = the rational function of 'e'; 0 or -1 with a diagnostic. */
int segc_canon_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r);
/* The canonical expression of 'r' (which is normalised on the way). */
segc_expr *segc_canon_from_rf(segc_canon *st, segc_rf *r);
/* canon_write.c: the variables that occur in 'p', in the order of their
 * atoms by segc_expr_cmp ('*k' set to their number): byrank[r] is the
 * variable of rank r (allocated). */
size_t *segc_canon_used_by_rank(const segc_canon *st, const segc_poly *p,
	size_t *k);
/* canon_write.c: the term indices of 'p' in output order ('byrank' as
 * segc_canon_used_by_rank gives it, k variables; allocated), or NULL
 * when that is the order of 'p' (read through segc_canon_term_at). */
size_t *segc_canon_output_order(const segc_poly *p, const size_t *byrank,
	size_t k);
/* The term of 'p' at place 'i' of the output order 'ix' of
 * segc_canon_output_order. */
static inline size_t segc_canon_term_at(const size_t *ix, size_t i)
{
	return ix ? ix[i] : i;
}
/* canon_write.c: the expression of the polynomial 'p' of 'st' in output
 * order.  When 'take' is non-zero 'p' may be taken (left zero): a long
 * sum then keeps it and makes its terms' nodes only when they are read
 * (segc_expr_store_defer). */
segc_expr *segc_canon_poly_expr(segc_canon *st, segc_poly *p, int take);
/* canon_write.c: the work of writing 'p' as an expression, charged
 * before it is written. */
double segc_canon_poly_expr_work(const segc_poly *p);
/* to_rf then from_rf. */
segc_expr *segc_canon_expr(segc_canon *st, const segc_expr *e);
/* Records an input error whose message 'fmt' has one %s, which becomes
 * 'e' as text (cut to a few dozen characters). */
void segc_canon_refuse(segc_canon *st, const char *fmt, const segc_expr *e);

/* canon_root.c: the index q of the root atom 'a' (2 for sqrt(x), q for
 * x^(1/q), q >= 3) and its base in '*base'; 0 for any other atom. */
unsigned long segc_root_index(const segc_expr *a, const segc_expr **base);
/* canon_root.c: r = 'base' ^ (p/q) for q >= 1 (p/q in lowest terms); 0,
 * or -1 with a diagnostic (a negative number, max_exponent). */
int segc_root_to_rf(segc_canon *st, segc_rf *r, const segc_expr *base,
	long p, unsigned long q);
/* canon_root.c: merges the roots of one base in each term of 'r' and
 * brings roots of index >= 3 to an exponent prime to their index and
 * below it; '*changed' says whether 'r' was rewritten. */
int segc_root_reduce(segc_canon *st, segc_rf *r, int *changed);
/* canon_root.c: divides out of the quotient 'r' the common factor that
 * shows once each base x with a root r = x^(1/q) (q >= 3) is written r^q:
 * (N - 1)/(N^(1/3) - 1) = N^(2/3) + N^(1/3) + 1; 0 or -1. */
int segc_root_cancel(segc_canon *st, segc_rf *r);
/* canon_root.c: r = sqrt('arg') (canonical) when 'arg' is a monomial
 * holding a root atom (sqrt(N^(1/3)) = N^(1/6)): 1; 0 when it is not
 * one (the sqrt kernel applies), -1 with a diagnostic. */
int segc_root_sqrt(segc_canon *st, segc_rf *r, const segc_expr *arg);

/* kernels.c: simplifies the built-in call 'name' of canonical 'args'
 * (taken); returns a canonical expression, or NULL with a diagnostic. */
segc_expr *segc_kernel_simplify(segc_canon *st, enum segc_builtin id,
	const char *name, size_t n, segc_expr **args);
/* kernel_extremum.c: normalises the extrema of polynomial 'r': an
 * extremum atom multiplied by a coefficient K of two or more terms, free
 * of extrema and provably >= 0, becomes one atom: K*max(x, y) =
 * max(K*x, K*y).  Several extrema of a sum stay separate atoms
 * (doc/algebra.md); 0 or -1 with a diagnostic. */
int segc_kernel_combine(segc_canon *st, segc_rf *r);
/* kernel_ifmerge.c: the ifs of polynomial 'r' on one canonical condition
 * (each alone in its terms, to the first power, with coefficients free
 * of ifs) become one if of the combined branches; 0 or -1. */
int segc_kernel_if_merge(segc_canon *st, segc_rf *r);
/* kernel_dual.c: writes an extremum atom E of the numerator of 'r' as its
 * dual (max(u) = T - min(T - u)) where that gives fewer terms; 0 or -1. */
int segc_kernel_dual(segc_canon *st, segc_rf *r);
/* kernel_sign.c: the signs that 'r' provably has on the declared box. */
enum {
	SEGC_SIGN_NONNEG = SEGC_PROVED_NONNEG, SEGC_SIGN_NONPOS = SEGC_PROVED_NONPOS,
	SEGC_SIGN_POS = SEGC_PROVED_POS, SEGC_SIGN_NEG = SEGC_PROVED_NEG
};
unsigned segc_kernel_sign(segc_canon *st, segc_rf *r);
/* Non-zero when the polynomial 'p' takes integer values on the box. */
int segc_kernel_integer_valued(segc_canon *st, const segc_poly *p);

/* domains.c: a copy of 'd' (NULL: an empty set). */
segc_domains *segc_domains_copy(const segc_domains *d);
/* summation.c: r = the sum node 'e' in closed form or as an atom. */
int segc_sum_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r);
/* Non-zero when 'name' is the counter of a sum being converted (an
 * integer). */
int segc_canon_is_counter(const segc_canon *st, const char *name);
/* summation.c: r = the canonical form of 'e' (taken) with 'name' a
 * counter; 0 or -1. */
int segc_sum_counter_to_rf(segc_canon *st, const char *name, segc_expr *e,
	segc_rf *r);
/* summation.c: makes 'name' (borrowed until the matching pop) an integer
 * counter, and undoes the last such push. */
void segc_sum_push_counter(segc_canon *st, const char *name);
void segc_sum_pop_counter(segc_canon *st);
/* summation_split.c: non-zero when variable 'w' of 'body' is a piece that
 * holds the counter 'name' (an if, a max or a min). */
int segc_sum_is_piece(segc_canon *st, const segc_rf *body, size_t w,
	const char *name);
/* summation_split.c: r = the sum of 'body' over [lo, hi] split at the
 * piece of variable 'w'; 1 when it cannot be split there, 0 or -1. */
int segc_sum_split_piece(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, size_t w, const segc_expr *lo, const segc_expr *hi);
/* summation_split.c: non-zero when the piece of variable 'w' is an if
 * that the domains decide on the whole of [lo, hi] (split it first). */
int segc_sum_piece_decided(segc_canon *st, size_t w, const char *name,
	const segc_expr *lo, const segc_expr *hi);
/* summation.c: the variable of the name 'name' if it is already an atom,
 * else -1. */
size_t segc_sum_var_of_name(segc_canon *st, const char *name);
/* summation.c: non-zero when variable 'w' is an atom other than 'name'
 * itself in which 'name' occurs. */
int segc_sum_holds_counter(segc_canon *st, size_t w, const char *name);
/* summation.c: r = the sum of 'body' (the counter 'name' a name in it)
 * over the integers of [lo, hi], integer bounds; 0 or -1. */
int segc_sum_range(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, const segc_expr *lo, const segc_expr *hi);
/* summation.c: the canonical form of f(x), f ceil or floor. */
segc_expr *segc_sum_rounded(segc_canon *st, enum segc_builtin f,
	segc_expr *x);
/* summation.c: r = the atom SUM(_s<k>, lo, hi, body) of counter 'name'
 * for a body that is not summed in closed form ('lo' and 'hi'
 * canonical), or the terms one by one when lo and hi are close numbers;
 * 0 or -1. */
int segc_sum_atom(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, const segc_expr *lo, const segc_expr *hi);
/* summation_norm.c: r = the sum of 'body' over [lo, hi] (integer
 * bounds), whose terms have no closed form, in normal form: shifted,
 * oriented, anchored, the lower bound moved to 1; 0 or -1. */
int segc_sum_normal_atom(segc_canon *st, segc_rf *r, const char *name,
	segc_rf *body, const segc_expr *lo, const segc_expr *hi);
/* summation.c: non-zero when lo and hi are numbers so close that a sum
 * without a closed form is added up term by term. */
int segc_sum_few_terms(const segc_expr *lo, const segc_expr *hi);
/* summation_poly.c: r = sum_{v=lo}^{hi} num/den in closed form (num
 * polynomial in x_v, den free of it); 0 or -1. */
int segc_sum_closed_form(segc_canon *st, segc_rf *r, const segc_poly *num,
	const segc_poly *den, size_t v, segc_rf *lo, segc_rf *hi);
/* summation_quasi.c: the period after which every floor and ceil atom of
 * 'p' that holds the counter 'name' grows by an integer; 0 when there is
 * none such. */
unsigned long segc_sum_quasi_period(segc_canon *st, const segc_poly *p,
	const char *name);
/* summation_quasi.c: the period of the floor and ceil of the counter
 * anywhere in 'body', 2 .. its largest, or 0. */
unsigned long segc_sum_body_period(segc_canon *st, segc_rf *body,
	const char *name);
/* summation_quasi.c: r = the sum over [lo, hi] of the terms 'p' (over
 * 'den'), a quasi-polynomial of period 'q', by residues; 0 or -1. */
int segc_sum_quasi(segc_canon *st, segc_rf *r, const char *name,
	const segc_poly *p, const segc_poly *den, const segc_expr *lo,
	const segc_expr *hi, unsigned long q);

/* piecewise.c: conditions and if(c, a, b).  A condition call is a
 * relation (<, <=, >, >=, ==, !=) or and/or/not. */
int segc_is_condition_op(const char *name);
/* The canonical form of condition 'c', negated when 'neg': the condition
 * with '*truth' = -1, or NULL with '*truth' 1 (true), 0 (false) or -2
 * (an error, recorded). */
segc_expr *segc_cond_canon(segc_canon *st, const segc_expr *c, int neg,
	int *truth);
/* Non-zero when 'e' holds a call of if. */
int segc_has_if(const segc_expr *e);
/* r = the if node 'e' (cond, a, b) in canonical form. */
int segc_if_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r);
/* r = if(c, a, b) for any expressions (borrowed). */
int segc_if_make(segc_canon *st, segc_rf *r, const segc_expr *c,
	const segc_expr *a, const segc_expr *b);

#endif
