/* counts.c - the loop counts of a program as conditions on a point: a
 * count below zero is outside the model's domain, so a command that
 * evaluates a formula at a point refuses the point, at the <loop>
 * element, the way -D refuses the value (locate.c). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "model/model.h"
#include "base/util.h"

/* The text "N=3, P=2" of the point (names[i] = values[i]): malloc'd. */
static char *point_text(size_t n, const char *const *names,
	const mpq_t *values)
{
	size_t i, len = 1;
	char *buf, **q = segc_xmalloc(segc_xmul_size(n + 1, sizeof(*q)));

	for (i = 0; i < n; i++) {
		q[i] = mpq_get_str(NULL, 10, values[i]);
		if (!q[i])
			abort();
		len += strlen(names[i]) + strlen(q[i]) + 3;
	}
	buf = segc_xmalloc(len);
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(buf, ", ");
		strcat(buf, names[i]);
		strcat(buf, "=");
		strcat(buf, q[i]);
		free(q[i]);
	}
	free(q);
	return buf;
}

/* Refuses the point (see segc_model.h): -1 with an error at each loop
 * whose count is negative there, else 0. */
int segc_setting_check_counts(segc_ctx *ctx, const segc_setting *s,
	size_t n, const char *const *names, const mpq_t *values)
{
	const segc_graph *g = s->model ? segc_model_main_graph(s->model)
		: NULL;
	segc_lowered *lw;
	size_t gi, i;
	mpq_t v;
	int rc = 0;

	if (!g)
		return 0;
	lw = segc_lower_once(ctx, s->model, g);
	if (!lw)
		return -1;
	if (segc_setting_apply_lowered(ctx, s, lw)) {
		segc_lowered_free(lw);
		return -1;
	}
	mpq_init(v);
	for (gi = 0; gi < lw->ngraphs; gi++)
		for (i = 0; i < lw->graphs[gi].narcs; i++) {
			const segc_garc *a = &lw->graphs[gi].arcs[i];
			char *t, *p, *q;

			/* a count that names a counter is not decided here */
			if (!a->loop || !a->loc || segc_expr_eval_q(v, a->loop,
			    n, names, values) || mpq_sgn(v) >= 0)
				continue;
			t = segc_expr_quote(a->loop);
			p = point_text(n, names, values);
			q = mpq_get_str(NULL, 10, v);
			if (!q)
				abort();
			segc_error(ctx, SEGC_ERR_INPUT, a->loc->file,
				a->loc->line, a->loc->col, "the loop count %s is "
				"%s at the point %s: a loop count must be >= 0",
				t ? t : "?", q, p);
			free(t);
			free(p);
			free(q);
			rc = -1;
		}
	mpq_clear(v);
	segc_lowered_free(lw);
	return rc;
}

/* The loop counts of the program of 's' (see segc_model.h): copies of the
 * counts of every loop, with the setting's bindings applied. */
int segc_setting_loop_counts(segc_ctx *ctx, const segc_setting *s,
	segc_expr ***out, size_t *n)
{
	const segc_graph *g = s->model ? segc_model_main_graph(s->model)
		: NULL;
	segc_lowered *lw;
	size_t gi, i;

	*out = NULL;
	*n = 0;
	if (!g)
		return 0;
	lw = segc_lower_once(ctx, s->model, g);
	if (!lw)
		return -1;
	if (segc_setting_apply_lowered(ctx, s, lw)) {
		segc_lowered_free(lw);
		return -1;
	}
	for (gi = 0; gi < lw->ngraphs; gi++)
		for (i = 0; i < lw->graphs[gi].narcs; i++) {
			const segc_garc *a = &lw->graphs[gi].arcs[i];

			if (!a->loop)
				continue;
			*out = segc_xrealloc(*out, (*n + 1) * sizeof **out);
			(*out)[(*n)++] = segc_expr_copy(a->loop);
		}
	segc_lowered_free(lw);
	return 0;
}
