/* maxplus.h - max-plus systems over exact rationals (maxplus.c): the
 * recurrence of an overlapped loop, as held by the atom
 *   maxplus(n, m, cost_1 .. cost_m, k, from_1, to_1, d_1, c_1, ..., c_k)
 * (nodes numbered from 1, d = 0 for an arc inside an iteration, arcs in
 * order of their targets), which the evaluators compute here; and the
 *   maxplusv(i, n, m, cost_1 .. cost_m, k, from_1, to_1, d_1, c_1, ...)
 * of a loop whose costs depend on its counter i = 1 .. n, bound in the
 * costs as a sum binds its variable in its body.  Private to the
 * library. */
#ifndef SEGC_MAXPLUS_H
#define SEGC_MAXPLUS_H

#include <stddef.h>
#include <gmp.h>
#include <segc/segc.h>
#include "expr/builtin.h"
#include "algebra/eval/atoms.h"

/* The largest distance of an arc (the model's SEGC_MAX_FORWARD). */
#define SEGC_MAXPLUS_MAX_DISTANCE 100000UL

/* A decoded system: the type segc_maxplus_sys of algebra/eval/atoms.h,
 * which exact evaluation fills with the costs of each iteration. */

/* Checks and decodes the values 'args' of the arguments of a maxplus
 * atom into 's' (arrays malloc'd, release with segc_maxplus_clear even on
 * failure); NULL, or what is wrong. */
const char *segc_maxplus_decode(segc_maxplus_sys *s, size_t nargs,
	const mpq_t *args);

/* Decodes into 's' the graph of the maxplus atom 'e', whatever its costs
 * (symbolic ones too): m, k, from, to, dist, D, state and carried are
 * set, cost and acost are NULL; release with segc_maxplus_clear even on
 * failure.  NULL, or what is wrong. */
const char *segc_maxplus_decode_graph(const segc_expr *e,
	segc_maxplus_sys *s);

/* Marks in s->state the nodes the schedule carries from one iteration to
 * the next, and in s->settled the nodes whose time is the same in every
 * iteration from s->settle on (no arc into them or into a node before
 * them comes from a node whose time changes), once m, k, from, to and
 * dist are set (decode does it). */
void segc_maxplus_prepare(segc_maxplus_sys *s);

/* Releases the arrays of 's'. */
void segc_maxplus_clear(segc_maxplus_sys *s);

/* Finds T(1..p) and lambda with T(j) = T(p) + (j - p) lambda for all
 * j >= p; 'T' gets p + 1 values (T[0] = 0) malloc'd.  0, or -1 when no
 * period shows within 'max_steps' iterations. */
int segc_maxplus_transient(const segc_maxplus_sys *s,
	unsigned long max_steps, mpq_t **T, unsigned long *p, mpq_t lam);

/* Sets 'out' to fin(n, m) of the decoded system 's' for the count 'n',
 * 'costs' setting the costs of every iteration before it runs (maxplusv:
 * nothing periodic is used, every iteration runs): 0; -1 with '*why'
 * when the count is not an integer >= 0 or 'costs' fails; 1 when more
 * than 'max_steps' iterations would be needed. */
int segc_maxplus_run(mpq_t out, const segc_maxplus_sys *s, mpq_srcptr n,
	unsigned long max_steps, segc_maxplus_costs_fn costs, void *arg,
	const char **why);

/* Sets 'out' to the value of the atom maxplus(args): 0; -1 with '*why'
 * when the arguments are not a recurrence or the count is not an integer
 * >= 0; 1 when more than 'max_steps' iterations would be needed. */
int segc_maxplus_eval(mpq_t out, size_t nargs, const mpq_t *args,
	unsigned long max_steps, const char **why);

/* segc_maxplus_eval, telling in '*steps' the iterations it ran. */
int segc_maxplus_eval_steps(mpq_t out, size_t nargs, const mpq_t *args,
	unsigned long max_steps, unsigned long *steps, const char **why);

#endif
