"""Fitting a model's free names to measurements (segc fit) from a pandas
DataFrame, a dict of columns, CSV text or a CSV file (a path): the values
are passed to the library's CSV reader as exact decimals (an int as
written, a float as the shortest decimal that gives it back, a Fraction
whose denominator divides a power of ten exactly, a str as written), so
that the fit is exact over the numbers the table holds.  As 'segc fit'
does, the reader keeps the columns that name a measurement or a name of
the model (or one close to it, to refuse), leaves the others out, maps
columns to names and aggregates repeated configurations."""

from fractions import Fraction
import numbers

from segc._native import ffi, lib
from segc import _core
from segc._core import Context, cstr, take_text, text
from segc.errors import Diagnostic, InputError

COMPONENTS = ("total", "comp", "comm", "io")


def _cell(v, column):
    """The CSV text of one value: a number exactly; anything else as its
    text, for the reader to refuse if the column is read."""
    if isinstance(v, str):
        return _quoted(v.strip())
    if isinstance(v, bool) or not isinstance(v, numbers.Number):
        return _quoted(str(v))
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Rational):
        return _decimal(Fraction(v), column)
    if isinstance(v, numbers.Real):
        return repr(float(v))
    return _quoted(str(v))


def _quoted(text):
    """'text' as a CSV field: in double quotes when it needs them."""
    if any(ch in text for ch in ',"\n\r') or text != text.strip():
        return '"%s"' % text.replace('"', '""')
    return text


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
    lines = [",".join(_quoted(n) for n in names)]
    for i in range(n):
        lines.append(",".join(_cell(c[i], names[k])
                              for k, c in enumerate(cols)))
    return "\n".join(lines) + "\n"


class Equation:
    """One equation of a fit: the data row (and 'line' in the table), the
    component measured, the measured and the fitted value (Fractions),
    the rows of the table aggregated into it ('runs') and the smallest and
    largest of their measurements ('spread', a pair of Fractions)."""

    __slots__ = ("row", "line", "component", "measured", "fitted", "runs",
                 "spread")

    def __init__(self, row, line, component, measured, fitted, runs,
                 spread):
        self.row, self.line, self.component = row, line, component
        self.measured, self.fitted = measured, fitted
        self.runs, self.spread = runs, spread

    def __repr__(self):
        return "Equation(row=%d, %s: measured %s, fitted %s)" % (
            self.row, self.component, self.measured, self.fitted)


class Fit:
    """The result of a fit: 'values' (name -> Fraction; exact for a
    linear fit), 'nonlinear' (and 'info': precision, iterations,
    stalled), 'equations', 'r2' (None when undefined), 'max_relative'
    (the largest relative error, None when there is none) and
    machine_xml()."""

    def __init__(self, ptr, setting, keep, csv):
        self._ptr = ptr
        self._setting = setting
        self._keep = keep
        self.ignored = [text(lib.segc_csv_ignored(csv, i))
                        for i in range(lib.segc_csv_n_ignored(csv))]
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
            comp = COMPONENTS[eq.component]
            self.equations.append(Equation(
                int(eq.row), int(lib.segc_csv_line(csv, eq.row)), comp,
                _core.fraction_of_mpq(eq.measured),
                _core.fraction_of_mpq(eq.fitted),
                int(lib.segc_csv_runs(csv, eq.row)),
                _spread(csv, eq.row, comp)))
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


def _spread(csv, row, comp):
    """(smallest, largest) measured value aggregated into 'row'."""
    col = lib.segc_csv_column(csv, comp.encode())
    if col == ffi.cast("size_t", -1) and comp == "total":
        col = lib.segc_csv_column(csv, b"time")
    lo, hi = _core.mpq(Fraction(0)), _core.mpq(Fraction(0))
    lib.segc_csv_spread(csv, row, col, lo.ptr, hi.ptr)
    return (_core.fraction_of_mpq(lo.ptr), _core.fraction_of_mpq(hi.ptr))


def _one_edit(a, b):
    """True when 'a' becomes 'b' by one edit: a character changed, added
    or removed, or two neighbours swapped (as the command decides which
    unknown columns to refuse as slips)."""
    if len(a) < len(b):
        a, b = b, a
    if len(a) - len(b) > 1:
        return False
    i = 0
    while i < len(b) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1:] == b[i + 1:] or (
            i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i] and
            a[i + 2:] == b[i + 2:])
    return a[i + 1:] == b[i:]


AGGREGATES = {None: 0, "each": 0, "mean": 1, "median": 2, "min": 3}


class _Options:
    """The reader's options for setting 's': the wanted columns (a
    callback into Python), mappings, aggregation; memory kept."""

    def __init__(self, s, columns, aggregate):
        if aggregate not in AGGREGATES:
            raise ValueError("aggregate %r: mean, median or min"
                             % (aggregate,))
        columns = dict(columns or {})
        for n in columns:
            _core.check_name(n, "columns")
        self.keep = [cstr(n) for n in columns] + \
            [cstr(str(c)) for c in columns.values()]
        k = len(columns)
        self.names = ffi.new("const char *[]", self.keep[:k] or [ffi.NULL])
        self.cols = ffi.new("const char *[]", self.keep[k:] or [ffi.NULL])
        near = ffi.new("const char **")

        def wanted(arg, name):
            n = ffi.string(name).decode("utf-8", "replace")
            if n in COMPONENTS or n == "time":
                return 1
            if lib.segc_setting_declares(s.ptr, name, near):
                return 1
            return int(near[0] != ffi.NULL and _one_edit(n, text(near[0])))
        self.callback = ffi.callback("int(void *, const char *)", wanted)
        self.ptr = ffi.new("segc_csv_options *")
        self.ptr.nmap = k
        self.ptr.map_names = self.names
        self.ptr.map_columns = self.cols
        self.ptr.wanted = self.callback
        self.ptr.aggregate = AGGREGATES[aggregate]


FORMATS = {"auto": 0, "csv": 1, "extrap-text": 2, "extrap-json": 3}


def read_csv(ctx, data, name, options, callpath=None, metric=None,
             data_format="auto"):
    """The segc_csv of 'data' (freed when collected): a path is read as a
    file ("-": standard input), a CSV table or an Extra-P experiment
    ('data_format' as --data-format; 'callpath' and 'metric' choose its
    measurements), anything else as a CSV table."""
    import os
    if data_format not in FORMATS:
        raise ValueError("data_format %r: auto, csv, extrap-text or "
                         "extrap-json" % (data_format,))
    if isinstance(data, os.PathLike):
        xo = ffi.new("segc_extrap_options *")
        keep = [cstr(callpath) if callpath is not None else ffi.NULL,
                cstr(metric) if metric is not None else ffi.NULL]
        xo.callpath, xo.metric = keep
        xo.table = options.ptr[0]
        csv = lib.segc_table_read_path(ctx.ptr, os.fsencode(data),
                                       FORMATS[data_format], xo)
    else:
        body = csv_text(data).encode("utf-8")
        csv = lib.segc_csv_read(ctx.ptr, (name or "<data>").encode(), body,
                                len(body), options.ptr)
    if csv == ffi.NULL:
        ctx.fail()
    return ffi.gc(csv, lib.segc_csv_free)


def run(s, data, free, weight, start, max_iterations, columns, name,
        aggregate=None, callpath=None, metric=None, data_format="auto"):
    """The Fit of the names 'free' to 'data' under setting 's'."""
    if weight not in ("absolute", "relative"):
        raise ValueError("weight %r: absolute or relative" % (weight,))
    free = list(free)
    for n in free:
        _core.check_name(n, "free")
    start = dict(start or {})
    options = _Options(s, columns, aggregate)
    with Context(s.limits) as ctx:
        csv = read_csv(ctx, data, name, options, callpath, metric,
                       data_format)
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
                   (keep, names, csv, skeep, snames, svalues, options), csv)
