/* test_lowonce.c - a model's program is lowered once, whatever is derived
 * from it: derivations under several settings (bindings, machines) and of
 * several components, with one context, give the formulas that a fresh
 * model gives each time, and the context counts one lowering.  A lowering
 * that fails is not kept: each derivation reports its error again, and a
 * program kept under a larger node limit is not reused under a smaller
 * one.  Freeing the model frees the program kept with it.  A copy of a
 * lowered program shares its arrays until a map changes an expression,
 * and the program it copies lives until the last copy is freed. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include <segc/segc.h>
#include <segc/segc_model.h>
#include "base/util.h"
#include "expr/expr_private.h"
#include "graph/graph.h"

static char tmpdir[] = "/tmp/segc-lowonce-XXXXXX";

static const char *const model_xml =
	"<model name=\"t\" version=\"1\">"
	"<param name=\"n\" min=\"0\"/><param name=\"p\" min=\"0\" max=\"1\"/>"
	"<param name=\"K\" min=\"0\" integer=\"true\"/>"
	"<resource name=\"a\"/><resource name=\"b\"/><resource name=\"c\"/>"
	"<graph name=\"main\"><step cost=\"a\"/>"
	"<loop count=\"n\"><step cost=\"b\" class=\"comm\"/><branch>"
	"<case prob=\"p\"><call graph=\"g\"/></case><case/></branch></loop>"
	"<loop var=\"i\" from=\"1\" to=\"K\"><step cost=\"i*c\" class=\"io\"/>"
	"</loop><par><step cost=\"a\"/><step cost=\"2*b\"/></par></graph>"
	"<graph name=\"g\"><step cost=\"c\"/><step cost=\"a*b\"/></graph>"
	"</model>";

static const char *const machine_xml[2] = {
	"<machine name=\"m1\" version=\"1\"><cost name=\"a\" value=\"2\"/>"
	"<cost name=\"b\" value=\"3\"/></machine>",
	"<machine name=\"m2\" version=\"1\"><cost name=\"a\" value=\"1/2\"/>"
	"<cost name=\"b\" value=\"5\"/><cost name=\"c\" value=\"7\"/>"
	"</machine>"
};

/* Writes 'text' to file 'name' of the test directory; its path in
 * 'path' ('size' bytes). */
static void write_file(char *path, size_t size, const char *name,
	const char *text)
{
	FILE *f;

	snprintf(path, size, "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Reads the model of XML text 'xml' through 'ctx' (NULL on error). */
static segc_model *model_of(segc_ctx *ctx, const char *xml)
{
	char path[256];

	write_file(path, sizeof(path), "m.xml", xml);
	return segc_model_read_file(ctx, path);
}

/* Reads machine 'k' of machine_xml through 'ctx' (NULL on error). */
static segc_machine *machine_of(segc_ctx *ctx, int k)
{
	char path[256];

	write_file(path, sizeof(path), k ? "m2.xml" : "m1.xml",
		machine_xml[k]);
	return segc_machine_read_file(ctx, path);
}

/* One setting of the test: a machine of machine_xml (-1: none) and a
 * binding (NULL: none). */
typedef struct setting_case {
	int machine;
	const char *binding;
} setting_case;

static const setting_case cases[] = {
	{ -1, NULL }, { -1, "n=4" }, { -1, "n=7" }, { 0, NULL }, { 1, NULL },
	{ 1, "p=1/3" }, { 0, "K=5" }
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* The components of 'mask' of 'm' under case 'c' (machines 'mach') into
 * 'out', canonical or structural by 'canonical'; 0 or -1. */
static int derive_case(segc_ctx *ctx, const segc_model *m,
	segc_machine *const *mach, const setting_case *c, int canonical,
	unsigned mask, segc_expr *out[4])
{
	segc_bindings *b = segc_bindings_new();
	segc_setting s;
	int rc;

	if (c->binding)
		segc_bindings_add(ctx, b, c->binding);
	s.model = m;
	s.machine = c->machine >= 0 ? mach[c->machine] : NULL;
	s.bindings = b;
	rc = segc_derive_components(ctx, &s, canonical ?
		SEGC_DERIVE_CANONICAL : 0, mask, out);
	segc_bindings_free(b);
	return rc;
}

/* The same from a model read again, with a context of its own: the
 * formulas that a first lowering gives. */
static int derive_fresh(segc_machine *const *mach, const setting_case *c,
	int canonical, unsigned mask, segc_expr *out[4])
{
	segc_ctx *ctx = segc_ctx_new();
	segc_model *m = model_of(ctx, model_xml);
	int rc = m ? derive_case(ctx, m, mach, c, canonical, mask, out) : -1;

	segc_model_free(m);
	segc_ctx_free(ctx);
	return rc;
}

/* Non-zero when the components of 'mask' in 'a' and 'b' are the same
 * formulas; frees both. */
static int same_and_free(unsigned mask, segc_expr *a[4], segc_expr *b[4])
{
	int k, same = 1;

	for (k = 0; k < 4; k++) {
		if (mask & (1u << k))
			same &= a[k] && a[k] == b[k];
		segc_expr_free(a[k]);
		segc_expr_free(b[k]);
	}
	return same;
}

/* Every case, canonical and structural, all components together and
 * each alone, from one model and one context: the formulas of a fresh
 * model each time, from one lowering. */
static void test_settings(segc_machine *const *mach)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_model *m = model_of(ctx, model_xml);
	segc_expr *kept[4], *fresh[4];
	size_t i;
	unsigned k, mask;
	int canonical, same = 1, failed = 0;

	for (i = 0; m && i < NCASES; i++)
		for (canonical = 0; canonical < 2; canonical++)
			for (k = 0; k < 5; k++) {
				mask = k < 4 ? 1u << k : SEGC_COMPONENTS_ALL;
				failed |= derive_case(ctx, m, mach, &cases[i],
					canonical, mask, kept) != 0;
				failed |= derive_fresh(mach, &cases[i],
					canonical, mask, fresh) != 0;
				same &= same_and_free(mask, kept, fresh);
			}
	tap_ok(m && !failed && same, "one model under %zu settings derives "
		"what a fresh model derives", NCASES);
	tap_ok(segc_ctx_lowerings(ctx) == 1, "from one lowering (%lu)",
		segc_ctx_lowerings(ctx));
	segc_model_free(m);
	segc_ctx_free(ctx);
}

/* The first diagnostic of 'ctx' as "LINE:COL: MESSAGE", malloc'd, and
 * the diagnostics cleared; NULL when there is none. */
static char *take_diag(segc_ctx *ctx)
{
	const segc_diag *d = segc_ctx_n_diags(ctx) ? segc_ctx_diag(ctx, 0)
		: NULL;
	char buf[512];

	if (!d)
		return NULL;
	snprintf(buf, sizeof(buf), "%lu:%lu: %s", d->line, d->col,
		d->message);
	segc_ctx_clear(ctx);
	return segc_xstrdup(buf);
}

/* Derives the total of 'm' under no setting with node limit 'max':
 * non-zero on success; the error, if any, in '*why' (malloc'd). */
static int derive_total(segc_ctx *ctx, const segc_model *m,
	unsigned long max, char **why)
{
	segc_setting s = { m, NULL, NULL };
	segc_expr *e;

	segc_ctx_limits(ctx)->max_nodes = max;
	e = segc_derive_structural(ctx, &s, SEGC_TOTAL);
	*why = take_diag(ctx);
	segc_expr_free(e);
	return e != NULL;
}

/* A lowering that fails is not kept, and a program kept under a larger
 * node limit is lowered again under a smaller one, so that the limit
 * error is reported each time, at the same place. */
static void test_failures(void)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_model *m = model_of(ctx, model_xml);
	unsigned long big = segc_ctx_limits(ctx)->max_nodes;
	char *why[4] = { NULL, NULL, NULL, NULL };
	int ok[4];

	ok[0] = m && derive_total(ctx, m, 3, &why[0]);
	ok[1] = m && derive_total(ctx, m, 3, &why[1]);
	tap_ok(!ok[0] && !ok[1] && why[0] && why[1] && !strcmp(why[0],
		why[1]) && segc_ctx_lowerings(ctx) == 2, "a failed lowering "
		"is not kept: its error is reported again (%s)",
		why[0] ? why[0] : "none");
	ok[2] = m && derive_total(ctx, m, big, &why[2]);
	ok[2] &= m && derive_total(ctx, m, big, &why[2]);
	tap_ok(ok[2] && segc_ctx_lowerings(ctx) == 3, "a program lowered "
		"is kept");
	ok[3] = m && derive_total(ctx, m, 3, &why[3]);
	tap_ok(!ok[3] && why[3] && why[0] && !strcmp(why[0], why[3]) &&
		segc_ctx_lowerings(ctx) == 4, "under a smaller limit it is "
		"lowered again, and refused");
	free(why[0]);
	free(why[1]);
	free(why[2]);
	free(why[3]);
	segc_model_free(m);
	segc_ctx_free(ctx);
}

/* The program kept with a model holds expressions that freeing the
 * model releases. */
static void test_freed(void)
{
	size_t live = segc_expr_live_nodes();
	segc_ctx *ctx = segc_ctx_new();
	segc_model *m = model_of(ctx, model_xml);
	segc_setting s = { m, NULL, NULL };
	segc_expr *e = m ? segc_derive_canonical(ctx, &s, SEGC_TOTAL) : NULL;

	tap_ok(e != NULL, "a program lowered and kept");
	segc_expr_free(e);
	segc_model_free(m);
	segc_ctx_free(ctx);
	tap_ok(segc_expr_live_nodes() == live, "freeing the model frees "
		"it (%zu nodes live, %zu before)", segc_expr_live_nodes(),
		live);
}

/* A map function that leaves every expression as it is. */
static segc_expr *map_same(void *arg, segc_expr *e, const char *const *bound,
	size_t nbound, const segc_srcloc *loc)
{
	(void)arg;
	(void)bound;
	(void)nbound;
	(void)loc;
	return e;
}

/* A map function that replaces the name 'a' by 5. */
static segc_expr *map_a(void *arg, segc_expr *e, const char *const *bound,
	size_t nbound, const segc_srcloc *loc)
{
	segc_expr *five = segc_expr_int(5), *v;

	(void)arg;
	(void)bound;
	(void)nbound;
	(void)loc;
	v = segc_expr_subst(e, "a", five);
	segc_expr_free(five);
	return v;
}

/* Copies of a lowered program: shared arrays under a map that changes
 * nothing, arrays of their own once a map changes an expression, the
 * original untouched; freeing the original first leaves the copy whole,
 * and freeing both releases every expression. */
static void test_copies(void)
{
	size_t live = segc_expr_live_nodes();
	segc_lowered *lw = segc_lowered_new(), *c1, *c2;
	segc_lgraph *g;
	segc_expr *a = segc_expr_sym("a"), *three = segc_expr_int(3);
	int same;

	segc_lowered_add_graph(lw, SEGC_NONE, NULL);
	g = &lw->graphs[0];
	segc_lgraph_add_node(g, segc_expr_copy(three), SEGC_CLASS_COMP);
	segc_lgraph_add_node(g, segc_expr_copy(a), SEGC_CLASS_COMP);
	segc_lgraph_add_arc(g, 0, 1, segc_expr_int(1), segc_expr_copy(a),
		SEGC_CLASS_COMP, NULL);
	c1 = segc_lowered_copy(lw);
	c2 = segc_lowered_copy(lw);
	same = segc_lowered_map(c1, map_same, NULL) == 0;
	tap_ok(same && c1->graphs[0].nodes == g->nodes &&
		c1->graphs[0].arcs == g->arcs && c1->graphs[0].borrowed,
		"a copy mapped without change shares the arrays");
	same = segc_lowered_map(c2, map_a, NULL) == 0;
	tap_ok(same && c2->graphs[0].nodes != g->nodes &&
		!c2->graphs[0].borrowed && c2->graphs[0].nodes[0].cost == three
		&& segc_expr_is_num(c2->graphs[0].nodes[1].cost) &&
		segc_expr_is_num(c2->graphs[0].arcs[0].cost),
		"a copy whose map changes an expression gets arrays of its "
		"own, with every expression mapped");
	tap_ok(g->nodes[1].cost == a && g->arcs[0].cost == a,
		"the program copied is unchanged");
	segc_lowered_free(lw);
	tap_ok(c1->graphs[0].nodes[0].cost == three &&
		c1->graphs[0].nodes[1].cost == a, "freeing the program first "
		"leaves its copies whole");
	segc_lowered_free(c1);
	segc_lowered_free(c2);
	segc_expr_free(a);
	segc_expr_free(three);
	tap_ok(segc_expr_live_nodes() == live, "freeing every copy frees "
		"every expression (%zu nodes live, %zu before)",
		segc_expr_live_nodes(), live);
}

int main(void)
{
	segc_machine *mach[2];
	segc_ctx *ctx;
	char path[256];
	const char *names[] = { "m.xml", "m1.xml", "m2.xml" };
	size_t i;

	if (!mkdtemp(tmpdir))
		return 1;
	test_freed();
	test_copies();
	ctx = segc_ctx_new();
	mach[0] = machine_of(ctx, 0);
	mach[1] = machine_of(ctx, 1);
	tap_ok(mach[0] && mach[1], "machines read");
	if (mach[0] && mach[1])
		test_settings(mach);
	test_failures();
	segc_machine_free(mach[0]);
	segc_machine_free(mach[1]);
	segc_ctx_free(ctx);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, names[i]);
		unlink(path);
	}
	rmdir(tmpdir);
	segc_library_cleanup();
	return tap_done();
}
