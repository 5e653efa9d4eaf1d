/* fuzz_pipeline.c - fuzz target of the whole pipeline: a document read as
 * a model; for every component its structural and canonical formulas,
 * which must agree (the canonical form of the structural one is the
 * canonical one), printed, typeset (formula and standalone document) and
 * emitted as C with every free name kept as an argument.  Each step
 * either succeeds or records its errors. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "output/output.h"
#include "xml/xmlread.h"

/* Most names kept as arguments of the emitted functions. */
#define MAX_ARGS 64

/* The union of the free names of the formulas (N and P first). */
static size_t collect_args(segc_expr *const f[4], const char **args)
{
	const char **names;
	size_t n = 2, k, i, j, m;

	args[0] = "N";
	args[1] = "P";
	for (k = 0; k < 4; k++) {
		if (!f[k])
			continue;
		m = segc_output_names(f[k], 0, &names);
		for (i = 0; i < m; i++) {
			for (j = 0; j < n && strcmp(args[j], names[i]); j++)
				;
			if (j == n && n < MAX_ARGS)
				args[n++] = names[i];
		}
		free(names);
	}
	return n;
}

/* Checks that the canonical form of 'structural' is 'canonical'. */
static void check_forms_agree(const segc_setting *s, segc_expr *structural,
	segc_expr *canonical)
{
	segc_ctx *ctx = fuzz_ctx_new();
	segc_domains *dom = segc_setting_domains(ctx, s);
	segc_expr *c;

	c = dom ? segc_canonical(ctx, dom, segc_expr_copy(structural)) : NULL;
	if (c)
		fuzz_check(c == canonical, "the canonical form of the "
			"structural formula is the canonical formula");
	else
		fuzz_check_failure(ctx);
	segc_expr_free(c);
	segc_domains_free(dom);
	segc_ctx_free(ctx);
}

/* Typesets formula 'f' and the standalone document. */
static void typeset(segc_ctx *ctx, const segc_model *m, segc_expr *const f[4])
{
	segc_latex_names names = { 0, NULL, NULL };
	char *text;
	size_t nlines;

	if (segc_latex_names_of_model(ctx, m, &names)) {
		fuzz_check_failure(ctx);
		segc_ctx_clear(ctx);
		return;
	}
	if (f[0]) {
		text = segc_latex_expr(f[0], &names);
		fuzz_check(text != NULL, "LaTeX of a formula");
		free(text);
		text = segc_latex_expr_lines(f[0], &names, 60, &nlines);
		fuzz_check(text != NULL, "LaTeX of a formula in lines");
		free(text);
	}
	text = segc_latex_document(segc_model_name(m),
		segc_model_description(m), f, &names);
	fuzz_check(text != NULL, "a LaTeX document");
	fuzz_check(!strstr(text, "\\input") && !strstr(text, "\\write") &&
		!strstr(text, "\\openin") && !strstr(text, "\\catcode") &&
		!strstr(text, "\\immediate"),
		"no file or shell access in the LaTeX document");
	free(text);
	segc_latex_names_clear(&names);
}

/* Emits the C predictor of the formulas. */
static void emit(segc_ctx *ctx, const segc_model *m, segc_expr *const f[4],
	int with_main)
{
	const char *args[MAX_ARGS];
	segc_emit_input in;
	segc_templates t;
	segc_where w = { "fuzz.xml", 0, 0, NULL };
	char *c_text = NULL, *h_text = NULL;
	int k;

	memset(&in, 0, sizeof in);
	in.model_name = segc_model_name(m);
	in.description = segc_model_description(m);
	in.base = "pred";
	in.args = args;
	in.nargs = collect_args(f, args);
	in.with_main = with_main;
	for (k = 0; k < 4; k++)
		in.formulas[k] = f[k];
	fuzz_check(segc_templates_builtin(&t) == 0, "built-in templates");
	if (segc_emit_render(ctx, &t, &in, &w, &c_text, &h_text) == 0) {
		fuzz_check(c_text && h_text, "emit gives both files");
		fuzz_check(segc_ctx_status(ctx) == SEGC_OK,
			"emit records no error");
	} else {
		fuzz_check_failure(ctx);
	}
	free(c_text);
	free(h_text);
	segc_templates_clear(&t);
	segc_ctx_clear(ctx);
}

/* One input: a model document. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	segc_ctx *ctx = fuzz_ctx_new();
	segc_model *m;
	segc_setting s;
	segc_expr *canon[4] = { NULL, NULL, NULL, NULL }, *structural;
	char *text;
	int k, ok = 1;

	m = segc_model_read_memory(ctx, (const char *)data, size, "fuzz.xml");
	if (!m) {
		fuzz_check_failure(ctx);
		segc_ctx_free(ctx);
		return 0;
	}
	memset(&s, 0, sizeof s);
	s.model = m;
	for (k = 0; k < 4 && ok; k++) {
		structural = segc_derive_structural(ctx, &s,
			(enum segc_component)k);
		canon[k] = structural ?
			segc_derive_canonical(ctx, &s, (enum segc_component)k) :
			NULL;
		if (!canon[k]) {
			fuzz_check_failure(ctx);
			ok = 0;
		} else {
			fuzz_check_roundtrip(structural);
			fuzz_check_roundtrip(canon[k]);
			check_forms_agree(&s, structural, canon[k]);
			text = segc_expr_to_string(canon[k]);
			free(text);
		}
		segc_expr_free(structural);
	}
	if (ok) {
		typeset(ctx, m, canon);
		emit(ctx, m, canon, size > 0 && (data[size - 1] & 1));
	}
	for (k = 0; k < 4; k++)
		segc_expr_free(canon[k]);
	segc_model_free(m);
	segc_ctx_free(ctx);
	return 0;
}
