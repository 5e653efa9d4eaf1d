/* use_segc.c - a user's program built against the installed library through
 * pkg-config: reduces a quotient to its canonical form and prints it. */
#include <stdio.h>
#include <stdlib.h>

#include <segc/segc.h>

/* Prints the canonical form of argv[1] (default: a quotient that cancels). */
int main(int argc, char **argv)
{
	const char *text = argc > 1 ? argv[1] : "(x^2 - y^2)/(x - y)";
	segc_ctx *ctx = segc_ctx_new();
	segc_expr *e = segc_expr_parse(ctx, text, NULL);
	char *s;

	if (e)
		e = segc_canonical(ctx, NULL, e);
	if (!e) {
		fprintf(stderr, "%s\n", segc_ctx_diag(ctx, 0)->message);
		segc_ctx_free(ctx);
		return 2;
	}
	s = segc_expr_to_string(e);
	printf("%s\n", s);
	free(s);
	segc_expr_free(e);
	segc_ctx_free(ctx);
	segc_library_cleanup();
	return 0;
}
