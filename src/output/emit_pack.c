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
 * doubles are those of the chains computed one at a time. */
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
 * branch keeps the lanes from being vectorized). */
#define PACK_STEPS 2

/* The step below instruction 'i' of a chain in 'x' (NONE for any): the
 * value it multiplies by x, or NONE when 'i' is not an ADD of a
 * CONST and a product by an argument, used once, of a value used once or
 * a CONST.  '*c' receives the constant, '*x' the argument. */
static size_t step_below(const segc_plan *p, size_t i, size_t *x, size_t *c)
{
	const segc_plan_insn *in = &p->insn[i], *m;
	size_t mi, v, a;

	if (in->op != SEGC_OP_ADD || in->block != 0)
		return NONE;
	if (p->insn[in->a].op == SEGC_OP_CONST)
		*c = in->a, mi = in->b;
	else if (p->insn[in->b].op == SEGC_OP_CONST)
		*c = in->b, mi = in->a;
	else
		return NONE;
	m = &p->insn[mi];
	if (m->op != SEGC_OP_MUL || m->uses != 1 || m->block != 0)
		return NONE;
	if (p->insn[m->b].op == SEGC_OP_ARG)
		a = m->b, v = m->a;
	else if (p->insn[m->a].op == SEGC_OP_ARG)
		a = m->a, v = m->b;
	else
		return NONE;
	if (*x != NONE && a != *x)
		return NONE;
	if (p->insn[v].op != SEGC_OP_CONST && (p->insn[v].uses != 1 ||
	    p->insn[v].block != 0))
		return NONE;
	*x = a;
	return v;
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
 * 'x') to the pack of its shape in 'ps', made when there is none. */
static void add_chain(segc_emit_packs *ps, size_t x, size_t len,
	size_t *val, size_t *cst)
{
	segc_emit_pack *g;
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (ps->g[i].x == x && ps->g[i].len == len)
			break;
	if (i == ps->n) {
		ps->g = segc_xrealloc(ps->g, (ps->n + 1) * sizeof *ps->g);
		memset(&ps->g[ps->n], 0, sizeof *ps->g);
		ps->g[ps->n].x = x;
		ps->g[ps->n].len = len;
		ps->n++;
	}
	g = &ps->g[i];
	g->val = segc_xrealloc(g->val, (g->n + 1) * len * sizeof *g->val);
	g->cst = segc_xrealloc(g->cst, (g->n + 1) * len * sizeof *g->cst);
	memcpy(g->val + g->n * len, val, len * sizeof *val);
	memcpy(g->cst + g->n * len, cst, len * sizeof *cst);
	g->n++;
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
		free(ps->g[i].val);
		free(ps->g[i].cst);
	}
	ps->n = k;
}

/* Marks the roles of the values of the packs of 'ps' in plan 'p': the
 * last value of each chain an output (its pack and lane), the others and
 * the products hidden, and a constant hidden when the packs are all its
 * uses. */
static void mark_roles(segc_emit_packs *ps, const segc_plan *p)
{
	unsigned *inside = segc_xcalloc(p->n + 1, sizeof *inside);
	size_t g, k, j;

	for (g = 0; g < ps->n; g++) {
		const segc_emit_pack *pk = &ps->g[g];

		for (k = 0; k < pk->n; k++) {
			const size_t *val = pk->val + k * pk->len;
			const size_t *cst = pk->cst + k * pk->len;

			for (j = 0; j < pk->len; j++) {
				if (p->insn[val[j]].op != SEGC_OP_CONST)
					ps->role[val[j]] = j + 1 < pk->len ?
						SEGC_PACK_HIDDEN : SEGC_PACK_OUT;
				if (j + 1 == pk->len) {
					ps->group[val[j]] = g;
					ps->lane[val[j]] = k;
				}
				if (!j)
					continue;
				ps->role[step_mul(p, val, cst, j)] =
					SEGC_PACK_HIDDEN;
				inside[cst[j]]++;
				inside[val[j - 1]] += p->insn[val[j - 1]].op ==
					SEGC_OP_CONST;
			}
		}
	}
	for (j = 0; j < p->n; j++)
		if (p->insn[j].op == SEGC_OP_CONST && inside[j] &&
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
	size_t i, len, x, *val, *cst, j;

	nm->packs = NULL;
	if (!nm->accurate)
		return;
	ps = segc_xcalloc(1, sizeof *ps);
	claimed = segc_xcalloc(p->n + 1, 1);
	for (i = p->n; i-- > 0;) {
		if (!p->insn[i].uses || claimed[i] ||
		    p->insn[i].op != SEGC_OP_ADD)
			continue;
		len = chain_of(p, i, &x, &val, &cst);
		if (len >= PACK_STEPS + 1) {
			for (j = 0; j < len; j++)
				claimed[val[j]] = 1;
			add_chain(ps, x, len, val, cst);
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
	for (g = 0; g < ps->n; g++) {
		free(ps->g[g].val);
		free(ps->g[g].cst);
	}
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
 * constants of pack 'g', one row per step, zeros in the lanes left. */
static void put_table(segc_strbuf *b, const segc_emit_namer *nm,
	const segc_emit_pack *g, const char *name, int low)
{
	size_t s, k, nl = lanes(g);

	segc_strbuf_appendf(b, "\tstatic const double %s[%lu][%lu] = {\n",
		name, (unsigned long)g->len, (unsigned long)nl);
	for (s = 0; s < g->len; s++) {
		segc_strbuf_append(b, "\t\t{ ");
		for (k = 0; k < nl; k++) {
			double hi = 0, lo = 0;

			if (k < g->n)
				segc_emit_const_pair(nm, g->cst[k * g->len + s],
					&hi, &lo);
			if (k)
				segc_strbuf_append(b, k % 4 ? ", " : ",\n\t\t  ");
			segc_emit_put_double(b, low ? lo : hi);
		}
		segc_strbuf_append(b, s + 1 < g->len ? " },\n" : " }\n");
	}
	segc_strbuf_append(b, "\t};\n");
}

/* See emit_private.h. */
void segc_emit_pack_helpers(segc_strbuf *b, const segc_emit_namer *nm)
{
	const segc_emit_packs *ps = nm->packs;
	size_t g, s, c;

	for (g = 0; ps && g < ps->n; g++) {
		const segc_emit_pack *pk = &ps->g[g];
		unsigned long nl = (unsigned long)lanes(pk);

		segc_strbuf_appendf(b, "\n/* %lu compensated Horner chains of "
			"%lu steps in %s, side by side in\n * %lu lanes, %d at a "
			"time (a vector register): each lane computes what\n"
			" * dd_mul_d and dd_add compute for its chain.  Into r; "
			"returns r. */\nSEGC_DD_FN const segc_dd *segc_%s_g%lu("
			"double x, int f, segc_dd *r)\n{\n",
			(unsigned long)pk->n, (unsigned long)pk->len - 1,
			nm->arg[nm->p->insn[pk->x].a], nl, PACK_WIDTH,
			ps->cname, (unsigned long)g);
		put_table(b, nm, pk, "ch", 0);
		put_table(b, nm, pk, "cl", 1);
		segc_strbuf_appendf(b, "\tdouble h[%lu], l[%lu];\n\tsize_t k;\n\n"
			"\tfor (k = 0; k < %lu; k++) {\n\t\th[k] = ch[0][k];\n"
			"\t\tl[k] = cl[0][k];\n\t}\n", nl, nl, nl);
		for (s = 1; s < pk->len; s++)
			for (c = 0; c < nl; c += PACK_WIDTH)
				segc_strbuf_appendf(b, "\tfor (k = %lu; k < %lu; k++) {"
					"\n\t\tsegc_dd p = two_prod(h[k], x, f), t;\n\n"
					"\t\tp.lo += l[k] * x;\n"
					"\t\tt = two_sum(ch[%lu][k], p.hi);\n"
					"\t\tt.lo += cl[%lu][k] + p.lo;\n"
					"\t\th[k] = t.hi;\n\t\tl[k] = t.lo;\n\t}\n",
					(unsigned long)c, (unsigned long)c + PACK_WIDTH,
					(unsigned long)s, (unsigned long)s);
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
