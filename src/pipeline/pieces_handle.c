/* pieces_handle.c - the public handle on the pieces of a formula of one variable
 * (<segc/analysis.h>): made on the heap around the private builder of
 * src/analysis/pieces.c, so that users never see its layout. */
#include <config.h>

#include <segc/analysis.h>
#include "analysis/analysis.h"
#include <stdlib.h>
#include "base/util.h"

/* Cuts 'f' over [lo, hi] into new pieces; NULL with a diagnostic. */
segc_pieces *segc_pieces_new(segc_ctx *ctx, const segc_expr *f,
	const char *var, mpq_srcptr lo, mpq_srcptr hi, const char *file)
{
	segc_pieces *ps = segc_xmalloc(sizeof *ps);

	if (segc_pieces_build(ctx, ps, f, var, lo, hi, file)) {
		segc_pieces_clear(ps);
		free(ps);
		return NULL;
	}
	return ps;
}

/* Releases 'ps' (may be NULL). */
void segc_pieces_free(segc_pieces *ps)
{
	if (!ps)
		return;
	segc_pieces_clear(ps);
	free(ps);
}

/* The number of kernels of the variable the pieces are cut at. */
size_t segc_pieces_nkernels(const segc_pieces *ps)
{
	return ps->nkernels;
}

/* m = 1 + max |a_i / a_n| over the numerator of the first piece. */
void segc_pieces_root_bound(mpq_t m, const segc_pieces *ps)
{
	const segc_upoly *p = &ps->p[0].num;
	mpq_t t;
	size_t i;

	mpq_init(t);
	mpq_set_ui(m, 0, 1);
	for (i = 0; i + 1 < p->len; i++) {
		mpq_div(t, p->c[i], p->c[p->len - 1]);
		mpq_abs(t, t);
		if (mpq_cmp(t, m) > 0)
			mpq_set(m, t);
	}
	mpq_set_ui(t, 1, 1);
	mpq_add(m, m, t);
	mpq_clear(t);
}
