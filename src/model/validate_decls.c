/* validate_decls.c - the semantic checks of declarations: functions
 * (arguments, recursion, also across a model and its machine), cycles
 * among lets, consts and graphs, the probabilities of one choice, and
 * whether a name given by a user is declared. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "model/validate_private.h"

/* ----------------------------------------------------------------- cycles */

/* A graph of 'n' vertices without edges. */
void digraph_init(digraph *g, size_t n)
{
	g->n = n;
	g->succ = segc_xcalloc(n + 1, sizeof *g->succ);
	g->nsucc = segc_xcalloc(n + 1, sizeof *g->nsucc);
	g->cap = segc_xcalloc(n + 1, sizeof *g->cap);
}

/* Adds the edge 'a' -> 'b'. */
void digraph_add(digraph *g, size_t a, size_t b)
{
	if (g->nsucc[a] == g->cap[a]) {
		g->cap[a] = g->cap[a] ? 2 * g->cap[a] : 4;
		g->succ[a] = segc_xrealloc(g->succ[a],
			segc_xmul_size(g->cap[a], sizeof **g->succ));
	}
	g->succ[a][g->nsucc[a]++] = b;
}

/* Releases 'g'. */
void digraph_clear(digraph *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->succ[i]);
	free(g->succ);
	free(g->nsucc);
	free(g->cap);
}

/* Finds a cycle of 'g' by depth-first search with an explicit stack.
 * Returns its length and sets '*cycle' (malloc'd vertices, first one
 * repeated at the end); 0 when 'g' is acyclic. */
static size_t find_cycle(const digraph *g, size_t **cycle)
{
	unsigned char *color = segc_xcalloc(g->n + 1, 1);
	size_t *stack = segc_xmalloc((g->n + 1) * sizeof *stack);
	size_t *edge = segc_xcalloc(g->n + 1, sizeof *edge);
	size_t s, depth, len = 0, k;

	*cycle = NULL;
	for (s = 0; s < g->n && !len; s++) {
		if (color[s])
			continue;
		depth = 0;
		stack[depth++] = s;
		color[s] = 1;
		while (depth && !len) {
			size_t v = stack[depth - 1];

			if (edge[v] == g->nsucc[v]) {
				color[v] = 2;
				depth--;
				continue;
			}
			k = g->succ[v][edge[v]++];
			if (color[k] == 0) {
				color[k] = 1;
				stack[depth++] = k;
			} else if (color[k] == 1) {
				size_t from = depth;

				while (stack[from - 1] != k)
					from--;
				len = depth - from + 2;
				*cycle = segc_xmalloc(len * sizeof **cycle);
				memcpy(*cycle, stack + from - 1,
					(len - 1) * sizeof **cycle);
				(*cycle)[len - 1] = k;
			}
		}
	}
	free(color);
	free(stack);
	free(edge);
	return len;
}

/* Reports a cycle of 'g' if there is one: "<'kind'> 'a' -> 'b' -> 'a'",
 * at the location of its first vertex ('locs'), names from 'name'. */
void report_cycle(checker *c, const digraph *g, const char *kind,
	const char *const *name, const segc_srcloc *const *locs,
	const char *problem)
{
	size_t *cycle, len = find_cycle(g, &cycle), i;
	segc_strbuf sb;

	if (!len)
		return;
	segc_strbuf_init(&sb);
	for (i = 0; i < len; i++)
		segc_strbuf_appendf(&sb, "%s'%s'", i ? " -> " : "",
			name[cycle[i]]);
	check_error(c, locs[cycle[0]], SEGC_ERR_INPUT, "%s: %s %s", kind,
		problem, segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
	free(cycle);
}

/* ------------------------------------------------------------- functions */

/* Checks the bodies of functions 'f' (the first 'base' signatures of 'c'
 * belong to other owners) and reports recursion among them. */
void check_functions(checker *c, size_t n, const segc_function *f,
	size_t base)
{
	digraph g;
	const char **nm = segc_xcalloc(n + 1, sizeof *nm);
	const segc_srcloc **locs = segc_xcalloc(n + 1, sizeof *locs);
	size_t i, j, saved = c->local.n;
	segc_strbuf what;

	digraph_init(&g, n);
	segc_strbuf_init(&what);
	for (i = 0; i < n; i++) {
		nm[i] = f[i].name ? f[i].name : "";
		locs[i] = &f[i].loc;
		for (j = 0; j < f[i].nargs; j++) {
			reserved_name(c, f[i].args[j], "function", "argument",
				&f[i].loc);
			names_add(&c->local, f[i].args[j], "arg", 0);
		}
		segc_strbuf_reset(&what);
		segc_strbuf_appendf(&what, "the body of <function> '%s'",
			nm[i]);
		c->ncalls = 0;
		c->calls = segc_xrealloc(c->calls, sizeof *c->calls);
		c->capcalls = 1;
		check_at(c, f[i].body, &f[i].loc, segc_strbuf_str(&what));
		for (j = 0; j < c->ncalls; j++)
			if (c->calls[j] >= base && c->calls[j] < base + n)
				digraph_add(&g, i, c->calls[j] - base);
		free(c->calls);
		c->calls = NULL;
		c->ncalls = c->capcalls = 0;
		names_pop_to(&c->local, saved);
	}
	report_cycle(c, &g, "<function>", nm, locs, "recursion is not "
		"allowed:");
	segc_strbuf_free(&what);
	digraph_clear(&g);
	free(nm);
	free(locs);
}

/* Adds to 'g' an edge from function 'from' to each function that 'e'
 * calls, resolved through 'c' as a derivation resolves them (the
 * machine's first).  Walks 'e' with an explicit stack. */
static void add_function_calls(digraph *g, const checker *c, size_t from,
	const segc_expr *e)
{
	const segc_expr **stack = segc_xmalloc(sizeof *stack);
	size_t n = 0, cap = 1, i;
	const fn_sig *f;

	stack[n++] = e;
	while (n) {
		e = stack[--n];
		if (segc_expr_kind(e) == SEGC_CALL &&
		    (f = find_fn(c, segc_expr_name(e))) != NULL)
			digraph_add(g, from, (size_t)(f - c->fns));
		if (n + segc_expr_nargs(e) > cap) {
			cap = 2 * (n + segc_expr_nargs(e));
			stack = segc_xrealloc(stack,
				segc_xmul_size(cap, sizeof *stack));
		}
		for (i = 0; i < segc_expr_nargs(e); i++)
			stack[n++] = segc_expr_arg(e, i);
	}
	free(stack);
}

/* Reports recursion through the functions of model 'm' and of its inline
 * machine together, whose signatures 'c' holds in that order; a cycle
 * among the functions of one of them alone is reported with them. */
void check_mixed_recursion(checker *c, const segc_model *m)
{
	const segc_machine *mach = m->machine;
	size_t n = m->nfunctions + mach->nfunctions, i, len, *cycle;
	const char **nm = segc_xcalloc(n + 1, sizeof *nm);
	const segc_srcloc **locs = segc_xcalloc(n + 1, sizeof *locs);
	const segc_function *f;
	int mixed = 0;
	digraph g;

	digraph_init(&g, n);
	for (i = 0; i < n && c->nfns == n; i++) {
		f = i < m->nfunctions ? &m->functions[i] :
			&mach->functions[i - m->nfunctions];
		nm[i] = f->name ? f->name : "";
		locs[i] = &f->loc;
		if (f->body)
			add_function_calls(&g, c, i, f->body);
	}
	len = c->nfns == n ? find_cycle(&g, &cycle) : 0;
	for (i = 0; i < len; i++)
		mixed |= cycle[i] < m->nfunctions ? 1 : 2;
	if (len)
		free(cycle);
	if (mixed == 3)
		report_cycle(c, &g, "<function>", nm, locs, "recursion is not "
			"allowed:");
	digraph_clear(&g);
	free(nm);
	free(locs);
}

/* Non-zero when expression 'e' (may be NULL) uses name 'name'. */
static int uses(const segc_expr *e, const char *name)
{
	return e && segc_expr_has_sym(e, name);
}

/* Compares two indices, for qsort(). */
static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Appends to '*out' ('*n' of them) the index of every binding of 'index'
 * ('same' chains bindings of one name) whose name occurs in 'e' as a
 * symbol, bound or not.  Walks 'e' as a tree: a parsed expression is as
 * large as its text. */
static void candidate_names(const segc_expr *e, const segc_symtab *index,
	const size_t *same, size_t **out, size_t *n, size_t *cap)
{
	const segc_expr **stack = segc_xmalloc(sizeof *stack);
	size_t ns = 0, caps = 1, i, j;

	stack[ns++] = e;
	while (ns) {
		e = stack[--ns];
		if (segc_expr_kind(e) == SEGC_SYM) {
			j = segc_symtab_get(index, segc_expr_name(e));
			for (; j != SEGC_SYMTAB_NONE; j = same[j]) {
				if (*n == *cap) {
					*cap = 2 * *cap + 4;
					*out = segc_xrealloc(*out,
						segc_xmul_size(*cap,
						sizeof **out));
				}
				(*out)[(*n)++] = j;
			}
		}
		if (ns + segc_expr_nargs(e) > caps) {
			caps = 2 * (ns + segc_expr_nargs(e));
			stack = segc_xrealloc(stack,
				segc_xmul_size(caps, sizeof *stack));
		}
		for (i = 0; i < segc_expr_nargs(e); i++)
			stack[ns++] = segc_expr_arg(e, i);
	}
	free(stack);
}

/* Reports a cycle among the 'n' bindings 'b' (lets or consts), each a
 * value that may name the others.  Binding i depends on binding j when
 * j's name occurs free in i's value; the candidates come from a table of
 * the names, then each is confirmed. */
void check_binding_cycles(checker *c, size_t n,
	const segc_binding *b, const char *kind)
{
	digraph g;
	const char **nm = segc_xcalloc(n + 1, sizeof *nm);
	const segc_srcloc **locs = segc_xcalloc(n + 1, sizeof *locs);
	size_t *same = segc_xmalloc((n + 1) * sizeof *same);
	size_t *cand = NULL, ncand, capcand = 0, i, k, last;
	segc_symtab index;

	segc_symtab_init(&index);
	for (i = n; i-- > 0;)
		if (b[i].name)
			same[i] = segc_symtab_put(&index, b[i].name, i);
	digraph_init(&g, n);
	for (i = 0; i < n; i++) {
		nm[i] = b[i].name ? b[i].name : "";
		locs[i] = &b[i].loc;
		ncand = 0;
		if (b[i].value)
			candidate_names(b[i].value, &index, same, &cand,
				&ncand, &capcand);
		if (ncand)
			qsort(cand, ncand, sizeof *cand, cmp_size);
		for (k = 0, last = SEGC_SYMTAB_NONE; k < ncand; k++) {
			if (cand[k] == last)
				continue;
			last = cand[k];
			if (uses(b[i].value, b[last].name))
				digraph_add(&g, i, last);
		}
	}
	report_cycle(c, &g, kind, nm, locs, "defined in terms of itself:");
	digraph_clear(&g);
	segc_symtab_clear(&index);
	free(cand);
	free(same);
	free(nm);
	free(locs);
}

/* ---------------------------------------------------------- probabilities */

/* Reports probability 'p' (a number) outside [0, 1]. */
static int check_unit_interval(segc_ctx *ctx, mpq_srcptr p,
	const segc_srcloc *loc, const char *what)
{
	segc_strbuf sb;

	if (mpq_sgn(p) >= 0 && mpq_cmp_ui(p, 1, 1) <= 0)
		return 0;
	segc_strbuf_init(&sb);
	segc_strbuf_append_mpq(&sb, p);
	segc_error(ctx, SEGC_ERR_INPUT, loc->file, loc->line, loc->col,
		"%s: probability %s is not in [0, 1]", what,
		segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
	return -1;
}

/* Checks a symbolic sum of probabilities: 'sum' - 1 must be zero in
 * canonical form. */
static int check_symbolic_sum(segc_ctx *ctx, segc_expr *sum,
	const segc_srcloc *loc, const char *what)
{
	segc_expr *diff = segc_canonical(ctx, NULL,
		segc_expr_sub2(sum, segc_expr_int(1)));
	char *text;
	int rc = 0;

	if (!diff)
		return -1;
	if (!segc_expr_is_zero(diff)) {
		text = segc_expr_to_string(diff);
		segc_error(ctx, SEGC_ERR_INPUT, loc->file, loc->line, loc->col,
			"%s: the probabilities do not sum to 1 (their sum "
			"minus 1 is %s)", what, text ? text : "?");
		free(text);
		rc = -1;
	}
	segc_expr_free(diff);
	return rc;
}

/* Checks the probabilities of one choice (see validate.h). */
int segc_check_probabilities(segc_ctx *ctx, size_t n,
	segc_expr *const *probs, const segc_srcloc *places,
	const segc_srcloc *loc, const char *what)
{
	size_t i, omitted = 0, symbolic = 0;
	segc_expr *sum = segc_expr_int(0);
	mpq_t q;
	int rc = 0;

	mpq_init(q);
	for (i = 0; i < n; i++) {
		if (!probs[i]) {
			omitted++;
			continue;
		}
		sum = segc_expr_add2(sum, segc_expr_copy(probs[i]));
		if (!segc_expr_is_num(probs[i])) {
			symbolic++;
			continue;
		}
		mpq_add(q, q, segc_expr_value(probs[i]));
		rc |= check_unit_interval(ctx, segc_expr_value(probs[i]),
			places ? &places[i] : loc, what);
	}
	if (omitted > 1) {
		segc_error(ctx, SEGC_ERR_INPUT, loc->file, loc->line, loc->col,
			"%s: %zu alternatives omit the probability; at most "
			"one may", what, omitted);
		rc = -1;
	} else if (!symbolic && !rc) {
		if (omitted && n == 1)
			mpq_set_ui(q, 1, 1);
		if (omitted ? mpq_cmp_ui(q, 1, 1) > 0 :
		    mpq_cmp_ui(q, 1, 1) != 0) {
			segc_strbuf sb;

			segc_strbuf_init(&sb);
			segc_strbuf_append_mpq(&sb, q);
			segc_error(ctx, SEGC_ERR_INPUT, loc->file, loc->line,
				loc->col, "%s: the probabilities sum to %s, "
				"%s 1", what, segc_strbuf_str(&sb), omitted ?
				"more than" : "not");
			segc_strbuf_free(&sb);
			rc = -1;
		}
	} else if (symbolic && !omitted && !rc) {
		rc = check_symbolic_sum(ctx, segc_expr_copy(sum), loc, what);
	}
	segc_expr_free(sum);
	mpq_clear(q);
	return rc;
}

/* ------------------------------------------------- names given by users */

/* Non-zero when 'name' is among the 'n' bindings 'b'; else offers each
 * to segc_name_nearer(). */
static int among_bindings(const char *name, size_t n, const segc_binding *b,
	size_t *d, const char **best)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(b[i].name, name))
			return 1;
		segc_name_nearer(name, b[i].name, d, best);
	}
	return 0;
}

/* Says whether 'name' is one a user may give a value (-D, a grid): N, P,
 * a parameter, resource or let of the model, a const or cost of the
 * machine (the explicit one, else the inline one).  When not, '*near' is
 * the nearest such name within a third of its length, or NULL. */
int segc_setting_declares(const segc_setting *s, const char *name,
	const char **near)
{
	const segc_model *m = s->model;
	const segc_machine *mach = segc_setting_machine(s);
	size_t d = segc_name_near_limit(name), i;

	*near = NULL;
	if (!strcmp(name, "N") || !strcmp(name, "P"))
		return 1;
	segc_name_nearer(name, "N", &d, near);
	segc_name_nearer(name, "P", &d, near);
	for (i = 0; m && i < m->nparams; i++) {
		if (!strcmp(m->params[i].name, name))
			return 1;
		segc_name_nearer(name, m->params[i].name, &d, near);
	}
	for (i = 0; m && i < m->nresources; i++) {
		if (!strcmp(m->resources[i].name, name))
			return 1;
		segc_name_nearer(name, m->resources[i].name, &d, near);
	}
	if (m && among_bindings(name, m->nlets, m->lets, &d, near))
		return 1;
	if (mach && (among_bindings(name, mach->nconsts, mach->consts, &d,
	    near) || among_bindings(name, mach->ncosts, mach->costs, &d, near)))
		return 1;
	if (*near && strlen(name) < 2)
		*near = NULL;
	return 0;
}
