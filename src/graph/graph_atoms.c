/* graph_atoms.c - the graph atoms' operations given to exact evaluation: the
 * table of algebra/eval/atoms.h filled with the recurrences of maxplus.c
 * and the longest path of taskpath.c, installed when the library is
 * loaded. */
#include "algebra/eval/atoms.h"
#include "graph/maxplus.h"
#include "graph/taskpath.h"

/* The table: the graph stage's functions, never changed.  Not static: a
 * program linking the static library names it (ATOMS_LDFLAGS of
 * Makefile.am) so that this object, and its constructor, come in. */
extern const segc_atom_ops segc_graph_atoms;
const segc_atom_ops segc_graph_atoms = {
	segc_maxplus_eval,
	segc_maxplus_decode_graph,
	segc_maxplus_run,
	segc_maxplus_clear,
	segc_taskpath_eval
};

/* Installs the table (see atoms.h); run by the loader before any
 * evaluation, once per process. */
__attribute__((constructor)) static void install_graph_atoms(void)
{
	segc_atom_ops_install(&segc_graph_atoms);
}
