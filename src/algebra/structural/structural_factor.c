/* structural_factor.c - the content and the common factors of a sum
 * taken out, for the readable form: each term is read as a number times
 * powers of bases (a product's factors, x^k with an integer k), and the
 * sum becomes c*b1^k1*...*(t1' + t2' + ...), c the gcd of the numbers
 * (see content()), each bi a base of every term with
 * exponents of one sign and ki the one nearest 0.  2*N*t + 2*t =
 * 2*t*(N + 1), N^2/P + N/P = N/P*(N + 1).  An identity of rational
 * functions: the canonical form does not change. */
#include <stdlib.h>

#include "expr/expr_private.h"
#include "algebra/structural/structural.h"
#include "base/util.h"

/* One term read as coef * prod base[i]^exp[i]. */
struct term {
	mpq_t coef;
	segc_expr **base;         /* borrowed */
	long *exp;
	size_t n;
};

/* Reads the factor 'f' of a term into 't'. */
static void add_factor(struct term *t, segc_expr *f)
{
	long k = 1;

	if (f->kind == SEGC_NUM) {
		mpq_mul(t->coef, t->coef, f->u.value);
		return;
	}
	if (f->kind == SEGC_POW && segc_expr_is_integer(segc_args(f)[1]) &&
	    mpz_fits_slong_p(mpq_numref(segc_args(f)[1]->u.value))) {
		k = mpz_get_si(mpq_numref(segc_args(f)[1]->u.value));
		f = segc_args(f)[0];
	}
	t->base[t->n] = f;
	t->exp[t->n++] = k;
}

/* Reads the term 'e' into 't' (initialised here). */
static void read_term(struct term *t, segc_expr *e)
{
	size_t i, n = e->kind == SEGC_MUL ? e->nargs : 1;

	mpq_init(t->coef);
	mpq_set_ui(t->coef, 1, 1);
	t->base = segc_xmalloc(segc_xmul_size(n, sizeof(*t->base)));
	t->exp = segc_xmalloc(segc_xmul_size(n, sizeof(*t->exp)));
	t->n = 0;
	if (e->kind == SEGC_MUL)
		for (i = 0; i < e->nargs; i++)
			add_factor(t, segc_args(e)[i]);
	else
		add_factor(t, e);
}

/* The exponent of 'b' in 't', 0 when absent. */
static long exponent_of(const struct term *t, const segc_expr *b)
{
	size_t i;
	long k = 0;

	for (i = 0; i < t->n; i++)
		if (t->base[i] == b)
			k += t->exp[i];
	return k;
}

/* The exponent of the base 'b' common to the 'n' terms 't', 0 when it
 * is not common. */
static long common_exponent(const struct term *t, size_t n,
	const segc_expr *b)
{
	long k = exponent_of(&t[0], b), x;
	size_t i;

	for (i = 1; i < n && k; i++) {
		x = exponent_of(&t[i], b);
		if ((k > 0 && x <= 0) || (k < 0 && x >= 0))
			return 0;
		if ((k > 0 && x < k) || (k < 0 && x > k))
			k = x;
	}
	return k;
}

/* Non-zero when 'z' is a multiple of ten that divides a power of ten (a
 * number over it prints as a decimal in LaTeX). */
static int divides_power_of_ten(mpz_srcptr z)
{
	mpz_t r;
	int yes;

	if (!mpz_divisible_ui_p(z, 10))
		return 0;
	mpz_init_set(r, z);
	while (mpz_divisible_ui_p(r, 2))
		mpz_divexact_ui(r, r, 2);
	while (mpz_divisible_ui_p(r, 5))
		mpz_divexact_ui(r, r, 5);
	yes = !mpz_cmp_ui(r, 1);
	mpz_clear(r);
	return yes;
}

/* The content of the numbers of the 'n' terms into 'c': the gcd of the
 * numerators over the lcm of the denominators, unless that is a decimal
 * one (0.246*a + 0.197*b stays as it is); negative when every number
 * is. */
static void content(mpq_t c, const struct term *t, size_t n)
{
	size_t i;
	int neg = 1;

	mpz_set_ui(mpq_numref(c), 0);
	mpz_set_ui(mpq_denref(c), 1);
	for (i = 0; i < n; i++) {
		mpz_gcd(mpq_numref(c), mpq_numref(c), mpq_numref(t[i].coef));
		mpz_lcm(mpq_denref(c), mpq_denref(c), mpq_denref(t[i].coef));
		neg = neg && mpq_sgn(t[i].coef) < 0;
	}
	if (divides_power_of_ten(mpq_denref(c)))
		mpz_set_ui(mpq_denref(c), 1);
	if (!mpz_sgn(mpq_numref(c)))
		mpq_set_ui(c, 1, 1);
	mpq_canonicalize(c);
	if (neg)
		mpq_neg(c, c);
}

/* The term 't' divided by 'c' and by the common bases 'b' (exponents
 * 'k', 'nb' of them). */
static segc_expr *quotient(const struct term *t, mpq_srcptr c,
	segc_expr *const *b, const long *k, size_t nb)
{
	segc_expr **f = segc_xmalloc(segc_xmul_size(t->n + 1, sizeof(*f)));
	segc_expr *r;
	size_t i, j, m = 0;
	long x;
	mpq_t q;

	mpq_init(q);
	mpq_div(q, t->coef, c);
	f[m++] = segc_expr_num(q);
	mpq_clear(q);
	for (i = 0; i < t->n; i++) {
		for (j = 0, x = t->exp[i]; j < nb; j++)
			if (b[j] == t->base[i] && k[j]) {
				x -= k[j];
				break;
			}
		if (x)
			f[m++] = segc_expr_powi(segc_expr_copy(t->base[i]), x);
	}
	r = segc_structural_simplify(segc_expr_mul(m, f));
	free(f);
	return r;
}

/* The sum 'e' (kept) with its content and common bases out, or NULL
 * when there are none. */
static segc_expr *factor_sum(segc_expr *e)
{
	size_t n = e->nargs, i, nb = 0, m = 0;
	struct term *t = segc_xmalloc(segc_xmul_size(n, sizeof(*t)));
	segc_expr **b, **out, *r = NULL;
	long *k;
	mpq_t c;

	for (i = 0; i < n; i++)
		read_term(&t[i], segc_args(e)[i]);
	b = segc_xmalloc(segc_xmul_size(t[0].n + 1, sizeof(*b)));
	k = segc_xmalloc(segc_xmul_size(t[0].n + 1, sizeof(*k)));
	for (i = 0; i < t[0].n; i++) {
		size_t j;

		for (j = 0; j < nb && b[j] != t[0].base[i]; j++)
			;
		if (j == nb && (k[nb] = common_exponent(t, n, t[0].base[i])))
			b[nb++] = t[0].base[i];
	}
	mpq_init(c);
	content(c, t, n);
	if (nb || mpq_cmp_ui(c, 1, 1)) {
		segc_expr **q = segc_xmalloc(segc_xmul_size(n, sizeof(*q)));

		out = segc_xmalloc(segc_xmul_size(nb + 2, sizeof(*out)));
		for (i = 0; i < n; i++)
			q[i] = quotient(&t[i], c, b, k, nb);
		out[m++] = segc_expr_num(c);
		for (i = 0; i < nb; i++)
			out[m++] = segc_expr_powi(segc_expr_copy(b[i]), k[i]);
		out[m++] = segc_structural_simplify(segc_expr_add(n, q));
		free(q);
		r = segc_expr_mul(m, out);
		free(out);
	}
	mpq_clear(c);
	for (i = 0; i < n; i++) {
		mpq_clear(t[i].coef);
		free(t[i].base);
		free(t[i].exp);
	}
	free(t);
	free(b);
	free(k);
	return r;
}

/* See structural.h. */
segc_expr *segc_structural_factor(segc_expr *e)
{
	segc_expr *r;

	if (!e || e->kind != SEGC_ADD || e->nargs < 2) {
		segc_expr_free(e);
		return NULL;
	}
	r = factor_sum(e);
	segc_expr_free(e);
	return r;
}
