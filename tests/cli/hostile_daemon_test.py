"""Issue 9 item 10, through the real ``hookrun`` command: what becomes of a daemon a hook
starts (README "Hostile input").

The promise: a hook that exits by itself after double-forking a ``setsid`` daemon that
let go of the hook's stdout and stderr leaves that daemon running — a hook may start a
background notifier, as Claude Code lets it — and this is the one exception to "no
process left behind". A daemon that still holds the hook's output, one still in the
hook's process group, and every daemon of a hook that timed out are ended with it.

Survivors are found as the README says: by ``HOOKRUN_RUN_ID`` in ``/proc/*/environ``.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.cli.procenv import live_with

if TYPE_CHECKING:
    from conftest import Project

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="POSIX fork/setsid; /proc/*/environ"
)

# The classic daemon: fork, setsid in the child, fork again, the middle process exits,
# the hook waits for it. ``how`` says what the daemon does with the hook's streams
# before the hook exits; ``then`` what the hook does afterwards.
DAEMON = """#!{py}
import os, sys, time
how, then = sys.argv[1], sys.argv[2]
with open("run-id", "w") as f:
    f.write(os.environ["HOOKRUN_RUN_ID"])
if os.fork() == 0:
    if how == "detached":
        fd = os.open(os.devnull, os.O_RDWR)
        for i in (0, 1, 2):
            os.dup2(fd, i)
    if how != "same-group":
        os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", "300"])
    os._exit(0)
os.wait()
if then == "hang":
    time.sleep(300)
"""


def _holders(run_id: str) -> list[int]:
    """Live processes whose environment carries this run's marker."""
    return live_with(b"HOOKRUN_RUN_ID", run_id)


@pytest.mark.timeout(180)
@pytest.mark.parametrize(
    ("how", "then", "code", "survives"),
    [
        ("detached", "exit", 0, True),
        ("holding-stdout", "exit", 0, False),
        ("same-group", "exit", 0, False),
        ("detached", "hang", 0, False),  # timed out: fail-open hook, no opinion
    ],
    ids=["detached-lives", "holding-stdout-ended", "same-group-ended", "timeout-ends-all"],
)
def test_what_outlives_a_hook_that_started_a_daemon(
    project: Project, how: str, then: str, code: int, survives: bool
) -> None:
    project.write("hooks/d.py", DAEMON.format(py=sys.executable), executable=True)
    project.hooks(
        "PreToolUse", {"name": "d", "command": f"./hooks/d.py {how} {then}", "timeout": 3}
    )
    ran = project.run("run", "PreToolUse", payload={}, timeout=120)
    run_id = (project.root / "run-id").read_text()
    try:
        assert ran.code == code, ran.err
        time.sleep(0.3)  # a kill under way has its grace to finish
        left = _holders(run_id)
        assert bool(left) is survives, left
        if survives:
            # The daemon is the sleep, in the session its parent made with setsid.
            assert len(left) == 1
            stat = Path(f"/proc/{left[0]}/stat").read_bytes().rsplit(b")", 1)[1].split()
            pgrp, session = int(stat[2]), int(stat[3])
            assert pgrp == session != os.getsid(0)
    finally:
        for pid in _holders(run_id):
            os.kill(pid, signal.SIGKILL)
