/* xmlcheck.c - the structure of a SEG XML document checked against a
 * table of elements: for each, the attributes it takes (required or not,
 * with their values where the schema enumerates them) and the children it
 * may hold.  It is the one structural check at run time, and says what
 * xml/seg.rng says (tests/cli/schema_agree.sh holds the two together);
 * it gives precise, located messages ("<step>: unknown attribute 'cots'
 * (did you mean 'cost'?)") and checks in time linear in the size of the
 * document.  The tree is walked with an explicit stack.  For 'segc
 * validate' it can also take out what failed, where that is safe, so
 * that the later stages check the rest in the same run. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#define SEGC_XMLREAD_INTERNAL
#include "xml/xmlread.h"
#include "base/names.h"
#include "base/util.h"

/* ----------------------------------------------------------------- table */

/* What an element may contain. */
enum content {
	C_EMPTY,     /* nothing but white space */
	C_TEXT,      /* text only */
	C_BLOCKS,    /* blocks */
	C_GRAPH,     /* blocks, or nodes and arcs (at least one node) */
	C_STEP,      /* <use> elements */
	C_BRANCH,    /* one or more <case> */
	C_MODEL,     /* the children of <model>, in order */
	C_MACHINE    /* <description>?, then <const>, <cost>, <function> */
};

/* An attribute: its name, whether it is required, and the values it may
 * take (NULL: any text). */
typedef struct attr_rule {
	const char *name;
	int required;
	const char *const *values;
} attr_rule;

/* An element: its name, attributes (ending with a NULL name) and
 * content. */
typedef struct elem_rule {
	const char *name;
	const attr_rule *attrs;
	enum content content;
} elem_rule;

static const char *const v_version[] = { "1", NULL };
static const char *const v_class[] = { "comp", "comm", "io", NULL };
static const char *const v_bool[] = { "true", "false", NULL };
static const char *const v_split[] = { "or", "and", NULL };
static const char *const v_component[] = {
	"total", "comp", "comm", "io", NULL
};

static const attr_rule a_none[] = { { NULL, 0, NULL } };
static const attr_rule a_model[] = {
	{ "name", 1, NULL }, { "version", 1, v_version }, { NULL, 0, NULL }
};
static const attr_rule a_machine_doc[] = {
	{ "name", 1, NULL }, { "version", 1, v_version }, { NULL, 0, NULL }
};
static const attr_rule a_machine_inline[] = {
	{ "name", 0, NULL }, { "version", 0, v_version }, { NULL, 0, NULL }
};
static const attr_rule a_param[] = {
	{ "name", 1, NULL }, { "value", 0, NULL }, { "min", 0, NULL },
	{ "max", 0, NULL }, { "integer", 0, v_bool }, { "latex", 0, NULL },
	{ NULL, 0, NULL }
};
static const attr_rule a_resource[] = {
	{ "name", 1, NULL }, { "latex", 0, NULL }, { NULL, 0, NULL }
};
static const attr_rule a_binding[] = {
	{ "name", 1, NULL }, { "value", 1, NULL }, { NULL, 0, NULL }
};
static const attr_rule a_let[] = {
	{ "name", 1, NULL }, { "value", 1, NULL }, { "min", 0, NULL },
	{ "max", 0, NULL }, { "integer", 0, v_bool }, { "latex", 0, NULL },
	{ NULL, 0, NULL }
};
static const attr_rule a_function[] = {
	{ "name", 1, NULL }, { "args", 1, NULL }, { NULL, 0, NULL }
};
static const attr_rule a_expect[] = {
	{ "component", 0, v_component }, { "machine", 0, NULL },
	{ "source", 0, NULL }, { NULL, 0, NULL }
};
static const attr_rule a_graph[] = {
	{ "name", 1, NULL }, { NULL, 0, NULL }
};
static const attr_rule a_step[] = {
	{ "name", 0, NULL }, { "cost", 0, NULL }, { "class", 0, v_class },
	{ NULL, 0, NULL }
};
static const attr_rule a_use[] = {
	{ "resource", 1, NULL }, { "count", 0, NULL }, { NULL, 0, NULL }
};
static const attr_rule a_loop[] = {
	{ "count", 0, NULL }, { "var", 0, NULL }, { "from", 0, NULL },
	{ "to", 0, NULL }, { NULL, 0, NULL }
};
static const attr_rule a_case[] = {
	{ "prob", 0, NULL }, { NULL, 0, NULL }
};
static const attr_rule a_call[] = {
	{ "graph", 1, NULL }, { NULL, 0, NULL }
};
static const attr_rule a_node[] = {
	{ "id", 1, NULL }, { "cost", 0, NULL }, { "class", 0, v_class },
	{ "split", 0, v_split }, { "join", 0, v_split }, { "index", 0, NULL },
	{ NULL, 0, NULL }
};
static const attr_rule a_arc[] = {
	{ "from", 1, NULL }, { "to", 1, NULL }, { "prob", 0, NULL },
	{ "cost", 0, NULL }, { "class", 0, v_class }, { "loop", 0, NULL },
	{ "forward", 0, NULL }, { "overlap", 0, v_bool }, { "var", 0, NULL },
	{ "at", 0, NULL },
	{ NULL, 0, NULL }
};

/* The roots. */
static const elem_rule r_model = { "model", a_model, C_MODEL };
static const elem_rule r_machine_doc = {
	"machine", a_machine_doc, C_MACHINE
};

/* The children of <model>, in their order. */
static const elem_rule model_children[] = {
	{ "description", a_none, C_TEXT },
	{ "param", a_param, C_EMPTY },
	{ "resource", a_resource, C_EMPTY },
	{ "let", a_let, C_EMPTY },
	{ "function", a_function, C_TEXT },
	{ "machine", a_machine_inline, C_MACHINE },
	{ "graph", a_graph, C_GRAPH },
	{ "expect", a_expect, C_TEXT },
	{ NULL, NULL, C_EMPTY }
};
/* Those of <model> that may occur more than once (by index above). */
static const int model_repeats[] = { 0, 1, 1, 1, 1, 0, 1, 1 };

static const elem_rule machine_children[] = {
	{ "description", a_none, C_TEXT },
	{ "const", a_binding, C_EMPTY },
	{ "cost", a_binding, C_EMPTY },
	{ "function", a_function, C_TEXT },
	{ NULL, NULL, C_EMPTY }
};

static const elem_rule block_children[] = {
	{ "step", a_step, C_STEP },
	{ "seq", a_none, C_BLOCKS },
	{ "loop", a_loop, C_BLOCKS },
	{ "branch", a_none, C_BRANCH },
	{ "par", a_none, C_BLOCKS },
	{ "call", a_call, C_EMPTY },
	{ NULL, NULL, C_EMPTY }
};

static const elem_rule arc_children[] = {
	{ "node", a_node, C_EMPTY },
	{ "arc", a_arc, C_EMPTY },
	{ NULL, NULL, C_EMPTY }
};

static const elem_rule step_children[] = {
	{ "use", a_use, C_EMPTY },
	{ NULL, NULL, C_EMPTY }
};

static const elem_rule branch_children[] = {
	{ "case", a_case, C_BLOCKS },
	{ NULL, NULL, C_EMPTY }
};

/* Every element name of the format, for telling "unknown" from "not
 * here". */
static const char *const all_elements[] = {
	"model", "machine", "description", "param", "resource", "let",
	"function", "graph", "expect", "const", "cost", "step", "seq", "loop",
	"branch", "par", "call", "node", "arc", "use", "case", NULL
};

/* ---------------------------------------------------------------- checker */

/* The state of the check, and the repair that lets the later stages of
 * 'segc validate' run on what remains (segc_xml_repair_structure). */
typedef struct checker {
	segc_ctx *ctx;
	const segc_xml_source *src;
	size_t problems;
	segc_xml_node **drop;       /* elements to take out */
	size_t ndrop, capdrop;
	segc_xml_attr **dropattr;   /* attributes to take out */
	size_t nattr, capattr;
	int stop;               /* nothing can be repaired: no later stage */
} checker;

/* The elements whose removal would make later stages report errors of
 * their own (the uses of a declaration, the arcs of a node, the sum of a
 * branch's probabilities): a problem in one of them stops the check at
 * the structure. */
static const char *const not_droppable[] = {
	"model", "machine", "param", "resource", "let", "function", "graph",
	"const", "cost", "node", "arc", "case", NULL
};

/* Takes element 'n' out after the check; a declaration cannot be taken
 * out (not_droppable), and stops the later stages instead. */
static void drop_element(checker *k, segc_xml_node *n)
{
	size_t i;

	for (i = 0; not_droppable[i]; i++)
		if (!strcmp((const char *)n->name, not_droppable[i]) ||
		    n->ns) {
			k->stop = 1;
			return;
		}
	if (k->ndrop == k->capdrop) {
		k->capdrop = k->capdrop ? 2 * k->capdrop : 16;
		k->drop = segc_xrealloc(k->drop,
			segc_xmul_size(k->capdrop, sizeof *k->drop));
	}
	k->drop[k->ndrop++] = n;
}

/* Takes attribute 'a' out after the check. */
static void drop_attribute(checker *k, segc_xml_attr *a)
{
	if (k->nattr == k->capattr) {
		k->capattr = k->capattr ? 2 * k->capattr : 16;
		k->dropattr = segc_xrealloc(k->dropattr,
			segc_xmul_size(k->capattr, sizeof *k->dropattr));
	}
	k->dropattr[k->nattr++] = a;
}

/* Records a problem at offset 'off' (or the line of element 'n' when the
 * offset is unknown). */
static void problem(checker *k, segc_xml_node *n, size_t off,
	const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 4, 5)))
#endif
	;

static void problem(checker *k, segc_xml_node *n, size_t off,
	const char *fmt, ...)
{
	unsigned long line = 0, col = 0;
	segc_strbuf sb;
	va_list ap;

	if (off != (size_t)-1)
		segc_xml_position(k->src, off, &line, &col);
	else if (n)
		line = segc_xml_node_line(k->src, n);
	segc_strbuf_init(&sb);
	va_start(ap, fmt);
	segc_strbuf_vappendf(&sb, fmt, ap);
	va_end(ap);
	segc_error(k->ctx, SEGC_ERR_INPUT, k->src->file, line, col, "%s",
		segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
	k->problems++;
}

/* Records a problem at element 'n'. */
#define AT_ELEM(n) (n), segc_xml_node_offset(n)

/* The name of element or attribute 'name' with namespace 'ns' as written
 * ("x:name"), in 'sb'. */
static const char *qualified(segc_strbuf *sb, const char *prefix,
	const char *name)
{
	segc_strbuf_reset(sb);
	if (prefix)
		segc_strbuf_appendf(sb, "%s:", prefix);
	segc_strbuf_append(sb, (const char *)name);
	return segc_strbuf_str(sb);
}

/* The entry of 'rules' named 'name', or NULL. */
static const elem_rule *rule_find(const elem_rule *rules, const char *name)
{
	for (; rules->name; rules++)
		if (!strcmp(rules->name, name))
			return rules;
	return NULL;
}

/* The name among 'names' (NULL-terminated, read with 'stride' bytes
 * between them) nearest 'name' within about a third of its length, or
 * NULL; the first wins ties. */
static const char *nearest(const char *name, const char *const *first,
	size_t stride)
{
	size_t best = (strlen(name) + 2) / 3, d;
	const char *found = NULL;
	const char *const *p;

	if (best >= strlen(name))
		best = strlen(name) ? strlen(name) - 1 : 0;
	for (p = first; *p;
	     p = (const char *const *)(const void *)((const char *)p + stride)) {
		d = segc_edit_distance(name, *p);
		if (d && (d < best || (d == best && !found))) {
			best = d;
			found = *p;
		}
	}
	return found;
}

/* Non-zero when 'v' equals 'want' as a RELAX NG token (white space
 * around it ignored, as is a run of white space inside). */
static int token_equal(const char *v, const char *want)
{
	while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')
		v++;
	while (*want) {
		if (*v == *want) {
			v++;
			want++;
		} else if (*want == ' ' && (*v == '\t' || *v == '\n' ||
					    *v == '\r')) {
			while (*v == ' ' || *v == '\t' || *v == '\n' ||
			       *v == '\r')
				v++;
			want++;
		} else {
			return 0;
		}
	}
	while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')
		v++;
	return !*v;
}

/* The offset of attribute 'a' of 'n' (its name), else of 'n'. */
static size_t attr_off(checker *k, segc_xml_node *n, const char *qname)
{
	size_t name_off, value_off;

	if (!segc_xml_attr_offset(k->src, n, qname, &name_off, &value_off))
		return name_off;
	return segc_xml_node_offset(n);
}

/* Checks that enumerated value 'v' of attribute 'ar' of 'n' is one the
 * schema lists. */
static void check_value(checker *k, segc_xml_node *n, const attr_rule *ar,
	const char *v)
{
	segc_strbuf list;
	size_t i;

	for (i = 0; ar->values[i]; i++)
		if (token_equal(v, ar->values[i]))
			return;
	segc_strbuf_init(&list);
	for (i = 0; ar->values[i]; i++)
		segc_strbuf_appendf(&list, "%s%s", i ? (ar->values[i + 1] ?
			", " : " or ") : "", ar->values[i]);
	problem(k, n, attr_off(k, n, ar->name), "<%s> attribute '%s': \"%s\" "
		"is not %s%s", (const char *)n->name, ar->name, v,
		i > 1 ? "one of " : "", segc_strbuf_str(&list));
	segc_strbuf_free(&list);
}

/* The rule of attribute 'name' in 'attrs', or NULL. */
static const attr_rule *attr_find(const attr_rule *attrs, const char *name)
{
	for (; attrs->name; attrs++)
		if (!strcmp(attrs->name, name))
			return attrs;
	return NULL;
}

/* The <loop> rule: count, or var with from and to; not both. */
static void check_loop(checker *k, segc_xml_node *n)
{
	static const char *const trio[] = { "var", "from", "to" };
	int has[3], count = segc_xml_attr_get(n, "count") != NULL;
	int i, any = 0;

	for (i = 0; i < 3; i++) {
		has[i] = segc_xml_attr_get(n, trio[i]) != NULL;
		any += has[i];
	}
	if (!count && !any) {
		problem(k, AT_ELEM(n), "<loop> needs either count or "
			"var/from/to");
		return;
	}
	for (i = 0; count && i < 3; i++)
		if (has[i]) {
			problem(k, n, attr_off(k, n, trio[i]), "<loop>: "
				"attribute '%s' cannot be used with 'count' "
				"(a loop has either count or var/from/to)",
				trio[i]);
			return;
		}
	for (i = 0; !count && i < 3; i++)
		if (!has[i]) {
			problem(k, AT_ELEM(n), "<loop>: var, from and to go "
				"together; '%s' is missing", trio[i]);
			return;
		}
}

/* Non-zero when 'v' (white space around it allowed) is a positive
 * integer of at most SEGC_MAX_FORWARD written in decimal digits. */
static int forward_ok(const char *v)
{
	char *t = segc_xstrdup(v), *p = t, *end;
	unsigned long d;
	int ok;

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	end = p;
	while (*end >= '0' && *end <= '9')
		end++;
	ok = end > p && end - p <= 6;
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	d = ok ? strtoul(p, NULL, 10) : 0;
	ok = ok && !*end && d >= 1 && d <= SEGC_MAX_FORWARD;
	free(t);
	return ok;
}

/* Non-zero when attribute 'name' of 'n' is "true" (white space around
 * it allowed). */
static int attr_true(segc_xml_node *n, const char *name)
{
	const char *p = segc_xml_attr_get(n, name);
	size_t len;
	int r;

	while (p && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	len = p ? strlen(p) : 0;
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' ||
		       p[len - 1] == '\n' || p[len - 1] == '\r'))
		len--;
	r = p && len == 4 && !strncmp(p, "true", 4);
	return r;
}

/* The <arc> rule: forward="d" a positive integer, on an arc that is no
 * loop arc and has no prob; overlap only on a loop arc. */
static void check_arc(checker *k, segc_xml_node *n)
{
	const char *fw = segc_xml_attr_get(n, "forward");
	int loop = segc_xml_attr_get(n, "loop") != NULL;

	if (fw && !forward_ok(fw))
		problem(k, n, attr_off(k, n, "forward"), "<arc> attribute "
			"'forward': \"%s\" is not a positive integer constant "
			"of at most %lu (the distance in iterations)",
			fw, SEGC_MAX_FORWARD);
	else if (fw && loop)
		problem(k, n, attr_off(k, n, "forward"), "<arc>: a forward "
			"edge (forward) cannot also be a loop arc (loop)");
	else if (fw && segc_xml_attr_get(n, "prob"))
		problem(k, n, attr_off(k, n, "prob"), "<arc>: a forward edge "
			"is always a dependency and takes no 'prob'");
	if (loop && segc_xml_attr_get(n, "cost") &&
	    attr_true(n, "overlap"))
		problem(k, n, attr_off(k, n, "cost"), "<arc>: a loop arc with "
			"overlapping iterations takes no 'cost' (iterations "
			"wait for each other only through forward edges: put "
			"the cost on one)");
	if (!loop && segc_xml_attr_get(n, "var"))
		problem(k, n, attr_off(k, n, "var"), "<arc>: 'var' (the "
			"counter of the iterations) goes on a loop arc (one "
			"with 'loop')");
	if (!loop && segc_xml_attr_get(n, "overlap"))
		problem(k, n, attr_off(k, n, "overlap"), "<arc>: 'overlap' "
			"goes on a loop arc (one with 'loop')");
}

/* Checks the attributes of 'n' against 'rule'. */
static void check_attributes(checker *k, segc_xml_node *n, const elem_rule *rule)
{
	segc_strbuf qn;
	const attr_rule *ar;
	segc_xml_attr *a;
	const char *near;
	size_t before = k->problems, attrs_before = k->nattr;
	uint32_t i;

	segc_strbuf_init(&qn);
	for (i = 0; i < n->nattrs; i++) {
		const char *q;

		a = &segc_xml_node_attrs(n)[i];
		q = qualified(&qn, NULL, a->name);

		ar = a->ns ? NULL : attr_find(rule->attrs, (const char *)a->name);
		if (!ar) {
			near = a->ns ? NULL : nearest(q, &rule->attrs[0].name,
				sizeof *rule->attrs);
			problem(k, n, attr_off(k, n, q), "<%s>: unknown attribute "
				"'%s'%s%s%s", (const char *)n->name, q,
				near ? " (did you mean '" : "",
				near ? near : "", near ? "'?)" : "");
			drop_attribute(k, a);
			/* An element of text (a function's body, an
			 * expectation's formula) with an unknown attribute
			 * most often has its text there: without it, the
			 * later stages would report it empty. */
			if (rule->content == C_TEXT)
				k->stop = 1;
			continue;
		}
		if (ar->values)
			check_value(k, n, ar, a->value);
	}
	for (ar = rule->attrs; ar->name; ar++)
		if (ar->required && !segc_xml_attr_get(n, ar->name))
			problem(k, AT_ELEM(n), "<%s> lacks the attribute '%s'",
				(const char *)n->name, ar->name);
	if (!strcmp(rule->name, "loop"))
		check_loop(k, n);
	if (!strcmp(rule->name, "arc"))
		check_arc(k, n);
	/* A problem other than an unknown attribute leaves the element
	 * without the meaning the builder expects: it goes. */
	if (k->problems > before + (k->nattr - attrs_before))
		drop_element(k, n);
	segc_strbuf_free(&qn);
}

/* Reports text inside element 'n', which takes none: the text is quoted
 * without the white space around it, up to 24 characters. */
static void unexpected_text(checker *k, segc_xml_node *n,
	const unsigned char *v)
{
	segc_strbuf sb;
	size_t i, len;

	segc_strbuf_init(&sb);
	while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')
		v++;
	len = strlen((const char *)v);
	while (len && (v[len - 1] == ' ' || v[len - 1] == '\t' ||
		       v[len - 1] == '\n' || v[len - 1] == '\r'))
		len--;
	for (i = 0; i < len && i < 24; i++)
		if (v[i] < 0x20 || v[i] == 0x7f)
			segc_strbuf_appendc(&sb, ' ');
		else
			segc_strbuf_appendc(&sb, (char)v[i]);
	problem(k, AT_ELEM(n), "<%s> cannot contain text (found \"%s%s\")",
		(const char *)n->name, segc_strbuf_str(&sb),
		i < len ? "..." : "");
	segc_strbuf_free(&sb);
}

/* The rules of the children an element of content 'c' may hold (NULL:
 * none). */
static const elem_rule *children_of(enum content c)
{
	switch (c) {
	case C_BLOCKS:
		return block_children;
	case C_STEP:
		return step_children;
	case C_BRANCH:
		return branch_children;
	case C_MODEL:
		return model_children;
	case C_MACHINE:
		return machine_children;
	default:
		return NULL;
	}
}

/* Non-zero when 'name' is an element of the format. */
static int known_element(const char *name)
{
	size_t i;

	for (i = 0; all_elements[i]; i++)
		if (!strcmp(all_elements[i], name))
			return 1;
	return 0;
}

/* Reports child 'c' of 'n', which the rules 'allowed' do not admit
 * there. */
static void misplaced(checker *k, segc_xml_node *n, segc_xml_node *c,
	const elem_rule *allowed, enum content content)
{
	const char *name = (const char *)c->name, *pn = (const char *)n->name;
	const char *near;

	if (c->ns) {
		segc_strbuf qn;

		segc_strbuf_init(&qn);
		problem(k, AT_ELEM(c), "element <%s> is in a namespace: SEG "
			"XML uses none", qualified(&qn, segc_xml_node_prefix(c), c->name));
		segc_strbuf_free(&qn);
		return;
	}
	if (!known_element(name)) {
		near = allowed ? nearest(name, &allowed[0].name,
			sizeof *allowed) : NULL;
		problem(k, AT_ELEM(c), "<%s>: unknown element <%s>%s%s%s", pn,
			name, near ? " (did you mean <" : "",
			near ? near : "", near ? ">?)" : "");
	} else if (content == C_EMPTY) {
		problem(k, AT_ELEM(c), "<%s> must be empty, but contains <%s>",
			pn, name);
	} else if (content == C_TEXT) {
		problem(k, AT_ELEM(c), "<%s> holds text only, not <%s>", pn,
			name);
	} else if (content == C_BRANCH) {
		problem(k, AT_ELEM(c), "<branch> may contain only <case>, not "
			"<%s>", name);
	} else if (content == C_STEP) {
		problem(k, AT_ELEM(c), "<step> may contain only <use>, not <%s>",
			name);
	} else if (!strcmp(name, "use")) {
		problem(k, AT_ELEM(c), "<use> may stand only directly inside "
			"<step>, not inside <%s>", pn);
	} else if (!strcmp(name, "case")) {
		problem(k, AT_ELEM(c), "<case> may stand only directly inside "
			"<branch>, not inside <%s>", pn);
	} else {
		problem(k, AT_ELEM(c), "<%s> cannot contain <%s>", pn, name);
	}
}

/* An element to check, with the rule that applies to it. */
typedef struct job {
	segc_xml_node *node;
	const elem_rule *rule;
} job;

/* The state of the children of one element as they are checked in
 * order. */
typedef struct seen {
	int rank;           /* <model>: the rank of the last child */
	segc_xml_node *last;    /* <model>: that child */
	size_t count[8];    /* <model>: children of each rank */
	size_t blocks, nodes, arcs, cases, others;
	segc_xml_node *first_of_form;  /* <graph>: the first block/node/arc */
} seen;

/* The order of the children of <model>, for messages. */
static const char model_order[] = "description, param, resource, let, "
	"function, machine, graph, expect";

/* Checks child 'c' of <model> 'n'; returns its rule or NULL. */
static const elem_rule *model_child(checker *k, segc_xml_node *n, segc_xml_node *c,
	seen *s)
{
	const elem_rule *r = c->ns ? NULL :
		rule_find(model_children, (const char *)c->name);
	int rank;

	if (!r) {
		misplaced(k, n, c, model_children, C_MODEL);
		return NULL;
	}
	rank = (int)(r - model_children);
	if (rank < s->rank) {
		problem(k, AT_ELEM(c), "<model>: <%s> must come before <%s> "
			"(the order is: %s)", r->name,
			(const char *)s->last->name, model_order);
		k->stop = 1;
	} else if (s->count[rank] && !model_repeats[rank]) {
		problem(k, AT_ELEM(c), "<model> may contain only one <%s>",
			r->name);
		k->stop = 1;
	} else {
		s->rank = rank;
		s->last = c;
	}
	s->count[rank]++;
	return r;
}

/* Checks child 'c' of <machine> 'n'; returns its rule or NULL. */
static const elem_rule *machine_child(checker *k, segc_xml_node *n,
	segc_xml_node *c, seen *s)
{
	const elem_rule *r = c->ns ? NULL :
		rule_find(machine_children, (const char *)c->name);

	if (!r) {
		misplaced(k, n, c, machine_children, C_MACHINE);
		return NULL;
	}
	if (r == &machine_children[0] && (s->count[0] || s->others)) {
		problem(k, AT_ELEM(c), "<machine>: <description> %s",
			s->count[0] ? "may occur only once" :
			"must come first");
		k->stop = 1;
	}
	if (r == &machine_children[0])
		s->count[0]++;
	else
		s->others++;
	return r;
}

/* Checks child 'c' of <graph> 'n'; returns its rule or NULL. */
static const elem_rule *graph_child(checker *k, segc_xml_node *n, segc_xml_node *c,
	seen *s)
{
	const elem_rule *b = c->ns ? NULL :
		rule_find(block_children, (const char *)c->name);
	const elem_rule *a = c->ns ? NULL :
		rule_find(arc_children, (const char *)c->name);

	if (!a && !b) {
		misplaced(k, n, c, block_children, C_BLOCKS);
		return NULL;
	}
	if ((b && (s->nodes || s->arcs)) || (a && s->blocks)) {
		problem(k, AT_ELEM(c), "<graph>: <%s> cannot stand beside "
			"<%s>: a graph holds either blocks or <node> and <arc> "
			"elements", (const char *)c->name,
			(const char *)s->first_of_form->name);
		k->stop = 1;
		return b ? b : a;
	}
	if (!s->first_of_form)
		s->first_of_form = c;
	if (b)
		s->blocks++;
	else if (a == &arc_children[0])
		s->nodes++;
	else
		s->arcs++;
	return b ? b : a;
}

/* Checks what 'n' holds once its children are seen: the elements that
 * must be there. */
static void check_required_children(checker *k, segc_xml_node *n,
	const elem_rule *rule, const seen *s)
{
	if (rule->content == C_MODEL && !s->count[6]) {
		problem(k, AT_ELEM(n), "<model> needs at least one <graph>");
		k->stop = 1;
	} else if (rule->content == C_BRANCH && !s->cases) {
		problem(k, AT_ELEM(n), "<branch> needs at least one <case>");
		drop_element(k, n);
	} else if (rule->content == C_GRAPH && s->arcs && !s->nodes) {
		problem(k, AT_ELEM(n), "<graph> has <arc> elements but no "
			"<node>");
		k->stop = 1;
	}
}

/* Checks the children of 'n' (rule 'rule'); pushes the child elements
 * with their rules on 'jobs', last first. */
static void check_children(checker *k, segc_xml_node *n, const elem_rule *rule,
	job **jobs, size_t *njobs, size_t *cap)
{
	const elem_rule *allowed = children_of(rule->content), *r;
	seen s;
	segc_xml_node *c;
	size_t first = *njobs, lo, hi, i, before;
	const char *stray = segc_xml_node_stray(n, &before);

	memset(&s, 0, sizeof s);
	for (c = n->children, i = 0; ; c = c->next, i++) {
		if (stray && i == before && rule->content != C_TEXT) {
			unexpected_text(k, n, (const unsigned char *)stray);
			k->stop = 1;
		}
		if (!c)
			break;
		if (rule->content == C_MODEL)
			r = model_child(k, n, c, &s);
		else if (rule->content == C_MACHINE)
			r = machine_child(k, n, c, &s);
		else if (rule->content == C_GRAPH)
			r = graph_child(k, n, c, &s);
		else if (allowed && !c->ns &&
			 (r = rule_find(allowed, (const char *)c->name)))
			s.cases += rule->content == C_BRANCH;
		else {
			misplaced(k, n, c, allowed, rule->content);
			r = NULL;
		}
		if (!r) {
			drop_element(k, c);
			continue;
		}
		if (*njobs == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			*jobs = segc_xrealloc(*jobs,
				segc_xmul_size(*cap, sizeof **jobs));
		}
		(*jobs)[*njobs].node = c;
		(*jobs)[*njobs].rule = r;
		(*njobs)++;
	}
	check_required_children(k, n, rule, &s);
	/* document order once popped */
	for (lo = first, hi = *njobs; lo + 1 < hi; lo++, hi--) {
		job t = (*jobs)[lo];

		(*jobs)[lo] = (*jobs)[hi - 1];
		(*jobs)[hi - 1] = t;
	}
}

/* Checks the structure of the tree under 'root' (see xmlread.h); with
 * 'repair', takes out what failed when that is safe. */
static size_t check_structure(segc_ctx *ctx, const segc_xml_source *src,
	segc_xml_node *root, int repair, int *repaired)
{
	checker k;
	job *jobs = NULL;
	size_t njobs = 0, cap = 0, i;

	memset(&k, 0, sizeof k);
	k.ctx = ctx;
	k.src = src;
	if (repaired)
		*repaired = 0;
	if (!root || root->ns)
		return 0;
	jobs = segc_xmalloc(sizeof *jobs);
	cap = 1;
	jobs[njobs].node = root;
	jobs[njobs].rule = !strcmp((const char *)root->name, "model") ?
		&r_model : &r_machine_doc;
	njobs++;
	while (njobs && !segc_ctx_full(ctx)) {
		job j = jobs[--njobs];

		check_attributes(&k, j.node, j.rule);
		check_children(&k, j.node, j.rule, &jobs, &njobs, &cap);
	}
	free(jobs);
	if (repair && k.problems && !k.stop && !segc_ctx_full(ctx)) {
		/* Marked, then unlinked in one pass over the tree. */
		for (i = 0; i < k.nattr; i++)
			k.dropattr[i]->dropped = 1;
		for (i = 0; i < k.ndrop; i++)
			k.drop[i]->dropped = 1;
		segc_xml_tree_prune(root);
		*repaired = 1;
	}
	free(k.drop);
	free(k.dropattr);
	return k.problems;
}

/* Checks the structure of the tree under 'root' (see xmlread.h). */
size_t segc_xml_check_structure(segc_ctx *ctx, const segc_xml_source *src,
	segc_xml_node *root)
{
	return check_structure(ctx, src, root, 0, NULL);
}

/* Checks the structure and takes out what failed (see xmlread.h). */
size_t segc_xml_repair_structure(segc_ctx *ctx, const segc_xml_source *src,
	segc_xml_node *root, int *repaired)
{
	return check_structure(ctx, src, root, 1, repaired);
}
