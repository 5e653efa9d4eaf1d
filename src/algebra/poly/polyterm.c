/* polyterm.c - the terms of a polynomial one at a time, for the files
 * outside src/algebra/poly/ that read or build polynomials term by term
 * (the canonical form's kernels, the summation): a term's exponents, the
 * order of two terms, a term appended to another polynomial, a
 * coefficient replaced, terms kept or dropped, one variable written as a
 * power of another.  The storage itself stays in poly.c. */
#include <stdlib.h>
#include <string.h>
#include "algebra/poly/poly.h"
#include "algebra/poly/poly_private.h"

/* Appends term 'i' of 'a' with coefficient 'c', or the term's own
 * ('c' NULL; 'a' may be 'p'). */
void segc_poly_push_term(segc_poly *p, const segc_poly *a, size_t i,
	mpq_srcptr c)
{
	int32_t *e;

	segc_poly_own(p);
	segc_poly_extend(p, a->nvars_);
	segc_poly_reserve(p, p->len_ + 1);
	e = term_exp(p, p->len_);
	if (a->nvars_)
		memcpy(e, term_exp(a, i), a->nvars_ * sizeof(int32_t));
	if (p->nvars_ > a->nvars_)
		memset(e + a->nvars_, 0,
			(p->nvars_ - a->nvars_) * sizeof(int32_t));
	mpq_init(p->coefs_[p->len_]);
	mpq_set(p->coefs_[p->len_], c ? c : a->coefs_[i]);
	p->len_++;
}

/* The coefficient of term 'i' becomes 'c' (zero allowed, until the
 * next segc_poly_normalise). */
void segc_poly_set_coeff(segc_poly *p, size_t i, mpq_srcptr c)
{
	segc_poly_own(p);
	mpq_set(p->coefs_[i], c);
}

/* x_x becomes x_s^k: checked for every term first, then done. */
int segc_poly_subst_power(segc_poly *p, size_t x, size_t s, int32_t k)
{
	size_t i;

	for (i = 0; i < p->len_; i++) {
		const int32_t *e = term_exp(p, i);

		if (labs((long)e[x]) * labs((long)k) + labs((long)e[s]) >
		    INT32_MAX / 2)
			return -1;
	}
	for (i = 0; i < p->len_; i++) {
		int32_t *e = term_exp(p, i);

		e[s] += k * e[x];
		e[x] = 0;
	}
	return 0;
}

/* Keeps the terms i with keep[i] non-zero, in their order. */
void segc_poly_keep_terms(segc_poly *p, const char *keep)
{
	size_t i, k = 0, n = p->nvars_;

	segc_poly_own(p);
	for (i = 0; i < p->len_; i++) {
		if (!keep[i])
			continue;
		if (k != i) {
			if (n)
				memcpy(term_exp(p, k), term_exp(p, i),
					n * sizeof(int32_t));
			mpq_swap(p->coefs_[k], p->coefs_[i]);
		}
		k++;
	}
	for (i = k; i < p->len_; i++)
		mpq_clear(p->coefs_[i]);
	p->len_ = k;
}

/* out = the exponents of term 'i'. */
void segc_poly_get_exps(const segc_poly *p, size_t i, int32_t *out)
{
	if (p->nvars_)
		memcpy(out, term_exp(p, i), p->nvars_ * sizeof(int32_t));
}

/* Lexicographic order of term 'i' of 'a' and term 'j' of 'b'. */
int segc_poly_term_cmp(const segc_poly *a, size_t i, const segc_poly *b,
	size_t j)
{
	size_t n = a->nvars_ < b->nvars_ ? a->nvars_ : b->nvars_, v;
	int c = mono_cmp(term_exp(a, i), term_exp(b, j), n);

	if (c)
		return c;
	for (v = n; v < a->nvars_; v++)
		if (term_exp(a, i)[v])
			return term_exp(a, i)[v] > 0 ? 1 : -1;
	for (v = n; v < b->nvars_; v++)
		if (term_exp(b, j)[v])
			return term_exp(b, j)[v] > 0 ? -1 : 1;
	return 0;
}
