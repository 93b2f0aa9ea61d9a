"""Starting, waiting for and ending the external processes of one dispatch run.

INTERFACE STUB — the dispatch/process-control work owns this module and makes
it robust (process groups / Windows jobs, psutil tree kill, env marker scan).
The signatures below are the contract the in-process shell codes against.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence

from hookrun.dispatch.cancel import Guard

_POLL = 0.01


class SpawnError(Exception):
    """A child could not be started. ``exit_code`` is 127 (not found) or 126."""

    def __init__(self, exit_code: int, message: str) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.message = message


class ProcessTracker:
    """Every process started for one dispatch run, so all can be ended together."""

    def __init__(self) -> None:
        self.procs: list[subprocess.Popen[bytes]] = []

    def spawn(
        self,
        argv: Sequence[str],
        *,
        cwd: str,
        env: Mapping[str, str],
        stdin: int,
        stdout: int,
        stderr: int,
    ) -> subprocess.Popen[bytes]:
        """Start ``argv`` (argv[0] already resolved to a path or a PATH name).

        Raises :class:`SpawnError` for not-found (127) / not-executable (126).
        """
        try:
            proc = subprocess.Popen(
                list(argv),
                cwd=cwd,
                env=dict(env),
                stdin=stdin,
                stdout=stdout,
                stderr=stderr,
                start_new_session=sys.platform != "win32",
            )
        except FileNotFoundError:
            raise SpawnError(127, f"{argv[0]}: command not found") from None
        except PermissionError:
            raise SpawnError(126, f"{argv[0]}: permission denied") from None
        except OSError as exc:
            raise SpawnError(126, f"{argv[0]}: {exc.strerror or exc}") from None
        self.procs.append(proc)
        return proc

    def wait(self, proc: subprocess.Popen[bytes], guard: Guard) -> int:
        """Wait for ``proc``; raise Interrupted when ``guard`` says stop.

        Returns the POSIX-style status: the exit code, or 128+N for signal N.
        """
        while True:
            guard.check()
            try:
                code = proc.wait(_POLL)
            except subprocess.TimeoutExpired:
                continue
            return 128 - code if code < 0 else code

    def end_all(self, grace: float = 0.5) -> None:
        """End every tracked process tree: politely, then by force after ``grace``."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def default_env() -> dict[str, str]:
    return dict(os.environ)
