/* fit.h - fitting the free names of a model to measured times (the
 * command 'segc fit', doc/fit.md): a strict CSV reader whose cells are
 * exact rationals, exact linear least squares over Q, and the fit of a
 * model's formula to the rows of a CSV file.  The ownership rule of
 * segc.h applies; nothing here prints or exits. */
#ifndef SEGC_FIT_H
#define SEGC_FIT_H

#include <segc/segc.h>
#include <segc/segc_model.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ CSV */

/* A table read from CSV: a header row of names, then rows of numbers,
 * each cell the exact rational of its decimal text. */
typedef struct segc_csv segc_csv;

/* Reads the CSV file 'path'.  The format (doc/fit.md): lines end in LF or
 * CRLF; the first line that is not blank or a comment ('#' first) is the
 * header: comma-separated names (identifiers), each once; every later
 * line that is not blank or a comment is a row with as many cells, each
 * a decimal number ([+-]digits[.digits][e[+-]digits], or .digits), spaces
 * and tabs around a cell ignored.  Every error is recorded located
 * (FILE:LINE:COL, COL the cell's first character), and NULL returned. */
SEGC_GIVE segc_csv *segc_csv_read_file(SEGC_KEEP segc_ctx *ctx,
	const char *path);
/* The same for the 'len' bytes at 'text', named 'name' in diagnostics. */
SEGC_GIVE segc_csv *segc_csv_read_string(SEGC_KEEP segc_ctx *ctx,
	const char *name, const char *text, size_t len);
void segc_csv_free(SEGC_TAKE segc_csv *csv);

/* The file name given when reading. */
const char *segc_csv_file(SEGC_KEEP const segc_csv *csv);
size_t segc_csv_ncols(SEGC_KEEP const segc_csv *csv);
size_t segc_csv_nrows(SEGC_KEEP const segc_csv *csv);
const char *segc_csv_header(SEGC_KEEP const segc_csv *csv, size_t col);
/* The cells of row 'row', in column order (borrowed). */
const mpq_t *segc_csv_row(SEGC_KEEP const segc_csv *csv, size_t row);
/* The line of row 'row' (1-based), or of the header when 'row' is
 * (size_t)-1; the column of the first character of a cell. */
unsigned long segc_csv_line(SEGC_KEEP const segc_csv *csv, size_t row);
unsigned long segc_csv_col(SEGC_KEEP const segc_csv *csv, size_t row,
	size_t col);

/* -------------------------------------------------- exact least squares */

/* The normal equations of an overdetermined linear system a . x = y over
 * Q, accumulated equation by equation: the Gram matrix A^T A and A^T y,
 * kept as integers over one common denominator, so that an equation
 * costs about n^2/2 integer multiply-adds. */
typedef struct segc_lsq segc_lsq;

SEGC_GIVE segc_lsq *segc_lsq_new(size_t n);
void segc_lsq_free(SEGC_TAKE segc_lsq *L);
/* Adds the equation sum_j 'a'[j] x_j = 'y' ('a' has n entries). */
void segc_lsq_add(SEGC_KEEP segc_lsq *L, const mpq_t *a, mpq_srcptr y);
/* Solves the normal equations exactly (fraction-free elimination on the
 * integer Gram matrix, names in order).  Returns the rank.  'x' (n
 * entries, initialised) gets the least-squares solution when the rank is
 * n; 'dependent' (n entries) is set non-zero for each unknown whose
 * column of coefficients is a combination of the columns before it. */
size_t segc_lsq_solve(SEGC_KEEP segc_lsq *L, mpq_t *x, int *dependent);
/* After segc_lsq_solve: for a dependent unknown 'j', a vector 'v' (n
 * entries) with v[j] = 1, zero after j and on other dependent unknowns,
 * such that A v = 0: the combination of unknowns the equations cannot
 * see. */
void segc_lsq_dependency(SEGC_KEEP const segc_lsq *L, size_t j, mpq_t *v);

/* ------------------------------------------------------------ the fit */

/* What the fitted equations weigh: absolute errors (each equation as
 * measured) or relative ones (each divided by its measured value). */
enum segc_fit_weight { SEGC_FIT_ABSOLUTE = 0, SEGC_FIT_RELATIVE };

/* A fit to make: the formula of the model under 'setting' (its -D
 * bindings fix names), the names left free, the measurements. */
typedef struct segc_fit_request {
	const segc_setting *setting;
	size_t nfree;
	const char *const *free;
	const segc_csv *data;
	enum segc_fit_weight weight;
} segc_fit_request;

/* The result: the fitted values and every equation. */
typedef struct segc_fit segc_fit;

/* One equation of a fit: the row of the data, the component its column
 * measures, the measured value and the value of the fitted formula. */
typedef struct segc_fit_equation {
	size_t row;
	enum segc_component component;
	mpq_srcptr measured;
	mpq_srcptr fitted;
} segc_fit_equation;

/* Fits the free names by exact linear least squares over Q: every
 * column time (or total), comp, comm, io of the data gives, in each row,
 * one equation between the measured value and the formula of that
 * component with the row's values for the other columns.  Refuses, with
 * located diagnostics, what cannot be fitted: bad columns or names, a
 * formula not linear in the free names, equations that cannot tell some
 * free names apart.  NULL on failure. */
SEGC_GIVE segc_fit *segc_fit_run(SEGC_KEEP segc_ctx *ctx,
	const segc_fit_request *r);
void segc_fit_free(SEGC_TAKE segc_fit *f);
size_t segc_fit_nfree(SEGC_KEEP const segc_fit *f);
const char *segc_fit_name(SEGC_KEEP const segc_fit *f, size_t j);
mpq_srcptr segc_fit_value(SEGC_KEEP const segc_fit *f, size_t j);
size_t segc_fit_nequations(SEGC_KEEP const segc_fit *f);
void segc_fit_equation_get(SEGC_KEEP const segc_fit *f, size_t i,
	segc_fit_equation *eq);
/* The coefficient of determination 1 - SS_res/SS_tot over every equation
 * (measured against fitted, unweighted); -1 when undefined (every
 * measured value the same), else 0. */
int segc_fit_r2(SEGC_KEEP const segc_fit *f, mpq_t r2);
/* The largest |measured - fitted|/|measured| over the equations with a
 * non-zero measured value, and its equation; -1 when there is none. */
int segc_fit_max_relative(SEGC_KEEP const segc_fit *f, mpq_t rel,
	size_t *eq);
/* A machine document (FORMAT.md section 5) named 'name': the machine of
 * the request's setting (the model's inline one if none) with each
 * fitted name bound to its exact value, replacing the machine's own
 * binding; a fitted resource not bound there as a <cost>, another name
 * as a <const>.  The result is malloc'd. */
SEGC_GIVE char *segc_fit_machine_xml(SEGC_KEEP const segc_fit *f,
	const segc_setting *s, const char *name, const char *description);
/* 'q' as an exact decimal ("0.000318", "-12.5") when its denominator
 * divides a power of ten, else as "num/den"; malloc'd. */
SEGC_GIVE char *segc_q_exact_text(mpq_srcptr q);

#ifdef __cplusplus
}
#endif

#endif
