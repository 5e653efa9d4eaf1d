/* memory.c - segc_memory_guard(), the memory policy of the whole library
 * (segc.h): the base installs it for its own allocations and GMP's, the
 * XML stage for libxml2's; this, above both, does the two. */
#include <config.h>

#include <segc/segc.h>
#include "xml/xmlread.h"
#include "base/util.h"

/* Installs the failure path of the memory policy (segc.h). */
void segc_memory_guard(segc_oom_handler handler)
{
	segc_xml_memory_setup();
	segc_memory_guard_base(handler);
}
