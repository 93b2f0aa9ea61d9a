"""The one value dispatch hands back: how a command ran and what it printed."""

from __future__ import annotations

from hookrun.records import NamedTuple


class Completed(NamedTuple):
    """A finished command.

    ``exit_code`` follows POSIX: 127 not found, 126 not executable, 128+N killed by
    signal N. ``route`` says how it ran: ``inprocess`` (the in-process shell),
    ``shebang:NAME`` (an interpreter named by the script's ``#!`` line),
    ``binary`` (executed directly), ``script`` (a shebang-less file run by the
    in-process shell), ``sh-fallback`` (handed to a POSIX shell on PATH for a
    construct the in-process shell does not support), or ``error`` (nothing ran;
    ``error`` says why). ``duration`` is in seconds.
    """

    exit_code: int
    stdout: bytes
    stderr: bytes
    route: str
    duration: float
    timed_out: bool = False
    cancelled: bool = False
    truncated: bool = False  # stdout or stderr went over the capture bound
    stdout_dropped: int = 0  # bytes read past the bound and discarded
    stderr_dropped: int = 0
    error: str | None = None  # dispatch's own explanation (missing file, bad shebang, …)
