/* fit.h - fitting the free names of a model to measured times (the
 * command 'segc fit', doc/fit.md): a strict CSV reader whose cells are
 * exact rationals, and the fit of a model's formula to the rows of a CSV
 * file by exact linear least squares over Q.  The ownership rule of
 * segc.h applies; nothing here prints or exits. */
#ifndef SEGC_FIT_PUBLIC_H
#define SEGC_FIT_PUBLIC_H

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
SEGC_API SEGC_GIVE segc_csv *segc_csv_read_file(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const char *path);
/* The same for the 'len' bytes at 'text', named 'name' in diagnostics. */
SEGC_API SEGC_GIVE segc_csv *segc_csv_read_string(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const char *name, SEGC_KEEP const char *text, size_t len);
/* Releases the table. */
SEGC_API void segc_csv_free(SEGC_TAKE segc_csv *csv);

/* How rows that repeat a configuration (the same values in every column
 * that is not a measurement: time, total, comp, comm, io) are read: each
 * as it is, or replaced by one row whose measurements are the mean, the
 * median or the minimum of theirs (exact), in the order of their first
 * row. */
enum segc_csv_aggregate {
	SEGC_CSV_EACH = 0, SEGC_CSV_MEAN, SEGC_CSV_MEDIAN, SEGC_CSV_MIN
};

/* What to read of a table as pandas, Caliper or a spreadsheet write it: a
 * plain data record the caller fills (all zero: every column, each row).
 * A column with an empty name (pandas' index) is always left out, and so
 * are the columns 'wanted' refuses (returns 0 for: it is given each
 * column's name after the mapping, and may be NULL: every column).  With
 * 'wanted', a column whose name is not an identifier is left out too,
 * unless mapped; without it, it is an error.  'nmap' mappings read the
 * column named 'map_columns'[k] in the header (any text) as the name
 * 'map_names'[k] (an identifier); a column that already bears such a
 * name is left out; a mapped column missing from the header is an
 * error. */
typedef struct segc_csv_options {
	size_t nmap;
	const char *const *map_names;
	const char *const *map_columns;
	int (*wanted)(void *arg, const char *name);
	void *wanted_arg;
	enum segc_csv_aggregate aggregate;
} segc_csv_options;

/* Reads the 'len' bytes at 'text', named 'name' in diagnostics, as
 * 'opts' (may be NULL) says: the format of segc_csv_read_file(), and
 * also fields in double quotes (RFC 4180: commas inside, "" for a quote;
 * within one line).  Column names are checked for repeats in linear
 * time.  NULL with located errors. */
SEGC_API SEGC_GIVE segc_csv *segc_csv_read(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const char *name, SEGC_KEEP const char *text, size_t len,
	SEGC_KEEP const segc_csv_options *opts);
/* The same for the file 'path'; "-" reads standard input (named
 * "<stdin>" in diagnostics). */
SEGC_API SEGC_GIVE segc_csv *segc_csv_read_path(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const char *path, SEGC_KEEP const segc_csv_options *opts);
/* The columns with a name that were left out, in the header's order:
 * their number, and the name of the 'i'-th (borrowed). */
SEGC_API size_t segc_csv_n_ignored(SEGC_KEEP const segc_csv *csv);
SEGC_API const char *segc_csv_ignored(SEGC_KEEP const segc_csv *csv,
	size_t i);
/* The column named 'name', or (size_t)-1. */
SEGC_API size_t segc_csv_column(SEGC_KEEP const segc_csv *csv,
	SEGC_KEEP const char *name);
/* The rows of the file aggregated into row 'row' (1 when each row is
 * read as it is). */
SEGC_API size_t segc_csv_runs(SEGC_KEEP const segc_csv *csv, size_t row);
/* The smallest and largest value of the cell ('row', 'col') among the
 * rows aggregated into it (both the cell when it was not aggregated). */
SEGC_API void segc_csv_spread(SEGC_KEEP const segc_csv *csv, size_t row,
	size_t col, mpq_t lo, mpq_t hi);

/* The file name given when reading (borrowed). */
SEGC_API const char *segc_csv_file(SEGC_KEEP const segc_csv *csv);
/* The number of columns, and of rows after the header. */
SEGC_API size_t segc_csv_ncols(SEGC_KEEP const segc_csv *csv);
SEGC_API size_t segc_csv_nrows(SEGC_KEEP const segc_csv *csv);
/* The name of column 'col' (borrowed). */
SEGC_API const char *segc_csv_header(SEGC_KEEP const segc_csv *csv,
	size_t col);
/* The cells of row 'row', in column order (borrowed). */
SEGC_API const mpq_t *segc_csv_row(SEGC_KEEP const segc_csv *csv,
	size_t row);
/* The line of row 'row' (1-based), or of the header when 'row' is
 * (size_t)-1; the column of the first character of a cell. */
SEGC_API unsigned long segc_csv_line(SEGC_KEEP const segc_csv *csv,
	size_t row);
SEGC_API unsigned long segc_csv_col(SEGC_KEEP const segc_csv *csv,
	size_t row, size_t col);

/* -------------------------------------------------- Extra-P experiments */

/* The formats of a measurement file: told by its content (a first byte
 * '{' or '[' is JSON, a first line that is not blank or a comment and starts
 * with the word PARAMETER is Extra-P's text), or given. */
enum segc_table_format {
	SEGC_TABLE_AUTO = 0, SEGC_TABLE_CSV, SEGC_TABLE_EXTRAP_TEXT,
	SEGC_TABLE_EXTRAP_JSON
};

/* What to read of an Extra-P experiment (doc/fit.md): the call path
 * (REGION) and the metric whose measurements become the rows (NULL: the
 * only one the file has); 'table' as for CSV: its mappings read a
 * parameter (or, with a measurement name, the metric) under another
 * name, 'wanted' leaves parameters out, 'aggregate' combines the
 * repetitions of a point.  A plain data record the caller fills. */
typedef struct segc_extrap_options {
	const char *callpath;
	const char *metric;
	segc_csv_options table;
} segc_extrap_options;

/* Reads the 'len' bytes at 'text' (named 'name') in 'format' into a
 * table: one column per parameter kept, one measurement column ('time'
 * unless mapped), one row per measured value (each repetition), located
 * at the value.  CSV is read as segc_csv_read() with opts->table.  NULL
 * with located errors; a call path or metric that is not chosen when
 * the file has several is an error listing them. */
SEGC_API SEGC_GIVE segc_csv *segc_table_read(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const char *name, SEGC_KEEP const char *text, size_t len,
	enum segc_table_format format, SEGC_KEEP const segc_extrap_options *opts);
/* The same for the file 'path' ("-": standard input). */
SEGC_API SEGC_GIVE segc_csv *segc_table_read_path(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const char *path, enum segc_table_format format,
	SEGC_KEEP const segc_extrap_options *opts);

/* ------------------------------------------------------------ the fit */

/* What the fitted equations weigh: absolute errors (each equation as
 * measured) or relative ones (each divided by its measured value). */
enum segc_fit_weight { SEGC_FIT_ABSOLUTE = 0, SEGC_FIT_RELATIVE };

/* A fit to make: the formula of the model under 'setting' (its -D
 * bindings fix names), the names left free, the measurements.  A plain
 * data record of borrowed pointers, filled by the caller. */
typedef struct segc_fit_request {
	const segc_setting *setting;
	size_t nfree;
	const char *const *free;
	const segc_csv *data;
	enum segc_fit_weight weight;
	/* nonlinear fits only: starting values of some free names (the
	 * others start at 1) and the most iterations (0: 200) */
	size_t nstart;
	const char *const *start_names;
	const mpq_t *start_values;
	unsigned max_iterations;
} segc_fit_request;

/* How a nonlinear fit went: the MPFR precision in bits, the iterations
 * (Jacobians after the first), and the criterion met: a relative step
 * below 2^(-precision/2) (stalled 0), or no further decrease of the sum
 * of squares at this precision (stalled 1).  A plain data record. */
typedef struct segc_fit_info {
	unsigned long precision;
	unsigned iterations;
	int stalled;
} segc_fit_info;

/* The result: the fitted values and every equation (opaque). */
typedef struct segc_fit segc_fit;

/* One equation of a fit: the row of the data, the component its column
 * measures, the measured value and the value of the fitted formula.  A
 * plain data record that segc_fit_equation_get() fills; its numbers are
 * borrowed from the fit. */
typedef struct segc_fit_equation {
	size_t row;
	enum segc_component component;
	mpq_srcptr measured;
	mpq_srcptr fitted;
} segc_fit_equation;

/* Fits the free names in least squares: every column time (or total),
 * comp, comm, io of the data gives, in each row, one equation between
 * the measured value and the formula of that component with the row's
 * values for the other columns.  When every formula is linear in the
 * free names (checked exactly), by exact linear least squares over Q;
 * else by Levenberg-Marquardt in MPFR (128 bits) from the request's
 * starting values, an approximation (segc_fit_nonlinear).  Refuses, with
 * located diagnostics, what cannot be fitted: bad columns or names,
 * equations that cannot tell some free names apart, a nonlinear fit that
 * does not converge or cannot be evaluated at its starting values.  NULL
 * on failure. */
SEGC_API SEGC_GIVE segc_fit *segc_fit_run(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_fit_request *r);
/* Releases the fit. */
SEGC_API void segc_fit_free(SEGC_TAKE segc_fit *f);
/* The number of free names; the name 'j' and its fitted value
 * (borrowed): exact for a linear fit; for a nonlinear one, the MPFR
 * result rounded to 20 significant digits. */
SEGC_API size_t segc_fit_nfree(SEGC_KEEP const segc_fit *f);
SEGC_API const char *segc_fit_name(SEGC_KEEP const segc_fit *f, size_t j);
SEGC_API mpq_srcptr segc_fit_value(SEGC_KEEP const segc_fit *f, size_t j);
/* Non-zero when the fit was nonlinear (Levenberg-Marquardt, an
 * approximation), filling '*info' when it is not NULL; 0 for an exact
 * linear fit. */
SEGC_API int segc_fit_nonlinear(SEGC_KEEP const segc_fit *f,
	SEGC_KEEP segc_fit_info *info);
/* The free names a nonlinear fit's formula is nonlinear in ("a, b"), or
 * "products of free names"; NULL for a linear fit (borrowed). */
SEGC_API const char *segc_fit_nonlinear_names(SEGC_KEEP const segc_fit *f);
/* How a nonlinear fit started when not from 1 or --start: the names
 * whose reciprocals made the formula linear, whose exact least-squares
 * fit gave the starting values ("1/bw"); else NULL (borrowed). */
SEGC_API const char *segc_fit_start_from(SEGC_KEEP const segc_fit *f);
/* When the formula is linear but its exact least-squares solution puts
 * some free names outside their declared domains, the fit is nonlinear
 * (Levenberg-Marquardt within the domains, from that solution) and this
 * says which values were outside ("lat = -3/500000"); else NULL
 * (borrowed). */
SEGC_API const char *segc_fit_outside(SEGC_KEEP const segc_fit *f);
/* The bounds of their declared domains that hold for some free names at
 * the end of a nonlinear fit, the sum of squares still falling beyond
 * them ("lat >= 0, ..."), or NULL: the values lie in their domains
 * (borrowed). */
SEGC_API const char *segc_fit_constrained(SEGC_KEEP const segc_fit *f);
/* The equations left out, measured as 0 under relative weights (a 0 has
 * no relative error): their number into '*n', their lines ("3, 7"), or
 * NULL when none (borrowed). */
SEGC_API const char *segc_fit_left_out(SEGC_KEEP const segc_fit *f,
	size_t *n);
/* The number of equations; equation 'i' into '*eq'. */
SEGC_API size_t segc_fit_nequations(SEGC_KEEP const segc_fit *f);
SEGC_API void segc_fit_equation_get(SEGC_KEEP const segc_fit *f, size_t i,
	SEGC_KEEP segc_fit_equation *eq);
/* The coefficient of determination 1 - SS_res/SS_tot over every equation
 * (measured against fitted, unweighted); -1 when undefined (every
 * measured value the same), else 0. */
SEGC_API int segc_fit_r2(SEGC_KEEP const segc_fit *f, mpq_t r2);
/* The largest |measured - fitted|/|measured| over the equations with a
 * non-zero measured value, and its equation; -1 when there is none. */
SEGC_API int segc_fit_max_relative(SEGC_KEEP const segc_fit *f, mpq_t rel,
	SEGC_KEEP size_t *eq);
/* A machine document (FORMAT.md section 5) named 'name': the machine of
 * the request's setting (the model's inline one if none) with each
 * fitted name bound to its exact value, replacing the machine's own
 * binding; a fitted resource not bound there as a <cost>, another name
 * as a <const>.  The result is malloc'd. */
SEGC_API SEGC_GIVE char *segc_fit_machine_xml(SEGC_KEEP const segc_fit *f,
	SEGC_KEEP const segc_setting *s, SEGC_KEEP const char *name,
	SEGC_KEEP const char *description);
/* 'q' as an exact decimal ("0.000318", "-12.5") when its denominator
 * divides a power of ten, else as "num/den"; malloc'd. */
SEGC_API SEGC_GIVE char *segc_q_exact_text(mpq_srcptr q);

#ifdef __cplusplus
}
#endif

#endif
