"""Leaks: 1,000 consecutive ``Runner.run`` calls (× ``HOOKRUN_RELIABILITY_SCALE``; about 18 s
at 1.0) mixing fast in-process, failing, external, timing-out, cancelled and asyncio runs leave
no more open file descriptors, threads or child processes than after the warm-up, give or take
a small constant.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import psutil

from hookrun.dispatch.cancel import CancelToken
from hookrun.runner import Runner
from tests.reliability.helpers import scaled

# tool name → what its hooks do; every run picks one tool, so one config serves all kinds.
HOOKS = [
    {"name": "fast", "matcher": "^fast$", "command": 'echo \'{"decision": "allow"}\''},
    {"name": "fast-ctx", "matcher": "^fast$", "command": 'echo \'{"context": "hi"}\''},
    {"name": "fail", "matcher": "^fail$", "command": "echo oops >&2; exit 3"},
    {"name": "deny", "matcher": "^fail$", "command": "echo no >&2; exit 2"},
    {"name": "garbage", "matcher": "^fail$", "command": "echo '{not json'"},
    {"name": "missing", "matcher": "^fail$", "command": "./no-such-script.sh"},
    {"name": "guard", "matcher": "^fail$", "builtin": "shell-guard"},
    {"name": "ext", "matcher": "^ext$", "command": "true"},
    {"name": "ext-pipe", "matcher": "^ext$", "command": "echo '{}' | cat"},
    {"name": "slow", "matcher": "^slow$", "command": "sleep 30", "timeout": 0.2},
    {"name": "slow-bg", "matcher": "^slow$", "command": "sleep 30 & sleep 30", "timeout": 0.2},
    {"name": "slow-fast", "matcher": "^slow$", "command": "echo '{}'"},
    {"name": "cancelled", "matcher": "^cancel$", "command": "sleep 30 & sleep 30", "timeout": 60},
    {"name": "cancelled-py", "matcher": "^cancel$", "command": "sleep 30", "timeout": 60},
]
# One cycle of 20 runs: mostly cheap, one timing out (each costs ~0.2 s + the kill), one
# cancelled from another thread, one through asyncio (``arun``).
CYCLE = ["fast"] * 9 + ["fail"] * 5 + ["ext"] * 3 + ["async"] + ["slow"] + ["cancel"]


def _snapshot(me: psutil.Process) -> dict[str, set[int]]:
    """What the process holds, as sets: growth is what is new since the baseline.

    Sets rather than counts, so that leftovers of earlier tests ending meanwhile cannot hide
    a leak of this one.
    """
    return {
        "fds": {int(fd) for fd in os.listdir("/proc/self/fd")},
        "threads (threading)": {t.ident or 0 for t in threading.enumerate()},
        "threads (os)": {t.id for t in me.threads()},
        "children": {c.pid for c in me.children(recursive=True)},
    }


def _new(base: dict[str, set[int]], now: dict[str, set[int]]) -> dict[str, int]:
    return {k: len(now[k] - base[k]) for k in base}


def _settled(
    me: psutil.Process, base: dict[str, set[int]], slack: dict[str, int]
) -> dict[str, int]:
    """How many fds/threads/children are new since ``base``, once within ``slack`` or after
    10 s of waiting.

    Kill threads of a timed-out run end up to a second after the run returned; waiting for
    them is fair, a leak never settles.
    """
    deadline = time.monotonic() + 10
    while True:
        grown = _new(base, _snapshot(me))
        if all(grown[k] <= slack[k] for k in slack) or time.monotonic() > deadline:
            return grown
        time.sleep(0.1)


def _run_one(runner: Runner, tool: str) -> object:
    payload = {"tool_name": tool, "tool_input": {"command": "ls"}}
    if tool == "async":
        return asyncio.run(runner.arun("PreToolUse", {**payload, "tool_name": "ext"}))
    if tool == "cancel":
        token = CancelToken()
        timer = threading.Timer(0.1, token.cancel)
        timer.start()
        try:
            return runner.run("PreToolUse", payload, cancel=token)
        finally:
            timer.join()
    return runner.run("PreToolUse", payload)


def _run_many(runner: Runner, count: int, check: Callable[[str, object], None]) -> None:
    for i in range(count):
        tool = CYCLE[i % len(CYCLE)]
        check(tool, _run_one(runner, tool))


def _check(tool: str, result: object) -> None:
    from hookrun.runner import RunResult

    assert isinstance(result, RunResult)
    if tool == "fail":
        assert result.decision == "deny"
    if tool == "slow":
        assert [h.timed_out for h in result.hooks] == [True, True, False], result.hooks
    if tool == "cancel":
        assert result.cancelled and result.exit_code == 130, result
    if tool == "async":
        assert [h.name for h in result.hooks] == ["ext", "ext-pipe"], result.hooks


def test_a_thousand_mixed_runs_leak_no_fds_threads_or_children(tmp_path: Path) -> None:
    (tmp_path / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": HOOKS}}))
    runner = Runner.from_paths([tmp_path / "hooks.json"], cwd=tmp_path)
    me = psutil.Process()
    _run_many(runner, 2 * len(CYCLE), _check)  # warm-up: imports, pools, the watchdog
    time.sleep(1.5)  # the warm-up's kill threads end
    slack = {"fds": 4, "threads (threading)": 2, "threads (os)": 2, "children": 0}
    base = _snapshot(me)
    count = scaled(1000, len(CYCLE))
    start = time.monotonic()
    _run_many(runner, count, _check)
    elapsed = time.monotonic() - start
    grown = _settled(me, base, slack)
    held = {k: len(v) for k, v in base.items()}
    print(f"\nleaks: {count} runs in {elapsed:.1f} s; held before {held}; new after {grown}")
    for key, extra in slack.items():
        assert grown[key] <= extra, f"{key}: {grown[key]} new since the warm-up"


def test_runners_built_and_closed_per_event_leave_no_threads_or_fds(tmp_path: Path) -> None:
    """A host that rebuilds its runner per event (config reload) and closes it leaks nothing.

    (Unclosed runners keep their idle workers up to ``workers.IDLE_TIMEOUT``, 30 s, by design.)
    """
    (tmp_path / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": HOOKS}}))
    me = psutil.Process()

    def once(tool: str) -> None:
        with Runner.from_paths([tmp_path / "hooks.json"], cwd=tmp_path) as runner:
            _check(tool, _run_one(runner, tool))

    for tool in ("fast", "fail", "ext"):
        once(tool)
    slack = {"fds": 4, "threads (threading)": 2, "threads (os)": 2, "children": 0}
    base = _snapshot(me)
    for i in range(scaled(200, 10)):
        once(("fast", "fail", "ext")[i % 3])
    grown = _settled(me, base, slack)
    print(f"\nleaks: a runner per event, closed: new after {grown}")
    for key, extra in slack.items():
        assert grown[key] <= extra, f"{key}: {grown[key]} new since the warm-up"
