/* cmd_derive.c - the 'derive' command: the formula of a model, one line,
 * in the expression language (canonical or structural form); with --json
 * a document for scripts: every component, the free names of the total
 * with their declared domains, and the conditions of its pieces.  With
 * the options of cli_keep.h: lets kept as names, each defined on a line
 * "NAME = VALUE" after the formula; values kept as names; terms collected
 * by a name. */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/analysis.h>
#include <segc/eval.h>

#include "cli/cli.h"
#include "cli/cli_json.h"
#include "cli/cli_keep.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"

/* Options of 'derive' besides COMMON. */
typedef struct derive_opts {
	const char *component;
	const char *form;
	const char *asymptotic;
	int json;
	cli_keep keep;
} derive_opts;


/* The options of 'derive' besides COMMON (a cli_option_fn). */
static int derive_option(cli_common *c, int argc, char **argv, int *i,
	void *opts)
{
	derive_opts *o = opts;
	int r;

	if ((r = cli_keep_option(c, argc, argv, i, &o->keep)) != 0)
		return r;
	if (!strcmp(argv[*i], "--json")) {
		o->json = 1;
		(*i)++;
		return 1;
	}
	if ((r = cli_option_value(c, argc, argv, i, "component", 0,
			&o->component)) != 0)
		return r;
	if ((r = cli_option_value(c, argc, argv, i, "asymptotic", 0,
			&o->asymptotic)) != 0)
		return r;
	return cli_option_value(c, argc, argv, i, "form", 0, &o->form);
}

/* Checks the command line read; 0 or an exit code. */
static int check_args(segc_ctx *ctx, cli_common *c, void *opts)
{
	const derive_opts *o = opts;
	const cli_keep *k = &o->keep;
	int rewrite = k->lets || k->all || k->ncollect || k->resources ||
		k->where;

	if ((o->json || o->asymptotic) && rewrite)
		return cli_usage(c, "--lets, --keep-all, --collect, "
			"--collect-resources and --where take neither --json "
			"nor --asymptotic");
	if ((k->ncollect || k->resources) && strcmp(o->form, "structural")
	    && strcmp(o->form, "readable"))
		return cli_usage(c, "--collect and --collect-resources rewrite "
			"the structural form: add --form structural or --form "
			"readable");
	if (o->json && (o->component || o->asymptotic))
		return cli_usage(c, "--json prints every component; it takes "
			"neither --component nor --asymptotic");
	if (o->component && segc_component_parse(o->component) < 0)
		return cli_usage(c, "unknown component '%s' (total, comp, "
			"comm or io)", o->component);
	if (strcmp(o->form, "canonical") && strcmp(o->form, "structural")
	    && strcmp(o->form, "readable"))
		return cli_usage(c, "unknown form '%s' (canonical, readable or "
			"structural)", o->form);
	return cli_keep_bind(ctx, c, k);
}

/* The text of 'e', the nodes of a longest path named by the model's
 * node ids. */
static char *text_of(const segc_setting *s, const segc_expr *e)
{
	size_t n = segc_model_task_nodes(s->model), k;
	const char **ids = cli_xcalloc(n + 1, sizeof *ids);
	char *t;

	for (k = 0; k < n; k++)
		ids[k] = segc_model_task_node(s->model, k);
	t = segc_expr_to_string_nodes(e, ids, n);
	free(ids);
	return t;
}

/* The lines "NAME = VALUE" of the lets the 'nf' formulas 'f' keep, a let
 * after those it uses ("" when none); NULL with diagnostics. */
static char *kept_let_lines(segc_ctx *ctx, const segc_setting *s,
	segc_expr **f, size_t nf)
{
	const char **lets = NULL;
	segc_expr **values = NULL;
	size_t n = 0, i, len = 1;
	char *out = NULL, **t;
	int rc;

	rc = segc_setting_kept_lets(ctx, s, f, nf, &lets, &values, &n);
	for (i = 0; i < n && !rc; i++)
		rc = cli_writable(ctx, NULL, values[i]);
	t = cli_xcalloc(n + 1, sizeof *t);
	for (i = 0; i < n && !rc; i++) {
		t[i] = text_of(s, values[i]);
		len += strlen(lets[i]) + strlen(t[i]) + 4;
	}
	if (!rc) {
		out = cli_xmalloc(len);
		out[0] = '\0';
		for (i = 0; i < n; i++)
			sprintf(out + strlen(out), "%s = %s\n", lets[i], t[i]);
	}
	for (i = 0; i < n; i++) {
		free(t[i]);
		segc_expr_free(values[i]);
	}
	free(t);
	free(values);
	free(lets);
	return out;
}

/* The lines "NAME = VALUE" of the lets the formula 'e' and the
 * definitions of 'wl' keep, a let after those it uses, then the lines
 * "LHS = VALUE" of 'wl' ("" when none); NULL with diagnostics. */
static char *let_lines(segc_ctx *ctx, const segc_setting *s, segc_expr *e,
	const segc_where_list *wl)
{
	segc_expr **all = cli_xcalloc(wl->n + 1, sizeof *all);
	char *text, *out, *l, *r;
	size_t i;

	all[0] = e;
	for (i = 0; i < wl->n; i++)
		all[i + 1] = wl->rhs[i];
	text = kept_let_lines(ctx, s, all, wl->n + 1);
	free(all);
	for (i = 0; text && i < wl->n; i++) {
		l = segc_expr_to_string(wl->lhs[i]);
		r = text_of(s, wl->rhs[i]);
		out = cli_xmalloc(strlen(text) + strlen(l) + strlen(r) + 5);
		sprintf(out, "%s%s = %s\n", text, l, r);
		free(text);
		text = out;
		free(l);
		free(r);
	}
	return text;
}

/* The leading term of 'e' (taken) as the name of --asymptotic grows;
 * NULL after a diagnostic or a usage error (*rc set). */
static segc_expr *asymptotic(segc_ctx *ctx, cli_common *c,
	const derive_opts *o, const segc_setting *s, segc_expr *e, int *rc)
{
	segc_domains *d;
	segc_expr *t = NULL;

	if (e && (*rc = cli_free_name(ctx, c, s, o->asymptotic)) != 0) {
		segc_expr_free(e);
		return NULL;
	}
	d = e ? segc_setting_domains(ctx, s) : NULL;
	if (d)
		t = segc_asymptotic(ctx, d, e, o->asymptotic);
	segc_domains_free(d);
	segc_expr_free(e);
	return t;
}

/* A set of expressions seen (hash-consed, so compared by pointer), for a
 * walk that visits each node of a DAG once. */
typedef struct seen_set {
	const segc_expr **slot;
	size_t cap, n;
} seen_set;

/* Adds 'e' to 'set'; 0 when it was there already, else 1. */
static int seen_add(seen_set *set, const segc_expr *e)
{
	size_t i, k;

	if (2 * (set->n + 1) > set->cap) {
		seen_set big = { NULL, set->cap ? 2 * set->cap : 64, 0 };

		big.slot = cli_xcalloc(big.cap, sizeof *big.slot);
		for (k = 0; k < set->cap; k++)
			if (set->slot[k])
				seen_add(&big, set->slot[k]);
		free(set->slot);
		*set = big;
	}
	i = (size_t)(((uintptr_t)e >> 4) * 2654435761u) & (set->cap - 1);
	while (set->slot[i]) {
		if (set->slot[i] == e)
			return 0;
		i = (i + 1) & (set->cap - 1);
	}
	set->slot[i] = e;
	set->n++;
	return 1;
}

/* A growable list of expressions (borrowed). */
typedef struct expr_list {
	const segc_expr **at;
	size_t n, cap;
} expr_list;

/* Appends 'e' to 'l'. */
static void list_push(expr_list *l, const segc_expr *e)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->at = cli_xrealloc(l->at, l->cap * sizeof *l->at);
	}
	l->at[l->n++] = e;
}

/* Non-zero when 'e' is a call of the built-in if(c, a, b). */
static int is_if(const segc_expr *e)
{
	return segc_expr_kind(e) == SEGC_CALL && segc_expr_nargs(e) == 3
		&& !strcmp(segc_expr_name(e), "if");
}

/* The conditions of every if() in 'e', each node once, into 'out'
 * (unsorted, perhaps repeated). */
static void collect_conditions(const segc_expr *e, expr_list *out)
{
	seen_set seen = { NULL, 0, 0 };
	expr_list todo = { NULL, 0, 0 };
	size_t i;

	list_push(&todo, e);
	seen_add(&seen, e);
	while (todo.n) {
		const segc_expr *x = todo.at[--todo.n];

		if (is_if(x))
			list_push(out, segc_expr_arg(x, 0));
		if (segc_expr_kind(x) == SEGC_NUM || segc_expr_kind(x) == SEGC_SYM)
			continue;
		for (i = segc_expr_kind(x) == SEGC_POW ? 2 :
				segc_expr_kind(x) == SEGC_SUM ? 3 : segc_expr_nargs(x);
				i-- > 0;)
			if (seen_add(&seen, segc_expr_arg(x, i)))
				list_push(&todo, segc_expr_arg(x, i));
	}
	free(todo.at);
	free(seen.slot);
}

/* Orders expressions for qsort (segc_expr_cmp: no addresses). */
static int expr_order(const void *a, const void *b)
{
	return segc_expr_cmp(*(const segc_expr *const *)a,
		*(const segc_expr *const *)b);
}

/* The text of condition 'cond' (a new string): as printed, without the
 * parentheses that enclose a condition standing alone. */
static char *condition_text(const segc_expr *cond)
{
	char *t = segc_expr_to_string(cond);
	size_t len = strlen(t), i;
	int depth = 0;

	if (len < 2 || t[0] != '(' || t[len - 1] != ')')
		return t;
	for (i = 0; i < len - 1; i++) {
		depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
		if (depth == 0)
			return t;   /* the first '(' closes before the end */
	}
	memmove(t, t + 1, len - 2);
	t[len - 2] = '\0';
	return t;
}

/* Writes the distinct conditions of the if()s of 'canonical', in the
 * order of segc_expr_cmp, as an array of text. */
static void json_conditions(cli_json *j, const segc_expr *canonical)
{
	expr_list conds = { NULL, 0, 0 };
	size_t i;

	collect_conditions(canonical, &conds);
	if (conds.n)
		qsort(conds.at, conds.n, sizeof *conds.at, expr_order);
	cli_json_open(j, '[');
	for (i = 0; i < conds.n; i++) {
		char *t;

		if (i && conds.at[i] == conds.at[i - 1])
			continue;
		t = condition_text(conds.at[i]);
		cli_json_string(j, t);
		free(t);
	}
	cli_json_close(j, ']');
	free(conds.at);
}

/* Writes the bound 'q' as an exact number ("1/3"), or null. */
static void json_number(cli_json *j, mpq_srcptr q)
{
	char *t;

	if (!q) {
		cli_json_null(j);
		return;
	}
	t = mpq_get_str(NULL, 10, q);
	cli_json_string(j, t);
	free(t);
}

/* Writes the free names of 'total', each with its kind and the domain
 * 'd' gives it (min, max, integer; null where nothing is declared). */
static void json_names(cli_json *j, const segc_setting *s,
	const segc_domains *d, const segc_expr *total)
{
	const char **names = NULL;
	size_t n = segc_output_names(total, 0, &names), i;

	cli_json_open(j, '[');
	for (i = 0; i < n; i++) {
		mpq_srcptr lo = NULL, hi = NULL;
		int integer = 0;
		int known = d && segc_domains_get(d, names[i], &lo, &hi,
			&integer);

		cli_json_open(j, '{');
		cli_json_key(j, "name");
		cli_json_string(j, names[i]);
		cli_json_key(j, "kind");
		cli_json_string(j, segc_setting_name_kind(s, names[i]));
		cli_json_key(j, "min");
		json_number(j, lo);
		cli_json_key(j, "max");
		json_number(j, hi);
		cli_json_key(j, "integer");
		if (known)
			cli_json_bool(j, integer);
		else
			cli_json_null(j);
		cli_json_close(j, '}');
	}
	cli_json_close(j, ']');
	free(names);
}

/* Writes the document of 'derive --json' from the components 'e' (in
 * the form asked for) and the canonical total 'canonical'. */
static void json_document(const derive_opts *o, const segc_setting *s,
	const segc_domains *d, segc_expr *const e[4],
	const segc_expr *canonical)
{
	cli_json j;
	int k;

	cli_json_init(&j);
	cli_json_open(&j, '{');
	cli_json_key(&j, "model");
	cli_json_string(&j, segc_model_name(s->model));
	cli_json_key(&j, "description");
	cli_json_string(&j, segc_model_description(s->model));
	cli_json_key(&j, "form");
	cli_json_string(&j, o->form);
	for (k = SEGC_TOTAL; k <= SEGC_IO; k++) {
		char *t = text_of(s, e[k]);

		cli_json_key(&j, segc_component_name((enum segc_component)k));
		cli_json_string(&j, t);
		free(t);
	}
	cli_json_key(&j, "names");
	json_names(&j, s, d, e[SEGC_TOTAL]);
	cli_json_key(&j, "conditions");
	json_conditions(&j, canonical);
	cli_json_close(&j, '}');
	cli_json_end(&j);
}

/* Releases the four components 'e'. */
static void free_components(segc_expr *e[4])
{
	int k;

	for (k = 0; k < 4; k++)
		segc_expr_free(e[k]);
}

/* The formula 'e' (taken; canonical when 'canonical') with its sums, the
 * atoms of overlapped loops and indexed nodes and the integer parts that
 * have every name bound replaced by their numbers (a structural form
 * only when it has no free name at all: segc_expr_value_atoms); NULL
 * with a limit error past max_eval_terms. */
static segc_expr *bound_values(segc_ctx *ctx, const segc_setting *s,
	segc_expr *e, int canonical)
{
	segc_domains *dom = NULL;
	segc_where at;

	if (!e)
		return NULL;
	memset(&at, 0, sizeof(at));
	at.file = segc_model_file(s->model);
	if (canonical && (dom = segc_setting_domains(ctx, s)) == NULL) {
		segc_expr_free(e);
		return NULL;
	}
	e = segc_expr_value_atoms(ctx, dom, e, &at);
	segc_domains_free(dom);
	return e;
}

/* Derives every component under 's' and prints the JSON document of
 * --json; the exit code. */
static int run_json(segc_ctx *ctx, cli_common *c, const derive_opts *o,
	const segc_setting *s)
{
	int structural = strcmp(o->form, "canonical") != 0;
	segc_expr *e[4] = { NULL }, *canon[4] = { NULL };
	segc_domains *d = NULL;
	int k, bad = 0, rc;

	bad = segc_derive_components(ctx, s, SEGC_DERIVE_CANONICAL,
		SEGC_COMPONENTS_ALL, canon) != 0;
	if (!bad && structural)
		bad = segc_derive_components(ctx, s, strcmp(o->form,
			"readable") ? 0 : SEGC_DERIVE_READABLE,
			SEGC_COMPONENTS_ALL, e) != 0;
	for (k = 0; !bad && k < 4; k++) {
		canon[k] = bound_values(ctx, s, canon[k], 1);
		if (structural)
			e[k] = bound_values(ctx, s, e[k], 0);
		bad = !canon[k] || (structural && !e[k]) ||
			cli_writable(ctx, c->file, structural ? e[k] : canon[k]);
	}
	if (!bad)
		d = segc_setting_domains(ctx, s);
	if (!bad && d)
		json_document(o, s, d, structural ? e : canon,
			canon[SEGC_TOTAL]);
	segc_domains_free(d);
	free_components(e);
	free_components(canon);
	if (bad || !d) {
		rc = cli_report(ctx);
		return rc ? rc : CLI_USAGE;
	}
	return cli_report(ctx);
}


/* Derives and prints the formula under 's'; the exit code. */
static int run_derive(segc_ctx *ctx, cli_common *c, void *opts,
	const segc_setting *s)
{
	const derive_opts *o = opts;
	enum segc_component comp = (enum segc_component)
		(o->component ? segc_component_parse(o->component) : SEGC_TOTAL);
	segc_expr *e;
	segc_where_list wl;
	char *text, *lets;
	int rc = 0;

	if ((rc = cli_keep_setting(ctx, c, &o->keep, s)) != 0)
		return rc;
	if (o->json)
		return run_json(ctx, c, o, s);
	if (!strcmp(o->form, "structural") && !o->asymptotic)
		e = bound_values(ctx, s, segc_derive_structural(ctx, s, comp),
			0);
	else if (!strcmp(o->form, "readable") && !o->asymptotic)
		e = bound_values(ctx, s, segc_derive_readable(ctx, s, comp), 0);
	else
		e = bound_values(ctx, s, segc_derive_canonical(ctx, s, comp),
			1);
	cli_keep_collect(ctx, c, &o->keep, s, !strcmp(o->form, "readable"),
		&e, 1);
	if (o->asymptotic)
		e = asymptotic(ctx, c, o, s, e, &rc);
	if (rc) {
		segc_expr_free(e);
		return rc;
	}
	if (!e || cli_writable(ctx, c->file, e)) {
		segc_expr_free(e);
		rc = cli_report(ctx);
		return rc ? rc : CLI_USAGE;
	}
	memset(&wl, 0, sizeof wl);
	if (o->keep.where && segc_setting_where(ctx, s, &e, 1, &wl)) {
		segc_expr_free(e);
		rc = cli_report(ctx);
		return rc ? rc : CLI_USAGE;
	}
	lets = let_lines(ctx, s, e, &wl);
	segc_where_list_clear(&wl);
	if (!lets) {
		segc_expr_free(e);
		rc = cli_report(ctx);
		return rc ? rc : CLI_USAGE;
	}
	text = text_of(s, e);
	cli_printf("%s\n%s", text, lets);
	free(text);
	free(lets);
	segc_expr_free(e);
	return cli_report(ctx);
}

/* Runs 'segc derive'. */
int cmd_derive(int argc, char **argv)
{
	static const cli_model_command cmd = { "derive", derive_option, NULL,
		check_args, run_derive };
	derive_opts o;

	memset(&o, 0, sizeof o);
	o.form = "canonical";
	return cli_model_command_run(&cmd, argc, argv, &o);
}
