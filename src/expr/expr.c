/* expr.c - the constructors of expressions, with the light normalisation
 * of segc.h (flattening, folding of numbers), and substitution.  Each one
 * builds the key of its node and gets the node from the store
 * (expr_store.c): equal structure, same node.  Substitution walks with an
 * explicit stack, not recursion. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr/store_private.h"
#include "expr/builtin.h"
#include "base/util.h"

/* Powers of numbers are folded only while the result stays below this many
 * bits; larger ones stay as a POW for the canonical form to judge against
 * the context's limits. */
#define POW_FOLD_MAX_BITS 1048576UL

/* Children of ADD/MUL held on the stack before a node is built. */
#define LOCAL_ARGS 16
/* The largest sum or product flattened into an enclosing one. */
#define FLATTEN_MAX 4096

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

	return segc_expr_store_intern(&key);
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
	return segc_expr_store_intern(&key);
}

/* A node of 'kind' with 'n' children 'args' (references taken). */
static segc_expr *make_node(enum segc_expr_kind kind, const char *name,
	size_t n, segc_expr **args)
{
	struct node_key key = { kind, 0, NULL, 0, NULL, NULL };

	key.name = name;
	key.nargs = n;
	key.args = args;
	return segc_expr_store_intern(&key);
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

/* Flattens the 'n' operands 'v' of an ADD or MUL into 'out', folding the
 * numbers into 'acc'; returns how many.  Takes the references of 'v':
 * an operand kept as it is moves to 'out' (most operands of the
 * canonical form's terms), the others are released. */
static size_t flatten(enum segc_expr_kind kind, size_t n, segc_expr **v,
	mpq_t acc, segc_expr **out)
{
	size_t i, j, k = 0;

	for (i = 0; i < n; i++) {
		if (v[i]->kind != SEGC_NUM && !flattens(kind, v[i])) {
			out[k++] = v[i];
			continue;
		}
		if (!flattens(kind, v[i]))
			collect_operand(kind, v[i], acc, out, &k);
		else
			for (j = 0; j < v[i]->nargs; j++)
				collect_operand(kind, segc_args(v[i])[j], acc,
					out, &k);
		segc_expr_free(v[i]);
	}
	return k;
}

/* The ADD or MUL of the 'k' non-number operands 'out' and the number
 * 'acc', which goes first in a product, first in a sum that began with a
 * number ('lead'), else last, and is left out when it is the identity.
 * Takes the references of 'out'. */
static segc_expr *finish_nary(enum segc_expr_kind kind, segc_expr **out,
	size_t k, mpq_srcptr acc, int lead)
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

/* Non-zero when none of the 'n' operands 'v' of a 'kind' node is a
 * number or flattens into it: they are the node's operands as they are. */
static int none_folds(enum segc_expr_kind kind, size_t n, segc_expr **v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i]->kind == SEGC_NUM || flattens(kind, v[i]))
			return 0;
	return 1;
}

/* The ADD or MUL of the 'n' operands 'v' with the number 'start' (NULL:
 * the identity of 'kind') folded in first, the number going first when
 * 'lead' (see finish_nary). */
static segc_expr *nary_from(enum segc_expr_kind kind, size_t n,
	segc_expr **v, mpq_srcptr start, int lead)
{
	segc_expr *local[LOCAL_ARGS], **out = local, *e;
	size_t total, k;
	mpq_t acc;

	if (has_null(n, v)) {
		free_array(n, v);
		return NULL;
	}
	total = flat_count(kind, n, v) + 1;
	if (total > LOCAL_ARGS)
		out = segc_xmalloc(segc_xmul_size(total, sizeof(*out)));
	if (start && none_folds(kind, n, v)) {
		/* the operands as they are, 'start' the number: no
		 * accumulator (the canonical form's terms) */
		memcpy(out, v, n * sizeof(*out));
		e = finish_nary(kind, out, n, start, lead);
	} else {
		mpq_init(acc);
		if (start)
			mpq_set(acc, start);
		else
			mpq_set_ui(acc, kind == SEGC_ADD ? 0 : 1, 1);
		k = flatten(kind, n, v, acc, out);
		e = finish_nary(kind, out, k, acc, lead);
		mpq_clear(acc);
	}
	if (out != local)
		free(out);
	return e;
}

/* The ADD or MUL of the 'n' operands 'v', normalised as segc.h says. */
static segc_expr *make_nary(enum segc_expr_kind kind, size_t n,
	segc_expr **v)
{
	int lead = n > 0 && v[0] && (v[0]->kind == SEGC_NUM ||
		(flattens(kind, v[0]) && segc_args(v[0])[0]->kind == SEGC_NUM));

	return nary_from(kind, n, v, NULL, lead);
}

/* See expr_private.h: make_nary's product with 'c' as its number. */
segc_expr *segc_expr_mul_q(mpq_srcptr c, size_t n, segc_expr **factors)
{
	return nary_from(SEGC_MUL, n, factors, c, 1);
}

/* See expr_private.h: segc_expr_mul_q with the number as a node. */
segc_expr *segc_expr_mul_num(segc_expr *c, size_t n, segc_expr **factors)
{
	segc_expr *local[LOCAL_ARGS], **out = local, *e;

	if (has_null(n, factors) || mpq_sgn(c->u.value) == 0 ||
	    !mpq_cmp_ui(c->u.value, 1, 1) ||
	    !none_folds(SEGC_MUL, n, factors)) {
		/* the general path: NULL, 0, 1, folds */
		e = segc_expr_mul_q(c->u.value, n, factors);
		segc_expr_free(c);
		return e;
	}
	if (n == 0)
		return c;
	if (n + 1 > LOCAL_ARGS)
		out = segc_xmalloc(segc_xmul_size(n + 1, sizeof(*out)));
	out[0] = c;
	memcpy(out + 1, factors, n * sizeof(*out));
	e = make_node(SEGC_MUL, NULL, n + 1, out);
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
	mpq_neg(c, segc_args(a)[0]->u.value);
	v[0] = segc_expr_num(c);
	mpq_clear(c);
	for (i = 1; i < n; i++)
		v[i] = segc_expr_copy(segc_args(a)[i]);
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
	if (a->kind == SEGC_MUL && segc_args(a)[0]->kind == SEGC_NUM)
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
		if (base->kind == SEGC_POW &&
			segc_expr_is_integer(segc_args(base)[1])) {
			mpq_init(ab);
			mpq_mul(ab, segc_args(base)[1]->u.value,
				exponent->u.value);
			e = segc_expr_pow(segc_expr_copy(segc_args(base)[0]),
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

/* The call 'name'('args'...), kept as built; a built-in defined by
 * others (log) is built as its meaning (see builtin.h). */
segc_expr *segc_expr_call(const char *name, size_t n, segc_expr **args)
{
	segc_expr *e;

	if (!name || has_null(n, args)) {
		free_array(n, args);
		return NULL;
	}
	if (segc_builtin_expand(&e, name, n, args))
		return e;
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

/* ------------------------------------------------------------ substitution */

/* What a substitution needs while it walks. */
struct subst {
	const char *name;
	segc_expr *value;
	segc_expr_map memo;  /* node -> its image (a reference owned here) */
};

/* The image of 'e', a child of a node being substituted into: itself
 * when the name replaced is not free in it (no walk went below it),
 * else from the memo.  Borrowed. */
static segc_expr *subst_image(const struct subst *st, const segc_expr *e)
{
	if (!segc_expr_may_have(e, st->name))
		return (segc_expr *)e;
	return *segc_expr_map_find(&st->memo, e);
}

/* Non-zero when substituting into the SUM 'e' would capture its variable:
 * the value mentions it and the body mentions the name replaced. */
static int sum_captures(const struct subst *st, const segc_expr *e)
{
	return e->kind == SEGC_SUM && strcmp(e->u.name, st->name) &&
		segc_expr_has_sym(st->value, e->u.name) &&
		segc_expr_has_sym(segc_args(e)[2], st->name);
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
	char *fresh = fresh_name(e->u.name, segc_args(e)[2], st->value,
		st->name);
	segc_expr *sym = segc_expr_sym(fresh), *body, *r;

	body = segc_expr_subst(segc_expr_copy(segc_args(e)[2]), e->u.name, sym);
	body = segc_expr_subst(body, st->name, st->value);
	r = segc_expr_sum(fresh, lo, hi, body);
	segc_expr_free(sym);
	free(fresh);
	return r;
}

/* The image of the recurrence maxplusv 'e' binding 'var', whose children
 * are in the memo: the costs keep the counter; substituted into when
 * the counter is not the name replaced, renamed first when the value
 * would capture it. */
static segc_expr *subst_maxplusv(struct subst *st, const segc_expr *e,
	const char *var)
{
	segc_expr **v = segc_xmalloc(segc_xmul_size(e->nargs + 1,
		sizeof(*v)));
	int capture = strcmp(var, st->name) &&
		segc_expr_has_sym(st->value, var);
	char *fresh = NULL;
	segc_expr *sym = NULL, *r;
	size_t i;

	for (i = 1; capture && i < e->nargs; i++)
		if (segc_expr_arg_bound(e, i) &&
				segc_expr_has_sym(segc_args(e)[i],
				st->name))
			break;
	capture = capture && i < e->nargs;
	if (capture) {
		fresh = fresh_name(var, e, st->value, st->name);
		sym = segc_expr_sym(fresh);
	}
	v[0] = segc_expr_copy(capture ? sym : segc_args(e)[0]);
	for (i = 1; i < e->nargs; i++) {
		if (!segc_expr_arg_bound(e, i))
			v[i] = segc_expr_copy(subst_image(st,
				segc_args(e)[i]));
		else if (!strcmp(var, st->name))
			v[i] = segc_expr_copy(segc_args(e)[i]);
		else if (capture)
			v[i] = segc_expr_subst(segc_expr_subst(segc_expr_copy(
				segc_args(e)[i]), var, sym), st->name,
					st->value);
		else
			v[i] = segc_expr_copy(subst_image(st,
				segc_args(e)[i]));
	}
	r = segc_expr_call_builtin(SEGC_BUILTIN_MAXPLUSV, e->nargs, v);
	segc_expr_free(sym);
	free(fresh);
	free(v);
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
	if (e->kind == SEGC_CALL && segc_expr_binder(e))
		return subst_maxplusv(st, e, segc_expr_binder(e));
	if (n > LOCAL_ARGS)
		v = segc_xmalloc(segc_xmul_size(n, sizeof(*v)));
	for (i = 0; i < n; i++) {
		v[i] = segc_expr_copy(subst_image(st, segc_args(e)[i]));
		same = same && v[i] == segc_args(e)[i];
	}
	if (n < e->nargs && sum_captures(st, e))
		r = subst_renamed_sum(st, e, v[0], v[1]);
	else if (same)
		r = (free_array(n, v), segc_expr_copy(e));
	else if (n < e->nargs)
		r = segc_expr_sum(e->u.name, v[0], v[1],
			segc_expr_copy(segc_args(e)[2]));
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
		       (!segc_expr_may_have(segc_args(f->e)[f->next],
			st->name) ||
			segc_expr_map_find(&st->memo,
				segc_args(f->e)[f->next])))
			f->next++;
		if (f->next == nc) {
			if (!segc_expr_map_find(&st->memo, f->e))
				segc_expr_map_put(&st->memo, f->e,
					subst_node(st, f->e));
			n--;
			continue;
		}
		child = segc_args(f->e)[f->next];
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
