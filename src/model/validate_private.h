/* validate_private.h - what the files of the semantic checks share
 * (validate_check.c: names, the checker, expressions; validate.c: the
 * passes over a machine and a model; validate_decls.c: functions,
 * cycles, probabilities, names given by users; validate_graph.c: blocks
 * and arc-form graphs).  The helpers keep their short names in the code;
 * as symbols of the library they carry the segc_vd_ prefix. */
#ifndef SEGC_VALIDATE_PRIVATE_H
#define SEGC_VALIDATE_PRIVATE_H

#include "model/validate.h"
#include "base/symtab.h"
#include "base/util.h"

#define names_add segc_vd_names_add
#define names_pop_to segc_vd_names_pop_to
#define names_find segc_vd_names_find
#define names_clear segc_vd_names_clear
#define suggest segc_vd_suggest
#define check_error segc_vd_check_error
#define at_value segc_vd_at_value
#define find_fn segc_vd_find_fn
#define check_at segc_vd_check_at
#define check_attr segc_vd_check_attr
#define reserved_name segc_vd_reserved_name
#define declare segc_vd_declare
#define declare_functions segc_vd_declare_functions
#define checker_init segc_vd_checker_init
#define checker_clear segc_vd_checker_clear
#define digraph_init segc_vd_digraph_init
#define digraph_add segc_vd_digraph_add
#define digraph_clear segc_vd_digraph_clear
#define report_cycle segc_vd_report_cycle
#define check_functions segc_vd_check_functions
#define check_mixed_recursion segc_vd_check_mixed_recursion
#define check_binding_cycles segc_vd_check_binding_cycles
#define collect_counters segc_vd_collect_counters
#define check_blocks segc_vd_check_blocks
#define check_arc_graph segc_vd_check_arc_graph
#define check_indexed_graph segc_vd_check_indexed_graph

/* Names in declaration order, each with the element that declared it;
 * 'index' maps a name to its last entry, 'prev' to the entry that name had
 * before (so that a scope closes in constant time). */
typedef struct names {
	const char **name;
	const char **kind;          /* "param", "resource", ... */
	unsigned long *line;
	size_t *prev;
	segc_symtab index;
	size_t n, cap;
} names;

/* A function that calls may name, with its number of arguments. */
typedef struct fn_sig {
	const char *name;
	size_t nargs;
} fn_sig;

/* The state of one check: the plain names visible everywhere, the local
 * ones (arguments, loop variables, binders) as a stack, the functions,
 * and where the expression being checked stands. */
typedef struct checker {
	segc_ctx *ctx;
	names global;
	names local;
	fn_sig *fns;
	size_t nfns;
	segc_symtab fn_index;    /* name -> last signature */
	segc_symtab resources;   /* name -> index in the model's resources */
	segc_symtab graphs;      /* name -> index in the model's graphs */
	int failed;
	/* the expression being checked: where, and what it is (either 'what',
	 * or attribute 'attr' of <'elem'>, put into words when needed) */
	const segc_srcloc *loc;
	const char *what;
	const char *attr, *elem;
	segc_strbuf what_buf;
	const segc_text_locator *locator;   /* may be NULL */
	size_t fault_off;    /* where in its text the fault being reported
			      * stands, or (size_t)-1: at the start */
	names reported;      /* names already reported in it */
	names counters;      /* every loop variable of the model, first wins */
	/* calls of user functions made by it, collected when non-NULL */
	size_t *calls;
	size_t ncalls, capcalls;
	size_t nerrors;      /* errors recorded so far */
	/* the blocks found in error, when collected (non-NULL 'bad' or
	 * 'collect_bad'), so that validate can check the rest further */
	int collect_bad;
	const segc_block **bad;
	size_t nbad, capbad;
} checker;

/* A count that grows with every error recorded, by check_error() or
 * straight into the context (segc_error()): compared before and after a
 * check, it tells whether the check found one. */
#define ERRORS_SEEN(c) ((c)->nerrors + segc_ctx_n_diags((c)->ctx))

/* A directed graph on 'n' vertices as adjacency lists. */
typedef struct digraph {
	size_t n;
	size_t **succ;
	size_t *nsucc;
	size_t *cap;
} digraph;

/* Adds 'name' declared by <'kind'> at 'line' to 's'. */
void names_add(names *s, const char *name, const char *kind,
	unsigned long line);
/* Removes the names added last until 's' holds 'n'. */
void names_pop_to(names *s, size_t n);
/* The index of the last 'name' in 's', or -1. */
long names_find(const names *s, const char *name);
/* Releases the arrays of 's'. */
void names_clear(names *s);
/* The name of 'a' or 'b' (either may be NULL) nearest 'name' within a
 * third of its length, first declared winning ties; NULL if none. */
const char *suggest(const char *name, const names *a, const names *b);
/* Records an error at 'loc' (at the fault in the text of the document
 * when 'loc' is that of the expression being checked and the locator
 * can tell where). */
void check_error(checker *c, const segc_srcloc *loc,
	enum segc_status code, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 4, 5)))
#endif
	;
/* 'loc' moved to the start of the value of its attribute 'attr' when
 * the locator can tell where that is (in '*buf'), else 'loc'. */
const segc_srcloc *at_value(const checker *c,
	const segc_srcloc *loc, const char *attr, segc_srcloc *buf);
/* The signature of the user function 'name', or NULL. */
const fn_sig *find_fn(const checker *c, const char *name);
/* Checks expression 'e' (may be NULL) standing at 'loc' as 'what'. */
void check_at(checker *c, const segc_expr *e, const segc_srcloc *loc,
	const char *what);
/* Checks 'e' at 'loc', describing it as attribute 'attr' of <'elem'>. */
void check_attr(checker *c, const segc_expr *e, const segc_srcloc *loc,
	const char *attr, const char *elem);
/* Reports, and returns 1, when 'name' (declared by <'kind'> at 'loc',
 * as 'role' when not NULL) is a reserved word of the expression
 * language. */
int reserved_name(checker *c, const char *name, const char *kind,
	const char *role, const segc_srcloc *loc);
/* Declares global 'name' of <'kind'> at 'loc', reporting a name already
 * declared or reserved. */
void declare(checker *c, const char *name, const char *kind,
	const segc_srcloc *loc);
/* Adds the user functions 'f' to the signatures, reporting duplicates and
 * names of built-ins. */
void declare_functions(checker *c, size_t n, const segc_function *f);
/* Sets up checker 'c' for diagnostics in 'ctx'. */
void checker_init(checker *c, segc_ctx *ctx);
/* Releases what 'c' holds. */
void checker_clear(checker *c);
/* A graph of 'n' vertices without edges. */
void digraph_init(digraph *g, size_t n);
/* Adds the edge 'a' -> 'b'. */
void digraph_add(digraph *g, size_t a, size_t b);
/* Releases 'g'. */
void digraph_clear(digraph *g);
/* Reports a cycle of 'g' if there is one: "<'kind'> 'a' -> 'b' -> 'a'",
 * at the location of its first vertex ('locs'), names from 'name'. */
void report_cycle(checker *c, const digraph *g, const char *kind,
	const char *const *name, const segc_srcloc *const *locs,
	const char *problem);
/* Checks the bodies of functions 'f' (the first 'base' signatures of 'c'
 * belong to other owners) and reports recursion among them. */
void check_functions(checker *c, size_t n, const segc_function *f,
	size_t base);
/* Reports recursion through the functions of model 'm' and of its inline
 * machine together, whose signatures 'c' holds in that order; a cycle
 * among the functions of one of them alone is reported with them. */
void check_mixed_recursion(checker *c, const segc_model *m);
/* Reports a cycle among the 'n' bindings 'b' (lets or consts), each a
 * value that may name the others.  Binding i depends on binding j when
 * j's name occurs free in i's value; the candidates come from a table of
 * the names, then each is confirmed. */
void check_binding_cycles(checker *c, size_t n,
	const segc_binding *b, const char *kind);
/* Records in c->counters the variable of every <loop> under 'body' (the
 * first loop of each name), for the message of a counter used outside
 * its loop.  An explicit stack replaces recursion. */
void collect_counters(checker *c, const segc_block *body);
/* A block whose children are being walked: the next one to visit.  The
 * walks of the blocks keep one frame per open block, not one per child,
 * so that a long sequence costs no stack; frame_push adds one to
 * '*stack' ('*n' of '*cap'). */
typedef struct walk_frame {
	const segc_block *block;
	size_t next;
} walk_frame;
void frame_push(walk_frame **stack, size_t *n, size_t *cap,
	const segc_block *b);
/* Checks the blocks under 'body' of a graph of 'm', loop variables in
 * scope within their loops.  An explicit stack replaces recursion. */
void check_blocks(checker *c, const segc_model *m,
	const segc_block *body);
/* Checks arc-form graph 'g'. */
void check_arc_graph(checker *c, segc_graph *g);
/* Checks arc-form graph 'g' with indexed nodes, its arcs resolved, in
 * place of the checks of or-splits (validate_indexed.c). */
void check_indexed_graph(checker *c, const segc_graph *g);

#endif
