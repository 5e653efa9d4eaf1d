/* plan_poly.c - sums, products and powers of the evaluation plan lowered
 * to a predictor's doubles: a sum of products (the operations ADD, MUL
 * and POW, through the partial sums and products the plan hoisted out of
 * a loop) is collected as a Laurent polynomial over its atoms (the slots
 * that are none of these) and evaluated by multivariate Horner's rule over
 * them (the arguments in order, then other atoms), integer powers by
 * repeated squaring, the negative powers of a sum of terms by one
 * division at the end; rational coefficients as integers over their
 * common denominator, divided once (lpoly_lcm). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "output/plan_private.h"

/* Most atoms of one sum (Horner's rule recurses once per atom), and most
 * exponents stored for one sum (terms times atoms). */
#define MAX_ATOMS 2048
#define MAX_CELLS 20000000UL

/* A term of a Laurent polynomial over the atoms of a sum: coefficient
 * times the product of atom^exps[k]. */
typedef struct term {
	mpq_t coeff;
	long *exps;
} term;

/* A Laurent polynomial being collected. */
typedef struct lpoly {
	size_t nterms, capterms;
	term *terms;
	size_t natoms, capatoms;
	size_t *atoms;            /* the atoms' slots */
	size_t *atom_value;       /* their planned values */
	long *atom_rank;          /* ordering key: argument index, else big */
} lpoly;

/* ------------------------------------------------------------- powers */

/* x^k for k >= 1 by repeated squaring (x^2, x^4, ... are shared). */
static size_t emit_pow(segc_plan_builder *bd, size_t x, unsigned long k)
{
	size_t acc = 0, sq = x;
	int have = 0;

	while (k) {
		if (k & 1) {
			acc = have ? segc_plan_emit_mul(bd, acc, sq) : sq;
			have = 1;
		}
		k >>= 1;
		if (k)
			sq = segc_plan_emit_mul(bd, sq, sq);
	}
	return have ? acc : segc_plan_emit_const_si(bd, 1);
}

/* Non-zero when slot 's' holds an integer k with |k| < 2^20, in '*k'. */
static int small_int(const segc_plan_builder *bd, size_t s, long *k)
{
	mpq_srcptr y = segc_plan_slot_num(bd, s);

	if (!y || mpz_cmp_ui(mpq_denref(y), 1) ||
	    mpz_cmpabs_ui(mpq_numref(y), (1UL << 20) - 1) > 0)
		return 0;
	*k = mpz_get_si(mpq_numref(y));
	return 1;
}

/* See plan_private.h. */
int segc_plan_is_root_pow(const segc_plan_builder *bd,
	const segc_eplan_ins *in)
{
	mpq_srcptr y = in->op == SEGC_EPO_POW ?
		segc_plan_slot_num(bd, in->arg[1]) : NULL;

	return y && mpz_cmp_ui(mpq_denref(y), 1) != 0;
}

/* See plan_private.h: x^(p/q) = x^k * (x^(1/q))^r for |p| = k*q + r,
 * 0 <= r < q (N^(3/2) = N*sqrt(N), one rounding fewer than sqrt(N)^3,
 * and none of x's roundings multiplied by p/q), x^(1/q) by sqrt for each
 * factor 2 of q (correctly rounded) and one ROOT for the odd rest; 1/that
 * for p < 0. */
int segc_plan_root_pow(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out)
{
	mpq_srcptr y = segc_plan_slot_num(bd, in->arg[1]);
	size_t v, x;
	unsigned long q, k;
	long p;

	if (!mpz_fits_slong_p(mpq_numref(y)) ||
	    mpz_cmp_ui(mpq_denref(y), 1UL << 20) > 0 ||
	    mpz_cmpabs_ui(mpq_numref(y), 1UL << 20) > 0)
		return segc_plan_fail(bd, "%s: an exponent or the index of a "
			"root is too large to plan (2^20)", "^");
	if (segc_plan_slot(bd, in->arg[0], &x))
		return -1;
	p = mpz_get_si(mpq_numref(y));
	q = mpz_get_ui(mpq_denref(y));
	k = (unsigned long)labs(p) / q;
	v = x;
	for (; q % 2 == 0; q /= 2)
		v = segc_plan_emit_op(bd, SEGC_OP_SQRT, v, 0);
	if (q > 1)
		v = segc_plan_emit_op(bd, SEGC_OP_ROOT, v, (size_t)q);
	/* r = |p| - k*q of the roots of index q * 2^(its factors 2) */
	v = emit_pow(bd, v, (unsigned long)labs(p) %
		mpz_get_ui(mpq_denref(y)));
	if (k)
		v = segc_plan_emit_mul(bd, emit_pow(bd, x, k), v);
	if (p < 0)
		v = segc_plan_emit_op(bd, SEGC_OP_DIV,
			segc_plan_emit_const_si(bd, 1), v);
	*out = v;
	return 0;
}

/* ------------------------------------------------ Laurent polynomials */

/* Frees the memory of 'lp'. */
static void lpoly_clear(lpoly *lp)
{
	size_t i;

	for (i = 0; i < lp->nterms; i++) {
		mpq_clear(lp->terms[i].coeff);
		free(lp->terms[i].exps);
	}
	free(lp->terms);
	free(lp->atoms);
	free(lp->atom_value);
	free(lp->atom_rank);
	memset(lp, 0, sizeof *lp);
}

/* The index of the atom slot 's' in 'lp', added (and lowered) when new;
 * (size_t)-1 on failure. */
static size_t lpoly_atom(segc_plan_builder *bd, lpoly *lp, size_t s)
{
	size_t i, v, k;

	for (i = 0; i < lp->natoms; i++)
		if (lp->atoms[i] == s)
			return i;
	if (segc_plan_slot(bd, s, &v))
		return (size_t)-1;
	if (lp->natoms == lp->capatoms) {
		lp->capatoms = lp->capatoms ? 2 * lp->capatoms : 8;
		lp->atoms = segc_xrealloc(lp->atoms,
			segc_xmul_size(lp->capatoms, sizeof *lp->atoms));
		lp->atom_value = segc_xrealloc(lp->atom_value,
			segc_xmul_size(lp->capatoms, sizeof *lp->atom_value));
		lp->atom_rank = segc_xrealloc(lp->atom_rank,
			segc_xmul_size(lp->capatoms, sizeof *lp->atom_rank));
		for (k = 0; k < lp->nterms; k++)
			lp->terms[k].exps = segc_xrealloc(lp->terms[k].exps,
				segc_xmul_size(lp->capatoms, sizeof(long)));
		for (k = 0; k < lp->nterms; k++)
			memset(lp->terms[k].exps + lp->natoms, 0,
				(lp->capatoms - lp->natoms) * sizeof(long));
	}
	i = lp->natoms++;
	lp->atoms[i] = s;
	lp->atom_value[i] = v;
	/* ordered by argument, the other atoms after them */
	k = segc_plan_arg_index(bd, s);
	lp->atom_rank[i] = (long)(k != SIZE_MAX ? k : bd->p->nargs + i);
	return i;
}

/* Appends a term with coefficient 1 and no atoms; returns it. */
static term *lpoly_new_term(lpoly *lp)
{
	term *t;

	if (lp->nterms == lp->capterms) {
		lp->capterms = lp->capterms ? 2 * lp->capterms : 8;
		lp->terms = segc_xrealloc(lp->terms,
			segc_xmul_size(lp->capterms, sizeof *lp->terms));
	}
	t = &lp->terms[lp->nterms++];
	mpq_init(t->coeff);
	mpq_set_ui(t->coeff, 1, 1);
	t->exps = segc_xcalloc(lp->capatoms ? lp->capatoms : 1, sizeof(long));
	return t;
}

/* Multiplies the last term of 'lp' by the factor slot 's'. */
static int lpoly_factor(segc_plan_builder *bd, lpoly *lp, size_t s)
{
	mpq_srcptr q = segc_plan_slot_num(bd, s);
	const segc_eplan_ins *pw = segc_plan_def_op(bd, s, SEGC_EPO_POW, 0);
	long k = 1;
	size_t a;

	if (q) {
		mpq_mul(lp->terms[lp->nterms - 1].coeff,
			lp->terms[lp->nterms - 1].coeff, q);
		return 0;
	}
	/* x^k an atom to a power; x^(p/q) an atom of its own */
	if (pw && small_int(bd, pw->arg[1], &k))
		s = pw->arg[0];
	else if (pw && !segc_plan_is_root_pow(bd, pw))
		return segc_plan_fail(bd, "%s: an exponent or the index of a "
			"root is too large to plan (2^20)", "^");
	a = lpoly_atom(bd, lp, s);
	if (a == (size_t)-1)
		return -1;
	lp->terms[lp->nterms - 1].exps[a] += k;
	return 0;
}

/* Multiplies the last term of 'lp' by the factors of the product 'in',
 * and of the products hoisted out of it. */
static int lpoly_factors(segc_plan_builder *bd, lpoly *lp,
	const segc_eplan_ins *in)
{
	size_t i;

	for (i = 0; i < in->nargs; i++) {
		const segc_eplan_ins *h = segc_plan_def_op(bd, in->arg[i],
			SEGC_EPO_MUL, 1);

		if (h ? lpoly_factors(bd, lp, h) :
		    lpoly_factor(bd, lp, in->arg[i]))
			return -1;
	}
	return 0;
}

/* Adds the term slot 's' (a product, a power, an atom or a number) to
 * 'lp'. */
static int lpoly_term(segc_plan_builder *bd, lpoly *lp, size_t s)
{
	const segc_eplan_ins *m = segc_plan_def_op(bd, s, SEGC_EPO_MUL, 0);

	lpoly_new_term(lp);
	return m ? lpoly_factors(bd, lp, m) : lpoly_factor(bd, lp, s);
}

/* Adds the terms of the sum 'in', and of the sums hoisted out of it. */
static int lpoly_terms(segc_plan_builder *bd, lpoly *lp,
	const segc_eplan_ins *in)
{
	size_t i;

	for (i = 0; i < in->nargs; i++) {
		const segc_eplan_ins *h = segc_plan_def_op(bd, in->arg[i],
			SEGC_EPO_ADD, 1);

		if (h ? lpoly_terms(bd, lp, h) : lpoly_term(bd, lp, in->arg[i]))
			return -1;
	}
	return 0;
}

/* Collects the sum, product or power 'in' into 'lp'. */
static int lpoly_collect(segc_plan_builder *bd, lpoly *lp,
	const segc_eplan_ins *in)
{
	return in->op == SEGC_EPO_ADD ? lpoly_terms(bd, lp, in) :
		lpoly_term(bd, lp, in->dst);
}

/* ------------------------------------------------------------ Horner */

/* The Horner context: the atoms in evaluation order. */
typedef struct horner {
	segc_plan_builder *bd;
	const lpoly *lp;
	size_t *order;   /* atom indices, outermost variable first */
} horner;

/* Exponent of the atom at 'level' in term 't'. */
static long hexp(const horner *h, const term *t, size_t level)
{
	return t->exps[h->order[level]];
}

/* Compares terms 'a' and 'b' by their exponents, outermost atom first. */
static int term_cmp(const horner *h, const term *a, const term *b)
{
	size_t l;

	for (l = 0; l < h->lp->natoms; l++) {
		long x = hexp(h, a, l), y = hexp(h, b, l);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* Sorts 'ts[0..n)' by term_cmp (a stable merge sort; 'tmp' as long). */
static void sort_terms(const horner *h, const term **ts, const term **tmp,
	size_t n)
{
	size_t w, i;

	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t lo = i, mid = i + w < n ? i + w : n;
			size_t hi = i + 2 * w < n ? i + 2 * w : n;
			size_t l = lo, r = mid, k = lo;

			while (l < mid || r < hi)
				tmp[k++] = r >= hi || (l < mid &&
					term_cmp(h, ts[l], ts[r]) <= 0) ?
					ts[l++] : ts[r++];
		}
		memcpy(ts, tmp, n * sizeof *ts);
	}
}

/* Plans the terms 'ts[0..n)' (sorted from 'level' on, exponents >= 0)
 * by Horner's rule in the atom at 'level', the coefficients recursively
 * in the atoms after it. */
static size_t horner_plan(const horner *h, const term **ts, size_t n,
	size_t level)
{
	segc_plan_builder *bd = h->bd;
	size_t i, j, acc = 0, x, ngroups = 0;
	long prev = 0;
	size_t *coeffs, *starts;

	if (level == h->lp->natoms) {
		mpq_t s;

		mpq_init(s);
		for (i = 0; i < n; i++)
			mpq_add(s, s, ts[i]->coeff);
		acc = segc_plan_emit_const(bd, s);
		mpq_clear(s);
		return acc;
	}
	x = h->lp->atom_value[h->order[level]];
	coeffs = segc_xmalloc(segc_xmul_size(n, sizeof *coeffs));
	starts = segc_xmalloc(segc_xmul_size(n + 1, sizeof *starts));
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && hexp(h, ts[j], level) ==
		     hexp(h, ts[i], level); j++)
			;
		starts[ngroups] = i;
		coeffs[ngroups++] = horner_plan(h, ts + i, j - i, level + 1);
	}
	starts[ngroups] = n;
	for (i = ngroups; i-- > 0;) {
		long e = hexp(h, ts[starts[i]], level);

		if (i + 1 < ngroups)
			acc = segc_plan_emit_add(bd, coeffs[i],
				segc_plan_emit_mul(bd, emit_pow(bd, x,
				(unsigned long)(prev - e)), acc));
		else
			acc = coeffs[i];
		prev = e;
	}
	if (prev > 0)
		acc = segc_plan_emit_mul(bd, emit_pow(bd, x,
			(unsigned long)prev), acc);
	free(coeffs);
	free(starts);
	return acc;
}

/* Orders the atoms of 'lp': arguments in their order, then the others. */
static void atom_order(const lpoly *lp, size_t *order)
{
	size_t i, j;

	for (i = 0; i < lp->natoms; i++)
		order[i] = i;
	for (i = 1; i < lp->natoms; i++)
		for (j = i; j > 0 && lp->atom_rank[order[j - 1]] >
		     lp->atom_rank[order[j]]; j--) {
			size_t t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

/* Shifts the exponents of 'lp' so that each atom's least is 0; the shifts
 * go to 'shift'. */
static void lpoly_shift(lpoly *lp, long *shift)
{
	size_t a, t;

	for (a = 0; a < lp->natoms; a++) {
		shift[a] = 0;
		for (t = 0; t < lp->nterms; t++)
			if (t == 0 || lp->terms[t].exps[a] < shift[a])
				shift[a] = lp->terms[t].exps[a];
		for (t = 0; t < lp->nterms; t++)
			lp->terms[t].exps[a] -= shift[a];
	}
}

/* Multiplies 'v' by the atoms' powers 'shift': positive ones as factors,
 * negative ones together as one divisor. */
static size_t apply_shift(segc_plan_builder *bd, const lpoly *lp,
	const size_t *order, const long *shift, size_t v)
{
	size_t i, den = 0;
	int have_den = 0;

	for (i = 0; i < lp->natoms; i++) {
		size_t a = order[i];
		long s = shift[a];

		if (s > 0)
			v = segc_plan_emit_mul(bd, v, emit_pow(bd,
				lp->atom_value[a], (unsigned long)s));
		else if (s < 0) {
			size_t f = emit_pow(bd, lp->atom_value[a],
				0UL - (unsigned long)s);

			den = have_den ? segc_plan_emit_mul(bd, den, f) : f;
			have_den = 1;
		}
	}
	return have_den ? segc_plan_emit_op(bd, SEGC_OP_DIV, v, den) : v;
}

/* The most a polynomial's coefficients are multiplied by to make them
 * integers (see lpoly_lcm). */
#define LCM_MAX (1L << 20)

/* The lcm L of the denominators of the coefficients of 'lp', when they
 * have both signs, L is not a power of 2 and at most LCM_MAX, and every
 * coefficient times L is an integer below 2^53 in magnitude; else 1.  The polynomial is then
 * planned times L, with integer coefficients that are exact in double,
 * and divided by L once: where the atoms are integers too, the sum is of
 * integers, exact where they stay below 2^53 (plan_bound.c proves where),
 * and cancels exactly, where 4*N^2/3 - 8*N*c/3 rounded its coefficients
 * and could leave 1e-13 for 0. */
static long lpoly_lcm(const lpoly *lp)
{
	size_t i;
	long l = 1;
	int signs = 0;
	mpz_t L, t;

	mpz_init_set_ui(L, 1);
	mpz_init(t);
	for (i = 0; i < lp->nterms && mpz_cmp_ui(L, LCM_MAX) <= 0; i++)
		mpz_lcm(L, L, mpq_denref(lp->terms[i].coeff));
	for (i = 0; i < lp->nterms; i++)
		signs |= mpq_sgn(lp->terms[i].coeff) > 0 ? 1 : 2;
	/* only for a sum that may cancel, and denominators other than
	 * powers of 2 (those coefficients are exact in double already) */
	if (signs == 3 && mpz_cmp_ui(L, LCM_MAX) <= 0 &&
	    mpz_scan1(L, 0) + 1 < mpz_sizeinbase(L, 2)) {
		l = (long)mpz_get_ui(L);
		for (i = 0; i < lp->nterms && l > 1; i++) {
			mpz_divexact(t, L, mpq_denref(lp->terms[i].coeff));
			mpz_mul(t, t, mpq_numref(lp->terms[i].coeff));
			if (mpz_sizeinbase(t, 2) > 53)
				l = 1;
		}
	}
	mpz_clear(L);
	mpz_clear(t);
	return l;
}

/* Multiplies every coefficient of 'lp' by 'l'. */
static void lpoly_scale(lpoly *lp, long l)
{
	size_t i;

	for (i = 0; i < lp->nterms; i++) {
		mpz_mul_si(mpq_numref(lp->terms[i].coeff),
			mpq_numref(lp->terms[i].coeff), l);
		mpq_canonicalize(lp->terms[i].coeff);
	}
}

/* Lowers the sum, product or power 'in' as a Laurent polynomial in its
 * atoms. */
int segc_plan_poly(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out)
{
	lpoly lp;
	horner h;
	const term **ts = NULL, **tmp = NULL;
	long *shift = NULL, l;
	size_t i, v;
	int rc = -1;

	memset(&lp, 0, sizeof lp);
	if (lpoly_collect(bd, &lp, in))
		goto out;
	if (lp.natoms > MAX_ATOMS || lp.nterms * (lp.natoms + 1) > MAX_CELLS) {
		segc_error(bd->ctx, SEGC_ERR_LIMIT, bd->where ? bd->where->file
			: NULL, bd->where ? bd->where->line : 0, 0, "the formula is "
			"too large to emit (%lu terms over %lu atoms)",
			(unsigned long)lp.nterms, (unsigned long)lp.natoms);
		bd->failed = 1;
		goto out;
	}
	h.bd = bd;
	h.lp = &lp;
	h.order = segc_xcalloc(lp.natoms + 1, sizeof *h.order);
	shift = segc_xcalloc(lp.natoms + 1, sizeof *shift);
	ts = segc_xmalloc(segc_xmul_size(lp.nterms, sizeof *ts));
	tmp = segc_xmalloc(segc_xmul_size(lp.nterms, sizeof *tmp));
	atom_order(&lp, h.order);
	lpoly_shift(&lp, shift);
	for (i = 0; i < lp.nterms; i++)
		ts[i] = &lp.terms[i];
	sort_terms(&h, ts, tmp, lp.nterms);
	l = lpoly_lcm(&lp);
	if (l > 1)
		lpoly_scale(&lp, l);
	v = horner_plan(&h, ts, lp.nterms, 0);
	if (l > 1)
		v = segc_plan_emit_op(bd, SEGC_OP_DIV, v,
			segc_plan_emit_const_si(bd, l));
	*out = apply_shift(bd, &lp, h.order, shift, v);
	free(h.order);
	rc = 0;
out:
	free(ts);
	free(tmp);
	free(shift);
	lpoly_clear(&lp);
	return rc;
}
