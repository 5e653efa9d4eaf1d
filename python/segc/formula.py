"""Formula: a timing formula of segc as a Python object - its text and
LaTeX, equality by canonical form, check with a witness, exact and
vectorized evaluation, SymPy, free names and declared domains."""

from fractions import Fraction

from segc._native import ffi, lib
from segc import _core
from segc._core import Context, take_text, text, expr_handle


class Domain:
    """What a model declares about a name: 'min' and 'max' (Fractions,
    None where unbounded) and 'integer'."""

    __slots__ = ("min", "max", "integer")

    def __init__(self, lo, hi, integer):
        self.min, self.max, self.integer = lo, hi, integer

    def __eq__(self, other):
        return isinstance(other, Domain) and (self.min, self.max,
            self.integer) == (other.min, other.max, other.integer)

    def __repr__(self):
        return "Domain(min=%r, max=%r, integer=%r)" % (self.min, self.max,
                                                        self.integer)


class CheckResult:
    """The verdict of Formula.check: 'verdict' is "ok" (equal canonical
    forms), "MISMATCH" (a witness found) or "UNPROVEN"; 'witness' the
    point (name -> Fraction) where they differ, 'values' the two values
    there (a Fraction when exact, else the text of an interval), 'tried'
    the points tried.  True as a bool only when "ok"."""

    def __init__(self, verdict, witness=None, values=None, tried=0,
                 functions=()):
        self.verdict = verdict
        self.witness = witness or {}
        self.values = values
        self.tried = tried
        self.functions = list(functions)

    def __bool__(self):
        return self.verdict == "ok"

    def __repr__(self):
        if self.verdict == "MISMATCH":
            return "CheckResult(MISMATCH, witness=%r, values=%r)" % (
                self.witness, self.values)
        return "CheckResult(%s)" % self.verdict


# The points the witness search tries, as 'segc check' does.
CHECK_POINTS = 200


class Formula:
    """A formula: an immutable expression of the library, derived under a
    setting (a model, a machine, bindings) whose declared domains its
    comparisons use.  Made by Model.derive, Formula.parse and the
    analyses."""

    def __init__(self, ptr, setting=None, limits=None):
        self._ptr = ptr
        self._setting = setting
        self._limits = dict(limits or {})
        self._canon = None
        self._vector = None

    # ------------------------------------------------------------ making

    @classmethod
    def parse(cls, text_, setting=None, **limits):
        """The formula of 'text_' in the expression language; with a
        setting (Model.setting) its lets, functions, bindings and machine
        are applied and its names checked."""
        with Context(limits) as ctx:
            where = ffi.new("segc_where *")
            what = _core.cstr("the formula")
            where.what = what
            e = lib.segc_expr_parse(ctx.ptr, text_.encode("utf-8"), where)
            if e == ffi.NULL:
                ctx.fail()
            if setting is not None:
                e = lib.segc_setting_apply(ctx.ptr, setting.ptr, e, where)
                if e == ffi.NULL:
                    ctx.fail()
            return cls(expr_handle(e), setting, limits)

    def _other(self, other):
        """'other' as a Formula under this one's setting."""
        if isinstance(other, Formula):
            return other
        if isinstance(other, str):
            return Formula.parse(other, self._setting, **self._limits)
        if isinstance(other, (int, Fraction)):
            return Formula.parse(str(Fraction(other)), None, **self._limits)
        raise TypeError("cannot compare a Formula with %r" % (other,))

    # ---------------------------------------------------------- printing

    def __str__(self):
        # As the command prints it: the nodes of a longest path of the
        # model's task graph by their ids.
        model = getattr(self._setting, "model", None)
        n = lib.segc_model_task_nodes(model._ptr) if model else 0
        if not n:
            return take_text(lib.segc_expr_to_string(self._ptr))
        ids = [lib.segc_model_task_node(model._ptr, k) for k in range(n)]
        return take_text(lib.segc_expr_to_string_nodes(
            self._ptr, ffi.new("const char *[]", ids), n))

    def __repr__(self):
        return "Formula(%r)" % str(self)

    def latex(self):
        """The formula as LaTeX math (no surrounding $), names typeset as
        the model's 'latex' attributes say."""
        names = ffi.new("segc_latex_names *")
        model = self._setting.model if self._setting else None
        if model is not None:
            with Context(self._limits) as ctx:
                if lib.segc_latex_names_of_model(ctx.ptr, model._ptr,
                                                 names):
                    ctx.fail()
        try:
            return take_text(lib.segc_latex_expr(self._ptr, names))
        finally:
            lib.segc_latex_names_clear(names)

    def _repr_latex_(self):
        return "$%s$" % self.latex()

    # ------------------------------------------------------- comparisons

    def _domains(self, ctx):
        """The declared domains of the setting (a segc_domains or NULL)."""
        if self._setting is None:
            return ffi.NULL
        d = lib.segc_setting_domains(ctx.ptr, self._setting.ptr)
        if d == ffi.NULL:
            ctx.fail()
        return ffi.gc(d, lib.segc_domains_free)

    def canonical(self):
        """The canonical form under the declared domains (a Formula)."""
        if self._canon is None:
            with Context(self._limits) as ctx:
                dom = self._domains(ctx)
                c = lib.segc_canonical(ctx.ptr, dom,
                                       lib.segc_expr_copy(self._ptr))
                if c == ffi.NULL:
                    ctx.fail()
                self._canon = Formula(expr_handle(c), self._setting,
                                      self._limits)
                self._canon._canon = self._canon
        return self._canon

    def __eq__(self, other):
        if not isinstance(other, (Formula, str, int, Fraction)):
            return NotImplemented
        a = self.canonical()._ptr
        b = self._other(other).canonical()._ptr
        return lib.segc_expr_cmp(a, b) == 0

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return int(lib.segc_expr_hash(self.canonical()._ptr))

    def __sub__(self, other):
        other = self._other(other)
        e = lib.segc_expr_sub2(lib.segc_expr_copy(self._ptr),
                               lib.segc_expr_copy(other._ptr))
        return Formula(expr_handle(e), self._setting, self._limits)

    def check(self, other, points=CHECK_POINTS):
        """Compares with 'other' (a Formula or text) as 'segc check'
        does: equal canonical forms prove them equal ("ok"); else a
        point of the declared domains where they differ ("MISMATCH",
        with the witness), else "UNPROVEN"."""
        other = self._other(other)
        if self == other:
            return CheckResult("ok")
        w = ffi.new("segc_witness *")
        lib.segc_witness_init(w)
        try:
            with Context(self._limits) as ctx:
                dom = self._domains(ctx)
                lib.segc_witness_search(w, dom, self._ptr, other._ptr,
                                        points)
            funcs = [text(w.functions[i]) for i in range(w.nfunctions)]
            if not w.found:
                return CheckResult("UNPROVEN", tried=int(w.tried),
                                   functions=funcs)
            point = {text(w.names[i]): _core.fraction_of_mpq(w.values + i)
                     for i in range(w.n)}
            values = (_witness_value(ffi.addressof(w.a)),
                      _witness_value(ffi.addressof(w.b)))
            return CheckResult("MISMATCH", point, values, int(w.tried),
                               funcs)
        finally:
            lib.segc_witness_clear(w)

    # ------------------------------------------------------------ names

    @property
    def free_names(self):
        """The free names, sorted."""
        out = ffi.new("const char ***")
        n = lib.segc_output_names(self._ptr, 0, out)
        try:
            return [text(out[0][i]) for i in range(n)]
        finally:
            if out[0] != ffi.NULL:
                lib.free(out[0])

    @property
    def domains(self):
        """The declared domain of each free name that has one."""
        result = {}
        with Context(self._limits) as ctx:
            dom = self._domains(ctx)
            if dom == ffi.NULL:
                return result
            lo = ffi.new("const __mpq_struct **")
            hi = ffi.new("const __mpq_struct **")
            integer = ffi.new("int *")
            for name in self.free_names:
                if lib.segc_domains_get(dom, name.encode(), lo, hi,
                                        integer):
                    result[name] = Domain(
                        None if lo[0] == ffi.NULL else
                        _core.fraction_of_mpq(lo[0]),
                        None if hi[0] == ffi.NULL else
                        _core.fraction_of_mpq(hi[0]), bool(integer[0]))
        return result

    # --------------------------------------------------------- evaluation

    def eval(self, values=None, **kwargs):
        """The value at a point: names given as keyword arguments (or a
        dict).  Numbers (int, Fraction, decimal str, float taken as its
        repr) give the exact value, a Fraction, where it is rational,
        else the double nearest to it.  numpy arrays (broadcast together,
        scalars too) give a float64 array, computed once for the whole
        array (segc.vector)."""
        values = dict(values or {}, **kwargs)
        if any(_is_array(v) for v in values.values()):
            from segc import vector
            if self._vector is None:
                self._vector = vector.compile_formula(self)
            return self._vector(values)
        return self._eval_point(values)

    def _eval_point(self, values):
        """The exact (Fraction) or rounded (float) value at one point."""
        point = _core.Point({k: _core.exact(v, k)
                             for k, v in values.items()})
        with Context(self._limits) as ctx:
            q = _core.mpq(Fraction(0))
            r = lib.segc_eval_exact(ctx.ptr, q.ptr, self._ptr, point.ptr,
                                    ffi.NULL)
            if r == 0:
                return _core.fraction_of_mpq(q.ptr)
            if r < 0:
                ctx.fail()
            x = ffi.new("__mpfr_struct *")
            lib.mpfr_init2(x, 53)
            try:
                if lib.segc_eval_mpfr(ctx.ptr, x, self._ptr, point.ptr,
                                      ffi.NULL):
                    ctx.fail()
                return lib.mpfr_get_d(x, 0)
            finally:
                lib.mpfr_clear(x)

    def to_sympy(self):
        """The formula as a SymPy expression: sums as Piecewise-guarded
        Sums that are 0 over an empty range, as the loops are."""
        from segc import sympy_form
        return sympy_form.convert(self)


def _is_array(v):
    """Non-zero when 'v' is a numpy array or a list of values."""
    return hasattr(v, "__array__") or isinstance(v, (list, tuple))


def _witness_value(v):
    """A witness value: a Fraction when exact, else its interval text."""
    lo = _core.fraction_of_mpq(ffi.addressof(v.lo))
    hi = _core.fraction_of_mpq(ffi.addressof(v.hi))
    if lo == hi:
        return lo
    return take_text(lib.segc_witness_value_text(v))
