/* test_domain_points.c - the points at which alternatives of a maximum are
 * compared before a proof (algebra/eval/domain_points.c): every point lies
 * in its declared domain (bounds, integers) for domains of every shape,
 * and the integer points of the walk are the hand-worked ones;
 * the maxima and minima whose alternatives that test rules out keep their
 * value (the canonical form evaluated exactly against the original
 * expression at random points), and dominated alternatives still go
 * (hand-worked forms). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <segc/segc.h>
#include "algebra/eval/domain_points.h"
#include "tap.h"

static uint64_t rng = 0x2545f4914f6cdd1dULL;

/* A pseudo-random number (xorshift). */
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Sets q to the text 'text' ("" leaves it NULL). */
static mpq_ptr num(mpq_t q, const char *text)
{
	if (!*text)
		return NULL;
	mpq_set_str(q, text, 10);
	mpq_canonicalize(q);
	return q;
}

/* Every point of both kinds inside a domain of each shape. */
static void points_inside(void)
{
	static const char *shapes[][3] = {
		{ "0", "", "0" }, { "0", "", "1" }, { "1", "2", "0" },
		{ "1/3", "7/2", "1" }, { "", "-5", "0" }, { "", "-5", "1" },
		{ "", "", "0" }, { "2", "2", "1" }, { "-3/2", "1/2", "0" },
	};
	size_t s, j;
	int p;

	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		segc_domains *d = segc_domains_new();
		mpq_t lo, hi, v;
		mpq_ptr l, h;
		int integer = shapes[s][2][0] == '1', bad = 0, tried = 0;

		mpq_inits(lo, hi, v, NULL);
		l = num(lo, shapes[s][0]);
		h = num(hi, shapes[s][1]);
		segc_domains_set(d, "x", l, h, integer);
		for (j = 0; j < 12; j++)
			for (p = 0; p < SEGC_DOMAIN_MIXED + 12; p++) {
				int rc = p < SEGC_DOMAIN_POINTS && j < 6 ?
					segc_domain_point(v, d, "x", j, p) :
					segc_domain_point_mixed(v, d, "x", j, p);

				if (rc)
					continue;
				tried++;
				if ((l && mpq_cmp(v, l) < 0) ||
					(h && mpq_cmp(v, h) > 0) || (integer &&
					mpz_cmp_ui(mpq_denref(v), 1)))
					bad++;
			}
		tap_ok(!bad && tried > 0, "points in [%s, %s]%s: %d inside",
			shapes[s][0], shapes[s][1], integer ? " (integers)" : "",
			tried);
		mpq_clears(lo, hi, v, NULL);
		segc_domains_free(d);
	}
}

/* The integer points of the walk, worked by hand: offsets 0, 1, 2, 3, 5,
 * 8, 13, 31, 100, 1000 from the lower bound rounded up (down from the
 * upper bound rounded down when there is only that; from 1 without a
 * bound), clipped to the upper bound; none in a domain without an
 * integer. */
static void integer_points(void)
{
	static const struct {
		const char *lo, *hi;
		size_t k;
		const char *want;   /* "" when there is none */
	} table[] = {
		{ "0", "", 0, "0" }, { "0", "", 4, "5" }, { "0", "", 9, "1000" },
		{ "1/3", "", 0, "1" }, { "1/3", "", 2, "3" },
		{ "", "-5/2", 0, "-3" }, { "", "-5/2", 7, "-34" },
		{ "", "", 0, "1" }, { "", "", 8, "101" },
		{ "1", "7/2", 3, "3" }, { "1", "7/2", 9, "3" },
		{ "1/2", "2/3", 0, "" }, { "2", "2", 5, "2" },
	};
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		segc_domains *d = segc_domains_new();
		mpq_t lo, hi, v, want;
		int rc;

		mpq_inits(lo, hi, v, want, NULL);
		segc_domains_set(d, "x", num(lo, table[i].lo), num(hi,
			table[i].hi), 0);
		rc = segc_domain_point_integer(v, d, "x", table[i].k);
		if (*table[i].want)
			num(want, table[i].want);
		tap_ok(*table[i].want ? !rc && mpq_equal(v, want) : rc == -1,
			"integer point %zu of [%s, %s] is %s", table[i].k,
			table[i].lo, table[i].hi, *table[i].want ?
			table[i].want : "none");
		mpq_clears(lo, hi, v, want, NULL);
		segc_domains_free(d);
	}
}

/* A random affine alternative in a, b, c (coefficients 0..3, constant
 * 0..5), written into 'buf'. */
static void alternative(char *buf, size_t size)
{
	snprintf(buf, size, "%d*a + %d*b + %d*c + %d", (int)(next() % 4),
		(int)(next() % 4), (int)(next() % 4), (int)(next() % 6));
}

/* max and min of random alternatives (one nested extremum each): the
 * canonical form equals the expression at random points of the box. */
static void values_kept(segc_ctx *ctx, segc_domains *dom)
{
	const char *names[3] = { "a", "b", "c" };
	int k, wrong = 0, points = 0;

	for (k = 0; k < 200; k++) {
		char text[1024], alt[128];
		int n = 2 + (int)(next() % 5), i, p;
		segc_expr *e, *c;

		snprintf(text, sizeof(text), "%s(", k % 2 ? "max" : "min");
		for (i = 0; i < n; i++) {
			alternative(alt, sizeof(alt));
			strcat(text, alt);
			strcat(text, ", ");
		}
		strcat(text, k % 3 ? "max(a, b) + c)" : "min(b, 2*c) + a)");
		e = segc_expr_parse(ctx, text, NULL);
		c = e ? segc_canonical(ctx, dom, segc_expr_copy(e)) : NULL;
		if (!c) {
			wrong++;
			segc_expr_free(e);
			continue;
		}
		for (p = 0; p < 10; p++) {
			mpq_t v[3], x, y;

			for (i = 0; i < 3; i++) {
				mpq_init(v[i]);
				mpq_set_ui(v[i], (unsigned long)(next() % 50),
					1 + (unsigned long)(next() % 7));
				mpq_canonicalize(v[i]);
			}
			mpq_inits(x, y, NULL);
			if (segc_expr_eval_q(x, e, 3, names,
				    (const mpq_t *)v) || segc_expr_eval_q(y, c,
				    3, names, (const mpq_t *)v) || !mpq_equal(x, y))
				wrong++;
			points++;
			mpq_clears(x, y, NULL);
			for (i = 0; i < 3; i++)
				mpq_clear(v[i]);
		}
		segc_expr_free(e);
		segc_expr_free(c);
	}
	tap_ok(!wrong, "200 extrema of random alternatives: canonical form "
		"equals the expression at %d points", points);
}

/* The canonical text of 'in' is 'want'. */
static void form(segc_ctx *ctx, segc_domains *dom, const char *in,
	const char *want)
{
	segc_expr *e = segc_canonical(ctx, dom,
		segc_expr_parse(ctx, in, NULL));
	char *s = e ? segc_expr_to_string(e) : NULL;

	tap_is(s ? s : "(null)", want, in);
	free(s);
	segc_expr_free(e);
}

int main(void)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_domains *dom = segc_domains_new();
	mpq_t zero;

	mpq_init(zero);
	points_inside();
	integer_points();
	segc_domains_set(dom, "a", zero, NULL, 0);
	segc_domains_set(dom, "b", zero, NULL, 0);
	segc_domains_set(dom, "c", zero, NULL, 0);
	values_kept(ctx, dom);
	/* dominated alternatives go; the others stay */
	form(ctx, dom, "max(a + b, a, b)", "a + b");
	form(ctx, dom, "min(a, a + b, 2*a + c)", "a");
	/* a goes; b, common to both others, comes out */
	form(ctx, dom, "max(2*a + b, a, b + 1)", "b + max(1, 2*a)");
	form(ctx, dom, "max(a, b)", "max(a, b)");
	form(ctx, dom, "max(a + max(b, c), a + b, c)", "a + max(b, c)");
	mpq_clear(zero);
	segc_domains_free(dom);
	segc_ctx_free(ctx);
	return tap_done();
}
