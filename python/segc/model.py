"""Model and Machine: documents read from files or strings, and what a
model's formula is derived under (a machine, bindings, names kept)."""

import os
from fractions import Fraction

from segc._native import ffi, lib
from segc import _core
from segc._core import Context, cstr, expr_handle, text
from segc.errors import Diagnostic, InputError
from segc.formula import Formula

COMPONENTS = ("total", "comp", "comm", "io")


def _component(name):
    """The number of component 'name'; InputError for another name."""
    c = lib.segc_component_parse(name.encode()) \
        if isinstance(name, str) else -1
    if c < 0:
        raise InputError([Diagnostic(2, None, 0, 0, "unknown component "
            "%r (total, comp, comm or io)" % (name,))])
    return c


def _read(kind, path=None, xml=None, name=None, limits=None):
    """Reads a model or machine document from 'path' or from the text
    'xml'; the owned pointer."""
    ctx = Context(limits)
    if path is not None:
        p = getattr(lib, "segc_%s_read_file" % kind)(
            ctx.ptr, os.fsencode(path))
    else:
        data = xml.encode("utf-8") if isinstance(xml, str) else bytes(xml)
        p = getattr(lib, "segc_%s_read_string" % kind)(
            ctx.ptr, (name or "<string>").encode(), data, len(data))
    if p == ffi.NULL:
        ctx.fail()
    return ffi.gc(p, getattr(lib, "segc_%s_free" % kind))


class Machine:
    """A machine document: what each resource costs."""

    def __init__(self, ptr):
        self._ptr = ptr

    @classmethod
    def from_file(cls, path, **limits):
        """Reads and validates the machine document 'path'."""
        return cls(_read("machine", path=path, limits=limits))

    @classmethod
    def from_string(cls, xml, name="<string>", **limits):
        """Reads a machine document from the text 'xml'; 'name' stands
        for the file in error messages."""
        return cls(_read("machine", xml=xml, name=name, limits=limits))


def _machine(machine):
    """'machine' (a Machine, a path, or None) as a Machine or None."""
    if machine is None or isinstance(machine, Machine):
        return machine
    return Machine.from_file(machine)


def _value_text(value):
    """The expression text of a bound value: a number exactly, a Formula
    or a str as written."""
    if isinstance(value, (str, Formula)):
        return str(value)
    q = _core.exact(value)
    return "%d/%d" % (q.numerator, q.denominator) if q.denominator != 1 \
        else "%d" % q.numerator


class Setting:
    """What a formula is derived under: the model, a machine (None: the
    model's inline one), bindings (name -> value) and names kept as
    themselves (a let, a resource or a parameter with a value)."""

    def __init__(self, model, machine=None, bind=None, keep=(),
                 limits=None):
        self.model = model
        self.machine = _machine(machine)
        self.limits = dict(limits or {})
        bind = dict(bind or {})
        self.bound = set(bind)
        self.bindings = ffi.gc(lib.segc_bindings_new(),
                               lib.segc_bindings_free)
        self.ptr = ffi.new("segc_setting *")
        self.ptr.model = model._ptr
        self.ptr.machine = self.machine._ptr if self.machine else ffi.NULL
        self.ptr.bindings = self.bindings
        assignments = ["%s=%s" % (n, n) for n in keep]
        for n in keep:
            _core.check_name(n, "keep")
            if n in bind:
                raise InputError([Diagnostic(2, None, 0, 0, "'%s' is both "
                    "kept and bound" % n)])
        for n, v in bind.items():
            _core.check_name(n, "bind")
            self._declared(n)
            assignments.append("%s=%s" % (n, _value_text(v)))
        with Context(self.limits) as ctx:
            for a in assignments:
                if lib.segc_bindings_add(ctx.ptr, self.bindings,
                                         a.encode()):
                    ctx.fail()

    def _declared(self, name):
        """Refuses a name the setting cannot give a value to."""
        near = ffi.new("const char **")
        if not lib.segc_setting_declares(self.ptr, name.encode(), near):
            hint = text(near[0])
            raise InputError([Diagnostic(2, self.model.file, 0, 0,
                "'%s' is not a parameter, resource, let or machine name "
                "of the model%s" % (name, "; did you mean '%s'?" % hint
                                    if hint else ""))])

    def formula(self, ptr):
        """An owned expression as a Formula of this setting."""
        return Formula(expr_handle(ptr), self, self.limits)


class Model:
    """A model document: a program's software execution graph.  Read it
    with from_file or from_string; derive its formulas with derive, and
    analyse them with the other methods.  Each method takes 'machine' (a
    Machine or a path), 'bind' (name -> value: int, Fraction, decimal
    str, float as its repr, or an expression) and the limits of
    doc/limits.md as keyword arguments (max_terms=..., ...)."""

    def __init__(self, ptr, limits=None):
        self._ptr = ptr
        self._limits = dict(limits or {})

    @classmethod
    def from_file(cls, path, **limits):
        """Reads and validates the model document 'path'."""
        return cls(_read("model", path=path, limits=limits), limits)

    @classmethod
    def from_string(cls, xml, name="<string>", **limits):
        """Reads a model document from the text 'xml'; 'name' stands for
        the file in error messages (FILE:LINE:COL)."""
        return cls(_read("model", xml=xml, name=name, limits=limits),
                   limits)

    @property
    def name(self):
        return text(lib.segc_model_name(self._ptr))

    @property
    def description(self):
        return text(lib.segc_model_description(self._ptr))

    @property
    def file(self):
        return text(lib.segc_model_file(self._ptr))

    def setting(self, machine=None, bind=None, keep=(), **limits):
        """The Setting of this model under a machine and bindings."""
        return Setting(self, machine, bind, keep,
                       dict(self._limits, **limits))

    def derive(self, component="total", form="canonical", bind=None,
               keep=(), machine=None, **limits):
        """The formula of 'component' (total, comp, comm, io) in the
        canonical, the readable or the structural form."""
        derive = {"canonical": lib.segc_derive_canonical,
                  "readable": lib.segc_derive_readable,
                  "structural": lib.segc_derive_structural}
        if form not in derive:
            raise ValueError("unknown form %r (canonical, readable or "
                             "structural)" % (form,))
        s = self.setting(machine, bind, keep, **limits)
        comp = _component(component)
        with Context(s.limits) as ctx:
            e = derive[form](ctx.ptr, s.ptr, comp)
            if e == ffi.NULL:
                ctx.fail()
            return s.formula(e)

    def formula(self, text_, bind=None, keep=(), machine=None, **limits):
        """An expression in the model's language (as an <expect>) with
        the setting applied."""
        s = self.setting(machine, bind, keep, **limits)
        return Formula.parse(text_, s, **s.limits)

    def quantity(self, text_, bind=None, machine=None, **limits):
        """A quantity of the analysis commands (total, comp, speedup,
        efficiency, comm/total ...) in canonical form."""
        s = self.setting(machine, bind, (), **limits)
        from segc import analysis
        return analysis.quantity(s, text_)

    def emit(self, lang="c", base=None, keep=(), bind=None, machine=None,
             prefix=None, accurate=False, with_main=False, **limits):
        """The predictor of the model (what 'segc emit' writes): a dict
        of file name to text, BASE.c and BASE.h, or BASE.py with
        lang="python"."""
        from segc import analysis
        s = self.setting(machine, bind, keep, **limits)
        return analysis.emit(s, lang, base or self.name, keep, prefix,
                             accurate, with_main)

    def optimize(self, quantity="total", over=None, maximize=False,
                 bind=None, machine=None, **limits):
        """The integer NAME of A..B where 'quantity' is least (most with
        maximize=True), certified exactly; 'over' is (NAME, A, B) or
        "NAME=A..B".  An Optimum."""
        from segc import analysis
        s = self.setting(machine, bind, (), **limits)
        return analysis.optimize(s, quantity, over, maximize)

    def solve(self, equation, var, within=None, digits=30, bind=None,
              machine=None, **limits):
        """Every real root in 'var' of 'equation' ("comp = comm", or a
        quantity taken = 0) in 'within' (A, B), by default the declared
        domain of 'var'.  A Solution."""
        from segc import analysis
        s = self.setting(machine, bind, (), **limits)
        return analysis.solve(s, equation, var, within, digits)

    def whatif(self, factor, names=(), cls=None, component="total",
               bind=None, machine=None, **limits):
        """The scenario where the costs 'names' (or every cost of the
        component 'cls') are multiplied by 'factor': a WhatIf with the
        formulas before and after and the exact speedup."""
        from segc import analysis
        s = self.setting(machine, bind, (), **limits)
        return analysis.whatif(s, Fraction(_core.exact(factor, "factor")),
                               names, cls, component)

    def sensitivity(self, component="total", bind=None, machine=None,
                    **limits):
        """For each free name x of the component T: (dT/dx, (x/T)dT/dx),
        both canonical Formulas, in a dict by name."""
        from segc import analysis
        s = self.setting(machine, bind, (), **limits)
        return analysis.sensitivity(s, component)

    def fit(self, data, free, weight="absolute", bind=None, machine=None,
            start=None, max_iterations=0, columns=None, aggregate=None,
            name=None, callpath=None, metric=None, data_format="auto",
            **limits):
        """Fits the names 'free' to measured times: 'data' a pandas
        DataFrame, a dict of columns, the text of a CSV file or the path
        (a pathlib.Path) of a CSV file or an Extra-P experiment (text or
        JSON; 'callpath' and 'metric' choose its measurements,
        'data_format' as --data-format); 'columns' maps names to columns
        of the table or parameters of the experiment (NAME: COLUMN, as
        --column NAME=COLUMN), 'aggregate' ("mean", "median", "min")
        makes each repeated configuration one equation.  A Fit."""
        from segc import fit
        s = self.setting(machine, bind, (), **limits)
        return fit.run(s, data, free, weight, start, max_iterations,
                       columns, name, aggregate, callpath, metric,
                       data_format)
