/* latex_break.c - the layout of a formula in LaTeX: reads the marked LaTeX
 * that latex.c writes (containers and places to break, latex_private.h)
 * and writes the final text, on one line or broken into lines of a given
 * width.  On one line, groups are \left ... \right pairs and fractions
 * \frac, except inside two fractions or in an exponent or a limit, where
 * they are a/b.  Broken, the lines are chosen greedily from the width of
 * each token as estimated by latex_measure.c; a group that spans lines
 * gets delimiters of a fixed size (\bigl ... \Biggr) from the measured
 * height of its contents, the same on every line; a fraction too wide for
 * a line is written 1/d times its numerator in parentheses, which can
 * break.  The rules are described in doc/latex.md. */
#include <stdlib.h>
#include <string.h>
#include "output/latex_private.h"

/* ------------------------------------------------------------ marks */

void segc_latex_open(segc_strbuf *b, char kind)
{
	segc_strbuf_appendc(b, LX_START);
	segc_strbuf_appendc(b, kind);
}

void segc_latex_put_break(segc_strbuf *b, char cls)
{
	segc_strbuf_appendc(b, LX_BREAK);
	segc_strbuf_appendc(b, cls);
}

/* ------------------------------------------------------------- tree */

/* A node: text, a sequence, a place to break, or a container. */
typedef struct node {
	char type;            /* 'T' text, 'Q' sequence, 'B' break, or a kind */
	char cls;             /* of a break */
	const char *text;     /* of a text: not terminated */
	size_t len;
	struct node **kid;    /* of a sequence: items; of a container: cells */
	size_t n, cap;
	long wkey, hkey;      /* the style of the width and height known, or 0 */
	double w, h;
} node;

static node *node_new(char type)
{
	node *x = segc_xmalloc(sizeof *x);

	memset(x, 0, sizeof *x);
	x->type = type;
	return x;
}

static void node_add(node *x, node *k)
{
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 4;
		x->kid = segc_xrealloc(x->kid, segc_xmul_size(x->cap,
			sizeof *x->kid));
	}
	x->kid[x->n++] = k;
}

static void node_free(node *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->n; i++)
		node_free(x->kid[i]);
	free(x->kid);
	free(x);
}

/* Reads a sequence at '*p' up to the end or separator of its container. */
static node *parse_seq(const char **p)
{
	node *q = node_new('Q');

	while (**p && **p != LX_END && **p != LX_SEP) {
		if (**p == LX_BREAK) {
			node *b = node_new('B');

			b->cls = (*p)[1];
			*p += (*p)[1] ? 2 : 1;
			node_add(q, b);
		} else if (**p == LX_START) {
			node *c = node_new((*p)[1]);

			*p += (*p)[1] ? 2 : 1;
			for (;;) {
				node_add(c, parse_seq(p));
				if (**p != LX_SEP)
					break;
				(*p)++;
			}
			if (**p == LX_END)
				(*p)++;
			node_add(q, c);
		} else {
			node *t = node_new('T');

			t->text = *p;
			while (**p && **p != LX_END && **p != LX_SEP &&
			       **p != LX_BREAK && **p != LX_START)
				(*p)++;
			t->len = (size_t)(*p - t->text);
			node_add(q, t);
		}
	}
	return q;
}

static node *parse(const char *m)
{
	node *q = parse_seq(&m);

	return q;
}

/* An empty sequence, never written to. */
static const node empty = { 'Q', 0, NULL, 0, NULL, 0, 0, 0, 0, 0, 0 };

/* The cell 'i' of a container, an empty sequence when missing. */
static const node *cell(const node *x, size_t i)
{
	return i < x->n ? x->kid[i] : &empty;
}

/* Non-zero when the group kind 'k' may span lines. */
static int is_group(char k)
{
	return k == LX_PAREN || k == LX_BRACE || k == LX_CEIL ||
		k == LX_FLOOR;
}

/* Non-zero when the sequence 'q' has a break of class 'c1' or 'c2' at its
 * own level. */
static int has_break(const node *q, char c1, char c2)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		if (q->kid[i]->type == 'B' && (q->kid[i]->cls == c1 ||
		    q->kid[i]->cls == c2))
			return 1;
	return 0;
}

/* ------------------------------------------------------------ style */

/* Where a node is set: display style, text style (in a fraction), script
 * (exponents, limits); 'fracs' counts the fractions around it. */
typedef struct style {
	int display;
	int script;
	int fracs;
	double scale;
} style;

static const style top_style = { 1, 0, 0, 1.0 };

/* A number that tells styles apart, never 0. */
static long style_key(style st)
{
	return 1 + st.display + 2L * st.script + 4L * (st.fracs > 3 ? 3 :
		st.fracs) + 16L * (long)(st.scale * 1000 + 0.5);
}

/* The style of the cells of a fraction in 'st'. */
static style frac_style(style st)
{
	if (!st.display)
		st.scale *= 0.75;
	st.display = 0;
	st.fracs++;
	return st;
}

/* The style of an exponent or a limit in 'st'. */
static style script_style(style st)
{
	st.display = 0;
	st.script = 1;
	st.scale = st.scale * 0.8 < 0.65 ? 0.65 : st.scale * 0.8;
	return st;
}

/* Non-zero when a fraction in 'st' is written a/b. */
static int solidus(style st)
{
	return st.script || st.fracs >= 2;
}

/* ------------------------------------------------------ measurement */

static double width(const node *x, style st);
static double height(const node *x, style st);

/* The height of a sequence in lines of text. */
static double seq_height(const node *q, style st)
{
	double h = 1, k;
	size_t i;

	for (i = 0; i < q->n; i++)
		if ((k = height(q->kid[i], st)) > h)
			h = k;
	return h;
}

/* The height of 'x' in lines of text (1 for a name, 2 for a fraction of
 * names in display style, about 3 for a sum with limits). */
static double compute_height(const node *x, style st)
{
	double h = 0, row;
	size_t i;

	switch (x->type) {
	case 'Q':
		return seq_height(x, st);
	case LX_FRAC:
		if (solidus(st))
			return seq_height(cell(x, 0), st) > seq_height(cell(x, 1),
				st) ? seq_height(cell(x, 0), st) :
				seq_height(cell(x, 1), st);
		h = seq_height(cell(x, 0), frac_style(st)) +
			seq_height(cell(x, 1), frac_style(st));
		return st.display ? h : (0.7 * h < 1 ? 1 : 0.7 * h);
	case LX_SUMOP:
		return st.display ? 2.8 : 1.4;
	case LX_CASES:
		for (i = 0; i < x->n; i += 2) {
			row = seq_height(cell(x, i), frac_style(st));
			if (seq_height(cell(x, i + 1), frac_style(st)) > row)
				row = seq_height(cell(x, i + 1), frac_style(st));
			h += row + (i ? 0.2 : 0);
		}
		return h < 1 ? 1 : h;
	case LX_SCRIPT:
		return 1;
	default:
		if (is_group(x->type))
			return seq_height(cell(x, 0), st) + 0.2;
		return seq_height(cell(x, 0), st) + (x->type == LX_KEEP ? 0.2 :
			0);
	}
}

/* The size of delimiters around contents 'h' lines high: 0 \big, 1 \Big,
 * 2 \bigg, 3 \Bigg. */
static int delim_size(double h)
{
	return h <= 1.1 ? 0 : h <= 1.6 ? 1 : h <= 2.3 ? 2 : 3;
}

/* The width of one delimiter of group kind 'k' of size 'size'. */
static double delim_width(char k, int size)
{
	static const double w[4] = { 4.7, 5.9, 7.4, 8.6 };

	return w[size] + (k == LX_PAREN ? 0 : 1.5);
}

static double seq_width(const node *q, style st)
{
	double w = 0;
	size_t i;

	for (i = 0; i < q->n; i++)
		w += width(q->kid[i], st);
	return w;
}

/* The larger width of the cells i, i + 2, ... of 'x' in 'st'. */
static double column_width(const node *x, size_t i, style st)
{
	double w = 0, k;

	for (; i < x->n; i += 2)
		if ((k = seq_width(x->kid[i], st)) > w)
			w = k;
	return w;
}

/* Whether the numerator (0) or denominator (1) of a solidus fraction
 * needs parentheses. */
static int solidus_parens(const node *x, int which)
{
	const node *q = cell(x, which);

	return which == 0 ? has_break(q, LX_BREAK_SUM, 0) :
		has_break(q, LX_BREAK_SUM, LX_BREAK_PRODUCT);
}

/* The estimated width of 'x' in points (see latex_measure.c). */
static double compute_width(const node *x, style st)
{
	double a, b;

	switch (x->type) {
	case 'T':
		return segc_latex_width_n(x->text, x->len, st.scale, st.script);
	case 'Q':
		return seq_width(x, st);
	case 'B':
		return 0;
	case LX_FRAC:
		if (solidus(st))
			return seq_width(cell(x, 0), st) + seq_width(cell(x, 1), st)
				+ 5 * st.scale + 8 * st.scale * (solidus_parens(x,
				0) + solidus_parens(x, 1));
		a = seq_width(cell(x, 0), frac_style(st));
		b = seq_width(cell(x, 1), frac_style(st));
		return (a > b ? a : b) + 3.6;
	case LX_SCRIPT:
		return seq_width(cell(x, 0), script_style(st));
	case LX_SUMOP:
		a = seq_width(cell(x, 0), script_style(st));
		b = seq_width(cell(x, 1), script_style(st));
		if (b > a)
			a = b;
		if (st.display)
			return (a > 14.4 ? a : 14.4) + 1.7;
		return 10.6 * st.scale + a + 1.7;
	case LX_CASES:
		st = frac_style(st);
		st.fracs--;
		return 9 + column_width(x, 0, st) + 10 +
			column_width(x, 1, st) + 3;
	default:
		if (is_group(x->type))
			return seq_width(cell(x, 0), st) + 2 * st.scale *
				delim_width(x->type, delim_size(height(x, st)));
		return seq_width(cell(x, 0), st);
	}
}

/* The height of 'x' in 'st', computed once per style: a deep formula is
 * measured at every level of its nesting. */
static double height(const node *x, style st)
{
	node *m = (node *)x;
	long k = style_key(st);

	if (x == &empty || x->type == 'T' || x->type == 'B')
		return compute_height(x, st);
	if (m->hkey != k) {
		m->h = compute_height(x, st);
		m->hkey = k;
	}
	return m->h;
}

/* The width of 'x' in 'st', computed once per style. */
static double width(const node *x, style st)
{
	node *m = (node *)x;
	long k = style_key(st);

	if (x == &empty || x->type == 'B')
		return compute_width(x, st);
	if (m->wkey != k) {
		m->w = compute_width(x, st);
		m->wkey = k;
	}
	return m->w;
}

/* ------------------------------------------------------- one line */

static void render(segc_strbuf *b, const node *x, style st);

static void render_seq(segc_strbuf *b, const node *q, style st)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		render(b, q->kid[i], st);
}

/* The opening (0) or closing (1) delimiter of group kind 'k'. */
static const char *delim(char k, int close)
{
	switch (k) {
	case LX_BRACE:
		return close ? "\\}" : "\\{";
	case LX_CEIL:
		return close ? "\\rceil" : "\\lceil";
	case LX_FLOOR:
		return close ? "\\rfloor" : "\\lfloor";
	default:
		return close ? ")" : "(";
	}
}

/* Appends the opening or closing delimiter of group kind 'k': a \left or
 * \right one when 'size' < 0, else of the fixed size 'size'. */
static void put_delim(segc_strbuf *b, char k, int close, int size)
{
	static const char *const big[4] = { "\\big", "\\Big", "\\bigg",
		"\\Bigg" };
	int space = k == LX_CEIL || k == LX_FLOOR;

	if (close && space)
		segc_strbuf_appendc(b, ' ');
	if (size < 0)
		segc_strbuf_append(b, close ? "\\right" : "\\left");
	else
		segc_strbuf_appendf(b, "%s%c", big[size], close ? 'r' : 'l');
	segc_strbuf_append(b, delim(k, close));
	if (!close && space)
		segc_strbuf_appendc(b, ' ');
}

/* Appends the fraction 'x': \frac, or a/b (see solidus()). */
static void render_frac(segc_strbuf *b, const node *x, style st)
{
	int i;

	if (!solidus(st)) {
		segc_strbuf_append(b, "\\frac{");
		render_seq(b, cell(x, 0), frac_style(st));
		segc_strbuf_append(b, "}{");
		render_seq(b, cell(x, 1), frac_style(st));
		segc_strbuf_appendc(b, '}');
		return;
	}
	for (i = 0; i < 2; i++) {
		int p = solidus_parens(x, i);

		if (i)
			segc_strbuf_appendc(b, '/');
		if (p)
			put_delim(b, LX_PAREN, 0, -1);
		render_seq(b, cell(x, (size_t)i), st);
		if (p)
			put_delim(b, LX_PAREN, 1, -1);
	}
}

/* Appends the cases 'x': value & condition rows, the last "otherwise". */
static void render_cases(segc_strbuf *b, const node *x, style st)
{
	size_t i;

	st = frac_style(st);
	st.fracs--;
	segc_strbuf_append(b, "\\begin{cases} ");
	for (i = 0; i < x->n; i += 2) {
		render_seq(b, cell(x, i), st);
		segc_strbuf_append(b, " & ");
		render_seq(b, cell(x, i + 1), st);
		if (i + 2 < x->n)
			segc_strbuf_append(b, ",\\\\ ");
	}
	segc_strbuf_append(b, " \\end{cases}");
}

/* Appends 'x' in 'st' on one line. */
static void render(segc_strbuf *b, const node *x, style st)
{
	switch (x->type) {
	case 'T':
		segc_strbuf_appendn(b, x->text, x->len);
		break;
	case 'Q':
		render_seq(b, x, st);
		break;
	case 'B':
		break;
	case LX_FRAC:
		render_frac(b, x, st);
		break;
	case LX_SCRIPT:
		render_seq(b, cell(x, 0), script_style(st));
		break;
	case LX_SUMOP:
		segc_strbuf_append(b, "\\sum_{");
		render_seq(b, cell(x, 0), script_style(st));
		segc_strbuf_append(b, "}^{");
		render_seq(b, cell(x, 1), script_style(st));
		segc_strbuf_appendc(b, '}');
		break;
	case LX_CASES:
		render_cases(b, x, st);
		break;
	default:
		if (is_group(x->type)) {
			put_delim(b, x->type, 0, -1);
			render_seq(b, cell(x, 0), st);
			put_delim(b, x->type, 1, -1);
		} else {
			render_seq(b, cell(x, 0), st);
		}
		break;
	}
}

char *segc_latex_layout_line(const char *m)
{
	node *q = parse(m);
	segc_strbuf b;

	segc_strbuf_init(&b);
	render_seq(&b, q, top_style);
	node_free(q);
	return segc_strbuf_take(&b);
}

double segc_latex_width(const char *s)
{
	node *q = parse(s);
	double w = seq_width(q, top_style);

	node_free(q);
	return w;
}

/* ----------------------------------------------------------- tokens */

/* A token of a formula to break: text that stays on one line, the start
 * or end of a group that may span lines, or a place to break. */
typedef struct tok {
	char kind;       /* 'T', 'O' open, 'C' close, 'B' break */
	char sub;        /* group kind, or break class */
	int size;        /* delimiter size of a group */
	int depth;       /* groups open around it */
	size_t match;    /* of a group: the index of the other end */
	double w;
	char *text;      /* of a text */
} tok;

typedef struct toks {
	tok *t;
	size_t n, cap;
} toks;

static tok *tok_add(toks *ts, char kind, char sub, int depth, double w)
{
	tok *t;

	if (ts->n == ts->cap) {
		ts->cap = ts->cap ? 2 * ts->cap : 32;
		ts->t = segc_xrealloc(ts->t, segc_xmul_size(ts->cap,
			sizeof *ts->t));
	}
	t = &ts->t[ts->n++];
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->sub = sub;
	t->depth = depth;
	t->w = w;
	return t;
}

static void flatten(toks *ts, const node *q, int depth, double avail);

/* Adds the group of kind 'k' around the sequence 'q' (contents 'h' lines
 * high) at 'depth'. */
static void flatten_group(toks *ts, char k, const node *q, double h,
	int depth, double avail)
{
	int size = delim_size(h);
	size_t open = ts->n;

	tok_add(ts, 'O', k, depth, delim_width(k, size))->size = size;
	flatten(ts, q, depth + 1, avail);
	tok_add(ts, 'C', k, depth, delim_width(k, size))->size = size;
	ts->t[open].match = ts->n - 1;
	ts->t[ts->n - 1].match = open;
}

/* Adds the fraction 'x' too wide for a line as \frac{1}{d} times its
 * numerator in parentheses, with a place to break between the two; when
 * the denominator is too wide as well, as (n) / (d), each in parentheses
 * that may span lines. */
static void flatten_wide_frac(toks *ts, const node *x, int depth,
	double avail)
{
	double wd = seq_width(cell(x, 1), frac_style(top_style));
	segc_strbuf b;
	tok *t;

	if (wd > avail) {
		flatten_group(ts, LX_PAREN, cell(x, 0), seq_height(cell(x, 0),
			top_style) + 0.2, depth, avail);
		t = tok_add(ts, 'T', 0, depth, 7.4);
		t->text = segc_xstrdup("\\bigg/");
		flatten_group(ts, LX_PAREN, cell(x, 1), seq_height(cell(x, 1),
			top_style) + 0.2, depth, avail);
		return;
	}
	segc_strbuf_init(&b);
	segc_strbuf_append(&b, "\\frac{1}{");
	render_seq(&b, cell(x, 1), frac_style(top_style));
	segc_strbuf_append(&b, "}\\,");
	t = tok_add(ts, 'T', 0, depth, 3.6 + 1.7 + wd);
	t->text = segc_strbuf_take(&b);
	tok_add(ts, 'B', LX_BREAK_PRODUCT, depth, 0);
	flatten_group(ts, LX_PAREN, cell(x, 0), seq_height(cell(x, 0),
		top_style) + 0.2, depth, avail);
}

static void layout(segc_strbuf *b, const node *q, double width,
	double first, int nested, size_t *nlines);

/* Adds the cases 'x' too wide for a line as one token, the values too
 * wide for their column broken into the lines of an aligned environment
 * (the conditions keep their width). */
static void flatten_wide_cases(toks *ts, const node *x, int depth,
	double avail)
{
	style st = frac_style(top_style);
	double cond, room, wmax = 0, w;
	segc_strbuf b;
	size_t i, nl;

	st.fracs--;
	cond = column_width(x, 1, st);
	room = avail - 22 - cond;
	segc_strbuf_init(&b);
	segc_strbuf_append(&b, "\\begin{cases} ");
	for (i = 0; i < x->n; i += 2) {
		w = seq_width(cell(x, i), st);
		if (w > room && room >= 60) {
			segc_strbuf_append(&b, "\\begin{aligned}[t]&");
			layout(&b, cell(x, i), room, 0, 1, &nl);
			segc_strbuf_append(&b, "\\end{aligned}");
			w = room;
		} else {
			render_seq(&b, cell(x, i), st);
		}
		wmax = w > wmax ? w : wmax;
		segc_strbuf_append(&b, " & ");
		render_seq(&b, cell(x, i + 1), st);
		if (i + 2 < x->n)
			segc_strbuf_append(&b, ",\\\\ ");
	}
	segc_strbuf_append(&b, " \\end{cases}");
	tok_add(ts, 'T', 0, depth, 22 + wmax + cond)->text =
		segc_strbuf_take(&b);
}

/* Adds the tokens of the sequence 'q' at 'depth'. */
static void flatten(toks *ts, const node *q, int depth, double avail)
{
	size_t i;

	for (i = 0; i < q->n; i++) {
		const node *x = q->kid[i];
		double w = width(x, top_style);
		segc_strbuf b;

		if (x->type == 'B') {
			tok_add(ts, 'B', x->cls, depth, 0);
		} else if (is_group(x->type) && w > avail / 3) {
			flatten_group(ts, x->type, cell(x, 0), height(x,
				top_style) - 0.2, depth, avail);
		} else if (x->type == LX_FRAC && w > avail) {
			flatten_wide_frac(ts, x, depth, avail);
		} else if (x->type == LX_CASES && w > avail) {
			flatten_wide_cases(ts, x, depth, avail);
		} else if (x->type == 'Q') {
			flatten(ts, x, depth, avail);
		} else if (x->type == LX_ARG) {
			flatten(ts, cell(x, 0), depth + 1, avail);
		} else {
			segc_strbuf_init(&b);
			render(&b, x, top_style);
			tok_add(ts, 'T', 0, depth, w)->text = segc_strbuf_take(&b);
		}
	}
}

/* ------------------------------------------------------ line breaks */

/* Every estimated width is taken 2% wider, for safety. */
#define MARGIN 1.02

/* The rank of a break class: smaller is better. */
static int break_rank(char cls)
{
	return cls == LX_BREAK_SUM ? 0 : cls == LX_BREAK_ARG ? 1 : 2;
}

/* The indentation of a line that starts at depth 'depth'. */
static double indent_width(int depth)
{
	return depth ? 20 : 10;
}

/* What a line that starts at the break 't' begins with. */
static double line_start_width(const tok *t)
{
	return indent_width(t->depth) + (t->sub == LX_BREAK_PRODUCT ? 7.2 : 0);
}

/* The better of the places to break 'a' and 'b' (a before b) on a line
 * of width 'lim', where 'xa' and 'xb' are the widths before them: one
 * that is not between factors first, then one after at least half of the
 * line, then the shallower, then the better class, then the later. */
static size_t better_break(const toks *ts, size_t a, double xa, size_t b,
	double xb, double lim)
{
	const tok *ta = &ts->t[a], *tb = &ts->t[b];

	if ((ta->sub == LX_BREAK_PRODUCT) != (tb->sub == LX_BREAK_PRODUCT))
		return tb->sub == LX_BREAK_PRODUCT ? a : b;
	if ((xa >= lim / 2) != (xb >= lim / 2))
		return xa >= lim / 2 ? a : b;
	if (xb < lim / 2)
		return b;
	if (ta->depth != tb->depth)
		return ta->depth < tb->depth ? a : b;
	if (break_rank(ta->sub) != break_rank(tb->sub))
		return break_rank(ta->sub) < break_rank(tb->sub) ? a : b;
	return b;
}

/* Chooses the breaks of 'ts' into '*brk' (indices of break tokens, ended
 * by ts->n); returns their number.  Greedy, line by line: a line takes
 * tokens while they fit in 'width' (the first line starts 'first' points
 * in); at the first token that does not fit, the line ends at the best
 * place to break that fits (better_break); when none fits, at the first
 * place to break after it. */
static size_t choose_breaks(const toks *ts, double width, double first,
	size_t *brk, int *over)
{
	size_t nb = 0, start = 0, i, best = 0;
	double x = first, xbest = 0;

	*over = 0;
	for (;;) {
		int found = 0;

		for (i = start; i < ts->n; i++) {
			const tok *t = &ts->t[i];

			if (t->kind == 'B' && i > start) {
				if (x > width) {
					best = i;
					found = 1;
					*over = 1;
					break;
				}
				if (!found || better_break(ts, best, xbest, i, x,
				    width) == i) {
					best = i;
					xbest = x;
				}
				found = 1;
			}
			x += t->w;
			if (x > width && found)
				break;
		}
		if (i >= ts->n || !found) {
			if (x > width)
				*over = 1;
			break;
		}
		brk[nb++] = best;
		start = best;
		x = line_start_width(&ts->t[best]);
	}
	brk[nb] = ts->n;
	return nb;
}

/* Chooses the breaks of 'ts' for lines of 'width' (see choose_breaks),
 * then evens them out: the narrowest width, found by bisection down to
 * half of 'width', at which the greedy choice still makes as many lines,
 * none too long, gives the breaks. */
static size_t balanced_breaks(const toks *ts, double width, double first,
	size_t *brk)
{
	double lo = width / 2, hi = width;
	int over, k;
	size_t nb = choose_breaks(ts, width, first, brk, &over);

	if (over || !nb)
		return nb;
	for (k = 0; k < 12; k++) {
		double mid = (lo + hi) / 2;

		if (choose_breaks(ts, mid, first, brk, &over) == nb && !over)
			hi = mid;
		else
			lo = mid;
	}
	return choose_breaks(ts, hi, first, brk, &over);
}

/* 's' without its leading spaces and thin spaces: what starts a line. */
static const char *skip_blank(const char *s)
{
	for (;;) {
		if (*s == ' ')
			s++;
		else if (!strncmp(s, "\\,", 2))
			s += 2;
		else
			return s;
	}
}

/* Appends the tokens of 'ts' from 'from' to 'to' as one line. */
static void put_line(segc_strbuf *b, const toks *ts, size_t from,
	size_t to)
{
	size_t i;
	int blank = 1;

	for (i = from; i < to; i++) {
		const tok *t = &ts->t[i];
		int whole = t->match >= from && t->match < to;

		if (t->kind == 'T') {
			segc_strbuf_append(b, blank ? skip_blank(t->text) :
				t->text);
			blank = 0;
		} else if (t->kind == 'O' || t->kind == 'C') {
			put_delim(b, t->sub, t->kind == 'C', whole ? -1 :
				t->size);
			blank = 0;
		} else if (i == from && t->sub == LX_BREAK_PRODUCT) {
			segc_strbuf_append(b, "\\cdot ");
		}
	}
}

/* Appends the end of a line and the indentation of the next, starting
 * at depth 'depth'; on the same line of source when 'nested'. */
static void put_indent(segc_strbuf *b, int depth, int nested)
{
	segc_strbuf_append(b, nested ? "\\\\ " : "\\\\\n");
	segc_strbuf_append(b, depth ? "&\\qquad " : "&\\quad ");
}

/* Appends the sequence 'q' in lines of 'width' points, the first one
 * already holding 'first' (see segc_latex_layout_lines), the lines on one
 * line of source when 'nested' (inside a cases). */
static void layout(segc_strbuf *b, const node *q, double width,
	double first, int nested, size_t *nlines)
{
	toks ts = { NULL, 0, 0 };
	size_t *brk, nb, i, from = 0;

	*nlines = 1;
	if (first + seq_width(q, top_style) <= width) {
		render_seq(b, q, top_style);
		return;
	}
	flatten(&ts, q, 0, width - indent_width(1));
	brk = segc_xmalloc(segc_xmul_size(ts.n + 1, sizeof *brk));
	nb = balanced_breaks(&ts, width, first, brk);
	for (i = 0; i <= nb; i++) {
		if (i)
			put_indent(b, ts.t[from].depth, nested);
		put_line(b, &ts, from, brk[i]);
		from = brk[i];
	}
	*nlines = nb + 1;
	for (i = 0; i < ts.n; i++)
		free(ts.t[i].text);
	free(ts.t);
	free(brk);
}

char *segc_latex_layout_lines(const char *m, double width, double first,
	size_t *nlines)
{
	node *q = parse(m);
	segc_strbuf b;

	segc_strbuf_init(&b);
	layout(&b, q, width / MARGIN, first / MARGIN, 0, nlines);
	node_free(q);
	return segc_strbuf_take(&b);
}
