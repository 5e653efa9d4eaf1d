/* poly.h - sparse multivariate (Laurent) polynomials over Q.
 *
 * A polynomial is an array of terms sorted by decreasing monomial in the
 * lexicographic order of its variables (variable 0 most significant).  A
 * monomial is a vector of 'nvars' signed exponents; a variable is an index
 * into a table kept by the caller (the canonical form keeps a table of
 * atoms).  Two polynomials with different 'nvars' are combined as if the
 * shorter one had zero exponents for the missing trailing variables, which
 * keeps both sorted.  Coefficients are GMP rationals, never zero (held
 * as rationals of their own, or as read-only views of one block of
 * limbs: see poly.c; the difference is private to src/algebra/poly/).
 *
 * Every operation that can grow a polynomial takes a segc_poly_lim: the
 * limits on terms, exponents and coefficient bits, and the context where
 * an exceeded limit is reported (NULL context: fail silently).  Those
 * operations return 0 on success and -1 on failure. Results may alias
 * operands; operands passed as const are not changed (one with fewer
 * variables is padded in a copy, not in place). */
#ifndef SEGC_POLY_H
#define SEGC_POLY_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>
#include <segc/segc.h>

/* The fields are private to src/algebra/poly/ (their names end in '_';
 * tests/layout/polyfields.sh checks that no other file names them): the
 * rest of segc reads a polynomial through the functions below (the
 * number of terms, a term's coefficient, its exponent of a variable) and
 * builds one by segc_poly_push or segc_poly_push_term and then
 * segc_poly_normalise, so that the storage can change behind them. */
typedef struct segc_poly {
	size_t nvars_;   /* length of each exponent vector */
	size_t len_;     /* terms */
	size_t cap_;     /* allocated terms */
	int32_t *exps_;  /* len_ * nvars_ exponents */
	mpq_t *coefs_;   /* len_ coefficients, the first len_ initialised */
	size_t held_;    /* bytes of 'exps_' and 'coefs_', charged (below) */
	mp_limb_t *limbs_; /* when set, the coefficients are read-only views
	                    * of these limbs (poly.c: "views") */
	size_t nlimbs_;  /* limbs of 'limbs_', charged as well */
} segc_poly;

/* Work allowed for one product, per term of max_terms: term products
 * times limbs multiplied. */
#define SEGC_POLY_WORK_PER_TERM 1000

/* Limits applied by the operations; zero fields mean "no limit". */
typedef struct segc_poly_lim {
	segc_ctx *ctx;              /* where limits are reported, or NULL */
	size_t max_terms;
	long max_exponent;
	unsigned long max_coeff_bits;
} segc_poly_lim;

void segc_poly_init(segc_poly *p, size_t nvars);
void segc_poly_clear(segc_poly *p);
void segc_poly_swap(segc_poly *a, segc_poly *b);
/* Makes 'p' the zero polynomial (keeps its memory). */
void segc_poly_zero(segc_poly *p);
/* r = a (deep copy). */
void segc_poly_set(segc_poly *r, const segc_poly *a);
void segc_poly_set_q(segc_poly *p, mpq_srcptr c);
void segc_poly_set_si(segc_poly *p, long c);
/* p = x_v ^ e (extends 'p' so that v < nvars). */
void segc_poly_set_var(segc_poly *p, size_t v, int32_t e);
/* Pads the exponent vectors of 'p' to 'nvars' (no-op if already longer). */
void segc_poly_extend(segc_poly *p, size_t nvars);
/* Drops the trailing variables that no term of 'p' has. */
void segc_poly_trim(segc_poly *p);

int segc_poly_is_zero(const segc_poly *p);
/* Non-zero when 'p' is a number (zero included). */
int segc_poly_is_const(const segc_poly *p);
int segc_poly_is_one(const segc_poly *p);
/* Non-zero when every coefficient is an integer. */
int segc_poly_is_integral(const segc_poly *p);
int segc_poly_equal(const segc_poly *a, const segc_poly *b);
/* The number of terms of 'p' (0 for the zero polynomial). */
static inline size_t segc_poly_nterms(const segc_poly *p)
{
	return p->len_;
}
/* The length of the exponent vectors of 'p': the variables v <
 * segc_poly_nvars(p) may occur in it, the others do not. */
static inline size_t segc_poly_nvars(const segc_poly *p)
{
	return p->nvars_;
}
/* The larger of the numbers of variables of 'a' and 'b'. */
static inline size_t segc_poly_nvars_max(const segc_poly *a,
	const segc_poly *b)
{
	return a->nvars_ > b->nvars_ ? a->nvars_ : b->nvars_;
}
/* The coefficient of term 'i' (never zero once normalised), owned by 'p'
 * and valid until 'p' changes. */
static inline mpq_srcptr segc_poly_coeff(const segc_poly *p, size_t i)
{
	return p->coefs_[i];
}
/* Exponent of variable 'v' in term 'i' (0 beyond nvars). */
static inline int32_t segc_poly_exp(const segc_poly *p, size_t i, size_t v)
{
	return v < p->nvars_ ? p->exps_[i * p->nvars_ + v] : 0;
}
/* out[v] = exponent of variable v in term 'i', for v < segc_poly_nvars(p). */
void segc_poly_get_exps(const segc_poly *p, size_t i, int32_t *out);
/* Lexicographic order of the monomials of term 'i' of 'a' and term 'j'
 * of 'b' (missing variables count as exponent 0): >0 when the first is
 * the larger. */
int segc_poly_term_cmp(const segc_poly *a, size_t i, const segc_poly *b,
	size_t j);
/* used[v] = 1 for each variable v < segc_poly_nvars(p) with a non-zero
 * exponent in some term, 0 for the others; returns the number of those
 * variables. */
size_t segc_poly_used_vars(const segc_poly *p, char *used);
/* Largest / smallest exponent of 'v' over the terms (0 for zero). */
int32_t segc_poly_degree(const segc_poly *p, size_t v);
int32_t segc_poly_min_degree(const segc_poly *p, size_t v);
/* Non-zero when some term has a non-zero exponent of 'v'. */
int segc_poly_has_var(const segc_poly *p, size_t v);
/* out[v] = smallest exponent of v over the terms, v < segc_poly_nvars(p). */
void segc_poly_min_exps(const segc_poly *p, int32_t *out);

/* Appends a term without keeping the order; call segc_poly_normalise()
 * before any other use.  'exp' has segc_poly_nvars(p) entries. */
void segc_poly_push(segc_poly *p, const int32_t *exp, mpq_srcptr c);
/* Appends term 'i' of 'a' with coefficient 'c' (the term's own when
 * NULL), as segc_poly_push; 'p' is first extended to the variables of
 * 'a'. */
void segc_poly_push_term(segc_poly *p, const segc_poly *a, size_t i,
	mpq_srcptr c);
/* Appends a term whose coefficient is moved from 'c' (left as 0). */
void segc_poly_push_swap(segc_poly *p, const int32_t *exp, mpq_ptr c);
/* Replaces the coefficient of term 'i' by 'c', which may be zero: then
 * segc_poly_normalise() must follow before any other use. */
void segc_poly_set_coeff(segc_poly *p, size_t i, mpq_srcptr c);
/* x_x becomes x_s^k in every term of 'p' (x, s < segc_poly_nvars(p)): the
 * exponent of s grows by k times that of x, which becomes 0.  The terms
 * may then be out of order or share a monomial: segc_poly_normalise()
 * must follow.  -1, 'p' unchanged, when an exponent would pass
 * INT32_MAX / 2. */
int segc_poly_subst_power(segc_poly *p, size_t x, size_t s, int32_t k);
/* Keeps the terms i of 'p' with keep[i] non-zero, in their order. */
void segc_poly_keep_terms(segc_poly *p, const char *keep);
/* Sorts the terms, adds those with equal monomials, drops zeros. */
int segc_poly_normalise(const segc_poly_lim *lim, segc_poly *p);

int segc_poly_add(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *a, const segc_poly *b);
int segc_poly_sub(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *a, const segc_poly *b);
/* r = sum of the n polynomials (push, sort, merge). */
int segc_poly_sum(const segc_poly_lim *lim, segc_poly *r, size_t n,
	segc_poly **v);
/* As segc_poly_sum, but the coefficients of the operands may be moved
 * into 'r': the operands are then only fit to be cleared. */
int segc_poly_sum_take(const segc_poly_lim *lim, segc_poly *r, size_t n,
	segc_poly **v);
void segc_poly_neg(segc_poly *p);
/* p = c * p. */
void segc_poly_scale(segc_poly *p, mpq_srcptr c);
/* p = p * x^d for the 'nd' entries of 'd': a variable of p past them is
 * not moved, and an entry past p's variables that is not 0 extends p. */
int segc_poly_shift(const segc_poly_lim *lim, segc_poly *p, const int32_t *d,
	size_t nd);
int segc_poly_mul(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *a, const segc_poly *b);
int segc_poly_pow(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *a, unsigned long e);
/* q = a / b when b divides a exactly, with non-negative exponents
 * throughout: returns 1 and sets 'q'; 0 when the division is not exact
 * ('q' undefined); -1 on a limit. */
int segc_poly_divexact(const segc_poly_lim *lim, segc_poly *q,
	const segc_poly *a, const segc_poly *b);
/* r = p with x_v replaced by sigma*x_v + c, sigma 1 or -1 (a Taylor
 * shift; exponents of v in p must be >= 0). */
int segc_poly_shift_var(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *p, size_t v, int sigma, mpq_srcptr c);
/* r = p with x_v replaced by the polynomial q: 0; 1 with nothing done
 * (and nothing reported) when p has a negative power of x_v, or when
 * the exponents or the memory might pass their limits; -1 on a limit
 * met computing the powers of q. */
int segc_poly_subst_var(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *p, size_t v, const segc_poly *q);
/* out = the coefficient of x_v^d in 'p' (a polynomial free of x_v). */
void segc_poly_coeff_var(segc_poly *out, const segc_poly *p, size_t v,
	int32_t d);
/* Makes the coefficients integers with gcd 1 and returns in 'scale' the
 * rational such that old p = scale * new p ('scale' may be NULL).  The
 * sign is kept. */
void segc_poly_primitive(segc_poly *p, mpq_ptr scale);
/* Checks an exponent against the limit and the range of int32_t. */
int segc_poly_check_exp(const segc_poly_lim *lim, int64_t e);
/* Checks the limits on the coefficients and terms of 'p'. */
int segc_poly_check(const segc_poly_lim *lim, const segc_poly *p);
/* Checks that a polynomial of 'terms' terms over 'nvars' variables is
 * within the limit on terms and, beside the polynomials held, within
 * half of the memory budget: before it is made. */
int segc_poly_check_size(const segc_poly_lim *lim, size_t terms,
	size_t nvars);
/* The bytes that the exponent vectors and coefficient slots of every
 * live polynomial take.  Each operation that checks the number of terms
 * also checks this against half of the memory budget of its context
 * (segc_ctx_memory): the dense exponent vectors make a polynomial of t
 * terms over v atoms take 4tv bytes, which can grow as the square of the
 * input. */
size_t segc_poly_held(void);
/* The bytes of the blocks of large polynomials, freed, that the calling
 * thread keeps for its next ones (polybuf.c: a few megabytes at most),
 * and their release (by segc_library_cleanup()). */
size_t segc_poly_buffers_kept(void);
void segc_poly_buffers_release(void);

/* A monomial (an exponent vector) and a coefficient seen through
 * pointers, for sorting terms without moving them: the polynomial
 * operations sort their terms so, and a caller that groups the terms of
 * a polynomial by monomials of its own making sorts those. */
struct segc_term_ref {
	const int32_t *e;
	mpq_srcptr c;
};

/* r = the sum of the n terms of 'v' (any order; equal monomials added,
 * zero coefficients dropped), each an exponent row of 'nvars' entries
 * and a coefficient, both borrowed: a polynomial built from terms held
 * elsewhere without copying them first. */
int segc_poly_sum_refs(const segc_poly_lim *lim, segc_poly *r,
	struct segc_term_ref *v, size_t n, size_t nvars);
/* Sort of 'v' (n entries) by decreasing monomial over 'nvars' variables
 * (a radix sort of packed monomials when they fit in a word, a merge
 * sort otherwise); 'tmp' has room for n entries. */
void segc_poly_sort_refs(struct segc_term_ref *v, struct segc_term_ref *tmp,
	size_t n, size_t nvars);

/* g = gcd(a, b): integer coefficients with gcd 1 and a positive leading
 * coefficient; gcd(0, 0) = 0.  Exponents should be non-negative (a
 * negative exponent is treated as a unit). */
int segc_poly_gcd(const segc_poly_lim *lim, segc_poly *g,
	const segc_poly *a, const segc_poly *b);
/* The same gcd by FLINT's subresultant pseudo-remainder sequence rather
 * than its default algorithm (an independent check, for tests). */
int segc_poly_gcd_prs(const segc_poly_lim *lim, segc_poly *g,
	const segc_poly *a, const segc_poly *b);

#endif
