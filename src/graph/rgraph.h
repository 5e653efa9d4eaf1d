/* rgraph.h - the graph being reduced: one lowered graph's nodes and arcs
 * in linked lists, with the costs of one component kept as term lists,
 * and the small operations every reduction uses (rgraph.c).  The local
 * rules (rules.c), the regions (region.c), the cyclic regions
 * (cyclic_region.c) and the general methods (markov.c, taskgraph.c) work
 * on it; the driver (reduce.c) calls them all and none calls back.
 * Private to the library. */
#ifndef SEGC_RGRAPH_H
#define SEGC_RGRAPH_H

#include "graph/graph.h"

/* A sum of terms kept as a list of cells of the graph's arena, so that
 * long sequences cost O(1) per step; see reduce.c. */
typedef struct segc_terms {
	segc_gix head, tail;      /* cells; SEGC_NIL when empty */
} segc_terms;

/* A node being reduced (44 bytes): its cost, its arcs in doubly linked
 * lists, how many arcs it has that are not back arcs and that are. */
typedef struct segc_rnode {
	segc_terms cost;
	segc_gix out_head, out_tail, in_head, in_tail;
	segc_gix nout, nin;
	segc_gix nloop_out, nloop_in;
	unsigned char split_and, join_and, alive;
} segc_rnode;

/* An arc being reduced (36 bytes).  Its probability and loop count are
 * those of the lowered arc of the same index, except that 'prob_one'
 * says that merged arcs have probability 1. */
typedef struct segc_rarc {
	segc_gix from, to;
	segc_gix next_out, prev_out, next_in, prev_in;
	segc_terms cost;
	unsigned char alive, loop, prob_one;
} segc_rarc;

/* The graph being reduced: nodes and arcs of one lowered graph (same
 * indices) with the costs of one component. */
typedef struct segc_rgraph {
	segc_ctx *ctx;
	const segc_lgraph *src;
	size_t nnodes;
	segc_rnode *nodes;
	size_t narcs;
	segc_rarc *arcs;
	size_t entry, exit;
	size_t alive;              /* nodes alive */
	struct segc_tarena *arena;
	segc_expr *one;            /* the number 1 */
	/* NULL, or the nodes of the region that the general methods reduce
	 * (from 'entry' to 'exit'): they see its nodes and the arcs between
	 * them, nothing else. */
	const unsigned char *mask;
} segc_rgraph;

/* The sum of term list 't' of 'r', as a new expression (0 when empty). */
SEGC_GIVE segc_expr *segc_terms_sum(const segc_rgraph *r, const segc_terms *t);
int segc_terms_empty(const segc_terms *t);
/* The probability of arc 'k' of 'r' (borrowed); its loop count (borrowed;
 * NULL when not a back arc). */
segc_expr *segc_rarc_prob(const segc_rgraph *r, size_t k);
segc_expr *segc_rarc_loop(const segc_rgraph *r, size_t k);
/* Reports an error of 'code' located at node 'v' of 'r' (its id named). */
void segc_rgraph_error(segc_rgraph *r, size_t v, enum segc_status code,
	const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* Whether node 'v' / arc 'k' (not a back arc) is part of what the general
 * methods see: alive and inside the mask. */
int segc_rgraph_has_node(const segc_rgraph *r, size_t v);
int segc_rgraph_has_arc(const segc_rgraph *r, size_t k);

/* Regions (region.c).  segc_region_kind: the first node of the part of
 * 'r' the general methods see that makes it an or-graph ('*or_at') and
 * an and-graph ('*and_at'); SEGC_NONE where there is none.
 * segc_region_pure: not both.  segc_region_find: the smallest region
 * with one entry and one exit that holds no back arc (but the one that
 * closes it, for a loop body), is all or or all and, and has more than
 * one node; its nodes set in 'in', its ends in '*entry', '*exit'.
 * 1 found, 0 none. */
void segc_region_kind(const segc_rgraph *r, size_t *or_at, size_t *and_at);
int segc_region_pure(const segc_rgraph *r);
int segc_region_find(segc_rgraph *r, unsigned char *in, size_t *entry,
	size_t *exit);

/* Whether a cost of class 'cls' counts in component 'comp'. */
int segc_in_component(enum segc_component comp, unsigned cls);

/* Cyclic regions (cyclic_region.c).  segc_cyclic_needed: back arc 'k' of
 * 'g' has overlap="true" or forward edges with a cost in 'comp'.
 * segc_cyclic_region: marks the region of back arc 'k' of 'r' in 'in'
 * (zeroed by the caller) and sets '*out' to its time over all its
 * iterations (cyclic.c); 1 done, 0 when another back arc inside must be
 * reduced first, -1 with a diagnostic. */
int segc_cyclic_needed(const segc_lgraph *g, size_t k,
	enum segc_component comp);
int segc_cyclic_region(segc_rgraph *r, const segc_lgraph *g, size_t k,
	enum segc_component comp, const segc_domains *dom, unsigned char *in,
	segc_expr **out);

/* The general methods (markov.c, taskgraph.c): the expected time of an
 * or-graph from the visit counts of its absorbing Markov chain, and the
 * longest path of an and-DAG.  NULL with a diagnostic on failure. */
SEGC_GIVE segc_expr *segc_markov_reduce(segc_ctx *ctx, segc_rgraph *r,
	const segc_domains *dom);
SEGC_GIVE segc_expr *segc_taskgraph_reduce(segc_ctx *ctx, segc_rgraph *r,
	const segc_domains *dom);
/* The visit counts of the Markov chain of 'r' (its 'n' live nodes
 * numbered by 'idx') into x[0..n) when every probability is a number,
 * solved in exact rationals (markov_q.c); when every cost is a number as
 * well, the expected time itself into '*t' instead (x left NULL).  0
 * done, 1 not done (a probability that is no number, or a cycle left
 * with probability 0: the general solver then), -1 a limit reached
 * (diagnostic recorded). */
int segc_markov_visits_q(segc_ctx *ctx, segc_rgraph *r, const size_t *idx,
	size_t n, segc_expr **x, segc_expr **t);

/* Whether a - b is provably a constant >= 0 on 'dom' (dominance.c): 1
 * yes, 0 no, -1 on error (a diagnostic recorded); the answer of the
 * canonical form of a - b, found without it where a cheap test decides. */
int segc_dominates(segc_ctx *ctx, const segc_domains *dom,
	segc_expr *a, segc_expr *b);
/* The cheap tests of segc_dominates.  segc_points_below: 1 when a < b at
 * some point of 'dom' (exact values inside the box and at its corners),
 * so that nothing proves a >= b; 0 when none is found.
 * segc_linear_difference: 1 when the terms of a and b other than numbers
 * cancel, '*d' then set to a - b; else 0. */
int segc_points_below(const segc_domains *dom, const segc_expr *a,
	const segc_expr *b);
int segc_linear_difference(const segc_expr *a, const segc_expr *b, mpq_t d);
/* When a - b is affine in declared names (linear parts as above), its
 * least value on the box of 'dom': 1 when >= 0, 0 when below 0 at a
 * corner that is a point of the domains; -1 when the test does not
 * apply. */
int segc_affine_ge(const segc_domains *dom, const segc_expr *a,
	const segc_expr *b);

/* ------------------------------------------ building and changing the graph */

/* The working graph of lowered graph 'g' for component 'comp'; 'sums'
 * (may be NULL) holds the costs of the sum regions of 'g' (by node).
 * NULL (nothing recorded) when its costs take more term cells than 32-bit
 * indices number. */
segc_rgraph *segc_rgraph_new(segc_ctx *ctx, const segc_lgraph *g,
	enum segc_component comp, segc_expr *const *sums);
void segc_rgraph_free(segc_rgraph *r);

/* Term lists of 'r': segc_terms_push appends 'e' (taken; NULL or zero
 * dropped); segc_terms_join moves the terms of 'src' to the end of 'dst';
 * segc_terms_clear empties 't'; segc_terms_collapse replaces the terms of
 * 't' by their sum and gives a new reference to it (NULL when empty).
 * segc_terms_push: 0, or -1 when the arena is full. */
int segc_terms_push(segc_rgraph *r, segc_terms *t, SEGC_TAKE segc_expr *e);
void segc_terms_join(segc_rgraph *r, segc_terms *dst, segc_terms *src);
void segc_terms_clear(segc_rgraph *r, segc_terms *t);
SEGC_GIVE segc_expr *segc_terms_collapse(segc_rgraph *r, segc_terms *t);

/* Arc lists: links arc 'k' at the end of the out-list of its source / the
 * in-list of its target, unlinks it, removes it from the graph; puts arc
 * 'a' into the in-list of the target of 'b' in the place of 'b'. */
void segc_rarc_link_out(segc_rgraph *r, segc_gix k);
void segc_rarc_link_in(segc_rgraph *r, segc_gix k);
void segc_rarc_unlink_out(segc_rgraph *r, segc_gix k);
void segc_rarc_unlink_in(segc_rgraph *r, segc_gix k);
void segc_rarc_kill(segc_rgraph *r, segc_gix k);
void segc_rarc_replace_in(segc_rgraph *r, segc_gix a, segc_gix b);
/* Moves the out-arcs of node 'y' to node 'x' / the in-arcs of 'x' to 'y',
 * in order. */
void segc_rnode_move_out_arcs(segc_rgraph *r, size_t x, size_t y);
void segc_rnode_move_in_arcs(segc_rgraph *r, size_t y, size_t x);

#endif
