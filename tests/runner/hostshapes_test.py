from __future__ import annotations

from typing import Any

import pytest

from hookrun.runner.result import RunResult


@pytest.mark.parametrize(
    ("result", "claude"),
    [
        (RunResult(event="PreToolUse"), {}),
        (
            RunResult(event="PreToolUse", decision="deny", reason="rm -rf /"),
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "rm -rf /",
                }
            },
        ),
        (
            RunResult(
                event="PreToolUse",
                decision="allow",
                updated_input={"command": "ls -la"},
                context=("a", "b"),
                context_files=("README.md",),
            ),
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "allow",
                    "updatedInput": {"command": "ls -la"},
                    "additionalContext": "a\nb\nReferenced files:\n- README.md",
                }
            },
        ),
        (
            RunResult(event="PreToolUse", halt=True, reason="budget"),
            {"continue": False, "stopReason": "budget"},
        ),
        (
            RunResult(event="PostToolUse", decision="deny", reason="leak", updated_output={"c": 1}),
            {
                "decision": "block",
                "reason": "leak",
                "hookSpecificOutput": {
                    "hookEventName": "PostToolUse",
                    "updatedMCPToolOutput": {"c": 1},
                },
            },
        ),
        (
            RunResult(
                event="UserPromptSubmit", decision="deny", reason="prod secret", context=("x",)
            ),
            {
                "decision": "block",
                "reason": "prod secret",
                "hookSpecificOutput": {
                    "hookEventName": "UserPromptSubmit",
                    "additionalContext": "x",
                },
            },
        ),
        (
            RunResult(event="UserPromptSubmit", updated_prompt="rewritten"),
            {},
        ),
        (
            RunResult(event="SessionStart", context=("branch main",)),
            {
                "hookSpecificOutput": {
                    "hookEventName": "SessionStart",
                    "additionalContext": "branch main",
                }
            },
        ),
        (
            RunResult(event="Stop", decision="deny", reason="tests fail"),
            {"decision": "block", "reason": "tests fail"},
        ),
        (
            RunResult(event="PermissionRequest", decision="allow", updated_input={"a": 1}),
            {
                "hookSpecificOutput": {
                    "hookEventName": "PermissionRequest",
                    "decision": {"behavior": "allow", "updatedInput": {"a": 1}},
                }
            },
        ),
        (
            RunResult(event="PermissionRequest", decision="deny", reason="no"),
            {
                "hookSpecificOutput": {
                    "hookEventName": "PermissionRequest",
                    "decision": {"behavior": "deny", "message": "no"},
                }
            },
        ),
        (RunResult(event="Notification", system_message="note"), {"systemMessage": "note"}),
    ],
    ids=[
        "empty",
        "pre-deny",
        "pre-allow-input-context",
        "halt",
        "post-block",
        "prompt-block",
        "prompt-rewrite-has-no-claude-equivalent",
        "session-context",
        "stop-block",
        "permission-allow",
        "permission-deny",
        "system-message",
    ],
)
def test_to_claude_speaks_claude_codes_hook_output(
    result: RunResult, claude: dict[str, Any]
) -> None:
    assert result.to_claude() == claude


@pytest.mark.parametrize(
    ("result", "crush"),
    [
        (RunResult(event="PreToolUse"), {"version": 1}),
        (
            RunResult(event="PreToolUse", decision="deny", reason="r", context=("c",)),
            {"version": 1, "decision": "deny", "reason": "r", "context": ["c"]},
        ),
        (
            RunResult(
                event="PreToolUse",
                decision="allow",
                updated_input={"a": 1},
                context_files=("README.md",),
            ),
            {
                "version": 1,
                "decision": "allow",
                "updated_input": {"a": 1},
                "context_files": ["README.md"],
            },
        ),
        (
            RunResult(event="UserPromptSubmit", halt=True, reason="h", updated_prompt="p"),
            {"version": 1, "halt": True, "reason": "h", "updated_prompt": "p"},
        ),
        (
            RunResult(event="PostToolUse", updated_output="scrubbed", system_message="s"),
            {"version": 1, "updated_output": "scrubbed", "system_message": "s"},
        ),
    ],
    ids=["empty", "deny", "allow-input-files", "halt-prompt", "output"],
)
def test_to_crush_is_crushs_envelope(result: RunResult, crush: dict[str, Any]) -> None:
    assert result.to_crush() == crush


@pytest.mark.parametrize(
    ("result", "code"),
    [
        (RunResult(event="X"), 0),
        (RunResult(event="X", decision="allow"), 0),
        (RunResult(event="X", decision="ask"), 0),
        (RunResult(event="X", decision="deny"), 2),
        (RunResult(event="X", decision="deny", halt=True), 49),
        (RunResult(event="X", halt=True), 49),
        (RunResult(event="X", decision="deny", halt=True, cancelled=True), 130),
    ],
)
def test_exit_code_cancel_then_halt_then_deny(result: RunResult, code: int) -> None:
    assert result.exit_code == code


def test_to_dict_has_exactly_the_designed_keys() -> None:
    assert list(RunResult(event="Stop").to_dict()) == [
        "version",
        "event",
        "decision",
        "halt",
        "reason",
        "context",
        "context_files",
        "updated_input",
        "updated_prompt",
        "updated_output",
        "system_message",
        "hooks",
    ]
