"""Claude Code 2.1.197's own hook contract (plain hooks, no hookrun): see tests/e2e/contract.py.

What it pins for hookrun/hosts/claude.py: a deny never ends the turn, ``continue: false``
alone lets the tool run; ``defer`` (in ``-p``) and "allow a no-op + ``continue: false``"
both keep the tool from running and end the turn; PostToolUse's ``updatedToolOutput`` is
applied to Bash only as an object of Bash's output shape; exit 2's stderr reaches the model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.claude_driver import ClaudeCode
from tests.e2e.concurrent import batch_for, tmp_name
from tests.e2e.conftest import make_world
from tests.e2e.contract import OUTPUT, REWRITE, STDERR, Contract, check, play
from tests.e2e.rig import Rig

pytestmark = [pytest.mark.nocov, pytest.mark.timeout(960), pytest.mark.concurrent]

REASON = "HOOK-REASON-6C2"
CONTEXT = "HOOK-CONTEXT-1M9"


def pre(**fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", **fields}}


def post(**fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", **fields}}


STOP = {"continue": False, "stopReason": "HOOK-STOP-3X1"}
BASH_OUTPUT = {"stdout": REASON, "stderr": "", "interrupted": False, "isImage": False}

CONTRACTS: dict[str, Contract] = {
    "pre-exit-2-blocks-and-the-model-sees-stderr": Contract(
        "PreToolUse", "", exit=2, ran=False, sees=(STDERR,)
    ),
    "pre-deny-blocks-and-the-model-sees-the-reason-and-goes-on": Contract(
        "PreToolUse",
        pre(permissionDecision="deny", permissionDecisionReason=REASON),
        ran=False,
        sees=(REASON,),
    ),
    "pre-continue-false-alone-lets-the-tool-run-then-ends-the-turn": Contract(
        "PreToolUse", STOP, ran=True, turns=1
    ),
    "pre-deny-with-continue-false-does-not-end-the-turn": Contract(
        "PreToolUse",
        {**STOP, **pre(permissionDecision="deny", permissionDecisionReason=REASON)},
        ran=False,
        sees=(REASON,),
    ),
    "pre-defer-keeps-the-tool-from-running-and-ends-the-run": Contract(
        "PreToolUse",
        pre(permissionDecision="defer", permissionDecisionReason=REASON),
        ran=False,
        turns=1,
    ),
    "pre-allow-a-no-op-with-continue-false-blocks-the-effect-and-ends-the-turn": Contract(
        "PreToolUse",
        {**STOP, **pre(permissionDecision="allow", updatedInput={"command": "true"})},
        ran=False,
        turns=1,
    ),
    "pre-updated-input-without-a-decision-runs-the-rewrite": Contract(
        "PreToolUse", pre(updatedInput={"command": REWRITE}), ran=False, rewritten=True
    ),
    "pre-ask-in-print-mode-blocks-like-a-deny": Contract(
        "PreToolUse",
        pre(permissionDecision="ask", permissionDecisionReason=REASON),
        ran=False,
        sees=(REASON,),
    ),
    # What an interrupted hookrun answered until cbe6e10 (the deny on stdout, exit 143):
    # Claude Code reads the JSON whatever the exit code, so the deny held here.
    "pre-deny-with-exit-143-still-blocks": Contract(
        "PreToolUse",
        pre(permissionDecision="deny", permissionDecisionReason=REASON),
        exit=143,
        ran=False,
        sees=(REASON,),
    ),
    "pre-exit-49-is-a-non-blocking-error": Contract("PreToolUse", "", exit=49, ran=True),
    "pre-context-with-an-unknown-top-level-key-still-counts": Contract(
        "PreToolUse", {"unknown": 1, **pre(additionalContext=CONTEXT)}, sees=(CONTEXT,)
    ),
    "post-updated-tool-output-as-bash-shaped-object-replaces-the-output": Contract(
        "PostToolUse", post(updatedToolOutput=BASH_OUTPUT), sees=(REASON,), hides=(OUTPUT,)
    ),
    "post-updated-tool-output-as-a-string-is-ignored-for-bash": Contract(
        "PostToolUse", post(updatedToolOutput=REASON), sees=(OUTPUT,), hides=(REASON,)
    ),
    "post-updated-mcp-tool-output-is-ignored-for-bash": Contract(
        "PostToolUse", post(updatedMCPToolOutput=BASH_OUTPUT), sees=(OUTPUT,), hides=(REASON,)
    ),
    "post-block-adds-the-reason-but-the-model-still-sees-the-output": Contract(
        "PostToolUse", {"decision": "block", "reason": REASON}, sees=(OUTPUT, REASON)
    ),
    "post-continue-false-ends-the-turn-before-the-model-sees-the-output": Contract(
        "PostToolUse", STOP, turns=1, hides=(OUTPUT,)
    ),
    "prompt-plain-stdout-is-context": Contract("UserPromptSubmit", CONTEXT, sees=(CONTEXT,)),
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
        return Rig(ClaudeCode(), host_programs["claude"], hookrun_exe, world)

    return batch_for(request, build).rigs[request.node.nodeid]


@pytest.mark.parametrize("name", CONTRACTS)
def test_claude_code_hook_contract(rig: Rig, name: str) -> None:
    contract = CONTRACTS[name]
    check(contract, play(rig, contract))
