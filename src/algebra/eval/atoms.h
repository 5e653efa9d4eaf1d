/* atoms.h - what exact evaluation needs of the graph atoms: the
 * recurrences maxplus(...) and maxplusv(...) and the longest path
 * taskpath(...).  Their meaning is the graph stage's (graph/maxplus.c,
 * graph/taskpath.c); algebra owns this interface, the graph stage fills in
 * its table (graph/graph_atoms.c), and the evaluators of this folder, and
 * through them the canonical form, call the atoms only through it, so no
 * call runs from algebra up to graph.  Private to the library. */
#ifndef SEGC_ATOMS_H
#define SEGC_ATOMS_H

#include <stddef.h>
#include <gmp.h>
#include <segc/segc.h>

/* A decoded max-plus system of 'm' nodes of costs 'cost' and 'k' arcs
 * (graph/maxplus.h says how it is read and run). */
typedef struct segc_maxplus_sys {
	size_t m, k;
	const mpq_t *cost;        /* m */
	size_t *from, *to;        /* k, nodes from 0 */
	unsigned long *dist;      /* k */
	const mpq_t *acost;       /* k (stride 'astride') */
	size_t astride;
	unsigned long D;          /* max(1, largest distance) */
	unsigned char *state;     /* m: see segc_maxplus_prepare */
	int carried;              /* some forward arc: iterations interact */
	unsigned long *limbs;     /* when set: the limbs of the largest finish
				   * time of the last iteration, after each */
	unsigned char *settled;   /* m: the node's time is the same in every
	                           * iteration from 'settle' on */
	unsigned long settle;
	int moving;               /* a forward arc leaves a node not settled */
} segc_maxplus_sys;

/* Sets the costs of iteration 'i' (from 1) of a recurrence whose costs
 * depend on its counter: writes them where the system's 'cost' and
 * 'acost' point; non-zero when they cannot be computed. */
typedef int (*segc_maxplus_costs_fn)(void *arg, unsigned long i);

/* The operations, each as its namesake of graph/maxplus.h and
 * graph/taskpath.h documents it. */
typedef struct segc_atom_ops {
	int (*maxplus_eval)(mpq_t out, size_t nargs, const mpq_t *args,
		unsigned long max_steps, const char **why);
	const char *(*maxplus_decode_graph)(const segc_expr *e,
		segc_maxplus_sys *s);
	int (*maxplus_run)(mpq_t out, const segc_maxplus_sys *s,
		mpq_srcptr n, unsigned long max_steps,
		segc_maxplus_costs_fn costs, void *arg, const char **why);
	void (*maxplus_clear)(segc_maxplus_sys *s);
	int (*taskpath_eval)(mpq_t out, size_t nargs, const mpq_t *args,
		unsigned long max_work, char **why);
} segc_atom_ops;

/* Makes 'ops' (static, never changed) the table of the atoms.  The graph
 * stage calls it when the library is loaded; every call gives the same
 * table, so the one pointer it sets never changes after that. */
void segc_atom_ops_install(const segc_atom_ops *ops);

/* The calls of the evaluators.  Before a table is installed an atom has
 * no value: the evaluation fails with 'why' (or '*why') saying so, the
 * decoding too, and segc_atoms_maxplus_clear does nothing. */
int segc_atoms_maxplus_eval(mpq_t out, size_t nargs, const mpq_t *args,
	unsigned long max_steps, const char **why);
const char *segc_atoms_maxplus_decode_graph(const segc_expr *e,
	segc_maxplus_sys *s);
int segc_atoms_maxplus_run(mpq_t out, const segc_maxplus_sys *s,
	mpq_srcptr n, unsigned long max_steps, segc_maxplus_costs_fn costs,
	void *arg, const char **why);
void segc_atoms_maxplus_clear(segc_maxplus_sys *s);
int segc_atoms_taskpath_eval(mpq_t out, size_t nargs, const mpq_t *args,
	unsigned long max_work, char **why);

#endif
