/* model.h - the in-memory model and machine (FORMAT.md sections 3 and 5),
 * as the XML reader builds them and the reducer consumes them.  Private to
 * the library: users go through the functions of segc_model.h.
 *
 * Every object owns its strings and expressions; segc_model_free() and
 * segc_machine_free() release everything below them.  Expressions are as
 * parsed (not canonical).  Source locations point into the document. */
#ifndef SEGC_MODEL_H
#define SEGC_MODEL_H

#include <segc/segc.h>
#include <segc/segc_model.h>
#include "base/util.h"

/* Where an element stands: the file (shared, owned by the model or
 * machine), its line, and its column where known (else 0). */
typedef struct segc_srcloc {
	const char *file;
	unsigned long line;
	unsigned long col;
} segc_srcloc;

typedef struct segc_param {
	char *name;
	segc_expr *value;   /* NULL: stays a symbol */
	segc_expr *min;     /* NULL: unbounded */
	segc_expr *max;
	int integer;
	char *latex;        /* NULL: typeset from the name */
	segc_srcloc loc;
} segc_param;

typedef struct segc_resource {
	char *name;
	char *latex;
	segc_srcloc loc;
} segc_resource;

/* <let> of a model; <const> and <cost> of a machine.  Only a <let> has
 * the declared domain and typesetting of a <param> (min, max, integer,
 * latex); they stay NULL and 0 for the others. */
typedef struct segc_binding {
	char *name;
	segc_expr *value;
	segc_expr *min;     /* NULL: unbounded */
	segc_expr *max;
	int integer;
	char *latex;        /* NULL: typeset from the name */
	segc_srcloc loc;
} segc_binding;

typedef struct segc_function {
	char *name;
	size_t nargs;
	char **args;
	segc_expr *body;
	segc_srcloc loc;
} segc_function;

/* The component a cost belongs to (FORMAT.md 3.1). */
enum segc_class { SEGC_CLASS_COMP = 0, SEGC_CLASS_COMM, SEGC_CLASS_IO };

/* ------------------------------------------------------------ block form */

enum segc_block_kind {
	SEGC_BLOCK_STEP,
	SEGC_BLOCK_SEQ,     /* also the body of a loop, a case, a graph */
	SEGC_BLOCK_LOOP,    /* count, or var/from/to */
	SEGC_BLOCK_BRANCH,  /* children are CASE blocks */
	SEGC_BLOCK_CASE,    /* prob (NULL: the remainder); children its body */
	SEGC_BLOCK_PAR,
	SEGC_BLOCK_CALL
};

typedef struct segc_use {
	char *resource;
	segc_expr *count;   /* never NULL (1 when omitted) */
	segc_srcloc loc;
} segc_use;

/* A block (80 bytes): what only one kind uses shares its storage with
 * the fields of the other kinds, so that a long trace of steps costs
 * little; read a field only for its kind. */
typedef struct segc_block segc_block;
struct segc_block {
	enum segc_block_kind kind;
	enum segc_class cls; /* STEP */
	segc_srcloc loc;
	/* SEQ, LOOP (its body, in order), BRANCH (its cases), CASE, PAR */
	size_t nchildren;
	segc_block **children;
	union {
		struct {             /* STEP */
			char *name;          /* may be NULL */
			segc_expr *cost;     /* may be NULL */
			size_t nuses;
			segc_use *uses;
		};
		struct {             /* LOOP: either count, or var, from, to */
			segc_expr *count;
			char *var;
			segc_expr *from, *to;
		};
		segc_expr *prob;     /* CASE */
		char *graph;         /* CALL */
	};
};

/* -------------------------------------------------------------- arc form */

typedef struct segc_node {
	char *id;
	segc_expr *cost;     /* may be NULL */
	enum segc_class cls;
	int split_and;       /* split="and" */
	int join_and;        /* join="and" */
	int split_or;        /* split="or" written out */
	int join_or;         /* join="or" written out */
	/* index="x=lo..hi, ...": an indexed node (a family of tasks) when
	 * nindex > 0; the bounds of index k may use indices 0..k-1 */
	size_t nindex;
	char **index_name;
	segc_expr **index_lo, **index_hi;
	segc_srcloc loc;
} segc_node;

/* The largest distance of a forward edge (forward="d"). */
#define SEGC_MAX_FORWARD 100000UL

/* The most indices a node may have (doc/limits.md, Fixed limits). */
#define SEGC_MAX_INDICES 64

typedef struct segc_arc {
	char *from, *to;
	size_t from_index, to_index;  /* into the graph's nodes */
	segc_expr *prob;     /* NULL: omitted */
	segc_expr *cost;     /* NULL: none */
	enum segc_class cls;
	segc_expr *loop;     /* non-NULL: a back arc, the region runs n times */
	unsigned long forward; /* > 0: a forward edge of that distance */
	int overlap;         /* overlap="true" on a back arc */
	char *var;           /* var="i" on a back arc: its counter, or NULL */
	/* at="e1, ...": the instance of an indexed target, from the
	 * indices of the source; has_at when the attribute is written */
	int has_at;
	size_t nat;
	segc_expr **at;
	segc_srcloc loc;
} segc_arc;

typedef struct segc_graph {
	char *name;
	int arc_form;        /* 1: nodes and arcs; 0: body */
	segc_block *body;    /* block form: a SEQ */
	size_t nnodes;
	segc_node *nodes;
	size_t narcs;
	segc_arc *arcs;
	segc_srcloc loc;
} segc_graph;

/* Non-zero when arc-form graph 'g' has an indexed node (model.c). */
int segc_graph_has_families(const segc_graph *g);

typedef struct segc_expect {
	char *component;     /* "total" when omitted */
	char *machine;       /* NULL, or a file name relative to the model */
	char *source;        /* may be NULL */
	char *text;          /* the formula as written */
	segc_expr *formula;
	segc_srcloc loc;
} segc_expect;

struct segc_machine {
	char *file;
	char *name;
	char *description;
	size_t nconsts;
	segc_binding *consts;
	size_t ncosts;
	segc_binding *costs;
	size_t nfunctions;
	segc_function *functions;
	segc_srcloc loc;
	segc_name_index ix_consts, ix_costs;   /* lookups by name */
};

struct segc_model {
	char *file;
	char *name;
	char *description;
	size_t nparams;
	segc_param *params;
	size_t nresources;
	segc_resource *resources;
	size_t nlets;
	segc_binding *lets;
	size_t nfunctions;
	segc_function *functions;
	segc_machine *machine;   /* inline machine, or NULL */
	size_t ngraphs;
	segc_graph *graphs;
	size_t nexpects;
	segc_expect *expects;
	segc_srcloc loc;
	/* Lookups by name, built as they are needed (model.c). */
	segc_name_index ix_params, ix_resources, ix_lets, ix_graphs;
	/* A cache the stages above fill (src/graph: the main graph lowered
	 * once), opaque here: freed with the model through 'lowered_free'. */
	void *lowered;
	void (*lowered_free)(void *);
};

/* Lookups by name; NULL when absent. */
const segc_param *segc_model_param(const segc_model *m, const char *name);
const segc_resource *segc_model_resource(const segc_model *m,
	const char *name);
const segc_graph *segc_model_graph(const segc_model *m, const char *name);
const segc_binding *segc_model_let(const segc_model *m, const char *name);
const segc_binding *segc_machine_const(const segc_machine *m,
	const char *name);
const segc_binding *segc_machine_cost(const segc_machine *m,
	const char *name);
/* The program: the graph named "main", else the first. */
const segc_graph *segc_model_main_graph(const segc_model *m);
/* Puts 'p' in the cache slot of 'm' (a cache: the model stays logically
 * const), 'free_fn' to release it with the model; what was there before
 * is released first. */
void segc_model_set_lowered(const segc_model *m, void *p,
	void (*free_fn)(void *));

void segc_block_free(segc_block *b);

/* Applies one setting (segc_setting_apply) to many expressions, each
 * under the counters of <loop var> bound around it, sharing the work on
 * common parts.  segc_scoped_apply_expr: the value of 'e' with the
 * counters 'bound' (innermost last) left as names, diagnostics placed at
 * 'loc' (may be NULL); NULL with a diagnostic on failure. */
typedef struct segc_scoped_apply segc_scoped_apply;
segc_scoped_apply *segc_scoped_apply_new(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_setting *s);
void segc_scoped_apply_free(segc_scoped_apply *G);
SEGC_GIVE segc_expr *segc_scoped_apply_expr(segc_scoped_apply *G,
	SEGC_KEEP const segc_expr *e, const char *const *bound, size_t nbound,
	const segc_srcloc *loc);

/* The machine that applies under setting 's': its explicit one, else
 * the model's inline one, else NULL. */
const segc_machine *segc_setting_machine(const segc_setting *s);

#endif
