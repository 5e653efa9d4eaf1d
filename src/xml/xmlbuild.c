/* xmlbuild.c - turns a schema-valid SEG XML tree into the in-memory model
 * or machine of model.h: attributes become strings and parsed
 * expressions, elements become blocks, nodes and arcs.  Identifiers and
 * expressions are checked here, where the text is at hand; what they mean
 * is checked afterwards (validate.c).  Blocks are built with an explicit
 * stack: nesting depth costs no C stack. */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEGC_XMLREAD_INTERNAL
#include "xml/xmlread.h"
#include "base/util.h"
#include "base/symtab.h"

/* The state of one build: where to report, the document's name as the
 * model or machine owns it, and whether anything failed. */
/* Expressions parsed without a diagnostic, by their text: the costs of a
 * long graph repeat, and parsing again gives the same (shared) node.  At
 * most CACHE_MAX texts of at most CACHE_MAX_TEXT bytes. */
#define CACHE_MAX 4096
#define CACHE_MAX_TEXT 64
typedef struct parse_cache {
	segc_symtab tab;         /* text -> index */
	char *texts[CACHE_MAX];  /* the keys, owned */
	segc_expr *exprs[CACHE_MAX];
	size_t n;
} parse_cache;

typedef struct builder {
	segc_ctx *ctx;
	const char *file;
	const segc_xml_source *src;
	segc_xml_locs *locs;     /* where each location came from; may be NULL */
	int failed;
	parse_cache *cache;      /* may be NULL */
} builder;

/* The cached parse of 'text' (a new reference), or NULL. */
static segc_expr *cache_get(const builder *b, const char *text)
{
	size_t k;

	if (!b->cache || strlen(text) > CACHE_MAX_TEXT)
		return NULL;
	k = segc_symtab_get(&b->cache->tab, text);
	return k == SEGC_SYMTAB_NONE ? NULL :
		segc_expr_copy(b->cache->exprs[k]);
}

/* Remembers that 'text' parses to 'e' (kept) while there is room. */
static void cache_put(builder *b, const char *text, segc_expr *e)
{
	parse_cache *c = b->cache;

	if (!c || c->n == CACHE_MAX || strlen(text) > CACHE_MAX_TEXT)
		return;
	c->texts[c->n] = segc_xstrdup(text);
	c->exprs[c->n] = segc_expr_copy(e);
	segc_symtab_put(&c->tab, c->texts[c->n], c->n);
	c->n++;
}

/* Releases the cache of 'b'. */
static void cache_free(builder *b)
{
	size_t i;

	if (!b->cache)
		return;
	for (i = 0; i < b->cache->n; i++) {
		free(b->cache->texts[i]);
		segc_expr_free(b->cache->exprs[i]);
	}
	segc_symtab_clear(&b->cache->tab);
	free(b->cache);
	b->cache = NULL;
}

/* One entry of a segc_xml_locs: a location of the model and its element. */
struct segc_xml_loc_entry {
	const segc_srcloc *loc;
	segc_xml_node *node;
};

/* The source location of element 'n'. */
static segc_srcloc loc_of(const builder *b, segc_xml_node *n)
{
	segc_srcloc loc;

	size_t off = segc_xml_node_offset(n);

	loc.file = b->file;
	loc.line = 0;
	loc.col = 0;
	if (off != (size_t)-1 && b->src)
		segc_xml_position(b->src, off, &loc.line, &loc.col);
	else
		loc.line = segc_xml_node_line(b->src, n);
	return loc;
}

static char *trimmed(const char *s);

/* Sets '*loc' to the location of element 'n' and notes where it came
 * from. */
static void set_loc(builder *b, segc_srcloc *loc, segc_xml_node *n)
{
	segc_xml_locs *l = b->locs;

	*loc = loc_of(b, n);
	if (!l)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = segc_xrealloc(l->v, segc_xmul_size(l->cap,
			sizeof *l->v));
	}
	l->v[l->n].loc = loc;
	l->v[l->n].node = n;
	l->n++;
	l->sorted = 0;
}

/* Orders two entries by the address of their location, for qsort(). */
static int cmp_entry(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct segc_xml_loc_entry *)a)->loc;
	uintptr_t y = (uintptr_t)((const struct segc_xml_loc_entry *)b)->loc;

	return x < y ? -1 : x > y;
}

/* The element location 'loc' came from, or NULL. */
static segc_xml_node *locs_find(segc_xml_locs *l, const segc_srcloc *loc)
{
	struct segc_xml_loc_entry key, *e;

	if (!l || !l->n)
		return NULL;
	if (!l->sorted) {
		qsort(l->v, l->n, sizeof *l->v, cmp_entry);
		l->sorted = 1;
	}
	key.loc = loc;
	e = bsearch(&key, l->v, l->n, sizeof *l->v, cmp_entry);
	return e ? e->node : NULL;
}

/* The position of a byte of an expression's text (see xmlread.h). */
int segc_xml_locs_position(void *data, const segc_srcloc *loc,
	const char *attr_name, size_t off, unsigned long *line,
	unsigned long *col)
{
	segc_xml_locs *l = data;
	segc_xml_node *n = locs_find(l, loc);

	if (!n || !l->src)
		return -1;
	return segc_xml_value_position(l->src, n, attr_name, off, line, col);
}

/* The text of the expression at 'loc' (see xmlread.h). */
char *segc_xml_locs_text(void *data, const segc_srcloc *loc,
	const char *attr_name)
{
	segc_xml_node *n = locs_find(data, loc);
	const char *v;

	if (!n)
		return NULL;
	if (attr_name) {
		v = segc_xml_attr_get(n, attr_name);
		return v ? segc_xstrdup(v) : NULL;
	}
	return trimmed(segc_xml_node_text(n) ? segc_xml_node_text(n) : "");
}

/* Releases the entries of 'l'. */
void segc_xml_locs_free(segc_xml_locs *l)
{
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* Non-zero when 'n' is the element 'name'. */
static int is_elem(segc_xml_node *n, const char *name)
{
	return !strcmp(n->name, name);
}

/* The number of child elements of 'n' named 'name' (NULL: all). */
static size_t count_children(segc_xml_node *n, const char *name)
{
	segc_xml_node *c;
	size_t k = 0;

	for (c = n->children; c; c = c->next)
		if (!name || !strcmp(c->name, name))
			k++;
	return k;
}

/* Allocates a zeroed array of 'n' objects of 'size' bytes (NULL if 0). */
static void *array_new(size_t n, size_t size)
{
	return n ? segc_xcalloc(n, size) : NULL;
}

/* The value of attribute 'name' of 'n', malloc'd, or NULL when absent. */
static char *attr(segc_xml_node *n, const char *name)
{
	const char *v = segc_xml_attr_get(n, name);

	return v ? segc_xstrdup(v) : NULL;
}

/* 's' without the white space around it, malloc'd. */
static char *trimmed(const char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
		     s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	return segc_xstrndup(s, n);
}

/* The text of element 'n', trimmed and malloc'd. */
static char *text_of(segc_xml_node *n)
{
	return trimmed(segc_xml_node_text(n) ? segc_xml_node_text(n) : "");
}

static void build_error(builder *b, segc_xml_node *n, const char *qname,
	size_t off, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 5, 6)))
#endif
	;

/* Records an error of class 'kind' at byte 'off' of the value of
 * attribute 'qname' of element 'n' (NULL, or when it cannot be found: at
 * the '<' of 'n'). */
static void build_verror(builder *b, enum segc_status kind, segc_xml_node *n,
	const char *qname, size_t off, const char *fmt, va_list ap)
{
	segc_srcloc at = loc_of(b, n);
	segc_strbuf sb;

	if (qname && segc_xml_value_position(b->src, n, qname, off, &at.line,
	    &at.col))
		at = loc_of(b, n);
	segc_strbuf_init(&sb);
	segc_strbuf_vappendf(&sb, fmt, ap);
	segc_error(b->ctx, kind, b->file, at.line, at.col, "%s",
		segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
	b->failed = 1;
}

/* Records an error of the input (build_verror). */
static void build_error(builder *b, segc_xml_node *n, const char *qname,
	size_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	build_verror(b, SEGC_ERR_INPUT, n, qname, off, fmt, ap);
	va_end(ap);
}

/* The same for a fixed limit reached (exit 3). */
static void build_limit(builder *b, segc_xml_node *n, const char *qname,
	size_t off, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 5, 6)))
#endif
	;

static void build_limit(builder *b, segc_xml_node *n, const char *qname,
	size_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	build_verror(b, SEGC_ERR_LIMIT, n, qname, off, fmt, ap);
	va_end(ap);
}

/* Checks that 'value' of attribute 'what' of element 'n' is an
 * identifier. */
static void check_identifier(builder *b, segc_xml_node *n, const char *what,
	const char *value)
{
	if (value && !segc_name_is_identifier(value))
		build_error(b, n, what, 0, "<%s> attribute '%s': \"%s\" is not an "
			"identifier ([A-Za-z_][A-Za-z0-9_]*)",
			(const char *)n->name, what, value);
}

/* The identifier in attribute 'name' of 'n' (NULL when absent). */
static char *ident_attr(builder *b, segc_xml_node *n, const char *name)
{
	char *v = attr(n, name);

	check_identifier(b, n, name, v);
	return v;
}

/* The offset in 'text' of the first place the message 'msg' of the
 * expression parser names ("at column 7 of the value", "at line 2,
 * column 3 of the value"), or 0 when it names none. */
static size_t offset_in_message(const char *text, const char *msg)
{
	const char *p = strstr(msg, " at ");
	unsigned long line = 1, col = 1;
	size_t off = 0;

	for (; p; p = strstr(p + 4, " at ")) {
		if (sscanf(p, " at line %lu, column %lu of the value", &line,
		    &col) == 2 || sscanf(p, " at column %lu of the value",
		    &col) == 1)
			break;
		line = 1;
	}
	if (!p)
		return 0;
	for (; line > 1 && text[off]; off++)
		if (text[off] == '\n')
			line--;
	while (col > 1 && text[off] && text[off] != '\n') {
		off++;
		col--;
	}
	return off;
}

/* Parses 'text', which stands in element 'n' as 'what': the value of
 * attribute 'qname', or with 'qname' NULL the text of 'n'.  The parser's
 * diagnostics are placed at the line and column of the fault in the
 * document, found from the column of the value each one names. */
static segc_expr *parse_text_at(builder *b, segc_xml_node *n, const char *qname,
	const char *text, size_t base, const char *what);

static segc_expr *parse_text(builder *b, segc_xml_node *n, const char *qname,
	const char *text, const char *what)
{
	return parse_text_at(b, n, qname, text, 0, what);
}

/* The same for a piece of the value that starts at offset 'base'. */
static segc_expr *parse_text_at(builder *b, segc_xml_node *n, const char *qname,
	const char *text, size_t base, const char *what)
{
	size_t from = segc_ctx_n_diags(b->ctx), i;
	segc_srcloc at, here;
	segc_where where;
	segc_expr *e = cache_get(b, text);

	if (e)
		return e;
	at = loc_of(b, n);
	where.file = NULL;
	where.line = at.line;
	where.col = 0;
	where.what = what;
	e = segc_expr_parse(b->ctx, text, &where);
	if (!e)
		b->failed = 1;
	else if (segc_ctx_n_diags(b->ctx) == from)
		cache_put(b, text, e);
	for (i = segc_ctx_n_diags(b->ctx); i-- > from;) {
		const segc_diag *d = segc_ctx_diag(b->ctx, i);

		here = at;
		if (d && segc_xml_value_position(b->src, n, qname,
		    base + offset_in_message(text, d->message), &here.line,
		    &here.col))
			here = at;
		segc_ctx_place_diags(b->ctx, i, b->file, here.line, here.col,
			NULL);
	}
	return e;
}

/* The expression in attribute 'name' of 'n', or NULL when absent (or
 * wrong, then recorded). */
static segc_expr *expr_attr(builder *b, segc_xml_node *n, const char *name)
{
	char *text = attr(n, name);
	segc_strbuf what;
	segc_expr *e;

	if (!text)
		return NULL;
	segc_strbuf_init(&what);
	segc_strbuf_append(&what, "attribute '");
	segc_strbuf_append(&what, name);
	segc_strbuf_append(&what, "' of <");
	segc_strbuf_append(&what, (const char *)n->name);
	segc_strbuf_append(&what, ">");
	e = parse_text(b, n, name, text, segc_strbuf_str(&what));
	segc_strbuf_free(&what);
	free(text);
	return e;
}

/* Non-zero when attribute 'name' of 'n' equals 'value' once the white
 * space around it is removed (a RELAX NG token, as the schema compares
 * its enumerated values). */
static int attr_is(segc_xml_node *n, const char *name, const char *value)
{
	char *v = attr(n, name), *t;
	int r = 0;

	if (v) {
		t = trimmed(v);
		r = !strcmp(t, value);
		free(t);
	}
	free(v);
	return r;
}

/* The class in attribute "class" of 'n' (the schema admits only the
 * three names). */
static enum segc_class class_attr(segc_xml_node *n)
{
	if (attr_is(n, "class", "comm"))
		return SEGC_CLASS_COMM;
	if (attr_is(n, "class", "io"))
		return SEGC_CLASS_IO;
	return SEGC_CLASS_COMP;
}

/* Fills parameter 'p' from <param> 'n'. */
static void build_param(builder *b, segc_xml_node *n, segc_param *p)
{
	p->name = ident_attr(b, n, "name");
	p->value = expr_attr(b, n, "value");
	p->min = expr_attr(b, n, "min");
	p->max = expr_attr(b, n, "max");
	p->integer = attr_is(n, "integer", "true");
	p->latex = attr(n, "latex");
	set_loc(b, &p->loc, n);
}

/* Fills binding 'x' from <let>, <const> or <cost> 'n'. */
static void build_binding(builder *b, segc_xml_node *n, segc_binding *x)
{
	x->name = ident_attr(b, n, "name");
	x->value = expr_attr(b, n, "value");
	set_loc(b, &x->loc, n);
}

/* Fills let 'x' from <let> 'n': a binding with the domain and the
 * typesetting a <param> has. */
static void build_let(builder *b, segc_xml_node *n, segc_binding *x)
{
	build_binding(b, n, x);
	x->min = expr_attr(b, n, "min");
	x->max = expr_attr(b, n, "max");
	x->integer = attr_is(n, "integer", "true");
	x->latex = attr(n, "latex");
}

/* Splits the comma list 'list' of <function> 'n' into identifiers. */
static void build_args(builder *b, segc_xml_node *n, const char *list,
	segc_function *f)
{
	const char *p = list, *comma;
	size_t k = 1, i;

	for (comma = list; *comma; comma++)
		k += *comma == ',';
	f->args = segc_xcalloc(k, sizeof *f->args);
	for (f->nargs = 0; f->nargs < k; f->nargs++) {
		char *raw;

		comma = strchr(p, ',');
		raw = segc_xstrndup(p, comma ? (size_t)(comma - p) :
			strlen(p));
		f->args[f->nargs] = trimmed(raw);
		free(raw);
		check_identifier(b, n, "args", f->args[f->nargs]);
		for (i = 0; i < f->nargs; i++)
			if (!strcmp(f->args[i], f->args[f->nargs]))
				build_error(b, n, "args", (size_t)(p - list) +
					strspn(p, " \t\n\r"), "<function> '%s': "
					"argument '%s' is listed twice", f->name ?
					f->name : "", f->args[i]);
		p = comma ? comma + 1 : p + strlen(p);
	}
}

/* Fills function 'f' from <function> 'n'. */
static void build_function(builder *b, segc_xml_node *n, segc_function *f)
{
	char *list = attr(n, "args"), *body = text_of(n);
	segc_strbuf what;

	f->name = ident_attr(b, n, "name");
	set_loc(b, &f->loc, n);
	build_args(b, n, list ? list : "", f);
	segc_strbuf_init(&what);
	segc_strbuf_appendf(&what, "the body of <function> '%s'",
		f->name ? f->name : "");
	f->body = parse_text(b, n, NULL, body, segc_strbuf_str(&what));
	segc_strbuf_free(&what);
	free(list);
	free(body);
}

/* Builds the <use> children of <step> 'n' into block 'blk'. */
static void build_uses(builder *b, segc_xml_node *n, segc_block *blk)
{
	segc_xml_node *c;

	blk->uses = array_new(count_children(n, "use"), sizeof *blk->uses);
	for (c = n->children; c; c = c->next) {
		segc_use *u;

		if (!is_elem(c, "use"))
			continue;
		u = &blk->uses[blk->nuses++];
		u->resource = ident_attr(b, c, "resource");
		u->count = expr_attr(b, c, "count");
		if (!u->count)
			u->count = segc_expr_int(1);
		set_loc(b, &u->loc, c);
	}
}

/* The kind of block element 'n'. */
static enum segc_block_kind block_kind(segc_xml_node *n)
{
	if (is_elem(n, "step"))
		return SEGC_BLOCK_STEP;
	if (is_elem(n, "loop"))
		return SEGC_BLOCK_LOOP;
	if (is_elem(n, "branch"))
		return SEGC_BLOCK_BRANCH;
	if (is_elem(n, "case"))
		return SEGC_BLOCK_CASE;
	if (is_elem(n, "par"))
		return SEGC_BLOCK_PAR;
	if (is_elem(n, "call"))
		return SEGC_BLOCK_CALL;
	return SEGC_BLOCK_SEQ;
}

/* A new block of element 'n' with its own attributes (not its children). */
static segc_block *block_new(builder *b, segc_xml_node *n)
{
	segc_block *blk = segc_xcalloc(1, sizeof *blk);

	blk->kind = block_kind(n);
	set_loc(b, &blk->loc, n);
	switch (blk->kind) {
	case SEGC_BLOCK_STEP:
		blk->name = attr(n, "name");
		blk->cost = expr_attr(b, n, "cost");
		blk->cls = class_attr(n);
		build_uses(b, n, blk);
		break;
	case SEGC_BLOCK_LOOP:
		blk->count = expr_attr(b, n, "count");
		blk->var = ident_attr(b, n, "var");
		blk->from = expr_attr(b, n, "from");
		blk->to = expr_attr(b, n, "to");
		break;
	case SEGC_BLOCK_CASE:
		blk->prob = expr_attr(b, n, "prob");
		break;
	case SEGC_BLOCK_CALL:
		blk->graph = ident_attr(b, n, "graph");
		break;
	default:
		break;
	}
	return blk;
}

/* A block whose children are being built: the next child element and
 * the slot it goes to.  The stack holds one per open block, not one per
 * child, so that a sequence of a million steps costs no list of jobs. */
typedef struct block_job {
	segc_xml_node *next;
	segc_block **slot;
} block_job;

/* Gives 'blk' one child slot per child element of 'n' and pushes the job
 * of building them (in document order) on 'jobs'. */
static void push_children(segc_xml_node *n, segc_block *blk, block_job **jobs,
	size_t *njobs, size_t *cap)
{
	size_t k = count_children(n, NULL);

	if (blk->kind == SEGC_BLOCK_STEP || blk->kind == SEGC_BLOCK_CALL)
		return;
	blk->children = array_new(k, sizeof *blk->children);
	blk->nchildren = k;
	if (!k)
		return;
	if (*njobs == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*jobs = segc_xrealloc(*jobs, segc_xmul_size(*cap,
			sizeof **jobs));
	}
	(*jobs)[*njobs].next = n->children;
	(*jobs)[*njobs].slot = blk->children;
	++*njobs;
}

/* Builds the blocks under container element 'n' (a <graph>) into a SEQ. */
static segc_block *build_body(builder *b, segc_xml_node *n)
{
	segc_block *seq = segc_xcalloc(1, sizeof *seq);
	block_job *jobs = NULL;
	size_t njobs = 0, cap = 0;

	seq->kind = SEGC_BLOCK_SEQ;
	set_loc(b, &seq->loc, n);
	push_children(n, seq, &jobs, &njobs, &cap);
	while (njobs) {
		block_job *j = &jobs[njobs - 1];
		segc_xml_node *c = j->next;
		segc_block *blk;

		if (!c) {
			njobs--;
			continue;
		}
		j->next = c->next;
		blk = block_new(b, c);
		*j->slot++ = blk;
		push_children(c, blk, &jobs, &njobs, &cap);
	}
	free(jobs);
	return seq;
}

/* The expression in piece 'p' of the value 'text' of attribute 'qname'
 * of 'n' (NULL when wrong, then recorded). */
static segc_expr *piece_expr(builder *b, segc_xml_node *n, const char *qname,
	const char *text, segc_xml_piece p)
{
	char *t = segc_xstrndup(text + p.off, p.len);
	char what[64];
	segc_expr *e;

	snprintf(what, sizeof(what), "attribute '%s' of <%s>", qname,
		(const char *)n->name);
	e = parse_text_at(b, n, qname, t, p.off, what);
	free(t);
	return e;
}

/* Fills the ranges of node 'x' from attribute 'index' of 'n'. */
static void build_index(builder *b, segc_xml_node *n, segc_node *x)
{
	char *text = attr(n, "index");
	segc_xml_piece *p, nm, lo, hi;
	size_t k, count;

	if (!text)
		return;
	count = segc_xml_split_list(text, &p);
	if (!count)
		build_error(b, n, "index", 0, "<node> attribute 'index' is "
			"empty: give NAME=LOW..HIGH, ...");
	if (count > SEGC_MAX_INDICES) {
		build_limit(b, n, "index", p[SEGC_MAX_INDICES].off,
			"<node> attribute 'index' has %zu indices, more than "
			"the fixed limit of %d indices of a node", count,
			SEGC_MAX_INDICES);
		count = 0;
	}
	x->index_name = segc_xcalloc(count + 1, sizeof(char *));
	x->index_lo = segc_xcalloc(count + 1, sizeof(segc_expr *));
	x->index_hi = segc_xcalloc(count + 1, sizeof(segc_expr *));
	x->nindex = count;
	for (k = 0; k < count; k++) {
		if (segc_xml_split_range(text, p[k], &nm, &lo, &hi)) {
			build_error(b, n, "index", p[k].off, "<node> attribute "
				"'index': \"%.*s\" is not a range NAME=LOW..HIGH",
				(int)p[k].len, text + p[k].off);
			continue;
		}
		x->index_name[k] = segc_xstrndup(text + nm.off, nm.len);
		if (!segc_name_is_identifier(x->index_name[k]))
			build_error(b, n, "index", nm.off, "<node> attribute "
				"'index': \"%s\" is not an identifier "
				"([A-Za-z_][A-Za-z0-9_]*)", x->index_name[k]);
		x->index_lo[k] = piece_expr(b, n, "index", text, lo);
		x->index_hi[k] = piece_expr(b, n, "index", text, hi);
	}
	free(p);
	free(text);
}

/* Fills the values of arc 'a' from attribute 'at' of 'n'. */
static void build_at(builder *b, segc_xml_node *n, segc_arc *a)
{
	char *text = attr(n, "at");
	segc_xml_piece *p;
	size_t k;

	if (!text)
		return;
	a->has_at = 1;
	a->nat = segc_xml_split_list(text, &p);
	if (!a->nat)
		build_error(b, n, "at", 0, "<arc> attribute 'at' is empty: "
			"give the index values of the target, e1, e2, ...");
	a->at = segc_xcalloc(a->nat + 1, sizeof(segc_expr *));
	for (k = 0; k < a->nat; k++)
		a->at[k] = piece_expr(b, n, "at", text, p[k]);
	free(p);
	free(text);
}

/* Fills node 'x' from <node> 'n'. */
static void build_node(builder *b, segc_xml_node *n, segc_node *x)
{
	x->id = ident_attr(b, n, "id");
	x->cost = expr_attr(b, n, "cost");
	x->cls = class_attr(n);
	x->split_and = attr_is(n, "split", "and");
	x->join_and = attr_is(n, "join", "and");
	x->split_or = attr_is(n, "split", "or");
	x->join_or = attr_is(n, "join", "or");
	build_index(b, n, x);
	set_loc(b, &x->loc, n);
}

/* The distance in attribute "forward" of 'n' (0 when absent; the
 * checker admits only a positive integer of at most
 * SEGC_MAX_FORWARD). */
static unsigned long forward_attr(segc_xml_node *n)
{
	char *v = attr(n, "forward");
	unsigned long d = v ? strtoul(v, NULL, 10) : 0;

	free(v);
	return d <= SEGC_MAX_FORWARD ? d : 0;
}

/* Fills arc 'a' from <arc> 'n'. */
static void build_arc(builder *b, segc_xml_node *n, segc_arc *a)
{
	a->from = ident_attr(b, n, "from");
	a->to = ident_attr(b, n, "to");
	a->prob = expr_attr(b, n, "prob");
	a->cost = expr_attr(b, n, "cost");
	a->cls = class_attr(n);
	a->loop = expr_attr(b, n, "loop");
	a->forward = forward_attr(n);
	a->overlap = attr_is(n, "overlap", "true");
	a->var = ident_attr(b, n, "var");
	build_at(b, n, a);
	set_loc(b, &a->loc, n);
}

/* Fills graph 'g' from <graph> 'n'. */
static void build_graph(builder *b, segc_xml_node *n, segc_graph *g)
{
	segc_xml_node *c;

	g->name = ident_attr(b, n, "name");
	set_loc(b, &g->loc, n);
	g->arc_form = count_children(n, "node") > 0;
	if (!g->arc_form) {
		g->body = build_body(b, n);
		return;
	}
	g->nodes = array_new(count_children(n, "node"), sizeof *g->nodes);
	g->arcs = array_new(count_children(n, "arc"), sizeof *g->arcs);
	for (c = n->children; c; c = c->next) {
		if (is_elem(c, "node"))
			build_node(b, c, &g->nodes[g->nnodes++]);
		else if (is_elem(c, "arc"))
			build_arc(b, c, &g->arcs[g->narcs++]);
	}
}

/* Fills expectation 'x' from <expect> 'n'. */
static void build_expect(builder *b, segc_xml_node *n, segc_expect *x)
{
	char *component = attr(n, "component");

	x->component = trimmed(component ? component : "total");
	free(component);
	x->machine = attr(n, "machine");
	x->source = attr(n, "source");
	x->text = text_of(n);
	set_loc(b, &x->loc, n);
	x->formula = parse_text(b, n, NULL, x->text,
		"the formula of <expect>");
}

/* Allocates the arrays of machine 'm' for the children of 'n'. */
static void machine_arrays(segc_machine *m, segc_xml_node *n)
{
	m->consts = array_new(count_children(n, "const"), sizeof *m->consts);
	m->costs = array_new(count_children(n, "cost"), sizeof *m->costs);
	m->functions = array_new(count_children(n, "function"),
		sizeof *m->functions);
}

/* Builds a machine from <machine> 'n' with builder 'b'. */
static segc_machine *machine_from(builder *b, segc_xml_node *n)
{
	segc_machine *m = segc_xcalloc(1, sizeof *m);
	segc_xml_node *c;

	m->file = segc_xstrdup(b->file);
	b->file = m->file;
	m->name = ident_attr(b, n, "name");
	set_loc(b, &m->loc, n);
	machine_arrays(m, n);
	for (c = n->children; c; c = c->next) {
		if (is_elem(c, "description"))
			m->description = text_of(c);
		else if (is_elem(c, "const"))
			build_binding(b, c, &m->consts[m->nconsts++]);
		else if (is_elem(c, "cost"))
			build_binding(b, c, &m->costs[m->ncosts++]);
		else if (is_elem(c, "function"))
			build_function(b, c, &m->functions[m->nfunctions++]);
	}
	return m;
}

/* Builds a machine from <machine> element 'root'; sets '*failed' when
 * an error was recorded (the machine is still complete enough to be
 * checked further). */
segc_machine *segc_xml_build_machine(segc_ctx *ctx, segc_xml_node *root,
	const segc_xml_source *src, segc_xml_locs *locs, int *failed)
{
	builder b;
	segc_machine *m;

	b.ctx = ctx;
	b.file = src->file;
	b.src = src;
	b.locs = locs;
	b.failed = 0;
	b.cache = NULL;
	m = machine_from(&b, root);
	*failed = b.failed;
	return m;
}

/* Allocates the arrays of model 'm' for the children of 'n'. */
static void model_arrays(segc_model *m, segc_xml_node *n)
{
	m->params = array_new(count_children(n, "param"), sizeof *m->params);
	m->resources = array_new(count_children(n, "resource"),
		sizeof *m->resources);
	m->lets = array_new(count_children(n, "let"), sizeof *m->lets);
	m->functions = array_new(count_children(n, "function"),
		sizeof *m->functions);
	m->graphs = array_new(count_children(n, "graph"), sizeof *m->graphs);
	m->expects = array_new(count_children(n, "expect"),
		sizeof *m->expects);
}

/* Builds child 'c' of <model> into 'm'. */
static void model_child(builder *b, segc_model *m, segc_xml_node *c)
{
	if (is_elem(c, "description")) {
		m->description = text_of(c);
	} else if (is_elem(c, "param")) {
		build_param(b, c, &m->params[m->nparams++]);
	} else if (is_elem(c, "resource")) {
		segc_resource *r = &m->resources[m->nresources++];

		r->name = ident_attr(b, c, "name");
		r->latex = attr(c, "latex");
		set_loc(b, &r->loc, c);
	} else if (is_elem(c, "let")) {
		build_let(b, c, &m->lets[m->nlets++]);
	} else if (is_elem(c, "function")) {
		build_function(b, c, &m->functions[m->nfunctions++]);
	} else if (is_elem(c, "machine")) {
		builder mb = *b;

		m->machine = machine_from(&mb, c);
		b->failed |= mb.failed;
	} else if (is_elem(c, "graph")) {
		build_graph(b, c, &m->graphs[m->ngraphs++]);
	} else if (is_elem(c, "expect")) {
		build_expect(b, c, &m->expects[m->nexpects++]);
	}
}

/* Builds a model from <model> element 'root'; sets '*failed' as
 * segc_xml_build_machine() does. */
segc_model *segc_xml_build_model(segc_ctx *ctx, segc_xml_node *root,
	const segc_xml_source *src, segc_xml_locs *locs, int *failed)
{
	segc_model *m = segc_xcalloc(1, sizeof *m);
	builder b;
	segc_xml_node *c;

	m->file = segc_xstrdup(src->file);
	b.ctx = ctx;
	b.file = m->file;
	b.src = src;
	b.locs = locs;
	b.failed = 0;
	b.cache = segc_xcalloc(1, sizeof(*b.cache));
	segc_symtab_init(&b.cache->tab);
	m->name = ident_attr(&b, root, "name");
	set_loc(&b, &m->loc, root);
	model_arrays(m, root);
	for (c = root->children; c && !segc_ctx_full(ctx); c = c->next)
		model_child(&b, m, c);
	cache_free(&b);
	*failed = b.failed;
	return m;
}
