/* witness_search.c - the search for a point of the declared domains where
 * two formulas differ: the free names and uninterpreted functions of the
 * formulas, the points picked in the box of the domains, the comparison
 * of the two values there (witness.c evaluates them; a point where they
 * differ is evaluated again by eval's exact evaluator before it is
 * reported), and the text of a value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>

#include "algebra/eval/witness_private.h"
#include "base/util.h"

/* Precisions tried in turn at a point whose values are not exact. */
static const unsigned long precisions[] = { 64, 256, 1024 };

/* -------------------------------------------------------------- names */

/* The names and uninterpreted functions of two formulas. */
struct names {
	const char **v;          /* free names, sorted, distinct */
	size_t n, cap;
	const segc_expr **calls; /* one call of each uninterpreted function */
	size_t ncalls, capcalls;
};

/* Adds 'x' to the set 'v' of 'n' strings (capacity 'cap') unless there. */
static void add_name(const char ***v, size_t *n, size_t *cap, const char *x)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], x))
			return;
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		*v = segc_xrealloc(*v, segc_xmul_size(*cap, sizeof(**v)));
	}
	(*v)[(*n)++] = x;
}

/* Adds the call 'e' unless a function of its name is there. */
static void add_call(struct names *nm, const segc_expr *e)
{
	size_t i;

	for (i = 0; i < nm->ncalls; i++)
		if (!strcmp(nm->calls[i]->u.name, e->u.name) &&
		    nm->calls[i]->nargs == e->nargs)
			return;
	if (nm->ncalls == nm->capcalls) {
		nm->capcalls = nm->capcalls ? 2 * nm->capcalls : 4;
		nm->calls = segc_xrealloc(nm->calls,
			segc_xmul_size(nm->capcalls, sizeof(*nm->calls)));
	}
	nm->calls[nm->ncalls++] = e;
}

/* Collects the free names of 'e' (not the counters 'b' of the sums around
 * it) and its uninterpreted calls. */
static void collect(struct names *nm, const segc_expr *e,
	const struct binding *b)
{
	const struct binding *k;
	struct binding inner;
	size_t i;

	if (e->kind == SEGC_SYM) {
		for (k = b; k; k = k->next)
			if (!strcmp(k->name, e->u.name))
				return;
		add_name(&nm->v, &nm->n, &nm->cap, e->u.name);
		return;
	}
	if (e->kind == SEGC_NUM)
		return;
	if (e->kind == SEGC_CALL && !segc_witness_is_builtin(e))
		add_call(nm, e);
	inner.name = segc_expr_binder(e);
	inner.value = NULL;
	inner.next = b;
	for (i = 0; i < e->nargs; i++)
		collect(nm, segc_args(e)[i], inner.name &&
			segc_expr_arg_bound(e, i) ? &inner : b);
}

/* Orders strings for qsort. */
static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The definition of the uninterpreted function of call 'e' as text. */
static char *function_text(const segc_expr *e)
{
	segc_strbuf sb;
	long c0, c1;
	size_t i;

	segc_witness_function_coeffs(e->u.name, &c0, &c1);
	segc_strbuf_init(&sb);
	segc_strbuf_appendf(&sb, "%s(", e->u.name);
	for (i = 0; i < e->nargs; i++)
		segc_strbuf_appendf(&sb, "%sx%zu", i ? ", " : "", i + 1);
	segc_strbuf_appendf(&sb, ") = %ld", c0);
	for (i = 0; i < e->nargs; i++) {
		segc_strbuf_appendf(&sb, " + %ld*x%zu + ", c1, i + 1);
		if (i)
			segc_strbuf_appendf(&sb, "%zu*", i + 1);
		segc_strbuf_appendf(&sb, "x%zu^2", i + 1);
	}
	return segc_strbuf_take(&sb);
}

/* -------------------------------------------------------------- points */

/* The box of one name: bounds (integer ends for an integer name). */
struct box {
	int has_lo, has_hi, integer;
	mpq_t lo, hi;
};

/* A deterministic generator (splitmix64). */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The box of 'name' under 'dom'; 0 when it is empty. */
static int box_of(struct box *bx, const segc_domains *dom, const char *name)
{
	mpq_srcptr lo = NULL, hi = NULL;
	int integer = 0;

	segc_domains_get(dom, name, &lo, &hi, &integer);
	bx->has_lo = lo != NULL;
	bx->has_hi = hi != NULL;
	bx->integer = integer;
	if (lo)
		mpq_set(bx->lo, lo);
	if (hi)
		mpq_set(bx->hi, hi);
	if (integer && lo) {
		mpz_cdiv_q(mpq_numref(bx->lo), mpq_numref(lo), mpq_denref(lo));
		mpz_set_ui(mpq_denref(bx->lo), 1);
	}
	if (integer && hi) {
		mpz_fdiv_q(mpq_numref(bx->hi), mpq_numref(hi), mpq_denref(hi));
		mpz_set_ui(mpq_denref(bx->hi), 1);
	}
	return !(lo && hi && mpq_cmp(bx->lo, bx->hi) > 0);
}

/* The kinds of value a name takes at a point. */
enum pick {
	PICK_LOW, PICK_LOW1, PICK_HIGH, PICK_MID, PICK_LOW2, PICK_HIGH1,
	PICK_SMALL, PICK_WIDE, PICK_LARGE, PICK_NEGATIVE, PICK_UNIFORM
};

/* A random rational r with 0 <= r <= 'range' (an integer when
 * 'integer'), into 'q'. */
static void random_offset(mpq_t q, uint64_t *rs, unsigned long range,
	int integer)
{
	unsigned long den = integer ? 1 : 1 + next_random(rs) % 12;

	mpq_set_ui(q, next_random(rs) % (range * den + 1), den);
	mpq_canonicalize(q);
}

/* 'q' = the value of kind 'k' in box 'bx'. */
static void pick_value(mpq_t q, const struct box *bx, enum pick k,
	uint64_t *rs)
{
	mpq_t t;
	int up = bx->has_hi && !bx->has_lo;

	mpq_init(t);
	mpq_set_ui(q, 0, 1);
	if (bx->has_lo)
		mpq_set(q, bx->lo);
	else if (bx->has_hi)
		mpq_set(q, bx->hi);
	switch (k) {
	case PICK_LOW:
		break;
	case PICK_LOW1:
	case PICK_LOW2:
		mpq_set_ui(t, k == PICK_LOW1 ? 1 : 2, 1);
		break;
	case PICK_HIGH:
	case PICK_HIGH1:
		if (bx->has_hi && bx->has_lo) {
			mpq_sub(t, bx->hi, bx->lo);
			if (k == PICK_HIGH1 && mpq_cmp_ui(t, 1, 1) >= 0)
				mpz_sub(mpq_numref(t), mpq_numref(t),
					mpq_denref(t));
		} else
			mpq_set_ui(t, k == PICK_HIGH ? 10 : 9, 1);
		break;
	case PICK_MID:
		if (bx->has_hi && bx->has_lo) {
			mpq_sub(t, bx->hi, bx->lo);
			mpq_div_2exp(t, t, 1);
		} else
			mpq_set_ui(t, 7, 2);
		break;
	case PICK_SMALL:
		random_offset(t, rs, 12, bx->integer);
		break;
	case PICK_WIDE:
		random_offset(t, rs, 1000, bx->integer);
		break;
	case PICK_LARGE:
		random_offset(t, rs, 1000, 1);
		mpq_set_ui(q, 1000000, 1);
		mpq_add(t, t, q);
		mpq_set_ui(q, 0, 1);
		if (bx->has_lo || bx->has_hi)
			mpq_set(q, bx->has_lo ? bx->lo : bx->hi);
		break;
	case PICK_NEGATIVE:
		random_offset(t, rs, 12, bx->integer);
		up = !bx->has_lo;
		break;
	case PICK_UNIFORM:
		random_offset(t, rs, 1, 0);
		if (bx->has_hi && bx->has_lo) {
			mpq_sub(q, bx->hi, bx->lo);
			mpq_mul(t, t, q);
			mpq_set(q, bx->lo);
		}
		break;
	}
	if (up)
		mpq_sub(q, q, t);
	else
		mpq_add(q, q, t);
	if (bx->integer) {
		mpz_fdiv_q(mpq_numref(q), mpq_numref(q), mpq_denref(q));
		mpz_set_ui(mpq_denref(q), 1);
	}
	if (bx->has_hi && mpq_cmp(q, bx->hi) > 0)
		mpq_set(q, bx->hi);
	if (bx->has_lo && mpq_cmp(q, bx->lo) < 0)
		mpq_set(q, bx->lo);
	mpq_clear(t);
}

/* The kind of value of a name at point 'k': the first points put every
 * name at the same corner, the others mix kinds at random. */
static enum pick pick_kind(unsigned long k, uint64_t *rs)
{
	static const enum pick mix[] = { PICK_LOW, PICK_LOW, PICK_LOW1,
		PICK_LOW1, PICK_LOW2, PICK_HIGH, PICK_HIGH, PICK_HIGH1,
		PICK_MID, PICK_SMALL, PICK_SMALL, PICK_SMALL, PICK_SMALL,
		PICK_SMALL, PICK_SMALL, PICK_UNIFORM, PICK_UNIFORM,
		PICK_WIDE, PICK_WIDE, PICK_NEGATIVE };
	static const enum pick first[] = { PICK_LOW, PICK_LOW1, PICK_HIGH,
		PICK_MID, PICK_LOW2, PICK_HIGH1, PICK_UNIFORM, PICK_SMALL };
	uint64_t r;

	if (k < sizeof(first) / sizeof(first[0]))
		return first[k];
	r = next_random(rs);
	if (r % 64 == 0)
		return PICK_LARGE;
	return mix[(r >> 8) % (sizeof(mix) / sizeof(mix[0]))];
}

/* What one point gives. */
enum outcome { OUT_SKIPPED, OUT_EXACT, OUT_CLOSE, OUT_DIFFER };

/* Compares the two sides at the point of 'ev' ('a', 'b' receive their
 * values), raising the precision while their intervals overlap. */
static enum outcome compare_at(struct evaluator *ev, const segc_expr *ea,
	const segc_expr *eb, ival *a, ival *b, unsigned long *bits)
{
	size_t i;
	int ra = 0, rb = 0;

	for (i = 0; i < sizeof(precisions) / sizeof(precisions[0]); i++) {
		*bits = precisions[i];
		ra = segc_witness_eval_at(ev, a, ea, precisions[i]);
		rb = ra == EV_UNDEFINED ? ra : segc_witness_eval_at(ev, b, eb,
			precisions[i]);
		if (ra == EV_UNDEFINED || rb == EV_UNDEFINED)
			return OUT_SKIPPED;
		if (ra || rb)
			continue;
		if (segc_witness_iv_exact(a) && segc_witness_iv_exact(b))
			return mpq_equal(a->lo, b->lo) ? OUT_EXACT : OUT_DIFFER;
		if (mpq_cmp(a->hi, b->lo) < 0 || mpq_cmp(b->hi, a->lo) < 0)
			return OUT_DIFFER;
	}
	return ra || rb ? OUT_SKIPPED : OUT_CLOSE;
}

/* Non-zero when the point of 'ev' is a witness indeed: both sides are
 * evaluated again, at it, by the exact evaluator of eval (evalq.c), and
 * they must differ there; where that evaluator has no value (an
 * irrational value, an uninterpreted function), the intervals of this
 * one at the highest precision must be disjoint. */
static int confirm(struct evaluator *ev, const segc_expr *ea,
	const segc_expr *eb)
{
	size_t last = sizeof(precisions) / sizeof(precisions[0]) - 1;
	mpq_t qa, qb;
	ival a, b;
	int ra, rb, differ = 0;

	mpq_inits(qa, qb, (mpq_ptr)0);
	ra = segc_expr_eval_q(qa, ea, ev->n, ev->names, ev->values);
	rb = segc_expr_eval_q(qb, eb, ev->n, ev->names, ev->values);
	if (!ra && !rb)
		differ = !mpq_equal(qa, qb);
	else {
		segc_witness_iv_init(&a);
		segc_witness_iv_init(&b);
		ra = segc_witness_eval_at(ev, &a, ea, precisions[last]);
		rb = ra ? ra : segc_witness_eval_at(ev, &b, eb,
			precisions[last]);
		differ = !ra && !rb && (mpq_cmp(a.hi, b.lo) < 0 ||
			mpq_cmp(b.hi, a.lo) < 0);
		segc_witness_iv_clear(&a);
		segc_witness_iv_clear(&b);
	}
	mpq_clears(qa, qb, (mpq_ptr)0);
	return differ;
}

/* Which points a search may use (segc_witness_search_admitted), and the
 * exact evaluator it is given (segc_witness_search_with), or NULL. */
struct admit {
	segc_witness_admit *f;
	void *arg;
	segc_witness_exact *exact;
	void *exact_arg;
};

/* Both sides at the point of 'ev' by the evaluator the search was
 * given: OUT_EXACT or OUT_DIFFER with their values in 'w' when it gives
 * both, else OUT_SKIPPED (this search then evaluates them itself). */
static enum outcome compare_given(struct evaluator *ev,
	const struct admit *counts, segc_witness *w)
{
	mpq_t qa, qb;
	enum outcome o = OUT_SKIPPED;

	mpq_inits(qa, qb, (mpq_ptr)0);
	if (!counts->exact(counts->exact_arg, 0, qa, ev->n, ev->names,
	    ev->values) && !counts->exact(counts->exact_arg, 1, qb, ev->n,
	    ev->names, ev->values)) {
		segc_witness_iv_set_q(&w->a, qa);
		segc_witness_iv_set_q(&w->b, qb);
		o = mpq_equal(qa, qb) ? OUT_EXACT : OUT_DIFFER;
	}
	mpq_clears(qa, qb, (mpq_ptr)0);
	return o;
}

/* compare_at() at a point 'counts' admits; elsewhere the point is
 * skipped (it is outside the model's domain).  Where the search was
 * given an exact evaluator and it values both sides, their exact values
 * decide ('*given' set, the difference needs no confirming). */
static enum outcome compare_in(struct evaluator *ev,
	const struct admit *counts, const segc_expr *ea, const segc_expr *eb,
	segc_witness *w, unsigned long *bits, int *given)
{
	enum outcome o;

	*given = 0;
	if (counts->f && !counts->f(counts->arg, ev->n, ev->names,
	    ev->values))
		return OUT_SKIPPED;
	if (counts->exact) {
		o = compare_given(ev, counts, w);
		if (o != OUT_SKIPPED) {
			*given = 1;
			return o;
		}
	}
	return compare_at(ev, ea, eb, &w->a, &w->b, bits);
}

/* Records the point of 'ev' in 'w' as its witness. */
static void keep_point(segc_witness *w, const struct evaluator *ev)
{
	size_t i;

	w->n = ev->n;
	w->names = segc_xcalloc(ev->n + 1, sizeof(*w->names));
	w->values = segc_xmalloc(segc_xmul_size(ev->n + 1,
		sizeof(*w->values)));
	for (i = 0; i < ev->n; i++) {
		w->names[i] = segc_xstrdup(ev->names[i]);
		mpq_init(w->values[i]);
		mpq_set(w->values[i], ev->values[i]);
	}
}

/* How many other points are tried in place of one where a side has no
 * value. */
#define RETRIES 4

/* Tries the points one by one (see witness.h). */
static int search(segc_witness *w, struct names *nm, struct box *bx,
	const struct admit *counts, const segc_expr *a, const segc_expr *b,
	unsigned long npoints)
{
	struct evaluator ev;
	uint64_t rs = 0x5345474320636865ULL;
	mpq_t *v = segc_xmalloc(segc_xmul_size(nm->n + 1, sizeof(*v)));
	unsigned long k, bits = 0;
	size_t i;

	for (i = 0; i < nm->n; i++)
		mpq_init(v[i]);
	ev.n = nm->n;
	ev.names = nm->v;
	ev.values = (const mpq_t *)v;
	for (k = 0; k < npoints && !w->found; k++) {
		enum outcome o;
		int again, given;

		for (i = 0; i < nm->n; i++)
			pick_value(v[i], &bx[i], pick_kind(k, &rs), &rs);
		o = compare_in(&ev, counts, a, b, w, &bits, &given);
		/* a point where a side has no value (a sum too long to add
		 * up, a root of a negative number, a division by zero) or
		 * outside the domain of a loop count is replaced by small
		 * values, a few times */
		for (again = 0; o == OUT_SKIPPED && again < RETRIES; again++) {
			for (i = 0; i < nm->n; i++)
				pick_value(v[i], &bx[i], PICK_SMALL, &rs);
			o = compare_in(&ev, counts, a, b, w, &bits, &given);
		}
		if (o == OUT_DIFFER && !given && !confirm(&ev, a, b))
			o = OUT_SKIPPED;
		w->tried++;
		if (o == OUT_SKIPPED)
			w->skipped++;
		else if (o == OUT_EXACT)
			w->exact++;
		else if (o == OUT_CLOSE) {
			w->close++;
			w->bits = bits;
		} else {
			w->found = 1;
			keep_point(w, &ev);
		}
	}
	for (i = 0; i < nm->n; i++)
		mpq_clear(v[i]);
	free(v);
	return w->found;
}

/* See check.h. */
int segc_witness_search(segc_witness *w, const segc_domains *dom,
	const segc_expr *a, const segc_expr *b, unsigned long npoints)
{
	return segc_witness_search_with(w, dom, NULL, NULL, NULL, NULL, a, b,
		npoints);
}

/* See check.h. */
int segc_witness_search_admitted(segc_witness *w, const segc_domains *dom,
	segc_witness_admit *admit, void *arg, const segc_expr *a,
	const segc_expr *b, unsigned long npoints)
{
	return segc_witness_search_with(w, dom, admit, arg, NULL, NULL, a, b,
		npoints);
}

/* See check.h. */
int segc_witness_search_with(segc_witness *w, const segc_domains *dom,
	segc_witness_admit *admit, void *arg, segc_witness_exact *exact,
	void *exact_arg, const segc_expr *a, const segc_expr *b,
	unsigned long npoints)
{
	struct admit counts;
	struct names nm;
	struct box *bx;
	size_t i;
	int empty = 0;

	counts.f = admit;
	counts.arg = arg;
	counts.exact = exact;
	counts.exact_arg = exact_arg;
	memset(&nm, 0, sizeof(nm));
	collect(&nm, a, NULL);
	collect(&nm, b, NULL);
	if (nm.n)
		qsort(nm.v, nm.n, sizeof(*nm.v), str_cmp);
	bx = segc_xmalloc(segc_xmul_size(nm.n + 1, sizeof(*bx)));
	for (i = 0; i < nm.n; i++) {
		mpq_init(bx[i].lo);
		mpq_init(bx[i].hi);
		empty |= !box_of(&bx[i], dom, nm.v[i]);
	}
	w->nfunctions = nm.ncalls;
	w->functions = segc_xcalloc(nm.ncalls + 1, sizeof(*w->functions));
	for (i = 0; i < nm.ncalls; i++)
		w->functions[i] = function_text(nm.calls[i]);
	if (!empty)
		search(w, &nm, bx, &counts, a, b, npoints);
	for (i = 0; i < nm.n; i++) {
		mpq_clear(bx[i].lo);
		mpq_clear(bx[i].hi);
	}
	free(bx);
	free(nm.v);
	free(nm.calls);
	return w->found;
}

/* Sets 'w' to an empty result. */
void segc_witness_init(segc_witness *w)
{
	memset(w, 0, sizeof(*w));
	segc_witness_iv_init(&w->a);
	segc_witness_iv_init(&w->b);
}

/* Releases what 'w' holds. */
void segc_witness_clear(segc_witness *w)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		free(w->names[i]);
		mpq_clear(w->values[i]);
	}
	free(w->names);
	free(w->values);
	for (i = 0; i < w->nfunctions; i++)
		free(w->functions[i]);
	free(w->functions);
	segc_witness_iv_clear(&w->a);
	segc_witness_iv_clear(&w->b);
	memset(w, 0, sizeof(*w));
}

/* An end of an interval as decimal text, rounded down or 'up'. */
static void append_end(segc_strbuf *sb, mpq_srcptr q, int up)
{
	char *s = NULL;
	mpfr_t f;

	mpfr_init2(f, 256);
	mpfr_set_q(f, q, up ? MPFR_RNDU : MPFR_RNDD);
	if (mpfr_asprintf(&s, up ? "%.30RUg" : "%.30RDg", f) >= 0 && s)
		segc_strbuf_append(sb, s);
	if (s)
		mpfr_free_str(s);
	mpfr_clear(f);
}

/* See witness.h. */
char *segc_witness_value_text(const segc_witness_value *v)
{
	segc_strbuf sb;

	segc_strbuf_init(&sb);
	if (segc_witness_iv_exact(v))
		segc_strbuf_append_mpq(&sb, v->lo);
	else {
		segc_strbuf_append(&sb, "[");
		append_end(&sb, v->lo, 0);
		segc_strbuf_append(&sb, ", ");
		append_end(&sb, v->hi, 1);
		segc_strbuf_append(&sb, "]");
	}
	return segc_strbuf_take(&sb);
}
