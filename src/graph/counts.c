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

/* The loop counts of a program, lowered once (see segc_model.h). */
struct segc_counts {
	segc_lowered *lw;            /* NULL: a model without a graph */
	const segc_setting *s;       /* its setting (domains) */
};

/* See segc_model.h. */
segc_counts *segc_counts_new(segc_ctx *ctx, const segc_setting *s)
{
	const segc_graph *g = s->model ? segc_model_main_graph(s->model)
		: NULL;
	segc_counts *c = segc_xcalloc(1, sizeof(*c));

	if (!g)
		return c;
	c->lw = segc_lower_once(ctx, s->model, g);
	if (c->lw && segc_setting_apply_lowered(ctx, s, c->lw)) {
		segc_lowered_free(c->lw);
		c->lw = NULL;
	}
	c->s = s;
	if (!c->lw) {
		segc_counts_free(c);
		return NULL;
	}
	return c;
}

/* See segc_model.h. */
void segc_counts_free(segc_counts *c)
{
	if (!c)
		return;
	segc_lowered_free(c->lw);
	free(c);
}

/* Records the error of count arc 'a', 'v' at the point 'p' (a text)
 * when 'ctx' is not NULL; -1. */
static int refuse(segc_ctx *ctx, const segc_garc *a, mpq_srcptr v,
	const char *p, const char *range)
{
	char *t, *q;

	if (!ctx)
		return -1;
	t = segc_expr_quote(a->loop);
	q = mpq_get_str(NULL, 10, v);
	if (!q)
		abort();
	segc_error(ctx, SEGC_ERR_INPUT, a->loc->file, a->loc->line,
		a->loc->col, "the loop count %s is %s at the point %s%s: a "
		"loop count must be >= 0", t ? t : "?", q, p, range ? range :
		"");
	free(t);
	free(q);
	return -1;
}

/* See segc_model.h. */
int segc_counts_at(segc_ctx *ctx, const segc_counts *c, size_t n,
	const char *const *names, const mpq_t *values)
{
	size_t gi, i;
	mpq_t v;
	int rc = 0;

	if (!c->lw)
		return 0;
	mpq_init(v);
	for (gi = 0; gi < c->lw->ngraphs; gi++)
		for (i = 0; i < c->lw->graphs[gi].narcs; i++) {
			const segc_garc *a = &c->lw->graphs[gi].arcs[i];
			char *p;

			/* a count that names a counter is not decided here */
			if (!a->loop || !a->loc || segc_expr_eval_q(v, a->loop,
			    n, names, values) || mpq_sgn(v) >= 0)
				continue;
			p = ctx ? point_text(n, names, values) : NULL;
			rc = refuse(ctx, a, v, p, NULL);
			free(p);
			if (!ctx)
				goto out;
		}
out:
	mpq_clear(v);
	return rc;
}

/* The integers of a range at most this many apart are tried one by one
 * where the domains do not prove a count >= 0 over the range. */
#define COUNTS_SCAN 100000

/* Finds an integer x of [lo, hi] where count 'e' is negative (the other
 * names at the point, the range's name the last of 'names'): 1 and 'v'
 * its value, else 0 (also when 'e' has no value at an end).  Both ends,
 * then, unless the domains of 'c' with
 * x in [lo, hi] prove e >= 0, every integer of a range of at most
 * COUNTS_SCAN (a longer one is left to the ends). */
static int negative_in(const segc_counts *c, const segc_expr *e,
	const char *var, mpz_srcptr lo, mpz_srcptr hi, size_t n,
	const char **names, mpq_t *values, mpq_t v)
{
	segc_domains *d;
	segc_ctx *tmp;
	segc_expr *b = segc_expr_copy(e);
	mpz_t span, x;
	mpq_t ql, qh;
	unsigned s;
	int found = 0, k;

	for (k = 0; k < 2 && !found; k++) {
		mpq_set_z(values[n - 1], k ? hi : lo);
		if (segc_expr_eval_q(v, e, n, names, values)) {
			/* a count that names a counter or a name left free
			 * is not decided here */
			segc_expr_free(b);
			return 0;
		}
		found = mpq_sgn(v) < 0;
	}
	if (found) {
		segc_expr_free(b);
		return 1;
	}
	/* the other names at their values, x in [lo, hi]: proved? */
	for (k = 0; (size_t)k + 1 < n; k++) {
		segc_expr *num = segc_expr_num(values[k]);

		b = segc_expr_subst(b, names[k], num);
		segc_expr_free(num);
	}
	mpq_init(ql);
	mpq_init(qh);
	mpq_set_z(ql, lo);
	mpq_set_z(qh, hi);
	tmp = segc_ctx_new();
	d = segc_setting_domains(tmp, c->s);
	s = 0;
	if (d) {
		segc_domains_set(d, var, ql, qh, 1);
		s = segc_proved_signs(tmp, d, b);
	}
	segc_ctx_free(tmp);
	segc_domains_free(d);
	segc_expr_free(b);
	mpq_clear(ql);
	mpq_clear(qh);
	if (s & SEGC_PROVED_NONNEG)
		return 0;
	mpz_init(span);
	mpz_init_set(x, lo);
	mpz_sub(span, hi, lo);
	if (mpz_cmp_ui(span, COUNTS_SCAN) <= 0)
		for (; !found && mpz_cmp(x, hi) <= 0; mpz_add_ui(x, x, 1)) {
			mpq_set_z(values[n - 1], x);
			found = !segc_expr_eval_q(v, e, n, names, values) &&
				mpq_sgn(v) < 0;
		}
	mpz_clear(span);
	mpz_clear(x);
	return found;
}

/* See segc_model.h. */
int segc_counts_over(segc_ctx *ctx, const segc_counts *c, const char *var,
	mpq_srcptr lo, mpq_srcptr hi, size_t n, const char *const *names,
	const mpq_t *values)
{
	const char **nm;
	mpq_t *val, v;
	mpz_t zl, zh;
	size_t gi, i;
	int rc = 0;

	if (!c->lw)
		return 0;
	nm = segc_xmalloc(segc_xmul_size(n + 1, sizeof(*nm)));
	val = segc_xmalloc(segc_xmul_size(n + 1, sizeof(*val)));
	for (i = 0; i <= n; i++) {
		mpq_init(val[i]);
		if (i < n) {
			nm[i] = names[i];
			mpq_set(val[i], values[i]);
		}
	}
	nm[n] = var;
	mpq_init(v);
	mpz_init(zl);
	mpz_init(zh);
	mpz_cdiv_q(zl, mpq_numref(lo), mpq_denref(lo));
	mpz_fdiv_q(zh, mpq_numref(hi), mpq_denref(hi));
	for (gi = 0; gi < c->lw->ngraphs && !rc; gi++)
		for (i = 0; i < c->lw->graphs[gi].narcs && !rc; i++) {
			const segc_garc *a = &c->lw->graphs[gi].arcs[i];
			char *p, *l, *h, *r;

			if (!a->loop || !a->loc || mpz_cmp(zl, zh) > 0 ||
			    !negative_in(c, a->loop, var, zl, zh, n + 1, nm,
			    val, v))
				continue;
			p = point_text(n + 1, nm, (const mpq_t *)val);
			l = mpz_get_str(NULL, 10, zl);
			h = mpz_get_str(NULL, 10, zh);
			r = segc_xmalloc(strlen(var) + strlen(l) + strlen(h) +
				16);
			sprintf(r, " (of %s=%s..%s)", var, l, h);
			rc = refuse(ctx, a, v, p, r);
			free(p);
			free(l);
			free(h);
			free(r);
		}
	mpz_clear(zl);
	mpz_clear(zh);
	mpq_clear(v);
	for (i = 0; i <= n; i++)
		mpq_clear(val[i]);
	free(val);
	free(nm);
	return rc;
}

/* Refuses the point (see segc_model.h): -1 with an error at each loop
 * whose count is negative there, else 0. */
int segc_setting_check_counts(segc_ctx *ctx, const segc_setting *s,
	size_t n, const char *const *names, const mpq_t *values)
{
	segc_counts *c = segc_counts_new(ctx, s);
	int rc;

	if (!c)
		return -1;
	rc = segc_counts_at(ctx, c, n, names, values);
	segc_counts_free(c);
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
