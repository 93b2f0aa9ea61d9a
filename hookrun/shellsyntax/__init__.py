"""The one shell-syntax front end: tree-sitter-bash → a typed tree of the user's text.

Used by the in-process shell (:mod:`hookrun.dispatch.shell`), by shell-guard and by
``hookrun check``. The API::

    from hookrun.shellsyntax import parse, ShellSyntaxError, Unsupported, line_col
    from hookrun.shellsyntax import nodes  # Script, Stmt, CallExpr, Word, Lit, …

    script = parse("cat <<EOF | grep x\\n$HOME\\nEOF\\n")   # -> nodes.Script
    for stmt in script.stmts: ...                          # nodes.Stmt
    line, col = line_col(script.source, stmt.pos)          # 1-based, in characters

``parse`` raises :class:`ShellSyntaxError` (bash would refuse it too) or
:class:`Unsupported` (valid, but not handled; the message names the construct), never
anything else. Walking helpers are in :mod:`hookrun.shellsyntax.walk`.

Importing this package loads no native code: tree-sitter is imported on the first
``parse`` (a hook run that parses no shell never pays for it; a test pins this).
"""

from __future__ import annotations

from hookrun.records import TYPE_CHECKING
from hookrun.shellsyntax.nodes import Script

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["parse", "ShellSyntaxError", "Unsupported", "line_col", "Script"]


# What the front end reports about text it cannot turn into a tree (here, not in a module
# of their own: every user of the front end loads the package, and a module costs its
# import, ~0.3M instructions).
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


# bash's one-letter backslash escapes, the one table of them: ``echo -e`` and printf's
# ``%b`` know these; ``$'…'`` and a printf format also read ``\'`` ``\"`` ``\?`` as the
# character alone (``%b`` and ``echo -e`` keep the backslash of those three).
ECHO_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
}
ANSI_C_ESCAPES = {**ECHO_ESCAPES, "'": "'", '"': '"', "?": "?"}


from hookrun.shellsyntax import plain  # noqa: E402  (after the errors: no native code)

# hookrun.shellsyntax.parser.parse once loaded (lazy: native code, see above; kept, as
# an import statement costs a few thousand instructions each time it runs).
_parse: Callable[[str], Script] | None = None
# Plain lines read before tree-sitter is loaded (an embedding runner whose hooks are all
# plain never loads it): kept, as the loaded parse keeps its lines, so a repeated hook is
# not read again. Bounded like that cache; a Script is immutable, so sharing it is safe.
_plain_read: dict[str, Script] = {}
_PLAIN_KEPT = 512


def parse(source: str) -> Script:
    """Parse shell ``source`` into a :class:`~hookrun.shellsyntax.nodes.Script`.

    A plain line is read by :mod:`hookrun.shellsyntax.plain` into the nodes tree-sitter's
    path makes of it — before tree-sitter is loaded, without loading it.
    """
    global _parse
    if _parse is not None:
        return _parse(source)  # (cached; a plain line still read without tree-sitter)
    script = _plain_read.get(source)
    if script is not None:
        return script
    script = plain.read(source)
    if script is not None:
        if len(_plain_read) >= _PLAIN_KEPT:
            _plain_read.clear()
        _plain_read[source] = script
        return script
    from hookrun.shellsyntax.parser import parse as loaded
    from hookrun.shellsyntax.parser import parse_tree

    _parse = loaded
    return parse_tree(source)  # (not plain: the cached entry would read it again)


def line_col(source: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of byte ``offset`` in ``source``."""
    offset = max(0, min(offset, len(source)))
    line = source.count(b"\n", 0, offset) + 1
    start = source.rfind(b"\n", 0, offset) + 1
    return line, len(source[start:offset].decode("utf-8", "replace")) + 1
