"""No payload a host can send makes the stateful/workflow policies raise anything but
:class:`hookrun.fields.Unreadable`, for a field they judge by that has the wrong type
(hypothesis)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookrun import fields
from hookrun.hooks import registry
from hookrun.hooks.base import PolicyContext, Verdict

POLICIES = [
    "reviewer-lockout",
    "ask-user-limit",
    "append-only",
    "phase-gate",
    "decision-inbox",
    "session-dir-guard",
    "ssot-guard",
    "signal-schema",
    "single-mode-guard",
    "task-file-check",
    "audit-ledger",
]

KEYS = [
    "tool_name",
    "tool",
    "toolName",
    "tool_input",
    "arguments",
    "file_path",
    "path",
    "filePath",
    "content",
    "old_string",
    "new_string",
    "replace_all",
    "edits",
    "prompt",
    "question",
    "questions",
    "session_id",
    "ralph_session_id",
    "agent_name",
    "agent_role",
    "phase",
    "cwd",
    "hook_event_name",
    "tool_response",
    "error",
    "decision",
    "iteration",
    "subagent_type",
]
TOOLS = ["Write", "Edit", "MultiEdit", "ask_user", "Task", "Bash", "create", "AskUserQuestion"]
TEXTS = [
    ".squad/decisions.md",
    ".ralph-sessions/260215-173319/progress.md",
    "../../x",
    ".ralph-sessions/260215-173319/metadata.yaml",
    "- [Z] task-1",
    "MODE: A, B\nTASK_ID: t/1",
    ".ralph-sessions/260215-173319/signals/inputs/s.yaml",
    "type: [x\n",
    "260215-173319",
    "",
    "\x00",
    "/",
    "C:\\x",
    "~",
    "a" * 300,
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.sampled_from(TEXTS + TOOLS),
    st.text(max_size=30),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)
    ),
    max_leaves=12,
)
payloads = st.dictionaries(st.sampled_from(KEYS), values, max_size=8)


@pytest.mark.parametrize("name", POLICIES)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(payload=payloads)
def test_any_payload_gets_a_verdict_never_an_exception(
    tmp_path: Path, name: str, payload: dict[str, Any]
) -> None:
    policy = registry.get(name)
    ctx = PolicyContext(str(tmp_path), str(tmp_path), str(tmp_path / ".hookrun" / "state"), {})
    try:
        verdict = policy.decide(payload, policy.bind({}), ctx)
    except fields.Unreadable as exc:
        # A field the policy judges by has the wrong type: the runner makes it the hook's
        # error, and the policy's fail mode answers (tests/cli/wrong_typed_fields_test.py).
        assert "cannot be judged" in str(exc)
        return
    assert isinstance(verdict, Verdict)
    if verdict.decision == "deny":
        assert verdict.reason and verdict.reason.startswith(tuple(POLICIES))
