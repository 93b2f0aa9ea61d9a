from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hookrun.hooks import decision_inbox, registry
from hookrun.hooks.base import PolicyContext, Verdict


def _decide(
    tmp_path: Path, payload: dict[str, Any], env: dict[str, str] | None = None, **opts: Any
) -> Verdict:
    ctx = PolicyContext(str(tmp_path), str(tmp_path), str(tmp_path / ".hookrun/state"), env or {})
    return decision_inbox.decide(payload, decision_inbox.POLICY.bind(opts), ctx)


def _w(path: str, role: str | None = None, tool: str = "Edit", **extra: Any) -> dict[str, Any]:
    p: dict[str, Any] = {"tool_name": tool, "tool_input": {"file_path": path}, **extra}
    if role is not None:
        p["agent_role"] = role
    return p


@pytest.mark.parametrize(
    ("payload", "env", "opts", "denied"),
    [
        (_w(".squad/decisions.md", "agent"), None, {}, True),
        (_w("decisions.md", "tester", tool="Write"), None, {}, True),
        (_w(".squad/decisions.md"), None, {}, True),  # no role: not the coordinator
        (
            {"toolName": "edit", "arguments": {"path": ".squad/decisions.md"}, "agentRole": "dev"},
            None,
            {},
            True,
        ),
        (_w(".squad/decisions.md", "Coordinator"), None, {}, False),
        (_w(".squad/decisions.md"), {"HOOKRUN_AGENT_ROLE": "coordinator"}, {}, False),
        (_w(".squad/decisions.md", "scribe"), None, {"roles": ["coordinator", "scribe"]}, False),
        (_w(".squad/decisions/inbox/backend-cache.md", "agent", tool="Write"), None, {}, False),
        (_w(".squad/decisions.md", "agent", tool="Read"), None, {}, False),
        (_w("docs/adr.md", "agent"), None, {}, False),
        (_w("docs/adr.md", "agent"), None, {"paths": ["docs/adr.md"]}, True),
    ],
)
def test_only_the_coordinator_writes_decisions_md(
    tmp_path: Path,
    payload: dict[str, Any],
    env: dict[str, str] | None,
    opts: dict[str, Any],
    denied: bool,
) -> None:
    assert (_decide(tmp_path, payload, env, **opts).decision == "deny") is denied


def test_the_reason_points_to_the_inbox_next_to_the_file(tmp_path: Path) -> None:
    verdict = _decide(tmp_path, _w(".squad/decisions.md", "agent", agent_name="Fenster"))
    assert verdict.rule == "decision-inbox"
    assert verdict.reason == (
        "decision-inbox: agents do not write .squad/decisions.md directly (role 'agent'; only "
        "coordinator may). Write to .squad/decisions/inbox/ instead: create "
        ".squad/decisions/inbox/fenster-<short-topic>.md with your decision; the coordinator "
        "merges it."
    )


def test_the_policy_is_registered() -> None:
    assert registry.get("decision-inbox") is decision_inbox.POLICY
