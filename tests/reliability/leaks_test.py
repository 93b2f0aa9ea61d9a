"""Leaks: 1,000 consecutive ``Runner.run`` calls (× ``HOOKRUN_RELIABILITY_SCALE``; about 18 s
at 1.0) mixing fast in-process, failing, external, timing-out, cancelled and asyncio runs leave
no more open file descriptors, threads or child processes than after the warm-up, give or take
a small constant.
"""

from __future__ import annotations

import asyncio
import json
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


def _snapshot(me: psutil.Process) -> dict[str, int]:
    return {
        "fds": me.num_fds(),
        "threads (threading)": threading.active_count(),
        "threads (os)": me.num_threads(),
        "children": len(me.children(recursive=True)),
    }


def _settled(me: psutil.Process, base: dict[str, int], slack: dict[str, int]) -> dict[str, int]:
    """The last snapshot, once within ``slack`` of ``base`` or after 10 s of waiting.

    Kill threads of a timed-out run end up to a second after the run returned; waiting for
    them is fair, a leak never settles.
    """
    deadline = time.monotonic() + 10
    while True:
        now = _snapshot(me)
        if all(now[k] <= base[k] + slack[k] for k in base) or time.monotonic() > deadline:
            return now
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
    slack = {"fds": 4, "threads (threading)": 2, "threads (os)": 2, "children": 0}
    base = _settled(me, _snapshot(me), {k: 0 for k in slack})
    count = scaled(1000, len(CYCLE))
    start = time.monotonic()
    _run_many(runner, count, _check)
    elapsed = time.monotonic() - start
    after = _settled(me, base, slack)
    print(f"\nleaks: {count} runs in {elapsed:.1f} s; before {base}; after {after}")
    for key, extra in slack.items():
        assert after[key] <= base[key] + extra, f"{key}: {base[key]} → {after[key]}"
