/* validate.h - the semantic checks of models and machines (FORMAT.md):
 * declared names, arities, recursion, graph calls, probabilities and the
 * shape of arc-form graphs.  Private to the library. */
#ifndef SEGC_VALIDATE_H
#define SEGC_VALIDATE_H

#include "model/model.h"
#include "base/names.h"

/* Checks model 'm' (and its inline machine); records every error found
 * in 'ctx' (up to its limit) and returns 0 when there is none.  Fills the
 * from_index/to_index of the arcs.  'm' may be NULL (returns -1). */
int segc_validate_model(SEGC_KEEP segc_ctx *ctx, segc_model *m);
/* Gives the text of the expression that stands at element location
 * 'loc' (the address of a location in the model) as attribute 'attr'
 * (NULL: the element's text), malloc'd, or NULL when unknown: it lets
 * messages say where in the text a name stands.  'position' (may be
 * NULL) gives the line and column in the document of byte 'off' of that
 * text: 0 when known, else -1. */
typedef struct segc_text_locator {
	char *(*text)(void *data, const segc_srcloc *loc, const char *attr);
	int (*position)(void *data, const segc_srcloc *loc, const char *attr,
		size_t off, unsigned long *line, unsigned long *col);
	void *data;
} segc_text_locator;

/* The same as segc_validate_model(); undeclared names are located in the
 * texts 'locator' (may be NULL) gives ("at column 5 of the value"). */
int segc_validate_model_located(SEGC_KEEP segc_ctx *ctx, segc_model *m,
	const segc_text_locator *locator);
/* The same, for 'segc validate', which goes on to the formulas of what
 * is sound: when every error lies in a block (a step, a loop, a branch,
 * a call) or in an arc-form graph other than the program (the graph
 * "main", else the first), each such block
 * and each call of such a graph is replaced by an empty step and
 * '*pruned' set; an error anywhere else (a declaration, a function, an
 * expectation, the graphs' calls, the machine) leaves 'm' as it is and
 * '*pruned' 0.  Returns -1 when there was an error, as that does. */
int segc_validate_model_pruned(SEGC_KEEP segc_ctx *ctx, segc_model *m,
	const segc_text_locator *locator, int *pruned);
/* The same as segc_validate_machine() with a locator. */
int segc_validate_machine_located(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_machine *m, const segc_text_locator *locator);
/* The offset in expression text 't' of the first occurrence of 'name' as
 * a name token (not part of a longer name or of a number), or
 * (size_t)-1. */
size_t segc_find_name_token(const char *t, const char *name);

/* Checks machine 'm': its const and cost values may use its consts only;
 * its function bodies their arguments, its consts and costs, N and P. */
int segc_validate_machine(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_machine *m);
/* Checks that the 'n' probabilities 'probs' (NULL: omitted) of the
 * alternatives of one choice at 'loc' ('what': "<branch>", "the arcs
 * leaving node 'a'") are well formed: at most one omitted, each number in
 * [0, 1], the numbers summing to 1 (at most 1 with one omitted), and a
 * symbolic sum equal to 1 in canonical form.  A probability out of
 * [0, 1] is reported at its place in 'places' (n entries; NULL: at
 * 'loc').  Returns 0 when they are. */
int segc_check_probabilities(SEGC_KEEP segc_ctx *ctx, size_t n,
	segc_expr *const *probs, const segc_srcloc *places,
	const segc_srcloc *loc, const char *what);
#endif
