/* polygcd.c - greatest common divisors of multivariate polynomials over Q.
 *
 * gcd(a, b) = monomial part * primitive integer part.  After the trivial
 * cases (zero, numbers, monomials, disjoint variables) the heuristic gcd
 * (GCDHEU: evaluate one variable at a large integer xi, recurse, rebuild
 * the candidate from its xi-adic digits, keep it only if it divides both
 * operands exactly) is tried; when it gives up, the recursive primitive
 * pseudo-remainder sequence computes the gcd, slowly but always.  The
 * recursion is over the variables, one level per variable. */
#include <stdlib.h>
#include <string.h>
#include "algebra/poly.h"
#include "base/util.h"

static int gcd_core(const segc_poly_lim *lim, segc_poly *g, segc_poly *a,
	segc_poly *b, int useheu);

/* Normalises the sign: the leading coefficient becomes positive. */
static void make_lead_positive(segc_poly *p)
{
	if (p->len && mpq_sgn(p->coefs[0]) < 0)
		segc_poly_neg(p);
}

/* The integer gcd of all (integer) coefficients of 'p' into 'g'. */
static void int_content(mpz_ptr g, const segc_poly *p)
{
	size_t i;

	mpz_set_ui(g, 0);
	for (i = 0; i < p->len; i++)
		mpz_gcd(g, g, mpq_numref(p->coefs[i]));
}

/* Divides every (integer) coefficient of 'p' by 'g' exactly. */
static void int_divexact(segc_poly *p, mpz_srcptr g)
{
	size_t i;

	for (i = 0; i < p->len; i++)
		mpz_divexact(mpq_numref(p->coefs[i]), mpq_numref(p->coefs[i]), g);
}

/* Multiplies every coefficient of 'p' by the integer 'g'. */
static void int_mul(segc_poly *p, mpz_srcptr g)
{
	size_t i;

	for (i = 0; i < p->len; i++)
		mpz_mul(mpq_numref(p->coefs[i]), mpq_numref(p->coefs[i]), g);
}

/* Largest absolute value of the coefficients of 'p'. */
static void max_norm(mpz_ptr m, const segc_poly *p)
{
	size_t i;

	mpz_set_ui(m, 0);
	for (i = 0; i < p->len; i++)
		if (mpz_cmpabs(mpq_numref(p->coefs[i]), m) > 0)
			mpz_abs(m, mpq_numref(p->coefs[i]));
}

/* Limbs of the largest (integer) coefficient of 'p'. */
static size_t max_limbs(const segc_poly *p)
{
	size_t i, m = 0;

	for (i = 0; i < p->len; i++)
		if (mpz_size(mpq_numref(p->coefs[i])) > m)
			m = mpz_size(mpq_numref(p->coefs[i]));
	return m;
}

/* ------------------------------------------------------------ GCDHEU */

/* GCDHEU gives up when an evaluated image would have more bits than this
 * (Geddes, Czapor and Labahn bound length(xi) * degree the same way);
 * nested over many variables the images otherwise grow without end. */
#define HEU_MAX_BITS 1048576UL
/* ... and after this many evaluation points over all its levels. */
#define HEU_MAX_TRIES 24

/* r = p with x_v := xi (integer coefficients). */
static int eval_var(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *p, size_t v, mpz_srcptr xi)
{
	int32_t d, deg = segc_poly_degree(p, v);
	mpz_t *pw = segc_xmalloc(segc_xmul_size((size_t)deg + 1, sizeof(mpz_t)));
	segc_poly out;
	size_t i;
	mpq_t c;
	int rc;

	for (d = 0; d <= deg; d++) {
		mpz_init(pw[d]);
		if (d == 0)
			mpz_set_ui(pw[d], 1);
		else
			mpz_mul(pw[d], pw[d - 1], xi);
	}
	if (lim && segc_ctx_charge(lim->ctx, (double)p->len *
		(double)(2 + mpz_size(pw[deg]) + max_limbs(p)))) {
		for (d = 0; d <= deg; d++)
			mpz_clear(pw[d]);
		free(pw);
		return -1;
	}
	segc_poly_init(&out, p->nvars);
	mpq_init(c);
	for (i = 0; i < p->len; i++) {
		d = segc_poly_exp(p, i, v);
		mpz_mul(mpq_numref(c), mpq_numref(p->coefs[i]), pw[d]);
		segc_poly_push(&out, p->exps + i * p->nvars, c);
		out.exps[(out.len - 1) * out.nvars + v] = 0;
	}
	mpq_clear(c);
	rc = segc_poly_normalise(lim, &out);
	segc_poly_swap(r, &out);
	segc_poly_clear(&out);
	for (d = 0; d <= deg; d++)
		mpz_clear(pw[d]);
	free(pw);
	return rc;
}

/* Rebuilds a polynomial in x_v from its image 'h' at x_v = xi: the
 * symmetric xi-adic digits of each coefficient. */
static int interpolate(const segc_poly_lim *lim, segc_poly *r, segc_poly *h,
	size_t v, mpz_srcptr xi)
{
	segc_poly out, cur;
	mpz_t half, digit;
	int32_t power = 0;
	mpq_t c;
	size_t i;
	int rc = 0;

	segc_poly_init(&out, h->nvars);
	segc_poly_init(&cur, h->nvars);
	segc_poly_set(&cur, h);
	mpz_init(half);
	mpz_init(digit);
	mpq_init(c);
	mpz_fdiv_q_2exp(half, xi, 1);
	while (cur.len) {
		size_t k = 0;

		if (lim && segc_ctx_charge(lim->ctx, (double)cur.len *
			(double)(1 + mpz_size(xi)))) {
			rc = -1;
			break;
		}
		for (i = 0; i < cur.len; i++) {
			mpz_ptr z = mpq_numref(cur.coefs[i]);

			mpz_fdiv_r(digit, z, xi);
			if (mpz_cmp(digit, half) > 0)
				mpz_sub(digit, digit, xi);
			if (mpz_sgn(digit)) {
				mpz_set(mpq_numref(c), digit);
				segc_poly_push(&out, cur.exps + i * cur.nvars, c);
				out.exps[(out.len - 1) * out.nvars + v] = power;
			}
			mpz_sub(z, z, digit);
			mpz_divexact(z, z, xi);
			if (mpz_sgn(z)) {
				if (k != i) {
					memcpy(cur.exps + k * cur.nvars,
						cur.exps + i * cur.nvars,
						cur.nvars * sizeof(int32_t));
					mpq_swap(cur.coefs[k], cur.coefs[i]);
				}
				k++;
			}
		}
		for (i = k; i < cur.len; i++)
			mpq_clear(cur.coefs[i]);
		cur.len = k;
		power++;
	}
	if (rc == 0)
		rc = segc_poly_normalise(lim, &out);
	make_lead_positive(&out);
	segc_poly_swap(r, &out);
	segc_poly_clear(&out);
	segc_poly_clear(&cur);
	mpz_clear(half);
	mpz_clear(digit);
	mpq_clear(c);
	return rc;
}

/* The first evaluation point, as in Char, Geddes and Gonnet. */
static void first_xi(mpz_ptr xi, const segc_poly *f, const segc_poly *g)
{
	mpz_t fn, gn, b, t;

	mpz_inits(fn, gn, b, t, NULL);
	max_norm(fn, f);
	max_norm(gn, g);
	mpz_set(b, mpz_cmp(fn, gn) < 0 ? fn : gn);
	mpz_mul_2exp(b, b, 1);
	mpz_add_ui(b, b, 29);
	mpz_sqrt(t, b);
	mpz_mul_ui(t, t, 99);
	mpz_set(xi, mpz_cmp(b, t) < 0 ? b : t);
	mpz_tdiv_q(fn, fn, mpq_numref(f->coefs[0]));
	mpz_abs(fn, fn);
	mpz_tdiv_q(gn, gn, mpq_numref(g->coefs[0]));
	mpz_abs(gn, gn);
	mpz_set(t, mpz_cmp(fn, gn) < 0 ? fn : gn);
	mpz_mul_2exp(t, t, 1);
	mpz_add_ui(t, t, 2);
	if (mpz_cmp(t, xi) > 0)
		mpz_set(xi, t);
	/* At least 2*min(|f|, |g|) + 2: below it, a candidate that divides
	 * both operands need not be their gcd (1 always divides). */
	max_norm(fn, f);
	max_norm(gn, g);
	mpz_set(t, mpz_cmp(fn, gn) < 0 ? fn : gn);
	mpz_mul_2exp(t, t, 1);
	mpz_add_ui(t, t, 2);
	if (mpz_cmp(t, xi) > 0)
		mpz_set(xi, t);
	mpz_clears(fn, gn, b, t, NULL);
}

/* The next evaluation point after a failure. */
static void next_xi(mpz_ptr xi)
{
	mpz_t t;

	mpz_init(t);
	mpz_sqrt(t, xi);
	mpz_sqrt(t, t);
	mpz_mul(xi, xi, t);
	mpz_mul_ui(xi, xi, 73794);
	mpz_fdiv_q_ui(xi, xi, 27011);
	mpz_clear(t);
}

/* Non-zero when 'h' divides both 'f' and 'g'. */
static int divides_both(const segc_poly_lim *lim, segc_poly *h, segc_poly *f,
	segc_poly *g)
{
	segc_poly q;
	int ok;

	segc_poly_init(&q, h->nvars);
	ok = segc_poly_divexact(lim, &q, f, h) == 1 &&
		segc_poly_divexact(lim, &q, g, h) == 1;
	segc_poly_clear(&q);
	return ok;
}

static int heu(const segc_poly_lim *lim, int *left, segc_poly *g,
	segc_poly *f, segc_poly *h, const size_t *vars, size_t nv);

/* One attempt of GCDHEU at 'xi': 1 found, 0 not, -1 gave up. */
static int heu_try(const segc_poly_lim *lim, int *left, segc_poly *g,
	segc_poly *f, segc_poly *h, const size_t *vars, size_t nv, mpz_srcptr xi)
{
	segc_poly ff, hh, gg;
	int rc = 0;

	segc_poly_init(&ff, f->nvars);
	segc_poly_init(&hh, f->nvars);
	segc_poly_init(&gg, f->nvars);
	if (eval_var(lim, &ff, f, vars[0], xi) || eval_var(lim, &hh, h,
		vars[0], xi))
		rc = -1;
	else if (ff.len && hh.len) {
		rc = heu(lim, left, &gg, &ff, &hh, vars + 1, nv - 1);
		if (rc == 1 && interpolate(lim, &gg, &gg, vars[0], xi))
			rc = -1;
		if (rc == 1) {
			segc_poly_primitive(&gg, NULL);
			make_lead_positive(&gg);
			rc = divides_both(lim, &gg, f, h);
			if (rc)
				segc_poly_swap(g, &gg);
		} else if (rc == 0) {
			rc = -1;
		}
	}
	segc_poly_clear(&ff);
	segc_poly_clear(&hh);
	segc_poly_clear(&gg);
	return rc;
}

/* GCDHEU over the variables 'vars' (nv of them) for integer polynomials:
 * 1 and 'g' set, or -1 when it gives up.  '*left' counts down the
 * evaluation points all levels may still try: an unlucky point at one
 * level repeats every level below, so tries multiply with the depth. */
static int heu(const segc_poly_lim *lim, int *left, segc_poly *g,
	segc_poly *f, segc_poly *h, const size_t *vars, size_t nv)
{
	mpz_t cf, ch, c, xi;
	segc_poly f1, h1;
	int rc = -1, tries;

	mpz_inits(cf, ch, c, xi, NULL);
	int_content(cf, f);
	int_content(ch, h);
	mpz_gcd(c, cf, ch);
	segc_poly_init(&f1, f->nvars);
	segc_poly_init(&h1, h->nvars);
	segc_poly_set(&f1, f);
	segc_poly_set(&h1, h);
	if (mpz_sgn(c)) {
		int_divexact(&f1, c);
		int_divexact(&h1, c);
	}
	if (nv == 0 || segc_poly_is_const(&f1) || segc_poly_is_const(&h1)) {
		segc_poly_set_si(g, 1);
		rc = 1;
	}
	if (rc != 1) {
		int32_t df = segc_poly_degree(&f1, vars[0]);
		int32_t dh = segc_poly_degree(&h1, vars[0]);
		unsigned long deg = (unsigned long)(df > dh ? df : dh) + 1;

		first_xi(xi, &f1, &h1);
		for (tries = 0; tries < 6 && rc != 1; tries++) {
			/* The images grow to about deg * bits(xi) bits at
			 * each level; past HEU_MAX_BITS the PRS is cheaper. */
			if (mpz_sizeinbase(xi, 2) > HEU_MAX_BITS / deg ||
				*left <= 0)
				break;
			--*left;
			rc = heu_try(lim, left, g, &f1, &h1, vars, nv, xi);
			if (rc < 0)
				break;
			next_xi(xi);
		}
	}
	if (rc == 1 && mpz_sgn(c))
		int_mul(g, c);
	segc_poly_clear(&f1);
	segc_poly_clear(&h1);
	mpz_clears(cf, ch, c, xi, NULL);
	return rc == 1 ? 1 : -1;
}

/* --------------------------------------------------------------- PRS */

/* The content of 'p' with respect to x_v: gcd of its coefficients. */
static int content_var(const segc_poly_lim *lim, segc_poly *c,
	const segc_poly *p, size_t v, int useheu)
{
	int32_t d, lo = segc_poly_min_degree(p, v), hi = segc_poly_degree(p, v);
	segc_poly k;
	int rc = 0;

	segc_poly_init(&k, p->nvars);
	segc_poly_zero(c);
	for (d = hi; d >= lo && rc == 0; d--) {
		segc_poly_coeff_var(&k, p, v, d);
		if (k.len)
			rc = gcd_core(lim, c, c, &k, useheu);
		if (segc_poly_is_const(c) && c->len)
			break;
	}
	segc_poly_clear(&k);
	return rc;
}

/* p = p / content_v(p), made integer-primitive. */
static int primitive_var(const segc_poly_lim *lim, segc_poly *p, size_t v,
	int useheu)
{
	segc_poly c;
	int rc;

	segc_poly_init(&c, p->nvars);
	rc = content_var(lim, &c, p, v, useheu);
	if (rc == 0 && !segc_poly_is_const(&c) &&
		segc_poly_divexact(lim, p, p, &c) != 1)
		rc = -1;
	segc_poly_clear(&c);
	segc_poly_primitive(p, NULL);
	return rc;
}

/* r = prem_v(a, b): a pseudo-remainder with respect to x_v. */
static int prem_var(const segc_poly_lim *lim, segc_poly *r, segc_poly *a,
	segc_poly *b, size_t v)
{
	int32_t db = segc_poly_degree(b, v), dr;
	segc_poly lcb, lcr, t, x;
	int rc = 0;

	segc_poly_init(&lcb, a->nvars);
	segc_poly_init(&lcr, a->nvars);
	segc_poly_init(&t, a->nvars);
	segc_poly_init(&x, a->nvars);
	segc_poly_coeff_var(&lcb, b, v, db);
	segc_poly_set(r, a);
	while (rc == 0 && r->len && (dr = segc_poly_degree(r, v)) >= db) {
		segc_poly_coeff_var(&lcr, r, v, dr);
		segc_poly_set_var(&x, v, dr - db);
		rc = segc_poly_mul(lim, &t, &lcr, &x);
		if (rc == 0)
			rc = segc_poly_mul(lim, &t, &t, b);
		if (rc == 0)
			rc = segc_poly_mul(lim, r, r, &lcb);
		if (rc == 0)
			rc = segc_poly_sub(lim, r, r, &t);
		if (rc == 0)
			segc_poly_primitive(r, NULL);
	}
	segc_poly_clear(&lcb);
	segc_poly_clear(&lcr);
	segc_poly_clear(&t);
	segc_poly_clear(&x);
	return rc;
}

/* The primitive PRS of a and b, both primitive in x_v. */
static int prs_loop(const segc_poly_lim *lim, segc_poly *g, segc_poly *a,
	segc_poly *b, size_t v, int useheu)
{
	segc_poly r;
	int rc = 0;

	segc_poly_init(&r, a->nvars);
	if (segc_poly_degree(a, v) < segc_poly_degree(b, v))
		segc_poly_swap(a, b);
	while (rc == 0) {
		rc = prem_var(lim, &r, a, b, v);
		if (rc || r.len == 0)
			break;
		if (segc_poly_degree(&r, v) == 0) {
			segc_poly_set_si(b, 1);
			break;
		}
		segc_poly_swap(a, b);
		segc_poly_swap(b, &r);
		rc = primitive_var(lim, b, v, useheu);
	}
	if (rc == 0)
		rc = primitive_var(lim, b, v, useheu);
	segc_poly_swap(g, b);
	segc_poly_clear(&r);
	return rc;
}

/* The first variable that occurs in 'a' or 'b', or nvars. */
static size_t first_var(const segc_poly *a, const segc_poly *b)
{
	size_t v;

	for (v = 0; v < a->nvars; v++)
		if (segc_poly_has_var(a, v) || segc_poly_has_var(b, v))
			return v;
	return a->nvars;
}

/* gcd of integer polynomials with non-negative exponents by the PRS. */
static int prs_gcd(const segc_poly_lim *lim, segc_poly *g, segc_poly *a,
	segc_poly *b, int useheu)
{
	size_t v = first_var(a, b);
	segc_poly ca, cb, c, pa, pb;
	int rc;

	if (v == a->nvars || !segc_poly_has_var(a, v) ||
		!segc_poly_has_var(b, v)) {
		segc_poly *withv = segc_poly_has_var(a, v) ? a : b;
		segc_poly *other = withv == a ? b : a;

		segc_poly_init(&c, a->nvars);
		rc = content_var(lim, &c, withv, v, useheu);
		if (rc == 0)
			rc = gcd_core(lim, g, &c, other, useheu);
		segc_poly_clear(&c);
		return rc;
	}
	segc_poly_init(&ca, a->nvars);
	segc_poly_init(&cb, a->nvars);
	segc_poly_init(&c, a->nvars);
	segc_poly_init(&pa, a->nvars);
	segc_poly_init(&pb, a->nvars);
	segc_poly_set(&pa, a);
	segc_poly_set(&pb, b);
	rc = content_var(lim, &ca, a, v, useheu);
	if (rc == 0)
		rc = content_var(lim, &cb, b, v, useheu);
	if (rc == 0)
		rc = gcd_core(lim, &c, &ca, &cb, useheu);
	if (rc == 0)
		rc = primitive_var(lim, &pa, v, useheu);
	if (rc == 0)
		rc = primitive_var(lim, &pb, v, useheu);
	if (rc == 0)
		rc = prs_loop(lim, g, &pa, &pb, v, useheu);
	if (rc == 0)
		rc = segc_poly_mul(lim, g, g, &c);
	segc_poly_clear(&ca);
	segc_poly_clear(&cb);
	segc_poly_clear(&c);
	segc_poly_clear(&pa);
	segc_poly_clear(&pb);
	return rc;
}

/* -------------------------------------------------------------- driver */

/* The variables occurring in 'a' or 'b' into 'vars'; returns how many. */
static size_t list_vars(const segc_poly *a, const segc_poly *b, size_t *vars)
{
	size_t v, n = 0;

	for (v = 0; v < a->nvars; v++)
		if (segc_poly_has_var(a, v) || segc_poly_has_var(b, v))
			vars[n++] = v;
	return n;
}

/* Non-zero when no variable occurs in both. */
static int disjoint_vars(const segc_poly *a, const segc_poly *b)
{
	size_t v;

	for (v = 0; v < a->nvars; v++)
		if (segc_poly_has_var(a, v) && segc_poly_has_var(b, v))
			return 0;
	return 1;
}

/* r = p with every variable but x_v replaced by the integer pt[w]: an
 * image of 'p' in x_v alone. */
static int image_in(const segc_poly_lim *lim, segc_poly *r,
	const segc_poly *p, size_t v, const unsigned long *pt)
{
	segc_poly out;
	mpz_t t;
	mpq_t c;
	size_t i, w;

	if (lim && segc_ctx_charge(lim->ctx, (double)p->len *
		(double)(p->nvars + max_limbs(p))))
		return -1;
	segc_poly_init(&out, p->nvars);
	mpz_init(t);
	mpq_init(c);
	for (i = 0; i < p->len; i++) {
		mpz_set(mpq_numref(c), mpq_numref(p->coefs[i]));
		for (w = 0; w < p->nvars; w++) {
			int32_t e = segc_poly_exp(p, i, w);

			if (w != v && e > 0) {
				mpz_ui_pow_ui(t, pt[w], (unsigned long)e);
				mpz_mul(mpq_numref(c), mpq_numref(c), t);
			}
		}
		segc_poly_push(&out, p->exps + i * p->nvars, c);
		for (w = 0; w < p->nvars; w++)
			if (w != v)
				out.exps[(out.len - 1) * out.nvars + w] = 0;
	}
	segc_poly_normalise(NULL, &out);
	segc_poly_swap(r, &out);
	segc_poly_clear(&out);
	mpz_clear(t);
	mpq_clear(c);
	return 0;
}

/* 1 when 'a' and 'b' are proved coprime by images, 0 when not proved
 * (never "not coprime"), -1 on a limit.  For each variable x_v, the other
 * variables are set to small integers that keep both leading
 * coefficients in x_v non-zero, and the gcd of the two univariate images
 * is taken: the true gcd's image divides it with its degree in x_v
 * intact, so when it is a number for every x_v, the gcd has no variable
 * at all.  The usual case of canonical forms, a gcd of 1 over many
 * variables, then costs one univariate gcd per variable instead of a
 * recursion over all of them; the first variable whose image gcd is not
 * a number ends the test. */
static int coprime_by_images(const segc_poly_lim *lim, segc_poly *a,
	segc_poly *b, const size_t *vars, size_t nv)
{
	unsigned long *pt = segc_xmalloc(segc_xmul_size(a->nvars ? a->nvars : 1,
		sizeof(unsigned long)));
	unsigned long seed = 7;
	segc_poly ia, ib, g;
	size_t k, w;
	int rc = nv >= 2, tries, absent;

	segc_poly_init(&ia, a->nvars);
	segc_poly_init(&ib, a->nvars);
	segc_poly_init(&g, a->nvars);
	for (k = 0; k < nv && rc == 1; k++) {
		size_t v = vars[k];
		int32_t da = segc_poly_degree(a, v), db = segc_poly_degree(b, v);

		absent = da == 0 || db == 0;
		for (tries = 0; tries < 3 && !absent; tries++) {
			/* Small deterministic points, another set per try. */
			for (w = 0; w < a->nvars; w++) {
				seed = seed * 1103515245UL + 12345UL;
				pt[w] = 2 + (seed >> 16) % 61;
			}
			if (image_in(lim, &ia, a, v, pt) ||
				image_in(lim, &ib, b, v, pt)) {
				rc = -1;
				break;
			}
			if (segc_poly_degree(&ia, v) != da ||
				segc_poly_degree(&ib, v) != db)
				continue;
			if (gcd_core(lim, &g, &ia, &ib, 1) != 0)
				rc = -1;
			else
				absent = segc_poly_is_const(&g);
			break;
		}
		if (rc == 1 && !absent)
			rc = 0;
	}
	segc_poly_clear(&ia);
	segc_poly_clear(&ib);
	segc_poly_clear(&g);
	free(pt);
	return rc;
}

/* gcd of two integer-primitive polynomials without monomial content. */
static int gcd_primitive(const segc_poly_lim *lim, segc_poly *g, segc_poly *a,
	segc_poly *b, int useheu)
{
	size_t *vars, nv;
	int rc, left, coprime;

	if (a->len == 1 || b->len == 1 || disjoint_vars(a, b)) {
		segc_poly_set_si(g, 1);
		return 0;
	}
	if (segc_poly_equal(a, b)) {
		segc_poly_set(g, a);
		return 0;
	}
	vars = segc_xmalloc((a->nvars ? a->nvars : 1) * sizeof(size_t));
	nv = list_vars(a, b, vars);
	left = HEU_MAX_TRIES;
	coprime = useheu ? coprime_by_images(lim, a, b, vars, nv) : 0;
	if (coprime < 0) {
		rc = -1;
	} else if (coprime) {
		segc_poly_set_si(g, 1);
		rc = 0;
	} else if (useheu && heu(lim, &left, g, a, b, vars, nv) == 1) {
		rc = 0;
	} else {
		rc = prs_gcd(lim, g, a, b, useheu);
	}
	free(vars);
	return rc;
}

/* The gcd itself (see poly.h), without the limits on coefficients. */
static int gcd_core(const segc_poly_lim *lim, segc_poly *g, segc_poly *a,
	segc_poly *b, int useheu)
{
	segc_poly pa, pb, out;
	int32_t *ma, *mb, *mono;
	size_t v, n;
	int rc;

	segc_poly_extend(a, b->nvars);
	segc_poly_extend(b, a->nvars);
	n = a->nvars;
	if (a->len == 0 || b->len == 0) {
		segc_poly_set(g, a->len ? a : b);
		segc_poly_primitive(g, NULL);
		make_lead_positive(g);
		return 0;
	}
	ma = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	mb = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	mono = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	segc_poly_min_exps(a, ma);
	segc_poly_min_exps(b, mb);
	segc_poly_init(&pa, n);
	segc_poly_init(&pb, n);
	segc_poly_init(&out, n);
	segc_poly_set(&pa, a);
	segc_poly_set(&pb, b);
	for (v = 0; v < n; v++) {
		mono[v] = ma[v] < mb[v] ? ma[v] : mb[v];
		ma[v] = -ma[v];
		mb[v] = -mb[v];
	}
	segc_poly_shift(NULL, &pa, ma);
	segc_poly_shift(NULL, &pb, mb);
	segc_poly_primitive(&pa, NULL);
	segc_poly_primitive(&pb, NULL);
	rc = gcd_primitive(lim, &out, &pa, &pb, useheu);
	if (rc == 0)
		rc = segc_poly_shift(lim, &out, mono);
	segc_poly_primitive(&out, NULL);
	make_lead_positive(&out);
	segc_poly_swap(g, &out);
	segc_poly_clear(&out);
	segc_poly_clear(&pa);
	segc_poly_clear(&pb);
	free(ma);
	free(mb);
	free(mono);
	return rc;
}

/* g = gcd(a, b); see poly.h. */
int segc_poly_gcd(const segc_poly_lim *lim, segc_poly *g, segc_poly *a,
	segc_poly *b)
{
	segc_poly_lim inner;

	inner = lim ? *lim : (segc_poly_lim){ NULL, 0, 0, 0 };
	inner.max_coeff_bits = 0;
	return gcd_core(&inner, g, a, b, 1);
}

/* g = gcd(a, b) by the pseudo-remainder sequence alone (for tests). */
int segc_poly_gcd_prs(const segc_poly_lim *lim, segc_poly *g, segc_poly *a,
	segc_poly *b)
{
	segc_poly_lim inner;

	inner = lim ? *lim : (segc_poly_lim){ NULL, 0, 0, 0 };
	inner.max_coeff_bits = 0;
	return gcd_core(&inner, g, a, b, 0);
}
