/* csv.c - a small strict CSV reader for measurements (segc fit, eval
 * --measured): a header row of names, then rows of decimal numbers read
 * as exact rationals; every error located by file, line and column. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fit.h"
#include "base/util.h"

struct segc_csv {
	char *file;
	size_t ncols, nrows, caprows;
	char **header;
	unsigned long header_line;
	unsigned long *header_col;
	mpq_t *cells;            /* row-major, nrows * ncols */
	unsigned long *line;     /* per row */
	unsigned long *col;      /* per cell */
};

/* The state of one reading: the text, the position, the limits. */
typedef struct reader {
	segc_ctx *ctx;
	segc_csv *csv;
	const char *text;
	size_t len, pos;
	unsigned long line;
	unsigned long max_digits;
} reader;

/* One cell of a line: its text (spaces trimmed) and its column. */
typedef struct cell {
	const char *s;
	size_t n;
	unsigned long col;
} cell;

/* Records an error at 'line', 'col' of the file being read. */
static void csv_error(reader *R, unsigned long line, unsigned long col,
	const char *fmt, const char *a, const char *b)
{
	segc_error(R->ctx, SEGC_ERR_INPUT, R->csv->file, line, col, fmt, a, b);
}

/* The end of the line starting at R->pos (its LF, or the end of text). */
static size_t line_end(const reader *R)
{
	const char *nl = memchr(R->text + R->pos, '\n', R->len - R->pos);

	return nl ? (size_t)(nl - R->text) : R->len;
}

/* Splits the line [start, end) at commas into at most 'cap' cells (the
 * count is returned even when larger), spaces and tabs trimmed. */
static size_t split_line(const reader *R, size_t start, size_t end,
	cell *cells, size_t cap)
{
	size_t n = 0, i = start;

	for (;;) {
		size_t a = i, b;

		while (i < end && R->text[i] != ',')
			i++;
		b = i;
		while (a < b && (R->text[a] == ' ' || R->text[a] == '\t'))
			a++;
		while (b > a && (R->text[b - 1] == ' ' ||
		    R->text[b - 1] == '\t'))
			b--;
		if (n < cap) {
			cells[n].s = R->text + a;
			cells[n].n = b - a;
			cells[n].col = (unsigned long)(a - start) + 1;
		}
		n++;
		if (i == end)
			return n;
		i++;
	}
}

/* Non-zero when the line [start, end) is blank or a comment. */
static int skipped_line(const reader *R, size_t start, size_t end)
{
	size_t i = start;

	while (i < end && (R->text[i] == ' ' || R->text[i] == '\t'))
		i++;
	return i == end || R->text[i] == '#';
}

/* The number of decimal digits at s[i...n). */
static size_t digits_at(const char *s, size_t i, size_t n)
{
	size_t j = i;

	while (j < n && s[j] >= '0' && s[j] <= '9')
		j++;
	return j - i;
}

/* Reads the decimal exponent s[0..n) (sign allowed) bounded by 'max'
 * into 'e'; -1 when malformed or larger. */
static int exponent_value(const char *s, size_t n, unsigned long max,
	long *e)
{
	size_t i = s[0] == '+' || s[0] == '-';
	unsigned long v = 0;

	if (i == n || digits_at(s, i, n) != n - i)
		return -1;
	for (; i < n; i++) {
		v = v * 10 + (unsigned long)(s[i] - '0');
		if (v > max)
			return -1;
	}
	*e = s[0] == '-' ? -(long)v : (long)v;
	return 0;
}

/* Sets 'q' to the exact value of digits 'dig' (NUL-terminated) times
 * ten to the 'e', negated when 'neg'. */
static void decimal_value(mpq_t q, const char *dig, long e, int neg)
{
	mpz_t scale;

	mpz_init(scale);
	mpz_set_str(mpq_numref(q), dig, 10);
	mpz_ui_pow_ui(scale, 10, (unsigned long)(e < 0 ? -e : e));
	if (e < 0) {
		mpz_set(mpq_denref(q), scale);
	} else {
		mpz_mul(mpq_numref(q), mpq_numref(q), scale);
		mpz_set_ui(mpq_denref(q), 1);
	}
	if (neg)
		mpz_neg(mpq_numref(q), mpq_numref(q));
	mpq_canonicalize(q);
	mpz_clear(scale);
}

/* Converts the decimal number of cell 'c' to 'q': 0, or -1 when it is
 * not one (the reason in '*why'). */
static int cell_number(const reader *R, const cell *c, mpq_t q,
	const char **why)
{
	const char *s = c->s;
	size_t n = c->n, i = 0, ni, nf = 0, k;
	long e = 0;
	char *dig;

	*why = "is not a decimal number";
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	ni = digits_at(s, i, n);
	if (i + ni < n && s[i + ni] == '.')
		nf = digits_at(s, i + ni + 1, n);
	k = i + ni + (i + ni < n && s[i + ni] == '.' ? 1 + nf : 0);
	if ((!ni && !nf) || (k > i + ni && !nf))
		return -1;
	if (k < n && (s[k] == 'e' || s[k] == 'E')) {
		if (exponent_value(s + k + 1, n - k - 1, 10 * R->max_digits,
		    &e))
			return -1;
	} else if (k != n) {
		return -1;
	}
	if (ni + nf > R->max_digits) {
		*why = "has too many digits (max_literal_digits)";
		return -1;
	}
	dig = segc_xmalloc(ni + nf + 2);
	dig[0] = '0';
	memcpy(dig + 1, s + i, ni);
	memcpy(dig + 1 + ni, s + i + ni + 1, nf);
	dig[1 + ni + nf] = '\0';
	decimal_value(q, dig, e - (long)nf, s[0] == '-');
	free(dig);
	return 0;
}

/* Reads the header line [start, end): the names of the columns. */
static int read_header(reader *R, size_t start, size_t end)
{
	segc_csv *C = R->csv;
	size_t n = split_line(R, start, end, NULL, 0), j, k;
	cell *cells = segc_xcalloc(n, sizeof *cells);
	int bad = 0;

	split_line(R, start, end, cells, n);
	C->ncols = n;
	C->header_line = R->line;
	C->header = segc_xcalloc(n, sizeof *C->header);
	C->header_col = segc_xcalloc(n, sizeof *C->header_col);
	for (j = 0; j < n; j++) {
		C->header[j] = segc_xstrndup(cells[j].s, cells[j].n);
		C->header_col[j] = cells[j].col;
		if (!segc_name_is_identifier(C->header[j])) {
			csv_error(R, R->line, cells[j].col, "the header cell "
				"'%.40s' is not a name%s", C->header[j], "");
			bad = 1;
		}
		for (k = 0; k < j && !bad; k++)
			if (!strcmp(C->header[k], C->header[j])) {
				csv_error(R, R->line, cells[j].col, "the column "
					"'%s' is named twice%s", C->header[j], "");
				bad = 1;
			}
	}
	free(cells);
	return bad ? -1 : 0;
}

/* Makes room for one more row. */
static void grow_rows(segc_csv *C)
{
	size_t i, cap;

	if (C->nrows < C->caprows)
		return;
	cap = C->caprows ? 2 * C->caprows : 16;
	C->cells = segc_xrealloc(C->cells,
		segc_xmul_size(segc_xmul_size(cap, C->ncols), sizeof(mpq_t)));
	C->col = segc_xrealloc(C->col,
		segc_xmul_size(segc_xmul_size(cap, C->ncols), sizeof(long)));
	C->line = segc_xrealloc(C->line, segc_xmul_size(cap, sizeof(long)));
	for (i = C->caprows * C->ncols; i < cap * C->ncols; i++)
		mpq_init(C->cells[i]);
	C->caprows = cap;
}

/* Reads the row line [start, end); -1 after an error. */
static int read_row(reader *R, size_t start, size_t end, cell *cells)
{
	segc_csv *C = R->csv;
	size_t n = split_line(R, start, end, cells, C->ncols), j;
	char count[64];
	const char *why;
	int bad = 0;

	if (n != C->ncols) {
		snprintf(count, sizeof count, "%lu cells, the header %lu",
			(unsigned long)n, (unsigned long)C->ncols);
		csv_error(R, R->line, 0, "the row has %s%s", count, "");
		return -1;
	}
	grow_rows(C);
	for (j = 0; j < n; j++) {
		mpq_ptr q = C->cells[C->nrows * C->ncols + j];

		C->col[C->nrows * C->ncols + j] = cells[j].col;
		if (!cell_number(R, &cells[j], q, &why))
			continue;
		snprintf(count, sizeof count, "%.40s", C->header[j]);
		if (!cells[j].n)
			csv_error(R, R->line, cells[j].col, "the cell of "
				"column '%s' is empty%s", count, "");
		else
			csv_error(R, R->line, cells[j].col, "the cell of "
				"column '%s' %s", count, why);
		bad = 1;
	}
	C->line[C->nrows++] = R->line;
	return bad ? -1 : 0;
}

/* Reads every line of the text. */
static void read_lines(reader *R)
{
	cell *cells = NULL;
	int header = 0;

	for (R->line = 1; R->pos < R->len && !segc_ctx_full(R->ctx);
	    R->line++) {
		size_t end = line_end(R), e = end;

		if (e > R->pos && R->text[e - 1] == '\r')
			e--;
		if (memchr(R->text + R->pos, '\0', e - R->pos))
			csv_error(R, R->line, 0, "a NUL byte%s%s", "", "");
		else if (skipped_line(R, R->pos, e))
			;
		else if (!header) {
			header = 1;
			if (read_header(R, R->pos, e))
				break;
			cells = segc_xcalloc(R->csv->ncols + 1, sizeof *cells);
		} else {
			read_row(R, R->pos, e, cells);
		}
		R->pos = end + 1;
	}
	if (!header && segc_ctx_status(R->ctx) == SEGC_OK)
		csv_error(R, 0, 0, "no header row (a line of column "
			"names)%s%s", "", "");
	free(cells);
}

/* Reads CSV text (see fit.h). */
segc_csv *segc_csv_read_string(segc_ctx *ctx, const char *name,
	const char *text, size_t len)
{
	reader R;
	size_t before = segc_ctx_n_diags(ctx);

	memset(&R, 0, sizeof R);
	R.ctx = ctx;
	R.csv = segc_xcalloc(1, sizeof *R.csv);
	R.csv->file = segc_xstrdup(name);
	R.text = text;
	R.len = len;
	R.max_digits = segc_ctx_limits(ctx)->max_literal_digits;
	if (R.max_digits > SEGC_MAX_LITERAL_DIGITS_CEILING)
		R.max_digits = SEGC_MAX_LITERAL_DIGITS_CEILING;
	read_lines(&R);
	if (segc_ctx_n_diags(ctx) != before) {
		segc_csv_free(R.csv);
		return NULL;
	}
	return R.csv;
}

/* Reads the whole file 'path' into a new buffer, bounded by the
 * max_file_bytes limit; NULL after an error. */
static char *slurp(segc_ctx *ctx, const char *path, size_t *len)
{
	unsigned long max = segc_ctx_limits(ctx)->max_file_bytes;
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *buf;

	if (!f) {
		segc_error(ctx, SEGC_ERR_INPUT, path, 0, 0, "cannot read the "
			"file: %s", strerror(errno));
		return NULL;
	}
	buf = segc_xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (max && n > max)
			break;
		if (n == cap)
			buf = segc_xrealloc(buf, cap *= 2);
	}
	if (ferror(f) || (max && n > max)) {
		if (ferror(f))
			segc_error(ctx, SEGC_ERR_INPUT, path, 0, 0, "cannot read "
				"the file");
		else
			segc_error(ctx, SEGC_ERR_LIMIT, path, 0, 0, "the file "
				"is larger than %lu bytes (max_file_bytes)", max);
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

/* Reads the CSV file 'path' (see fit.h). */
segc_csv *segc_csv_read_file(segc_ctx *ctx, const char *path)
{
	size_t len;
	char *text = slurp(ctx, path, &len);
	segc_csv *C;

	if (!text)
		return NULL;
	segc_ctx_count_input(ctx, len);
	C = segc_csv_read_string(ctx, path, text, len);
	free(text);
	return C;
}

/* Releases 'C'. */
void segc_csv_free(segc_csv *C)
{
	size_t i;

	if (!C)
		return;
	for (i = 0; i < C->caprows * C->ncols; i++)
		mpq_clear(C->cells[i]);
	for (i = 0; i < C->ncols; i++)
		free(C->header[i]);
	free(C->header);
	free(C->header_col);
	free(C->cells);
	free(C->line);
	free(C->col);
	free(C->file);
	free(C);
}

/* The accessors of fit.h. */
const char *segc_csv_file(const segc_csv *C)
{
	return C->file;
}

/* The number of columns. */
size_t segc_csv_ncols(const segc_csv *C)
{
	return C->ncols;
}

/* The number of rows (not counting the header). */
size_t segc_csv_nrows(const segc_csv *C)
{
	return C->nrows;
}

/* The name of column 'j'. */
const char *segc_csv_header(const segc_csv *C, size_t j)
{
	return C->header[j];
}

/* The cells of row 'i'. */
const mpq_t *segc_csv_row(const segc_csv *C, size_t i)
{
	return (const mpq_t *)&C->cells[i * C->ncols];
}

/* The line of row 'i' (of the header for (size_t)-1). */
unsigned long segc_csv_line(const segc_csv *C, size_t i)
{
	return i == (size_t)-1 ? C->header_line : C->line[i];
}

/* The column of cell ('i', 'j') (of the header for i = (size_t)-1). */
unsigned long segc_csv_col(const segc_csv *C, size_t i, size_t j)
{
	return i == (size_t)-1 ? C->header_col[j] : C->col[i * C->ncols + j];
}
