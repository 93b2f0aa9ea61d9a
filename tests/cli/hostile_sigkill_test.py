"""Issue 9 item 6 / issue 10's hung-hook scenario, through the real ``hookrun`` command:
hookrun killed by SIGKILL mid-run (what Codex CLI does to a hook past its timeout)
leaves no hook process behind, and its sentinel does not outlive it.

hookrun cannot act on SIGKILL; its sentinel (hookrun/dispatch/sentinel.py) sees its
pipe close and ends every hook process group. Survivors are found as the README says:
by the run's ``HOOKRUN_RUN_ID`` in ``/proc/*/environ``; the sentinel by the variable
this test gives hookrun (a fork carries its parent's environment) and its name.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.cli.procenv import live_with

if TYPE_CHECKING:
    from conftest import Project

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
    pytest.mark.timeout(180),
]

# A script hook that records its run id, starts a child and a grandchild (in its own
# process group), then hangs.
HANG = """#!{py}
import os, subprocess, sys, time
with open(sys.argv[1], "a") as f:
    f.write(os.environ["HOOKRUN_RUN_ID"] + "\\n")
inner = "import subprocess, time; subprocess.Popen(['sleep', '300']); time.sleep(300)"
subprocess.Popen([sys.executable, "-c", inner])
time.sleep(300)
"""
NAME = b"hookrun-sentry"


def _sentinels(marker: str) -> list[int]:
    found = []
    for pid in live_with(b"I9_SIGKILL_MARKER", marker):
        try:
            if Path(f"/proc/{pid}/comm").read_bytes().strip() == NAME:
                found.append(pid)
        except OSError:
            continue
    return found


def _until_empty(find: object, within: float) -> list[int]:
    assert callable(find)
    deadline = time.monotonic() + within
    while (left := find()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return list(left)


def _wait_for(path: Path, lines: int, within: float = 60) -> list[str]:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if path.exists() and len(got := path.read_text().splitlines()) >= lines:
            return got
        time.sleep(0.02)
    raise AssertionError(f"the hooks never started ({path})")


def test_sigkill_mid_run_ends_every_hook_process_and_the_sentinel_after_it(
    project: Project, tmp_path: Path
) -> None:
    project.write("hooks/hang.py", HANG.format(py=sys.executable), executable=True)
    started = tmp_path / "started"
    project.hooks(
        "PreToolUse",
        {"name": "script", "command": f"./hooks/hang.py {started}", "timeout": 600},
        # external programs of the in-process shell: a pipeline, and one in the background
        {"name": "shell", "command": f"sleep 300 | sleep 301 & ./hooks/hang.py {started}",
         "timeout": 600},
    )  # fmt: skip
    marker = uuid.uuid4().hex
    proc = project.popen(
        "run", "PreToolUse",
        env={"I9_SIGKILL_MARKER": marker},
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    run_id = ""
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(b'{"tool_name": "Bash", "tool_input": {"command": "ls"}}')
        proc.stdin.close()
        run_id = _wait_for(started, 2)[0]
        # Both hooks' trees up: 2 × (hook, its python child, that one's sleep) + the
        # pipeline's two sleeps (+ the shell's helpers).
        deadline = time.monotonic() + 30
        while len(live_with(b"HOOKRUN_RUN_ID", run_id)) < 8 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(live_with(b"HOOKRUN_RUN_ID", run_id)) >= 8
        assert len(_sentinels(marker)) == 1
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=60) == -signal.SIGKILL
        # The host reading hookrun's stdout sees its end at once: nothing else holds it.
        # Checked without a clock: hookrun's descriptors are closed once it is reaped, so
        # a read that cannot block finds the end, where a hook, a helper or the sentinel
        # still holding the write end would make it fail with EAGAIN instead.
        os.set_blocking(proc.stdout.fileno(), False)
        try:
            rest: bytes | None = os.read(proc.stdout.fileno(), 1 << 16)
        except BlockingIOError:
            rest = None
        assert rest == b"", "another process still holds hookrun's stdout"
        # Polls that end when the processes do; the bound is only far below their 300 s
        # sleeps, not a speed claim (a loaded machine slows the sentinel's kill path).
        left = _until_empty(lambda: live_with(b"HOOKRUN_RUN_ID", run_id), within=30)
        assert left == [], "hook processes outlived hookrun"
        assert _until_empty(lambda: _sentinels(marker), within=30) == [], "the sentinel lingers"
    finally:
        proc.kill()
        proc.wait()
        for pid in live_with(b"HOOKRUN_RUN_ID", run_id) if run_id else []:
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(
    ("command", "sentinel"),
    [
        ("sleep 0.5", True),  # an external program: the sentinel watches it
        ('echo \'{"context": "x"}\'', False),  # answered from its text: no process at all
        ("printf '%s' '{}'", False),  # a builtin of the in-process shell: no process either
    ],
    ids=["external", "trivial", "builtin"],
)
def test_the_sentinel_starts_only_for_a_process_and_is_gone_when_the_run_ends(
    project: Project, command: str, sentinel: bool
) -> None:
    project.hooks("PreToolUse", {"name": "h", "command": command})
    marker = uuid.uuid4().hex
    proc = project.popen(
        "run", "PreToolUse",
        env={"I9_SIGKILL_MARKER": marker},
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.stdin is not None
    proc.stdin.write(b"{}")
    proc.stdin.close()
    seen: set[int] = set()
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        seen.update(_sentinels(marker))
        time.sleep(0.02)
    assert proc.wait(timeout=10) == 0
    assert len(seen) == (1 if sentinel else 0), seen
    # Nothing was left registered: it exits at once, no grace to wait out. (A poll that
    # ends when it does; the bound is far below a sentinel that never exits.)
    assert _until_empty(lambda: _sentinels(marker), within=30) == []
