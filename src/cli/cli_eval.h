/* cli_eval.h - what the parts of 'segc eval' share: its options, the
 * table it prints (eval_table.c), one evaluated point (cmd_eval.c), the
 * rows of --measured (eval_measured.c), the forecast map of --map
 * (eval_map.c) and the plots of --svg (eval_plot.c). */
#ifndef SEGC_CLI_EVAL_H
#define SEGC_CLI_EVAL_H

#include <segc/eval.h>
#include <segc/fit.h>
#include <segc/plot.h>

#include "cli/cli.h"
#include "cli/cli_csv.h"
#include "cli/cli_output.h"

#define EVAL_MAX_AXES 32

/* What --plot draws against the swept name. */
enum eval_plot { EVAL_PLOT_TIME, EVAL_PLOT_SPEEDUP, EVAL_PLOT_EFFICIENCY };

/* The options of 'eval'. */
typedef struct eval_opts {
	const char *file;
	const char *svg;
	long precision;
	long digits;
	int csv;
	int json;                /* --json */
	int canonical;
	const char *procs;       /* --procs: the processor count (P) */
	int weak;                /* --scaling weak */
	int plot;                /* --plot: an enum eval_plot */
	int plot_given;
	const char *measured;    /* --measured DATA.csv */
	cli_csv_opts table;      /* its --column, --aggregate */
	const char *map_x, *map_y; /* --map X Y */
	int map_comp;            /* --component: 0 total, 1 comp, 2 comm, 3 io */
	int comp_given;
	enum segc_eval_arith arith; /* --arith ball (default) or exact */
	size_t naxes;
	cli_axis axes[EVAL_MAX_AXES];
	/* NAME=[LO,HI]: the axis holds LO alone, 'ihi' holds HI */
	unsigned char interval[EVAL_MAX_AXES];
	mpq_t ihi[EVAL_MAX_AXES];
	size_t nintervals;
} eval_opts;

/* The cells of the table, row after row, and the plotted values. */
typedef struct eval_table {
	size_t ncols, ncells, cap;
	char **cells;
	size_t npoints;
	double *x, *y[4];        /* the swept value and each component */
	double *s[2];            /* the speedup and the efficiency */
	double *meas[4], *rel[4]; /* --measured: measured, relative error */
} eval_table;

/* Appends one cell (a copy of 'text'). */
void eval_table_put(eval_table *t, const char *text);
/* Appends 'x' to 'digits' significant digits. */
void eval_table_put_mpfr(eval_table *t, mpfr_srcptr x, long digits);
/* Appends the exact rational 'q'. */
void eval_table_put_mpq(eval_table *t, const mpq_t q);
/* Appends 'q' as a decimal in fixed notation, correctly rounded (ties to
 * even) to 'digits' significant digits, exact when it ends sooner. */
void eval_table_put_decimal(eval_table *t, const mpq_t q, long digits);
/* Appends a parameter's value: exact, or a decimal under --csv. */
void eval_table_put_value(eval_table *t, const eval_opts *o, const mpq_t q);
/* Puts the table on standard output: aligned columns, or CSV. */
void eval_table_print(const eval_table *t, int csv);
/* Allocates the plotted values for 'n' points. */
void eval_table_plot_alloc(eval_table *t, size_t n);
/* Releases 't'. */
void eval_table_clear(eval_table *t);

/* What the evaluation of one run needs. */
typedef struct eval_run {
	segc_ctx *ctx;
	cli_common *c;
	const eval_opts *o;
	const segc_setting *s;
	segc_counts *counts;     /* the loop counts of s, lowered at the
	                          * first point (eval_row_counts) */
	segc_expr *f[4];         /* total, comp, comm, io */
	size_t nax;              /* names given per point (grid or columns) */
	const char **names;      /* those names, then "P" when absent */
	mpq_t *values;
	size_t npoint;           /* names at a point */
	size_t p_index;          /* index of P among the names */
	int speedup;             /* the speedup columns are printed */
	size_t procs;            /* then the index of --procs's name */
	size_t swept;            /* the plotted name, or (size_t)-1 */
	mpfr_t v[4];             /* the components at the last point */
	segc_where where;
	const char *title;       /* the model's name */
	cli_file *svg;           /* the file of --svg, or NULL */
	eval_table t;
} eval_run;

/* Evaluates 'e' at the current point into 'x'; 0 on success. */
int eval_at(eval_run *r, const segc_expr *e, mpfr_t x);
/* Evaluates the current point (r->values) and appends its row: the
 * values of the first r->nax names, the components, the speedup and
 * efficiency when printed; the components stay in r->v.  0 on success,
 * else -1 with the failure recorded. */
int eval_row(eval_run *r);
/* Refuses the current point when a loop count of the program is negative
 * there (segc_counts_at), the counts lowered once for the whole run: -1
 * with the error reported, else 0. */
int eval_row_counts(eval_run *r);
/* Records where the evaluation failed: the values of the point. */
void eval_report_point(eval_run *r);
/* Reads "[LO,HI]" into 'lo', 'hi' (eval_interval.c): 0; -1 when
 * malformed; -2 when LO > HI. */
int eval_interval_parse(segc_ctx *ctx, const char *text, mpq_t lo,
	mpq_t hi);
/* eval_row() when some names are given intervals: each component, the
 * speedup and the efficiency enclosed over them, printed [lo, hi]. */
int eval_row_interval(eval_run *r);
/* --measured: the rows of DATA.csv evaluated beside their measured times
 * (eval_measured.c).  Prepares the names from the columns (before the
 * formulas are derived; an exit code), then evaluates every row (0, or
 * -1 with the errors recorded or reported) and writes the plot. */
int eval_measured_setup(eval_run *r, segc_csv **csv);
int eval_measured_rows(eval_run *r, const segc_csv *csv);
int eval_measured_svg(eval_run *r, const segc_csv *csv);

/* --map X Y: the total over the grid of X and Y as a matrix, rows Y and
 * columns X, and as a forecast map with --svg (eval_map.c): an exit
 * code. */
int eval_map_check(eval_run *r, size_t *ix, size_t *iy);
int eval_map(eval_run *r, size_t ix, size_t iy);
int eval_map_svg(eval_run *r, size_t ix, size_t iy);

/* --svg without --map or --measured: the components, the speedup or the
 * efficiency against the swept name (eval_plot.c); 0, or -1 reported. */
int eval_plot_write(eval_run *r);

#endif
