"""A policy that cannot read its state fails the way its fail mode says, through the Runner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hookrun import Runner
from hookrun.config.spec import Config, HookSpec
from hookrun.hooks import registry

EDIT = {"tool_name": "Edit", "tool_input": {"file_path": "src/a.py"}, "agent_name": "Backend"}
ASK = {"tool_name": "ask_user", "tool_input": {"question": "Which one?"}, "session_id": "s"}
PHASE = {"tool_name": "Write", "tool_input": {"file_path": "src/a.py", "content": "x"}}


def _run(tmp_path: Path, name: str, payload: dict[str, Any], on_error: str | None) -> Any:
    spec = HookSpec(
        event="PreToolUse",
        source="test#PreToolUse[0]",
        name=name,
        command=None,
        builtin=name,
        on_error=on_error or registry.get(name).on_error,  # type: ignore[arg-type]
    )
    runner = Runner(
        Config(hooks={"PreToolUse": (spec,)}), cwd=str(tmp_path), project_dir=str(tmp_path)
    )
    return runner.run("PreToolUse", payload)


@pytest.mark.parametrize(
    ("name", "state_file", "payload", "on_error", "decision"),
    [
        ("reviewer-lockout", "lockout.json", EDIT, None, "deny"),  # fail-closed by default
        ("reviewer-lockout", "lockout.json", EDIT, "allow", None),
        ("ask-user-limit", "ask_user.json", ASK, None, None),  # fail-open by default
        ("ask-user-limit", "ask_user.json", ASK, "deny", "deny"),
    ],
)
def test_a_corrupt_state_file_is_the_hooks_error_and_its_fail_mode_decides(
    tmp_path: Path,
    name: str,
    state_file: str,
    payload: dict[str, Any],
    on_error: str | None,
    decision: str | None,
) -> None:
    path = tmp_path / ".hookrun" / "state" / state_file
    path.parent.mkdir(parents=True)
    path.write_text('{"broken": ')
    result = _run(tmp_path, name, payload, on_error)
    assert result.decision == decision
    error = result.hooks[0].error
    assert error is not None and f"{path} is corrupt" in error and "delete it" in error


def test_an_unreadable_phase_file_fails_open(tmp_path: Path) -> None:
    (tmp_path / ".hookrun" / "state" / "phase").mkdir(parents=True)
    result = _run(tmp_path, "phase-gate", PHASE, None)
    assert result.decision is None
    assert "cannot read the phase file" in (result.hooks[0].error or "")
