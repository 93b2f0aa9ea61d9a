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
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from hookrun import Runner
from hookrun.config.spec import Config, HookSpec
from hookrun.runner import PayloadError, workers
from tests.timing import soon_after

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


def _assert_interrupted_at_once(root: Path, leftovers: list[int]) -> None:
    """A run of three minute-long hooks, interrupted as it starts them, raises
    KeyboardInterrupt at once and leaves none of them running."""
    runner = _runner(root)
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            runner.run("PreToolUse", {"tool_name": "Bash", "tool_input": {}})
    finally:
        leftovers.extend(_pids(root))
        runner.close()
    soon_after(time.monotonic() - started, 0, idle_bound=EXIT_BOUND)  # the hooks sleep 60 s
    assert _survivors(_pids(root)) == []


def test_ctrl_c_while_every_hook_runs_ends_them_all_and_reaches_the_caller(
    tmp_path: Path, leftovers: list[int]
) -> None:
    runner = _runner(tmp_path)
    running = threading.Event()
    interrupted_at: list[float] = []

    def interrupt_once_all_run() -> None:
        end = time.monotonic() + 20
        while len(_pids(tmp_path)) < 3 and time.monotonic() < end:
            time.sleep(0.01)
        if len(_pids(tmp_path)) == 3 and running.is_set():
            interrupted_at.append(time.monotonic())
            os.kill(os.getpid(), signal.SIGINT)

    watcher = threading.Thread(target=interrupt_once_all_run)
    running.set()
    watcher.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            runner.run("PreToolUse", {"tool_name": "Bash", "tool_input": {}})
    finally:
        running.clear()
        watcher.join()
        leftovers.extend(_pids(tmp_path))
        runner.close()
    ended = time.monotonic()
    assert interrupted_at, "the hooks never all started"
    soon_after(ended - interrupted_at[0], 0, idle_bound=EXIT_BOUND)  # they sleep 60 s
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
    _assert_interrupted_at_once(tmp_path, leftovers)


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


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the point
@pytest.mark.parametrize("where", ["weakref", "__del__"])
def test_a_ctrl_c_python_swallows_in_a_callback_still_ends_the_run_with_keyboard_interrupt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, leftovers: list[int], where: str
) -> None:
    # The SIGINT lands inside a weakref callback / __del__ (as importlib's module-lock
    # callback after an import): CPython only reports the KeyboardInterrupt raised
    # there, and the main thread would go on waiting a minute for its hook.
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    execute_child = subprocess.Popen._execute_child  # type: ignore[attr-defined]

    class Gone:
        def __del__(self) -> None:
            if where == "__del__":
                os.kill(os.getpid(), signal.SIGINT)

    def swallowing_execute(self: subprocess.Popen[bytes], *args: object) -> None:
        execute_child(self, *args)
        if threading.current_thread() is threading.main_thread():
            gone = Gone()
            ref = weakref.ref(  # noqa: F841 - kept alive until gone is
                gone, lambda _: where == "weakref" and os.kill(os.getpid(), signal.SIGINT)
            )
            del gone

    monkeypatch.setattr(subprocess.Popen, "_execute_child", swallowing_execute)
    _assert_interrupted_at_once(tmp_path, leftovers)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def _signalling_runner(root: Path) -> Runner:
    """One hook that sends this process SIGINT, then answers."""
    hook = root / "ctrl_c.py"
    hook.write_text(
        f"#!{sys.executable}\nimport os, signal\nos.kill({os.getpid()}, signal.SIGINT)\n"
    )
    hook.chmod(0o755)
    spec = HookSpec(event="Stop", source="x", name="c", command="./ctrl_c.py", builtin=None)
    return Runner(Config(hooks={"Stop": (spec,)}), cwd=str(root), project_dir=str(root))


def test_a_host_sigint_handler_of_its_own_is_left_in_place_and_gets_the_signal(
    tmp_path: Path,
) -> None:
    got: list[int] = []

    def host(signum: int, frame: object) -> None:
        got.append(signum)

    previous = signal.signal(signal.SIGINT, host)
    try:
        with _signalling_runner(tmp_path) as runner:
            result = runner.run("Stop", {})
        end = time.monotonic() + 5
        while not got and time.monotonic() < end:
            time.sleep(0.01)
        current = signal.getsignal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert got == [signal.SIGINT]
    assert not result.cancelled and [h.error for h in result.hooks] == [None]
    assert current is host


def test_a_run_on_another_thread_touches_no_handler_and_pythons_is_back_after_a_run(
    tmp_path: Path,
) -> None:
    (tmp_path / "ok.sh").write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "ok.sh").chmod(0o755)
    spec = HookSpec(event="Stop", source="x", name="ok", command="./ok.sh", builtin=None)
    with Runner(
        Config(hooks={"Stop": (spec,)}), cwd=str(tmp_path), project_dir=str(tmp_path)
    ) as runner:
        results = []
        thread = threading.Thread(target=lambda: results.append(runner.run("Stop", {})))
        thread.start()
        thread.join(30)
        assert [h.error for h in results[0].hooks] == [None]
        assert [h.error for h in runner.run("Stop", {}).hooks] == [None]
        with pytest.raises(PayloadError):
            runner.run("", {})
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
