"""Issue 9 item 6: SIGINT / SIGTERM / SIGHUP at random moments of a `hookrun run`, start-up
included (and SIGKILL, after which hookrun's sentinel ends the hooks). Once a hook has
started the run exits 128 + N after every hook tree ended;
before, dying by the signal is fine; hookrun's code never prints a traceback, and no
process carrying the run's HOOKRUN_RUN_ID outlives it.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
import pytest

if TYPE_CHECKING:
    from conftest import Project

PACKAGE = str(Path(__file__).resolve().parents[2] / "hookrun") + os.sep

# A hook that says it started, starts a child and a grandchild, then hangs.
HOOK = """#!{py}
import subprocess, sys, time
open(sys.argv[1], "a").write("x")
inner = "import subprocess, time; subprocess.Popen(['sleep', '300']); time.sleep(300)"
subprocess.Popen([sys.executable, "-c", inner])
time.sleep(300)
"""


def _run_processes(marker: str) -> list[psutil.Process]:
    """Live processes started by a run (HOOKRUN_RUN_ID set) of this test (``marker``)."""
    found = []
    for proc in psutil.process_iter(["status"]):
        try:
            if proc.info["status"] == psutil.STATUS_ZOMBIE:
                continue
            env = proc.environ()
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        if env.get("HOOKRUN_STORM_MARKER") == marker and env.get("HOOKRUN_RUN_ID"):
            found.append(proc)
    return found


def _tracebacks_in_hookrun(err: str) -> list[str]:
    """Traceback frames inside the hookrun package. A KeyboardInterrupt that lands in
    Python's own start-up, before hookrun's first line runs, is out of its reach."""
    return [
        line for line in err.splitlines() if line.strip().startswith("File ") and PACKAGE in line
    ]


def _wait_for(started: Path, proc: subprocess.Popen[bytes]) -> None:
    """Until a hook of the run ``proc`` has written ``started``."""
    deadline = time.monotonic() + 60
    while not started.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert started.exists(), f"no hook started (hookrun exit {proc.poll()})"


def _time_to_the_first_hook(project: Project, tmp_path: Path) -> float:
    """Seconds from starting ``hookrun run`` to its first hook running, on this machine now."""
    started = tmp_path / "calibration"
    project.hooks("PreToolUse", {"command": f"./hooks/hang.py {started}", "timeout": 600})
    begin = time.monotonic()
    proc = project.popen("run", "PreToolUse", stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        assert proc.stdin is not None
        proc.stdin.write(b"{}")
        proc.stdin.close()
        while not started.exists() and time.monotonic() - begin < 60:
            time.sleep(0.01)
        assert started.exists(), "the calibration hook never started"
        return time.monotonic() - begin
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 143


@pytest.mark.nocov
@pytest.mark.timeout(900)
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_signals_at_random_moments_end_every_hook_and_exit_by_the_rules(
    project: Project, tmp_path: Path
) -> None:
    rng = random.Random(int(os.environ.get("HOOKRUN_STORM_SEED", "9")))
    project.write("hooks/hang.py", HOOK.format(py=sys.executable), executable=True)
    rounds = int(os.environ.get("HOOKRUN_STORM_ROUNDS", "24"))
    outside = 0
    until_hooks = _time_to_the_first_hook(project, tmp_path)
    for round_no in range(rounds):
        started = tmp_path / f"started-{round_no}"
        project.hooks(
            "PreToolUse",
            *[
                {"name": f"h{i}", "command": f"./hooks/hang.py {started} {i}", "timeout": 600}
                for i in range(3)
            ],
        )
        marker = uuid.uuid4().hex
        # SIGKILL as Codex sends it: hookrun cannot act; its sentinel ends the hooks.
        sig = rng.choice([signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
        # From start-up to well after the hooks started, whatever the machine's load: in
        # the first half of the range, that share of the measured time to the first hook
        # after the start; in the second, that share after the first hook has *really*
        # started. A delay measured from the start alone reached the hooks in 2 to 8 of
        # 24 rounds with the other core busy (load 15): the one calibration run is no
        # measure of a later round's start-up on a loaded machine.
        phase = rng.uniform(0.0, 2.0)
        begin = time.monotonic()
        proc = project.popen(
            "run", "PreToolUse",
            env={"HOOKRUN_STORM_MARKER": marker},
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            assert proc.stdin is not None and proc.stderr is not None
            proc.stdin.write(b'{"tool_name": "Bash", "tool_input": {"command": "ls"}}')
            proc.stdin.close()
            if phase < 1.0:
                delay = phase * until_hooks
            else:
                _wait_for(started, proc)
                delay = time.monotonic() - begin + (phase - 1.0) * until_hooks
            time.sleep(max(0.0, begin + delay - time.monotonic()))
            proc.send_signal(sig)
            code = proc.wait(timeout=60)
            err = proc.stderr.read().decode("utf-8", "replace")
            what = f"round {round_no}: {sig.name} after {delay:.2f}s → {code}\n{err}"
            assert _tracebacks_in_hookrun(err) == [], what
            in_python_start_up = "Traceback" in err  # and no frame of hookrun's (above)
            outside += in_python_start_up
            if sig == signal.SIGKILL:
                assert code == -sig and err == "", what
            elif started.exists():
                assert code == 128 + sig, what
            elif not in_python_start_up:
                assert code in (128 + sig, -sig), what
            # else: Python's own start-up (runpy, site) was cut before hookrun's first
            # line; CPython then exits 1 or by the signal, with its traceback.
            deadline = time.monotonic() + 5
            while _run_processes(marker) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert _run_processes(marker) == [], what
        finally:
            proc.kill()
            proc.wait()
            for survivor in _run_processes(marker):
                survivor.kill()
    # Most rounds must reach the hooks, or the test says nothing about them.
    reached = sum(1 for i in range(rounds) if (tmp_path / f"started-{i}").exists())
    assert reached >= rounds // 3, (reached, rounds)
    print(f"{reached}/{rounds} rounds reached the hooks; {outside} start-up tracebacks")
