/* xmlread.h - the XML reader's private interface: reading documents from
 * memory (for tests and fuzzing), and the steps the reader is made of.
 * Only xmlread.c and xmlbuild.c include libxml2. */
#ifndef SEGC_XMLREAD_H
#define SEGC_XMLREAD_H

#include "model/model.h"

/* The same as segc_model_read_file() on the 'len' bytes of 'buf'; 'name'
 * names the document in diagnostics. */
SEGC_GIVE segc_model *segc_model_read_memory(SEGC_KEEP segc_ctx *ctx,
	const char *buf, size_t len, const char *name);
/* The same as segc_machine_read_file() on a buffer. */
SEGC_GIVE segc_machine *segc_machine_read_memory(SEGC_KEEP segc_ctx *ctx,
	const char *buf, size_t len, const char *name);
/* Routes libxml2's allocations through segc's failure path (part of
 * segc_memory_guard()). */
void segc_xml_memory_setup(void);
/* Reads a document of either kind from a buffer, checks its structure
 * and meaning and builds it: sets '*model' or '*machine' (the other
 * NULL) and returns 0, or -1 with the errors recorded.  For 'segc
 * validate', which reports every stage's errors: a structural error that
 * can be taken out (segc_xml_repair_structure) does not stop the check
 * of meaning, and when the rest is sound it is built and set all the
 * same, for the later stages, while -1 is returned. */
int segc_xml_read_document(SEGC_KEEP segc_ctx *ctx, const char *buf,
	size_t len, const char *name, SEGC_GIVE segc_model **model,
	SEGC_GIVE segc_machine **machine);
/* Loads file 'path' into memory (NUL-terminated, its size in '*len')
 * after checking its size against the max_file_bytes limit: a larger
 * file is refused without being read.  NULL with an error recorded. */
SEGC_GIVE char *segc_xml_load_file(SEGC_KEEP segc_ctx *ctx, const char *path,
	size_t *len);

#ifdef SEGC_XMLREAD_INTERNAL
#include <stdint.h>
#include "base/symtab.h"

/* An attribute of the element tree (xmltree.c): 24 bytes, since a trace
 * of a million elements keeps a million of them. */
typedef struct segc_xml_attr {
	const char *name;     /* interned; "prefix:name" when written with
			       * a prefix */
	const char *value;    /* references decoded, as the parser gives it;
			       * equal values may share one copy */
	unsigned char ns;     /* in a namespace */
	unsigned char dropped;  /* to be taken out (segc_xml_tree_prune) */
} segc_xml_attr;

/* What few elements have, kept beside the element: its prefix, the text
 * it holds directly (its runs of text joined; NULL when none) and the
 * first run that is not all white space ('stray', "" for an entity
 * reference; NULL when none), which stands after 'stray_before' of its
 * child elements. */
typedef struct segc_xml_extra {
	const char *prefix;          /* interned */
	const char *text;
	const char *stray;
	uint32_t stray_before;
} segc_xml_extra;

/* An element of the tree: its child elements in document order, its
 * attributes (which follow it in memory: segc_xml_node_attrs) and, when
 * it has any, its extra (prefix, text, stray text; read them with the
 * functions below).  48 bytes. */
typedef struct segc_xml_node segc_xml_node;
struct segc_xml_node {
	const char *name;            /* interned */
	segc_xml_node *children, *next;
	segc_xml_extra *extra;       /* NULL: no prefix, text or stray */
	size_t off;                  /* offset of its '<' plus 1; 0: unknown */
	uint32_t nattrs;
	unsigned char ns;            /* in a namespace */
	unsigned char dropped;       /* to be taken out */
};

/* The 'nattrs' attributes of 'n', stored right after it. */
static inline segc_xml_attr *segc_xml_node_attrs(const segc_xml_node *n)
{
	return (segc_xml_attr *)(uintptr_t)(n + 1);
}
/* The prefix 'n' was written with, or NULL. */
const char *segc_xml_node_prefix(const segc_xml_node *n);
/* The text 'n' holds directly (its runs joined), or NULL. */
const char *segc_xml_node_text(const segc_xml_node *n);
/* The first run of text of 'n' that is not all white space, or NULL;
 * '*before' is then the number of child elements before it. */
const char *segc_xml_node_stray(const segc_xml_node *n, size_t *before);

/* A document as the reader keeps it: the root element, and the blocks,
 * names and open elements behind it (xmltree.c). */
typedef struct segc_xml_tree {
	segc_xml_node *root;
	struct tree_chunk *chunks;
	segc_symtab names;
	const char **name_list;
	size_t nnames, capnames;
	void *frames;                /* the open elements */
	size_t depth, capframes;
	segc_strbuf run;             /* the text of the current run */
	const char **values;         /* short attribute values met, by hash */
} segc_xml_tree;

void segc_xml_tree_init(segc_xml_tree *t);
void segc_xml_tree_free(segc_xml_tree *t);
/* The parser's events, in document order (see xmltree.c). */
void segc_xml_tree_start(segc_xml_tree *t, const char *name,
	const char *prefix, const char *uri, int nattrs,
	const char **attrs, size_t off);
void segc_xml_tree_end(segc_xml_tree *t);
void segc_xml_tree_text(segc_xml_tree *t, const char *s, size_t n);
void segc_xml_tree_break(segc_xml_tree *t);
void segc_xml_tree_reference(segc_xml_tree *t);
/* The value of attribute 'name' (in no namespace) of 'n', or NULL. */
const char *segc_xml_attr_get(const segc_xml_node *n, const char *name);
/* The number of child elements of 'n'. */
size_t segc_xml_child_count(const segc_xml_node *n);
/* Takes out the elements and attributes marked 'dropped' under 'root'. */
void segc_xml_tree_prune(segc_xml_node *root);

/* A piece of an attribute value: 'len' characters from 'off'. */
typedef struct segc_xml_piece {
	size_t off, len;
} segc_xml_piece;
#define SEGC_NONE_OFF ((size_t)-1)

/* Splits 'text' at the commas outside parentheses into '*out' (malloc'd,
 * the white space around each piece left out); the number of pieces,
 * 0 for a blank text (xmllist.c). */
size_t segc_xml_split_list(const char *text, segc_xml_piece **out);
/* Cuts piece 'p' of 'text', "NAME = LOW .. HIGH", into its three parts
 * (trimmed); -1 when it has not that shape or a part is empty. */
int segc_xml_split_range(const char *text, segc_xml_piece p,
	segc_xml_piece *name, segc_xml_piece *lo, segc_xml_piece *hi);

/* The text a document was parsed from and where its lines start: turns
 * the offsets of start tags, which the reader records in each element
 * ('off') while it parses, into lines and columns. */
typedef struct segc_xml_source {
	const char *file;
	const char *buf;
	size_t len;
	size_t *line_start;      /* offset of the first byte of each line */
	size_t nlines;
	/* Caches of the last lookups, so that the positions of many
	 * diagnostics on one long line, or of many attributes of one
	 * element, cost time linear in the line (changed by the const
	 * functions below, which are not thread-safe). */
	size_t col_off;          /* the offset of the last column computed */
	unsigned long col_col;   /* its column (0: none) */
	size_t attr_elem;        /* the element of the last attribute found */
	size_t attr_next;        /* the offset just after it (0: none) */
} segc_xml_source;

/* Fills the index of line starts of 'src', whose 'buf' and 'len' are set
 * (one pass over the text; free 'line_start' after use). */
void segc_xml_source_index(segc_xml_source *src);
/* The offset in the source of the '<' that starts element 'n', or
 * (size_t)-1 when it was not recorded. */
size_t segc_xml_node_offset(segc_xml_node *n);
/* The line and column (in characters, from 1) of offset 'off'. */
void segc_xml_position(const segc_xml_source *src, size_t off,
	unsigned long *line, unsigned long *col);
/* The line of element 'n' (of its '<'). */
unsigned long segc_xml_node_line(const segc_xml_source *src, segc_xml_node *n);
/* The offsets of the name and of the first character of the value of
 * attribute 'qname' (as written, "prefix:name" or "name") in the start tag
 * of 'n'; returns 0 when found. */
int segc_xml_attr_offset(const segc_xml_source *src, segc_xml_node *n,
	const char *qname, size_t *name_off, size_t *value_off);
/* The line and column in the source of the byte at offset 'off' of the
 * value of attribute 'qname' of 'n' as the parser gives it (references
 * decoded), or with 'qname' NULL of the text of 'n' with the white space
 * before it removed; 0 when found, else -1 (with 0 in both). */
int segc_xml_value_position(const segc_xml_source *src, segc_xml_node *n,
	const char *qname, size_t off, unsigned long *line,
	unsigned long *col);

/* Checks the elements, attributes and text of the tree under 'root'
 * against the rules of xml/seg.rng (an element table), with a located
 * message for each problem.  Linear in the size of the document, without
 * recursion.  Returns the number of problems recorded. */
size_t segc_xml_check_structure(segc_ctx *ctx, const segc_xml_source *src,
	segc_xml_node *root);
/* The same, and then, when every problem lies in an element or an
 * attribute that can be taken out without making the later checks
 * report errors of their own (an unknown attribute, a block, a <use>),
 * takes them out of the tree and sets '*repaired', so that 'segc
 * validate' goes on to the meaning of what remains.  A problem in a
 * declaration, a node, an arc, a case or the order of <model> leaves
 * the tree as it is ('*repaired' 0). */
size_t segc_xml_repair_structure(segc_ctx *ctx, const segc_xml_source *src,
	segc_xml_node *root, int *repaired);

/* Where the locations of a model or machine came from: for each, the
 * element, so that the text of an expression can be found again for a
 * message (segc_text_locator of validate.h). */
typedef struct segc_xml_locs {
	const segc_xml_source *src;     /* the document's text */
	struct segc_xml_loc_entry *v;
	size_t n, cap;
	int sorted;
} segc_xml_locs;

/* The text of the expression at location 'loc' as attribute 'attr_name'
 * (NULL: the element's text, trimmed), malloc'd; NULL when unknown.
 * 'data' is a segc_xml_locs whose document is still in memory. */
char *segc_xml_locs_text(void *data, const segc_srcloc *loc,
	const char *attr_name);
/* The line and column in the document of byte 'off' of that text: 0
 * when known, else -1 (segc_text_locator's 'position'). */
int segc_xml_locs_position(void *data, const segc_srcloc *loc,
	const char *attr_name, size_t off, unsigned long *line,
	unsigned long *col);
/* Releases what 'l' holds. */
void segc_xml_locs_free(segc_xml_locs *l);

/* Builds a model from the root element of a schema-valid document.  Sets
 * '*failed' when it recorded errors; the model is returned all the same,
 * complete enough for the semantic checks.  'src' is the document. */
segc_model *segc_xml_build_model(segc_ctx *ctx, segc_xml_node *root,
	const segc_xml_source *src, segc_xml_locs *locs, int *failed);
/* Builds a machine from a <machine> element, standalone or inline. */
segc_machine *segc_xml_build_machine(segc_ctx *ctx, segc_xml_node *root,
	const segc_xml_source *src, segc_xml_locs *locs, int *failed);
#endif

#endif
