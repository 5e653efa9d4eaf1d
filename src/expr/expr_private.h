/* expr_private.h - the layout of expression nodes and helpers for the
 * modules of libsegc that walk expressions.  Not installed. */
#ifndef SEGC_EXPR_PRIVATE_H
#define SEGC_EXPR_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <segc/segc.h>
#include "expr/builtin.h"

/* How many free names a node records (they fill the room a number's
 * value takes in the other kinds), and the mark of a node that has more:
 * a walk looking for a name stops at a node that records its names. */
#define SEGC_EXPR_FREE 3
#define SEGC_EXPR_FREE_MANY 255

/* One node of the shared expression store.  Nodes are created only by the
 * constructors, which look them up first: equal structure, same node.
 * Reference counts are not atomic: the expression store is not
 * thread-safe. */
struct segc_expr {
	struct segc_expr *next;  /* next node in the same bucket of the store */
	unsigned long refs;      /* references held by callers and parents */
	unsigned long hash;      /* structural, from the children's hashes */
	unsigned char kind;      /* enum segc_expr_kind */
	unsigned char builtin;   /* CALL: enum segc_builtin of its name */
	unsigned char nfree;     /* names free in it, in u.free[], or
	                          * SEGC_EXPR_FREE_MANY when more */
	unsigned char deferred;  /* children not made yet (see
	                          * segc_expr_store_defer) */
	unsigned int nargs;      /* children in args[] */
	union {
		mpq_t value;         /* NUM */
		struct {
			const char *name;  /* SYM, CALL, SUM (stored after
			                    * args[]) */
			/* the names free in the node when there are
			 * at most SEGC_EXPR_FREE of them (each stored
			 * in a SYM below it), in no particular order */
			const char *free[SEGC_EXPR_FREE];
		};
	} u;
	struct segc_expr *args_[]; /* ADD, MUL, CALL: operands; POW: base,
	                            * exponent; SUM: lo, hi, body; read
	                            * through segc_args() */
};

/* Makes the children of the deferred node 'e' (expr_store.c). */
void segc_expr_force(const segc_expr *e);

/* The children of 'e' (its nargs operands), made first when 'e' was
 * stored with its children deferred. */
static inline segc_expr *const *segc_args(const segc_expr *e)
{
	if (e->deferred)
		segc_expr_force(e);
	return e->args_;
}

/* Deferred children: a node of the store whose children are made only
 * when a walk first reads them (segc_args), from what the producer keeps
 * in 'data'.  The canonical form writes a long polynomial so: until then
 * it is one node, not one node a term. */
struct segc_expr_deferred {
	/* writes the node's nargs children, each with its reference, into
	 * 'out' in order; cannot fail */
	void (*make)(void *data, segc_expr **out);
	/* releases 'data' (after make, or when the node dies unread) */
	void (*release)(void *data);
	void *data;
};

/* Combines the running structural hash 'h' with 'x' (the store's hash
 * of a node is a chain of these over its fields, then
 * segc_expr_hash_final; see segc_expr_hash_share for sums and
 * products). */
static inline uint64_t segc_expr_hash_mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

/* Spreads the bits of a finished chain 'h' (the finaliser of
 * MurmurHash3). */
static inline uint64_t segc_expr_hash_final(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* The share of a child whose hash is 'h' in the hash of a sum or a
 * product.  The hash of an ADD or MUL node mixes the sum over its
 * children of their shares, each weighted by its place
 * (segc_expr_hash_at): the order of the children is in the hash, yet
 * whoever computes it without the nodes (a producer of deferred
 * children) adds the children as it meets them, from shares it keeps
 * from one term to the next. */
static inline uint64_t segc_expr_hash_share(unsigned long h)
{
	return segc_expr_hash_final((uint64_t)h ^ 0x2545f4914f6cdd1dULL);
}

/* The share 'share' of a child at place 'i' (from 0) of a sum or a
 * product, weighted by the place: times 2i + 1, odd, so that two
 * children swapped change the sum unless their shares agree. */
static inline uint64_t segc_expr_hash_at(uint64_t share, size_t i)
{
	return share * (2 * (uint64_t)i + 1);
}

/* The hash the store gives a node of 'kind' (ADD or MUL) with 'n'
 * children whose shares at their places (segc_expr_hash_at) add up to
 * 'sum': what a producer of deferred children computes without making
 * them. */
static inline unsigned long segc_expr_hash_sum(enum segc_expr_kind kind,
	size_t n, uint64_t sum)
{
	uint64_t h = segc_expr_hash_mix(0x5e9c, (uint64_t)kind + 1);

	h = segc_expr_hash_mix(segc_expr_hash_mix(h, (uint64_t)n), sum);
	return (unsigned long)segc_expr_hash_final(h);
}

/* The hash the store gives the NUM node of 'q'. */
unsigned long segc_expr_hash_num(mpq_srcptr q);

/* A node of 'kind' (ADD or MUL) with 'n' children deferred to 'd':
 * 'hash' is segc_expr_hash_sum of the children 'd' will make, and the
 * 'nfrom' nodes 'from' have together the names free in them.  NULL, with
 * nothing made and 'd' left to the caller, when the store holds a node
 * of that hash, kind and size already (the caller then makes the
 * children and the node as usual).  When make's children do not have
 * 'hash', segc_expr_force aborts: a node would stand for two
 * structures. */
segc_expr *segc_expr_store_defer(enum segc_expr_kind kind, size_t n,
	unsigned long hash, size_t nfrom, const segc_expr *const *from,
	const struct segc_expr_deferred *d);

/* Records in the new node 'e', whose children are set, the names free
 * in it (nfree, u.free) when there are at most SEGC_EXPR_FREE. */
void segc_expr_note_free(segc_expr *e);
/* The same for a node without a binder whose children have together the
 * names free in the 'n' nodes 'from'. */
void segc_expr_note_free_from(segc_expr *e, size_t n,
	const segc_expr *const *from);

/* Non-zero when 'name' may occur free in 'e': always when 'e' has more
 * free names than it records. */
static inline int segc_expr_may_have(const segc_expr *e, const char *name)
{
	unsigned i;

	if (e->nfree == SEGC_EXPR_FREE_MANY)
		return 1;
	for (i = 0; i < e->nfree; i++)
		if (!strcmp(e->u.free[i], name))
			return 1;
	return 0;
}

/* The number of nodes alive in the store (for leak checks in tests). */
size_t segc_expr_live_nodes(void);

/* Builds a node of 'kind' (ADD, MUL, POW, CALL or SUM) from 'n' children,
 * through the matching constructor; 'name' for CALL and SUM.  Takes the
 * references of 'args'. */
segc_expr *segc_expr_rebuild(enum segc_expr_kind kind, const char *name,
	size_t n, segc_expr **args);

/* Non-zero when 'name' is an internal name that canonical forms give
 * bound variables: "_s" (of a sum) or "_r" (of a recurrence) followed by
 * digits. */
int segc_expr_is_internal_name(const char *name);

/* Non-zero when 'e' is a NUM holding an integer. */
int segc_expr_is_integer(const segc_expr *e);
/* The product of the number 'c' and the 'n' factors: the node
 * segc_expr_mul gives with segc_expr_num(c) as the first factor, made
 * without a node for 'c' first (the canonical form writes its terms
 * so). */
segc_expr *segc_expr_mul_q(mpq_srcptr c, size_t n, segc_expr **factors);

/* segc_expr_mul_q with the number given as the NUM node 'c' (not NULL),
 * which the canonical form finds again among the terms it writes rather
 * than looking it up in the store each time.  Takes the references of
 * 'c' and 'factors'. */
segc_expr *segc_expr_mul_num(segc_expr *c, size_t n, segc_expr **factors);

/* A set (or map) of expression nodes, keyed by identity; for walks over
 * the DAG that must visit each node once. */
typedef struct segc_expr_map {
	const segc_expr **keys;
	void **values;
	size_t n, cap;
} segc_expr_map;

void segc_expr_map_init(segc_expr_map *m);
void segc_expr_map_clear(segc_expr_map *m);
/* The slot of 'key' (NULL if absent). */
void **segc_expr_map_find(const segc_expr_map *m, const segc_expr *key);
/* Adds 'key' with 'value' unless present; returns 1 if added, 0 if it was
 * already there (its value unchanged). */
int segc_expr_map_put(segc_expr_map *m, const segc_expr *key, void *value);

/* The reserved words "if", "and", "or", "not" of the expression language:
 * non-zero when 'name' is one. */
int segc_expr_is_reserved(const char *name);
/* Non-zero when 'name' names a relation call: "<", "<=", ">", ">=", "=="
 * or "!=" (of two arguments). */
int segc_expr_is_relation_name(const char *name);
/* Non-zero when 'e' is a condition: a relation call of two arguments,
 * "and"/"or" of two or more, "not" of one.  Conditions stand as the first
 * argument of the call "if" (of three), or inside and/or/not. */
int segc_expr_is_condition(const segc_expr *e);

/* 'e' with the internal names of its sum binders ("_s1", "_s2", ...)
 * replaced by readable ones (i, j, k, l, m, then i1, i2, ...), each not
 * occurring in its body nor bound by an enclosing sum: the same formula up
 * to the names of bound variables, for printing. */
segc_expr *segc_expr_readable_binders(const segc_expr *e);

/* Frees every node left in the calling thread's store and the store
 * itself (expr_store.c): the part of segc_library_cleanup() (segc.h) that
 * belongs to the expressions. */
void segc_expr_store_cleanup(void);

#endif
