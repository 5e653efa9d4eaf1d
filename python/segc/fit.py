"""Fitting a model's free names to measurements (segc fit) from a pandas
DataFrame, a dict of columns or CSV text: the values are passed to the
library's CSV reader as exact decimals (an int as written, a float as
the shortest decimal that gives it back, a Fraction whose denominator
divides a power of ten exactly, a str as written), so that the fit is
exact over the numbers the table holds."""

from fractions import Fraction
import numbers

from segc._native import ffi, lib
from segc import _core
from segc._core import Context, cstr, take_text, text
from segc.errors import Diagnostic, InputError

COMPONENTS = ("total", "comp", "comm", "io")


def _cell(v, column):
    """The CSV text of one value."""
    if isinstance(v, str):
        return v.strip()
    if isinstance(v, bool):
        raise ValueError("column %s: %r is not a number" % (column, v))
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Rational):
        return _decimal(Fraction(v), column)
    if isinstance(v, numbers.Real):
        f = float(v)
        if f != f or f in (float("inf"), float("-inf")):
            raise ValueError("column %s: %r is not finite" % (column, v))
        return repr(f)
    raise ValueError("column %s: %r is not a number" % (column, v))


def _decimal(q, column):
    """The exact decimal of 'q'; ValueError when it has none."""
    d = q.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        raise ValueError("column %s: %s has no exact decimal; give it as "
                         "a decimal str" % (column, q))
    k = max(twos, fives)
    n = abs(q.numerator) * 10 ** k // q.denominator
    s = str(n).rjust(k + 1, "0")
    s = s[:len(s) - k] + ("." + s[len(s) - k:] if k else "")
    return ("-" if q < 0 else "") + s


def _columns(data):
    """(names, columns of values) of a DataFrame or a dict of columns."""
    if hasattr(data, "columns") and hasattr(data, "__getitem__"):
        names = [str(c) for c in data.columns]
        return names, [list(data[c]) for c in data.columns]
    names = [str(c) for c in data]
    return names, [list(v) for v in data.values()]


def csv_text(data):
    """The CSV text of a DataFrame or dict of columns (the index of a
    DataFrame left out)."""
    if isinstance(data, str):
        return data
    names, cols = _columns(data)
    n = len(cols[0]) if cols else 0
    if any(len(c) != n for c in cols):
        raise ValueError("the columns have different lengths")
    lines = [",".join(names)]
    for i in range(n):
        lines.append(",".join(_cell(c[i], names[k])
                              for k, c in enumerate(cols)))
    return "\n".join(lines) + "\n"


class Equation:
    """One equation of a fit: the data row, the component measured, the
    measured and the fitted value (Fractions)."""

    __slots__ = ("row", "component", "measured", "fitted")

    def __init__(self, row, component, measured, fitted):
        self.row, self.component = row, component
        self.measured, self.fitted = measured, fitted

    def __repr__(self):
        return "Equation(row=%d, %s: measured %s, fitted %s)" % (
            self.row, self.component, self.measured, self.fitted)


class Fit:
    """The result of a fit: 'values' (name -> Fraction; exact for a
    linear fit), 'nonlinear' (and 'info': precision, iterations,
    stalled), 'equations', 'r2' (None when undefined), 'max_relative'
    (the largest relative error, None when there is none) and
    machine_xml()."""

    def __init__(self, ptr, setting, keep):
        self._ptr = ptr
        self._setting = setting
        self._keep = keep
        self.values = {text(lib.segc_fit_name(ptr, j)):
                       _core.fraction_of_mpq(lib.segc_fit_value(ptr, j))
                       for j in range(lib.segc_fit_nfree(ptr))}
        info = ffi.new("segc_fit_info *")
        self.nonlinear = bool(lib.segc_fit_nonlinear(ptr, info))
        self.info = {"precision": int(info.precision),
                     "iterations": int(info.iterations),
                     "stalled": bool(info.stalled)} if self.nonlinear \
            else None
        eq = ffi.new("segc_fit_equation *")
        self.equations = []
        for i in range(lib.segc_fit_nequations(ptr)):
            lib.segc_fit_equation_get(ptr, i, eq)
            self.equations.append(Equation(
                int(eq.row), COMPONENTS[eq.component],
                _core.fraction_of_mpq(eq.measured),
                _core.fraction_of_mpq(eq.fitted)))
        q = _core.mpq(Fraction(0))
        self.r2 = None if lib.segc_fit_r2(ptr, q.ptr) else \
            _core.fraction_of_mpq(q.ptr)
        at = ffi.new("size_t *")
        self.max_relative = None if lib.segc_fit_max_relative(
            ptr, q.ptr, at) else _core.fraction_of_mpq(q.ptr)

    def __getitem__(self, name):
        return self.values[name]

    def __repr__(self):
        return "Fit(%s)" % ", ".join("%s=%s" % kv
                                     for kv in self.values.items())

    def machine_xml(self, name=None, description=None):
        """A machine document binding each fitted name exactly: 'name'
        (by default the model's name and "_fit"), 'description' (by
        default "fitted by segc fit")."""
        name = name or "%s_fit" % self._setting.model.name
        description = description or "fitted by segc fit"
        return take_text(lib.segc_fit_machine_xml(
            self._ptr, self._setting.ptr, name.encode("utf-8"),
            description.encode("utf-8")))


def read_csv(ctx, data, name):
    """The segc_csv of 'data' (freed when collected)."""
    body = csv_text(data).encode("utf-8")
    csv = lib.segc_csv_read_string(ctx.ptr, (name or "<data>").encode(),
                                   body, len(body))
    if csv == ffi.NULL:
        ctx.fail()
    return ffi.gc(csv, lib.segc_csv_free)


def run(s, data, free, weight, start, max_iterations, columns, name):
    """The Fit of the names 'free' to 'data' under setting 's'."""
    if weight not in ("absolute", "relative"):
        raise ValueError("weight %r: absolute or relative" % (weight,))
    if columns:
        data = _renamed(data, columns)
    free = list(free)
    for n in free:
        _core.check_name(n, "free")
    start = dict(start or {})
    with Context(s.limits) as ctx:
        csv = read_csv(ctx, data, name)
        keep = [cstr(n) for n in free]
        names = ffi.new("const char *[]", keep or [ffi.NULL])
        skeep = [cstr(n) for n in start]
        snames = ffi.new("const char *[]", skeep or [ffi.NULL])
        svalues = _core.MpqArray([_core.exact(v, k)
                                  for k, v in start.items()])
        r = ffi.new("segc_fit_request *")
        r.setting = s.ptr
        r.nfree = len(keep)
        r.free = names
        r.data = csv
        r.weight = 0 if weight == "absolute" else 1
        r.nstart = len(skeep)
        r.start_names = snames
        r.start_values = svalues.ptr
        r.max_iterations = int(max_iterations)
        f = lib.segc_fit_run(ctx.ptr, r)
        if f == ffi.NULL:
            ctx.fail()
        return Fit(ffi.gc(f, lib.segc_fit_free), s,
                   (keep, names, csv, skeep, snames, svalues))


def _renamed(data, columns):
    """'data' with columns renamed by 'columns' (parameter -> column)."""
    names, cols = _columns(data)
    back = {v: k for k, v in columns.items()}
    missing = [c for c in columns.values() if c not in names]
    if missing:
        raise InputError([Diagnostic(2, None, 0, 0, "no column '%s' in "
                                     "the data" % missing[0])])
    return {back.get(n, n): c for n, c in zip(names, cols)
            if n in back or n not in columns}
