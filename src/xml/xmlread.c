/* xmlread.c - reading SEG XML documents safely with libxml2: the file is
 * measured before it is read, parsed from memory without network, DTD,
 * entities or XInclude, limited in depth while it is parsed, its events
 * packed into a compact element tree (xmltree.c; libxml2 builds no
 * document), checked against the schema's element table (xmlcheck.c),
 * then built into a model or a machine (xmlbuild.c) and checked for
 * meaning (validate.c).  The checks
 * of formulas, which need the graph stage, are the pipeline's
 * (src/pipeline/validate_document.c).
 *
 * Why from memory: reading the file ourselves makes the size check and the
 * read one operation (no gap in which the file could grow), and keeps
 * libxml2 from opening anything itself, not even a compressed file.
 * doc/limits-xml.md explains the choice of XML_PARSE_HUGE. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>

#define SEGC_XMLREAD_INTERNAL
#include "xml/xmlread.h"
#include "model/validate.h"
#include "base/util.h"

/* What the parser callbacks need: where to report, and the limits. */
typedef struct reader {
	segc_ctx *ctx;
	const char *file;
	segc_xml_source src;
	unsigned long max_depth;
	segc_xml_tree tree;   /* what the parser has read */
	int stopped;      /* a callback refused the document */
	int errors;       /* diagnostics recorded for this document */
} reader;

/* The kinds of document. */
enum doc_kind { DOC_MODEL, DOC_MACHINE };

/* Copies libxml2's message 'msg' into 'sb' on one line, without the
 * trailing newline; control characters (which a message may quote from
 * the document) are written as \xHH, a tab as a space. */
static void message_one_line(segc_strbuf *sb, const char *msg)
{
	size_t n;
	const char *p;

	if (!msg)
		msg = "unknown error";
	n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		n--;
	for (p = msg; p < msg + n; p++) {
		if (*p == '\n')
			segc_strbuf_append(sb, "; ");
		else if (*p == '\t')
			segc_strbuf_appendc(sb, ' ');
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			segc_strbuf_appendf(sb, "\\x%02x",
				(unsigned)(unsigned char)*p);
		else
			segc_strbuf_appendc(sb, *p);
	}
}

/* Records libxml2 parser error 'e' as a diagnostic of 'rd'. */
static void report_xml_error(reader *rd, const xmlError *e)
{
	segc_strbuf sb;
	unsigned long line = e->line > 0 ? (unsigned long)e->line : 0;
	unsigned long col = 0;

	if (e->domain == XML_FROM_PARSER || e->domain == XML_FROM_IO ||
	    e->domain == XML_FROM_NAMESPACE)
		col = e->int2 > 0 ? (unsigned long)e->int2 : 0;
	segc_strbuf_init(&sb);
	message_one_line(&sb, e->message);
	rd->errors++;
	segc_error(rd->ctx, e->code == XML_ERR_NO_MEMORY ? SEGC_ERR_LIMIT :
		SEGC_ERR_INPUT, rd->file, line, col, "%s%s",
		e->code == XML_ERR_NO_MEMORY ? "out of memory: " : "",
		segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
}

/* The reader of parser context 'ctx' (a SAX callback's first argument). */
static reader *reader_of(void *ctx)
{
	return ((xmlParserCtxtPtr)ctx)->_private;
}

/* Structured error handler of the parser: records each error once the
 * document has not been refused already. */
static void on_parse_error(void *ctx, xmlErrorPtr e)
{
	reader *rd = reader_of(ctx);

	if (rd->stopped || segc_ctx_full(rd->ctx) || !e)
		return;
	if (e->level == XML_ERR_WARNING)
		return;
	report_xml_error(rd, e);
}

/* Stops the parse of 'ctx' after recording 'message' at the current
 * position with 'code'. */
static void refuse(void *ctx, enum segc_status code, const char *message)
{
	xmlParserCtxtPtr p = ctx;
	reader *rd = reader_of(ctx);

	if (!rd->stopped) {
		rd->errors++;
		segc_error(rd->ctx, code, rd->file,
			(unsigned long)xmlSAX2GetLineNumber(p),
			(unsigned long)xmlSAX2GetColumnNumber(p), "%s",
			message);
	}
	rd->stopped = 1;
	xmlStopParser(p);
}

/* SAX: a <!DOCTYPE>.  SEG XML has no DTD: refused before anything in it
 * (entity declarations above all) is parsed. */
static void on_internal_subset(void *ctx, const xmlChar *name,
	const xmlChar *external_id, const xmlChar *system_id)
{
	refuse(ctx, SEGC_ERR_INPUT, "a DOCTYPE declaration is not allowed: "
		"SEG XML has no DTD and no entities");
}

/* SAX: an entity declaration (never reached: the DOCTYPE is refused). */
static void on_entity_decl(void *ctx, const xmlChar *name, int type,
	const xmlChar *public_id, const xmlChar *system_id,
	xmlChar *content)
{
	refuse(ctx, SEGC_ERR_INPUT, "an entity declaration is not allowed");
}

/* SAX: a request to load an external entity: refused, nothing is read. */
static xmlParserInputPtr on_resolve_entity(void *ctx,
	const xmlChar *public_id, const xmlChar *system_id)
{
	refuse(ctx, SEGC_ERR_INPUT, "external entities are not loaded");
	return NULL;
}

/* The offset of the '<' of the start tag the parser 'p' has just read:
 * the parser stands at the end of the tag, and no '<' can occur inside
 * a tag; (size_t)-1 when it cannot be found. */
static size_t start_tag_offset(xmlParserCtxtPtr p, reader *rd)
{
	size_t off;

	if (!p->input || !p->input->cur || !p->input->base)
		return (size_t)-1;
	off = (size_t)p->input->consumed +
		(size_t)(p->input->cur - p->input->base);
	if (off >= rd->src.len || (rd->src.buf[off] != '>' &&
				   rd->src.buf[off] != '/'))
		return (size_t)-1;
	while (off > 0 && rd->src.buf[off] != '<')
		off--;
	return rd->src.buf[off] == '<' ? off : (size_t)-1;
}

/* The most attributes one element may have: libxml2 compares each one
 * with those before it and appends it to a list it walks from the start,
 * so its time grows as the square of an element's attributes; no element
 * of the format takes more than ten. */
#define MAX_ATTRIBUTES 1024

/* The offset just after the first 'end' at or after 'off' in the 'len'
 * bytes of 'b' (len when there is none). */
static size_t skip_past(const char *b, size_t len, size_t off,
	const char *end)
{
	size_t n = strlen(end);

	for (; off + n <= len; off++)
		if (b[off] == end[0] && !memcmp(b + off, end, n))
			return off + n;
	return len;
}

/* The offset after the tag that starts at 'off' (its '<'), counting in
 * '*n' its '=' outside quoted values: its attributes. */
static size_t scan_tag(const char *b, size_t len, size_t off, size_t *n)
{
	char quote = 0;

	*n = 0;
	for (off++; off < len; off++) {
		if (quote) {
			quote = b[off] == quote ? 0 : quote;
		} else if (b[off] == '"' || b[off] == '\'') {
			quote = b[off];
		} else if (b[off] == '=') {
			(*n)++;
		} else if (b[off] == '>') {
			return off + 1;
		}
	}
	return len;
}

/* Non-zero when the 'len' bytes of 'b' have 'w' at offset 'off'. */
static int has_at(const char *b, size_t len, size_t off, const char *w)
{
	size_t n = strlen(w);

	return off + n <= len && !memcmp(b + off, w, n);
}

/* Refuses, before libxml2 sees it, a document with an element of more
 * than MAX_ATTRIBUTES attributes: one pass over the text, which skips
 * comments, CDATA sections and processing instructions.  0 when fine. */
static int check_attribute_counts(reader *rd, const char *b, size_t len)
{
	size_t off = 0, n;
	unsigned long line, col;
	const char *p;

	while ((p = memchr(b + off, '<', len - off)) != NULL) {
		off = (size_t)(p - b);
		if (has_at(b, len, off, "<!--"))
			off = skip_past(b, len, off + 4, "-->");
		else if (has_at(b, len, off, "<![CDATA["))
			off = skip_past(b, len, off + 9, "]]>");
		else if (has_at(b, len, off, "<?"))
			off = skip_past(b, len, off + 2, "?>");
		else {
			size_t at = off;

			off = scan_tag(b, len, off, &n);
			if (n <= MAX_ATTRIBUTES)
				continue;
			segc_xml_position(&rd->src, at, &line, &col);
			segc_error(rd->ctx, SEGC_ERR_LIMIT, rd->file, line, col,
				"an element has %zu attributes, more than the "
				"fixed limit of %d", n, MAX_ATTRIBUTES);
			rd->errors++;
			return -1;
		}
		if (off >= len)
			break;
	}
	return 0;
}

/* SAX: the start of an element.  Refuses elements nested deeper than the
 * max_depth limit, so that no tree deeper than that is ever built. */
static void on_start_element(void *ctx, const xmlChar *localname,
	const xmlChar *prefix, const xmlChar *uri, int nb_namespaces,
	const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
	const xmlChar **attributes)
{
	xmlParserCtxtPtr p = ctx;
	reader *rd = reader_of(ctx);

	if ((unsigned long)p->nameNr + 1 > rd->max_depth) {
		segc_strbuf sb;

		segc_strbuf_init(&sb);
		segc_strbuf_appendf(&sb, "element <%s> is nested deeper than "
			"the limit of %lu elements (max_depth)",
			(const char *)localname, rd->max_depth);
		refuse(ctx, SEGC_ERR_LIMIT, segc_strbuf_str(&sb));
		segc_strbuf_free(&sb);
		return;
	}
	segc_xml_tree_start(&rd->tree, (const char *)localname,
		(const char *)prefix, (const char *)uri, nb_attributes,
		(const char **)attributes, start_tag_offset(p, rd));
}

/* SAX: the end of an element. */
static void on_end_element(void *ctx, const xmlChar *localname,
	const xmlChar *prefix, const xmlChar *uri)
{
	segc_xml_tree_end(&reader_of(ctx)->tree);
}

/* SAX: text (character data, white space, CDATA sections). */
static void on_text(void *ctx, const xmlChar *s, int len)
{
	segc_xml_tree_text(&reader_of(ctx)->tree, (const char *)s,
		(size_t)len);
}

/* SAX: a comment, which ends a run of text. */
static void on_comment(void *ctx, const xmlChar *value)
{
	segc_xml_tree_break(&reader_of(ctx)->tree);
}

/* SAX: a processing instruction, which ends a run of text. */
static void on_pi(void *ctx, const xmlChar *target, const xmlChar *data)
{
	segc_xml_tree_break(&reader_of(ctx)->tree);
}

/* SAX: an entity reference left unreplaced. */
static void on_reference(void *ctx, const xmlChar *name)
{
	segc_xml_tree_reference(&reader_of(ctx)->tree);
}

/* Installs the callbacks of 'rd' on parser context 'p'. */
static void parser_setup(xmlParserCtxtPtr p, reader *rd)
{
	xmlSAXHandlerPtr sax = p->sax;

	sax->internalSubset = on_internal_subset;
	sax->externalSubset = on_internal_subset;
	sax->entityDecl = on_entity_decl;
	sax->resolveEntity = on_resolve_entity;
	sax->startDocument = NULL;
	sax->endDocument = NULL;
	sax->startElementNs = on_start_element;
	sax->endElementNs = on_end_element;
	sax->characters = on_text;
	sax->ignorableWhitespace = on_text;
	sax->cdataBlock = on_text;
	sax->comment = on_comment;
	sax->processingInstruction = on_pi;
	sax->reference = on_reference;
	sax->serror = on_parse_error;
	sax->warning = NULL;
	sax->error = NULL;
	sax->fatalError = NULL;
}

/* Parses the 'len' bytes of 'buf' as an XML document: UTF-8, no network,
 * no DTD, no entity expansion, into the element tree of 'rd'.  Returns
 * 0, or -1 with diagnostics. */
static int parse_document(reader *rd, const char *buf, size_t len)
{
	xmlParserCtxtPtr p;
	xmlDocPtr doc;
	int ok;
	int options = XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_HUGE |
		XML_PARSE_NOCDATA;

	if (len > (size_t)0x7fffffff) {
		segc_error(rd->ctx, SEGC_ERR_LIMIT, rd->file, 0, 0,
			"document too large for the XML parser");
		return -1;
	}
	if (check_attribute_counts(rd, buf, len))
		return -1;
	p = xmlNewParserCtxt();
	if (!p) {
		segc_error(rd->ctx, SEGC_ERR_LIMIT, rd->file, 0, 0,
			"out of memory: cannot create an XML parser");
		return -1;
	}
	parser_setup(p, rd);
	p->_private = rd;
	doc = xmlCtxtReadMemory(p, buf, (int)len, rd->file, "UTF-8", options);
	ok = !rd->stopped && !rd->errors && p->wellFormed;
	xmlFreeDoc(doc);    /* NULL: no handler makes a document */
	if (!ok && !rd->errors)
		segc_error(rd->ctx, SEGC_ERR_INPUT, rd->file, 0, 0,
			"not a well-formed XML document");
	xmlFreeParserCtxt(p);
	return ok ? 0 : -1;
}

/* Checks the root element of 'doc': <model> or <machine>, version="1".
 * Sets '*kind'; returns 0 when fine. */
static int check_root(reader *rd, segc_xml_node *root, enum doc_kind *kind)
{
	unsigned long line, col, vline, vcol;
	const char *version;
	int rc = 0;

	if (!root) {
		segc_error(rd->ctx, SEGC_ERR_INPUT, rd->file, 0, 0,
			"the document has no root element");
		return -1;
	}
	line = segc_xml_node_line(&rd->src, root);
	col = 0;
	if (segc_xml_node_offset(root) != (size_t)-1)
		segc_xml_position(&rd->src, segc_xml_node_offset(root), &line,
			&col);
	if (root->ns) {
		segc_error(rd->ctx, SEGC_ERR_INPUT, rd->file, line, col,
			"root element <%s> is in a namespace: SEG XML uses "
			"none", root->name);
		return -1;
	}
	if (!strcmp(root->name, "model")) {
		*kind = DOC_MODEL;
	} else if (!strcmp(root->name, "machine")) {
		*kind = DOC_MACHINE;
	} else {
		segc_error(rd->ctx, SEGC_ERR_INPUT, rd->file, line, col,
			"root element <%s>: expected <model> or <machine>",
			(const char *)root->name);
		return -1;
	}
	version = segc_xml_attr_get(root, "version");
	if (!version) {
		segc_error(rd->ctx, SEGC_ERR_INPUT, rd->file, line, col,
			"<%s> lacks the attribute 'version' (version=\"1\")",
			(const char *)root->name);
		rc = -1;
	} else if (strcmp(version, "1")) {
		if (segc_xml_value_position(&rd->src, root, "version", 0,
		    &vline, &vcol)) {
			vline = line;
			vcol = col;
		}
		segc_error(rd->ctx, SEGC_ERR_INPUT, rd->file, vline, vcol,
			"<%s> has version \"%s\": only version \"1\" is known",
			root->name, version);
		rc = -1;
	}
	return rc;
}

/* Checks 'doc' against the schema, with the element table of xmlcheck.c
 * (precise, located messages, linear time): the one structural check at
 * run time, held against xml/seg.rng by tests/cli/schema_agree.sh.
 * Returns 0 when valid. */
static int schema_validate(reader *rd, segc_xml_node *root)
{
	if (segc_xml_check_structure(rd->ctx, &rd->src, root)) {
		rd->errors++;
		return -1;
	}
	return 0;
}

/* The same for 'segc validate', which reports the errors of every stage:
 * what failed is taken out when that is safe (segc_xml_repair_structure)
 * and '*damaged' set, so that the meaning of the rest is checked too.
 * Returns 0 when the later stages may run. */
static int schema_repair(reader *rd, segc_xml_node *root, int *damaged)
{
	int repaired;

	if (segc_xml_repair_structure(rd->ctx, &rd->src, root,
	    &repaired)) {
		rd->errors++;
		*damaged = 1;
		return repaired ? 0 : -1;
	}
	return 0;
}

/* Refuses a document that holds a NUL byte, which no XML document may
 * hold and where the parser would stop reading (so that anything could
 * follow a valid document): -1 with an error at its line and column (in
 * characters), else 0. */
static int refuse_nul_byte(reader *rd, const char *buf, size_t len)
{
	const char *nul = memchr(buf, '\0', len), *p;
	unsigned long line = 1, col = 1;

	if (!nul)
		return 0;
	for (p = buf; p < nul; p++)
		if (*p == '\n') {
			line++;
			col = 1;
		} else if (((unsigned char)*p & 0xC0) != 0x80) {
			col++;
		}
	segc_error(rd->ctx, SEGC_ERR_INPUT, rd->file, line, col, "the document "
		"contains a NUL byte (character 0), which XML does not allow");
	return -1;
}

/* Parses 'buf' and checks it against the schema; returns the document
 * and its kind, or NULL with diagnostics.  With 'damaged', a document
 * whose structural errors could be taken out is returned without them,
 * '*damaged' set. */
static segc_xml_node *read_checked(reader *rd, const char *buf,
	size_t len, enum doc_kind *kind, int *damaged)
{
	segc_xml_node *root;

	if (refuse_nul_byte(rd, buf, len))
		return NULL;
	xmlInitParser();
	if (parse_document(rd, buf, len))
		return NULL;
	root = rd->tree.root;
	if (check_root(rd, root, kind) || (damaged ?
	    schema_repair(rd, root, damaged) : schema_validate(rd, root)))
		return NULL;
	return root;
}

/* Sets up reader 'rd' for document 'name', the 'len' bytes of 'buf'. */
static void reader_init(reader *rd, segc_ctx *ctx, const char *name,
	const char *buf, size_t len)
{
	memset(rd, 0, sizeof *rd);
	rd->ctx = ctx;
	rd->file = name;
	rd->max_depth = segc_ctx_limits(ctx)->max_depth;
	rd->src.file = name;
	rd->src.buf = buf;
	rd->src.len = len;
	segc_ctx_count_input(ctx, len);
	segc_xml_source_index(&rd->src);
	segc_xml_tree_init(&rd->tree);
}

/* Releases what 'rd' holds. */
static void reader_clear(reader *rd)
{
	free(rd->src.line_start);
	rd->src.line_start = NULL;
	segc_xml_tree_free(&rd->tree);
}

/* Records that the document of 'rd' is a <'got'> where a <'want'> was
 * expected. */
static void wrong_kind(reader *rd, segc_xml_node *root, const char *got,
	const char *want)
{
	unsigned long line = segc_xml_node_line(&rd->src, root), col = 0;

	if (segc_xml_node_offset(root) != (size_t)-1)
		segc_xml_position(&rd->src, segc_xml_node_offset(root), &line,
			&col);
	segc_error(rd->ctx, SEGC_ERR_INPUT, rd->file, line, col,
		"the document is a <%s>, expected a <%s>", got, want);
}

/* Builds the model of element 'root' and checks its meaning; NULL on error.  With
 * 'damaged' (segc validate), a model whose errors lie in blocks it could
 * take out is returned without them, '*damaged' set. */
static segc_model *model_of(reader *rd, segc_xml_node *root, int *damaged)
{
	segc_ctx *ctx = rd->ctx;
	segc_xml_locs locs;
	segc_text_locator locator;
	int failed, bad, pruned = 0;
	segc_model *m;

	memset(&locs, 0, sizeof locs);
	locs.src = &rd->src;
	locator.text = segc_xml_locs_text;
	locator.position = segc_xml_locs_position;
	locator.data = &locs;
	m = segc_xml_build_model(ctx, root, &rd->src,
		&locs, &failed);
	bad = damaged && !failed ? segc_validate_model_pruned(ctx, m,
		&locator, &pruned) : segc_validate_model_located(ctx, m,
		&locator);
	if ((bad || failed) && m && pruned) {
		*damaged = 1;
	} else if ((bad || failed) && m) {
		segc_model_free(m);
		m = NULL;
	}
	segc_xml_locs_free(&locs);
	return m;
}

/* Builds the machine of element 'root' and checks its meaning; NULL on error. */
static segc_machine *machine_of(reader *rd, segc_xml_node *root)
{
	segc_ctx *ctx = rd->ctx;
	segc_xml_locs locs;
	segc_text_locator locator;
	int failed;
	segc_machine *m;

	memset(&locs, 0, sizeof locs);
	locs.src = &rd->src;
	locator.text = segc_xml_locs_text;
	locator.position = segc_xml_locs_position;
	locator.data = &locs;
	m = segc_xml_build_machine(ctx, root, &rd->src,
		&locs, &failed);
	if ((segc_validate_machine_located(ctx, m, &locator) || failed) &&
	    m) {
		segc_machine_free(m);
		m = NULL;
	}
	segc_xml_locs_free(&locs);
	return m;
}

/* Reads, checks and builds a model from a buffer. */
segc_model *segc_model_read_memory(segc_ctx *ctx, const char *buf,
	size_t len, const char *name)
{
	reader rd;
	enum doc_kind kind;
	segc_xml_node *root;
	segc_model *m = NULL;

	reader_init(&rd, ctx, name, buf, len);
	root = read_checked(&rd, buf, len, &kind, NULL);
	if (root && kind != DOC_MODEL)
		wrong_kind(&rd, root, "machine", "model");
	else if (root)
		m = model_of(&rd, root, NULL);
	reader_clear(&rd);
	return m;
}

/* Reads, checks and builds a machine from a buffer. */
segc_machine *segc_machine_read_memory(segc_ctx *ctx, const char *buf,
	size_t len, const char *name)
{
	reader rd;
	enum doc_kind kind;
	segc_xml_node *root;
	segc_machine *m = NULL;

	reader_init(&rd, ctx, name, buf, len);
	root = read_checked(&rd, buf, len, &kind, NULL);
	if (root && kind != DOC_MACHINE)
		wrong_kind(&rd, root, "model", "machine");
	else if (root)
		m = machine_of(&rd, root);
	reader_clear(&rd);
	return m;
}

/* Reads and checks a document of either kind (see xmlread.h). */
int segc_xml_read_document(segc_ctx *ctx, const char *buf, size_t len,
	const char *name, segc_model **model, segc_machine **machine)
{
	reader rd;
	enum doc_kind kind;
	segc_xml_node *root;
	int damaged = 0;

	*model = NULL;
	*machine = NULL;
	reader_init(&rd, ctx, name, buf, len);
	root = read_checked(&rd, buf, len, &kind, &damaged);
	if (root && kind == DOC_MODEL)
		*model = model_of(&rd, root, &damaged);
	else if (root)
		*machine = machine_of(&rd, root);
	reader_clear(&rd);
	return (*model || *machine) && !damaged ? 0 : -1;
}

/* Reads all of open file 'fd' ('path'), refusing more than 'max' bytes.
 * Returns the bytes (NUL-terminated) and sets '*len', or NULL. */
static char *read_fd(segc_ctx *ctx, int fd, const char *path,
	unsigned long max, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = segc_xmalloc(cap + 1);
	ssize_t r;

	for (;;) {
		if (n == cap) {
			cap *= 2;
			buf = segc_xrealloc(buf, cap + 1);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			segc_error(ctx, SEGC_ERR_INPUT, path, 0, 0,
				"cannot read: %s", strerror(errno));
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			segc_error(ctx, SEGC_ERR_LIMIT, path, 0, 0,
				"the document is larger than the limit of "
				"%lu bytes (max_file_bytes)", max);
			free(buf);
			return NULL;
		}
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Loads file 'path' into memory (see xmlread.h). */
char *segc_xml_load_file(segc_ctx *ctx, const char *path, size_t *len)
{
	unsigned long max = segc_ctx_limits(ctx)->max_file_bytes;
	struct stat st;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_NOCTTY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		segc_error(ctx, SEGC_ERR_INPUT, path, 0, 0, "cannot open: %s",
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		segc_error(ctx, SEGC_ERR_INPUT, path, 0, 0,
			"cannot read: it is a directory");
		close(fd);
		return NULL;
	}
	if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max) {
		segc_error(ctx, SEGC_ERR_LIMIT, path, 0, 0,
			"the document is %llu bytes, larger than the limit "
			"of %lu bytes (max_file_bytes)",
			(unsigned long long)st.st_size, max);
		close(fd);
		return NULL;
	}
	buf = read_fd(ctx, fd, path, max, len);
	close(fd);
	return buf;
}

/* Reads and validates the model document 'path'. */
segc_model *segc_model_read_file(segc_ctx *ctx, const char *path)
{
	size_t len;
	char *buf = segc_xml_load_file(ctx, path, &len);
	segc_model *m;

	if (!buf)
		return NULL;
	m = segc_model_read_memory(ctx, buf, len, path);
	free(buf);
	return m;
}

/* Reads and validates the machine document 'path'. */
segc_machine *segc_machine_read_file(segc_ctx *ctx, const char *path)
{
	size_t len;
	char *buf = segc_xml_load_file(ctx, path, &len);
	segc_machine *m;

	if (!buf)
		return NULL;
	m = segc_machine_read_memory(ctx, buf, len, path);
	free(buf);
	return m;
}

/* Refuses a document of 'len' bytes larger than max_file_bytes, as a
 * file of that size would be: 0 when it may be read. */
static int check_size(segc_ctx *ctx, const char *name, size_t len)
{
	unsigned long max = segc_ctx_limits(ctx)->max_file_bytes;

	if (len <= max)
		return 0;
	segc_error(ctx, SEGC_ERR_LIMIT, name, 0, 0, "the document is %llu "
		"bytes, larger than the limit of %lu bytes (max_file_bytes)",
		(unsigned long long)len, max);
	return -1;
}

/* Reads and validates a model document held in memory. */
segc_model *segc_model_read_string(segc_ctx *ctx, const char *name,
	const char *text, size_t len)
{
	if (!name)
		name = "<string>";
	if (check_size(ctx, name, len))
		return NULL;
	return segc_model_read_memory(ctx, text, len, name);
}

/* Reads and validates a machine document held in memory. */
segc_machine *segc_machine_read_string(segc_ctx *ctx, const char *name,
	const char *text, size_t len)
{
	if (!name)
		name = "<string>";
	if (check_size(ctx, name, len))
		return NULL;
	return segc_machine_read_memory(ctx, text, len, name);
}

/* libxml2's allocation functions, through segc's failure path. */
static void *xml_malloc(size_t n)
{
	return segc_xmalloc(n);
}

/* libxml2's reallocation function. */
static void *xml_realloc(void *p, size_t n)
{
	return segc_xrealloc(p, n);
}

/* libxml2's string copy. */
static char *xml_strdup(const char *s)
{
	return segc_xstrdup(s);
}

/* Routes libxml2's allocations through segc's (segc_memory_guard()). */
void segc_xml_memory_setup(void)
{
	xmlMemSetup(free, xml_malloc, xml_realloc, xml_strdup);
}
