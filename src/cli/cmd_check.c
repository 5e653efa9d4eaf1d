/* cmd_check.c - the 'check' command: derives the formula of each <expect>
 * (or of --expect), brings both sides to canonical form under the same
 * setting and compares them exactly.
 *
 * The setting of an <expect>: its component (default total), the machine
 * its 'machine' attribute names (a file inside the model's directory,
 * named relative to it; a regular file, so that a document cannot make
 * segc wait on a pipe or read a device) or else the one of -m (or else the model's inline
 * machine), and the -D bindings.  An <expect> names its machine because
 * the hand derivation used it, so that machine wins over -m.  With
 * --component, only the expectations of that component are checked; with
 * --expect FORMULA, that one formula, for --component (default total)
 * under -m and -D.
 *
 * The verdicts (FORMAT.md section 7): "ok: COMPONENT (SOURCE)" when the
 * canonical forms are the same, proved equal (after the sums and atoms
 * of recurrences with every name bound are replaced by their numbers;
 * or when their second forms, the ifs that are extrema written as
 * extrema, are the same, or proved equal by cases on the conditions of
 * their ifs and extrema).  Otherwise both formulas
 * (the derived one in its structural form, so that the canonical form is
 * not trusted for the verdict) are evaluated exactly at sample points of
 * the declared domains (witness.c): "MISMATCH: COMPONENT (SOURCE)" at the
 * first point where they differ, or "UNPROVEN: COMPONENT (SOURCE)" when
 * they agree at every point tried.  Either is followed by the derived and
 * expected formulas and their difference (derived - expected), all
 * canonical; a mismatch then shows the witness point and both values
 * there, an unproven one the counts of the points.
 * Exit: 0 all hold, 1 one does not, 2 bad input, 3 a limit. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <segc/check.h>
#include <segc/eval.h>

#include "cli/cli.h"
#include "cli/cli_json.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"
#include "cli/json_commands.h"

/* Sample points tried for a witness. */
#define CHECK_POINTS 200

/* Options of 'check' besides COMMON. */
typedef struct check_opts {
	const char *component;   /* NULL: every expectation */
	const char *expect;      /* --expect FORMULA, or NULL */
	int json;                /* --json */
} check_opts;

/* One expectation to check. */
typedef struct check_item {
	enum segc_component comp;
	const segc_machine *machine;
	segc_expr *formula;      /* borrowed */
	const char *source;      /* may be NULL */
	segc_where where;
	cli_json *json;          /* --json: the document, or NULL */
} check_item;


/* The machine that <expect> 'x' of model 'm' names, read from 'path'; NULL
 * with a diagnostic.  The document named it, not the user: it must be a
 * regular file, so that a FIFO cannot hang the command nor a device be
 * read. */
static segc_machine *expect_machine(segc_ctx *ctx, const segc_expect *x,
	const char *path)
{
	segc_where at;
	struct stat st;

	segc_expect_where(x, &at);
	if (stat(path, &st) != 0) {
		segc_error(ctx, SEGC_ERR_INPUT, at.file, at.line, at.col,
			"the machine '%s' of <expect> cannot be opened: %s",
			segc_expect_machine(x), strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		segc_error(ctx, SEGC_ERR_INPUT, at.file, at.line, at.col,
			"the machine '%s' of <expect> is not a regular file",
			segc_expect_machine(x));
		return NULL;
	}
	return segc_machine_read_file(ctx, path);
}

/* Prints 'label' and 'e' on one line (indented). */
static void print_side(const char *label, const segc_expr *e)
{
	char *t = segc_expr_to_string(e);

	cli_printf("  %-9s %s\n", label, t ? t : "?");
	free(t);
}

/* The expected formula of 'it' under 's', the setting applied ('*raw')
 * and in canonical form (returned). */
static segc_expr *expected_form(segc_ctx *ctx, const segc_setting *s,
	const check_item *it, segc_expr **raw)
{
	segc_domains *dom = segc_setting_domains(ctx, s);
	segc_expr *e = segc_setting_apply(ctx, s,
		segc_expr_copy(it->formula), &it->where);

	*raw = e ? segc_expr_copy(e) : NULL;
	if (e)
		e = segc_canonical_at(ctx, dom, e, &it->where);
	segc_domains_free(dom);
	return e;
}

/* Prints the point of witness 'w' and both values there. */
static void print_witness(const segc_witness *w)
{
	size_t i;
	char *a = segc_witness_value_text(&w->a);
	char *b = segc_witness_value_text(&w->b);

	cli_printf("  witness: ");
	for (i = 0; i < w->n; i++) {
		char *v = mpq_get_str(NULL, 10, w->values[i]);

		cli_printf("%s%s=%s", i ? ", " : "", w->names[i], v);
		free(v);
	}
	cli_printf("%s\n", w->n ? "" : "(no names)");
	for (i = 0; i < w->nfunctions; i++)
		cli_printf("  where %s\n", w->functions[i]);
	cli_printf("  derived there:  %s\n  expected there: %s\n", a, b);
	free(a);
	free(b);
}

/* Prints what the points of an unsuccessful search 'w' gave. */
static void print_unproven(const segc_witness *w)
{
	cli_printf("  not proved equal, and no witness: they agree at %lu of "
		"%lu sample points", w->exact + w->close, w->tried);
	if (w->close)
		cli_printf(" (%lu exactly, %lu to %lu bits)", w->exact,
			w->close, w->bits);
	if (w->skipped)
		cli_printf("; %lu had no value", w->skipped);
	cli_printf("\n");
}

/* The segc_witness_admit of a search: non-zero when no loop count of
 * the segc_counts 'arg' is negative at the point. */
static int in_domain(void *arg, size_t n, const char *const *names,
	const mpq_t *values)
{
	return !segc_counts_at(NULL, arg, n, names, values);
}

/* Looks for a witness that derived formula of 'it' and 'expected' (the
 * setting applied, not canonical) differ, into 'w'. */
static void find_witness(segc_ctx *ctx, const segc_setting *s,
	const check_item *it, const segc_expr *expected, segc_witness *w)
{
	segc_expr *got = segc_derive_structural(ctx, s, it->comp);
	segc_domains *dom = segc_setting_domains(ctx, s);
	segc_counts *counts = segc_counts_new(ctx, s);
	segc_eval_pair *pair;

	segc_ctx_clear(ctx);
	/* a point where a loop count is negative is outside the model; the
	 * points are valued by eval's plans where they give exact values */
	if (got && expected) {
		pair = segc_eval_pair_new(ctx, got, expected);
		segc_witness_search_with(w, dom, counts ? in_domain : NULL,
			counts, segc_eval_pair_exact, pair, got, expected,
			CHECK_POINTS);
		segc_eval_pair_free(pair);
	}
	segc_counts_free(counts);
	segc_domains_free(dom);
	segc_expr_free(got);
}

/* Prints the verdict on 'it' when the canonical forms 'got' and 'want'
 * differ; returns 1 (the expectation does not hold). */
static int report_difference(segc_ctx *ctx, const segc_setting *s,
	const check_item *it, segc_expr *got, segc_expr *want,
	const segc_expr *raw, const char *title)
{
	segc_domains *dom = segc_setting_domains(ctx, s);
	segc_expr *diff = segc_canonical(ctx, dom, segc_expr_sub2(
		segc_expr_copy(got), segc_expr_copy(want)));
	segc_witness w;

	segc_domains_free(dom);
	segc_ctx_clear(ctx);
	segc_witness_init(&w);
	find_witness(ctx, s, it, raw, &w);
	if (it->json) {
		json_check_difference(it->json, segc_component_name(it->comp),
			it->source, got, want, diff, &w);
		segc_witness_clear(&w);
		segc_expr_free(diff);
		return 1;
	}
	cli_printf("%s: %s\n", w.found ? "MISMATCH" : "UNPROVEN", title);
	print_side("derived:", got);
	print_side("expected:", want);
	if (diff)
		print_side("derived - expected:", diff);
	if (w.found)
		print_witness(&w);
	else
		print_unproven(&w);
	segc_witness_clear(&w);
	segc_expr_free(diff);
	return 1;
}

/* The canonical form 'e' (kept) under 's' with its sums and the atoms of
 * overlapped loops and indexed nodes that have every name bound replaced
 * by their numbers (a new reference); 'e' again when none is, or when
 * that takes more than max_eval_terms (the witness search then compares
 * them at its own points). */
static segc_expr *bound_values(segc_ctx *ctx, const segc_setting *s,
	segc_expr *e)
{
	segc_domains *dom = segc_setting_domains(ctx, s);
	segc_expr *v = segc_expr_value_atoms(ctx, dom, segc_expr_copy(e), NULL);

	segc_domains_free(dom);
	if (!v) {
		segc_ctx_clear(ctx);
		return segc_expr_copy(e);
	}
	return v;
}

/* Replaces 'got' and 'want' (each taken and given back) by their forms
 * with the atoms of no free name valued, unless they are the same. */
static void value_bound_atoms(segc_ctx *ctx, const segc_setting *s,
	segc_expr **got, segc_expr **want)
{
	segc_expr *g, *w;

	if (*got == *want)
		return;
	g = bound_values(ctx, s, *got);
	w = bound_values(ctx, s, *want);
	segc_expr_free(*got);
	segc_expr_free(*want);
	*got = g;
	*want = w;
}

/* Non-zero when the second forms of 'got' and 'want' under 's' (their
 * ifs that are extrema written as extrema, segc_expr_if_as_extremum)
 * are the same, or proved equal by cases (segc_expr_equal_by_cases). */
static int same_second_form(segc_ctx *ctx, const segc_setting *s,
	segc_expr *got, segc_expr *want)
{
	segc_domains *dom = segc_setting_domains(ctx, s);
	segc_expr *g = segc_expr_if_as_extremum(ctx, dom, got);
	segc_expr *w = segc_expr_if_as_extremum(ctx, dom, want);
	int same;

	segc_ctx_clear(ctx);
	same = (g || w) && (g ? g : got) == (w ? w : want);
	if (!same)
		same = segc_expr_equal_by_cases(ctx, dom, g ? g : got,
			w ? w : want);
	segc_expr_free(g);
	segc_expr_free(w);
	segc_domains_free(dom);
	return same;
}

/* Checks one expectation; returns 0 ok, 1 mismatch or unproven, else an
 * error code (diagnostics printed). */
static int check_one(segc_ctx *ctx, cli_common *c, const segc_model *m,
	const check_item *it)
{
	segc_setting s;
	segc_expr *got, *want = NULL, *raw = NULL;
	const char *comp = segc_component_name(it->comp);
	char *source, *title;
	cli_buf sb;
	int rc = 0;

	s.model = m;
	s.machine = it->machine;
	s.bindings = c->bindings;
	got = segc_derive_canonical(ctx, &s, it->comp);
	if (got)
		want = expected_form(ctx, &s, it, &raw);
	if (!got || !want) {
		rc = cli_report(ctx);
		segc_ctx_clear(ctx);
		segc_expr_free(got);
		segc_expr_free(want);
		segc_expr_free(raw);
		return rc ? rc : CLI_USAGE;
	}
	value_bound_atoms(ctx, &s, &got, &want);
	source = it->source ? cli_printable_dup(it->source) : NULL;
	cli_buf_init(&sb);
	cli_buf_appendf(&sb, "%s%s%s%s", comp, source ? " (" : "",
		source ? source : "", source ? ")" : "");
	title = cli_buf_take(&sb);
	if (got == want || same_second_form(ctx, &s, got, want)) {
		if (it->json)
			json_check_ok(it->json, comp, it->source);
		else if (!c->quiet)
			cli_printf("ok: %s\n", title);
	} else
		rc = report_difference(ctx, &s, it, got, want, raw, title);
	free(title);
	free(source);
	segc_expr_free(got);
	segc_expr_free(want);
	segc_expr_free(raw);
	return rc;
}

/* Combines exit codes: errors over mismatches over success. */
static int worse(int a, int b)
{
	if (a > 1 || b > 1)
		return a > b ? a : b;
	return a > b ? a : b;
}

/* Checks every <expect> of 'm' (of component 'only' if not NULL). */
static int check_model(segc_ctx *ctx, cli_common *c, const segc_model *m,
	const segc_machine *machine, const char *only, cli_json *json)
{
	size_t i, done = 0;
	int rc = 0;

	for (i = 0; i < segc_model_n_expects(m); i++) {
		const segc_expect *x = segc_model_expect(m, i);
		segc_machine *own = NULL;
		check_item it;
		int comp = segc_component_parse(segc_expect_component(x));

		if (only && comp != segc_component_parse(only))
			continue;
		memset(&it, 0, sizeof(it));
		it.comp = comp < 0 ? SEGC_TOTAL : (enum segc_component)comp;
		it.machine = machine;
		it.json = json;
		it.formula = segc_expect_formula(x);
		it.source = segc_expect_source(x);
		segc_expect_where(x, &it.where);
			it.where.what = "the formula of <expect>";
		if (segc_expect_machine(x)) {
			char *path = segc_expect_machine_path(ctx, m, x);

			own = path ? expect_machine(ctx, x, path) : NULL;
			free(path);
			if (!own) {
				rc = worse(rc, cli_report(ctx));
				segc_ctx_clear(ctx);
				continue;
			}
			it.machine = own;
		}
		rc = worse(rc, check_one(ctx, c, m, &it));
		segc_machine_free(own);
		done++;
	}
	if (done == 0 && rc == 0 && !c->quiet)
		fprintf(stderr, "segc: check: %s: no expectation%s%s to "
			"check\n", segc_model_file(m) ? segc_model_file(m) : "model",
			only ? " of component " : "", only ? only : "");
	return rc;
}

/* Checks the --expect formula 'text'. */
static int check_text(segc_ctx *ctx, cli_common *c, const segc_model *m,
	const segc_machine *machine, const char *component, const char *text,
	cli_json *json)
{
	check_item it;
	int rc;

	memset(&it, 0, sizeof(it));
	it.where.what = "the formula of --expect";
	it.formula = segc_expr_parse(ctx, text, &it.where);
	if (!it.formula) {
		rc = cli_report(ctx);
		return rc ? rc : CLI_USAGE;
	}
	it.comp = (enum segc_component)segc_component_parse(component
		? component : "total");
	it.machine = machine;
	it.json = json;
	it.source = "--expect";
	rc = check_one(ctx, c, m, &it);
	segc_expr_free(it.formula);
	return rc;
}

/* The options of 'check' besides COMMON (a cli_option_fn). */
static int check_option(cli_common *c, int argc, char **argv, int *i,
	void *opts)
{
	check_opts *o = opts;
	int r;

	if (cli_json_option(argv, i, &o->json))
		return 1;
	if ((r = cli_option_value(c, argc, argv, i, "component", 0,
			&o->component)) != 0)
		return r;
	return cli_option_value(c, argc, argv, i, "expect", 0, &o->expect);
}

/* Checks the command line read; 0 or an exit code. */
static int check_args(segc_ctx *ctx, cli_common *c, void *opts)
{
	const check_opts *o = opts;

	(void)ctx;
	if (o->component && segc_component_parse(o->component) < 0)
		return cli_usage(c, "unknown component '%s' (total, comp, "
			"comm or io)", o->component);
	return 0;
}

/* Checks the model and machine of 's' (its bindings are applied by the
 * checks themselves); the exit code. */
static int run_check(segc_ctx *ctx, cli_common *c, void *opts,
	const segc_setting *s)
{
	const check_opts *o = opts;
	cli_json j;
	int rc;

	if (o->json)
		json_check_begin(&j, segc_model_name(s->model));
	if (o->expect)
		rc = check_text(ctx, c, s->model, s->machine, o->component,
			o->expect, o->json ? &j : NULL);
	else
		rc = check_model(ctx, c, s->model, s->machine, o->component,
			o->json ? &j : NULL);
	if (o->json)
		json_check_end(&j, rc == 0);
	return rc;
}

/* Runs 'segc check'. */
int cmd_check(int argc, char **argv)
{
	static const cli_model_command cmd = { "check", check_option, NULL,
		check_args, run_check };
	check_opts o = { NULL, NULL, 0 };

	return cli_model_command_run(&cmd, argc, argv, &o);
}
