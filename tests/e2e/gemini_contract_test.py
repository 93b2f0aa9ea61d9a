"""Gemini CLI 0.61's own hook contract (plain hooks, no hookrun): see tests/e2e/contract.py.

What it pins for hookrun/hosts/gemini.py: Gemini parses ``stdout || stderr``; a JSON
answer is the whole answer whatever the exit code (exit 2 with a JSON that names no
``decision`` lets the tool run — a Claude-shaped deny too), plain text with any exit but
0 and 1 is a deny (49 included: no halt); ``continue: false`` on BeforeTool keeps the tool
from running and ends the turn; ``hookSpecificOutput.tool_input`` is merged into the
arguments; context counts after the tool, with the prompt and at session start, never
on BeforeTool; no field rewrites a tool's output — an AfterTool deny replaces the result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.concurrent import batch_for, tmp_name
from tests.e2e.conftest import make_world
from tests.e2e.contract import OUTPUT, REWRITE, STDERR, Contract, check, play
from tests.e2e.gemini_driver import GeminiCli
from tests.e2e.rig import Rig

pytestmark = [pytest.mark.nocov, pytest.mark.timeout(960), pytest.mark.concurrent]

REASON = "HOOK-REASON-5G1"
CONTEXT = "HOOK-CONTEXT-7G2"


def specific(**fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": fields}


CONTRACTS: dict[str, Contract] = {
    "before-exit-2-with-plain-stderr-blocks-and-the-model-sees-it": Contract(
        "BeforeTool", "", exit=2, ran=False, sees=(f"Tool execution blocked: {STDERR}",)
    ),
    "before-json-decision-deny-blocks-and-the-model-sees-the-reason": Contract(
        "BeforeTool",
        {"decision": "deny", "reason": REASON},
        ran=False,
        sees=(f"Tool execution blocked: {REASON}",),
    ),
    "before-exit-2-with-a-json-naming-no-decision-runs-the-tool": Contract(
        "BeforeTool", {"version": 1}, exit=2, ran=True
    ),
    "before-exit-2-with-a-claude-shaped-deny-runs-the-tool": Contract(
        "BeforeTool",
        specific(
            hookEventName="PreToolUse", permissionDecision="deny", permissionDecisionReason=REASON
        ),
        exit=2,
        ran=True,
    ),
    # What an interrupted hookrun answered until cbe6e10 (the deny on stdout, exit 143):
    # Gemini CLI blocks on any exit but 0 and 1, so the deny held here.
    "before-json-deny-with-exit-143-still-blocks": Contract(
        "BeforeTool", {"decision": "deny", "reason": REASON}, exit=143, ran=False, sees=(REASON,)
    ),
    "before-exit-49-with-plain-stderr-is-a-deny-not-a-halt": Contract(
        "BeforeTool", "", exit=49, ran=False, sees=(f"Tool execution blocked: {STDERR}",)
    ),
    "before-continue-false-stops-the-tool-and-the-turn": Contract(
        "BeforeTool", {"continue": False, "stopReason": REASON}, ran=False, turns=1
    ),
    "before-tool-input-is-merged-into-the-arguments": Contract(
        "BeforeTool", specific(tool_input={"command": REWRITE}), ran=False, rewritten=True
    ),
    "before-additional-context-is-ignored": Contract(
        "BeforeTool", specific(additionalContext=CONTEXT), hides=(CONTEXT,)
    ),
    "after-additional-context-is-appended-to-the-result": Contract(
        "AfterTool",
        specific(additionalContext=CONTEXT),
        sees=(OUTPUT, f"<hook_context>{CONTEXT}</hook_context>"),
    ),
    "after-deny-replaces-the-result-the-model-sees": Contract(
        "AfterTool", {"decision": "deny", "reason": REASON}, sees=(REASON,), hides=(OUTPUT,)
    ),
    "after-output-fields-are-ignored": Contract(
        "AfterTool",
        {
            **specific(tool_output=REASON, updatedToolOutput=REASON),
            "updated_output": REASON,
        },
        sees=(OUTPUT,),
        hides=(REASON,),
    ),
    "agent-additional-context-reaches-the-model": Contract(
        "BeforeAgent",
        specific(additionalContext=CONTEXT),
        sees=(f"<hook_context>{CONTEXT}</hook_context>",),
    ),
    "session-start-additional-context-reaches-the-model": Contract(
        "SessionStart",
        specific(additionalContext=CONTEXT),
        sees=(f"<hook_context>{CONTEXT}</hook_context>",),
    ),
    "session-start-plain-stdout-is-not-context": Contract(
        "SessionStart", CONTEXT, hides=(CONTEXT,)
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
        return Rig(GeminiCli(), host_programs["gemini"], hookrun_exe, world)

    return batch_for(request, build).rigs[request.node.nodeid]


@pytest.mark.parametrize("name", CONTRACTS)
def test_gemini_cli_hook_contract(rig: Rig, name: str) -> None:
    contract = CONTRACTS[name]
    check(contract, play(rig, contract))
