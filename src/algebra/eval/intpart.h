/* intpart.h - exact floor and ceil of c*y^(1/q) + d and c*log2(x) + d at
 * rational c, d, x, y (intpart.c).  Not installed. */
#ifndef SEGC_INTPART_H
#define SEGC_INTPART_H

#include <stddef.h>
#include <gmp.h>

/* r = floor (ceil when 'up') of c*y^(1/q) + d, the real q-th root (q >=
 * 1; y >= 0 when q is even); 0, or -1 when y has no real root or a power
 * on the way takes more than 'max_bits' bits. */
int segc_intpart_root(mpz_t r, mpq_srcptr c, mpq_srcptr y, unsigned long q,
	mpq_srcptr d, int up, size_t max_bits);

/* r = floor (ceil when 'up') of c*log2(x) + d for x > 0; 0, or -1 when
 * x <= 0 or a power on the way takes more than 'max_bits' bits. */
int segc_intpart_log2(mpz_t r, mpq_srcptr c, mpq_srcptr x, mpq_srcptr d,
	int up, size_t max_bits);

#endif
