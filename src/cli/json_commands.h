/* json_commands.h - the documents the analysis commands print with
 * --json (doc/json.md), each written apart from the command's text
 * output: fit (json_fit.c), eval (json_eval.c), optimize, solve, whatif,
 * sensitivity and check (json_analysis.c). */
#ifndef SEGC_JSON_COMMANDS_H
#define SEGC_JSON_COMMANDS_H

#include <segc/analysis.h>
#include <segc/check.h>
#include <segc/eval.h>
#include <segc/fit.h>

#include "cli/cli.h"
#include "cli/cli_json.h"

/* 'fit --json': the fit 'f' of model 'model' to 'data', read with the
 * aggregation 'how', under relative weights when 'relative'. */
void json_fit(const segc_fit *f, const segc_csv *data, const char *model,
	int relative, enum segc_csv_aggregate how);

/* 'eval --json': the table the run 'r' has computed (of the grid, or
 * of the rows of 'csv' with --measured), each cell exact and in decimal;
 * the run's point values are used as scratch. */
struct eval_run;
void json_eval(struct eval_run *r, const segc_csv *csv);

/* What 'optimize' was asked: the model, the quantity, whether most or
 * least, the name varied and its range as given (NAME=A..B). */
typedef struct json_optimize_info {
	const char *model, *quantity, *var, *over;
	int maximize;
} json_optimize_info;

/* 'optimize --json': the optimum 'opt' and how it was certified
 * ('nkernels' the kernels the pieces were cut at). */
void json_optimize(const json_optimize_info *in, const segc_optimum *opt,
	size_t nkernels);

/* What 'solve' was asked: the model (and its file), the equation, the
 * name solved for and the range searched ("A..B"). */
typedef struct json_solve_info {
	const char *model, *file, *equation, *var, *range;
} json_solve_info;

/* 'solve --json': the roots found piece by piece. */
void json_solve(const json_solve_info *in, const segc_solution *sol);
/* 'solve --json' when the equation is not a rational function of the
 * name piece by piece: 'e' evaluated exactly at every integer of
 * [lo, hi] (sharing the budget of max_eval_terms), its zeros and the
 * consecutive integers between which it changes sign written; 0, or -1
 * recorded and nothing written. */
int json_solve_scan(segc_ctx *ctx, const json_solve_info *in,
	const segc_expr *e, mpq_srcptr lo, mpq_srcptr hi);

/* 'check --json': the document opened for 'model', one result per
 * expectation (verdict "ok", or "MISMATCH" / "UNPROVEN" with both
 * canonical formulas, their difference and the witness search 'w';
 * 'source' may be NULL), then closed saying whether all hold. */
void json_check_begin(cli_json *j, const char *model);
void json_check_ok(cli_json *j, const char *component, const char *source);
void json_check_difference(cli_json *j, const char *component,
	const char *source, const segc_expr *got, const segc_expr *want,
	const segc_expr *diff, const segc_witness *w);
void json_check_end(cli_json *j, int all_hold);

/* 'whatif --json': the document opened for 'model' and 'component';
 * one scenario 'spec' with its canonical 'speedup' formula and, over
 * the grid 'g' (may have no axes), the values of 'before', 'after' and
 * their ratio at each point (0, or -1 after an error recorded in
 * 'ctx'); the document closed. */
void json_whatif_begin(cli_json *j, const char *model,
	const char *component);
int json_whatif_scenario(cli_json *j, segc_ctx *ctx, const cli_grid *g,
	const char *spec, const segc_expr *before, const segc_expr *after,
	const segc_expr *speedup);
void json_whatif_end(cli_json *j);

/* What 'sensitivity --json' reports: the model, the component, its
 * formula 't', and for each of the 'n' free names its derivative 'd'
 * and elasticity 'e' (canonical). */
typedef struct json_sensitivity_info {
	const char *model, *component;
	const segc_expr *t;
	size_t n;
	const char *const *names;
	segc_expr *const *d, *const *e;
	struct cli_plans *plans;  /* slot 0 t, 1 + 2i d[i], 2 + 2i e[i] */
} json_sensitivity_info;

/* 'sensitivity --json': the formulas and, over the grid 'g' (may have
 * no axes), their values at each point; 0, or -1 after an error
 * recorded in 'ctx' (the output is then discarded). */
int json_sensitivity(segc_ctx *ctx, const json_sensitivity_info *in,
	const cli_grid *g);

#endif
