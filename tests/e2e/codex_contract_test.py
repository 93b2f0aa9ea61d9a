"""Codex CLI 0.169's own hook contract (plain hooks, no hookrun): see tests/e2e/contract.py.

What it pins for hookrun/hosts/codex.py: any ``continue`` on a PreToolUse answer voids the
whole answer (a deny with it lets the tool run); an unknown top-level key voids it too;
``updatedInput`` needs ``permissionDecision: "allow"``; ``ask`` under the approvals bypass
lets the tool run; no PreToolUse answer ends the turn; PostToolUse ``decision: "block"``
replaces the output the model sees, while an updated tool output is ignored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.codex_driver import Codex
from tests.e2e.concurrent import batch_for, tmp_name
from tests.e2e.conftest import make_world
from tests.e2e.contract import OUTPUT, REWRITE, STDERR, Contract, check, play
from tests.e2e.rig import Rig

pytestmark = [pytest.mark.nocov, pytest.mark.timeout(960), pytest.mark.concurrent]

REASON = "HOOK-REASON-6C2"
CONTEXT = "HOOK-CONTEXT-1M9"
STOP = {"continue": False, "stopReason": "HOOK-STOP-3X1"}


def pre(**fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", **fields}}


def post(**fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", **fields}}


DENY = pre(permissionDecision="deny", permissionDecisionReason=REASON)

CONTRACTS: dict[str, Contract] = {
    "pre-exit-2-blocks-and-the-model-sees-stderr": Contract(
        "PreToolUse", "", exit=2, ran=False, sees=(f"Command blocked by PreToolUse hook: {STDERR}",)
    ),
    "pre-exit-2-blocks-even-with-an-allow-on-stdout": Contract(
        "PreToolUse", pre(permissionDecision="allow"), exit=2, ran=False, sees=(STDERR,)
    ),
    "pre-deny-blocks-and-the-model-sees-the-reason": Contract(
        "PreToolUse", DENY, ran=False, sees=(REASON,)
    ),
    "pre-block-blocks-and-the-model-sees-the-reason": Contract(
        "PreToolUse", {"decision": "block", "reason": REASON}, ran=False, sees=(REASON,)
    ),
    # What an interrupted hookrun answered until cbe6e10 (the deny on stdout, exit 143):
    # Codex CLI reads exit 143 as a failed hook and runs the tool, the deny unread.
    "pre-deny-with-exit-143-is-a-non-blocking-error-and-the-tool-runs": Contract(
        "PreToolUse", DENY, exit=143, ran=True, hides=(REASON,)
    ),
    "pre-deny-with-continue-false-is-void-and-the-tool-runs": Contract(
        "PreToolUse", {**STOP, **DENY}, ran=True, hides=(REASON,)
    ),
    "pre-continue-false-alone-neither-blocks-nor-ends-the-turn": Contract(
        "PreToolUse", STOP, ran=True
    ),
    "pre-updated-input-without-allow-is-ignored": Contract(
        "PreToolUse", pre(updatedInput={"command": REWRITE}), ran=True, rewritten=False
    ),
    "pre-updated-input-with-allow-runs-the-rewrite": Contract(
        "PreToolUse",
        pre(permissionDecision="allow", updatedInput={"command": REWRITE}),
        ran=False,
        rewritten=True,
    ),
    "pre-ask-under-the-approvals-bypass-lets-the-tool-run": Contract(
        "PreToolUse", pre(permissionDecision="ask", permissionDecisionReason=REASON), ran=True
    ),
    "pre-context-reaches-the-model": Contract(
        "PreToolUse", pre(additionalContext=CONTEXT), sees=(CONTEXT,)
    ),
    "pre-an-unknown-top-level-key-voids-the-answer": Contract(
        "PreToolUse", {"unknown": 1, **pre(additionalContext=CONTEXT)}, hides=(CONTEXT,)
    ),
    "pre-plain-stdout-is-ignored": Contract("PreToolUse", CONTEXT, hides=(CONTEXT,)),
    "pre-exit-1-is-a-non-blocking-error": Contract("PreToolUse", "", exit=1, ran=True),
    "post-block-replaces-the-output-with-the-reason": Contract(
        "PostToolUse", {"decision": "block", "reason": REASON}, sees=(REASON,), hides=(OUTPUT,)
    ),
    "post-exit-2-replaces-the-output-with-stderr": Contract(
        "PostToolUse", "", exit=2, sees=(STDERR,), hides=(OUTPUT,)
    ),
    "post-updated-tool-output-is-ignored": Contract(
        "PostToolUse", post(updatedToolOutput=REASON), sees=(OUTPUT,), hides=(REASON,)
    ),
    "post-context-reaches-the-model-with-the-output": Contract(
        "PostToolUse", post(additionalContext=CONTEXT), sees=(OUTPUT, CONTEXT)
    ),
    "session-start-plain-stdout-is-context": Contract("SessionStart", CONTEXT, sees=(CONTEXT,)),
    "prompt-continue-false-never-asks-the-model": Contract(
        "UserPromptSubmit", STOP, ran=False, turns=0
    ),
}


@pytest.fixture
def rig(
    request: pytest.FixtureRequest,
    host_programs: dict[str, Path],
    hookrun_exe: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Rig:
    def build(item: pytest.Item, params: dict[str, Any]) -> Rig:
        world = make_world(tmp_path_factory.mktemp(tmp_name(item)))
        return Rig(Codex(), host_programs["codex"], hookrun_exe, world)

    return batch_for(request, build).rigs[request.node.nodeid]


@pytest.mark.parametrize("name", CONTRACTS)
def test_codex_hook_contract(rig: Rig, name: str) -> None:
    contract = CONTRACTS[name]
    check(contract, play(rig, contract))
