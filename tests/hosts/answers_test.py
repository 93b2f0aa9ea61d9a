"""Each host's answer is what that host reads: the fields it applies for the event, the
exit code it acts on, and nothing it would reject or misread.

The readers below restate each host's parsing rules from its source (cited in the
host modules): Codex's output_parser.rs, Gemini CLI's hookRunner/types.ts, Copilot's
hooks reference, Crush's hooks.go. The end-to-end suite (tests/e2e) checks the same
answers against the real host programs where they run here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from hookrun.hosts import claude, codex, copilot, crush, cursor, gemini, neutral
from hookrun.hosts.base import Answer
from hookrun.runner.result import RunResult

Result = dict[str, Any]


def run(event: str, **fields: Any) -> RunResult:
    return RunResult(event=event, **fields)


DENY = {"decision": "deny", "reason": "no force push"}
HALT = {"decision": "deny", "halt": True, "reason": "stop everything"}
REWRITE = {"updated_input": {"command": "git push --force-with-lease"}}
REDACTED = {"stdout": "key [REDACTED:aws_access_key]", "stderr": ""}

# -- Codex: its schema, as output_parser.rs enforces it ------------------------------------

CODEX_TOP = {
    "continue",
    "stopReason",
    "suppressOutput",
    "systemMessage",
    "decision",
    "reason",
    "hookSpecificOutput",
}


def codex_reads(event: str, answer: Answer) -> dict[str, Any]:
    """What Codex makes of an answer: block / reason / updated input / context / stop.
    Raises AssertionError where Codex would find the answer invalid (and drop it)."""
    if answer.exit_code == 2:
        assert answer.stderr and answer.stderr.strip(), "exit 2 without a reason is ignored"
        return {"block": answer.stderr.strip()}
    assert answer.exit_code == 0
    out = dict(answer.stdout or {})
    assert set(out) <= CODEX_TOP, f"unknown top-level keys: {set(out) - CODEX_TOP}"
    specific = out.get("hookSpecificOutput") or {}
    seen: dict[str, Any] = {}
    if event == "PreToolUse":
        assert out.get("continue", True) is True and "stopReason" not in out
        decision = specific.get("permissionDecision")
        assert decision in (None, "allow", "deny")
        if "updatedInput" in specific:
            assert decision == "allow"
            seen["updated_input"] = specific["updatedInput"]
        if decision == "allow":
            assert "updatedInput" in specific
        if decision == "deny":
            assert specific.get("permissionDecisionReason", "").strip()
            seen["block"] = specific["permissionDecisionReason"]
    if "additionalContext" in specific:
        seen["context"] = specific["additionalContext"]
    if out.get("continue") is False:
        seen["stop"] = out.get("stopReason")
    if out.get("decision") == "block":
        assert out.get("reason", "").strip()
        seen["block"] = out["reason"]
    return seen


@pytest.mark.parametrize(
    ("event", "fields", "expected"),
    [
        ("PreToolUse", DENY, {"block": "no force push"}),
        ("PreToolUse", REWRITE, {"updated_input": REWRITE["updated_input"]}),
        ("PreToolUse", {"decision": "allow"}, {}),  # a bare allow is invalid: nothing sent
        ("PreToolUse", {"context": ("remember",)}, {"context": "remember"}),
        ("UserPromptSubmit", {"context": ("branch main",)}, {"context": "branch main"}),
        ("Stop", DENY, {"block": "no force push"}),
        ("PostToolUse", {"halt": True, "reason": "stop"}, {"stop": "stop"}),
    ],
)
def test_codex_applies_each_answer(event: str, fields: Result, expected: Result) -> None:
    assert codex_reads(event, codex.answer(run(event, **fields), event, {})) == expected


@pytest.mark.parametrize(
    "fields", [HALT, {"decision": "ask", "reason": "sure?"}], ids=["halt", "ask"]
)
def test_codex_pre_tool_use_halt_and_ask_deny_since_codex_cannot_stop_or_ask_there(
    fields: Result,
) -> None:
    seen = codex_reads("PreToolUse", codex.answer(run("PreToolUse", **fields), "PreToolUse", {}))
    assert "block" in seen and "Codex CLI cannot" in seen["block"]


def test_codex_redaction_is_a_post_tool_use_block_whose_reason_replaces_the_output() -> None:
    # Verified with Codex 0.169: the block reason is what the model sees instead.
    answer = codex.answer(
        run("PostToolUse", updated_output="key [REDACTED:aws_access_key]"), "PostToolUse", {}
    )
    seen = codex_reads("PostToolUse", answer)
    assert seen["block"].endswith("\nkey [REDACTED:aws_access_key]")
    assert "updatedToolOutput" not in str(answer.stdout)


# -- Claude Code -----------------------------------------------------------------------------


def test_claude_pre_tool_use_halt_of_a_shell_call_runs_a_no_op_and_stops_the_turn() -> None:
    # Verified with Claude Code 2.1.197: deny + continue:false does not end the turn,
    # allow + a no-op command + continue:false keeps the effect from happening and does.
    payload = {"tool_kind": "shell", "tool_input": {"command": "rm -rf /", "description": "x"}}
    answer = claude.answer(run("PreToolUse", **HALT), "PreToolUse", payload)
    out = dict(answer.stdout or {})
    assert answer.exit_code == 0 and out["continue"] is False
    assert out["stopReason"] == "stop everything"
    specific = out["hookSpecificOutput"]
    assert specific["permissionDecision"] == "allow"
    assert specific["updatedInput"] == {"command": "true", "description": "x"}


def test_claude_pre_tool_use_halt_of_another_tool_denies_it() -> None:
    payload = {"tool_kind": "write", "tool_input": {"file_path": "/etc/passwd"}}
    answer = claude.answer(run("PreToolUse", **HALT), "PreToolUse", payload)
    out = dict(answer.stdout or {})
    assert out["continue"] is False
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_claude_redaction_uses_updated_tool_output_which_claude_applies_to_every_tool() -> None:
    answer = claude.answer(run("PostToolUse", updated_output=REDACTED), "PostToolUse", {})
    specific = dict(answer.stdout or {})["hookSpecificOutput"]
    assert specific["updatedToolOutput"] == REDACTED
    assert "updatedMCPToolOutput" not in specific


def test_claude_deny_exits_2_with_the_reason_and_the_json_reason_too() -> None:
    answer = claude.answer(run("PreToolUse", **DENY), "PreToolUse", {})
    assert (answer.exit_code, answer.stderr) == (2, "no force push")
    specific = dict(answer.stdout or {})["hookSpecificOutput"]
    assert specific["permissionDecisionReason"] == "no force push"


def test_claude_cannot_rewrite_a_prompt_so_the_prompt_is_blocked_with_the_rewrite() -> None:
    answer = claude.answer(
        run("UserPromptSubmit", updated_prompt="deploy to staging"), "UserPromptSubmit", {}
    )
    out = dict(answer.stdout or {})
    assert answer.exit_code == 2 and out["decision"] == "block"
    assert "deploy to staging" in out["reason"]


def test_claude_context_files_reach_the_model_as_text() -> None:
    answer = claude.answer(
        run("SessionStart", context=("hi",), context_files=("README.md",)), "SessionStart", {}
    )
    context = dict(answer.stdout or {})["hookSpecificOutput"]["additionalContext"]
    assert context == "hi\nReferenced files:\n- README.md"


# -- Gemini CLI: stdout JSON decides, whatever the exit code ---------------------------------


def gemini_reads(answer: Answer) -> dict[str, Any]:
    out = dict(answer.stdout or {})
    specific = out.get("hookSpecificOutput") or {}
    return {
        "blocked": out.get("decision") in ("deny", "block"),
        "reason": out.get("reason"),
        "stop": out.get("continue") is False,
        "tool_input": specific.get("tool_input"),
        "context": specific.get("additionalContext"),
    }


def test_gemini_before_tool_deny_is_in_the_json_and_exit_2() -> None:
    answer = gemini.answer(run("PreToolUse", **DENY), "BeforeTool", {})
    seen = gemini_reads(answer)
    assert seen["blocked"] and seen["reason"] == "no force push" and answer.exit_code == 2


def test_gemini_rewrites_input_through_hook_specific_tool_input() -> None:
    seen = gemini_reads(gemini.answer(run("PreToolUse", **REWRITE), "BeforeTool", {}))
    assert seen["tool_input"] == REWRITE["updated_input"] and not seen["blocked"]


def test_gemini_redaction_replaces_the_result_with_only_the_redacted_text() -> None:
    output = {"llmContent": "key [REDACTED:aws_access_key]", "returnDisplay": "x"}
    seen = gemini_reads(gemini.answer(run("PostToolUse", updated_output=output), "AfterTool", {}))
    assert seen["blocked"] and seen["reason"].endswith("key [REDACTED:aws_access_key]")


def test_gemini_halt_stops_the_loop_and_blocks_the_tool() -> None:
    seen = gemini_reads(gemini.answer(run("PreToolUse", **HALT), "BeforeTool", {}))
    assert seen["stop"] and seen["blocked"]


def test_gemini_has_no_ask_so_ask_denies() -> None:
    seen = gemini_reads(
        gemini.answer(run("PreToolUse", decision="ask", reason="sure?"), "BeforeTool", {})
    )
    assert seen["blocked"] and "cannot ask" in seen["reason"]


# -- Copilot CLI: only its own top-level fields, even on exit 2 --------------------------------


def test_copilot_deny_reason_is_a_top_level_field_it_reads_on_exit_2() -> None:
    answer = copilot.answer(run("PreToolUse", **DENY), "preToolUse", {})
    assert answer.exit_code == 2
    assert answer.stdout == {
        "permissionDecision": "deny",
        "permissionDecisionReason": "no force push",
    }


def test_copilot_rewrite_is_modified_args_and_context_additional_context() -> None:
    answer = copilot.answer(run("PreToolUse", context=("note",), **REWRITE), "preToolUse", {})
    assert answer.stdout == {"modifiedArgs": REWRITE["updated_input"], "additionalContext": "note"}


def test_copilot_redaction_is_modified_result_text() -> None:
    output = {"resultType": "success", "textResultForLlm": "key [REDACTED:aws_access_key]"}
    answer = copilot.answer(run("PostToolUse", updated_output=output), "postToolUse", {})
    assert answer.stdout == {
        "modifiedResult": {"resultType": "success", "textResultForLlm": output["textResultForLlm"]}
    }


def test_copilot_never_gets_hook_specific_output() -> None:
    for event, name in (("PreToolUse", "PreToolUse"), ("SessionStart", "sessionStart")):
        answer = copilot.answer(run(event, context=("x",), **DENY), name, {})
        assert "hookSpecificOutput" not in (answer.stdout or {})


# -- Cursor and Crush --------------------------------------------------------------------------


def test_cursor_shell_deny_sends_permission_and_both_messages() -> None:
    answer = cursor.answer(run("PreToolUse", **DENY), "beforeShellExecution", {})
    assert answer.exit_code == 2
    assert answer.stdout == {
        "permission": "deny",
        "user_message": "no force push",
        "agent_message": "no force push",
    }


def test_cursor_redacts_mcp_output_only_and_says_so_for_other_tools() -> None:
    mcp = cursor.answer(
        run("PostToolUse", updated_output={"a": 1}), "postToolUse", {"tool_kind": "mcp"}
    )
    assert mcp.stdout == {"updated_mcp_tool_output": {"a": 1}}
    shell = cursor.answer(
        run("PostToolUse", updated_output="x"), "postToolUse", {"tool_kind": "shell"}
    )
    assert "NOT redacted" in dict(shell.stdout or {})["additional_context"]


@pytest.mark.parametrize(
    ("fields", "code"),
    [(DENY, 2), (HALT, 49), ({"decision": "ask", "reason": "sure?"}, 2)],
    ids=["deny", "halt", "ask"],
)
def test_crush_blocks_by_exit_code_with_the_reason_on_stderr(fields: Result, code: int) -> None:
    answer = crush.answer(run("PreToolUse", **fields), "PreToolUse", {})
    assert answer.exit_code == code and answer.stderr
    # Crush ignores stdout on exit 2/49; the same answer is printed for logs.
    assert dict(answer.stdout or {})["decision"] == "deny"


def test_crush_gets_only_the_fields_it_reads() -> None:
    answer = crush.answer(
        run(
            "PreToolUse",
            context=("c",),
            context_files=("README.md",),
            updated_prompt="p",
            system_message="s",
            **REWRITE,
        ),
        "PreToolUse",
        {},
    )
    out = dict(answer.stdout or {})
    assert set(out) == {"version", "context", "updated_input"}
    assert "README.md" in out["context"]
    assert answer.stderr is not None and "Crush cannot apply" in answer.stderr


# -- neutral and ambiguous -------------------------------------------------------------------


def test_the_neutral_shape_is_the_full_envelope() -> None:
    answer = neutral.answer(run("PreToolUse", **HALT), "PreToolUse", {})
    assert answer.exit_code == 49 and dict(answer.stdout or {})["halt"] is True


def test_an_ambiguous_deny_is_read_by_claude_codex_and_copilot() -> None:
    answer = claude.ambiguous_answer(run("PreToolUse", **DENY), "PreToolUse", {})
    out: Mapping[str, Any] = answer.stdout or {}
    assert answer.exit_code == 2 and answer.stderr == "no force push"  # Claude, Codex
    assert out["permissionDecision"] == "deny"  # Copilot, even on exit 2
    assert out["permissionDecisionReason"] == "no force push"
    assert codex_reads("PreToolUse", answer) == {"block": "no force push"}


def test_an_ambiguous_rewrite_is_valid_for_codex() -> None:
    answer = claude.ambiguous_answer(run("PreToolUse", **REWRITE), "PreToolUse", {})
    assert codex_reads("PreToolUse", answer) == {"updated_input": REWRITE["updated_input"]}


def test_gemini_does_not_block_after_agent_again_while_a_retry_runs() -> None:
    # Verified with Gemini CLI 0.61: AfterAgent blocks retry with no cap.
    first = gemini.answer(run("Stop", **DENY), "AfterAgent", {"stop_hook_active": False})
    assert gemini_reads(first)["blocked"]
    again = gemini.answer(run("Stop", **DENY), "AfterAgent", {"stop_hook_active": True})
    assert not gemini_reads(again)["blocked"] and again.exit_code == 0
    assert again.stderr is not None and "retry without end" in again.stderr


def test_copilot_prompt_context_is_top_level_additional_context() -> None:
    # Verified with Copilot CLI 1.0.102 (the docs say the output is dropped).
    answer = copilot.answer(
        run("UserPromptSubmit", context=("branch main",)), "userPromptSubmitted", {}
    )
    assert answer.stdout == {"additionalContext": "branch main"}
