/* graph.h - the one graph representation that both forms of a model graph
 * (FORMAT.md 3.1 blocks, 3.2 nodes and arcs) are lowered to, and the
 * reductions that turn it into a formula.  Private to the library.
 *
 * A lowered program is a list of graphs.  Graph 0 is the program; every
 * other graph is the body of a counter-dependent loop (<loop var from to>),
 * which the arc form cannot say: its parent graph holds a "sum region" node
 * that stands for sum(var, from, to, body).  A sum region's body graph always
 * has a larger index than the graph holding the node, so reducing the graphs
 * from the last to the first reduces every region before its use.
 *
 * Nodes carry a cost and the class of that cost; arcs a probability (always
 * set after lowering: the remainder and lone arcs made explicit), a cost and
 * its class, and, for a back arc, its loop count. */
#ifndef SEGC_GRAPH_H
#define SEGC_GRAPH_H

#include <stdint.h>

#include <segc/segc.h>
#include "model/model.h"

#define SEGC_NONE ((size_t)-1)

/* Nodes and arcs of one graph are numbered by 32-bit indices: a graph
 * holds at most SEGC_MAX_INDEX of each (lowering reports a limit error
 * past that), and SEGC_NIL marks "none" in the structures below. */
typedef uint32_t segc_gix;
#define SEGC_NIL ((segc_gix)-1)
#define SEGC_MAX_INDEX ((size_t)SEGC_NIL - 1)

/* A node (32 bytes).  A sum region node has the index of its body graph
 * in 'sub' (whose 'var', 'from' and 'to' say the sum); others SEGC_NIL. */
typedef struct segc_gnode {
	segc_expr *cost;          /* NULL: no cost */
	const char *id;           /* borrowed: the node id or step name; NULL */
	const segc_srcloc *loc;   /* borrowed from the model; may be NULL */
	segc_gix sub;
	unsigned char cls;        /* enum segc_class */
	unsigned char split_and;
	unsigned char join_and;
} segc_gnode;

/* An arc (56 bytes on a 64-bit machine). */
typedef struct segc_garc {
	segc_gix from, to;
	segc_expr *prob;          /* never NULL after lowering */
	segc_expr *cost;          /* NULL: none */
	segc_expr *loop;          /* NULL, or the count of a back arc */
	const segc_srcloc *loc;   /* may be NULL */
	unsigned char cls;        /* enum segc_class of 'cost' */
	unsigned char overlap;    /* a back arc whose iterations overlap */
	const char *var;          /* its counter (the model's), or NULL */
} segc_garc;

/* A forward edge (FORMAT.md 3.2): 'to' in iteration i + dist waits for
 * 'from' in iteration i, plus 'cost', inside the region of back arc
 * 'owner' (the smallest region of a back arc holding both ends).  Kept
 * apart from the arcs, so that only the cyclic reduction sees them. */
typedef struct segc_gfwd {
	segc_gix from, to, owner;
	unsigned long dist;
	segc_expr *cost;          /* NULL: none */
	const segc_srcloc *loc;   /* may be NULL */
	unsigned char cls;        /* enum segc_class of 'cost' */
} segc_gfwd;

typedef struct segc_lgraph {
	size_t nnodes, capnodes;
	segc_gnode *nodes;
	size_t narcs, caparcs;
	segc_garc *arcs;
	size_t nfwd, capfwd;
	segc_gfwd *fwd;           /* forward edges */
	size_t entry, exit;
	size_t parent;            /* graph holding the sum region, or NONE */
	const char *var;          /* the counter bound in this graph, or NULL */
	segc_expr *from, *to;     /* its bounds (in the parent's scope) */
	const char *name;         /* the model graph it comes from */
	const segc_srcloc *loc;   /* may be NULL */
	/* Non-zero in a copy (segc_lowered_copy) whose nodes, arcs and
	 * forward edges are still those of the program it copies: the first
	 * expression segc_lowered_map changes gives it arrays of its own. */
	unsigned char borrowed;
} segc_lgraph;

typedef struct segc_lowered {
	size_t ngraphs, capgraphs;
	segc_lgraph *graphs;
	size_t total_nodes;
	/* The program a copy borrows its arrays from (a reference), or NULL;
	 * the copies that still hold a reference to this one. */
	struct segc_lowered *base;
	size_t refs;
} segc_lowered;

/* Lowers graph 'g' of model 'm' (either form; calls inlined) into a new
 * lowered program.  NULL with a diagnostic on failure (SEGC_ERR_LIMIT past
 * max_nodes). */
segc_lowered *segc_lower(segc_ctx *ctx, const segc_model *m,
	const segc_graph *g);
/* The same, but the main graph of 'm' is lowered once: its first
 * successful lowering is kept with the model, and later calls return a
 * copy of it (lower_once.c; a failure is not kept, so each call reports
 * it).  Only a real lowering is counted by the context. */
segc_lowered *segc_lower_once(segc_ctx *ctx, const segc_model *m,
	const segc_graph *g);
/* A copy of 'lw' that shares its expressions and, until segc_lowered_map
 * changes one of them, its arrays of nodes, arcs and forward edges: a
 * copy costs the graph headers only, and 'lw' is kept until its last copy
 * is freed (lowered.c).  A copy is never built on (segc_lgraph_add_*). */
segc_lowered *segc_lowered_copy(segc_lowered *lw);
void segc_lowered_free(segc_lowered *lw);

/* Building blocks, for lowering and for tests that build graphs directly. */
segc_lowered *segc_lowered_new(void);
size_t segc_lowered_add_graph(segc_lowered *lw, size_t parent,
	const char *var);
size_t segc_lgraph_add_node(segc_lgraph *g, SEGC_TAKE segc_expr *cost,
	enum segc_class cls);
size_t segc_lgraph_add_arc(segc_lgraph *g, size_t from, size_t to,
	SEGC_TAKE segc_expr *prob, SEGC_TAKE segc_expr *cost,
	enum segc_class cls, SEGC_TAKE segc_expr *loop);
/* A new forward edge of 'g', zeroed; NULL past SEGC_MAX_INDEX of them. */
segc_gfwd *segc_lgraph_add_forward(segc_lgraph *g);
/* Finds the entry and exit of an arc-form graph (no non-loop arcs in, no
 * non-loop arcs out); -1 if there is not exactly one of each. */
int segc_lgraph_find_ends(segc_lgraph *g);
/* Makes every arc probability explicit: lone or-arcs 1, the one omitted
 * probability 1 - (sum of the others), and-arcs 1. */
void segc_lgraph_fill_probs(segc_lgraph *g);

/* Replaces every expression of 'lw' by fn(arg, e, bound, nbound), where
 * 'bound' are the counters in scope (innermost last).  fn takes 'e' and
 * returns the new expression, or NULL on failure; stops at the first
 * failure and returns -1. */
typedef segc_expr *(*segc_expr_map_fn)(void *arg, segc_expr *e,
	const char *const *bound, size_t nbound, const segc_srcloc *loc);
int segc_lowered_map(segc_lowered *lw, segc_expr_map_fn fn, void *arg);

/* Applies setting 's' (segc_setting_apply) to every expression of 'lw',
 * counters of sum regions left as names; 0, or -1 with a diagnostic
 * (apply.c). */
int segc_setting_apply_lowered(segc_ctx *ctx, const segc_setting *s,
	segc_lowered *lw);

/* After a derivation of graph 'g' under 's' from its lowered program 'lw'
 * (the setting applied) failed: gives the diagnostics of 'ctx' from index
 * 'from' on that name no file the place of the first expression of 'lw'
 * whose own canonical form (under 'dom') is refused the same way, else
 * graph 'g', else the model's file (locate.c). */
void segc_locate_errors(segc_ctx *ctx, size_t from, const segc_setting *s,
	const segc_graph *g, segc_lowered *lw, const segc_domains *dom);
/* Brings every expression of 'lw' to canonical form on its own (under
 * 'dom'): -1 with a diagnostic at its element for the first one refused
 * as bad input, else 0 (limits reached on the way are not errors here). */
int segc_check_lowered(segc_ctx *ctx, segc_lowered *lw,
	const segc_domains *dom);
/* Refuses 'lw' (-1, a diagnostic at each element concerned) when 'dom'
 * proves out of range the probability of an arc (a case of a branch, an
 * or-arc, the remainder made explicit: [0, 1]), a loop count (>= 0) or
 * the number of iterations to - from + 1 of a counter loop (>= 0). */
int segc_check_ranges(segc_ctx *ctx, segc_lowered *lw,
	const segc_domains *dom);
/* locate.c: refuses 'lw' (-1, a diagnostic at the node) when a node of
 * one of its graphs cannot reach the exit along loop arcs and arcs whose
 * probability is not 0 under 'dom'. */
int segc_check_exits(segc_ctx *ctx, segc_lowered *lw,
	const segc_domains *dom);
/* Lowers graph 'g' of the model of 's' (segc_lower_once: the main graph
 * once per model), applies the setting and runs the three checks above
 * (lower_once.c): the lowered program, or NULL with a diagnostic.
 * '*dom' gets the setting's domains once the setting applies (also when a
 * check then fails); the caller frees it. */
segc_lowered *segc_lower_checked(segc_ctx *ctx, const segc_setting *s,
	const segc_graph *g, segc_domains **dom);
/* The same for the program of model 'm' under its own setting (its
 * parameters' values, its inline machine), for validation: 0, or -1 with
 * a diagnostic (also when the program cannot be lowered). */
int segc_check_model_expressions(segc_ctx *ctx, const segc_model *m);

/* segc_derive_structural (canonical == 0) or segc_derive_canonical, with
 * reduction flags 'flags' (for tests of the general methods). */
SEGC_GIVE segc_expr *segc_derive_flags(segc_ctx *ctx, const segc_setting *s,
	enum segc_component comp, unsigned flags, int canonical);

/* How to reduce. */
enum {
	SEGC_REDUCE_GENERAL_ONLY = 1  /* skip series/alternative/fork rules:
	                                 use visit counts or longest paths */
};

/* The formula of component 'comp' of the lowered program: structural
 * reduction, then the general methods where structure does not suffice.
 * 'dom' (may be NULL) is passed to segc_canonical by the general
 * methods. */
SEGC_GIVE segc_expr *segc_reduce(segc_ctx *ctx, const segc_lowered *lw,
	enum segc_component comp, const segc_domains *dom, unsigned flags);

#endif
