/* expr.c - the expression store: hash-consed, reference-counted, immutable
 * nodes, their constructors with the light normalisation of segc.h, and
 * the structural queries (order, substitution, size).
 *
 * Every node lives in one global hash table keyed by its structure: kind,
 * name, number and the identities of its children.  A constructor computes
 * the structural hash from the children's stored hashes (O(number of
 * children)), looks the node up and returns the existing one if there is
 * one.  Hashes never involve addresses, so they are the same in every run.
 * Walks that the shape of the input controls (free, cmp, has_sym, size,
 * subst) use explicit stacks, not recursion. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "base/util.h"

/* Powers of numbers are folded only while the result stays below this many
 * bits; larger ones stay as a POW for the canonical form to judge against
 * the context's limits. */
#define POW_FOLD_MAX_BITS 1048576UL

/* Children of ADD/MUL held on the stack before a node is built. */
#define LOCAL_ARGS 16
/* The largest sum or product flattened into an enclosing one. */
#define FLATTEN_MAX 4096

/* The store: buckets of chained nodes, a power of two of them. */
static struct {
	segc_expr **buckets;
	size_t cap;
	size_t count;
} store;

/* The structure a constructor looks up or creates. */
struct node_key {
	enum segc_expr_kind kind;
	unsigned long hash;
	const char *name;
	size_t nargs;
	segc_expr **args;
	mpq_srcptr value;
};

/* ------------------------------------------------------------- hashing */

/* Combines the running hash 'h' with 'x'. */
static uint64_t hash_mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

/* Spreads the bits of 'h' (the finaliser of MurmurHash3). */
static uint64_t hash_final(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

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

	h = hash_mix(h, (uint64_t)(mpz_sgn(z) + 1));
	h = hash_mix(h, (uint64_t)n);
	for (i = 0; i < n; i++)
		h = hash_mix(h, (uint64_t)mpz_getlimbn(z, (mp_size_t)i));
	return h;
}

/* The structural hash of 'key' (fields other than 'hash'). */
static unsigned long key_hash(const struct node_key *key)
{
	uint64_t h = hash_mix(0x5e9c, (uint64_t)key->kind + 1);
	size_t i;

	if (key->kind == SEGC_NUM) {
		h = hash_mpz(h, mpq_numref(key->value));
		h = hash_mpz(h, mpq_denref(key->value));
	}
	if (key->name)
		h = hash_mix(h, hash_string(key->name));
	h = hash_mix(h, (uint64_t)key->nargs);
	for (i = 0; i < key->nargs; i++)
		h = hash_mix(h, (uint64_t)key->args[i]->hash);
	return (unsigned long)hash_final(h);
}

/* --------------------------------------------------------------- store */

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
		if (e->args[i] != key->args[i])
			return 0;
	return 1;
}

/* A new node for 'key', taking the references of its children. */
static segc_expr *node_create(const struct node_key *key)
{
	size_t args_size = segc_xmul_size(key->nargs, sizeof(segc_expr *));
	size_t name_len = key->name ? strlen(key->name) + 1 : 0;
	segc_expr *e;

	if (key->nargs > UINT_MAX)
		abort();
	e = segc_xmalloc(offsetof(segc_expr, args) + args_size + name_len);
	e->refs = 1;
	e->hash = key->hash;
	e->kind = (unsigned char)key->kind;
	e->builtin = (unsigned char)(key->kind == SEGC_CALL ?
		segc_builtin_lookup(key->name) : SEGC_BUILTIN_NONE);
	e->nargs = (unsigned int)key->nargs;
	if (key->nargs)
		memcpy(e->args, key->args, args_size);
	if (key->kind == SEGC_NUM) {
		mpq_init(e->u.value);
		mpq_set(e->u.value, key->value);
	} else if (key->name) {
		char *name = (char *)e->args + args_size;

		memcpy(name, key->name, name_len);
		e->u.name = name;
	} else {
		e->u.name = NULL;
	}
	return e;
}

/* The node of 'key': the existing one (the references of the key's
 * children are then released) or a new one. */
static segc_expr *store_intern(struct node_key *key)
{
	segc_expr *e, **b;
	size_t i;

	if (!store.cap)
		store_grow();
	key->hash = key_hash(key);
	for (e = *store_bucket(key->hash); e; e = e->next) {
		if (node_matches(e, key)) {
			e->refs++;
			for (i = 0; i < key->nargs; i++)
				segc_expr_free(key->args[i]);
			return e;
		}
	}
	if (store.count >= store.cap)
		store_grow();
	e = node_create(key);
	b = store_bucket(e->hash);
	e->next = *b;
	*b = e;
	store.count++;
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

/* Frees every node left and the table itself. */
void segc_library_cleanup(void)
{
	size_t i;

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

/* ------------------------------------------------------------ references */

/* One more reference to 'e'. */
segc_expr *segc_expr_copy(segc_expr *e)
{
	if (e)
		e->refs++;
	return e;
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
		for (i = 0; i < n->nargs; i++) {
			segc_expr *c = n->args[i];

			if (--c->refs)
				continue;
			store_unlink(c);
			c->next = dead;
			dead = c;
		}
		node_destroy(n);
	}
}

/* Drops the references of the 'n' entries of 'v' (NULL entries skipped). */
static void free_array(size_t n, segc_expr **v)
{
	size_t i;

	for (i = 0; i < n; i++)
		segc_expr_free(v[i]);
}

/* Non-zero when one of the 'n' entries of 'v' is NULL. */
static int has_null(size_t n, segc_expr **v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!v[i])
			return 1;
	return 0;
}

/* ------------------------------------------------------------ leaves */

/* The number 'q' (which must be canonical). */
segc_expr *segc_expr_num(const mpq_t q)
{
	struct node_key key = { SEGC_NUM, 0, NULL, 0, NULL, q };

	return store_intern(&key);
}

/* The integer 'v'. */
segc_expr *segc_expr_int(long v)
{
	segc_expr *e;
	mpq_t q;

	mpq_init(q);
	mpq_set_si(q, v, 1);
	e = segc_expr_num(q);
	mpq_clear(q);
	return e;
}

/* The rational 'num'/'den'; NULL when 'den' is 0. */
segc_expr *segc_expr_rat(long num, unsigned long den)
{
	segc_expr *e;
	mpq_t q;

	if (!den)
		return NULL;
	mpq_init(q);
	mpq_set_si(q, num, den);
	mpq_canonicalize(q);
	e = segc_expr_num(q);
	mpq_clear(q);
	return e;
}

/* The name 'name'. */
segc_expr *segc_expr_sym(const char *name)
{
	struct node_key key = { SEGC_SYM, 0, NULL, 0, NULL, NULL };

	if (!name)
		return NULL;
	key.name = name;
	return store_intern(&key);
}

/* A node of 'kind' with 'n' children 'args' (references taken). */
static segc_expr *make_node(enum segc_expr_kind kind, const char *name,
	size_t n, segc_expr **args)
{
	struct node_key key = { kind, 0, NULL, 0, NULL, NULL };

	key.name = name;
	key.nargs = n;
	key.args = args;
	return store_intern(&key);
}

/* ------------------------------------------------------- sums, products */

/* Non-zero when the operand 'e' of a 'kind' node is flattened into it:
 * it is of the same kind and not larger than FLATTEN_MAX.  A shared
 * product of products (f(x)*f(x+1), nested forty times) would otherwise
 * become one node with 2^40 factors; beyond the bound it stays nested,
 * which costs nothing but the flat shape. */
static int flattens(enum segc_expr_kind kind, const segc_expr *e)
{
	return e->kind == (unsigned char)kind && e->nargs <= FLATTEN_MAX;
}

/* The number of operands of the 'n' entries of 'v' once nested nodes of
 * 'kind' are flattened. */
static size_t flat_count(enum segc_expr_kind kind, size_t n, segc_expr **v)
{
	size_t i, total = 0;

	for (i = 0; i < n; i++)
		total += flattens(kind, v[i]) ? v[i]->nargs : 1;
	return total;
}

/* Adds (ADD) or multiplies (MUL) the number 'e' into 'acc', or else
 * appends a new reference to 'e' to 'out'. */
static void collect_operand(enum segc_expr_kind kind, segc_expr *e,
	mpq_t acc, segc_expr **out, size_t *k)
{
	if (e->kind != SEGC_NUM)
		out[(*k)++] = segc_expr_copy(e);
	else if (kind == SEGC_ADD)
		mpq_add(acc, acc, e->u.value);
	else
		mpq_mul(acc, acc, e->u.value);
}

/* Flattens the 'n' operands 'v' of an ADD or MUL into 'out' (new
 * references), folding the numbers into 'acc'; returns how many. */
static size_t flatten(enum segc_expr_kind kind, size_t n, segc_expr **v,
	mpq_t acc, segc_expr **out)
{
	size_t i, j, k = 0;

	for (i = 0; i < n; i++) {
		if (!flattens(kind, v[i])) {
			collect_operand(kind, v[i], acc, out, &k);
			continue;
		}
		for (j = 0; j < v[i]->nargs; j++)
			collect_operand(kind, v[i]->args[j], acc, out, &k);
	}
	return k;
}

/* The ADD or MUL of the 'k' non-number operands 'out' and the number
 * 'acc', which goes first in a product, first in a sum that began with a
 * number ('lead'), else last, and is left out when it is the identity.
 * Takes the references of 'out'. */
static segc_expr *finish_nary(enum segc_expr_kind kind, segc_expr **out,
	size_t k, mpq_t acc, int lead)
{
	int identity = kind == SEGC_ADD ? mpq_sgn(acc) == 0 :
		mpq_cmp_ui(acc, 1, 1) == 0;

	if (kind == SEGC_MUL && mpq_sgn(acc) == 0) {
		free_array(k, out);
		return segc_expr_int(0);
	}
	if (!identity) {
		if (kind == SEGC_ADD && !lead) {
			out[k++] = segc_expr_num(acc);
		} else {
			memmove(out + 1, out, k * sizeof(*out));
			out[0] = segc_expr_num(acc);
			k++;
		}
	}
	if (k == 0)
		return segc_expr_num(acc);
	if (k == 1)
		return out[0];
	return make_node(kind, NULL, k, out);
}

/* The ADD or MUL of the 'n' operands 'v', normalised as segc.h says. */
static segc_expr *make_nary(enum segc_expr_kind kind, size_t n,
	segc_expr **v)
{
	segc_expr *local[LOCAL_ARGS], **out = local, *e;
	size_t total, k;
	mpq_t acc;
	int lead;

	if (has_null(n, v)) {
		free_array(n, v);
		return NULL;
	}
	total = flat_count(kind, n, v) + 1;
	if (total > LOCAL_ARGS)
		out = segc_xmalloc(segc_xmul_size(total, sizeof(*out)));
	mpq_init(acc);
	mpq_set_ui(acc, kind == SEGC_ADD ? 0 : 1, 1);
	lead = n > 0 && (v[0]->kind == SEGC_NUM ||
		(flattens(kind, v[0]) && v[0]->args[0]->kind == SEGC_NUM));
	k = flatten(kind, n, v, acc, out);
	free_array(n, v);
	e = finish_nary(kind, out, k, acc, lead);
	mpq_clear(acc);
	if (out != local)
		free(out);
	return e;
}

/* The sum of the 'n' terms: nested sums flattened, numbers added into
 * one placed first if the sum began with a number (1 - p), else last,
 * 0 dropped. */
segc_expr *segc_expr_add(size_t n, segc_expr **terms)
{
	return make_nary(SEGC_ADD, n, terms);
}

/* The product of the 'n' factors: nested products flattened, numbers
 * multiplied into one placed first, 1 dropped, 0 absorbing. */
segc_expr *segc_expr_mul(size_t n, segc_expr **factors)
{
	return make_nary(SEGC_MUL, n, factors);
}

/* 'a' + 'b'. */
segc_expr *segc_expr_add2(segc_expr *a, segc_expr *b)
{
	segc_expr *v[2];

	v[0] = a;
	v[1] = b;
	return segc_expr_add(2, v);
}

/* 'a' * 'b'. */
segc_expr *segc_expr_mul2(segc_expr *a, segc_expr *b)
{
	segc_expr *v[2];

	v[0] = a;
	v[1] = b;
	return segc_expr_mul(2, v);
}

/* 'a' - 'b', built as 'a' + (-'b'). */
segc_expr *segc_expr_sub2(segc_expr *a, segc_expr *b)
{
	return segc_expr_add2(a, segc_expr_neg(b));
}

/* 'a' / 'b', built as 'a' * 'b'^-1. */
segc_expr *segc_expr_div2(segc_expr *a, segc_expr *b)
{
	return segc_expr_mul2(a, segc_expr_pow(b, segc_expr_int(-1)));
}

/* The product 'a' with its leading number replaced by its negation. */
static segc_expr *negate_coefficient(segc_expr *a)
{
	segc_expr *local[LOCAL_ARGS], **v = local, *e;
	size_t i, n = a->nargs;
	mpq_t c;

	if (n > LOCAL_ARGS)
		v = segc_xmalloc(segc_xmul_size(n, sizeof(*v)));
	mpq_init(c);
	mpq_neg(c, a->args[0]->u.value);
	v[0] = segc_expr_num(c);
	mpq_clear(c);
	for (i = 1; i < n; i++)
		v[i] = segc_expr_copy(a->args[i]);
	segc_expr_free(a);
	e = segc_expr_mul(n, v);
	if (v != local)
		free(v);
	return e;
}

/* -'a': a number negated, a product's leading number negated, otherwise
 * (-1)*'a'. */
segc_expr *segc_expr_neg(segc_expr *a)
{
	segc_expr *e;
	mpq_t q;

	if (!a)
		return NULL;
	if (a->kind == SEGC_NUM) {
		mpq_init(q);
		mpq_neg(q, a->u.value);
		e = segc_expr_num(q);
		mpq_clear(q);
		segc_expr_free(a);
		return e;
	}
	if (a->kind == SEGC_MUL && a->args[0]->kind == SEGC_NUM)
		return negate_coefficient(a);
	return segc_expr_mul2(segc_expr_int(-1), a);
}

/* ---------------------------------------------------------------- powers */

/* Non-zero when 'e' is a NUM holding an integer. */
int segc_expr_is_integer(const segc_expr *e)
{
	return e && e->kind == SEGC_NUM &&
		mpz_cmp_ui(mpq_denref(e->u.value), 1) == 0;
}

/* Non-zero when 'q' ^ 'k' may be folded into a number: the result is
 * defined and not too large. */
static int pow_foldable(mpq_srcptr q, mpz_srcptr k)
{
	size_t bits;

	if (mpq_sgn(q) == 0)
		return mpz_sgn(k) > 0;
	if (mpz_cmp_ui(mpq_denref(q), 1) == 0 &&
	    mpz_cmpabs_ui(mpq_numref(q), 1) == 0)
		return 1;
	if (mpz_cmpabs_ui(k, POW_FOLD_MAX_BITS) > 0)
		return 0;
	bits = mpz_sizeinbase(mpq_numref(q), 2);
	if (mpz_sizeinbase(mpq_denref(q), 2) > bits)
		bits = mpz_sizeinbase(mpq_denref(q), 2);
	return bits <= POW_FOLD_MAX_BITS / mpz_get_ui(k);
}

/* 'q' ^ 'k' for a foldable pair (see pow_foldable).  mpz_get_ui() gives
 * |k|, which pow_foldable() bounded. */
static segc_expr *pow_fold(mpq_srcptr q, mpz_srcptr k)
{
	segc_expr *e;
	unsigned long uk;
	mpq_t r;

	mpq_init(r);
	if (mpq_sgn(q) == 0 || (mpz_cmpabs_ui(mpq_numref(q), 1) == 0 &&
	    mpz_cmp_ui(mpq_denref(q), 1) == 0)) {
		mpq_set(r, q);
		if (mpz_even_p(k) && mpq_sgn(q) < 0)
			mpq_neg(r, r);
	} else {
		uk = mpz_get_ui(k);
		mpz_pow_ui(mpq_numref(r), mpq_numref(q), uk);
		mpz_pow_ui(mpq_denref(r), mpq_denref(q), uk);
		if (mpz_sgn(k) < 0)
			mpq_inv(r, r);
	}
	e = segc_expr_num(r);
	mpq_clear(r);
	return e;
}

/* 'base' ^ 'exponent': x^1 = x, x^0 = 1, number^integer folded,
 * (x^a)^b = x^(a*b) for integers a and b. */
segc_expr *segc_expr_pow(segc_expr *base, segc_expr *exponent)
{
	segc_expr *v[2], *e;
	mpq_t ab;

	if (!base || !exponent) {
		segc_expr_free(base);
		segc_expr_free(exponent);
		return NULL;
	}
	if (segc_expr_is_integer(exponent)) {
		mpz_srcptr k = mpq_numref(exponent->u.value);

		if (mpz_cmp_ui(k, 1) == 0) {
			segc_expr_free(exponent);
			return base;
		}
		if (mpz_sgn(k) == 0) {
			segc_expr_free(exponent);
			segc_expr_free(base);
			return segc_expr_int(1);
		}
		if (base->kind == SEGC_NUM && pow_foldable(base->u.value, k)) {
			e = pow_fold(base->u.value, k);
			segc_expr_free(base);
			segc_expr_free(exponent);
			return e;
		}
		if (base->kind == SEGC_POW && segc_expr_is_integer(base->args[1])) {
			mpq_init(ab);
			mpq_mul(ab, base->args[1]->u.value, exponent->u.value);
			e = segc_expr_pow(segc_expr_copy(base->args[0]),
				segc_expr_num(ab));
			mpq_clear(ab);
			segc_expr_free(base);
			segc_expr_free(exponent);
			return e;
		}
	}
	v[0] = base;
	v[1] = exponent;
	return make_node(SEGC_POW, NULL, 2, v);
}

/* 'base' ^ 'e' for an integer 'e'. */
segc_expr *segc_expr_powi(segc_expr *base, long e)
{
	return segc_expr_pow(base, segc_expr_int(e));
}

/* --------------------------------------------------------- calls, sums */

/* The call 'name'('args'...), kept as built. */
segc_expr *segc_expr_call(const char *name, size_t n, segc_expr **args)
{
	if (!name || has_null(n, args)) {
		free_array(n, args);
		return NULL;
	}
	return make_node(SEGC_CALL, name, n, args);
}

/* sum('var', 'lo', 'hi', 'body'), kept as built. */
segc_expr *segc_expr_sum(const char *var, segc_expr *lo, segc_expr *hi,
	segc_expr *body)
{
	segc_expr *v[3];

	v[0] = lo;
	v[1] = hi;
	v[2] = body;
	if (!var || has_null(3, v)) {
		free_array(3, v);
		return NULL;
	}
	return make_node(SEGC_SUM, var, 3, v);
}

/* A node of 'kind' built from 'n' children through its constructor. */
segc_expr *segc_expr_rebuild(enum segc_expr_kind kind, const char *name,
	size_t n, segc_expr **args)
{
	switch (kind) {
	case SEGC_ADD:
		return segc_expr_add(n, args);
	case SEGC_MUL:
		return segc_expr_mul(n, args);
	case SEGC_POW:
		if (n == 2)
			return segc_expr_pow(args[0], args[1]);
		break;
	case SEGC_CALL:
		return segc_expr_call(name, n, args);
	case SEGC_SUM:
		if (n == 3)
			return segc_expr_sum(name, args[0], args[1], args[2]);
		break;
	default:
		break;
	}
	free_array(n, args);
	return NULL;
}

/* ------------------------------------------------------------ accessors */

/* The kind of 'e'. */
enum segc_expr_kind segc_expr_kind(const segc_expr *e)
{
	return (enum segc_expr_kind)e->kind;
}

/* The name of a SYM, CALL or SUM; NULL for other kinds. */
const char *segc_expr_name(const segc_expr *e)
{
	return e->kind == SEGC_NUM ? NULL : e->u.name;
}

/* The built-in of the call 'e' (see builtin.h). */
enum segc_builtin segc_expr_builtin(const segc_expr *e)
{
	return e->kind == SEGC_CALL ? (enum segc_builtin)e->builtin :
		SEGC_BUILTIN_NONE;
}

/* The number of children of 'e'. */
size_t segc_expr_nargs(const segc_expr *e)
{
	return e->nargs;
}

/* Child 'i' of 'e' (borrowed); NULL when out of range. */
segc_expr *segc_expr_arg(const segc_expr *e, size_t i)
{
	return i < e->nargs ? e->args[i] : NULL;
}

/* The rational of a NUM; NULL for other kinds. */
mpq_srcptr segc_expr_value(const segc_expr *e)
{
	return e->kind == SEGC_NUM ? e->u.value : NULL;
}

/* The structural hash of 'e'. */
unsigned long segc_expr_hash(const segc_expr *e)
{
	return e->hash;
}

/* Non-zero when 'e' is a number. */
int segc_expr_is_num(const segc_expr *e)
{
	return e->kind == SEGC_NUM;
}

/* Non-zero when 'e' is the number 0. */
int segc_expr_is_zero(const segc_expr *e)
{
	return e->kind == SEGC_NUM && mpq_sgn(e->u.value) == 0;
}

/* Non-zero when 'e' is the number 1. */
int segc_expr_is_one(const segc_expr *e)
{
	return e->kind == SEGC_NUM && mpq_cmp_ui(e->u.value, 1, 1) == 0;
}

/* ------------------------------------------------------------------ order */

/* The rank of each kind in the order of segc_expr_cmp. */
static int kind_rank(unsigned char kind)
{
	static const int rank[] = {
		[SEGC_NUM] = 0, [SEGC_SYM] = 1, [SEGC_POW] = 2, [SEGC_MUL] = 3,
		[SEGC_ADD] = 4, [SEGC_CALL] = 5, [SEGC_SUM] = 6
	};

	return rank[kind];
}

/* -1, 0 or 1 as 'c' is negative, zero or positive. */
static int sign_of(long c)
{
	return (c > 0) - (c < 0);
}

/* Compares the nodes themselves, not their children: kind, then number or
 * name, then number of children. */
static int header_cmp(const segc_expr *a, const segc_expr *b)
{
	if (a->kind != b->kind)
		return sign_of(kind_rank(a->kind) - kind_rank(b->kind));
	if (a->kind == SEGC_NUM)
		return sign_of(mpq_cmp(a->u.value, b->u.value));
	if (a->u.name) {
		int c = strcmp(a->u.name, b->u.name);

		if (c)
			return sign_of(c);
	}
	if (a->nargs != b->nargs)
		return a->nargs < b->nargs ? -1 : 1;
	return 0;
}

/* The structural order: kinds NUM < SYM < POW < MUL < ADD < CALL < SUM;
 * numbers by value; names by strcmp; then fewer children first; then the
 * children left to right.  Since equal structures are the same node, only
 * the first pair of different children needs comparing: the walk goes down
 * one path, without recursion. */
int segc_expr_cmp(const segc_expr *a, const segc_expr *b)
{
	for (;;) {
		size_t i;
		int c;

		if (a == b)
			return 0;
		c = header_cmp(a, b);
		if (c)
			return c;
		for (i = 0; i < a->nargs && a->args[i] == b->args[i]; i++)
			;
		if (i == a->nargs)
			return 0;
		a = a->args[i];
		b = b->args[i];
	}
}

/* ----------------------------------------------------------- node maps */

/* An empty map. */
void segc_expr_map_init(segc_expr_map *m)
{
	m->keys = NULL;
	m->values = NULL;
	m->n = 0;
	m->cap = 0;
}

/* Releases the memory of 'm' (not what its values point to). */
void segc_expr_map_clear(segc_expr_map *m)
{
	free(m->keys);
	free(m->values);
	segc_expr_map_init(m);
}

/* The slot index of 'key' in 'm': where it is, or the empty slot where it
 * would go. */
static size_t map_slot(const segc_expr_map *m, const segc_expr *key)
{
	size_t i = key->hash & (m->cap - 1);

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* The slot of the value of 'key', or NULL. */
void **segc_expr_map_find(const segc_expr_map *m, const segc_expr *key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	i = map_slot(m, key);
	return m->keys[i] ? &m->values[i] : NULL;
}

/* Doubles the capacity of 'm'. */
static void map_grow(segc_expr_map *m)
{
	segc_expr_map old = *m;
	size_t i;

	m->cap = old.cap ? 2 * old.cap : 64;
	m->keys = segc_xcalloc(m->cap, sizeof(*m->keys));
	m->values = segc_xcalloc(m->cap, sizeof(*m->values));
	for (i = 0; i < old.cap; i++) {
		if (old.keys[i]) {
			size_t j = map_slot(m, old.keys[i]);

			m->keys[j] = old.keys[i];
			m->values[j] = old.values[i];
		}
	}
	free(old.keys);
	free(old.values);
}

/* Adds 'key' with 'value' unless present; 1 if added. */
int segc_expr_map_put(segc_expr_map *m, const segc_expr *key, void *value)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap)
		map_grow(m);
	i = map_slot(m, key);
	if (m->keys[i])
		return 0;
	m->keys[i] = key;
	m->values[i] = value;
	m->n++;
	return 1;
}

/* --------------------------------------------------------------- walks */

/* A stack of nodes for the walks below. */
struct node_stack {
	const segc_expr **v;
	size_t n, cap;
};

/* Pushes 'e' on 's'. */
static void stack_push(struct node_stack *s, const segc_expr *e)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = segc_xrealloc(s->v, segc_xmul_size(s->cap, sizeof(*s->v)));
	}
	s->v[s->n++] = e;
}

/* Non-zero when 'name' occurs free in 'e'.  Inside a SUM that binds
 * 'name' only its bounds are searched. */
int segc_expr_has_sym(const segc_expr *e, const char *name)
{
	struct node_stack s = { NULL, 0, 0 };
	segc_expr_map seen;
	int found = 0;
	size_t i, n;

	segc_expr_map_init(&seen);
	stack_push(&s, e);
	while (s.n && !found) {
		e = s.v[--s.n];
		if (!segc_expr_map_put(&seen, e, NULL))
			continue;
		if (e->kind == SEGC_SYM)
			found = !strcmp(e->u.name, name);
		n = e->kind == SEGC_SUM && !strcmp(e->u.name, name) ? 2 : e->nargs;
		for (i = 0; i < n; i++)
			stack_push(&s, e->args[i]);
	}
	free(s.v);
	segc_expr_map_clear(&seen);
	return found;
}

/* The number of distinct nodes reachable from 'e'. */
size_t segc_expr_size(const segc_expr *e)
{
	struct node_stack s = { NULL, 0, 0 };
	segc_expr_map seen;
	size_t i, n;

	segc_expr_map_init(&seen);
	stack_push(&s, e);
	while (s.n) {
		e = s.v[--s.n];
		if (!segc_expr_map_put(&seen, e, NULL))
			continue;
		for (i = 0; i < e->nargs; i++)
			stack_push(&s, e->args[i]);
	}
	n = seen.n;
	free(s.v);
	segc_expr_map_clear(&seen);
	return n;
}

/* The number of nodes of 'e' written out as a tree (a shared node counts
 * once per occurrence), or 'cap' if that is larger: a DAG of a few nodes
 * can stand for a tree too large to print.  Post-order over the DAG with
 * an explicit stack; each node's count is kept in a map. */
size_t segc_expr_tree_size(const segc_expr *e, size_t cap)
{
	struct node_stack s = { NULL, 0, 0 };
	segc_expr_map done;
	size_t i, n, result;
	void **slot;

	segc_expr_map_init(&done);
	stack_push(&s, e);
	while (s.n) {
		const segc_expr *x = s.v[s.n - 1];
		int ready = 1;

		if (segc_expr_map_find(&done, x)) {
			s.n--;
			continue;
		}
		for (i = 0; i < x->nargs; i++)
			if (!segc_expr_map_find(&done, x->args[i])) {
				stack_push(&s, x->args[i]);
				ready = 0;
			}
		if (!ready)
			continue;
		n = 1;
		for (i = 0; i < x->nargs && n < cap; i++) {
			slot = segc_expr_map_find(&done, x->args[i]);
			n += (size_t)(uintptr_t)*slot;
		}
		segc_expr_map_put(&done, x, (void *)(uintptr_t)(n < cap ? n : cap));
		s.n--;
	}
	slot = segc_expr_map_find(&done, e);
	result = (size_t)(uintptr_t)*slot;
	free(s.v);
	segc_expr_map_clear(&done);
	return result;
}

/* ------------------------------------------------------------ substitution */

/* What a substitution needs while it walks. */
struct subst {
	const char *name;
	segc_expr *value;
	segc_expr_map memo;  /* node -> its image (a reference owned here) */
};

/* Non-zero when substituting into the SUM 'e' would capture its variable:
 * the value mentions it and the body mentions the name replaced. */
static int sum_captures(const struct subst *st, const segc_expr *e)
{
	return e->kind == SEGC_SUM && strcmp(e->u.name, st->name) &&
		segc_expr_has_sym(st->value, e->u.name) &&
		segc_expr_has_sym(e->args[2], st->name);
}

/* How many children of 'e' are substituted into. */
static size_t subst_children(const struct subst *st, const segc_expr *e)
{
	if (e->kind == SEGC_SUM &&
	    (!strcmp(e->u.name, st->name) || sum_captures(st, e)))
		return 2;
	return e->nargs;
}

/* A name "VAR_K" that occurs free in neither 'body' nor 'value' and is not
 * 'name'; malloc'd. */
static char *fresh_name(const char *var, const segc_expr *body,
	const segc_expr *value, const char *name)
{
	segc_strbuf sb;
	unsigned long k;

	segc_strbuf_init(&sb);
	for (k = 1;; k++) {
		segc_strbuf_reset(&sb);
		segc_strbuf_appendf(&sb, "%s_%lu", var, k);
		if (strcmp(sb.data, name) && !segc_expr_has_sym(body, sb.data) &&
		    !segc_expr_has_sym(value, sb.data))
			return segc_strbuf_take(&sb);
	}
}

/* The image of the SUM 'e' whose variable would be captured: the variable
 * is renamed first, then the body substituted. */
static segc_expr *subst_renamed_sum(struct subst *st, const segc_expr *e,
	segc_expr *lo, segc_expr *hi)
{
	char *fresh = fresh_name(e->u.name, e->args[2], st->value, st->name);
	segc_expr *sym = segc_expr_sym(fresh), *body, *r;

	body = segc_expr_subst(segc_expr_copy(e->args[2]), e->u.name, sym);
	body = segc_expr_subst(body, st->name, st->value);
	r = segc_expr_sum(fresh, lo, hi, body);
	segc_expr_free(sym);
	free(fresh);
	return r;
}

/* The image of 'e', whose substituted children are in the memo. */
static segc_expr *subst_node(struct subst *st, const segc_expr *e)
{
	segc_expr *local[LOCAL_ARGS], **v = local, *r;
	size_t i, n = subst_children(st, e);
	int same = 1;

	if (e->kind == SEGC_SYM && !strcmp(e->u.name, st->name))
		return segc_expr_copy(st->value);
	if (n > LOCAL_ARGS)
		v = segc_xmalloc(segc_xmul_size(n, sizeof(*v)));
	for (i = 0; i < n; i++) {
		v[i] = segc_expr_copy(*segc_expr_map_find(&st->memo, e->args[i]));
		same = same && v[i] == e->args[i];
	}
	if (n < e->nargs && sum_captures(st, e))
		r = subst_renamed_sum(st, e, v[0], v[1]);
	else if (same)
		r = (free_array(n, v), segc_expr_copy((segc_expr *)e));
	else if (n < e->nargs)
		r = segc_expr_sum(e->u.name, v[0], v[1],
			segc_expr_copy(e->args[2]));
	else
		r = segc_expr_rebuild((enum segc_expr_kind)e->kind, e->u.name,
			n, v);
	if (v != local)
		free(v);
	return r;
}

/* A frame of the substitution walk: a node and its next child. */
struct subst_frame {
	const segc_expr *e;
	size_t next;
};

/* Substitutes bottom-up from 'root', filling the memo. */
static void subst_walk(struct subst *st, const segc_expr *root)
{
	struct subst_frame *s = segc_xmalloc(64 * sizeof(*s));
	size_t n = 0, cap = 64;
	const segc_expr *child;

	s[n].e = root;
	s[n++].next = 0;
	while (n) {
		struct subst_frame *f = &s[n - 1];
		size_t nc = subst_children(st, f->e);

		while (f->next < nc &&
		       segc_expr_map_find(&st->memo, f->e->args[f->next]))
			f->next++;
		if (f->next == nc) {
			if (!segc_expr_map_find(&st->memo, f->e))
				segc_expr_map_put(&st->memo, f->e,
					subst_node(st, f->e));
			n--;
			continue;
		}
		child = f->e->args[f->next];
		if (n == cap) {
			cap *= 2;
			s = segc_xrealloc(s, segc_xmul_size(cap, sizeof(*s)));
		}
		s[n].e = child;
		s[n++].next = 0;
	}
	free(s);
}

/* 'e' with the free occurrences of 'name' replaced by 'value'.  Bound
 * variables of sums are renamed where they would capture a name of
 * 'value'. */
segc_expr *segc_expr_subst(segc_expr *e, const char *name, segc_expr *value)
{
	struct subst st;
	segc_expr *r;
	size_t i;

	if (!e || !name || !value) {
		segc_expr_free(e);
		return NULL;
	}
	if (!segc_expr_has_sym(e, name))
		return e;
	st.name = name;
	st.value = value;
	segc_expr_map_init(&st.memo);
	subst_walk(&st, e);
	r = segc_expr_copy(*segc_expr_map_find(&st.memo, e));
	for (i = 0; i < st.memo.cap; i++)
		if (st.memo.keys[i])
			segc_expr_free(st.memo.values[i]);
	segc_expr_map_clear(&st.memo);
	segc_expr_free(e);
	return r;
}

/* Non-zero when 'name' is a reserved word of the expression language
 * (FORMAT.md section 2): no parameter, resource, let or function may take
 * it. */
int segc_expr_is_reserved(const char *name)
{
	const segc_builtin_info *b = segc_builtin_get(
		segc_builtin_lookup(name));

	return b->id != SEGC_BUILTIN_NONE &&
		(b->kind == SEGC_BUILTIN_CONDITIONAL ||
		 b->kind == SEGC_BUILTIN_LOGIC);
}

/* Non-zero when 'name' is the name of a relation call ("<", "<=", ">",
 * ">=", "==", "!="). */
int segc_expr_is_relation_name(const char *name)
{
	return segc_builtin_get(segc_builtin_lookup(name))->kind ==
		SEGC_BUILTIN_RELATION;
}

/* Non-zero when 'e' is a condition: a relation of two values, or and/or
 * of at least two conditions' nodes, or not of one. */
int segc_expr_is_condition(const segc_expr *e)
{
	const segc_builtin_info *b;

	if (!e || e->kind != SEGC_CALL)
		return 0;
	b = segc_builtin_get((enum segc_builtin)e->builtin);
	if (b->kind == SEGC_BUILTIN_RELATION)
		return e->nargs == 2;
	if (b->id == SEGC_BUILTIN_AND || b->id == SEGC_BUILTIN_OR)
		return e->nargs >= 2;
	return b->id == SEGC_BUILTIN_NOT && e->nargs == 1;
}
