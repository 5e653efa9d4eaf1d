/* test_cyclic.c - loops whose iterations overlap through forward edges
 * (cyclic.c), against a literal unrolling computed here: random task
 * graphs with forward edges (fixed seed) are written as models, derived,
 * and the formula (a closed form when the costs are numbers, the
 * recurrence atom when a cost is a symbol) is evaluated exactly for
 * n = 0 .. MAX_N; the unrolling builds the DAG of all n iterations and
 * finds its longest path by relaxing every edge until nothing changes.
 * SEGC_TEST_ITER scales the number of random cases. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include <segc/segc.h>
#include <segc/segc_model.h>
#include "base/util.h"

#define MAX_M 7
#define MAX_ARCS 40
#define MAX_N 30

static char tmpdir[] = "/tmp/segc-cyclic-XXXXXX";
static unsigned long rng_state = 20240611;

/* A small deterministic pseudo-random generator. */
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rng_state >> 33) % n);
}

/* One random region: nodes 0 .. m-1 (0 the entry, m-1 the exit), arcs
 * (dist 0 inside an iteration), costs in halves. */
typedef struct region {
	int m, k, overlap;
	int cost2[MAX_M];            /* twice the node costs */
	int from[MAX_ARCS], to[MAX_ARCS], dist[MAX_ARCS], acost2[MAX_ARCS];
	int back2;                   /* twice the back arc's cost */
} region;

/* Adds an arc to 'g'. */
static void add_arc(region *g, int from, int to, int dist, int cost2)
{
	g->from[g->k] = from;
	g->to[g->k] = to;
	g->dist[g->k] = dist;
	g->acost2[g->k] = cost2;
	g->k++;
}

/* A random cost (twice it), zero one time in four. */
static int rnd_cost2(void)
{
	return rnd(4) ? (int)rnd(12) : 0;
}

/* Draws a random region: every node after the entry has a predecessor
 * before it, every node before the exit a successor after it. */
static void random_region(region *g)
{
	int j, has_out[MAX_M] = { 0 }, nf = 1 + (int)rnd(3);

	memset(g, 0, sizeof(*g));
	g->m = 2 + (int)rnd(MAX_M - 1);
	g->overlap = rnd(4) != 0;
	g->back2 = g->overlap ? 0 : rnd_cost2();
	for (j = 0; j < g->m; j++)
		g->cost2[j] = rnd_cost2();
	for (j = 1; j < g->m; j++) {
		int p = (int)rnd((unsigned)j);

		add_arc(g, p, j, 0, rnd(3) ? 0 : rnd_cost2());
		has_out[p] = 1;
	}
	for (j = 0; j + 1 < g->m; j++)
		if (!has_out[j])
			add_arc(g, j, j + 1 + (int)rnd((unsigned)(g->m - j - 1)),
				0, 0);
	for (j = 0; j < nf; j++)
		add_arc(g, (int)rnd((unsigned)g->m), (int)rnd((unsigned)g->m),
			1 + (int)rnd(3), rnd_cost2());
}

/* Whether node 'v' of 'g' has several arcs of distance 0 out ('out')
 * or in. */
static int several(const region *g, int v, int out)
{
	int j, n = 0;

	for (j = 0; j < g->k; j++)
		n += !g->dist[j] && (out ? g->from[j] : g->to[j]) == v;
	return n > 1;
}

/* Appends "h/2" to 'sb'. */
static void half(segc_strbuf *sb, int h)
{
	segc_strbuf_appendf(sb, "%d/2", h);
}

/* The model of 'g'; the cost of node 'sym' (if >= 0) is the symbol x. */
static char *model_text(const region *g, int sym)
{
	segc_strbuf sb;
	int j;

	segc_strbuf_init(&sb);
	segc_strbuf_appendf(&sb, "<model name=\"c\" version=\"1\">"
		"<param name=\"n\" min=\"%d\" integer=\"true\"/>"
		"<param name=\"x\" min=\"0\"/><graph name=\"main\">",
		!g->overlap);
	for (j = 0; j < g->m; j++) {
		segc_strbuf_appendf(&sb, "<node id=\"v%d\" cost=\"", j);
		if (j == sym)
			segc_strbuf_append(&sb, "x");
		else
			half(&sb, g->cost2[j]);
		segc_strbuf_appendf(&sb, "\"%s%s/>",
			several(g, j, 1) ? " split=\"and\"" : "",
			several(g, j, 0) ? " join=\"and\"" : "");
	}
	for (j = 0; j < g->k; j++) {
		segc_strbuf_appendf(&sb, "<arc from=\"v%d\" to=\"v%d\"",
			g->from[j], g->to[j]);
		if (g->dist[j])
			segc_strbuf_appendf(&sb, " forward=\"%d\"", g->dist[j]);
		segc_strbuf_append(&sb, " cost=\"");
		half(&sb, g->acost2[j]);
		segc_strbuf_append(&sb, "\"/>");
	}
	segc_strbuf_appendf(&sb, "<arc from=\"v%d\" to=\"v0\" loop=\"n\"",
		g->m - 1);
	if (g->overlap)
		segc_strbuf_append(&sb, " overlap=\"true\"/>");
	else {
		segc_strbuf_append(&sb, " cost=\"");
		half(&sb, g->back2);
		segc_strbuf_append(&sb, "\"/>");
	}
	segc_strbuf_append(&sb, "</graph></model>");
	return segc_strbuf_take(&sb);
}

/* The literal unrolling: twice the finish time of the exit in iteration
 * n, by relaxing every edge of the DAG of n iterations until no finish
 * time grows (Bellman-Ford for longest paths, from time 0). */
static long unrolled2(const region *g, int n)
{
	long fin[(MAX_N + 1) * MAX_M];
	int i, j, v, changed = 1;

	if (n <= 0)
		return 0;
	for (i = 1; i <= n; i++)
		for (v = 0; v < g->m; v++)
			fin[i * MAX_M + v] = g->cost2[v];
	while (changed) {
		changed = 0;
		for (i = 1; i <= n; i++)
			for (j = 0; j <= g->k; j++) {
				int last = j == g->k, d, u, w;
				long c, t;

				if (last && g->overlap)
					continue;
				d = last ? 1 : g->dist[j];
				u = last ? g->m - 1 : g->from[j];
				w = last ? 0 : g->to[j];
				c = last ? g->back2 : g->acost2[j];
				if (i - d < 1)
					continue;
				t = fin[(i - d) * MAX_M + u] + c + g->cost2[w];
				if (t > fin[i * MAX_M + w]) {
					fin[i * MAX_M + w] = t;
					changed = 1;
				}
			}
	}
	return fin[n * MAX_M + g->m - 1];
}

/* The formula of model 'xml' (canonical), or NULL with diagnostics. */
static segc_expr *derive(const char *xml)
{
	segc_ctx *ctx = segc_ctx_new();
	char path[256];
	segc_model *m;
	segc_setting s;
	segc_expr *e = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/m.xml", tmpdir);
	f = fopen(path, "w");
	if (f) {
		fputs(xml, f);
		fclose(f);
	}
	m = f ? segc_model_read_file(ctx, path) : NULL;
	if (m) {
		s.model = m;
		s.machine = NULL;
		s.bindings = NULL;
		e = segc_derive_canonical(ctx, &s, SEGC_TOTAL);
	}
	if (!e && segc_ctx_n_diags(ctx))
		tap_diag("%s", segc_ctx_diag(ctx, 0)->message);
	segc_model_free(m);
	segc_ctx_free(ctx);
	return e;
}

/* Compares formula 'e' with the unrolling of 'g' for n = 0 .. MAX_N
 * (from 1 without overlap: a back arc with a cost needs n >= 1), x
 * the cost of node 'sym'; returns the first n where they differ, or -1. */
static int first_difference(const segc_expr *e, const region *g, int sym)
{
	static const char *const names[] = { "n", "x" };
	mpq_t val[2], r, want;
	int n, bad = -1;

	mpq_inits(val[0], val[1], r, want, (mpq_ptr)0);
	mpq_set_si(val[1], sym >= 0 ? g->cost2[sym] : 0, 2);
	mpq_canonicalize(val[1]);
	for (n = !g->overlap; n <= MAX_N && bad < 0; n++) {
		mpq_set_si(val[0], n, 1);
		mpq_set_si(want, unrolled2(g, n), 2);
		mpq_canonicalize(want);
		if (segc_expr_eval_q(r, e, 2, names, (const mpq_t *)val) ||
		    !mpq_equal(r, want))
			bad = n;
	}
	mpq_clears(val[0], val[1], r, want, (mpq_ptr)0);
	return bad;
}

/* One random case: numbers (a closed form or the atom) and a symbol (the
 * atom), each equal to the unrolling. */
static void random_case(int t)
{
	region g;
	int sym, pass;

	random_region(&g);
	for (pass = 0; pass < 2; pass++) {
		char *xml;
		segc_expr *e;
		int bad;

		sym = pass ? (int)rnd((unsigned)g.m) : -1;
		xml = model_text(&g, sym);
		e = derive(xml);
		bad = e ? first_difference(e, &g, sym) : -2;
		if (!tap_ok(bad == -1, "random case %d (%s): equals the "
				"unrolling for n = 0..%d", t, pass ? "symbolic"
				: "numeric", MAX_N)) {
			char *s = e ? segc_expr_to_string(e) : NULL;

			tap_diag("model: %s", xml);
			tap_diag("formula: %s; first difference at n = %d",
				s ? s : "(none)", bad);
			free(s);
		}
		segc_expr_free(e);
		free(xml);
	}
}

/* A forward edge without a cost in a loop without overlap changes
 * nothing: iteration i + 1 starts after iteration i has finished. */
static void no_overlap_no_change(void)
{
	static const char *const with =
		"<model name=\"c\" version=\"1\"><param name=\"n\" min=\"0\"/>"
		"<resource name=\"a\"/><resource name=\"b\"/><graph name=\"g\">"
		"<node id=\"p\" cost=\"a\"/><node id=\"q\" cost=\"b\"/>"
		"<arc from=\"p\" to=\"q\"/><arc from=\"q\" to=\"p\" "
		"forward=\"2\"/><arc from=\"q\" to=\"p\" loop=\"n\"/>"
		"</graph></model>";
	static const char *const without =
		"<model name=\"c\" version=\"1\"><param name=\"n\" min=\"0\"/>"
		"<resource name=\"a\"/><resource name=\"b\"/><graph name=\"g\">"
		"<node id=\"p\" cost=\"a\"/><node id=\"q\" cost=\"b\"/>"
		"<arc from=\"p\" to=\"q\"/><arc from=\"q\" to=\"p\" "
		"loop=\"n\"/></graph></model>";
	segc_expr *a = derive(with), *b = derive(without);

	tap_ok(a && a == b, "a forward edge without cost and without "
		"overlap changes nothing");
	segc_expr_free(a);
	segc_expr_free(b);
}

int main(void)
{
	const char *it = getenv("SEGC_TEST_ITER");
	int i, iters = 150;

	if (it && atoi(it) > 0)
		iters = atoi(it);
	if (!mkdtemp(tmpdir))
		return 1;
	no_overlap_no_change();
	for (i = 0; i < iters; i++)
		random_case(i);
	{
		char path[256];

		snprintf(path, sizeof(path), "%s/m.xml", tmpdir);
		unlink(path);
		rmdir(tmpdir);
	}
	segc_library_cleanup();
	return tap_done();
}
