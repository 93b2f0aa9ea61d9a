"""Copilot CLI's own hook contract, run with plain hook scripts (no hookrun).

What these pin is what hookrun/hosts/copilot.py must answer: the reason in the JSON on
stdout (stderr never reaches the model, even on exit 2), Copilot's own top-level fields
(camelCase wiring ignores Claude's ``hookSpecificOutput``; PascalCase reads both), a
rewritten output as ``modifiedResult`` with Copilot's result shape, and no preToolUse
field that ends the turn — only a ``permissionRequest`` deny with ``interrupt``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.copilot_driver import CopilotCli
from tests.e2e.hostcontract import (
    FINAL_TEXT,
    SECRET,
    SECRET_COMMAND,
    Case,
    Outcome,
    destroy_and_print,
    json_answer,
    run_all,
)

pytestmark = [pytest.mark.nocov, pytest.mark.timeout(960)]

REASON = "reason-from-the-hook-7c2e"
CTX_PRE, CTX_POST, CTX_PROMPT = "ctx-pre-1b1", "ctx-post-1b2", "ctx-prompt-1b3"


def _denied_saying(text: str) -> Callable[[Outcome], None]:
    def check(out: Outcome) -> None:
        assert out.world.victim_intact(), out.why()
        assert text in out.tool_results(), out.why()
        assert out.requests_after_tool(), out.why()  # a deny does not end the turn

    return check


def _ran(out: Outcome) -> None:
    assert not out.world.victim_intact(), out.why()
    assert out.requests_after_tool(), out.why()


def _rewritten(out: Outcome) -> None:
    assert (out.world.project / "rewritten").exists(), out.why()
    assert out.world.victim_intact(), out.why()


def _contexts(out: Outcome) -> None:
    after = "\n".join(str(b) for b in out.requests_after_tool())
    assert f"Additional context from preToolUse hook:\\n{CTX_PRE}" in after, out.why()
    assert f"Additional guidance from postToolUse hooks:\n{CTX_POST}" in out.tool_results()
    assert CTX_PROMPT in str(out.model.turns()[0]), out.why()


def _result_replaced(out: Outcome) -> None:
    assert SECRET not in out.tool_results(), out.why()
    assert REASON in out.tool_results(), out.why()


def _output_kept(out: Outcome) -> None:
    assert SECRET in out.tool_results(), out.why()


def _tool_and_turn_stopped(out: Outcome) -> None:
    assert out.world.victim_intact(), out.why()
    assert not out.requests_after_tool(), out.why()
    assert FINAL_TEXT not in out.run.out, out.why()


DENY = {"permissionDecision": "deny", "permissionDecisionReason": REASON}
HSO_DENY = {"hookSpecificOutput": {"hookEventName": "PreToolUse"} | DENY}
MODIFIED_RESULT = {"modifiedResult": {"resultType": "success", "textResultForLlm": REASON}}

CAMEL_CASES = {
    "exit-2-denies-but-the-model-never-sees-stderr": Case(
        lambda w: {"preToolUse": f"echo {REASON} >&2\nexit 2"},
        destroy_and_print,
        _denied_saying("Denied by preToolUse hook: hook exited with code 2"),
    ),
    "exit-2-still-reads-the-stdout-json-reason": Case(
        lambda w: {"preToolUse": json_answer(DENY, exit_code=2, stderr="ignored")},
        destroy_and_print,
        _denied_saying(f"Denied by preToolUse hook: {REASON}"),
    ),
    "top-level-permission-decision-deny-reaches-the-model": Case(
        lambda w: {"preToolUse": json_answer(DENY)},
        destroy_and_print,
        _denied_saying(f"Denied by preToolUse hook: {REASON}"),
    ),
    "claude-hook-specific-output-deny-is-ignored": Case(
        lambda w: {"preToolUse": json_answer(HSO_DENY)}, destroy_and_print, _ran
    ),
    "any-other-exit-code-denies-fail-closed": Case(
        lambda w: {"preToolUse": f"echo {REASON} >&2\nexit 49"},
        destroy_and_print,
        _denied_saying("(hook errored)"),
    ),
    "modified-args-is-what-runs": Case(
        lambda w: {
            "preToolUse": json_answer(
                {"modifiedArgs": {"command": f"touch {w.project / 'rewritten'}"}}
            )
        },
        destroy_and_print,
        _rewritten,
    ),
    "context-before-after-the-tool-and-with-the-prompt-reaches-the-model": Case(
        lambda w: {
            "userPromptSubmitted": json_answer({"additionalContext": CTX_PROMPT}),
            "preToolUse": json_answer({"additionalContext": CTX_PRE}),
            "postToolUse": json_answer({"additionalContext": CTX_POST}),
        },
        destroy_and_print,
        _contexts,
    ),
    "modified-result-object-is-what-the-model-sees": Case(
        lambda w: {"postToolUse": json_answer(MODIFIED_RESULT)},
        lambda w: SECRET_COMMAND,
        _result_replaced,
    ),
    "modified-result-as-a-string-is-ignored": Case(
        lambda w: {"postToolUse": json_answer({"modifiedResult": REASON})},
        lambda w: SECRET_COMMAND,
        _output_kept,
    ),
    "continue-false-on-pre-tool-use-is-ignored": Case(
        lambda w: {"preToolUse": json_answer({"continue": False, "stopReason": REASON})},
        destroy_and_print,
        _ran,
    ),
    "permission-request-deny-with-interrupt-stops-the-tool-and-the-turn": Case(
        lambda w: {
            "permissionRequest": json_answer(
                {"behavior": "deny", "message": REASON, "interrupt": True}
            )
        },
        destroy_and_print,
        _tool_and_turn_stopped,
    ),
}

PASCAL_CASES = {
    "exit-2-denies-but-the-model-never-sees-stderr": Case(
        lambda w: {"PreToolUse": f"echo {REASON} >&2\nexit 2"},
        destroy_and_print,
        _denied_saying("Denied by preToolUse hook: hook exited with code 2"),
    ),
    "claude-hook-specific-output-deny-reaches-the-model": Case(
        lambda w: {"PreToolUse": json_answer(HSO_DENY)},
        destroy_and_print,
        _denied_saying(f"Denied by preToolUse hook: {REASON}"),
    ),
    "top-level-permission-decision-deny-reaches-the-model": Case(
        lambda w: {"PreToolUse": json_answer(DENY)},
        destroy_and_print,
        _denied_saying(f"Denied by preToolUse hook: {REASON}"),
    ),
    "claude-updated-input-with-allow-is-what-runs": Case(
        lambda w: {
            "PreToolUse": json_answer(
                {
                    "hookSpecificOutput": {
                        "hookEventName": "PreToolUse",
                        "permissionDecision": "allow",
                        "updatedInput": {"command": f"touch {w.project / 'rewritten'}"},
                    }
                }
            )
        },
        destroy_and_print,
        _rewritten,
    ),
    "modified-result-object-is-what-the-model-sees": Case(
        lambda w: {"PostToolUse": json_answer(MODIFIED_RESULT)},
        lambda w: SECRET_COMMAND,
        _result_replaced,
    ),
    "claude-updated-tool-output-is-ignored": Case(
        lambda w: {
            "PostToolUse": json_answer(
                {
                    "hookSpecificOutput": {
                        "hookEventName": "PostToolUse",
                        "updatedToolOutput": REASON,
                    }
                }
            )
        },
        lambda w: SECRET_COMMAND,
        _output_kept,
    ),
}
CASES = {f"camel:{k}": (CopilotCli("camel"), v) for k, v in CAMEL_CASES.items()} | {
    f"pascal:{k}": (CopilotCli("pascal"), v) for k, v in PASCAL_CASES.items()
}


@pytest.fixture(scope="module")
def outcomes(
    host_programs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Outcome]:
    root = tmp_path_factory.mktemp("copilot-contract")
    return run_all(CASES, host_programs["copilot"], root)


@pytest.mark.parametrize("name", list(CASES))
def test_copilot_hook_contract(name: str, outcomes: dict[str, Outcome]) -> None:
    CASES[name][1].check(outcomes[name])
