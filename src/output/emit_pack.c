/* emit_pack.c - compensated Horner chains computed side by side
 * (--accurate C).  A polynomial in several arguments is planned by
 * Horner's rule in one of them with, as coefficients, polynomials in the
 * others: many independent chains "v = v*x + c" of constants in one
 * argument x.  In compensated arithmetic each step is a dozen operations
 * where the plain step is two, one chain after the other.  The chains of
 * one argument and one length are put in the lanes of arrays (4 at a
 * time, padded with zeros) and each step is a loop over 4 lanes that the
 * compiler computes in one vector register.  Each lane computes exactly
 * what dd_mul_d and dd_add (or dd_add_d) compute for its chain: TwoProd
 * and TwoSum are exact whatever the order of their operands, and a
 * constant that is a double has a low part 0 that adds nothing.  So the
 * doubles are those of the chains computed one at a time.
 *
 * One level up, in three or more arguments, the chains in x have as
 * coefficients polynomials in a third argument y, themselves chains of
 * constants (often of one step, "c + d*y"): such chains are packed
 * nested.  Their coefficients are computed first, as chains of constants
 * in y side by side, one lane per coefficient of each outer chain, laid
 * out as the outer steps read them (coefficient s of chain k in lane
 * s * lanes + k); then the outer chains read their addends, high and low
 * parts, from those lanes where a plain pack reads its tables. */
#include <stdlib.h>
#include <string.h>
#include "output/emit_private.h"

/* Lanes computed by one loop (one AVX register of doubles). */
#define PACK_WIDTH 4

/* No instruction. */
#define NONE ((size_t)-1)

/* Fewest chains of one shape worth packing. */
#define PACK_MIN 2

/* Fewest steps of a chain worth packing: a chain of one step gains
 * little, and costs more than before where TwoProd is Dekker's (whose
 * branch keeps the lanes from being vectorized).  (The inner chains of
 * a nested pack may have one step: the outer ones have PACK_STEPS.) */
#define PACK_STEPS 2

/* The value that the product 'mi' of a step of a chain in '*x' (NONE
 * for any) multiplies by it, or NONE when 'mi' is not a product by an
 * argument of a value used once, or of a CONST; '*x' receives the
 * argument.  The product is used once, but for that of a CONST, which a
 * lane computes again (the same exact TwoProd) where others use it. */
static size_t step_mul_of(const segc_plan *p, size_t mi, size_t *x)
{
	const segc_plan_insn *m = &p->insn[mi];
	size_t v, a;

	if (m->op != SEGC_OP_MUL || m->block != 0)
		return NONE;
	if (p->insn[m->b].op == SEGC_OP_ARG)
		a = m->b, v = m->a;
	else if (p->insn[m->a].op == SEGC_OP_ARG)
		a = m->a, v = m->b;
	else
		return NONE;
	if (*x != NONE && a != *x)
		return NONE;
	if (p->insn[v].op == SEGC_OP_CONST) {
		if (!m->uses)
			return NONE;
	} else if (m->uses != 1 || p->insn[v].uses != 1 ||
	    p->insn[v].block != 0)
		return NONE;
	*x = a;
	return v;
}

/* The step below instruction 'i' of a chain in 'x' (NONE for any): the
 * value it multiplies by x, or NONE when 'i' is not an ADD of a
 * CONST and a product by an argument (step_mul_of).  '*c' receives the
 * constant, '*x' the argument. */
static size_t step_below(const segc_plan *p, size_t i, size_t *x, size_t *c)
{
	const segc_plan_insn *in = &p->insn[i];
	size_t mi;

	if (in->op != SEGC_OP_ADD || in->block != 0)
		return NONE;
	if (p->insn[in->a].op == SEGC_OP_CONST)
		*c = in->a, mi = in->b;
	else if (p->insn[in->b].op == SEGC_OP_CONST)
		*c = in->b, mi = in->a;
	else
		return NONE;
	return step_mul_of(p, mi, x);
}

/* The chain topped by 'top': its values from the first (a CONST) to
 * 'top' into 'val' and their constants into 'cst' (both malloc'd, 'len'
 * of them; cst[0] is val[0]); 0 when 'top' tops no chain. */
static size_t chain_of(const segc_plan *p, size_t top, size_t *x,
	size_t **val, size_t **cst)
{
	size_t n = 0, i = top, c, v;

	*x = NONE;
	*val = *cst = NULL;
	for (;;) {
		v = step_below(p, i, x, &c);
		if (v == NONE)
			break;
		*val = segc_xrealloc(*val, (n + 2) * sizeof **val);
		*cst = segc_xrealloc(*cst, (n + 2) * sizeof **cst);
		(*val)[n] = i;
		(*cst)[n] = c;
		n++;
		if (p->insn[v].op == SEGC_OP_CONST) {
			(*val)[n] = v;
			(*cst)[n] = v;
			n++;
			break;
		}
		i = v;
	}
	if (!n || p->insn[(*val)[n - 1]].op != SEGC_OP_CONST) {
		free(*val);
		free(*cst);
		*val = *cst = NULL;
		return 0;
	}
	/* from the first value up */
	for (i = 0; i < n / 2; i++) {
		v = (*val)[i], (*val)[i] = (*val)[n - 1 - i], (*val)[n - 1 - i] = v;
		c = (*cst)[i], (*cst)[i] = (*cst)[n - 1 - i], (*cst)[n - 1 - i] = c;
	}
	return n;
}

/* The product instruction of step 'j' (>= 1) of a chain: the operand of
 * its ADD that is not its constant. */
static size_t step_mul(const segc_plan *p, const size_t *val,
	const size_t *cst, size_t j)
{
	const segc_plan_insn *in = &p->insn[val[j]];

	return in->a == cst[j] && p->insn[in->b].op == SEGC_OP_MUL ? in->b :
		in->a;
}

/* Adds the chain ('len' values 'val', constants 'cst', multiplied by
 * 'x'; nested, its coefficients' inner chains 'ival' and 'icst', 'ilen'
 * values each, in 'y', else y NONE and ilen 0) to the pack of its shape
 * in 'ps', made when there is none. */
static void add_chain(segc_emit_packs *ps, size_t x, size_t len,
	const size_t *val, const size_t *cst, size_t y, size_t ilen,
	const size_t *ival, const size_t *icst)
{
	segc_emit_pack *g;
	size_t i, in = len * ilen;

	for (i = 0; i < ps->n; i++)
		if (ps->g[i].x == x && ps->g[i].len == len &&
		    ps->g[i].y == y && ps->g[i].ilen == ilen)
			break;
	if (i == ps->n) {
		ps->g = segc_xrealloc(ps->g, (ps->n + 1) * sizeof *ps->g);
		memset(&ps->g[ps->n], 0, sizeof *ps->g);
		ps->g[ps->n].x = x;
		ps->g[ps->n].len = len;
		ps->g[ps->n].y = y;
		ps->g[ps->n].ilen = ilen;
		ps->n++;
	}
	g = &ps->g[i];
	g->val = segc_xrealloc(g->val, (g->n + 1) * len * sizeof *g->val);
	g->cst = segc_xrealloc(g->cst, (g->n + 1) * len * sizeof *g->cst);
	memcpy(g->val + g->n * len, val, len * sizeof *val);
	memcpy(g->cst + g->n * len, cst, len * sizeof *cst);
	if (in) {
		g->ival = segc_xrealloc(g->ival, (g->n + 1) * in *
			sizeof *g->ival);
		g->icst = segc_xrealloc(g->icst, (g->n + 1) * in *
			sizeof *g->icst);
		memcpy(g->ival + g->n * in, ival, in * sizeof *ival);
		memcpy(g->icst + g->n * in, icst, in * sizeof *icst);
	}
	g->n++;
}

/* Releases what pack 'g' holds. */
static void free_pack(segc_emit_pack *g)
{
	free(g->val);
	free(g->cst);
	free(g->ival);
	free(g->icst);
}

/* A chain in x whose coefficients are chains of constants (the nested
 * pack), being found: its values and coefficients from the top down, and
 * the inner chains of its coefficients. */
typedef struct nest_walk {
	size_t n, *val, *cst;   /* values and coefficients */
	size_t *ival, *icst;    /* n * ilen: the coefficients' chains */
	size_t x, y, ilen;
} nest_walk;

/* Adds 'i' as the next value of 'w' with coefficient 'c' when 'c' is
 * the result, used once, of a chain of constants of the shape of the
 * others (in w->y, w->ilen values); 0 when it is not. */
static int nest_add(nest_walk *w, const segc_plan *p, size_t i, size_t c)
{
	size_t y = w->y, len, *val, *cst;

	if (p->insn[c].uses != 1 || p->insn[c].op != SEGC_OP_ADD)
		return 0;
	len = chain_of(p, c, &y, &val, &cst);
	if (len < 2 || (w->y != NONE && y != w->y) ||
	    (w->ilen && len != w->ilen)) {
		free(val);
		free(cst);
		return 0;
	}
	w->y = y;
	w->ilen = len;
	w->val = segc_xrealloc(w->val, (w->n + 1) * sizeof *w->val);
	w->cst = segc_xrealloc(w->cst, (w->n + 1) * sizeof *w->cst);
	w->ival = segc_xrealloc(w->ival, (w->n + 1) * len * sizeof *w->ival);
	w->icst = segc_xrealloc(w->icst, (w->n + 1) * len * sizeof *w->icst);
	w->val[w->n] = i;
	w->cst[w->n] = c;
	memcpy(w->ival + w->n * len, val, len * sizeof *val);
	memcpy(w->icst + w->n * len, cst, len * sizeof *cst);
	w->n++;
	free(val);
	free(cst);
	return 1;
}

/* The nested chain topped by 'top' into 'w' (its arrays malloc'd, the
 * values from the first up): steps "v = v*x + a", each a the result of a
 * chain of constants in y used only there, the first value such a result
 * too; 0 when 'top' tops none. */
static size_t nest_of(const segc_plan *p, size_t top, nest_walk *w)
{
	size_t i = top, v, x, k, t, il;
	int side;

	memset(w, 0, sizeof *w);
	w->x = w->y = NONE;
	for (;;) {
		const segc_plan_insn *in = &p->insn[i];

		v = NONE;
		for (side = 0; side < 2 && v == NONE; side++) {
			if (in->op != SEGC_OP_ADD || in->block != 0)
				break;
			x = w->x;
			v = step_mul_of(p, side ? in->a : in->b, &x);
			if (v != NONE && (p->insn[v].op == SEGC_OP_CONST ||
			    !nest_add(w, p, i, side ? in->b : in->a)))
				v = NONE;
		}
		if (v == NONE)
			break;
		w->x = x;
		i = v;
	}
	if (!w->n || !nest_add(w, p, i, i)) {
		free(w->val);
		free(w->cst);
		free(w->ival);
		free(w->icst);
		memset(w, 0, sizeof *w);
		return 0;
	}
	/* from the first value up, each inner chain kept in its order */
	il = w->ilen;
	for (k = 0; k < w->n / 2; k++) {
		size_t o = w->n - 1 - k, j;

		t = w->val[k], w->val[k] = w->val[o], w->val[o] = t;
		t = w->cst[k], w->cst[k] = w->cst[o], w->cst[o] = t;
		for (j = 0; j < il; j++) {
			t = w->ival[k * il + j];
			w->ival[k * il + j] = w->ival[o * il + j];
			w->ival[o * il + j] = t;
			t = w->icst[k * il + j];
			w->icst[k * il + j] = w->icst[o * il + j];
			w->icst[o * il + j] = t;
		}
	}
	return w->n;
}

/* Drops the packs of fewer than PACK_MIN chains, keeping the order of
 * the others. */
static void drop_small(segc_emit_packs *ps)
{
	size_t i, k = 0;

	for (i = 0; i < ps->n; i++) {
		if (ps->g[i].n >= PACK_MIN) {
			ps->g[k++] = ps->g[i];
			continue;
		}
		free_pack(&ps->g[i]);
	}
	ps->n = k;
}

/* Marks the roles of the values of one chain ('len' values 'val',
 * coefficients 'cst'): its last value an output (lane 'k' of pack 'g')
 * with 'out', the others hidden; counts in 'inside' the uses of the
 * products and constants it computes. */
static void mark_chain(segc_emit_packs *ps, const segc_plan *p,
	unsigned *inside, const size_t *val, const size_t *cst, size_t len,
	int out, size_t g, size_t k)
{
	size_t j;

	for (j = 0; j < len; j++) {
		if (p->insn[val[j]].op != SEGC_OP_CONST)
			ps->role[val[j]] = j + 1 < len || !out ?
				SEGC_PACK_HIDDEN : SEGC_PACK_OUT;
		if (j + 1 == len && out) {
			ps->group[val[j]] = g;
			ps->lane[val[j]] = k;
		}
		if (!j) {
			inside[val[0]] += p->insn[val[0]].op == SEGC_OP_CONST;
			continue;
		}
		inside[step_mul(p, val, cst, j)]++;
		inside[cst[j]]++;
	}
}

/* Marks the roles of the values of the packs of 'ps' in plan 'p': the
 * last value of each chain an output (its pack and lane), the others,
 * the inner chains of a nested pack and the products hidden, and a
 * constant or a product hidden when the packs are all its uses. */
static void mark_roles(segc_emit_packs *ps, const segc_plan *p)
{
	unsigned *inside = segc_xcalloc(p->n + 1, sizeof *inside);
	size_t g, k, s, j, len, il;

	for (g = 0; g < ps->n; g++) {
		const segc_emit_pack *pk = &ps->g[g];

		len = pk->len;
		il = pk->ilen;
		for (k = 0; k < pk->n; k++) {
			mark_chain(ps, p, inside, pk->val + k * len,
				pk->cst + k * len, len, 1, g, k);
			for (s = 0; il && s < len; s++)
				mark_chain(ps, p, inside,
					pk->ival + (k * len + s) * il,
					pk->icst + (k * len + s) * il, il, 0, g, k);
		}
	}
	for (j = 0; j < p->n; j++)
		if ((p->insn[j].op == SEGC_OP_CONST ||
		    p->insn[j].op == SEGC_OP_MUL) && inside[j] &&
		    inside[j] >= p->insn[j].uses)
			ps->role[j] = SEGC_PACK_HIDDEN;
	free(inside);
}

/* See emit_private.h. */
void segc_emit_pack_find(segc_emit_namer *nm, const char *cname)
{
	const segc_plan *p = nm->p;
	segc_emit_packs *ps;
	unsigned char *claimed;
	size_t i, len, x, *val, *cst, j, g;
	nest_walk w;

	nm->packs = NULL;
	if (!nm->accurate)
		return;
	ps = segc_xcalloc(1, sizeof *ps);
	claimed = segc_xcalloc(p->n + 1, 1);
	/* the nested chains first: their coefficients' chains are not
	 * packed alone */
	for (i = p->n; i-- > 0;) {
		if (!p->insn[i].uses || claimed[i] ||
		    p->insn[i].op != SEGC_OP_ADD)
			continue;
		len = nest_of(p, i, &w);
		if (len >= PACK_STEPS + 1) {
			for (j = 0; j < len; j++)
				claimed[w.val[j]] = 1;
			add_chain(ps, w.x, len, w.val, w.cst, w.y, w.ilen,
				w.ival, w.icst);
		}
		free(w.val);
		free(w.cst);
		free(w.ival);
		free(w.icst);
	}
	drop_small(ps);
	memset(claimed, 0, p->n + 1);
	for (g = 0; g < ps->n; g++) {
		for (j = 0; j < ps->g[g].n * ps->g[g].len; j++)
			claimed[ps->g[g].val[j]] = 1;
		for (j = 0; j < ps->g[g].n * ps->g[g].len * ps->g[g].ilen; j++)
			claimed[ps->g[g].ival[j]] = 1;
	}
	for (i = p->n; i-- > 0;) {
		if (!p->insn[i].uses || claimed[i] ||
		    p->insn[i].op != SEGC_OP_ADD)
			continue;
		len = chain_of(p, i, &x, &val, &cst);
		if (len >= PACK_STEPS + 1) {
			for (j = 0; j < len; j++)
				claimed[val[j]] = 1;
			add_chain(ps, x, len, val, cst, NONE, 0, NULL, NULL);
		}
		free(val);
		free(cst);
	}
	free(claimed);
	drop_small(ps);
	if (!ps->n) {
		free(ps->g);
		free(ps);
		return;
	}
	ps->cname = cname;
	ps->role = segc_xcalloc(p->n + 1, 1);
	ps->group = segc_xcalloc(p->n + 1, sizeof *ps->group);
	ps->lane = segc_xcalloc(p->n + 1, sizeof *ps->lane);
	mark_roles(ps, p);
	nm->packs = ps;
}

/* See emit_private.h. */
void segc_emit_pack_free(segc_emit_namer *nm)
{
	segc_emit_packs *ps = nm->packs;
	size_t g;

	if (!ps)
		return;
	for (g = 0; g < ps->n; g++)
		free_pack(&ps->g[g]);
	free(ps->g);
	free(ps->role);
	free(ps->group);
	free(ps->lane);
	free(ps);
	nm->packs = NULL;
}

/* The lanes of pack 'g': its chains rounded up to PACK_WIDTH. */
static size_t lanes(const segc_emit_pack *g)
{
	return (g->n + PACK_WIDTH - 1) / PACK_WIDTH * PACK_WIDTH;
}

/* Appends the table 'name' of the high (or, with 'low', low) parts of the
 * constants 'idx' ('rows' rows of 'cols', NONE for a zero). */
static void put_table(segc_strbuf *b, const segc_emit_namer *nm,
	const char *name, size_t rows, size_t cols, const size_t *idx,
	int low)
{
	size_t s, k;

	segc_strbuf_appendf(b, "\tstatic const double %s[%lu][%lu] = {\n",
		name, (unsigned long)rows, (unsigned long)cols);
	for (s = 0; s < rows; s++) {
		segc_strbuf_append(b, "\t\t{ ");
		for (k = 0; k < cols; k++) {
			double hi = 0, lo = 0;

			if (idx[s * cols + k] != NONE)
				segc_emit_const_pair(nm, idx[s * cols + k], &hi,
					&lo);
			if (k)
				segc_strbuf_append(b, k % 4 ? ", " : ",\n\t\t  ");
			segc_emit_put_double(b, low ? lo : hi);
		}
		segc_strbuf_append(b, s + 1 < rows ? " },\n" : " }\n");
	}
	segc_strbuf_append(b, "\t};\n");
}

/* Appends the tables ch and cl of the constants of pack 'g': one row per
 * step, one column per lane, zeros in the lanes left; nested, of its
 * inner chains, one column per lane of their results. */
static void put_tables(segc_strbuf *b, const segc_emit_namer *nm,
	const segc_emit_pack *g)
{
	size_t nl = lanes(g), rows, cols, s, k, j, *idx;

	rows = g->ilen ? g->ilen : g->len;
	cols = g->ilen ? g->len * nl : nl;
	idx = segc_xcalloc(rows * cols + 1, sizeof *idx);
	for (j = 0; j < rows * cols; j++)
		idx[j] = NONE;
	for (k = 0; k < g->n; k++)
		for (s = 0; s < g->len; s++) {
			if (!g->ilen) {
				idx[s * cols + k] = g->cst[k * g->len + s];
				continue;
			}
			for (j = 0; j < g->ilen; j++)
				idx[j * cols + s * nl + k] =
					g->icst[(k * g->len + s) * g->ilen + j];
		}
	put_table(b, nm, "ch", rows, cols, idx, 0);
	put_table(b, nm, "cl", rows, cols, idx, 1);
	free(idx);
}

/* Appends the loop over lanes 'from' to 'to' of a step in 'x' of chains
 * whose values, high and low parts, are read from 'hi' and 'li' and
 * written to 'h' and 'l', adding the element of 'ah' (high parts) and
 * 'al' (low parts) that 'at' and k select ("[s][" and k for row s of a
 * table, "[o + " for lane o + k of an array).  The product by x is
 * that of the helper segc_CNAME_p (put_prod), x split in xh and xl. */
static void put_step(segc_strbuf *b, const char *cname, size_t from,
	size_t to, const char *x, const char *hi, const char *li, const char *h, const char *l,
	const char *ah, const char *al, const char *at)
{
	segc_strbuf_appendf(b, "\tfor (k = %lu; k < %lu; k++) {\n"
		"\t\tsegc_dd p = segc_%s_p(%s[k], %s, %sh, %sl, f), t;\n\n"
		"\t\tp.lo += %s[k] * %s;\n"
		"\t\tt = two_sum(%s%sk], p.hi);\n"
		"\t\tt.lo += %s%sk] + p.lo;\n"
		"\t\t%s[k] = t.hi;\n\t\t%s[k] = t.lo;\n\t}\n",
		(unsigned long)from, (unsigned long)to, cname, hi, x, x, x, li, x, ah, at, al,
		at, h, l);
}

/* Appends the product of the lanes of the packs of component 'cname',
 * segc_CNAME_p: TwoProd of a and b, by the fused multiply-add when 'f'
 * is non-zero, else by Dekker's splitting with b's halves bh and bl
 * given (split once for all the lanes): the operations of two_prod(a,
 * b, 0), so the same doubles. */
static void put_prod(segc_strbuf *b, const char *cname)
{
	segc_strbuf_appendf(b, "\n/* TwoProd of a and b for the lanes of the "
		"packs below: by the fused\n * multiply-add when f is non-zero, "
		"else by Dekker's splitting, that of b\n * given (bh + bl, "
		"split once for all the lanes): the operations of\n"
		" * two_prod(a, b, 0), so the same doubles. */\n"
		"SEGC_DD_FN segc_dd segc_%s_p(double a, double b, double bh, "
		"double bl, int f)\n{\n"
		"\tsegc_dd r;\n\tdouble ah, al;\n\n"
		"\tif (f)\n\t\treturn two_prod(a, b, 1);\n"
		"\tah = dd_split(a, &al);\n"
		"\tr.hi = a * b;\n"
		"\tr.lo = ((ah * bh - r.hi) + ah * bl + al * bh) + al * bl;\n"
		"\treturn r;\n}\n", cname);
}

/* See emit_private.h. */
void segc_emit_pack_helpers(segc_strbuf *b, const segc_emit_namer *nm)
{
	const segc_emit_packs *ps = nm->packs;
	size_t g, s, c;
	char row[64];

	if (ps)
		put_prod(b, ps->cname);
	for (g = 0; ps && g < ps->n; g++) {
		const segc_emit_pack *pk = &ps->g[g];
		unsigned long nl = (unsigned long)lanes(pk);
		unsigned long m = (unsigned long)pk->len * nl;
		const char *ah = pk->ilen ? "ah" : "ch", *al = pk->ilen ? "al" :
			"cl";

		segc_strbuf_appendf(b, "\n/* %lu compensated Horner chains of "
			"%lu steps in %s, side by side in\n * %lu lanes, %d at a "
			"time (a vector register): each lane computes what\n"
			" * dd_mul_d and dd_add compute for its chain.",
			(unsigned long)pk->n, (unsigned long)pk->len - 1,
			nm->arg[nm->p->insn[pk->x].a], nl, PACK_WIDTH);
		if (pk->ilen)
			segc_strbuf_appendf(b, "  Their\n * coefficients are "
				"chains of %lu steps in %s, computed first in "
				"the same\n * way, side by side in %lu lanes "
				"(coefficient s of chain k in lane\n * s * %lu "
				"+ k).", (unsigned long)pk->ilen - 1,
				nm->arg[nm->p->insn[pk->y].a], m, nl);
		segc_strbuf_appendf(b, "  Into r; returns r. */\n"
			"SEGC_DD_FN const segc_dd *segc_%s_g%lu(double x, %s"
			"int f, segc_dd *r)\n{\n", ps->cname, (unsigned long)g,
			pk->ilen ? "double y, " : "");
		put_tables(b, nm, pk);
		/* the first step of each chain reads its first value where
		 * it is, in the table or the inner chains' lanes */
		if (pk->ilen) {
			segc_strbuf_appendf(b, "\tdouble ah[%lu], al[%lu], h[%lu], "
				"l[%lu], xh = 0, xl = 0, yh = 0, yl = 0;\n"
				"\tsize_t k;\n\n\tif (!f) {\n"
				"\t\txh = dd_split(x, &xl);\n"
				"\t\tyh = dd_split(y, &yl);\n\t}\n",
				m, m, nl, nl);
			for (s = 1; s < pk->ilen; s++) {
				snprintf(row, sizeof row, "[%lu][",
					(unsigned long)s);
				put_step(b, ps->cname, 0, m, "y", s > 1 ? "ah" : "ch[0]",
					s > 1 ? "al" : "cl[0]", "ah", "al", "ch", "cl",
					row);
			}
		} else
			segc_strbuf_appendf(b, "\tdouble h[%lu], l[%lu], xh = 0, "
				"xl = 0;\n\tsize_t k;\n\n\tif (!f)\n"
				"\t\txh = dd_split(x, &xl);\n", nl, nl);
		for (s = 1; s < pk->len; s++)
			for (c = 0; c < nl; c += PACK_WIDTH) {
				if (pk->ilen)
					snprintf(row, sizeof row, "[%lu + ",
						(unsigned long)s * nl);
				else
					snprintf(row, sizeof row, "[%lu][",
						(unsigned long)s);
				put_step(b, ps->cname, c, c + PACK_WIDTH, "x", s > 1 ? "h" :
					pk->ilen ? "ah" : "ch[0]", s > 1 ? "l" :
					pk->ilen ? "al" : "cl[0]", "h", "l", ah, al,
					row);
			}
		segc_strbuf_appendf(b, "\tfor (k = 0; k < %lu; k++) {\n"
			"\t\tr[k].hi = h[k];\n\t\tr[k].lo = l[k];\n\t}\n"
			"\treturn r;\n}\n", nl);
	}
}

/* See emit_private.h. */
void segc_emit_pack_decls(segc_strbuf *b, const segc_emit_namer *nm)
{
	const segc_emit_packs *ps = nm->packs;
	size_t g;

	for (g = 0; ps && g < ps->n; g++) {
		segc_strbuf_appendf(b, "\tsegc_dd segc_b%lu[%lu];\n",
			(unsigned long)g, (unsigned long)lanes(&ps->g[g]));
		segc_strbuf_appendf(b, "\tconst segc_dd *const segc_g%lu = "
			"segc_%s_g%lu(", (unsigned long)g, ps->cname,
			(unsigned long)g);
		segc_emit_put_value(b, nm, ps->g[g].x);
		if (ps->g[g].ilen) {
			segc_strbuf_append(b, ", ");
			segc_emit_put_value(b, nm, ps->g[g].y);
		}
		segc_strbuf_appendf(b, ", segc_f, segc_b%lu);\n",
			(unsigned long)g);
	}
}

/* See emit_private.h. */
int segc_emit_pack_role(const segc_emit_namer *nm, size_t i)
{
	return nm->packs ? nm->packs->role[i] : 0;
}

/* See emit_private.h. */
void segc_emit_pack_put_out(segc_strbuf *b, const segc_emit_namer *nm,
	size_t i)
{
	segc_strbuf_appendf(b, "segc_g%lu[%lu]",
		(unsigned long)nm->packs->group[i],
		(unsigned long)nm->packs->lane[i]);
}
