"""What the rest of the package shares over the C library: contexts with
limits, errors raised from a context, exact numbers to and from GMP, and
owned handles freed by the garbage collector."""

from fractions import Fraction
import numbers

from segc._native import ffi, lib
from segc import _native
from segc.errors import Diagnostic, error_of, InputError

# The limits a call accepts as keyword arguments (doc/limits.md).
LIMIT_NAMES = ("max_file_bytes", "max_depth", "max_nodes", "max_terms",
               "max_literal_digits", "max_coeff_bits", "max_exponent",
               "max_sum_degree", "max_markov_states", "max_errors",
               "max_mva_p", "max_output_nodes", "max_work",
               "max_eval_terms", "max_memory")


class Context:
    """A segc_ctx with the limits 'limits' (a dict of LIMIT_NAMES to
    integers) set; raise_if_failed() turns what it recorded into an
    exception.  Use as a context manager."""

    def __init__(self, limits=None):
        self.ptr = ffi.gc(lib.segc_ctx_new(), lib.segc_ctx_free)
        set_limits(self.ptr, limits or {})

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def diagnostics(self):
        """The diagnostics recorded, in order."""
        out = []
        for i in range(lib.segc_ctx_n_diags(self.ptr)):
            d = lib.segc_ctx_diag(self.ptr, i)
            out.append(Diagnostic(int(d.code), text(d.file), int(d.line),
                                  int(d.col), text(d.message)))
        return out

    def failed(self):
        """Non-zero when an error was recorded."""
        return lib.segc_ctx_status(self.ptr) != lib.SEGC_OK

    def raise_if_failed(self):
        """Raises the error recorded, if any."""
        if self.failed():
            raise error_of(self.diagnostics())

    def fail(self):
        """Raises the error recorded, or an internal one when none."""
        self.raise_if_failed()
        raise error_of([])


def set_limits(ctx, limits):
    """Sets the limits of segc_ctx 'ctx' from the dict 'limits'; an
    unknown name or a negative value is a TypeError/ValueError."""
    lim = lib.segc_ctx_limits(ctx)
    for name, value in limits.items():
        if name not in LIMIT_NAMES:
            raise TypeError("unknown limit '%s' (one of %s)"
                            % (name, ", ".join(LIMIT_NAMES)))
        if not isinstance(value, numbers.Integral) or value < 0:
            raise ValueError("limit %s must be a non-negative integer"
                             % name)
        setattr(lim, name, int(value))


def split_limits(kwargs):
    """The limits among keyword arguments 'kwargs' (taken out of it)."""
    return {k: kwargs.pop(k) for k in list(kwargs) if k in LIMIT_NAMES}


def text(ptr):
    """The str of a C string (None for NULL)."""
    if ptr == ffi.NULL:
        return None
    return ffi.string(ptr).decode("utf-8", "replace")


def take_text(ptr):
    """The str of a malloc'd C string, which is freed."""
    if ptr == ffi.NULL:
        return None
    try:
        return ffi.string(ptr).decode("utf-8", "replace")
    finally:
        lib.free(ptr)


def cstr(s):
    """A C string kept alive by the returned object."""
    return ffi.new("char[]", s.encode("utf-8"))


def fraction_of_mpq(q):
    """The Fraction of an mpq (a __mpq_struct pointer)."""
    return Fraction(take_text(_native.gmpq_get_str(ffi.NULL, 10, q)))


def int_of_mpz(z):
    """The int of an mpz (a __mpz_struct pointer)."""
    return int(take_text(_native.gmpz_get_str(ffi.NULL, 10, z)))


def exact(value, what="value"):
    """'value' (int, Fraction, a decimal str, or a float taken as the
    decimal of its repr) as a Fraction; ValueError otherwise."""
    if isinstance(value, bool):
        raise ValueError("%s: %r is not a number" % (what, value))
    if isinstance(value, numbers.Rational):
        return Fraction(value.numerator, value.denominator)
    if isinstance(value, numbers.Real):
        f = float(value)
        if f != f or f in (float("inf"), float("-inf")):
            raise ValueError("%s: %r is not finite" % (what, value))
        return Fraction(repr(f))
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except ValueError:
            pass
    raise ValueError("%s: %r is not a number" % (what, value))


class MpqArray:
    """An array of initialised mpq_t holding 'values' (Fractions),
    cleared when collected; 'ptr' is the __mpq_struct array."""

    def __init__(self, values):
        values = list(values)
        self.n = len(values)
        self.ptr = ffi.new("__mpq_struct[]", max(self.n, 1))
        for i, v in enumerate(values):
            _native.gmpq_init(self.ptr + i)
            s = "%d/%d" % (v.numerator, v.denominator)
            _native.gmpq_set_str(self.ptr + i, s.encode(), 10)
            _native.gmpq_canonicalize(self.ptr + i)

    def __del__(self):
        for i in range(self.n):
            _native.gmpq_clear(self.ptr + i)


def mpq(value):
    """One mpq holding the Fraction 'value' (MpqArray of length 1)."""
    return MpqArray([value])


class Point:
    """A segc_point of names and exact values, its memory kept."""

    def __init__(self, values):
        names = sorted(values)
        self.keep = [cstr(n) for n in names]
        self.names = ffi.new("const char *[]", self.keep or [ffi.NULL])
        self.values = MpqArray([values[n] for n in names])
        self.ptr = ffi.new("segc_point *")
        self.ptr.n = len(names)
        self.ptr.names = self.names
        self.ptr.values = self.values.ptr


def expr_handle(ptr):
    """An owned segc_expr pointer: freed when collected."""
    return ffi.gc(ptr, lib.segc_expr_free)


def check_name(name, what):
    """Refuses a 'name' that is not a str identifier (TypeError)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise InputError([Diagnostic(2, None, 0, 0,
                                     "%s: %r is not a name" % (what, name))])


class Node:
    """A read-only view of one node of an expression (borrowed from a
    Formula that keeps it alive): 'kind' (NUM, SYM, ADD, MUL, POW, CALL,
    SUM), 'name', 'args' and, for a NUM, 'value' (a Fraction).  'key'
    identifies the node: expressions are hash-consed, so equal nodes have
    the same key."""

    __slots__ = ("ptr", "kind", "key")

    KINDS = ("NUM", "SYM", "ADD", "MUL", "POW", "CALL", "SUM")

    def __init__(self, ptr):
        self.ptr = ptr
        self.kind = Node.KINDS[lib.segc_expr_kind(ptr)]
        self.key = int(ffi.cast("uintptr_t", ptr))

    @property
    def name(self):
        return text(lib.segc_expr_name(self.ptr))

    @property
    def args(self):
        n = {"POW": 2, "SUM": 3}.get(self.kind)
        if n is None:
            n = lib.segc_expr_nargs(self.ptr)
        return [Node(lib.segc_expr_arg(self.ptr, i)) for i in range(n)]

    @property
    def value(self):
        return fraction_of_mpq(lib.segc_expr_value(self.ptr))
