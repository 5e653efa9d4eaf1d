/* atoms.c - the table of the graph atoms' operations (atoms.h): where it
 * is kept and the calls through it.  The one pointer is written when the
 * library is loaded, always with the same table, and read atomically, so
 * derivations in several threads share it safely. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "algebra/eval/atoms.h"
#include "base/util.h"

/* The table installed, or NULL. */
static _Atomic(const segc_atom_ops *) installed;

/* What an evaluation says before a table is installed. */
static const char none[] = "the graph atoms are not available";

/* Makes 'ops' the table (see atoms.h). */
void segc_atom_ops_install(const segc_atom_ops *ops)
{
	atomic_store_explicit(&installed, ops, memory_order_release);
}

/* The table, or NULL. */
static const segc_atom_ops *ops(void)
{
	return atomic_load_explicit(&installed, memory_order_acquire);
}

/* The value of maxplus(args) (see atoms.h). */
int segc_atoms_maxplus_eval(mpq_t out, size_t nargs, const mpq_t *args,
	unsigned long max_steps, const char **why)
{
	const segc_atom_ops *A = ops();

	if (A)
		return A->maxplus_eval(out, nargs, args, max_steps, why);
	*why = none;
	return -1;
}

/* The graph of the recurrence 'e' decoded into 's' (see atoms.h). */
const char *segc_atoms_maxplus_decode_graph(const segc_expr *e,
	segc_maxplus_sys *s)
{
	const segc_atom_ops *A = ops();

	if (A)
		return A->maxplus_decode_graph(e, s);
	memset(s, 0, sizeof(*s));
	return none;
}

/* The recurrence 's' run for 'n' iterations (see atoms.h). */
int segc_atoms_maxplus_run(mpq_t out, const segc_maxplus_sys *s,
	mpq_srcptr n, unsigned long max_steps, segc_maxplus_costs_fn costs,
	void *arg, const char **why)
{
	const segc_atom_ops *A = ops();

	if (A)
		return A->maxplus_run(out, s, n, max_steps, costs, arg, why);
	*why = none;
	return -1;
}

/* Releases the arrays of 's' (see atoms.h). */
void segc_atoms_maxplus_clear(segc_maxplus_sys *s)
{
	const segc_atom_ops *A = ops();

	if (A)
		A->maxplus_clear(s);
}

/* The value of taskpath(args) (see atoms.h). */
int segc_atoms_taskpath_eval(mpq_t out, size_t nargs, const mpq_t *args,
	unsigned long max_work, char **why)
{
	const segc_atom_ops *A = ops();

	if (A)
		return A->taskpath_eval(out, nargs, args, max_work, why);
	*why = segc_xstrdup(none);
	return -1;
}
