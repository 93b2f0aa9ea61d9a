"""The ``time`` keyword over one simple command: run it, then report on stderr.

bash's ``time`` times a whole pipeline; the grammar reads ``time`` as a command name, so
this shell times the command it prefixes (the pipeline's status is the same; only the
figures differ). ``time { …; }`` and ``time ( … )`` are refused by the front end.
The report follows ``TIMEFORMAT`` as bash does (``%[p][l]R``/``U``/``S``, ``%P``,
``%%``; unset: bash's default; empty: no report); ``-p`` is the POSIX format.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable, Mapping

from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.dispatch.shell.interp import IO, Interp

DEFAULT_FORMAT = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS"
POSIX_FORMAT = "real %2R\nuser %2U\nsys %2S"
_SPEC = re.compile(r"%(%|P|([0-3]?)(l?)([RUS]))")


def run_timed(
    sh: Interp,
    argv: list[str],
    io: IO,
    run: Callable[[list[str], IO, Mapping[str, str] | None], int],
    prefix: Mapping[str, str] | None,
) -> int:
    args = argv[1:]
    fmt = sh.state.get_var("TIMEFORMAT")
    if args and args[0] == "-p":
        fmt = POSIX_FORMAT
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if fmt is None:
        fmt = DEFAULT_FORMAT
    start, before = time.monotonic(), os.times()
    try:
        status = run(args, io, prefix) if args else 0
    finally:
        after = os.times()
        real = time.monotonic() - start
        user = after.user - before.user + after.children_user - before.children_user
        system = after.system - before.system + after.children_system - before.children_system
        if fmt:
            report = render(fmt, real, user, system) + "\n"
            with contextlib.suppress(OSError):  # a closed stderr: no report, as in bash
                io.stderr.write(report.encode("utf-8", "surrogateescape"))
    return status


def render(fmt: str, real: float, user: float, system: float) -> str:
    """``TIMEFORMAT`` with its ``%`` specifiers replaced, as bash prints it."""

    def one(m: re.Match[str]) -> str:
        if m.group(1) == "%":
            return "%"
        if m.group(1) == "P":
            return f"{(user + system) * 100 / real if real else 0:.2f}"
        digits = int(m.group(2)) if m.group(2) else 3
        value = {"R": real, "U": user, "S": system}[m.group(4)]
        if m.group(3):
            minutes, seconds = divmod(value, 60)
            return f"{int(minutes)}m{seconds:.{digits}f}s"
        return f"{value:.{digits}f}"

    return _SPEC.sub(one, fmt)
