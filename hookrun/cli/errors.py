"""The one error type of the command line: a message the user can act on.

Raised anywhere under ``hookrun.cli``; :func:`hookrun.cli.main.main` prints it as
``hookrun: <message>`` on stderr and exits 1. Exit 1 is hookrun's own failure; it
must never be 2 (a host reads 2 as "deny") nor a traceback.
"""

from __future__ import annotations


class CliError(Exception):
    """Bad input to a command: what is wrong, where, and what to do next."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
