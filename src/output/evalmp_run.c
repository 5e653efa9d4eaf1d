/* evalmp_run.c - running an evaluation plan (evalmp_plan.h) at a point:
 * every slot a value allocated once for the run, each block's operations
 * in order, loops and branches by running their blocks.  The operations
 * do what the walk of evalmp.c does for the node they come from (the
 * same value functions, the same errors); sums of more than
 * SUM_CLOSED_FORM_TERMS terms are still tried in closed form first.
 * Every term of a sum and every iteration of a recurrence counts against
 * max_eval_terms, nested or not. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "output/evalmp_plan.h"
#include "graph/maxplus.h"
#include "base/util.h"

/* The limbs of a finish time of a recurrence that count one term more
 * an iteration (see mpv_costs). */
#define MPV_LIMBS_A_TERM 4

/* The state of a run. */
typedef struct prun {
	const segc_eplan *p;
	segc_evaluator *ev;
	segc_val *v;              /* per slot */
} prun;

static int run_block(prun *r, const segc_eplan_block *b);

/* The truth held by slot 's'. */
static int truth(const prun *r, size_t s)
{
	return mpq_sgn(r->v[s].q) != 0;
}

/* Sets slot 's' to the truth 't'. */
static void set_truth(prun *r, size_t s, int t)
{
	r->v[s].exact = 1;
	mpq_set_ui(r->v[s].q, t != 0, 1);
}

/* A sum or product of the arguments of 'in'. */
static void run_nary(prun *r, const segc_eplan_ins *in, enum segc_val_op op)
{
	segc_val *d = &r->v[in->dst];
	size_t i;

	segc_val_set(d, &r->v[in->arg[0]]);
	for (i = 1; i < in->nargs; i++)
		segc_val_op(d, &r->v[in->arg[i]], op);
}

/* base ^ exponent: the exponent an integer within max_exponent, the
 * result too large to be exact continued in MPFR. */
static int run_pow(prun *r, const segc_eplan_ins *in)
{
	segc_evaluator *ev = r->ev;
	const segc_val *x = &r->v[in->arg[1]];
	segc_val *out = &r->v[in->dst];
	long k, lim = (long)segc_ctx_limits(ev->ctx)->max_exponent;

	if (x->exact && mpz_cmp_ui(mpq_denref(x->q), 1) != 0) {
		segc_val_set(out, &r->v[in->arg[0]]);
		return segc_eval_root_pow(ev, out, x->q);
	}
	if (!x->exact || mpz_cmp_ui(mpq_denref(x->q), 1) != 0 ||
	    !mpz_fits_slong_p(mpq_numref(x->q)))
		return segc_eval_fail(ev, SEGC_ERR_INPUT,
			"%s: an exponent is not an integer", "^");
	k = mpz_get_si(mpq_numref(x->q));
	if (k > lim || k < -lim)
		return segc_eval_fail(ev, SEGC_ERR_LIMIT,
			"%s: an exponent exceeds the limit", "^");
	segc_val_set(out, &r->v[in->arg[0]]);
	if (k < 0 && out->exact && segc_val_sgn(out) == 0)
		return segc_eval_fail(ev, SEGC_ERR_INPUT,
			"division by zero (%s of zero)", "a negative power");
	if (k < 0 && !segc_val_sign_certain(out))
		return segc_eval_undecided(ev, "%s of a value whose distance "
			"from zero is within its rounding error",
			"a negative power");
	if (out->exact && segc_val_bits(out) * (unsigned long)(k < 0 ? -k : k)
	    > MAX_EXACT_BITS)
		segc_val_inexact(out);
	if (out->exact)
		segc_val_mpq_pow_si(out->q, k);
	else
		segc_val_pow_inexact(out, k);
	return 0;
}

/* max or min of the arguments. */
static void run_extremum(prun *r, const segc_eplan_ins *in)
{
	segc_val **xs = segc_xmalloc(segc_xmul_size(in->nargs + 1,
		sizeof *xs));
	size_t i;

	for (i = 0; i < in->nargs; i++)
		xs[i] = &r->v[in->arg[i]];
	segc_eval_extremum_vals(xs, in->nargs, &r->v[in->dst], in->aux);
	free(xs);
}

/* The exact values of the arguments 'from' .. of 'in' into a new array
 * (NULL, an error recorded, when one is not exact). */
static mpq_t *exact_args(prun *r, const segc_eplan_ins *in, size_t from,
	const char *what)
{
	size_t i, n = in->nargs - from;
	mpq_t *q = segc_xmalloc(segc_xmul_size(n + 1, sizeof(mpq_t)));

	for (i = 0; i < n; i++)
		if (!r->v[in->arg[from + i]].exact) {
			segc_eval_fail(r->ev, SEGC_ERR_INPUT, "%s", what);
			free(q);
			return NULL;
		}
	for (i = 0; i < n; i++)
		q[i][0] = r->v[in->arg[from + i]].q[0];  /* borrowed */
	return q;
}

/* maxplus(...) or taskpath(...) of the exact values of the arguments. */
static int run_atom(prun *r, const segc_eplan_ins *in)
{
	int tp = in->op == SEGC_EPO_TASKPATH;
	mpq_t *q = exact_args(r, in, 0, tp ? "the costs and bounds of "
		"indexed nodes must be rational numbers here" : "the costs of "
		"an overlapped loop must be rational numbers here");
	int rc;

	if (!q)
		return -1;
	rc = tp ? segc_eval_taskpath_q(r->ev, in->nargs, (const mpq_t *)q,
			&r->v[in->dst]) :
		segc_eval_maxplus_q(r->ev, in->nargs, (const mpq_t *)q,
			&r->v[in->dst]);
	free(q);
	return rc;
}

/* A recurrence maxplusv being run: the operation, its costs. */
typedef struct mpv_state {
	prun *r;
	const segc_eplan_ins *in;
	size_t m, k;
	mpq_t *cost, *acost;
	int failed;               /* an error recorded by mpv_costs */
	unsigned long limbs;      /* of the largest finish time of the last
				   * iteration */
} mpv_state;

/* Sets the costs of iteration 'i': runs the preheader before the first,
 * then the body.  An iteration counts one term against max_eval_terms,
 * and one more for every MPV_LIMBS_A_TERM limbs (64-bit words) of the
 * largest finish time of the iteration before: exact finish times that
 * keep growing (costs 1/i) make every iteration slower, and the work is
 * bounded, not the iterations alone. */
static int mpv_costs(void *arg, unsigned long i)
{
	mpv_state *M = arg;
	prun *r = M->r;
	const segc_eplan_ins *in = M->in;
	size_t j;

	M->failed = 1;
	if (segc_eval_charge(r->ev, 1 + M->limbs / MPV_LIMBS_A_TERM, "an overlapped loop whose costs "
			"depend on its counter takes more iterations (each "
			"counted with the size of its exact times) than the "
			"limit of %lu allows (max_eval_terms)"))
		return -1;
	r->v[in->binder].exact = 1;
	mpq_set_ui(r->v[in->binder].q, i, 1);
	if ((i == 1 && run_block(r, in->sub[0])) || run_block(r, in->sub[1]))
		return -1;
	for (j = 0; j < M->m + M->k; j++) {
		const segc_val *x = &r->v[in->arg[1 + j]];

		if (!x->exact)
			return segc_eval_fail(r->ev, SEGC_ERR_INPUT, "the costs "
				"of an overlapped loop must be rational numbers "
				"here%s", "");
		mpq_set(j < M->m ? M->cost[j] : M->acost[j - M->m], x->q);
	}
	M->failed = 0;
	return 0;
}

/* maxplusv(i, n, ...): every iteration's costs from the body. */
static int run_maxplusv(prun *r, const segc_eplan_ins *in)
{
	segc_evaluator *ev = r->ev;
	const segc_val *n = &r->v[in->arg[0]];
	segc_val *out = &r->v[in->dst];
	unsigned long max = segc_ctx_limits(ev->ctx)->max_eval_terms;
	segc_maxplus_sys s;
	mpv_state M;
	const char *why = NULL;
	size_t j;
	int rc = 0;

	if (!n->exact || mpz_cmp_ui(mpq_denref(n->q), 1) || mpq_sgn(n->q) < 0)
		return segc_eval_fail(ev, SEGC_ERR_INPUT, "the count of an "
			"overlapped loop must be an integer >= 0%s", "");
	/* more iterations than the limit: said at once, not after it */
	if (max && mpz_cmp_ui(mpq_numref(n->q), max - (ev->terms < max ?
			ev->terms : max)) > 0)
		return segc_eval_fail(ev, SEGC_ERR_LIMIT, "an overlapped loop "
			"whose costs depend on its counter takes more "
			"iterations than the limit%s (max_eval_terms)", "");
	if (segc_maxplus_decode_graph(in->e, &s)) {
		segc_maxplus_clear(&s);
		return segc_eval_fail(ev, SEGC_ERR_INPUT,
			"malformed recurrence%s", "");
	}
	M.r = r;
	M.in = in;
	M.failed = 0;
	M.m = s.m;
	M.k = s.k;
	M.cost = segc_xmalloc((s.m + 1) * sizeof(mpq_t));
	M.acost = segc_xmalloc((s.k + 1) * sizeof(mpq_t));
	for (j = 0; j < s.m; j++)
		mpq_init(M.cost[j]);
	for (j = 0; j < s.k; j++)
		mpq_init(M.acost[j]);
	s.cost = (const mpq_t *)M.cost;
	s.acost = (const mpq_t *)M.acost;
	s.astride = 1;
	M.limbs = 0;
	s.limbs = &M.limbs;
	out->exact = 1;
	rc = segc_maxplus_run(out->q, &s, n->q, ULONG_MAX, mpv_costs, &M,
		&why);
	if (rc && !M.failed)
		segc_eval_fail(ev, SEGC_ERR_INPUT, "%s", why);
	for (j = 0; j < s.m; j++)
		mpq_clear(M.cost[j]);
	for (j = 0; j < s.k; j++)
		mpq_clear(M.acost[j]);
	free(M.cost);
	free(M.acost);
	segc_maxplus_clear(&s);
	return rc ? -1 : 0;
}

/* Evaluates a bound of a sum into 'z': ceil (when 'up') or floor. */
static int sum_bound(prun *r, size_t s, int up, mpz_t z)
{
	if (segc_val_round_to_z(z, &r->v[s], up))
		return segc_eval_undecided(r->ev, "a bound of a sum (within its "
			"rounding error of an integer)%s", "");
	return 0;
}

/* The closed form of the sum 'in' from 'lo' to 'hi', with the binders in
 * scope given to the walk: 0, 1 when it has none, -1. */
static int closed_sum(prun *r, const segc_eplan_ins *in, mpz_srcptr lo,
	mpz_srcptr hi)
{
	segc_evaluator *ev = r->ev;
	size_t i;
	int rc;

	for (i = 0; i + 1 < in->nscope; i++) {
		segc_eval_push_binder(ev, in->scope[i].name);
		mpq_set(ev->binders[ev->nbinders - 1].value,
			r->v[in->scope[i].slot].q);
	}
	rc = segc_eval_closed_sum(ev, in->e, lo, hi, &r->v[in->dst]);
	for (i = 0; i + 1 < in->nscope; i++)
		segc_eval_pop_binder(ev);
	return rc;
}

/* sum(i, lo, hi, body): body for i = ceil(lo) .. floor(hi), 0 when there
 * is none; by its closed form when it has many terms and one. */
static int run_sum(prun *r, const segc_eplan_ins *in)
{
	segc_val *out = &r->v[in->dst], *bv = &r->v[in->binder];
	const segc_val *body = &r->v[in->subslot[0]];
	mpz_t lo, hi, n;
	int rc = -1;

	mpz_inits(lo, hi, n, (mpz_ptr)0);
	out->exact = 1;
	mpq_set_ui(out->q, 0, 1);
	if (sum_bound(r, in->arg[0], 1, lo) || sum_bound(r, in->arg[1], 0, hi))
		goto out;
	mpz_sub(n, hi, lo);
	rc = 0;
	if (mpz_sgn(n) < 0)
		goto out;
	if (mpz_cmp_si(n, SUM_CLOSED_FORM_TERMS) > 0) {
		rc = closed_sum(r, in, lo, hi);
		if (rc <= 0)
			goto out;
		rc = 0;
	}
	if (mpz_cmp_si(n, MAX_SUM_TERMS) > 0) {
		rc = segc_eval_fail(r->ev, SEGC_ERR_LIMIT, "the sum over '%s' "
			"has too many terms to evaluate one by one",
			segc_expr_name(in->e));
		goto out;
	}
	bv->exact = 1;
	for (mpq_set_z(bv->q, lo); mpz_cmp(mpq_numref(bv->q), hi) <= 0;
	     mpz_add_ui(mpq_numref(bv->q), mpq_numref(bv->q), 1)) {
		rc = segc_eval_charge(r->ev, 1, "evaluating this formula takes "
			"more than %lu terms of sums (max_eval_terms)");
		if (!rc && mpz_cmp(mpq_numref(bv->q), lo) == 0)
			rc = run_block(r, in->sub[0]);
		if (!rc)
			rc = run_block(r, in->sub[1]);
		if (rc)
			break;
		segc_val_op(out, (segc_val *)body, SEGC_VAL_ADD);
	}
out:
	mpz_clears(lo, hi, n, (mpz_ptr)0);
	return rc;
}

/* The error of a FAIL operation. */
static int run_fail(prun *r, const segc_eplan_ins *in)
{
	const char *f = segc_expr_name(in->e);

	switch (in->aux) {
	case SEGC_EPF_UNBOUND:
		return segc_eval_fail(r->ev, SEGC_ERR_INPUT, "'%s' has no "
			"value: bind it (NAME=RANGE, -D NAME=VALUE or a "
			"machine)", f);
	case SEGC_EPF_CONDITION:
		return segc_eval_fail(r->ev, SEGC_ERR_INPUT, "a condition (%s) "
			"stands where a value is expected", f);
	case SEGC_EPF_NOT_CONDITION:
		return segc_eval_fail(r->ev, SEGC_ERR_INPUT, "a value stands "
			"where if() needs a condition%s", "");
	case SEGC_EPF_ARITY:
		if (segc_expr_binder(in->e))
			return segc_eval_fail(r->ev, SEGC_ERR_INPUT,
				"malformed recurrence%s", "");
		return segc_eval_fail(r->ev, SEGC_ERR_INPUT, "%s takes one "
			"argument", f);
	default:
		return segc_eval_fail(r->ev, SEGC_ERR_INPUT, "the function "
			"'%s' is not defined (an uninterpreted call): give a "
			"machine that defines it", f);
	}
}

/* Runs the operation 'in'. */
static int run_ins(prun *r, const segc_eplan_ins *in)
{
	segc_evaluator *ev = r->ev;
	size_t j;
	int t;

	switch (in->op) {
	case SEGC_EPO_ADD:
		run_nary(r, in, SEGC_VAL_ADD);
		return 0;
	case SEGC_EPO_MUL:
		run_nary(r, in, SEGC_VAL_MUL);
		return 0;
	case SEGC_EPO_POW:
		return run_pow(r, in);
	case SEGC_EPO_EXTREMUM:
		run_extremum(r, in);
		return 0;
	case SEGC_EPO_UNARY:
		segc_val_set(&r->v[in->dst], &r->v[in->arg[0]]);
		return segc_eval_unary_val(ev, (enum segc_builtin)in->aux,
			segc_expr_name(in->e), &r->v[in->dst]);
	case SEGC_EPO_MVA:
		if (in->nargs != 3)
			return segc_eval_fail(ev, SEGC_ERR_INPUT, "%s: p must "
				"be a positive integer within the limit",
				"mva_mem");
		{
			segc_val p;
			int rc;

			segc_val_init(&p, ev->prec);
			segc_val_set(&p, &r->v[in->arg[0]]);
			rc = segc_eval_mva_vals(ev, &p, &r->v[in->arg[1]],
				&r->v[in->arg[2]], &r->v[in->dst]);
			segc_val_clear(&p);
			return rc;
		}
	case SEGC_EPO_MAXPLUS: case SEGC_EPO_TASKPATH:
		return run_atom(r, in);
	case SEGC_EPO_REL:
		if (segc_eval_relation_vals(ev, in->e, &r->v[in->arg[0]],
				&r->v[in->arg[1]], &t))
			return -1;
		set_truth(r, in->dst, t);
		return 0;
	case SEGC_EPO_NOT:
		set_truth(r, in->dst, !truth(r, in->arg[0]));
		return 0;
	case SEGC_EPO_LOGIC:
		t = truth(r, in->arg[0]);
		for (j = 0; j < in->nsub && t == in->aux; j++) {
			if (run_block(r, in->sub[j]))
				return -1;
			t = truth(r, in->subslot[j]);
		}
		set_truth(r, in->dst, t);
		return 0;
	case SEGC_EPO_IF:
		j = truth(r, in->arg[0]) ? 0 : 1;
		if (run_block(r, in->sub[j]))
			return -1;
		segc_val_set(&r->v[in->dst], &r->v[in->subslot[j]]);
		return 0;
	case SEGC_EPO_SUM:
		return run_sum(r, in);
	case SEGC_EPO_MAXPLUSV:
		return run_maxplusv(r, in);
	case SEGC_EPO_FAIL:
		return run_fail(r, in);
	}
	return segc_eval_fail(ev, SEGC_ERR_INTERNAL, "unknown operation%s", "");
}

/* Runs the operations of 'b' in order. */
static int run_block(prun *r, const segc_eplan_block *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (run_ins(r, &b->ins[i]))
			return -1;
	return 0;
}

/* Runs 'p' (see evalmp_plan.h). */
int segc_eplan_run(const segc_eplan *p, segc_evaluator *ev, segc_val *out)
{
	prun r;
	size_t i, j;
	int rc;

	r.p = p;
	r.ev = ev;
	r.v = segc_xmalloc(segc_xmul_size(p->nslots + 1, sizeof *r.v));
	for (i = 0; i < p->nslots; i++) {
		const segc_eplan_slot *s = &p->slot[i];

		segc_val_init(&r.v[i], ev->prec);
		if (s->kind == SEGC_EPS_CONST)
			mpq_set(r.v[i].q, segc_expr_value(s->e));
		else if (s->kind == SEGC_EPS_POINT)
			for (j = 0; j < ev->pt->n; j++)
				if (!strcmp(ev->pt->names[j],
						segc_expr_name(s->e))) {
					mpq_set(r.v[i].q, ev->pt->values[j]);
					break;
				}
	}
	rc = run_block(&r, p->root);
	for (i = 0; i < p->nresults && !rc; i++)
		segc_val_set(&out[i], &r.v[p->result[i]]);
	for (i = 0; i < p->nslots; i++)
		segc_val_clear(&r.v[i]);
	free(r.v);
	return rc;
}
