"""segc from Python: models read from files or strings, their exact
timing formulas derived, printed, compared, evaluated (exactly, or over
numpy arrays at once), turned into SymPy, analysed, fitted to
measurements and emitted as predictors.  A thin layer over libsegc
through cffi (ABI mode); see doc/python.md."""

from segc.errors import (Diagnostic, SegcError, InputError, LimitError,
                         InternalError)
from segc.formula import Formula, CheckResult, Domain
from segc.model import Model, Machine, Setting
from segc.analysis import Optimum, Solution, WhatIf
from segc.fit import Fit, Equation

__all__ = ["Model", "Machine", "Setting", "Formula", "CheckResult",
           "Domain", "Optimum", "Solution", "WhatIf", "Fit", "Equation",
           "Diagnostic", "SegcError", "InputError", "LimitError",
           "InternalError"]
