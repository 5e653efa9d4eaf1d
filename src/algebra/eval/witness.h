/* witness.h - looking for a point of the declared domains where two
 * formulas differ.  The interface is public (<segc/check.h>); this header
 * stays for the library's own includes. */
#ifndef SEGC_WITNESS_H
#define SEGC_WITNESS_H

#include <segc/check.h>

#endif
