/* optimize.c - on a formula cut into rational pieces (pieces.c): the
 * integer where it is least or most, certified (stationary points and
 * poles isolated exactly, the integers around them and at the ends of
 * the pieces compared exactly: never by sampling), and its real roots. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "base/util.h"

/* The search: the result being built and the best so far. */
typedef struct search {
	segc_ctx *ctx;
	segc_optimum *o;
	int maximize, found;
	const char *var, *file;
	mpz_t ia, ib;          /* the integers of the current piece */
	size_t ccap, scap;
} search;

/* Compares the exact value of the piece at candidate 'x' with the best;
 * -1 (recorded) where the formula is undefined. */
static int try_candidate(search *S, const segc_upiece *p, mpz_srcptr x)
{
	mpq_t qx, d, v;
	int rc = 0, c;

	if (mpz_cmp(x, S->ia) < 0 || mpz_cmp(x, S->ib) > 0)
		return 0;
	mpq_init(qx); mpq_init(d); mpq_init(v);
	mpq_set_z(qx, x);
	segc_upoly_eval(d, &p->den, qx);
	if (!mpq_sgn(d)) {
		char *t = mpz_get_str(NULL, 10, x);

		segc_error(S->ctx, SEGC_ERR_INPUT, S->file, 0, 0, "the quantity "
			"is undefined at %s=%s (a division by zero)", S->var, t);
		free(t);
		rc = -1;
		goto out;
	}
	segc_upoly_eval(v, &p->num, qx);
	mpq_div(v, v, d);
	if (S->o->ncand == S->ccap) {
		S->ccap = S->ccap ? 2 * S->ccap : 16;
		S->o->cand = segc_xrealloc(S->o->cand, segc_xmul_size(S->ccap,
			sizeof *S->o->cand));
	}
	mpz_init_set(S->o->cand[S->o->ncand++], x);
	c = S->found ? mpq_cmp(v, S->o->value) : 0;
	if (!S->found || (S->maximize ? c > 0 : c < 0) ||
	    (!c && mpz_cmp(x, S->o->best) < 0)) {
		mpq_set(S->o->value, v);
		mpz_set(S->o->best, x);
		S->found = 1;
	}
out:
	mpq_clear(qx); mpq_clear(d); mpq_clear(v);
	return rc;
}

/* Records stationary point 'i' of 'rs' in decimal. */
static void note_stationary(search *S, segc_roots *rs, size_t i)
{
	if (S->o->nstat == S->scap) {
		S->scap = S->scap ? 2 * S->scap : 8;
		S->o->stat = segc_xrealloc(S->o->stat, segc_xmul_size(S->scap,
			sizeof *S->o->stat));
	}
	S->o->stat[S->o->nstat++] = segc_root_decimal(rs, i, 12);
}

/* Non-zero when root 'i' of 'rs' lies strictly inside the piece. */
static int inside(const segc_roots *rs, size_t i, const segc_upiece *p)
{
	return mpq_cmp(rs->r[i].lo, p->lo) >= 0 && mpq_cmp(rs->r[i].hi,
		p->hi) <= 0 && !(mpq_equal(rs->r[i].lo, rs->r[i].hi) &&
		(mpq_equal(rs->r[i].lo, p->lo) || mpq_equal(rs->r[i].lo,
		p->hi)));
}

/* Tries the integers around every root of 'poly' inside the piece: the
 * floor and ceil of a stationary point, the integers on either side of
 * a pole. */
static int try_roots(search *S, const segc_upiece *p, const segc_upoly *poly,
	int pole)
{
	segc_roots rs;
	mpz_t f, c;
	size_t i;
	int rc = 0;

	if (segc_upoly_degree(poly) < 1)
		return 0;
	segc_roots_init(&rs);
	mpz_init(f);
	mpz_init(c);
	segc_upoly_roots(&rs, poly, p->lo, p->hi);
	for (i = 0; i < rs.n && !rc; i++) {
		if (!inside(&rs, i, p))
			continue;
		if (!pole)
			note_stationary(S, &rs, i);
		segc_root_floor_ceil(&rs, i, f, c);
		if (pole && !mpz_cmp(f, c)) {
			mpz_sub_ui(f, f, 1);
			mpz_add_ui(c, c, 1);
		}
		rc = try_candidate(S, p, f) || try_candidate(S, p, c) ? -1 : 0;
	}
	mpz_clear(f);
	mpz_clear(c);
	segc_roots_clear(&rs);
	return rc;
}

/* Searches one piece: a point, or the integers of an open interval. */
static int search_piece(search *S, const segc_upiece *p)
{
	segc_upoly d, t;
	int rc;

	if (p->sliver)
		return 0;
	if (mpq_equal(p->lo, p->hi)) {
		if (mpz_cmp_ui(mpq_denref(p->lo), 1))
			return 0;
		mpz_set(S->ia, mpq_numref(p->lo));
		mpz_set(S->ib, S->ia);
		return try_candidate(S, p, S->ia);
	}
	mpz_fdiv_q(S->ia, mpq_numref(p->lo), mpq_denref(p->lo));
	mpz_add_ui(S->ia, S->ia, 1);
	mpz_cdiv_q(S->ib, mpq_numref(p->hi), mpq_denref(p->hi));
	mpz_sub_ui(S->ib, S->ib, 1);
	if (mpz_cmp(S->ia, S->ib) > 0)
		return 0;
	if (try_candidate(S, p, S->ia) || try_candidate(S, p, S->ib))
		return -1;
	segc_upoly_init(&d);
	segc_upoly_init(&t);
	segc_upoly_deriv(&d, &p->num);
	segc_upoly_mul(&d, &d, &p->den);
	segc_upoly_deriv(&t, &p->den);
	segc_upoly_mul(&t, &t, &p->num);
	segc_upoly_sub(&d, &d, &t);
	rc = try_roots(S, p, &d, 0) || try_roots(S, p, &p->den, 1) ? -1 : 0;
	segc_upoly_clear(&d);
	segc_upoly_clear(&t);
	return rc;
}

/* Orders integers (qsort). */
static int cmp_mpz(const void *a, const void *b)
{
	return mpz_cmp(*(const mpz_t *)a, *(const mpz_t *)b);
}

/* Sorts the candidates and drops repeats. */
static void unique_candidates(segc_optimum *o)
{
	size_t i, k = 0;

	qsort(o->cand, o->ncand, sizeof *o->cand, cmp_mpz);
	for (i = 0; i < o->ncand; i++) {
		if (k && !mpz_cmp(o->cand[k - 1], o->cand[i])) {
			mpz_clear(o->cand[i]);
			continue;
		}
		if (k != i)
			memcpy(o->cand[k], o->cand[i], sizeof(mpz_t));
		k++;
	}
	o->ncand = k;
}

/* The optimum over the integers of [lo, hi] (see analysis.h). */
int segc_optimize(segc_ctx *ctx, segc_optimum *out, segc_pieces *ps,
	int maximize, const char *var, const char *file)
{
	search S;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof *out);
	mpz_init(out->best);
	mpq_init(out->value);
	memset(&S, 0, sizeof S);
	S.ctx = ctx;
	S.o = out;
	S.maximize = maximize;
	S.var = var;
	S.file = file;
	mpz_init(S.ia);
	mpz_init(S.ib);
	out->npieces = ps->n;
	for (i = 0; i < ps->n && !rc; i++)
		rc = search_piece(&S, &ps->p[i]);
	mpz_clear(S.ia);
	mpz_clear(S.ib);
	unique_candidates(out);
	if (!rc && !S.found) {
		segc_error(ctx, SEGC_ERR_INPUT, file, 0, 0, "the range of '%s' "
			"holds no integer", var);
		rc = -1;
	}
	return rc;
}

/* Releases 'o'. */
void segc_optimum_clear(segc_optimum *o)
{
	size_t i;

	mpz_clear(o->best);
	mpq_clear(o->value);
	for (i = 0; i < o->nstat; i++)
		free(o->stat[i]);
	free(o->stat);
	for (i = 0; i < o->ncand; i++)
		mpz_clear(o->cand[i]);
	free(o->cand);
	memset(o, 0, sizeof *o);
}

/* ---------------------------------------------------------------- roots */

/* Appends 'text' (taken) to the list 'v' of 'n'. */
static void push_text(char ***v, size_t *n, char *text)
{
	*v = segc_xrealloc(*v, segc_xmul_size(*n + 1, sizeof **v));
	(*v)[(*n)++] = text;
}

/* Appends a root to 's'. */
static void push_root(segc_solution *s, char *text, int exact)
{
	s->exact = segc_xrealloc(s->exact, segc_xmul_size(s->n + 1,
		sizeof *s->exact));
	s->exact[s->n] = exact;
	push_text(&s->root, &s->n, text);
}

/* "A..B" for the interval (lo, hi). */
static char *interval_text(mpq_srcptr lo, mpq_srcptr hi)
{
	char *a = mpq_get_str(NULL, 10, lo), *b = mpq_get_str(NULL, 10, hi);
	char *t = segc_xmalloc(strlen(a) + strlen(b) + 3);

	strcpy(t, a);
	strcat(t, "..");
	strcat(t, b);
	free(a);
	free(b);
	return t;
}

/* The roots of one open piece. */
static void solve_interval(segc_solution *out, const segc_upiece *p,
	int digits)
{
	segc_roots rs;
	size_t i;

	if (!p->num.len) {
		push_text(&out->zero, &out->nzero, interval_text(p->lo, p->hi));
		return;
	}
	if (segc_upoly_degree(&p->num) < 1)
		return;
	segc_roots_init(&rs);
	segc_upoly_roots(&rs, &p->num, p->lo, p->hi);
	for (i = 0; i < rs.n; i++)
		if (inside(&rs, i, p))
			push_root(out, segc_root_decimal(&rs, i, digits),
				mpq_equal(rs.r[i].lo, rs.r[i].hi));
	segc_roots_clear(&rs);
}

/* The sign of the limit at x of piece 'p' (continued to x), or 0. */
static int limit_sign(const segc_upiece *p, mpq_srcptr x)
{
	return segc_upoly_sign_at(&p->num, x) * segc_upoly_sign_at(&p->den, x);
}

/* Records point piece 'i' when the formula jumps across zero there: the
 * limits from both sides have opposite signs. */
static void note_jump(segc_solution *out, const segc_pieces *ps, size_t i)
{
	const segc_upiece *p = &ps->p[i];
	int l, r;

	if (!i || i + 1 >= ps->n || !segc_upoly_sign_at(&p->num, p->lo))
		return;
	l = limit_sign(&ps->p[i - 1], p->lo);
	r = limit_sign(&ps->p[i + 1], p->lo);
	if (l * r < 0)
		push_text(&out->jump, &out->njump, mpq_get_str(NULL, 10,
			p->lo));
}

/* The number of distinct roots of a * b in [u, v]. */
static size_t roots_in(const segc_upoly *a, const segc_upoly *b,
	mpq_srcptr u, mpq_srcptr v)
{
	segc_upoly t;
	segc_roots rs;
	size_t n = 0;

	segc_upoly_init(&t);
	segc_upoly_mul(&t, a, b);
	if (segc_upoly_degree(&t) >= 1) {
		segc_roots_init(&rs);
		segc_upoly_roots(&rs, &t, u, v);
		n = rs.n;
		segc_roots_clear(&rs);
	}
	segc_upoly_clear(&t);
	return n;
}

/* One side of a sliver: the formula met there, its numerator without
 * the factor it shares with the switch polynomial, and whether it
 * vanishes at the switch. */
typedef struct side {
	const segc_upiece *p;
	segc_upoly rest, shared;
	int zero;
} side;

/* Prepares side 's' of piece 'p' at the sliver of switch 'k'. */
static void side_init(side *s, const segc_upiece *p, segc_pieces *ps,
	size_t k)
{
	segc_upoly r, one;
	mpq_t q;

	s->p = p;
	segc_upoly_init(&s->rest);
	segc_upoly_init(&s->shared);
	segc_upoly_init(&r);
	segc_upoly_init(&one);
	mpq_init(q);
	mpq_set_ui(q, 1, 1);
	segc_upoly_set_q(&one, q);
	segc_upoly_gcd(&s->shared, &p->num, &ps->breaks.sqf);
	if (p->num.len)
		segc_upoly_divrem(&s->rest, &r, &p->num, &s->shared);
	s->zero = !p->num.len || roots_in(&s->shared, &one,
		ps->breaks.r[k].lo, ps->breaks.r[k].hi) > 0;
	mpq_clear(q);
	segc_upoly_clear(&one);
	segc_upoly_clear(&r);
}

/* Releases 's'. */
static void side_clear(side *s)
{
	segc_upoly_clear(&s->rest);
	segc_upoly_clear(&s->shared);
}

/* Narrows the sliver of switch 'k' until neither side has a root or a
 * pole in it but at the switch itself; 0, or -1 when that fails. */
static int clear_sliver(segc_pieces *ps, size_t k, side *l, side *r)
{
	mpq_t w;
	int n;

	mpq_init(w);
	for (n = 0; n < 256; n++) {
		segc_root *x = &ps->breaks.r[k];

		if (!roots_in(&l->rest, &l->p->den, x->lo, x->hi) &&
		    !roots_in(&r->rest, &r->p->den, x->lo, x->hi))
			break;
		mpq_sub(w, x->hi, x->lo);
		mpq_div_2exp(w, w, 1);
		segc_root_refine(&ps->breaks, k, w);
	}
	mpq_clear(w);
	return n < 256 ? 0 : -1;
}

/* The roots at the sliver 'i': its switch when both sides vanish there,
 * or a crossing of zero there; -1 (recorded) when it cannot tell. */
static int solve_sliver(segc_ctx *ctx, segc_solution *out, segc_pieces *ps,
	size_t i, int digits, const char *file)
{
	size_t k = ps->p[i].root;
	side l, r;
	int rc = 0, sl, sr;

	side_init(&l, &ps->p[i - 1], ps, k);
	side_init(&r, &ps->p[i + 1], ps, k);
	if (clear_sliver(ps, k, &l, &r) || l.zero != r.zero) {
		segc_error(ctx, SEGC_ERR_LIMIT, file, 0, 0, "a root lies where "
			"a max, min or if() switches, and the side that holds "
			"there is not known exactly");
		rc = -1;
	} else if (l.zero)
		push_root(out, segc_root_decimal(&ps->breaks, k, digits), 0);
	else if (l.p->num.len && r.p->num.len) {
		sl = limit_sign(l.p, ps->breaks.r[k].lo);
		sr = limit_sign(r.p, ps->breaks.r[k].hi);
		if (sl * sr < 0)
			push_text(&out->jump, &out->njump, segc_root_decimal(
				&ps->breaks, k, digits));
	}
	side_clear(&l);
	side_clear(&r);
	return rc;
}

/* The real roots of 'ps' (see analysis.h). */
int segc_solve(segc_ctx *ctx, segc_solution *out, segc_pieces *ps,
	int digits, const char *file)
{
	size_t i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < ps->n; i++) {
		const segc_upiece *p = &ps->p[i];

		if (p->sliver) {
			if (solve_sliver(ctx, out, ps, i, digits, file))
				return -1;
		} else if (!mpq_equal(p->lo, p->hi))
			solve_interval(out, p, digits);
		else if (!segc_upoly_sign_at(&p->num, p->lo) &&
			 segc_upoly_sign_at(&p->den, p->lo))
			push_root(out, mpq_get_str(NULL, 10, p->lo), 1);
		else
			note_jump(out, ps, i);
	}
	return 0;
}

/* Releases 's'. */
void segc_solution_clear(segc_solution *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->root[i]);
	for (i = 0; i < s->nzero; i++)
		free(s->zero[i]);
	for (i = 0; i < s->njump; i++)
		free(s->jump[i]);
	free(s->jump);
	free(s->root);
	free(s->exact);
	free(s->zero);
	memset(s, 0, sizeof *s);
}
