/* dot.h - a model's graphs in Graphviz DOT.  Private to the library and
 * the command. */
#ifndef SEGC_DOT_H
#define SEGC_DOT_H

#include "model/model.h"
#include "base/util.h"

/* Appends to 'out' every graph of 'm' in DOT: one cluster per graph;
 * steps with their costs, loops as clusters, branch probabilities on the
 * edges, par as fork and join, arcs with their costs, probabilities and
 * loop counts.  Deterministic; every label escaped.  Returns 0. */
int segc_model_to_dot(SEGC_KEEP segc_ctx *ctx, SEGC_KEEP const segc_model *m,
	segc_strbuf *out);

#endif
