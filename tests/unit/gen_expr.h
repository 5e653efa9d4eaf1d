/* gen_expr.h - random expressions for the unit tests of the algebra: a
 * deterministic generator that builds through the constructors and, beside
 * each expression, computes its exact value at a fixed point. */
#ifndef SEGC_GEN_EXPR_H
#define SEGC_GEN_EXPR_H

#include <stdint.h>
#include <stdlib.h>
#include <gmp.h>
#include <segc/segc.h>

/* The names of the generator and their values at the test point. */
static const char *const gen_names[] = { "a", "b", "c", "x_1" };
static const long gen_num[] = { 3, -2, 5, 0 };
static const unsigned long gen_den[] = { 2, 1, 7, 1 };
#define GEN_NAMES 4

/* A xorshift random generator. */
struct gen_rng {
	uint64_t s;
};

/* The next random number of 'r'. */
static inline uint64_t gen_next(struct gen_rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return r->s;
}

/* A random integer in [lo, hi]. */
static inline long gen_range(struct gen_rng *r, long lo, long hi)
{
	return lo + (long)(gen_next(r) % (uint64_t)(hi - lo + 1));
}

/* Sets 'v' to the value of gen_names[i]. */
static inline void gen_value_of(mpq_t v, int i)
{
	mpq_set_si(v, gen_num[i], gen_den[i]);
	mpq_canonicalize(v);
}

/* A random expression of at most 'depth' levels; '*ok' is cleared when
 * its value at the test point is undefined (a division by zero), else 'v'
 * is that value.  'sums' allows sums and calls (no value computed: '*ok'
 * cleared). */
static segc_expr *gen_expr(struct gen_rng *r, int depth, int sums, mpq_t v,
	int *ok);

/* A random leaf: a small rational or a name. */
static inline segc_expr *gen_leaf(struct gen_rng *r, mpq_t v)
{
	long k = gen_range(r, 0, 9);

	if (k < GEN_NAMES) {
		gen_value_of(v, (int)k);
		return segc_expr_sym(gen_names[k]);
	}
	if (k < 8) {
		mpq_set_si(v, gen_range(r, -6, 6), 1);
		return segc_expr_num(v);
	}
	mpq_set_si(v, gen_range(r, -9, 9), (unsigned long)gen_range(r, 1, 6));
	mpq_canonicalize(v);
	return segc_expr_num(v);
}

/* A random sum or product of 2 to 4 operands. */
static inline segc_expr *gen_nary(struct gen_rng *r, int depth, int sums,
	int add, mpq_t v, int *ok)
{
	segc_expr *args[4];
	long i, n = gen_range(r, 2, 4);
	mpq_t t;

	mpq_init(t);
	mpq_set_ui(v, add ? 0 : 1, 1);
	for (i = 0; i < n; i++) {
		args[i] = gen_expr(r, depth - 1, sums, t, ok);
		if (add)
			mpq_add(v, v, t);
		else
			mpq_mul(v, v, t);
	}
	mpq_clear(t);
	return add ? segc_expr_add((size_t)n, args) :
		segc_expr_mul((size_t)n, args);
}

/* A random binary operation: -, /, unary minus or a power. */
static inline segc_expr *gen_binary(struct gen_rng *r, int depth, int sums,
	mpq_t v, int *ok)
{
	long op = gen_range(r, 0, 4), k;
	segc_expr *a, *b;
	mpq_t t;

	mpq_init(t);
	a = gen_expr(r, depth - 1, sums, v, ok);
	if (op == 0) {
		b = gen_expr(r, depth - 1, sums, t, ok);
		mpq_sub(v, v, t);
		a = segc_expr_sub2(a, b);
	} else if (op == 1) {
		b = gen_expr(r, depth - 1, sums, t, ok);
		if (mpq_sgn(t) == 0)
			*ok = 0;
		else
			mpq_div(v, v, t);
		a = segc_expr_div2(a, b);
	} else if (op == 2) {
		mpq_neg(v, v);
		a = segc_expr_neg(a);
	} else {
		long e = gen_range(r, -3, 3);

		k = e < 0 ? -e : e;
		if (mpq_sgn(v) == 0 && e < 0) {
			*ok = 0;
		} else {
			if (e < 0)
				mpq_inv(v, v);
			mpz_pow_ui(mpq_numref(v), mpq_numref(v), (unsigned long)k);
			mpz_pow_ui(mpq_denref(v), mpq_denref(v), (unsigned long)k);
		}
		a = segc_expr_powi(a, e);
	}
	mpq_clear(t);
	return a;
}

/* A random call, sum or symbolic power (no value). */
static inline segc_expr *gen_special(struct gen_rng *r, int depth, mpq_t v,
	int *ok)
{
	static const char *const fns[] = { "max", "f", "ceil", "g_2" };
	long op = gen_range(r, 0, 4), n, i;
	segc_expr *args[3];

	*ok = 0;
	if (op == 0) {
		args[0] = gen_expr(r, depth - 1, 1, v, ok);
		args[1] = gen_expr(r, depth - 1, 1, v, ok);
		args[2] = gen_expr(r, depth - 1, 1, v, ok);
		*ok = 0;
		return segc_expr_sum(gen_range(r, 0, 1) ? "i" : "a", args[0],
			args[1], args[2]);
	}
	if (op == 1) {
		args[0] = gen_expr(r, depth - 1, 1, v, ok);
		args[1] = gen_expr(r, depth - 1, 1, v, ok);
		*ok = 0;
		return segc_expr_pow(args[0], args[1]);
	}
	n = gen_range(r, 1, 3);
	for (i = 0; i < n; i++)
		args[i] = gen_expr(r, depth - 1, 1, v, ok);
	*ok = 0;
	return segc_expr_call(fns[op - 1], (size_t)n, args);
}

static segc_expr *gen_expr(struct gen_rng *r, int depth, int sums, mpq_t v,
	int *ok)
{
	long op = depth <= 0 ? 0 : gen_range(r, 0, sums ? 9 : 7);

	if (op <= 1)
		return gen_leaf(r, v);
	if (op <= 3)
		return gen_nary(r, depth, sums, op == 2, v, ok);
	if (op <= 7)
		return gen_binary(r, depth, sums, v, ok);
	return gen_special(r, depth, v, ok);
}

#endif
