"""Shared fixtures: one realistic machine (home, project, cwd) and a judge helper."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from hookrun.hooks.base import PolicyContext, Verdict
from hookrun.hooks.shell_guard import POLICY

HOME = "/home/dev"
PROJECT = "/home/dev/proj"


def context(**env: str) -> PolicyContext:
    return PolicyContext(
        cwd=PROJECT,
        project_dir=PROJECT,
        state_dir=PROJECT + "/.hookrun/state",
        env={"HOME": HOME, **env},
    )


def bash_payload(command: str, cwd: str = PROJECT) -> dict[str, Any]:
    """What Claude Code sends for its Bash tool."""
    return {
        "session_id": "s1",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "run it"},
        "cwd": cwd,
    }


Judge = Callable[..., Verdict]


@pytest.fixture
def judge() -> Judge:
    def run(command: str, options: Mapping[str, Any] | None = None, **kw: Any) -> Verdict:
        opts = POLICY.bind(dict(options or {}))
        env = kw.pop("env", {})
        return POLICY.decide(bash_payload(command, **kw), opts, context(**env))

    return run
