/* bench_reduce.c - time and peak memory of reducing generated graphs to
 * formulas: a sequence, nested loops, random series-parallel programs, an
 * or-graph with probabilistic cycles, a task graph.  Models are built in
 * memory (the XML reader is not measured).  Each case runs in a child
 * process so that its peak RSS is its own.  Run by 'make bench'. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <segc/segc.h>
#include <segc/segc_model.h>
#include "model/model.h"
#include "graph/graph.h"
#include "base/util.h"

static unsigned long rng_state = 42;

/* A small deterministic pseudo-random generator. */
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rng_state >> 33) % n);
}

static const char *const res[] = { "a", "b", "c", "d", "e", "f" };

/* A new block of 'kind'. */
static segc_block *block(enum segc_block_kind kind)
{
	segc_block *b = segc_xcalloc(1, sizeof(*b));

	b->kind = kind;
	return b;
}

/* Appends child 'c' to 'b'. */
static void add_child(segc_block *b, segc_block *c)
{
	b->children = segc_xrealloc(b->children,
		(b->nchildren + 1) * sizeof(*b->children));
	b->children[b->nchildren++] = c;
}

/* A step costing a random resource. */
static segc_block *step(void)
{
	segc_block *b = block(SEGC_BLOCK_STEP);

	b->cost = segc_expr_sym(res[rnd(6)]);
	return b;
}

/* A model with parameters n and p, resources a..f, and one graph. */
static segc_model *model_new(void)
{
	segc_model *m = segc_xcalloc(1, sizeof(*m));
	size_t i;

	m->name = segc_xstrdup("bench");
	m->nparams = 2;
	m->params = segc_xcalloc(2, sizeof(segc_param));
	m->params[0].name = segc_xstrdup("n");
	m->params[0].min = segc_expr_int(0);
	m->params[1].name = segc_xstrdup("p");
	m->params[1].min = segc_expr_int(0);
	m->params[1].max = segc_expr_int(1);
	m->nresources = 6;
	m->resources = segc_xcalloc(6, sizeof(segc_resource));
	for (i = 0; i < 6; i++)
		m->resources[i].name = segc_xstrdup(res[i]);
	m->ngraphs = 1;
	m->graphs = segc_xcalloc(1, sizeof(segc_graph));
	m->graphs[0].name = segc_xstrdup("main");
	return m;
}

/* A sequence of 'n' steps. */
static segc_model *gen_sequence(size_t n)
{
	segc_model *m = model_new();
	segc_block *s = block(SEGC_BLOCK_SEQ);
	size_t i;

	s->children = segc_xcalloc(n, sizeof(*s->children));
	for (i = 0; i < n; i++)
		s->children[i] = step();
	s->nchildren = n;
	m->graphs[0].body = s;
	return m;
}

/* 'n' nested loops, a step in each. */
static segc_model *gen_nest(size_t n)
{
	segc_model *m = model_new();
	segc_block *top = block(SEGC_BLOCK_SEQ), *cur = top;
	size_t i;

	for (i = 0; i < n; i++) {
		segc_block *l = block(SEGC_BLOCK_LOOP);

		l->count = segc_expr_sym("n");
		add_child(cur, l);
		add_child(l, step());
		cur = l;
	}
	m->graphs[0].body = top;
	return m;
}

/* A random series-parallel block of about '*budget' steps. */
static segc_block *gen_sp(size_t *budget, int depth)
{
	unsigned k = (*budget <= 1 || depth > 40) ? 0 : rnd(4);
	segc_block *b;
	size_t i, n;

	if (k == 0) {
		if (*budget)
			(*budget)--;
		return step();
	}
	b = block(k == 1 ? SEGC_BLOCK_SEQ : k == 2 ? SEGC_BLOCK_PAR
		: SEGC_BLOCK_BRANCH);
	n = 2 + rnd(3);
	for (i = 0; i < n && *budget; i++) {
		segc_block *c = gen_sp(budget, depth + 1);

		if (k == 3) {
			segc_block *cs = block(SEGC_BLOCK_CASE);

			if (i + 1 < n)
				cs->prob = segc_expr_rat(1, (unsigned long)n);
			add_child(cs, c);
			c = cs;
		}
		add_child(b, c);
	}
	if (k == 3 && b->nchildren < n) {
		segc_block *cs = block(SEGC_BLOCK_CASE);
		size_t j;

		for (j = 0; j < b->nchildren; j++) {
			segc_expr_free(b->children[j]->prob);
			b->children[j]->prob = segc_expr_rat(1,
				(unsigned long)b->nchildren + 1);
		}
		add_child(b, cs);
	}
	return b;
}

/* A random series-parallel program of about 'n' steps. */
static segc_model *gen_series_parallel(size_t n)
{
	segc_model *m = model_new();
	segc_block *top = block(SEGC_BLOCK_SEQ);

	while (n)
		add_child(top, gen_sp(&n, 0));
	m->graphs[0].body = top;
	return m;
}

/* Sets node 'i' of arc-form graph 'g'. */
static void set_node(segc_graph *g, size_t i, int split_and, int join_and)
{
	char id[32];

	snprintf(id, sizeof(id), "v%zu", i);
	g->nodes[i].id = segc_xstrdup(id);
	g->nodes[i].cost = segc_expr_sym(res[rnd(6)]);
	g->nodes[i].split_and = split_and;
	g->nodes[i].join_and = join_and;
}

/* Adds arc 'from' -> 'to' to 'g' (probability 'prob', taken, may be
 * NULL). */
static void add_arc(segc_graph *g, size_t from, size_t to, segc_expr *prob,
	segc_expr *cost)
{
	segc_arc *a;

	g->arcs = segc_xrealloc(g->arcs, (g->narcs + 1) * sizeof(*a));
	a = &g->arcs[g->narcs++];
	memset(a, 0, sizeof(*a));
	a->from = segc_xstrdup(g->nodes[from].id);
	a->to = segc_xstrdup(g->nodes[to].id);
	a->from_index = from;
	a->to_index = to;
	a->prob = prob;
	a->cost = cost;
}

/* A chain of 'n' nodes where every third node goes back 1..3 nodes with
 * probability 1/4: an or-graph with probabilistic cycles. */
static segc_model *gen_markov(size_t n)
{
	segc_model *m = model_new();
	segc_graph *g = &m->graphs[0];
	size_t i;

	g->arc_form = 1;
	g->nnodes = n;
	g->nodes = segc_xcalloc(n, sizeof(segc_node));
	for (i = 0; i < n; i++)
		set_node(g, i, 0, 0);
	for (i = 0; i + 1 < n; i++) {
		if (i % 3 == 2) {
			add_arc(g, i, i - 1 - rnd(i > 2 ? 2 : 1),
				segc_expr_rat(1, 4), NULL);
			add_arc(g, i, i + 1, NULL, NULL);
		} else
			add_arc(g, i, i + 1, NULL, NULL);
	}
	return m;
}

/* A layered task graph of 'n' nodes, layers of 8, each node feeding two
 * nodes of the next layer, with message costs on the arcs. */
static segc_model *gen_taskgraph(size_t n)
{
	segc_model *m = model_new();
	segc_graph *g = &m->graphs[0];
	size_t w = 8, layers = (n - 2) / w, i, l, k;
	size_t total = layers * w + 2, exitv = total - 1;
	char *has_in = segc_xcalloc(total, 1);

	g->arc_form = 1;
	g->nnodes = total;
	g->nodes = segc_xcalloc(total, sizeof(segc_node));
	for (i = 0; i < total; i++)
		set_node(g, i, 1, 1);
	for (k = 0; k < w; k++)
		add_arc(g, 0, 1 + k, NULL, NULL);
	for (l = 0; l + 1 < layers; l++)
		for (k = 0; k < w; k++) {
			size_t u = 1 + l * w + k;
			size_t v1 = 1 + (l + 1) * w + k;
			size_t v2 = 1 + (l + 1) * w + (k + 1 + rnd(w - 1)) % w;

			add_arc(g, u, v1, NULL, NULL);
			add_arc(g, u, v2, NULL, segc_expr_sym("f"));
			has_in[v1] = has_in[v2] = 1;
		}
	for (k = 0; k < w; k++)
		add_arc(g, 1 + (layers - 1) * w + k, exitv, NULL, NULL);
	free(has_in);
	return m;
}

/* Processor seconds used by this process (not wall time, so that a busy
 * machine does not count against a case). */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runs one case in this process: prints its times. */
static void run_case(const char *name, size_t n, segc_model *m, int canonical)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_setting s = { m, NULL, NULL };
	double t0 = now(), t1, t2 = 0;
	segc_expr *e = segc_derive_structural(ctx, &s, SEGC_TOTAL);
	size_t size = e ? segc_expr_size(e) : 0;

	t1 = now();
	if (e && canonical) {
		segc_domains *dom = segc_setting_domains(ctx, &s);

		e = segc_canonical(ctx, dom, e);
		segc_domains_free(dom);
		t2 = now();
	}
	printf("%-18s %9zu  structural %8.3f s (%zu nodes)", name, n,
		t1 - t0, size);
	if (canonical)
		printf("  canonical %8.3f s, %.3g work%s", t2 - t1,
			(double)segc_ctx_work(ctx), e ? "" : " FAILED");
	if (!e && segc_ctx_n_diags(ctx))
		printf("  [%s]", segc_ctx_diag(ctx, 0)->message);
	fflush(stdout);
	segc_expr_free(e);
	segc_model_free(m);
	segc_ctx_free(ctx);
}

/* Runs one case in a child process and adds its peak RSS. */
static void measure(const char *name, size_t n, segc_model *(*gen)(size_t),
	int canonical)
{
	pid_t pid;
	struct rusage ru;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(120);
		run_case(name, n, gen(n), canonical);
		_exit(0);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return;
	if (WIFSIGNALED(status))
		printf("%-18s %9zu  killed by signal %d (time limit 120 s)",
			name, n, WTERMSIG(status));
	printf("  peak RSS %6.1f MB\n", ru.ru_maxrss / 1024.0);
}

/* The generator of case 'name', or NULL. */
static segc_model *(*generator(const char *name))(size_t)
{
	static const struct {
		const char *name;
		segc_model *(*gen)(size_t);
	} cases[] = {
		{ "sequence", gen_sequence }, { "nest", gen_nest },
		{ "series-parallel", gen_series_parallel },
		{ "markov", gen_markov }, { "taskgraph", gen_taskgraph },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		if (!strcmp(cases[i].name, name))
			return cases[i].gen;
	return NULL;
}

/* bench_reduce [--quick]: every case, each in a child process;
 * bench_reduce --case NAME N [canonical]: one case in this process (for
 * profilers). */
int main(int argc, char **argv)
{
	size_t n;
	int quick = argc > 1 && !strcmp(argv[1], "--quick");
	size_t top = quick ? 10000 : 1000000;

	if (argc > 3 && !strcmp(argv[1], "--case")) {
		segc_model *(*gen)(size_t) = generator(argv[2]);

		if (!gen)
			return 2;
		n = strtoul(argv[3], NULL, 10);
		run_case(argv[2], n, gen(n), argc > 4);
		printf("\n");
		return 0;
	}

	printf("case                   nodes  processor times (derive from a "
		"model in memory)\n");
	for (n = 1000; n <= top; n *= 10)
		measure("sequence", n, gen_sequence, 1);
	for (n = 1000; n <= (quick ? 1000 : 10000); n *= 10)
		measure("nested loops", n, gen_nest, n <= 1000);
	for (n = 1000; n <= top; n *= 10)
		measure("series-parallel", n, gen_series_parallel, n <= 10000);
	measure("markov cycles", 1000, gen_markov, 1);
	measure("task graph", quick ? 1000 : 10000, gen_taskgraph, 0);
	return 0;
}
