/* xmltree.c - the compact element tree the reader builds while libxml2
 * parses: the parser's SAX2 events (start and end of an element, text,
 * comments) go straight into elements and attributes packed in a few
 * large blocks, with names interned and values copied once, instead of
 * libxml2's document tree.  It keeps what the structural check and the
 * builder use: elements in document order with their namespace, the
 * offset of their start tag, their attributes (references decoded, as
 * the parser gives them), the text they hold directly, and the first run
 * of text that is not white space with its place among the children.
 * Elements and attributes that a repair takes out are unlinked at once
 * (segc_xml_tree_prune).  The tree is what a long trace costs while it is
 * read, so it is kept small: what few elements have (a prefix, text)
 * stands beside the element, and a short attribute value that was met
 * recently (the costs of a long graph repeat) is shared. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SEGC_XMLREAD_INTERNAL
#include "xml/xmlread.h"
#include "base/util.h"

/* One block of the tree's memory. */
typedef struct tree_chunk {
	struct tree_chunk *prev;
	size_t used, cap;
	/* the data follows, aligned as a pointer */
} tree_chunk;

#define CHUNK_BYTES ((size_t)1 << 20)

/* An element being parsed: its node, the last of its children so far,
 * how many it has, and its text so far. */
typedef struct tree_frame {
	segc_xml_node *node;
	segc_xml_node *last;
	size_t nchildren;
	segc_strbuf text;
} tree_frame;

/* Zeroed memory for 'n' bytes from the blocks of 't', aligned as a
 * pointer. */
static void *tree_alloc(segc_xml_tree *t, size_t n)
{
	tree_chunk *c = t->chunks;
	size_t a = sizeof(void *), cap;
	char *p;

	n = (n + a - 1) / a * a;
	if (!c || c->cap - c->used < n) {
		cap = n > CHUNK_BYTES / 4 ? n : CHUNK_BYTES;
		c = segc_xmalloc(sizeof *c + cap);
		c->prev = t->chunks;
		c->used = 0;
		c->cap = cap;
		t->chunks = c;
	}
	p = (char *)(c + 1) + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

/* A copy of the 'n' bytes of 's' in the tree, NUL-terminated. */
static char *tree_strndup(segc_xml_tree *t, const char *s, size_t n)
{
	char *p = tree_alloc(t, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* The interned copy of name 's' (element, attribute or prefix), NULL
 * for NULL. */
static const char *tree_intern(segc_xml_tree *t, const char *s)
{
	size_t k;

	if (!s)
		return NULL;
	k = segc_symtab_get(&t->names, s);
	if (k != SEGC_SYMTAB_NONE)
		return t->name_list[k];
	if (t->nnames == t->capnames) {
		t->capnames = t->capnames ? 2 * t->capnames : 32;
		t->name_list = segc_xrealloc(t->name_list,
			segc_xmul_size(t->capnames, sizeof *t->name_list));
	}
	t->name_list[t->nnames] = tree_strndup(t, s, strlen(s));
	segc_symtab_put(&t->names, t->name_list[t->nnames], t->nnames);
	return t->name_list[t->nnames++];
}

/* Sets up an empty tree. */
void segc_xml_tree_init(segc_xml_tree *t)
{
	memset(t, 0, sizeof *t);
	segc_symtab_init(&t->names);
	segc_strbuf_init(&t->run);
}

/* Releases everything 't' holds (its nodes become invalid). */
void segc_xml_tree_free(segc_xml_tree *t)
{
	tree_chunk *c, *prev;
	size_t i;

	for (c = t->chunks; c; c = prev) {
		prev = c->prev;
		free(c);
	}
	for (i = 0; i < t->capframes; i++)
		segc_strbuf_free(&((tree_frame *)t->frames)[i].text);
	free(t->frames);
	free(t->name_list);
	free(t->values);
	segc_symtab_clear(&t->names);
	segc_strbuf_free(&t->run);
	memset(t, 0, sizeof *t);
}

/* The innermost open element of 't', or NULL. */
static tree_frame *top(segc_xml_tree *t)
{
	return t->depth ? &((tree_frame *)t->frames)[t->depth - 1] : NULL;
}

/* Non-zero when the 'n' bytes of 's' are all XML white space. */
static int all_space(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

/* The extra of element 'n', made when it has none. */
static segc_xml_extra *extra_of(segc_xml_tree *t, segc_xml_node *n)
{
	if (!n->extra)
		n->extra = tree_alloc(t, sizeof *n->extra);
	return n->extra;
}

/* The prefix of 'n' (see xmlread.h). */
const char *segc_xml_node_prefix(const segc_xml_node *n)
{
	return n->extra ? n->extra->prefix : NULL;
}

/* The text of 'n' (see xmlread.h). */
const char *segc_xml_node_text(const segc_xml_node *n)
{
	return n->extra ? n->extra->text : NULL;
}

/* The stray text of 'n' (see xmlread.h). */
const char *segc_xml_node_stray(const segc_xml_node *n, size_t *before)
{
	*before = n->extra ? n->extra->stray_before : 0;
	return n->extra ? n->extra->stray : NULL;
}

/* Ends the run of text of the innermost element (a text node of a
 * document tree): joins it to the element's text and keeps it as its
 * stray text when it is the first that is not white space. */
static void end_run(segc_xml_tree *t)
{
	tree_frame *f = top(t);
	segc_xml_extra *x;
	size_t before;

	if (!f || !t->run.len)
		return;
	segc_strbuf_appendn(&f->text, t->run.data, t->run.len);
	if (!segc_xml_node_stray(f->node, &before) &&
	    !all_space(t->run.data, t->run.len)) {
		x = extra_of(t, f->node);
		x->stray = tree_strndup(t, t->run.data, t->run.len);
		x->stray_before = (uint32_t)f->nchildren;
	}
	segc_strbuf_reset(&t->run);
}

/* The slots of the table of recent attribute values, and the longest
 * value kept there. */
#define VALUE_SLOTS 4096
#define VALUE_MAX 32

/* The copy of short value 'v' ('n' bytes, no '&') made for an earlier
 * attribute, or a new one that replaces the value in its slot: one
 * hash and one comparison per attribute, no growth. */
static const char *shared_value(segc_xml_tree *t, const char *v, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;
	const char **slot;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)v[i]) * 16777619u;
	if (!t->values)
		t->values = segc_xcalloc(VALUE_SLOTS, sizeof *t->values);
	slot = &t->values[h % VALUE_SLOTS];
	if (!*slot || strncmp(*slot, v, n) || (*slot)[n])
		*slot = tree_strndup(t, v, n);
	return *slot;
}

/* Copies attribute value 'v' ('n' bytes) as the document means it: the
 * parser leaves a '&' written as a reference as "&#38;" when it does
 * not replace entities, and decodes every other reference itself. */
static const char *attr_value(segc_xml_tree *t, const char *v, size_t n)
{
	char *s, *r, *w;

	if (!memchr(v, '&', n))
		return n <= VALUE_MAX ? shared_value(t, v, n) :
			tree_strndup(t, v, n);
	s = tree_strndup(t, v, n);
	for (r = w = s; *r; ) {
		if (!strncmp(r, "&#38;", 5)) {
			*w++ = '&';
			r += 5;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return s;
}

/* The interned name of an attribute 'name' written with 'prefix'
 * ("prefix:name"; 'name' when 'prefix' is NULL). */
static const char *qualified_name(segc_xml_tree *t, const char *prefix,
	const char *name)
{
	segc_strbuf sb;
	const char *q;

	if (!prefix)
		return tree_intern(t, name);
	segc_strbuf_init(&sb);
	segc_strbuf_appendf(&sb, "%s:%s", prefix, name);
	q = tree_intern(t, segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
	return q;
}

/* Opens element 'name' (prefix 'prefix', in a namespace when 'uri') with
 * the 'nattrs' attributes of SAX2 array 'attrs' (five pointers each:
 * name, prefix, URI, value, end of value), its '<' at offset 'off'
 * (size_t)-1 when unknown). */
void segc_xml_tree_start(segc_xml_tree *t, const char *name,
	const char *prefix, const char *uri, int nattrs,
	const char **attrs, size_t off)
{
	tree_frame *f = top(t);
	segc_xml_node *n;
	int i;

	end_run(t);
	n = tree_alloc(t, sizeof *n + (nattrs > 0 ? (size_t)nattrs : 0) *
		sizeof(segc_xml_attr));
	n->name = tree_intern(t, name);
	if (prefix)
		extra_of(t, n)->prefix = tree_intern(t, prefix);
	n->ns = uri != NULL;
	n->off = off == (size_t)-1 ? 0 : off + 1;
	if (nattrs > 0) {
		for (i = 0; i < nattrs; i++) {
			segc_xml_attr *a = &segc_xml_node_attrs(n)[i];
			const char **v = attrs + 5 * i;

			a->name = qualified_name(t, v[1], v[0]);
			a->ns = v[2] != NULL;
			a->value = attr_value(t, v[3], (size_t)(v[4] - v[3]));
		}
		n->nattrs = (uint32_t)nattrs;
	}
	if (f) {
		if (f->last)
			f->last->next = n;
		else
			f->node->children = n;
		f->last = n;
		f->nchildren++;
	} else if (!t->root) {
		t->root = n;
	}
	if (t->depth == t->capframes) {
		size_t old = t->capframes;

		t->capframes = old ? 2 * old : 64;
		t->frames = segc_xrealloc(t->frames, segc_xmul_size(
			t->capframes, sizeof(tree_frame)));
		memset((tree_frame *)t->frames + old, 0,
			(t->capframes - old) * sizeof(tree_frame));
	}
	f = &((tree_frame *)t->frames)[t->depth++];
	f->node = n;
	f->last = NULL;
	f->nchildren = 0;
	segc_strbuf_reset(&f->text);
}

/* Closes the innermost element. */
void segc_xml_tree_end(segc_xml_tree *t)
{
	tree_frame *f = top(t);

	if (!f)
		return;
	end_run(t);
	if (f->text.len)
		extra_of(t, f->node)->text = tree_strndup(t, f->text.data,
			f->text.len);
	t->depth--;
}

/* Adds the 'n' bytes of text 's' to the innermost element. */
void segc_xml_tree_text(segc_xml_tree *t, const char *s, size_t n)
{
	if (top(t))
		segc_strbuf_appendn(&t->run, s, n);
}

/* A comment or processing instruction in the innermost element: it ends
 * a run of text. */
void segc_xml_tree_break(segc_xml_tree *t)
{
	end_run(t);
}

/* An entity reference the parser left as it is: stray text of its own. */
void segc_xml_tree_reference(segc_xml_tree *t)
{
	tree_frame *f = top(t);
	size_t before;

	end_run(t);
	if (f && !segc_xml_node_stray(f->node, &before)) {
		segc_xml_extra *x = extra_of(t, f->node);

		x->stray = tree_strndup(t, "", 0);
		x->stray_before = (uint32_t)f->nchildren;
	}
}

/* The value of attribute 'name' (in no namespace) of 'n', or NULL. */
const char *segc_xml_attr_get(const segc_xml_node *n, const char *name)
{
	const segc_xml_attr *a = segc_xml_node_attrs(n);
	uint32_t i;

	for (i = 0; i < n->nattrs; i++)
		if (!a[i].ns && !strcmp(a[i].name, name))
			return a[i].value;
	return NULL;
}

/* The number of child elements of 'n'. */
size_t segc_xml_child_count(const segc_xml_node *n)
{
	const segc_xml_node *c;
	size_t k = 0;

	for (c = n->children; c; c = c->next)
		k++;
	return k;
}

/* Takes out of the tree under 'root' the elements and attributes marked
 * 'dropped', with all they hold; no recursion. */
void segc_xml_tree_prune(segc_xml_node *root)
{
	segc_xml_node **stack, *n, **link;
	segc_xml_attr *a;
	size_t depth = 0, cap = 64;
	uint32_t i, k;

	if (!root)
		return;
	stack = segc_xmalloc(cap * sizeof *stack);
	stack[depth++] = root;
	while (depth) {
		n = stack[--depth];
		a = segc_xml_node_attrs(n);
		for (i = k = 0; i < n->nattrs; i++)
			if (!a[i].dropped)
				a[k++] = a[i];
		n->nattrs = k;
		for (link = &n->children; *link; ) {
			if ((*link)->dropped) {
				*link = (*link)->next;
				continue;
			}
			if (depth == cap) {
				cap *= 2;
				stack = segc_xrealloc(stack,
					segc_xmul_size(cap, sizeof *stack));
			}
			stack[depth++] = *link;
			link = &(*link)->next;
		}
	}
	free(stack);
}
