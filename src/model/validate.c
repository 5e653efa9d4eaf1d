/* validate.c - what a document means, checked after the schema: every
 * name declared once and every name used declared (with a suggestion for
 * a near miss), calls with the right number of arguments, no recursion
 * among functions, lets or graphs, probabilities that sum to one, and
 * arc-form graphs with one entry and one exit that every node reaches.
 * Graph and block walks use explicit stacks; expressions are walked
 * recursively, their depth being bounded by the parser's max_depth.
 * This file holds the passes over a machine and a model; the checker,
 * its sets of names and its checks of expressions are in
 * validate_check.c, the checks of declarations in validate_decls.c,
 * those of graphs in validate_graph.c. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "model/latex_names.h"
#include "model/validate_private.h"
#include "base/symtab.h"
#include "base/util.h"

/* ---------------------------------------------------------------- machine */

/* Checks machine 'm' with a fresh checker; 0 when valid. */
int segc_validate_machine(segc_ctx *ctx, const segc_machine *m)
{
	return segc_validate_machine_located(ctx, m, NULL);
}

/* Checks machine 'm' with the texts of its expressions at hand. */
int segc_validate_machine_located(segc_ctx *ctx, const segc_machine *m,
	const segc_text_locator *locator)
{
	checker c;
	size_t i;
	int failed;

	if (!m)
		return -1;
	checker_init(&c, ctx);
	c.locator = locator;
	for (i = 0; i < m->nconsts; i++)
		declare(&c, m->consts[i].name, "const", &m->consts[i].loc);
	for (i = 0; i < m->nconsts; i++)
		check_attr(&c, m->consts[i].value, &m->consts[i].loc, "value",
			"const");
	for (i = 0; i < m->ncosts; i++)
		check_attr(&c, m->costs[i].value, &m->costs[i].loc, "value",
			"cost");
	check_binding_cycles(&c, m->nconsts, m->consts, "<const>");
	for (i = 0; i < m->ncosts; i++)
		declare(&c, m->costs[i].name, "cost", &m->costs[i].loc);
	if (names_find(&c.global, "N") < 0)
		names_add(&c.global, "N", "param", 0);
	if (names_find(&c.global, "P") < 0)
		names_add(&c.global, "P", "param", 0);
	declare_functions(&c, m->nfunctions, m->functions);
	check_functions(&c, m->nfunctions, m->functions, 0);
	failed = c.failed;
	checker_clear(&c);
	return failed ? -1 : 0;
}

/* ------------------------------------------------------------------ model */

/* Adds to 'g' an edge from graph 'gi' of 'm' to every graph it calls
 * ('index': graph name -> first graph).  Walks the blocks with an
 * explicit stack. */
static void add_calls(digraph *g, const segc_model *m,
	const segc_symtab *index, size_t gi)
{
	walk_frame *stack = NULL;
	size_t n = 0, cap = 0;

	frame_push(&stack, &n, &cap, m->graphs[gi].body);
	while (n) {
		walk_frame *f = &stack[n - 1];
		const segc_block *b;
		size_t to;

		if (f->next == f->block->nchildren) {
			n--;
			continue;
		}
		b = f->block->children[f->next++];
		if (b->kind == SEGC_BLOCK_CALL && b->graph) {
			to = segc_symtab_get(index, b->graph);
			if (to != SEGC_SYMTAB_NONE)
				digraph_add(g, gi, to);
		}
		if (b->nchildren)
			frame_push(&stack, &n, &cap, b);
	}
	free(stack);
}

/* Reports graphs of 'm' named twice and cycles of <call>s. */
static void check_graph_calls(checker *c, const segc_model *m)
{
	digraph g;
	const char **nm = segc_xcalloc(m->ngraphs + 1, sizeof *nm);
	const segc_srcloc **locs = segc_xcalloc(m->ngraphs + 1, sizeof *locs);
	segc_symtab index;
	size_t i, j;

	segc_symtab_init(&index);
	digraph_init(&g, m->ngraphs);
	for (i = 0; i < m->ngraphs; i++) {
		nm[i] = m->graphs[i].name;
		locs[i] = &m->graphs[i].loc;
		if (!nm[i])
			continue;
		j = segc_symtab_add(&index, nm[i], i);
		if (j != SEGC_SYMTAB_NONE)
			check_error(c, locs[i], SEGC_ERR_INPUT,
				"<graph> '%s': a graph of that name "
				"is already defined at line %lu",
				nm[i], locs[j]->line);
	}
	for (i = 0; i < m->ngraphs; i++)
		if (m->graphs[i].body)
			add_calls(&g, m, &index, i);
	report_cycle(c, &g, "<graph>", nm, locs, "graphs call each other in "
		"a cycle:");
	digraph_clear(&g);
	segc_symtab_clear(&index);
	free(nm);
	free(locs);
}

/* Declares the plain names of model 'm' in 'c': params, resources, lets,
 * and N and P unless declared. */
static void declare_model_names(checker *c, const segc_model *m)
{
	size_t i;

	for (i = 0; i < m->nparams; i++)
		declare(c, m->params[i].name, "param", &m->params[i].loc);
	for (i = 0; i < m->nresources; i++)
		declare(c, m->resources[i].name, "resource",
			&m->resources[i].loc);
	for (i = 0; i < m->nlets; i++)
		declare(c, m->lets[i].name, "let", &m->lets[i].loc);
	if (names_find(&c->global, "N") < 0)
		names_add(&c->global, "N", "param", 0);
	if (names_find(&c->global, "P") < 0)
		names_add(&c->global, "P", "param", 0);
}

/* Checks that the machine <expect> 'x' of 'm' names, if any, lies inside
 * the model's directory. */
static void check_expect_machine(checker *c, const segc_model *m,
	const segc_expect *x)
{
	char *path;

	if (!x->machine)
		return;
	path = segc_expect_machine_path(c->ctx, m, x);
	if (!path)
		c->failed = 1;
	free(path);
}

/* Checks let 'x': its value and bounds, min not above max, and a value
 * that is a number inside the domain the let declares. */
static void check_let(checker *c, const segc_binding *x)
{
	mpq_srcptr v;

	check_attr(c, x->value, &x->loc, "value", "let");
	check_attr(c, x->min, &x->loc, "min", "let");
	check_attr(c, x->max, &x->loc, "max", "let");
	if (x->min && x->max && segc_expr_is_num(x->min) &&
	    segc_expr_is_num(x->max) && mpq_cmp(segc_expr_value(x->min),
		    segc_expr_value(x->max)) > 0)
		check_error(c, &x->loc, SEGC_ERR_INPUT, "<let> '%s': min is "
			"greater than max", x->name);
	if (!x->value || !segc_expr_is_num(x->value))
		return;
	v = segc_expr_value(x->value);
	if ((x->min && segc_expr_is_num(x->min) &&
	     mpq_cmp(v, segc_expr_value(x->min)) < 0) ||
	    (x->max && segc_expr_is_num(x->max) &&
	     mpq_cmp(v, segc_expr_value(x->max)) > 0))
		check_error(c, &x->loc, SEGC_ERR_INPUT, "<let> '%s': its value "
			"lies outside [min, max]", x->name);
	if (x->integer && mpz_cmp_ui(mpq_denref(v), 1) != 0)
		check_error(c, &x->loc, SEGC_ERR_INPUT, "<let> '%s': its value "
			"is not an integer, but the let is declared integer",
			x->name);
}

/* Checks the expressions of the params, lets and expects of 'm'. */
static void check_model_values(checker *c, const segc_model *m)
{
	size_t i;

	for (i = 0; i < m->nparams; i++) {
		const segc_param *p = &m->params[i];

		check_attr(c, p->value, &p->loc, "value", "param");
		check_attr(c, p->min, &p->loc, "min", "param");
		check_attr(c, p->max, &p->loc, "max", "param");
		if (p->min && p->max && segc_expr_is_num(p->min) &&
		    segc_expr_is_num(p->max) &&
		    mpq_cmp(segc_expr_value(p->min),
			    segc_expr_value(p->max)) > 0)
			check_error(c, &p->loc, SEGC_ERR_INPUT, "<param> '%s': "
				"min is greater than max", p->name);
	}
	for (i = 0; i < m->nlets; i++)
		check_let(c, &m->lets[i]);
	check_binding_cycles(c, m->nlets, m->lets, "<let>");
	for (i = 0; i < m->nexpects; i++) {
		check_at(c, m->expects[i].formula, &m->expects[i].loc,
			"the formula of <expect>");
		check_expect_machine(c, m, &m->expects[i]);
	}
}

/* Checks model 'm' (see validate.h). */
int segc_validate_model(segc_ctx *ctx, segc_model *m)
{
	return segc_validate_model_located(ctx, m, NULL);
}

/* ------------------------------------------------------------ pruning */

/* A block that stands for one taken out: a step without a cost, at the
 * place of 'old'. */
static segc_block *empty_step(const segc_block *old)
{
	segc_block *b = segc_xcalloc(1, sizeof *b);

	b->kind = SEGC_BLOCK_STEP;
	b->loc = old->loc;
	return b;
}

/* Non-zero when 'b' is one of the 'n' blocks 'bad' (a branch: or one of
 * its cases), or a call of a graph whose flag in 'bad_graph' is set
 * ('graphs': name -> index). */
static int is_bad(const segc_block *b, const segc_block *const *bad,
	size_t n, const segc_symtab *graphs, const char *bad_graph)
{
	size_t i, j;

	if (b->kind == SEGC_BLOCK_BRANCH)
		for (j = 0; j < b->nchildren; j++)
			for (i = 0; b->children[j] && i < n; i++)
				if (bad[i] == b->children[j])
					return 1;
	if (b->kind == SEGC_BLOCK_CALL && b->graph) {
		i = segc_symtab_get(graphs, b->graph);
		if (i != SEGC_SYMTAB_NONE && bad_graph[i])
			return 1;
	}
	for (i = 0; i < n; i++)
		if (bad[i] == b)
			return 1;
	return 0;
}

/* Replaces, under 'body', every block in error and every call of a graph
 * in error by an empty step (a case in error: its whole branch, which
 * the checks of probabilities name).  Walks with an explicit stack. */
static void prune_blocks(segc_block *body, const segc_block *const *bad,
	size_t n, const segc_symtab *graphs, const char *bad_graph)
{
	segc_block **stack = segc_xmalloc(sizeof *stack);
	size_t top = 0, cap = 1, i;

	stack[top++] = body;
	while (top) {
		segc_block *b = stack[--top];

		for (i = 0; i < b->nchildren; i++) {
			segc_block *k = b->children[i];

			if (!k)
				continue;
			if (k->kind != SEGC_BLOCK_CASE &&
			    is_bad(k, bad, n, graphs, bad_graph)) {
				b->children[i] = empty_step(k);
				segc_block_free(k);
				continue;
			}
			if (top == cap) {
				cap *= 2;
				stack = segc_xrealloc(stack,
					segc_xmul_size(cap, sizeof *stack));
			}
			stack[top++] = k;
		}
	}
	free(stack);
}

/* Checks model 'm'; with 'prune', when every error lies in a block or an
 * arc-form graph other than the program, takes those out (see
 * segc_validate_model_pruned) and sets '*pruned'. */
static int validate_model(segc_ctx *ctx, segc_model *m,
	const segc_text_locator *locator, int prune, int *pruned)
{
	checker c;
	size_t i, graph_errors, other_errors, before;
	const segc_graph *main_graph;
	char *bad_graph;
	int failed;

	if (pruned)
		*pruned = 0;
	if (!m)
		return -1;
	bad_graph = segc_xcalloc(m->ngraphs + 1, 1);
	checker_init(&c, ctx);
	c.locator = locator;
	c.collect_bad = prune;
	before = ERRORS_SEEN(&c);
	for (i = 0; i < m->nresources; i++)
		if (m->resources[i].name)
			segc_symtab_add(&c.resources, m->resources[i].name, i);
	for (i = 0; i < m->ngraphs; i++) {
		if (m->graphs[i].name)
			segc_symtab_add(&c.graphs, m->graphs[i].name, i);
		if (!m->graphs[i].arc_form && m->graphs[i].body)
			collect_counters(&c, m->graphs[i].body);
	}
	declare_model_names(&c, m);
	declare_functions(&c, m->nfunctions, m->functions);
	if (m->machine)
		declare_functions(&c, m->machine->nfunctions,
			m->machine->functions);
	check_model_values(&c, m);
	check_functions(&c, m->nfunctions, m->functions, 0);
	if (m->machine)
		check_mixed_recursion(&c, m);
	other_errors = ERRORS_SEEN(&c) - before;
	for (i = 0; i < m->ngraphs && !segc_ctx_full(ctx); i++) {
		graph_errors = ERRORS_SEEN(&c);
		if (m->graphs[i].arc_form)
			check_arc_graph(&c, &m->graphs[i]);
		else if (m->graphs[i].body)
			check_blocks(&c, m, m->graphs[i].body);
		if (m->graphs[i].arc_form && ERRORS_SEEN(&c) > graph_errors)
			bad_graph[i] = 1;
	}
	graph_errors = ERRORS_SEEN(&c);
	check_graph_calls(&c, m);
	failed = c.failed;
	/* Pruned only when the errors lie in blocks and in arc-form graphs
	 * other than the program (the one every command derives). */
	main_graph = segc_model_main_graph(m);
	if (prune && failed && !other_errors &&
	    ERRORS_SEEN(&c) == graph_errors && !segc_ctx_full(ctx) &&
	    main_graph && !bad_graph[main_graph - m->graphs]) {
		for (i = 0; i < m->ngraphs; i++)
			if (!m->graphs[i].arc_form && m->graphs[i].body)
				prune_blocks(m->graphs[i].body, c.bad, c.nbad,
					&c.graphs, bad_graph);
		*pruned = 1;
	}
	free(bad_graph);
	checker_clear(&c);
	/* The 'latex' attributes, against the safe subset of LaTeX, so that
	 * validate refuses what latex would. */
	{
		segc_latex_names tex;

		if (segc_latex_names_of_model(ctx, m, &tex))
			failed = 1;
		segc_latex_names_clear(&tex);
	}
	if (m->machine && segc_validate_machine_located(ctx, m->machine,
		    locator)) {
		failed = 1;
		if (pruned)
			*pruned = 0;
	}
	return failed ? -1 : 0;
}

/* Checks model 'm' with the texts of its expressions at hand (see
 * validate.h). */
int segc_validate_model_located(segc_ctx *ctx, segc_model *m,
	const segc_text_locator *locator)
{
	return validate_model(ctx, m, locator, 0, NULL);
}

/* Checks model 'm' and takes out what failed, when that is safe (see
 * validate.h). */
int segc_validate_model_pruned(segc_ctx *ctx, segc_model *m,
	const segc_text_locator *locator, int *pruned)
{
	return validate_model(ctx, m, locator, 1, pruned);
}
