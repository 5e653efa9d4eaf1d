/* kernel_points.c - the values of canonical expressions at fixed points
 * of the declared domains, kept for a whole canonicalisation, so that the
 * dominance test of max and min (kernel_extremum.c) rules out most pairs
 * of alternatives without a proof, and values each node once.
 *
 * The points are fixed per name, not per comparison: a name gets a number
 * in the order it is first met (the same input meets the names in the
 * same order), and
 *   - points 0 .. SEGC_DOMAIN_MIXED - 1 spread every name over its domain
 *     by a hash of its number and the point (segc_domain_point_mixed);
 *   - point BASE puts every name at its lowest value (0 without a bound);
 *   - point SPIKE + s puts name number s high in its domain and the others
 *     at their lowest value, for the first SPIKES names.
 * A node's value at SPIKE + s is its value at BASE when name s is not in
 * it, so a node is valued at the spikes of its own names only.  A node
 * has no value at a point where one of its names has no value there (an
 * empty domain, a number of more than POINT_MAX_BITS bits) or where it is
 * not a number, a name, a sum, a product, a small integer power or an
 * extremum of such.
 *
 * The values of a name depend on its domain, which stays the same for
 * the whole canonicalisation except for the counters of sums declared on
 * the way (canon.c, summation.c): kernel_extremum.c keeps a cache for the
 * state's own domains only, and takes a fresh one for each test once
 * counters are declared.  The cache holds a reference on every node it
 * has a value of, so no node is freed while its address is a key.  Which
 * pairs are ruled out never changes the outcome: a point in the domains
 * where a < b means no proof of a >= b exists. */
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/kernel_private.h"
#include "algebra/eval/domain_points.h"
#include "base/util.h"

/* Names with a spike point; the most bits of a name's value at a point;
 * the largest exponent evaluated. */
#define SPIKES 64
#define POINT_MAX_BITS 64
#define POINT_MAX_POWER 64

/* The point numbers: mixed ones, the lowest corner, the spikes. */
#define BASE SEGC_DOMAIN_MIXED
#define SPIKE (SEGC_DOMAIN_MIXED + 1)
#define NPOINTS (SPIKE + SPIKES)

/* The values of a name or a node at the points: state 0 not yet, 1
 * known, 2 none. */
struct pv {
	uint64_t names;          /* the numbers < SPIKES of its names */
	size_t n;                /* points it can be asked for */
	unsigned char *state;
	mpq_t *val;
};

/* One name: its text and values. */
struct pname {
	char *name;
	struct pv pv;
};

struct segc_point_cache {
	segc_ctx *ctx;
	const segc_domains *dom;
	struct pname *names;     /* by number */
	size_t nnames, capnames;
	size_t *slots;           /* hash of the text -> number + 1 */
	size_t nslots;
	segc_expr_map nodes;     /* node -> struct pv * (keys referenced) */
	int over;                /* the evaluations passed max_work */
};

/* An FNV-1a hash of 's' (of its text: the same on every run). */
static uint64_t text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* Sets up 'pv' for 'n' points. */
static void pv_init(struct pv *pv, uint64_t names, size_t n)
{
	pv->names = names;
	pv->n = n;
	pv->state = segc_xcalloc(n, 1);
	pv->val = segc_xmalloc(n * sizeof(*pv->val));
}

/* Releases 'pv'. */
static void pv_clear(struct pv *pv)
{
	size_t p;

	for (p = 0; p < pv->n; p++)
		if (pv->state[p])
			mpq_clear(pv->val[p]);
	free(pv->state);
	free(pv->val);
}

/* The number of name 's', given one when new. */
static size_t name_number(segc_point_cache *c, const char *s)
{
	size_t i, j;

	if (2 * (c->nnames + 1) > c->nslots) {
		size_t m = c->nslots ? 2 * c->nslots : 64;
		size_t *t = segc_xcalloc(m, sizeof(*t));

		for (j = 0; j < c->nnames; j++) {
			i = text_hash(c->names[j].name) & (m - 1);
			while (t[i])
				i = (i + 1) & (m - 1);
			t[i] = j + 1;
		}
		free(c->slots);
		c->slots = t;
		c->nslots = m;
	}
	i = text_hash(s) & (c->nslots - 1);
	while (c->slots[i]) {
		if (!strcmp(c->names[c->slots[i] - 1].name, s))
			return c->slots[i] - 1;
		i = (i + 1) & (c->nslots - 1);
	}
	if (c->nnames == c->capnames) {
		c->capnames = c->capnames ? 2 * c->capnames : 16;
		c->names = segc_xrealloc(c->names, segc_xmul_size(c->capnames,
			sizeof(*c->names)));
	}
	j = c->nnames++;
	c->names[j].name = segc_xstrdup(s);
	pv_init(&c->names[j].pv, j < SPIKES ? (uint64_t)1 << j : 0, NPOINTS);
	c->slots[i] = j + 1;
	return j;
}

/* The value of name number 'j' at point 'p', or NULL. */
static mpq_srcptr name_value(segc_point_cache *c, size_t j, size_t p)
{
	struct pv *pv = &c->names[j].pv;
	int q = p < BASE ? (int)p : p == BASE ? (int)(SEGC_DOMAIN_MIXED + j
		+ 1) : (int)(SEGC_DOMAIN_MIXED + (p - SPIKE));
	mpq_ptr v = pv->val[p];

	if (!pv->state[p]) {
		mpq_init(v);
		pv->state[p] = segc_domain_point_mixed(v, c->dom,
			c->names[j].name, j, q) ||
			mpz_sizeinbase(mpq_numref(v), 2) > POINT_MAX_BITS ||
			mpz_sizeinbase(mpq_denref(v), 2) > POINT_MAX_BITS ? 2 : 1;
	}
	return pv->state[p] == 1 ? v : NULL;
}

/* The numbers < SPIKES of the names of 'e'. */
static uint64_t names_of(segc_point_cache *c, const segc_expr *e);

/* The entry of node 'e' (not a number or a name), made when new. */
static struct pv *node_entry(segc_point_cache *c, const segc_expr *e)
{
	void **slot = segc_expr_map_find(&c->nodes, e);
	struct pv *pv;
	uint64_t names = 0;
	size_t i, top = 0;

	if (slot)
		return *slot;
	for (i = 0; i < segc_expr_nargs(e); i++)
		names |= names_of(c, segc_expr_arg(e, i));
	for (i = 0; i < SPIKES; i++)
		if (names >> i & 1)
			top = i + 1;
	pv = segc_xmalloc(sizeof(*pv));
	pv_init(pv, names, SPIKE + top);
	segc_expr_copy(e);
	segc_expr_map_put(&c->nodes, e, pv);
	return pv;
}

static uint64_t names_of(segc_point_cache *c, const segc_expr *e)
{
	size_t j;

	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		return 0;
	case SEGC_SYM:
		j = name_number(c, segc_expr_name(e));
		return c->names[j].pv.names;
	default:
		return node_entry(c, e)->names;
	}
}

/* The point at which a thing with the names 'names' is valued for point
 * 'p': BASE for the spike of a name it does not have. */
static size_t point_for(uint64_t names, size_t p)
{
	return p >= SPIKE && !(names >> (p - SPIKE) & 1) ? BASE : p;
}

static mpq_srcptr node_value(segc_point_cache *c, const segc_expr *e,
	size_t p);

/* r = the value of node 'e' (not a number or a name) at point 'p' from
 * its arguments; 0, or -1 when it has none; '*n' set to the operations
 * it cost. */
static int compute(segc_point_cache *c, mpq_t r, const segc_expr *e,
	size_t p, size_t *n)
{
	mpq_srcptr x;
	size_t i;
	int ext = segc_expr_is_builtin(e, SEGC_BUILTIN_MAX) ? 1 :
		segc_expr_is_builtin(e, SEGC_BUILTIN_MIN) ? -1 : 0;
	long k;

	*n = segc_expr_nargs(e);
	switch (segc_expr_kind(e)) {
	case SEGC_ADD:
	case SEGC_MUL:
		mpq_set_ui(r, segc_expr_kind(e) == SEGC_MUL, 1);
		for (i = 0; i < *n; i++) {
			if (!(x = node_value(c, segc_expr_arg(e, i), p)))
				return -1;
			if (segc_expr_kind(e) == SEGC_ADD)
				mpq_add(r, r, x);
			else
				mpq_mul(r, r, x);
		}
		return 0;
	case SEGC_POW:
		/* a small integer power only */
		x = node_value(c, segc_expr_arg(e, 1), p);
		if (!x || mpz_cmp_ui(mpq_denref(x), 1) ||
		    mpz_cmpabs_ui(mpq_numref(x), POINT_MAX_POWER) > 0)
			return -1;
		k = mpz_get_si(mpq_numref(x));
		*n = (size_t)(k < 0 ? -k : k) + 1;
		if (!(x = node_value(c, segc_expr_arg(e, 0), p)) ||
		    (k < 0 && !mpq_sgn(x)))
			return -1;
		mpq_set_ui(r, 1, 1);
		for (; k; k += k < 0 ? 1 : -1) {
			if (k < 0)
				mpq_div(r, r, x);
			else
				mpq_mul(r, r, x);
		}
		return 0;
	default:
		/* extrema; any other call (whose value may cost a long
		 * evaluation: a recurrence, a sum) is not evaluated */
		if (!ext)
			return -1;
		for (i = 0; i < *n; i++) {
			if (!(x = node_value(c, segc_expr_arg(e, i), p)))
				return -1;
			if (!i || (ext > 0 ? mpq_cmp(x, r) > 0 :
				mpq_cmp(x, r) < 0))
				mpq_set(r, x);
		}
		return 0;
	}
}

/* The value of 'e' at point 'p', or NULL: each node computed once. */
static mpq_srcptr node_value(segc_point_cache *c, const segc_expr *e,
	size_t p)
{
	struct pv *pv;
	mpq_t r;
	size_t n = 0;
	int rc;

	if (segc_expr_kind(e) == SEGC_NUM)
		return segc_expr_value(e);
	if (segc_expr_kind(e) == SEGC_SYM) {
		size_t j = name_number(c, segc_expr_name(e));

		return name_value(c, j, point_for(c->names[j].pv.names, p));
	}
	if (c->over)
		return NULL;
	pv = node_entry(c, e);
	p = point_for(pv->names, p);
	if (!pv->state[p]) {
		mpq_init(r);
		rc = compute(c, r, e, p, &n);
		/* A node costs its operations on numbers of the result's
		 * size. */
		if (!rc && segc_ctx_charge(c->ctx, (double)(n + 1) * (double)(
			mpz_size(mpq_numref(r)) + mpz_size(mpq_denref(r)) + 1))) {
			c->over = 1;
			rc = -1;
		}
		mpq_init(pv->val[p]);
		mpq_swap(pv->val[p], r);
		mpq_clear(r);
		pv->state[p] = rc ? 2 : 1;
	}
	return pv->state[p] == 1 ? pv->val[p] : NULL;
}

/* See kernel_private.h. */
segc_point_cache *segc_point_cache_new(segc_ctx *ctx,
	const segc_domains *dom)
{
	segc_point_cache *c = segc_xcalloc(1, sizeof(*c));

	c->ctx = ctx;
	c->dom = dom;
	segc_expr_map_init(&c->nodes);
	return c;
}

/* See kernel_private.h. */
const segc_domains *segc_point_cache_domains(const segc_point_cache *c)
{
	return c->dom;
}

/* See kernel_private.h. */
void segc_point_cache_free(segc_point_cache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nodes.cap; i++)
		if (c->nodes.keys[i]) {
			pv_clear(c->nodes.values[i]);
			free(c->nodes.values[i]);
			segc_expr_free((segc_expr *)c->nodes.keys[i]);
		}
	segc_expr_map_clear(&c->nodes);
	for (i = 0; i < c->nnames; i++) {
		pv_clear(&c->names[i].pv);
		free(c->names[i].name);
	}
	free(c->names);
	free(c->slots);
	free(c);
}

/* See kernel_private.h. */
int segc_point_cache_refutes(segc_point_cache *c, const segc_expr *hi,
	const segc_expr *lo, int ismax)
{
	uint64_t names;
	size_t p, s;

	if (!hi || !lo)
		return 0;
	names = names_of(c, hi) | names_of(c, lo);
	for (p = 0; p < NPOINTS && !c->over; p++) {
		mpq_srcptr x, y;
		int k;

		if (p >= SPIKE) {
			/* the spikes of the names of either, then none */
			for (s = p - SPIKE; s < SPIKES && !(names >> s & 1);
			     s++)
				;
			if (s == SPIKES)
				break;
			p = SPIKE + s;
		}
		x = node_value(c, hi, p);
		y = x ? node_value(c, lo, p) : NULL;
		if (!x || !y)
			continue;
		k = mpq_cmp(x, y);
		if (ismax ? k < 0 : k > 0)
			return 1;
	}
	return c->over ? -1 : 0;
}
