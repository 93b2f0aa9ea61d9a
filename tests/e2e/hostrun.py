"""One non-interactive run of a real host program, bounded by a deadline.

The host runs with no stdin in its own session; at the deadline its whole process
group is killed, so a hung host fails its test instead of the suite's timeout.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple


class HostRun(NamedTuple):
    returncode: int | None  # None: killed at the deadline
    stdout: str
    stderr: str
    seconds: float

    def describe(self) -> str:
        """For assertion messages: how the run ended and the tail of what it printed."""
        return (
            f"exit {self.returncode} after {self.seconds:.1f}s\n"
            f"--- stdout ---\n{self.stdout[-2000:]}\n--- stderr ---\n{self.stderr[-3000:]}"
        )


def run_host(argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], deadline: float) -> HostRun:
    start = time.monotonic()
    proc = subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    code: int | None
    try:
        out, err = proc.communicate(timeout=deadline)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        code = None
    seconds = time.monotonic() - start
    return HostRun(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), seconds)
