"""Copilot CLI 1.0.102's own hook contract (plain hooks, no hookrun): see tests/e2e/contract.py.

What it pins for hookrun/hosts/copilot.py: a hook's stderr never reaches the model, even on
exit 2, while a JSON on stdout is read on exit 2 too; any other non-zero exit on preToolUse
denies (fail-closed); camelCase wiring reads only Copilot's own top-level fields
(``permissionDecision``/``permissionDecisionReason``, ``modifiedArgs``,
``additionalContext``, ``modifiedResult`` with Copilot's result shape) and ignores Claude's
``hookSpecificOutput``; PascalCase wiring reads ``hookSpecificOutput`` on PreToolUse only,
the top-level fields everywhere; no preToolUse field ends the turn — a permissionRequest
deny with ``interrupt`` does.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.concurrent import batch_for, tmp_name
from tests.e2e.conftest import make_world
from tests.e2e.contract import OUTPUT, REWRITE, STDERR, Contract, check, play
from tests.e2e.copilot_driver import CopilotCli
from tests.e2e.rig import Rig

pytestmark = [pytest.mark.nocov, pytest.mark.timeout(960), pytest.mark.concurrent]

REASON = "HOOK-REASON-2C8"
CONTEXT = "HOOK-CONTEXT-4C6"
DENY = {"permissionDecision": "deny", "permissionDecisionReason": REASON}
STOP = {"continue": False, "stopReason": REASON}
RESULT = {"modifiedResult": {"resultType": "success", "textResultForLlm": REASON}}


def specific(event: str, **fields: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


CAMEL: dict[str, Contract] = {
    "pre-exit-2-denies-and-the-model-never-sees-stderr": Contract(
        "preToolUse",
        "",
        exit=2,
        ran=False,
        sees=("Denied by preToolUse hook: hook exited with code 2",),
        hides=(STDERR,),
    ),
    "pre-exit-2-still-reads-the-json-reason": Contract(
        "preToolUse", DENY, exit=2, ran=False, sees=(REASON,), hides=(STDERR,)
    ),
    "pre-permission-decision-deny-reaches-the-model-and-the-turn-goes-on": Contract(
        "preToolUse", DENY, ran=False, sees=(f"Denied by preToolUse hook: {REASON}",)
    ),
    # What an interrupted hookrun answered until cbe6e10 (the deny on stdout, exit 143):
    # Copilot CLI blocks on a failed hook (as on exit 49), the reason unread.
    "pre-deny-with-exit-143-blocks-as-a-failed-hook": Contract(
        "preToolUse", DENY, exit=143, ran=False, sees=("(hook errored)",), hides=(REASON,)
    ),
    "pre-claude-hook-specific-output-deny-is-ignored": Contract(
        "preToolUse", specific("PreToolUse", **DENY), ran=True, hides=(REASON,)
    ),
    "pre-any-other-exit-code-denies-fail-closed": Contract(
        "preToolUse", "", exit=49, ran=False, sees=("(hook errored)",), hides=(STDERR,)
    ),
    "pre-modified-args-is-what-runs": Contract(
        "preToolUse", {"modifiedArgs": {"command": REWRITE}}, ran=False, rewritten=True
    ),
    "pre-additional-context-reaches-the-model-after-the-tool": Contract(
        "preToolUse",
        {"additionalContext": CONTEXT},
        sees=("Additional context from preToolUse hook", CONTEXT),
    ),
    "pre-continue-false-is-ignored": Contract("preToolUse", STOP, ran=True),
    "pre-deny-with-interrupt-does-not-end-the-turn": Contract(
        "preToolUse", {**DENY, "interrupt": True}, ran=False, sees=(REASON,)
    ),
    "post-additional-context-is-appended-to-the-result": Contract(
        "postToolUse",
        {"additionalContext": CONTEXT},
        sees=(OUTPUT, "Additional guidance from postToolUse hooks", CONTEXT),
    ),
    "post-modified-result-object-is-what-the-model-sees": Contract(
        "postToolUse", RESULT, sees=(REASON,), hides=(OUTPUT,)
    ),
    "post-modified-result-as-a-string-is-ignored": Contract(
        "postToolUse", {"modifiedResult": REASON}, sees=(OUTPUT,), hides=(REASON,)
    ),
    "prompt-additional-context-reaches-the-model": Contract(
        "userPromptSubmitted", {"additionalContext": CONTEXT}, sees=("<system_reminder>", CONTEXT)
    ),
    "session-start-additional-context-reaches-the-model": Contract(
        "sessionStart", {"additionalContext": CONTEXT}, sees=(CONTEXT,)
    ),
    "permission-request-deny-with-interrupt-stops-the-tool-and-the-turn": Contract(
        "permissionRequest",
        {"behavior": "deny", "message": REASON, "interrupt": True},
        ran=False,
        turns=1,
    ),
}
PASCAL: dict[str, Contract] = {
    "pre-exit-2-denies-and-the-model-never-sees-stderr": Contract(
        "PreToolUse", "", exit=2, ran=False, sees=("hook exited with code 2",), hides=(STDERR,)
    ),
    "pre-claude-hook-specific-output-deny-reaches-the-model": Contract(
        "PreToolUse", specific("PreToolUse", **DENY), ran=False, sees=(REASON,)
    ),
    "pre-permission-decision-deny-reaches-the-model": Contract(
        "PreToolUse", DENY, ran=False, sees=(REASON,)
    ),
    "pre-claude-updated-input-with-allow-is-what-runs": Contract(
        "PreToolUse",
        specific("PreToolUse", permissionDecision="allow", updatedInput={"command": REWRITE}),
        ran=False,
        rewritten=True,
    ),
    "post-modified-result-object-is-what-the-model-sees": Contract(
        "PostToolUse", RESULT, sees=(REASON,), hides=(OUTPUT,)
    ),
    "post-claude-updated-tool-output-is-ignored": Contract(
        "PostToolUse",
        specific("PostToolUse", updatedToolOutput=REASON),
        sees=(OUTPUT,),
        hides=(REASON,),
    ),
    "prompt-claude-hook-specific-output-context-is-ignored": Contract(
        "UserPromptSubmit",
        specific("UserPromptSubmit", additionalContext=CONTEXT),
        hides=(CONTEXT,),
    ),
    "prompt-additional-context-reaches-the-model": Contract(
        "UserPromptSubmit", {"additionalContext": CONTEXT}, sees=(CONTEXT,)
    ),
    "session-start-claude-hook-specific-output-context-is-ignored": Contract(
        "SessionStart", specific("SessionStart", additionalContext=CONTEXT), hides=(CONTEXT,)
    ),
}
CONTRACTS = {f"camel-{k}": v for k, v in CAMEL.items()} | {
    f"pascal-{k}": v for k, v in PASCAL.items()
}


@pytest.fixture
def rig(
    request: pytest.FixtureRequest,
    host_programs: dict[str, Path],
    hookrun_exe: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Rig:
    def build(item: pytest.Item, params: dict[str, Any]) -> Rig:
        # The world inside a git repository, as a shared /tmp may hold one above it:
        # Copilot must still read the project's own hooks (copilot_driver.wire).
        above = tmp_path_factory.mktemp(tmp_name(item))
        subprocess.run(["git", "init", "-q", str(above)], capture_output=True, check=True)
        world = make_world(above / "world")
        mode = str(params["name"]).split("-", 1)[0]
        return Rig(CopilotCli(mode), host_programs["copilot"], hookrun_exe, world)

    return batch_for(request, build).rigs[request.node.nodeid]


@pytest.mark.parametrize("name", CONTRACTS)
def test_copilot_cli_hook_contract(rig: Rig, name: str) -> None:
    contract = CONTRACTS[name]
    check(contract, play(rig, contract))
