/* test_xmltree.c - what the reader keeps of a document, against the XML
 * 1.0 rules worked by hand: the text of an element across comments,
 * CDATA sections and character references; attribute values with their
 * references decoded and their white space normalized; text where none
 * belongs quoted from its first run only, and reported in its place
 * among the children; names in a namespace; a model read from a long
 * sequence keeps every step in order, and every value of its own when
 * short values are shared. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "xml/xmlread.h"
#include "model/validate.h"
#include "pipeline/validate_document.h"

/* Reads model 'text'; NULL with the first message shown when refused. */
static segc_model *read_model(segc_ctx *ctx, const char *text)
{
	segc_model *m = segc_model_read_memory(ctx, text, strlen(text), "mem");

	if (!m && segc_ctx_n_diags(ctx))
		tap_diag("%s", segc_ctx_diag(ctx, 0)->message);
	return m;
}

/* The text of <description> and of <expect> across comments, CDATA and
 * references: runs joined, white space around the whole trimmed. */
static void element_text(void)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_model *m = read_model(ctx, "<model name='m' version='1'>"
		"<description>  a &amp; b <!-- c --> <![CDATA[<x>]]> "
		"&#65;&#x42;\n</description><param name='N'/>"
		"<graph name='main'><step cost='N'/></graph>"
		"<expect>N<!-- one --> + <?pi x?>0</expect></model>");

	tap_ok(m != NULL, "text across comments and CDATA: read");
	tap_is(m ? m->description : NULL, "a & b  <x> AB", "description");
	tap_is(m && m->nexpects ? m->expects[0].text : NULL, "N + 0",
		"expect text across a comment and a PI");
	segc_model_free(m);
	segc_ctx_free(ctx);
}

/* Attribute values: references decoded (an ampersand written three ways),
 * literal tabs and line breaks become spaces, a character reference to
 * a tab stays a tab. */
static void attribute_values(void)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_model *m = read_model(ctx, "<model name='m' version='1'>"
		"<param name='N'/><graph name='main'><step name='p&quot;q' "
		"cost='N'/></graph>"
		"<expect source='x&amp;y &#38; &#x26;&lt;z&gt;'>N</expect>"
		"<expect source='a\tb\nc&#9;d'>N</expect></model>");

	tap_ok(m != NULL, "attribute values: read");
	tap_is(m && m->nexpects > 0 ? m->expects[0].source : NULL,
		"x&y & &<z>", "references decoded");
	tap_is(m && m->nexpects > 1 ? m->expects[1].source : NULL,
		"a b c\td", "white space normalized, &#9; kept");
	tap_is(m && m->ngraphs ? m->graphs[0].body->children[0]->name : NULL,
		"p\"q", "step name with &quot;");
	segc_model_free(m);
	segc_ctx_free(ctx);
}

/* The messages of 'text' checked by validate, joined by " | ". */
static char *messages(const char *text)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_strbuf sb;
	size_t i;
	char *s;

	segc_validate_memory(ctx, text, strlen(text), "mem");
	segc_strbuf_init(&sb);
	for (i = 0; i < segc_ctx_n_diags(ctx); i++)
		segc_strbuf_appendf(&sb, "%s%lu:%lu %s", i ? " | " : "",
			segc_ctx_diag(ctx, i)->line, segc_ctx_diag(ctx, i)->col,
			segc_ctx_diag(ctx, i)->message);
	s = segc_xstrdup(segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
	segc_ctx_free(ctx);
	return s;
}

/* Checks the messages of 'text' against 'want'. */
static void expect_messages(const char *text, const char *want,
	const char *name)
{
	char *got = messages(text);

	tap_is(got, want, name);
	free(got);
}

/* Stray text: the first run that is not white space, as a document tree
 * would hold it (a comment ends a run), at the element that holds it,
 * after the problems of the children before it and before those after
 * it.  Columns counted by hand. */
static void stray_text(void)
{
	expect_messages("<model name='m' version='1'><graph name='main'>"
		"\n x <!-- c --> y<step/></graph></model>",
		"1:29 <graph> cannot contain text (found \"x\")",
		"the first run only");
	expect_messages("<model name='m' version='1'><graph name='main'>"
		"<stpe/>\n  text\n<stp/></graph></model>",
		"1:48 <graph>: unknown element <stpe> (did you mean <step>?) | "
		"1:29 <graph> cannot contain text (found \"text\") | "
		"3:1 <graph>: unknown element <stp> (did you mean <step>?)",
		"in its place among the children");
	expect_messages("<model name='m' version='1'><graph name='main'>"
		"<step/>abcdefghijklmnopqrstuvwxyz0123</graph></model>",
		"1:29 <graph> cannot contain text (found "
		"\"abcdefghijklmnopqrstuvwx...\")", "cut at 24 characters");
	expect_messages("<model name='m' version='1'><graph name='main'>"
		"<step/><![CDATA[ ]]>\n<!-- -->\t</graph></model>", "",
		"white space, CDATA of white space and comments are no text");
}

/* Names in a namespace, of elements and attributes: a child is placed
 * when its parent is checked, before its own attributes are. */
static void namespaces(void)
{
	expect_messages("<model name='m' version='1' xmlns:q='urn:q'>"
		"<graph name='main'><step q:cost='1'/><q:step/></graph>"
		"</model>",
		"1:82 element <q:step> is in a namespace: SEG XML uses none | "
		"1:70 <step>: unknown attribute 'q:cost'",
		"prefixed attribute and element");
	expect_messages("<model name='m' version='1'><graph name='main'>"
		"<step xmlns='urn:d'/></graph></model>",
		"1:48 element <step> is in a namespace: SEG XML uses none",
		"default namespace");
}

/* A sequence of 'n' steps with costs 1..7 and every tenth named, read
 * back in order. */
static void long_sequence(size_t n)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_strbuf sb;
	segc_model *m;
	size_t i, bad = 0;
	char want[32];

	segc_strbuf_init(&sb);
	segc_strbuf_append(&sb, "<model name='m' version='1'>"
		"<resource name='t'/><graph name='main'>\n");
	for (i = 0; i < n; i++)
		if (i % 10)
			segc_strbuf_appendf(&sb, "<step cost='%zu*t'/>\n",
				i % 7 + 1);
		else
			segc_strbuf_appendf(&sb, "<step name='s%zu' "
				"cost='%zu*t'/>\n", i, i % 7 + 1);
	segc_strbuf_append(&sb, "</graph></model>\n");
	m = segc_model_read_memory(ctx, segc_strbuf_str(&sb), sb.len, "seq");
	tap_ok(m && m->graphs[0].body->nchildren == n, "%zu steps read", n);
	for (i = 0; m && i < n; i++) {
		const segc_block *b = m->graphs[0].body->children[i];
		char *c = segc_expr_to_string(b->cost);

		if (i % 7)
			snprintf(want, sizeof want, "%zu*t", i % 7 + 1);
		else
			snprintf(want, sizeof want, "t");
		bad += b->kind != SEGC_BLOCK_STEP || strcmp(c, want) ||
			b->loc.line != i + 2 || b->loc.col != 1 ||
			(i % 10 ? b->name != NULL : !b->name ||
			 strtoul(b->name + 1, NULL, 10) != i);
		free(c);
	}
	tap_ok(m && !bad, "every step in order, with its cost, name and "
		"place (%zu wrong)", bad);
	segc_model_free(m);
	segc_strbuf_free(&sb);
	segc_ctx_free(ctx);
}

/* The slot of value 's' in a table of 4096 by FNV-1a, the hash the
 * reader shares short values with (only to make a collision likely;
 * the test holds whatever the hash). */
static unsigned slot_of(const char *s)
{
	unsigned long h = 2166136261u;

	for (; *s; s++)
		h = ((h ^ (unsigned char)*s) * 16777619u) & 0xffffffffu;
	return (unsigned)(h % 4096);
}

/* Short attribute values are shared with an earlier attribute of the
 * same value: 'n' steps whose names are all different (among them
 * prefixes of each other, "s1", "s12", "s123", and a name that follows
 * a longer one of the same slot that starts with it) and whose costs
 * repeat, with a value that is a prefix of a cost ("t") in between;
 * every name and cost is read back as written. */
static void shared_values(size_t n)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_strbuf sb;
	segc_model *m;
	size_t i, j, bad = 0;
	char want[32], longer[32];

	for (j = 0; j < 100000; j++) {
		snprintf(longer, sizeof longer, "s%zuu%zu", n, j);
		snprintf(want, sizeof want, "s%zuu", n);
		if (slot_of(longer) == slot_of(want))
			break;
	}
	segc_strbuf_init(&sb);
	segc_strbuf_append(&sb, "<model name='m' version='1'>"
		"<resource name='t'/><graph name='main'>\n");
	for (i = 0; i < n; i++)
		segc_strbuf_appendf(&sb, "<step name='s%zu' cost='%s'/>\n", i,
			i % 3 ? "2*t" : "t");
	segc_strbuf_appendf(&sb, "<step name='%s' cost='t'/><step name='%s' "
		"cost='t'/>\n", longer, want);
	segc_strbuf_append(&sb, "</graph></model>\n");
	m = segc_model_read_memory(ctx, segc_strbuf_str(&sb), sb.len, "seq");
	tap_ok(m && m->graphs[0].body->nchildren == n + 2,
		"%zu named steps read", n + 2);
	for (i = 0; m && i < n + 2; i++) {
		const segc_block *b = m->graphs[0].body->children[i];
		char *c = segc_expr_to_string(b->cost);

		if (i < n)
			snprintf(want, sizeof want, "s%zu", i);
		else if (i == n)
			snprintf(want, sizeof want, "%s", longer);
		else
			snprintf(want, sizeof want, "s%zuu", n);
		bad += !b->name || strcmp(b->name, want) ||
			strcmp(c, i < n && i % 3 ? "2*t" : "t");
		free(c);
	}
	tap_ok(m && !bad, "every name and cost as written (%zu wrong)", bad);
	segc_model_free(m);
	segc_strbuf_free(&sb);
	segc_ctx_free(ctx);
}

int main(void)
{
	element_text();
	attribute_values();
	stray_text();
	namespaces();
	long_sequence(20000);
	shared_values(20000);
	segc_library_cleanup();
	return tap_done();
}
