/* structural_probe.c - a cheap numeric refutation before a sign proof.
 * When the prune asks whether d = a - b >= 0 holds on the declared
 * domains, a point of the domains where d is exactly negative settles
 * the answer (no sound proof can exist), and exact evaluation at a few
 * integer points costs microseconds where the proof takes milliseconds.
 * Only what no point refutes goes on to the proof, so the pruned form is
 * the same as without the probe.
 *
 * The points: each name of d takes an integer of its declared range, its
 * lower bound plus an offset of a fixed list (or its upper bound minus
 * one, when it has only that), clipped to the range; an undeclared name,
 * which the proof treats as any real, takes a positive integer.  The
 * search starts with every name at offset 0 and moves one name at a time
 * to the offset that makes d smallest (two passes over the names, at most
 * PROBE_MAX_EVALS evaluations), stopping at the first negative value: a
 * fixed walk, so the same d meets the same points.  A point where d has
 * no rational value (a division by zero, a log of a non-power) counts as
 * no better.  Expressions with sums, graph atoms or an mva_mem of a
 * processor count that is not a small number are left to the proof:
 * their evaluation could cost more than it saves.  So is d when written
 * out as a tree (what the evaluator walks, recursively) it has more than
 * PROBE_MAX_TREE nodes; and the evaluations stop after PROBE_MAX_WORK
 * tree nodes, so the probe costs a bounded multiple of d's size. */
#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "expr/builtin.h"
#include "algebra/structural/structural.h"
#include "base/util.h"

#define PROBE_PASSES 2      /* passes of the search over the names */
#define PROBE_MAX_EVALS 400 /* evaluations of d at most */
#define PROBE_MAX_TREE 4096 /* more nodes of d as a tree: left to the proof */
#define PROBE_MAX_WORK 400000UL /* tree nodes evaluated, all points */
#define PROBE_MAX_MVA_P 64  /* largest processor count of an mva_mem */
#define PROBE_MAX_NAMES 32  /* more names: left to the proof */

/* The offsets from a bound a name takes at the points. */
static const unsigned long probe_offsets[] = { 0, 1, 2, 3, 5, 8, 13, 31,
	100, 1000 };
#define PROBE_NOFFSETS (sizeof(probe_offsets) / sizeof(probe_offsets[0]))

/* The distinct names of 'e' (at most PROBE_MAX_NAMES, pointers into it)
 * into 'names', their count into '*n': 0, or -1 when 'e' has a sum, a
 * graph atom, a large mva_mem or too many names. */
static int probe_names(const segc_expr *e, const char **names, size_t *n)
{
	segc_expr_map seen;
	const segc_expr **stack = NULL;
	size_t top = 0, cap = 0, i;
	int rc = 0;

	*n = 0;
	segc_expr_map_init(&seen);
	stack = segc_xmalloc(sizeof(*stack) * (cap = 64));
	stack[top++] = e;
	while (top && rc == 0) {
		const segc_expr *x = stack[--top];
		enum segc_builtin id;

		if (!segc_expr_map_put(&seen, x, NULL))
			continue;
		id = segc_expr_builtin(x);
		if (x->kind == SEGC_SUM ||
		    id == SEGC_BUILTIN_SUM || id == SEGC_BUILTIN_MAXPLUS ||
		    id == SEGC_BUILTIN_MAXPLUSV || id == SEGC_BUILTIN_TASKPATH) {
			rc = -1;
			break;
		}
		if (id == SEGC_BUILTIN_MVA_MEM && (x->nargs != 3 ||
		    x->args[0]->kind != SEGC_NUM ||
		    mpz_cmp_ui(mpq_numref(x->args[0]->u.value), PROBE_MAX_MVA_P)
		    > 0)) {
			rc = -1;
			break;
		}
		if (x->kind == SEGC_SYM) {
			for (i = 0; i < *n && strcmp(names[i], x->u.name); i++)
				;
			if (i == *n) {
				if (*n == PROBE_MAX_NAMES) {
					rc = -1;
					break;
				}
				names[(*n)++] = x->u.name;
			}
			continue;
		}
		if (x->kind == SEGC_NUM)
			continue;
		for (i = 0; i < x->nargs; i++) {
			if (top == cap)
				stack = segc_xrealloc(stack, segc_xmul_size(
					cap *= 2, sizeof(*stack)));
			stack[top++] = x->args[i];
		}
	}
	free(stack);
	segc_expr_map_clear(&seen);
	return rc;
}

/* Sets 'v' to the value of 'name' at offset number 'k' (an integer of
 * its declared range): 0, or -1 when the range holds no integer. */
static int probe_value(mpq_t v, const segc_domains *dom, const char *name,
	size_t k)
{
	mpq_srcptr lo = NULL, hi = NULL;
	int integer = 0, rc = 0;
	unsigned long off = probe_offsets[k];
	mpz_t z, top;

	segc_domains_get(dom, name, &lo, &hi, &integer);
	mpz_init(z);
	mpz_init(top);
	if (lo) {
		mpz_cdiv_q(z, mpq_numref(lo), mpq_denref(lo));
		mpz_add_ui(z, z, off);
	} else if (hi) {
		mpz_fdiv_q(z, mpq_numref(hi), mpq_denref(hi));
		mpz_sub_ui(z, z, off);
	} else
		mpz_set_ui(z, 1 + off);
	if (hi) {
		mpz_fdiv_q(top, mpq_numref(hi), mpq_denref(hi));
		if (mpz_cmp(z, top) > 0)
			mpz_set(z, top);
		if (lo && mpq_cmp_z(lo, z) > 0)
			rc = -1;   /* no integer in [lo, hi] */
	}
	mpq_set_z(v, z);
	mpz_clear(z);
	mpz_clear(top);
	return rc;
}

/* The state of one search. */
struct probe {
	const segc_expr *d;
	size_t n;
	const char **names;
	mpq_t *values;
	mpq_t r;
	unsigned evals, max_evals;
};

/* Evaluates d at the current values into p->r: 1 when it has a value,
 * 0 when not (or the evaluations ran out). */
static int probe_eval(struct probe *p)
{
	if (p->evals >= p->max_evals)
		return 0;
	p->evals++;
	return segc_expr_eval_q(p->r, p->d, p->n, p->names,
		(const mpq_t *)p->values) == 0;
}

/* See structural.h. */
int segc_structural_refuted(const segc_domains *dom, const segc_expr *d)
{
	const char *names[PROBE_MAX_NAMES];
	mpq_t values[PROBE_MAX_NAMES], best, keep;
	struct probe p;
	size_t n, i, k, tree;
	int found = 0, have, pass;

	if (!d || (tree = segc_expr_tree_size(d, PROBE_MAX_TREE + 1)) >
	    PROBE_MAX_TREE || probe_names(d, names, &n))
		return 0;
	for (i = 0; i < n; i++)
		mpq_init(values[i]);
	mpq_init(best);
	mpq_init(keep);
	mpq_init(p.r);
	p.d = d;
	p.n = n;
	p.names = names;
	p.values = values;
	p.evals = 0;
	p.max_evals = PROBE_MAX_WORK / tree < PROBE_MAX_EVALS ?
		(unsigned)(PROBE_MAX_WORK / tree) : PROBE_MAX_EVALS;
	for (i = 0; i < n; i++)
		if (probe_value(values[i], dom, names[i], 0))
			goto out;   /* an empty range: left to the proof */
	have = probe_eval(&p);
	if (have)
		mpq_set(best, p.r);
	found = have && mpq_sgn(best) < 0;
	for (pass = 0; pass < PROBE_PASSES && !found; pass++)
		for (i = 0; i < n && !found; i++) {
			mpq_set(keep, values[i]);
			for (k = 1; k < PROBE_NOFFSETS && !found; k++) {
				if (probe_value(values[i], dom, names[i], k) ||
				    !probe_eval(&p) ||
				    (have && mpq_cmp(p.r, best) >= 0))
					continue;
				have = 1;
				mpq_set(best, p.r);
				mpq_set(keep, values[i]);
				found = mpq_sgn(best) < 0;
			}
			if (!found)
				mpq_set(values[i], keep);
		}
out:
	mpq_clear(p.r);
	mpq_clear(best);
	mpq_clear(keep);
	for (i = 0; i < n; i++)
		mpq_clear(values[i]);
	return found;
}
