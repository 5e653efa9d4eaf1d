/* json_eval.c - the document of 'segc eval --json' (doc/json.md): the
 * table of the grid or of --measured, each cell as its exact value (a
 * string, null when the value is not rational) and the decimal the text
 * table prints beside it. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli/cli_eval.h"
#include "cli/cli_json.h"
#include "cli/cli_util.h"
#include "cli/json_commands.h"

/* The exact values of one row, in the order of the table's columns;
 * 'have' says which are known. */
typedef struct exact_row {
	mpq_t *q;
	int *have;
} exact_row;

/* Evaluates component formula 'e' exactly at the current point into
 * 'q'; non-zero when it has a rational value. */
static int exact_at(eval_run *r, const segc_expr *e, mpq_t q)
{
	segc_point pt;
	segc_ctx *trial = segc_ctx_new();
	int ok;

	*segc_ctx_limits(trial) = *segc_ctx_limits(r->ctx);
	pt.n = r->npoint;
	pt.names = r->names;
	pt.values = (const mpq_t *)r->values;
	ok = segc_eval_exact(trial, q, e, &pt, NULL) == 0;
	segc_ctx_free(trial);
	return ok;
}

/* The speedup and efficiency columns from T(P) in 'x'[4] (the total)
 * and T at P = 1, as eval_row computes them in MPFR. */
static void speedup(eval_run *r, exact_row *x, size_t at)
{
	mpq_t t1, p;

	mpq_init(t1);
	mpq_init(p);
	mpq_set(p, r->values[r->procs]);
	mpq_set_ui(r->values[r->procs], 1, 1);
	if (x->have[at - 1] && mpq_sgn(x->q[at - 1]) &&
	    exact_at(r, r->f[0], t1)) {
		mpq_div(x->q[at + 1], t1, x->q[at - 1]);
		if (r->o->weak) {
			mpq_mul(x->q[at], x->q[at + 1], p);
		} else {
			mpq_set(x->q[at], x->q[at + 1]);
			mpq_div(x->q[at + 1], x->q[at], p);
		}
		x->have[at] = x->have[at + 1] = 1;
	}
	mpq_set(r->values[r->procs], p);
	mpq_clear(t1);
	mpq_clear(p);
}

/* The column of the measured component named 'name' ("total_measured")
 * among the formulas: 0 total, 1 comp, 2 comm, 3 io. */
static int measured_component(const char *name)
{
	static const char *const comps[] = { "total", "comp", "comm", "io" };
	int k;

	for (k = 0; k < 4; k++)
		if (!strncmp(name, comps[k], strlen(comps[k])) &&
		    !strcmp(name + strlen(comps[k]), "_measured"))
			return k;
	return -1;
}

/* The measured value of component 'k' in row 'row' of 'csv' into 'q'. */
static int measured(const segc_csv *csv, size_t row, int k, mpq_t q)
{
	static const char *const comps[] = { "total", "comp", "comm", "io" };
	size_t j = segc_csv_column(csv, comps[k]);

	if (j == (size_t)-1 && k == 0)
		j = segc_csv_column(csv, "time");
	if (j == (size_t)-1)
		return 0;
	mpq_set(q, segc_csv_row(csv, row)[j]);
	return 1;
}

/* Fills the exact values of table row 'row' (cells from 'cells'). */
static void fill_row(eval_run *r, const segc_csv *csv, size_t row,
	char *const *cells, exact_row *x)
{
	size_t ncols = r->t.ncols, i, base = r->nax;
	int k, m;

	for (i = 0; i < ncols; i++)
		x->have[i] = 0;
	for (i = 0; i < r->nax; i++) {
		x->have[i] = !mpq_set_str(x->q[i], cells[i], 10);
		if (x->have[i])
			mpq_canonicalize(x->q[i]);
		mpq_set(r->values[i], x->q[i]);
	}
	for (k = 0; k < 4; k++)
		x->have[base + (size_t)k] = exact_at(r, r->f[(k + 1) % 4],
			x->q[base + (size_t)k]);
	i = base + 4;
	if (r->speedup) {
		speedup(r, x, i);
		i += 2;
	}
	for (; csv && i + 1 < ncols; i += 2) {
		m = measured_component(r->t.cells[i]);
		if (m < 0 || !measured(csv, row, m, x->q[i]))
			continue;
		x->have[i] = 1;
		k = m == 0 ? 3 : m - 1;      /* its column among the four */
		if (mpq_sgn(x->q[i]) && x->have[base + (size_t)k]) {
			mpq_sub(x->q[i + 1], x->q[base + (size_t)k], x->q[i]);
			mpq_div(x->q[i + 1], x->q[i + 1], x->q[i]);
			x->have[i + 1] = 1;
		}
	}
}

/* Writes one row: each column's exact value and its decimal. */
static void write_row(cli_json *j, const eval_run *r, char *const *cells,
	const exact_row *x)
{
	char *key;
	size_t i;

	cli_json_open(j, '{');
	for (i = 0; i < r->t.ncols; i++) {
		cli_json_key(j, r->t.cells[i]);
		if (x->have[i]) {
			char *t = mpq_get_str(NULL, 10, x->q[i]);

			cli_json_string(j, t);
			free(t);
		} else {
			cli_json_null(j);
		}
		key = cli_xmalloc(strlen(r->t.cells[i]) + sizeof "_decimal");
		sprintf(key, "%s_decimal", r->t.cells[i]);
		cli_json_key(j, key);
		free(key);
		cli_json_decimal_text(j, cells[i]);
	}
	cli_json_close(j, '}');
}

/* Writes the document of 'eval --json' (see json_commands.h). */
void json_eval(eval_run *r, const segc_csv *csv)
{
	size_t ncols = r->t.ncols, i, nrows;
	exact_row x;
	cli_json j;

	x.q = cli_xmalloc((ncols + 1) * sizeof *x.q);
	x.have = cli_xcalloc(ncols + 1, sizeof *x.have);
	for (i = 0; i < ncols; i++)
		mpq_init(x.q[i]);
	nrows = ncols ? r->t.ncells / ncols - 1 : 0;
	cli_json_init(&j);
	cli_json_open(&j, '{');
	cli_json_key(&j, "command");
	cli_json_string(&j, "eval");
	cli_json_key(&j, "model");
	cli_json_string(&j, r->title);
	cli_json_key(&j, "columns");
	cli_json_open(&j, '[');
	for (i = 0; i < ncols; i++)
		cli_json_string(&j, r->t.cells[i]);
	cli_json_close(&j, ']');
	cli_json_key(&j, "rows");
	cli_json_open(&j, '[');
	for (i = 0; i < nrows; i++) {
		char *const *cells = r->t.cells + (i + 1) * ncols;

		fill_row(r, csv, i, cells, &x);
		write_row(&j, r, cells, &x);
	}
	cli_json_close(&j, ']');
	cli_json_close(&j, '}');
	cli_json_end(&j);
	for (i = 0; i < ncols; i++)
		mpq_clear(x.q[i]);
	free(x.q);
	free(x.have);
}
