"""Ctrl-C in the thread that called ``Runner.run``, measured in this very process.

``interrupt_test.py`` drives real host processes; these cases raise the same
KeyboardInterrupt (a real SIGINT to this process) inside the test's own main thread, so
the runner's abort path is exercised — and measured by coverage — in-process. Each run
has three hooks that sleep for a minute; the signal is only sent once all three are
running (or from inside the runner's own ``submit``), so it can never land outside
``run`` and stop the test session.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from hookrun import Runner
from hookrun.config.spec import Config, HookSpec
from hookrun.runner import workers

HOOK = """
import os, sys, time
with open(sys.argv[1], "a") as fh:
    fh.write(f"{os.getpid()}\\n")
time.sleep(60)
"""
# Generous: the abort itself takes about a second (grace + reap).
EXIT_BOUND = 8.0


def _runner(root: Path, count: int = 3) -> Runner:
    hook = root / "h.py"
    hook.write_text(f"#!{sys.executable}\n{HOOK}")
    hook.chmod(0o755)
    hooks = tuple(
        HookSpec(
            event="PreToolUse",
            source=f"x#PreToolUse[{i}]",
            name=f"h{i}",
            command=f"./h.py {root / 'pids'} {i}",  # distinct: identical hooks run once
            builtin=None,
        )
        for i in range(count)
    )
    return Runner(Config(hooks={"PreToolUse": hooks}), cwd=str(root), project_dir=str(root))


def _pids(root: Path) -> list[int]:
    try:
        return [int(line) for line in (root / "pids").read_text().split()]
    except (FileNotFoundError, ValueError):
        return []


def _survivors(pids: list[int]) -> list[int]:
    """Hook processes still running a moment after the run ended."""
    end = time.monotonic() + 2.0
    while True:
        alive = []
        for pid in pids:
            try:
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    alive.append(pid)
            except psutil.NoSuchProcess:
                continue
        if not alive or time.monotonic() > end:
            return alive
        time.sleep(0.05)


@pytest.fixture
def leftovers() -> Iterator[list[int]]:
    """Pids to kill after the test whatever happened, so a failure strands nothing."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        try:
            psutil.Process(pid).kill()
        except psutil.Error:
            continue


def test_ctrl_c_while_every_hook_runs_ends_them_all_and_reaches_the_caller(
    tmp_path: Path, leftovers: list[int]
) -> None:
    runner = _runner(tmp_path)
    running = threading.Event()

    def interrupt_once_all_run() -> None:
        end = time.monotonic() + 20
        while len(_pids(tmp_path)) < 3 and time.monotonic() < end:
            time.sleep(0.01)
        if len(_pids(tmp_path)) == 3 and running.is_set():
            os.kill(os.getpid(), signal.SIGINT)

    watcher = threading.Thread(target=interrupt_once_all_run)
    running.set()
    watcher.start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            runner.run("PreToolUse", {"tool_name": "Bash", "tool_input": {}})
    finally:
        running.clear()
        watcher.join()
        leftovers.extend(_pids(tmp_path))
        runner.close()
    assert time.monotonic() - started < 20 + EXIT_BOUND
    assert _survivors(_pids(tmp_path)) == []


@pytest.mark.parametrize("nth", [1, 2], ids=["first-submit", "second-submit"])
def test_ctrl_c_while_hooks_are_being_submitted_starts_no_more_and_ends_the_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, leftovers: list[int], nth: int
) -> None:
    calls: list[int] = []
    submit = workers.WorkerPool.submit

    def interrupting_submit(self: workers.WorkerPool, task: workers.Task) -> None:
        calls.append(1)
        if len(calls) == nth:
            os.kill(os.getpid(), signal.SIGINT)  # a real Ctrl-C, raised at the next bytecode
        submit(self, task)

    monkeypatch.setattr(workers.WorkerPool, "submit", interrupting_submit)
    runner = _runner(tmp_path)
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            runner.run("PreToolUse", {"tool_name": "Bash", "tool_input": {}})
    finally:
        leftovers.extend(_pids(tmp_path))
        runner.close()
    assert time.monotonic() - started < EXIT_BOUND
    assert _survivors(_pids(tmp_path)) == []


def test_a_runner_used_as_a_context_manager_closes_its_workers(tmp_path: Path) -> None:
    (tmp_path / "ok.sh").write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "ok.sh").chmod(0o755)
    hooks = tuple(
        HookSpec(event="Stop", source="x", name=f"ok{i}", command=f"./ok.sh {i}", builtin=None)
        for i in range(2)
    )
    before = threading.active_count()
    with Runner(
        Config(hooks={"Stop": hooks}), cwd=str(tmp_path), project_dir=str(tmp_path)
    ) as runner:
        assert [h.error for h in runner.run("Stop", {}).hooks] == [None, None]
    end = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < end:
        time.sleep(0.01)
    assert threading.active_count() <= before
