/* emit_root.c - the odd roots x^(1/q) (q >= 3; plan_poly.c takes the
 * factors 2 of a root's index by sqrt) of the emitted predictors, to
 * within about half an ulp in every language.  C's cbrt is not correctly
 * rounded (glibc's was up to 3.25 ulp off over 7 * 10^5 arguments,
 * against MPFR), and pow(x, 1.0 / q) raises x to a rounded exponent, off by
 * up to 745/q u.  Each predictor therefore refines that first value r by
 * one Newton step, r - (r^q - x) / (q * r^(q-1)), with the residual
 * r^q - x computed in double-double: r^q as hi + lo by q - 1 products
 * whose errors Dekker's TwoProd finds by splitting (exact without a
 * fused multiply-add, so C, Python, numpy and Fortran compute the same
 * doubles), hi - x exact (Sterbenz: hi is within a factor 2 of x).  The
 * step's error is second order in r's, so the result is the root of the
 * double x to within half an ulp and about 2^-80 relative (over the
 * same arguments, for q = 3, 5 and 7, none was more than 0.5000 ulp
 * off).  So that neither
 * the splitting overflows nor the products' low parts underflow, x is
 * first written 2^(k*q) * y with y in (2^-q, 2^q) (frexp, ldexp: exact),
 * and the root is 2^k times y's.  For x <= 0, an infinity or NaN, and
 * for q > 63 (q - 1 products per call), the first value stays. */
#include "output/emit_private.h"

/* The helper in C. */
static const char c_root[] =
	"\n/* x^(1/q) for an odd q >= 3, within about half an ulp: for x > 0 and"
	"\n * q <= 63, x = 2^(k*q) * y exactly, cbrt(y) or pow(y, 1.0 / q) refined"
	"\n * by one Newton step whose residual r^q - y is computed in"
	"\n * double-double (Dekker's TwoProd by splitting), times 2^k; else"
	"\n * cbrt(x) or pow(x, 1.0 / q). */\n"
	"static double segc_root(double x, int q)\n{\n"
	"\tdouble y, r, d, rh, rl, ph, pl;\n\tint e, k;\n\n"
	"\tif (!(x > 0 && isfinite(x)) || q > 63)\n"
	"\t\treturn q == 3 ? cbrt(x) : pow(x, 1.0 / (double)q);\n"
	"\t(void)frexp(x, &e);\n\tk = e / q;\n\ty = ldexp(x, -k * q);\n"
	"\tr = q == 3 ? cbrt(y) : pow(y, 1.0 / (double)q);\n"
	"\td = 134217729.0 * r;\n\trh = d - (d - r);\n\trl = r - rh;\n"
	"\tph = r;\n\tpl = 0;\n"
	"\tfor (e = 1; e < q; e++) {\n"
	"\t\tconst double p = ph * r, c = 134217729.0 * ph;\n"
	"\t\tconst double hh = c - (c - ph), hl = ph - hh;\n"
	"\t\tconst double t = (((hh * rh - p) + hh * rl) + hl * rh) + "
	"hl * rl;\n"
	"\t\tconst double l = pl * r + t;\n\n"
	"\t\tph = p + l;\n\t\tpl = l - (ph - p);\n\t}\n"
	"\treturn ldexp(r - ((ph - y) + pl) / ((double)q * (ph / r)), k);\n"
	"}\n";

/* The helper in Python, for one float. */
static const char py_root[] =
	"\n\ndef _segc_root(x, q):\n"
	"    \"\"\"x**(1/q) for an odd q >= 3, within about half an ulp: for "
	"x > 0 and\n    q <= 63, x = 2**(k*q) * y exactly, C's cbrt(y) or "
	"pow(y, 1.0 / q) refined\n    by one Newton step whose residual "
	"r**q - y is computed in\n    double-double (Dekker's TwoProd by "
	"splitting), times 2**k; else C's\n    cbrt(x) or pow(x, 1.0 / q)."
	"\"\"\"\n"
	"    if not 0.0 < x < math.inf or q > 63:\n"
	"        if q == 3:\n            return math.cbrt(x)\n"
	"        return math.pow(x, 1.0 / q) if x >= 0.0 else math.nan\n"
	"    e = math.frexp(x)[1]\n"
	"    k = e // q if e >= 0 else -(-e // q)\n"
	"    y = math.ldexp(x, -k * q)\n"
	"    r = math.cbrt(y) if q == 3 else math.pow(y, 1.0 / q)\n"
	"    d = 134217729.0 * r\n    rh = d - (d - r)\n    rl = r - rh\n"
	"    ph, pl = r, 0.0\n"
	"    for _ in range(q - 1):\n"
	"        p = ph * r\n        c = 134217729.0 * ph\n"
	"        hh = c - (c - ph)\n        hl = ph - hh\n"
	"        t = (((hh * rh - p) + hh * rl) + hl * rh) + hl * rl\n"
	"        l = pl * r + t\n        ph = p + l\n        pl = l - (ph - p)\n"
	"    return math.ldexp(r - ((ph - y) + pl) / (float(q) * (ph / r)), "
	"k)\n";

/* The helper in Python over numpy arrays. */
static const char np_root[] =
	"\n\ndef _segc_root_v(x, q):\n"
	"    \"\"\"_segc_root at every element of the array x.\"\"\"\n"
	"    np = _segc_numpy()\n"
	"    with np.errstate(all='ignore'):\n"
	"        first = np.cbrt(x) if q == 3 else np.power(x, 1.0 / q)\n"
	"        if q > 63:\n            return first\n"
	"        ok = (x > 0.0) & (x < np.inf)\n"
	"        e = np.frexp(np.where(ok, x, 1.0))[1]\n"
	"        k = np.where(e >= 0, e // q, -(-e // q))\n"
	"        y = np.ldexp(np.where(ok, x, 1.0), -k * q)\n"
	"        r = np.cbrt(y) if q == 3 else np.power(y, 1.0 / q)\n"
	"        d = 134217729.0 * r\n        rh = d - (d - r)\n"
	"        rl = r - rh\n"
	"        ph, pl = r, np.zeros_like(r)\n"
	"        for _ in range(q - 1):\n"
	"            p = ph * r\n            c = 134217729.0 * ph\n"
	"            hh = c - (c - ph)\n            hl = ph - hh\n"
	"            t = (((hh * rh - p) + hh * rl) + hl * rh) + hl * rl\n"
	"            l = pl * r + t\n            ph = p + l\n"
	"            pl = l - (ph - p)\n"
	"        s = np.ldexp(r - ((ph - y) + pl) / (float(q) * (ph / r)), k)\n"
	"        return np.where(ok, s, first)\n";

/* The helper in Fortran (a module procedure; segc_cbrt and segc_pow are
 * C's cbrt and pow through bind(c) interfaces; exponent and scale are
 * frexp's exponent and ldexp). */
static const char f_root[] =
	"\n  ! x**(1/q) for an odd q >= 3, within about half an ulp: for x > 0 "
	"and\n  ! q <= 63, x = 2**(k*q) * y exactly, C's cbrt(y) or "
	"pow(y, 1.0 / q) refined\n  ! by one Newton step whose residual "
	"r**q - y is computed in\n  ! double-double (Dekker's TwoProd by "
	"splitting), times 2**k; else C's\n  ! cbrt(x) or pow(x, 1.0 / q).\n"
	"  pure function segc_root(x, q) result(r)\n"
	"    real(c_double), intent(in) :: x\n"
	"    integer, intent(in) :: q\n"
	"    real(c_double) :: r, y, d, rh, rl, ph, pl, p, c, hh, hl, t, l\n"
	"    integer :: j, k\n"
	"    if (.not. (x > 0.0_c_double .and. x <= huge(x)) .or. q > 63) "
	"then\n"
	"      if (q == 3) then\n        r = segc_cbrt(x)\n      else\n"
	"        r = segc_pow(x, 1.0_c_double / real(q, c_double))\n"
	"      end if\n      return\n    end if\n"
	"    k = exponent(x) / q\n    y = scale(x, -k * q)\n"
	"    if (q == 3) then\n      r = segc_cbrt(y)\n    else\n"
	"      r = segc_pow(y, 1.0_c_double / real(q, c_double))\n"
	"    end if\n"
	"    d = 134217729.0_c_double * r\n    rh = d - (d - r)\n"
	"    rl = r - rh\n    ph = r\n    pl = 0.0_c_double\n"
	"    do j = 1, q - 1\n"
	"      p = ph * r\n      c = 134217729.0_c_double * ph\n"
	"      hh = c - (c - ph)\n      hl = ph - hh\n"
	"      t = (((hh * rh - p) + hh * rl) + hl * rh) + hl * rl\n"
	"      l = pl * r + t\n      ph = p + l\n      pl = l - (ph - p)\n"
	"    end do\n"
	"    r = scale(r - ((ph - y) + pl) / (real(q, c_double) * (ph / r)), "
	"k)\n"
	"  end function segc_root\n";

/* See emit_private.h. */
void segc_emit_root_helper(segc_strbuf *b, enum segc_emit_lang lang)
{
	static const char *const text[] = { c_root, py_root, np_root, f_root };

	segc_strbuf_append(b, text[lang]);
}
