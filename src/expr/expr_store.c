/* expr_store.c - the expression store: every node lives in one
 * hash table of its thread keyed by its structure (kind, name, number and the
 * identities of its children), reference-counted and immutable.  A
 * constructor (expr.c) computes the structural hash from the children's
 * stored hashes, looks the node up here and gets the existing one if there
 * is one.  Hashes never involve addresses, so they are the same in every
 * run.  Freeing uses an explicit stack, not recursion. */
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr/store_private.h"
#include "base/util.h"

/* The store: buckets of chained nodes, a power of two of them.  Each
 * thread has its own (segc.h, "Threads"): two derivations in two threads
 * share no node and no count, and need no lock; an expression, and a
 * model or anything holding expressions, stays in the thread that made
 * it. */
static _Thread_local struct {
	segc_expr **buckets;
	size_t cap;
	size_t count;
} store;

/* ------------------------------------------------------------- hashing */

/* FNV-1a of the string 's'. */
static uint64_t hash_string(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* A hash of the integer 'z': its sign, size and limbs. */
static uint64_t hash_mpz(uint64_t h, mpz_srcptr z)
{
	size_t i, n = mpz_size(z);

	h = segc_expr_hash_mix(h, (uint64_t)(mpz_sgn(z) + 1));
	h = segc_expr_hash_mix(h, (uint64_t)n);
	for (i = 0; i < n; i++)
		h = segc_expr_hash_mix(h,
			(uint64_t)mpz_getlimbn(z, (mp_size_t)i));
	return h;
}

/* The structural hash of 'key' (fields other than 'hash'). */
static unsigned long key_hash(const struct node_key *key)
{
	uint64_t h = segc_expr_hash_mix(0x5e9c, (uint64_t)key->kind + 1);
	size_t i;

	if (key->kind == SEGC_ADD || key->kind == SEGC_MUL) {
		/* a sum or a product adds its children's shares, each at
		 * its place (expr_private.h) */
		uint64_t sum = 0;

		for (i = 0; i < key->nargs; i++)
			sum += segc_expr_hash_at(segc_expr_hash_share(
				key->args[i]->hash), i);
		return segc_expr_hash_sum(key->kind, key->nargs, sum);
	}
	if (key->kind == SEGC_NUM) {
		h = hash_mpz(h, mpq_numref(key->value));
		h = hash_mpz(h, mpq_denref(key->value));
	}
	if (key->name)
		h = segc_expr_hash_mix(h, hash_string(key->name));
	h = segc_expr_hash_mix(h, (uint64_t)key->nargs);
	for (i = 0; i < key->nargs; i++)
		h = segc_expr_hash_mix(h, (uint64_t)key->args[i]->hash);
	return (unsigned long)segc_expr_hash_final(h);
}

/* The hash of the NUM node of 'q' (see expr_private.h). */
unsigned long segc_expr_hash_num(mpq_srcptr q)
{
	struct node_key key = { SEGC_NUM, 0, NULL, 0, NULL, NULL };

	key.value = q;
	return key_hash(&key);
}

/* --------------------------------------------------------------- store */

/* The producer of the deferred node 'e', kept after its children's
 * room. */
static struct segc_expr_deferred *deferred_of(const segc_expr *e)
{
	return (struct segc_expr_deferred *)(uintptr_t)(e->args_ + e->nargs);
}

/* The bucket of hash 'h'. */
static segc_expr **store_bucket(unsigned long h)
{
	return &store.buckets[h & (store.cap - 1)];
}

/* Doubles the number of buckets (or makes the first ones). */
static void store_grow(void)
{
	size_t old_cap = store.cap, i;
	segc_expr **old = store.buckets;

	store.cap = old_cap ? 2 * old_cap : 1024;
	store.buckets = segc_xcalloc(store.cap, sizeof(*store.buckets));
	for (i = 0; i < old_cap; i++) {
		segc_expr *e = old[i], *next;

		for (; e; e = next) {
			segc_expr **b = store_bucket(e->hash);

			next = e->next;
			e->next = *b;
			*b = e;
		}
	}
	free(old);
}

/* Non-zero when node 'e' has the structure of 'key'. */
static int node_matches(const segc_expr *e, const struct node_key *key)
{
	size_t i;

	if (e->hash != key->hash || e->kind != key->kind ||
	    e->nargs != key->nargs)
		return 0;
	if (key->kind == SEGC_NUM)
		return mpq_equal(e->u.value, key->value);
	if (key->name && strcmp(e->u.name, key->name))
		return 0;
	for (i = 0; i < key->nargs; i++)
		if (e->args_[i] != key->args[i])
			return 0;
	return 1;
}

/* A node of 'key''s kind, size and hash, with room after its children
 * for 'extra' bytes; its children, value and name are the caller's to
 * set. */
static segc_expr *node_alloc(const struct node_key *key, size_t extra)
{
	size_t args_size = segc_xmul_size(key->nargs, sizeof(segc_expr *));
	segc_expr *e;

	if (key->nargs > UINT_MAX)
		abort();
	e = segc_xmalloc(offsetof(segc_expr, args_) + args_size + extra);
	e->refs = 1;
	e->hash = key->hash;
	e->kind = (unsigned char)key->kind;
	e->builtin = (unsigned char)(key->kind == SEGC_CALL ?
		segc_builtin_lookup(key->name) : SEGC_BUILTIN_NONE);
	e->nargs = (unsigned int)key->nargs;
	e->deferred = 0;
	return e;
}

/* A new node for 'key', taking the references of its children. */
static segc_expr *node_create(const struct node_key *key)
{
	size_t args_size = segc_xmul_size(key->nargs, sizeof(segc_expr *));
	size_t name_len = key->name ? strlen(key->name) + 1 : 0;
	segc_expr *e = node_alloc(key, name_len);

	if (key->nargs)
		memcpy(e->args_, key->args, args_size);
	if (key->kind == SEGC_NUM) {
		mpq_init(e->u.value);
		mpq_set(e->u.value, key->value);
	} else if (key->name) {
		char *name = (char *)e->args_ + args_size;

		memcpy(name, key->name, name_len);
		e->u.name = name;
	} else {
		e->u.name = NULL;
	}
	segc_expr_note_free(e);
	return e;
}

/* Puts the new node 'e' in the table. */
static void store_link(segc_expr *e)
{
	segc_expr **b;

	if (store.count >= store.cap)
		store_grow();
	b = store_bucket(e->hash);
	e->next = *b;
	*b = e;
	store.count++;
}

/* The node of 'key': the existing one (the references of the key's
 * children are then released) or a new one. */
segc_expr *segc_expr_store_intern(struct node_key *key)
{
	segc_expr *e;
	size_t i;

	if (!store.cap)
		store_grow();
	key->hash = key_hash(key);
again:
	for (e = *store_bucket(key->hash); e; e = e->next) {
		if (e->deferred && e->hash == key->hash &&
		    e->kind == key->kind && e->nargs == key->nargs) {
			/* making the children may grow the table */
			segc_expr_force(e);
			goto again;
		}
		if (node_matches(e, key)) {
			e->refs++;
			for (i = 0; i < key->nargs; i++)
				segc_expr_free(key->args[i]);
			return e;
		}
	}
	e = node_create(key);
	store_link(e);
	return e;
}

/* Removes 'e' from its bucket. */
static void store_unlink(segc_expr *e)
{
	segc_expr **p = store_bucket(e->hash);

	while (*p != e)
		p = &(*p)->next;
	*p = e->next;
	store.count--;
}

/* Releases the memory of the node 'e' (already unlinked). */
static void node_destroy(segc_expr *e)
{
	if (e->kind == SEGC_NUM)
		mpq_clear(e->u.value);
	free(e);
}

/* The number of live nodes. */
size_t segc_expr_live_nodes(void)
{
	return store.count;
}

/* Frees every node left in the store of the calling thread and the
 * table itself (see expr_private.h). */
void segc_expr_store_cleanup(void)
{
	size_t i;

	/* the producers of deferred children first, while every node they
	 * release is still in the table: releasing may free nodes (and
	 * other deferred ones), so the search starts again each time */
	for (i = 0; i < store.cap; i++) {
		segc_expr *e = store.buckets[i];

		for (; e && !e->deferred; e = e->next)
			;
		if (e) {
			struct segc_expr_deferred d = *deferred_of(e);

			e->deferred = 0;
			e->nargs = 0;
			d.release(d.data);
			i = (size_t)-1;
		}
	}

	for (i = 0; i < store.cap; i++) {
		segc_expr *e = store.buckets[i], *next;

		for (; e; e = next) {
			next = e->next;
			node_destroy(e);
		}
	}
	free(store.buckets);
	store.buckets = NULL;
	store.cap = 0;
	store.count = 0;
}

/* -------------------------------------------------------- deferred nodes */

/* See expr_private.h. */
segc_expr *segc_expr_store_defer(enum segc_expr_kind kind, size_t n,
	unsigned long hash, size_t nfrom, const segc_expr *const *from,
	const struct segc_expr_deferred *d)
{
	struct node_key key = { SEGC_ADD, 0, NULL, 0, NULL, NULL };
	segc_expr *e;

	if (n > UINT_MAX || (kind != SEGC_ADD && kind != SEGC_MUL))
		return NULL;
	if (!store.cap)
		store_grow();
	for (e = *store_bucket(hash); e; e = e->next)
		if (e->hash == hash && e->kind == (unsigned char)kind &&
		    e->nargs == n)
			return NULL;
	key.kind = kind;
	key.hash = hash;
	key.nargs = n;
	e = node_alloc(&key, sizeof(*d));
	memset(e->args_, 0, n * sizeof(segc_expr *));
	e->deferred = 1;
	e->u.name = NULL;
	*deferred_of(e) = *d;
	segc_expr_note_free_from(e, nfrom, from);
	store_link(e);
	return e;
}

/* See expr_private.h: the children made once, checked against the hash
 * the node was stored under. */
void segc_expr_force(const segc_expr *ce)
{
	segc_expr *e = (segc_expr *)(uintptr_t)ce;
	struct segc_expr_deferred d = *deferred_of(e);
	struct node_key key = { SEGC_ADD, 0, NULL, 0, NULL, NULL };

	key.kind = (enum segc_expr_kind)e->kind;
	key.nargs = e->nargs;
	key.args = e->args_;
	/* not deferred while they are made: a lookup that meets 'e' then
	 * sees children not yet set, which match no key */
	e->deferred = 0;
	d.make(d.data, e->args_);
	d.release(d.data);
	if (key_hash(&key) != e->hash) {
		fputs("segc: internal error: deferred children do not have "
			"the structure they were stored under\n", stderr);
		abort();
	}
}

/* ------------------------------------------------------------ references */

/* One more reference to 'e'.  An expression is immutable; its count of
 * references is the store's bookkeeping, not part of its value, so a
 * const expression may be referenced again (like strchr, the result is
 * not const: the caller owns the reference). */
segc_expr *segc_expr_copy(const segc_expr *e)
{
	segc_expr *m = (segc_expr *)(uintptr_t)e;

	if (m)
		m->refs++;
	return m;
}

/* Drops a reference to 'e'; a node without references is removed, and so
 * are, in turn, its children that lose their last reference.  The dead
 * nodes are chained through their (no longer needed) 'next' field, so
 * releasing a deep expression needs neither recursion nor memory. */
void segc_expr_free(segc_expr *e)
{
	segc_expr *dead;
	size_t i;

	if (!e || --e->refs)
		return;
	store_unlink(e);
	e->next = NULL;
	dead = e;
	while (dead) {
		segc_expr *n = dead;

		dead = n->next;
		if (n->deferred) {
			struct segc_expr_deferred d = *deferred_of(n);

			node_destroy(n);
			d.release(d.data);
			continue;
		}
		for (i = 0; i < n->nargs; i++) {
			segc_expr *c = n->args_[i];

			if (--c->refs)
				continue;
			store_unlink(c);
			c->next = dead;
			dead = c;
		}
		node_destroy(n);
	}
}
