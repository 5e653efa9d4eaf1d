/* plan.c - the evaluation plan of an emitted predictor: a straight-line
 * program of double operations computing a formula, built as data before
 * any C is printed (emit.c prints it).  Sums of products are evaluated by
 * multivariate Horner's rule over the formula's variables (the arguments
 * in order, then other atoms), integer powers by repeated squaring, the
 * negative powers of a sum of terms by one division at the end.  Every
 * value is numbered: an operation already computed is not computed again,
 * and a shared subexpression is planned once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "output.h"
#include "expr_private.h"

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
	const segc_expr **atoms;  /* the atoms' expressions */
	size_t *atom_value;       /* their planned values */
	long *atom_rank;          /* ordering key: argument index, else big */
} lpoly;

/* The state of one plan build. */
typedef struct builder {
	segc_ctx *ctx;
	const segc_where *where;
	segc_plan *p;
	segc_expr_map exprs;       /* node -> value number + 1 */
	int failed;
} builder;

static int plan_expr(builder *bd, const segc_expr *e, size_t *out);

/* ---------------------------------------------------- value numbering */

/* Non-zero when instruction 'i' of 'p' is (op, a, b) (or the constant q). */
static int insn_same(const segc_plan_insn *i, enum segc_plan_op op,
	size_t a, size_t b, mpq_srcptr q)
{
	if (i->op != op)
		return 0;
	if (op == SEGC_OP_CONST)
		return mpq_equal(i->q, q);
	return i->a == a && i->b == b;
}

/* Appends the instruction (op, a, b); returns its value number. */
static size_t new_insn(builder *bd, enum segc_plan_op op, size_t a, size_t b)
{
	segc_plan *p = bd->p;
	size_t i;

	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 32;
		p->insn = segc_xrealloc(p->insn,
			segc_xmul_size(p->cap, sizeof *p->insn));
	}
	i = p->n++;
	memset(&p->insn[i], 0, sizeof p->insn[i]);
	mpq_init(p->insn[i].q);
	p->insn[i].op = op;
	p->insn[i].a = a;
	p->insn[i].b = b;
	return i;
}

/* The value number of (op, a, b): the plan's own when it has it already,
 * else a new instruction.  Commutative operands are ordered first. */
static size_t emit_op(builder *bd, enum segc_plan_op op, size_t a, size_t b)
{
	segc_plan *p = bd->p;
	size_t i;

	if ((op == SEGC_OP_ADD || op == SEGC_OP_MUL || op == SEGC_OP_FMAX ||
	     op == SEGC_OP_FMIN) && a > b) {
		size_t t = a;

		a = b;
		b = t;
	}
	for (i = p->n; i-- > 0;)
		if (insn_same(&p->insn[i], op, a, b, NULL))
			return i;
	return new_insn(bd, op, a, b);
}

/* The value number of the constant 'q' (rounded to double). */
static size_t emit_const(builder *bd, mpq_srcptr q)
{
	segc_plan *p = bd->p;
	size_t i;
	double d;

	for (i = 0; i < p->n; i++)
		if (insn_same(&p->insn[i], SEGC_OP_CONST, 0, 0, q))
			return i;
	if (segc_plan_round(&d, q)) {
		segc_error(bd->ctx, SEGC_ERR_LIMIT, bd->where ? bd->where->file
			: NULL, bd->where ? bd->where->line : 0, 0,
			"a coefficient is too large for a double");
		bd->failed = 1;
		d = 0;
	}
	i = new_insn(bd, SEGC_OP_CONST, 0, 0);
	p->insn[i].value = d;
	mpq_set(p->insn[i].q, q);
	return i;
}

/* The value number of the constant 'v'. */
static size_t emit_const_si(builder *bd, long v)
{
	mpq_t q;
	size_t i;

	mpq_init(q);
	mpq_set_si(q, v, 1);
	i = emit_const(bd, q);
	mpq_clear(q);
	return i;
}

/* Non-zero when value 'i' is the constant 'v'. */
static int is_const(const builder *bd, size_t i, long v)
{
	const segc_plan_insn *in = &bd->p->insn[i];

	return in->op == SEGC_OP_CONST && mpq_cmp_si(in->q, v, 1) == 0;
}

/* a + b, a * b with the trivial cases folded. */
static size_t emit_add(builder *bd, size_t a, size_t b)
{
	if (is_const(bd, a, 0))
		return b;
	if (is_const(bd, b, 0))
		return a;
	return emit_op(bd, SEGC_OP_ADD, a, b);
}

/* a * b with multiplications by 1 left out. */
static size_t emit_mul(builder *bd, size_t a, size_t b)
{
	if (is_const(bd, a, 1))
		return b;
	if (is_const(bd, b, 1))
		return a;
	return emit_op(bd, SEGC_OP_MUL, a, b);
}

/* x^k for k >= 1 by repeated squaring (x^2, x^4, ... are shared). */
static size_t emit_pow(builder *bd, size_t x, unsigned long k)
{
	size_t acc = 0, sq = x;
	int have = 0;

	while (k) {
		if (k & 1) {
			acc = have ? emit_mul(bd, acc, sq) : sq;
			have = 1;
		}
		k >>= 1;
		if (k)
			sq = emit_mul(bd, sq, sq);
	}
	return have ? acc : emit_const_si(bd, 1);
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

/* The index of the atom 'e' in 'lp', added (and planned) when new;
 * (size_t)-1 on failure. */
static size_t lpoly_atom(builder *bd, lpoly *lp, const segc_expr *e)
{
	size_t i, v, k;

	for (i = 0; i < lp->natoms; i++)
		if (lp->atoms[i] == e)
			return i;
	if (plan_expr(bd, e, &v))
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
	lp->atoms[i] = e;
	lp->atom_value[i] = v;
	lp->atom_rank[i] = (long)(bd->p->nargs + i);
	if (segc_expr_kind(e) == SEGC_SYM)
		for (k = 0; k < bd->p->nargs; k++)
			if (!strcmp(bd->p->args[k], segc_expr_name(e)))
				lp->atom_rank[i] = (long)k;
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

/* Non-zero when 'e' is base^k with k an integer that fits a long. */
static int int_power(const segc_expr *e, long *k)
{
	const segc_expr *x;

	if (segc_expr_kind(e) != SEGC_POW)
		return 0;
	x = segc_expr_arg(e, 1);
	if (!segc_expr_is_integer(x) || !mpz_fits_slong_p(
	    mpq_numref(segc_expr_value(x))))
		return 0;
	*k = mpz_get_si(mpq_numref(segc_expr_value(x)));
	return *k > -(1L << 20) && *k < (1L << 20);
}

/* Multiplies the last term of 'lp' by the factor 'f'. */
static int lpoly_factor(builder *bd, lpoly *lp, const segc_expr *f)
{
	long k = 1;
	size_t a;

	if (segc_expr_kind(f) == SEGC_NUM) {
		mpq_mul(lp->terms[lp->nterms - 1].coeff,
			lp->terms[lp->nterms - 1].coeff, segc_expr_value(f));
		return 0;
	}
	if (int_power(f, &k))
		f = segc_expr_arg(f, 0);
	else
		k = 1;
	a = lpoly_atom(bd, lp, f);
	if (a == (size_t)-1)
		return -1;
	lp->terms[lp->nterms - 1].exps[a] += k;
	return 0;
}

/* Adds the term 'e' (a product, a power, an atom or a number) to 'lp'. */
static int lpoly_term(builder *bd, lpoly *lp, const segc_expr *e)
{
	size_t i;

	lpoly_new_term(lp);
	if (segc_expr_kind(e) != SEGC_MUL)
		return lpoly_factor(bd, lp, e);
	for (i = 0; i < segc_expr_nargs(e); i++)
		if (lpoly_factor(bd, lp, segc_expr_arg(e, i)))
			return -1;
	return 0;
}

/* Collects the sum (or single term) 'e' into 'lp'. */
static int lpoly_collect(builder *bd, lpoly *lp, const segc_expr *e)
{
	size_t i;

	if (segc_expr_kind(e) != SEGC_ADD)
		return lpoly_term(bd, lp, e);
	for (i = 0; i < segc_expr_nargs(e); i++)
		if (lpoly_term(bd, lp, segc_expr_arg(e, i)))
			return -1;
	return 0;
}

/* ------------------------------------------------------------ Horner */

/* The Horner context: the atoms in evaluation order. */
typedef struct horner {
	builder *bd;
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
	builder *bd = h->bd;
	size_t i, j, acc = 0, x, ngroups = 0;
	long prev = 0;
	size_t *coeffs, *starts;

	if (level == h->lp->natoms) {
		mpq_t s;

		mpq_init(s);
		for (i = 0; i < n; i++)
			mpq_add(s, s, ts[i]->coeff);
		acc = emit_const(bd, s);
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
			acc = emit_add(bd, coeffs[i], emit_mul(bd,
				emit_pow(bd, x, (unsigned long)(prev - e)), acc));
		else
			acc = coeffs[i];
		prev = e;
	}
	if (prev > 0)
		acc = emit_mul(bd, emit_pow(bd, x, (unsigned long)prev), acc);
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
static size_t apply_shift(builder *bd, const lpoly *lp, const size_t *order,
	const long *shift, size_t v)
{
	size_t i, den = 0;
	int have_den = 0;

	for (i = 0; i < lp->natoms; i++) {
		size_t a = order[i];
		long s = shift[a];

		if (s > 0)
			v = emit_mul(bd, v, emit_pow(bd, lp->atom_value[a],
				(unsigned long)s));
		else if (s < 0) {
			size_t f = emit_pow(bd, lp->atom_value[a],
				0UL - (unsigned long)s);

			den = have_den ? emit_mul(bd, den, f) : f;
			have_den = 1;
		}
	}
	return have_den ? emit_op(bd, SEGC_OP_DIV, v, den) : v;
}

/* Plans the sum, product or power 'e' as a Laurent polynomial in its
 * atoms. */
static int plan_poly(builder *bd, const segc_expr *e, size_t *out)
{
	lpoly lp;
	horner h;
	const term **ts = NULL, **tmp = NULL;
	long *shift = NULL;
	size_t i;
	int rc = -1;

	memset(&lp, 0, sizeof lp);
	if (lpoly_collect(bd, &lp, e))
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
	*out = apply_shift(bd, &lp, h.order, shift,
		horner_plan(&h, ts, lp.nterms, 0));
	free(h.order);
	rc = 0;
out:
	free(ts);
	free(tmp);
	free(shift);
	lpoly_clear(&lp);
	return rc;
}

/* ------------------------------------------------------ other nodes */

/* Records an error about 'what' ('name') and fails the build. */
static int plan_fail(builder *bd, const char *fmt, const char *name)
{
	const segc_where *w = bd->where;

	segc_error(bd->ctx, SEGC_ERR_INPUT, w ? w->file : NULL,
		w ? w->line : 0, w ? w->col : 0, fmt, name);
	bd->failed = 1;
	return -1;
}

/* Plans max/min of the arguments of 'e' as a chain of fmax/fmin. */
static int plan_extremum(builder *bd, const segc_expr *e,
	enum segc_plan_op op, size_t *out)
{
	size_t i, v;

	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (plan_expr(bd, segc_expr_arg(e, i), &v))
			return -1;
		*out = i ? emit_op(bd, op, *out, v) : v;
	}
	return 0;
}

/* Plans mva_mem(p, t_proc, t_mem) unrolled (p a positive integer). */
static int plan_mva(builder *bd, const segc_expr *e, size_t *out)
{
	const segc_expr *p = segc_expr_arg(e, 0);
	size_t a, b, r, k;
	unsigned long np;

	if (segc_expr_nargs(e) != 3 || !segc_expr_is_integer(p) ||
	    mpq_sgn(segc_expr_value(p)) <= 0 || mpz_cmp_ui(mpq_numref(
	    segc_expr_value(p)), segc_ctx_limits(bd->ctx)->max_mva_p) > 0)
		return plan_fail(bd, "%s: p must be a positive integer "
			"constant within the limit", "mva_mem");
	if (plan_expr(bd, segc_expr_arg(e, 1), &a) ||
	    plan_expr(bd, segc_expr_arg(e, 2), &b))
		return -1;
	np = mpz_get_ui(mpq_numref(segc_expr_value(p)));
	r = b;
	for (k = 1; k < np; k++) {
		size_t q = emit_op(bd, SEGC_OP_DIV, emit_mul(bd,
			emit_const_si(bd, (long)k), r), emit_add(bd, a, r));

		r = emit_mul(bd, emit_add(bd, emit_const_si(bd, 1), q), b);
	}
	*out = r;
	return 0;
}

/* Plans a call of a built-in function; any other is an error. */
static int plan_call(builder *bd, const segc_expr *e, size_t *out)
{
	static const struct { const char *name; enum segc_plan_op op; } un[] = {
		{ "ceil", SEGC_OP_CEIL }, { "floor", SEGC_OP_FLOOR },
		{ "sqrt", SEGC_OP_SQRT }, { "log2", SEGC_OP_LOG2 }
	};
	const char *f = segc_expr_name(e);
	size_t i, v;

	if (!strcmp(f, "max"))
		return plan_extremum(bd, e, SEGC_OP_FMAX, out);
	if (!strcmp(f, "min"))
		return plan_extremum(bd, e, SEGC_OP_FMIN, out);
	if (!strcmp(f, "mva_mem"))
		return plan_mva(bd, e, out);
	for (i = 0; i < sizeof un / sizeof un[0]; i++)
		if (!strcmp(f, un[i].name) && segc_expr_nargs(e) == 1) {
			if (plan_expr(bd, segc_expr_arg(e, 0), &v))
				return -1;
			*out = emit_op(bd, un[i].op, v, 0);
			return 0;
		}
	return plan_fail(bd, "cannot emit C while the uninterpreted call "
		"'%s' remains: give a machine that defines it", f);
}

/* Plans a symbol: one of the arguments. */
static int plan_sym(builder *bd, const segc_expr *e, size_t *out)
{
	size_t i;

	for (i = 0; i < bd->p->nargs; i++)
		if (!strcmp(bd->p->args[i], segc_expr_name(e))) {
			*out = emit_op(bd, SEGC_OP_ARG, i, 0);
			return 0;
		}
	return plan_fail(bd, "cannot emit C while '%s' is unbound: bind it "
		"(-D, a machine) or keep it as an argument (--keep)",
		segc_expr_name(e));
}

/* Plans 'e' (each node once); its value number goes to 'out'. */
static int plan_expr(builder *bd, const segc_expr *e, size_t *out)
{
	void **slot = segc_expr_map_find(&bd->exprs, e);
	int rc;

	if (slot) {
		*out = (size_t)(uintptr_t)*slot - 1;
		return 0;
	}
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		*out = emit_const(bd, segc_expr_value(e));
		rc = 0;
		break;
	case SEGC_SYM:
		rc = plan_sym(bd, e, out);
		break;
	case SEGC_CALL:
		rc = plan_call(bd, e, out);
		break;
	case SEGC_SUM:
		rc = plan_fail(bd, "cannot emit C for a sum over '%s' that has "
			"no closed form", segc_expr_name(e));
		break;
	default:
		rc = plan_poly(bd, e, out);
		break;
	}
	if (!rc)
		segc_expr_map_put(&bd->exprs, e, (void *)(uintptr_t)(*out + 1));
	return rc;
}

/* Non-zero when instruction 'in' has a second operand. */
static int binary(const segc_plan_insn *in)
{
	return in->op == SEGC_OP_ADD || in->op == SEGC_OP_SUB ||
		in->op == SEGC_OP_MUL || in->op == SEGC_OP_DIV ||
		in->op == SEGC_OP_FMAX || in->op == SEGC_OP_FMIN;
}

/* Counts the uses of every value by the live instructions (those the
 * result depends on; the result counts as one use) and the operations
 * among them. */
static void count_uses(segc_plan *p)
{
	size_t i;

	p->insn[p->result].uses++;
	p->flops = 0;
	for (i = p->n; i-- > 0;) {
		segc_plan_insn *in = &p->insn[i];

		if (!in->uses || in->op == SEGC_OP_CONST || in->op == SEGC_OP_ARG)
			continue;
		p->flops++;
		p->insn[in->a].uses++;
		if (binary(in))
			p->insn[in->b].uses++;
	}
}

/* Builds the plan of 'e' over the arguments 'args'. */
segc_plan *segc_plan_build(segc_ctx *ctx, const segc_expr *e, size_t nargs,
	const char *const *args, const segc_where *where)
{
	builder bd;
	size_t i;

	memset(&bd, 0, sizeof bd);
	bd.ctx = ctx;
	bd.where = where;
	bd.p = segc_xcalloc(1, sizeof *bd.p);
	bd.p->nargs = nargs;
	bd.p->args = segc_xcalloc(nargs + 1, sizeof *bd.p->args);
	for (i = 0; i < nargs; i++)
		bd.p->args[i] = segc_xstrdup(args[i]);
	segc_expr_map_init(&bd.exprs);
	if (plan_expr(&bd, e, &bd.p->result) || bd.failed) {
		segc_expr_map_clear(&bd.exprs);
		segc_plan_free(bd.p);
		return NULL;
	}
	segc_expr_map_clear(&bd.exprs);
	count_uses(bd.p);
	return bd.p;
}

/* Releases 'p'. */
void segc_plan_free(segc_plan *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		mpq_clear(p->insn[i].q);
	for (i = 0; i < p->nargs; i++)
		free(p->args[i]);
	free(p->args);
	free(p->insn);
	free(p);
}

/* The correctly rounded double of 'q', subnormals included. */
int segc_plan_round(double *out, mpq_srcptr q)
{
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_t x;
	int t;

	mpfr_set_emin(-1073);
	mpfr_set_emax(1024);
	mpfr_init2(x, 53);
	t = mpfr_set_q(x, q, MPFR_RNDN);
	mpfr_subnormalize(x, t, MPFR_RNDN);
	*out = mpfr_get_d(x, MPFR_RNDN);
	t = mpfr_inf_p(x);
	mpfr_clear(x);
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	return t ? -1 : 0;
}

/* ---------------------------------------------------------- free names */

/* Names collected by a walk: distinct, in a growing array. */
typedef struct name_set {
	const char **v;
	size_t n, cap;
} name_set;

/* Adds 'name' to 's' unless present. */
static void name_set_add(name_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], name))
			return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = segc_xrealloc(s->v, segc_xmul_size(s->cap, sizeof *s->v));
	}
	s->v[s->n++] = name;
}

/* Non-zero when 'f' is a function the outputs know (not uninterpreted). */
static int is_builtin(const char *f)
{
	static const char *const b[] = {
		"max", "min", "ceil", "floor", "log2", "sqrt", "mva_mem", "if",
		"and", "or", "not", "<", "<=", ">", ">=", "==", "!=", NULL
	};
	size_t i;

	for (i = 0; b[i]; i++)
		if (!strcmp(b[i], f))
			return 1;
	return 0;
}

static void names_walk(const segc_expr *e, int calls, name_set *s,
	segc_expr_map *seen);

/* Adds the names of the body of the sum 'e' to 's', except its variable. */
static void names_sum(const segc_expr *e, int calls, name_set *s)
{
	segc_expr_map seen;
	name_set inner = { NULL, 0, 0 };
	size_t i;

	segc_expr_map_init(&seen);
	names_walk(segc_expr_arg(e, 2), calls, &inner, &seen);
	for (i = 0; i < inner.n; i++)
		if (calls || strcmp(inner.v[i], segc_expr_name(e)))
			name_set_add(s, inner.v[i]);
	free(inner.v);
	segc_expr_map_clear(&seen);
}

/* Adds the free symbols (or, when 'calls', the names of uninterpreted
 * calls) of 'e' to 's', visiting each node once. */
static void names_walk(const segc_expr *e, int calls, name_set *s,
	segc_expr_map *seen)
{
	size_t i, n = segc_expr_nargs(e);

	if (!segc_expr_map_put(seen, e, NULL))
		return;
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		return;
	case SEGC_SYM:
		if (!calls)
			name_set_add(s, segc_expr_name(e));
		return;
	case SEGC_SUM:
		names_walk(segc_expr_arg(e, 0), calls, s, seen);
		names_walk(segc_expr_arg(e, 1), calls, s, seen);
		names_sum(e, calls, s);
		return;
	case SEGC_CALL:
		if (calls && !is_builtin(segc_expr_name(e)))
			name_set_add(s, segc_expr_name(e));
		break;
	default:
		break;
	}
	for (i = 0; i < n; i++)
		names_walk(segc_expr_arg(e, i), calls, s, seen);
}

/* Orders two names for qsort. */
static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The free names (or uninterpreted calls) of 'e', sorted. */
size_t segc_output_names(const segc_expr *e, int calls, const char ***out)
{
	name_set s = { NULL, 0, 0 };
	segc_expr_map seen;

	segc_expr_map_init(&seen);
	names_walk(e, calls, &s, &seen);
	segc_expr_map_clear(&seen);
	if (s.n)
		qsort(s.v, s.n, sizeof *s.v, name_cmp);
	*out = s.v;
	return s.n;
}
