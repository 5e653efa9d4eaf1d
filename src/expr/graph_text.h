/* graph_text.h - the readable text of the graph atoms (doc/format.md,
 * "The readable text of a graph atom"):
 *   taskpath(entry, exit, node(...), ..., arc(...), ...)
 *   maxplusv(i, n, node(...), ..., arc(...), ...)
 * with named nodes, index ranges and arcs.  print_graph.c writes it,
 * parse_graph.c reads it back to the same atom; both go through the one
 * translation between an expression of indices and a postfix program of
 * taskpath_form.h, which graph/indexed.c uses as well.  Not installed. */
#ifndef SEGC_GRAPH_TEXT_H
#define SEGC_GRAPH_TEXT_H

#include <stddef.h>
#include "expr/expr_private.h"
#include "expr/taskpath_form.h"
#include "base/util.h"

/* The arguments of an atom being built. */
typedef struct segc_tp_buf {
	size_t n, cap;
	segc_expr **v;
} segc_tp_buf;

/* Appends 'e' (taken) to 'b'. */
void segc_tp_buf_put(segc_tp_buf *b, SEGC_TAKE segc_expr *e);

/* Appends to 'b' the tokens of the program of 'e' over the 'n' index
 * names 'names' (index j is names[j - 1]): NULL, or the construct that
 * an expression of indices may not use ("sum", a function's name).  The
 * index-free operands of a sum or product go into one pushed value at
 * the place of the first of them, so that the program of the expression
 * of a program (segc_tp_expr_of) is that program again. */
const char *segc_tp_tokens(segc_tp_buf *b, SEGC_KEEP const segc_expr *e,
	char *const *names, size_t n);

/* The expression of program 'p' among the atom's arguments 'a', index j
 * the name names[j - 1]. */
SEGC_GIVE segc_expr *segc_tp_expr_of(segc_expr *const *a,
	const segc_tp_prog *p, char *const *names);

/* Appends the readable text of the atom 'e' (taskpath or maxplusv) to
 * 'sb', its expressions written by 'put'; the nodes of a taskpath of
 * 'nids' nodes named by 'ids' where these are names that read back as
 * such (else v1, v2, ...); -1, nothing appended, when 'e' is not such a
 * well-formed atom. */
int segc_graph_atom_print(segc_strbuf *sb, const segc_expr *e,
	void (*put)(segc_strbuf *, const segc_expr *),
	const char *const *ids, size_t nids);

#endif
