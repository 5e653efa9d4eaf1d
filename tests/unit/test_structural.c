/* test_structural.c - the light simplifier of structural formulas: tables
 * of expression in, simplified text out (each also checked to keep the
 * canonical form and to print back to itself); every bundled model
 * (the .xml files of xml/ and xml/examples/), every component: the canonical form of
 * the structural formula is the canonical form of the formula as reduced,
 * and the node segc_derive_canonical gives; deep and wide inputs without
 * recursion. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "gen_expr.h"
#include <segc/segc.h>
#include <segc/segc_model.h>
#include "graph/graph.h"
#include "algebra/structural/structural.h"
#include "algebra/eval/refute.h"
#include "base/util.h"

/* One table case: the input and the simplified text wanted. */
static const char *const table[][2] = {
	/* like terms, in the order of first occurrence */
	{ "a + a", "2*a" },
	{ "a + b + a", "2*a + b" },
	{ "2*N/P*t + 3*N/P*t", "5*N/P*t" },
	{ "N*t + t*N", "2*N*t" },
	{ "a - a", "0" },
	{ "a + b - a", "b" },
	{ "1 + a + 2 + a", "3 + 2*a" },
	{ "a + 1 + b + 2", "a + b + 3" },
	{ "x + (y + x)", "2*x + y" },
	{ "f(a) + f(a) + f(b)", "2*f(a) + f(b)" },
	{ "a/2 + a/2", "a" },
	{ "a/3 + b - a/2", "-a/6 + b" },
	/* products: equal bases merged, numbers multiplied */
	{ "N*N", "N^2" },
	{ "N/P*N", "N^2/P" },
	{ "2*N/P*N/P*N*t", "2*N^3/P^2*t" },
	{ "N*P/N", "P" },
	{ "2*a*3*b", "6*a*b" },
	{ "a^2*a^-2", "1" },
	{ "x^(1/2)*x^(1/2)", "(x^(1/2))^2" },
	{ "(a + b)*(a + b)", "(a + b)^2" },
	/* common factors, on the side where they stand in the first term */
	{ "a*t + b*t", "(a + b)*t" },
	{ "t*a + t*b", "t*(a + b)" },
	{ "10*N/P*t + 2*N^2/P*t + 2*P*t", "(10*N/P + 2*N^2/P + 2*P)*t" },
	{ "2*N^3/P^2*t + 2*(P - 1)*N^3/P^2*t", "2*N^3/P*t" },
	{ "a*t + b*t + 1", "a*t + b*t + 1" },
	{ "a*t + b*u", "a*t + b*u" },
	{ "N*a + N^2*b", "N*a + N^2*b" },
	{ "2*a*t + 4*b*t", "(2*a + 4*b)*t" },
	{ "-a*t - b*t", "(-a - b)*t" },
	{ "a*t + a*t*b", "a*t*(1 + b)" },
	{ "a*t*u + b*u*t", "(a + b)*t*u" },
	{ "2*t + 2*(c - 1)*t", "2*t*c" },
	/* structure kept: no expansion, no reordering */
	{ "n*(a + b)", "n*(a + b)" },
	{ "a + n*(b + c + p*a)", "a + n*(b + c + p*a)" },
	{ "N/P*(2*t + 2*t)", "4*N/P*t" },
	{ "max(a + a, b)", "max(2*a, b)" },
	{ "sum(i, 1, K, i*a + i*a)", "sum(i, 1, K, 2*i*a)" },
	{ "20*(2*x + 5*N/P*N*t/2)", "20*(2*x + 5*N^2/P*t/2)" },
	{ "P*t + (P - 1)*(c + t)", "P*t + (P - 1)*(c + t)" },
};

static segc_ctx *ctx;

/* Checks one table case: the text, the canonical form kept, the text
 * parses back to the same node. */
static void check_case(const char *in, const char *want)
{
	segc_expr *e = segc_expr_parse(ctx, in, NULL), *s, *c1, *c2, *back;
	char *got;

	if (!tap_ok(e != NULL, "parse %s", in))
		return;
	s = segc_structural_simplify(segc_expr_copy(e));
	got = segc_expr_to_string(s);
	tap_is(got, want, in);
	back = segc_expr_parse(ctx, got, NULL);
	tap_ok(back == s, "%s prints back to itself", got);
	c1 = segc_canonical(ctx, NULL, e);
	c2 = segc_canonical(ctx, NULL, segc_expr_copy(s));
	tap_ok(c1 == c2, "canonical(%s) == canonical(%s)%s", in, got,
		c1 ? "" : " (both rejected)");
	segc_expr_free(back);
	segc_expr_free(c1);
	segc_expr_free(c2);
	segc_expr_free(s);
	free(got);
}

/* Checks component 'comp' of model 'm' (file 'path'). */
static void check_component(const segc_model *m, const char *path,
	enum segc_component comp)
{
	segc_setting s = { m, NULL, NULL };
	const char *cn = segc_component_name(comp);
	segc_expr *raw = segc_derive_flags(ctx, &s, comp, 0, 0);
	segc_expr *st = segc_derive_structural(ctx, &s, comp);
	segc_expr *c_raw = segc_derive_flags(ctx, &s, comp, 0, 1);
	segc_expr *c = segc_derive_canonical(ctx, &s, comp);
	segc_domains *dom = segc_setting_domains(ctx, &s);
	segc_expr *c_st = st ? segc_canonical(ctx, dom,
		segc_expr_copy(st)) : NULL;
	segc_expr *again = segc_structural_simplify(segc_expr_copy(st));

	if (tap_ok(raw && st && c_raw && c && c_st, "%s %s derives", path,
	    cn)) {
		tap_ok(c_st == c_raw, "%s %s: canonical(structural) == "
			"canonical(reduced)", path, cn);
		tap_ok(c == c_raw, "%s %s: segc_derive_canonical is the same "
			"node", path, cn);
		tap_ok(again == st, "%s %s: simplifying again changes nothing",
			path, cn);
	}
	segc_expr_free(again);
	segc_expr_free(c_st);
	segc_domains_free(dom);
	segc_expr_free(c);
	segc_expr_free(c_raw);
	segc_expr_free(st);
	segc_expr_free(raw);
	segc_ctx_clear(ctx);
}

/* Compares directory entries by name (for a deterministic order). */
static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Checks every model *.xml in directory 'dir'. */
static void check_models(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL, path[4096];
	size_t n = 0, i, len;
	int c;

	if (!tap_ok(d != NULL, "open %s", dir))
		return;
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 4, ".xml"))
			continue;
		names = segc_xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = segc_xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		segc_model *m;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		m = segc_model_read_file(ctx, path);
		if (tap_ok(m != NULL, "read %s", path))
			for (c = 0; c < 4; c++)
				check_component(m, names[i],
					(enum segc_component)c);
		segc_model_free(m);
		segc_ctx_clear(ctx);
		free(names[i]);
	}
	free(names);
}

/* A product nested 'depth' deep: n*(a + n*(a + ... n*(a + b))), built
 * bottom-up; the simplifier must not recurse over it. */
static void check_deep(size_t depth)
{
	segc_expr *e = segc_expr_sym("b"), *s;
	size_t i;

	for (i = 0; i < depth; i++)
		e = segc_expr_mul2(segc_expr_sym("n"), segc_expr_add2(
			segc_expr_sym("a"), e));
	s = segc_structural_simplify(segc_expr_copy(e));
	tap_ok(s == e, "a nest %zu deep is left as it is", depth);
	segc_expr_free(s);
	segc_expr_free(e);
}

/* A sum of 'n' terms over six names: six merged terms. */
static void check_wide(size_t n)
{
	static const char *const names[] = { "a", "b", "c", "d", "e", "f" };
	segc_expr **v = segc_xmalloc(n * sizeof(*v)), *e;
	char *got;
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = segc_expr_sym(names[i % 6]);
	e = segc_structural_simplify(segc_expr_add(n, v));
	free(v);
	got = segc_expr_to_string(e);
	tap_is(got, "100000*a + 100000*b + 100000*c + 100000*d + "
		"100000*e + 100000*f", "a sum of 600000 terms");
	free(got);
	segc_expr_free(e);
}

/* Maxima and minima pruned on the domains x, y >= 0, N integer >= 1 (a
 * and b unconstrained): input, pruned text wanted. */
static const char *const prune_table[][2] = {
	/* nested ones flattened, dominated alternatives dropped */
	{ "max(x, max(x + y, 0))", "x + y" },
	{ "max(x, 0, y)", "max(x, y)" },
	{ "max(a, max(b, 0))", "max(a, b, 0)" },
	{ "min(x, min(x + y, 0))", "0" },
	{ "min(a, min(b, a + 1))", "min(a, b)" },
	/* undecided alternatives kept, in their order */
	{ "max(a, b)", "max(a, b)" },
	{ "max(x - y, y - x)", "max(x - y, y - x)" },
	/* the first of equal ones */
	{ "max(x + y, y + x, x)", "x + y" },
	/* inside other nodes, and a max in a min untouched */
	{ "N*max(N, 1) + f(max(0, x))", "N*N + f(x)" },
	{ "min(max(x, 0), a)", "min(x, a)" },
	{ "sum(i, 1, N, max(i, 0))", "sum(i, 1, N, max(i, 0))" },
};

/* Checks segc_structural_prune on 'prune_table': the text wanted, and
 * the canonical form unchanged. */
static void check_prune(void)
{
	segc_domains *d = segc_domains_new();
	mpq_t zero, one;
	size_t i;

	mpq_init(zero);
	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	segc_domains_set(d, "x", zero, NULL, 0);
	segc_domains_set(d, "y", zero, NULL, 0);
	segc_domains_set(d, "N", one, NULL, 1);
	for (i = 0; i < sizeof(prune_table) / sizeof(*prune_table); i++) {
		segc_expr *e = segc_expr_parse(ctx, prune_table[i][0], NULL);
		segc_expr *p = segc_structural_prune(ctx, d, segc_expr_copy(e));
		char *t = p ? segc_expr_to_string(p) : NULL;
		segc_expr *ce = segc_canonical(ctx, d, segc_expr_copy(e));
		segc_expr *cp = p ? segc_canonical(ctx, d, segc_expr_copy(p))
			: NULL;

		if (!tap_ok(t && !strcmp(t, prune_table[i][1]), "prune %s -> %s",
			prune_table[i][0], prune_table[i][1]))
			tap_diag("  got %s", t ? t : "(null)");
		tap_ok(ce && ce == cp, "prune %s keeps the canonical form",
			prune_table[i][0]);
		free(t);
		segc_expr_free(e);
		segc_expr_free(p);
		segc_expr_free(ce);
		segc_expr_free(cp);
	}
	tap_ok(segc_structural_prune(ctx, d, NULL) == NULL, "prune NULL");
	mpq_clear(zero);
	mpq_clear(one);
	segc_domains_free(d);
}

/* The walk of algebra/eval/refute.c on the domains x, y >= 0, N integer
 * >= 1, z in [0, 5], w in [1/2, 2/3] (no integer), a and b
 * unconstrained: 1 when a point of the domains is wanted where the
 * expression is negative (each found by hand), 0 where none exists or
 * the probe must leave it to the proof. */
static const struct {
	const char *e;
	int refuted;
} probe_table[] = {
	{ "x - y", 1 },              /* x = 0, y = 1 */
	{ "x + y", 0 },
	{ "N - 1", 0 },
	{ "N - 2", 1 },              /* N = 1 */
	{ "a - b", 1 },              /* a = 1, b = 2 */
	{ "1/300 - N^3/40000000", 1 },  /* N = 100: 1/300 - 1/40 */
	{ "z - 6", 1 },              /* z = 0 */
	{ "6 - z", 0 },              /* z <= 5 everywhere */
	{ "5 - z", 0 },
	{ "1/x", 0 },                /* x = 0 has no value, else > 0 */
	{ "1/(x - 3)", 1 },          /* x = 0: -1/3 */
	{ "ceil(N/2) - N/2", 0 },
	{ "floor(N/2) - N/2", 1 },   /* N = 1: -1/2 */
	{ "if(N >= 3, 1, -1)", 1 },  /* N = 1 */
	{ "mva_mem(2, x, y) - y", 0 },
	{ "w - 5", 0 },              /* no integer point: left to the proof */
	{ "sum(i, 1, N, i) - 100", 0 },  /* a sum: left to the proof */
	{ "max(x, y) - x - y - 1", 1 },  /* x = y = 0 */
};

/* Checks segc_structural_refuted on 'probe_table', and that on random
 * expressions it never refutes what the sign proof proves >= 0 (an
 * independent test of both: either one wrong shows here). */
static void check_probe(void)
{
	segc_domains *d = segc_domains_new();
	struct gen_rng rng = { 0x9e3779b97f4a7c15ULL };
	mpq_t zero, one, five, half, twothirds, v;
	size_t i, refuted = 0, proved = 0, bad = 0;

	mpq_init(zero);
	mpq_init(one);
	mpq_init(five);
	mpq_init(half);
	mpq_init(twothirds);
	mpq_init(v);
	mpq_set_ui(one, 1, 1);
	mpq_set_ui(five, 5, 1);
	mpq_set_ui(half, 1, 2);
	mpq_set_ui(twothirds, 2, 3);
	segc_domains_set(d, "x", zero, NULL, 0);
	segc_domains_set(d, "y", zero, NULL, 0);
	segc_domains_set(d, "N", one, NULL, 1);
	segc_domains_set(d, "z", zero, five, 1);
	segc_domains_set(d, "w", half, twothirds, 0);
	for (i = 0; i < sizeof(probe_table) / sizeof(*probe_table); i++) {
		segc_expr *e = segc_expr_parse(ctx, probe_table[i].e, NULL);

		tap_ok(e && segc_refute_by_walk(d, e) ==
			probe_table[i].refuted, "probe %s: %s", probe_table[i].e,
			probe_table[i].refuted ? "refuted" : "not refuted");
		segc_expr_free(e);
	}
	/* a, c >= 0 here; b and x_1 unconstrained */
	segc_domains_set(d, "a", zero, NULL, 0);
	segc_domains_set(d, "c", zero, NULL, 0);
	for (i = 0; i < 3000; i++) {
		int ok = 1, r;
		segc_expr *e = gen_expr(&rng, 3, 0, v, &ok);
		unsigned s = segc_proved_signs(ctx, d, e);

		r = segc_refute_by_walk(d, e);
		refuted += r != 0;
		proved += (s & (SEGC_PROVED_NONNEG | SEGC_PROVED_POS)) != 0;
		if (r && (s & (SEGC_PROVED_NONNEG | SEGC_PROVED_POS))) {
			char *t = segc_expr_to_string(e);

			tap_diag("  refuted but proved >= 0: %s", t);
			free(t);
			bad++;
		}
		segc_expr_free(e);
	}
	tap_ok(bad == 0 && refuted > 300 && proved > 100, "probe: %zu of "
		"3000 random expressions refuted, %zu proved >= 0, none both",
		refuted, proved);
	mpq_clear(zero);
	mpq_clear(one);
	mpq_clear(five);
	mpq_clear(half);
	mpq_clear(twothirds);
	mpq_clear(v);
	segc_domains_free(d);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	char dir[4096];
	size_t i;

	ctx = segc_ctx_new();
	for (i = 0; i < sizeof(table) / sizeof(*table); i++)
		check_case(table[i][0], table[i][1]);
	tap_ok(segc_structural_simplify(NULL) == NULL, "NULL gives NULL");
	check_prune();
	check_probe();
	check_deep(100000);
	check_wide(600000);
	snprintf(dir, sizeof(dir), "%s/xml", top ? top : ".");
	check_models(dir);
	snprintf(dir, sizeof(dir), "%s/xml/examples", top ? top : ".");
	check_models(dir);
	segc_ctx_free(ctx);
	segc_library_cleanup();
	return tap_done();
}
