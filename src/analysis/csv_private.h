/* csv_private.h - the table read from CSV (csv.c), shared with the
 * aggregation of repeated configurations (csv_aggregate.c). */
#ifndef SEGC_CSV_PRIVATE_H
#define SEGC_CSV_PRIVATE_H

#include <segc/fit.h>

struct segc_csv {
	char *file;
	size_t ncols, nrows, caprows;
	char **header;
	unsigned long header_line;
	unsigned long *header_col;
	mpq_t *cells;            /* row-major, nrows * ncols */
	unsigned long *line;     /* per row */
	unsigned long *col;      /* per cell */
	size_t nignored;
	char **ignored;          /* named columns left out */
	size_t *runs;            /* per row, when aggregated; else NULL */
	mpq_t *lo, *hi;          /* per cell, when aggregated */
};

/* Non-zero when the column 'name' holds measurements (time, total,
 * comp, comm, io). */
int segc_csv_is_measurement(const char *name);
/* Replaces the rows of 'csv' that repeat a configuration by one each,
 * as 'how' says (not SEGC_CSV_EACH). */
void segc_csv_aggregate_rows(segc_csv *csv, enum segc_csv_aggregate how);

/* Converts the decimal text s[0..n) ([+-]digits[.digits][e[+-]digits],
 * or .digits) of at most 'max_digits' digits to the exact 'q': 0, or -1
 * with the reason in '*why' ("is not a decimal number", ...). */
int segc_csv_decimal(mpq_t q, const char *s, size_t n,
	unsigned long max_digits, const char **why);
/* Reads the whole file 'path' ("-": standard input, named '*name') into
 * a new buffer, bounded by the max_file_bytes limit; NULL after an
 * error. */
char *segc_csv_slurp(segc_ctx *ctx, const char *path, const char **name,
	size_t *len);

#endif
