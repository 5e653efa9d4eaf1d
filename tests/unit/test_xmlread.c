/* test_xmlread.c - the XML reader and the semantic checks on documents
 * held in memory: what is accepted, the first diagnostic of what is not,
 * deep nests, entities, and the edit distance behind "did you mean". */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "xml/xmlread.h"
#include "model/validate.h"
#include "pipeline/validate_document.h"

/* A document and the first diagnostic it must give (NULL: valid). */
struct doc_case {
	const char *name;
	const char *text;
	const char *first_error;
};

static const struct doc_case cases[] = {
	{ "minimal model",
	  "<model name='m' version='1'><graph name='main'/></model>", NULL },
	{ "machine",
	  "<machine name='mc' version='1'><const name='c' value='2'/>"
	  "<cost name='add' value='3*c'/>"
	  "<function name='send' args='b'>c + b*add + N</function>"
	  "</machine>", NULL },
	{ "model with inline machine and lets",
	  "<model name='m' version='1'><param name='a' min='0'/>"
	  "<resource name='r'/><let name='twice' value='2*a'/>"
	  "<function name='f' args='x, y'>x*y + r</function>"
	  "<machine><cost name='r' value='1'/></machine>"
	  "<graph name='main'><loop var='i' from='1' to='N'>"
	  "<step cost='f(i, twice) + sum(k, 1, i, k*P)'/></loop>"
	  "<branch><case prob='1/4'/><case prob='3/4'/></branch></graph>"
	  "<expect>a</expect></model>", NULL },
	{ "undeclared name",
	  "<model name='m' version='1'><resource name='t_x'/>"
	  "<graph name='main'><step cost='t_y'/></graph></model>",
	  "undeclared name 't_y' in attribute 'cost' of <step> at column 1 "
	  "of the value (did you mean 't_x'?)" },
	{ "SYSTEM entity naming a local file",
	  "<!DOCTYPE model [<!ENTITY x SYSTEM 'test_xmlread.c'>]>"
	  "<model name='m' version='1'><description>&x;</description>"
	  "<graph name='main'/></model>",
	  "a DOCTYPE declaration is not allowed: SEG XML has no DTD and no "
	  "entities" },
	{ "lone arc without prob",
	  "<model name='m' version='1'><graph name='g'><node id='a'/>"
	  "<node id='b'/><arc from='a' to='b'/></graph></model>", NULL },
	{ "branch remainder",
	  "<model name='m' version='1'><graph name='main'><branch>"
	  "<case prob='0.25'/><case/></branch></graph></model>", NULL },
};

/* Checks one case: valid, or its first diagnostic. */
static void run_case(const struct doc_case *c)
{
	segc_ctx *ctx = segc_ctx_new();
	int rc = segc_validate_memory(ctx, c->text, strlen(c->text), "mem");
	const segc_diag *d = segc_ctx_n_diags(ctx) ?
		segc_ctx_diag(ctx, 0) : NULL;

	if (!c->first_error) {
		if (!tap_ok(rc == 0 && !d, "%s: valid", c->name) && d)
			tap_diag("%s", d->message);
	} else {
		tap_ok(rc != 0, "%s: refused", c->name);
		tap_is(d ? d->message : NULL, c->first_error, c->name);
	}
	segc_ctx_free(ctx);
}

/* A model nesting 'n' loops, malloc'd. */
static char *nest(size_t n)
{
	const char *head = "<model name='d' version='1'><graph name='main'>";
	const char *open = "<loop count='2'>", *close = "</loop>";
	const char *tail = "<step cost='1'/>";
	size_t len = strlen(head) + n * (strlen(open) + strlen(close)) +
		strlen(tail) + 64, i;
	char *s = malloc(len), *p = s;

	if (!s)
		abort();
	p += sprintf(p, "%s", head);
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s", open);
	p += sprintf(p, "%s", tail);
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s", close);
	sprintf(p, "</graph></model>");
	return s;
}

/* Reads a nest of 10,000 loops, then refuses one of 100,000. */
static void deep_nests(void)
{
	segc_ctx *ctx = segc_ctx_new();
	char *s = nest(10000);
	segc_model *m = segc_model_read_memory(ctx, s, strlen(s), "deep");

	tap_ok(m != NULL, "10,000 nested loops are read");
	segc_model_free(m);
	free(s);
	segc_ctx_free(ctx);
	ctx = segc_ctx_new();
	s = nest(100000);
	m = segc_model_read_memory(ctx, s, strlen(s), "deeper");
	tap_ok(!m && segc_ctx_status(ctx) == SEGC_ERR_LIMIT,
		"100,000 nested elements: a limit error");
	free(s);
	segc_ctx_free(ctx);
}

/* The edit distance. */
static void distances(void)
{
	tap_ok(segc_edit_distance("t_a", "t_b") == 1, "distance t_a t_b");
	tap_ok(segc_edit_distance("", "abc") == 3, "distance '' abc");
	tap_ok(segc_edit_distance("kitten", "sitting") == 3,
		"distance kitten sitting");
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(&cases[i]);
	deep_nests();
	distances();
	segc_library_cleanup();
	return tap_done();
}
