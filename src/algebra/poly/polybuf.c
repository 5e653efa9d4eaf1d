/* polybuf.c - the buffers of large polynomials that a thread keeps for
 * its next ones.
 *
 * A long result (the 10^4 terms of a power, say) takes half a megabyte
 * of exponents and as much of coefficients, written once and freed when
 * the expression that holds it dies.  Given back to the C library, such
 * blocks go back to the system, and the next result of the same size
 * meets every page of them anew.  Kept here instead, a few of them serve
 * the next polynomials of about their size.  The cache is the calling
 * thread's own, as the store of expressions is, and bounded: at most
 * POLYBUF_SLOTS blocks of at least POLYBUF_MIN_BYTES, POLYBUF_MAX_BYTES
 * in all; segc_poly_buffers_release() (called by
 * segc_library_cleanup()) frees them. */
#include <stdlib.h>
#include "algebra/poly/poly.h"
#include "algebra/poly/poly_private.h"
#include "base/util.h"

/* The smallest block kept, the number of blocks and their total. */
#define POLYBUF_MIN_BYTES ((size_t)64 << 10)
#define POLYBUF_SLOTS 8
#define POLYBUF_MAX_BYTES ((size_t)8 << 20)

/* The blocks kept by the calling thread: block[i] of bytes[i] bytes, or
 * NULL. */
static _Thread_local struct {
	void *block[POLYBUF_SLOTS];
	size_t bytes[POLYBUF_SLOTS];
	size_t total;
} kept;

/* See poly_private.h: the smallest kept block of at least 'bytes' and at
 * most twice that, else a new one. */
void *segc_poly_buf_take(size_t bytes)
{
	size_t i, best = POLYBUF_SLOTS;
	void *b;

	if (bytes >= POLYBUF_MIN_BYTES)
		for (i = 0; i < POLYBUF_SLOTS; i++)
			if (kept.block[i] && kept.bytes[i] >= bytes &&
			    kept.bytes[i] / 2 <= bytes &&
			    (best == POLYBUF_SLOTS ||
			     kept.bytes[i] < kept.bytes[best]))
				best = i;
	if (best == POLYBUF_SLOTS)
		return segc_xmalloc(bytes ? bytes : 1);
	b = kept.block[best];
	kept.block[best] = NULL;
	kept.total -= kept.bytes[best];
	return b;
}

/* See poly_private.h: kept when it is large and there is room, else
 * freed. */
void segc_poly_buf_give(void *b, size_t bytes)
{
	size_t i;

	if (b && bytes >= POLYBUF_MIN_BYTES &&
	    bytes <= POLYBUF_MAX_BYTES - kept.total)
		for (i = 0; i < POLYBUF_SLOTS; i++)
			if (!kept.block[i]) {
				kept.block[i] = b;
				kept.bytes[i] = bytes;
				kept.total += bytes;
				return;
			}
	free(b);
}

/* See poly.h. */
size_t segc_poly_buffers_kept(void)
{
	return kept.total;
}

/* See poly.h. */
void segc_poly_buffers_release(void)
{
	size_t i;

	for (i = 0; i < POLYBUF_SLOTS; i++) {
		free(kept.block[i]);
		kept.block[i] = NULL;
	}
	kept.total = 0;
}
