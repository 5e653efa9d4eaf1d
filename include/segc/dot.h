/* dot.h - a model's graphs in Graphviz DOT (what 'segc dot' writes).
 * The ownership rule of segc.h applies. */
#ifndef SEGC_DOT_PUBLIC_H
#define SEGC_DOT_PUBLIC_H

#include <segc/segc.h>
#include <segc/segc_model.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every graph of 'm' in DOT (malloc'd): one cluster per graph; steps
 * with their costs, loops as clusters, branch probabilities on the
 * edges, par as fork and join, arcs with their costs, probabilities and
 * loop counts.  Deterministic; every label escaped.  NULL with a
 * diagnostic in 'ctx' on failure. */
SEGC_API SEGC_GIVE char *segc_model_dot(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_model *m);

#ifdef __cplusplus
}
#endif

#endif
