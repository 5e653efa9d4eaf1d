/* rules.h - the local rules of structural reduction (rules.c) on a graph
 * being reduced.  Private to the library. */
#ifndef SEGC_RULES_H
#define SEGC_RULES_H

#include "graph/rgraph.h"

typedef struct segc_rules segc_rules;

/* The rules on 'r' (kept), every node of 'r' queued. */
segc_rules *segc_rules_new(segc_rgraph *r);
void segc_rules_free(segc_rules *R);
/* Runs the rules from the queued nodes until none fits; 0, or -1 when a
 * term list could not grow (nothing recorded). */
int segc_rules_run(segc_rules *R, unsigned flags);
/* Replaces region 'in' (entry 'a', exit 'b') of the graph of 'R' by node
 * 'a' of cost 'f' (taken): the arcs inside go, the back arc from 'b' to
 * 'a' becomes a self loop, the arcs leaving 'b' leave 'a'; the nodes
 * around are queued. */
void segc_rules_collapse(segc_rules *R, const unsigned char *in, size_t a,
	size_t b, SEGC_TAKE segc_expr *f);

#endif
