/* structural.c - the light simplifier of structural formulas: the shape
 * that reduction gives (count*(body), p*(branch), max(...)) is kept and
 * the inside is tidied as a paper writes it.  Bottom-up over the DAG, each
 * node once (the DAG is shared), with an explicit stack: a nest of loops
 * makes products as deep as the nest.  The rules:
 *   sum      nested sums flattened; terms equal up to a number merged
 *            (their factors compared as a multiset), in the order of
 *            first occurrence; numbers added; zero terms dropped;
 *   factor   a factor (the same node) of every term of a sum of two or
 *            more symbolic terms goes out of the sum, on the side where it
 *            stands in the first term: a*t + b*t = (a + b)*t,
 *            t*a + t*b = t*(a + b).  The common number of the coefficients
 *            goes out too when that lets a sum inside a term dissolve into
 *            the new sum: 2*x + 2*(P - 1)*x = 2*x*(1 + P - 1) = 2*x*P;
 *   product  nested products flattened; numbers multiplied; powers of the
 *            same base with integer exponents merged (N/P*N = N^2/P), in
 *            the order of first occurrence; exponent 0 dropped;
 *   others   powers, calls and sums rebuilt from simplified children.
 * Products of sums are never expanded and nothing is reordered but by
 * merging.  Every rule is an identity of rational functions, so the
 * canonical form does not change. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "algebra/structural/structural.h"
#include "base/util.h"

static segc_expr *simplify_sum(size_t n, segc_expr **v, int factor);

/* Releases the 'n' references of 'v' and the array. */
static void free_refs(size_t n, segc_expr **v)
{
	size_t i;

	for (i = 0; i < n; i++)
		segc_expr_free(v[i]);
	free(v);
}

/* The number 'z' as an expression. */
static segc_expr *num_of_mpz(mpz_srcptr z)
{
	segc_expr *e;
	mpq_t q;

	mpq_init(q);
	mpq_set_z(q, z);
	e = segc_expr_num(q);
	mpq_clear(q);
	return e;
}

/* The operands of 'e' as a product: its arguments if it is a product,
 * else 'e' alone (through 'self'); their number in '*n'. */
static segc_expr *const *factors_of(segc_expr *const *self, size_t *n)
{
	if ((*self)->kind == SEGC_MUL) {
		*n = (*self)->nargs;
		return segc_args((*self));
	}
	*n = 1;
	return self;
}

/* Up to this many keys an index is searched linearly: most products and
 * sums are short, and a hash map for each would cost more than it saves. */
#define INDEX_LINEAR 16
#define NOT_FOUND ((size_t)-1)

/* An index of the nodes keys[0..n-1] (the array belongs to the user):
 * positions by identity, the first of equal keys.  A NULL key (the number
 * term of a sum) is never indexed, and is never looked for. */
struct index {
	segc_expr_map map;
	size_t mapped;        /* keys[0..mapped-1] are in 'map' */
};

/* An empty index. */
static void index_init(struct index *ix)
{
	segc_expr_map_init(&ix->map);
	ix->mapped = 0;
}

/* The position of 'k' among the 'n' keys 'keys', or NOT_FOUND. */
static size_t index_find(struct index *ix, segc_expr *const *keys, size_t n,
	const segc_expr *k)
{
	void **slot;
	size_t i;

	if (n <= INDEX_LINEAR) {
		for (i = 0; i < n; i++)
			if (keys[i] == k)
				return i;
		return NOT_FOUND;
	}
	for (; ix->mapped < n; ix->mapped++)
		if (keys[ix->mapped])
			segc_expr_map_put(&ix->map, keys[ix->mapped],
				(void *)(uintptr_t)(ix->mapped + 1));
	slot = segc_expr_map_find(&ix->map, k);
	return slot ? (uintptr_t)*slot - 1 : NOT_FOUND;
}

/* ------------------------------------------------------------ products */

/* A product being built: its number and its distinct bases (borrowed
 * from its factors) with their integer exponents, in the order of their
 * first occurrence; orig[i] is the one factor base[i] came from, NULL
 * once merged. */
struct product {
	mpq_t coef;
	mpz_t one;
	segc_expr **base;
	segc_expr **orig;
	mpz_t *exp;
	size_t n, cap;
	struct index index;
};

/* An empty product (1). */
static void product_init(struct product *p)
{
	mpq_init(p->coef);
	mpq_set_ui(p->coef, 1, 1);
	mpz_init_set_ui(p->one, 1);
	p->base = NULL;
	p->orig = NULL;
	p->exp = NULL;
	p->n = p->cap = 0;
	index_init(&p->index);
}

/* Multiplies 'p' by the factor 'f' = 'base' ^ 'k'; 'f' must outlive
 * 'p'. */
static void product_mul_power(struct product *p, segc_expr *f,
	segc_expr *base, mpz_srcptr k)
{
	size_t i = index_find(&p->index, p->base, p->n, base);

	if (i != NOT_FOUND) {
		mpz_add(p->exp[i], p->exp[i], k);
		p->orig[i] = NULL;
		return;
	}
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->base = segc_xrealloc(p->base,
			segc_xmul_size(p->cap, sizeof(*p->base)));
		p->exp = segc_xrealloc(p->exp,
			segc_xmul_size(p->cap, sizeof(*p->exp)));
		p->orig = segc_xrealloc(p->orig,
			segc_xmul_size(p->cap, sizeof(*p->orig)));
	}
	p->base[p->n] = base;
	p->orig[p->n] = f;
	mpz_init_set(p->exp[p->n], k);
	p->n++;
}

/* Multiplies 'p' by 'f', which is not a product: a number into the
 * coefficient, x^k (k an integer) and x as powers of x. */
static void product_mul_one(struct product *p, segc_expr *f)
{
	if (f->kind == SEGC_NUM)
		mpq_mul(p->coef, p->coef, f->u.value);
	else if (f->kind == SEGC_POW && segc_expr_is_integer(segc_args(f)[1]))
		product_mul_power(p, f, segc_args(f)[0],
			mpq_numref(segc_args(f)[1]->u.value));
	else
		product_mul_power(p, f, f, p->one);
}

/* Multiplies 'p' by 'f' (a product factor by factor); 'f' must outlive
 * 'p'. */
static void product_mul(struct product *p, segc_expr *f)
{
	size_t i, n;
	segc_expr *const *v = factors_of(&f, &n);

	for (i = 0; i < n; i++)
		product_mul_one(p, v[i]);
}

/* The expression of 'p', which is cleared: its number first, then its
 * powers in order. */
static segc_expr *product_finish(struct product *p)
{
	segc_expr **v = segc_xmalloc(segc_xmul_size(p->n + 1, sizeof(*v)));
	segc_expr *e;
	size_t i, k = 0;

	v[k++] = segc_expr_num(p->coef);
	for (i = 0; i < p->n; i++) {
		if (p->orig[i])
			v[k++] = segc_expr_copy(p->orig[i]);
		else if (mpz_sgn(p->exp[i]))
			v[k++] = segc_expr_pow(segc_expr_copy(p->base[i]),
				num_of_mpz(p->exp[i]));
		mpz_clear(p->exp[i]);
	}
	e = segc_expr_mul(k, v);
	free(v);
	free(p->base);
	free(p->orig);
	free(p->exp);
	mpq_clear(p->coef);
	mpz_clear(p->one);
	segc_expr_map_clear(&p->index.map);
	return e;
}

/* The simplified product of the 'n' simplified factors 'v' (references
 * and array taken). */
static segc_expr *simplify_product(size_t n, segc_expr **v)
{
	struct product p;
	segc_expr *e;
	size_t i;

	product_init(&p);
	for (i = 0; i < n; i++)
		product_mul(&p, v[i]);
	e = product_finish(&p);
	free_refs(n, v);
	return e;
}

/* ---------------------------------------------------------------- sums */

/* One term of a sum being built: 'coef' * 'rest', or a number ('rest'
 * NULL). */
struct term {
	segc_expr *rest;
	mpq_t coef;
};

/* A sum being built: its terms in the order of first occurrence, the
 * numbers gathered in one term (the first number's place).  keys[i]
 * identifies the rest of term i up to the order of its factors (NULL for
 * the number). */
struct sum {
	struct term *t;
	segc_expr **keys;
	size_t n, cap;
	size_t number;        /* position + 1 of the number term, or 0 */
	struct index index;
};

/* An empty sum. */
static void sum_init(struct sum *s)
{
	s->t = NULL;
	s->keys = NULL;
	s->n = s->cap = 0;
	s->number = 0;
	index_init(&s->index);
}

/* Releases the memory of 's'. */
static void sum_clear(struct sum *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		segc_expr_free(s->t[i].rest);
		segc_expr_free(s->keys[i]);
		mpq_clear(s->t[i].coef);
	}
	free(s->t);
	free(s->keys);
	segc_expr_map_clear(&s->index.map);
}

/* A new term at the end of 's', with coefficient 'c' (NULL: 1). */
static struct term *sum_push(struct sum *s, segc_expr *rest, segc_expr *key,
	mpq_srcptr c)
{
	struct term *t;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->t = segc_xrealloc(s->t, segc_xmul_size(s->cap, sizeof(*s->t)));
		s->keys = segc_xrealloc(s->keys,
			segc_xmul_size(s->cap, sizeof(*s->keys)));
	}
	s->keys[s->n] = key;
	t = &s->t[s->n++];
	t->rest = rest;
	mpq_init(t->coef);
	if (c)
		mpq_set(t->coef, c);
	else
		mpq_set_ui(t->coef, 1, 1);
	return t;
}

/* Orders expression nodes by identity (for keys only: never printed). */
static int cmp_identity(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(segc_expr *const *)a;
	uintptr_t y = (uintptr_t)*(segc_expr *const *)b;

	return (x > y) - (x < y);
}

/* A node that is the same for products of the same factors in any order:
 * the product of the factors of 'rest' sorted by identity.  Used only to
 * find like terms, so the order never reaches the output. */
static segc_expr *term_key(segc_expr *rest)
{
	segc_expr **v;
	size_t i, n = rest->nargs;

	if (rest->kind != SEGC_MUL)
		return segc_expr_copy(rest);
	for (i = 1; i < n && cmp_identity(&segc_args(rest)[i - 1],
	     &segc_args(rest)[i]) <= 0; i++)
		;
	if (i == n)
		return segc_expr_copy(rest);
	v = segc_xmalloc(segc_xmul_size(n, sizeof(*v)));
	for (i = 0; i < n; i++)
		v[i] = segc_expr_copy(segc_args(rest)[i]);
	qsort(v, n, sizeof(*v), cmp_identity);
	rest = segc_expr_mul(n, v);
	free(v);
	return rest;
}

/* 'x' without its number: a new reference; the number (borrowed from
 * 'x') in '*c', NULL when 'x' has none. */
static segc_expr *term_rest(segc_expr *x, mpq_srcptr *c)
{
	segc_expr **v, *e;
	size_t i, n = x->nargs;

	*c = NULL;
	if (x->kind != SEGC_MUL || segc_args(x)[0]->kind != SEGC_NUM)
		return segc_expr_copy(x);
	*c = segc_args(x)[0]->u.value;
	if (n == 2)
		return segc_expr_copy(segc_args(x)[1]);
	v = segc_xmalloc(segc_xmul_size(n - 1, sizeof(*v)));
	for (i = 1; i < n; i++)
		v[i - 1] = segc_expr_copy(segc_args(x)[i]);
	e = segc_expr_mul(n - 1, v);
	free(v);
	return e;
}

/* Adds the number 'q' to 's'. */
static void sum_add_number(struct sum *s, mpq_srcptr q)
{
	if (s->number) {
		mpq_add(s->t[s->number - 1].coef, s->t[s->number - 1].coef, q);
		return;
	}
	sum_push(s, NULL, NULL, q);
	s->number = s->n;
}

/* Adds the term 'x' (not a sum; borrowed) to 's', merged with a like
 * term if there is one. */
static void sum_add_one(struct sum *s, segc_expr *x)
{
	segc_expr *rest, *key;
	mpq_srcptr c;
	size_t i;
	struct term *t;

	if (x->kind == SEGC_NUM) {
		sum_add_number(s, x->u.value);
		return;
	}
	rest = term_rest(x, &c);
	key = term_key(rest);
	i = index_find(&s->index, s->keys, s->n, key);
	if (i == NOT_FOUND) {
		sum_push(s, rest, key, c);
		return;
	}
	t = &s->t[i];
	if (c)
		mpq_add(t->coef, t->coef, c);
	else
		mpz_add(mpq_numref(t->coef), mpq_numref(t->coef),
			mpq_denref(t->coef));
	segc_expr_free(rest);
	segc_expr_free(key);
}

/* Adds 'x' (a sum term by term; borrowed) to 's'. */
static void sum_add(struct sum *s, segc_expr *x)
{
	size_t i;

	if (x->kind != SEGC_ADD) {
		sum_add_one(s, x);
		return;
	}
	for (i = 0; i < x->nargs; i++)
		sum_add_one(s, segc_args(x)[i]);
}

/* The number 'q' as an expression. */
static segc_expr *num_of_mpq(mpq_srcptr q)
{
	segc_expr *e;
	mpq_t r;

	mpq_init(r);
	mpq_set(r, q);
	e = segc_expr_num(r);
	mpq_clear(r);
	return e;
}

/* The term 't' as an expression (a new reference). */
static segc_expr *term_expr(const struct term *t)
{
	segc_expr *c;

	if (t->rest && mpq_cmp_ui(t->coef, 1, 1) == 0)
		return segc_expr_copy(t->rest);
	c = num_of_mpq(t->coef);
	return t->rest ? segc_expr_mul2(c, segc_expr_copy(t->rest)) : c;
}

/* ------------------------------------------------------ common factors */

/* What pulling common factors out of a sum needs: the terms that count
 * (symbolic, non-zero), the factors of the first, and for each of those
 * in how many terms it occurs (only a first occurrence counts). */
struct common {
	const struct term **live;
	size_t m;
	segc_expr *const *f0;
	size_t nf0;
	size_t *count;
	size_t *taken;        /* for each term: the stamp of removal */
	struct index index;   /* of f0 */
	mpq_t g;              /* the common number, when it goes out */
};

/* The position in the first term of factor 'f', if 'f' is common to all
 * terms; else NOT_FOUND. */
static size_t common_position(struct common *cf, const segc_expr *f)
{
	size_t k = index_find(&cf->index, cf->f0, cf->nf0, f);

	return k != NOT_FOUND && cf->count[k] == cf->m ? k : NOT_FOUND;
}

/* Counts, for each factor of the first term, the terms it occurs in;
 * returns the number of factors common to all terms (stops at 0). */
static size_t count_common(struct common *cf)
{
	size_t r, i, k, n, alive = cf->nf0;
	segc_expr *const *f;

	for (k = 0; k < cf->nf0; k++)
		cf->count[k] = index_find(&cf->index, cf->f0, cf->nf0,
			cf->f0[k]) == k;
	for (r = 1; r < cf->m && alive; r++) {
		f = factors_of(&cf->live[r]->rest, &n);
		alive = 0;
		for (i = 0; i < n; i++) {
			k = index_find(&cf->index, cf->f0, cf->nf0, f[i]);
			if (k != NOT_FOUND && cf->count[k] == r) {
				cf->count[k] = r + 1;
				alive++;
			}
		}
	}
	return r == cf->m ? alive : 0;
}

/* The factors of term 'r' that stay in the sum (borrowed), in order;
 * each common factor is removed once. Their number in '*kept'. */
static segc_expr **kept_factors(struct common *cf, size_t r, size_t *kept)
{
	size_t i, k, n;
	segc_expr *const *f = factors_of(&cf->live[r]->rest, &n);
	segc_expr **v = segc_xmalloc(segc_xmul_size(n + 1, sizeof(*v)));

	*kept = 0;
	for (i = 0; i < n; i++) {
		k = common_position(cf, f[i]);
		if (k != NOT_FOUND && cf->taken[k] != r + 1)
			cf->taken[k] = r + 1;
		else
			v[(*kept)++] = f[i];
	}
	return v;
}

/* Sets 'cf->g' to the common number of the coefficients if pulling it
 * out makes a term a bare sum, which then merges into the new sum
 * (2*x + 2*(P - 1)*x); else to 1. */
static void common_number(struct common *cf)
{
	size_t r, kept;
	segc_expr **v;
	int dissolves = 0;
	mpz_t num, den;

	mpz_init(num);
	mpz_init_set_ui(den, 1);
	for (r = 0; r < cf->m; r++) {
		mpz_gcd(num, num, mpq_numref(cf->live[r]->coef));
		mpz_lcm(den, den, mpq_denref(cf->live[r]->coef));
	}
	mpq_set_num(cf->g, num);
	mpq_set_den(cf->g, den);
	mpq_canonicalize(cf->g);
	for (r = 0; r < cf->m && mpq_cmp_ui(cf->g, 1, 1); r++) {
		if (!mpq_equal(cf->live[r]->coef, cf->g))
			continue;
		memset(cf->taken, 0, cf->nf0 * sizeof(*cf->taken));
		v = kept_factors(cf, r, &kept);
		dissolves |= kept == 1 && v[0]->kind == SEGC_ADD;
		free(v);
	}
	if (!dissolves)
		mpq_set_ui(cf->g, 1, 1);
	mpz_clear(num);
	mpz_clear(den);
}

/* The sum of what is left of the terms once the common factors and the
 * number 'cf->g' are out, simplified (without pulling factors again). */
static segc_expr *common_inner(struct common *cf)
{
	segc_expr **rests = segc_xmalloc(segc_xmul_size(cf->m,
		sizeof(*rests)));
	segc_expr **v;
	size_t r, i, kept;
	mpq_t c;

	mpq_init(c);
	memset(cf->taken, 0, cf->nf0 * sizeof(*cf->taken));
	for (r = 0; r < cf->m; r++) {
		v = kept_factors(cf, r, &kept);
		for (i = 0; i < kept; i++)
			v[i] = segc_expr_copy(v[i]);
		mpq_div(c, cf->live[r]->coef, cf->g);
		v[kept++] = segc_expr_num(c);
		rests[r] = segc_expr_mul(kept, v);
		free(v);
	}
	mpq_clear(c);
	return simplify_sum(cf->m, rests, 0);
}

/* The product g * (common factors before the first other factor of the
 * first term) * 'inner' * (the other common factors), simplified. */
static segc_expr *common_product(struct common *cf, segc_expr *inner)
{
	struct product p;
	size_t k = 0;
	segc_expr *e, *g = segc_expr_num(cf->g);

	product_init(&p);
	product_mul(&p, g);
	for (; k < cf->nf0 && common_position(cf, cf->f0[k]) == k; k++)
		product_mul(&p, cf->f0[k]);
	product_mul(&p, inner);
	for (; k < cf->nf0; k++)
		if (common_position(cf, cf->f0[k]) == k)
			product_mul(&p, cf->f0[k]);
	e = product_finish(&p);
	segc_expr_free(g);
	return e;
}

/* The terms of 's' that count for common factors, in '*m'; NULL if a
 * number term stands in the way or fewer than two are left. */
static const struct term **live_terms(const struct sum *s, size_t *m)
{
	const struct term **live;
	size_t i;

	*m = 0;
	for (i = 0; i < s->n; i++) {
		if (!s->t[i].rest && mpq_sgn(s->t[i].coef))
			return NULL;
		if (s->t[i].rest && mpq_sgn(s->t[i].coef))
			(*m)++;
	}
	if (*m < 2)
		return NULL;
	live = segc_xmalloc(segc_xmul_size(*m, sizeof(*live)));
	*m = 0;
	for (i = 0; i < s->n; i++)
		if (s->t[i].rest && mpq_sgn(s->t[i].coef))
			live[(*m)++] = &s->t[i];
	return live;
}

/* 's' with the factors common to all its terms pulled out, or NULL when
 * there are none. */
static segc_expr *sum_factor(const struct sum *s)
{
	struct common cf;
	segc_expr *inner, *e = NULL;

	cf.live = live_terms(s, &cf.m);
	if (!cf.live)
		return NULL;
	cf.f0 = factors_of(&cf.live[0]->rest, &cf.nf0);
	cf.count = segc_xcalloc(cf.nf0, sizeof(*cf.count));
	cf.taken = segc_xcalloc(cf.nf0, sizeof(*cf.taken));
	index_init(&cf.index);
	mpq_init(cf.g);
	if (count_common(&cf)) {
		common_number(&cf);
		inner = common_inner(&cf);
		e = common_product(&cf, inner);
		segc_expr_free(inner);
	}
	mpq_clear(cf.g);
	segc_expr_map_clear(&cf.index.map);
	free(cf.taken);
	free(cf.count);
	free(cf.live);
	return e;
}

/* The expression of 's' (which is cleared); with 'factor', common factors
 * pulled out. */
static segc_expr *sum_finish(struct sum *s, int factor)
{
	segc_expr **v, *e = factor ? sum_factor(s) : NULL;
	size_t i, k = 0;

	if (!e) {
		v = segc_xmalloc(segc_xmul_size(s->n + 1, sizeof(*v)));
		for (i = 0; i < s->n; i++)
			if (mpq_sgn(s->t[i].coef))
				v[k++] = term_expr(&s->t[i]);
		e = segc_expr_add(k, v);
		free(v);
	}
	sum_clear(s);
	return e;
}

/* The simplified sum of the 'n' simplified terms 'v' (references and
 * array taken); 'factor': pull common factors out. */
static segc_expr *simplify_sum(size_t n, segc_expr **v, int factor)
{
	struct sum s;
	size_t i;

	sum_init(&s);
	for (i = 0; i < n; i++)
		sum_add(&s, v[i]);
	free_refs(n, v);
	return sum_finish(&s, factor);
}

/* ---------------------------------------------------------------- walk */

/* A node on the stack of the walk; 'ready': its children are done. */
struct frame {
	segc_expr *e;
	int ready;
};

struct walk {
	struct frame *v;
	size_t n, cap;
	segc_expr_map memo;   /* node -> its simplified form (a reference) */
};

/* Pushes 'e' on the stack of 'w'. */
static void walk_push(struct walk *w, segc_expr *e, int ready)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->v = segc_xrealloc(w->v, segc_xmul_size(w->cap, sizeof(*w->v)));
	}
	w->v[w->n].e = e;
	w->v[w->n].ready = ready;
	w->n++;
}

/* The simplified form of the done node 'e' (borrowed). */
static segc_expr *done(const struct walk *w, const segc_expr *e)
{
	return *segc_expr_map_find(&w->memo, e);
}

/* The simplified form of 'e', whose children are done. */
static segc_expr *simplify_node(const struct walk *w, segc_expr *e)
{
	size_t i, n = e->nargs;
	segc_expr **v = segc_xmalloc(segc_xmul_size(n + 1, sizeof(*v))), *r;

	for (i = 0; i < n; i++)
		v[i] = segc_expr_copy(done(w, segc_args(e)[i]));
	if (e->kind == SEGC_ADD)
		return simplify_sum(n, v, 1);
	if (e->kind == SEGC_MUL)
		return simplify_product(n, v);
	r = segc_expr_rebuild((enum segc_expr_kind)e->kind,
		e->kind == SEGC_POW ? NULL : e->u.name, n, v);
	free(v);
	return r;
}

/* Takes the top of the stack of 'w': a new node gets its children
 * pushed, a node whose children are done gets simplified. */
static void walk_step(struct walk *w)
{
	struct frame f = w->v[--w->n];
	size_t i;

	if (f.ready) {
		segc_expr *r = simplify_node(w, f.e);

		*segc_expr_map_find(&w->memo, f.e) = r;
		return;
	}
	if (segc_expr_map_find(&w->memo, f.e))
		return;
	if (f.e->kind == SEGC_NUM || f.e->kind == SEGC_SYM) {
		segc_expr_map_put(&w->memo, f.e, segc_expr_copy(f.e));
		return;
	}
	segc_expr_map_put(&w->memo, f.e, NULL);
	walk_push(w, f.e, 1);
	for (i = f.e->nargs; i-- > 0;)
		if (!segc_expr_map_find(&w->memo, segc_args(f.e)[i]))
			walk_push(w, segc_args(f.e)[i], 0);
}

/* 'e' simplified (see the top of the file). */
segc_expr *segc_structural_simplify(segc_expr *e)
{
	struct walk w = { NULL, 0, 0, { NULL, NULL, 0, 0 } };
	segc_expr *r;
	size_t i;

	if (!e)
		return NULL;
	segc_expr_map_init(&w.memo);
	walk_push(&w, e, 0);
	while (w.n)
		walk_step(&w);
	r = segc_expr_copy(done(&w, e));
	for (i = 0; i < w.memo.cap; i++)
		if (w.memo.keys[i])
			segc_expr_free(w.memo.values[i]);
	segc_expr_map_clear(&w.memo);
	free(w.v);
	segc_expr_free(e);
	return r;
}
