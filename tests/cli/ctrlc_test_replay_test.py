"""Ctrl-C (or SIGTERM) during ``hookrun test`` / ``hookrun replay --allow-commands``
leaves no hook process and no scratch directory behind, and hookrun ends within a few
seconds.

``hookrun run`` routes SIGINT/SIGTERM to its run's cancel token; these two commands do
not: SIGINT is at SIG_DFL from hookrun's first line (``hookrun/__init__.py``) and
SIGTERM is the default too, so the signal ends hookrun at once. The hooks it started sit
in process groups of their own, which neither a signal to hookrun's pid (a host, a
script) nor a terminal's Ctrl-C (hookrun's foreground group) reaches: what ends them is
the sentinel (``hookrun/dispatch/sentinel.py``), which every external process of a run
is registered with, whatever the command. This test is the proof, through the real
command: hooks that sleep 60 s (a script with a child, and the in-process shell's
external programs), the signal mid-run, then no process carrying the test's mark may
live — hooks, their children, the sentinel.
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

import psutil
import pytest

from tests.cli.procenv import live_with

if TYPE_CHECKING:
    from conftest import Project

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
    pytest.mark.timeout(180),
]

MARK = b"S10_CTRLC_MARK"
SCRATCH = ("hookrun-test-state-", "hookrun-replay-")
# A script hook: writes its pid, starts a child that writes its own, sleeps 60 s.
HANG = """#!{py}
import os, subprocess, sys, time
with open(sys.argv[1], "a") as f:
    f.write(f"{{os.getpid()}}\\n")
inner = "import os, sys, time; print(os.getpid(), file=open(sys.argv[1], 'a')); time.sleep(60)"
subprocess.Popen([sys.executable, "-c", inner, sys.argv[1]])
time.sleep(60)
"""
CASE = """cases:
  - name: slow
    event: PreToolUse
    tool: bash
    input: {command: ls}
    expect: {decision: none}
"""


def _slow_hooks(started: Path) -> dict[str, object]:
    return {
        "hooks": {
            "PreToolUse": [
                {"name": "script", "command": f"./hooks/hang.py {started}", "timeout": 600},
                # the in-process shell's external programs: a pipeline in the background
                {"name": "shell", "command": f"sleep 60 | sleep 61 & ./hooks/hang.py {started}",
                 "timeout": 600},
            ]
        }
    }  # fmt: skip


def _wait_for(path: Path, lines: int, within: float = 60) -> list[int]:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if path.exists() and len(got := path.read_text().split()) >= lines:
            return [int(pid) for pid in got]
        time.sleep(0.02)
    raise AssertionError(f"the hooks never started ({path})")


def _sentinels(mark: str) -> list[int]:
    found = []
    for pid in live_with(MARK, mark):
        try:
            if Path(f"/proc/{pid}/comm").read_bytes().strip() == b"hookrun-sentry":
                found.append(pid)
        except OSError:
            continue
    return found


def _alive(pids: list[int]) -> list[int]:
    found = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                found.append(pid)
        except psutil.NoSuchProcess:
            continue
    return found


def _start(
    project: Project, command: str, mark: str, started: Path, tmp: Path
) -> subprocess.Popen[bytes]:
    project.write("hooks/hang.py", HANG.format(py=sys.executable), executable=True)
    if command == "test":
        project.config(_slow_hooks(started))
        project.write(".hookrun/tests/slow.yaml", CASE)
        args = ["test"]
    else:
        # A log to replay, recorded by the real `hookrun run`; then a config whose hooks hang.
        project.config(
            {
                "audit_log": ".hookrun/audit.jsonl",
                "audit_payload": True,
                "hooks": {"PreToolUse": [{"name": "log", "command": "true"}]},
            }
        )
        ran = project.run("run", "PreToolUse", payload=project.tool("Bash", command="ls"))
        assert ran.code == 0, ran.err
        project.config(_slow_hooks(started), ".hookrun/slow.json")
        args = ["replay", ".hookrun/audit.jsonl", "--config", ".hookrun/slow.json",
                "--allow-commands"]  # fmt: skip
    proc: subprocess.Popen[bytes] = project.popen(
        *args,
        env={MARK.decode(): mark, "TMPDIR": str(tmp)},
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,  # a group of its own, as a terminal's foreground job
    )  # fmt: skip
    return proc


@pytest.mark.parametrize("command", ["test", "replay"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("target", ["pid", "group"])
def test_a_signal_mid_run_leaves_no_hook_process_behind(
    project: Project, tmp_path: Path, command: str, sig: signal.Signals, target: str
) -> None:
    started = tmp_path / "started"
    mark = uuid.uuid4().hex
    tmp = tmp_path / "tmp"  # where the command makes its scratch state
    tmp.mkdir()
    proc = _start(project, command, mark, started, tmp)
    pids: list[int] = []
    try:
        # 2 hooks, each with its child: 4 pids written, plus the pipeline's sleeps.
        pids = _wait_for(started, 4)
        deadline = time.monotonic() + 30
        while len(live_with(MARK, mark)) < 8 and time.monotonic() < deadline:
            time.sleep(0.05)
        # hookrun, 2 hooks, their 2 children, 2 sleeps (+ the shell's helpers), the sentinel
        assert len(_alive(pids)) == 4
        assert len(live_with(MARK, mark)) >= 7
        assert len(_sentinels(mark)) == 1, "no sentinel watches the hooks"
        scratch = [p.name for p in tmp.iterdir() if p.name.startswith(SCRATCH)]
        assert len(scratch) == 1, scratch  # the test sees the command's own scratch dir
        assert proc.poll() is None
        if target == "pid":  # a host or a script: hookrun's pid only
            proc.send_signal(sig)
        else:  # a terminal: the whole foreground process group
            os.killpg(proc.pid, sig)
        signalled = time.monotonic()
        proc.wait(timeout=10)
        ended_in = time.monotonic() - signalled
        assert ended_in < 5, f"hookrun took {ended_in:.1f} s to end"
        # Ended by the signal (SIG_DFL), as before any hook starts in `hookrun run`.
        assert proc.returncode == -sig, proc.stderr.read() if proc.stderr else b""
        deadline = time.monotonic() + 5
        while (_alive(pids) or live_with(MARK, mark)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _alive(pids) == [], "hook processes outlived hookrun"
        assert live_with(MARK, mark) == [], "processes of the run outlived hookrun"
        left = [p.name for p in tmp.iterdir() if p.name.startswith(SCRATCH)]
        assert left == [], "the signal left the command's scratch state behind"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for pid in set(_alive(pids)) | set(live_with(MARK, mark)):
            os.kill(pid, signal.SIGKILL)
