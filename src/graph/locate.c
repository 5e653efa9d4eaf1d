/* locate.c - the place in the document of an error found in a whole
 * formula.  The canonical form refuses some inputs only once it sees them
 * (a division by zero, an exponent that is not an integer constant, log2
 * of a negative number, mva_mem of a non-integer): by then the formula is
 * made of the expressions of many elements, and their places are gone.
 * Each expression of the lowered program is therefore brought to
 * canonical form on its own, in source order, before the program is
 * reduced, and the first one refused for bad input gives the error its
 * element (a sum over a symbolic range as far as its bounds and body,
 * algebra/refusal.h: its closed form is the derivation's work, and the
 * check would otherwise cost more than an evaluation); every form and every command so refuse the same documents,
 * even where the whole formula would lose the bad part (a body run 0
 * times).  The lowered program keeps the place of every expression (its
 * node, arc or forward edge), so the check needs no other pass.
 *
 * What the work cannot know is which element is at fault when only the
 * combination fails: a limit reached by the canonical form of the whole
 * formula, or of an entry of a Markov chain, has no single origin.  For
 * those segc_locate_errors() looks, in the same lowered program (it is
 * not lowered again), for the first expression that reaches such a limit
 * on its own, else names the graph.  Probabilities, loop counts and
 * counter bounds are checked against their ranges here too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "model/model.h"
#include "algebra/canon/refusal.h"
#include "base/util.h"

/* A set of expressions already tried (expressions are hash-consed, so the
 * same text in a thousand steps is one pointer, tried once). */
typedef struct seen_set {
	const segc_expr **slot;
	size_t cap, n;
} seen_set;

/* Adds 'e' to 's'; non-zero if it was there already. */
static int seen_add(seen_set *s, const segc_expr *e)
{
	size_t i, h;

	if (2 * (s->n + 1) > s->cap) {
		seen_set t;

		t.cap = s->cap ? 2 * s->cap : 64;
		t.n = 0;
		t.slot = segc_xcalloc(t.cap, sizeof(*t.slot));
		for (i = 0; i < s->cap; i++)
			if (s->slot[i])
				seen_add(&t, s->slot[i]);
		free(s->slot);
		*s = t;
	}
	h = (size_t)(((uintptr_t)e >> 4) * 2654435761u);
	for (i = h & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == e)
			return 1;
	s->slot[i] = e;
	s->n++;
	return 0;
}

/* Non-zero when 'e' is in 's'. */
static int seen_has(const seen_set *s, const segc_expr *e)
{
	size_t i, h;

	if (!s->cap)
		return 0;
	h = (size_t)(((uintptr_t)e >> 4) * 2654435761u);
	for (i = h & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == e)
			return 1;
	return 0;
}

typedef struct locator {
	segc_ctx *scratch;           /* one expression's diagnostics */
	const segc_domains *dom;
	seen_set seen;
	const segc_srcloc *found;    /* the first refused expression's place */
	segc_ctx *report_to;         /* non-NULL: report every refused one */
	enum segc_status want;       /* refused: as bad input, or a limit */
	unsigned long max_work;      /* for all the expressions (0: none) */
	unsigned long long spent;    /* units spent on them so far */
} locator;

/* The share of max_work that the check of all the expressions of a
 * program may spend: one sixteenth, so that the check adds at most that
 * to a derivation that runs into the limit. */
#define CHECK_WORK_SHARE 16

/* Non-zero when the canonical form of 'e' is refused as bad input (or,
 * when 'L' wants limits, reaches a limit other than its share of
 * max_work); its diagnostics are then left in the scratch context.  All
 * the expressions together get a share of max_work: past it the rest are
 * not tried (their errors are the derivation's to find and to place), so
 * that expensive expressions cannot make the check outlast the
 * derivation. */
static int refused(locator *L, segc_expr *e)
{
	const segc_limits *lim = segc_ctx_limits(L->scratch);
	segc_expr *c;
	int ok;

	if (L->max_work && L->spent >= L->max_work)
		return 0;
	segc_ctx_clear(L->scratch);
	if (L->max_work)
		segc_ctx_limits(L->scratch)->max_work =
			(unsigned long)(L->max_work - L->spent);
	if (L->want == SEGC_ERR_INPUT) {
		/* bad input: the parts of the sums, not their closed forms */
		ok = !segc_canonical_refused(L->scratch, L->dom, e);
	} else {
		c = segc_canonical(L->scratch, L->dom, segc_expr_copy(e));
		ok = c != NULL;
		segc_expr_free(c);
	}
	L->spent += segc_ctx_work(L->scratch);
	if (ok || segc_ctx_status(L->scratch) != L->want)
		return 0;
	return L->want != SEGC_ERR_LIMIT || !lim->max_work ||
		segc_ctx_work(L->scratch) <= lim->max_work;
}

static void report(segc_ctx *ctx, const locator *L, const segc_srcloc *loc,
	const char *what);

/* The map function of segc_lowered_map: tries expression 'e' (kept as it
 * is) until one is refused, or with L->report_to reports every one
 * refused (up to the limit of diagnostics). */
static segc_expr *try_expr(void *arg, segc_expr *e, const char *const *bound,
	size_t nbound, const segc_srcloc *loc)
{
	locator *L = arg;

	(void)bound;
	(void)nbound;
	if ((L->found && (!L->report_to || segc_ctx_full(L->report_to))) ||
	    !loc || !loc->file || seen_add(&L->seen, e))
		return e;
	if (!refused(L, e))
		return e;
	if (!L->found)
		L->found = loc;
	if (L->report_to)
		report(L->report_to, L, loc, NULL);
	return e;
}

/* Records the first diagnostic of the scratch context of 'L' in 'ctx' at
 * 'loc', after "WHAT: " when 'what' is not NULL. */
static void report(segc_ctx *ctx, const locator *L, const segc_srcloc *loc,
	const char *what)
{
	const segc_diag *d = segc_ctx_diag(L->scratch, 0);

	segc_error(ctx, L->want, loc->file, loc->line, loc->col,
		"%s%s%s", what ? what : "", what ? ": " : "",
		d ? d->message : "the expression is refused");
}

/* A locator whose scratch context has the limits of 'ctx'. */
static void locator_init(locator *L, segc_ctx *ctx, const segc_domains *dom)
{
	memset(L, 0, sizeof(*L));
	L->scratch = segc_ctx_new();
	*segc_ctx_limits(L->scratch) = *segc_ctx_limits(ctx);
	segc_ctx_limits(L->scratch)->max_memory = segc_ctx_memory(ctx);
	L->dom = dom;
	L->want = SEGC_ERR_INPUT;
	L->max_work = segc_ctx_limits(ctx)->max_work;
	if (L->max_work)
		L->max_work = L->max_work / CHECK_WORK_SHARE + 1;
}

/* Releases what 'L' holds. */
static void locator_clear(locator *L)
{
	segc_ctx_free(L->scratch);
	free(L->seen.slot);
}

/* Refuses lowered program 'lw' when one of its expressions is (see
 * graph.h). */
int segc_check_lowered(segc_ctx *ctx, segc_lowered *lw,
	const segc_domains *dom)
{
	locator L;
	int rc = 0;

	locator_init(&L, ctx, dom);
	L.report_to = ctx;
	segc_lowered_map(lw, try_expr, &L);
	if (L.found)
		rc = -1;
	locator_clear(&L);
	return rc;
}

/* Places the diagnostics of 'ctx' from 'from' on that name no file (see
 * graph.h): bad input at the first expression refused as bad input, a
 * limit at the first expression that reaches a limit on its own; else at
 * graph 'g', else in the model's file. */
void segc_locate_errors(segc_ctx *ctx, size_t from, const segc_setting *s,
	const segc_graph *g, segc_lowered *lw, const segc_domains *dom)
{
	enum segc_status status = segc_ctx_status(ctx);
	const segc_srcloc *at;
	locator L;
	size_t i;

	for (i = from; i < segc_ctx_n_diags(ctx); i++)
		if (!segc_ctx_diag(ctx, i)->file)
			break;
	if (i == segc_ctx_n_diags(ctx) || (status != SEGC_ERR_INPUT &&
	    status != SEGC_ERR_LIMIT))
		return;
	locator_init(&L, ctx, dom);
	L.want = status;
	segc_lowered_map(lw, try_expr, &L);
	at = L.found ? L.found : g ? &g->loc : NULL;
	if (at && at->file)
		segc_ctx_place_diags(ctx, from, at->file, at->line, at->col,
			NULL);
	else
		segc_ctx_place_diags(ctx, from, s->model ? s->model->file :
			NULL, 0, 0, NULL);
	locator_clear(&L);
}

/* Non-zero when probability 'p' of an arc is 0 under 'dom': the arc is
 * never taken.  'zero' and 'nonzero' remember the expressions decided;
 * one that has no canonical form counts as not 0 (its error is found
 * elsewhere). */
static int never_taken(locator *L, seen_set *zero, seen_set *nonzero,
	segc_expr *p)
{
	segc_expr *c;
	int is_zero;

	if (segc_expr_is_num(p))
		return segc_expr_is_zero(p);
	if (seen_has(zero, p))
		return 1;
	if (seen_has(nonzero, p))
		return 0;
	segc_ctx_clear(L->scratch);
	c = segc_canonical(L->scratch, L->dom, segc_expr_copy(p));
	is_zero = c && segc_expr_is_zero(c);
	segc_expr_free(c);
	seen_add(is_zero ? zero : nonzero, p);
	return is_zero;
}

/* Reports node 'v' of lowered graph 'g', which cannot reach the exit;
 * 'why' says why, or is "".  Returns -1. */
static int report_node(segc_ctx *ctx, const segc_lgraph *g, size_t v,
	const char *why)
{
	const segc_gnode *n = &g->nodes[v];
	const segc_srcloc *loc = n->loc ? n->loc : g->loc;
	const char *exit = g->nodes[g->exit].id;

	segc_error(ctx, SEGC_ERR_INPUT, loc ? loc->file : NULL,
		loc ? loc->line : 0, loc ? loc->col : 0, "<node>%s%s%s cannot "
		"reach the exit%s%s%s%s", n->id ? " '" : "", n->id ? n->id : "",
		n->id ? "'" : "", exit ? " '" : "", exit ? exit : "",
		exit ? "'" : "", why);
	return -1;
}

/* Reports the node that arc 'a' of 'g', never taken, leaves: the arc
 * leads towards the exit, but with probability 0.  Returns -1. */
static int report_stuck(segc_ctx *ctx, const segc_lgraph *g,
	const segc_garc *a)
{
	char why[96];

	if (a->loc)
		snprintf(why, sizeof(why), ": the <arc> at line %lu, which "
			"leads there, has probability 0", a->loc->line);
	else
		snprintf(why, sizeof(why), ": the arc that leads there has "
			"probability 0");
	return report_node(ctx, g, a->from, why);
}

/* Reports node 'v' of 'g', which cannot reach the exit.  Returns -1. */
static int report_stuck_node(segc_ctx *ctx, const segc_lgraph *g, size_t v)
{
	return report_node(ctx, g, v, "");
}

/* Reports the first node of lowered graph 'g' that cannot reach its exit
 * along arcs that may be taken (loop arcs, and arcs whose probability is
 * not 0): a cycle left with probability 0 (a self loop of probability 1)
 * has no finite expected time.  -1 when there is one, else 0. */
static int check_exit_reached(segc_ctx *ctx, locator *L, const segc_lgraph *g)
{
	size_t *first = segc_xcalloc(g->nnodes + 2, sizeof(*first));
	size_t *in = segc_xmalloc((g->narcs + 1) * sizeof(*in));
	size_t *queue = segc_xmalloc((g->nnodes + 1) * sizeof(*queue));
	unsigned char *seen = segc_xcalloc(g->nnodes + 1, 1);
	seen_set zero, nonzero;
	size_t i, v, head = 0, tail = 0;
	int rc = 0;

	memset(&zero, 0, sizeof(zero));
	memset(&nonzero, 0, sizeof(nonzero));
	for (i = 0; i < g->narcs; i++)
		first[g->arcs[i].to + 1]++;
	for (v = 0; v < g->nnodes; v++)
		first[v + 1] += first[v];
	for (i = 0; i < g->narcs; i++)
		in[first[g->arcs[i].to]++] = i;
	for (v = g->nnodes; v > 0; v--)
		first[v] = first[v - 1];
	first[0] = 0;
	seen[g->exit] = 1;
	queue[tail++] = g->exit;
	while (head < tail) {
		v = queue[head++];
		for (i = first[v]; i < first[v + 1]; i++) {
			const segc_garc *a = &g->arcs[in[i]];

			if (seen[a->from] || (!a->loop && a->prob &&
			    never_taken(L, &zero, &nonzero, a->prob)))
				continue;
			seen[a->from] = 1;
			queue[tail++] = a->from;
		}
	}
	for (i = 0, v = SEGC_NONE; i < g->narcs && v == SEGC_NONE; i++) {
		const segc_garc *a = &g->arcs[i];

		if (!seen[a->from] && seen[a->to] && !a->loop && a->prob &&
		    never_taken(L, &zero, &nonzero, a->prob))
			v = i;
	}
	if (v != SEGC_NONE)
		rc = report_stuck(ctx, g, &g->arcs[v]);
	for (v = 0; v < g->nnodes && !rc; v++)
		if (!seen[v])
			rc = report_stuck_node(ctx, g, v);
	free(zero.slot);
	free(nonzero.slot);
	free(first);
	free(in);
	free(queue);
	free(seen);
	return rc;
}

/* Refuses 'lw' (-1, a diagnostic at the node) when a node of one of its
 * graphs cannot reach the exit along loop arcs and arcs whose probability
 * is not 0 under 'dom': its expected time would be infinite. */
int segc_check_exits(segc_ctx *ctx, segc_lowered *lw, const segc_domains *dom)
{
	locator L;
	size_t gi;
	int rc = 0;

	locator_init(&L, ctx, dom);
	for (gi = 0; gi < lw->ngraphs && !rc; gi++)
		if (lw->graphs[gi].exit < lw->graphs[gi].nnodes)
			rc = check_exit_reached(ctx, &L, &lw->graphs[gi]);
	locator_clear(&L);
	return rc;
}

/* Checks the formulas of the expectations of 'm' under setting 's' with
 * 'L': -1 when one is refused as bad input (each such one reported). */
static int check_expects(segc_ctx *ctx, locator *L, const segc_setting *s,
	const segc_model *m)
{
	const segc_expect *x;
	segc_where w;
	segc_expr *e;
	size_t i;
	int rc = 0;

	for (i = 0; i < m->nexpects; i++) {
		x = &m->expects[i];
		if (!x->formula)
			continue;
		w.file = x->loc.file;
		w.line = x->loc.line;
		w.col = x->loc.col;
		w.what = "the formula of <expect>";
		segc_ctx_clear(L->scratch);
		e = segc_setting_apply(L->scratch, s, segc_expr_copy(x->formula),
			&w);
		if (!e)
			continue;   /* names are the validator's to report */
		if (refused(L, e)) {
			report(ctx, L, &x->loc, w.what);
			rc = -1;
		}
		segc_expr_free(e);
	}
	return rc;
}

/* Checks the expressions of model 'm' under its own setting (see
 * graph.h). */
int segc_check_model_expressions(segc_ctx *ctx, const segc_model *m)
{
	segc_setting s;
	const segc_graph *g = segc_model_main_graph(m);
	segc_lowered *lw;
	segc_domains *dom;
	locator L;
	int rc;

	s.model = m;
	s.machine = NULL;
	s.bindings = NULL;
	dom = NULL;
	lw = g ? segc_lower_checked(ctx, &s, g, &dom) : NULL;
	rc = g && !lw ? -1 : 0;
	segc_lowered_free(lw);
	if (!dom)
		dom = segc_setting_domains(ctx, &s);
	locator_init(&L, ctx, dom);
	if (check_expects(ctx, &L, &s, m))
		rc = -1;
	locator_clear(&L);
	segc_domains_free(dom);
	return rc;
}

/* Reports 'e' at 'loc' (-1) when the domains prove it negative, or, with
 * 'upper', greater than 1: "the WHAT E is negative on the declared
 * domains"; else 0. */
static int out_of_range(segc_ctx *ctx, const segc_domains *dom,
	segc_expr *e, int upper, const segc_srcloc *loc, const char *what)
{
	const char *why = NULL;
	segc_expr *above;
	char *t;

	if (segc_proved_signs(ctx, dom, e) & SEGC_PROVED_NEG) {
		why = "negative";
	} else if (upper) {
		above = segc_expr_sub2(segc_expr_copy(e), segc_expr_int(1));
		if (segc_proved_signs(ctx, dom, above) & SEGC_PROVED_POS)
			why = "greater than 1";
		segc_expr_free(above);
	}
	if (!why)
		return 0;
	t = segc_expr_quote(e);
	segc_error(ctx, SEGC_ERR_INPUT, loc->file, loc->line, loc->col,
		"the %s %s is %s on the declared domains", what, t ? t : "?",
		why);
	free(t);
	return -1;
}

/* Reports the count n of the back arc 'a' (-1) when the domains prove
 * it negative, or, when the back arc has a cost, unless they prove
 * n >= 1: that arc is taken n - 1 times (FORMAT.md, the arc form), and
 * n = 0 would make its time negative. */
static int loop_count_unproved(segc_ctx *ctx, const segc_domains *dom,
	const segc_garc *a)
{
	int costly = a->cost && !segc_expr_is_zero(a->cost);
	segc_expr *m = costly ? segc_expr_sub2(segc_expr_copy(a->loop),
		segc_expr_int(1)) : segc_expr_copy(a->loop);
	unsigned s = segc_proved_signs(ctx, dom, m);
	char *t;

	segc_expr_free(m);
	if (a->var && segc_expr_is_num(a->loop) &&
		mpz_cmp_ui(mpq_denref(segc_expr_value(a->loop)), 1)) {
		/* a counter takes the values 1 .. n: a mean count is refused
		 * rather than silently rounded down */
		t = segc_expr_quote(a->loop);
		segc_error(ctx, SEGC_ERR_INPUT, a->loc->file, a->loc->line,
			a->loc->col, "the loop count %s is not an integer, and "
			"the loop has a counter (var=\"%s\") that takes the "
			"values 1 .. n; without var it is a mean count",
			t ? t : "?", a->var);
		free(t);
		return -1;
	}
	if (costly ? (s & SEGC_PROVED_NONNEG) : !(s & SEGC_PROVED_NEG))
		return 0;
	t = segc_expr_quote(a->loop);
	segc_error(ctx, SEGC_ERR_INPUT, a->loc->file, a->loc->line,
		a->loc->col, costly ? "the loop count %s is not proved >= 1 on "
		"the declared domains, and its back arc has a cost: it is "
		"taken n - 1 times" : "the loop count %s is negative on the "
		"declared domains", t ? t : "?");
	free(t);
	return -1;
}

/* Refuses 'lw' when a probability or a loop count is out of its range
 * (see graph.h); an empty counter loop is no error: it runs 0 times. */
int segc_check_ranges(segc_ctx *ctx, segc_lowered *lw,
	const segc_domains *dom)
{
	seen_set probs, counts;
	size_t gi, i;
	int rc = 0;

	memset(&probs, 0, sizeof(probs));
	memset(&counts, 0, sizeof(counts));
	for (gi = 0; gi < lw->ngraphs && !segc_ctx_full(ctx); gi++) {
		const segc_lgraph *g = &lw->graphs[gi];

		for (i = 0; i < g->narcs && !segc_ctx_full(ctx); i++) {
			const segc_garc *a = &g->arcs[i];

			if (!a->loc)
				continue;
			if (a->loop && loop_count_unproved(ctx, dom, a))
				rc = -1;
			if (!a->loop && a->prob && !seen_add(&probs, a->prob) &&
			    out_of_range(ctx, dom, a->prob, 1, a->loc,
			    "probability"))
				rc = -1;
		}
	}
	free(probs.slot);
	free(counts.slot);
	return rc;
}
