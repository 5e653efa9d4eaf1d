/* eval_map.c - 'segc eval --map X Y': the total time (or the component
 * of --component) over the grid of two parameters, printed as a matrix (rows Y, columns X) and, with
 * --svg, drawn as a forecast map (Armstrong and Eigenmann, Fig. 4): the
 * time shaded on a logarithmic colour scale, with a colour bar. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_eval.h"
#include "cli/cli_util.h"

/* The index of the axis named 'name', or (size_t)-1. */
static size_t axis_index(const eval_opts *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->naxes; i++)
		if (!strcmp(o->axes[i].name, name))
			return i;
	return (size_t)-1;
}

/* Checks --map X Y against the grid: X and Y two different names given
 * as NAME=RANGE, every other name of the grid one value; an exit code. */
int eval_map_check(eval_run *r, size_t *ix, size_t *iy)
{
	const eval_opts *o = r->o;
	size_t i;

	if (!strcmp(o->map_x, o->map_y))
		return cli_usage(r->c, "--map %s %s: the two names must differ",
			o->map_x, o->map_y);
	*ix = axis_index(o, o->map_x);
	*iy = axis_index(o, o->map_y);
	if (*ix == (size_t)-1 || *iy == (size_t)-1) {
		const char *m = *ix == (size_t)-1 ? o->map_x : o->map_y;

		return cli_usage(r->c, "--map %s %s: '%s' is not a swept name: "
			"give %s=RANGE", o->map_x, o->map_y, m, m);
	}
	for (i = 0; i < o->naxes; i++)
		if (i != *ix && i != *iy && o->axes[i].n > 1)
			return cli_usage(r->c, "--map shades the grid of %s and %s: "
				"give %s one value", o->map_x, o->map_y,
				o->axes[i].name);
	return CLI_OK;
}

/* Evaluates the total (or the component of --component) over the grid of X (axis 'ix') and Y (axis 'iy')
 * into the matrix of the table (rows Y in the order of its range, columns
 * X) and the values of the map; 0, or -1 recorded. */
int eval_map(eval_run *r, size_t ix, size_t iy)
{
	const cli_axis *ax = &r->o->axes[ix], *ay = &r->o->axes[iy];
	size_t i, j;
	int k = r->o->map_comp;
	char corner[300];

	for (i = 0; i < r->o->naxes; i++)
		mpq_set(r->values[i], r->o->axes[i].v[0]);
	r->t.ncols = ax->n + 1;
	snprintf(corner, sizeof corner, "%.140s\\%.140s", ay->name, ax->name);
	eval_table_put(&r->t, corner);
	for (i = 0; i < ax->n; i++)
		eval_table_put_value(&r->t, r->o, ax->v[i]);
	for (j = 0; j < ay->n; j++) {
		mpq_set(r->values[iy], ay->v[j]);
		eval_table_put_value(&r->t, r->o, ay->v[j]);
		for (i = 0; i < ax->n; i++) {
			mpq_set(r->values[ix], ax->v[i]);
			if (eval_at(r, r->f[k], r->v[k])) {
				eval_report_point(r);
				return -1;
			}
			eval_table_put_mpfr(&r->t, r->v[k], r->o->digits);
			r->t.y[0][j * ax->n + i] = mpfr_get_d(r->v[k], MPFR_RNDN);
		}
	}
	return 0;
}

/* Shortens in place an integer label with four or more trailing zeros
 * to its exact scientific form: 10000000 -> 1e7, 17000000 -> 1.7e7. */
static void compact_label(char *s)
{
	size_t n = strlen(s), z = 0, d, i;
	const char *digits = s[0] == '-' ? s + 1 : s;
	char buf[64], *o = buf;

	if (strchr(s, '/') || n >= sizeof buf - 8)
		return;
	while (z < n && s[n - 1 - z] == '0')
		z++;
	d = strlen(digits) - z;
	if (z < 4 || d == 0)
		return;
	if (s[0] == '-')
		*o++ = '-';
	*o++ = digits[0];
	if (d > 1) {
		*o++ = '.';
		for (i = 1; i < d; i++)
			*o++ = digits[i];
	}
	sprintf(o, "e%zu", d - 1 + z);
	strcpy(s, buf);
}

/* The labels of the values of 'a' (exact rationals; large round integers
 * in exact scientific form). */
static char **tick_labels(const cli_axis *a)
{
	char **v = cli_xcalloc(a->n + 1, sizeof *v);
	size_t i;

	for (i = 0; i < a->n; i++) {
		v[i] = mpq_get_str(NULL, 10, a->v[i]);
		compact_label(v[i]);
	}
	return v;
}

/* Writes the forecast map to the file of --svg; 0, or -1 reported. */
int eval_map_svg(eval_run *r, size_t ix, size_t iy)
{
	static const char *const comps[] = { "total", "comp", "comm", "io" };
	const cli_axis *ax = &r->o->axes[ix], *ay = &r->o->axes[iy];
	char **xt = tick_labels(ax), **yt = tick_labels(ay), *svg;
	char title[300];
	segc_svg_map_spec m;
	size_t i;
	int rc = -1;

	snprintf(title, sizeof title, "%.200s: %s time", r->title,
		comps[r->o->map_comp]);
	m.title = title;
	m.xlabel = ax->name;
	m.ylabel = ay->name;
	m.zlabel = "time";
	m.nx = ax->n;
	m.ny = ay->n;
	m.xticks = (const char *const *)xt;
	m.yticks = (const char *const *)yt;
	m.z = r->t.y[0];
	svg = segc_svg_map(&m);
	if (!svg)
		fprintf(stderr, "segc: eval: nothing to shade on a log scale (no "
			"positive value)\n");
	else
		rc = cli_output_write(r->svg, svg);
	free(svg);
	for (i = 0; i < ax->n; i++)
		free(xt[i]);
	for (i = 0; i < ay->n; i++)
		free(yt[i]);
	free(xt);
	free(yt);
	return rc;
}
