/* extrap_table.c - an Extra-P experiment made a table of measurements:
 * the call path and metric chosen (or the only ones), each parameter a
 * column (renamed or left out as the options say), the metric's values
 * one measurement column, each repetition a row located at its value. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/csv_private.h"
#include "analysis/extrap.h"
#include "base/util.h"

/* How many distinct names to list in a message before "and N more". */
#define LISTED 8

/* Compares two names through pointers to them (for qsort). */
static int name_order(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The name of block 'b' of kind 'metric' (0: call path), "" for none. */
static const char *block_name(const extrap_block *b, int metric)
{
	const char *s = metric ? b->metric : b->callpath;

	return s ? s : "";
}

/* The distinct names of the blocks of kind 'metric' (0: call paths),
 * among the blocks of the call path 'within' when it is not NULL,
 * sorted into '*out' (borrowed strings, malloc'd array); their number. */
static size_t distinct(const extrap_exp *x, int metric, const char *within,
	const char ***out)
{
	const char **v = segc_xmalloc(segc_xmul_size(x->nblocks + 1,
		sizeof *v));
	size_t i, n = 0, m = 0;

	for (i = 0; i < x->nblocks; i++)
		if (!within || !strcmp(block_name(&x->blocks[i], 0), within))
			v[m++] = block_name(&x->blocks[i], metric);
	qsort(v, m, sizeof *v, name_order);
	for (i = 0; i < m; i++)
		if (!n || strcmp(v[n - 1], v[i]))
			v[n++] = v[i];
	*out = v;
	return n;
}

/* The names 'v'[0..n) as "'a', 'b' and 3 more" (malloc'd). */
static char *name_list(const char **v, size_t n)
{
	size_t i, len = 32, shown = n < LISTED ? n : LISTED, at = 0;
	char *t;

	for (i = 0; i < shown; i++)
		len += 80 + 6;
	t = segc_xmalloc(len);
	for (i = 0; i < shown; i++) {
		char *p = extrap_printable(v[i], strlen(v[i]), 80);

		at += (size_t)sprintf(t + at, "%s'%s'", i ? ", " : "", p);
		free(p);
	}
	if (n > shown)
		sprintf(t + at, " and %lu more", (unsigned long)(n - shown));
	return t;
}

/* Chooses the call path (metric 0) or metric (1) of the call path
 * 'within': 'want', or the only one; '*chosen' the name ("" for none).
 * -1 after an error. */
static int choose(extrap_exp *x, int metric, const char *within,
	const char *want, const char **chosen)
{
	const char **v, *kind = metric ? "metric" : "call path";
	const char *opt = metric ? "--metric" : "--callpath";
	size_t n = distinct(x, metric, within, &v), i;
	char *list;
	int rc = 0;

	*chosen = NULL;
	for (i = 0; want && i < n; i++)
		if (!strcmp(v[i], want))
			*chosen = v[i];
	if (!want && n == 1)
		*chosen = v[0];
	if (!*chosen) {
		char where[300], *w = within ? extrap_printable(within,
			strlen(within), 200) : NULL;
		char *shown = want ? extrap_printable(want, strlen(want), 200) :
			NULL;

		list = name_list(v, n);
		if (w)
			snprintf(where, sizeof where, "the call path '%s'", w);
		else
			strcpy(where, "the file");
		if (want)
			segc_error(x->ctx, SEGC_ERR_INPUT, x->file, 0, 0, "no %s "
				"'%s' in %s (%s: %s)", kind, shown, where, opt, list);
		else
			segc_error(x->ctx, SEGC_ERR_INPUT, x->file, 0, 0, "%s has "
				"%lu %ss (%s): choose one with %s", where,
				(unsigned long)n, kind, list, opt);
		free(list);
		free(w);
		free(shown);
		rc = -1;
	}
	free(v);
	return rc;
}

/* The name under which the file's column 'name' is read: the mapping's
 * name, the name itself, or NULL when it is left out (another column
 * is mapped to its name); '*mapped' set when a mapping named it. */
static const char *column_name(const segc_csv_options *t, const char *name,
	int *mapped)
{
	size_t k;

	*mapped = 0;
	for (k = 0; t && k < t->nmap; k++)
		if (!strcmp(t->map_columns[k], name)) {
			*mapped = 1;
			return t->map_names[k];
		}
	for (k = 0; t && k < t->nmap; k++)
		if (!strcmp(t->map_names[k], name))
			return NULL;
	return name;
}

/* Non-zero when 's' is an identifier. */
static int identifier(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
	    *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* Refuses a mapping of a column that names neither a parameter nor the
 * chosen metric; -1 after an error. */
static int check_mappings(extrap_exp *x, const segc_csv_options *t,
	const char *metric)
{
	size_t k, j;
	int bad = 0;

	for (k = 0; t && k < t->nmap; k++) {
		char *col;

		for (j = 0; j < x->nparams; j++)
			if (!strcmp(x->params[j], t->map_columns[k]))
				break;
		if (j < x->nparams || (!strcmp(t->map_columns[k], metric) &&
		    segc_csv_is_measurement(t->map_names[k])))
			continue;
		col = extrap_printable(t->map_columns[k],
			strlen(t->map_columns[k]), 100);
		segc_error(x->ctx, SEGC_ERR_INPUT, x->file, 0, 0, "--column "
			"%.100s=%s: the file has no parameter '%s'%s",
			t->map_names[k], col, col,
			segc_csv_is_measurement(t->map_names[k]) ? " nor metric of "
			"that name" : "");
		free(col);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* Sets the columns of 'C': the kept parameters (their index in
 * 'keep'), then the measurement; the names left out recorded. */
static void set_columns(extrap_exp *x, segc_csv *C, const segc_csv_options
	*t, const char *metric, size_t *keep, const extrap_place *mat)
{
	size_t j, k;
	int mapped;
	const char *name;

	C->header = segc_xcalloc(x->nparams + 2, sizeof *C->header);
	C->header_col = segc_xcalloc(x->nparams + 2, sizeof *C->header_col);
	C->ignored = segc_xcalloc(x->nparams + 1, sizeof *C->ignored);
	for (j = 0; j < x->nparams; j++) {
		name = column_name(t, x->params[j], &mapped);
		if (name && (mapped || identifier(name)) && (!t || !t->wanted ||
		    t->wanted(t->wanted_arg, name))) {
			keep[C->ncols] = j;
			C->header_col[C->ncols] = x->param_at[j].col;
			C->header[C->ncols++] = segc_xstrdup(name);
		} else {
			C->ignored[C->nignored++] = segc_printable_dup(x->params[j]);
		}
	}
	name = "time";
	for (k = 0; t && k < t->nmap; k++)
		if (!strcmp(t->map_columns[k], metric) &&
		    segc_csv_is_measurement(t->map_names[k]))
			name = t->map_names[k];
	C->header_col[C->ncols] = mat->col;
	C->header[C->ncols++] = segc_xstrdup(name);
	C->header_line = mat->line;
}

/* Non-zero when the value 'v' belongs to the chosen blocks. */
static int chosen_value(const extrap_exp *x, const extrap_value *v,
	const char *callpath, const char *metric)
{
	const extrap_block *b = &x->blocks[v->block];

	return !strcmp(block_name(b, 0), callpath) &&
		!strcmp(block_name(b, 1), metric);
}

/* Fills the rows of 'C' from the chosen values. */
static void fill_rows(extrap_exp *x, segc_csv *C, const size_t *keep,
	const char *callpath, const char *metric)
{
	size_t i, j, r = 0, m = C->ncols - 1;

	for (i = 0; i < x->nvalues; i++)
		C->caprows += chosen_value(x, &x->values[i], callpath, metric);
	C->cells = segc_xmalloc(segc_xmul_size(segc_xmul_size(C->caprows,
		C->ncols) + 1, sizeof(mpq_t)));
	C->col = segc_xmalloc(segc_xmul_size(segc_xmul_size(C->caprows,
		C->ncols) + 1, sizeof(long)));
	C->line = segc_xmalloc(segc_xmul_size(C->caprows + 1, sizeof(long)));
	for (i = 0; i < x->nvalues; i++) {
		const extrap_value *v = &x->values[i];

		if (!chosen_value(x, v, callpath, metric))
			continue;
		for (j = 0; j < m; j++) {
			mpq_init(C->cells[r * C->ncols + j]);
			mpq_set(C->cells[r * C->ncols + j],
				extrap_coord(x, v->point, keep[j]));
			C->col[r * C->ncols + j] = x->point_at[v->point].col;
		}
		mpq_init(C->cells[r * C->ncols + m]);
		mpq_set(C->cells[r * C->ncols + m], v->v);
		C->col[r * C->ncols + m] = v->at.col;
		C->line[r++] = v->at.line;
	}
	C->nrows = r;
}

/* The place of the first block of the chosen call path and metric. */
static extrap_place block_place(const extrap_exp *x, const char *callpath,
	const char *metric)
{
	size_t i;
	extrap_place none = { 0, 0 };

	for (i = 0; i < x->nblocks; i++)
		if (!strcmp(block_name(&x->blocks[i], 0), callpath) &&
		    !strcmp(block_name(&x->blocks[i], 1), metric))
			return x->blocks[i].at;
	return none;
}

/* The table of the chosen values (see extrap.h). */
segc_csv *extrap_table(extrap_exp *x, const segc_extrap_options *o)
{
	const segc_csv_options *t = o ? &o->table : NULL;
	const char *callpath, *metric;
	segc_csv *C;
	size_t *keep;
	extrap_place at;

	if (choose(x, 0, NULL, o ? o->callpath : NULL, &callpath) ||
	    choose(x, 1, callpath, o ? o->metric : NULL, &metric) ||
	    check_mappings(x, t, metric))
		return NULL;
	at = block_place(x, callpath, metric);
	C = segc_xcalloc(1, sizeof *C);
	C->file = segc_xstrdup(x->file);
	keep = segc_xcalloc(x->nparams + 1, sizeof *keep);
	set_columns(x, C, t, metric, keep, &at);
	fill_rows(x, C, keep, callpath, metric);
	free(keep);
	if (!C->nrows) {
		char *m = extrap_printable(metric, strlen(metric), 200);
		char *c = extrap_printable(callpath, strlen(callpath), 200);

		segc_error(x->ctx, SEGC_ERR_INPUT, x->file, at.line, at.col,
			"no measured value of the metric '%s' at the call path "
			"'%s'", m, c);
		free(m);
		free(c);
		segc_csv_free(C);
		return NULL;
	}
	if (t && t->aggregate != SEGC_CSV_EACH)
		segc_csv_aggregate_rows(C, t->aggregate);
	return C;
}
