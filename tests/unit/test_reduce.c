/* test_reduce.c - reduction of models to formulas: table tests of the
 * structural form, and randomized cross-checks of the methods:
 *   - the same program in block form and in arc form gives the same
 *     canonical formula;
 *   - on structured or-graphs, Markov visit counts equal the structural
 *     reduction;
 *   - on structured and-graphs, longest paths equal fork/join reduction;
 *   - a counter-dependent loop equals its unrolling for small bounds;
 *   - the components derived together from one lowering equal those
 *     derived one by one.
 * SEGC_TEST_ITER scales the number of random cases. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include <segc/segc.h>
#include <segc/segc_model.h>
#include "graph/graph.h"
#include "base/util.h"

static char tmpdir[] = "/tmp/segc-reduce-XXXXXX";
static unsigned long rng_state = 12345;

/* A small deterministic pseudo-random generator. */
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rng_state >> 33) % n);
}

/* Reads the model of XML text 'xml' (NULL on error, diagnostics kept). */
static segc_model *model_of(segc_ctx *ctx, const char *xml)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/m.xml", tmpdir);
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fputs(xml, f);
	fclose(f);
	return segc_model_read_file(ctx, path);
}

/* Prints the first diagnostic of 'ctx' as a TAP comment. */
static void show_diags(segc_ctx *ctx)
{
	size_t i;

	for (i = 0; i < segc_ctx_n_diags(ctx) && i < 3; i++)
		tap_diag("%s", segc_ctx_diag(ctx, i)->message);
}

/* The formula of 'xml' as text (structural or canonical), malloc'd. */
static char *derive_text(const char *xml, enum segc_component comp,
	unsigned flags, int canonical, const char *binding)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_model *m = model_of(ctx, xml);
	segc_bindings *b = segc_bindings_new();
	segc_setting s;
	segc_expr *e = NULL;
	char *t = NULL;

	if (binding)
		segc_bindings_add(ctx, b, binding);
	if (m) {
		s.model = m;
		s.machine = NULL;
		s.bindings = b;
		e = segc_derive_flags(ctx, &s, comp, flags, canonical);
	}
	if (e)
		t = segc_expr_to_string(e);
	else
		show_diags(ctx);
	segc_expr_free(e);
	segc_bindings_free(b);
	segc_model_free(m);
	segc_ctx_free(ctx);
	return t;
}

static const char *const head =
	"<model name=\"t\" version=\"1\">"
	"<param name=\"n\" min=\"0\"/><param name=\"m\" min=\"0\"/>"
	"<param name=\"p\" min=\"0\" max=\"1\"/><param name=\"K\" min=\"0\" "
	"integer=\"true\"/>"
	"<resource name=\"a\"/><resource name=\"b\"/><resource name=\"c\"/>"
	"<resource name=\"d\"/><resource name=\"e\"/><resource name=\"f\"/>";

/* Wraps graph text 'g' (and more graphs 'more') into a model. */
static char *model_text(const char *g, const char *more)
{
	segc_strbuf sb;

	segc_strbuf_init(&sb);
	segc_strbuf_append(&sb, head);
	segc_strbuf_appendf(&sb, "<graph name=\"main\">%s</graph>%s</model>",
		g, more ? more : "");
	return segc_strbuf_take(&sb);
}

/* One table case: graph text, component, structural formula wanted. */
typedef struct tcase {
	const char *graph;
	const char *more;
	enum segc_component comp;
	const char *want;
} tcase;

static const tcase table[] = {
	{ "<step cost=\"a\"/><step cost=\"b\"/>", NULL, SEGC_TOTAL, "a + b" },
	{ "<step cost=\"a\"/><loop count=\"n\"><step cost=\"b\"/>"
	  "<step cost=\"c\"/><branch><case prob=\"p\"><step cost=\"a\"/>"
	  "</case><case/></branch></loop>", NULL, SEGC_TOTAL,
	  "a + n*(b + c + p*a)" },
	{ "<loop count=\"n\"><loop count=\"m\"><step cost=\"a\"/></loop>"
	  "</loop>", NULL, SEGC_TOTAL, "n*m*a" },
	{ "<par><step cost=\"a\"/><seq><step cost=\"b\"/><step cost=\"c\"/>"
	  "</seq></par><step cost=\"d\"/>", NULL, SEGC_TOTAL,
	  "max(a, b + c) + d" },
	{ "<step cost=\"a\"/><step cost=\"b\" class=\"comm\"/>"
	  "<step cost=\"c\" class=\"io\"/>", NULL, SEGC_COMM, "b" },
	{ "<step cost=\"a\"/><step cost=\"b\" class=\"comm\"/>"
	  "<step cost=\"c\" class=\"io\"/>", NULL, SEGC_COMP, "a" },
	{ "<call graph=\"g\"/><call graph=\"g\"/>",
	  "<graph name=\"g\"><step cost=\"a\"/></graph>", SEGC_TOTAL,
	  "a + a" },
	{ "<loop var=\"i\" from=\"1\" to=\"K\"><step cost=\"i*a\"/></loop>",
	  NULL, SEGC_TOTAL, "sum(i, 1, K, i*a)" },
	{ "<step><use resource=\"a\" count=\"2\"/><use resource=\"b\"/>"
	  "</step>", NULL, SEGC_TOTAL, "2*a + b" },
	{ "<node id=\"x\" cost=\"a\"/><node id=\"y\" cost=\"b\"/>"
	  "<arc from=\"x\" to=\"y\" cost=\"c\"/>"
	  "<arc from=\"y\" to=\"x\" loop=\"n\"/>", NULL, SEGC_TOTAL,
	  "n*(a + c + b)" },
	{ "<node id=\"x\" cost=\"a\"/><arc from=\"x\" to=\"x\" loop=\"N\" "
	  "cost=\"b\"/>", NULL, SEGC_TOTAL, "N*a + (N - 1)*b" },
	/* a loop whose body is a retry cycle: a region for visit counts */
	{ "<node id=\"s\" cost=\"a\"/><node id=\"x\" cost=\"b\"/>"
	  "<node id=\"y\" cost=\"c\"/><node id=\"t\" cost=\"d\"/>"
	  "<arc from=\"s\" to=\"x\"/><arc from=\"x\" to=\"y\"/>"
	  "<arc from=\"y\" to=\"x\" prob=\"1/2\"/><arc from=\"y\" to=\"t\"/>"
	  "<arc from=\"t\" to=\"s\" loop=\"n\"/>", NULL, SEGC_TOTAL,
	  "n*(a + 2*(b + c) + d)" },
	/* a task graph that is not series-parallel inside a branch */
	{ "<node id=\"o\"/><node id=\"t0\" split=\"and\"/>"
	  "<node id=\"t1\" cost=\"a\" split=\"and\"/>"
	  "<node id=\"t2\" cost=\"b\" split=\"and\"/>"
	  "<node id=\"t3\" cost=\"c\" join=\"and\"/>"
	  "<node id=\"t4\" cost=\"d\" join=\"and\"/>"
	  "<node id=\"t5\" join=\"and\"/><node id=\"z\" cost=\"e\"/>"
	  "<node id=\"w\"/><arc from=\"o\" to=\"t0\" prob=\"p\"/>"
	  "<arc from=\"o\" to=\"z\"/><arc from=\"t0\" to=\"t1\"/>"
	  "<arc from=\"t0\" to=\"t2\"/><arc from=\"t1\" to=\"t3\"/>"
	  "<arc from=\"t1\" to=\"t4\"/><arc from=\"t2\" to=\"t3\"/>"
	  "<arc from=\"t2\" to=\"t4\"/><arc from=\"t3\" to=\"t5\"/>"
	  "<arc from=\"t4\" to=\"t5\"/><arc from=\"t5\" to=\"w\"/>"
	  "<arc from=\"z\" to=\"w\"/>", NULL, SEGC_TOTAL,
	  "p*max(max(a, b) + c, max(a, b) + d) + (1 - p)*e" },
	/* a Markov chain (a retry) inside one branch of a fork */
	{ "<node id=\"s\" split=\"and\"/><node id=\"x\" cost=\"a\"/>"
	  "<node id=\"y\" cost=\"b\"/><node id=\"z\" cost=\"c\"/>"
	  "<node id=\"j\" join=\"and\"/>"
	  "<arc from=\"s\" to=\"x\"/><arc from=\"x\" to=\"y\"/>"
	  "<arc from=\"y\" to=\"x\" prob=\"1/4\"/><arc from=\"y\" to=\"j\"/>"
	  "<arc from=\"s\" to=\"z\"/><arc from=\"z\" to=\"j\"/>", NULL,
	  SEGC_TOTAL, "max(4*(a + b)/3, c)" },
};

/* The components of every table model, in both forms, derived together
 * equal those derived one by one, all from one lowering (counted by the
 * context, the program kept with the model); a component left out of the
 * mask stays NULL. */
static void test_components(void)
{
	size_t i;
	int canonical, k, same = 1, once = 1, masked = 1;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		for (canonical = 0; canonical < 2; canonical++) {
			char *xml = model_text(table[i].graph, table[i].more);
			segc_ctx *ctx = segc_ctx_new();
			segc_model *m = model_of(ctx, xml);
			segc_setting s = { m, NULL, NULL };
			segc_expr *all[4], *some[4];
			unsigned long before;

			before = segc_ctx_lowerings(ctx);
			if (!m || segc_derive_components(ctx, &s, canonical ?
					SEGC_DERIVE_CANONICAL : 0,
					SEGC_COMPONENTS_ALL, all)) {
				show_diags(ctx);
				same = 0;
			} else {
				once &= segc_ctx_lowerings(ctx) == before + 1;
				for (k = 0; k < 4; k++) {
					segc_expr *one = canonical ?
						segc_derive_canonical(ctx, &s,
						(enum segc_component)k) :
						segc_derive_structural(ctx, &s,
						(enum segc_component)k);

					same &= one == all[k];
					segc_expr_free(one);
					segc_expr_free(all[k]);
				}
				once &= segc_ctx_lowerings(ctx) == before + 1;
			}
			if (m && !segc_derive_components(ctx, &s, 0,
					(1u << SEGC_COMM) | (1u << SEGC_IO),
					some)) {
				masked &= !some[0] && !some[1] && some[2]
					&& some[3];
				for (k = 0; k < 4; k++)
					segc_expr_free(some[k]);
			}
			segc_model_free(m);
			segc_ctx_free(ctx);
			free(xml);
		}
	tap_ok(same, "components derived together = one by one");
	tap_ok(once, "one lowering derives every component, together "
		"or one by one");
	tap_ok(masked, "only the components of the mask are derived");
}

/* A derivation that fails on a limit only the whole formula reaches gets
 * its error placed in the document from the lowered program it reduced:
 * no second lowering. */
static void test_located_once(void)
{
	char *xml = model_text("<loop count=\"n\"><step cost=\"(a + b + c)^6"
		"\"/><step cost=\"(d + e + f)^6\"/></loop>", NULL);
	segc_ctx *ctx = segc_ctx_new();
	segc_model *m = model_of(ctx, xml);
	segc_setting s = { m, NULL, NULL };
	segc_expr *e;
	size_t i, placed = 0;

	segc_ctx_limits(ctx)->max_work = 200;
	e = m ? segc_derive_canonical(ctx, &s, SEGC_TOTAL) : NULL;
	for (i = 0; i < segc_ctx_n_diags(ctx); i++)
		placed += segc_ctx_diag(ctx, i)->file != NULL;
	tap_ok(m && !e && segc_ctx_status(ctx) == SEGC_ERR_LIMIT
		&& placed == segc_ctx_n_diags(ctx) && placed > 0,
		"a limit of the whole formula is placed in the document");
	tap_ok(segc_ctx_lowerings(ctx) == 1, "placing it lowers nothing again");
	segc_expr_free(e);
	segc_model_free(m);
	segc_ctx_free(ctx);
	free(xml);
}

/* The table tests of the structural form. */
static void test_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(*table); i++) {
		char *xml = model_text(table[i].graph, table[i].more);
		char *got = derive_text(xml, table[i].comp, 0, 0, NULL);
		char name[64];

		snprintf(name, sizeof(name), "structural case %zu", i);
		tap_is(got, table[i].want, name);
		free(got);
		free(xml);
	}
}

/* ------------------------------------------------ random structured graphs */

enum { GEN_OR = 1, GEN_AND = 2, GEN_LOOP = 4 };

typedef struct gen {
	segc_strbuf blocks;   /* block form */
	segc_strbuf nodes;    /* arc form: nodes */
	segc_strbuf arcs;     /* arc form: arcs */
	unsigned id;
	unsigned what;
} gen;

static const char *const res[] = { "a", "b", "c", "d", "e", "f" };
static const char *const probs[][3] = {
	{ "1/4", "1/3", NULL }, { "p", NULL, NULL }, { "2/5", NULL, NULL },
};

/* A new node of the arc form; returns its number. */
static unsigned gen_node(gen *G, const char *cost, const char *attrs)
{
	unsigned v = G->id++;

	segc_strbuf_appendf(&G->nodes, "<node id=\"v%u\"%s%s%s %s/>", v,
		cost ? " cost=\"" : "", cost ? cost : "", cost ? "\"" : "",
		attrs);
	return v;
}

/* An arc of the arc form. */
static void gen_arc(gen *G, unsigned from, unsigned to, const char *extra)
{
	segc_strbuf_appendf(&G->arcs, "<arc from=\"v%u\" to=\"v%u\" %s/>",
		from, to, extra);
}

static void gen_block(gen *G, int depth, unsigned *entry, unsigned *exit);

/* A sequence of 1..3 blocks, both forms. */
static void gen_seq(gen *G, int depth, unsigned *entry, unsigned *exit)
{
	unsigned n = 1 + rnd(3), i, e, x;

	for (i = 0; i < n; i++) {
		gen_block(G, depth, &e, &x);
		if (i == 0)
			*entry = e;
		else
			gen_arc(G, *exit, e, "");
		*exit = x;
	}
}

/* A random block (both forms) at nesting 'depth'. */
static void gen_block(gen *G, int depth, unsigned *entry, unsigned *exit)
{
	unsigned kind = depth <= 0 ? 0 : rnd(5);

	if (kind == 1 && (G->what & GEN_OR)) {
		unsigned s = gen_node(G, NULL, ""), j = gen_node(G, NULL, "");
		unsigned pi = rnd(3), k, ncase = probs[pi][1] ? 3 : 2;

		segc_strbuf_append(&G->blocks, "<branch>");
		for (k = 0; k < ncase; k++) {
			unsigned e, x;
			const char *p = k < ncase - 1 ? probs[pi][k] : NULL;
			char attr[64];

			if (p)
				segc_strbuf_appendf(&G->blocks,
					"<case prob=\"%s\">", p);
			else
				segc_strbuf_append(&G->blocks, "<case>");
			gen_seq(G, depth - 1, &e, &x);
			segc_strbuf_append(&G->blocks, "</case>");
			snprintf(attr, sizeof(attr), p ? "prob=\"%s\"" : "%s",
				p ? p : "");
			gen_arc(G, s, e, attr);
			gen_arc(G, x, j, "");
		}
		segc_strbuf_append(&G->blocks, "</branch>");
		*entry = s;
		*exit = j;
	} else if (kind == 2 && (G->what & GEN_AND)) {
		unsigned s = gen_node(G, NULL, "split=\"and\"");
		unsigned j = gen_node(G, NULL, "join=\"and\"");
		unsigned k, n = 2 + rnd(2);

		segc_strbuf_append(&G->blocks, "<par>");
		for (k = 0; k < n; k++) {
			unsigned e, x;

			segc_strbuf_append(&G->blocks, "<seq>");
			gen_seq(G, depth - 1, &e, &x);
			segc_strbuf_append(&G->blocks, "</seq>");
			gen_arc(G, s, e, "");
			gen_arc(G, x, j, "");
		}
		segc_strbuf_append(&G->blocks, "</par>");
		*entry = s;
		*exit = j;
	} else if (kind == 3 && (G->what & GEN_LOOP)) {
		const char *n = rnd(2) ? "n" : "m";
		char attr[64];

		segc_strbuf_appendf(&G->blocks, "<loop count=\"%s\">", n);
		gen_seq(G, depth - 1, entry, exit);
		segc_strbuf_append(&G->blocks, "</loop>");
		snprintf(attr, sizeof(attr), "loop=\"%s\"", n);
		gen_arc(G, *exit, *entry, attr);
	} else if (kind == 4) {
		segc_strbuf_append(&G->blocks, "<seq>");
		gen_seq(G, depth - 1, entry, exit);
		segc_strbuf_append(&G->blocks, "</seq>");
	} else {
		char cost[32];

		snprintf(cost, sizeof(cost), "%u*%s", 1 + rnd(3), res[rnd(6)]);
		segc_strbuf_appendf(&G->blocks, "<step cost=\"%s\"/>", cost);
		*entry = *exit = gen_node(G, cost, "");
	}
}

/* Generates one random program in both forms: model texts '*blocks' and
 * '*arcs'. */
static void gen_program(unsigned what, int depth, char **blocks, char **arcs)
{
	gen G;
	unsigned e, x;
	segc_strbuf sb;

	memset(&G, 0, sizeof(G));
	G.what = what;
	segc_strbuf_init(&G.blocks);
	segc_strbuf_init(&G.nodes);
	segc_strbuf_init(&G.arcs);
	gen_seq(&G, depth, &e, &x);
	*blocks = model_text(segc_strbuf_str(&G.blocks), NULL);
	segc_strbuf_init(&sb);
	segc_strbuf_append(&sb, segc_strbuf_str(&G.nodes));
	segc_strbuf_append(&sb, segc_strbuf_str(&G.arcs));
	*arcs = model_text(segc_strbuf_str(&sb), NULL);
	segc_strbuf_free(&sb);
	segc_strbuf_free(&G.blocks);
	segc_strbuf_free(&G.nodes);
	segc_strbuf_free(&G.arcs);
}

/* The number of random cases (scaled by SEGC_TEST_ITER). */
static int iterations(int base)
{
	const char *s = getenv("SEGC_TEST_ITER");

	return s ? base * atoi(s) : base;
}

/* Block form and arc form of random programs: same canonical formula. */
static void test_forms(void)
{
	int i, n = iterations(40), bad = 0;

	for (i = 0; i < n; i++) {
		char *bx, *ax, *b, *a;

		gen_program(GEN_OR | GEN_AND | GEN_LOOP, 3, &bx, &ax);
		b = derive_text(bx, SEGC_TOTAL, 0, 1, NULL);
		a = derive_text(ax, SEGC_TOTAL, 0, 1, NULL);
		if (!b || !a || strcmp(a, b)) {
			if (!bad++) {
				tap_diag("blocks: %s", bx);
				tap_diag("arcs:   %s", ax);
				tap_diag("%s\n# vs %s", b ? b : "(null)",
					a ? a : "(null)");
			}
		}
		free(bx);
		free(ax);
		free(a);
		free(b);
	}
	tap_ok(bad == 0, "block form = arc form on %d random programs "
		"(%d differ)", n, bad);
}

/* General method forced vs structure, on programs of kind 'what'. */
static void test_general(unsigned what, const char *name)
{
	int i, n = iterations(40), bad = 0;

	for (i = 0; i < n; i++) {
		char *bx, *ax, *s, *g;

		gen_program(what, 3, &bx, &ax);
		s = derive_text(ax, SEGC_TOTAL, 0, 1, NULL);
		g = derive_text(ax, SEGC_TOTAL, SEGC_REDUCE_GENERAL_ONLY, 1,
			NULL);
		if (!s || !g || strcmp(s, g)) {
			if (!bad++) {
				tap_diag("model: %s", ax);
				tap_diag("structure: %s", s ? s : "(null)");
				tap_diag("general:   %s", g ? g : "(null)");
			}
		}
		free(bx);
		free(ax);
		free(s);
		free(g);
	}
	tap_ok(bad == 0, "%s on %d random programs (%d differ)", name, n,
		bad);
}

/* Appends body 'k' of the unrolling test with counter values 'i', 'j'
 * written out (the counter names when 'i' is 0). */
static void unroll_body(segc_strbuf *sb, size_t k, size_t i, size_t K)
{
	size_t j;

	if (k == 0 && i == 0)
		segc_strbuf_append(sb, "<step cost=\"i*a + i^2*b\"/>");
	else if (k == 0)
		segc_strbuf_appendf(sb, "<step cost=\"%zu*a + %zu^2*b\"/>",
			i, i);
	else if (k == 1 && i == 0)
		segc_strbuf_append(sb, "<loop var=\"j\" from=\"i\" "
			"to=\"K\"><step cost=\"i*j*a\"/></loop>");
	else if (k == 1)
		for (j = i; j <= K; j++)
			segc_strbuf_appendf(sb, "<step cost=\"%zu*%zu*a\"/>",
				i, j);
	else if (i == 0)
		segc_strbuf_append(sb, "<step cost=\"c\"/><loop count=\"i\">"
			"<step cost=\"a\"/></loop>");
	else
		segc_strbuf_appendf(sb, "<step cost=\"c\"/><loop count="
			"\"%zu\"><step cost=\"a\"/></loop>", i);
}

/* A counter-dependent loop equals its brute-force unrolling for
 * K = 0..4. */
static void test_unrolling(void)
{
	size_t k, K, i;

	for (k = 0; k < 3; k++)
		for (K = 0; K <= 4; K++) {
			segc_strbuf g, u;
			char bind[32], *x1, *x2, *d1, *d2;

			segc_strbuf_init(&g);
			segc_strbuf_init(&u);
			segc_strbuf_append(&g, "<loop var=\"i\" from=\"1\" "
				"to=\"K\">");
			unroll_body(&g, k, 0, K);
			segc_strbuf_append(&g, "</loop>");
			segc_strbuf_append(&u, "<step/>");
			for (i = 1; i <= K; i++)
				unroll_body(&u, k, i, K);
			x1 = model_text(segc_strbuf_str(&g), NULL);
			x2 = model_text(segc_strbuf_str(&u), NULL);
			snprintf(bind, sizeof(bind), "K=%zu", K);
			d1 = derive_text(x1, SEGC_TOTAL, 0, 1, bind);
			d2 = derive_text(x2, SEGC_TOTAL, 0, 1, bind);
			tap_ok(d1 && d2 && !strcmp(d1, d2), "counter loop %zu, "
				"K = %zu: sum = unrolled", k, K);
			if (!(d1 && d2 && !strcmp(d1, d2)))
				tap_diag("%s vs %s", d1 ? d1 : "(null)",
					d2 ? d2 : "(null)");
			free(x1);
			free(x2);
			free(d1);
			free(d2);
			segc_strbuf_free(&g);
			segc_strbuf_free(&u);
		}
}

/* Deep nesting and long sequences reduce without deep recursion. */
static void test_big(void)
{
	segc_strbuf g;
	char *x, *d;
	int i, n = 2000;

	segc_strbuf_init(&g);
	for (i = 0; i < n; i++)
		segc_strbuf_append(&g, "<loop count=\"n\"><step cost=\"a\"/>");
	for (i = 0; i < n; i++)
		segc_strbuf_append(&g, "</loop>");
	x = model_text(segc_strbuf_str(&g), NULL);
	d = derive_text(x, SEGC_TOTAL, 0, 0, NULL);
	tap_ok(d != NULL && !strncmp(d, "n*(a + n*(a + ", 14),
		"%d nested loops reduce", n);
	free(d);
	free(x);
	segc_strbuf_reset(&g);
	for (i = 0; i < 50000; i++)
		segc_strbuf_append(&g, "<step cost=\"a\"/>");
	x = model_text(segc_strbuf_str(&g), NULL);
	d = derive_text(x, SEGC_TOTAL, 0, 1, NULL);
	tap_is(d, "50000*a", "a sequence of 50000 steps");
	free(d);
	free(x);
	segc_strbuf_free(&g);
}

/* Errors: a mixture of and and or that is neither structured nor pure. */
static void test_errors(void)
{
	char *x = model_text("<node id=\"s\" split=\"and\"/>"
		"<node id=\"a\" cost=\"a\"/><node id=\"b\" cost=\"b\"/>"
		"<node id=\"j\"/>"
		"<arc from=\"s\" to=\"a\"/><arc from=\"s\" to=\"b\"/>"
		"<arc from=\"a\" to=\"j\"/><arc from=\"b\" to=\"j\"/>", NULL);
	char *d = derive_text(x, SEGC_TOTAL, 0, 0, NULL);

	tap_ok(d == NULL, "an and-split closed by an or-join is an error");
	free(d);
	free(x);
}

int main(void)
{
	char path[256];

	if (!mkdtemp(tmpdir))
		return 1;
	test_table();
	test_components();
	test_located_once();
	test_forms();
	test_general(GEN_OR | GEN_LOOP, "Markov visit counts = structure "
		"(or-graphs with loops)");
	test_general(GEN_AND, "longest path = fork/join (and-graphs)");
	test_unrolling();
	test_big();
	test_errors();
	snprintf(path, sizeof(path), "%s/m.xml", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	segc_library_cleanup();
	return tap_done();
}
