"""Orphans: hooks that fork grandchildren (a bash ``sleep 300 &``, a python that double-forks
into a new session) and hang past their timeout leave zero surviving processes — over 100 runs
(× ``HOOKRUN_RELIABILITY_SCALE``; about 15 s at 1.0, four runs at a time), and when a
``hookrun run`` in flight gets SIGINT or SIGTERM (exit 130 / 143).

Every process a test starts carries a unique marker in its environment, so the scan finds
exactly this test's leftovers whatever else runs on the machine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hookrun.runner import Runner
from tests.reliability.helpers import hookrun_env, kill_all, marked, scaled, wait_gone

BASH_BG = """#!/bin/bash
sleep 300 &
( sleep 300 & wait ) &
echo started >> "$READY"
sleep 300
"""
# fork → setsid → fork: the grandchild is in a new session, reparented to init (or the
# nearest subreaper), out of the hook's process group and no descendant of anything.
PY_DAEMON = """#!{py}
import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(300)
    os._exit(0)
with open(os.environ["READY"], "a") as f:
    f.write("started\\n")
time.sleep(300)
"""


def _project(root: Path) -> Path:
    hooks = root / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "bg.sh").write_text(BASH_BG)
    (hooks / "daemon.py").write_text(PY_DAEMON.format(py=sys.executable))
    for f in hooks.iterdir():
        f.chmod(0o755)
    return hooks


def _marker() -> str:
    return f"hookrun-reliability-{uuid.uuid4().hex}"


def test_a_hundred_timed_out_runs_with_forking_hooks_leave_no_survivor(tmp_path: Path) -> None:
    _project(tmp_path)
    (tmp_path / "hooks.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"name": "bg", "command": "./hooks/bg.sh", "timeout": 0.3},
                        {"name": "daemon", "command": "./hooks/daemon.py", "timeout": 0.3},
                        {"name": "inline", "command": "sleep 300 & sleep 300", "timeout": 0.3},
                    ]
                }
            }
        )
    )
    marker = _marker()
    env = {**os.environ, "RELIABILITY_MARKER": marker, "READY": str(tmp_path / "ready")}
    runner = Runner.from_paths([tmp_path / "hooks.json"], cwd=tmp_path, env=env)
    count = scaled(100, 2)

    def one(_: int) -> list[bool]:
        result = runner.run("PreToolUse", {"tool_name": "bash", "tool_input": {}})
        return [h.timed_out for h in result.hooks]

    start = time.monotonic()
    try:
        with ThreadPoolExecutor(4) as pool:
            outcomes = list(pool.map(one, range(count)))
        elapsed = time.monotonic() - start
        survivors = wait_gone(marker, within=30)
        assert outcomes == [[True, True, True]] * count
        started = (tmp_path / "ready").read_text().count("started")
        assert started >= count, "the hooks got killed before they forked: the test proves less"
        print(f"\norphans: {count} runs × 3 forking hooks in {elapsed:.1f} s, 0 survivors")
        assert not survivors, [(p.pid, p.cmdline()) for p in survivors]
    finally:
        kill_all(marked(marker))


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_to_hookrun_run_in_flight_exits_128_plus_n_with_no_survivor(
    tmp_path: Path, sig: signal.Signals, code: int
) -> None:
    root = tmp_path / "proj"
    (root / ".hookrun").mkdir(parents=True)
    _project(root)
    (root / ".hookrun" / "hooks.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"command": "./hooks/bg.sh", "timeout": 600},
                        {"command": "./hooks/daemon.py", "timeout": 600},
                        {"command": "sleep 300 & sleep 300", "timeout": 600},
                        {"builtin": "shell-guard"},
                    ]
                }
            }
        )
    )
    marker = _marker()
    ready = tmp_path / "ready"
    env = hookrun_env(tmp_path, {"RELIABILITY_MARKER": marker, "READY": str(ready)})
    proc = subprocess.Popen(
        [sys.executable, "-m", "hookrun", "run", "PreToolUse"],
        cwd=root, env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert proc.stdin is not None
        proc.stdin.write(b'{"tool_name": "bash", "tool_input": {"command": "ls"}}')
        proc.stdin.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            not ready.exists() or ready.read_text().count("started") < 2
        ):
            time.sleep(0.05)
        time.sleep(0.3)  # the background sleeps and the daemon grandchild start too
        # hookrun, bash + 2 sleeps + subshell + its sleep, python + daemon, 2 inline sleeps
        assert len(marked(marker)) >= 8, [p.cmdline() for p in marked(marker)]
        start = time.monotonic()
        proc.send_signal(sig)
        proc.wait(timeout=30)
        assert proc.stderr is not None
        err = proc.stderr.read()
        assert time.monotonic() - start < 10, "a signal ends the run within about a second"
        assert proc.returncode == code, err
        assert b"Traceback" not in err, err
        survivors = wait_gone(marker, within=30)
        assert not survivors, [(p.pid, p.cmdline()) for p in survivors]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        kill_all(marked(marker))


STUBBORN = """#!/bin/bash
trap '' TERM INT HUP
sleep 300 &
( trap '' TERM; sleep 300 ) &
echo started >> "$READY"
while true; do sleep 1; done
"""


def test_hooks_ignoring_sigterm_are_killed_after_the_grace_and_leave_no_survivor(
    tmp_path: Path,
) -> None:
    hooks = _project(tmp_path)
    (hooks / "stubborn.sh").write_text(STUBBORN)
    (hooks / "stubborn.sh").chmod(0o755)
    (tmp_path / "hooks.json").write_text(
        json.dumps({"hooks": {"PreToolUse": [{"command": "./hooks/stubborn.sh", "timeout": 0.3}]}})
    )
    marker = _marker()
    env = {**os.environ, "RELIABILITY_MARKER": marker, "READY": str(tmp_path / "ready")}
    runner = Runner.from_paths([tmp_path / "hooks.json"], cwd=tmp_path, env=env)
    count = scaled(20, 2)
    try:
        with ThreadPoolExecutor(4) as pool:
            results = list(
                pool.map(lambda _: runner.run("PreToolUse", {"tool_name": "x"}), range(count))
            )
        assert all(r.hooks[0].timed_out for r in results)
        survivors = wait_gone(marker, within=30)
        assert not survivors, [(p.pid, p.cmdline()) for p in survivors]
    finally:
        kill_all(marked(marker))


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_second_signal_during_the_kill_still_exits_cleanly_with_no_survivor(
    tmp_path: Path, sig: signal.Signals
) -> None:
    root = tmp_path / "proj"
    (root / ".hookrun").mkdir(parents=True)
    hooks = _project(root)
    (hooks / "stubborn.sh").write_text(STUBBORN)
    (hooks / "stubborn.sh").chmod(0o755)
    (root / ".hookrun" / "hooks.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"command": "./hooks/stubborn.sh", "timeout": 600},
                        {"command": "./hooks/daemon.py", "timeout": 600},
                    ]
                }
            }
        )
    )
    marker = _marker()
    ready = tmp_path / "ready"
    env = hookrun_env(tmp_path, {"RELIABILITY_MARKER": marker, "READY": str(ready)})
    proc = subprocess.Popen(
        [sys.executable, "-m", "hookrun", "run", "PreToolUse"],
        cwd=root, env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.write(b'{"tool_name": "bash"}')
        proc.stdin.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            not ready.exists() or ready.read_text().count("started") < 2
        ):
            time.sleep(0.05)
        time.sleep(0.3)
        proc.send_signal(sig)
        time.sleep(0.1)  # inside the grace: the stubborn hook is still alive
        proc.send_signal(sig)
        proc.wait(timeout=30)
        err = proc.stderr.read()
        assert b"Traceback" not in err, err
        assert proc.returncode == 128 + sig, err
        survivors = wait_gone(marker, within=30)
        assert not survivors, [(p.pid, p.cmdline()) for p in survivors]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        kill_all(marked(marker))
