/* csv.c - the CSV reader of measurements (segc fit, eval --measured): a
 * header row of names, then rows of decimal numbers read as exact
 * rationals, fields optionally in double quotes; columns left out
 * (pandas' index, those the caller does not want) or renamed; every
 * error located by file, line and column. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/csv_private.h"
#include "analysis/fit.h"
#include "base/util.h"

/* The state of one reading: the text, the position, the limits. */
typedef struct reader {
	segc_ctx *ctx;
	segc_csv *csv;
	const segc_csv_options *opts;
	const char *text;
	size_t len, pos;
	unsigned long line;
	unsigned long max_digits;
	size_t nraw;             /* the columns of the file */
	size_t *kept;            /* each one's column in the table, or -1 */
} reader;

/* One cell of a line: its text (spaces trimmed; inside the quotes of a
 * quoted field) and its column; 'quoted' 2 when the text holds "" for a
 * quote, 'bad' when a quote is not closed on its line or is followed by
 * more than spaces. */
typedef struct cell {
	const char *s;
	size_t n;
	unsigned long col;
	int quoted, bad;
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

/* The end of the quoted field whose opening quote is at 'q': the offset
 * of its closing quote, or 'end' when there is none; sets '*escaped'
 * when it holds "". */
static size_t quote_end(const reader *R, size_t q, size_t end, int *escaped)
{
	size_t j = q + 1;

	while (j < end) {
		if (R->text[j] == '"' && j + 1 < end && R->text[j + 1] == '"') {
			*escaped = 1;
			j += 2;
		} else if (R->text[j] == '"') {
			return j;
		} else {
			j++;
		}
	}
	return end;
}

/* Reads the field at 'i' of the line [start, end) into 'c' (when not
 * NULL); returns the offset of the comma after it, or 'end'. */
static size_t next_field(const reader *R, size_t start, size_t i,
	size_t end, cell *c)
{
	size_t a = i, b, close;
	int escaped = 0, bad = 0;

	while (a < end && (R->text[a] == ' ' || R->text[a] == '\t'))
		a++;
	if (a < end && R->text[a] == '"') {
		close = quote_end(R, a, end, &escaped);
		i = close < end ? close + 1 : end;
		bad = close == end;
		while (i < end && (R->text[i] == ' ' || R->text[i] == '\t'))
			i++;
		bad |= i < end && R->text[i] != ',';
		while (i < end && R->text[i] != ',')
			i++;
		if (c) {
			c->s = R->text + a + 1;
			c->n = (close < end ? close : end) - a - 1;
			c->col = (unsigned long)(a - start) + 1;
			c->quoted = 1 + escaped;
			c->bad = bad;
		}
		return i;
	}
	while (i < end && R->text[i] != ',')
		i++;
	b = i;
	while (b > a && (R->text[b - 1] == ' ' || R->text[b - 1] == '\t'))
		b--;
	if (c) {
		c->s = R->text + a;
		c->n = b - a;
		c->col = (unsigned long)(a - start) + 1;
		c->quoted = c->bad = 0;
	}
	return i;
}

/* Splits the line [start, end) at the commas outside quotes into at most
 * 'cap' cells (the count is returned even when larger). */
static size_t split_line(const reader *R, size_t start, size_t end,
	cell *cells, size_t cap)
{
	size_t n = 0, i = start;

	for (;;) {
		i = next_field(R, start, i, end, n < cap ? &cells[n] : NULL);
		n++;
		if (i >= end)
			return n;
		i++;
	}
}

/* The text of cell 'c' (malloc'd): "" inside quotes made one quote. */
static char *cell_text(const cell *c)
{
	char *t = segc_xmalloc(c->n + 1);
	size_t i, k = 0;

	for (i = 0; i < c->n; i++) {
		t[k++] = c->s[i];
		if (c->quoted == 2 && c->s[i] == '"' && i + 1 < c->n &&
		    c->s[i + 1] == '"')
			i++;
	}
	t[k] = '\0';
	return t;
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
	size_t i = n && (s[0] == '+' || s[0] == '-');
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

/* Converts the decimal text s[0..n) to 'q' (see csv_private.h). */
int segc_csv_decimal(mpq_t q, const char *s, size_t n,
	unsigned long max_digits, const char **why)
{
	size_t i = 0, ni, nf = 0, k;
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
		if (exponent_value(s + k + 1, n - k - 1, 10 * max_digits, &e))
			return -1;
	} else if (k != n) {
		return -1;
	}
	if (ni + nf > max_digits) {
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

/* Converts the decimal number of cell 'c' to 'q': 0, or -1 when it is
 * not one (the reason in '*why'). */
static int cell_number(const reader *R, const cell *c, mpq_t q,
	const char **why)
{
	return segc_csv_decimal(q, c->s, c->n, R->max_digits, why);
}

/* A set of the table's column names, for the check of repeats in time
 * linear in the header: open addressing over column indices plus one. */
typedef struct name_set {
	size_t *slot;
	size_t cap;
} name_set;

/* FNV-1a of 's'. */
static size_t name_hash(const char *s)
{
	size_t h = (size_t)2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * (size_t)16777619u;
	return h;
}

/* Adds column 'j' of 'header' to 'set': (size_t)-1, or the column that
 * already bears its name. */
static size_t set_add(name_set *set, char **header, size_t j)
{
	size_t i = name_hash(header[j]) & (set->cap - 1);

	while (set->slot[i]) {
		if (!strcmp(header[set->slot[i] - 1], header[j]))
			return set->slot[i] - 1;
		i = (i + 1) & (set->cap - 1);
	}
	set->slot[i] = j + 1;
	return (size_t)-1;
}

/* The name the header text 'text' is read as: a mapping's name, or the
 * text itself; '*shadowed' is set when a mapping gives another column
 * that name, and found[k] when mapping 'k' is used. */
static const char *mapped_name(const reader *R, const char *text,
	int *shadowed, int *found)
{
	const segc_csv_options *o = R->opts;
	size_t k;

	*shadowed = 0;
	for (k = 0; o && k < o->nmap; k++)
		if (!strcmp(o->map_columns[k], text)) {
			found[k] = 1;
			return o->map_names[k];
		}
	for (k = 0; o && k < o->nmap; k++)
		*shadowed |= !strcmp(o->map_names[k], text);
	return text;
}

/* Non-zero when the column 'name' is to be read. */
static int wanted(const reader *R, const char *name)
{
	const segc_csv_options *o = R->opts;

	if (!o || !o->wanted)
		return 1;
	return segc_name_is_identifier(name) && o->wanted(o->wanted_arg, name);
}

/* Records column 'name' as left out. */
static void ignore_column(segc_csv *C, const char *name)
{
	C->ignored = segc_xrealloc(C->ignored,
		segc_xmul_size(C->nignored + 1, sizeof *C->ignored));
	C->ignored[C->nignored++] = segc_xstrdup(name);
}

/* Takes header cell 'c' (column 'j' of the file) into the table, leaves
 * it out, or records why it cannot be read; -1 after an error. */
static int header_cell(reader *R, const cell *c, size_t j, name_set *set,
	int *found)
{
	segc_csv *C = R->csv;
	char *text = cell_text(c);
	int shadowed, rc = 0;
	const char *name = mapped_name(R, text, &shadowed, found);
	size_t k;

	R->kept[j] = (size_t)-1;
	if (c->bad) {
		csv_error(R, R->line, c->col, "the header cell is a quoted "
			"field that does not end on its line%s%s", "", "");
		rc = -1;
	} else if (!*text) {
		;                      /* an index column */
	} else if (shadowed || !wanted(R, name)) {
		ignore_column(C, text);
	} else if (!segc_name_is_identifier(name)) {
		csv_error(R, R->line, c->col, "the header cell '%.40s' is not a "
			"name%s", name, "");
		rc = -1;
	} else {
		C->header[C->ncols] = segc_xstrdup(name);
		C->header_col[C->ncols] = c->col;
		k = set_add(set, C->header, C->ncols);
		if (k != (size_t)-1) {
			csv_error(R, R->line, c->col, "the column '%s' is named "
				"twice%s", name, "");
			free(C->header[C->ncols]);
			rc = -1;
		} else {
			R->kept[j] = C->ncols++;
		}
	}
	free(text);
	return rc;
}

/* Reads the header line [start, end): the names of the columns. */
static int read_header(reader *R, size_t start, size_t end)
{
	segc_csv *C = R->csv;
	size_t n = split_line(R, start, end, NULL, 0), j, k;
	size_t nmap = R->opts ? R->opts->nmap : 0;
	cell *cells = segc_xcalloc(n, sizeof *cells);
	int *found = segc_xcalloc(nmap + 1, sizeof *found), bad = 0;
	name_set set;

	split_line(R, start, end, cells, n);
	R->nraw = n;
	R->kept = segc_xcalloc(n, sizeof *R->kept);
	C->header_line = R->line;
	C->header = segc_xcalloc(n, sizeof *C->header);
	C->header_col = segc_xcalloc(n, sizeof *C->header_col);
	for (set.cap = 16; set.cap < 2 * n; set.cap *= 2)
		;
	set.slot = segc_xcalloc(set.cap, sizeof *set.slot);
	for (j = 0; j < n; j++)
		bad |= header_cell(R, &cells[j], j, &set, found) != 0;
	for (k = 0; k < nmap; k++)
		if (!found[k]) {
			csv_error(R, R->line, 0, "no column '%s' in the header "
				"(to read as '%s')", R->opts->map_columns[k],
				R->opts->map_names[k]);
			bad = 1;
		}
	if (!bad && !C->ncols && !C->nignored) {
		csv_error(R, R->line, 0, "the header names no column (its "
			"cells are empty)%s%s", "", "");
		bad = 1;
	}
	free(set.slot);
	free(found);
	free(cells);
	return bad ? -1 : 0;
}

/* Makes room for one more row. */
static void grow_rows(segc_csv *C)
{
	size_t i, cap;

	if (C->nrows < C->caprows)
		return;
	cap = C->caprows ? 2 * C->caprows : C->ncols > 256 ? 1 : 16;
	C->cells = segc_xrealloc(C->cells, segc_xmul_size(
		segc_xmul_size(cap, C->ncols) + 1, sizeof(mpq_t)));
	C->col = segc_xrealloc(C->col, segc_xmul_size(
		segc_xmul_size(cap, C->ncols) + 1, sizeof(long)));
	C->line = segc_xrealloc(C->line, segc_xmul_size(cap, sizeof(long)));
	for (i = C->caprows * C->ncols; i < cap * C->ncols; i++)
		mpq_init(C->cells[i]);
	C->caprows = cap;
}

/* Reads cell 'c' of the table's column 'k' into the row being read; -1
 * after an error. */
static int row_cell(reader *R, const cell *c, size_t k)
{
	segc_csv *C = R->csv;
	mpq_ptr q = C->cells[C->nrows * C->ncols + k];
	const char *why = "is not a decimal number";
	char name[64];

	C->col[C->nrows * C->ncols + k] = c->col;
	if (!c->bad && c->quoted < 2 && !cell_number(R, c, q, &why))
		return 0;
	snprintf(name, sizeof name, "%.40s", C->header[k]);
	if (c->bad)
		csv_error(R, R->line, c->col, "the cell of column '%s' is a "
			"quoted field that does not end on its line%s", name, "");
	else if (!c->n)
		csv_error(R, R->line, c->col, "the cell of "
			"column '%s' is empty%s", name, "");
	else
		csv_error(R, R->line, c->col, "the cell of "
			"column '%s' %s", name, why);
	return -1;
}

/* Reads the row line [start, end); -1 after an error. */
static int read_row(reader *R, size_t start, size_t end, cell *cells)
{
	segc_csv *C = R->csv;
	size_t n = split_line(R, start, end, cells, R->nraw), j;
	char count[64];
	int bad = 0;

	if (n != R->nraw) {
		snprintf(count, sizeof count, "%lu cells, the header %lu",
			(unsigned long)n, (unsigned long)R->nraw);
		csv_error(R, R->line, 0, "the row has %s%s", count, "");
		return -1;
	}
	grow_rows(C);
	for (j = 0; j < n; j++)
		if (R->kept[j] != (size_t)-1)
			bad |= row_cell(R, &cells[j], R->kept[j]) != 0;
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
			cells = segc_xcalloc(R->nraw + 1, sizeof *cells);
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

/* Reads CSV text as 'opts' says (see fit.h). */
segc_csv *segc_csv_read(segc_ctx *ctx, const char *name, const char *text,
	size_t len, const segc_csv_options *opts)
{
	reader R;
	size_t before = segc_ctx_n_diags(ctx);

	memset(&R, 0, sizeof R);
	R.ctx = ctx;
	R.opts = opts;
	R.csv = segc_xcalloc(1, sizeof *R.csv);
	R.csv->file = segc_xstrdup(name);
	R.text = text;
	R.len = len;
	R.max_digits = segc_ctx_limits(ctx)->max_literal_digits;
	if (R.max_digits > SEGC_MAX_LITERAL_DIGITS_CEILING)
		R.max_digits = SEGC_MAX_LITERAL_DIGITS_CEILING;
	read_lines(&R);
	free(R.kept);
	if (segc_ctx_n_diags(ctx) != before) {
		segc_csv_free(R.csv);
		return NULL;
	}
	if (opts && opts->aggregate != SEGC_CSV_EACH)
		segc_csv_aggregate_rows(R.csv, opts->aggregate);
	return R.csv;
}

/* Reads CSV text, every column, each row (see fit.h). */
segc_csv *segc_csv_read_string(segc_ctx *ctx, const char *name,
	const char *text, size_t len)
{
	return segc_csv_read(ctx, name, text, len, NULL);
}

/* Reads the whole file 'path' (see csv_private.h). */
char *segc_csv_slurp(segc_ctx *ctx, const char *path, const char **name,
	size_t *len)
{
	unsigned long max = segc_ctx_limits(ctx)->max_file_bytes;
	int in = !strcmp(path, "-");
	FILE *f = in ? stdin : fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *buf;

	*name = in ? "<stdin>" : path;
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
			segc_error(ctx, SEGC_ERR_INPUT, *name, 0, 0, "cannot read "
				"the file");
		else
			segc_error(ctx, SEGC_ERR_LIMIT, *name, 0, 0, "the file "
				"is larger than %lu bytes (max_file_bytes)", max);
		free(buf);
		buf = NULL;
	}
	if (!in)
		fclose(f);
	*len = n;
	return buf;
}

/* Reads the CSV file 'path' as 'opts' says (see fit.h). */
segc_csv *segc_csv_read_path(segc_ctx *ctx, const char *path,
	const segc_csv_options *opts)
{
	size_t len;
	const char *name;
	char *text = segc_csv_slurp(ctx, path, &name, &len);
	segc_csv *C;

	if (!text)
		return NULL;
	segc_ctx_count_input(ctx, len);
	C = segc_csv_read(ctx, name, text, len, opts);
	free(text);
	return C;
}

/* Reads the CSV file 'path' (see fit.h). */
segc_csv *segc_csv_read_file(segc_ctx *ctx, const char *path)
{
	return segc_csv_read_path(ctx, path, NULL);
}

/* Releases 'C'. */
void segc_csv_free(segc_csv *C)
{
	size_t i;

	if (!C)
		return;
	for (i = 0; i < C->caprows * C->ncols; i++)
		mpq_clear(C->cells[i]);
	for (i = 0; C->lo && i < C->nrows * C->ncols; i++) {
		mpq_clear(C->lo[i]);
		mpq_clear(C->hi[i]);
	}
	for (i = 0; i < C->ncols; i++)
		free(C->header[i]);
	for (i = 0; i < C->nignored; i++)
		free(C->ignored[i]);
	free(C->ignored);
	free(C->runs);
	free(C->lo);
	free(C->hi);
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
