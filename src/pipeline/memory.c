/* memory.c - segc_memory_guard(), the memory policy of the whole library
 * (segc.h): the base installs it for its own allocations and GMP's, the
 * XML stage for libxml2's; this, above both, does the two.  Also
 * segc_library_cleanup(), the release of what a thread's runs keep. */
#include <config.h>

#include <flint/flint.h>

#include <segc/segc.h>
#include "xml/xmlread.h"
#include "expr/expr_private.h"
#include "algebra/poly/poly.h"
#include "base/util.h"

/* Installs the failure path of the memory policy (segc.h). */
void segc_memory_guard(segc_oom_handler handler)
{
	segc_xml_memory_setup();
	segc_memory_guard_base(handler);
}

/* Releases the calling thread's store of expressions and the blocks of
 * polynomials it keeps (polybuf.c), then the caches FLINT keeps for
 * this thread (its free big integers, and through it MPFR's constants;
 * segc.h).  FLINT 2.9 is built with thread-local
 * caches here, so flint_cleanup() frees those of the calling thread
 * alone; it frees nothing in use, and a later call of FLINT or MPFR
 * builds its caches again. */
void segc_library_cleanup(void)
{
	segc_expr_store_cleanup();
	segc_poly_buffers_release();
	flint_cleanup();
}
