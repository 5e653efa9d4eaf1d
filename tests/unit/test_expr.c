/* test_expr.c - the expression store: the constructors' normalisation,
 * hash-consing, the structural order, substitution, and releasing deep
 * expressions. */
#include <stdlib.h>
#include <string.h>

#include <segc/segc.h>
#include "expr/expr_private.h"
#include "gen_expr.h"
#include "tap.h"

/* Parses 'text' (which must be valid). */
static segc_expr *P(const char *text)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_expr *e = segc_expr_parse(ctx, text, NULL);

	segc_ctx_free(ctx);
	return e;
}

/* Checks that 'e' (taken) prints as 'want'. */
static void is_expr(segc_expr *e, const char *want, const char *name)
{
	char *s = segc_expr_to_string(e);

	tap_is(s, want, name);
	free(s);
	segc_expr_free(e);
}

/* Shorthands. */
static segc_expr *S(const char *name)
{
	return segc_expr_sym(name);
}

static segc_expr *I(long v)
{
	return segc_expr_int(v);
}

/* Hash-consing: equal structure, same node. */
static void test_sharing(void)
{
	segc_expr *a = segc_expr_add2(S("x"), I(3));
	segc_expr *b = segc_expr_add2(S("x"), I(3));
	segc_expr *c = segc_expr_rat(6, 4), *d = segc_expr_rat(3, 2);
	mpq_t q;

	tap_ok(a == b, "same structure gives the same node");
	tap_ok(segc_expr_hash(a) == segc_expr_hash(b), "equal hashes");
	tap_ok(c == d, "6/4 and 3/2 are one node");
	mpq_init(q);
	mpq_set_si(q, 3, 2);
	tap_ok(mpq_equal(segc_expr_value(c), q), "value of 3/2");
	mpq_clear(q);
	tap_ok(segc_expr_rat(1, 0) == NULL, "rat with zero denominator");
	segc_expr_free(a);
	segc_expr_free(b);
	segc_expr_free(c);
	segc_expr_free(d);
}

/* The normalisation of add and mul. */
static void test_add_mul(void)
{
	segc_expr *v[4];

	v[0] = S("x");
	v[1] = segc_expr_add2(I(2), S("y"));
	v[2] = I(3);
	is_expr(segc_expr_add(3, v), "x + y + 5", "add flattens, numbers last");
	is_expr(segc_expr_add(0, v), "0", "empty add is 0");
	v[0] = segc_expr_add2(S("x"), I(0));
	v[1] = S("x");
	tap_ok(v[0] == v[1], "x + 0 = x");
	segc_expr_free(v[0]);
	segc_expr_free(v[1]);
	is_expr(segc_expr_add2(I(2), I(-2)), "0", "2 + -2 = 0");
	is_expr(segc_expr_add2(S("x"), S("x")), "x + x", "add keeps like terms");
	v[0] = I(2);
	v[1] = S("x");
	v[2] = segc_expr_mul2(I(3), S("y"));
	is_expr(segc_expr_mul(3, v), "6*x*y", "mul flattens, numbers first");
	is_expr(segc_expr_mul(0, v), "1", "empty mul is 1");
	is_expr(segc_expr_mul2(S("x"), I(1)), "x", "x*1 = x");
	is_expr(segc_expr_mul2(S("x"), I(0)), "0", "x*0 = 0");
	is_expr(segc_expr_mul2(S("y"), S("x")), "y*x", "mul keeps order");
	is_expr(segc_expr_div2(I(6), I(4)), "3/2", "6/4 folds");
	is_expr(segc_expr_sub2(S("x"), S("y")), "x - y", "sub");
	tap_ok(segc_expr_add2(NULL, S("x")) == NULL, "NULL operand gives NULL");
}

/* The normalisation of pow and neg. */
static void test_pow_neg(void)
{
	segc_expr *e;

	is_expr(segc_expr_powi(S("x"), 1), "x", "x^1 = x");
	is_expr(segc_expr_powi(S("x"), 0), "1", "x^0 = 1");
	is_expr(segc_expr_powi(I(2), 10), "1024", "2^10 folds");
	is_expr(segc_expr_powi(segc_expr_rat(2, 3), -2), "9/4", "(2/3)^-2");
	is_expr(segc_expr_powi(I(-1), 7), "-1", "(-1)^7");
	is_expr(segc_expr_powi(segc_expr_powi(S("x"), 2), 3), "x^6",
		"(x^2)^3 = x^6");
	is_expr(segc_expr_powi(segc_expr_powi(S("x"), 2), -1), "1/x^2",
		"(x^2)^-1 = x^-2");
	e = segc_expr_pow(S("x"), segc_expr_rat(1, 2));
	is_expr(segc_expr_powi(e, 2), "(x^(1/2))^2", "(x^(1/2))^2 stays");
	e = segc_expr_powi(I(0), -1);
	tap_ok(segc_expr_kind(e) == SEGC_POW, "0^-1 is not folded");
	segc_expr_free(e);
	e = segc_expr_powi(I(3), 2000000);
	tap_ok(segc_expr_kind(e) == SEGC_POW, "3^2000000 is not folded");
	segc_expr_free(e);
	is_expr(segc_expr_neg(I(3)), "-3", "neg of a number");
	is_expr(segc_expr_neg(segc_expr_mul2(I(2), S("x"))), "-2*x",
		"neg of a product with a number");
	is_expr(segc_expr_neg(segc_expr_neg(S("x"))), "x", "neg neg x = x");
	e = segc_expr_neg(S("x"));
	tap_ok(segc_expr_kind(e) == SEGC_MUL && segc_expr_nargs(e) == 2,
		"neg x is (-1)*x");
	segc_expr_free(e);
}

/* Accessors of each kind. */
static void test_accessors(void)
{
	segc_expr *e = P("sum(i, 1, n, f(i, 2))");

	tap_ok(segc_expr_kind(e) == SEGC_SUM, "sum kind");
	tap_is(segc_expr_name(e), "i", "sum variable");
	tap_ok(segc_expr_nargs(e) == 3, "sum has lo, hi, body");
	tap_is(segc_expr_name(segc_expr_arg(e, 2)), "f", "call name");
	tap_ok(segc_expr_arg(e, 3) == NULL, "arg out of range");
	tap_ok(segc_expr_value(e) == NULL, "value of a non-number");
	tap_ok(segc_expr_is_one(segc_expr_arg(e, 0)), "is_one");
	tap_ok(segc_expr_has_sym(e, "n"), "n is free");
	tap_ok(!segc_expr_has_sym(e, "i"), "i is bound");
	segc_expr_free(e);
	e = P("sum(i, i, n, i)");
	tap_ok(segc_expr_has_sym(e, "i"), "i free in a bound");
	segc_expr_free(e);
	e = P("(x + 1)*(x + 1)^2");
	tap_ok(segc_expr_size(e) == 6, "size counts shared nodes once (%zu)",
		segc_expr_size(e));
	segc_expr_free(e);
}

/* Compares two nodes for qsort. */
static int cmp_nodes(const void *a, const void *b)
{
	return segc_expr_cmp(*(segc_expr *const *)a, *(segc_expr *const *)b);
}

/* segc_expr_cmp is a total order consistent with identity. */
static void test_order(void)
{
	struct gen_rng r = { 0x1234567 };
	enum { N = 400 };
	segc_expr *v[N];
	int ok, bad_sym = 0, bad_eq = 0, bad_trans = 0;
	size_t i, j;
	mpq_t t;

	mpq_init(t);
	for (i = 0; i < N; i++)
		v[i] = gen_expr(&r, 3, 1, t, &ok);
	mpq_clear(t);
	for (i = 0; i < N; i++) {
		for (j = 0; j < N; j++) {
			int c = segc_expr_cmp(v[i], v[j]);

			bad_sym += c != -segc_expr_cmp(v[j], v[i]);
			bad_eq += (c == 0) != (v[i] == v[j]);
		}
	}
	qsort(v, N, sizeof(*v), cmp_nodes);
	for (i = 0; i + 1 < N; i++)
		for (j = i + 1; j < N; j += 7)
			bad_trans += segc_expr_cmp(v[i], v[j]) > 0;
	tap_ok(!bad_sym, "cmp is antisymmetric");
	tap_ok(!bad_eq, "cmp is 0 exactly for the same node");
	tap_ok(!bad_trans, "cmp is transitive on a sorted sample");
	for (i = 0; i < N; i++)
		segc_expr_free(v[i]);
	v[0] = I(2);
	v[1] = S("a");
	v[2] = S("b");
	tap_ok(segc_expr_cmp(v[0], v[1]) < 0, "numbers before names");
	tap_ok(segc_expr_cmp(v[1], v[2]) < 0, "names by strcmp");
	for (i = 0; i < 3; i++)
		segc_expr_free(v[i]);
}

/* Substitutes 'value' for 'name' in the parse of 'text'. */
static void check_subst(const char *text, const char *name,
	const char *value, const char *want)
{
	segc_expr *v = P(value);

	is_expr(segc_expr_subst(P(text), name, v), want, text);
	segc_expr_free(v);
}

/* Substitution, with sums binding their variable. */
static void test_subst(void)
{
	segc_expr *e;

	check_subst("x^2 + y", "x", "3", "9 + y");
	check_subst("x^2 + y", "z", "3", "x^2 + y");
	check_subst("f(x, x*y)", "x", "a + b", "f(a + b, (a + b)*y)");
	check_subst("x^-1", "x", "2*y", "1/(2*y)");
	check_subst("sum(i, 1, n, i*x)", "i", "5", "sum(i, 1, n, i*x)");
	check_subst("sum(i, 1, i, i)", "i", "5", "sum(i, 1, 5, i)");
	check_subst("sum(i, 1, n, i*k)", "k", "i + 1",
		"sum(i_1, 1, n, i_1*(i + 1))");
	check_subst("sum(i, 1, n, i*k) + k", "k", "2",
		"sum(i, 1, n, 2*i) + 2");
	/* maxplusv binds its counter in its costs (node and arc costs),
	 * not in its count nor in the numbers of its graph */
	check_subst("maxplusv(i, n, 2, i*a, 1, 1, 1, 2, 0, i)", "i", "5",
		"maxplusv(i, n, node(v1, i*a), node(v2, 1), arc(v1, v2, i))");
	check_subst("maxplusv(i, i, 1, i, 0)", "i", "5",
		"maxplusv(i, 5, node(v1, i))");
	check_subst("maxplusv(i, n, 2, i*a, 1, 1, 1, 2, 0, a)", "a", "3",
		"maxplusv(i, n, node(v1, 3*i), node(v2, 1), arc(v1, v2, 3))");
	check_subst("maxplusv(i, n, 1, i*a, 0)", "a", "i + 1",
		"maxplusv(i_1, n, node(v1, i_1*(i + 1)))");
	check_subst("maxplusv(i, n, 1, i*a, 0)", "n", "i",
		"maxplusv(i, i, node(v1, i*a))");
	e = P("maxplusv(i, n, 1, i, 0)");
	tap_ok(!segc_expr_has_sym(e, "i"),
		"the counter of maxplusv is not free in it");
	segc_expr_free(e);
	e = P("maxplusv(i, i + 1, 1, 2, 0)");
	tap_ok(segc_expr_has_sym(e, "i"), "a name in its count is free");
	segc_expr_free(e);
}

/* Free names in nodes with more of them than a node records, around
 * nodes that record theirs: the answers of a walk of the whole tree. */
static void test_many_free(void)
{
	segc_expr *e = P("a*b + c*d + e + sum(i, 1, n, i*x) + "
		"maxplusv(j, m, 1, j*y, 0) + f(g, sum(k, 1, k + h, k))");
	const char *free[] = { "a", "b", "c", "d", "e", "g", "h", "k", "m",
		"n", "x", "y" };
	const char *bound[] = { "i", "j", "f", "z" };
	size_t i;

	for (i = 0; i < sizeof free / sizeof *free; i++)
		tap_ok(segc_expr_has_sym(e, free[i]), "%s is free", free[i]);
	for (i = 0; i < sizeof bound / sizeof *bound; i++)
		tap_ok(!segc_expr_has_sym(e, bound[i]), "%s is not free",
			bound[i]);
	segc_expr_free(e);
	check_subst("a*b + c*d + sum(i, 1, n, i*x*y*z)", "x", "2",
		"a*b + c*d + sum(i, 1, n, 2*i*y*z)");
	check_subst("a*b + c*d + sum(i, 1, n, i*x*y*z)", "i", "2",
		"a*b + c*d + sum(i, 1, n, i*x*y*z)");
	check_subst("a*b + c*d + sum(i, 1, n, i*x*y*z)", "x", "i",
		"a*b + c*d + sum(i_1, 1, n, i_1*i*y*z)");
	check_subst("a + b + c + d + sum(i, 1, i, i*x)", "i", "2",
		"a + b + c + d + sum(i, 1, 2, i*x)");
}

/* Releasing a million nested nodes must not recurse. */
static void test_deep(void)
{
	size_t live = segc_expr_live_nodes();
	segc_expr *e = S("x"), *f;
	long i;

	for (i = 0; i < 1000000; i++)
		e = segc_expr_call("f", 1, &e);
	f = segc_expr_copy(e);
	tap_ok(segc_expr_cmp(e, f) == 0, "deep cmp");
	segc_expr_free(f);
	tap_ok(segc_expr_has_sym(e, "x"), "deep has_sym");
	tap_ok(segc_expr_size(e) == 1000001, "deep size");
	e = segc_expr_subst(e, "x", f = S("y"));
	segc_expr_free(f);
	tap_ok(segc_expr_size(e) == 1000001, "deep subst");
	segc_expr_free(e);
	e = S("x");
	for (i = 0; i < 1000000; i++)
		e = segc_expr_add2(S("y"), segc_expr_mul2(S("z"), e));
	tap_ok(segc_expr_live_nodes() > live + 1000000, "deep chain built");
	segc_expr_free(e);
	tap_ok(segc_expr_live_nodes() == live, "deep chain of adds freed (%zu live, %zu before)",
		segc_expr_live_nodes(), live);
}

/* The readable text of the graph atoms: each atom written by hand in
 * its positional arguments prints as the readable text written by hand
 * beside it, and both texts parse to the same node. */
static const struct { const char *atom, *text; } graph_texts[] = {
	/* start -> w(x), x = 1..N, cost c*x -> end, message m */
	{ "taskpath(3, 1, 3, 0, 2, 0, 0, 1, 2, 0, 1, 2, 0, N, 5, 0, c, 1, 1, 3,"
	  " 0, 2, 0, 0, 2, 1, 2, 0, 2, 0, 0, 2, 3, 0, 2, 0, m)",
	  "taskpath(v1, v3, node(v1, 0), node(v2, i, 1, N, c*i), node(v3, 0), "
	  "arc(v1, v2), arc(v2(i), v3, m))" },
	/* a chain w(x) -> w(x + 1) of cost m; a parameter named i */
	{ "taskpath(3, 1, 3, 0, 2, 0, 0, 1, 2, 0, 1, 2, 0, N, 5, 0, i, 1, 1, 3,"
	  " 0, 2, 0, 0, 3, 1, 2, 1, 2, 0, 1, 2, 0, 0, 2, 2, 1, 5, 1, 1, 0, 1, 2,"
	  " 2, 0, m, 2, 3, 0, 2, 0, 0)",
	  "taskpath(v1, v3, node(v1, 0), node(v2, j, 1, N, i*j), node(v3, 0), "
	  "arc(v1, v2(1)), arc(v2(j), v2(j + 1), m), arc(v2(j), v3))" },
	/* two indices, the second bounded by the first */
	{ "taskpath(3, 1, 3, 0, 2, 0, 0, 2, 2, 0, 1, 2, 0, P, 2, 0, 1, 2, 1, 1,"
	  " 2, 0, t, 0, 2, 0, 0, 2, 1, 2, 0, 2, 0, 0, 2, 3, 0, 8, 1, 1, 1, 2, 3,"
	  " 0, 1, 2)",
	  "taskpath(v1, v3, node(v1, 0), node(v2, i, 1, P, j, 1, i, t), "
	  "node(v3, 0), arc(v1, v2), arc(v2(i, j), v3, i*j + 1))" },
	{ "maxplusv(k, n, 2, k, 1, 2, 1, 2, 0, 0, 2, 1, 2, a)",
	  "maxplusv(k, n, node(v1, k), node(v2, 1), arc(v1, v2), "
	  "arc(v2(k - 2), v1, a))" },
};

/* Readable texts that do not parse. */
static const char *const bad_graph_texts[] = {
	"taskpath(v1, v3, node(v1, 0), node(v3, 0), arc(v1, v9))",
	"taskpath(v1, v3, node(v1, 0), node(v2, i, 1, N, sum(k, 1, i, k)), "
	"node(v3, 0), arc(v1, v2), arc(v2(i), v3))",
	"taskpath(v1, v3, node(v1, 0), node(v1, 1), arc(v1, v1))",
	"taskpath(v1, v3, node(v1, 0), node(v2, i, 1, N, 1), node(v3, 0), "
	"arc(v1, v2), arc(v2(i + 1), v3))",
	"maxplusv(i, n, node(v1, 1), arc(v1(i + 1), v1))",
	"maxplusv(i, n, node(v1, 1), arc(v1, v2))",
	"maxplusv(i, n, node(v1, 1), 3)",
};

/* The nodes of a longest path named by given ids, or v1, v2, ... when
 * one of them cannot name a node in the text. */
static void test_graph_ids(void)
{
	static const char *const good[] = { "start", "w", "end_2" };
	static const char *const bad[][3] = {
		{ "start", "if", "end" }, { "start", "max", "end" },
		{ "start", "w-1", "end" }, { "start", "start", "end" },
		{ "start", "v2", "end" } };
	segc_expr *a = P(graph_texts[0].atom), *b;
	char *s = segc_expr_to_string_nodes(a, good, 3);
	size_t k;

	tap_is(s, "taskpath(start, end_2, node(start, 0), node(w, i, 1, N, c*i), "
		"node(end_2, 0), arc(start, w), arc(w(i), end_2, m))",
		"the nodes named by their ids");
	b = P(s);
	tap_ok(a == b, "... read back to the same atom");
	free(s);
	segc_expr_free(b);
	for (k = 0; k < sizeof bad / sizeof *bad; k++) {
		s = segc_expr_to_string_nodes(a, bad[k], 3);
		tap_is(s, graph_texts[0].text, bad[k][1]);
		free(s);
	}
	s = segc_expr_to_string_nodes(a, good, 2);
	tap_is(s, graph_texts[0].text, "ids of another number of nodes");
	free(s);
	segc_expr_free(a);
}

/* The readable text of the graph atoms, both ways. */
static void test_graph_text(void)
{
	segc_ctx *ctx;
	size_t t;

	for (t = 0; t < sizeof graph_texts / sizeof *graph_texts; t++) {
		segc_expr *a = P(graph_texts[t].atom);
		segc_expr *b = P(graph_texts[t].text);
		char *s = a ? segc_expr_to_string(a) : NULL;

		tap_is(s ? s : "(no parse)", graph_texts[t].text,
			graph_texts[t].atom);
		tap_ok(a && a == b, "read back to the same atom: %.40s",
			graph_texts[t].text);
		free(s);
		segc_expr_free(a);
		segc_expr_free(b);
	}
	for (t = 0; t < sizeof bad_graph_texts / sizeof *bad_graph_texts;
	     t++) {
		segc_expr *e;

		ctx = segc_ctx_new();
		e = segc_expr_parse(ctx, bad_graph_texts[t], NULL);
		tap_ok(!e && segc_ctx_status(ctx) == SEGC_ERR_INPUT,
			"refused: %s", bad_graph_texts[t]);
		segc_expr_free(e);
		segc_ctx_free(ctx);
	}
}

/* A producer of deferred children for the tests: the children it makes
 * (references held here), and how often it made and released. */
struct fake_producer {
	segc_expr *kids[3];
	size_t n;
	int made, released;
};

static void fake_make(void *data, segc_expr **out)
{
	struct fake_producer *f = data;
	size_t i;

	for (i = 0; i < f->n; i++)
		out[i] = segc_expr_copy(f->kids[i]);
	f->made++;
}

static void fake_release(void *data)
{
	((struct fake_producer *)data)->released++;
}

/* A node of 'kind' whose children are f's, deferred to 'f'. */
static segc_expr *defer_kids(struct fake_producer *f, enum segc_expr_kind kind)
{
	struct segc_expr_deferred d;
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < f->n; i++)
		sum += segc_expr_hash_at(segc_expr_hash_share(
			segc_expr_hash(f->kids[i])), i);
	d.make = fake_make;
	d.release = fake_release;
	d.data = f;
	return segc_expr_store_defer(kind, f->n, segc_expr_hash_sum(kind,
		f->n, sum), f->n, (const segc_expr *const *)f->kids, &d);
}

/* Deferred children: one node, found again by the structure it stands
 * for, its children made once when read, released when it dies unread. */
static void test_deferred(void)
{
	struct fake_producer f = { { NULL }, 3, 0, 0 };
	size_t live = segc_expr_live_nodes();
	segc_expr *e, *g;
	mpq_t q;

	f.kids[0] = segc_expr_powi(S("dx"), 2);
	f.kids[1] = segc_expr_mul2(I(3), S("dy"));
	f.kids[2] = I(7);
	mpq_init(q);
	mpq_set_si(q, 7, 1);
	tap_ok(segc_expr_hash_num(q) == segc_expr_hash(f.kids[2]),
		"the hash of a number without its node");
	mpq_clear(q);

	/* read: made once, the same node as the sum made at once */
	e = defer_kids(&f, SEGC_ADD);
	tap_ok(e && e->deferred && f.made == 0, "a deferred sum is stored");
	tap_ok(segc_expr_nargs(e) == 3, "its size without its children");
	tap_ok(segc_expr_has_sym(e, "dy") && !segc_expr_has_sym(e, "dz") &&
		e->deferred, "its free names without its children");
	tap_ok(segc_args(e)[1] == f.kids[1] && f.made == 1 &&
		f.released == 1 && !e->deferred, "read: children made once");
	tap_ok(segc_expr_arg(e, 0) == f.kids[0] && f.made == 1,
		"read again: not made again");
	g = segc_expr_add(3, (segc_expr *[]){ segc_expr_copy(f.kids[0]),
		segc_expr_copy(f.kids[1]), segc_expr_copy(f.kids[2]) });
	tap_ok(g == e, "the sum made at once is the same node");
	segc_expr_free(g);
	segc_expr_free(e);

	/* not read: the sum made at once finds it and makes its children */
	f.made = f.released = 0;
	e = defer_kids(&f, SEGC_ADD);
	g = segc_expr_add(3, (segc_expr *[]){ segc_expr_copy(f.kids[0]),
		segc_expr_copy(f.kids[1]), segc_expr_copy(f.kids[2]) });
	tap_ok(e && g == e && f.made == 1 && f.released == 1,
		"a sum made later finds the deferred one");
	tap_ok(defer_kids(&f, SEGC_ADD) == NULL && f.made == 1,
		"no second node of the same structure is deferred");
	segc_expr_free(g);
	segc_expr_free(e);

	/* dies unread: released, never made */
	f.made = f.released = 0;
	e = defer_kids(&f, SEGC_MUL);
	tap_ok(e && segc_args(e)[2] == f.kids[2] && f.made == 1,
		"a deferred product");
	segc_expr_free(e);
	f.made = f.released = 0;
	e = defer_kids(&f, SEGC_ADD);
	segc_expr_free(e);
	tap_ok(f.made == 0 && f.released == 1, "dies unread: released only");
	tap_ok(defer_kids(&f, SEGC_POW) == NULL, "only sums and products");
	segc_expr_free(f.kids[0]);
	segc_expr_free(f.kids[1]);
	segc_expr_free(f.kids[2]);
	tap_ok(segc_expr_live_nodes() == live, "no node left (%zu, %zu before)",
		segc_expr_live_nodes(), live);
}

/* The store's cleanup releases a deferred node left unread. */
static void test_deferred_cleanup(void)
{
	struct fake_producer f = { { NULL }, 2, 0, 0 };

	f.kids[0] = S("cx");
	f.kids[1] = S("cy");
	tap_ok(defer_kids(&f, SEGC_ADD) != NULL, "a deferred sum left alive");
	segc_library_cleanup();
	tap_ok(f.made == 0 && f.released == 1 && segc_expr_live_nodes() == 0,
		"the cleanup releases it");
}

/* qsort's order of unsigned longs. */
static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* The 5 040 orders of a product, and of a sum, of seven names are as
 * many nodes with as many hashes: the hash of a sum or a product weighs
 * each child by its place, so that a document holding many orders of one
 * product does not put them all in one bucket of the store. */
static void test_orders_hash(void)
{
	static const char *names[7] = { "a", "b", "c", "d", "e", "f", "g" };
	unsigned long *h = malloc(5040 * sizeof(*h));
	int p[7], kind, n, i, j, dup = 0;

	for (kind = 0; kind < 2; kind++) {
		for (i = 0; i < 7; i++)
			p[i] = i;
		for (n = 0; n < 5040; n++) {
			segc_expr *v[7], *e;

			for (i = 0; i < 7; i++)
				v[i] = segc_expr_sym(names[p[i]]);
			e = kind ? segc_expr_add(7, v) : segc_expr_mul(7, v);
			h[n] = segc_expr_hash(e);
			segc_expr_free(e);
			/* the next permutation in lexicographic order */
			for (i = 5; i >= 0 && p[i] > p[i + 1]; i--)
				;
			if (i < 0)
				break;
			for (j = 6; p[j] < p[i]; j--)
				;
			{
				int t = p[i];

				p[i] = p[j];
				p[j] = t;
			}
			for (j = 6, i++; i < j; i++, j--) {
				int t = p[i];

				p[i] = p[j];
				p[j] = t;
			}
		}
		qsort(h, 5040, sizeof(*h), cmp_ulong);
		for (i = 1; i < 5040; i++)
			dup += h[i] == h[i - 1];
	}
	tap_ok(n == 5039 && dup == 0, "the 5040 orders of a product and of "
		"a sum of seven names have 5040 hashes each (%d equal)", dup);
	free(h);
}

int main(void)
{
	test_sharing();
	test_deferred();
	test_orders_hash();
	test_add_mul();
	test_pow_neg();
	test_accessors();
	test_order();
	test_subst();
	test_many_free();
	test_graph_text();
	test_graph_ids();
	test_deep();
	tap_ok(segc_expr_live_nodes() == 0, "no node leaked (%zu live)",
		segc_expr_live_nodes());
	test_deferred_cleanup();
	return tap_done();
}
