"""The ``hookrun`` command line.

:mod:`hookrun.cli.main` is the entry point (fast path, typer fallback, the one
error boundary); :mod:`hookrun.cli.app` declares every command for typer; each
command's work lives in one module of :mod:`hookrun.cli.commands`. The rest are
helpers the commands share (payload flags, config files, signals, trace tables).

:class:`CliError` is here, not in a module of its own: every command line loads this
package, and a module costs ~0.35M instructions of start-up (issue 8).
"""

from __future__ import annotations


class CliError(Exception):
    """Bad input to a command: what is wrong, where, and what to do next.

    The one error type of the command line. Raised anywhere under ``hookrun.cli``;
    :func:`hookrun.cli.main.main` prints it as ``hookrun: <message>`` on stderr and exits
    1. Exit 1 is hookrun's own failure; it must never be 2 (a host reads 2 as "deny") nor
    a traceback.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
