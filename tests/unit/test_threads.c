/* test_threads.c - two derivations in two threads at once give the bytes
 * of the same derivations one at a time: each thread reads a list of
 * bundled models (loops, forward arcs and their max-plus recurrences,
 * indexed nodes and their longest paths) with its own context, derives
 * every component in canonical, structural and readable form, and prints
 * them; the texts must equal those of a run in the main thread, and each
 * thread's store must be empty once its formulas are freed.  The main
 * thread then derives them all again after its segc_library_cleanup()
 * (which also frees FLINT's and MPFR's caches of the thread): the same
 * bytes, the caches built anew.  Run under
 * ThreadSanitizer by configure --enable-tsan (doc/testing.md). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include <segc/segc.h>
#include <segc/segc_model.h>
#include "base/util.h"
#include "expr/expr_private.h"

/* The models, under the source tree. */
static const char *const models[] = {
	"xml/cg_tree.xml", "xml/lu_blocked.xml",
	"xml/examples/wavefront.xml", "xml/examples/reduction_tree.xml",
	"tests/cli/models/forward_pipeline.xml",
	"tests/cli/models/readable_taskgraph.xml",
	"tests/cli/models/loops_blocked_lu.xml"
};

#define NMODELS (sizeof(models) / sizeof(models[0]))

/* The forms derived, in this order. */
enum { FORMS = 3 };

/* One run: the models in order or reversed, the texts it printed, the
 * nodes left in its store at the end. */
typedef struct run {
	int reversed;
	char *text[NMODELS];
	size_t left;
} run;

/* Appends 'e' as text, then frees it. */
static void put_expr(segc_strbuf *sb, segc_expr *e)
{
	char *t = e ? segc_expr_to_string(e) : NULL;

	segc_strbuf_appendf(sb, "%s\n", t ? t : "(none)");
	free(t);
	segc_expr_free(e);
}

/* The text of every component of the model at 'path' in every form, and
 * the diagnostics, in a new string. */
static char *derive_text(const char *path)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_model *m = segc_model_read_file(ctx, path);
	segc_strbuf sb;
	segc_setting s;
	char *text;
	int c;

	segc_strbuf_init(&sb);
	segc_strbuf_appendf(&sb, "%s\n", path);
	s.model = m;
	s.machine = NULL;
	s.bindings = NULL;
	for (c = SEGC_TOTAL; m && c <= SEGC_IO; c++) {
		put_expr(&sb, segc_derive_canonical(ctx, &s, c));
		put_expr(&sb, segc_derive_structural(ctx, &s, c));
		put_expr(&sb, segc_derive_readable(ctx, &s, c));
	}
	segc_strbuf_appendf(&sb, "status %d, %zu diagnostics\n",
		(int)segc_ctx_status(ctx), segc_ctx_n_diags(ctx));
	segc_model_free(m);
	segc_ctx_free(ctx);
	text = segc_xstrdup(segc_strbuf_str(&sb));
	segc_strbuf_free(&sb);
	return text;
}

/* Runs 'arg' (a struct run): every model, then releases the store. */
static void *run_models(void *arg)
{
	run *r = arg;
	const char *top = getenv("top_srcdir");
	char path[4096];
	size_t i, k;

	for (i = 0; i < NMODELS; i++) {
		k = r->reversed ? NMODELS - 1 - i : i;
		snprintf(path, sizeof(path), "%s/%s", top ? top : ".",
			models[k]);
		r->text[k] = derive_text(path);
	}
	r->left = segc_expr_live_nodes();
	segc_library_cleanup();
	return NULL;
}

int main(void)
{
	run alone, a, b, again;
	pthread_t ta, tb;
	size_t k;
	int started;

	memset(&alone, 0, sizeof(alone));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&again, 0, sizeof(again));
	b.reversed = 1;
	run_models(&alone);
	tap_ok(alone.left == 0, "one at a time: the store is empty after");
	started = !pthread_create(&ta, NULL, run_models, &a);
	started = started && !pthread_create(&tb, NULL, run_models, &b);
	tap_ok(started, "two threads started");
	if (started) {
		pthread_join(ta, NULL);
		pthread_join(tb, NULL);
	}
	run_models(&again);
	for (k = 0; k < NMODELS; k++) {
		tap_ok(alone.text[k] && strstr(alone.text[k], "status 0"),
			"%s derives", models[k]);
		tap_ok(a.text[k] && !strcmp(a.text[k], alone.text[k]),
			"%s: thread 1 gives the bytes of one at a time",
			models[k]);
		tap_ok(b.text[k] && !strcmp(b.text[k], alone.text[k]),
			"%s: thread 2 gives the bytes of one at a time",
			models[k]);
		tap_ok(again.text[k] && !strcmp(again.text[k], alone.text[k]),
			"%s: derived again after the clean-up, the same bytes",
			models[k]);
		free(alone.text[k]);
		free(a.text[k]);
		free(b.text[k]);
		free(again.text[k]);
	}
	tap_ok(started && a.left == 0 && b.left == 0,
		"each thread's store is empty once its formulas are freed");
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}
