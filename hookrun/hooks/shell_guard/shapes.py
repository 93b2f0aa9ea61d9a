"""User command shapes (``deny`` / ``allow`` options), matched on parsed argv.

A shape is shell words; each is a glob matched against one argv word
(``fnmatch``, case-sensitive), the first against the command's base name
(``terraform`` matches ``/usr/bin/terraform``); ``**`` matches any number of
words. A deny shape matches a command that *starts* with it; an allow shape
must match the whole command (an allow is exact unless it ends in ``**``).
"""

from __future__ import annotations

import fnmatch
import shlex
from collections.abc import Sequence
from functools import lru_cache

from hookrun.hooks.shell_guard.names import command_name


@lru_cache(maxsize=64)
def compile_shapes(shapes: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(shlex.split(s)) for s in shapes)


def matches(shape: Sequence[str], argv: Sequence[str], *, prefix: bool) -> bool:
    if not shape or not argv:
        return False
    if not fnmatch.fnmatchcase(command_name(argv[0]), shape[0]) and not fnmatch.fnmatchcase(
        argv[0], shape[0]
    ):
        return False
    rest = list(shape[1:])
    if prefix:
        rest.append("**")
    return _match(tuple(rest), tuple(argv[1:]))


@lru_cache(maxsize=4096)
def _match(shape: tuple[str, ...], argv: tuple[str, ...]) -> bool:
    if not shape:
        return not argv
    head = shape[0]
    if head == "**":
        return any(_match(shape[1:], argv[k:]) for k in range(len(argv) + 1))
    return bool(argv) and fnmatch.fnmatchcase(argv[0], head) and _match(shape[1:], argv[1:])


def any_matches(shapes: tuple[str, ...], argv: Sequence[str], *, prefix: bool) -> str | None:
    """The first of ``shapes`` that matches ``argv``, as written."""
    for text, words in zip(shapes, compile_shapes(shapes), strict=True):
        if matches(words, argv, prefix=prefix):
            return text
    return None
