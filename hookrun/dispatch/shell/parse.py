"""Source text → bashlex nodes, with every known bashlex 0.18 gap handled on purpose.

- ``$(( ))``, ``(( ))``, ``[[ ]]``, ``case``, quoted here-document delimiters, ``$'…'``:
  rewritten by :mod:`~hookrun.dispatch.shell.prepass` before bashlex sees them.
- arrays, ``select``, ``coproc``, ``time``, ``for ((…))``, process substitution:
  :class:`~hookrun.dispatch.shell.prepass.Unsupported` (the caller may hand the script
  to a real shell).
- empty or comment-only input (bashlex raises AttributeError): no commands.
- deep nesting (bashlex raises RecursionError): Unsupported, named as such.
- bashlex's own errors: :class:`ShellSyntaxError` with line and column.

bashlex is imported here, lazily, because its import costs ~120 ms and a hook made of
one plain command (:meth:`Shell.run_argv`) never needs it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from hookrun.dispatch.shell.prepass import PrepassError, Unsupported, rewrite


class ShellSyntaxError(Exception):
    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{message} (line {line}, column {column})")
        self.message = message
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Program:
    """Parsed commands and the (rewritten) text their ``pos`` offsets point into."""

    nodes: tuple[Any, ...]
    source: str


def _line_col(text: str, offset: int) -> tuple[int, int]:
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines())


@functools.lru_cache(maxsize=512)
def parse(source: str) -> Program:
    """Parse ``source``. Cached: runners run the same hook source many times.

    Raises :class:`ShellSyntaxError` or :class:`Unsupported`; never anything else for
    any input.
    """
    text = source.replace("\r\n", "\n")
    if _only_comments(text):
        return Program((), text)
    try:
        rewritten = rewrite(text)
    except PrepassError as exc:
        line, col = _line_col(text, exc.offset)
        raise ShellSyntaxError(exc.message, line, col) from None
    except RecursionError:
        raise Unsupported("deeply nested commands") from None
    from hookrun.bashlex_loader import load  # lazy: see the module docstring

    bashlex = load()

    try:
        nodes = bashlex.parse(rewritten)
    except bashlex.errors.ParsingError as exc:
        message = getattr(exc, "message", str(exc))
        position = getattr(exc, "position", 0) or 0
        if message == "unexpected EOF":
            # bashlex's parser object is shared and keeps state between parses: the
            # position it gives for an early EOF depends on what was parsed before.
            # The end of input is where an unexpected EOF is, every time.
            position = len(rewritten)
        line, col = _line_col(rewritten, position)
        raise ShellSyntaxError(message, line, col) from None
    except NotImplementedError as exc:
        raise Unsupported(_name_unsupported(str(exc))) from None
    except RecursionError:
        raise Unsupported("deeply nested commands") from None
    except (AttributeError, IndexError, TypeError, ValueError, AssertionError) as exc:
        # bashlex's failure mode for some odd inputs (e.g. a lone comment after code).
        if _only_comments(rewritten):
            return Program((), rewritten)
        raise ShellSyntaxError(f"cannot parse ({type(exc).__name__}: {exc})", 1, 1) from None
    return Program(tuple(nodes), rewritten)


def _name_unsupported(message: str) -> str:
    m = re.match(r"type = \{([^}]+)\}", message)
    if m is None:
        return message or "an unsupported construct"
    kind = m.group(1)
    if kind.endswith(" command"):  # bashlex: "select command", "time command", …
        return f"'{kind[: -len(' command')]}'"
    return kind
