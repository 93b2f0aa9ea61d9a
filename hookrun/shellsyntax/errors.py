"""What the front end reports about text it cannot turn into a tree."""

from __future__ import annotations


class ShellSyntaxError(Exception):
    """The text is not valid shell (bash would refuse it too). Positions are 1-based."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{message} (line {line}, column {column})")
        self.message = message
        self.line = line
        self.column = column


class Unsupported(Exception):
    """Valid shell that hookrun does not handle (a construct, or a known grammar gap).

    ``construct`` names it for the user ("'select'", "a here-document delimiter followed
    by ';'"); the interpreter may hand such a script to a real shell (sh-fallback).
    """

    def __init__(self, construct: str, line: int = 0, column: int = 0) -> None:
        where = f" (line {line}, column {column})" if line else ""
        super().__init__(f"{construct}{where}")
        self.construct = construct
        self.line = line
        self.column = column
