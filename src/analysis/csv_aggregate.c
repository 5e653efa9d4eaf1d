/* csv_aggregate.c - rows of a CSV table that repeat a configuration (the
 * same values in every column that is not a measurement) made one: its
 * measurements the exact mean, median or minimum of theirs, with their
 * smallest and largest value kept as the spread; and the accessors of
 * what the reader left out and aggregated. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/csv_private.h"
#include "base/util.h"

/* The columns that hold measurements. */
static const char *const measurements[] = {
	"time", "total", "comp", "comm", "io"
};

/* Non-zero when 'name' is a measurement column (csv_private.h). */
int segc_csv_is_measurement(const char *name)
{
	size_t k;

	for (k = 0; k < sizeof measurements / sizeof *measurements; k++)
		if (!strcmp(measurements[k], name))
			return 1;
	return 0;
}

/* The groups of rows being made: for each row its group's first row,
 * found through a hash table of configurations. */
typedef struct groups {
	const segc_csv *C;
	const int *key;          /* per column: non-zero for a parameter */
	size_t *slot, cap;       /* first rows plus one */
} groups;

/* A hash of the configuration of row 'r' (its parameter cells). */
static size_t row_hash(const groups *G, size_t r)
{
	const segc_csv *C = G->C;
	size_t h = 5381, j, k;

	for (j = 0; j < C->ncols; j++) {
		mpq_srcptr q = C->cells[r * C->ncols + j];

		if (!G->key[j])
			continue;
		for (k = 0; k < mpz_size(mpq_numref(q)); k++)
			h = h * 33 + (size_t)mpz_getlimbn(mpq_numref(q), k);
		for (k = 0; k < mpz_size(mpq_denref(q)); k++)
			h = h * 31 + (size_t)mpz_getlimbn(mpq_denref(q), k);
		h = h * 7 + (size_t)(mpq_sgn(q) + 1);
	}
	return h;
}

/* Non-zero when rows 'a' and 'b' have the same configuration. */
static int same_key(const groups *G, size_t a, size_t b)
{
	const segc_csv *C = G->C;
	size_t j;

	for (j = 0; j < C->ncols; j++)
		if (G->key[j] && !mpq_equal(C->cells[a * C->ncols + j],
		    C->cells[b * C->ncols + j]))
			return 0;
	return 1;
}

/* The first row of the configuration of row 'r' (itself when new). */
static size_t first_row(groups *G, size_t r)
{
	size_t i = row_hash(G, r) & (G->cap - 1);

	while (G->slot[i]) {
		if (same_key(G, G->slot[i] - 1, r))
			return G->slot[i] - 1;
		i = (i + 1) & (G->cap - 1);
	}
	G->slot[i] = r + 1;
	return r;
}

/* Orders rationals for qsort. */
static int q_order(const void *a, const void *b)
{
	return mpq_cmp(*(mpq_srcptr const *)a, *(mpq_srcptr const *)b);
}

/* Sets 'out', 'lo' and 'hi' from the 'n' values 'v' (sorted here). */
static void combine(mpq_ptr out, mpq_ptr lo, mpq_ptr hi, mpq_srcptr *v,
	size_t n, enum segc_csv_aggregate how)
{
	size_t i;

	qsort(v, n, sizeof *v, q_order);
	mpq_set(lo, v[0]);
	mpq_set(hi, v[n - 1]);
	if (how == SEGC_CSV_MIN) {
		mpq_set(out, v[0]);
	} else if (how == SEGC_CSV_MEDIAN) {
		mpq_add(out, v[(n - 1) / 2], v[n / 2]);
		mpq_div_2exp(out, out, 1);
	} else {
		mpq_set_ui(out, 0, 1);
		for (i = 0; i < n; i++)
			mpq_add(out, out, v[i]);
		mpz_mul_ui(mpq_denref(out), mpq_denref(out), (unsigned long)n);
		mpq_canonicalize(out);
	}
}

/* Fills row 'g' of the new cells from the rows 'rows' ('n' of them, the
 * first one's cells and positions kept for the parameters). */
static void fill_group(segc_csv *C, mpq_t *cells, unsigned long *col,
	size_t g, const size_t *rows, size_t n, const int *key,
	enum segc_csv_aggregate how)
{
	mpq_srcptr *v = segc_xcalloc(n, sizeof *v);
	size_t j, i;

	for (j = 0; j < C->ncols; j++) {
		size_t at = g * C->ncols + j;

		col[at] = C->col[rows[0] * C->ncols + j];
		if (key[j]) {
			mpq_set(cells[at], C->cells[rows[0] * C->ncols + j]);
			mpq_set(C->lo[at], cells[at]);
			mpq_set(C->hi[at], cells[at]);
			continue;
		}
		for (i = 0; i < n; i++)
			v[i] = C->cells[rows[i] * C->ncols + j];
		combine(cells[at], C->lo[at], C->hi[at], v, n, how);
	}
	free(v);
}

/* Groups the rows: '*order' gets the rows group after group (each in
 * file order), 'start' (ngroups + 1 entries) where each group begins;
 * returns the number of groups. */
static size_t group_rows(segc_csv *C, const int *key, size_t **order,
	size_t **start)
{
	groups G = { C, key, NULL, 16 };
	size_t *first = segc_xcalloc(C->nrows + 1, sizeof *first);
	size_t *count = segc_xcalloc(C->nrows + 1, sizeof *count);
	size_t *gid = segc_xcalloc(C->nrows + 1, sizeof *gid);
	size_t r, ng = 0, g;

	while (G.cap < 2 * C->nrows)
		G.cap *= 2;
	G.slot = segc_xcalloc(G.cap, sizeof *G.slot);
	for (r = 0; r < C->nrows; r++) {
		size_t f = first_row(&G, r);

		gid[r] = f == r ? ng++ : gid[f];
		count[gid[r]]++;
	}
	*start = segc_xcalloc(ng + 1, sizeof **start);
	for (g = 0; g < ng; g++)
		(*start)[g + 1] = (*start)[g] + count[g];
	*order = segc_xcalloc(C->nrows + 1, sizeof **order);
	memset(count, 0, (C->nrows + 1) * sizeof *count);
	for (r = 0; r < C->nrows; r++)
		(*order)[(*start)[gid[r]] + count[gid[r]]++] = r;
	free(G.slot);
	free(first);
	free(count);
	free(gid);
	return ng;
}

/* Aggregates the rows that repeat a configuration (csv_private.h). */
void segc_csv_aggregate_rows(segc_csv *C, enum segc_csv_aggregate how)
{
	int *key = segc_xcalloc(C->ncols + 1, sizeof *key);
	size_t *order, *start, ng, g, i, n;
	mpq_t *cells;
	unsigned long *col, *line;

	for (i = 0; i < C->ncols; i++)
		key[i] = !segc_csv_is_measurement(C->header[i]);
	ng = group_rows(C, key, &order, &start);
	n = ng * C->ncols;
	cells = segc_xcalloc(n + 1, sizeof *cells);
	col = segc_xcalloc(n + 1, sizeof *col);
	line = segc_xcalloc(ng + 1, sizeof *line);
	C->lo = segc_xcalloc(n + 1, sizeof *C->lo);
	C->hi = segc_xcalloc(n + 1, sizeof *C->hi);
	C->runs = segc_xcalloc(ng + 1, sizeof *C->runs);
	for (i = 0; i < n; i++) {
		mpq_init(cells[i]);
		mpq_init(C->lo[i]);
		mpq_init(C->hi[i]);
	}
	for (g = 0; g < ng; g++) {
		fill_group(C, cells, col, g, order + start[g],
			start[g + 1] - start[g], key, how);
		line[g] = C->line[order[start[g]]];
		C->runs[g] = start[g + 1] - start[g];
	}
	for (i = 0; i < C->caprows * C->ncols; i++)
		mpq_clear(C->cells[i]);
	free(C->cells);
	free(C->col);
	free(C->line);
	C->cells = cells;
	C->col = col;
	C->line = line;
	C->nrows = C->caprows = ng;
	free(order);
	free(start);
	free(key);
}

/* The number of named columns left out. */
size_t segc_csv_n_ignored(const segc_csv *C)
{
	return C->nignored;
}

/* The name of the 'i'-th column left out. */
const char *segc_csv_ignored(const segc_csv *C, size_t i)
{
	return C->ignored[i];
}

/* The column named 'name', or (size_t)-1. */
size_t segc_csv_column(const segc_csv *C, const char *name)
{
	size_t j;

	for (j = 0; j < C->ncols; j++)
		if (!strcmp(C->header[j], name))
			return j;
	return (size_t)-1;
}

/* The rows aggregated into row 'row'. */
size_t segc_csv_runs(const segc_csv *C, size_t row)
{
	return C->runs ? C->runs[row] : 1;
}

/* The smallest and largest value aggregated into a cell. */
void segc_csv_spread(const segc_csv *C, size_t row, size_t col, mpq_t lo,
	mpq_t hi)
{
	size_t at = row * C->ncols + col;

	mpq_set(lo, C->lo ? C->lo[at] : C->cells[at]);
	mpq_set(hi, C->hi ? C->hi[at] : C->cells[at]);
}
