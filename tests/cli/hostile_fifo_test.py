"""`hookrun run` with a hook that waits on a FIFO nobody serves (in-process shell): the
hook's timeout ends it, and so does SIGTERM — before, the run stayed for ever, through
both, its main thread blocked opening the FIFO inside the hookrun process."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Project

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs")

PAYLOAD = json.dumps({"tool_name": "Bash", "tool_input": {"command": "ls"}}).encode()


def _start(project: Project, command: str, timeout: float) -> subprocess.Popen[bytes]:
    os.mkfifo(project.root / "f")
    project.hooks("PreToolUse", {"name": "fifo", "command": command, "timeout": timeout})
    proc = project.popen(
        "run", "PreToolUse", stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    return proc


def _unblock(project: Project) -> None:
    for flags in (os.O_RDONLY | os.O_NONBLOCK, os.O_WRONLY | os.O_NONBLOCK):
        with contextlib.suppress(OSError):
            os.close(os.open(project.root / "f", flags))


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "command",
    # (the last: a reader there that never reads, as the pipe fills with printf's output)
    ["read x < ./f", "echo hi > ./f", "exec 3<>./f; printf '%0200000d' 0 >&3"],
)
def test_the_hooks_timeout_ends_a_fifo_wait(project: Project, command: str) -> None:
    proc = _start(project, command, timeout=1)
    try:
        out, err = proc.communicate(PAYLOAD, timeout=60)
    except subprocess.TimeoutExpired:
        _unblock(project)
        proc.kill()
        proc.communicate()
        pytest.fail(f"{command!r}: hookrun run still running 60 s after a 1 s hook timeout")
    assert b"timed out after 1" in err, err
    assert proc.returncode in (0, 2), (proc.returncode, out, err)


@pytest.mark.timeout(120)
def test_sigterm_ends_a_run_whose_hook_waits_on_a_fifo(project: Project, tmp_path: Path) -> None:
    proc = _start(project, "read x < ./f", timeout=600)
    assert proc.stdin is not None
    proc.stdin.write(PAYLOAD)
    proc.stdin.close()
    try:
        time.sleep(1.0)  # started, and waiting on the FIFO (or about to)
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            _unblock(project)
            pytest.fail("hookrun run still running 60 s after SIGTERM")
        assert proc.returncode == 128 + signal.SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
