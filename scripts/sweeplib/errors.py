"""The one error a user can fix in the sweep file: it exits with status 2."""


class SweepError(Exception):
    """A bad sweep file (or a bad command-line argument of scripts/sweep).

    Printed as one line: ``FILE: line N: KEY: what is wrong``; the parts that
    are unknown are left out.
    """

    def __init__(self, what, file=None, line=None, key=None):
        self.what, self.file, self.line, self.key = what, file, line, key
        super().__init__(self.message())

    def message(self):
        parts = []
        if self.file:
            parts.append(str(self.file))
        if self.line:
            parts.append(f"line {self.line}")
        if self.key:
            parts.append(str(self.key))
        parts.append(self.what)
        return ": ".join(parts)
