"""The analyses of a model's formulas (the commands optimize, solve,
whatif and sensitivity) and its predictor (emit), over the library's
analysis.h and emit.h, returning Python objects."""

from fractions import Fraction

from segc._native import ffi, lib
from segc import _core
from segc._core import Context, cstr, take_text, text
from segc.errors import Diagnostic, InputError
from segc.formula import Formula


def _input_error(message):
    """An InputError of one diagnostic without a place."""
    return InputError([Diagnostic(2, None, 0, 0, message)])


def _quantity_expr(ctx, s, text_):
    """The structural expression of quantity 'text_' (owned pointer)."""
    where = ffi.new("segc_where *")
    what = cstr("the quantity")
    where.what = what
    e = lib.segc_quantity(ctx.ptr, s.ptr, text_.encode(), where)
    if e == ffi.NULL:
        ctx.fail()
    return e


def _canonical(ctx, s, e, var=None, lo=None, hi=None):
    """segc_quantity_canonical of owned 'e' (confined to [lo, hi])."""
    qlo = _core.mpq(lo) if var else None
    qhi = _core.mpq(hi) if var else None
    c = lib.segc_quantity_canonical(
        ctx.ptr, s.ptr, e, var.encode() if var else ffi.NULL,
        qlo.ptr if var else ffi.NULL, qhi.ptr if var else ffi.NULL)
    if c == ffi.NULL:
        ctx.fail()
    return c


def quantity(s, text_):
    """The canonical Formula of a quantity under setting 's'."""
    with Context(s.limits) as ctx:
        return s.formula(_canonical(ctx, s, _quantity_expr(ctx, s, text_)))


def _range(over, what):
    """(NAME, A, B) from a tuple or "NAME=A..B", A and B exact."""
    if isinstance(over, str):
        name, sep, rng = over.partition("=")
        lo, sep2, hi = rng.partition("..")
        if not sep or not sep2:
            raise _input_error("%s: %r is not NAME=A..B" % (what, over))
        over = (name.strip(), Formula.parse(lo).eval(),
                Formula.parse(hi).eval())
    name, lo, hi = over
    _core.check_name(name, what)
    lo, hi = _core.exact(lo, what), _core.exact(hi, what)
    if lo > hi:
        raise _input_error("%s: the range %s..%s is empty" % (what, lo, hi))
    return name, lo, hi


class Optimum:
    """The certified optimum: 'var' = 'best' (an int) where the quantity
    is 'value' (a Fraction); 'pieces', 'stationary' (decimal texts),
    'candidates' (ints compared) and 'scanned' (every integer compared)
    say how it was certified."""

    def __init__(self, var, o):
        self.var = var
        self.best = _core.int_of_mpz(ffi.addressof(o.best))
        self.value = _core.fraction_of_mpq(ffi.addressof(o.value))
        self.pieces = int(o.npieces)
        self.stationary = [text(o.stat[i]) for i in range(o.nstat)]
        self.candidates = [_core.int_of_mpz(o.cand + i)
                           for i in range(o.ncand)]
        self.scanned = bool(o.scanned)

    def __repr__(self):
        return "Optimum(%s=%d, value=%s)" % (self.var, self.best,
                                              self.value)


def _pieces(ctx, s, e, var, lo, hi):
    """The pieces of 'e', or None when the range may be scanned."""
    trial = Context(s.limits)
    qlo, qhi = _core.mpq(lo), _core.mpq(hi)
    ps = lib.segc_pieces_new(trial.ptr, e, var.encode(), qlo.ptr, qhi.ptr,
                             ffi.NULL)
    if ps != ffi.NULL:
        return ffi.gc(ps, lib.segc_pieces_free)
    import math
    small = math.floor(hi) - math.ceil(lo) < 10000
    if lib.segc_ctx_status(trial.ptr) == lib.SEGC_ERR_INPUT and small:
        return None
    trial.fail()


def optimize(s, quantity_text, over, maximize):
    """The Optimum of a quantity over the integers of a range."""
    var, lo, hi = _range(over, "over")
    s._declared(var)
    if var in s.bound:
        raise _input_error("'%s' is both bound and varied" % var)
    with Context(s.limits) as ctx:
        e = _canonical(ctx, s, _quantity_expr(ctx, s, quantity_text),
                       var, lo, hi)
        f = s.formula(e)
        o = ffi.new("segc_optimum *")
        ps = _pieces(ctx, s, f._ptr, var, lo, hi)
        if ps is None:
            qlo, qhi = _core.mpq(lo), _core.mpq(hi)
            r = lib.segc_optimize_scan(ctx.ptr, o, f._ptr, var.encode(),
                                       qlo.ptr, qhi.ptr, int(maximize),
                                       ffi.NULL)
        else:
            r = lib.segc_optimize(ctx.ptr, o, ps, int(maximize),
                                  var.encode(), ffi.NULL)
        try:
            if r:
                ctx.fail()
            return Optimum(var, o)
        finally:
            lib.segc_optimum_clear(o)


class Solution:
    """The real roots of an equation: 'roots' (decimal texts, or exact
    fractions), 'exact' (a bool for each), 'intervals' where it holds
    throughout ("A..B"), 'jumps' where the sides cross at a jump."""

    def __init__(self, sol):
        self.roots = [text(sol.root[i]) for i in range(sol.n)]
        self.exact = [bool(sol.exact[i]) for i in range(sol.n)]
        self.intervals = [text(sol.zero[i]) for i in range(sol.nzero)]
        self.jumps = [text(sol.jump[i]) for i in range(sol.njump)]

    def __repr__(self):
        return "Solution(roots=%r, intervals=%r, jumps=%r)" % (
            self.roots, self.intervals, self.jumps)


def _equation(equation):
    """LEFT, RIGHT of "LEFT = RIGHT" (RIGHT "0" without '=')."""
    cut = [i for i, ch in enumerate(equation) if ch == "=" and
           (i == 0 or equation[i - 1] not in "<>!=") and
           equation[i + 1:i + 2] != "="]
    if len(cut) > 1:
        raise _input_error("%r is not an equation LEFT = RIGHT" % equation)
    if not cut:
        return equation, "0"
    return equation[:cut[0]], equation[cut[0] + 1:]


def solve(s, equation, var, within, digits):
    """The Solution of 'equation' in 'var' over 'within'."""
    _core.check_name(var, "var")
    s._declared(var)
    left, right = _equation(equation)
    if within is None:
        d = Formula.parse(var, s).domains.get(var)
        if d is None or d.min is None or d.max is None:
            raise _input_error("give within=(A, B): the declared domain "
                               "of '%s' is not bounded" % var)
        within = (d.min, d.max)
    _, lo, hi = _range((var,) + tuple(within), "within")
    with Context(s.limits) as ctx:
        a = _quantity_expr(ctx, s, left)
        b = _quantity_expr(ctx, s, right)
        e = s.formula(_canonical(ctx, s, lib.segc_expr_sub2(a, b), var,
                                 lo, hi))
        qlo, qhi = _core.mpq(lo), _core.mpq(hi)
        ps = lib.segc_pieces_new(ctx.ptr, e._ptr, var.encode(), qlo.ptr,
                                 qhi.ptr, ffi.NULL)
        if ps == ffi.NULL:
            ctx.fail()
        ps = ffi.gc(ps, lib.segc_pieces_free)
        sol = ffi.new("segc_solution *")
        r = lib.segc_solve(ctx.ptr, sol, ps, int(digits), ffi.NULL)
        try:
            if r:
                ctx.fail()
            return Solution(sol)
        finally:
            lib.segc_solution_clear(sol)


class WhatIf:
    """A scenario: the formulas 'before' and 'after' (canonical) and the
    exact 'speedup' before/after."""

    def __init__(self, before, after, speedup):
        self.before, self.after, self.speedup = before, after, speedup

    def __repr__(self):
        return "WhatIf(speedup=%s)" % self.speedup


def whatif(s, factor, names, cls, component):
    """The WhatIf of costs scaled by 'factor'."""
    from segc.model import _component
    comp = _component(component)
    if bool(names) == (cls is not None):
        raise _input_error("give the costs scaled: names or cls")
    with Context(s.limits) as ctx:
        before = lib.segc_derive_canonical(ctx.ptr, s.ptr, comp)
        if before == ffi.NULL:
            ctx.fail()
        before = s.formula(before)
        if lib.segc_expr_is_zero(before._ptr):
            raise _input_error("the %s is 0: it has no speedup" % component)
        q = _core.mpq(factor)
        if cls is not None:
            e = lib.segc_scale_class(ctx.ptr, s.ptr, comp, _component(cls),
                                     q.ptr)
        else:
            keep = [cstr(n) for n in names]
            arr = ffi.new("const char *[]", keep)
            e = lib.segc_scale_names(ctx.ptr, s.ptr, comp, len(keep), arr,
                                     q.ptr)
        if e == ffi.NULL:
            ctx.fail()
        after = s.formula(_canonical(ctx, s, e))
        sp = lib.segc_scale_speedup(ctx.ptr, s.ptr, before._ptr,
                                    after._ptr)
        if sp == ffi.NULL:
            ctx.fail()
        return WhatIf(before, after, s.formula(sp))


def sensitivity(s, component):
    """name -> (derivative, elasticity) for every free name."""
    from segc.model import _component
    comp = _component(component)
    with Context(s.limits) as ctx:
        t = lib.segc_derive_canonical(ctx.ptr, s.ptr, comp)
        if t == ffi.NULL:
            ctx.fail()
        t = s.formula(t)
        if lib.segc_expr_is_zero(t._ptr):
            raise _input_error("the formula is 0: it has no elasticities")
        out = {}
        for name in t.free_names:
            d = lib.segc_expr_diff(ctx.ptr, t._ptr, name.encode())
            if d == ffi.NULL:
                ctx.fail()
            d = s.formula(_canonical(ctx, s, d))
            el = lib.segc_expr_div2(lib.segc_expr_mul2(
                lib.segc_expr_sym(name.encode()),
                lib.segc_expr_copy(d._ptr)), lib.segc_expr_copy(t._ptr))
            out[name] = (d, s.formula(_canonical(ctx, s, el)))
        return out


def emit(s, lang, base, keep, prefix, accurate, with_main):
    """{file name: text} of the predictor of the setting's model."""
    if lang not in ("c", "python"):
        raise ValueError("lang %r: c or python" % (lang,))
    import os
    base = os.path.basename(base)
    names = [cstr(n) for n in ("N", "P") + tuple(keep)]
    args = ffi.new("const char *[]", names)
    inp = ffi.new("segc_emit_input *")
    keepalive = [cstr(s.model.name or ""), cstr(base),
                 cstr(prefix or base),
                 cstr(s.model.description or "")]
    inp.model_name = keepalive[0]
    inp.base = keepalive[1]
    inp.prefix = keepalive[2]
    inp.description = keepalive[3] if s.model.description else ffi.NULL
    inp.nargs = len(names)
    inp.args = args
    inp.with_main = int(with_main)
    inp.accurate = int(accurate)
    t = ffi.new("segc_templates *")
    lib.segc_templates_builtin(t)
    out1 = ffi.new("char **")
    out2 = ffi.new("char **")
    try:
        with Context(s.limits) as ctx:
            where = ffi.new("segc_where *")
            fname = cstr(s.model.file or "")
            where.file = fname
            # As the command does: the structural form of every
            # component, its sums made stable under the domains.
            dom = lib.segc_setting_domains(ctx.ptr, s.ptr)
            if dom != ffi.NULL:
                keepalive.append(ffi.gc(dom, lib.segc_domains_free))
            inp.domains = dom
            st = ffi.new("segc_expr *[4]")
            rc = lib.segc_derive_components(ctx.ptr, s.ptr, 0, 0xf, st)
            for k in range(4):
                if not rc and st[k] != ffi.NULL:
                    inp.formulas[k] = lib.segc_emit_stable_form(
                        ctx.ptr, dom, st[k])
                    if inp.formulas[k] == ffi.NULL:
                        rc = -1
                lib.segc_expr_free(st[k])
            if rc:
                ctx.fail()
            if lang == "python":
                r = lib.segc_emit_render_python(ctx.ptr, t, inp, where, out1)
            else:
                r = lib.segc_emit_render(ctx.ptr, t, inp, where, out1, out2)
            if r:
                ctx.fail()
            if lang == "python":
                return {base + ".py": take_text(out1[0])}
            return {base + ".c": take_text(out1[0]),
                    base + ".h": take_text(out2[0])}
    finally:
        for k in range(4):
            if inp.formulas[k] != ffi.NULL:
                lib.segc_expr_free(inp.formulas[k])
        lib.segc_templates_clear(t)
