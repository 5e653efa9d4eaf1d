/* memory.c - segc_memory_guard(): the one failure path of the memory
 * policy (segc.h), installed for every allocator the library uses: its
 * own and GMP's (src/base), and libxml2's (src/xml). */
#include <config.h>

#include <segc/segc.h>
#include "xml/xmlread.h"
#include "base/util.h"

/* Installs the failure path of the memory policy (segc.h). */
void segc_memory_guard(segc_oom_handler handler)
{
	segc_base_memory_guard(handler);
	segc_xml_memory_setup();
}
