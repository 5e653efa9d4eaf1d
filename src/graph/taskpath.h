/* taskpath.h - the longest path of a task graph with indexed nodes
 * (FORMAT.md, "Indexed nodes"), as held by the atom
 *   taskpath(N, entry, exit, node_1 .. node_N, A, arc_1 .. arc_A)
 * whose arguments are numbers and expressions of the parameters only: the
 * indices are bound by position, so the atom has no free name of its own.
 *   node:  d, lo_1, hi_1, ..., lo_d, hi_d, cost   (programs; lo_k and hi_k
 *          see indices 1..k-1, cost sees 1..d)
 *   arc:   from, to, n, at_1 .. at_n, cost        (nodes from 1; programs
 *          over the indices of 'from'; n = 0: no 'at')
 *   program: L, then L tokens in postfix order:
 *          0 v  push v (any expression of the parameters)
 *          1 j  push index j
 *          2 add, 3 multiply, 4 power (integer exponent), 5 floor,
 *          6 ceil (of the top two or the top value),
 *          7 n  max of the top n, 8 n  min of the top n
 * The form of the atom (its decoding): expr/taskpath_form.h.  Private
 * to the library. */
#ifndef SEGC_TASKPATH_H
#define SEGC_TASKPATH_H

#include <stddef.h>
#include <gmp.h>
#include <segc/segc.h>
#include "expr/taskpath_form.h"
#include "model/model.h"

_Static_assert(SEGC_TP_MAX_INDICES == SEGC_MAX_INDICES,
	"a task graph's node has the model's most indices");

/* Sets 'out' to the value of the atom taskpath(args) by dynamic
 * programming over its instances: 0; -1 with '*why' (malloc'd) on bad
 * values (a bound or an at value not an integer, a cycle); 1 when the
 * instances and their arcs number more than 'max_work', or when a
 * number of a cost would pass TP_MAX_BITS or the words the costs make
 * pass max_work too (then with '*why' as well). */
int segc_taskpath_eval(mpq_t out, size_t nargs, const mpq_t *args,
	unsigned long max_work, char **why);

#endif
