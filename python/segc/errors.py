"""Exceptions of the segc package: what the library records in its
context (code, file, line, column, message) raised as Python errors."""


class Diagnostic:
    """One diagnostic of the library: 'code' (2 input, 3 limit, 4
    internal), 'file' (or None), 'line' and 'col' (0 where unknown),
    'message'."""

    __slots__ = ("code", "file", "line", "col", "message")

    def __init__(self, code, file, line, col, message):
        self.code = code
        self.file = file
        self.line = line
        self.col = col
        self.message = message

    def __str__(self):
        where = self.file or "segc"
        if self.line:
            where += ":%d" % self.line
            if self.col:
                where += ":%d" % self.col
        return "%s: error: %s" % (where, self.message)

    def __repr__(self):
        return "Diagnostic(%r)" % str(self)


class SegcError(Exception):
    """A failure of the library.  'diagnostics' lists every diagnostic
    recorded; 'file', 'line', 'col', 'message' and 'code' are those of the
    first.  Its text is the diagnostics in the command's GNU style."""

    def __init__(self, diagnostics):
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else \
            Diagnostic(4, None, 0, 0, "failed without a diagnostic")
        self.code = first.code
        self.file = first.file
        self.line = first.line
        self.col = first.col
        self.message = first.message
        super().__init__("\n".join(str(d) for d in self.diagnostics)
                         or str(first))


class InputError(SegcError):
    """Bad input: a malformed or meaningless model, expression or table
    (the command's exit status 2)."""


class LimitError(SegcError):
    """A limit of doc/limits.md was reached (exit status 3); the message
    names it.  Raise it with a keyword argument of the same name."""


class InternalError(SegcError):
    """A broken invariant of the library (exit status 4): a bug."""


def error_of(diagnostics):
    """The exception for 'diagnostics', by the most severe code."""
    code = max((d.code for d in diagnostics), default=4)
    cls = {2: InputError, 3: LimitError}.get(code, InternalError)
    return cls(diagnostics)
