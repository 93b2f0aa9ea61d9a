"""Gemini CLI's own hook contract, run with plain hook scripts (no hookrun).

What these pin is what hookrun/hosts/gemini.py must answer: the decision in the JSON
(the exit code does not count once stdout is JSON), ``continue: false`` to halt,
``hookSpecificOutput.tool_input`` to rewrite, context only after the tool or with the
prompt, and no way to rewrite a tool's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.gemini_driver import GeminiCli
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

REASON = "reason-from-the-hook-61d0"
CTX_BEFORE, CTX_AFTER, CTX_PROMPT = "ctx-before-0a1", "ctx-after-0a2", "ctx-prompt-0a3"


def _blocked_with_reason(out: Outcome) -> None:
    assert out.world.victim_intact(), out.why()
    assert f"Tool execution blocked: {REASON}" in out.tool_results(), out.why()
    assert out.requests_after_tool(), out.why()  # a deny does not end the turn


def _ran(out: Outcome) -> None:
    assert not out.world.victim_intact(), out.why()


def _rewritten_and_contexts(out: Outcome) -> None:
    project = out.world.project
    assert (project / "rewritten").exists() and out.world.victim_intact(), out.why()
    seen = out.model.seen_text()
    assert CTX_BEFORE not in seen, "BeforeTool's additionalContext reached the model"
    assert f"<hook_context>{CTX_AFTER}</hook_context>" in out.tool_results(), out.why()
    assert f"<hook_context>{CTX_PROMPT}</hook_context>" in str(out.model.turns()[0]), out.why()


def _result_replaced(out: Outcome) -> None:
    assert SECRET not in out.tool_results(), out.why()
    assert REASON in out.tool_results(), out.why()


def _output_field_ignored(out: Outcome) -> None:
    assert SECRET in out.tool_results(), out.why()


def _tool_and_turn_stopped(out: Outcome) -> None:
    assert out.world.victim_intact(), out.why()
    assert not out.requests_after_tool(), out.why()
    assert FINAL_TEXT not in out.run.out, out.why()


CASES = {
    "exit-2-with-plain-stderr-blocks-and-the-model-sees-stderr": Case(
        lambda w: {"BeforeTool": f"echo {REASON} >&2\nexit 2"},
        destroy_and_print,
        _blocked_with_reason,
    ),
    "json-decision-deny-blocks-and-the-model-sees-reason": Case(
        lambda w: {"BeforeTool": json_answer({"decision": "deny", "reason": REASON})},
        destroy_and_print,
        _blocked_with_reason,
    ),
    "exit-2-with-json-stdout-lacking-a-decision-runs-the-tool": Case(
        lambda w: {"BeforeTool": json_answer({"version": 1}, exit_code=2, stderr=REASON)},
        destroy_and_print,
        _ran,
    ),
    "claude-shaped-deny-json-with-exit-2-runs-the-tool": Case(
        lambda w: {
            "BeforeTool": json_answer(
                {
                    "hookSpecificOutput": {
                        "hookEventName": "PreToolUse",
                        "permissionDecision": "deny",
                    }
                },
                exit_code=2,
                stderr=REASON,
            )
        },
        destroy_and_print,
        _ran,
    ),
    "exit-49-with-plain-stderr-is-a-deny-not-a-halt": Case(
        lambda w: {"BeforeTool": f"echo {REASON} >&2\nexit 49"},
        destroy_and_print,
        _blocked_with_reason,
    ),
    "tool-input-merges-and-context-counts-after-the-tool-and-with-the-prompt-only": Case(
        lambda w: {
            "BeforeAgent": json_answer({"hookSpecificOutput": {"additionalContext": CTX_PROMPT}}),
            "BeforeTool": json_answer(
                {
                    "hookSpecificOutput": {
                        "additionalContext": CTX_BEFORE,
                        "tool_input": {"command": f"touch {w.project / 'rewritten'}"},
                    }
                }
            ),
            "AfterTool": json_answer({"hookSpecificOutput": {"additionalContext": CTX_AFTER}}),
        },
        destroy_and_print,
        _rewritten_and_contexts,
    ),
    "after-tool-deny-replaces-the-result-the-model-sees": Case(
        lambda w: {"AfterTool": json_answer({"decision": "deny", "reason": REASON})},
        lambda w: SECRET_COMMAND,
        _result_replaced,
    ),
    "after-tool-output-fields-are-ignored": Case(
        lambda w: {
            "AfterTool": json_answer(
                {
                    "hookSpecificOutput": {"tool_output": REASON, "updatedToolOutput": REASON},
                    "updated_output": REASON,
                }
            )
        },
        lambda w: SECRET_COMMAND,
        _output_field_ignored,
    ),
    "continue-false-stops-the-tool-and-the-turn": Case(
        lambda w: {"BeforeTool": json_answer({"continue": False, "stopReason": REASON})},
        destroy_and_print,
        _tool_and_turn_stopped,
    ),
}


@pytest.fixture(scope="module")
def outcomes(
    host_programs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Outcome]:
    driver = GeminiCli()
    cases = {name: (driver, case) for name, case in CASES.items()}
    return run_all(cases, host_programs["gemini"], tmp_path_factory.mktemp("gemini-contract"))


@pytest.mark.parametrize("name", list(CASES))
def test_gemini_hook_contract(name: str, outcomes: dict[str, Outcome]) -> None:
    CASES[name].check(outcomes[name])
