"""tests/e2e/driver.py's run_process: a host past its time is ended with everything it
started, and the failure says what each of its processes was doing.

A host is often a launcher (Copilot's npm loader runs its native binary as a child,
which runs the hooks, some in sessions of their own); killing the launcher alone left
the real host and its hooks running after the test had failed.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import psutil
import pytest

from tests.e2e.driver import run_process

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell launchers")


def _gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False


def test_a_host_past_its_timeout_is_ended_with_its_children_and_their_sessions(
    tmp_path: Path,
) -> None:
    # The launcher waits on a child; the child started a "hook" in a session of its own.
    pids = tmp_path / "pids"
    # Durations no other run uses: another copy of the suite may be running this test.
    hook, child = f"301.{os.getpid()}", f"302.{os.getpid()}"
    script = (
        f"sh -c 'setsid sleep {hook} & echo $! >> {pids}; sleep {child}' & echo $! >> {pids}; wait"
    )
    run = run_process(["sh", "-c", script], tmp_path, {"PATH": "/usr/bin:/bin"}, timeout=1.5)
    assert run.code == -1
    assert "(killed: still running after 1.5 s)" in run.err
    # The failure names each process, with its state and kernel wait channel.
    assert f"sleep {hook}" in run.err and f"sleep {child}" in run.err, run.err
    assert "wchan=" in run.err and "cpu=" in run.err
    started = [int(line) for line in pids.read_text().split()]
    assert len(set(started)) == 2  # the hook, and the launcher's child
    left = [pid for pid in started if not _gone(pid)]
    for pid in left:
        psutil.Process(pid).kill()
    assert not left, f"still running after the host's timeout: {left}"
    assert not [p for p in psutil.process_iter(["cmdline"]) if p.info["cmdline"] == ["sleep", hook]]


def test_a_host_that_finishes_in_time_is_reported_as_it_exited(tmp_path: Path) -> None:
    run = run_process(["sh", "-c", "echo out; echo err >&2; exit 3"], tmp_path, {}, timeout=30)
    assert (run.code, run.out, run.err) == (3, "out\n", "err\n")
