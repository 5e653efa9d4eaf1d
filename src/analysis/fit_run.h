/* fit_run.h - the state of one run of segc fit, shared by the exact
 * linear fit (fit_linear.c), the nonlinear one (fit_nl.c) and the run
 * (fit.c): the measured
 * parts with their formulas, the result being built.  Private to
 * src/analysis/fit*.c. */
#ifndef SEGC_FIT_RUN_H
#define SEGC_FIT_RUN_H

#include <segc/eval.h>

#include "analysis/fit.h"
#include "model/model.h"

/* A coefficient of the split formula, evaluated at each row: a number,
 * the value of a column, or an expression of the columns. */
typedef struct coef {
	enum { COEF_NUM, COEF_COLUMN, COEF_EXPR } kind;
	size_t col;
	segc_expr *e;
	segc_eval_plan *plan;    /* COEF_EXPR: its plan, from the first row */
} coef;

/* One measured column: its component, its formula, and the formula's
 * coefficients c[0] (the part without free names), c[1 + j] (of x_j). */
typedef struct part {
	enum segc_component comp;
	size_t col;
	segc_expr *f;
	coef *c;
} part;

struct segc_fit {
	size_t nfree;
	char **names;
	int *kind;               /* FIT_RESOURCE, ... per free name */
	mpq_t *x;
	size_t neq, capeq;
	size_t *row;
	enum segc_component *comp;
	mpq_t *measured, *fitted;
	int r2_defined;
	mpq_t r2;
	int max_defined;
	size_t max_eq;
	mpq_t max_rel;
	int nonlinear;           /* fitted by Levenberg-Marquardt */
	segc_fit_info info;      /* how, when nonlinear */
	char *nonlinear_in;      /* the names that made it so */
	char *start_from;        /* how the nonlinear fit started, or NULL */
	char *outside;           /* the exact linear solution outside the
				  * domains, refitted within them; or NULL */
	char *constrained;       /* the bounds that hold at the end, or NULL */
	size_t nleft_out;        /* equations measured as 0 under relative */
	char *left_out;          /* weights, left out: their lines */
};

/* What a free name is in the model or machine. */
enum { FIT_RESOURCE = 0, FIT_CONST, FIT_COST, FIT_PARAM };

/* The state of one run. */
typedef struct fitter {
	segc_ctx *ctx;
	const segc_fit_request *r;
	const segc_csv *data;
	const char *file;        /* of the data */
	const char *model_file;
	const segc_machine *mach;
	segc_fit *fit;
	segc_bindings *bindings;
	segc_setting s;
	size_t nparts;
	part parts[4];
	const char **headers;
	int *is_param;           /* per column: a parameter column */
	segc_lsq *lsq;
	mpq_t *a;                /* one equation: nfree + 1 entries */
	segc_expr ***deriv;      /* nonlinear: [part][name] or NULL */
	mpq_t *pt;               /* nonlinear: the columns, then x */
	const char **ptnames;
	segc_ctx *scratch;
} fitter;

/* The column of the parameter 'name' in the data, or (size_t)-1. */
size_t segc_fit_param_column(const fitter *F, const char *name);
/* Splits the formula of every part into its coefficients c_0, c_1..c_n
 * under the domains of the setting; a part that is not linear in the free
 * names makes the fit nonlinear (fit->nonlinear, fit->nonlinear_in).
 * 0, or -1 after an error (a limit). */
int segc_fit_split_parts(fitter *F);
/* Non-zero when the equation of part 'P' at row 'i' is left out: a
 * measured 0 has no relative error. */
int segc_fit_left_out_eq(const fitter *F, const part *P, size_t i);
/* Records the equations left out (their count and lines); -1 after an
 * error when nothing is left to fit. */
int segc_fit_note_left_out(fitter *F);
/* Adds the equation of every row and part to the normal equations;
 * -1 after an error. */
int segc_fit_accumulate(fitter *F);
/* Solves the normal equations into fit->x; -1 after reporting a rank
 * deficiency. */
int segc_fit_solve(fitter *F);
/* Non-zero when the exact solution puts a free name outside its
 * declared domain: records which (fit->outside) and makes the fit a
 * nonlinear one. */
int segc_fit_outside_domain(fitter *F);
/* Evaluates every equation with the fitted values, then the statistics;
 * -1 after an error. */
int segc_fit_evaluate(fitter *F);
/* Exact starting values for a nonlinear fit: every part with the free
 * names marked in 'recip' replaced by their reciprocals, and fitted by
 * exact linear least squares when that makes it linear; 0 with
 * 'y' set to the values of the names so replaced (reciprocals, then),
 * -1 when it does not (nothing recorded). */
int segc_fit_linearised(fitter *F, const int *recip, mpq_t *y);
/* Fits the parts of 'F' by Levenberg-Marquardt (fit_nl.c), filling
 * F->fit's values, equations and info; -1 after an error. */
int segc_fit_nonlinear_run(fitter *F);
/* Sets R^2 and the largest relative error from the equations of 'f'. */
void segc_fit_statistics(segc_fit *f);
/* Appends an equation (row 'i', component 'comp') with its measured and
 * fitted values. */
void segc_fit_append(segc_fit *f, size_t i, enum segc_component comp,
	mpq_srcptr measured, mpq_srcptr fitted);

#endif
